"""Corpora: users → documents → sentences → tokens, with a stable content hash.

Neighbouring datasets in every mechanism of this project differ by one *user* (all of that user's
text), so the corpus keeps text grouped by user. Loaders read the shipped samples
(``sample_data/*.jsonl.gz``) and a user's own CSV or JSONL file with a user column and a text
column chosen by the user. Every loading problem raises :class:`CorpusError` (a ``ValueError``)
with a message a person can act on; nothing is read from the network.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import os
import re
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from .validation import check_choice, check_int

__all__ = [
    "Corpus",
    "Document",
    "CorpusError",
    "tokenize",
    "corpus_from_records",
    "read_table",
    "table_columns",
    "load_uploaded_corpus",
    "load_sample_corpus",
    "sample_data_dir",
    "SAMPLE_CORPORA",
    "SAMPLE_SIZES",
    "data_cache_dir",
    "corpus_from_token_arrays",
    "MAX_UPLOAD_BYTES",
]

_SENTENCE_END = re.compile(r"[.!?\n]+")
_TOKEN = re.compile(r"[a-z0-9']+")
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
_MAX_EXPANSION = 4  # a .gz upload may decompress to at most 4 × the upload limit


def _short(value, limit: int = 60) -> str:
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 1] + "…"
SAMPLE_CORPORA = ("private", "public")
SAMPLE_SIZES = ("classroom", "paper")
PAPER_CACHE_VERSION = 3  # 3: sample_data/generate.py calibrated on the real chat corpus (issue 20; 2 is taken by the faults branch)


class CorpusError(ValueError):
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


@dataclass(frozen=True, eq=False)
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
    content_hash: str = field(init=False)

    def __post_init__(self):
        if len(self.user_ids) != len(self.users):
            raise CorpusError(f"user_ids and users must have the same length, got {len(self.user_ids)} and {len(self.users)}")
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
        return (f"Corpus(name={self.name!r}, users={self.n_users}, documents={self.n_documents}, "
                f"tokens={self.n_tokens}, hash={self.content_hash[:12]})")

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
) -> Corpus:
    """Group records (one per document) by user, keeping first-seen user order.

    Rows whose text has no tokens are skipped. Raises :class:`CorpusError` when a field is missing,
    a row is not a mapping, a text is a list or an object rather than text, when nothing remains, or
    when fewer than ``min_users`` users remain; TypeError when ``records`` is not an iterable of rows.
    """
    if records is None or isinstance(records, (str, bytes, Mapping)) or not isinstance(records, Iterable):
        raise TypeError(f"records must be an iterable of rows (mappings column → value), got "
                        f"records={_short(records)} ({type(records).__name__})")
    for label, f in (("user_field", user_field), ("text_field", text_field)):
        if not isinstance(f, str):
            raise TypeError(f"{label} must be a column name (a string), got {label}={_short(f)} ({type(f).__name__})")
    if genre_field is not None and not isinstance(genre_field, str):
        raise TypeError(f"genre_field must be a column name or None, got genre_field={_short(genre_field)}")
    min_users = check_int("min_users", min_users, low=1)
    order: list[str] = []
    by_user: dict[str, list[Document]] = {}
    n_rows = 0
    for row_no, rec in enumerate(records, start=1):
        n_rows += 1
        if not isinstance(rec, Mapping):
            raise CorpusError(f"row {row_no} is a {type(rec).__name__}, not a record with named columns "
                              f"(got {_short(rec)})")
        if user_field not in rec or text_field not in rec:
            missing = [f for f in (user_field, text_field) if f not in rec]
            raise CorpusError(
                f"row {row_no} has no column {', '.join(repr(m) for m in missing)}; "
                f"its columns are {', '.join(repr(k) for k in rec.keys()) or '(none)'}"
            )
        user, text = rec[user_field], rec[text_field]
        if user is None or (isinstance(user, float) and user != user) or str(user).strip() == "":
            continue  # no user (None, NaN or blank): the row cannot be attributed
        if isinstance(user, (dict, list, tuple)):
            raise CorpusError(f"row {row_no}: the user column {user_field!r} holds a {type(user).__name__}, "
                              "not a user id")
        if text is None:
            continue
        if isinstance(text, (dict, list, tuple)):
            raise CorpusError(f"row {row_no}: the text column {text_field!r} holds a JSON "
                              f"{'object' if isinstance(text, dict) else 'array'}, not text")
        sentences = tokenize(str(text))
        if not sentences:
            continue
        uid = str(user).strip()
        genre = str(rec[genre_field]) if genre_field and rec.get(genre_field) is not None else None
        if uid not in by_user:
            by_user[uid] = []
            order.append(uid)
        by_user[uid].append(Document(sentences=sentences, genre=genre))
    if n_rows == 0:
        raise CorpusError("the file has no rows: upload a CSV or JSONL file with one document per row")
    if not order:
        raise CorpusError(
            f"no usable text: every row had an empty user in {user_field!r} or no words in {text_field!r}"
        )
    if len(order) < min_users:
        raise CorpusError(
            f"the corpus has {len(order)} user(s) but at least {min_users} are needed: differential privacy "
            "protects one user among many, so the user column must identify who wrote each row"
        )
    return Corpus(user_ids=tuple(order), users=tuple(tuple(by_user[u]) for u in order), name=name)


_OTHER_FORMATS = {  # magic bytes of files people upload by mistake
    b"PK\x03\x04": "a ZIP archive (an .xlsx or .docx file is one): export the sheet as CSV",
    b"BZh": "bzip2-compressed: only gzip (.gz) is supported",
    b"\xfd7zXZ\x00": "xz-compressed: only gzip (.gz) is supported",
    b"\x28\xb5\x2f\xfd": "zstd-compressed: only gzip (.gz) is supported",
    b"%PDF": "a PDF document: upload a CSV or JSONL file",
}


def _gunzip(data: bytes, limit: int) -> bytes:
    """gzip members → bytes, at most ``limit`` bytes out (a small file cannot expand without bound)."""
    out, total = [], 0
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            chunk = d.decompress(data, limit - total + 1)
        except zlib.error as exc:
            raise CorpusError(f"the file looks gzip-compressed but could not be decompressed ({exc}); "
                              "upload the original .gz file or the uncompressed file") from None
        total += len(chunk)
        out.append(chunk)
        if total > limit:
            raise CorpusError(f"the file expands to more than {limit / 1e6:.0f} MB when decompressed: "
                              "upload a sample of the users")
        if not d.eof:
            raise CorpusError("the gzip file is truncated (it ends before its end-of-stream marker): "
                              "the upload or the compression did not finish; compress and upload it again")
        data = d.unused_data  # a further gzip member, if any
        if data and data[:2] != b"\x1f\x8b":
            break  # trailing garbage after the last member, as gzip itself ignores
    return b"".join(out)


def _decode(data: bytes, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    if data[:2] == b"\x1f\x8b":
        data = _gunzip(data, _MAX_EXPANSION * max_bytes)
    for magic, what in _OTHER_FORMATS.items():
        if data.startswith(magic):
            raise CorpusError(f"the file is {what}")
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CorpusError("the file is not UTF-8 text: it is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8 and upload again")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"the file is not UTF-8 text (byte {exc.start} is 0x{data[exc.start]:02x}); "
            "save it as UTF-8 and upload again"
        ) from None


def _is_array_of_objects(text: str) -> bool:
    """Whether ``text`` is one JSON array of objects (a .json export, not JSON Lines)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return isinstance(obj, list) and bool(obj) and all(isinstance(o, dict) for o in obj)


def _format_of(filename: str) -> str:
    if not isinstance(filename, str):
        raise TypeError(f"filename must be a string, got filename={_short(filename)} ({type(filename).__name__})")
    name = filename.lower().removesuffix(".gz")
    if name.endswith(".csv"):
        return "csv"
    if name.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    raise CorpusError(f"unsupported file type {filename!r}: upload a .csv or .jsonl file (optionally .gz)")


def read_table(data: bytes, filename: str, *, max_bytes: int = MAX_UPLOAD_BYTES) -> list[dict[str, object]]:
    """Parse an uploaded CSV or JSONL file into a list of row dicts, or raise :class:`CorpusError`."""
    if not isinstance(data, (bytes, bytearray)):
        raise CorpusError(f"data must be bytes, got {type(data).__name__}")
    if len(data) == 0:
        raise CorpusError("the file is empty: upload a CSV or JSONL file with a user column and a text column")
    if len(data) > max_bytes:
        raise CorpusError(
            f"the file is too large: {len(data) / 1e6:.1f} MB, the limit is {max_bytes / 1e6:.0f} MB; "
            "upload a sample of the users"
        )
    fmt = _format_of(filename)
    text = _decode(bytes(data), max_bytes)
    if not text.strip():
        raise CorpusError("the file holds no text: upload a CSV or JSONL file with a user column and a text column")
    rows: list[dict[str, object]] = []
    if fmt == "jsonl":
        if text.lstrip().startswith("[") and _is_array_of_objects(text):
            raise CorpusError("the file is one JSON array, not JSON Lines: JSONL needs one JSON object per line "
                              "(e.g. convert it with `jq -c '.[]' file.json > file.jsonl`)")
        for line_no, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CorpusError(f"line {line_no} is not valid JSON ({exc.msg}); JSONL needs one JSON object per line") from None
            except RecursionError:
                raise CorpusError(f"line {line_no} nests JSON too deeply to read") from None
            if not isinstance(obj, dict):
                raise CorpusError(f"line {line_no} is a JSON {type(obj).__name__}, not an object with named fields")
            rows.append(obj)
    else:
        if csv.field_size_limit() < max_bytes:  # a long document in one cell is fine up to the upload limit
            csv.field_size_limit(max_bytes)
        try:
            reader = csv.DictReader(io.StringIO(text, newline=""), strict=True)
            if not reader.fieldnames or all(not (f or "").strip() for f in reader.fieldnames):
                raise CorpusError("the CSV file has no header row: the first line must name the columns")
            for row in reader:
                rows.append({k: v for k, v in row.items() if k is not None})
        except csv.Error as exc:
            raise CorpusError(f"the CSV file could not be parsed ({exc}): check that every quote \" is "
                              "closed") from None
        if len(reader.fieldnames) == 1:
            only = reader.fieldnames[0]
            sep = next((s for s in (";", "\t", "|") if s in only), None)
            hint = (f": its header {only!r} contains {sep!r} — save it with commas as separators"
                    if sep else f" ({only!r}): add a column that says which user wrote each row")
            raise CorpusError(f"the CSV file has only one column{hint}; a corpus needs a user column and a text column")
    if not rows:
        raise CorpusError("the file has a header but no rows")
    return rows


def table_columns(rows: Sequence[Mapping[str, object]]) -> list[str]:
    """Column names in first-seen order across the first 1,000 rows (for the column pickers)."""
    seen: dict[str, None] = {}
    for row in rows[:1000]:
        for k in row:
            seen.setdefault(str(k), None)
    return list(seen)


def load_uploaded_corpus(
    data: bytes,
    filename: str,
    *,
    user_column: str,
    text_column: str,
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> Corpus:
    """Build a corpus from an uploaded file; at least two users are required."""
    for label, col in (("user_column", user_column), ("text_column", text_column)):
        if not isinstance(col, str):
            raise TypeError(f"{label} must be a column name (a string), got {label}={_short(col)}")
    rows = read_table(data, filename, max_bytes=max_bytes)
    cols = table_columns(rows)
    for label, col in (("user column", user_column), ("text column", text_column)):
        if col not in cols:
            raise CorpusError(f"the {label} {col!r} is not in the file; its columns are {', '.join(repr(c) for c in cols)}")
    if user_column == text_column:
        raise CorpusError("the user column and the text column must be different columns")
    return corpus_from_records(rows, user_field=user_column, text_field=text_column, name=filename, min_users=2)


def sample_data_dir() -> Path:
    """The folder of the shipped corpora: ``$DPCORE_SAMPLE_DATA`` or ``sample_data/`` beside dpcore."""
    env = os.environ.get("DPCORE_SAMPLE_DATA")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "sample_data"


def data_cache_dir() -> Path:
    """Where generated corpora are cached: ``$DPCORE_DATA_CACHE`` or ``~/.cache/dpcore/corpora`` (never the repo)."""
    env = os.environ.get("DPCORE_DATA_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "dpcore" / "corpora"


def corpus_from_token_arrays(words: Sequence[str], tokens, sent_off, doc_off, user_off, *, doc_genre=None,
                             genres: Sequence[str] = (), user_ids: Sequence[str] | None = None,
                             name: str = "corpus") -> Corpus:
    """Build a :class:`Corpus` from flat token-id arrays (the generator's compact form).

    The arrays are kept on the corpus (``token_arrays``) so that :func:`dpcore.encode_corpus` can
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
    sentences = [tuple(strs[so[i]:so[i + 1]]) for i in range(len(so) - 1)]
    del strs
    g = [genres[x] for x in np.asarray(doc_genre)[: len(do) - 1].tolist()] if doc_genre is not None else [None] * (len(do) - 1)
    docs = [Document(sentences=tuple(sentences[do[d]:do[d + 1]]), genre=g[d]) for d in range(len(do) - 1)]
    del sentences
    users = tuple(tuple(docs[uo[u]:uo[u + 1]]) for u in range(len(uo) - 1))
    ids = tuple(user_ids) if user_ids is not None else tuple(f"u{u:06d}" for u in range(len(users)))
    arrays = {"words": wl, "tokens": toks, "sent_off": np.asarray(so, dtype=np.int64),
              "doc_off": np.asarray(do, dtype=np.int64), "user_off": np.asarray(uo, dtype=np.int64)}
    return Corpus(user_ids=ids, users=users, name=name, token_arrays=arrays)


def _paper_arrays(which: str, progress=None) -> dict:
    """The paper-size corpus as arrays: read from the disk cache or generated once and cached."""
    import numpy as np

    path = data_cache_dir() / f"paper-{which}-v{PAPER_CACHE_VERSION}.npz"
    if path.exists():
        try:
            with np.load(path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            if progress is not None:
                progress(1.0)
            return arrays
        except (OSError, ValueError):
            pass  # a broken cache file is regenerated below
    from sample_data import generate as gen

    n = gen.SIZES["paper"][which]
    tc = gen.generate(n, seed=gen.PUBLIC_SEED if which == "public" else gen.PRIVATE_SEED,
                      public=which == "public", progress=progress)
    arrays = {"words": np.array(tc.words), "tokens": tc.tokens, "sent_off": tc.sent_off, "doc_off": tc.doc_off,
              "user_off": tc.user_off, "doc_genre": tc.doc_genre}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: work without the cache
    return arrays


_LOADED: dict = {}


def load_sample_corpus(which: str = "private", *, size: str = "classroom", max_users: int | None = None,
                       progress=None) -> Corpus:
    """Load a sample corpus: ``which`` is ``"private"`` (the data to protect) or ``"public"`` (the prior).

    ``size="classroom"`` reads the shipped files (3,000 / 2,000 users); ``size="paper"`` is the
    paper-scale corpus (100,000 / 30,000 users, about 24 M / 7 M tokens) generated deterministically
    on first use by ``sample_data.generate`` (``progress(fraction)`` is called as it goes) and cached
    in :func:`data_cache_dir`. The classroom corpus is the first users of the paper corpus. Loaded
    corpora are kept in memory (they are immutable), so a second call is free.
    """
    check_choice("which", which, SAMPLE_CORPORA)
    check_choice("size", size, SAMPLE_SIZES)
    if max_users is not None:
        max_users = check_int("max_users", max_users, low=1)
    key = (which, size, max_users, str(sample_data_dir()), str(data_cache_dir()) if size == "paper" else "")
    if key in _LOADED:
        if progress is not None:
            progress(1.0)
        return _LOADED[key]
    if size == "paper":
        from sample_data.generate import GENRES

        a = _paper_arrays(which, None if progress is None else (lambda f: progress(0.85 * f)))
        uo = a["user_off"] if max_users is None else a["user_off"][: max_users + 1]
        corpus = corpus_from_token_arrays(a["words"].tolist(), a["tokens"], a["sent_off"], a["doc_off"], uo,
                                          doc_genre=a["doc_genre"], genres=GENRES, name=f"sample:{which}:paper")
        if progress is not None:
            progress(1.0)
        if len(_LOADED) >= 4:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = corpus
        return corpus
    path = sample_data_dir() / f"{which}.jsonl.gz"
    if not path.exists():
        raise CorpusError(f"sample corpus {path} is missing: run `python -m sample_data.generate` from the repo root")

    def records():
        seen = set()
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                if max_users is not None and rec["user"] not in seen and len(seen) >= max_users:
                    break
                seen.add(rec["user"])
                yield rec

    try:
        corpus = corpus_from_records(records(), user_field="user", text_field="text", genre_field="genre",
                                     name=f"sample:{which}")
    except (EOFError, OSError, zlib.error, json.JSONDecodeError, UnicodeDecodeError, KeyError) as exc:
        raise CorpusError(f"sample corpus {path} is damaged ({type(exc).__name__}: {exc}): run "
                          "`python -m sample_data.generate` from the repo root") from None
    if len(_LOADED) >= 4:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[key] = corpus
    return corpus
