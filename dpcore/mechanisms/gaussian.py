"""Gaussian mechanism calibration: classic (000 Def. 4) and analytic (Balle & Wang 2018).

SPEC §2. The classic bound σ = Δ₂·√(2 ln(1.25/δ))/ε is proven only for ε < 1; the analytic
calibration solves δ(ε, σ) = δ exactly and is valid for every ε > 0.

**One policy for the classic σ at ε ≥ 1** (issue 30 item 9), kept by every function that promises (ε, δ) —
:func:`gaussian_sigma` and strict :func:`dpcore.bayesian_dp` (both through :func:`check_classic_promise`):

- the default is ``"auto"``: the classic σ below ε = 1 (inside its proof), the analytic σ from ε = 1;
- the classic σ is used only when asked for (``"classic"``), and then it is **refused** (ValueError naming the
  fix) where ε ≥ 1 and its exact δ (Balle–Wang) exceeds the δ asked for — e.g. ε = 10, δ = 1e-5 (exact δ 2.27e-5).
  Where its exact δ is at most δ (ε ≥ 1 up to ε ≈ 8 at δ = 1e-5) it is allowed: the promise holds.

:func:`gaussian_noise_scale` and :func:`classic_gaussian_sigma` are the bare formulas, with no promise: for
showing the classic σ beside the analytic one, and for mechanisms that are not DP anyway (the paper's local-γ
BayesianDP, whose ε and δ only set a noise scale).
"""

from __future__ import annotations

import math

from scipy.optimize import brentq
from scipy.special import log_ndtr, ndtr

from ..validation import check_choice, check_delta, check_epsilon, check_noise_scale, check_real, check_sensitivity
from ..errors import UserError

__all__ = [
    "gaussian_sigma",
    "gaussian_noise_scale",
    "check_classic_promise",
    "gaussian_delta",
    "classic_gaussian_sigma",
    "analytic_gaussian_sigma",
    "classic_calibration_proven",
    "resolve_calibration",
    "classic_true_delta",
    "GAUSSIAN_METHODS",
    "CALIBRATION_CHOICES",
    "AUTO_CALIBRATION_THRESHOLD",
]

GAUSSIAN_METHODS = ("classic", "analytic")
CALIBRATION_CHOICES = ("auto",) + GAUSSIAN_METHODS
"""What a page or caller may ask for: "auto" is the classic σ below ε = 1 and the analytic σ from 1 on."""
AUTO_CALIBRATION_THRESHOLD = 1.0


def resolve_calibration(method, *, epsilon) -> str:
    """The calibration that is used: "auto" → "classic" for ε < 1 (as in the paper, inside its proof),
    "analytic" for ε ≥ 1 (the classic σ is outside its proof there: at ε = 10 its true δ is 2.27 × the
    stated one, see :func:`gaussian_delta`). "classic" and "analytic" are returned as they are."""
    check_choice("calibration", method, CALIBRATION_CHOICES)
    if method != "auto":
        return method
    return "classic" if check_epsilon(epsilon=epsilon) < AUTO_CALIBRATION_THRESHOLD else "analytic"


# Above this ε, e^ε·Φ(−a−b) = exp(ε + log Φ(−a−b)) adds two numbers of size ε whose difference is the
# answer, and double precision loses it (an ε this large promises nothing anyway).
ANALYTIC_MAX_EPSILON = 1e6


def classic_calibration_proven(*, epsilon: float) -> bool:
    """True when the classic bound's proof covers ε (it needs ε < 1)."""
    return check_epsilon(epsilon=epsilon) < 1.0


def _analytic_delta(epsilon: float, sigma: float, sensitivity: float) -> float:
    a = sensitivity / (2.0 * sigma)
    b = epsilon * sigma / sensitivity
    # e^ε·Φ(−a−b) computed in log space so that large ε does not overflow.
    second = math.exp(epsilon + float(log_ndtr(-a - b)))
    return float(ndtr(a - b)) - second


def gaussian_delta(*, epsilon, sigma, sensitivity=1.0) -> float:
    """δ(ε, σ) of the Gaussian mechanism with ℓ2 sensitivity Δ (Balle & Wang 2018, Thm 8).

    δ(ε,σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε·Φ(−Δ/(2σ) − εσ/Δ). This is the exact (tight) privacy profile:
    the mechanism with noise N(0, σ²) is (ε, δ(ε,σ))-DP and no smaller δ holds.

    Raises:
      ValueError: ε ≤ 0, σ ≤ 0, Δ ≤ 0, or any of them not finite.
    """
    epsilon = check_epsilon(epsilon=epsilon)
    sigma = check_sensitivity(sensitivity=sigma, name="sigma")
    sensitivity = check_sensitivity(sensitivity=sensitivity)
    return max(0.0, _analytic_delta(epsilon, sigma, sensitivity))


def classic_gaussian_sigma(*, epsilon, delta, sensitivity=1.0) -> float:
    """σ = Δ₂·√(2 ln(1.25/δ))/ε (000 Def. 4; Dwork & Roth Thm A.1, proven for ε < 1)."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    sensitivity = check_sensitivity(sensitivity=sensitivity)
    return check_noise_scale(
        "σ",
        sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon,
        epsilon=epsilon,
        delta=delta,
        sensitivity=sensitivity,
    )


def analytic_gaussian_sigma(*, epsilon, delta, sensitivity=1.0) -> float:
    """Smallest σ with δ(ε, σ) ≤ δ (Balle & Wang 2018), by bracketing and Brent's method in log σ.

    δ(ε, σ) decreases strictly in σ, so the root is unique. The tolerance is 1e-12 relative in σ.
    ε is limited to ``ANALYTIC_MAX_EPSILON`` = 1e6 (beyond it δ(ε, σ) is not computable in floats).
    """
    epsilon = check_real("epsilon", epsilon, low=0.0, high=ANALYTIC_MAX_EPSILON)
    delta = check_delta(delta=delta)
    sensitivity = check_sensitivity(sensitivity=sensitivity)

    def f(log_s: float) -> float:  # δ(ε, σ) depends on σ/Δ only: solve for Δ = 1 (a huge Δ must not overflow here)
        return _analytic_delta(epsilon, math.exp(log_s), 1.0) - delta

    lo, hi = math.log(1e-3), math.log(10.0)
    while f(lo) < 0:  # σ too large: δ below target; shrink
        lo -= 2.0
        if lo < -60:
            break
    while f(hi) > 0:
        hi += 2.0
        if hi > 60:  # pragma: no cover - unreachable for δ in (0,1)
            raise UserError(f"could not calibrate sigma for epsilon={epsilon}, delta={delta}")
    log_s = brentq(f, lo, hi, xtol=1e-14, rtol=1e-13, maxiter=500)
    return check_noise_scale("σ", math.exp(log_s) * sensitivity, epsilon=epsilon, delta=delta, sensitivity=sensitivity)


def classic_true_delta(*, epsilon, delta) -> float:
    """The exact δ of the classic σ = √(2 ln(1.25/δ))/ε at ε (Balle & Wang's δ(ε, σ); Δ cancels).

    Below ε = 1 it is ≤ δ (the proof holds, with slack); from ε = 1 it can exceed δ: at ε = 10,
    δ = 1e-5 it is 2.27e-5 (issue 15 item 3). Pages show it beside the classic σ."""
    return gaussian_delta(epsilon=epsilon, sigma=classic_gaussian_sigma(epsilon=epsilon, delta=delta))


def check_classic_promise(*, epsilon, delta) -> None:
    """Refuse the classic σ where it does not keep (ε, δ): ε ≥ 1 and its exact δ above the δ asked for.

    The one check behind :func:`gaussian_sigma` (``method="classic"``) and strict BayesianDP. Below ε = 1 the
    classic σ is inside its proof; from ε = 1 it keeps (ε, δ) only where :func:`classic_true_delta` ≤ δ.

    Raises:
      ValueError: naming ε, the exact δ, the δ asked for and the fix (the analytic σ or a smaller ε).
    """
    epsilon, delta = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
    if epsilon < AUTO_CALIBRATION_THRESHOLD:
        return
    true = classic_true_delta(epsilon=epsilon, delta=delta)
    if true > delta:
        raise UserError(
            f"epsilon={epsilon:g} is outside the classic σ's proof (ε < 1), and there its exact δ is {true:.3g}, "
            f"more than the delta={delta:g} asked for: the classic calibration is refused. Use calibration='auto' "
            "(the analytic σ from ε = 1) or 'analytic' (tight for every ε), or a smaller epsilon"
        )


def gaussian_noise_scale(*, epsilon, delta, sensitivity=1.0, method="auto") -> float:
    """The σ formula of a calibration, **with no promise**: the classic σ at any ε (even where its exact δ exceeds
    δ), the analytic σ, or "auto". For showing the classic σ beside the analytic one, and for mechanisms whose ε
    and δ only set a noise scale (not DP: the paper's local-γ BayesianDP). A DP release uses :func:`gaussian_sigma`.
    """
    check_choice("method", method, CALIBRATION_CHOICES)
    method = resolve_calibration(method, epsilon=epsilon)
    if method == "classic":
        return classic_gaussian_sigma(epsilon=epsilon, delta=delta, sensitivity=sensitivity)
    return analytic_gaussian_sigma(epsilon=epsilon, delta=delta, sensitivity=sensitivity)


def gaussian_sigma(*, epsilon, delta, sensitivity=1.0, method="auto") -> float:
    """Noise standard deviation σ for the Gaussian mechanism to be (ε, δ)-DP at ℓ2 sensitivity Δ.

    Args:
      epsilon: ε > 0.
      delta: δ in (0, 1).
      sensitivity: ℓ2 sensitivity Δ > 0.
      method: ``"auto"`` (default: classic below ε = 1, analytic from 1), ``"analytic"`` (Balle & Wang 2018,
        tight for every ε) or ``"classic"`` (000 Def. 4, proven for ε < 1; from ε = 1 refused where its exact δ
        exceeds δ — the module's policy, shared with strict BayesianDP).

    Returns:
      σ as a float; the mechanism N(0, σ²) on a Δ-sensitive query is (ε, δ)-DP.

    Raises:
      TypeError / ValueError: a parameter of the wrong kind or out of range; ``"classic"`` where it would not
      keep (ε, δ) (e.g. ε = 10, δ = 1e-5: exact δ 2.27e-5).

    SPEC §2 check values (Δ = 1): analytic (1, 1e-5) → 3.730632, (4, 1e-7) → 1.297843;
    classic (1, 1e-5) → 4.844805.
    """
    check_choice("method", method, CALIBRATION_CHOICES)
    if resolve_calibration(method, epsilon=epsilon) == "classic":
        check_classic_promise(epsilon=epsilon, delta=delta)
    return gaussian_noise_scale(epsilon=epsilon, delta=delta, sensitivity=sensitivity, method=method)
