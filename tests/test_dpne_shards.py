"""DPNE with users taken shard by shard (bounded memory, issue 12): same release as one shard."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpcore.dpne import dpne_with_evaluation
from dpcore.text.ngrams import encode_users

dpne_release = importlib.import_module("dpcore.dpne.release")
dpne_shards = importlib.import_module("dpcore.dpne.shards")


def _users(seed, n_users=150):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(20)]
    phrases = [[words[j] for j in rng.integers(0, 20, size=int(rng.integers(2, 7)))] for _ in range(40)]
    users = [[phrases[j] for j in rng.integers(0, 40, size=int(rng.integers(1, 8)))] for _ in range(n_users)]
    users[3] = [phrases[j] for j in rng.integers(0, 40, size=60)]  # one user bigger than a shard
    users[7] = []  # one without text
    return users


@pytest.mark.parametrize("size", [1, 37, 500])
def test_shard_bounds_cover_positions_and_never_split_a_user(size):
    tc = encode_users(_users(0))
    user_start = np.searchsorted(tc.user_of, np.arange(tc.n_users + 1))
    rng = np.random.default_rng(size)
    for pos in (None, np.sort(rng.choice(tc.n_tokens, size=tc.n_tokens // 2, replace=False))):
        n = tc.n_tokens if pos is None else pos.size
        bounds = dpne_shards._shard_bounds(pos, tc, user_start, size)
        assert bounds[0][0] == 0 and bounds[-1][1] == n
        assert all(b0 == a1 for (_, a1), (b0, _) in zip(bounds[:-1], bounds[1:]))
        users = tc.user_of if pos is None else tc.user_of[pos]
        for a, _b in bounds[1:]:
            assert users[a] != users[a - 1]  # a cut falls between two users
        assert len(bounds) > 1


@pytest.mark.parametrize(
    "pruning, selection", [("both", "random"), ("single", "most-frequent"), ("both", "most-frequent")]
)
def test_sharded_dpne_releases_the_same_sets(monkeypatch, pruning, selection):
    tc = encode_users(_users(1))
    kw = dict(epsilon=6, delta=1e-6, max_length=6, contribution_limit=4, eta=0.3, pruning=pruning, selection=selection)
    whole = [dpne_with_evaluation(tc, rng=s, **kw) for s in range(3)]
    monkeypatch.setattr(dpne_release, "_SHARD_POSITIONS", 53)
    for s in range(3):
        part, part_ev = dpne_with_evaluation(tc, rng=s, **kw)
        assert part.ngrams == whole[s].release.ngrams
        assert part.valid_counts == whole[s].release.valid_counts
        assert [d.supported for d in part_ev.levels] == [d.supported for d in whole[s].evaluation.levels]
    assert sum(len(v) for k, v in whole[0].release.ngrams.items() if k >= 3) > 0
