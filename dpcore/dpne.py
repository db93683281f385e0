"""Differentially private n-gram extraction: DPSU, DPNE and the DPSU baselines (paper 003, SPEC §4).

Neighbouring corpora differ by one *user*. Every mechanism here releases **sets** of n-grams only —
never counts: the weighted or raw counts are not differentially private.

* Accounting (003 Thm 2.1, Prop. 2.3): σ solves δ/2 = Φ(1/(2σ) − εσ) − e^ε·Φ(−1/(2σ) − εσ) (analytic
  Gaussian, :func:`dpcore.gaussian_sigma` with ``method="analytic"``); σ_k = σ_1·c^(k−1) with
  Σ_k 1/σ_k² = 1/σ²; ρ_1 = max_{1≤t≤Δ1} [1/√t + σ_1·Φ⁻¹((1 − δ/2)^(1/t))] (the whole max);
  ρ_k = σ_k·Φ⁻¹(1 − η·min(1, |S_{k−1}|/|V_k|)) for k ≥ 2.
* DPSU (Gopi et al. 2020, weighted Gaussian policy; 003 App. B): each user keeps at most Δ of their
  distinct items (random, or most frequent), adds 1/√|U_i| to each; release u iff H[u] + N(0, σ²) > ρ.
* DPNE (003 Algorithm 1 with the scalable implicit histogram of §2 "Scaling up DPNE"): 1-grams by DPSU,
  then for k ≥ 2 only valid k-grams V_k (both sides: (S_{k−1}×S_1) ∩ (S_1×S_{k−1}); single side:
  S_{k−1}×S_1) enter the histogram. Valid k-grams with zero weight are never enumerated: B_k ~
  Binomial(|V_k| − |supp H_k|, 1 − Φ(ρ_k/σ_k)) of them are added, drawn uniformly from
  V_k \\ supp(H_k) (every draw is itself a member of V_k, so it satisfies the pruning rule — the public
  reference code draws from S_{k−1}×S_1 without the both-sides check for k ≥ 3; we do not copy that).
  |V_k| is exact. Noise is drawn once per item. Stop at the first empty S_k.
* Baselines (003 §3.1.2): DPSU-all, DPSU-even, DPSU-single.
* Optional second DPSU policy (``policy="policy"``): the Policy Gaussian of Gopi et al. 2020 — users in
  random order move their kept items towards the cutoff Γ = ρ + α·σ (α = 2, as in the DPSU reference
  code) by an ℓ2 step ≤ 1; same σ and ρ (ℓ2 sensitivity 1), same guarantee; a Python loop over users.
* Release and evaluation are two objects. :func:`dpne` returns a :class:`DpneRelease` that holds the
  released sets as string tuples and the public parameters, nothing else; :func:`dpne_with_evaluation`
  returns it together with a :class:`DpneEvaluation` (the encoder and its private vocabulary, the token
  ids, the diagnostics). Evaluation only (needs the private corpus, never part of a release): which
  released k-grams are spurious (used by no user), histogram support sizes, k-anonymity coverage.

Readings where the paper or its code leave room (SPEC §4 decides where it speaks):

* Δ_1 = … = Δ_T = Δ0 (as in the paper's experiments). A user's k-grams are first pruned to V_k, then
  limited to Δ0 (Algorithm 1 order). "most-frequent" ranks by occurrences in the user's text, ties at
  random.
* "Spurious" in the diagnostics = released but used by no user (the paper's definition). Prop. 2.2
  bounds the zero-*weight* releases, a superset (valid k-grams a user wrote but dropped under the
  contribution limit also have weight 0), so the bound covers our count too.
* Zero-weight k-grams are drawn uniformly from V_k \\ supp(H_k) directly (both sides: a member of V_k
  is a pair of released (k−1)-grams that overlap in k−2 tokens), not from S_{k−1}×S_1 with rejection;
  the distribution is the same, the acceptance rate is higher, and the pruning rule holds by
  construction. Below 2·10⁶ valid k-grams V_k is enumerated and a subset drawn without replacement.
* |V_1| is not defined (the vocabulary is unbounded); no spurious 1-gram can be released. If |V_k| = 0
  the run stops. Users without any token count as users (they hold no k-gram).
* DPSU-even: σ_k = σ√T per length (SPEC §4); each threshold is a (0, δ/(2T)) part, so ρ_k uses δ/T in
  the ρ formula (whose δ/2 then becomes δ/(2T)) and the whole is (ε, δ)-DP. DPSU-all: contribution
  T·Δ0, one threshold with δ. DPSU-single: the whole (ε, δ) per length, each length its own release.
* k-anonymity coverage counts k-grams used by **at least** K users (the reference code: more than K).

Implementation: the corpus is a flat array of token ids (:class:`dpcore.ngrams.TokenCorpus`). A released
k-gram is stored as the pair (index of its prefix in S_{k−1}, index of its suffix in S_{k−1}) — both
sides — or (prefix index, index of its last token in S_1) — single side; so a valid (k+1)-gram is a
pair of released k-grams that overlap, |V_{k+1}| is a sum of products of two bincounts, and a uniform
member of V_{k+1} is drawn in O(1). At level k only positions whose (k−1)-gram was released are visited,
and they are grouped per (user, k-gram) by a lookup table or a sort, never by Python objects.
Users are taken in shards of about 2^23 positions (cut between users) and only the per-k-gram weight
sums are merged, so the working memory stays near 20 bytes a token however large the corpus. Every
draw is keyed (:mod:`dpcore.keyed`; issue 12): an item's noise is a function of (seed, k, the item's
tokens), a user's kept subset of (seed, k, user key, items), the zero-weight draw of (seed, k) over
S_{k−1} sorted by key — so the shards, the visiting order and the engine (:mod:`dpcore.spark_engine`)
do not change the release.
Measured (benchmarks/bench_dpne.py, 2 CPUs shared with other jobs): T = 10 on 10,000 generated users
0.18–0.27 s (encoding + DPNE); on 1,000,000 users (35.5 M tokens) 55 s at moderate load (encoding 11 s +
DPNE 44 s) and up to ~2 min under heavy load; peak RSS 6.3 GB, most of it the corpus as Python lists.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy.special import ndtri

from .gaussian import gaussian_sigma
from .guarantees import Guarantee, approximate_dp
from .keyed import (
    STREAM_NOISE,
    STREAM_ORDER,
    STREAM_SELECT,
    STREAM_ZERO_ORDER,
    STREAM_ZERO_WEIGHT,
    fold_keys,
    keyed_normal,
    keyed_uniform,
    level_generator,
    release_seed,
)
from ._ranking import ranked_drops as _ranked_drops
from .ngrams import (
    MAX_NGRAM_LENGTH,
    NgramIndex,
    TokenCorpus,
    build_ngram_index,
    encode_corpus,
    encode_users,
    group_by_user,
)
from .validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_rng, check_sequence

__all__ = [
    "DPNE_GUARANTEE",
    "EVALUATION_ONLY",
    "KANONYMITY_LABEL",
    "PRUNING_RULES",
    "SELECTION_RULES",
    "DPSU_POLICIES",
    "DEFAULT_K_VALUES",
    "PruningChain",
    "pruning_chain",
    "DpnePlan",
    "prepare_dpne",
    "dpne_noise_scales",
    "dpsu_threshold",
    "dpsu_threshold_for_sigma",
    "spurious_threshold",
    "count_valid_kgrams",
    "DpneLevelDiagnostics",
    "DpneEvaluation",
    "DpneRelease",
    "DpneRun",
    "DpsuBaselineRelease",
    "dpne",
    "dpne_with_evaluation",
    "dpsu_all",
    "dpsu_even",
    "dpsu_single",
    "kanonymity_coverage",
    "KAnonymityCoverage",
    "dpne_guarantee",
    "dpne_release_seed",
    "dpne_level_seed",
    "eta_dependent_level",
]

DPNE_GUARANTEE = "(ε, δ)-DP per user"  # deprecated text label; releases carry a Guarantee (see dpne_guarantee)
DPSU_SINGLE_SCOPE = "for each length separately — not for all lengths together"


def dpne_guarantee(*, epsilon, delta, single_length: bool = False) -> Guarantee:
    """DPNE and the DPSU baselines: (ε, δ)-DP per user (approximate DP; 003 Thm 3.1). DPSU-single spends
    the whole budget on every length, so the promise holds for each length separately only."""
    return approximate_dp(float(epsilon), float(delta), scope=DPSU_SINGLE_SCOPE if single_length else "")


EVALUATION_ONLY = "evaluation only — computed from the private corpus, not part of the DP release"
KANONYMITY_LABEL = "k-anonymity — not DP"
PRUNING_RULES = ("both", "single")
SELECTION_RULES = ("random", "most-frequent")
DPSU_POLICIES = ("weighted", "policy")  # weighted Gaussian (default), Policy Gaussian (Gopi et al. 2020)
DEFAULT_K_VALUES = (10, 20, 50, 100)
_ENUMERATE_LIMIT = 2_000_000  # enumerate V_k explicitly below this size (exact, no rejection loop)
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
        raise ValueError(f"contribution_limit must be at most 1e300 (ρ is computed with it as a float), got "
                         f"contribution_limit=<an integer with {len(str(limit))} digits>")
    return limit


def _check_noise_decay(noise_decay) -> float:
    return check_real("noise_decay", noise_decay, low=0.0)


def dpne_noise_scales(epsilon, delta, *, max_length, noise_decay=1.0) -> tuple[float, np.ndarray]:
    """σ for (ε, δ/2) and its split σ_1..σ_T over lengths (003 Thm 2.1, Prop. 2.3; SPEC §4).

    σ_k = σ_1·c^(k−1) with σ_1 = σ·√(Σ_{k=1..T} c^(−2(k−1))), so Σ_k 1/σ_k² = 1/σ². c = 1 gives
    σ_k = σ√T; c < 1 spends more budget on long n-grams, c > 1 on short ones.

    Returns:
      (σ, array of σ_k for k = 1..T).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    c = _check_noise_decay(noise_decay)
    sigma = gaussian_sigma(epsilon, delta / 2.0, method="analytic")
    powers = np.arange(max_length, dtype=float)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        sigma1 = sigma * math.sqrt(float(np.sum(c ** (-2.0 * powers))))
        sigmas = sigma1 * c ** powers
    if not np.all(np.isfinite(sigmas) & (sigmas > 0)):
        raise ValueError(f"noise_decay={c:g} with max_length={max_length} makes some σ_k = σ_1·c^(k−1) overflow or "
                         "vanish in floating point; use a noise_decay closer to 1 (e.g. 0.5 … 2)")
    return sigma, sigmas


def dpsu_threshold_for_sigma(sigma, delta, contribution_limit) -> float:
    """ρ = max_{1≤t≤Δ} [1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t))] (003 Thm 2.1; Gopi et al. 2020).

    The whole max is computed (the argmax is not always an endpoint). 1 − (1 − δ/2)^(1/t) is formed
    with ``expm1``/``log1p`` so that tiny δ keeps its precision.

    Memory does not grow with Δ: t ≤ 2^16 are evaluated exactly; beyond, (2^16, Δ] is cut into at most
    2^16 geometric pieces [a, b] and each contributes 1/√a + σ·Φ⁻¹((1 − δ/2)^(1/b)) — an upper bound on
    the bracket over the piece (the first term falls in t, the second rises), so ρ is never below the
    exact max (a larger ρ keeps the guarantee) and exceeds it by < 1e-4·σ + 1e-6 (tested).
    """
    sigma = check_real("sigma", sigma, low=0.0)
    delta = check_delta(delta)
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


def dpsu_threshold(epsilon, delta, contribution_limit) -> tuple[float, float]:
    """(σ, ρ) of one DPSU release with the weighted Gaussian policy (T = 1 in 003 Thm 2.1).

    σ from (ε, δ/2) by the analytic Gaussian at ℓ2 sensitivity 1, ρ by
    :func:`dpsu_threshold_for_sigma`. SPEC §4 **check**: (3, e⁻¹⁰, 10) → (1.3328, 6.4353);
    (1, 1e-5, 10) → (3.8841, 19.316).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    limit = check_contribution_limit(contribution_limit)
    sigma = gaussian_sigma(epsilon, delta / 2.0, method="analytic")
    return sigma, dpsu_threshold_for_sigma(sigma, delta, limit)


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


# --------------------------------------------------------------------------------------------------
# Weighted Gaussian DPSU step (shared by DPNE levels and the baselines)
# --------------------------------------------------------------------------------------------------

def _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority=None):
    """Keep at most ``limit`` items per user: returns (users, items, kept items of that user) per kept pair.

    Random selection (default) draws a uniform subset of size Δ per user; "most-frequent" keeps the
    user's Δ most frequent items, ties broken at random. Only users above the limit are sorted.
    ``priority`` (optional): a function of the pair indices → uniforms in (0, 1) replacing ``rng``
    (keyed draws, :mod:`dpcore.keyed`: the kept subset is then a function of (seed, user, item)).
    """
    if pair_user.size == 0:
        return pair_user, pair_item, np.zeros(0, dtype=np.int64)
    limit = min(int(limit), int(pair_user.size))  # no user holds more items than there are pairs: exact
    sizes = np.bincount(pair_user)
    size_of_pair = sizes[pair_user]
    over = size_of_pair > limit
    if not over.any():
        return pair_user, pair_item, size_of_pair
    idx = np.flatnonzero(over)
    r = rng.random(idx.size) if priority is None else priority(idx)
    keep = np.ones(pair_user.size, dtype=bool)
    keep[idx[_ranked_drops(pair_user[idx], r, None if selection == "random" else pair_count[idx], limit)]] = False
    return pair_user[keep], pair_item[keep], np.minimum(size_of_pair[keep], limit)


def _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng, priority=None):
    """Weighted Gaussian policy: the kept items of a user each get 1/√(number kept) (ℓ2 norm 1).

    Returns (kept items, their weights).
    """
    _, items, kept_size = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority)
    return items, 1.0 / np.sqrt(kept_size)


def _policy_gaussian_histogram(users, items, n_items, gamma, rng, *, priority=None) -> np.ndarray:
    """Policy Gaussian (Gopi et al. 2020, §4): users in a uniformly random order; each moves its kept
    items that are still below the cutoff Γ towards Γ along the gap vector g = Γ − H, by an ℓ2 step of
    min(1, ‖g‖₂). Each user's contribution has ℓ2 norm ≤ 1 and the map is ℓ2-contractive, so the same σ
    and ρ as the weighted Gaussian policy apply. Sequential by nature: a Python loop over users.
    ``priority`` (one float per user id, lower goes first) fixes the order; by default it is drawn
    from ``rng``, independently of the data.
    """
    hist = np.zeros(n_items)
    if users.size == 0:
        return hist
    order = np.argsort(users, kind="stable")
    su, si = users[order], items[order]
    starts = np.flatnonzero(np.r_[True, su[1:] != su[:-1]])
    ends = np.r_[starts[1:], su.size]
    if priority is None:
        priority = rng.random(int(su[-1]) + 1)
    for g in np.argsort(np.asarray(priority)[su[starts]], kind="stable"):
        its = si[starts[g]:ends[g]]
        gap = gamma - hist[its]
        below = gap > 0
        if not below.any():
            continue
        its, gap = its[below], gap[below]
        norm = math.sqrt(float(gap @ gap))
        hist[its] += gap * (min(1.0, norm) / norm)
    return hist


def _dpsu_select(pair_user, pair_item, pair_count, n_items, *, limit, sigma, threshold, selection, rng,
                 policy="weighted", cutoff_alpha=2.0, keyed=None):
    """One DPSU pass (weighted or policy Gaussian). Returns (released mask, support mask) over items.

    ``keyed`` (optional) = (seed, k, item keys, user keys): every draw is then read off the keyed
    generator of :mod:`dpcore.keyed` — the selection priority of a pair at (user key, item key), the
    noise of an item at its item key, the Policy Gaussian's user order at the user key — instead of
    ``rng``, so the result does not depend on the order in which items or users are visited.
    """
    priority = order = noise = None
    if keyed is not None:
        seed, k, item_keys, user_keys = keyed
        priority = lambda idx: keyed_uniform(seed, user_keys[pair_user[idx]], item_keys[pair_item[idx]],  # noqa: E731
                                             stream=STREAM_SELECT, k=k)
        noise = lambda idx: keyed_normal(seed, item_keys[idx], stream=STREAM_NOISE, k=k)  # noqa: E731
        if policy != "weighted":
            order = keyed_uniform(seed, user_keys, stream=STREAM_ORDER, k=k)
    if policy == "weighted":
        items, weights = _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng, priority)
        hist = np.bincount(items, weights=weights, minlength=n_items)
    else:
        users, items, _ = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority)
        hist = _policy_gaussian_histogram(users, items, n_items, threshold + cutoff_alpha * sigma, rng,
                                          priority=order)
    return _noisy_release(hist, sigma, threshold, rng, noise)


def _noisy_release(hist, sigma, threshold, rng, noise=None):
    """The items whose weight plus N(0, σ²) noise exceeds ρ (one draw per item of the support, in item
    order). Returns (released mask, support mask).

    Runs over blocks of :data:`_NOISE_BLOCK` items so that no support-sized temporaries are built; the
    normals are drawn block after block in item order, which is the same stream as one draw for the
    whole support (numpy's Generator draws each normal from fresh bits; ``noise`` is a function of the
    item) — tested in tests/test_dpne_memory.py.
    """
    support = hist > 0
    released = np.zeros(hist.size, dtype=bool)
    for a in range(0, hist.size, _NOISE_BLOCK):
        supp_idx = np.flatnonzero(support[a:a + _NOISE_BLOCK]) + a
        z = rng.standard_normal(supp_idx.size) if noise is None else noise(supp_idx)
        noisy = hist[supp_idx] + sigma * z  # one draw per item, once
        released[supp_idx[noisy > threshold]] = True
    return released, support


_NOISE_BLOCK = 1 << 22
"""Items per block of :func:`_noisy_release`."""

_BLOCK_USERS = 1024
"""Users over the limit handled per block by :func:`_dpsu_weighted_levels` (bounds its working memory)."""


def _dpsu_weighted_levels(levels, n_users, *, limit, sigma, threshold, selection, rng):
    """Weighted-Gaussian DPSU over the union of several levels' k-grams (DPSU-all), level by level.

    Same draws, same result as :func:`_dpsu_select` on the levels' pairs concatenated (level 1 first,
    item ids offset level by level): one uniform per pair of a user over the limit, in that
    concatenated order, the same exact per-user order (a stable lexsort on user, then r — or count,
    then r), the same weights 1/√min(|items of the user|, limit) summed per item in the same order,
    one normal per supported item. It never builds the concatenation: the uniforms (8 bytes per pair
    of a user over the limit) and one keep flag per pair are the only corpus-sized arrays; the
    per-user ranking runs over blocks of :data:`_BLOCK_USERS` users (a user's rank depends on that
    user's pairs only, and the lexsort is stable, so a block sees its users' pairs in the same
    relative order as the whole). Tested against the concatenated path (tests/test_dpne_memory.py).

    Returns the released mask of each level.
    """
    n_pairs = [int(lev.pair_user.size) for lev in levels]
    total = sum(n_pairs)
    counts = [np.bincount(lev.pair_user, minlength=n_users).astype(np.int64) for lev in levels]
    sizes = np.sum(counts, axis=0) if counts else np.zeros(n_users, dtype=np.int64)
    limit = min(int(limit), total) if total else int(limit)
    over_user = sizes > limit
    keeps = [None] * len(levels)
    over_counts = [np.where(over_user, c, 0) for c in counts]
    n_over = [int(c.sum()) for c in over_counts]
    if total and sum(n_over):
        r_all = rng.random(sum(n_over))  # the concatenated path's single draw, in the same order
        r_off = np.concatenate([[0], np.cumsum(n_over)])
        pair_start = [np.concatenate([[0], np.cumsum(c)]) for c in counts]  # pairs are grouped by user
        over_start = [np.concatenate([[0], np.cumsum(c)]) for c in over_counts]
        keeps = [np.ones(n, dtype=bool) for n in n_pairs]
        over_users = np.flatnonzero(over_user)
        for b in range(0, over_users.size, _BLOCK_USERS):
            first, last = int(over_users[b]), int(over_users[min(b + _BLOCK_USERS, over_users.size) - 1])
            idx_parts, r_parts, u_parts, c_parts, lev_parts = [], [], [], [], []
            for j, lev in enumerate(levels):
                lo, hi = int(pair_start[j][first]), int(pair_start[j][last + 1])
                idx = np.flatnonzero(over_user[lev.pair_user[lo:hi]]) + lo
                o_lo = int(r_off[j] + over_start[j][first])
                idx_parts.append(idx)
                r_parts.append(r_all[o_lo:o_lo + idx.size])
                u_parts.append(lev.pair_user[idx])
                if selection != "random":
                    c_parts.append(lev.pair_count[idx])
                lev_parts.append(np.full(idx.size, j, dtype=np.int16))
            r = np.concatenate(r_parts)
            u = np.concatenate(u_parts)
            drop = _ranked_drops(u, r, None if selection == "random" else np.concatenate(c_parts), limit)
            idx_all, lev_all = np.concatenate(idx_parts), np.concatenate(lev_parts)
            for j in range(len(levels)):
                keeps[j][idx_all[drop[lev_all[drop] == j]]] = False
        del r_all
    offsets = np.cumsum([0] + [lev.n_grams for lev in levels])
    hist = np.empty(int(offsets[-1]))
    for j, lev in enumerate(levels):
        pu, pi = (lev.pair_user, lev.pair_gram) if keeps[j] is None else (lev.pair_user[keeps[j]], lev.pair_gram[keeps[j]])
        weights = 1.0 / np.sqrt(np.minimum(sizes[pu], limit))
        hist[offsets[j]:offsets[j + 1]] = np.bincount(pi, weights=weights, minlength=lev.n_grams)
        keeps[j] = None
        del pu, pi, weights
    mask, _ = _noisy_release(hist, sigma, threshold, rng)
    del hist
    return [mask[offsets[j]:offsets[j + 1]] for j in range(len(levels))]


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DpneLevelDiagnostics:
    """One length of a DPNE run. The fields marked (E) are evaluation only: they use the private corpus.

    k, previous_size |S_{k−1}|, valid_count |V_k|, sigma σ_k, threshold ρ_k, released |S_k| and
    spurious_bound η·min(|S_{k−1}|, |V_k|) are functions of the release and may be shown freely.
    """

    k: int
    previous_size: int | None
    valid_count: int | None
    sigma: float
    threshold: float
    released: int
    spurious_bound: float | None
    supported: int  # (E) |supp H_k|: valid k-grams with positive weight after the contribution limit
    used_valid: int  # (E) valid k-grams used by at least one user
    kept_from_histogram: int  # (E) released k-grams with positive weight
    sampled_zero_weight: int  # (E) B_k: released k-grams drawn among zero-weight valid k-grams
    spurious: int  # (E) released k-grams used by no user

    @property
    def spurious_share(self) -> float:
        return self.spurious / self.released if self.released else 0.0


@dataclass(frozen=True, eq=False)
class DpneEvaluation:
    """Evaluation-only companion of a :class:`DpneRelease` (it reads the private corpus; never publish it).

    Holds everything a run knows that is not the release: the encoder (``corpus``, whose
    ``vocabulary`` lists *every* private token, released or not), the released sets as token-id rows
    over that vocabulary (``ids``, for :func:`kanonymity_coverage` and fast set tests), the released
    k-grams no user wrote (``spurious_ids``) and the per-length diagnostics (``levels``).
    """

    levels: tuple[DpneLevelDiagnostics, ...]
    spurious_ids: dict = field(repr=False)  # k -> (n, k) token ids of released k-grams used by nobody
    ids: dict = field(repr=False, default_factory=dict)  # k -> (n, k) token ids of the released k-grams
    corpus: TokenCorpus | None = field(repr=False, default=None)  # the encoder (private vocabulary)
    label: str = EVALUATION_ONLY

    @property
    def vocabulary(self) -> np.ndarray:
        """Token id → string for every token of the private corpus (evaluation only)."""
        return self.corpus.vocabulary if self.corpus is not None else np.zeros(0, dtype=object)

    def spurious_ngrams(self) -> dict[int, set[tuple[str, ...]]]:
        """k → the released k-grams that no user wrote, as string tuples."""
        return {k: _decode_rows(self.vocabulary, rows) for k, rows in self.spurious_ids.items()}

    def spurious_by_length(self) -> dict[int, int]:
        return {d.k: d.spurious for d in self.levels}

    def spurious_share_by_length(self) -> dict[int, float]:
        return {d.k: d.spurious_share for d in self.levels}

    @property
    def total_spurious(self) -> int:
        return sum(d.spurious for d in self.levels)


def _decode_rows(vocabulary: np.ndarray, rows: np.ndarray) -> set[tuple[str, ...]]:
    rows = np.asarray(rows)
    return {tuple(r) for r in vocabulary[rows].tolist()} if rows.size else set()


def _released_sets(vocabulary: np.ndarray, ids: dict) -> dict[int, frozenset]:
    """k → frozenset of the released k-grams as k-tuples of strings.

    Only the released rows are decoded, so nothing of the vocabulary beyond the released tokens is kept.
    Built in sorted order: the token ids follow the private corpus' first-seen order, which the
    release must not carry either.
    """
    out = {}
    for k, rows in ids.items():
        grams = sorted(_decode_rows(vocabulary, rows))
        out[k] = frozenset(grams)
    return out


class _ReleasedSets:
    """Accessors shared by every set release: ``ngrams`` maps k → frozenset of k-tuples of strings."""

    @property
    def sizes(self) -> dict[int, int]:
        return {k: len(grams) for k, grams in self.ngrams.items()}

    @property
    def total(self) -> int:
        return sum(self.sizes.values())

    def sorted_ngrams(self, k: int) -> list[tuple[str, ...]]:
        """The released k-grams in lexicographic order (for display)."""
        return sorted(self.ngrams.get(k, ()))


@dataclass(frozen=True, eq=False)
class DpneRelease(_ReleasedSets):
    """The output of :func:`dpne`: the sets S_1..S_T (never counts) and the public parameters — nothing else.

    ``ngrams`` maps k → frozenset of the released k-grams as k-tuples of strings. ``sigmas``/
    ``thresholds``/``valid_counts`` map k → σ_k, ρ_k, |V_k| (thresholds and |V_k| only for the lengths
    reached before the early stop; |V_1| is not defined); they are functions of (ε, δ, T, Δ0, η, c) and
    of the released sets, so they may be published with them. The release holds no encoder, no
    vocabulary, no token ids, no weights or counts and no diagnostics: those are in the
    :class:`DpneEvaluation` that :func:`dpne_with_evaluation` returns beside it.
    """

    ngrams: dict = field(repr=False)
    sigma: float
    sigmas: dict
    thresholds: dict
    valid_counts: dict
    epsilon: float
    delta: float
    max_length: int
    contribution_limit: int
    eta: float
    noise_decay: float
    pruning: str
    selection: str
    policy: str
    policy_cutoff: float
    guarantee: Guarantee | None = None

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", dpne_guarantee(epsilon=self.epsilon, delta=self.delta))


class DpneRun(NamedTuple):
    """What :func:`dpne_with_evaluation` returns: the publishable ``release`` and its ``evaluation``
    (private: encoder, token ids, diagnostics). Unpacks as ``release, evaluation = …``."""

    release: DpneRelease
    evaluation: DpneEvaluation


@dataclass(frozen=True, eq=False)
class DpsuBaselineRelease(_ReleasedSets):
    """A DPSU baseline (003 §3.1.2): sets per length, never counts, and nothing else of the corpus.

    ``ngrams`` maps k → frozenset of k-tuples of strings; ``sigmas``/``thresholds`` map k → the σ and ρ
    used for that length. For "DPSU-single" each length is a *separate* release spending the whole
    budget (so the lengths together are not one (ε, δ) release).
    """

    name: str
    ngrams: dict = field(repr=False)
    sigmas: dict
    thresholds: dict
    contribution_limit: int
    guarantee: Guarantee


# --------------------------------------------------------------------------------------------------
# DPNE
# --------------------------------------------------------------------------------------------------

def _as_token_corpus(users) -> TokenCorpus:
    if isinstance(users, TokenCorpus):
        return users
    if isinstance(users, NgramIndex):
        return users.corpus
    if hasattr(users, "user_sentences") and callable(users.user_sentences):
        return encode_corpus(users)
    return encode_users(users)


class _ValidSpace:
    """V_k for k ≥ 2 as pairs (a, b) of indices: a = prefix in S_{k−1}; b = suffix in S_{k−1} (both
    sides) or last token in S_1 (single side). Key = a·width + b. Exact size, uniform sampling,
    enumeration."""

    def __init__(self, pruning, prev_size, s1_size, prev_a=None, prev_b=None, prev_prev_size=0):
        self.pruning = pruning
        self.m = int(prev_size)
        if pruning == "single":
            self.width = int(s1_size)
            self.size = self.m * self.width
            self.groups = None
            return
        self.width = self.m
        if prev_a is None:  # k = 2: V_2 = S_1 × S_1
            self.groups = None
            self.size = self.m * self.m
            return
        # a's suffix (index in S_{k−2}) must equal b's prefix.
        cnt_a = np.bincount(prev_a, minlength=prev_prev_size)  # how many b start with g
        self.prev_b = prev_b
        self.weight = cnt_a[prev_b].astype(np.float64)  # number of valid b for each a
        self.size = int(self.weight.sum())
        self.order = np.argsort(prev_a, kind="stable")
        starts = np.zeros(prev_prev_size + 1, dtype=np.int64)
        np.cumsum(cnt_a, out=starts[1:])
        self.starts = starts
        self.cnt_a = cnt_a
        self.groups = True
        if self.size:
            self.cum = np.cumsum(self.weight)

    def sample(self, n: int, rng) -> np.ndarray:
        if self.groups is None:
            a = rng.integers(0, self.m, size=n)
            b = rng.integers(0, self.width, size=n)
        else:
            a = np.searchsorted(self.cum, rng.random(n) * self.cum[-1], side="right")
            a = np.minimum(a, self.m - 1)
            g = self.prev_b[a]
            off = np.minimum((rng.random(n) * self.cnt_a[g]).astype(np.int64), self.cnt_a[g] - 1)
            b = self.order[self.starts[g] + off]
        return a.astype(np.int64) * self.width + b

    def enumerate(self) -> np.ndarray:
        if self.groups is None:
            return np.arange(self.size, dtype=np.int64)
        reps = self.weight.astype(np.int64)
        a = np.repeat(np.arange(self.m, dtype=np.int64), reps)
        g = self.prev_b[a]
        # offset of each entry inside its a-block
        block_start = np.repeat(np.cumsum(reps) - reps, reps)
        off = np.arange(a.size) - block_start
        b = self.order[self.starts[g] + off]
        return a * self.width + b


def _first_distinct(draw_chunk, count: int) -> np.ndarray:
    """The first ``count`` distinct values of the stream ``draw_chunk()``, ``draw_chunk()``, … in stream order.
    The chunks do not depend on ``count``, so a smaller count gives a prefix of a larger one's result."""
    chosen = np.zeros(0, dtype=np.int64)
    while chosen.size < count:
        both = np.concatenate([chosen, draw_chunk()])
        _, first = np.unique(both, return_index=True)
        chosen = both[np.sort(first)]  # first occurrences, draw order kept
    return np.asarray(chosen[:count], dtype=np.int64)


def _sample_zero_weight(space: _ValidSpace, n_zero: int, count: int, support_keys: np.ndarray, rng) -> np.ndarray:
    """The first ``count`` members of one uniformly random order of V_k \\ supp(H_k) (``support_keys`` sorted):
    uniform distinct members, and for one ``rng`` state a smaller count is a prefix of a larger one."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    if space.size <= _ENUMERATE_LIMIT or (n_zero < space.size // 2 and space.size <= 10 * _ENUMERATE_LIMIT):
        allk = space.enumerate()
        if support_keys.size:
            allk = allk[~_sorted_contains(support_keys, allk)]
        count = min(count, allk.size)
        return allk[_first_distinct(lambda: rng.integers(0, allk.size, size=_ZERO_CHUNK), count)]

    # Rejection: acceptance ≥ 1/2 here (n_zero ≥ |V_k|/2) and count ≪ n_zero in practice.
    def chunk():
        draw = space.sample(_ZERO_CHUNK, rng)
        return draw[~_sorted_contains(support_keys, draw)] if support_keys.size else draw

    return _first_distinct(chunk, count)


_SHARD_POSITIONS = 1 << 23  # positions per shard of users (bounded working memory); tests set it small
_KEEP_POSITIONS = 1 << 26  # up to this many alive positions, a level keeps its candidate positions for its
# second pass (one more array of at most that size) instead of finding them again


def _concat(parts, dtype) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _shard_bounds(pos, tc: TokenCorpus, user_start: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Cut the sorted positions ``pos`` (None: every position) into runs of about ``size`` that never
    split a user (a user's (user, item) pairs and contribution limit stay in one shard)."""
    n = tc.n_tokens if pos is None else pos.size
    cuts = [0]
    while n - cuts[-1] > size:
        c = cuts[-1] + size
        u = int(tc.user_of[c if pos is None else pos[c]])
        for start in (user_start[u], user_start[u + 1]):  # cut before user u, or after it if u fills the shard
            c2 = int(start) if pos is None else int(np.searchsorted(pos, start))
            if c2 > cuts[-1]:
                break
        cuts.append(c2)
    cuts.append(n)
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


def _level_candidates(tc, pos, rel, k, pruning, token_rel, s1_size):
    """Valid k-grams starting at the alive positions ``pos`` (their (k−1)-gram is in S_{k−1}, index ``rel``).

    Returns (positions, key a·|S_1| + t, index in S_{k−1} of the suffix (both sides) or None).
    """
    cand = tc.run_left[pos] >= k
    if pruning == "both":
        nxt = np.zeros(pos.size, dtype=bool)
        nxt[:-1] = pos[1:] == pos[:-1] + 1  # the next position is alive too: the suffix is released
        cand &= nxt
        ci = np.flatnonzero(cand)
        p = pos[ci]
        t_idx = token_rel[tc.tokens[p + k - 1]]  # ≥ 0: the suffix is released, so are its tokens
        b_at = rel[ci + 1].astype(np.int64)
    else:
        ci = np.flatnonzero(cand)
        p = pos[ci]
        t_idx = token_rel[tc.tokens[p + k - 1]]
        ok = t_idx >= 0
        p, ci, t_idx = p[ok], ci[ok], t_idx[ok]
        b_at = None
    key = rel[ci].astype(np.int64) * s1_size + t_idx
    return p, key, b_at


def _keyed_priority(seed, k, pair_user, pair_item, item_keys, user_keys):
    return lambda idx: keyed_uniform(seed, user_keys[pair_user[idx]], item_keys[pair_item[idx]],
                                     stream=STREAM_SELECT, k=k)


def _shard_histogram(pair_user, pair_item, pair_count, n_items, *, limit, selection, seed, k, item_keys, user_keys):
    """Weighted Gaussian policy on one shard of users: the kept items' 1/√(kept) summed per item."""
    items, weights = _limit_contributions(pair_user, pair_item, pair_count, limit, selection, None,
                                          _keyed_priority(seed, k, pair_user, pair_item, item_keys, user_keys))
    return np.bincount(items, weights=weights, minlength=n_items)


def _merge_items(parts):
    """[(sorted item keys, b, histogram)] of the shards → the same over all shards (keys sorted, unique)."""
    if len(parts) == 1:
        return parts[0]
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, np.zeros(0)
    keys = np.concatenate([p[0] for p in parts])
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    new = np.empty(keys.size, dtype=bool)
    new[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    b = np.concatenate([p[1] for p in parts])[order][starts]
    hist = np.add.reduceat(np.concatenate([p[2] for p in parts])[order], starts) if keys.size else np.zeros(0)
    return keys[starts], b, hist


def _noisy_values(hist, sigma, seed, k, item_keys):
    """(support indices, H[u] + σ·Z_u over the support H > 0), Z_u keyed by (seed, k, item key)."""
    supp_idx = np.flatnonzero(hist > 0)
    return supp_idx, hist[supp_idx] + sigma * keyed_normal(seed, item_keys[supp_idx], stream=STREAM_NOISE, k=k)


def _noisy_threshold(hist, sigma, threshold, seed, k, item_keys):
    """Release item u iff H[u] + σ·Z_u > ρ over the support (H > 0), Z_u keyed by (seed, k, item key)."""
    supp_idx, noisy = _noisy_values(hist, sigma, seed, k, item_keys)
    released = np.zeros(hist.size, dtype=bool)
    released[supp_idx[noisy > threshold]] = True
    support = np.zeros(hist.size, dtype=bool)
    support[supp_idx] = True
    return released, support


def _keyed_seed(rng) -> int:
    """The integer seed of the keyed draws: ``rng`` itself when an int (so ``--seed S`` on the command
    line, the Spark engine and ``dpne(..., rng=S)`` agree), else 63 bits drawn from the Generator."""
    rng_checked = check_rng(rng)
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return int(rng)
    return int(rng_checked.integers(0, 2**63))


def dpne_release_seed(seed, *, epsilon, delta, max_length, contribution_limit, noise_decay=1.0, pruning="both",
                      selection="random", policy="weighted", policy_cutoff=2.0) -> int:
    """The key of a DPNE release's η-independent draws: :func:`dpcore.keyed.release_seed` of the seed and every
    parameter except η (issue 21 item 5). Lengths 1 and 2 (weighted Gaussian) draw from it; see
    :func:`dpne_level_seed` for the others. Both engines derive it alike, so they still agree for one seed."""
    return release_seed(seed, mechanism="dpne", epsilon=float(epsilon), delta=float(delta), max_length=int(max_length),
                        contribution_limit=int(contribution_limit), noise_decay=float(noise_decay), pruning=pruning,
                        selection=selection, policy=policy, policy_cutoff=float(policy_cutoff))


def eta_dependent_level(k: int, policy: str) -> bool:
    """Whether length k's histogram depends on η: from k = 3 on always (ρ_{k−1}(η) decided S_{k−1}, hence the
    valid k-grams and every user's pruned selection); at k = 2 with the Policy Gaussian only (its cutoff
    Γ_2 = ρ_2 + α·σ_2 moves with η). Length 1 and the weighted length-2 histogram do not: thresholding that
    one noisy histogram at several ρ_2(η) is post-processing of one Gaussian release."""
    return k >= 3 or (k == 2 and policy != "weighted")


def dpne_level_seed(base: int, k: int, eta, policy: str) -> int:
    """The key of length k's draws: ``base`` (:func:`dpne_release_seed`) where the length does not depend on
    η, else a key derived from ``base`` and η — so a run at another η draws fresh noise there (reusing it
    would not be post-processing: the histograms themselves differ)."""
    if not eta_dependent_level(k, policy):
        return int(base)
    return release_seed(base, eta=float(eta))


_ZERO_CHUNK = 8192  # draws per step of the zero-weight count and order: fixed, so every prefix is the same


def _uniform_count_below(n: int, p: float, gen: np.random.Generator) -> int:
    """N(p) = #{i ≤ n : U_(i) < p} for n i.i.d. uniforms, from the Rényi representation of their order
    statistics, U_(i) = 1 − exp(−Σ_{j≤i} E_j/(n − j + 1)) with E_j i.i.d. exponential: Binomial(n, p) for each
    p, and for several p (one generator) exactly the joint law of thresholding the same n uniforms."""
    t = -math.log1p(-p)  # U < p ⇔ −log(1 − U) < t
    count, total = 0, 0.0
    while count < n:
        m = min(_ZERO_CHUNK, n - count)
        x = total + np.cumsum(gen.standard_exponential(m) / (n - count - np.arange(m, dtype=np.float64)))
        below = int(np.searchsorted(x, t, side="left"))
        count += below
        if below < m:
            break
        total = float(x[-1])
    return count


def zero_weight_draw(space: "_ValidSpace", seed: int, k: int, n_zero: int, p_zero: float,
                     support_keys: np.ndarray) -> np.ndarray:
    """The zero-weight k-grams released at level k, as keys a·width + b of ``space`` (SPEC §4).

    B_k ~ Binomial(|V_k| − |supp H_k|, p_zero) members of V_k \\ supp(H_k), uniformly: the first B_k of one
    uniformly random order of them. B_k comes from the order statistics of n_zero uniforms
    (:func:`dpcore.keyed.level_generator` (seed, k)) and the order from a second keyed generator, so for
    one seed and several p_zero (several η at length 2, whose noise is kept across η) the released sets are
    exactly those of thresholding the same implicit noise N(0, σ_k²) of every zero-weight k-gram at each
    ρ_k(η) — nested, post-processing of one Gaussian release (issue 21 item 5; a Binomial drawn per p from
    one generator coupled the η's arbitrarily). Indices follow the canonical (key-sorted) order of S_{k−1}
    and S_1; shared by the local and the Spark engines, so for a given seed both draw the same k-grams.
    ``support_keys``: the supported valid k-grams' space keys, sorted.
    """
    if n_zero <= 0:
        return np.zeros(0, dtype=np.int64)
    count = _uniform_count_below(int(n_zero), float(p_zero), level_generator(seed, k, STREAM_ZERO_WEIGHT))
    return _sample_zero_weight(space, n_zero, count, support_keys, level_generator(seed, k, STREAM_ZERO_ORDER))


def _sorted_contains(sorted_keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(sorted_keys, values)
    pos = np.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == values


def dpne(users, *, epsilon, delta, max_length, contribution_limit, eta, noise_decay=1.0, pruning="both",
         rng, selection="random", policy="weighted", policy_cutoff=2.0) -> DpneRelease:
    """Differentially private n-gram extraction: the release only (see :func:`dpne_with_evaluation`).

    Same arguments and the same draw as :func:`dpne_with_evaluation`; returns its ``release``, which
    holds the released sets and the public parameters and nothing else of the corpus.
    """
    return dpne_with_evaluation(
        users, epsilon=epsilon, delta=delta, max_length=max_length, contribution_limit=contribution_limit,
        eta=eta, noise_decay=noise_decay, pruning=pruning, rng=rng, selection=selection, policy=policy,
        policy_cutoff=policy_cutoff).release


def dpne_with_evaluation(users, *, epsilon, delta, max_length, contribution_limit, eta, noise_decay=1.0,
                         pruning="both", rng, selection="random", policy="weighted",
                         policy_cutoff=2.0) -> DpneRun:
    """Differentially private n-gram extraction (003 Algorithm 1, scalable version of §2).

    Args:
      users: one item per user, each a sequence of sentences, each a list of string tokens (e.g.
        ``Corpus.user_sentences()``); a :class:`dpcore.Corpus`, a :class:`TokenCorpus` or an
        :class:`NgramIndex` are accepted too (so a page can cache the encoding).
      epsilon, delta: the total budget; the release is (ε, δ)-DP per user (003 Thm 2.1).
      max_length: T, the longest n-gram length.
      contribution_limit: Δ0 = Δ_1 = … = Δ_T, the most items a user contributes per length.
      eta: η ∈ (0, 1), the tolerated fraction of spurious k-grams (sets ρ_k; does not affect privacy).
      noise_decay: c > 0, σ_k = σ_1·c^(k−1).
      pruning: "both" (default, (S_{k−1}×S_1) ∩ (S_1×S_{k−1})) or "single" (S_{k−1}×S_1).
      rng: an int seed or a ``numpy.random.Generator`` (which then gives a 63-bit seed). Every draw is
        keyed (:mod:`dpcore.keyed`): an item's noise is a function of (key, k, the item's tokens), a
        user's kept subset of (key, k, user id, items), the zero-weight k-grams of (key, k) over
        the key-sorted S_{k−1} — so the Spark engine releases the same sets for the same int seed. The
        key is derived from the seed *and every parameter that changes the release*
        (:func:`dpne_release_seed`; η too from the length where the histograms depend on it,
        :func:`dpne_level_seed`), so two releases with other parameters draw independent noise (with
        the bare seed, S₁(ε = 1) ⊆ S₁(ε = 2) held in every run). **A seed must not be reused for
        another release** of the same data in any other way; as with any seeded generator, the
        guarantee assumes the seed is secret.
      selection: "random" (default: a uniform subset of Δ0 valid k-grams per user) or "most-frequent".
      policy: the DPSU update policy at every length: "weighted" (weighted Gaussian, 1/√|U_i| per item,
        as in the paper) or "policy" (Policy Gaussian, Gopi et al. 2020: users in random order push
        their items towards the cutoff Γ_k = ρ_k + policy_cutoff·σ_k). Both have ℓ2 sensitivity 1, so
        σ_k and ρ_k are the same.
      policy_cutoff: α ≥ 0 in Γ = ρ + α·σ (Policy Gaussian only; the DPSU reference code uses 2 by default).

    Returns:
      :class:`DpneRun` ``(release, evaluation)``: the :class:`DpneRelease` (the sets S_1..S_T as string
      tuples and the public parameters — the only part that may be published) and the
      :class:`DpneEvaluation` (encoder, token ids, diagnostics: evaluation only).

    Raises:
      TypeError / ValueError: a parameter of the wrong kind or out of range.
    """
    checked = _check_dpne(epsilon, delta, max_length, contribution_limit, noise_decay, pruning, selection, policy,
                          policy_cutoff, eta=eta)
    return _prepare_dpne(users, rng, *checked[:-1]).run(checked[-1])


def prepare_dpne(users, *, epsilon, delta, max_length, contribution_limit, noise_decay=1.0, pruning="both", rng,
                 selection="random", policy="weighted", policy_cutoff=2.0) -> "DpnePlan":
    """Everything of a DPNE run that does not depend on η, computed once: ``plan.run(eta)`` then equals
    ``dpne_with_evaluation(users, eta=eta, …)`` with the same arguments, bit for bit, for any η.

    η only sets the thresholds ρ_k of the lengths k ≥ 2 (SPEC §4). What comes before the first of them does
    not depend on it: the 1-gram release S_1 and, with the weighted Gaussian policy, the whole length-2
    histogram and its keyed noise (its candidates S_1 × S_1 depend on S_1 alone). On the 100,000-user sample
    these are ~90 % of a run's time, so a page that moves η reruns only the rest. (With the Policy Gaussian
    the length-2 histogram depends on ρ_2 through its cutoff, so only S_1 is kept.)

    Same arguments as :func:`dpne_with_evaluation` except ``eta``. The plan holds the encoded corpus and
    private intermediate counts: evaluation only, never publish it.
    """
    return _prepare_dpne(users, rng, *_check_dpne(epsilon, delta, max_length, contribution_limit, noise_decay, pruning,
                                                   selection, policy, policy_cutoff))


_NO_ETA = object()  # prepare_dpne has no η; dpne(eta=None) must still be refused by name (issue 21 item 8)


def _check_dpne(epsilon, delta, max_length, contribution_limit, noise_decay, pruning, selection, policy,
                policy_cutoff, *, eta=_NO_ETA) -> tuple:
    """The validated arguments, checked in the order of the signature (η last in the tuple when given)."""
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    limit = check_contribution_limit(contribution_limit)
    with_eta = eta is not _NO_ETA
    if with_eta:
        eta = _check_eta(eta)
    noise_decay = _check_noise_decay(noise_decay)
    check_choice("pruning", pruning, PRUNING_RULES)
    check_choice("selection", selection, SELECTION_RULES)
    check_choice("policy", policy, DPSU_POLICIES)
    policy_cutoff = _check_policy_cutoff(policy_cutoff)
    out = (epsilon, delta, max_length, limit, noise_decay, pruning, selection, policy, policy_cutoff)
    return out + (eta,) if with_eta else out


def _check_eta(eta) -> float:
    return check_real("eta", eta, low=0.0, high=1.0, high_inclusive=False)


@dataclass(frozen=True, eq=False)
class _LevelHistogram:
    """One length's weighted histogram over the valid k-grams users wrote, and its noisy values.

    Per shard of users: bounds into the alive positions, the shard's item keys, the item of each candidate
    position and (when kept) the candidate positions; merged over shards: item keys a·|S_1| + t, suffix index
    b, H, the items' stable keys; the support (H > 0) with its noisy values H + σ_k·Z (Z keyed by the item) and
    its sorted valid-space keys a·width + b (for the zero-weight draw)."""

    bounds: list
    shard_items: list
    shard_codes: list
    shard_positions: list | None
    item_keys: np.ndarray
    item_b: np.ndarray
    item_key: np.ndarray
    supp_idx: np.ndarray
    noisy: np.ndarray
    support_keys: np.ndarray


def _level_histogram(tc, pos, rel, k, *, st, m, space, sigma_k, policy_gamma, keep_positions) -> _LevelHistogram:
    """Valid k-grams at the visited positions, keyed by (prefix index a, index t of the last token in S_1):
    a·|S_1| + t identifies a k-gram whatever the rule and keeps the key space small. Users are taken shard by
    shard (positions cut at user boundaries); the keyed draws make the result independent of the cut."""
    s1_size, seed = st["s1_size"], st["seed"]
    bounds = _shard_bounds(pos, tc, st["user_start"], st["shard"]) if st["shard"] else [(0, pos.size)]
    parts, shard_codes, shard_positions = [], [], []  # per shard: (items, b, histogram); item of each position
    for s0, s1 in bounds:
        p, key, b_at = _level_candidates(tc, pos[s0:s1], rel[s0:s1], k, st["pruning"], st["token_rel"], s1_size)
        pu, pi, pc, ik, icode = group_by_user(tc.user_of[p], key, m * s1_size)
        shard_codes.append(icode.astype(np.int32 if ik.size < 2**31 else np.int64))
        if keep_positions:
            shard_positions.append(p)
        ia, it = ik // s1_size, ik % s1_size
        ikey = fold_keys(st["prev_keys"][ia], st["tok_key"][st["s1_tokens"][it]])
        if policy_gamma is None:  # weighted Gaussian
            h = _shard_histogram(pu, pi, pc, ik.size, limit=st["limit"], selection=st["selection"], seed=seed, k=k,
                                 item_keys=ikey, user_keys=st["user_key"])
        else:  # Policy Gaussian: one shard (a sequential pass over all users)
            users, items, _ = _kept_pairs(pu, pi, pc, st["limit"], st["selection"], None, _keyed_priority(
                seed, k, pu, pi, ikey, st["user_key"]))
            h = _policy_gaussian_histogram(users, items, ik.size, policy_gamma, None,
                                           priority=keyed_uniform(seed, st["user_key"], stream=STREAM_ORDER, k=k))
        if st["pruning"] == "both":
            ib = np.empty(ik.size, dtype=np.int64)
            ib[icode] = b_at  # the suffix's index in S_{k−1} (same for every occurrence)
        else:
            ib = it
        parts.append((ik, ib, h))
        del p, key, b_at, pu, pi, pc, icode
    shard_items = [part[0] for part in parts]
    item_keys, item_b, hist = _merge_items(parts)
    del parts
    item_a = item_keys // s1_size
    item_key = fold_keys(st["prev_keys"][item_a], st["tok_key"][st["s1_tokens"][item_keys % s1_size]])
    supp_idx, noisy = _noisy_values(hist, sigma_k, seed, k, item_key)
    support_keys = np.sort(item_a[supp_idx] * space.width + item_b[supp_idx])
    return _LevelHistogram(bounds, shard_items, shard_codes, shard_positions if keep_positions else None, item_keys,
                           item_b, item_key, supp_idx, noisy, support_keys)


def _prepare_dpne(users, rng, epsilon, delta, max_length, limit, noise_decay, pruning, selection, policy,
                  policy_cutoff) -> "DpnePlan":
    # every parameter but η keys lengths 1 and 2; η joins the key from where the histograms depend on it
    seed = dpne_release_seed(_keyed_seed(rng), epsilon=epsilon, delta=delta, max_length=max_length,
                             contribution_limit=limit, noise_decay=noise_decay, pruning=pruning, selection=selection,
                             policy=policy, policy_cutoff=policy_cutoff)
    tc = _as_token_corpus(users)
    tok_key = tc.token_key_array  # stable key of every token id
    user_key = tc.user_key_array

    sigma, sigmas = dpne_noise_scales(epsilon, delta, max_length=max_length, noise_decay=noise_decay)
    rho1 = dpsu_threshold_for_sigma(sigmas[0], delta, limit)

    # ---- k = 1: DPSU over tokens -----------------------------------------------------------------
    V = tc.vocabulary_size
    key1 = fold_keys(None, tok_key)  # the 1-gram keys
    shard = _SHARD_POSITIONS if policy == "weighted" else None
    user_start = np.searchsorted(tc.user_of, np.arange(tc.n_users + 1)) if shard else None
    if shard and tc.n_tokens > shard:  # users in shards: bounded working memory (issue 12)
        hist1 = np.zeros(V)
        for s0, s1 in _shard_bounds(None, tc, user_start, shard):
            pu, pi, pc, ik, _ = group_by_user(tc.user_of[s0:s1], tc.tokens[s0:s1], V, need_positions=False)
            hist1 += _shard_histogram(pu, ik[pi], pc, V, limit=limit, selection=selection, seed=seed, k=1,
                                      item_keys=key1, user_keys=user_key)
        released1, support1 = _noisy_threshold(hist1, sigmas[0], rho1, seed, 1, key1)
    else:
        pu, pi, pc = tc.unigram_pairs
        released1, support1 = _dpsu_select(pu, pi, pc, V, limit=limit, sigma=sigmas[0], threshold=rho1,
                                           selection=selection, rng=None, policy=policy, cutoff_alpha=policy_cutoff,
                                           keyed=(seed, 1, key1, user_key))
    s1_tokens = np.flatnonzero(released1).astype(np.int32)
    s1_tokens = s1_tokens[np.argsort(key1[s1_tokens], kind="stable")]  # canonical order: by key
    token_rel = np.full(max(V, 1), -1, dtype=np.int64)
    token_rel[s1_tokens] = np.arange(s1_tokens.size)
    diag1 = DpneLevelDiagnostics(
        k=1, previous_size=None, valid_count=None, sigma=float(sigmas[0]), threshold=rho1,
        released=int(s1_tokens.size), spurious_bound=None, supported=int(support1.sum()),
        used_valid=int(support1.sum()), kept_from_histogram=int(s1_tokens.size), sampled_zero_weight=0, spurious=0)

    # alive positions (their 1-gram released) and the index in S_{k−1} of the (k−1)-gram there
    pos_dtype = np.int32 if tc.n_tokens < 2**31 else np.int64  # 4 bytes a position where they fit
    pos_parts, rel_parts = [], []
    for s0, s1 in (_shard_bounds(None, tc, user_start, shard) if shard else [(0, tc.n_tokens)]):
        r_s = token_rel[tc.tokens[s0:s1]]
        hit = np.flatnonzero(r_s >= 0)
        pos_parts.append((hit + s0).astype(pos_dtype))
        rel_parts.append(r_s[hit].astype(pos_dtype))
        del r_s, hit
    pos, rel = _concat(pos_parts, pos_dtype), _concat(rel_parts, pos_dtype)
    del pos_parts, rel_parts
    state = dict(seed=seed, tok_key=tok_key, user_key=user_key, s1_tokens=s1_tokens, s1_size=int(s1_tokens.size),
                 token_rel=token_rel, prev_keys=key1[s1_tokens], user_start=user_start, shard=shard, limit=limit,
                 selection=selection, pruning=pruning, pos_dtype=pos_dtype)
    level2 = None
    m = int(s1_tokens.size)
    if max_length >= 2 and m and policy == "weighted":
        space = _ValidSpace(pruning, m, m, None, None, 0)
        if space.size:
            level2 = _level_histogram(tc, pos, rel, 2, st=state, m=m, space=space, sigma_k=float(sigmas[1]),
                                      policy_gamma=None, keep_positions=True)
    return DpnePlan(tc=tc, state=state, pos=pos, rel=rel, level2=level2, diag1=diag1, sigma=float(sigma),
                    sigmas=tuple(float(x) for x in sigmas), rho1=rho1,
                    params=dict(epsilon=epsilon, delta=delta, max_length=max_length, contribution_limit=limit,
                                noise_decay=noise_decay, pruning=pruning, selection=selection, policy=policy,
                                policy_cutoff=policy_cutoff))


@dataclass(frozen=True, eq=False)
class DpnePlan:
    """The part of a DPNE run that does not depend on η (:func:`prepare_dpne`); ``run(eta)`` finishes it.

    Evaluation only: it holds the encoded private corpus and intermediate counts. Its arrays are never
    modified by ``run``, so one plan serves any number of runs (a page caches it and redraws on an η move).
    """

    tc: TokenCorpus = field(repr=False)
    state: dict = field(repr=False)
    pos: np.ndarray = field(repr=False)
    rel: np.ndarray = field(repr=False)
    level2: _LevelHistogram | None = field(repr=False)
    diag1: DpneLevelDiagnostics
    sigma: float
    sigmas: tuple
    rho1: float
    params: dict

    def run(self, eta) -> DpneRun:
        """``dpne_with_evaluation(…, eta=eta)`` with this plan's corpus, seed and other arguments."""
        eta = _check_eta(eta)
        tc, st, p = self.tc, self.state, self.params
        max_length, pruning, policy = p["max_length"], p["pruning"], p["policy"]
        s1_tokens, s1_size, token_rel, tok_key = st["s1_tokens"], st["s1_size"], st["token_rel"], st["tok_key"]
        seed, pos_dtype = st["seed"], st["pos_dtype"]
        sigmas = self.sigmas
        thresholds: dict[int, float] = {1: self.rho1}
        valid_counts: dict[int, int] = {}
        ids: dict[int, np.ndarray] = {1: s1_tokens.reshape(-1, 1)}
        spurious_ids: dict[int, np.ndarray] = {1: np.zeros((0, 1), dtype=np.int32)}
        diags: list[DpneLevelDiagnostics] = [self.diag1]
        pos, rel = self.pos, self.rel
        prev_keys = st["prev_keys"]
        prev_rows = ids[1]
        prev_a = prev_b = None  # S_{k−1} as (prefix, suffix) index pairs into S_{k−2}
        prev_prev_size = 0

        for k in range(2, max_length + 1):
            m = prev_rows.shape[0]
            if m == 0:
                break
            space = _ValidSpace(pruning, m, s1_size, prev_a, prev_b, prev_prev_size)
            n_valid = space.size
            valid_counts[k] = int(n_valid)
            sigma_k = float(sigmas[k - 1])
            if n_valid == 0:
                thresholds[k] = math.inf
                ids[k] = np.zeros((0, k), dtype=np.int32)
                spurious_ids[k] = np.zeros((0, k), dtype=np.int32)
                diags.append(DpneLevelDiagnostics(k, m, 0, sigma_k, math.inf, 0, 0.0, 0, 0, 0, 0, 0))
                break
            p_zero = _spurious_probability(eta, m, n_valid)
            rho_k = float(-sigma_k * ndtri(p_zero))
            thresholds[k] = rho_k

            seed_k = dpne_level_seed(seed, k, eta, policy)
            if k == 2 and self.level2 is not None:
                lh = self.level2  # drawn with the η-independent key (weighted Gaussian)
            else:
                lh = _level_histogram(tc, pos, rel, k, st={**st, "prev_keys": prev_keys, "seed": seed_k}, m=m,
                                      space=space, sigma_k=sigma_k, keep_positions=pos.size <= _KEEP_POSITIONS,
                                      policy_gamma=None if policy == "weighted" else rho_k + p["policy_cutoff"] * sigma_k)
            item_keys, item_b = lh.item_keys, lh.item_b
            n_items = item_keys.size
            item_a = item_keys // s1_size
            item_t = item_keys % s1_size
            released = np.zeros(n_items, dtype=bool)
            released[lh.supp_idx[lh.noisy > rho_k]] = True
            n_support = int(lh.supp_idx.size)
            n_zero = int(n_valid - n_support)
            sampled = zero_weight_draw(space, seed_k, k, n_zero, p_zero, lh.support_keys)
            n_sampled = int(sampled.size)
            s_a = sampled // space.width
            s_b = sampled % space.width
            s_t = token_rel[prev_rows[s_b, -1]] if pruning == "both" else s_b
            s_key = s_a * s1_size + s_t

            # Sampled k-grams that some user did write (valid, but zero weight after the limit) are not spurious.
            if n_items:
                at = np.minimum(np.searchsorted(item_keys, s_key), n_items - 1)
                in_corpus = item_keys[at] == s_key
                sampled_item = np.where(in_corpus, at, -1)
            else:
                in_corpus = np.zeros(s_key.size, dtype=bool)
                sampled_item = np.full(s_key.size, -1)
            kept_items = np.flatnonzero(released)
            item_rel = np.full(max(n_items, 1), -1, dtype=np.int64)
            item_rel[kept_items] = np.arange(kept_items.size)
            item_rel[sampled_item[in_corpus]] = kept_items.size + np.flatnonzero(in_corpus)

            a = np.concatenate([item_a[kept_items], s_a]).astype(np.int64)
            b = np.concatenate([item_b[kept_items], s_b]).astype(np.int64)
            t = np.concatenate([item_t[kept_items], s_t]).astype(np.int64)
            spurious_mask = np.zeros(a.size, dtype=bool)
            spurious_mask[kept_items.size:] = ~in_corpus
            # Canonical order of S_k (by key), so that V_{k+1} is indexed alike by every engine.
            new_keys = fold_keys(prev_keys[a], tok_key[s1_tokens[t]])
            perm = np.argsort(new_keys, kind="stable")
            inv = np.empty(perm.size, dtype=np.int64)
            inv[perm] = np.arange(perm.size)
            hit = item_rel >= 0
            item_rel[hit] = inv[item_rel[hit]]
            a, b, t, spurious_mask, prev_keys = a[perm], b[perm], t[perm], spurious_mask[perm], new_keys[perm]
            rows = np.hstack([prev_rows[a], s1_tokens[t].reshape(-1, 1)]).astype(np.int32)
            ids[k] = rows
            spurious_ids[k] = rows[spurious_mask]
            diags.append(DpneLevelDiagnostics(
                k=k, previous_size=int(m), valid_count=int(n_valid), sigma=sigma_k, threshold=rho_k,
                released=int(rows.shape[0]), spurious_bound=float(eta * min(m, n_valid)), supported=n_support,
                used_valid=int(n_items), kept_from_histogram=int(kept_items.size), sampled_zero_weight=n_sampled,
                spurious=int(spurious_mask.sum())))

            # Next level: positions whose k-gram was released (a second pass over the shards).
            pos_parts, rel_parts = [], []
            for j, ((s0, s1), ik, icode) in enumerate(zip(lh.bounds, lh.shard_items, lh.shard_codes)):
                if lh.shard_positions is not None:
                    cand = lh.shard_positions[j]
                else:
                    cand, _, _ = _level_candidates(tc, pos[s0:s1], rel[s0:s1], k, pruning, token_rel, s1_size)
                r = item_rel[np.searchsorted(item_keys, ik)][icode] if n_items else np.zeros(0, dtype=np.int64)
                alive = r >= 0
                pos_parts.append(cand[alive].astype(pos_dtype))
                rel_parts.append(r[alive].astype(pos_dtype))
                del cand, r, alive
            del lh
            pos, rel = _concat(pos_parts, pos_dtype), _concat(rel_parts, pos_dtype)
            del pos_parts, rel_parts
            prev_prev_size = m
            prev_a, prev_b = (a, b) if pruning == "both" else (None, None)
            prev_rows = rows

        for k in range(1, max_length + 1):
            ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
            spurious_ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
        release = DpneRelease(
            ngrams=_released_sets(tc.vocabulary, ids), sigma=self.sigma,
            sigmas={k: float(s) for k, s in enumerate(sigmas, start=1)}, thresholds=thresholds,
            valid_counts=valid_counts, eta=eta, **p)
        return DpneRun(release, DpneEvaluation(levels=tuple(diags), spurious_ids=spurious_ids, ids=ids, corpus=tc))


# --------------------------------------------------------------------------------------------------
# Baselines (003 §3.1.2; SPEC §4)
# --------------------------------------------------------------------------------------------------

def _as_index(users, max_length: int) -> NgramIndex:
    if isinstance(users, NgramIndex):
        if users.max_length < max_length:
            raise ValueError(
                f"max_length must be <= the index's max_length {users.max_length}, got max_length={max_length}; "
                "build the index with build_ngram_index(corpus, max_length)")
        return users
    return build_ngram_index(_as_token_corpus(users), max_length)


def _check_policy_cutoff(policy_cutoff) -> float:
    # α multiplies σ in Γ = ρ + α·σ; beyond a few σ it changes nothing, and a huge α overflows ‖Γ − H‖₂
    return check_real("policy_cutoff", policy_cutoff, low=0.0, low_inclusive=True, high=_MAX_POLICY_CUTOFF)


def _check_baseline(epsilon, delta, max_length, contribution_limit, selection, rng, policy="weighted",
                    policy_cutoff=2.0):
    check_choice("policy", policy, DPSU_POLICIES)
    _check_policy_cutoff(policy_cutoff)
    return (check_epsilon(epsilon), check_delta(delta),
            check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH),
            check_contribution_limit(contribution_limit),
            check_choice("selection", selection, SELECTION_RULES), check_rng(rng))


def dpsu_all(users, *, epsilon, delta, max_length, contribution_limit, rng, selection="random",
             policy="weighted", policy_cutoff=2.0) -> DpsuBaselineRelease:
    """DPSU-all: one DPSU over all n-grams of length ≤ T as one universe, contribution T·Δ0 (003 §3.1.2).

    σ from (ε, δ/2) (analytic), ρ = :func:`dpsu_threshold_for_sigma` (σ, δ, T·Δ0). (ε, δ)-DP per user.
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(epsilon, delta, max_length, contribution_limit,
                                                              selection, rng, policy, policy_cutoff)
    index = _as_index(users, T)
    sigma = gaussian_sigma(epsilon, delta / 2.0, method="analytic")
    rho = dpsu_threshold_for_sigma(sigma, delta, T * limit)
    if policy == "weighted":  # level by level, without concatenating the pairs (same draws, same result)
        masks = _dpsu_weighted_levels([index.level(k) for k in range(1, T + 1)], index.corpus.n_users,
                                      limit=T * limit, sigma=sigma, threshold=rho, selection=selection, rng=rng)
    else:
        offsets = np.cumsum([0] + [index.level(k).n_grams for k in range(1, T + 1)])
        pu = np.concatenate([index.level(k).pair_user for k in range(1, T + 1)]).astype(np.int64)
        pi = np.concatenate([index.level(k).pair_gram.astype(np.int64) + offsets[k - 1] for k in range(1, T + 1)])
        pc = np.concatenate([index.level(k).pair_count for k in range(1, T + 1)])
        released, _ = _dpsu_select(pu, pi, pc, int(offsets[-1]), limit=T * limit, sigma=sigma,
                                    threshold=rho, selection=selection, rng=rng, policy=policy,
                                    cutoff_alpha=policy_cutoff)
        del pu, pi, pc
        masks = [released[offsets[k - 1]:offsets[k]] for k in range(1, T + 1)]
    ids = {k: index.level(k).rows(np.flatnonzero(masks[k - 1])) for k in range(1, T + 1)}
    return DpsuBaselineRelease(name="DPSU-all", ngrams=_released_sets(index.corpus.vocabulary, ids),
                               sigmas={k: sigma for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=T * limit, guarantee=dpne_guarantee(epsilon=epsilon, delta=delta))


def dpsu_even(users, *, epsilon, delta, max_length, contribution_limit, rng, selection="random",
              policy="weighted", policy_cutoff=2.0) -> DpsuBaselineRelease:
    """DPSU-even: a separate DPSU per length k = 1..T with σ_k = σ√T (SPEC §4), contribution Δ0 each.

    Accounting: the T Gaussian parts compose to σ (Σ 1/σ_k² = 1/σ², 003 Prop. 2.3) and the T
    thresholding parts are (0, δ/(2T)) each, so each ρ_k is :func:`dpsu_threshold_for_sigma`
    (σ_k, δ/T, Δ0) and the whole is (ε, δ)-DP per user. (The paper writes "ε/√T by advanced
    composition"; SPEC §4 fixes σ_k = σ√T, which is the tight Gaussian composition of the same idea.)
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(epsilon, delta, max_length, contribution_limit,
                                                              selection, rng, policy, policy_cutoff)
    index = _as_index(users, T)
    sigma = gaussian_sigma(epsilon, delta / 2.0, method="analytic")
    sigma_k = sigma * math.sqrt(T)
    rho = dpsu_threshold_for_sigma(sigma_k, delta / T, limit)
    ids = _dpsu_each_length(index, T, sigma=sigma_k, threshold=rho, limit=limit, selection=selection, rng=rng,
                            policy=policy, policy_cutoff=policy_cutoff)
    return DpsuBaselineRelease(name="DPSU-even", ngrams=_released_sets(index.corpus.vocabulary, ids),
                               sigmas={k: sigma_k for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=limit, guarantee=dpne_guarantee(epsilon=epsilon, delta=delta))



def _dpsu_each_length(index, T, *, sigma, threshold, limit, selection, rng, policy, policy_cutoff) -> dict:
    """One independent DPSU per length k = 1..T (no pruning): the released k-gram ids per length."""
    ids = {}
    for k in range(1, T + 1):
        lev = index.level(k)
        released, _ = _dpsu_select(lev.pair_user, lev.pair_gram, lev.pair_count, lev.n_grams,
                                   limit=limit, sigma=sigma, threshold=threshold, selection=selection,
                                   rng=rng, policy=policy, cutoff_alpha=policy_cutoff)
        ids[k] = lev.rows(np.flatnonzero(released))
    return ids


def dpsu_single(users, *, epsilon, delta, max_length, contribution_limit, rng, selection="random",
                policy="weighted", policy_cutoff=2.0) -> DpsuBaselineRelease:
    """DPSU-single: for each k = 1..T, one DPSU on k-grams alone with the whole (ε, δ) (003 §3.1.2).

    Each length is its own (ε, δ)-DP release; the T of them together are *not* one (ε, δ) release —
    the baseline answers "how many k-grams could the whole budget buy at this one length".
    """
    epsilon, delta, T, limit, selection, rng = _check_baseline(epsilon, delta, max_length, contribution_limit,
                                                              selection, rng, policy, policy_cutoff)
    index = _as_index(users, T)
    sigma, rho = dpsu_threshold(epsilon, delta, limit)
    ids = _dpsu_each_length(index, T, sigma=sigma, threshold=rho, limit=limit, selection=selection, rng=rng,
                            policy=policy, policy_cutoff=policy_cutoff)
    return DpsuBaselineRelease(name="DPSU-single", ngrams=_released_sets(index.corpus.vocabulary, ids),
                               sigmas={k: sigma for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=limit,
                               guarantee=dpne_guarantee(epsilon=epsilon, delta=delta, single_length=True))


# --------------------------------------------------------------------------------------------------
# k-anonymity coverage (evaluation only)
# --------------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class KAnonymityCoverage:
    """For each length k and K: how many k-grams are used by at least K users (the K-anonymous set,
    ``KANONYMITY_LABEL``: a reference, not DP) and the share of them the release contains.

    ``rows`` is a list of dicts with keys k, K, frequent, covered, share (share is NaN when no k-gram
    reaches K users). Evaluation only: it reads the private corpus.
    """

    rows: list
    ks: tuple
    label: str = EVALUATION_ONLY
    reference_label: str = KANONYMITY_LABEL

    def share(self, k: int, K: int) -> float:
        for r in self.rows:
            if r["k"] == k and r["K"] == K:
                return r["share"]
        raise KeyError(f"no coverage row for k={k}, K={K}")


def _released_id_rows(index: NgramIndex, released) -> dict:
    """k → ``(n, k)`` token-id rows over ``index.corpus`` for a release, a mapping of string k-grams or a
    mapping of id rows. String k-grams with a token the corpus does not hold cannot be in it: dropped."""
    if isinstance(released, (DpneRelease, DpsuBaselineRelease)):
        released = released.ngrams
    if not isinstance(released, Mapping):
        raise TypeError("released must be a DpneRelease, a DpsuBaselineRelease or a mapping k → released k-grams, "
                        f"got released={released!r} ({type(released).__name__})")
    lookup = None
    out = {}
    for k, grams in released.items():
        k = check_int("released length", k, low=1)
        if isinstance(grams, np.ndarray) and grams.dtype.kind in "iu":
            out[k] = grams.reshape(-1, k)
            continue
        if lookup is None:
            lookup = {w: i for i, w in enumerate(index.corpus.vocabulary.tolist())}
        rows = [[lookup[w] for w in g] for g in grams
                if len(g) == k and all(isinstance(w, str) and w in lookup for w in g)]
        out[k] = np.asarray(rows, dtype=np.int64).reshape(-1, k)
    return out


def kanonymity_coverage(index: NgramIndex, released, *, ks=DEFAULT_K_VALUES,
                        max_length: int | None = None) -> KAnonymityCoverage:
    """Share of the k-grams used by **at least** K users that ``released`` contains (003 Fig. 4 right).

    Args:
      index: the corpus' :class:`NgramIndex`.
      released: a :class:`DpneRelease` or :class:`DpsuBaselineRelease`, a mapping k → string k-grams, or
        a mapping k → ``(n, k)`` token-id rows over ``index.corpus`` (e.g. ``DpneEvaluation.ids``, when
        the run and the index share one :class:`TokenCorpus`).
      ks: the thresholds K (integers ≥ 1). The reference code counts "more than K"; we say "at least".
      max_length: report lengths 1..max_length (default: all lengths of the index).
    """
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    released_ids = _released_id_rows(index, released)
    ks = tuple(check_int(f"ks[{i}]", K, low=1) for i, K in enumerate(check_sequence("ks", ks)))
    if not ks:
        raise ValueError("ks must hold at least one K, got an empty sequence")
    T = index.max_length if max_length is None else check_int("max_length", max_length, low=1,
                                                               high=index.max_length)
    rows = []
    for k in range(1, T + 1):
        lev = index.level(k)
        rel = np.asarray(released_ids.get(k, np.zeros((0, k), dtype=np.int32))).reshape(-1, k)
        covered_mask = np.zeros(lev.n_grams, dtype=bool)
        if rel.shape[0]:
            found = index.lookup(rel)
            covered_mask[found[found >= 0]] = True
        for K in ks:
            freq = lev.user_counts >= K
            n_freq = int(freq.sum())
            n_cov = int((freq & covered_mask).sum())
            rows.append({"k": k, "K": K, "frequent": n_freq, "covered": n_cov,
                         "share": (n_cov / n_freq) if n_freq else float("nan")})
    return KAnonymityCoverage(rows=rows, ks=ks)


@dataclass(frozen=True)
class PruningChain:
    """Why DPNE releases (or misses) the k-grams used by at least ``K`` users, length by length.

    ``rows``: one dict per length k = 1..(last length the release reached) with

    * ``popular``: how many k-grams at least K users use;
    * ``valid``: the share of them that are candidates at length k (k = 1: all; k ≥ 2: both (k−1)-gram
      halves were released, or the prefix alone under single-side pruning) — a popular k-gram that is not a
      candidate cannot be released, whatever its count;
    * ``released``: the share of them that DPNE released (DPNE's coverage, 003 Fig. 4);
    * ``threshold_dpne`` ρ_k and ``threshold_single`` ρ of DPSU-single (the whole budget on length k);
    * ``weight_dpne``: the median expected weighted count H_k of the popular *candidates* under DPNE (each user
      keeps a uniform Δ0 of their candidates at length k, weight 1/√kept), ``weight_single``: the median
      expected count of the popular k-grams under DPSU-single (a uniform Δ0 of all of the user's k-grams),
      and ``gain``: the median ratio of the two over the popular candidates (how much pruning raises a
      candidate's count).

    Expected counts, no noise: for a user with n distinct items of which the policy may keep Δ0, an item's
    expected weight is min(1, Δ0/n)/√min(n, Δ0) (uniform selection, weighted Gaussian policy). Evaluation only.
    """

    rows: list
    K: int
    label: str = EVALUATION_ONLY


def _expected_weights(pair_user: np.ndarray, keep: np.ndarray, n_users: int, limit: int) -> np.ndarray:
    """Each kept pair's expected weight when a user keeps a uniform ``limit`` of their kept pairs, 1/√kept each."""
    n = np.bincount(pair_user[keep], minlength=n_users).astype(float)[pair_user]
    return np.where(keep, np.minimum(1.0, limit / np.maximum(n, 1.0)) / np.sqrt(np.maximum(np.minimum(n, limit), 1.0)), 0.0)


def pruning_chain(index: NgramIndex, release: DpneRelease, *, K: int = 100, lengths=None) -> PruningChain:
    """:class:`PruningChain` of a DPNE ``release`` on the corpus of ``index`` (selection "random", policy
    "weighted": the expected counts assume both).

    Args:
      index: the corpus' :class:`NgramIndex` (max_length at least the release's longest length).
      release: a :class:`DpneRelease` of that corpus.
      K: the popularity threshold (003 Fig. 4: K = 100).
      lengths: the lengths to report (default: every length the release reached); the others are only walked
        through (their released sets decide the next length's candidates), which saves the weights' cost.
    """
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    if not isinstance(release, DpneRelease):
        raise TypeError(f"release must be a DpneRelease, got {type(release).__name__}")
    if release.selection != "random" or release.policy != "weighted":
        raise ValueError("pruning_chain's expected counts assume selection='random' and policy='weighted', got "
                         f"selection={release.selection!r}, policy={release.policy!r}")
    K = check_int("K", K, low=1)
    ids = _released_id_rows(index, release)
    limit = release.contribution_limit
    _, rho_single = dpsu_threshold(release.epsilon, release.delta, limit)
    n_users = index.corpus.n_users
    reached = sorted(k for k in release.thresholds if k <= index.max_length)
    report = set(reached if lengths is None else (int(k) for k in lengths))
    in_prev = None
    rows = []
    for k in reached:
        lev = index.level(k)
        released = np.zeros(lev.n_grams, dtype=bool)
        rel = np.asarray(ids.get(k, np.zeros((0, k), dtype=np.int64))).reshape(-1, k)
        if rel.shape[0]:
            found = index.lookup(rel)
            released[found[found >= 0]] = True
        if k not in report:
            in_prev = released
            continue
        if k == 1:
            valid = np.ones(lev.n_grams, dtype=bool)
        else:
            valid = in_prev[lev.prefix]
            candidates = np.flatnonzero(valid)  # the suffix is looked up for the prefix-valid k-grams only
            if release.pruning == "both" and candidates.size:
                suffix = index.lookup(lev.rows(candidates)[:, 1:])
                valid[candidates] = (suffix >= 0) & in_prev[np.maximum(suffix, 0)]
        pu, pg = lev.pair_user, lev.pair_gram
        h_dpne = np.bincount(pg, weights=_expected_weights(pu, valid[pg], n_users, limit), minlength=lev.n_grams)
        h_single = np.bincount(pg, weights=_expected_weights(pu, np.ones(pu.size, dtype=bool), n_users, limit),
                               minlength=lev.n_grams)
        popular = lev.user_counts >= K
        pv = popular & valid
        n_pop = int(popular.sum())

        def median(x):
            return float(np.median(x)) if x.size else float("nan")

        rows.append({"k": k, "popular": n_pop,
                     "valid": float(pv.sum() / n_pop) if n_pop else float("nan"),
                     "released": float((popular & released).sum() / n_pop) if n_pop else float("nan"),
                     "threshold_dpne": float(release.thresholds[k]), "threshold_single": float(rho_single),
                     "weight_dpne": median(h_dpne[pv]), "weight_single": median(h_single[popular]),
                     "gain": median(h_dpne[pv] / h_single[pv])})
        in_prev = released
    return PruningChain(rows=rows, K=K)
