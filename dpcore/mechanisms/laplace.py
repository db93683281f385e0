"""The Laplace mechanism and the privacy loss of two Laplace densities (lecture 001, SPEC §1).

For f: D → ℝ^k with global ℓ1 sensitivity Δ, add i.i.d. Lap(0, b) with b = Δ/ε to every
coordinate. (000 writes "Lap(ε/‖Δf‖₁)": a notation slip; the scale is Δ/ε.)
"""

from __future__ import annotations

import numpy as np

from ..validation import check_epsilon, check_real, check_rng, check_sensitivity, as_float_array, check_noise_scale
from ..errors import UserError
from .noise import laplace_noise

__all__ = [
    "laplace_scale",
    "laplace_variance",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_privacy_loss",
    "laplace_privacy_loss_bound",
]


def laplace_scale(*, epsilon, sensitivity) -> float:
    """b = Δ/ε (001, "the correct scale of the Laplace mechanism")."""
    sensitivity, epsilon = check_sensitivity(sensitivity=sensitivity), check_epsilon(epsilon=epsilon)
    return check_noise_scale("b", sensitivity / epsilon, epsilon=epsilon, sensitivity=sensitivity)


def laplace_variance(*, epsilon, sensitivity) -> float:
    """Var[Lap(0, b)] = 2b² per coordinate: the expected squared error, no sampling needed."""
    b = laplace_scale(epsilon=epsilon, sensitivity=sensitivity)
    return 2.0 * b * b


def laplace_mechanism(value, *, epsilon, sensitivity, rng) -> np.ndarray | float:
    """Release ``value`` + Lap(0, Δ/ε) noise, i.i.d. per coordinate (ε-DP for ℓ1 sensitivity Δ).

    Args:
      value: a scalar or an array of true answers.
      epsilon: ε > 0.
      sensitivity: global ℓ1 sensitivity Δ of the query (fixed by the domain, not by the data).
      rng: numpy Generator or int seed.

    Returns:
      a float for a scalar input, otherwise an array of the same shape.
    """
    b = laplace_scale(epsilon=epsilon, sensitivity=sensitivity)
    rng = check_rng(rng)
    arr = as_float_array("value", value)
    if not np.all(np.isfinite(arr)):
        raise UserError("value must be finite, got a NaN or infinite entry")
    out = arr + laplace_noise(scale=b, size=arr.shape, rng=rng)
    return float(out) if out.ndim == 0 else out


def laplace_pdf(y, *, loc, scale) -> np.ndarray:
    """Density of Lap(loc, scale) at y: exp(−|y−loc|/b)/(2b)."""
    b = check_sensitivity(sensitivity=scale, name="scale")
    loc = check_real("loc", loc)
    y = as_float_array("y", y)
    return np.exp(-np.abs(y - loc) / b) / (2.0 * b)


def laplace_privacy_loss(y, *, true_answer, neighbour_answer, scale) -> np.ndarray:
    """L(y) = ln p(y|a)/p(y|a') = (|y−a'| − |y−a|)/b (001 slide "privacy loss").

    Bounded in absolute value by |a − a'|/b; with b = Δ/ε and |a − a'| ≤ Δ that is ε.
    """
    b = check_sensitivity(sensitivity=scale, name="scale")
    a = check_real("true_answer", true_answer)
    a2 = check_real("neighbour_answer", neighbour_answer)
    y = as_float_array("y", y)
    return (np.abs(y - a2) - np.abs(y - a)) / b


def laplace_privacy_loss_bound(*, true_answer, neighbour_answer, scale) -> float:
    """sup_y |L(y)| = |a − a'|/b (reached for every y outside [min(a,a'), max(a,a')])."""
    b = check_sensitivity(sensitivity=scale, name="scale")
    return abs(check_real("true_answer", true_answer) - check_real("neighbour_answer", neighbour_answer)) / b
