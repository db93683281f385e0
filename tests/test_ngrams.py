"""dpcore.text.ngrams: fast k-gram extraction against a literal Python recomputation."""

import numpy as np
import pytest

from dpcore.text.ngrams import build_ngram_index, encode_users, rows_membership


def naive_user_kgrams(users, k):
    """G_k of every user, literally: every window of k tokens inside one sentence."""
    return [{tuple(s[i : i + k]) for s in sentences for i in range(len(s) - k + 1)} for sentences in users]


def naive_occurrences(users, k):
    out = []
    for sentences in users:
        counts = {}
        for s in sentences:
            for i in range(len(s) - k + 1):
                g = tuple(s[i : i + k])
                counts[g] = counts.get(g, 0) + 1
        out.append(counts)
    return out


def random_users(rng, n_users, vocab, max_sentences=4, max_len=7):
    words = [f"w{i}" for i in range(vocab)]
    users = []
    for _ in range(n_users):
        sents = []
        for _ in range(rng.integers(0, max_sentences + 1)):
            n = int(rng.integers(0, max_len + 1))
            sents.append([words[j] for j in rng.integers(0, vocab, size=n)])
        users.append(sents)
    return users


@pytest.mark.parametrize("seed", range(8))
def test_index_matches_naive_recomputation(seed):
    rng = np.random.default_rng(seed)
    users = random_users(rng, n_users=int(rng.integers(1, 25)), vocab=int(rng.integers(1, 6)))
    T = 5
    index = build_ngram_index(users, T)
    for k in range(1, T + 1):
        assert index.user_sets(k) == naive_user_kgrams(users, k), f"k={k}"
        lev = index.level(k)
        # distinct k-gram rows are distinct and have width k
        assert lev.grams.shape[1] == k
        assert len({tuple(r) for r in lev.grams.tolist()}) == lev.n_grams
        # occurrence counts and user counts
        occ = naive_occurrences(users, k)
        vocab = index.corpus.vocabulary
        for u, g, c in zip(lev.pair_user, lev.pair_gram, lev.pair_count):
            assert occ[u][tuple(vocab[lev.grams[g]])] == c
        users_per_gram = {}
        for s in naive_user_kgrams(users, k):
            for g in s:
                users_per_gram[g] = users_per_gram.get(g, 0) + 1
        got = {tuple(vocab[lev.grams[g]]): int(c) for g, c in enumerate(lev.user_counts)}
        assert got == users_per_gram
        # pairs are grouped by user, users ascending
        assert np.all(np.diff(lev.pair_user) >= 0)


def test_kgrams_never_cross_a_sentence_boundary():
    users = [[["a", "b"], ["c", "d"]]]
    index = build_ngram_index(users, 3)
    assert index.user_sets(2) == [{("a", "b"), ("c", "d")}]  # no ("b", "c")
    assert index.user_sets(3) == [set()]


def test_encoding_positions():
    tc = encode_users([[["x", "y", "z"]], [], [["y"], ["x", "x"]]])
    assert tc.n_users == 3
    assert tc.vocabulary[tc.tokens].tolist() == ["x", "y", "z", "y", "x", "x"]
    assert tc.run_left.tolist() == [3, 2, 1, 1, 2, 1]
    assert tc.user_of.tolist() == [0, 0, 0, 2, 2, 2]
    assert tc.tokens.dtype == np.int32


def test_encode_rejects_non_string_tokens_and_strings():
    with pytest.raises(TypeError, match="tokens must be strings"):
        encode_users([[[1, 2, 3]]])
    with pytest.raises(TypeError, match="users must be a sequence"):
        encode_users("the cat sat")


def test_max_length_validation_names_parameter():
    with pytest.raises(ValueError, match=r"max_length must be >= 1, got max_length=0"):
        build_ngram_index([[["a"]]], 0)


@pytest.mark.parametrize("seed", range(5))
def test_rows_membership_matches_python_sets(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=(40, 3))
    b = rng.integers(0, 4, size=(25, 3))
    expected = [tuple(r) in {tuple(x) for x in b.tolist()} for r in a.tolist()]
    assert rows_membership(a, b).tolist() == expected
    assert rows_membership(a[:0], b).size == 0
    assert not rows_membership(a, b[:0]).any()


@pytest.mark.parametrize("table_limit", [0, 2**27])  # 0 forces the sort path, 2^27 the lookup table
@pytest.mark.parametrize("seed", range(4))
def test_group_by_user_matches_counter(monkeypatch, table_limit, seed):
    import collections

    import dpcore.text.ngrams as ng

    monkeypatch.setattr(ng, "_TABLE_LIMIT", table_limit)
    rng = np.random.default_rng(seed)
    users = np.sort(rng.integers(0, 30, size=400))
    keys = rng.integers(0, 50, size=400) * 7919  # sparse keys in a large space
    pu, pi, pc, item_keys, item_of_pos = ng.group_by_user(users, keys, 50 * 7919)
    expected = collections.Counter(zip(users.tolist(), keys.tolist()))
    got = {(int(u), int(item_keys[i])): int(c) for u, i, c in zip(pu, pi, pc)}
    assert got == dict(expected)
    assert np.all(np.diff(item_keys) > 0) and set(item_keys.tolist()) == set(keys.tolist())
    assert np.array_equal(item_keys[item_of_pos], keys)


@pytest.mark.parametrize("seed", range(4))
def test_lookup_finds_exactly_the_corpus_kgrams(seed):
    rng = np.random.default_rng(seed)
    users = random_users(rng, n_users=15, vocab=4)
    index = build_ngram_index(users, 4)
    vocab = index.corpus.vocabulary
    for k in range(1, 5):
        lev = index.level(k)
        if lev.n_grams:
            assert np.array_equal(index.lookup(lev.grams), np.arange(lev.n_grams))
        probe = rng.integers(0, max(index.corpus.vocabulary_size, 1), size=(60, k))
        truth = set().union(*index.user_sets(k)) if users else set()
        got = index.lookup(probe)
        for row, gid in zip(probe.tolist(), got.tolist()):
            word_row = tuple(vocab[row]) if index.corpus.vocabulary_size else ()
            assert (gid >= 0) == (word_row in truth)
            if gid >= 0:
                assert lev.grams[gid].tolist() == row
