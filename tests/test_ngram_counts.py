"""Per-user n-gram counts over the public vocabulary (SPEC §3 step 1)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from dpcore.text import Corpus, Document, corpus_from_records
from dpcore.text.counts import NgramCounts, ngram_counts, sentence_ngrams


def corpus(users: dict[str, list[str]], name="c") -> Corpus:
    records = [{"user": u, "text": t} for u, texts in users.items() for t in texts]
    return corpus_from_records(records, user_field="user", text_field="text", name=name)


PUBLIC = corpus({"p1": ["the cat sat. the cat ran"], "p2": ["a dog sat"]}, "public")
PRIVATE = corpus({"alice": ["the cat sat. the dog"], "bob": ["cat cat zebra. sat the"]}, "private")


def test_unigram_counts_by_hand():
    nc = ngram_counts(PRIVATE, PUBLIC, n=1)
    # public counts: the 2, cat 2, sat 2, ran 1, a 1, dog 1 → order by count desc then alphabetically
    assert nc.vocabulary == (("cat",), ("sat",), ("the",), ("a",), ("dog",), ("ran",))
    np.testing.assert_array_equal(nc.public_counts, [2, 2, 2, 1, 1, 1])
    dense = nc.user_counts.toarray()
    np.testing.assert_array_equal(dense[0], [1, 1, 2, 0, 1, 0])  # alice: the cat sat the dog
    np.testing.assert_array_equal(dense[1], [2, 1, 1, 0, 0, 0])  # bob: cat cat (zebra dropped) sat the
    assert nc.dropped_tokens == 1  # "zebra" is not in the public vocabulary
    assert nc.user_ids == ("alice", "bob")
    np.testing.assert_array_equal(nc.users_per_item(), [2, 2, 2, 0, 1, 0])


def test_bigrams_never_cross_sentence_boundaries():
    nc = ngram_counts(PRIVATE, PUBLIC, n=2)
    # public bigrams: "the cat" ×2, "cat sat", "cat ran", "a dog", "dog sat"; "sat the" would cross a sentence end
    assert ("sat", "the") not in nc.vocabulary
    assert nc.vocabulary[0] == ("the", "cat")
    idx = nc.index
    dense = nc.user_counts.toarray()
    assert dense[0, idx[("the", "cat")]] == 1 and dense[0, idx[("cat", "sat")]] == 1
    # alice's "sat. the" is not a bigram; her "the dog" is not public → dropped
    assert dense[0].sum() == 2
    # bob: "cat cat", "cat zebra" (dropped), "sat the" (dropped, not public)
    assert dense[1].sum() == 0
    assert nc.dropped_tokens == 1 + 3


def test_sentence_ngrams():
    assert list(sentence_ngrams(("a", "b", "c"), 3)) == [("a", "b", "c")]
    assert list(sentence_ngrams(("a", "b"), 3)) == []
    assert list(sentence_ngrams(("a", "b"), 1)) == [("a",), ("b",)]


@pytest.mark.parametrize("n", [1, 2, 3])
def test_counts_match_a_naive_counter_on_random_text(n):
    rng = np.random.default_rng(n)
    words = [f"w{i}" for i in range(12)]

    def rand_corpus(users, name):
        return Corpus(
            user_ids=tuple(f"{name}{i}" for i in range(users)),
            users=tuple(
                (
                    Document(
                        sentences=tuple(
                            tuple(rng.choice(words, size=int(rng.integers(1, 7))))
                            for _ in range(int(rng.integers(1, 5)))
                        )
                    ),
                )
                for _ in range(users)
            ),
            name=name,
        )

    pub, priv = rand_corpus(20, "p"), rand_corpus(15, "u")
    nc = ngram_counts(priv, pub, n=n)
    pub_counter = Counter(g for docs in pub.users for d in docs for s in d.sentences for g in sentence_ngrams(s, n))
    assert set(nc.vocabulary) == set(pub_counter)
    assert [pub_counter[g] for g in nc.vocabulary] == list(nc.public_counts)
    dense = nc.user_counts.toarray()
    for u, docs in enumerate(priv.users):
        cnt = Counter(g for d in docs for s in d.sentences for g in sentence_ngrams(s, n))
        expected = [cnt.get(g, 0) for g in nc.vocabulary]
        np.testing.assert_array_equal(dense[u], expected)
    assert nc.private_hash == priv.content_hash and nc.public_hash == pub.content_hash


def test_top_vocabulary_keeps_the_most_frequent_public_items():
    nc = ngram_counts(PRIVATE, PUBLIC, n=1)
    top = nc.top_vocabulary(3)
    assert top.vocabulary == nc.vocabulary[:3]
    np.testing.assert_array_equal(top.user_counts.toarray(), nc.user_counts.toarray()[:, :3])
    with pytest.raises(ValueError, match="vocabulary size must be >= 2, got vocabulary size=1"):
        nc.top_vocabulary(1)


def test_subset_users_and_distributions():
    nc = ngram_counts(PRIVATE, PUBLIC, n=1)
    sub = nc.subset_users([1])
    assert sub.n_users == 1 and sub.user_ids == ("bob",)
    np.testing.assert_allclose(sub.private_distribution(), np.array([2, 1, 1, 0, 0, 0]) / 4)
    np.testing.assert_allclose(nc.public_distribution(), np.array([2, 2, 2, 1, 1, 1]) / 9)


def test_max_vocabulary():
    nc = ngram_counts(PRIVATE, PUBLIC, n=1, max_vocabulary=2)
    assert nc.vocabulary == (("cat",), ("sat",))
    assert nc.dropped_tokens == 10 - 5  # alice 5 tokens (cat, sat kept), bob 5 tokens (cat, cat, sat kept)


@pytest.mark.parametrize(
    "n, exc, message",
    [
        (0, ValueError, "n must be >= 1, got n=0"),
        (4, ValueError, "n must be <= 3, got n=4"),
        ("2", TypeError, "n must be an integer, got n='2'"),
    ],
)
def test_bad_order_is_rejected(n, exc, message):
    with pytest.raises(exc) as info:
        ngram_counts(PRIVATE, PUBLIC, n=n)
    assert message in str(info.value)


def test_one_item_public_vocabulary_is_rejected():
    pub = corpus({"p": ["hello hello"]})
    with pytest.raises(ValueError, match=r"vocabulary size must be >= 2 .*got \|V\|=1"):
        ngram_counts(PRIVATE, pub, n=1)


def test_public_without_ngrams_of_that_order_is_rejected():
    pub = corpus({"p": ["a b. c d"]})
    with pytest.raises(ValueError, match="the public corpus has no 3-gram"):
        ngram_counts(PRIVATE, pub, n=3)


def test_not_a_corpus_is_rejected():
    with pytest.raises(TypeError, match="private must be a dpcore.Corpus, got private=list"):
        ngram_counts([], PUBLIC, n=1)


def test_direct_construction_checks_shapes():
    import scipy.sparse as sp

    with pytest.raises(ValueError, match="public_counts must have one entry per vocabulary column"):
        NgramCounts(n=1, vocabulary=(), user_counts=sp.csr_matrix((2, 3)), public_counts=np.ones(2))
    with pytest.raises(TypeError, match="user_counts must be a scipy.sparse matrix"):
        NgramCounts(n=1, vocabulary=(), user_counts=np.ones((2, 3)), public_counts=np.ones(3))


def test_sample_corpora_counts_are_consistent():
    from dpcore.text import load_sample_corpus

    priv, pub = load_sample_corpus("private"), load_sample_corpus("public")
    nc = ngram_counts(priv, pub, n=3)
    assert nc.n_users == priv.n_users and nc.vocabulary_size >= 1000
    assert all(len(g) == 3 for g in nc.vocabulary[:50])
    # every private trigram occurrence is either counted or dropped
    total = sum(max(len(s) - 2, 0) for docs in priv.users for d in docs for s in d.sentences)
    assert nc.user_counts.sum() + nc.dropped_tokens == total
