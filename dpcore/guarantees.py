"""One vocabulary for what a release promises (SPEC §3b; issue "Honest guarantees").

Every release in dpcore carries a :class:`Guarantee`. Its *kind* decides everything a page shows:
its level (green / orange / red: the class of the promise, below) and its words are derived here, never
chosen by a page, so no page can show a stronger promise than the mechanism keeps. How a level is drawn
(the badge's colour and icon) is dpui's (:mod:`dpui.common.charts`).

Kinds, strongest first:

================================  ======  =====================================================
kind                              colour  meaning
================================  ======  =====================================================
``pure DP``                       green   ε-DP for every pair of neighbouring datasets
``approximate DP``                green   (ε, δ)-DP for every pair of neighbouring datasets
``random DP``                     orange  (ε, δ) for a 1 − γ share of neighbouring pairs drawn
                                          from a data distribution (Rubinstein & Aldà 2017)
``local sensitivity (not DP)``    red     noise scaled to a sensitivity measured on the private
                                          data: no (ε, δ) holds, not even for this dataset's
                                          own neighbours (on a neighbour the measured
                                          sensitivity, hence the noise scale, changes)
``k-anonymity (not DP)``          red     suppression of rare items; no bound on one user
``none``                          red     no protection (e.g. the private baseline)
================================  ======  =====================================================

A DP kind with a non-private part (``conditional_on``, e.g. "a non-private choice of topics and
keywords") is shown orange: the proof covers the values only, not the whole release. Not DP is red, whatever
its reason (issue 31 item 5: a sensitivity measured on the private data gives no (ε, δ) at all).

The words are derived here too — :attr:`Guarantee.tag` (a chart legend's "DP" / "DP for part" / "random DP" /
"not DP"), :attr:`Guarantee.strength` ("DP", "DP for part of the release only", "weaker
than DP", "not DP", "no protection"), :attr:`Guarantee.short_label` (the kind and its parameters) and
:attr:`Guarantee.words` (both: what a badge chip says) — and so is how a release enters a session budget
(:attr:`Guarantee.budget_standing`: "counted", "counted for part of the release", "counted for a share of the
pairs", or "not counted"). The badge (dpui.common.charts), the session budget (dpcore.lab.budget, dpui.common.budget) and the
reviewer's panel (dpcore.lab.review, dpui.common.review) all read these, so they say the same thing (issue 31 item 4).
Neighbouring datasets always differ by one *user* (all of that user's text) unless ``unit`` says
otherwise.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace

from .errors import UserError

__all__ = [
    "PURE_DP",
    "APPROXIMATE_DP",
    "RANDOM_DP",
    "LOCAL_SENSITIVITY",
    "LOCAL_SENSITIVITY_LABEL",
    "K_ANONYMITY",
    "NO_PROTECTION",
    "GUARANTEE_KINDS",
    "Guarantee",
    "pure_dp",
    "approximate_dp",
    "random_dp",
    "local_sensitivity",
    "k_anonymity",
    "no_protection",
    "no_private_data",
]

PURE_DP = "pure DP"
APPROXIMATE_DP = "approximate DP"
RANDOM_DP = "random DP"
LOCAL_SENSITIVITY = "local sensitivity (not DP)"
K_ANONYMITY = "k-anonymity (not DP)"
NO_PROTECTION = "none"
GUARANTEE_KINDS = (PURE_DP, APPROXIMATE_DP, RANDOM_DP, LOCAL_SENSITIVITY, K_ANONYMITY, NO_PROTECTION)

LOCAL_SENSITIVITY_LABEL = (
    "not DP — noise scaled to a sensitivity measured on the private data; no (ε, δ) holds, "
    "not even for this corpus's neighbours"
)
"""SPEC §3b's words for every local-sensitivity release (issue 21 item 1): run on D minus one user, the mechanism
measures its sensitivity again, so the noise scale itself differs between the two and reveals membership — the
audit of the Bayesian page's own pair finds ε_lower far above the ε the noise was set from."""

_STYLE = {  # kind -> (level, words that say the strength without colour); the icon is drawn by dpui
    PURE_DP: ("green", "DP"),
    APPROXIMATE_DP: ("green", "DP"),
    RANDOM_DP: ("orange", "weaker than DP"),
    LOCAL_SENSITIVITY: ("red", "not DP"),
    K_ANONYMITY: ("red", "not DP"),
    NO_PROTECTION: ("red", "no protection"),
}


def _num(v: float | None) -> str:
    # called only for a parameter its kind requires (Guarantee.__post_init__ rejects a missing one)
    return f"{v:g}"


@dataclass(frozen=True)
class Guarantee:
    """What a release promises, validated on construction.

    Attributes:
      kind: one of :data:`GUARANTEE_KINDS`.
      promise: one sentence in plain language ("Adding or removing one user's text changes the
        probability of any set of outputs by at most a factor e^ε ≈ 2.7, plus δ.").
      epsilon, delta, gamma: the parameters where they apply (``None`` otherwise).
      K: the k-anonymity threshold, for ``k-anonymity (not DP)``.
      unit: what neighbouring datasets differ by (default: one user).
      scope: a qualifier of the promise, e.g. "for each length separately — not for all lengths
        together" or "total of ε_train = 0.667 and ε_tune = 0.333".
      conditional_on: a non-private part of the release the proof does not cover; when set, a DP
        kind is shown orange, not green.
    """

    kind: str
    promise: str
    epsilon: float | None = None
    delta: float | None = None
    gamma: float | None = None
    K: int | None = None
    unit: str = "user"
    scope: str = ""
    conditional_on: str = ""

    def __post_init__(self):
        if self.kind not in GUARANTEE_KINDS:
            raise UserError(f"kind must be one of {GUARANTEE_KINDS}, got kind={self.kind!r}")
        if not isinstance(self.promise, str) or not self.promise.strip():
            raise UserError("promise must be a non-empty sentence")
        for name in ("epsilon", "delta", "gamma"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, (int, float)) or isinstance(v, bool) or math.isnan(v)):
                raise UserError(f"{name} must be a number or None, got {name}={v!r}")
        if self.epsilon is not None and not self.epsilon > 0 and not (self.kind == PURE_DP and self.epsilon == 0):
            # ε = 0 only for a pure-DP release that uses no private data (:func:`no_private_data`)
            raise UserError(f"epsilon must be > 0, got epsilon={self.epsilon}")
        if self.delta is not None and not 0 <= self.delta < 1:
            raise UserError(f"delta must be in [0, 1), got delta={self.delta}")
        if self.gamma is not None and not 0 < self.gamma < 1:
            raise UserError(f"gamma must be in (0, 1), got gamma={self.gamma}")
        if self.kind == PURE_DP and self.epsilon is None:
            raise UserError("a pure DP guarantee needs epsilon")
        if self.kind == APPROXIMATE_DP and (self.epsilon is None or self.delta is None):
            raise UserError("an approximate DP guarantee needs epsilon and delta")
        if self.kind == RANDOM_DP and (self.epsilon is None or self.gamma is None):
            raise UserError("a random DP guarantee needs epsilon and gamma")
        if self.kind == K_ANONYMITY and (self.K is None or self.K < 1):
            raise UserError(f"a k-anonymity guarantee needs K >= 1, got K={self.K}")

    # ------------------------------------------------------------------ derived, never chosen by a page
    @property
    def is_dp(self) -> bool:
        """True only for a proven ε-DP or (ε, δ)-DP over every neighbouring pair, with no non-private part."""
        return self.kind in (PURE_DP, APPROXIMATE_DP) and not self.conditional_on

    @property
    def colour(self) -> str:
        """The guarantee's level, "green" | "orange" | "red" (data, not rendering: dpui draws the badge's colour
        and icon from it): green only when :attr:`is_dp`; orange for random DP and DP conditional on a non-private
        step; red for everything not DP (local sensitivity, k-anonymity, no protection)."""
        if self.kind in (PURE_DP, APPROXIMATE_DP) and self.conditional_on:
            return "orange"
        return _STYLE[self.kind][0]

    @property
    def strength(self) -> str:
        """Words that carry the strength without colour: "DP", "weaker than DP", "not DP", "no protection"."""
        if self.kind in (PURE_DP, APPROXIMATE_DP) and self.conditional_on:
            return "DP for part of the release only"
        return _STYLE[self.kind][1]

    @property
    def tag(self) -> str:
        """The strength in two or three words, for a chart's legend (issue 31 item 3: every series names its
        guarantee): "DP" (proven ε-DP / (ε, δ)-DP), "DP for part" (DP given a non-private part), "random DP" (weaker
        than DP), "not DP" (a measured sensitivity, k-anonymity, no protection). One word per level of :attr:`colour`
        and kind; no parameters (a curve over ε keeps one tag)."""
        if self.kind in (PURE_DP, APPROXIMATE_DP):
            return "DP for part" if self.conditional_on else "DP"
        return "random DP" if self.kind == RANDOM_DP else "not DP"

    @property
    def short_label(self) -> str:
        """The kind and its parameters in a few words (a badge chip's label): "(ε, δ)-DP per user (ε = 1, δ = 1e-05)",
        "random DP per user (ε = 1, δ = 1e-05, γ = 0.1)", "sensitivity measured on the private data". The qualifiers
        (scope, what the proof does not cover) are in :attr:`label`."""
        per = f" per {self.unit}" if self.unit else ""
        params = {"ε": self.epsilon, "δ": self.delta if self.kind != PURE_DP else None, "γ": self.gamma}
        numbers = ", ".join(f"{k} = {_num(v)}" for k, v in params.items() if v is not None)
        return {
            PURE_DP: f"ε-DP{per} ({numbers})",
            APPROXIMATE_DP: f"(ε, δ)-DP{per} ({numbers})",
            RANDOM_DP: f"random DP{per} ({numbers})",
            LOCAL_SENSITIVITY: "sensitivity measured on the private data",
            K_ANONYMITY: f"k-anonymity (K = {self.K})",
            NO_PROTECTION: "the private data as it is",
        }[self.kind]

    @property
    def words(self) -> str:
        """The promise in the one vocabulary every view uses (badge chip, session budget, reviewer's panel): the
        strength, then the short label — "DP: (ε, δ)-DP per user (ε = 1, δ = 1e-05)", "DP for part of the release
        only: ε-DP per user (ε = 1)", "not DP: sensitivity measured on the private data"."""
        return f"{self.strength}: {self.short_label}"

    @property
    def budget_standing(self) -> str:
        """How the release enters a session budget, from its kind alone: "counted" (proven DP: its ε composes),
        "counted for part of the release" (DP given a non-private part: the values' ε composes, the total says
        what it is given), "counted for a share of the pairs" (random DP: the ε composes for the pairs where every
        such release holds, a share ≥ 1 − Σγ), "not counted" (not DP: no ε exists, and the total is not DP)."""
        if self.kind in (PURE_DP, APPROXIMATE_DP):
            return "counted for part of the release" if self.conditional_on else "counted"
        if self.kind == RANDOM_DP:
            return "counted for a share of the pairs"
        return "not counted"

    @property
    def label(self) -> str:
        """A short label, e.g. "(ε = 1, δ = 1e-05)-DP per user" or "not DP — noise scaled to a sensitivity measured
        on the private data; …"."""
        per = f" per {self.unit}" if self.unit else ""
        if self.kind == PURE_DP:
            core = f"ε-DP{per} (ε = {_num(self.epsilon)}, pure)"
        elif self.kind == APPROXIMATE_DP:
            core = f"(ε, δ)-DP{per} (ε = {_num(self.epsilon)}, δ = {_num(self.delta)})"
        elif self.kind == RANDOM_DP:
            d = f", δ = {_num(self.delta)}" if self.delta is not None else ""
            core = f"(ε, δ, γ)-random DP{per} (ε = {_num(self.epsilon)}{d}, γ = {_num(self.gamma)}) — weaker than DP"
        elif self.kind == LOCAL_SENSITIVITY:
            core = LOCAL_SENSITIVITY_LABEL
        elif self.kind == K_ANONYMITY:
            core = f"k-anonymity (K = {self.K}) — not DP"
        else:
            core = "no protection — not DP"
        if self.conditional_on:
            core += f", given {self.conditional_on}"
        if self.scope:
            core += f"; {self.scope}"
        return core

    def __str__(self) -> str:
        return self.label

    def with_parameters(self, **changes) -> "Guarantee":
        """A copy with some fields changed (validated again), e.g. a new ε after a slider move."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """Plain dict for exports and reports: every field plus the derived label, colour and strength."""
        d = asdict(self)
        d.update(label=self.label, colour=self.colour, strength=self.strength, is_dp=self.is_dp)
        return d


# ---------------------------------------------------------------------- constructors with default promises
def _factor(epsilon: float) -> str:
    return f"e^ε ≈ {math.exp(epsilon):.3g}" if epsilon <= 50 else "e^ε"


def pure_dp(*, epsilon: float, promise: str | None = None, **kw) -> Guarantee:
    """ε-DP: for any two datasets that differ by one user, every output is at most e^ε times more likely."""
    promise = promise or (
        f"Adding or removing one user's data changes the probability of any output by at most "
        f"a factor {_factor(epsilon)}."
    )
    return Guarantee(PURE_DP, promise, epsilon=float(epsilon), delta=0.0, **kw)


def approximate_dp(*, epsilon: float, delta: float, promise: str | None = None, **kw) -> Guarantee:
    """(ε, δ)-DP over every pair of neighbouring datasets."""
    promise = promise or (
        f"Adding or removing one user's data changes the probability of any set of outputs by at most "
        f"a factor {_factor(epsilon)}, plus δ = {_num(delta)}."
    )
    return Guarantee(APPROXIMATE_DP, promise, epsilon=float(epsilon), delta=float(delta), **kw)


def random_dp(*, epsilon: float, delta: float | None, gamma: float, promise: str | None = None, **kw) -> Guarantee:
    """(ε, δ, γ)-random DP: the (ε, δ) promise holds for a 1 − γ share of neighbouring pairs drawn from P."""
    promise = promise or (
        f"For at least {1 - gamma:.0%} of neighbouring datasets drawn from the data distribution, "
        f"one user changes the probability of any set of outputs by at most a factor {_factor(epsilon)}"
        + (f" (plus δ = {_num(delta)})" if delta else "")
        + f"; for the other {gamma:.0%} there is no promise."
    )
    return Guarantee(
        RANDOM_DP,
        promise,
        epsilon=float(epsilon),
        delta=None if delta is None else float(delta),
        gamma=float(gamma),
        **kw,
    )


def local_sensitivity(
    *, epsilon: float | None = None, delta: float | None = None, promise: str | None = None, **kw
) -> Guarantee:
    """Noise scaled to a sensitivity measured on the private data: not DP, and no (ε, δ) at all — not even for
    this dataset's own neighbours, since the mechanism measures the sensitivity again on a neighbour and the
    noise scale itself then reveals membership (SPEC §3b). ``epsilon`` and ``delta``, where given, are the
    values the noise scale was set from, not a promise (``is_dp`` is False; the label never states them)."""
    promise = promise or (
        "The noise is scaled to how much removing one of *this* dataset's users changes the "
        "answer, measured on the private data. On a neighbouring dataset the mechanism measures "
        "again, so the noise scale itself changes and can reveal who is in the data: no (ε, δ) "
        "holds, not even for this dataset's neighbours. This is not differential privacy."
    )
    return Guarantee(
        LOCAL_SENSITIVITY,
        promise,
        epsilon=None if epsilon is None else float(epsilon),
        delta=None if delta is None else float(delta),
        **kw,
    )


def k_anonymity(K: int, *, promise: str | None = None, **kw) -> Guarantee:
    """Items used by fewer than K users are suppressed: not DP."""
    promise = promise or (
        f"Only items used by at least K = {K} users are shown as they are. This is not "
        "differential privacy: one user can lift an item to K and so change the output "
        "with certainty, and nothing bounds what the output reveals under side information."
    )
    return Guarantee(K_ANONYMITY, promise, K=int(K), **kw)


def no_private_data(*, promise: str | None = None, **kw) -> Guarantee:
    """A release computed from public data only (e.g. the public baseline): its output distribution is the
    same with or without any user, i.e. 0-DP (pure DP with ε = 0) — it protects fully and learns nothing
    from the users."""
    promise = promise or (
        "Computed from public data only: adding or removing any user changes nothing, so the "
        "output reveals nothing about the users (0-DP) — and learns nothing from them."
    )
    kw.setdefault("scope", "uses no private data")
    return Guarantee(PURE_DP, promise, epsilon=0.0, delta=0.0, **kw)


def no_protection(*, promise: str | None = None, **kw) -> Guarantee:
    """The data as it is (e.g. the private baseline)."""
    return Guarantee(NO_PROTECTION, promise or "Nothing protects the users: this is the private data itself.", **kw)
