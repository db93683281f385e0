"""Keyed draws (dpcore.mechanisms.keyed): Philox4x64-10 as numpy's, N(0, 1) noise, independence, order invariance."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from dpcore import dpne_extract
from dpcore.mechanisms.keyed import (
    STREAM_NOISE,
    STREAM_SELECT,
    fold_keys,
    keyed_normal,
    keyed_uniform,
    philox4x64,
    row_keys,
    seed_key,
    text_key,
    token_keys,
)
from dpcore.text.ngrams import TokenCorpus, encode_users


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
def test_philox_matches_numpy_philox(seed):
    key = seed_key(seed)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        ctr = rng.integers(0, 2**63, size=4, dtype=np.uint64)
        bg = np.random.Philox(counter=ctr, key=key[0] | (key[1] << 64))
        expected = bg.random_raw(4)  # numpy increments the counter, then encrypts it
        ours = philox4x64([np.array([ctr[0] + np.uint64(1)]), ctr[1:2], ctr[2:3], ctr[3:4]], key)
        assert [int(w[0]) for w in ours] == [int(x) for x in expected]


def test_keyed_normal_is_standard_normal_and_independent_across_items():
    n = 200_000
    keys = np.arange(n, dtype=np.uint64)  # consecutive keys: the hardest case for a weak hash
    z = keyed_normal(3, keys, stream=STREAM_NOISE, k=2)
    assert stats.kstest(z, "norm").pvalue > 1e-3
    assert abs(z.mean()) < 5 / np.sqrt(n) and abs(z.var() - 1) < 5 * np.sqrt(2 / n)
    # neighbours, other lengths, other streams and other seeds are uncorrelated
    bound = 5 / np.sqrt(n)
    assert abs(np.corrcoef(z[:-1], z[1:])[0, 1]) < bound
    for other in (
        keyed_normal(3, keys, stream=STREAM_NOISE, k=3),
        keyed_normal(4, keys, stream=STREAM_NOISE, k=2),
        keyed_normal(3, keys, stream=STREAM_SELECT, k=2),
    ):
        assert abs(np.corrcoef(z, other)[0, 1]) < bound
    # pairs of neighbours fall evenly into a 10×10 grid of quantile cells (joint independence)
    u = stats.norm.cdf(z)
    cells = np.minimum((u[0::2] * 10).astype(int), 9) * 10 + np.minimum((u[1::2] * 10).astype(int), 9)
    counts = np.bincount(cells, minlength=100)
    assert stats.chisquare(counts).pvalue > 1e-3
    # a function of (seed, key) only: same answer in any order
    perm = np.random.default_rng(0).permutation(n)
    np.testing.assert_array_equal(keyed_normal(3, keys[perm], stream=STREAM_NOISE, k=2), z[perm])


def test_keyed_uniform_two_keys_in_open_interval():
    u = keyed_uniform(1, np.arange(50_000, dtype=np.uint64), np.full(50_000, 9, dtype=np.uint64), stream=2, k=1)
    assert (u > 0).all() and (u < 1).all()
    assert stats.kstest(u, "uniform").pvalue > 1e-3


def test_ngram_keys_fold_tokens_and_ignore_encoding_order():
    words = ["the", "cat", "sat", "ünïcode"]
    tk = token_keys(words)
    assert tk.dtype == np.uint64 and len(set(tk.tolist())) == 4
    assert int(tk[0]) == int(token_keys(["the"])[0])  # stable across calls
    rows = np.array([[tk[0], tk[1], tk[2]], [tk[1], tk[0], tk[2]]], dtype=np.uint64)
    h = row_keys(rows)
    assert h[0] != h[1]  # order of tokens matters
    assert h[0] == fold_keys(fold_keys(fold_keys(None, tk[:1]), tk[1:2]), tk[2:3])[0]
    assert text_key("user-1") == text_key("user-1") != text_key("user-2")


def _users(seed, n_users=120):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(25)]
    phrases = [[words[j] for j in rng.integers(0, 25, size=int(rng.integers(3, 7)))] for _ in range(30)]
    return [[phrases[j] for j in rng.integers(0, 30, size=int(rng.integers(3, 9)))] for _ in range(n_users)]


@pytest.mark.parametrize("pruning", ["both", "single"])
def test_dpne_release_is_invariant_to_user_order_and_token_encoding(pruning):
    """What makes the two engines agree: the release depends on (seed, user ids, texts), not on order."""
    users = _users(5)
    kw = dict(epsilon=6, delta=1e-6, max_length=5, contribution_limit=4, eta=0.3, pruning=pruning)
    base = encode_users(users)
    ref = dpne_extract(base, rng=11, **kw).ngrams
    perm = np.random.default_rng(1).permutation(len(users))
    shuffled = encode_users([users[i] for i in perm])  # other user order, other token ids
    keyed = TokenCorpus(
        tokens=shuffled.tokens,
        run_left=shuffled.run_left,
        user_of=shuffled.user_of,
        vocabulary=shuffled.vocabulary,
        n_users=shuffled.n_users,
        user_keys=base.user_key_array[perm],
    )
    assert dpne_extract(keyed, rng=11, **kw).ngrams == ref
    assert sum(len(v) for k, v in ref.items() if k >= 2) > 0  # the check covers longer n-grams
    # the user ids matter (they key the contribution limit), and so does the seed
    assert any(dpne_extract(shuffled, rng=s, **kw).ngrams != dpne_extract(keyed, rng=s, **kw).ngrams for s in range(4))
