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
* Evaluation only (needs the private corpus, never part of a release): which released k-grams are
  spurious (used by no user), histogram support sizes, k-anonymity coverage.

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
Measured (benchmarks/bench_dpne.py, 2 CPUs shared with other jobs): T = 10 on 10,000 generated users
0.18–0.27 s (encoding + DPNE); on 1,000,000 users (35.5 M tokens) 55 s at moderate load (encoding 11 s +
DPNE 44 s) and up to ~2 min under heavy load; peak RSS 6.3 GB, most of it the corpus as Python lists.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy.special import ndtr, ndtri

from .gaussian import gaussian_sigma
from .ngrams import (
    MAX_NGRAM_LENGTH,
    NgramIndex,
    TokenCorpus,
    build_ngram_index,
    encode_corpus,
    encode_users,
    group_by_user,
    rows_membership,
)
from .validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_rng

__all__ = [
    "DPNE_GUARANTEE",
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
    "DpneLevelDiagnostics",
    "DpneEvaluation",
    "DpneRelease",
    "DpsuBaselineRelease",
    "dpne",
    "dpsu_all",
    "dpsu_even",
    "dpsu_single",
    "kanonymity_coverage",
    "KAnonymityCoverage",
]

DPNE_GUARANTEE = "(ε, δ)-DP per user"
EVALUATION_ONLY = "evaluation only — computed from the private corpus, not part of the DP release"
KANONYMITY_LABEL = "k-anonymity — not DP"
PRUNING_RULES = ("both", "single")
SELECTION_RULES = ("random", "most-frequent")
DPSU_POLICIES = ("weighted", "policy")  # weighted Gaussian (default), Policy Gaussian (Gopi et al. 2020)
DEFAULT_K_VALUES = (10, 20, 50, 100)
_ENUMERATE_LIMIT = 2_000_000  # enumerate V_k explicitly below this size (exact, no rejection loop)


# --------------------------------------------------------------------------------------------------
# Accounting
# --------------------------------------------------------------------------------------------------

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
    sigma1 = sigma * math.sqrt(float(np.sum(c ** (-2.0 * powers))))
    return sigma, sigma1 * c ** powers


def dpsu_threshold_for_sigma(sigma, delta, contribution_limit) -> float:
    """ρ = max_{1≤t≤Δ} [1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t))] (003 Thm 2.1; Gopi et al. 2020).

    The whole max is computed (the argmax is not always an endpoint). 1 − (1 − δ/2)^(1/t) is formed
    with ``expm1``/``log1p`` so that tiny δ keeps its precision.
    """
    sigma = check_real("sigma", sigma, low=0.0)
    delta = check_delta(delta)
    limit = check_int("contribution_limit", contribution_limit, low=1)
    t = np.arange(1, limit + 1, dtype=float)
    tail = -np.expm1(np.log1p(-delta / 2.0) / t)  # 1 − (1 − δ/2)^(1/t)
    values = 1.0 / np.sqrt(t) - sigma * ndtri(tail)  # Φ⁻¹(1 − x) = −Φ⁻¹(x)
    return float(np.max(values))


def dpsu_threshold(epsilon, delta, contribution_limit) -> tuple[float, float]:
    """(σ, ρ) of one DPSU release with the weighted Gaussian policy (T = 1 in 003 Thm 2.1).

    σ from (ε, δ/2) by the analytic Gaussian at ℓ2 sensitivity 1, ρ by
    :func:`dpsu_threshold_for_sigma`. SPEC §4 **check**: (3, e⁻¹⁰, 10) → (1.3328, 6.4353);
    (1, 1e-5, 10) → (3.8841, 19.316).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    limit = check_int("contribution_limit", contribution_limit, low=1)
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
    prev = {tuple(g) for g in released}
    ones = {tuple(g) for g in one_grams}
    if pruning == "single":
        return len(prev) * len(ones)
    starts: dict[tuple, int] = {}
    for t in prev:
        starts[t[:-1]] = starts.get(t[:-1], 0) + 1
    return sum(starts.get(s[1:], 0) for s in prev)


# --------------------------------------------------------------------------------------------------
# Weighted Gaussian DPSU step (shared by DPNE levels and the baselines)
# --------------------------------------------------------------------------------------------------

def _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng):
    """Keep at most ``limit`` items per user: returns (users, items, kept items of that user) per kept pair.

    Random selection (default) draws a uniform subset of size Δ per user; "most-frequent" keeps the
    user's Δ most frequent items, ties broken at random. Only users above the limit are sorted.
    """
    if pair_user.size == 0:
        return pair_user, pair_item, np.zeros(0, dtype=np.int64)
    sizes = np.bincount(pair_user)
    size_of_pair = sizes[pair_user]
    over = size_of_pair > limit
    if not over.any():
        return pair_user, pair_item, size_of_pair
    idx = np.flatnonzero(over)
    u = pair_user[idx].astype(np.float64)
    r = rng.random(idx.size)
    if selection == "random":
        frac = r
    else:
        cnt = pair_count[idx].astype(np.float64)
        frac = 1.0 - (cnt + r) / (float(cnt.max()) + 1.0)  # more frequent → smaller key
    order = idx[np.argsort(u + frac * 0.999999, kind="quicksort")]
    su = pair_user[order]
    first = np.ones(su.size, dtype=bool)
    first[1:] = su[1:] != su[:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(su.size), 0))
    rank = np.arange(su.size) - group_start
    keep = np.ones(pair_user.size, dtype=bool)
    keep[order[rank >= limit]] = False
    return pair_user[keep], pair_item[keep], np.minimum(size_of_pair[keep], limit)


def _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng):
    """Weighted Gaussian policy: the kept items of a user each get 1/√(number kept) (ℓ2 norm 1).

    Returns (kept items, their weights).
    """
    _, items, kept_size = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng)
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
                 policy="weighted", cutoff_alpha=2.0):
    """One DPSU pass (weighted or policy Gaussian). Returns (released mask, support mask) over items."""
    if policy == "weighted":
        items, weights = _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng)
        hist = np.bincount(items, weights=weights, minlength=n_items)
    else:
        users, items, _ = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng)
        hist = _policy_gaussian_histogram(users, items, n_items, threshold + cutoff_alpha * sigma, rng)
    support = hist > 0
    released = np.zeros(n_items, dtype=bool)
    supp_idx = np.flatnonzero(support)
    noisy = hist[supp_idx] + sigma * rng.standard_normal(supp_idx.size)  # one draw per item, once
    released[supp_idx[noisy > threshold]] = True
    return released, support


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
    """Evaluation-only diagnostics of a DPNE run (they read the private corpus; never publish them)."""

    levels: tuple[DpneLevelDiagnostics, ...]
    spurious_ids: dict = field(repr=False)  # k -> (n, k) token ids of released k-grams used by nobody
    label: str = EVALUATION_ONLY

    def spurious_by_length(self) -> dict[int, int]:
        return {d.k: d.spurious for d in self.levels}

    def spurious_share_by_length(self) -> dict[int, float]:
        return {d.k: d.spurious_share for d in self.levels}

    @property
    def total_spurious(self) -> int:
        return sum(d.spurious for d in self.levels)


class _ReleasedSets:
    """Accessors shared by every set release: ``ids`` (k → (n, k) token-id rows) over ``vocabulary``."""

    @cached_property
    def ngrams(self) -> dict[int, set[tuple[str, ...]]]:
        return {k: ({tuple(r) for r in self.vocabulary[rows].tolist()} if rows.size else set())
                for k, rows in self.ids.items()}

    @property
    def sizes(self) -> dict[int, int]:
        return {k: int(rows.shape[0]) for k, rows in self.ids.items()}

    @property
    def total(self) -> int:
        return sum(self.sizes.values())


@dataclass(frozen=True, eq=False)
class DpneRelease(_ReleasedSets):
    """The output of :func:`dpne`: the sets S_1..S_T (never counts) and the public parameters.

    ``ngrams`` maps k → set of k-tuples of strings; ``ids`` holds the same sets as ``(n, k)`` token-id
    arrays over ``vocabulary``. ``sigmas``/``thresholds``/``valid_counts`` map k → σ_k, ρ_k, |V_k|
    (thresholds and |V_k| only for the lengths reached before the early stop; |V_1| is not defined).
    ``evaluation`` holds evaluation-only diagnostics, kept apart.
    """

    ids: dict = field(repr=False)
    vocabulary: np.ndarray = field(repr=False)
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
    evaluation: DpneEvaluation = field(repr=False)
    guarantee: str = DPNE_GUARANTEE



@dataclass(frozen=True, eq=False)
class DpsuBaselineRelease(_ReleasedSets):
    """A DPSU baseline (003 §3.1.2): sets per length, never counts.

    ``sigmas``/``thresholds`` map k → the σ and ρ used for that length. For "DPSU-single" each length is
    a *separate* release spending the whole budget (so the lengths together are not one (ε, δ) release).
    """

    name: str
    ids: dict = field(repr=False)
    vocabulary: np.ndarray = field(repr=False)
    sigmas: dict
    thresholds: dict
    contribution_limit: int
    guarantee: str



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


def _sample_zero_weight(space: _ValidSpace, n_zero: int, count: int, support_keys: np.ndarray, rng) -> np.ndarray:
    """``count`` distinct members of V_k \\ supp(H_k), uniformly (``support_keys`` sorted)."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    if space.size <= _ENUMERATE_LIMIT or (n_zero < space.size // 2 and space.size <= 10 * _ENUMERATE_LIMIT):
        allk = space.enumerate()
        if support_keys.size:
            allk = allk[~_sorted_contains(support_keys, allk)]
        return rng.choice(allk, size=count, replace=False)
    # Rejection: acceptance ≥ 1/2 here (n_zero ≥ |V_k|/2) and count ≪ n_zero in practice.
    chosen = np.zeros(0, dtype=np.int64)
    while chosen.size < count:
        need = count - chosen.size
        draw = space.sample(max(2 * need, 64), rng)
        if support_keys.size:
            draw = draw[~_sorted_contains(support_keys, draw)]
        both = np.concatenate([chosen, draw])
        _, first = np.unique(both, return_index=True)
        chosen = both[np.sort(first)]  # first occurrences, draw order kept
    return np.asarray(chosen[:count], dtype=np.int64)


def _sorted_contains(sorted_keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    pos = np.searchsorted(sorted_keys, values)
    pos = np.minimum(pos, sorted_keys.size - 1)
    return sorted_keys[pos] == values


def dpne(users, *, epsilon, delta, max_length, contribution_limit, eta, noise_decay=1.0, pruning="both",
         rng, selection="random", policy="weighted", policy_cutoff=2.0) -> DpneRelease:
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
      rng: ``numpy.random.Generator`` or int seed.
      selection: "random" (default: a uniform subset of Δ0 valid k-grams per user) or "most-frequent".
      policy: the DPSU update policy at every length: "weighted" (weighted Gaussian, 1/√|U_i| per item,
        as in the paper) or "policy" (Policy Gaussian, Gopi et al. 2020: users in random order push
        their items towards the cutoff Γ_k = ρ_k + policy_cutoff·σ_k). Both have ℓ2 sensitivity 1, so
        σ_k and ρ_k are the same.
      policy_cutoff: α ≥ 0 in Γ = ρ + α·σ (Policy Gaussian only; the DPSU reference code uses 2 by default).

    Returns:
      :class:`DpneRelease`, with evaluation-only diagnostics kept in ``.evaluation``.

    Raises:
      TypeError / ValueError: a parameter of the wrong kind or out of range.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    limit = check_int("contribution_limit", contribution_limit, low=1)
    eta = check_real("eta", eta, low=0.0, high=1.0, high_inclusive=False)
    noise_decay = _check_noise_decay(noise_decay)
    check_choice("pruning", pruning, PRUNING_RULES)
    check_choice("selection", selection, SELECTION_RULES)
    check_choice("policy", policy, DPSU_POLICIES)
    policy_cutoff = check_real("policy_cutoff", policy_cutoff, low=0.0, low_inclusive=True)
    rng = check_rng(rng)
    tc = _as_token_corpus(users)

    sigma, sigmas = dpne_noise_scales(epsilon, delta, max_length=max_length, noise_decay=noise_decay)
    rho1 = dpsu_threshold_for_sigma(sigmas[0], delta, limit)
    thresholds: dict[int, float] = {1: rho1}
    valid_counts: dict[int, int] = {}
    ids: dict[int, np.ndarray] = {}
    spurious_ids: dict[int, np.ndarray] = {}
    diags: list[DpneLevelDiagnostics] = []

    # ---- k = 1: DPSU over tokens -----------------------------------------------------------------
    V = tc.vocabulary_size
    pu, pi, pc = tc.unigram_pairs
    released1, support1 = _dpsu_select(pu, pi, pc, V, limit=limit, sigma=sigmas[0], threshold=rho1,
                                       selection=selection, rng=rng, policy=policy, cutoff_alpha=policy_cutoff)
    s1_tokens = np.flatnonzero(released1).astype(np.int32)
    token_rel = np.full(max(V, 1), -1, dtype=np.int64)
    token_rel[s1_tokens] = np.arange(s1_tokens.size)
    ids[1] = s1_tokens.reshape(-1, 1)
    spurious_ids[1] = np.zeros((0, 1), dtype=np.int32)
    diags.append(DpneLevelDiagnostics(
        k=1, previous_size=None, valid_count=None, sigma=float(sigmas[0]), threshold=rho1,
        released=int(s1_tokens.size), spurious_bound=None, supported=int(support1.sum()),
        used_valid=int(support1.sum()), kept_from_histogram=int(s1_tokens.size), sampled_zero_weight=0, spurious=0))

    pos = np.flatnonzero(token_rel[tc.tokens] >= 0) if tc.n_tokens else np.zeros(0, dtype=np.int64)
    rel = token_rel[tc.tokens[pos]]  # index in S_{k−1} of the (k−1)-gram at each alive position
    prev_rows = ids[1]
    prev_a = prev_b = None  # S_{k−1} as (prefix, suffix) index pairs into S_{k−2}
    prev_prev_size = 0
    s1_size = int(s1_tokens.size)

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

        # Valid k-grams at the visited positions, keyed by (prefix index a, index t of the last token in
        # S_1): a·|S_1| + t identifies a k-gram whatever the rule and keeps the key space small.
        cand = tc.run_left[pos] >= k
        if pruning == "both":
            nxt = np.zeros(pos.size, dtype=bool)
            nxt[:-1] = pos[1:] == pos[:-1] + 1
            cand &= nxt
            ci = np.flatnonzero(cand)
            p = pos[ci]
            t_idx = token_rel[tc.tokens[p + k - 1]]  # ≥ 0: the suffix is released, so are its tokens
        else:
            ci = np.flatnonzero(cand)
            p = pos[ci]
            t_idx = token_rel[tc.tokens[p + k - 1]]
            ok = t_idx >= 0
            p, ci, t_idx = p[ok], ci[ok], t_idx[ok]
        key = rel[ci] * s1_size + t_idx
        pu, pi, pc, item_keys, item_code = group_by_user(tc.user_of[p], key, m * s1_size)
        n_items = item_keys.size
        item_a = item_keys // s1_size
        item_t = item_keys % s1_size
        if pruning == "both":
            item_b = np.empty(n_items, dtype=np.int64)
            item_b[item_code] = rel[ci + 1]  # the suffix's index in S_{k−1} (same for every occurrence)
        else:
            item_b = item_t
        released, support = _dpsu_select(pu, pi, pc, n_items, limit=limit, sigma=sigma_k, threshold=rho_k,
                                         selection=selection, rng=rng, policy=policy, cutoff_alpha=policy_cutoff)
        n_support = int(support.sum())
        n_zero = int(n_valid - n_support)
        n_sampled = int(rng.binomial(n_zero, p_zero)) if n_zero > 0 else 0
        support_space_keys = np.sort(item_a[support] * space.width + item_b[support])
        sampled = _sample_zero_weight(space, n_zero, n_sampled, support_space_keys, rng)
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
        rows = np.hstack([prev_rows[a], s1_tokens[t].reshape(-1, 1)]).astype(np.int32)
        ids[k] = rows
        spurious_mask = np.zeros(rows.shape[0], dtype=bool)
        spurious_mask[kept_items.size:] = ~in_corpus
        spurious_ids[k] = rows[spurious_mask]
        diags.append(DpneLevelDiagnostics(
            k=k, previous_size=int(m), valid_count=int(n_valid), sigma=sigma_k, threshold=rho_k,
            released=int(rows.shape[0]), spurious_bound=float(eta * min(m, n_valid)), supported=n_support,
            used_valid=int(n_items), kept_from_histogram=int(kept_items.size), sampled_zero_weight=n_sampled,
            spurious=int(spurious_mask.sum())))

        # Next level: positions whose k-gram was released.
        r = item_rel[item_code] if n_items else np.zeros(0, dtype=np.int64)
        alive = r >= 0
        pos, rel = p[alive], r[alive]
        prev_prev_size = m
        prev_a, prev_b = (a, b) if pruning == "both" else (None, None)
        prev_rows = rows

    for k in range(1, max_length + 1):
        ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
        spurious_ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
    return DpneRelease(
        ids=ids, vocabulary=tc.vocabulary, sigma=float(sigma),
        sigmas={k: float(s) for k, s in enumerate(sigmas, start=1)}, thresholds=thresholds,
        valid_counts=valid_counts, epsilon=epsilon, delta=delta, max_length=max_length,
        contribution_limit=limit, eta=eta, noise_decay=noise_decay, pruning=pruning, selection=selection,
        policy=policy, policy_cutoff=policy_cutoff,
        evaluation=DpneEvaluation(levels=tuple(diags), spurious_ids=spurious_ids))


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


def _check_baseline(epsilon, delta, max_length, contribution_limit, selection, rng, policy="weighted",
                    policy_cutoff=2.0):
    check_choice("policy", policy, DPSU_POLICIES)
    check_real("policy_cutoff", policy_cutoff, low=0.0, low_inclusive=True)
    return (check_epsilon(epsilon), check_delta(delta),
            check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH),
            check_int("contribution_limit", contribution_limit, low=1),
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
    offsets = np.cumsum([0] + [index.level(k).n_grams for k in range(1, T + 1)])
    pu = np.concatenate([index.level(k).pair_user for k in range(1, T + 1)]).astype(np.int64)
    pi = np.concatenate([index.level(k).pair_gram.astype(np.int64) + offsets[k - 1] for k in range(1, T + 1)])
    pc = np.concatenate([index.level(k).pair_count for k in range(1, T + 1)])
    released, _ = _dpsu_select(pu, pi, pc, int(offsets[-1]), limit=T * limit, sigma=sigma,
                                threshold=rho, selection=selection, rng=rng, policy=policy,
                                cutoff_alpha=policy_cutoff)
    ids = {k: index.level(k).grams[released[offsets[k - 1]:offsets[k]]] for k in range(1, T + 1)}
    return DpsuBaselineRelease(name="DPSU-all", ids=ids, vocabulary=index.corpus.vocabulary,
                               sigmas={k: sigma for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=T * limit, guarantee=DPNE_GUARANTEE)


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
    return DpsuBaselineRelease(name="DPSU-even", ids=ids, vocabulary=index.corpus.vocabulary,
                               sigmas={k: sigma_k for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=limit, guarantee=DPNE_GUARANTEE)



def _dpsu_each_length(index, T, *, sigma, threshold, limit, selection, rng, policy, policy_cutoff) -> dict:
    """One independent DPSU per length k = 1..T (no pruning): the released k-gram ids per length."""
    ids = {}
    for k in range(1, T + 1):
        lev = index.level(k)
        released, _ = _dpsu_select(lev.pair_user, lev.pair_gram, lev.pair_count, lev.n_grams,
                                   limit=limit, sigma=sigma, threshold=threshold, selection=selection,
                                   rng=rng, policy=policy, cutoff_alpha=policy_cutoff)
        ids[k] = lev.grams[released]
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
    return DpsuBaselineRelease(name="DPSU-single", ids=ids, vocabulary=index.corpus.vocabulary,
                               sigmas={k: sigma for k in ids}, thresholds={k: rho for k in ids},
                               contribution_limit=limit,
                               guarantee="(ε, δ)-DP per user for each length separately — not for all lengths together")


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


def kanonymity_coverage(index: NgramIndex, released_ids: dict, *, ks=DEFAULT_K_VALUES,
                        max_length: int | None = None) -> KAnonymityCoverage:
    """Share of the k-grams used by **at least** K users that ``released_ids`` contains (003 Fig. 4 right).

    Args:
      index: the corpus' :class:`NgramIndex` (same vocabulary as the release: build both from the same
        :class:`TokenCorpus`).
      released_ids: k → ``(n, k)`` token-id rows (``DpneRelease.ids`` or ``DpsuBaselineRelease.ids``).
      ks: the thresholds K (integers ≥ 1). The reference code counts "more than K"; we say "at least".
      max_length: report lengths 1..max_length (default: all lengths of the index).
    """
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    ks = tuple(check_int(f"ks[{i}]", K, low=1) for i, K in enumerate(ks))
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
