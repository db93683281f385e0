"""The exponential mechanism (McSherry & Talwar 2007; lecture 001, SPEC §1).

Pr[M(D) = r] ∝ exp(ε·u(D, r)/(2Δu)); ε-DP when Δu ≥ max_r |u(D,r) − u(D',r)| for every pair of
neighbours D, D'.
"""

from __future__ import annotations

import numpy as np
from scipy.special import softmax

from ..errors import UserError
from ..validation import as_float_array, check_int, check_real, check_rng, check_sensitivity

__all__ = ["exponential_mechanism_probabilities", "exponential_mechanism", "MAX_EPSILON"]

MAX_EPSILON = 1e6
"""The largest ε accepted (as for the analytic Gaussian): e^ε is not a float beyond ε ≈ 709, and an ε this large
promises nothing — ε = 1e308 is refused by name instead of failing inside numpy (issue 21 item 8)."""


def _utilities(utilities) -> np.ndarray:
    u = as_float_array("utilities", utilities)
    if u.ndim != 1 or u.size == 0:
        raise UserError(f"utilities must be a non-empty 1-D array, got shape {u.shape}")
    if not np.all(np.isfinite(u)):
        raise UserError("utilities must be finite, got a NaN or infinite entry")
    return u


def exponential_mechanism_probabilities(utilities, *, epsilon, sensitivity) -> np.ndarray:
    """Selection probabilities exp(ε·u_r/(2Δu)) / Σ_r' exp(ε·u_r'/(2Δu)), computed stably.

    Args:
      utilities: 1-D array of u(D, r), one per candidate r.
      epsilon: 0 < ε ≤ 1e6 (:data:`MAX_EPSILON`).
      sensitivity: Δu > 0, the utility's sensitivity (computed, not assumed).

    Returns:
      a numpy array of probabilities that sums to 1.
    """
    u = _utilities(utilities)
    epsilon = check_real("epsilon", epsilon, low=0.0, high=MAX_EPSILON)
    sensitivity = check_sensitivity(sensitivity=sensitivity)
    # softmax is shift-invariant: (ε/(2Δu))·(u − max u) ≤ 0 never overflows to +∞ (ε·u alone can: ε = 1e308 gave
    # ∞ − ∞ = NaN); a product that underflows to −∞ only means probability 0, and the argmax keeps 0.
    gap = u - u.max()
    with np.errstate(over="ignore", invalid="ignore"):
        logits = np.where(gap == 0.0, 0.0, (epsilon / (2.0 * sensitivity)) * gap)
    return softmax(logits)


def exponential_mechanism(utilities, *, epsilon, sensitivity, rng, size: int | None = None):
    """Sample candidate indices from the exponential mechanism with an explicit generator.

    Returns one int when ``size`` is None, else an int array of ``size`` independent draws.
    """
    p = exponential_mechanism_probabilities(utilities, epsilon=epsilon, sensitivity=sensitivity)
    rng = check_rng(rng)
    if size is None:
        return int(rng.choice(p.size, p=p))
    size = check_int("size", size, low=1)
    return rng.choice(p.size, size=size, p=p)
