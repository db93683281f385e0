"""A session's privacy budget: the releases one person has looked at, and what they promise together.

Issue 21 item 5: every view of a page is a fresh release (its noise is salted by every parameter), so two
views together say more than either — at ε = 0.5 and ε = 1 with one shared draw they gave the noiseless
μ_ps away; with fresh draws they compose. :class:`BudgetEntry` describes one release by its privacy event,
and :func:`compose_releases` adds them up with Google's ``dp_accounting`` (privacy loss distributions, PLD):

* the mechanism's own event where it is known — a Gaussian with noise multiplier σ/Δ (BayesianDP strict:
  σ_ps/(ρ·γ_strict), which is σ(ε, δ) at Δ = 1; VIPS-LDA's J iterations with σ/B each: one Gaussian with
  σ/(B·√J)), a Laplace with b/Δ (Laplace with the per-user cap W: b/W = 1/ε);
* else the release's (ε, δ) pair as a generic (ε, δ)-DP mechanism (DPNE and the DPSU baselines, whose
  threshold step is not a Gaussian): ``from_privacy_parameters``, the pair that dominates every
  (ε, δ)-DP mechanism, so composing these is the optimal composition of (ε, δ) pairs;
* a release without a DP guarantee (local sensitivity, k-anonymity, random DP, DP for part of the
  release only, no protection) has no event: it is listed as "no guarantee", and the composed total of
  a list that holds one is **none** — nothing composes with a release that promises nothing.

The composed guarantee is (ε, δ) with δ = the largest δ of the Gaussian releases plus the δ's of the generic
(ε, δ) releases (whose δ is an atom of unbounded loss and adds up), and ε the PLD's smallest ε at that δ —
at most Σ ε_i (basic composition), usually much less, and never lower after one more release. The PLD is
pessimistic (value discretization 1e-4): the ε it reports is an upper bound.

dp_accounting is imported when :func:`compose_releases` runs (a runtime dependency of the project; the rest of
dpcore does not need it).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..guarantees import Guarantee
from ..validation import check_delta, check_epsilon, check_sensitivity
from ..errors import UserError

__all__ = ["BudgetEntry", "ComposedBudget", "budget_entry", "compose_releases", "PLD_DISCRETIZATION"]

PLD_DISCRETIZATION = 1e-4
"""dp_accounting's value discretization interval (its default): ε is pessimistic by about this much per release."""


@dataclass(frozen=True)
class BudgetEntry:
    """One release as the budget sees it.

    Attributes:
      mechanism: what the page calls it ("BayesianDP strict", "DPNE", …).
      released: what was published, in words ("θ over 16,998 unigrams").
      guarantee: the release's own :class:`~dpcore.Guarantee`.
      event: ``("gaussian", σ/Δ, δ)``, ``("laplace", b/Δ)``, ``("approximate", ε, δ, count)`` or None (no
        DP guarantee). For a Gaussian, δ is the δ its σ was calibrated to (the composed total's δ adds it).
      key: the release's identity (a hash of its parameters and output): the same release seen twice —
        a rerun, or a slider moved back — is one entry.
    """

    mechanism: str
    released: str
    guarantee: Guarantee
    event: tuple | None
    key: str

    @property
    def has_guarantee(self) -> bool:
        return self.event is not None

    @property
    def epsilon(self) -> float | None:
        """The release's ε where it has a DP guarantee, else None (a local-sensitivity ε sets a noise scale only)."""
        return self.guarantee.epsilon if self.has_guarantee else None

    @property
    def delta(self) -> float | None:
        return self.guarantee.delta if self.has_guarantee else None

    @property
    def promise(self) -> str:
        """The promise as text: "(ε = 1, δ = 1e-05)-DP" or "no guarantee (…kind…)"."""
        if not self.has_guarantee:
            g = self.guarantee
            noise = ""
            if g.epsilon is not None:
                noise = f"; its noise was set from ε = {g.epsilon:g}" + (f", δ = {g.delta:g}" if g.delta else "")
            return f"no guarantee ({g.kind}{noise})"
        g = self.guarantee
        count = self.event[3] if self.event[0] == "approximate" else 1
        each = f" × {count} (one per length)" if count > 1 else ""
        if g.delta:
            return f"(ε = {g.epsilon:g}, δ = {g.delta:g})-DP{each}"
        return f"ε = {g.epsilon:g}-DP (pure){each}"


@dataclass(frozen=True)
class ComposedBudget:
    """The releases of a list together: ``epsilon``/``delta`` (None when a release has no guarantee),
    ``basic_epsilon`` = Σ ε_i (basic composition, for comparison), how many releases, and which of them
    promise nothing. ``text`` says it in one sentence."""

    epsilon: float | None
    delta: float | None
    basic_epsilon: float | None
    releases: int
    without_guarantee: int
    method: str
    text: str


def _key(*parts) -> str:
    h = hashlib.blake2b(digest_size=12)
    for p in parts:
        if isinstance(p, np.ndarray):
            h.update(np.ascontiguousarray(p).tobytes())
        else:
            h.update(repr(p).encode())
        h.update(b"|")
    return h.hexdigest()


def budget_entry(release, *, mechanism: str | None = None) -> BudgetEntry:
    """The :class:`BudgetEntry` of a dpcore release object (BayesianRelease, EndToEndRelease, LaplaceRelease,
    KAnonymityRelease, DpneRelease, DpsuBaselineRelease, MatrixRelease, VipsRelease).

    VIPS-LDA's event: J adaptively composed Gaussian mechanisms with ℓ2 sensitivity B and noise σ, i.e. noise
    multiplier z = σ/B each. Their privacy loss distributions compose exactly to that of one Gaussian with
    multiplier z/√J (each loss is Gaussian with mean 1/(2z²) and variance 1/z²; means and variances add), so the
    entry is ``("gaussian", σ/(B·√J), δ)`` — the exact composition, not J separate (ε, δ) pairs."""
    from ..bayesian.release import BayesianRelease
    from ..bayesian.end_to_end import EndToEndRelease
    from ..bayesian.baselines import KAnonymityRelease, LaplaceRelease
    from ..dpne.results import DpneRelease, DpsuBaselineRelease
    from ..topicdp.mechanisms import MatrixRelease
    from ..topicdp.vips import VipsRelease

    g = release.guarantee
    event = None
    if isinstance(release, BayesianRelease):
        name = f"BayesianDP {'strict' if release.sensitivity_method == 'strict' else 'local'}"
        released = f"θ over {release.theta.size:,} n-grams"
        if g.is_dp and release.sigma > 0:  # h = μ_ps + σ_ps·Z, μ_ps moves by at most ρ·γ_strict
            event = ("gaussian", release.sigma / (release.rho * release.sensitivity), float(g.delta))
        key = _key(name, release.theta)
    elif isinstance(release, EndToEndRelease):
        name, released = "EndToEndDP", f"θ over {release.theta.size:,} n-grams and the tuned (S*, ρ*)"
        key = _key(name, release.theta, release.S_star, release.rho_star)
    elif isinstance(release, LaplaceRelease):
        name, released = release.mechanism, f"θ over {release.theta.size:,} n-grams"
        if g.is_dp and release.scale > 0:  # Lap(0, W/ε) on counts with ℓ1 sensitivity W
            event = ("laplace", release.scale / release.sensitivity)
        key = _key(name, release.theta)
    elif isinstance(release, KAnonymityRelease):
        name, released = f"k-anonymity (K = {release.K})", f"θ over {release.theta.size:,} n-grams"
        key = _key(name, release.theta)
    elif isinstance(release, (DpneRelease, DpsuBaselineRelease)):
        name = "DPNE" if isinstance(release, DpneRelease) else release.name
        # the sets' identity within this process (hash of each frozen set: O(n), no sorting of n-grams)
        sets = tuple((k, len(v), hash(frozenset(v))) for k, v in sorted(release.ngrams.items()))
        released = (
            f"{sum(len(v) for v in release.ngrams.values()):,} n-grams (sets only, lengths 1–{max(release.ngrams)})"
        )
        if g.is_dp:
            count = len(release.ngrams) if g.scope else 1  # DPSU-single: one (ε, δ) release per length
            event = ("approximate", float(g.epsilon), float(g.delta), count)
        key = _key(name, sets, g.epsilon, g.delta)
    elif isinstance(release, VipsRelease):
        name = "VIPS-LDA"
        released = (
            f"{release.n_topics} × {len(release.words):,} topic–word matrix "
            f"({release.iterations} noisy iteration{'s' if release.iterations > 1 else ''})"
        )
        if g.is_dp and release.sigma > 0:  # J Gaussians with multiplier z = σ/B compose exactly to one with z/√J
            event = ("gaussian", release.sigma / (release.clip_norm * math.sqrt(release.iterations)), float(g.delta))
        key = _key(name, release.topic_word, release.prevalence)
    elif isinstance(release, MatrixRelease):
        name = release.mechanism
        released = f"{release.matrix.shape[0]} × {release.matrix.shape[1]} topic–keyword matrix"
        if g.is_dp:  # never today: every matrix release has a non-private part or a random-DP sensitivity
            event = ("approximate", float(g.epsilon), float(g.delta or 0.0), 1)
        key = _key(name, release.matrix)
    else:
        raise TypeError(f"release must be a dpcore release object, got {type(release).__name__}")
    return BudgetEntry(mechanism or name, released, g, event, key)


def _check_event(event) -> tuple:
    kind = event[0]
    if kind == "gaussian":
        return ("gaussian", check_sensitivity(event[1], "noise_multiplier"), check_delta(event[2], allow_zero=True))
    if kind == "laplace":
        return ("laplace", check_sensitivity(event[1], "laplace_parameter"))
    if kind == "approximate":
        count = int(event[3])
        if count < 1:
            raise UserError(f"count must be >= 1, got count={count}")
        return ("approximate", check_epsilon(event[1]), check_delta(event[2], allow_zero=True), count)
    raise UserError(f"event kind must be 'gaussian', 'laplace' or 'approximate', got {kind!r}")


@lru_cache(maxsize=256)
def _pld(event: tuple):
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    kind = event[0]
    if kind == "gaussian":
        one = pld.from_gaussian_mechanism(event[1], sensitivity=1.0, value_discretization_interval=PLD_DISCRETIZATION)
    elif kind == "laplace":
        one = pld.from_laplace_mechanism(event[1], sensitivity=1.0, value_discretization_interval=PLD_DISCRETIZATION)
    else:
        one = pld.from_privacy_parameters(
            common.DifferentialPrivacyParameters(event[1], event[2]), value_discretization_interval=PLD_DISCRETIZATION
        )
        if event[3] > 1:
            one = one.self_compose(event[3])
    return one


def _target_delta(events: tuple) -> float:
    """The δ the composed ε is reported at: the largest δ of the Gaussian releases (a PLD composes Gaussians
    exactly, so their δ's need not add up — and adding a release never lowers the reported ε) plus the δ of every
    generic (ε, δ) release (its δ is an atom of infinite privacy loss: those do add up)."""
    gauss = max((e[2] for e in events if e[0] == "gaussian"), default=0.0)
    generic = sum(e[2] * e[3] for e in events if e[0] == "approximate")
    return min(gauss + generic, 1.0 - 1e-12)


def _event_epsilon(event: tuple, guarantee_epsilon: float) -> float:
    return guarantee_epsilon * (event[3] if event[0] == "approximate" else 1)


@lru_cache(maxsize=64)
def _composed_pld(events: tuple):
    """The PLD of ``events`` composed in order; a list that grows by one release reuses its prefix's PLD."""
    if len(events) == 1:
        return _pld(events[0])
    return _composed_pld(events[:-1]).compose(_pld(events[-1]))


def _gaussians_merged(events: tuple) -> tuple:
    """``events`` with every Gaussian merged into one, last: Gaussians of noise multipliers z_i compose exactly to
    one Gaussian of multiplier (Σ z_i⁻²)^(-1/2) (their privacy losses are normal and add). One PLD instead of a
    chain: exact where the chain adds a discretization error per step, and a session that has seen ten Gaussian
    releases composes in ~1.7 s instead of ~7 s (their δ's are only read for the target δ: the largest is kept)."""
    gauss = [e for e in events if e[0] == "gaussian"]
    if len(gauss) < 2:
        return events
    z = math.fsum(e[1] ** -2.0 for e in gauss) ** -0.5
    return tuple(e for e in events if e[0] != "gaussian") + (("gaussian", z, max(e[2] for e in gauss)),)


@lru_cache(maxsize=128)
def _compose_events(events: tuple) -> tuple[float, float]:
    delta = _target_delta(events)
    return float(_composed_pld(_gaussians_merged(events)).get_epsilon_for_delta(delta)), delta


def compose_releases(entries) -> ComposedBudget:
    """The releases ``entries`` (:class:`BudgetEntry`) together.

    With a release that has no DP guarantee among them the total is none (``epsilon`` is None). Else
    dp_accounting composes their privacy loss distributions and reports the smallest ε at the δ of
    :func:`_target_delta` (the largest Gaussian δ plus the generic releases' δ's).
    """
    entries = list(entries)
    if not entries:
        return ComposedBudget(0.0, 0.0, 0.0, 0, 0, "", "No release seen yet on this corpus: nothing spent.")
    without = [e for e in entries if not e.has_guarantee]
    if without:
        names = ", ".join(sorted({e.mechanism for e in without}))
        return ComposedBudget(
            None,
            None,
            None,
            len(entries),
            len(without),
            "",
            f"Composed guarantee: none — {len(without)} of the {len(entries)} releases "
            f"{'promises' if len(without) == 1 else 'promise'} nothing ({names}), and nothing "
            "composes with a release that promises nothing.",
        )
    events = tuple(_check_event(e.event) for e in entries)
    eps, delta = _compose_events(events)
    basic = sum(_event_epsilon(ev, e.guarantee.epsilon) for ev, e in zip(events, entries))
    method = "dp_accounting PLD (each mechanism's own event where known: Gaussian σ/Δ, Laplace b/Δ; else its (ε, δ))"
    if not math.isfinite(eps):
        text = f"Composed over {len(entries)} releases: ε is unbounded at δ = {delta:.3g}."
    else:
        text = (
            f"Composed over {len(entries)} release{'s' if len(entries) > 1 else ''}: (ε = {eps:.3g}, "
            f"δ = {delta:.3g})-DP on this corpus (PLD accountant; basic composition would say ε = {basic:.3g})."
        )
    return ComposedBudget(eps, delta, basic, len(entries), 0, method, text)
