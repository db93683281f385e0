"""Corpora: users → documents → sentences → tokens, with a stable content hash.

Neighbouring datasets in every mechanism of this project differ by one *user* (all of that user's
text), so the corpus keeps text grouped by user. The shipped samples are loaded by
:mod:`dpcore.text.samples` (``sample_data/*.jsonl.gz``); loaders here read a user's own CSV or JSONL file with a user column and a text
column chosen by the user. Every loading problem raises :class:`CorpusError` (a ``ValueError``)
with a message a person can act on; nothing is read from the network.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from pathlib import Path

from ..errors import UserError
from ..quoting import quote as _short
from ..validation import check_int

__all__ = [
    "Corpus",
    "Document",
    "CorpusError",
    "tokenize",
    "corpus_from_records",
    "UploadLimits",
    "shipped_public_hashes",
    "sample_data_dir",
    "SAMPLE_CORPORA",
    "SAMPLE_SIZES",
    "data_cache_dir",
    "corpus_from_token_arrays",
]


_SENTENCE_END = re.compile(r"[.!?\n]+")
_TOKEN = re.compile(r"[a-z0-9']+")
_MAX_EXPANSION = 4  # a .gz upload may decompress to at most 4 × the upload limit
SAMPLE_CORPORA = ("private", "public")
SAMPLE_SIZES = ("classroom", "paper")


class CorpusError(UserError):
    """A corpus could not be built from the given input; the message says why and what to do."""


def tokenize(text: str) -> tuple[tuple[str, ...], ...]:
    """Lower-case, split sentences at . ! ? or a line break, tokens = runs of [a-z0-9'].

    Empty sentences are dropped. n-grams are never formed across the returned sentences.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got text={_short(text)} ({type(text).__name__})")
    sentences = []
    for chunk in _SENTENCE_END.split(text.lower()):
        toks = _TOKEN.findall(chunk)
        if toks:
            sentences.append(tuple(toks))
    return tuple(sentences)


@dataclass(frozen=True, eq=False, slots=True)
class Document:
    """One document: its sentences (tuples of tokens) and an optional genre label."""

    sentences: tuple[tuple[str, ...], ...]
    genre: str | None = None

    def text(self) -> str:
        return " . ".join(" ".join(s) for s in self.sentences)


@dataclass(frozen=True, eq=False)
class Corpus:
    """Text grouped by user: ``users[i]`` is the tuple of user ``user_ids[i]``'s documents.

    ``content_hash`` is a SHA-256 over user ids, genres and tokens (not over the name), so two
    corpora with the same content share cache entries and any change of content changes the key.
    """

    user_ids: tuple[str, ...]
    users: tuple[tuple[Document, ...], ...]
    name: str = "corpus"
    token_arrays: dict | None = field(default=None, repr=False, compare=False)
    parsed_bytes: int | None = field(default=None, repr=False, compare=False)
    """Estimated size in memory when built by :func:`corpus_from_records` (see :class:`UploadLimits`), else None."""
    content_hash: str = field(init=False)

    def __post_init__(self):
        if len(self.user_ids) != len(self.users):
            raise CorpusError(
                f"user_ids and users must have the same length, got {len(self.user_ids)} and {len(self.users)}"
            )
        if len(set(self.user_ids)) != len(self.user_ids):
            raise CorpusError("user_ids must be distinct")
        h = hashlib.sha256()
        for uid, docs in zip(self.user_ids, self.users):
            h.update(b"\x1duser\x1f" + uid.encode())
            for doc in docs:
                h.update(b"\x1cdoc\x1f" + (doc.genre or "").encode())
                for sent in doc.sentences:
                    h.update(b"\x1e" + "\x1f".join(sent).encode())
        object.__setattr__(self, "content_hash", h.hexdigest())

    def __repr__(self) -> str:
        return (
            f"Corpus(name={self.name!r}, users={self.n_users}, documents={self.n_documents}, "
            f"tokens={self.n_tokens}, hash={self.content_hash[:12]})"
        )

    def __hash__(self) -> int:
        return hash(self.content_hash)

    def __eq__(self, other) -> bool:
        return isinstance(other, Corpus) and other.content_hash == self.content_hash

    @property
    def n_users(self) -> int:
        return len(self.users)

    @cached_property
    def n_documents(self) -> int:
        return sum(len(d) for d in self.users)

    @cached_property
    def n_sentences(self) -> int:
        return sum(len(doc.sentences) for docs in self.users for doc in docs)

    @cached_property
    def n_tokens(self) -> int:
        return sum(len(s) for docs in self.users for doc in docs for s in doc.sentences)

    def user_sentences(self) -> list[list[tuple[str, ...]]]:
        """Per user, the flat list of that user's sentences (the input DPNE takes)."""
        return [[s for doc in docs for s in doc.sentences] for docs in self.users]

    def document_texts(self) -> list[str]:
        """Every document as one string of space-joined tokens (for LDA), in user order."""
        return [" ".join(t for s in doc.sentences for t in s) for docs in self.users for doc in docs]

    def document_users(self) -> list[int]:
        """For each document of :meth:`document_texts`, the index of its user."""
        return [i for i, docs in enumerate(self.users) for _ in docs]

    def genres(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for docs in self.users:
            for doc in docs:
                key = doc.genre or "(none)"
                out[key] = out.get(key, 0) + 1
        return out

    def subset(self, user_indices: Iterable[int], *, name: str | None = None) -> "Corpus":
        """The corpus of the given users (in the given order; an index may not repeat)."""
        idx = list(user_indices)
        return Corpus(
            user_ids=tuple(self.user_ids[i] for i in idx),
            users=tuple(self.users[i] for i in idx),
            name=name or f"{self.name}[{len(idx)} users]",
        )


def corpus_from_records(
    records: Iterable[Mapping[str, object]],
    *,
    user_field: str,
    text_field: str,
    genre_field: str | None = None,
    name: str = "corpus",
    min_users: int = 1,
    limits: UploadLimits | None = None,
) -> Corpus:
    """Group records (one per document) by user, keeping first-seen user order.

    Rows whose text has no tokens are skipped. Raises :class:`CorpusError` when a field is missing,
    a row is not a mapping, a text is a list or an object rather than text, when nothing remains, or
    when fewer than ``min_users`` users remain; TypeError when ``records`` is not an iterable of rows.
    With ``limits`` (an :class:`UploadLimits`), the rows, users, words and the estimated size of the
    corpus in memory are counted as the records come, and a CorpusError stops the reading as soon as one
    passes its limit. Equal words share one string object, so a word costs a pointer per use; the
    corpus's estimated size in memory is kept in ``parsed_bytes``.
    """
    min_users = _check_record_arguments(records, user_field, text_field, genre_field, min_users, limits)
    build = _CorpusBuilder(limits)
    for row_no, rec in enumerate(records, start=1):
        build.count_row()
        fields = _user_and_text(rec, row_no, user_field, text_field)
        if fields is None:
            continue
        sentences = tokenize(str(fields[1]))
        if not sentences:
            continue
        genre = str(rec[genre_field]) if genre_field and rec.get(genre_field) is not None else None
        build.add(str(fields[0]).strip(), sentences, genre)
    return build.corpus(name=name, min_users=min_users, user_field=user_field, text_field=text_field)


def _check_record_arguments(records, user_field, text_field, genre_field, min_users, limits) -> int:
    """corpus_from_records's checks of its arguments (TypeError for a wrong kind); returns ``min_users``."""
    if records is None or isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        raise TypeError(
            f"records must be an iterable of rows (mappings column → value), got "
            f"records={_short(records)} ({type(records).__name__})"
        )
    for label, f in (("user_field", user_field), ("text_field", text_field)):
        if not isinstance(f, str):
            raise TypeError(f"{label} must be a column name (a string), got {label}={_short(f)} ({type(f).__name__})")
    if genre_field is not None and not isinstance(genre_field, str):
        raise TypeError(f"genre_field must be a column name or None, got genre_field={_short(genre_field)}")
    min_users = check_int("min_users", min_users, low=1)
    if limits is not None and not isinstance(limits, UploadLimits):
        raise TypeError(
            f"limits must be an UploadLimits or None, got limits={_short(limits)} ({type(limits).__name__})"
        )
    return min_users


def _user_and_text(rec, row_no: int, user_field: str, text_field: str) -> tuple[object, object] | None:
    """A row's (user, text), or None for a row without a user or a text (skipped); CorpusError for a row that is
    not a record, lacks a column, or holds a JSON object or array where the user id or the text should be."""
    if not isinstance(rec, Mapping):
        raise CorpusError(
            f"row {row_no} is a {type(rec).__name__}, not a record with named columns (got {_short(rec)})"
        )
    if user_field not in rec or text_field not in rec:
        missing = [f for f in (user_field, text_field) if f not in rec]
        cols = list(islice(rec.keys(), 13))
        shown = ", ".join(_short(k, 40) for k in cols[:12]) + (", …" if len(cols) > 12 else "")
        raise CorpusError(
            f"row {row_no} has no column {', '.join(_short(m) for m in missing)}; its columns are {shown or '(none)'}"
        )
    user, text = rec[user_field], rec[text_field]
    if user is None or (isinstance(user, float) and user != user) or str(user).strip() == "":
        return None  # no user (None, NaN or blank): the row cannot be attributed
    if isinstance(user, (dict, list, tuple)):
        raise CorpusError(
            f"row {row_no}: the user column {_short(user_field)} holds a {type(user).__name__}, not a user id"
        )
    if text is None:
        return None
    if isinstance(text, (dict, list, tuple)):
        raise CorpusError(
            f"row {row_no}: the text column {_short(text_field)} holds a JSON "
            f"{'object' if isinstance(text, dict) else 'array'}, not text"
        )
    return user, text


class _CorpusBuilder:
    """Documents grouped by user in first-seen order, the upload limits counted as the rows come. Equal words
    share one string object; ``size`` estimates the corpus's size in memory."""

    def __init__(self, limits: UploadLimits | None):
        self.order: list[str] = []
        self.by_user: dict[str, list[Document]] = {}
        self.words: dict[str, str] = {}  # one string object per distinct word (and genre)
        self.n_rows = self.n_tokens = self.size = 0
        self.max_rows: int | None = limits.rows if limits is not None else None
        self.max_users: int | None = limits.users if limits is not None else None
        self.max_tokens: int | None = limits.tokens if limits is not None else None
        self.max_size: int | None = limits.parsed_bytes if limits is not None else None

    def count_row(self) -> None:
        self.n_rows += 1
        if self.max_rows is not None and self.n_rows > self.max_rows:
            raise CorpusError(
                f"the file has more than {self.max_rows:,} rows (this server's limit): upload a sample of the users"
            )

    def add(self, uid: str, sentences, genre: str | None) -> None:
        """One document of user ``uid``; CorpusError as soon as the words, users or size pass a limit."""
        words = self.words
        before = len(words)
        sentences = tuple([tuple([words.setdefault(t, t) for t in sent]) for sent in sentences])
        k = sum(map(len, sentences))
        self.n_tokens += k
        if self.max_tokens is not None and self.n_tokens > self.max_tokens:
            raise CorpusError(
                f"the file has more than {self.max_tokens:,} words (this server's limit): upload a sample of the users"
            )
        if len(words) > before:  # the new distinct words: their characters and a dict entry each
            self.size += sum(100 + len(w) for w in islice(reversed(words), len(words) - before))
        self.size += 120 + 48 * len(sentences) + 8 * k
        if genre is not None:
            genre = words.setdefault(genre, genre)
        if uid not in self.by_user:
            if self.max_users is not None and len(self.order) >= self.max_users:
                raise CorpusError(
                    f"the file has more than {self.max_users:,} users (this server's limit): upload a sample of the "
                    "users"
                )
            self.by_user[uid] = []
            self.order.append(uid)
            self.size += 200 + len(uid)
        self.by_user[uid].append(Document(sentences=sentences, genre=genre))
        if self.max_size is not None and self.size > self.max_size:
            raise CorpusError(
                f"the parsed corpus would take more than {_mb(self.max_size)} of memory (this server's "
                "limit): upload a sample of the users"
            )

    def corpus(self, *, name: str, min_users: int, user_field: str, text_field: str) -> Corpus:
        """The corpus read; CorpusError when the file had no rows, no usable text or too few users."""
        order = self.order
        if self.n_rows == 0:
            raise CorpusError("the file has no rows: upload a CSV or JSONL file with one document per row")
        if not order:
            raise CorpusError(
                f"no usable text: every row had an empty user in {_short(user_field)} or no words in "
                f"{_short(text_field)}"
            )
        if len(order) < min_users:
            raise CorpusError(
                f"the corpus has {len(order)} user(s) but at least {min_users} are needed: differential privacy "
                "protects one user among many, so the user column must identify who wrote each row"
            )
        users = tuple(tuple(self.by_user.pop(u)) for u in order)
        return Corpus(user_ids=tuple(order), users=users, name=name, parsed_bytes=self.size)


_MB = 2**20


def _mb(n: int) -> str:
    return f"{n / _MB:.0f} MB"


@dataclass(frozen=True)
class UploadLimits:
    """What one uploaded file may hold. Every limit is checked *while* the file is read, so a file over a
    limit is refused as soon as it passes it (the memory a refused file costs is bounded by the limits, not
    by the file). ``parsed_bytes`` bounds an estimate of the parsed corpus's size in memory (Python objects:
    about 8 bytes per word, 40 per sentence, 120 per document, 200 per user, 100 per distinct word plus the
    characters of the distinct words and user ids)."""

    file_bytes: int = 50 * _MB
    expanded_bytes: int = 200 * _MB
    line_chars: int = 4 * _MB
    rows: int = 500_000
    users: int = 100_000
    tokens: int = 5_000_000
    parsed_bytes: int = 384 * _MB

    def __post_init__(self):
        for name in ("file_bytes", "expanded_bytes", "line_chars", "rows", "users", "tokens", "parsed_bytes"):
            check_int(name, getattr(self, name), low=1)

    def describe(self) -> str:
        """The limits in one sentence (the README and the upload panel state them)."""
        return (
            f"at most {_mb(self.file_bytes)} per file ({_mb(self.expanded_bytes)} once decompressed), "
            f"{self.rows:,} rows, {self.users:,} users, {self.tokens:,} words, {_mb(self.line_chars)} per "
            f"line or cell, and {_mb(self.parsed_bytes)} of memory once parsed"
        )


def sample_data_dir() -> Path:
    """The folder of the shipped corpora: ``$DPCORE_SAMPLE_DATA`` or ``sample_data/`` beside dpcore."""
    env = os.environ.get("DPCORE_SAMPLE_DATA")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "sample_data"


def data_cache_dir() -> Path:
    """Where generated corpora are cached: ``$DPCORE_DATA_CACHE`` or ``~/.cache/dpcore/corpora`` (never the repo)."""
    env = os.environ.get("DPCORE_DATA_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "dpcore" / "corpora"


def corpus_from_token_arrays(
    words: Sequence[str],
    tokens,
    sent_off,
    doc_off,
    user_off,
    *,
    doc_genre=None,
    genres: Sequence[str | None] = (),
    user_ids: Sequence[str] | None = None,
    name: str = "corpus",
) -> Corpus:
    """Build a :class:`Corpus` from flat token-id arrays (the generator's compact form).

    The arrays are kept on the corpus (``token_arrays``) so that :func:`dpcore.text.encode_corpus` can
    skip re-encoding the strings (a paper-size corpus has about 20 M tokens).

    ``tokens[sent_off[s]:sent_off[s+1]]`` is sentence ``s``, document ``d`` is sentences
    ``doc_off[d]:doc_off[d+1]``, user ``u`` documents ``user_off[u]:user_off[u+1]``; ``words[id]`` is
    the token. Token strings are shared objects, so the corpus costs pointers, not copies of words.
    """
    import numpy as np

    wl = list(words)
    uo = np.asarray(user_off, dtype=np.int64).tolist()
    do = np.asarray(doc_off, dtype=np.int64)[: uo[-1] + 1].tolist()
    so = np.asarray(sent_off, dtype=np.int64)[: do[-1] + 1].tolist()
    toks = np.asarray(tokens)[: so[-1]]
    strs = [wl[i] for i in toks.tolist()]
    sentences = [tuple(strs[so[i] : so[i + 1]]) for i in range(len(so) - 1)]
    del strs
    g = (
        [genres[x] for x in np.asarray(doc_genre)[: len(do) - 1].tolist()]
        if doc_genre is not None
        else [None] * (len(do) - 1)
    )
    docs = [Document(sentences=tuple(sentences[do[d] : do[d + 1]]), genre=g[d]) for d in range(len(do) - 1)]
    del sentences
    users = tuple(tuple(docs[uo[u] : uo[u + 1]]) for u in range(len(uo) - 1))
    ids = tuple(user_ids) if user_ids is not None else tuple(f"u{u:06d}" for u in range(len(users)))
    arrays = {
        "words": wl,
        "tokens": toks,
        "sent_off": np.asarray(so, dtype=np.int64),
        "doc_off": np.asarray(do, dtype=np.int64),
        "user_off": np.asarray(uo, dtype=np.int64),
    }
    return Corpus(user_ids=ids, users=users, name=name, token_arrays=arrays)


_SHIPPED_PUBLIC: set[str] = set()


def shipped_public_hashes() -> frozenset[str]:
    """Content hashes of the *public* splits dpcore's own loaders have returned in this process
    (``load_sample_corpus("public")``, ``load_real_corpus(..., which="public")``).

    These corpora are known to share no person with the shipped private splits (sample: other generated users;
    chat: the other 395 people of a fixed split), and a vocabulary counted on one of them reads no private data of
    an upload either. A corpus a caller built — even from the shipped private people — is never in it: what reads
    a "public" corpus (VIPS-LDA's vocabulary) shows its DP as conditional on that corpus being public (issue 30
    item 4). A vocabulary is built from a corpus in memory, so the loaders register what they return."""
    return frozenset(_SHIPPED_PUBLIC)


def _shipped_public(corpus: Corpus) -> Corpus:
    _SHIPPED_PUBLIC.add(corpus.content_hash)
    return corpus
