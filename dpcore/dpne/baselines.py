"""The DPSU baselines of 003 §3: DPSU on all lengths at once, on each length with an even budget split,
and DPSU-single (one length, its own (ε, δ))."""

from __future__ import annotations

import math

import numpy as np

from ..errors import UserError
from ..mechanisms.gaussian import gaussian_sigma
from ..text.ngrams import MAX_NGRAM_LENGTH, NgramIndex, build_ngram_index
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_rng
from .accounting import (
    _MAX_POLICY_CUTOFF,
    DPSU_POLICIES,
    SELECTION_RULES,
    check_contribution_limit,
    dpne_guarantee,
    dpsu_threshold,
    dpsu_threshold_for_sigma,
)
from .results import DpsuBaselineRelease, _released_sets
from .selection import _dpsu_select, _dpsu_weighted_levels
from .space import _as_token_corpus

__all__ = [
    "dpsu_all",
    "dpsu_even",
    "dpsu_single",
]


# --------------------------------------------------------------------------------------------------
# Baselines (003 §3.1.2; SPEC §4)
# --------------------------------------------------------------------------------------------------


def _as_index(users, max_length: int) -> NgramIndex:
    if isinstance(users, NgramIndex):
        if users.max_length < max_length:
            raise UserError(
                f"max_length must be <= the index's max_length {users.max_length}, got max_length={max_length}; "
                "build the index with build_ngram_index(corpus, max_length)"
            )
        return users
    return build_ngram_index(_as_token_corpus(users), max_length)


def _check_policy_cutoff(policy_cutoff) -> float:
    # α multiplies σ in Γ = ρ + α·σ; beyond a few σ it changes nothing, and a huge α overflows ‖Γ − H‖₂
    return check_real("policy_cutoff", policy_cutoff, low=0.0, low_inclusive=True, high=_MAX_POLICY_CUTOFF)


def _check_baseline(
    epsilon, delta, max_length, contribution_limit, selection, rng, policy="weighted", policy_cutoff=2.0
):
    check_choice("policy", policy, DPSU_POLICIES)
    _check_policy_cutoff(policy_cutoff)
    return (
        check_epsilon(epsilon=epsilon),
        check_delta(delta=delta),
        check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH),
        check_contribution_limit(contribution_limit),
        check_choice("selection", selection, SELECTION_RULES),
        check_rng(rng),
    )


def dpsu_all(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
) -> DpsuBaselineRelease:
    """DPSU-all: one DPSU over all n-grams of length ≤ T as one universe, contribution T·Δ0 (003 §3.1.2).

    σ from (ε, δ/2) (analytic), ρ = :func:`dpsu_threshold_for_sigma` (σ, δ, T·Δ0). (ε, δ)-DP per user.
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(
        epsilon, delta, max_length, contribution_limit, selection, rng, policy, policy_cutoff
    )
    index = _as_index(users, T)
    sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
    rho = dpsu_threshold_for_sigma(sigma=sigma, delta=delta, contribution_limit=T * limit)
    if policy == "weighted":  # level by level, without concatenating the pairs (same draws, same result)
        masks = _dpsu_weighted_levels(
            [index.level(k) for k in range(1, T + 1)],
            index.corpus.n_users,
            limit=T * limit,
            sigma=sigma,
            threshold=rho,
            selection=selection,
            rng=rng,
        )
    else:
        offsets = np.cumsum([0] + [index.level(k).n_grams for k in range(1, T + 1)])
        pu = np.concatenate([index.level(k).pair_user for k in range(1, T + 1)]).astype(np.int64)
        pi = np.concatenate([index.level(k).pair_gram.astype(np.int64) + offsets[k - 1] for k in range(1, T + 1)])
        pc = np.concatenate([index.level(k).pair_count for k in range(1, T + 1)])
        released, _ = _dpsu_select(
            pu,
            pi,
            pc,
            int(offsets[-1]),
            limit=T * limit,
            sigma=sigma,
            threshold=rho,
            selection=selection,
            rng=rng,
            policy=policy,
            cutoff_alpha=policy_cutoff,
        )
        del pu, pi, pc
        masks = [released[offsets[k - 1] : offsets[k]] for k in range(1, T + 1)]
    ids = {k: index.level(k).rows(np.flatnonzero(masks[k - 1])) for k in range(1, T + 1)}
    return DpsuBaselineRelease(
        name="DPSU-all",
        ngrams=_released_sets(index.corpus.vocabulary, ids),
        sigmas={k: sigma for k in ids},
        thresholds={k: rho for k in ids},
        contribution_limit=T * limit,
        guarantee=dpne_guarantee(epsilon=epsilon, delta=delta),
    )


def dpsu_even(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
) -> DpsuBaselineRelease:
    """DPSU-even: a separate DPSU per length k = 1..T with σ_k = σ√T (SPEC §4), contribution Δ0 each.

    Accounting: the T Gaussian parts compose to σ (Σ 1/σ_k² = 1/σ², 003 Prop. 2.3) and the T
    thresholding parts are (0, δ/(2T)) each, so each ρ_k is :func:`dpsu_threshold_for_sigma`
    (σ_k, δ/T, Δ0) and the whole is (ε, δ)-DP per user. (The paper writes "ε/√T by advanced
    composition"; SPEC §4 fixes σ_k = σ√T, which is the tight Gaussian composition of the same idea.)
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(
        epsilon, delta, max_length, contribution_limit, selection, rng, policy, policy_cutoff
    )
    index = _as_index(users, T)
    sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
    sigma_k = sigma * math.sqrt(T)
    rho = dpsu_threshold_for_sigma(sigma=sigma_k, delta=delta / T, contribution_limit=limit)
    ids = _dpsu_each_length(
        index,
        T,
        sigma=sigma_k,
        threshold=rho,
        limit=limit,
        selection=selection,
        rng=rng,
        policy=policy,
        policy_cutoff=policy_cutoff,
    )
    return DpsuBaselineRelease(
        name="DPSU-even",
        ngrams=_released_sets(index.corpus.vocabulary, ids),
        sigmas={k: sigma_k for k in ids},
        thresholds={k: rho for k in ids},
        contribution_limit=limit,
        guarantee=dpne_guarantee(epsilon=epsilon, delta=delta),
    )


def _dpsu_each_length(index, T, *, sigma, threshold, limit, selection, rng, policy, policy_cutoff) -> dict:
    """One independent DPSU per length k = 1..T (no pruning): the released k-gram ids per length."""
    ids = {}
    for k in range(1, T + 1):
        lev = index.level(k)
        released, _ = _dpsu_select(
            lev.pair_user,
            lev.pair_gram,
            lev.pair_count,
            lev.n_grams,
            limit=limit,
            sigma=sigma,
            threshold=threshold,
            selection=selection,
            rng=rng,
            policy=policy,
            cutoff_alpha=policy_cutoff,
        )
        ids[k] = lev.rows(np.flatnonzero(released))
    return ids


def dpsu_single(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
) -> DpsuBaselineRelease:
    """DPSU-single: for each k = 1..T, one DPSU on k-grams alone with the whole (ε, δ) (003 §3.1.2).

    Each length is its own (ε, δ)-DP release; the T of them together are *not* one (ε, δ) release —
    the baseline answers "how many k-grams could the whole budget buy at this one length".
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(
        epsilon, delta, max_length, contribution_limit, selection, rng, policy, policy_cutoff
    )
    index = _as_index(users, T)
    sigma, rho = dpsu_threshold(epsilon=epsilon, delta=delta, contribution_limit=limit)
    ids = _dpsu_each_length(
        index,
        T,
        sigma=sigma,
        threshold=rho,
        limit=limit,
        selection=selection,
        rng=rng,
        policy=policy,
        policy_cutoff=policy_cutoff,
    )
    return DpsuBaselineRelease(
        name="DPSU-single",
        ngrams=_released_sets(index.corpus.vocabulary, ids),
        sigmas={k: sigma for k in ids},
        thresholds={k: rho for k in ids},
        contribution_limit=limit,
        guarantee=dpne_guarantee(epsilon=epsilon, delta=delta, single_length=True),
    )
