"""Streaming reader (dpcore.text.stream): same corpus and same DPNE release as the in-memory path."""

from __future__ import annotations

import csv
import gzip
import json

import numpy as np
import pytest

from dpcore import dpne_extract, tokenize
from dpcore.text.ngrams import encode_users
from dpcore.text.stream import InputError, read_token_corpus


def _records(seed=0, n_users=60):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(20)] + ["Don't", "ÜBER"]
    recs = []
    for u in range(n_users):
        for _ in range(int(rng.integers(1, 4))):
            sents = [" ".join(rng.choice(words, size=int(rng.integers(1, 8)))) for _ in range(int(rng.integers(1, 4)))]
            recs.append((str(u), ". ".join(sents) + "!"))
    recs.append((str(n_users), "... !!"))  # a user without any token still counts
    order = rng.permutation(len(recs))  # users' records interleaved
    return [recs[i] for i in order]


def _in_memory(recs):
    n = max(int(u) for u, _ in recs) + 1
    users = [[] for _ in range(n)]
    for u, text in recs:
        users[int(u)].extend(tokenize(text))
    return users


def _write(tmp_path, recs):
    half = len(recs) // 2
    with open(tmp_path / "a.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["author", "body", "other"])
        for u, t in recs[:half]:
            w.writerow([u, t, "x"])
    with gzip.open(tmp_path / "b.jsonl.gz", "wt", encoding="utf-8") as fh:
        for u, t in recs[half:]:
            fh.write(json.dumps({"author": u, "body": t}) + "\n")
    (tmp_path / "notes.txt").write_text("ignored")


def test_stream_matches_in_memory_corpus_and_release(tmp_path):
    recs = _records()
    _write(tmp_path, recs)
    seen = []
    tc = read_token_corpus(
        tmp_path, user_column="author", text_column="body", chunk_records=7, progress=lambda n, b: seen.append((n, b))
    )
    users = _in_memory(recs)
    ref = encode_users(users)
    assert tc.n_users == len(users) and tc.n_tokens == ref.n_tokens
    assert tc.tokens.dtype == np.int32 and tc.run_left.dtype == np.int32 and tc.user_of.dtype == np.int32
    assert (np.diff(tc.user_of) >= 0).all()
    # the same users, sentences and tokens (users are numbered by first appearance in the files)
    order = {}
    for u, _ in recs:
        order.setdefault(u, len(order))
    back = {v: k for k, v in order.items()}
    words = tc.vocabulary[tc.tokens]
    for i in range(tc.n_users):
        mine = words[tc.user_of == i].tolist()
        theirs = [w for s in users[int(back[i])] for w in s]
        assert sorted(mine) == sorted(theirs)  # sentence order inside a user follows the files
    assert seen[-1][0] == len(recs) and seen == sorted(seen)
    # user ids "0", "1", ... key the contribution limit like the in-memory indices: same release
    kw = dict(epsilon=5, delta=1e-6, max_length=4, contribution_limit=3, eta=0.3)
    for seed in (0, 1):
        assert dpne_extract(tc, rng=seed, **kw).ngrams == dpne_extract(ref, rng=seed, **kw).ngrams


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("x.csv", "user,body\n1,hi\n", r"no column 'text'"),
        ("x.jsonl", '{"user": 1, "text": "a"}\nnot json\n', r"line 2: not valid JSON"),
        ("x.jsonl", "[1, 2]\n", r"line 1: each line must be a JSON object"),
        ("x.jsonl", '{"user": 1, "text": 5}\n', r"field 'text' must be text"),
        ("x.txt", "hello", r"must end with one of"),
    ],
)
def test_bad_input_errors_name_file_and_problem(tmp_path, name, content, message):
    (tmp_path / name).write_text(content)
    with pytest.raises(InputError, match=message):
        read_token_corpus(tmp_path / name)


def test_bad_gzip_missing_path_and_empty_folder(tmp_path):
    (tmp_path / "x.csv.gz").write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match="cannot be read"):
        read_token_corpus(tmp_path / "x.csv.gz")
    with pytest.raises(InputError, match="not found"):
        read_token_corpus(tmp_path / "nope.csv")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="holds no file"):
        read_token_corpus(tmp_path / "empty")


def test_reordering_in_small_blocks_gives_the_same_corpus(tmp_path, monkeypatch):
    import dpcore.text.stream as stream

    recs = _records(3)  # interleaved users: the reader must regroup sentences by user
    _write(tmp_path, recs)
    whole = read_token_corpus(tmp_path, user_column="author", text_column="body")
    monkeypatch.setattr(stream, "_REORDER_SENTENCES", 5)
    blocks = read_token_corpus(tmp_path, user_column="author", text_column="body")
    for name in ("tokens", "run_left", "user_of"):
        np.testing.assert_array_equal(getattr(blocks, name), getattr(whole, name))
    assert (np.diff(whole.user_of) >= 0).all()
