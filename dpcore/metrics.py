"""Distances between a true and a released distribution or matrix (SPEC §3 and §5 metrics)."""

from __future__ import annotations

import numpy as np

from .errors import UserError
from .validation import as_float_array, check_probability

__all__ = ["KL_SMOOTHING", "kl_divergence", "l1_distance", "rmse", "kendall_tau_distance"]

KL_SMOOTHING = 1e-9
"""λ of SPEC §3: every released q is mixed with the uniform distribution at this weight before KL."""


def _distribution(name: str, x) -> np.ndarray:
    a = as_float_array(name, x)
    if a.ndim not in (1, 2) or a.shape[-1] == 0:
        raise UserError(f"{name} must be a non-empty 1-D or 2-D array, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise UserError(f"{name} must be finite, got a NaN or infinite entry")
    if np.any(a < 0):
        raise UserError(f"{name} must be non-negative, got a minimum of {a.min():g}")
    s = a.sum(axis=-1, keepdims=True)
    if np.any(s <= 0):
        raise UserError(f"{name} must have positive total mass, got a row that sums to 0")
    return a / s


def kl_divergence(p, q, *, smoothing: float = KL_SMOOTHING) -> float | np.ndarray:
    """KL(p‖q) = Σ_{p_i>0} p_i ln(p_i/q̃_i) with q̃ = (1−λ)·q + λ/|V| (SPEC §3, λ = 1e-9).

    ``p`` is the private (true) distribution; ``q`` one release (1-D) or a stack of releases (2-D,
    one per row), in which case an array of KL values is returned. Both are normalised first.
    The λ rule is the same for every mechanism, so a release that puts zero mass on a used item
    gets a large but finite KL instead of +inf.
    """
    lam = check_probability(smoothing, "smoothing", allow_one=False)
    p = _distribution("p", p)
    q = _distribution("q", q)
    if p.ndim != 1:
        raise UserError(f"p must be 1-D, got shape {p.shape}")
    if q.shape[-1] != p.shape[0]:
        raise UserError(f"p and q must have the same length, got {p.shape[0]} and {q.shape[-1]}")
    support = p > 0
    ps = p[support]
    qs = (1.0 - lam) * q[..., support] + lam / p.shape[0]
    with np.errstate(divide="ignore"):
        out = np.sum(ps * (np.log(ps) - np.log(qs)), axis=-1)
    return float(out) if np.ndim(out) == 0 else out


def _same_shape(a, b) -> tuple[np.ndarray, np.ndarray]:
    a = as_float_array("a", a)
    b = as_float_array("b", b)
    if a.shape != b.shape:
        raise UserError(f"a and b must have the same shape, got a.shape={a.shape} and b.shape={b.shape}")
    if a.size == 0:
        raise UserError("a and b must not be empty, got shape (0,)")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        raise UserError("a and b must be finite, got a NaN or infinite entry")
    return a, b


def l1_distance(a, b) -> float:
    """Σ |a − b| over all entries (SPEC §5: L1 = Σ|W − W′|)."""
    a, b = _same_shape(a, b)
    return float(np.abs(a - b).sum())


def rmse(a, b) -> float:
    """√(mean (a − b)²) over all entries."""
    a, b = _same_shape(a, b)
    return float(np.sqrt(np.mean((a - b) ** 2)))


def kendall_tau_distance(a, b) -> float:
    """Normalised Kendall tau distance between the rankings induced by scores ``a`` and ``b``.

    The share of item pairs ordered differently: a pair counts 1 when strictly discordant and ½
    when tied in exactly one of the two rankings (ties in both count 0). 0 = same order,
    1 = reversed. For 2-D input (one ranking per row, e.g. one per topic) the rows' distances are
    averaged, as SPEC §5 asks.
    """
    a, b = _same_shape(a, b)
    if a.ndim == 1:
        a, b = a[None, :], b[None, :]
    if a.ndim != 2:
        raise UserError(f"kendall_tau_distance takes 1-D or 2-D arrays, got shape {a.shape}")
    n = a.shape[1]
    if n < 2:
        raise UserError(f"a ranking needs at least 2 items, got {n}")
    iu = np.triu_indices(n, k=1)
    sa = np.sign(a[:, :, None] - a[:, None, :])[:, iu[0], iu[1]]
    sb = np.sign(b[:, :, None] - b[:, None, :])[:, iu[0], iu[1]]
    discordant = (sa * sb < 0).astype(float) + 0.5 * ((sa == 0) ^ (sb == 0))
    return float(discordant.mean(axis=1).mean())
