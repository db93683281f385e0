"""What a guarantee means for one person: the best attacker's limits, and what an attacker measured (issue 32).

An attacker who sees a release and asks "is this person's data in?" runs a hypothesis test of "in" (D) against
"out" (D′, the neighbour without that person). Differential privacy bounds every such test at once:

* :func:`tradeoff` — for (ε, δ)-DP, the largest true-positive rate (TPR, "insiders caught") at each false-positive
  rate (FPR, "outsiders wrongly flagged"): TPR ≤ min(1, δ + e^ε·FPR, 1 − e^(−ε)·(1 − δ − FPR)).
  Wasserman & Zhou 2010 / Kairouz, Oh & Viswanath 2015 (Thm 2.1); in Dong, Roth & Su, *Gaussian Differential
  Privacy* (JRSS-B 2022), eq. (5): f_{ε,δ}(α) = max{0, 1 − δ − e^ε α, e^(−ε)(1 − δ − α)} is the type II error,
  TPR = 1 − f. It is exactly the curve of the worst (ε, δ)-DP mechanism, so no (ε, δ)-DP release does better.
* :func:`gaussian_tradeoff` — the Gaussian mechanism with noise multiplier z = σ/Δ is μ-GDP with μ = 1/z
  (Dong, Roth & Su, Thm 2.7): TPR = Φ(Φ⁻¹(FPR) + μ), tighter than the (ε, δ(ε)) curve at every ε.
* :func:`profile_tradeoff` / :func:`pld_tradeoff` — a composed session from its privacy profile δ(ε):
  the trade-off curve is the lower envelope over ε of the (ε, δ(ε)) curves (Dong, Roth & Su, Prop. 2.12; the
  profile of a dp_accounting privacy loss distribution gives the session's curve).
* :func:`posterior_bound` — an attacker's prior p that the person is in → the largest posterior:
  p·e^ε / (p·e^ε + 1 − p) (Bayes' rule with a likelihood ratio ≤ e^ε). That is a bound on every output only for
  ε-DP. (ε, δ)-DP does *not* say "ε-DP with probability 1 − δ": it bounds every event, Pr[M(D) ∈ S] ≤
  e^ε·Pr[M(D′) ∈ S] + δ, and the probability that the privacy loss L(y) exceeds ε can be many times δ (the
  Gaussian mechanism at ε = 1, δ = 1e-5: 16 δ for its raw output). What it does give, for every ε′ > ε
  (:func:`loss_tail_bound`): with S = {y : L(y) > ε′}, Pr[M(D′) ∈ S] ≤ e^(−ε′)·Pr[M(D) ∈ S], so
  Pr[M(D) ∈ S] ≤ e^(ε−ε′)·Pr[M(D) ∈ S] + δ, i.e. Pr[L > ε′] ≤ δ / (1 − e^(ε−ε′)). The posterior exceeds
  p·e^ε′ / (p·e^ε′ + 1 − p) exactly when L(y) > ε′, so with ε′ = ε + ln 2 (:data:`TAIL_STEP`): the posterior
  stays at most p·2e^ε / (p·2e^ε + 1 − p) except with probability at most 2δ — for the release and for anything
  computed from it (post-processing keeps (ε, δ)-DP). :class:`AttackerLimits` says exactly that.

Measured attacks on the same axes: :func:`empirical_roc` (a threshold test's ROC from its scores),
:func:`audit_attack` (the privacy audit's chosen test with Clopper–Pearson corners) and :func:`above_bound`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from ..audit.core import empirical_roc
from ..errors import UserError
from ..validation import check_delta, check_probability, check_real, check_sensitivity

__all__ = [
    "tradeoff",
    "gaussian_tradeoff",
    "profile_tradeoff",
    "pld_tradeoff",
    "posterior_bound",
    "epsilon_for_posterior",
    "AttackerLimits",
    "attacker_limits",
    "percent_at_most",
    "loss_tail_bound",
    "TAIL_STEP",
    "empirical_roc",
    "MeasuredAttack",
    "audit_attack",
    "membership_points",
    "above_bound",
    "FPR_GRID",
]

FPR_GRID = np.linspace(0.0, 1.0, 201)
"""The false-positive rates a curve is drawn at (every 0.5 %)."""

_PROFILE_POINTS = 64


def _rates(name: str, values) -> np.ndarray:
    """A rate or an array of rates in [0, 1], NaN rejected first (TypeError for a non-number)."""
    try:
        a = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name} must be a number or an array of numbers in [0, 1], got {type(values).__name__}"
        ) from exc
    if a.size and np.isnan(a).any():
        raise UserError(f"{name} must not be NaN, got {name}={values!r}")
    if a.size and (a.min() < 0.0 or a.max() > 1.0):
        bad = a[(a < 0) | (a > 1)].ravel()[0]
        raise UserError(f"{name} must be in [0, 1], got {name}={bad:g}")
    return a


def _epsilon(epsilon, name: str = "epsilon") -> float:
    """ε ≥ 0 and finite (ε = 0 is a release that reveals nothing: its curve is the diagonal)."""
    return check_real(name, epsilon, low=0.0, low_inclusive=True)


def _out(a: np.ndarray, like) -> np.ndarray | float:
    return float(a) if np.ndim(like) == 0 else a


def tradeoff(fpr, *, epsilon, delta=0.0):
    """The largest TPR of any test against an (ε, δ)-DP release, at each false-positive rate.

    TPR(α) = min{1, δ + e^ε·α, 1 − e^(−ε)·(1 − δ − α)} (Dong, Roth & Su 2022, eq. (5), as 1 − f_{ε,δ}(α);
    Kairouz, Oh & Viswanath 2015, Thm 2.1). Symmetric, concave, non-decreasing; TPR(0) = δ, TPR(1) = 1.

    Args:
      fpr: false-positive rate(s) in [0, 1] (a number or an array; the same shape comes back).
      epsilon: ε ≥ 0.
      delta: δ in [0, 1).

    Raises:
      TypeError / ValueError: fpr not rates in [0, 1], ε < 0 or not finite, δ outside [0, 1).
    """
    a = _rates("fpr", fpr)
    eps = _epsilon(epsilon)
    delta = check_delta(delta=delta, allow_zero=True)
    tpr = np.minimum(np.minimum(delta + math.exp(min(eps, 700.0)) * a, 1.0 - math.exp(-eps) * (1.0 - delta - a)), 1.0)
    return _out(np.maximum(tpr, a), fpr)  # max with α only guards rounding: the curve is never below the diagonal


def gaussian_tradeoff(fpr, *, noise_multiplier):
    """The largest TPR against the Gaussian mechanism with noise multiplier z = σ/Δ (exact, not a bound).

    TPR(α) = Φ(Φ⁻¹(α) + 1/z): the mechanism is μ-GDP with μ = Δ/σ = 1/z (Dong, Roth & Su 2022, Thm 2.7 and
    eq. (6): G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) is the type II error).

    Raises:
      TypeError / ValueError: fpr not rates in [0, 1]; noise_multiplier not a finite real > 0.
    """
    a = _rates("fpr", fpr)
    z = check_sensitivity(sensitivity=noise_multiplier, name="noise_multiplier")
    return _out(np.asarray(norm.cdf(norm.ppf(a) + 1.0 / z), dtype=float), fpr)


def profile_tradeoff(fpr, *, epsilons, deltas):
    """The trade-off curve of a release that is (ε_i, δ_i)-DP for every i: the lower envelope of their curves.

    TPR(α) = min_i TPR_{ε_i, δ_i}(α) (Dong, Roth & Su 2022, Prop. 2.12: a privacy profile δ(ε), ε ≥ 0, and the
    symmetric trade-off curve determine each other through this envelope). Given a profile on a grid the envelope
    is an upper bound on the exact curve, reached as the grid is refined.

    Args:
      fpr: false-positive rate(s) in [0, 1].
      epsilons, deltas: 1-D arrays of equal length ≥ 1: ε_i ≥ 0 and δ_i in [0, 1].

    Raises:
      ValueError: arrays empty, of different lengths, or holding values out of range.
    """
    a = _rates("fpr", fpr)
    eps = np.asarray(epsilons, dtype=float).ravel()
    dl = _rates("deltas", deltas).ravel()
    if eps.size == 0 or eps.size != dl.size:
        raise UserError(f"epsilons and deltas must be non-empty and of equal length, got {eps.size} and {dl.size}")
    if np.isnan(eps).any() or (eps < 0).any() or not np.isfinite(eps).all():
        raise UserError(f"epsilons must be finite and >= 0, got epsilons={eps[~(eps >= 0) | ~np.isfinite(eps)][0]}")
    x = np.atleast_1d(a)[:, None]
    e = np.exp(np.minimum(eps, 700.0))[None, :]
    d = dl[None, :]
    curves = np.minimum(d + e * x, 1.0 - (1.0 - d - x) / e)
    tpr = np.clip(curves.min(axis=1), x[:, 0], 1.0)
    return float(tpr[0]) if np.ndim(fpr) == 0 else tpr.reshape(a.shape)


def pld_tradeoff(fpr, pld, *, epsilons=None):
    """The trade-off curve of a composed session from its privacy loss distribution (dp_accounting's PLD).

    Reads the PLD's privacy profile δ(ε) = ``pld.get_delta_for_epsilon(ε)`` on a grid of ε ≥ 0 (default: 64
    values from 0 to the ε at δ = 1e-12, where the curve meets TPR = FPR·e^ε + δ within 1e-12) and returns
    :func:`profile_tradeoff`. dp_accounting's PLD is pessimistic, and so is a coarse grid: the curve is an upper
    bound. Each δ(ε) costs dp_accounting ~10 ms on a composed PLD: about 0.6 s per curve, so draw it on demand.
    """
    if not hasattr(pld, "get_delta_for_epsilon"):
        raise TypeError(f"pld must be a privacy loss distribution (get_delta_for_epsilon), got {type(pld).__name__}")
    if epsilons is None:
        top = float(pld.get_epsilon_for_delta(1e-12))
        eps = np.linspace(0.0, max(top, 1e-3), _PROFILE_POINTS)
    else:
        eps = np.asarray(epsilons, dtype=float).ravel()
    deltas = np.clip(np.asarray(pld.get_delta_for_epsilon(eps), dtype=float), 0.0, 1.0)
    return profile_tradeoff(fpr, epsilons=eps, deltas=deltas)


def posterior_bound(prior, *, epsilon, delta=0.0):
    """The largest posterior that the person is in, for an attacker whose prior is ``prior``.

    p·e^ε / (p·e^ε + 1 − p): Bayes' rule with a likelihood ratio Pr[y | in] / Pr[y | out] ≤ e^ε — for every output
    under ε-DP. Under (ε, δ)-DP it is exceeded exactly at the outputs whose privacy loss is above ε, which have no
    probability bound of δ (module docstring); state it one step higher, with :func:`loss_tail_bound`. δ is checked
    but never changes the number.

    Args:
      prior: the attacker's prior(s) in [0, 1] (a number or an array).
      epsilon: ε ≥ 0. delta: δ in [0, 1).
    """
    p = _rates("prior", prior)
    eps = _epsilon(epsilon)
    check_delta(delta=delta, allow_zero=True)
    odds_up = math.exp(min(eps, 700.0))
    with np.errstate(invalid="ignore"):
        post = np.where(p >= 1.0, 1.0, p * odds_up / (p * odds_up + (1.0 - p)))
    return _out(np.asarray(post, dtype=float), prior)


def epsilon_for_posterior(prior, posterior) -> float:
    """The largest ε at which an attacker with this prior can become at most ``posterior`` sure.

    Inverts :func:`posterior_bound`: ε = ln(q(1 − p) / (p(1 − q))), the posterior odds over the prior odds.

    Raises:
      ValueError: prior not in (0, 1), posterior not in [prior, 1).
    """
    p = check_probability(prior, "prior", allow_zero=False, allow_one=False)
    q = check_probability(posterior, "posterior", allow_one=False)
    if q < p:
        raise UserError(f"posterior must be >= prior (ε ≥ 0 never lowers the bound), got posterior={q:g}, prior={p:g}")
    return math.log(q * (1.0 - p) / (p * (1.0 - q)))


TAIL_STEP = math.log(2.0)
"""ε′ − ε at which an (ε, δ) release's posterior bound is stated: the tail bound δ / (1 − e^(ε−ε′)) is then 2δ."""


def loss_tail_bound(*, epsilon, delta, step=TAIL_STEP) -> tuple[float, float]:
    """(ε′, t): for every (ε, δ)-DP release, Pr_{y∼M(D)}[L(y) > ε′] ≤ t = δ / (1 − e^(−step)) with ε′ = ε + step.

    Proof (module docstring): on S = {y : L(y) > ε′}, Pr[M(D′) ∈ S] ≤ e^(−ε′)·Pr[M(D) ∈ S]; the (ε, δ) inequality
    for S then gives Pr[M(D) ∈ S] ≤ e^(ε−ε′)·Pr[M(D) ∈ S] + δ. Holds for anything computed from the release too.
    """
    eps = _epsilon(epsilon)
    delta = check_delta(delta=delta, allow_zero=True)
    step = check_real("step", step, low=0.0, low_inclusive=False)
    return eps + step, delta / (1.0 - math.exp(-step))


def percent_at_most(x: float) -> str:
    """An upper bound in per cent, rounded up (never shown below the bound) at the first precision, from one
    decimal on, that keeps two significant digits of what is left to 100 %: 0.7310 → "73.2 %", 0.98168 → "98.2 %",
    0.99982 → "99.982 %" (a whole-number rounding turned 73.1 % into 74 %: true, but needlessly loose)."""
    x = check_probability(x, "x")
    if x >= 1.0:
        return "100 %"
    for digits in range(1, 7):  # the first precision that leaves two significant digits of 100 % − x
        scale = 10.0**digits
        v = math.ceil(x * 100.0 * scale - 1e-9) / scale
        if (100.0 - v) * scale >= 10.0:
            return f"{v:.{digits}f} %"
    return "99.99999 %"


@dataclass(frozen=True)
class AttackerLimits:
    """The best attacker's limits at (ε, δ): ``posterior`` for ``prior`` (with δ > 0: at ``stated_epsilon`` = ε + ln 2,
    exceeded with probability at most ``tail`` = 2δ; :func:`loss_tail_bound`); ``tpr`` of a test flagging ``fpr`` of
    outsiders (the (ε, δ) trade-off curve). ``sentence`` says it in words a student can read."""

    epsilon: float
    delta: float
    prior: float
    posterior: float
    fpr: float
    tpr: float
    stated_epsilon: float = math.nan
    tail: float = 0.0

    @property
    def sentence(self) -> str:
        where = f"ε = {self.epsilon:g}" + (f", δ = {self.delta:g}" if self.delta else "")
        prior = "a coin flip" if self.prior == 0.5 else f"{self.prior * 100:g} % likely"
        text = (
            f"At {where}: someone who thought it {prior} that you are in this data could become at most "
            f"{percent_at_most(self.posterior)} sure"
        )
        if self.delta:
            text += f" (except with probability at most {self.tail:.2g}, the (ε, δ) bound at ε + ln 2)"
        return (
            text + f" — and a test that says “in” for {self.fpr * 100:g} % of outsiders catches at most "
            f"{percent_at_most(self.tpr)} of insiders."
        )


def attacker_limits(*, epsilon, delta=0.0, prior=0.5, fpr=0.1) -> AttackerLimits:
    """:func:`posterior_bound` at ``prior`` and :func:`tradeoff` at ``fpr``, with the sentence that says them.

    The TPR includes δ (it is the (ε, δ) curve). With δ > 0 the posterior is stated at ε′ = ε + ln 2, where it holds
    except with probability at most 2δ (:func:`loss_tail_bound`); at ε itself no probability bound follows from δ."""
    eps = _epsilon(epsilon)
    delta = check_delta(delta=delta, allow_zero=True)
    prior = check_probability(prior, "prior")
    fpr = check_probability(fpr, "fpr")
    stated, tail = loss_tail_bound(epsilon=eps, delta=delta) if delta else (eps, 0.0)
    return AttackerLimits(
        eps,
        delta,
        prior,
        posterior_bound(prior, epsilon=stated, delta=delta),
        fpr,
        tradeoff(fpr, epsilon=eps, delta=delta),
        stated,
        tail,
    )


@dataclass(frozen=True)
class MeasuredAttack:
    """A measured test on the bound's axes: its point (``fpr``, ``tpr``), the corner the data prove at the audit's
    confidence (``fpr_upper``, ``tpr_lower``: one-sided Clopper–Pearson bounds), and its ROC (every threshold of
    the same score, on the evaluation runs)."""

    name: str
    fpr: float
    tpr: float
    fpr_upper: float
    tpr_lower: float
    roc_fpr: np.ndarray
    roc_tpr: np.ndarray


def audit_attack(result, *, name: str = "measured attack", points: int | None = 1000) -> MeasuredAttack:
    """The privacy audit's chosen test (:class:`dpcore.audit.AuditResult`) as a point on the bound's axes.

    "In" is the dataset on top of the audit's ratio (``event.numerator``): TPR = Pr[event | that one], FPR =
    Pr[event | the other], measured on the evaluation half; the corner (FPR⁺, TPR⁻) is what the audit proves.
    The corner lies above :func:`tradeoff` at the claimed (ε, δ) exactly when the audit refutes the claim on
    the curve's first segment (ε_lower > ε: TPR⁻ > δ + e^ε·FPR⁺) or on its second. The ROC has about ``points``
    thresholds (:meth:`AuditResult.roc`; None: every distinct score), the chosen one among them."""
    r = result
    on_top = r.event.numerator == "D"
    roc_fpr, roc_tpr = r.roc(points=points)
    k_in, k_out = (r.count_d, r.count_d_prime) if on_top else (r.count_d_prime, r.count_d)
    lo_in = r.interval_d[0] if on_top else r.interval_d_prime[0]
    hi_out = r.interval_d_prime[1] if on_top else r.interval_d[1]
    return MeasuredAttack(name, k_out / r.n_eval, k_in / r.n_eval, hi_out, lo_in, roc_fpr, roc_tpr)


def membership_points(table, *, epsilon) -> list[MeasuredAttack]:
    """The membership inference attack (:func:`dpcore.bayesian.evaluation.membership_inference`'s table) at one of
    its ε, one :class:`MeasuredAttack` per mechanism: "member" = the user's data in; TPR = 1 − FNR, the proven
    corner (FPR⁺, 1 − FNR⁺), and the ROC of the attack's score on the evaluation half."""
    eps = _epsilon(epsilon)
    out = []
    for row in table.rows():
        if not math.isclose(row["epsilon"], eps, rel_tol=1e-12):
            continue
        out.append(
            MeasuredAttack(
                str(row["mechanism"]),
                row["fpr"],
                1.0 - row["fnr"],
                row["fpr_upper"],
                1.0 - row["fnr_upper"],
                np.asarray(row["roc_fpr"], dtype=float),
                np.asarray(row["roc_tpr"], dtype=float),
            )
        )
    if not out:
        raise UserError(f"epsilon must be one of the attack's ε {sorted(set(table['epsilon'].tolist()))}, got {eps:g}")
    return out


def above_bound(fpr, tpr, *, epsilon, delta=0.0) -> bool:
    """True when the point (fpr, tpr) lies strictly above the (ε, δ) curve: no (ε, δ)-DP release allows it."""
    tpr = check_probability(tpr, "tpr")
    return bool(tpr > tradeoff(check_probability(fpr, "fpr"), epsilon=epsilon, delta=delta) + 1e-12)
