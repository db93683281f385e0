"""The fast paths of the Bayesian n-gram DP page equal the implementations they replaced.

The per-user caps (strict mode's L items, the Laplace baselines' W tokens) and the n-gram counting
were rewritten for the paper-size corpus; the old code is kept here verbatim as the reference, and
every result must be identical (same matrices, same rng stream), not merely close.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from dpcore.bayesian import cap_user_items, check_count_matrix
from dpcore.bayesian.baselines import cap_user_totals
from dpcore.bayesian.statistics import smallest_keys_per_row
from dpcore.validation import check_rng


# ------------------------------------------------------------------------------ the old implementations
def old_cap_user_items(user_counts, *, max_items, rng):
    rng = check_rng(rng)
    m = check_count_matrix(user_counts)
    lengths = np.diff(m.indptr)
    if lengths.size == 0 or lengths.max() <= max_items:
        return m
    keys = rng.random(m.nnz)
    rows = np.repeat(np.arange(m.shape[0]), lengths)
    order = np.lexsort((keys, rows))  # by row, then by key: rows stay contiguous
    rank = np.arange(m.nnz) - np.repeat(m.indptr[:-1], lengths)
    keep = np.zeros(m.nnz, dtype=bool)
    keep[order[rank < max_items]] = True
    out = sp.csr_matrix(
        (m.data[keep], m.indices[keep], np.concatenate(([0], np.cumsum(np.minimum(lengths, max_items))))), shape=m.shape
    )
    return out


def old_cap_user_totals(user_counts, *, W, rng):
    rng = check_rng(rng)
    m = check_count_matrix(user_counts)
    totals = np.asarray(m.sum(axis=1)).ravel()
    over = np.flatnonzero(totals > W)
    if over.size == 0:
        return m
    sub = m[over]
    counts = sub.data.astype(np.int64)
    token_col = np.repeat(sub.indices, counts)
    token_row = np.repeat(np.repeat(np.arange(over.size), np.diff(sub.indptr)), counts)
    keys = rng.random(token_col.size)
    order = np.argsort(token_row + keys, kind="stable")
    starts = np.concatenate(([0], np.cumsum(totals[over].astype(np.int64))[:-1]))
    rank = np.arange(token_col.size) - np.repeat(starts, totals[over].astype(np.int64))
    keep = order[rank < W]
    kept = sp.coo_matrix((np.ones(keep.size), (over[token_row[keep]], token_col[keep])), shape=m.shape).tocsr()
    under = np.ones(m.shape[0], dtype=bool)
    under[over] = False
    out = sp.diags(under.astype(float)) @ m + kept
    out = sp.csr_matrix(out)
    out.sum_duplicates()
    out.eliminate_zeros()
    return out


def _same(a, b):
    a, b = sp.csr_matrix(a), sp.csr_matrix(b)
    a.sort_indices()
    b.sort_indices()
    return (
        a.shape == b.shape
        and np.array_equal(a.indptr, b.indptr)
        and np.array_equal(a.indices, b.indices)
        and np.array_equal(a.data, b.data)
    )


def _random_counts(rng, users, v, heavy):
    """Counts with a heavy tail of users (a few with hundreds of tokens), as in a real corpus."""
    dense = rng.integers(0, 4, size=(users, v)) * (rng.random((users, v)) < rng.uniform(0.05, 0.9))
    if heavy:
        dense[rng.integers(0, users, size=max(1, users // 10))] *= rng.integers(5, 60)
    return sp.csr_matrix(dense)


# ------------------------------------------------------------------------------ equal to the old code
@pytest.mark.parametrize("seed", range(40))
def test_cap_user_totals_equals_the_old_implementation(seed):
    rng = np.random.default_rng(seed)
    m = _random_counts(rng, int(rng.integers(1, 60)), int(rng.integers(2, 40)), heavy=seed % 2 == 0)
    for W in (1, 2, 3, 7, 50):
        s = int(rng.integers(0, 2**31))
        g_new, g_old = np.random.default_rng(s), np.random.default_rng(s)
        assert _same(cap_user_totals(m, W=W, rng=g_new), old_cap_user_totals(m, W=W, rng=g_old)), (seed, W)
        assert g_new.random() == g_old.random()  # the same number of draws: later noise is unchanged


@pytest.mark.parametrize("seed", range(40))
def test_cap_user_items_equals_the_old_implementation(seed):
    rng = np.random.default_rng(100 + seed)
    m = _random_counts(rng, int(rng.integers(1, 60)), int(rng.integers(2, 80)), heavy=False)
    for L in (1, 2, 5, 20, 100):
        s = int(rng.integers(0, 2**31))
        g_new, g_old = np.random.default_rng(s), np.random.default_rng(s)
        assert _same(cap_user_items(m, max_items=L, rng=g_new), old_cap_user_items(m, max_items=L, rng=g_old)), (
            seed,
            L,
        )
        assert g_new.random() == g_old.random()


@pytest.mark.parametrize("seed", range(30))
def test_smallest_keys_per_row_is_the_first_k_of_a_stable_sort_even_with_ties(seed):
    """Keys with many exact ties (a few distinct values) and rows of every length: the result is the
    first k of each row in a stable sort by row + key, ties by position."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 40, size=int(rng.integers(1, 30)))
    row_start = np.concatenate(([0], np.cumsum(lengths)))
    levels = int(rng.choice([2, 5, 1000, 2**40]))
    keys = rng.integers(0, levels, size=int(row_start[-1])) / levels
    rows = np.repeat(np.arange(lengths.size), lengths)
    for k in (1, 2, 3, 10):
        pos, row = smallest_keys_per_row(keys, row_start, k)
        order = np.argsort(rows + keys, kind="stable")
        rank = np.arange(keys.size) - np.repeat(row_start[:-1], lengths)
        expect = np.sort(order[rank < k])
        assert np.array_equal(pos, expect), (seed, k)
        assert np.array_equal(row, rows[expect])


def test_smallest_keys_per_row_with_float_ties_of_row_plus_key():
    """row + key rounds: keys that differ below the float spacing at the row tie in row + key, and the
    stable sort then keeps them by position — so must the fast path."""
    n_rows = 200_000
    lengths = np.zeros(n_rows, dtype=np.int64)
    lengths[-3:] = 6
    row_start = np.concatenate(([0], np.cumsum(lengths)))
    eps = np.spacing(float(n_rows))  # spacing of floats near the last rows
    keys = np.array([0.5 + eps / 8, 0.5, 0.5 + eps / 4, 0.9, 0.1, 0.1 + eps / 16] * 3)
    rows = np.repeat(np.arange(n_rows), lengths)
    for k in (1, 2, 3):
        pos, _ = smallest_keys_per_row(keys, row_start, k)
        order = np.argsort(rows + keys, kind="stable")
        rank = np.arange(keys.size) - np.repeat(row_start[:-1], lengths)
        assert np.array_equal(pos, np.sort(order[rank < k]))


# ------------------------------------------------------------------------------ n-gram counting
from dpcore.text import Corpus, Document, corpus_from_token_arrays  # noqa: E402 (this section's imports, kept beside its tests)
from dpcore.text.counts import _ngram_counts_python, ngram_counts  # noqa: E402 (this section's imports, kept beside its tests)


def _random_corpus(rng, n_users, alphabet, name, as_arrays):
    """Random users of random documents of random sentences (some of one token, shorter than n)."""
    words = [f"w{i}" for i in range(alphabet)] + ["Zed", "ab", "a b"]  # mixed case, a space inside a token
    if as_arrays:
        toks, so, do, uo = [], [0], [0], [0]
        for _ in range(n_users):
            for _ in range(int(rng.integers(0, 3))):
                for _ in range(int(rng.integers(1, 4))):
                    toks += rng.integers(0, len(words), size=int(rng.integers(1, 7))).tolist()
                    so.append(len(toks))
                do.append(len(so) - 1)
            uo.append(len(do) - 1)
        return corpus_from_token_arrays(words, np.asarray(toks, dtype=np.int32), so, do, uo, name=name)
    users = tuple(
        tuple(
            Document(
                sentences=tuple(
                    tuple(rng.choice(words, size=int(rng.integers(1, 7))).tolist())
                    for _ in range(int(rng.integers(1, 4)))
                )
            )
            for _ in range(int(rng.integers(0, 3)))
        )
        for _ in range(n_users)
    )
    return Corpus(user_ids=tuple(f"{name}{u}" for u in range(n_users)), users=users, name=name)


def _same_counts(a, b):
    ma, mb = a.user_counts, b.user_counts
    return (
        a.n == b.n
        and a.vocabulary == b.vocabulary
        and np.array_equal(a.public_counts, b.public_counts)
        and a.dropped_tokens == b.dropped_tokens
        and a.user_ids == b.user_ids
        and ma.shape == mb.shape
        and ma.dtype == mb.dtype
        and np.array_equal(ma.indptr, mb.indptr)
        and np.array_equal(ma.indices, mb.indices)
        and np.array_equal(ma.data, mb.data)
        and a.private_hash == b.private_hash
        and a.public_hash == b.public_hash
    )


@pytest.mark.parametrize("seed", range(30))
def test_ngram_counts_equals_the_dict_lookup_per_token(seed):
    """The vectorised counting (token ids, int64 keys) gives exactly the old per-token dict lookup's
    result: vocabulary order (count desc, then alphabetical), α, counts, dropped n-grams."""
    rng = np.random.default_rng(seed)
    alphabet = int(rng.choice([2, 5, 30]))
    pub = _random_corpus(rng, int(rng.integers(1, 12)), alphabet, "p", as_arrays=seed % 2 == 0)
    prv = _random_corpus(rng, int(rng.integers(1, 15)), alphabet + 3, "u", as_arrays=seed % 3 == 0)
    for n in (1, 2, 3):
        for max_vocabulary in (None, 2, 5):
            try:
                old = _ngram_counts_python(prv, pub, n, max_vocabulary)
            except ValueError as e:
                with pytest.raises(ValueError, match=str(e)[:30]):
                    ngram_counts(prv, pub, n=n, max_vocabulary=max_vocabulary)
                continue
            assert _same_counts(ngram_counts(prv, pub, n=n, max_vocabulary=max_vocabulary), old), (seed, n)


def test_ngram_counts_on_the_classroom_corpus_equals_the_dict_lookup():
    from dpcore.text import load_sample_corpus

    prv, pub = load_sample_corpus("private"), load_sample_corpus("public")
    for n in (1, 2, 3):
        assert _same_counts(ngram_counts(prv, pub, n=n), _ngram_counts_python(prv, pub, n, None)), n
