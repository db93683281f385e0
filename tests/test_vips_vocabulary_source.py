"""Issue 30, item 4: VIPS-LDA is green only for a vocabulary whose source is known to share no person with the
private corpus; a caller's corpus or word list is "DP if this vocabulary is public" (orange)."""

from __future__ import annotations

import pytest

import dpcore
from dpcore.topicdp import public_vocabulary, vips_lda

KW = dict(epsilon=1.0, delta=1e-5, rng=0, iterations=1, n_topics=3)


@pytest.fixture(scope="module")
def chat():
    return dpcore.load_real_corpus("chat", which="private"), dpcore.load_real_corpus("chat", which="public")


def test_a_vocabulary_of_919_of_the_920_private_people_is_not_green(chat):
    priv, pub = chat
    leaky = public_vocabulary(priv.subset(range(1, 920)))  # the example: shares 919 people with priv
    assert len(set(leaky.words) - set(public_vocabulary(pub).words)) > 0
    assert not leaky.known_public
    g = vips_lda(priv, vocabulary=leaky, **KW).guarantee  # the exact-hash check lets it through …
    assert not g.is_dp and g.colour == "orange"  # … but it is no longer green (before: green (ε, δ)-DP)
    assert "DP if this vocabulary is public" in g.label
    assert "cannot check" in g.promise


def test_a_callers_word_list_is_conditional(chat):
    priv, pub = chat
    words = list(public_vocabulary(pub).words)  # the very words of the public split, but given as a list
    g = vips_lda(priv, vocabulary=words, **KW).guarantee
    assert g.colour == "orange" and not g.is_dp
    assert "a word list given by the caller" in g.label and "DP if this vocabulary is public" in g.label


def test_the_shipped_public_split_stays_green(chat):
    priv, pub = chat
    vocab = public_vocabulary(pub)
    assert vocab.known_public and pub.content_hash in dpcore.text.shipped_public_hashes()
    g = vips_lda(priv, vocabulary=vocab, **KW).guarantee
    assert g.is_dp and g.colour == "green" and not g.conditional_on
    sample_pub = dpcore.load_sample_corpus("public")
    assert public_vocabulary(sample_pub).known_public


def test_a_start_fitted_on_a_callers_corpus_is_conditional_too(chat):
    priv, pub = chat
    vocab = public_vocabulary(pub)
    start = dpcore.topicdp.public_start(priv.subset(range(1, 920)), vocabulary=vocab, n_topics=3, iterations=1)
    assert not start.known_public
    g = vips_lda(priv, vocabulary=vocab, start=start, **KW).guarantee
    assert g.colour == "orange" and "the start" in g.label


def test_the_training_corpus_itself_is_still_refused(chat):
    priv, _ = chat
    with pytest.raises(ValueError, match="vocabulary was built from the corpus being trained on"):
        vips_lda(priv, vocabulary=public_vocabulary(priv), **KW)
