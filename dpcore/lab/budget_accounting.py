"""The session budget's accountant (issue 29 item 2): exact where a closed form exists, cached by the multiset of
events.

A session's releases are privacy *events* (:mod:`dpcore.lab.budget`): ``("gaussian", z, δ)`` (noise multiplier
z = σ/Δ₂), ``("laplace", b)`` (b/Δ₁), ``("approximate", ε, δ, count)`` (a generic (ε, δ) pair, ``count`` times).
:func:`compose_events` gives the smallest ε at the target δ of the composition:

* Gaussians compose exactly to one Gaussian of multiplier z = (Σ z_i⁻²)^(-1/2) (their privacy losses are normal
  and add). One Gaussian's privacy profile has a closed form (Balle & Wang 2018, Thm 8)::

      δ(ε) = Φ(−εz + 1/(2z)) − e^ε · Φ(−εz − 1/(2z)),

  decreasing in ε, inverted for ε by Brent's method (:func:`gaussian_epsilon`). It is computed in log space,
  ``δ = e^{log Φ(a)} · (1 − e^{ε + log Φ(b) − log Φ(a)})`` with ``scipy.special.log_ndtr`` and ``expm1``, so it
  stays accurate far in the tails (large ε or z, where both terms underflow and nearly cancel).
* Without a Gaussian the other events are composed by dp_accounting's privacy loss distributions (PLD, value
  discretization :data:`PLD_DISCRETIZATION`, pessimistic: an upper bound on ε). A long session's losses span more
  (a dozen ε moves on TopicDP: 11 Laplace and 11 (ε, δ) events whose losses span 128 nats, 1.28 M points at 1e-4,
  1.8 s for a new release): the interval then doubles until the composed support fits :data:`PLD_MAX_POINTS`
  (:func:`pld_interval`; there 0.0064: ε 99.28 instead of 99.24, ≤ 34 ms per new release), still pessimistic, by at
  most the interval per event.
* With both, the others' composed PLD (small: Laplace and (ε, δ) pairs have narrow loss ranges) is convolved with the
  Gaussian's *exact* profile: for independent losses L = L₁ + L₂, E[(1 − e^{ε−L})₊] = E_{L₁}[δ₂(ε − L₁)], so
  ``δ(ε) = m_∞ + Σ_j p_j · δ_G(ε − ℓ_j)`` over the others' discrete losses ℓ_j (masses p_j, infinite mass m_∞),
  and δ_G holds for every real argument. No 443k-point Gaussian PLD is built: that was 93 % of a Bayesian move and
  grew with every release (0.2 s after 2 releases, 1.5 s after 10).

Every function is cached on its arguments (the events are sorted first: a composition does not depend on order), so
a rerun, a slider moved back or another page with the same releases costs a dictionary look-up.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.optimize import brentq
from scipy.special import log_ndtr

from ..errors import UserError

__all__ = [
    "PLD_DISCRETIZATION",
    "PLD_MAX_POINTS",
    "pld_interval",
    "gaussian_profile",
    "gaussian_epsilon",
    "merged_gaussian",
    "target_delta",
    "compose_events",
]

PLD_DISCRETIZATION = 1e-4
"""dp_accounting's value discretization interval (its default) for the non-Gaussian events: pessimistic by about
this much per event."""

PLD_MAX_POINTS = 1 << 15
"""The most points the non-Gaussian events' composed PLD may need before its interval is coarsened (a power of two
times :data:`PLD_DISCRETIZATION`, so that a session's growing multisets mostly share one interval)."""

_RTOL = 4 * np.finfo(float).eps
_XTOL = 1e-13


def gaussian_profile(*, epsilon, z: float) -> np.ndarray | float:
    """δ(ε) of the Gaussian mechanism with noise multiplier ``z`` (σ/Δ₂; Balle & Wang 2018, Thm 8), for any real ε
    (a scalar or an array; negative ε is needed inside a convolution), in log space (module docstring)."""
    out, _ = _profile_and_tail(np.asarray(epsilon, dtype=float), z)
    return float(out) if out.ndim == 0 else out


def _profile_and_tail(eps: np.ndarray, z: float) -> tuple[np.ndarray, np.ndarray]:
    """δ(ε) of :func:`gaussian_profile` elementwise, and log(e^ε Φ(b)) with b = −εz − 1/(2z): the derivative of δ is
    δ'(ε) = −e^ε Φ(b) (differentiating the profile, the two density terms cancel)."""
    a = -eps * z + 0.5 / z
    b = -eps * z - 0.5 / z
    la, lb = log_ndtr(a), log_ndtr(b)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        tail = eps + lb
        out = np.exp(la) * -np.expm1(np.minimum(tail - la, 0.0))
    return np.clip(np.nan_to_num(out, nan=0.0), 0.0, 1.0), tail


def _solve_decreasing(delta_of, target: float, floor: float) -> float:
    """The smallest ε ≥ 0 with ``delta_of(ε) ≤ target`` for a continuous decreasing ``delta_of`` whose limit at
    ε → ∞ is ``floor`` (an infinite-loss mass): ∞ when ``floor ≥ target``; the bracket is found by doubling from 1."""
    if floor >= target:
        return math.inf
    if delta_of(0.0) <= target:
        return 0.0
    lo, hi = 0.0, 1.0
    while delta_of(hi) > target:
        lo, hi = hi, hi * 2.0
        if hi > 1e7:
            return math.inf
    if target > 0:  # in log space: δ spans many orders of magnitude over the bracket
        f = lambda e: math.log(max(delta_of(e), 1e-320)) - math.log(target)  # noqa: E731
    else:
        f = lambda e: delta_of(e) - target  # noqa: E731
    return float(brentq(f, lo, hi, xtol=_XTOL, rtol=_RTOL))


@lru_cache(maxsize=1024)
def gaussian_epsilon(z: float, *, delta: float) -> float:
    """The smallest ε with δ(ε) ≤ ``delta`` for one Gaussian of noise multiplier ``z``: exact (the closed form,
    inverted to ~1e-13). ∞ at δ = 0."""
    if not (z > 0 and math.isfinite(z)):
        raise UserError(f"noise_multiplier must be a finite number > 0, got noise_multiplier={z}")
    if not 0 <= delta <= 1:
        raise UserError(f"delta must be in [0, 1], got delta={delta}")
    if delta == 0:
        return math.inf
    return _solve_decreasing(lambda e: gaussian_profile(epsilon=e, z=z), delta, 0.0)


def merged_gaussian(events) -> float | None:
    """The noise multiplier of the one Gaussian that the Gaussian events compose to, (Σ z_i⁻²)^(-1/2), or None."""
    zs = [e[1] for e in events if e[0] == "gaussian"]
    return math.fsum(z**-2.0 for z in zs) ** -0.5 if zs else None


def target_delta(events) -> float:
    """The δ a composed ε is reported at: the largest δ of the Gaussian events (composed exactly, their δ's need not
    add up — and one more release never lowers the reported ε) plus every generic (ε, δ) event's δ (an atom of
    infinite loss: those add up)."""
    gauss = max((e[2] for e in events if e[0] == "gaussian"), default=0.0)
    generic = sum(e[2] * e[3] for e in events if e[0] == "approximate")
    return min(gauss + generic, 1.0 - 1e-12)


def _is_identity(event: tuple) -> bool:
    """A 0-DP event (a release that reads no private data): composing it changes nothing."""
    return event[0] == "approximate" and event[1] == 0 and event[2] == 0


def _loss_span(event: tuple) -> float:
    """The width of the finite losses of one non-Gaussian event: [−1/b, 1/b] for Laplace (b/Δ₁), [−ε, ε] for each of
    the (ε, δ) pair's ``count`` compositions."""
    return 2.0 / event[1] if event[0] == "laplace" else 2.0 * event[1] * event[3]


def pld_interval(events) -> float:
    """The PLD value discretization for the non-Gaussian ``events``: :data:`PLD_DISCRETIZATION`, doubled until their
    summed loss span fits :data:`PLD_MAX_POINTS` points. The composed ε is pessimistic by at most this per event."""
    span = math.fsum(_loss_span(e) for e in events if e[0] != "gaussian")
    points = span / PLD_DISCRETIZATION
    return (
        PLD_DISCRETIZATION * 2.0 ** max(0, math.ceil(math.log2(points / PLD_MAX_POINTS)))
        if points > 0
        else PLD_DISCRETIZATION
    )


@lru_cache(maxsize=256)
def _pld(event: tuple, interval: float):
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    if event[0] == "laplace":
        return pld.from_laplace_mechanism(event[1], sensitivity=1.0, value_discretization_interval=interval)
    one = pld.from_privacy_parameters(
        common.DifferentialPrivacyParameters(event[1], event[2]), value_discretization_interval=interval
    )
    return one.self_compose(event[3]) if event[3] > 1 else one


@lru_cache(maxsize=128)
def _composed_pld(events: tuple, interval: float):
    """The PLD of the sorted non-Gaussian ``events`` at value discretization ``interval``; a multiset that grows by
    one reuses its prefix's PLD (at the same interval)."""
    if len(events) == 1:
        return _pld(events[0], interval)
    return _composed_pld(events[:-1], interval).compose(_pld(events[-1], interval))


@lru_cache(maxsize=128)
def _losses(events: tuple, interval: float) -> tuple:
    """The composed PLD's discrete losses as arrays: one (losses, masses, infinite mass) per direction (remove; add
    when the PLD is not symmetric). dp_accounting keeps them on its dense pmf (``_lower_loss``, ``_probs``)."""
    pld = _composed_pld(events, interval)
    out = []
    for pmf in (pld._pmf_remove, None if pld._symmetric else pld._pmf_add):  # noqa: SLF001 — no public accessor
        if pmf is None:
            continue
        d = pmf.to_dense_pmf()
        losses = (np.arange(d.size) + d._lower_loss) * d._discretization  # noqa: SLF001
        keep = d._probs > 0  # noqa: SLF001
        out.append((losses[keep], np.asarray(d._probs)[keep], float(d._infinity_mass)))  # noqa: SLF001
    return tuple(out)


def _profile_and_slope(epsilon: float, losses: np.ndarray, probs: np.ndarray, z: float) -> tuple[float, float]:
    """Σ_j p_j δ_G(ε − ℓ_j) and its derivative in ε, from one pass (:func:`_profile_and_tail`)."""
    value, tail = _profile_and_tail(epsilon - losses, z)
    with np.errstate(under="ignore"):
        slope = -np.exp(np.minimum(tail, 0.0))
    return float(probs @ value), float(probs @ slope)


def _newton_decreasing(value_and_slope, target: float, lo: float, hi: float) -> float:
    """The ε in [lo, hi] where a decreasing v(ε) > 0 meets ``target`` (v(lo) > target ≥ v(hi)), by Newton's method on
    log v, kept inside the bracket (a step that leaves it bisects instead); returns the bracket's upper end, where
    v ≤ target holds: above the smallest such ε by at most the tolerance of :data:`_XTOL`, :data:`_RTOL`."""
    x = hi
    for _ in range(200):
        value, slope = value_and_slope(x)
        if value <= target:
            hi = x
        else:
            lo = x
        step = (math.log(max(value, 1e-320)) - math.log(target)) * value / slope if slope < 0 else math.inf
        if hi - lo <= _XTOL + _RTOL * hi or (value <= target and abs(step) <= _XTOL + _RTOL * x):
            break  # the bracket, or Newton's last step from its upper end (the distance to the root), is tiny
        x = x - step
        if not lo < x < hi:
            x = 0.5 * (lo + hi)
    return hi


def _convolved_epsilon(others: tuple, z: float, delta: float) -> float:
    """ε at δ of the others' PLD composed with one Gaussian of multiplier z (module docstring: exact in z).

    The bracket's upper end needs no search: with ℓ_max the others' largest finite loss and m_∞ their infinite mass,
    δ(ε) ≤ m_∞ + δ_G(ε − ℓ_max), so ε = ℓ_max + (the Gaussian's ε at δ − m_∞) already meets δ. From there Newton's
    method on log(δ − m_∞) (the finite losses' part, a Gaussian-like tail), with its derivative from the same pass
    (:func:`_profile_and_slope`), needs a handful of evaluations of the convolution where a bracketing search and
    Brent's method needed 15 (issue 29: this was most of a TopicDP move)."""
    eps = 0.0
    for losses, probs, inf_mass in _losses(others, pld_interval(others)):
        if inf_mass >= delta:
            return math.inf
        finite = lambda e: _profile_and_slope(e, losses, probs, z)  # noqa: E731 — δ(ε) − m_∞ and its slope
        if finite(0.0)[0] <= delta - inf_mass:
            continue
        hi = max(float(losses.max()), 0.0) + gaussian_epsilon(z, delta=delta - inf_mass)
        eps = max(eps, _newton_decreasing(finite, delta - inf_mass, 0.0, hi))
    return eps


@lru_cache(maxsize=512)
def compose_events(events: tuple) -> tuple[float, float]:
    """(ε, δ) of the multiset ``events`` (pass them sorted: the cache is keyed on the tuple): δ from
    :func:`target_delta`, ε the smallest at that δ — exact for the Gaussians (closed form), dp_accounting's PLD for
    the others, convolved with the Gaussian's exact profile when both are present (module docstring)."""
    events = tuple(e for e in events if not _is_identity(e))
    if not events:
        return 0.0, 0.0
    delta = target_delta(events)
    z = merged_gaussian(events)
    others = tuple(e for e in events if e[0] != "gaussian")
    if not others:
        return gaussian_epsilon(z, delta=delta), delta
    if z is None:
        return float(_composed_pld(others, pld_interval(others)).get_epsilon_for_delta(delta)), delta
    return _convolved_epsilon(others, z, delta), delta
