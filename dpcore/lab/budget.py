"""A session's privacy budget: the releases one person has looked at, and what they promise together.

Issue 21 item 5: every view of a page is a fresh release (its noise is salted by every parameter), so two
views together say more than either — at ε = 0.5 and ε = 1 with one shared draw they gave the noiseless
μ_ps away; with fresh draws they compose. :class:`BudgetEntry` describes one release by its privacy event,
and :func:`compose_releases` adds them up (:mod:`dpcore.lab.budget_accounting`: exact for Gaussians, dp_accounting's
privacy loss distributions for the rest):

* the mechanism's own event where it is known — a Gaussian with noise multiplier σ/Δ (BayesianDP strict:
  σ_ps/(ρ·γ_strict), which is σ(ε, δ) at Δ = 1; VIPS-LDA's J iterations with σ/B each: one Gaussian with
  σ/(B·√J); the TopicDP matrix Gaussians: σ/Δ_s), a Laplace with b/Δ (Laplace with the per-user cap W: b/W = 1/ε;
  the matrix Laplace: b/(2m));
* else the release's (ε, δ) pair as a generic (ε, δ)-DP mechanism (DPNE and the DPSU baselines, whose
  threshold step is not a Gaussian; MVG): ``from_privacy_parameters``, the pair that dominates every
  (ε, δ)-DP mechanism, so composing these is the optimal composition of (ε, δ) pairs;
* a release that reads no private data (a public-only fit, 0-DP) is a pure ε = 0 event: it composes as nothing;
* a release that is not DP (local sensitivity, k-anonymity, no protection) has no event and no ε.

What the total promises is a :class:`~dpcore.Guarantee`, derived from the releases' kinds in the one vocabulary of
:mod:`dpcore.guarantees` (issue 31 item 4): the badge, the session budget and the reviewer's panel say the same.
Every release with an (ε, δ) is composed; the total is

* green "DP" when every release is proven DP;
* orange "DP for part of the release only" when some are DP given a non-private part (the total is given those
  parts), orange "weaker than DP" when some are random DP (the total holds for a share ≥ 1 − Σγ of neighbouring
  pairs: a union bound over the distinct sampled sensitivities);
* red "not DP" when one release is not DP: nothing the session showed together has an (ε, δ); the text still says
  what the others compose to.

The composed δ is the largest δ of the Gaussian releases plus the δ's of the generic (ε, δ) releases (whose δ is an
atom of unbounded loss and adds up), and ε the smallest at that δ — at most Σ ε_i (basic composition), usually much
less, and never lower after one more release.

An entry's ``key`` is the release's identity: its spec record (seed, every parameter, the corpus hash) and the
mechanism, never its output (issue 30 item 2: two seeds that release the same sets are two releases).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import cast

from ..guarantees import (
    APPROXIMATE_DP,
    GUARANTEE_KINDS,
    K_ANONYMITY,
    LOCAL_SENSITIVITY,
    PURE_DP,
    RANDOM_DP,
    Guarantee,
    approximate_dp,
    k_anonymity,
    local_sensitivity,
    no_protection,
    pure_dp,
    random_dp,
)
from ..validation import check_delta, check_epsilon, check_sensitivity
from .budget_accounting import PLD_DISCRETIZATION, compose_events
from .review_kinds import release_budget_line
from ..errors import UserError

__all__ = [
    "BudgetEntry",
    "ComposedBudget",
    "budget_entry",
    "compose_releases",
    "release_identity",
    "PLD_DISCRETIZATION",
]

METHOD = (
    "exact for the Gaussian releases (merged into one Gaussian, its closed-form privacy profile: Balle & Wang 2018, "
    "Thm 8); dp_accounting's PLD for Laplace and (ε, δ) releases (pessimistic, its grid coarser in a long session), "
    "convolved with that profile"
)


@dataclass(frozen=True)
class BudgetEntry:
    """One release as the budget sees it.

    Attributes:
      mechanism: what the page calls it ("BayesianDP strict", "DPNE", …).
      released: what was published, in words ("θ over 16,998 unigrams").
      guarantee: the release's own :class:`~dpcore.Guarantee`.
      event: ``("gaussian", σ/Δ, δ)``, ``("laplace", b/Δ)``, ``("approximate", ε, δ, count)`` (ε = δ = 0: a release
        that reads no private data) or None (not DP). For a Gaussian, δ is the δ its σ was calibrated to (the
        composed total's δ adds it).
      key: the release's identity (:func:`release_identity`: the mechanism and its spec record — seed, every
        parameter, the corpus hash), None when none was given: the same release seen twice (a rerun, a slider moved
        back) is one entry, two seeds are two entries even when they output the same thing.
      share: for a random-DP release, ``(γ, Δ_s)``: the sampled sensitivity bound it relies on (releases on the same
        bound fail on the same pairs: the total's γ adds each distinct bound once).
    """

    mechanism: str
    released: str
    guarantee: Guarantee
    event: tuple | None
    key: str | None
    share: tuple | None = None

    @property
    def has_guarantee(self) -> bool:
        """True when the release has an (ε, δ) that composes (DP, DP for part of the release, random DP)."""
        return self.event is not None

    @property
    def epsilon(self) -> float | None:
        """The release's ε where it has one that composes, else None (a local-sensitivity ε sets a noise scale only)."""
        return self.guarantee.epsilon if self.has_guarantee else None

    @property
    def delta(self) -> float | None:
        return self.guarantee.delta if self.has_guarantee else None

    @property
    def colour(self) -> str:
        """The release's level (green / orange / red): its guarantee's, as on its badge."""
        return self.guarantee.colour

    @property
    def promise(self) -> str:
        """The promise in the badge's words (:attr:`dpcore.Guarantee.words`): "DP: (ε, δ)-DP per user (ε = 1,
        δ = 1e-05)", "DP for part of the release only: ε-DP per user (ε = 1)", "not DP: sensitivity measured on the
        private data (its noise was set from ε = 1, δ = 1e-05)"."""
        g = self.guarantee
        if not self.has_guarantee:
            noise = ""
            if g.epsilon is not None:
                noise = f" (its noise was set from ε = {g.epsilon:g}" + (f", δ = {g.delta:g})" if g.delta else ")")
            return f"{g.words}{noise}"
        event = cast(tuple, self.event)  # has_guarantee: it has one
        count = event[3] if event[0] == "approximate" else 1
        each = f" × {count} (one per length)" if count > 1 else ""
        return f"{g.words}{each}"


@dataclass(frozen=True)
class ComposedBudget:
    """The releases of a list together: ``epsilon``/``delta`` (None when a release is not DP), ``basic_epsilon`` =
    Σ ε_i (basic composition, for comparison), how many releases, how many are not DP (``without_guarantee``), the
    method and ``text`` (one sentence). ``guarantee`` is the total as a :class:`~dpcore.Guarantee` (its kind, colour
    and words are the badges' vocabulary); ``colour``/``strength`` are its level and words; ``counted_epsilon`` /
    ``counted_delta`` compose every release that has an (ε, δ), also when another one is not DP."""

    epsilon: float | None
    delta: float | None
    basic_epsilon: float | None
    releases: int
    without_guarantee: int
    method: str
    text: str
    guarantee: Guarantee | None = None
    colour: str = "green"
    strength: str = "DP"
    counted_epsilon: float = 0.0
    counted_delta: float = 0.0


def _key(*parts) -> str:
    h = hashlib.blake2b(digest_size=12)
    for p in parts:
        h.update(json.dumps(p, sort_keys=True, default=repr).encode())
        h.update(b"|")
    return h.hexdigest()


def release_identity(spec, *, without: tuple[str, ...] = ()) -> dict:
    """A release's identity for the session budget: its spec's record (``spec.record()``: kind, version, seed, every
    parameter, the corpus hash), without the fields this release does not depend on (``without``, e.g. the η grid of
    a chart the release is not part of). A record (dict) is taken as it is."""
    record = spec if isinstance(spec, dict) else spec.record()
    if not isinstance(record, dict):
        raise TypeError(f"spec must be a dpcore.specs.Spec or its record (a dict), got {type(spec).__name__}")
    return {k: v for k, v in record.items() if k not in without}


def budget_entry(release, *, identity=None, mechanism: str | None = None) -> BudgetEntry:
    """The :class:`BudgetEntry` of a dpcore release object (BayesianRelease, EndToEndRelease, LaplaceRelease,
    KAnonymityRelease, DpneRelease, DpsuBaselineRelease, MatrixRelease, VipsRelease).

    Args:
      release: the release.
      identity: what identifies it — a spec (:class:`dpcore.specs.Spec`), its record, :func:`release_identity`'s
        dict or a string that already identifies it; the entry's key hashes it with the mechanism's name. Without it the key is None (a notebook may
        compose such entries; the app's session budget refuses them: it must tell two releases apart).
      mechanism: the name to list it under (default: the mechanism's own).

    VIPS-LDA's event: J adaptively composed Gaussian mechanisms with ℓ2 sensitivity B and noise σ, i.e. noise
    multiplier z = σ/B each. Their privacy loss distributions compose exactly to that of one Gaussian with
    multiplier z/√J (each loss is Gaussian with mean 1/(2z²) and variance 1/z²; means and variances add), so the
    entry is ``("gaussian", σ/(B·√J), δ)`` — the exact composition, not J separate (ε, δ) pairs."""
    g = release.guarantee
    counts = g.budget_standing != "not counted"
    zero = g.epsilon == 0 and g.kind == PURE_DP  # reads no private data: a pure ε = 0 event (issue 30 item 7)
    name, released, event, share = release_budget_line(release)(release, g, counts and not zero)
    if zero:
        event = ("approximate", 0.0, 0.0, 1)
    if identity is None:
        key = None
    else:
        key = _key(name, identity if isinstance(identity, str) else release_identity(identity))
    return BudgetEntry(mechanism or name, released, g, event, key, share)


def _check_event(event) -> tuple:
    kind = event[0]
    if kind == "gaussian":
        return (
            "gaussian",
            check_sensitivity(sensitivity=event[1], name="noise_multiplier"),
            check_delta(delta=event[2], allow_zero=True),
        )
    if kind == "laplace":
        return ("laplace", check_sensitivity(sensitivity=event[1], name="laplace_parameter"))
    if kind == "approximate":
        count = int(event[3])
        if count < 1:
            raise UserError(f"count must be >= 1, got count={count}")
        if event[1] == 0 and event[2] == 0:  # 0-DP: reads no private data
            return ("approximate", 0.0, 0.0, count)
        return ("approximate", check_epsilon(epsilon=event[1]), check_delta(delta=event[2], allow_zero=True), count)
    raise UserError(f"event kind must be 'gaussian', 'laplace' or 'approximate', got {kind!r}")


def _event_epsilon(event: tuple, guarantee_epsilon: float) -> float:
    return guarantee_epsilon * (event[3] if event[0] == "approximate" else 1)


def _names(entries) -> str:
    return ", ".join(sorted({e.mechanism for e in entries}))


def _not_dp_total(red: list[BudgetEntry]) -> Guarantee:
    """The total's guarantee when releases are not DP: the weakest kind among them (GUARANTEE_KINDS' order)."""
    weakest = max(red, key=lambda e: GUARANTEE_KINDS.index(e.guarantee.kind)).guarantee
    promise = (
        f"{len(red)} of the releases seen {'is' if len(red) == 1 else 'are'} not DP ({_names(red)}): no (ε, δ) holds "
        "for what this session showed together — nothing composes with a release that promises nothing."
    )
    if weakest.kind == LOCAL_SENSITIVITY:
        return local_sensitivity(promise=promise)
    if weakest.kind == K_ANONYMITY:
        return k_anonymity(cast(int, weakest.K), promise=promise)  # its kind requires K (Guarantee checks)
    return no_protection(promise=promise)


def _dp_total(eps: float, delta: float, entries: list[BudgetEntry]) -> Guarantee:
    """The total's guarantee when every release has an (ε, δ): DP, DP given the non-private parts, or random DP."""
    given = sorted({e.guarantee.conditional_on for e in entries if e.guarantee.conditional_on})
    cond = {"conditional_on": "; ".join(given)} if given else {}
    shares = {e.share for e in entries if e.share is not None}
    scope = {"scope": f"composed over {len(entries)} release{'s' if len(entries) > 1 else ''}"}
    if shares:
        gamma = math.fsum(s[0] for s in shares)  # union bound over the distinct sampled bounds
        if not gamma < 1:
            return no_protection(
                promise=f"The random-DP releases rely on {len(shares)} sampled sensitivity bounds whose failure "
                f"probabilities add up to Σγ = {gamma:.3g} ≥ 1: the union bound covers no neighbouring pair."
            )
        return random_dp(epsilon=eps, delta=delta, gamma=gamma, **cond, **scope)
    if delta == 0:
        return (
            pure_dp(epsilon=eps, **cond, **scope)
            if eps > 0
            else Guarantee(PURE_DP, "Reads no private data (0-DP).", 0.0, 0.0)
        )
    return approximate_dp(epsilon=eps, delta=delta, **cond, **scope)


def _sentence(g: Guarantee, n: int, eps: float, delta: float, basic: float) -> str:
    what = f"{n} release{'s' if n > 1 else ''}"
    if not math.isfinite(eps):
        return f"Composed over {what}: ε is unbounded at δ = {delta:.3g}."
    pair = f"(ε = {eps:.3g}, δ = {delta:.3g})"
    if g.kind == APPROXIMATE_DP or g.kind == PURE_DP:
        given = f", given {g.conditional_on}" if g.conditional_on else ""
        pure = f"ε = {eps:.3g}-DP (pure)" if delta == 0 else f"{pair}-DP"
        head = f"{g.strength} — {pure} on this corpus{given}"
    else:  # random DP: its kind requires γ (Guarantee checks)
        gamma = cast(float, g.gamma)
        head = f"{g.strength} — {pair} for a share ≥ {1 - gamma:.0%} of neighbouring pairs (random DP, γ = {gamma:.3g})"
    return f"Composed over {what}: {head} (basic composition would say ε = {basic:.3g})."


def compose_releases(entries) -> ComposedBudget:
    """The releases ``entries`` (:class:`BudgetEntry`) together (module docstring: what the total promises).

    With a release that is not DP among them the total is not DP (``epsilon`` is None; ``counted_epsilon`` composes
    the others). Else ε is the smallest at the δ of :func:`dpcore.lab.budget_accounting.target_delta`, and the total's
    :class:`~dpcore.Guarantee` says whether it is DP, DP given non-private parts, or random DP.
    """
    entries = list(entries)
    if not entries:
        return ComposedBudget(
            0.0,
            0.0,
            0.0,
            0,
            0,
            "",
            "No release seen yet on this corpus: nothing spent.",
            None,
            "green",
            "nothing spent",
        )
    counted = [e for e in entries if e.has_guarantee]
    red = [e for e in entries if not e.has_guarantee]
    events = tuple(_check_event(e.event) for e in counted)
    eps, delta = compose_events(tuple(sorted(events)))
    basic = sum(_event_epsilon(ev, e.guarantee.epsilon) for ev, e in zip(events, counted))
    if red:
        g = _not_dp_total(red)
        n = len(counted)
        rest = (
            (f" The other {n} releases' (ε, δ) compose to" if n > 1 else " The other release's (ε, δ) is")
            + f" (ε = {eps:.3g}, δ = {delta:.3g}) — which says nothing about the ones that are not DP."
            if counted and math.isfinite(eps)
            else ""
        )
        text = (
            f"Composed guarantee: {g.strength} — {len(red)} of the {len(entries)} releases "
            f"{'is' if len(red) == 1 else 'are'} not DP ({_names(red)}), and nothing composes with a release that "
            f"promises nothing.{rest}"
        )
        return ComposedBudget(
            None, None, None, len(entries), len(red), METHOD, text, g, g.colour, g.strength, eps, delta
        )
    g = _dp_total(eps, delta, entries)
    text = _sentence(g, len(entries), eps, delta, basic) if g.is_dp or g.kind == RANDOM_DP or g.conditional_on else ""
    text = text or f"Composed guarantee: {g.strength} — {g.promise}"
    return ComposedBudget(eps, delta, basic, len(entries), 0, METHOD, text, g, g.colour, g.strength, eps, delta)
