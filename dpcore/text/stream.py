"""Streaming input for big corpora: CSV / JSONL (optionally .gz) files → a compact :class:`TokenCorpus`.

Issue 12: a corpus with millions of users must not be held as Python lists of strings (1 M
generated users took 6 GB that way). Here records are read in chunks; each chunk's texts are
tokenised exactly as :func:`dpcore.tokenize` does (sentences never joined, so n-grams never cross
a sentence boundary), its tokens are mapped to ids through one growing ``dict`` of the distinct
tokens, and only integer arrays are kept: a token id (``int32``) per position and per sentence its
length and user. Per-token Python objects live only while their chunk is encoded.

At the end sentences are put in user order (a user may have many records anywhere in the input),
which :class:`dpcore.text.TokenCorpus` requires. Memory ≈ 12 bytes per token for the corpus plus
the vocabulary and the user ids (one dict entry each) — 1.2 M users × 500 tokens ≈ 7.2 GB.

Each user's stable key (:func:`dpcore.mechanisms.text_key` of the user id as text) goes into
``TokenCorpus.user_keys``, so DPNE's keyed contribution limit depends on the user id, not on the
position of the user in the file: the Spark engine reads the same ids and draws the same.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from ..errors import UserError
from ..mechanisms.keyed import text_key
from ..quoting import quote
from .corpus import tokenize
from .ngrams import TokenCorpus

__all__ = ["INPUT_SUFFIXES", "InputError", "input_files", "iter_records", "read_token_corpus"]

INPUT_SUFFIXES = (".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")
_CHUNK_RECORDS = 20_000
_REORDER_SENTENCES = 1 << 20  # sentences moved together when the input is not grouped by user


class InputError(UserError):
    """The input files cannot be read as a corpus; the message names the file and what is wrong."""


def _format(path: Path) -> str:
    name = path.name.lower()
    for suffix in INPUT_SUFFIXES:
        if name.endswith(suffix):
            return "csv" if ".csv" in suffix else "jsonl"
    raise InputError(f"input file must end with one of {', '.join(INPUT_SUFFIXES)}, got {str(path)!r}")


def input_files(path) -> list[Path]:
    """The input files: ``path`` itself, or the CSV/JSONL(.gz) files in folder ``path`` (sorted, not recursive)."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"input must be an existing file or folder, got {str(p)!r} (not found)")
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and f.name.lower().endswith(INPUT_SUFFIXES))
        if not files:
            raise InputError(f"input folder {str(p)!r} holds no file ending with {', '.join(INPUT_SUFFIXES)}")
        return files
    _format(p)
    return [p]


def _open_text(path: Path):
    raw = gzip.open(path, "rb") if path.name.lower().endswith(".gz") else open(path, "rb")
    return io.TextIOWrapper(raw, encoding="utf-8", errors="strict", newline="")


def iter_records(path, *, user_column: str = "user", text_column: str = "text") -> Iterator[tuple[str, str]]:
    """(user id as text, text) for every record of every input file, in file order.

    A record without a user id (empty, blank or JSON null) is skipped, as the app's upload skips it
    (:func:`dpcore.corpus_from_records`): it cannot be attributed to a user.

    Raises:
      InputError: a missing file or column, a line that is not a JSON object, bad UTF-8 or gzip.
    """
    for f in input_files(path):
        fmt = _format(f)
        try:
            with _open_text(f) as fh:
                if fmt == "csv":
                    reader = csv.DictReader(fh)
                    cols = reader.fieldnames or []
                    for col in (user_column, text_column):
                        if col not in cols:
                            raise InputError(f"{f}: no column {quote(col)}; the header has {quote(cols, 200)}")
                    for row in reader:
                        if (row[user_column] or "").strip():
                            yield str(row[user_column]), row[text_column] or ""
                else:
                    for lineno, line in enumerate(fh, start=1):
                        if not line.strip():
                            continue
                        try:
                            rec = json.loads(line)
                        except json.JSONDecodeError as exc:
                            raise InputError(f"{f}, line {lineno}: not valid JSON ({exc.msg})") from None
                        if not isinstance(rec, dict):
                            raise InputError(f"{f}, line {lineno}: each line must be a JSON object")
                        for col in (user_column, text_column):
                            if col not in rec:
                                raise InputError(
                                    f"{f}, line {lineno}: no field {quote(col)}; fields are {quote(sorted(rec), 200)}"
                                )
                        text = rec[text_column]
                        if text is not None and not isinstance(text, str):
                            raise InputError(
                                f"{f}, line {lineno}: field {quote(text_column)} must be text, "
                                f"got {type(text).__name__}"
                            )
                        user = rec[user_column]
                        if user is not None and str(user).strip():
                            yield str(user), text or ""
        except (UnicodeDecodeError, gzip.BadGzipFile, EOFError, csv.Error) as exc:
            raise InputError(f"{f}: cannot be read as {fmt}{'.gz' if f.name.endswith('.gz') else ''} ({exc})") from None


def read_token_corpus(
    path,
    *,
    user_column: str = "user",
    text_column: str = "text",
    chunk_records: int = _CHUNK_RECORDS,
    progress: Callable[[int, int], None] | None = None,
) -> TokenCorpus:
    """Stream the input into a :class:`TokenCorpus` (token ids, sentence runs, user of each position).

    Args:
      path: a CSV/JSONL(.gz) file or a folder of them.
      user_column, text_column: the columns (CSV) or fields (JSONL) holding the user id and the text.
      chunk_records: records tokenised and encoded together.
      progress: called as ``progress(records read, bytes of input read so far)`` after each chunk.

    Token ids are numbered in first-appearance order; users in first-appearance order of their id.
    """
    files = input_files(path)
    enc = _Encoder()
    n_records = 0
    sizes = [os.path.getsize(f) for f in files]
    chunk: list[tuple[str, str]] = []
    done_bytes = 0
    for i, f in enumerate(files):
        for rec in iter_records(f, user_column=user_column, text_column=text_column):
            chunk.append(rec)
            if len(chunk) >= chunk_records:
                enc.flush(chunk)
                n_records += len(chunk)
                chunk = []
                if progress is not None:
                    progress(n_records, done_bytes + sizes[i] // 2)
        done_bytes += sizes[i]
    if chunk:
        enc.flush(chunk)
        n_records += len(chunk)
    if progress is not None:
        progress(n_records, done_bytes)

    tokens, lens, sent_user = enc.arrays()
    if sent_user.size and (np.diff(sent_user) < 0).any():
        tokens, lens, sent_user = _in_user_order(tokens, lens, sent_user)
    if tokens.size >= 2**31:
        raise InputError(f"the input holds {tokens.size:,} tokens; one machine handles < 2^31, use --engine spark")
    ends = np.cumsum(lens, dtype=np.int64).astype(np.int32)
    run_left = np.repeat(ends, lens)
    run_left -= np.arange(tokens.size, dtype=np.int32)
    user_of = np.repeat(sent_user, lens).astype(np.int32)
    vocabulary = np.empty(len(enc.vocab), dtype=object)
    vocabulary[:] = list(enc.vocab)
    enc.vocab = {}
    return TokenCorpus(
        tokens=tokens,
        run_left=run_left,
        user_of=user_of,
        vocabulary=vocabulary,
        n_users=len(enc.user_index),
        user_keys=np.asarray(enc.user_keys, dtype=np.uint64),
    )


class _Encoder:
    """Chunks of (user id, text) records → token ids (``int32``, one growing dict of the distinct tokens), and per
    sentence its length and user; users numbered in first-appearance order with their stable keys."""

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self.user_index: dict[str, int] = {}
        self.user_keys: list[int] = []
        self.tok_parts: list[np.ndarray] = []
        self.len_parts: list[np.ndarray] = []
        self.usr_parts: list[np.ndarray] = []

    def flush(self, chunk: list[tuple[str, str]]) -> None:
        """Tokenise and encode one chunk (its per-token Python objects live only during this call)."""
        user_index, vocab = self.user_index, self.vocab
        flat: list[str] = []
        lens: list[int] = []
        sent_user: list[int] = []
        for uid, text in chunk:
            u = user_index.get(uid)
            if u is None:
                u = user_index[uid] = len(user_index)
                self.user_keys.append(text_key(uid))
            for sent in tokenize(text):
                flat.extend(sent)
                lens.append(len(sent))
                sent_user.append(u)
        setdefault = vocab.setdefault
        self.tok_parts.append(np.fromiter((setdefault(w, len(vocab)) for w in flat), dtype=np.int32, count=len(flat)))
        self.len_parts.append(np.asarray(lens, dtype=np.int32))
        self.usr_parts.append(np.asarray(sent_user, dtype=np.int32))

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(token ids, sentence lengths, sentence users) in input order; the chunks' parts are let go."""
        tokens = np.concatenate(self.tok_parts) if self.tok_parts else np.zeros(0, dtype=np.int32)
        self.tok_parts = []
        lens = np.concatenate(self.len_parts) if self.len_parts else np.zeros(0, dtype=np.int32)
        sent_user = np.concatenate(self.usr_parts) if self.usr_parts else np.zeros(0, dtype=np.int32)
        self.len_parts, self.usr_parts = [], []
        return tokens, lens, sent_user


def _in_user_order(tokens, lens, sent_user) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sentences in user order (stable: a user's sentences keep their file order), copied block by block of
    sentences so that the gather indices never cover the whole corpus at once."""
    order = np.argsort(sent_user, kind="stable")
    starts = np.zeros(lens.size, dtype=np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    new_lens = lens[order]
    new_tokens = np.empty_like(tokens)
    at = 0
    for b0 in range(0, order.size, _REORDER_SENTENCES):
        o = order[b0 : b0 + _REORDER_SENTENCES]
        ln = new_lens[b0 : b0 + _REORDER_SENTENCES].astype(np.int64)
        n_b = int(ln.sum())
        dest0 = np.cumsum(ln) - ln  # each sentence's start inside the block
        new_tokens[at : at + n_b] = tokens[np.repeat(starts[o] - dest0, ln) + np.arange(n_b, dtype=np.int64)]
        at += n_b
    return new_tokens, new_lens, sent_user[order]
