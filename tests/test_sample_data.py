"""Checks of the seeded corpus generator and the shipped sample corpora."""

from __future__ import annotations

import gzip
import itertools
import json
import os
import re
import sys
from collections import Counter

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from sample_data.generate import (  # noqa: E402
    PRIVATE_PATH,
    PRIVATE_SEED,
    PUBLIC_PATH,
    PUBLIC_SEED,
    generate_records,
    generate_token_users,
    main,
    tokenize_text,
    write_corpus,
)

USER_RE = re.compile(r"^u\d{6}$")
TEXT_RE = re.compile(r"^[A-Za-z0-9', .!?]+$")
TOKEN_RE = re.compile(r"^[a-z0-9']+$")


def _lines(path):
    with gzip.open(path, "rt", encoding="ascii") as f:
        return [line.rstrip("\n") for line in f]


@pytest.fixture(scope="module")
def private_lines():
    assert os.path.isfile(PRIVATE_PATH), "run `python -m sample_data.generate`"
    return _lines(PRIVATE_PATH)


@pytest.fixture(scope="module")
def public_lines():
    assert os.path.isfile(PUBLIC_PATH), "run `python -m sample_data.generate`"
    return _lines(PUBLIC_PATH)


@pytest.fixture(scope="module")
def private_records(private_lines):
    return [json.loads(x) for x in private_lines]


@pytest.fixture(scope="module")
def public_records(public_lines):
    return [json.loads(x) for x in public_lines]


def _by_user(records):
    users: dict[str, list[list[str]]] = {}
    for r in records:
        users.setdefault(r["user"], []).extend(tokenize_text(r["text"]))
    return users


@pytest.fixture(scope="module")
def private_users(private_records):
    return _by_user(private_records)


@pytest.fixture(scope="module")
def public_users(public_records):
    return _by_user(public_records)


def _check_format(records):
    seen: set[str] = set()
    prev = None
    for r in records:
        assert set(r) == {"user", "genre", "text"}
        assert USER_RE.match(r["user"]), r["user"]
        assert r["genre"] in ("email", "review")
        t = r["text"]
        assert TEXT_RE.match(t), t
        assert t[-1] in ".!?", t
        # sentences are separated by ". " / "! " / "? " and each has words
        sents = re.split(r"(?<=[.!?]) ", t)
        assert 2 <= len(sents) <= 8, t
        assert all(len(tokenize_text(s)) == 1 for s in sents), t
        if r["user"] != prev:  # users are contiguous
            assert r["user"] not in seen, r["user"]
            seen.add(r["user"])
            prev = r["user"]
    return seen


def test_private_file_format_users_and_genres(private_records):
    users = _check_format(private_records)
    assert len(users) >= 2000
    docs_per_user = Counter(r["user"] for r in private_records)
    assert min(docs_per_user.values()) >= 2 and max(docs_per_user.values()) <= 8
    genres = Counter(r["genre"] for r in private_records)
    assert genres["email"] >= 0.3 * len(private_records)
    assert genres["review"] >= 0.2 * len(private_records)


def test_public_file_format_and_genre_shift(public_records, private_records):
    users = _check_format(public_records)
    assert 1200 <= len(users) <= 1800
    frac = lambda recs: sum(r["genre"] == "review" for r in recs) / len(recs)  # noqa: E731
    assert frac(public_records) >= 0.55
    assert frac(private_records) <= 0.50
    assert frac(public_records) - frac(private_records) >= 0.15


def test_shipped_size_limit():
    total = os.path.getsize(PRIVATE_PATH) + os.path.getsize(PUBLIC_PATH)
    assert total <= 3 * 1024 * 1024


def test_gzip_header_is_deterministic():
    for path in (PRIVATE_PATH, PUBLIC_PATH):
        with open(path, "rb") as f:
            head = f.read(10)
        assert head[:2] == b"\x1f\x8b"
        assert head[4:8] == b"\x00\x00\x00\x00"  # mtime 0


def test_regeneration_reproduces_shipped_prefix(private_lines, public_lines):
    for lines, seed, public in (
        (private_lines, PRIVATE_SEED, False),
        (public_lines, PUBLIC_SEED, True),
    ):
        regen = list(itertools.islice(generate_records(200, seed=seed, public=public), 200))
        assert len(regen) == 200
        dumped = [json.dumps(r, ensure_ascii=True) for r in regen]
        assert dumped == lines[:200]


def test_write_corpus_byte_deterministic(tmp_path):
    a, b, c = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz", tmp_path / "c.jsonl.gz"
    na = write_corpus(str(a), 40, seed=7)
    nb = write_corpus(str(b), 40, seed=7)
    write_corpus(str(c), 40, seed=8)
    assert na == nb >= 80
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    assert len(_lines(str(a))) == na


def test_cli_writes_corpus_of_any_size(tmp_path, capsys):
    out = tmp_path / "bench.jsonl.gz"
    assert main(["--users", "30", "--out", str(out), "--public", "--seed", "5"]) == 0
    recs = [json.loads(x) for x in _lines(str(out))]
    assert len({r["user"] for r in recs}) == 30
    assert recs == list(generate_records(30, seed=5, public=True))
    assert "30 users" in capsys.readouterr().out


def test_vocabulary_size_and_zipf(private_users):
    counts = Counter(w for u in private_users.values() for s in u for w in s)
    assert 2000 <= len(counts) <= 6000
    ranked = [c for _, c in counts.most_common()]
    # heavy head, long tail: top word >> 100th word >> 1000th word, many hapaxes
    assert ranked[0] >= 10 * ranked[99]
    assert ranked[99] > 5 * ranked[999]
    assert sum(1 for c in ranked if c == 1) >= 100


def _ngram_user_counts(users, n):
    c: Counter = Counter()
    for sents in users.values():
        grams = set()
        for s in sents:
            for i in range(len(s) - n + 1):
                grams.add(tuple(s[i : i + n]))
        c.update(grams)
    return c


def test_shared_long_ngrams_and_long_tail(private_users):
    c6 = _ngram_user_counts(private_users, 6)
    assert sum(1 for v in c6.values() if v >= 10) >= 50
    c4 = _ngram_user_counts(private_users, 4)
    assert sum(1 for v in c4.values() if v >= 20) >= 200
    c8 = _ngram_user_counts(private_users, 8)
    assert sum(1 for v in c8.values() if v >= 20) >= 24
    # ... and a long tail of user-unique text
    assert sum(1 for v in c4.values() if v == 1) >= 0.3 * len(c4)


def test_public_vocabulary_covers_most_private_tokens(private_users, public_users):
    pub_vocab = {w for u in public_users.values() for s in u for w in s}
    priv = Counter(w for u in private_users.values() for s in u for w in s)
    covered = sum(c for w, c in priv.items() if w in pub_vocab) / sum(priv.values())
    assert 0.85 <= covered <= 0.99
    # most private trigram occurrences also occur in the public corpus
    pub3 = {tuple(s[i : i + 3]) for u in public_users.values() for s in u for i in range(len(s) - 2)}
    tot = hit = 0
    for u in private_users.values():
        for s in u:
            for i in range(len(s) - 2):
                tot += 1
                hit += tuple(s[i : i + 3]) in pub3
    assert 0.5 <= hit / tot < 1.0


def test_heavy_tailed_user_activity(private_users):
    sizes = sorted(sum(len(s) for s in u) for u in private_users.values())
    median = sizes[len(sizes) // 2]
    assert sizes[-1] >= 3 * median
    assert sizes[0] * 3 <= median


def test_generate_token_users_shape_and_determinism():
    users = generate_token_users(1000, seed=1)
    assert len(users) == 1000
    lengths = Counter(len(u) for u in users)
    assert min(lengths) >= 3 and max(lengths) <= 8
    assert lengths[3] > lengths[8]  # heavy-tailed: most users near the minimum
    for u in users:
        for s in u:
            assert s and all(isinstance(t, str) and TOKEN_RE.match(t) for t in s)
    assert generate_token_users(1000, seed=1) == users
    assert generate_token_users(1000, seed=2) != users
    other = generate_token_users(50, seed=1, min_sentences=5, max_sentences=5)
    assert all(len(u) == 5 for u in other)


def test_token_users_match_text_distribution():
    """The tokenised fast path draws from the same phrase banks as the text."""
    tok_users = generate_token_users(1500, seed=3)
    text_users = _by_user(generate_records(600, seed=3))
    v_tok = Counter(w for u in tok_users for s in u for w in s)
    v_txt = Counter(w for u in text_users.values() for s in u for w in s)
    top_tok = {w for w, _ in v_tok.most_common(50)}
    top_txt = {w for w, _ in v_txt.most_common(50)}
    assert len(top_tok & top_txt) >= 40
    txt_total = sum(v_txt.values())
    assert sum(c for w, c in v_txt.items() if w in v_tok) / txt_total >= 0.95


def test_tokenize_text_rule():
    assert tokenize_text("Hi Anna, it's 10 am. Great!  Really? ") == [
        ["hi", "anna", "it's", "10", "am"],
        ["great"],
        ["really"],
    ]
