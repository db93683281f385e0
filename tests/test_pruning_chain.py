"""dpcore.dpne.pruning_chain: why DPNE finds or misses the popular k-grams (the measured reason beside 003 Table 4).

A worked example by hand, a brute-force recomputation with Python sets on random small corpora, and the
parameter checks.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpcore import build_ngram_index, dpne_extract
from dpcore.dpne import DpneRelease, dpsu_threshold, pruning_chain


def _release(ngrams, *, limit=1, epsilon=1.0, delta=1e-5, pruning="both"):
    T = max(ngrams)
    return DpneRelease(
        ngrams={k: frozenset(v) for k, v in ngrams.items()},
        sigma=1.0,
        sigmas={k: 1.0 for k in ngrams},
        thresholds={k: 10.0 + k for k in ngrams},
        valid_counts={k: 0 for k in ngrams if k > 1},
        epsilon=epsilon,
        delta=delta,
        max_length=T,
        contribution_limit=limit,
        eta=0.01,
        noise_decay=1.0,
        pruning=pruning,
        selection="random",
        policy="weighted",
        policy_cutoff=2.0,
    )


def test_worked_example():
    # users 0 and 1 write "a b c", user 2 "a b d"; Δ0 = 1, K = 2
    index = build_ngram_index([[["a", "b", "c"]], [["a", "b", "c"]], [["a", "b", "d"]]], 3)
    rel = _release({1: {("a",), ("b",), ("c",), ("d",)}, 2: {("a", "b"), ("b", "c")}, 3: set()})
    rows = {r["k"]: r for r in pruning_chain(index, rel, K=2).rows}
    # k = 2: popular = {ab (3 users), bc (2)}, all candidates; each user holds 2 bigrams and keeps Δ0 = 1 of them:
    # expected weight 1/2 each → H(ab) = 1.5, H(bc) = 1.0 under both policies (nothing pruned at k = 2)
    assert rows[2]["popular"] == 2 and rows[2]["valid"] == 1.0 and rows[2]["released"] == 1.0
    assert rows[2]["weight_dpne"] == pytest.approx(1.25) and rows[2]["weight_single"] == pytest.approx(1.25)
    assert rows[2]["gain"] == pytest.approx(1.0)
    # k = 3: popular = {abc} (users 0, 1), a candidate (ab, bc released), not released; one trigram per user
    assert rows[3]["popular"] == 1 and rows[3]["valid"] == 1.0 and rows[3]["released"] == 0.0
    assert rows[3]["weight_dpne"] == pytest.approx(2.0) and rows[3]["weight_single"] == pytest.approx(2.0)
    assert rows[3]["threshold_dpne"] == 13.0
    assert rows[3]["threshold_single"] == pytest.approx(
        dpsu_threshold(epsilon=1.0, delta=1e-5, contribution_limit=1)[1]
    )
    # without "b c" in S_2, abc is no candidate: DPNE cannot release it whatever its count
    rows = {
        r["k"]: r
        for r in pruning_chain(
            index, _release({1: {("a",), ("b",), ("c",), ("d",)}, 2: {("a", "b")}, 3: set()}), K=2
        ).rows
    }
    assert rows[3]["valid"] == 0.0 and np.isnan(rows[3]["weight_dpne"]) and rows[3]["weight_single"] == 2.0
    # single-side pruning only asks for the prefix
    rows = {
        r["k"]: r
        for r in pruning_chain(
            index, _release({1: {("a",), ("b",), ("c",), ("d",)}, 2: {("a", "b")}, 3: set()}, pruning="single"), K=2
        ).rows
    }
    assert rows[3]["valid"] == 1.0


def _brute(users, rel, K, limit):
    """The same rows with Python sets, straight from the definitions."""
    T = max(rel.thresholds)
    out = []
    for k in range(1, T + 1):
        G = [{tuple(s[i : i + k]) for s in u for i in range(len(s) - k + 1)} for u in users]
        users_of = {}
        for u, g in enumerate(G):
            for x in g:
                users_of.setdefault(x, set()).add(u)
        popular = {x for x, us in users_of.items() if len(us) >= K}
        prev = rel.ngrams.get(k - 1, frozenset())
        if k == 1:
            valid = set(users_of)
        elif rel.pruning == "both":
            valid = {x for x in users_of if x[:-1] in prev and x[1:] in prev}
        else:
            valid = {x for x in users_of if x[:-1] in prev}

        def H(keep):
            h = {}
            for g in G:
                c = [x for x in g if keep(x)]
                n = len(c)
                for x in c:
                    h[x] = h.get(x, 0.0) + min(1.0, limit / n) / np.sqrt(min(n, limit))
            return h

        hd, hs = H(lambda x: x in valid), H(lambda x: True)
        pv = sorted(popular & valid)
        med = lambda v: float(np.median(v)) if len(v) else float("nan")
        out.append(
            {
                "k": k,
                "popular": len(popular),
                "valid": len(pv) / len(popular) if popular else float("nan"),
                "released": len(popular & rel.ngrams.get(k, frozenset())) / len(popular) if popular else float("nan"),
                "weight_dpne": med([hd[x] for x in pv]),
                "weight_single": med([hs[x] for x in popular]),
                "gain": med([hd[x] / hs[x] for x in pv]),
            }
        )
    return out


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_agrees_on_random_small_corpora(seed):
    r = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(6)]
    users = [
        [[vocab[j] for j in r.zipf(1.6, r.integers(1, 7)) % 6] for _ in range(r.integers(1, 5))]
        for _ in range(int(r.integers(20, 60)))
    ]
    limit, K = int(r.integers(1, 6)), int(r.integers(2, 6))
    pruning = ("both", "single")[seed % 2]
    rel = dpne_extract(
        users, epsilon=20.0, delta=1e-3, max_length=4, contribution_limit=limit, eta=0.2, pruning=pruning, rng=seed
    )
    index = build_ngram_index(users, 4)
    got = pruning_chain(index, rel, K=K).rows
    want = _brute(users, rel, K, limit)[: len(got)]
    assert [g["k"] for g in got] == [w["k"] for w in want] and len(got) >= 2
    for g, w in zip(got, want):
        for key in w:
            assert g[key] == pytest.approx(w[key], nan_ok=True), (seed, g["k"], key)
    # reporting chosen lengths only walks the others: the same rows for those lengths
    last = got[-1]["k"]
    assert pruning_chain(index, rel, K=K, lengths=(last,)).rows == [got[-1]]
    assert pruning_chain(index, rel, K=K, lengths=()).rows == []


def test_parameters_are_checked():
    index = build_ngram_index([[["a", "b"]]], 2)
    rel = _release({1: {("a",)}, 2: set()})
    with pytest.raises(ValueError, match="K must be"):
        pruning_chain(index, rel, K=0)
    with pytest.raises(TypeError, match="index must be an NgramIndex"):
        pruning_chain([[["a"]]], rel)
    with pytest.raises(TypeError, match="release must be a DpneRelease"):
        pruning_chain(index, {1: set()})
    with pytest.raises(ValueError, match="selection='random' and policy='weighted'"):
        pruning_chain(
            index,
            dpne_extract(
                [[["a", "b"]]],
                epsilon=1,
                delta=1e-5,
                max_length=2,
                contribution_limit=1,
                eta=0.1,
                selection="most-frequent",
                rng=0,
            ),
        )
