"""What a privacy reviewer asks of a release (issue 9 item 3): warnings, the noise in the answer's units,
and the total budget.

Three kinds of frozen records, each usable from a notebook as well as from the dashboard's reviewer panel:

- :class:`ReviewWarning` (rule, message, fix) from :func:`review_warnings`, one per setting a reviewer
  would question: δ ≥ 1/(number of users), ε > 10, the classic Gaussian at ε ≥ 1, a contribution cap
  larger than the median user's items, a random-DP γ > 0.1, fewer than 100 users.
- :class:`NoiseStatement` from the ``*_noise_in_units`` functions: "a count of 100 comes back as
  100 ± 38 (95 %)".
- :class:`BudgetStatement` from :func:`end_to_end_budget`, :func:`dpne_budget` and :func:`single_budget`.

:func:`review_release` builds all three for a release object of dpcore. Every number here is a closed form of
the noise distribution (two-sided intervals of Laplace, Gaussian and log-normal laws); the tests recompute
them independently (scipy's distributions, or a Monte-Carlo draw).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median

import numpy as np
from scipy.special import ndtri

from ..mechanisms.gaussian import classic_gaussian_sigma, gaussian_delta
from ..guarantees import LOCAL_SENSITIVITY, Guarantee
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_sensitivity

__all__ = [
    "ReviewWarning",
    "NoiseStatement",
    "BudgetStatement",
    "Review",
    "REVIEW_RULES",
    "EPSILON_WARN_ABOVE",
    "GAMMA_WARN_ABOVE",
    "MIN_USERS",
    "review_warnings",
    "laplace_noise_in_units",
    "gaussian_noise_in_units",
    "log_space_noise_in_units",
    "dpne_users_per_released",
    "end_to_end_budget",
    "dpne_budget",
    "single_budget",
    "no_budget",
    "review_release",
]

EPSILON_WARN_ABOVE = 10.0
GAMMA_WARN_ABOVE = 0.1
MIN_USERS = 100
REVIEW_RULES = {
    "delta-vs-users": "δ must be well below 1/(number of users)",
    "epsilon-large": f"ε above {EPSILON_WARN_ABOVE:g} promises practically nothing",
    "classic-gaussian": "the classic Gaussian σ is proven only for ε < 1",
    "cap-above-median": "a contribution cap should not exceed what the median user contributes",
    "gamma-large": f"random DP with γ above {GAMMA_WARN_ABOVE:g} leaves too many neighbours uncovered",
    "few-users": f"fewer than {MIN_USERS} users: DP noise swamps what the data says",
    "noise-swamps-answer": "noise wider than the whole range of the answer leaves nothing of it",
}
"""rule id → the rule in words (shown beside each warning)."""


@dataclass(frozen=True)
class ReviewWarning:
    """One setting a reviewer would question: ``rule`` (a key of :data:`REVIEW_RULES`), what is wrong
    here (``message``, with the numbers) and what to do (``fix``)."""

    rule: str
    message: str
    fix: str

    @property
    def rule_text(self) -> str:
        return REVIEW_RULES[self.rule]

    def to_dict(self) -> dict:
        return {"rule": self.rule, "rule_text": self.rule_text, "message": self.message, "fix": self.fix}


@dataclass(frozen=True)
class NoiseStatement:
    """The noise of a release in the units of its answer.

    ``kind`` is "additive" (value ± half_width) or "multiplicative" (value ×/÷ factor); ``text`` says it
    in one sentence."""

    quantity: str
    value: float
    kind: str
    half_width: float | None
    factor: float | None
    confidence: float
    text: str

    def to_dict(self) -> dict:
        return dict(
            quantity=self.quantity,
            value=self.value,
            kind=self.kind,
            half_width=self.half_width,
            factor=self.factor,
            confidence=self.confidence,
            text=self.text,
        )


@dataclass(frozen=True)
class BudgetStatement:
    """The total privacy budget of what a page released: ``parts`` are (name, value) pairs — ε values
    (``unit`` "epsilon") or shares of one Gaussian budget (``unit`` "share"). A release that is not DP
    because its sensitivity was measured on the data (local sensitivity) has no budget: ``total_epsilon``
    and ``delta`` are None, ``unit`` is "none" and ``parts`` are the ε values its noise was set from."""

    total_epsilon: float | None
    delta: float | None
    parts: tuple[tuple[str, float], ...]
    unit: str
    text: str

    def to_dict(self) -> dict:
        return dict(
            total_epsilon=self.total_epsilon,
            delta=self.delta,
            parts=[list(p) for p in self.parts],
            unit=self.unit,
            text=self.text,
        )


@dataclass(frozen=True)
class Review:
    """Everything the reviewer's panel shows for one release."""

    guarantee: Guarantee
    noise: tuple[NoiseStatement, ...]
    warnings: tuple[ReviewWarning, ...]
    budget: BudgetStatement | None
    session_entry: object = None  # the release's dpcore.lab.BudgetEntry (a session budget's line), if built from one

    def to_dict(self) -> dict:
        return {
            "guarantee": self.guarantee.to_dict(),
            "noise": [n.to_dict() for n in self.noise],
            "warnings": [w.to_dict() for w in self.warnings],
            "budget": None if self.budget is None else self.budget.to_dict(),
        }


# ------------------------------------------------------------------------------------------------ warnings


def _fmt(x: float) -> str:
    return f"{x:.3g}"


def review_warnings(
    *,
    epsilon=None,
    delta=None,
    n_users=None,
    calibration=None,
    contribution_cap=None,
    user_items=None,
    cap_name: str = "contribution cap",
    random_dp_gamma=None,
    noise=(),
    answer_range=None,
) -> tuple[ReviewWarning, ...]:
    """The warnings that fire for these settings (every argument optional; a rule whose inputs are missing
    does not fire).

    Args:
      epsilon, delta: the privacy parameters of the release.
      n_users: number of users in the corpus.
      calibration: the Gaussian calibration *used* ("classic" or "analytic"; "auto" never warns).
      contribution_cap: the per-user cap (Laplace's W, DPNE's Δ0, BayesianDP strict's L) and
        ``user_items`` the per-user amounts it caps (a sequence, one number per user, in the cap's unit).
      cap_name: how the page calls the cap, e.g. "L (items per user)".
      random_dp_gamma: γ of (ε, δ, γ)-random DP (TopicDP, MVG).
      noise, answer_range: the release's :class:`NoiseStatement` records and the width of the range its
        answer can take (1 for a probability); an additive noise whose half-width is at least that range
        ("0.1 comes back as 0.1 ± 2,100") fires "noise-swamps-answer".

    Rules (:data:`REVIEW_RULES`): δ ≥ 1/n_users; ε > 10; classic Gaussian at ε ≥ 1 (with its true δ);
    cap > median of ``user_items``; γ > 0.1; n_users < 100; noise half-width ≥ the answer's range.
    """
    out: list[ReviewWarning] = []
    eps = None if epsilon is None else check_epsilon(epsilon)
    dl = None if delta is None else check_delta(delta)
    n = None if n_users is None else check_int("n_users", n_users, low=0)
    if dl is not None and n is not None and n > 0 and dl >= 1.0 / n:
        out.append(
            ReviewWarning(
                "delta-vs-users",
                f"δ = {dl:g} is at least 1/(number of users) = 1/{n} = {1.0 / n:.3g}: a mechanism that publishes one "
                f"random user's data whole meets (ε, δ)-DP at this δ.",
                f"Set δ well below 1/{n}, e.g. δ ≤ {0.01 / n:.1g} (1 % of 1/n).",
            )
        )
    if eps is not None and eps > EPSILON_WARN_ABOVE:
        out.append(
            ReviewWarning(
                "epsilon-large",
                f"ε = {eps:g}: one user may change the probability of an output by a factor e^ε ≈ "
                f"{math.exp(eps) if eps < 700 else math.inf:.3g} "
                "— practically no promise.",
                f"Use ε ≤ {EPSILON_WARN_ABOVE:g}; ε ≤ 1 for a strong promise.",
            )
        )
    if calibration is not None:
        check_choice("calibration", calibration, ("auto", "classic", "analytic"))
    if calibration == "classic" and eps is not None and eps >= 1.0:
        msg = f"The classic σ = √(2 ln(1.25/δ))/ε is outside its proof at ε = {eps:g} ≥ 1"
        if dl is not None:
            true = gaussian_delta(eps, classic_gaussian_sigma(eps, dl))
            msg += f": its true δ is {true:.3g}, {true / dl:.3g} × the stated δ = {dl:g}"
        out.append(
            ReviewWarning(
                "classic-gaussian",
                msg + ".",
                "Use the analytic calibration (Balle & Wang 2018), or 'auto', which switches to it from ε = 1.",
            )
        )
    if contribution_cap is not None and user_items is not None:
        cap = check_real("contribution_cap", contribution_cap, low=0.0)
        items = np.asarray(list(user_items), dtype=float)
        if items.size:
            med = float(median(items.tolist()))
            if cap > med:
                out.append(
                    ReviewWarning(
                        "cap-above-median",
                        f"The {cap_name} {cap:g} is larger than the median user's {med:g}: the noise grows with the cap "
                        f"while the cap cuts only the {np.mean(items > cap):.0%} of users above it.",
                        f"Lower the {cap_name} towards the median ({med:g}); it bounds what one user can add.",
                    )
                )
    if random_dp_gamma is not None:
        g = check_real("random_dp_gamma", random_dp_gamma, low=0.0, high=1.0, high_inclusive=False)
        if g > GAMMA_WARN_ABOVE:
            out.append(
                ReviewWarning(
                    "gamma-large",
                    f"γ = {g:g}: the (ε, δ) promise does not hold for {g:.0%} of neighbouring pairs drawn from the data "
                    "distribution — and nobody knows which.",
                    f"Use γ ≤ {GAMMA_WARN_ABOVE:g} (the sensitivity sampler needs more pairs), or a mechanism with a "
                    "proven global sensitivity.",
                )
            )
    if answer_range is not None:
        width = check_real("answer_range", answer_range, low=0.0, low_inclusive=False)
        for st in (noise,) if isinstance(noise, NoiseStatement) else tuple(noise):
            if st.kind == "additive" and st.half_width is not None and st.half_width >= width:
                out.append(
                    ReviewWarning(
                        "noise-swamps-answer",
                        f"{st.text[0].upper() + st.text[1:]} The noise's half-width is {_num(st.half_width / width)} × the "
                        f"whole range ({width:g}) the answer can take: the released value tells almost nothing "
                        "about the data.",
                        "Raise ε, or release fewer and coarser numbers (a smaller table) so that the noise of one "
                        "answer is small against its range; compare the mechanisms' noise first.",
                    )
                )
    if n is not None and n < MIN_USERS:
        out.append(
            ReviewWarning(
                "few-users",
                f"The corpus has {n} users (< {MIN_USERS}): noise that hides one user is large against what {n} users say, "
                "and δ must be far below 1/n.",
                f"Use at least {MIN_USERS} users, or release fewer, coarser statistics.",
            )
        )
    return tuple(out)


# ------------------------------------------------------------------------------------------------ noise


def _conf(confidence) -> float:
    return check_real("confidence", confidence, low=0.0, high=1.0, high_inclusive=False)


def _num(v: float) -> str:
    """Two significant digits for noise, never scientific below a million: 38, 3.8, 0.038, 1,200."""
    if v == 0 or not math.isfinite(v):
        return f"{v:g}"
    digits = 1 - int(math.floor(math.log10(abs(v))))
    r = round(v, digits)
    return f"{r:,.{max(0, digits)}f}" if abs(r) < 1e6 else f"{r:.2g}"


def _val(v: float) -> str:
    return f"{v:,.4g}" if abs(v) < 1e6 else f"{v:.4g}"


def _pct(c: float) -> str:
    return f"{c * 100:.3g} %"


def laplace_noise_in_units(value, *, scale, confidence=0.95, quantity: str = "a count") -> NoiseStatement:
    """value ± b·ln(1/(1 − confidence)): P(|Lap(0, b)| ≤ t) = 1 − e^(−t/b), so the 95 % half-width is b·ln 20."""
    b = check_sensitivity(scale, "scale")
    c = _conf(confidence)
    v = check_real("value", value)
    half = b * math.log(1.0 / (1.0 - c))
    return NoiseStatement(
        quantity,
        v,
        "additive",
        half,
        None,
        c,
        f"{quantity} of {_val(v)} comes back as {_val(v)} ± {_num(half)} ({_pct(c)}).",
    )


def gaussian_noise_in_units(value, *, sigma, confidence=0.95, quantity: str = "a count") -> NoiseStatement:
    """value ± z·σ with z = Φ⁻¹((1 + confidence)/2) (1.96 at 95 %)."""
    s = check_sensitivity(sigma, "sigma")
    c = _conf(confidence)
    v = check_real("value", value)
    half = float(ndtri((1.0 + c) / 2.0)) * s
    return NoiseStatement(
        quantity,
        v,
        "additive",
        half,
        None,
        c,
        f"{quantity} of {_val(v)} comes back as {_val(v)} ± {_num(half)} ({_pct(c)}).",
    )


_MAX_LOG_FACTOR = math.log(np.finfo(float).max)  # ≈ 709.78


def log_space_noise_in_units(value, *, sigma, confidence=0.95, quantity: str = "a word probability") -> NoiseStatement:
    """BayesianDP adds N(0, σ_ps²) to h = log θ (up to the softmax normaliser): a probability p comes back
    as p·e^(σZ), i.e. within p ×/÷ e^(zσ) with z = Φ⁻¹((1 + confidence)/2), before the renormalisation
    (which rescales all words by one common factor)."""
    s = check_real("sigma", sigma, low=0.0, low_inclusive=True)
    c = _conf(confidence)
    v = check_real("value", value, low=0.0)
    log_factor = float(ndtri((1.0 + c) / 2.0)) * s
    if log_factor > _MAX_LOG_FACTOR:  # e^(zσ) beyond a float (σ in the hundreds at ε = 0.01): say it in words
        factor = math.inf
        text = (
            f"{quantity} of {v:.3g} comes back anywhere between 0 and 1 (×/÷ e^{log_factor:.3g}, beyond any "
            f"floating-point number, {_pct(c)}, before renormalising)"
        )
    else:
        factor = math.exp(log_factor)
        text = (
            f"{quantity} of {v:.3g} comes back between {v / factor:.3g} and {v * factor:.3g} "
            f"(×/÷ {factor:.3g}, {_pct(c)}, before renormalising)"
        )
    return NoiseStatement(quantity, v, "multiplicative", None, factor, c, text + ".")


def dpne_users_per_released(*, sigma, threshold, confidence=0.95, k: int | None = None) -> NoiseStatement:
    """How many users a released k-gram had (003; DPSU weighted Gaussian policy).

    Each user adds at most weight 1 to an item (ℓ2 norm ≤ 1 per user), so an item's weight is at most its
    number of users u, and it is released when weight + N(0, σ_k²) > ρ_k. With fewer than
    N = ρ_k − z·σ_k users (z = Φ⁻¹(confidence), 1.645 at 95 %) it passes with probability below
    1 − confidence. ``value`` is N (rounded up, at least 0).
    """
    s = check_sensitivity(sigma, "sigma")
    rho = check_real("threshold", threshold)
    c = _conf(confidence)
    z = float(ndtri(c))
    n = max(0.0, math.ceil(rho - z * s))
    name = f"{k}-gram" if k is not None else "k-gram"
    if n >= 1:
        text = (
            f"each released {name} was used by at least ~{n:.0f} users: one used by fewer passes the threshold "
            f"ρ = {rho:.3g} (noise σ = {s:.3g}) with probability below {_pct(1 - c)}."
        )
    else:
        text = (
            f"a released {name} may have been used by no user at all (threshold ρ = {rho:.3g} against noise "
            f"σ = {s:.3g}): such spurious {name}s are bounded by η, not by a user count."
        )
    return NoiseStatement(f"users behind a released {name}", float(n), "lower bound", None, None, c, text)


# ------------------------------------------------------------------------------------------------ budget


def end_to_end_budget(*, epsilon_train, epsilon_tune, delta) -> BudgetStatement:
    """EndToEndDP (000 §3.2): ε_train for the release plus ε_tune for choosing (S, ρ), by basic composition."""
    a, b = check_epsilon(epsilon_train, "epsilon_train"), check_epsilon(epsilon_tune, "epsilon_tune")
    d = check_delta(delta)
    return BudgetStatement(
        a + b,
        d,
        (("ε_train (BayesianDP release)", a), ("ε_tune (choosing S, ρ)", b)),
        "epsilon",
        f"Total ε = ε_train + ε_tune = {a:.3g} + {b:.3g} = {a + b:.3g}, δ = {d:g}.",
    )


def dpne_budget(*, sigma, sigmas, epsilon, delta) -> BudgetStatement:
    """DPNE (003 Prop. 2.3): the Gaussian parts compose as Σ_k 1/σ_k² = 1/σ², so length k spends the share
    (σ/σ_k)² of one (ε, δ) budget."""
    s = check_sensitivity(sigma, "sigma")
    parts = tuple((f"length {k}", (s / check_sensitivity(sk, "sigmas")) ** 2) for k, sk in sorted(dict(sigmas).items()))
    total = sum(p for _, p in parts)
    shares = ", ".join(f"k = {name.split()[-1]}: {p:.0%}" for name, p in parts)
    eps, d = check_epsilon(epsilon), check_delta(delta)
    return BudgetStatement(
        eps,
        d,
        parts,
        "share",
        f"One (ε = {eps:g}, δ = {d:g}) budget over all lengths; shares 1/σ_k² of 1/σ²: {shares} (sum {total:.3g}).",
    )


def no_budget(spent: BudgetStatement) -> BudgetStatement:
    """What a local-sensitivity release "spends": nothing that adds up — no (ε, δ) holds for it, not even for
    this corpus's neighbours (SPEC §3b; issue 21 item 1). ``spent``'s parts (the ε values the noise was set
    from) are kept for the record; the total is None."""
    settings = " and ".join(f"{name.split()[0] if name.startswith('ε') else 'ε'} = {v:.3g}" for name, v in spent.parts)
    return BudgetStatement(
        None,
        None,
        spent.parts,
        "none",
        f"No privacy budget: not DP — the noise was set from {settings}"
        f"{'' if spent.delta is None else f', δ = {spent.delta:g}'} with a sensitivity measured "
        "on the private data, so no (ε, δ) holds, not even for this corpus's neighbours, and "
        "nothing here composes.",
    )


def single_budget(*, epsilon, delta=None, name: str = "the release") -> BudgetStatement:
    """A page that released one thing: its (ε, δ) is the total."""
    eps = check_epsilon(epsilon)
    d = None if delta is None else check_delta(delta, allow_zero=True)
    dtext = "" if d is None else f", δ = {d:g}"
    return BudgetStatement(eps, d, ((name, eps),), "epsilon", f"Total ε = {eps:g}{dtext} ({name}).")


# ------------------------------------------------------------------------------------------------ one call


def review_release(release, *, n_users=None, user_items=None, confidence=0.95, value=None) -> Review:
    """The reviewer's view of one dpcore release: its guarantee, noise in units, warnings and budget.

    Args:
      release: a BayesianRelease, EndToEndRelease, LaplaceRelease, KAnonymityRelease, DpneRelease,
        DpsuBaselineRelease, MatrixRelease or VipsRelease.
      n_users: users in the corpus (for the δ and corpus-size rules).
      user_items: per-user amounts in the unit of the release's cap (L, W or Δ0; VIPS-LDA: every person's ℓ2
        norm of expected counts, ``VipsPageSetup.user_norms``), for the cap rule.
      value: the answer to express the noise on (a count for Laplace, a probability for BayesianDP and the
        matrices); a sensible default otherwise.
    """
    from ..bayesian.release import BayesianRelease
    from ..bayesian.end_to_end import EndToEndRelease
    from ..bayesian.baselines import KAnonymityRelease, LaplaceRelease
    from ..dpne.results import DpneRelease, DpsuBaselineRelease
    from ..topicdp.mechanisms import MatrixRelease
    from ..topicdp.vips import VipsRelease

    types = (
        BayesianRelease,
        EndToEndRelease,
        KAnonymityRelease,
        LaplaceRelease,
        DpneRelease,
        DpsuBaselineRelease,
        MatrixRelease,
        VipsRelease,
    )
    if not isinstance(release, types):
        raise TypeError(f"release must be a dpcore release object, got {type(release).__name__}")
    g = release.guarantee
    noise: list[NoiseStatement] = []
    budget = None
    kw: dict = dict(n_users=n_users)
    if isinstance(release, EndToEndRelease):
        inner = release.release
        noise.append(
            log_space_noise_in_units(
                1.0 / inner.theta.size if value is None else value, sigma=inner.sigma, confidence=confidence
            )
        )
        budget = end_to_end_budget(
            epsilon_train=release.epsilon_train, epsilon_tune=release.epsilon_tune, delta=release.delta
        )
        kw.update(epsilon=release.epsilon, delta=release.delta, calibration=inner.calibration)
    elif isinstance(release, BayesianRelease):
        noise.append(
            log_space_noise_in_units(
                1.0 / release.theta.size if value is None else value, sigma=release.sigma, confidence=confidence
            )
        )
        budget = single_budget(epsilon=release.epsilon, delta=release.delta, name="BayesianDP release")
        kw.update(epsilon=release.epsilon, delta=release.delta, calibration=release.calibration)
        if release.max_items is not None:
            kw.update(contribution_cap=release.max_items, user_items=user_items, cap_name="item cap L")
    elif isinstance(release, LaplaceRelease):
        if release.scale > 0:
            noise.append(
                laplace_noise_in_units(
                    100.0 if value is None else value,
                    scale=release.scale,
                    confidence=confidence,
                    quantity="a count" if release.mechanism == "Laplace" else "a share",
                )
            )
        budget = single_budget(epsilon=release.epsilon, name=release.mechanism)
        kw.update(epsilon=release.epsilon)
        if release.mechanism == "Laplace":
            kw.update(contribution_cap=release.W, user_items=user_items, cap_name="count cap W")
    elif isinstance(release, DpneRelease):
        for k in sorted(k for k, rho in release.thresholds.items() if math.isfinite(rho)):  # ρ_k = ∞: nothing at k
            noise.append(
                dpne_users_per_released(
                    sigma=release.sigmas[k], threshold=release.thresholds[k], confidence=confidence, k=k
                )
            )
        budget = dpne_budget(sigma=release.sigma, sigmas=release.sigmas, epsilon=release.epsilon, delta=release.delta)
        kw.update(
            epsilon=release.epsilon,
            delta=release.delta,
            contribution_cap=release.contribution_limit,
            user_items=user_items,
            cap_name="contribution limit Δ0",
        )
    elif isinstance(release, DpsuBaselineRelease):
        for k in sorted(k for k, rho in release.thresholds.items() if math.isfinite(rho)):  # ρ_k = ∞: nothing at k
            noise.append(
                dpne_users_per_released(
                    sigma=release.sigmas[k], threshold=release.thresholds[k], confidence=confidence, k=k
                )
            )
        kw.update(
            epsilon=g.epsilon,
            delta=g.delta,
            contribution_cap=release.contribution_limit,
            user_items=user_items,
            cap_name="contribution limit Δ0",
        )
        budget = single_budget(
            epsilon=g.epsilon,
            delta=g.delta,
            name=release.name + (" — per length; the lengths together spend more" if g.scope else ""),
        )
    elif isinstance(release, VipsRelease):
        if release.sigma > 0:  # noise on expected counts (unbounded above): no answer range to swamp
            noise.append(
                gaussian_noise_in_units(
                    100.0 if value is None else value,
                    sigma=release.sigma,
                    confidence=confidence,
                    quantity="an expected topic–word count (in every iteration)",
                )
            )
            budget = single_budget(
                epsilon=release.epsilon,
                delta=release.delta,
                name=f"VIPS-LDA, {release.iterations} iteration"
                f"{'s' if release.iterations > 1 else ''} composed by the PLD accountant",
            )
            kw.update(
                epsilon=release.epsilon,
                delta=release.delta,
                contribution_cap=release.clip_norm,
                user_items=user_items,
                cap_name="clip norm B (ℓ2 norm of a person's expected counts)",
            )
    elif isinstance(release, MatrixRelease):
        v = 1.0 / release.matrix.shape[1] if value is None else value
        q = "a topic–word probability"
        if release.mechanism == "Laplace":
            noise.append(laplace_noise_in_units(v, scale=release.noise_scale, confidence=confidence, quantity=q))
        else:
            noise.append(gaussian_noise_in_units(v, sigma=release.noise_scale, confidence=confidence, quantity=q))
        budget = single_budget(epsilon=release.epsilon, delta=release.delta, name=release.mechanism)
        # TopicDP's classic σ runs at ε′ = ε/(m·n); where ε′ ≥ 1 its guarantee's scope says so.
        # A probability lies in [0, 1]: a noise wider than that is flagged (issue 24 item 6).
        kw.update(
            epsilon=release.epsilon, delta=release.delta, random_dp_gamma=release.gamma, noise=noise, answer_range=1.0
        )
    # KAnonymityRelease: no noise and no budget; its guarantee says what it is
    if budget is not None and g.kind == LOCAL_SENSITIVITY:
        budget = no_budget(budget)
    from .budget import budget_entry

    return Review(
        guarantee=g,
        noise=tuple(noise),
        warnings=review_warnings(**kw),
        budget=budget,
        session_entry=budget_entry(release),
    )


# ------------------------------------------------------------------------------------------------ overview


def mechanism_guarantees(
    *, epsilon=1.0, delta=1e-5, gamma=0.1, K=10, W, max_items, max_users
) -> tuple[tuple[str, str, Guarantee], ...]:
    """(source, mechanism, Guarantee) for every mechanism and baseline the dashboard shows, built by the same
    functions the release types use to label themselves (so the home page's table cannot drift from them).
    The source is SPEC's paper id ("001" lecture, "000" Bayesian, "003" DPNE, "004" TopicDP); dpui maps it to
    its page (dpui.navigation.SOURCE_PAGE_TITLES).
    The caps the labels name (W, L = ``max_items``, N_max = ``max_users``) have no default here: the caller
    passes the ones its releases use (the home page: the Bayesian page's, dpui.bayesian_knobs.guarantee_settings)."""
    from ..bayesian.release import bayesian_guarantee
    from ..bayesian.end_to_end import end_to_end_guarantee
    from ..bayesian.baselines import PRIVATE_BASELINE_GUARANTEE, PUBLIC_BASELINE_GUARANTEE, laplace_guarantee
    from ..dpne.accounting import dpne_guarantee
    from ..guarantees import k_anonymity, pure_dp
    from .lecture import DEBT_CAP, bank_debt_guarantee
    from ..topicdp.mechanisms import matrix_guarantee
    from ..topicdp.vips import DEFAULT_CLIP_NORM, DEFAULT_ITERATIONS, vips_guarantee

    eps, d = check_epsilon(epsilon), check_delta(delta)
    b = "000"  # each source's page: dpui.navigation.SOURCE_PAGE_TITLES
    return (
        ("001", "Laplace mechanism (global Δ)", pure_dp(eps)),
        ("001", "Bank debt, b from the cap", bank_debt_guarantee(epsilon=eps, scale=DEBT_CAP / eps)),
        ("001", "Bank debt, b from the data", bank_debt_guarantee(epsilon=eps, scale=2_800_798.0 / eps)),
        (
            b,
            "BayesianDP strict (L, N_max caps)",
            bayesian_guarantee(
                epsilon=eps,
                delta=d,
                sensitivity_method="strict",
                calibration="auto",
                max_items=max_items,
                max_users=max_users,
            ),
        ),
        (
            b,
            "BayesianDP local (as in the paper)",
            bayesian_guarantee(epsilon=eps, delta=d, sensitivity_method="brute-force"),
        ),
        (b, "EndToEndDP", end_to_end_guarantee(epsilon_train=2 * eps / 3, epsilon_tune=eps / 3, delta=d)),
        (b, "Laplace (cap W)", laplace_guarantee("Laplace", epsilon=eps, W=W)),
        (b, "Laplace + public", laplace_guarantee("Laplace + public", epsilon=eps, W=W)),
        (b, "k-anonymity", k_anonymity(K)),
        (b, "Public baseline", PUBLIC_BASELINE_GUARANTEE),
        (b, "Private baseline", PRIVATE_BASELINE_GUARANTEE),
        ("003", "DPNE", dpne_guarantee(epsilon=eps, delta=d)),
        ("003", "DPSU-all / DPSU-even", dpne_guarantee(epsilon=eps, delta=d)),
        ("003", "DPSU-single", dpne_guarantee(epsilon=eps, delta=d, single_length=True)),
        ("004", "TopicDP", matrix_guarantee("TopicDP", epsilon=eps, delta=d, gamma=gamma, m=10, n=10)),
        ("004", "TopicDP corrected", matrix_guarantee("TopicDP corrected", epsilon=eps, delta=d, gamma=gamma)),
        ("004", "TopicDP strict", matrix_guarantee("TopicDP strict", epsilon=eps, delta=d)),
        ("004", "MVG", matrix_guarantee("MVG", epsilon=eps, delta=d, gamma=gamma)),
        ("004", "Laplace on the matrix", matrix_guarantee("Laplace", epsilon=eps)),
        (
            "004",
            "VIPS-LDA",
            vips_guarantee(
                eps,
                d,
                iterations=DEFAULT_ITERATIONS,
                clip_norm=DEFAULT_CLIP_NORM,
                vocabulary_source="public data",
                start_source="a fit on public data",
            ),
        ),
    )


__all__.append("mechanism_guarantees")


def items_per_user(user_counts) -> np.ndarray:
    """Distinct items (non-zero columns) per user of a users × |V| sparse matrix, or distinct unigrams per user of a
    :class:`dpcore.text.TokenCorpus` — what a per-user item cap
    (BayesianDP strict's L, DPNE's Δ0 in items) is compared with by the "cap-above-median" rule."""
    import scipy.sparse as sp

    from ..text.ngrams import TokenCorpus

    if isinstance(user_counts, TokenCorpus):  # distinct unigrams per user (DPNE's Δ0 at k = 1)
        users, _, _ = user_counts.unigram_pairs
        return np.bincount(np.asarray(users, dtype=np.int64), minlength=user_counts.n_users).astype(int)
    if not sp.issparse(user_counts):
        raise TypeError(f"user_counts must be a scipy.sparse matrix, got {type(user_counts).__name__}")
    m = sp.csr_matrix(user_counts)
    m.eliminate_zeros()
    return np.diff(m.indptr).astype(int)


__all__.append("items_per_user")


def custom_review(
    guarantee: Guarantee, *, noise=(), budget: BudgetStatement | None = None, **warning_settings
) -> Review:
    """A :class:`Review` for a release that is not a dpcore release object (e.g. a lecture demo): the guarantee,
    the noise statements, the budget and :func:`review_warnings` of ``warning_settings``."""
    if not isinstance(guarantee, Guarantee):
        raise TypeError(f"guarantee must be a Guarantee, got {type(guarantee).__name__}")
    noise = (noise,) if isinstance(noise, NoiseStatement) else tuple(noise)
    return Review(guarantee=guarantee, noise=noise, warnings=review_warnings(**warning_settings), budget=budget)


__all__.append("custom_review")
