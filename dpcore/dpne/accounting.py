"""DPNE/DPSU accounting (003 §2, SPEC §4): the guarantee, σ_k per length, the DPSU threshold ρ and the
spurious-k-gram threshold τ_k — every number the privacy claim rests on, before any data is read.

Privacy-critical: a reviewer reads this module and :mod:`dpcore.dpne.selection`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.special import ndtri

from ..errors import UserError
from ..guarantees import Guarantee, approximate_dp
from ..mechanisms.gaussian import gaussian_sigma
from ..text.ngrams import MAX_NGRAM_LENGTH
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_sequence

__all__ = [
    "EVALUATION_ONLY",
    "KANONYMITY_LABEL",
    "PRUNING_RULES",
    "SELECTION_RULES",
    "DPSU_POLICIES",
    "DEFAULT_K_VALUES",
    "dpne_noise_scales",
    "dpsu_threshold",
    "dpsu_threshold_for_sigma",
    "spurious_threshold",
    "count_valid_kgrams",
    "dpne_guarantee",
]


DPSU_SINGLE_SCOPE = "for each length separately — not for all lengths together"


def dpne_guarantee(*, epsilon, delta, single_length: bool = False) -> Guarantee:
    """DPNE and the DPSU baselines: (ε, δ)-DP per user (approximate DP; 003 Thm 3.1). DPSU-single spends
    the whole budget on every length, so the promise holds for each length separately only."""
    return approximate_dp(epsilon=float(epsilon), delta=float(delta), scope=DPSU_SINGLE_SCOPE if single_length else "")


EVALUATION_ONLY = "evaluation only — computed from the private corpus, not part of the DP release"
KANONYMITY_LABEL = "k-anonymity — not DP"
PRUNING_RULES = ("both", "single")
SELECTION_RULES = ("random", "most-frequent")
DPSU_POLICIES = ("weighted", "policy")  # weighted Gaussian (default), Policy Gaussian (Gopi et al. 2020)
DEFAULT_K_VALUES = (10, 20, 50, 100)
_MAX_POLICY_CUTOFF = 1000.0
_EXACT_T = 2**16  # ρ's max over t is exact up to this t, a tight upper bound beyond (no O(Δ) memory)


# --------------------------------------------------------------------------------------------------
# Accounting
# --------------------------------------------------------------------------------------------------

MAX_CONTRIBUTION_LIMIT = 10**300
"""Δ0 enters ρ as a float (1/√t and (1 − δ/2)^(1/t) over t ≤ Δ0): a larger int would overflow it (issue 21 item 8)."""


def check_contribution_limit(contribution_limit) -> int:
    """Δ0: an integer in [1, 1e300] (10**400 raised OverflowError inside ρ before)."""
    limit = check_int("contribution_limit", contribution_limit, low=1)
    if limit > MAX_CONTRIBUTION_LIMIT:
        raise UserError(
            f"contribution_limit must be at most 1e300 (ρ is computed with it as a float), got "
            f"contribution_limit=<an integer with {len(str(limit))} digits>"
        )
    return limit


def _check_noise_decay(noise_decay) -> float:
    return check_real("noise_decay", noise_decay, low=0.0)


def dpne_noise_scales(*, epsilon, delta, max_length, noise_decay=1.0) -> tuple[float, np.ndarray]:
    """σ for (ε, δ/2) and its split σ_1..σ_T over lengths (003 Thm 2.1, Prop. 2.3; SPEC §4).

    σ_k = σ_1·c^(k−1) with σ_1 = σ·√(Σ_{k=1..T} c^(−2(k−1))), so Σ_k 1/σ_k² = 1/σ². c = 1 gives
    σ_k = σ√T; c < 1 spends more budget on long n-grams, c > 1 on short ones.

    Returns:
      (σ, array of σ_k for k = 1..T).
    """
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    c = _check_noise_decay(noise_decay)
    sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
    powers = np.arange(max_length, dtype=float)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        sigma1 = sigma * math.sqrt(float(np.sum(c ** (-2.0 * powers))))
        sigmas = sigma1 * c**powers
    if not np.all(np.isfinite(sigmas) & (sigmas > 0)):
        raise UserError(
            f"noise_decay={c:g} with max_length={max_length} makes some σ_k = σ_1·c^(k−1) overflow or "
            "vanish in floating point; use a noise_decay closer to 1 (e.g. 0.5 … 2)"
        )
    return sigma, sigmas


def dpsu_threshold_for_sigma(*, sigma, delta, contribution_limit) -> float:
    """ρ = max_{1≤t≤Δ} [1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t))] (003 Thm 2.1; Gopi et al. 2020).

    The whole max is computed (the argmax is not always an endpoint). 1 − (1 − δ/2)^(1/t) is formed
    with ``expm1``/``log1p`` so that tiny δ keeps its precision.

    Memory does not grow with Δ: t ≤ 2^16 are evaluated exactly; beyond, (2^16, Δ] is cut into at most
    2^16 geometric pieces [a, b] and each contributes 1/√a + σ·Φ⁻¹((1 − δ/2)^(1/b)) — an upper bound on
    the bracket over the piece (the first term falls in t, the second rises), so ρ is never below the
    exact max (a larger ρ keeps the guarantee) and exceeds it by < 1e-4·σ + 1e-6 (tested).
    """
    sigma = check_real("sigma", sigma, low=0.0)
    delta = check_delta(delta=delta)
    limit = check_contribution_limit(contribution_limit)
    log_q = np.log1p(-delta / 2.0)

    def bracket(first, second):  # 1/√first + σ·Φ⁻¹((1 − δ/2)^(1/second)), Φ⁻¹(1 − x) = −Φ⁻¹(x)
        return 1.0 / np.sqrt(first) - sigma * ndtri(-np.expm1(log_q / second))

    t = np.arange(1, min(limit, _EXACT_T) + 1, dtype=float)
    best = float(np.max(bracket(t, t)))
    if limit > _EXACT_T:
        edges = np.unique(np.geomspace(_EXACT_T, float(limit), _EXACT_T + 1))
        edges[-1] = float(limit)
        best = max(best, float(np.max(bracket(edges[:-1], edges[1:]))))
    return best


def dpsu_threshold(*, epsilon, delta, contribution_limit) -> tuple[float, float]:
    """(σ, ρ) of one DPSU release with the weighted Gaussian policy (T = 1 in 003 Thm 2.1).

    σ from (ε, δ/2) by the analytic Gaussian at ℓ2 sensitivity 1, ρ by
    :func:`dpsu_threshold_for_sigma`. SPEC §4 **check**: (3, e⁻¹⁰, 10) → (1.3328, 6.4353);
    (1, 1e-5, 10) → (3.8841, 19.316).
    """
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    limit = check_contribution_limit(contribution_limit)
    sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
    return sigma, dpsu_threshold_for_sigma(sigma=sigma, delta=delta, contribution_limit=limit)


def spurious_threshold(sigma_k, eta, previous_size, valid_count) -> float:
    """ρ_k = σ_k·Φ⁻¹(1 − η·min(1, |S_{k−1}|/|V_k|)) (003 §2, after Prop. 2.2).

    With it a zero-weight valid k-gram passes with probability η·min(1, |S_{k−1}|/|V_k|), so the
    expected number of spurious k-grams is at most η·min(|S_{k−1}|, |V_k|). ρ_k does not affect privacy.
    """
    sigma_k = check_real("sigma_k", sigma_k, low=0.0)
    eta = check_real("eta", eta, low=0.0, high=1.0, high_inclusive=False)
    previous_size = check_int("previous_size", previous_size, low=1)
    valid_count = check_int("valid_count", valid_count, low=1)
    return float(-sigma_k * ndtri(_spurious_probability(eta, previous_size, valid_count)))


def _spurious_probability(eta: float, previous_size: int, valid_count: int) -> float:
    return eta * min(1.0, previous_size / valid_count)


def count_valid_kgrams(released: Sequence[Sequence[str]] | set, one_grams, *, pruning="both") -> int:
    """|V_k| for string k-grams S_{k−1} and 1-grams S_1, exactly (for tests and notebooks).

    Both sides: the number of pairs (s, t) ∈ S_{k−1}² with s[1:] = t[:−1]; single side:
    |S_{k−1}|·|S_1|. (For S_{k−1} = S_1, both sides gives |S_1|².)
    """
    check_choice("pruning", pruning, PRUNING_RULES)
    prev = {tuple(g) for g in check_sequence("released", released)}
    ones = {tuple(g) for g in check_sequence("one_grams", one_grams)}
    if pruning == "single":
        return len(prev) * len(ones)
    starts: dict[tuple, int] = {}
    for t in prev:
        starts[t[:-1]] = starts.get(t[:-1], 0) + 1
    return sum(starts.get(s[1:], 0) for s in prev)
