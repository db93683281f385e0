"""The paper-scale memory paths equal the paths they replaced, exactly (issue 8 item 4).

* :func:`dpcore.text.ngrams.build_ngram_index` stores each k-gram as (prefix id, last token) instead of a token
  row, and ``key_order`` instead of sorted packed keys: the k-gram ids, rows, pairs and lookups must be
  those of the former build (re-implemented literally below as the reference).
* :func:`dpcore.dpne.dpsu_all` (weighted policy) runs level by level in user blocks instead of on the
  concatenation of all lengths' pairs: same draws, same release as the concatenated path (reference below,
  the former code of dpsu_all).
"""

import importlib

import numpy as np
import pytest
from test_ngrams import random_users

from dpcore import dpsu_all
from dpcore.mechanisms.gaussian import gaussian_sigma
from dpcore.text.ngrams import _factorize, build_ngram_index, encode_users, group_by_user

dpne_accounting = importlib.import_module("dpcore.dpne.accounting")
dpne_selection = importlib.import_module("dpcore.dpne.selection")
keyed_mod = importlib.import_module("dpcore.mechanisms.keyed")


def old_build(tc, max_length):
    """The former build_ngram_index: explicit (n_k, k) rows and sorted packed keys per level."""
    V = max(tc.vocabulary_size, 1)
    out = {}
    pos = np.arange(tc.n_tokens, dtype=np.int64)
    gid = tc.tokens.astype(np.int64)
    grams = np.arange(tc.vocabulary_size, dtype=np.int32).reshape(-1, 1)
    for k in range(1, max_length + 1):
        uniq = None
        if k > 1:
            keep = tc.run_left[pos] >= k
            pos, gid = pos[keep], gid[keep]
            key = gid * V + tc.tokens[pos + k - 1]
            new_gid, uniq = _factorize(key)
            prev_rows = grams[uniq // V]
            last = (uniq % V).astype(np.int32).reshape(-1, 1)
            grams = np.hstack([prev_rows, last]) if uniq.size else np.zeros((0, k), dtype=np.int32)
            gid = new_gid
        n_k = grams.shape[0]
        pu, pi, pc, item_keys, _ = group_by_user(tc.user_of[pos].astype(np.int64), gid, n_k, need_positions=False)
        sorted_keys = np.sort(uniq) if uniq is not None else None
        out[k] = dict(
            grams=grams.astype(np.int32),
            pair_user=pu.astype(np.int32),
            pair_gram=item_keys[pi].astype(np.int32),
            pair_count=pc.astype(np.int32),
            user_counts=np.bincount(item_keys[pi], minlength=n_k),
            sorted_keys=sorted_keys,
        )
    return out


def old_dpsu_all(index, *, epsilon, delta, T, limit, selection, rng):
    """The former dpsu_all (weighted policy): one DPSU on the concatenated pairs of lengths 1..T."""
    sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
    rho = dpne_accounting.dpsu_threshold_for_sigma(sigma=sigma, delta=delta, contribution_limit=T * limit)
    offsets = np.cumsum([0] + [index.level(k).n_grams for k in range(1, T + 1)])
    pu = np.concatenate([index.level(k).pair_user for k in range(1, T + 1)]).astype(np.int64)
    pi = np.concatenate([index.level(k).pair_gram.astype(np.int64) + offsets[k - 1] for k in range(1, T + 1)])
    pc = np.concatenate([index.level(k).pair_count for k in range(1, T + 1)])
    released, _ = dpne_selection._dpsu_select(
        pu,
        pi,
        pc,
        int(offsets[-1]),
        limit=T * limit,
        sigma=sigma,
        threshold=rho,
        selection=selection,
        rng=np.random.default_rng(rng),
    )
    return {
        k: index.corpus.decode(index.level(k).grams[released[offsets[k - 1] : offsets[k]]]) for k in range(1, T + 1)
    }


@pytest.mark.parametrize("seed", range(10))
def test_index_equals_the_former_build(seed):
    rng = np.random.default_rng(seed)
    users = random_users(rng, n_users=int(rng.integers(1, 40)), vocab=int(rng.integers(1, 8)), max_len=9)
    T = int(rng.integers(1, 8))
    tc = encode_users(users)
    new, old = build_ngram_index(tc, T), old_build(tc, T)
    for k in range(1, T + 1):
        lev, ref = new.level(k), old[k]
        assert np.array_equal(lev.grams, ref["grams"]), f"k={k}"  # same ids, same rows
        for name in ("pair_user", "pair_gram", "pair_count", "user_counts"):
            assert np.array_equal(getattr(lev, name), ref[name]), (k, name)
        if lev.n_grams:
            ids = rng.integers(0, lev.n_grams, size=2 * lev.n_grams)
            assert np.array_equal(lev.rows(ids), ref["grams"][ids])
            assert np.array_equal(new.lookup(ref["grams"]), np.arange(lev.n_grams))
        if k > 1:
            assert np.array_equal(lev.packed_keys()[lev.key_order], ref["sorted_keys"])
            # rows absent from the corpus are not found
            absent = rng.integers(0, tc.vocabulary_size + 2, size=(30, k))
            known = {tuple(r) for r in ref["grams"].tolist()}
            expect = np.array([tuple(r) in known for r in absent.tolist()])
            assert np.array_equal(new.lookup(absent) >= 0, expect)


@pytest.mark.parametrize("block", [1, 3, 4096])
@pytest.mark.parametrize("selection", ["random", "most-frequent"])
@pytest.mark.parametrize("seed", range(8))
def test_dpsu_all_equals_the_concatenated_path(seed, selection, block, monkeypatch):
    monkeypatch.setattr(dpne_selection, "_BLOCK_USERS", block)
    rng = np.random.default_rng(100 + seed)
    users = random_users(
        rng, n_users=int(rng.integers(1, 40)), vocab=int(rng.integers(2, 6)), max_sentences=6, max_len=9
    )
    index = build_ngram_index(users, 5)
    T = int(rng.integers(1, 6))
    limit = int(rng.integers(1, 6))
    # ε large and δ moderate so that the release is neither empty nor everything
    kw = dict(epsilon=float(rng.choice([2.0, 8.0, 30.0])), delta=1e-3)
    new = dpsu_all(index, **kw, max_length=T, contribution_limit=limit, selection=selection, rng=seed)
    old = old_dpsu_all(index, **kw, T=T, limit=limit, selection=selection, rng=seed)
    assert {k: set(v) for k, v in new.ngrams.items()} == old


def test_dpsu_all_equal_paths_release_something():
    """The comparison above is not vacuous: on a corpus with shared phrases both paths release k-grams."""
    users = [[["the", "cat", "sat", "on", "the", "mat"], [f"u{u}", "x", "y"]] for u in range(60)]
    index = build_ngram_index(users, 4)
    new = dpsu_all(index, epsilon=8.0, delta=1e-3, max_length=4, contribution_limit=2, rng=5)
    old = old_dpsu_all(index, epsilon=8.0, delta=1e-3, T=4, limit=2, selection="random", rng=5)
    assert {k: set(v) for k, v in new.ngrams.items()} == old
    assert sum(len(v) for v in old.values()) > 0


def old_noisy_release(hist, sigma, threshold, rng, noise=None):
    """The former noise step of _dpsu_select: one draw for the whole support."""
    support = hist > 0
    released = np.zeros(hist.size, dtype=bool)
    supp_idx = np.flatnonzero(support)
    z = rng.standard_normal(supp_idx.size) if noise is None else noise(supp_idx)
    released[supp_idx[hist[supp_idx] + sigma * z > threshold]] = True
    return released, support


@pytest.mark.parametrize("block", [1, 3, 64, 1 << 22])
@pytest.mark.parametrize("seed", range(5))
def test_blockwise_noise_equals_one_draw(seed, block, monkeypatch):
    monkeypatch.setattr(dpne_selection, "_NOISE_BLOCK", block)
    gen = np.random.default_rng(seed)
    hist = np.where(gen.random(200) < 0.4, 0.0, gen.random(200) * 3)
    keys = gen.integers(0, 2**63, size=200).astype(np.uint64)
    noise = lambda idx: keyed_mod.keyed_normal(seed, keys[idx], stream=keyed_mod.STREAM_NOISE, k=2)
    for nz in (None, noise):
        new = dpne_selection._noisy_release(hist, 1.0, 1.5, np.random.default_rng(seed), nz)
        old = old_noisy_release(hist, 1.0, 1.5, np.random.default_rng(seed), nz)
        assert np.array_equal(new[0], old[0]) and np.array_equal(new[1], old[1])
        assert 0 < new[0].sum() < (hist > 0).sum()  # neither nothing nor everything: the comparison bites
