"""The valid k-gram space V_k of DPNE and its zero-weight draws (k-grams no user holds that may still be
released, 003 §2.2): enumeration or rejection sampling, keyed so that every prefix is the same."""

from __future__ import annotations

import math

import numpy as np

from ..mechanisms.keyed import STREAM_ZERO_ORDER, STREAM_ZERO_WEIGHT, level_generator
from ..mechanisms.noise import standard_exponential_noise
from ..text.ngrams import NgramIndex, TokenCorpus, encode_corpus, encode_users

_ENUMERATE_LIMIT = 2_000_000  # enumerate V_k explicitly below this size (exact, no rejection loop)


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


_ZERO_CHUNK = 8192  # draws per step of the zero-weight count and order: fixed, so every prefix is the same


def _uniform_count_below(n: int, p: float, gen: np.random.Generator) -> int:
    """N(p) = #{i ≤ n : U_(i) < p} for n i.i.d. uniforms, from the Rényi representation of their order
    statistics, U_(i) = 1 − exp(−Σ_{j≤i} E_j/(n − j + 1)) with E_j i.i.d. exponential: Binomial(n, p) for each
    p, and for several p (one generator) exactly the joint law of thresholding the same n uniforms."""
    t = -math.log1p(-p)  # U < p ⇔ −log(1 − U) < t
    count, total = 0, 0.0
    while count < n:
        m = min(_ZERO_CHUNK, n - count)
        x = total + np.cumsum(
            standard_exponential_noise(size=m, rng=gen) / (n - count - np.arange(m, dtype=np.float64))
        )
        below = int(np.searchsorted(x, t, side="left"))
        count += below
        if below < m:
            break
        total = float(x[-1])
    return count


def zero_weight_draw(
    space: "_ValidSpace", seed: int, k: int, n_zero: int, p_zero: float, support_keys: np.ndarray
) -> np.ndarray:
    """The zero-weight k-grams released at level k, as keys a·width + b of ``space`` (SPEC §4).

    B_k ~ Binomial(|V_k| − |supp H_k|, p_zero) members of V_k \\ supp(H_k), uniformly: the first B_k of one
    uniformly random order of them. B_k comes from the order statistics of n_zero uniforms
    (:func:`dpcore.mechanisms.level_generator` (seed, k)) and the order from a second keyed generator, so for
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
