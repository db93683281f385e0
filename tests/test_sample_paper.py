"""The paper-size sample corpus: generated on first use into $DPCORE_DATA_CACHE, pinned by content hash,
and checked for the statistics the generator states (beside 003's Table 2)."""

from __future__ import annotations

import numpy as np
import pytest

import dpcore
from dpcore.text import synthetic as gen

pytestmark = pytest.mark.slow

# Content hashes of the paper-size corpora (dpcore.Corpus.content_hash): a change of the generator, the
# vocabulary file or the seeds changes them (then also bump dpcore.text.samples.PAPER_CACHE_VERSION).
PAPER_PRIVATE_HASH = "1cc52af5f662"
# 003 Table 2 (Reddit): average number of distinct k-grams per user, k = 1..9.
TABLE2_REDDIT = (497.60, 470.76, 444.37, 418.77, 393.72, 369.32, 345.65, 322.80, 300.82)


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    cache = tmp_path_factory.mktemp("corpora")
    mp = pytest.MonkeyPatch()
    mp.setenv("DPCORE_DATA_CACHE", str(cache))
    seen = []
    corpus = dpcore.load_sample_corpus("private", size="paper", progress=seen.append)
    yield corpus, cache, seen
    mp.undo()


def _token_corpus(corpus):
    a = corpus.token_arrays
    return gen.TokenCorpus(
        words=a["words"],
        tokens=a["tokens"],
        sent_off=a["sent_off"],
        doc_off=a["doc_off"],
        doc_genre=np.zeros(len(a["doc_off"]) - 1, np.int8),
        doc_topic=np.zeros(0, np.int8),
        user_off=a["user_off"],
    )


def test_paper_corpus_is_generated_once_cached_and_pinned(paper, monkeypatch):
    corpus, cache, seen = paper
    assert corpus.content_hash.startswith(PAPER_PRIVATE_HASH)
    assert corpus.n_users == gen.SIZES["paper"]["private"] >= 100_000 and corpus.n_tokens >= 10_000_000
    assert seen and seen[-1] == 1.0 and all(a <= b for a, b in zip(seen, seen[1:])) and len(seen) >= 50
    files = list(cache.glob("paper-private-*.npz"))
    assert len(files) == 1
    # a new process (simulated by emptying the in-memory cache) reads the file instead of generating
    from dpcore.text import samples as samples_module

    monkeypatch.setattr(samples_module, "_LOADED", {})
    monkeypatch.setattr(gen, "generate", lambda *a, **k: pytest.fail("regenerated although cached"))
    again = dpcore.load_sample_corpus("private", size="paper")
    assert again == corpus and again is not corpus
    # the classroom corpus is the paper corpus's first 3,000 users
    assert dpcore.load_sample_corpus("private", size="paper", max_users=3000) == dpcore.load_sample_corpus("private")


def test_paper_corpus_statistics_beside_table_2(paper):
    corpus, _, _ = paper
    tc = _token_corpus(corpus)
    st = gen.kgram_stats(tc)
    per = [st[k]["per_user"] for k in range(1, 10)]
    # decreasing from k = 2 on, like Table 2 (Reddit decreases from k = 1: 497.6 → 300.8)
    assert all(a > b for a, b in zip(per[1:], per[2:]))
    assert 0.2 <= per[8] / per[1] <= 0.9
    assert per[8] / per[1] < TABLE2_REDDIT[8] / TABLE2_REDDIT[1]  # shorter sentences than Reddit posts
    for k in range(5, 10):  # (k = 4: 92 %; the real chat's 1,315 people: 93 %)
        assert st[k]["one_user_share"] >= 0.95
    assert st[6]["users_ge_100"] >= 50  # shared phrases: long k-grams reach 100 users (82 measured)
    # real people's activity, cut at MAX_SENTENCES: the same users as the classroom corpus's
    s = np.add.reduceat(np.diff(tc.doc_off), tc.user_off[:-1])
    classroom = dpcore.load_sample_corpus("private")
    assert s.max() == gen.MAX_SENTENCES and 20 <= np.median(s) <= 40
    assert [sum(len(d.sentences) for d in docs) for docs in classroom.users] == s[: classroom.n_users].tolist()


def test_paper_signatures_and_pet_phrases_belong_to_one_user(paper):
    """Every "ext N" (the signature's unique end) and every pet-phrase triple occurs only in its owner's text."""
    corpus, _, _ = paper
    tc = _token_corpus(corpus)
    words = tc.words
    ids = gen._model().ids
    assert all(words[i] == w for w, i in ids.items())
    n_users = tc.n_users
    user = np.repeat(np.repeat(np.arange(n_users), np.diff(tc.user_off)), np.diff(tc.doc_off))
    user = np.repeat(user, np.diff(tc.sent_off))
    t = tc.tokens
    same_sentence = np.ones(len(t) - 1, bool)
    same_sentence[tc.sent_off[1:-1] - 1] = False
    # signatures: the token after "ext" is the owner's number
    pos = np.flatnonzero((t[:-1] == ids["ext"]) & same_sentence)
    owner_of_number = {int(gen.user_secrets(u)[0][-1]): u for u in range(n_users)}
    assert len(owner_of_number) == n_users
    numbers = [int(words[x]) for x in t[pos + 1]]
    assert all(owner_of_number[n] == u for n, u in zip(numbers, user[pos].tolist()))
    assert len(set(user[pos].tolist())) >= n_users // 4  # 20 % of documents end with it (31 % of users sign)
    # pet phrases: the last three words are a per-user triple
    triples = {tuple(ids[w] for w in gen.user_secrets(u)[1][-3:]): u for u in range(n_users)}
    assert len(triples) == n_users
    ok = same_sentence[:-1] & same_sentence[1:]
    key = (t[:-2].astype(np.int64) * 200_003 + t[1:-1]) * 200_003 + t[2:]
    wanted = np.array([(a * 200_003 + b) * 200_003 + c for a, b, c in triples], dtype=np.int64)
    hit = np.flatnonzero(np.isin(key, wanted) & ok)
    found = {(int(t[i]), int(t[i + 1]), int(t[i + 2])): set() for i in hit}
    for i in hit.tolist():
        found[(int(t[i]), int(t[i + 1]), int(t[i + 2]))].add(int(user[i]))
    assert all(us == {triples[tr]} for tr, us in found.items())
    assert len(found) >= n_users // 10
