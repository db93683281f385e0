"""The noise of a release in the units of its answer (issue 9 item 3): "a count of 100 comes back as 100 ± 38
(95 %)".

Every number here is a closed form of the noise distribution (two-sided intervals of Laplace, Gaussian and
log-normal laws); the tests recompute them independently (scipy's distributions, or a Monte-Carlo draw).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from ..validation import check_real, check_sensitivity

__all__ = [
    "NoiseStatement",
    "laplace_noise_in_units",
    "gaussian_noise_in_units",
    "log_space_noise_in_units",
    "dpne_users_per_released",
]


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
    b = check_sensitivity(sensitivity=scale, name="scale")
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
    s = check_sensitivity(sensitivity=sigma, name="sigma")
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
    s = check_sensitivity(sensitivity=sigma, name="sigma")
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
