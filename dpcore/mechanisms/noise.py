"""The noise samplers: every release (and every audit run) draws its noise through these functions.

They are the one place a secure sampler would go (a discrete Laplace or Gaussian on exact arithmetic, say):
replace the body of a function here and every mechanism of dpcore follows. Calibration is not here — the scale
comes from :func:`dpcore.mechanisms.laplace_scale`, :func:`dpcore.mechanisms.gaussian_sigma` or a mechanism's own
rule, validated there; these functions only draw.

Each draws exactly what the numpy call in its body draws from the same generator — one call, the same shape, in
the caller's order — so a seeded release, its export and its replay are what they were when the draws were
inline (tests/test_noise_path.py checks the values; it also fails on a new inline noise draw in dpcore).

Randomness that is not noise (which items a user keeps, an order, a synthetic corpus) is drawn where it is used.
"""

from __future__ import annotations

from typing import overload

import numpy as np

from ..validation import check_rng

__all__ = ["laplace_noise", "gaussian_noise", "standard_normal_noise", "standard_exponential_noise"]

Shape = int | tuple[int, ...]


@overload
def laplace_noise(*, scale, size: None = None, rng) -> float: ...
@overload
def laplace_noise(*, scale, size: Shape, rng) -> np.ndarray: ...
def laplace_noise(*, scale, size: Shape | None = None, rng) -> np.ndarray | float:
    """i.i.d. Lap(0, ``scale``): ``rng.laplace(0.0, scale, size=size)``.

    Args:
      scale: b ≥ 0, a float or an array broadcast against ``size`` (one scale per coordinate).
      size: the shape of the draw; None draws one float.
      rng: numpy Generator or int seed.
    """
    return check_rng(rng).laplace(0.0, scale, size=size)


@overload
def gaussian_noise(*, sigma, size: None = None, rng) -> float: ...
@overload
def gaussian_noise(*, sigma, size: Shape, rng) -> np.ndarray: ...
def gaussian_noise(*, sigma, size: Shape | None = None, rng) -> np.ndarray | float:
    """i.i.d. N(0, ``sigma``²): ``sigma * rng.standard_normal(size)`` (σ a float or an array broadcast against
    the draw)."""
    return sigma * check_rng(rng).standard_normal(size)


@overload
def standard_normal_noise(*, size: None = None, rng) -> float: ...
@overload
def standard_normal_noise(*, size: Shape, rng) -> np.ndarray: ...
def standard_normal_noise(*, size: Shape | None = None, rng) -> np.ndarray | float:
    """i.i.d. N(0, 1), for a mechanism that scales its noise later or reuses it at several scales (the same draw
    at every ε): ``rng.standard_normal(size)``."""
    return check_rng(rng).standard_normal(size)


@overload
def standard_exponential_noise(*, size: None = None, rng) -> float: ...
@overload
def standard_exponential_noise(*, size: Shape, rng) -> np.ndarray: ...
def standard_exponential_noise(*, size: Shape | None = None, rng) -> np.ndarray | float:
    """i.i.d. Exp(1): ``rng.standard_exponential(size)``. DPNE's zero-weight count draws the order statistics of
    its items' implicit noise from these (:func:`dpcore.dpne.space.zero_weight_draw`)."""
    return check_rng(rng).standard_exponential(size)
