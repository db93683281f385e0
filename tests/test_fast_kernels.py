"""The compiled keyed kernels (dpcore.dpne._dpne_kernel, numba) equal the numpy paths bit for bit.

* Philox4x64-10 and the keyed uniforms: the same uint64 words / the same float64 bits.
* The per-user contribution-limit selection: the same dropped pairs as the stable lexsort, ties
  included (random and most-frequent selection).
* DPNE and DPSU-all release the same sets with the kernels on and forced off (``DPCORE_DPNE_KERNEL=numpy``).
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import dpcore
from dpcore.mechanisms import keyed
from dpcore.mechanisms.keyed import STREAM_SELECT, keyed_uniform, philox4x64, seed_key

pytest.importorskip("numba")
_ranking_mod = importlib.import_module("dpcore._ranking")
dpne_release = importlib.import_module("dpcore.dpne.release")
dpne_selection = importlib.import_module("dpcore.dpne.selection")


@pytest.fixture
def kernel_switch(monkeypatch):
    """set(on): run the next calls with the compiled kernels (True) or the numpy paths (False)."""

    def set_(on: bool):
        if on:
            monkeypatch.delenv("DPCORE_DPNE_KERNEL", raising=False)
            assert keyed.kernel() is not None
        else:
            monkeypatch.setenv("DPCORE_DPNE_KERNEL", "numpy")
            assert keyed.kernel() is None

    return set_


def both(kernel_switch, fn):
    kernel_switch(True)
    fast = fn()
    kernel_switch(False)
    return fast, fn()


def test_philox_words_equal(kernel_switch):
    rng = np.random.default_rng(0)
    edge = np.array([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1], dtype=np.uint64)
    for n in (0, 1, 2, 7, 1000):
        ctr = [rng.integers(0, 2**64, size=n, dtype=np.uint64, endpoint=False) for _ in range(4)]
        key = tuple(int(x) for x in rng.integers(0, 2**64, size=2, dtype=np.uint64))
        fast, slow = both(kernel_switch, lambda: philox4x64(ctr, key))
        assert len(fast) == 4 and all(f.dtype == np.uint64 and f.shape == (n,) for f in fast)
        for f, s in zip(fast, slow):
            np.testing.assert_array_equal(f, s)
    # extreme words in every position, every extreme key, and broadcasting (one scalar word)
    grid = np.meshgrid(edge, edge, edge, indexing="ij")
    for key in [(0, 0), (2**64 - 1, 2**64 - 1), (1, 2**63)]:
        ctr = [g.ravel() for g in grid] + [np.uint64(2**64 - 1)]
        fast, slow = both(kernel_switch, lambda: philox4x64(ctr, key))
        for f, s in zip(fast, slow):
            assert f.shape == (edge.size**3,)
            np.testing.assert_array_equal(f, s)


def test_philox_kernel_matches_numpy_philox(kernel_switch):
    kernel_switch(True)
    key = seed_key(11)
    ctr = np.array([5, 2**64 - 1, 3, 2**40], dtype=np.uint64)
    expected = np.random.Philox(counter=ctr, key=key[0] | (key[1] << 64)).random_raw(4)
    ours = philox4x64([np.array([ctr[0] + np.uint64(1)]), ctr[1:2], ctr[2:3], ctr[3:4]], key)
    assert [int(w[0]) for w in ours] == [int(x) for x in expected]


@pytest.mark.parametrize(
    "a_shape,b_shape",
    [
        ((), None),
        ((0,), None),
        ((1,), None),
        ((9,), None),
        ((9,), ()),
        ((), (9,)),
        ((0,), (1,)),
        ((1,), (0,)),
        ((3, 1), (1, 4)),
        ((2, 5), (2, 5)),
        ((4,), (3, 4)),
    ],
)
def test_keyed_uniform_bits_equal(kernel_switch, a_shape, b_shape):
    rng = np.random.default_rng(len(a_shape) * 7 + sum(a_shape))
    a = rng.integers(0, 2**64, size=a_shape, dtype=np.uint64)
    b = None if b_shape is None else rng.integers(0, 2**64, size=b_shape, dtype=np.uint64)
    for seed, stream, k in [(0, STREAM_SELECT, 1), (2**62 + 5, 3, 9)]:
        fast, slow = both(kernel_switch, lambda: keyed_uniform(seed, a, b, stream=stream, k=k))
        assert fast.shape == slow.shape and fast.dtype == slow.dtype == np.float64
        np.testing.assert_array_equal(fast.view(np.uint64), slow.view(np.uint64))
        assert ((fast > 0) & (fast < 1)).all()


def _random_pairs(rng, n_users, limit):
    """Pairs of users with 0..3·limit items each, priorities with many ties, counts with many ties."""
    sizes = rng.integers(0, 3 * limit + 1, size=n_users)
    user = np.repeat(np.arange(n_users), sizes)
    n = user.size
    tie_level = rng.integers(1, 6)  # a few distinct values: ties everywhere
    r = (rng.integers(0, tie_level, size=n) + 0.5) / tie_level if rng.random() < 0.5 else rng.random(n)
    count = rng.integers(1, rng.integers(2, 5), size=n)
    return user, r, count


def _lexsort_drops(user, r, count, limit):
    """The reference: ranks in the stable lexsort order, written out independently of dpcore."""
    keys = (r, user) if count is None else (-r, -count.astype(np.int64), user)
    order = np.lexsort(keys)
    drops, seen = [], {}
    for i in order:
        seen[user[i]] = seen.get(user[i], 0) + 1
        if seen[user[i]] > limit:
            drops.append(i)
    return np.sort(np.array(drops, dtype=np.int64))


@pytest.mark.parametrize("most_frequent", [False, True])
def test_ranked_drops_equal_lexsort(kernel_switch, most_frequent):
    rng = np.random.default_rng(5 + most_frequent)
    cases = 0
    for trial in range(400):
        limit = int(rng.integers(1, 6))
        n_users = int(rng.integers(0, 6))
        user, r, count = _random_pairs(rng, n_users, limit)
        if trial % 3 == 1:  # users not grouped: the kernel must regroup them stably
            perm = rng.permutation(user.size)
            user, r, count = user[perm], r[perm], count[perm]
        c = count if most_frequent else None
        expected = _lexsort_drops(user, r, c, limit)
        fast, slow = both(kernel_switch, lambda: _ranking_mod.ranked_drops(user, r, c, limit))
        np.testing.assert_array_equal(np.sort(fast), expected)
        np.testing.assert_array_equal(np.sort(slow), expected)
        cases += expected.size > 0
    assert cases > 200  # most cases drop something


def test_ranked_drops_edge_cases(kernel_switch):
    kernel_switch(True)
    drops = _ranking_mod.ranked_drops
    empty = np.zeros(0, dtype=np.int64)
    assert drops(empty, np.zeros(0), None, 3).size == 0
    assert drops(empty, np.zeros(0), empty, 3).size == 0
    # one user, all priorities equal: the first `limit` positions stay (stable order)
    user = np.zeros(6, dtype=np.int64)
    np.testing.assert_array_equal(drops(user, np.full(6, 0.5), None, 2), [2, 3, 4, 5])
    np.testing.assert_array_equal(drops(user, np.full(6, 0.5), np.ones(6, dtype=np.int64), 2), [2, 3, 4, 5])
    # most-frequent: the two highest counts stay whatever their priority; a count tie goes to the higher r
    r = np.array([0.9, 0.1, 0.2, 0.8, 0.3, 0.3])
    count = np.array([1, 5, 2, 2, 1, 9])
    np.testing.assert_array_equal(drops(user, r, count, 2), [0, 2, 3, 4])
    np.testing.assert_array_equal(drops(user, r, count, 3), [0, 2, 4])
    # every user under the limit: nothing dropped
    assert drops(np.repeat(np.arange(4), 3), np.linspace(0.1, 0.9, 12), None, 3).size == 0


@pytest.mark.parametrize("selection", ["random", "most-frequent"])
def test_kept_pairs_equal(kernel_switch, selection):
    rng = np.random.default_rng(17)
    for _ in range(50):
        limit = int(rng.integers(1, 5))
        user, r, count = _random_pairs(rng, int(rng.integers(0, 8)), limit)
        item = rng.integers(0, 20, size=user.size)
        fast, slow = both(
            kernel_switch,
            lambda: dpne_selection._kept_pairs(user, item, count, limit, selection, None, priority=lambda idx: r[idx]),
        )
        for f, s in zip(fast, slow):
            np.testing.assert_array_equal(f, s)


@pytest.fixture(scope="module")
def classroom():
    return dpcore.text.encode_users(dpcore.load_sample_corpus("private").user_sentences())


@pytest.mark.parametrize(
    "selection,limit,policy", [("random", 5, "weighted"), ("most-frequent", 3, "weighted"), ("random", 2, "policy")]
)
def test_dpne_same_release_with_and_without_kernels(kernel_switch, classroom, selection, limit, policy):
    kw = dict(
        epsilon=4,
        delta=1e-6,
        max_length=5,
        contribution_limit=limit,
        eta=0.05,
        selection=selection,
        policy=policy,
        rng=3,
    )
    fast, slow = both(kernel_switch, lambda: dpcore.dpne.dpne_with_evaluation(classroom, **kw).release)
    assert fast.ngrams == slow.ngrams
    assert fast.thresholds == slow.thresholds and fast.valid_counts == slow.valid_counts
    assert sum(len(v) for v in fast.ngrams.values()) > 50  # a real release, not an empty one


@pytest.mark.parametrize("selection", ["random", "most-frequent"])
def test_dpne_shards_same_release_with_and_without_kernels(kernel_switch, classroom, selection, monkeypatch):
    """The sharded path (several shards of users per level) too."""
    monkeypatch.setattr(dpne_release, "_SHARD_POSITIONS", 5000)
    kw = dict(epsilon=4, delta=1e-6, max_length=4, contribution_limit=4, eta=0.05, selection=selection, rng=8)
    fast, slow = both(kernel_switch, lambda: dpcore.dpne_extract(classroom, **kw))
    assert fast.ngrams == slow.ngrams and len(fast.ngrams[2]) > 0


@pytest.mark.parametrize("selection", ["random", "most-frequent"])
def test_dpsu_all_same_release_with_and_without_kernels(kernel_switch, classroom, selection):
    """DPSU-all's level-by-level selection (users not grouped across levels) uses the same kernel."""
    kw = dict(epsilon=4, delta=1e-6, max_length=4, contribution_limit=4, selection=selection)
    fast, slow = both(kernel_switch, lambda: dpcore.dpsu_all(classroom, rng=np.random.default_rng(2), **kw))
    assert fast.ngrams == slow.ngrams and sum(len(v) for v in fast.ngrams.values()) > 0
