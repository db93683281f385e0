"""Checks of the seeded corpus generator (sample_data/generate.py) and the shipped classroom corpus.

The generator's docstring states the statistics; every stated number is checked here on the data.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter

import numpy as np
import pytest

import dpcore
from sample_data import generate as gen

USER_RE = re.compile(r"^u\d{6}$")
TEXT_RE = re.compile(r"^[A-Za-z0-9' .!?]+$")
TOKEN_RE = re.compile(r"^[a-z0-9']+$")


@pytest.fixture(scope="module")
def tc():
    """The generator's private classroom corpus as arrays (the shipped file must be exactly this)."""
    return gen.generate(gen.SIZES["classroom"]["private"], seed=gen.PRIVATE_SEED)


@pytest.fixture(scope="module")
def tc_public():
    return gen.generate(gen.SIZES["classroom"]["public"], seed=gen.PUBLIC_SEED, public=True)


@pytest.fixture(scope="module")
def stats(tc):
    return gen.kgram_stats(tc)


def _as_corpus(t):
    return dpcore.corpus_from_token_arrays(t.words, t.tokens, t.sent_off, t.doc_off, t.user_off,
                                           doc_genre=t.doc_genre, genres=gen.GENRES)


def _lines(path):
    with gzip.open(path, "rt", encoding="ascii") as f:
        return [line.rstrip("\n") for line in f]


def _sentences_per_user(t):
    return np.add.reduceat(np.diff(t.doc_off), t.user_off[:-1])


# ---------------------------------------------------------------- shipped files and determinism

def test_shipped_files_are_the_generator_output(tc, tc_public):
    """The shipped JSONL tokenises back to exactly the generated tokens (same content hash)."""
    assert dpcore.load_sample_corpus("private") == _as_corpus(tc)
    assert dpcore.load_sample_corpus("public") == _as_corpus(tc_public)
    assert dpcore.load_sample_corpus("private", size="classroom").n_users == 3000
    assert dpcore.load_sample_corpus("public").n_users == 2000


def test_shipped_file_format_and_size():
    for path in (gen.PRIVATE_PATH, gen.PUBLIC_PATH):
        with open(path, "rb") as f:
            head = f.read(10)
        assert head[:2] == b"\x1f\x8b" and head[4:8] == b"\x00\x00\x00\x00"  # gzip mtime 0
        seen, prev = set(), None
        for line in _lines(path):
            r = json.loads(line)
            assert set(r) == {"user", "genre", "text"} and USER_RE.match(r["user"]) and r["genre"] in gen.GENRES
            assert TEXT_RE.match(r["text"]) and r["text"][-1] in ".!?", r["text"]
            if r["user"] != prev:  # users are contiguous
                assert r["user"] not in seen
                seen.add(r["user"])
                prev = r["user"]
    total = sum(os.path.getsize(p) for p in (gen.PRIVATE_PATH, gen.PUBLIC_PATH, gen.VOCAB_PATH))
    assert total < 5 * 1024 * 1024


def test_write_corpus_byte_deterministic_and_cli(tmp_path, capsys):
    a, b, c = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz", tmp_path / "c.jsonl.gz"
    assert gen.write_corpus(str(a), 40, seed=7) == gen.write_corpus(str(b), 40, seed=7) >= 40
    gen.write_corpus(str(c), 40, seed=8)
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    out = tmp_path / "cli.jsonl.gz"
    assert gen.main(["--users", "30", "--out", str(out), "--public", "--seed", "5"]) == 0
    assert len({json.loads(x)["user"] for x in _lines(str(out))}) == 30
    assert "30 users" in capsys.readouterr().out


def test_smaller_corpus_is_a_prefix_of_a_larger_one(tc):
    small = gen.generate(1500, seed=gen.PRIVATE_SEED)
    n_docs = small.user_off[-1]
    n_sent = small.doc_off[-1]
    assert np.array_equal(small.user_off, tc.user_off[:1501])
    assert np.array_equal(small.doc_off, tc.doc_off[: n_docs + 1])
    assert np.array_equal(small.tokens, tc.tokens[: tc.sent_off[n_sent]])
    assert not np.array_equal(gen.generate(50, seed=1).tokens[:200], gen.generate(50, seed=2).tokens[:200])


def test_text_round_trip_and_tokenizer():
    t = gen.generate(60, seed=3)
    recs = list(gen.records(t, seed=3))
    back = dpcore.corpus_from_records(recs, user_field="user", text_field="text", genre_field="genre")
    assert back == _as_corpus(t)
    assert gen.tokenize_text("Hi Anna, it's 10 am. Great!  Really? ") == [["hi", "anna", "it's", "10", "am"], ["great"], ["really"]]
    assert [list(s) for s in dpcore.tokenize("Hi Anna, it's 10 am. Great!  Really? ")] == gen.tokenize_text(
        "Hi Anna, it's 10 am. Great!  Really? ")


# ---------------------------------------------------------------- stated statistics

def test_heavy_tailed_activity(tc):
    """Pareto(1) sentences per user: median user writes few, the top 1 % write hundreds."""
    s = _sentences_per_user(tc)  # with greetings, closings, signatures and pet phrases added
    top = np.sort(s)[-len(s) // 100:]
    assert np.median(s) <= 12
    assert top.min() >= 100 and top.mean() >= 200
    tokens_per_user = np.add.reduceat(np.diff(tc.sent_off)[: tc.doc_off[-1]], tc.doc_off[tc.user_off[:-1]])
    assert tokens_per_user.max() >= 50 * np.median(tokens_per_user)


def test_zipfian_real_english_words(tc):
    vocab = {line.split("\t")[0] for line in open(gen.VOCAB_PATH, encoding="ascii") if not line.startswith("#")}
    assert len(vocab) == 20_000
    counts = Counter(np.asarray(tc.tokens).tolist())
    words = {tc.words[i]: c for i, c in counts.items()}
    english = sum(c for w, c in words.items() if w in vocab) / sum(words.values())
    assert english >= 0.9  # the rest: names, companies, numbers
    assert len(words) >= 10_000
    ranked = np.array(sorted(counts.values(), reverse=True), dtype=float)
    r = np.arange(10, 3000)
    slope = np.polyfit(np.log(r + 1), np.log(ranked[r]), 1)[0]
    assert -1.4 <= slope <= -0.7, slope  # Zipf: frequency ~ rank^-s with s near 1
    assert all(TOKEN_RE.match(tc.words[i]) for i in counts)


def test_distinct_kgrams_per_user_decay_like_table_2(stats):
    """003 Table 2: the mean number of distinct k-grams per user decreases with k (497.6 → 300.8 on
    Reddit). Here k = 1 is below k = 2 (real sentences repeat words more than word pairs); from k = 2
    on the mean decreases at every step, ending between a fifth and 90 % of the 2-gram value."""
    per = [stats[k]["per_user"] for k in range(1, 10)]
    assert all(a > b for a, b in zip(per[1:], per[2:]))
    assert 0.2 <= per[8] / per[1] <= 0.9
    assert per[1] >= 50


def test_kgrams_mostly_unique_to_their_writer_but_phrases_shared(stats):
    for k in range(4, 10):
        assert stats[k]["one_user_share"] >= 0.95
    assert stats[1]["one_user_share"] <= 0.6  # words are shared
    assert stats[6]["users_ge_100"] >= 10 and stats[8]["users_ge_100"] >= 3  # boilerplate is shared


def test_every_signature_and_pet_phrase_is_used_by_exactly_its_user(tc):
    corpus = _as_corpus(tc)
    owner = {}
    for u in range(tc.n_users):
        sig, pet = gen.user_secrets(u)
        owner[sig] = owner[pet] = u
    lengths = sorted({len(s) for s in owner})
    users_of: dict[tuple, set] = {}
    for u, sents in enumerate(corpus.user_sentences()):
        for s in sents:
            for L in lengths:
                for i in range(len(s) - L + 1):
                    w = s[i:i + L]
                    if w in owner:
                        users_of.setdefault(w, set()).add(u)
    assert len(owner) == 2 * tc.n_users  # all distinct
    assert all(us == {owner[w]} for w, us in users_of.items())
    assert len(users_of) >= tc.n_users  # most users do use them


@pytest.mark.slow
def test_topics_have_their_own_vocabulary_and_lda_finds_them():
    """LDA (the TopicDP page's settings) on the classroom corpora: no top-5 keyword is an English stop
    word (scikit-learn's list, the one the topic vocabulary removes), and most topics are recognisably
    one of the generator's topics (at least 3 of their top 5 keywords from its vocabulary)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from dpcore.topic_model import document_term_data, fit_topic_model

    topic_of = {w: name for name, (_, ws) in gen.TOPICS.items() for w in ws.split()}
    for which in ("private", "public"):
        model = fit_topic_model(document_term_data(dpcore.load_sample_corpus(which)))
        recognised = set()
        for k in range(model.n_topics):
            top = [model.words[i] for i in np.argsort(-model.topic_word[k])[:5]]
            assert not set(top) & set(ENGLISH_STOP_WORDS), top
            name, hits = Counter(topic_of.get(w, "-") for w in top).most_common(1)[0]
            if name != "-" and hits >= 3:
                recognised.add(name)
        assert len(recognised) >= 6, (which, recognised)


def test_public_corpus_is_shifted_but_related(tc, tc_public):
    review = lambda t: float(np.mean(t.doc_genre == 1))  # noqa: E731
    assert review(tc) <= 0.5 and review(tc_public) >= 0.55
    priv, pub = Counter(tc.tokens.tolist()), set(tc_public.tokens.tolist())
    covered = sum(c for w, c in priv.items() if w in pub) / sum(priv.values())
    assert 0.85 <= covered < 1.0
