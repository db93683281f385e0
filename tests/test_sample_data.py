"""Checks of the seeded corpus generator (dpcore/text/synthetic.py) and the shipped classroom corpus.

The generator's docstring states what it models and its calibration against the real chat corpus; every
stated number is checked here on the data, against the real corpus recomputed in the test.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter, defaultdict

import numpy as np
import pytest

import dpcore
from dpcore.text import synthetic as gen

USER_RE = re.compile(r"^u\d{6}$")
TEXT_RE = re.compile(r"^[A-Za-z0-9' .!?]+$")
TOKEN_RE = re.compile(r"^[a-z0-9']+$")
N_REAL = 1315  # people in the real chat corpus


@pytest.fixture(scope="module")
def tc():
    """The generator's private classroom corpus as arrays (the shipped file must be exactly this)."""
    return gen.generate(gen.SIZES["classroom"]["private"], seed=gen.PRIVATE_SEED)


@pytest.fixture(scope="module")
def tc_public():
    return gen.generate(gen.SIZES["classroom"]["public"], seed=gen.PUBLIC_SEED, public=True)


@pytest.fixture(scope="module")
def uncapped():
    """1,315 users with the real people's activity (no cap): what the calibration is about."""
    return gen.generate(N_REAL, seed=gen.PRIVATE_SEED, max_sentences=None)


@pytest.fixture(scope="module")
def real():
    return dpcore.load_real_corpus("chat")


@pytest.fixture(scope="module")
def real_public():
    return dpcore.load_real_corpus("chat", which="public")


@pytest.fixture(scope="module")
def stats(tc):
    return gen.kgram_stats(tc)


def _as_corpus(t):
    return dpcore.text.corpus_from_token_arrays(
        t.words, t.tokens, t.sent_off, t.doc_off, t.user_off, doc_genre=t.doc_genre, genres=gen.GENRES
    )


def _lines(path):
    with gzip.open(path, "rt", encoding="ascii") as f:
        return [line.rstrip("\n") for line in f]


def _sentences_per_user(t):
    return np.add.reduceat(np.diff(t.doc_off), t.user_off[:-1])


def _sentences(t):
    w, tok, so = t.words, t.tokens, t.sent_off
    return [tuple(w[x] for x in tok[so[s] : so[s + 1]]) for s in range(len(so) - 1)]


def _cut(corpus, max_sentences):
    """Every person's first ``max_sentences`` sentences, as the generator caps its users."""
    from dpcore.text import Corpus, Document

    users = []
    for docs in corpus.users:
        kept, n = [], 0
        for d in docs:
            if n >= max_sentences:
                break
            kept.append(Document(sentences=d.sentences[: max_sentences - n], genre=d.genre))
            n += len(kept[-1].sentences)
        users.append(tuple(kept))
    return Corpus(user_ids=corpus.user_ids, users=tuple(users))


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


def test_the_cap_keeps_each_users_first_sentences(tc, uncapped):
    """A capped user is the uncapped user's first MAX_SENTENCES sentences, token for token (so the paper
    corpus's users are the classroom's, and the calibration's uncapped users are the classroom's too)."""
    cap = gen.MAX_SENTENCES
    full = [[] for _ in range(N_REAL)]
    user_of_sent = np.repeat(np.repeat(np.arange(N_REAL), np.diff(uncapped.user_off)), np.diff(uncapped.doc_off))
    for s, u in zip(_sentences(uncapped), user_of_sent.tolist()):
        full[u].append(s)
    capped = [tc.user_sentences(u) for u in range(N_REAL)]
    assert all([tuple(x) for x in c] == f[:cap] for c, f in zip(capped, full))
    assert sum(len(f) > cap for f in full) > N_REAL // 4  # the cap does cut
    assert max(len(c) for c in capped) == cap


def test_text_round_trip_and_tokenizer():
    t = gen.generate(60, seed=3)
    recs = list(gen.records(t, seed=3))
    back = dpcore.corpus_from_records(recs, user_field="user", text_field="text", genre_field="genre")
    assert back == _as_corpus(t)
    assert gen.tokenize_text("Hi Anna, it's 10 am. Great!  Really? ") == [
        ["hi", "anna", "it's", "10", "am"],
        ["great"],
        ["really"],
    ]
    assert [list(s) for s in dpcore.tokenize("Hi Anna, it's 10 am. Great!  Really? ")] == gen.tokenize_text(
        "Hi Anna, it's 10 am. Great!  Really? "
    )


# ---------------------------------------------------------------- the calibration (issue 20)


def test_calibrated_on_the_real_corpus_shared_kgrams(real, uncapped):
    """Issue 20's target: at the real corpus's 1,315 users, the number of distinct k-grams used by >= 10 users
    is within a factor of 2 of the real corpus's for k = 1..6 (with the real people's activity)."""
    assert uncapped.n_users == real.n_users == N_REAL
    want = gen.shared_kgrams(gen.token_corpus(real))
    assert want == [6181, 19011, 12139, 3304, 683, 169]  # issue 20's table (tests/test_real_corpus.py too)
    got = gen.shared_kgrams(uncapped)
    assert all(0.5 <= g / w <= 2 for g, w in zip(got, want)), list(zip(got, want))


def test_capped_users_share_like_real_people_cut_the_same_way(real, tc):
    """The sample corpora cap users at MAX_SENTENCES sentences: their first 1,315 users against the real
    people cut at the same cap, within a factor of 2 for k = 1..4 (the docstring states k = 5, 6: fewer)."""
    first = gen.generate(N_REAL, seed=gen.PRIVATE_SEED)
    assert np.array_equal(first.tokens, tc.tokens[: len(first.tokens)])
    want = gen.shared_kgrams(gen.token_corpus(_cut(real, gen.MAX_SENTENCES)))
    got = gen.shared_kgrams(first)
    assert all(0.5 <= g / w <= 2 for g, w in zip(got[:4], want[:4])), list(zip(got, want))
    assert got[4] < want[4] and got[5] < want[5]  # as the docstring says (long phrases need more text)


def test_no_copies_of_messages_fewer_than_three_people_wrote(real, real_public, tc, uncapped):
    """No generated sentence of >= 6 tokens equals a public message written by <= 2 people; of all generated
    sentences of >= 6 tokens, under 0.5 % occur verbatim anywhere in the real corpus (docstring: 0.13 %)."""
    writers = defaultdict(set)
    for person, docs in enumerate(real_public.users):
        for d in docs:
            for s in d.sentences:
                if len(s) >= gen.COPY_MIN_TOKENS:
                    writers[s].add(person)
    rare = {s for s, w in writers.items() if len(w) <= gen.COPY_MAX_WRITERS}
    anywhere = {s for docs in real.users for d in docs for s in d.sentences if len(s) >= gen.COPY_MIN_TOKENS}
    for t in (tc, uncapped):
        long_ = [s for s in _sentences(t) if len(s) >= gen.COPY_MIN_TOKENS]
        assert len(long_) > 40_000
        assert not rare.intersection(long_)
        assert sum(s in anywhere for s in long_) / len(long_) < 0.005


# ---------------------------------------------------------------- the model: formula, fast paths, sampler

D = gen.DISCOUNT


def _brute_force_kn(real_public):
    """Interpolated Kneser-Ney of the global component, recomputed from the public text with Counters."""
    pad = gen.ORDER - 1
    top = Counter()
    grams = [set() for _ in range(gen.ORDER - 1)]  # grams[j]: distinct (j+2)-grams of the padded sentences
    for docs in real_public.users:
        for d in docs:
            for s in d.sentences:
                if gen._longest_run(s) >= gen.MAX_RUN:
                    continue
                seq = ("",) * pad + tuple(s) + ("",)
                for i in range(pad, len(seq)):
                    top[seq[i - pad : i + 1]] += 1
                    for j in range(gen.ORDER - 1):
                        grams[j].add(seq[i - j - 1 : i + 1])  # (token before, j-token context, token)
    cont = [Counter() for _ in range(gen.ORDER - 1)]  # cont[j][(context of j, w)] = distinct tokens before
    for j in range(gen.ORDER - 1):
        for g in grams[j]:
            cont[j][g[1:]] += 1
    counts = [cont[j] for j in range(gen.ORDER - 1)] + [top]
    by_ctx = []
    for j in range(gen.ORDER):
        per = defaultdict(dict)
        for g, n in counts[j].items():
            per[g[:-1]][g[-1]] = n
        by_ctx.append(per)

    def prob(ctx: tuple, w: str) -> float:  # ctx: the ORDER-1 tokens before, oldest first
        p = by_ctx[0][()].get(w, 0) / sum(by_ctx[0][()].values())
        for j in range(1, gen.ORDER):
            row = by_ctx[j].get(ctx[len(ctx) - j :])
            if row:
                total, types = sum(row.values()), len(row)
                p = max(row.get(w, 0) - D, 0) / total + D * types / total * p
        return p

    return prob


def _model_distribution(m, comp: int, ctx_ids: list[int]) -> dict[int, float]:
    """The model's interpolated distribution read from its rows (ctx_ids: most recent token first)."""
    keys = gen._context_keys(np.array([comp]), [np.array([c]) for c in ctx_ids])
    out: dict[int, float] = defaultdict(float)
    mass = 1.0
    for j in range(len(ctx_ids), -1, -1):
        row = int(gen._lookup(m, keys[j])[0])
        if row < 0:
            continue
        first, last = m.first[row], m.last[row]
        within = np.diff(np.r_[float(row), m.cum[first : last + 1]])
        stay = m.stay[row]
        for t, p in zip(m.tok[first : last + 1].tolist(), within.tolist()):
            out[t] += mass * stay * p
        mass *= 1 - stay
    return out


def test_model_reproduces_interpolated_kneser_ney(real_public):
    """Worked example: the global component's P(w | 3 tokens) from the model's rows equals interpolated
    Kneser-Ney recomputed from the public text (raw counts at order 4, continuation counts below)."""
    m = gen._model()
    prob = _brute_force_kn(real_public)
    for ctx in (("do", "you", "like"), ("", "", ""), ("it", "was", "nice"), ("peanut", "butter", "and")):
        dist = _model_distribution(m, 0, [m.ids[w] for w in reversed(ctx)])
        assert abs(sum(dist.values()) - 1) < 1e-9
        best = sorted(dist, key=dist.get, reverse=True)[:40] + [m.ids["wand"], m.n_model_words - 1]
        for t in best:
            # abs: the rows keep row index + cumulative probability in float64 (spacing ~2e-10 at 2 M rows)
            assert dist.get(t, 0.0) == pytest.approx(prob(ctx, m.words[t]), rel=1e-6, abs=2e-9), (ctx, m.words[t])
    dist = _model_distribution(m, 0, [m.ids["like"], m.ids["you"], m.ids["do"]])
    assert max(dist, key=dist.get) == m.ids["to"]  # "do you like to ..."


def test_fast_paths_equal_the_plain_searches():
    """The hash table of contexts and the guide-table draw give exactly what binary searches give."""
    m = gen._model()
    r = np.random.default_rng(0)
    rows = r.integers(len(m.keys), size=100_000)
    u = r.random(100_000)
    u[:10] = [0.0, 1 - 2**-53, 0.5, 1e-12, 0.25, 0.75, 0.999999, 0.1, 0.9, 0.3]
    plain = np.minimum(np.searchsorted(m.cum, rows + u, side="right"), m.last[rows])
    assert np.array_equal(gen._draw(m, rows, u), plain)
    q = np.concatenate(
        [m.keys[r.integers(len(m.keys), size=50_000)], r.integers(1, 2**63, size=50_000).astype(np.uint64)]
    )
    at = np.minimum(np.searchsorted(m.keys, q), len(m.keys) - 1)
    assert np.array_equal(gen._lookup(m, q), np.where(m.keys[at] == q, at, -1))
    assert np.all(np.diff(m.keys.astype(np.float64)) >= 0)


def test_sampler_draws_the_first_token_from_the_model():
    """Statistical check: the first tokens of 200,000 sentences of one prompt's component follow the model's
    distribution for the empty context (an immediate end is drawn again), each of the 25 likeliest within
    5 standard errors."""
    m = gen._model()
    g = gen.GENRES.index("Mozart or Beethoven?")
    n = 200_000
    out, lens = gen._sample(m, np.uint64(12345), np.arange(n, dtype=np.uint64), np.full(n, g + 1), np.full(n, g))
    assert np.all(lens >= 1)
    # exact law: the level-0 row (the only one with an end) is drawn again without the end
    keys = gen._context_keys(np.array([g + 1]), [np.array([0])] * (gen.ORDER - 1))
    want: dict[int, float] = defaultdict(float)
    mass = 1.0
    for j in range(gen.ORDER - 1, -1, -1):
        row = int(gen._lookup(m, keys[j])[0])
        if row < 0:
            continue
        first, last = m.first[row], m.last[row]
        p = np.diff(np.r_[float(row), m.cum[first : last + 1]])
        toks = m.tok[first : last + 1]
        if j == 0:
            p = np.where(toks == 0, 0.0, p) / (1 - p[toks == 0].sum())
        for t, q in zip(toks.tolist(), p.tolist()):
            want[t] += mass * m.stay[row] * q
        mass *= 1 - m.stay[row]
    got = Counter(out[:, 0].tolist())
    for t in sorted(want, key=want.get, reverse=True)[:25]:
        p = want[t]
        assert abs(got[t] / n - p) <= 5 * np.sqrt(p * (1 - p) / n), (m.words[t], got[t] / n, p)


def test_counter_based_uniforms():
    key = np.uint64(987654321)
    u = gen._uniform(key, np.arange(200_000, dtype=np.uint64), 3, 1)
    assert u.min() >= 0 and u.max() < 1 and abs(u.mean() - 0.5) < 0.005
    assert np.histogram(u, bins=10, range=(0, 1))[0].min() > 19_000
    again = gen._uniform(key, np.arange(100_000, 200_000, dtype=np.uint64), 3, 1)
    assert np.array_equal(again, u[100_000:])  # a sentence's draws do not depend on the others
    assert not np.array_equal(gen._uniform(key, np.arange(10, dtype=np.uint64), 3, 2), u[:10])


# ---------------------------------------------------------------- stated statistics


def test_activity_is_real_peoples_heavy_tail(real_public, uncapped, tc):
    """Users are resampled public people: the uncapped median and the top 1 %'s share match the real public
    people's; the sample corpora cut every user at MAX_SENTENCES (about a third of users are cut)."""
    real_s = np.array([sum(len(d.sentences) for d in docs) for docs in real_public.users])
    s = _sentences_per_user(uncapped)  # with signatures and pet phrases added
    top_share = lambda x: np.sort(x)[-max(1, len(x) // 100) :].sum() / x.sum()
    assert abs(np.median(s) - np.median(real_s)) <= 0.25 * np.median(real_s)
    assert 0.3 <= top_share(s) <= 0.6 and 0.3 <= top_share(real_s) <= 0.6
    assert s.max() >= 5_000
    c = _sentences_per_user(tc)
    assert c.max() == gen.MAX_SENTENCES and np.array_equal(c[:N_REAL], np.minimum(s, gen.MAX_SENTENCES))
    assert abs((c == gen.MAX_SENTENCES).mean() - (real_s >= gen.MAX_SENTENCES).mean()) < 0.05


def test_words_are_the_real_chat_words(tc, real):
    """Zipfian like the real chat (rank-frequency slope within 0.15), as English as the real chat (share of
    tokens in the wordfreq list within 2 points), every token a real public word or a signature/pet word."""
    vocab = {line.split("\t")[0] for line in open(gen.VOCAB_PATH, encoding="ascii") if not line.startswith("#")}
    m = gen._model()

    def shape(t):
        counts = Counter(np.asarray(t.tokens).tolist())
        words = Counter({t.words[i]: c for i, c in counts.items()})
        english = sum(c for w, c in words.items() if w in vocab) / sum(words.values())
        ranked = np.array(sorted(counts.values(), reverse=True), dtype=float)
        r = np.arange(10, 3000)
        return english, np.polyfit(np.log(r + 1), np.log(ranked[r]), 1)[0], words

    english, slope, words = shape(tc)
    real_english, real_slope, _ = shape(gen.token_corpus(real))
    assert abs(english - real_english) < 0.02 and english >= 0.9
    assert abs(slope - real_slope) < 0.15 and -1.4 <= slope <= -1.0, (slope, real_slope)
    assert len(words) >= 10_000
    assert all(TOKEN_RE.match(w) for w in words)
    model_words = set(m.words[1 : m.n_model_words])
    secret_words = {w for u in range(tc.n_users) for secret in gen.user_secrets(u) for w in secret}
    assert set(words) <= model_words | secret_words


def test_distinct_kgrams_per_user_decay_like_table_2(stats):
    """003 Table 2: the mean number of distinct k-grams per user decreases with k (497.6 → 300.8 on
    Reddit). Here k = 1 is below k = 2 (chat repeats words more than word pairs); from k = 2 on the mean
    decreases at every step, ending between a fifth and 90 % of the 2-gram value."""
    per = [stats[k]["per_user"] for k in range(1, 10)]
    assert per[0] < per[1]
    assert all(a > b for a, b in zip(per[1:], per[2:]))
    assert 0.2 <= per[8] / per[1] <= 0.9
    assert per[1] >= 150


def test_kgrams_unique_to_their_writer_as_in_real_chat(stats, real):
    """The share of distinct k-grams used by one user only, k = 2..9, within 0.03 of the real corpus cut at
    the same cap (words: the real chat has more one-person words, its names and typos)."""
    want = gen.kgram_stats(gen.token_corpus(_cut(real, gen.MAX_SENTENCES)))
    for k in range(2, 10):
        assert abs(stats[k]["one_user_share"] - want[k]["one_user_share"]) < 0.03, k
    assert stats[1]["one_user_share"] <= want[1]["one_user_share"] <= 0.6  # words are shared
    assert stats[5]["one_user_share"] >= 0.95


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
                    w = s[i : i + L]
                    if w in owner:
                        users_of.setdefault(w, set()).add(u)
    assert len(owner) == 2 * tc.n_users  # all distinct
    assert all(us == {owner[w]} for w, us in users_of.items())
    assert len(users_of) >= 0.6 * tc.n_users  # 20 % of documents each: most users use one
    assert len({u for us in users_of.values() for u in us}) >= tc.n_users // 2


def test_documents_draw_a_real_prompt_with_its_own_words(tc, real):
    """The genres are the real corpus's prompts; a prompt's own words are as concentrated in its documents
    as in the real chat (frequency in the prompt's documents over elsewhere, within a factor of 4, or never
    elsewhere), e.g. "peanut" 184 (real: 179)."""
    assert set(gen.GENRES) == {d.genre for docs in real.users for d in docs}
    corpus = _as_corpus(tc)
    assert {d.genre for docs in corpus.users for d in docs} == set(gen.GENRES)

    def lift(c, word, prompt):
        here = elsewhere = n_here = n_else = 0
        for docs in c.users:
            for d in docs:
                n, k = sum(len(s) for s in d.sentences), sum(s.count(word) for s in d.sentences)
                if d.genre == prompt:
                    here, n_here = here + k, n_here + n
                else:
                    elsewhere, n_else = elsewhere + k, n_else + n
        return (here / n_here) / (elsewhere / n_else) if elsewhere else np.inf

    for word, prompt in [
        ("peanut", "What if the world was made of peanut butter?"),
        ("pigs", "What if pigs could fly?"),
        ("mozart", "Mozart or Beethoven?"),
        ("hero", "Who is your modern-day hero?"),
        ("wand", "What would you do if you had a magic wand?"),
    ]:
        got, want = lift(corpus, word, prompt), lift(real, word, prompt)
        assert got == np.inf or want / 4 <= got <= want * 4, (word, got, want)
        assert got >= 30


@pytest.mark.slow
def test_lda_topics_have_no_stop_words():
    """LDA (the TopicDP page's settings) on the classroom corpora: no top-5 keyword is an English stop word
    (scikit-learn's list, the one the topic vocabulary removes). Its topics follow the prompts only weakly
    (the module docstring says how much): test_documents_draw_a_real_prompt_with_its_own_words checks the
    prompts' words instead."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from dpcore.topicdp import document_term_data, fit_topic_model

    for which in ("private", "public"):
        model = fit_topic_model(document_term_data(dpcore.load_sample_corpus(which)))
        for k in range(model.n_topics):
            top = [model.words[i] for i in np.argsort(-model.topic_word[k])[:5]]
            assert not set(top) & set(ENGLISH_STOP_WORDS), top


def test_public_corpus_is_shifted_but_related(tc, tc_public):
    """Other prompt popularity (total variation >= 0.2 between the prompt mixes), the same words (>= 95 % of
    the private tokens are words the public corpus uses, but not all)."""
    mix = lambda t: np.bincount(t.doc_genre, minlength=len(gen.GENRES)) / len(t.doc_genre)
    assert 0.5 * np.abs(mix(tc) - mix(tc_public)).sum() >= 0.2
    priv, pub = Counter(tc.tokens.tolist()), set(tc_public.tokens.tolist())
    covered = sum(c for w, c in priv.items() if w in pub) / sum(priv.values())
    assert 0.95 <= covered < 1.0
