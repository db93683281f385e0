"""The noise scales of TopicDP's matrix mechanisms (thesis 004 ch. 4–5; SPEC §5): TopicDP's σ as in the thesis
(and its true ε), corrected and strict, the matrix Laplace b and the i.i.d. MVG σ. Pure formulas; the records that
use them and the releases are in :mod:`dpcore.topicdp.mechanisms` (which re-exports these).
"""

from __future__ import annotations

import math

import numpy as np

from ..errors import UserError
from ..mechanisms.gaussian import analytic_gaussian_sigma, gaussian_delta, gaussian_sigma
from ..validation import check_delta, check_epsilon, check_int, check_noise_scale, check_real, check_sensitivity

__all__ = [
    "topicdp_sigma",
    "corrected_topicdp_sigma",
    "strict_topicdp_sigma",
    "topicdp_true_epsilon",
    "matrix_laplace_scale",
    "mvg_sigma",
]


def topicdp_sigma(*, epsilon, delta, sensitivity, m: int, n: int) -> float:
    """σ = Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n), **as in the thesis** (004 Alg. 2 lines 2–4; SPEC §5).

    The split of ε is an error of the thesis (issue 21 item 4): the Gaussian is calibrated to the whole
    matrix's ℓ2 sensitivity, so this σ is m·n times larger than needed and its true ε is far below the
    ε asked for (:func:`topicdp_true_epsilon`: 0.0046 at 10 × 10, ε = 1, δ = 1e-5). Kept to reproduce the
    thesis; :func:`corrected_topicdp_sigma` is the σ its own argument needs."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    sensitivity = check_sensitivity(sensitivity=sensitivity)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    if not epsilon / (m * n) > 0:  # ε′ = ε/(m·n) underflows to 0 (e.g. ε = 5e-324): σ would be 1/0
        raise UserError(
            f"epsilon must be large enough that ε′ = ε/(m·n) is not 0 in floating point, got "
            f"epsilon={epsilon!r} with m·n = {m * n}: use a larger epsilon"
        )
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / (epsilon / (m * n))


def corrected_topicdp_sigma(*, epsilon, delta, sensitivity) -> float:
    """TopicDP's σ without the thesis's split of ε (issue 21 item 4; SPEC §5).

    A Gaussian on the whole matrix calibrated to its ℓ2 (Frobenius) sensitivity Δ_s is (ε, δ)-DP for
    that change: no ε′ = ε/(m·n) is needed (that is the composition of m·n separate releases, each
    with its own ℓ2 sensitivity Δ_s, which overstates the noise m·n-fold). σ = Δ_s·√(2 ln(1.25/δ))/ε
    (classic, proven for ε < 1) below ε = 1 and the analytic σ (Balle & Wang 2018) from ε = 1 on
    (``gaussian_sigma(method="auto")``). With a sampled Δ_s the release is still only (ε, δ, γ)-random DP.
    """
    return gaussian_sigma(
        epsilon=epsilon, delta=delta, sensitivity=check_sensitivity(sensitivity=sensitivity), method="auto"
    )


def strict_topicdp_sigma(*, epsilon, delta, m: int) -> float:
    """σ of strict TopicDP: the analytic Gaussian (Balle & Wang 2018) on the global bound Δ = √(2m).

    Any two row-stochastic m × n matrices are within √(2m) in Frobenius norm — each row is a probability
    vector, and two probability vectors are at most √2 apart (all mass on different words), whatever the
    rows, columns or their order — so no sensitivity has to be sampled and the release is (ε, δ)-DP for the
    values (given a non-private choice of topics and keywords). SPEC check: ε = 1, δ = 1e-5, m = 10 →
    Δ = 4.4721, σ = 16.68.
    """
    m = check_int("m", m, low=1, high=10**12)
    return analytic_gaussian_sigma(epsilon=epsilon, delta=delta, sensitivity=math.sqrt(2.0 * m))


def topicdp_true_epsilon(*, epsilon, delta, m: int, n: int) -> float:
    """The ε the thesis's σ really gives: the smallest ε′ with δ(ε′, σ) ≤ δ for an ℓ2 change of Δ_s, where
    σ = :func:`topicdp_sigma` (the exact privacy profile of Balle & Wang 2018, Thm 8). It does not depend
    on Δ_s (σ/Δ_s = √(2 ln(1.25/δ))·m·n/ε). SPEC check: 10 × 10, ε = 1, δ = 1e-5 → 0.0046.

    Found by bisection in log ε′ on δ(ε′), which decreases in ε′; 1e-12 relative.
    """
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    ratio = topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=1.0, m=m, n=n)
    if gaussian_delta(epsilon=1e-12, sigma=ratio) <= delta:
        return 1e-12
    lo, hi = math.log(1e-12), math.log(max(2.0 * epsilon, 1.0))
    while gaussian_delta(epsilon=math.exp(hi), sigma=ratio) > delta:
        hi += 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if gaussian_delta(epsilon=math.exp(mid), sigma=ratio) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return math.exp(hi)


def matrix_laplace_scale(*, epsilon, m: int) -> float:
    """b = 2m/ε: ℓ1 sensitivity 2m, each of the m row-stochastic rows can move by at most 2 (004 §5.2)."""
    epsilon = check_epsilon(epsilon=epsilon)
    m = check_int("m", m, low=1)
    return 2.0 * m / epsilon


def mvg_sigma(*, epsilon, delta, m: int, n: int, gamma_f, s2) -> float:
    """Per-entry standard deviation of the i.i.d. MVG mechanism (Chanyaswad et al. 2018; SPEC §5).

    r = min(m, n), H_r = Σ_{k≤r} 1/k, H_{r,1/2} = Σ_{k≤r} 1/√k,
    ζ(δ) = √(2√(−mn·ln δ) − 2 ln δ + mn), α = (H_r + H_{r,1/2})γ_F² + 2H_r·γ_F·s₂,
    β = 2(mn)^{1/4}·H_r·s₂·ζ(δ), P = (−β + √(β² + 8αε))²/(4α²); the noise is N(0, √(mn)/P) with
    √(mn)/P the *variance*, so σ = √(√(mn)/P). SPEC check: m = n = 10, γ_F = 1, s₂ = 1, ε = 1,
    δ = 1e-5 → σ ≈ 404.8.

    Args:
      gamma_f: γ_F = sup ‖f(D)‖_F (≤ √m for row-stochastic rows).
      s2: the ℓ2 sensitivity s₂ (here the sampled Δ_s).
    """
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    gamma_f = check_real("gamma_f", gamma_f, low=0.0, high=1e150)  # γ_F ≤ √m for row-stochastic rows; γ_F² must fit
    s2 = check_sensitivity(sensitivity=s2, name="s2")
    r = min(m, n)
    h_r = sum(1.0 / k for k in range(1, r + 1))
    h_half = sum(1.0 / math.sqrt(k) for k in range(1, r + 1))
    mn = m * n
    ln_d = math.log(delta)
    zeta = math.sqrt(2.0 * math.sqrt(-mn * ln_d) - 2.0 * ln_d + mn)
    alpha = (h_r + h_half) * gamma_f**2 + 2.0 * h_r * gamma_f * s2
    beta = 2.0 * mn**0.25 * h_r * s2 * zeta
    # (−β + √(β² + 8αε))² / (4α²), written without the cancellation of −β + √(β² + …) (tiny ε, huge s₂)
    r = 4.0 * epsilon / (beta + math.hypot(beta, math.sqrt(8.0 * alpha * epsilon)))
    p = r * r
    with np.errstate(over="ignore"):
        sigma = float(np.sqrt(np.sqrt(float(mn)) / np.float64(p))) if p > 0 else math.inf
    return check_noise_scale("σ", sigma, epsilon=epsilon, delta=delta, s2=s2)
