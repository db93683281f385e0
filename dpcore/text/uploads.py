"""Uploaded corpora: size limits, format sniffing, CSV/JSONL(.gz) reading in bounded chunks and the
user/text columns → :class:`dpcore.Corpus`.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import chain, islice

from ..quoting import quote as _short
from ..validation import check_int
from .corpus import _MAX_EXPANSION, _MB, Corpus, CorpusError, UploadLimits, _mb, corpus_from_records

__all__ = [
    "read_table",
    "iter_table",
    "peek_columns",
    "table_columns",
    "UPLOAD_LIMITS",
    "load_uploaded_corpus",
    "MAX_UPLOAD_BYTES",
]


UPLOAD_LIMITS = UploadLimits()
"""The limits an upload is read with unless the caller passes others."""
MAX_UPLOAD_BYTES = UPLOAD_LIMITS.file_bytes


def _limits_for(limits: UploadLimits | None, max_bytes: int | None) -> UploadLimits:
    limits = UPLOAD_LIMITS if limits is None else limits
    if not isinstance(limits, UploadLimits):
        raise TypeError(f"limits must be an UploadLimits, got limits={_short(limits)} ({type(limits).__name__})")
    if max_bytes is not None:  # the older keyword: the file's size, and 4 × that once decompressed
        max_bytes = check_int("max_bytes", max_bytes, low=1)
        limits = replace(limits, file_bytes=max_bytes, expanded_bytes=_MAX_EXPANSION * max_bytes)
    return limits


_OTHER_FORMATS = {  # magic bytes of files people upload by mistake
    b"PK\x03\x04": "a ZIP archive (an .xlsx or .docx file is one): export the sheet as CSV",
    b"BZh": "bzip2-compressed: only gzip (.gz) is supported",
    b"\xfd7zXZ\x00": "xz-compressed: only gzip (.gz) is supported",
    b"\x28\xb5\x2f\xfd": "zstd-compressed: only gzip (.gz) is supported",
    b"%PDF": "a PDF document: upload a CSV or JSONL file",
}
_CHUNK = _MB  # bytes decompressed / decoded at a time


def _byte_chunks(data: bytes, limits: UploadLimits) -> Iterator[bytes]:
    """The file's bytes in chunks of at most 1 MB, gunzipped on the fly (several gzip members are read
    one after the other, trailing garbage after the last is ignored as gzip does); a CorpusError as soon
    as more than ``limits.expanded_bytes`` come out."""
    if data[:2] != b"\x1f\x8b":
        for i in range(0, len(data), _CHUNK):
            yield data[i : i + _CHUNK]
        return
    total, rest = 0, data
    while rest:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        pending = rest
        while not d.eof:
            try:
                chunk = d.decompress(pending, _CHUNK)
            except zlib.error as exc:
                raise CorpusError(
                    f"the file looks gzip-compressed but could not be decompressed ({exc}); "
                    "upload the original .gz file or the uncompressed file"
                ) from None
            pending = d.unconsumed_tail
            if not chunk and not pending and not d.eof:
                raise CorpusError(
                    "the gzip file is truncated (it ends before its end-of-stream marker): "
                    "the upload or the compression did not finish; compress and upload it again"
                )
            total += len(chunk)
            if total > limits.expanded_bytes:
                raise CorpusError(
                    f"the file expands to more than {_mb(limits.expanded_bytes)} when decompressed: "
                    "upload a sample of the users"
                )
            if chunk:
                yield chunk
        rest = d.unused_data  # a further gzip member, if any
        if rest and rest[:2] != b"\x1f\x8b":
            break  # trailing garbage after the last member, as gzip itself ignores


def _sniff(head: bytes) -> bytes:
    """Refuse what is not UTF-8 text by its first bytes; return ``head`` without a UTF-8 byte-order mark."""
    for magic, what in _OTHER_FORMATS.items():
        if head.startswith(magic):
            raise CorpusError(f"the file is {what}")
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise CorpusError(
            "the file is not UTF-8 text: it is UTF-16 (it starts with a UTF-16 byte-order mark); "
            "save it as UTF-8 and upload again"
        )
    return head[3:] if head.startswith(codecs.BOM_UTF8) else head


def _text_chunks(chunks: Iterable[bytes]) -> Iterator[str]:
    """UTF-8 text, decoded chunk by chunk; a CorpusError naming the first byte that is not UTF-8 or a NUL."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = 0  # bytes of the file before this chunk
    for i, chunk in enumerate(chunks):
        if i == 0:
            stripped = _sniff(chunk)
            offset, chunk = len(chunk) - len(stripped), stripped
        nul = chunk.find(b"\x00")
        if nul >= 0:
            raise CorpusError(
                f"the file is not text: byte {offset + nul} is a NUL byte (0x00); upload a CSV or JSONL "
                "file saved as UTF-8 (a UTF-16 file without a byte-order mark looks like this too)"
            )
        held = len(decoder.getstate()[0])  # bytes of an unfinished character from the last chunk
        try:
            text = decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            raise CorpusError(
                f"the file is not UTF-8 text (byte {offset - held + exc.start} is 0x{exc.object[exc.start]:02x}); "
                "save it as UTF-8 and upload again"
            ) from None
        offset += len(chunk)
        if text:
            yield text
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise CorpusError(
            f"the file is not UTF-8 text (it ends inside a character, at byte {offset}); save it as "
            "UTF-8 and upload again"
        ) from None


_NEWLINE = re.compile(r"\r\n|\r|\n")


def _lines(texts: Iterable[str], limits: UploadLimits) -> Iterator[str]:
    """Lines with their endings (\\n, \\r\\n or \\r, as ``open(newline="")`` gives them to the csv module); a
    CorpusError as soon as one line is longer than ``limits.line_chars``."""
    rest, line_no = "", 0
    for text in texts:
        buf = rest + text if rest else text
        start = 0
        for m in _NEWLINE.finditer(buf):
            if m.end() == len(buf) and m.group() == "\r":
                break  # maybe the first half of \r\n: wait for the next chunk
            line_no += 1
            if m.end() - start > limits.line_chars:
                raise CorpusError(
                    f"line {line_no} is longer than {_mb(limits.line_chars)} (the limit per line): "
                    "put one document per line and split very long documents"
                )
            yield buf[start : m.end()]
            start = m.end()
        rest = buf[start:]
        if len(rest) > limits.line_chars:
            raise CorpusError(
                f"line {line_no + 1} is longer than {_mb(limits.line_chars)} (the limit per line): "
                "put one document per line and split very long documents"
            )
    if rest:
        yield rest


def _format_of(filename: str) -> str:
    if not isinstance(filename, str):
        raise TypeError(f"filename must be a string, got filename={_short(filename)} ({type(filename).__name__})")
    name = filename.lower().removesuffix(".gz")
    if name.endswith(".csv"):
        return "csv"
    if name.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    raise CorpusError(f"unsupported file type {_short(filename)}: upload a .csv or .jsonl file (optionally .gz)")


_ARRAY = (
    "the file is one JSON array, not JSON Lines: JSONL needs one JSON object per line "
    "(e.g. convert it with `jq -c '.[]' file.json > file.jsonl`)"
)


def _jsonl_rows(lines: Iterable[str]) -> Iterator[dict]:
    first = True
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if first and line.lstrip().startswith("["):
                raise CorpusError(_ARRAY) from None
            raise CorpusError(
                f"line {line_no} is not valid JSON ({exc.msg}); JSONL needs one JSON object per line"
            ) from None
        except RecursionError:
            raise CorpusError(f"line {line_no} nests JSON too deeply to read") from None
        if not isinstance(obj, dict):
            if first and isinstance(obj, list) and obj and all(isinstance(o, dict) for o in obj):
                raise CorpusError(_ARRAY)
            raise CorpusError(f"line {line_no} is a JSON {type(obj).__name__}, not an object with named fields")
        first = False
        yield obj


class _Seen:
    """Whether any line so far held more than white space (for "the file holds no text")."""

    def __init__(self, lines: Iterable[str]):
        self._lines, self.text = iter(lines), False

    def __iter__(self):
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        if not self.text and line.strip():
            self.text = True
        return line


_NO_TEXT = "the file holds no text: upload a CSV or JSONL file with a user column and a text column"


def _csv_rows(lines: Iterable[str], limits: UploadLimits) -> Iterator[dict]:
    if csv.field_size_limit() < limits.line_chars:  # a long document in one cell is fine up to the line limit
        csv.field_size_limit(limits.line_chars)
    seen = _Seen(lines)
    reader = csv.DictReader(seen, strict=True)
    try:
        fields = reader.fieldnames
        if not fields or all(not (f or "").strip() for f in fields):
            if not seen.text and not any(line.strip() for line in seen):
                raise CorpusError(_NO_TEXT)
            raise CorpusError("the CSV file has no header row: the first line must name the columns")
        if len(fields) == 1:
            only = fields[0]
            sep = next((s for s in (";", "\t", "|") if s in only), None)
            hint = (
                f": its header {_short(only)} contains {sep!r} — save it with commas as separators"
                if sep
                else f" ({_short(only)}): add a column that says which user wrote each row"
            )
            raise CorpusError(f"the CSV file has only one column{hint}; a corpus needs a user column and a text column")
        for row in reader:
            yield {k: v for k, v in row.items() if k is not None}
    except csv.Error as exc:
        raise CorpusError(
            f"the CSV file could not be parsed near line {reader.line_num} ({_short(str(exc), 120)}): "
            'check that every quote " is closed'
        ) from None


def iter_table(
    data: bytes, filename: str, *, limits: UploadLimits | None = None, max_bytes: int | None = None
) -> Iterator[dict[str, object]]:
    """The rows of an uploaded CSV or JSONL file (optionally gzipped), one dict at a time.

    The file is decompressed, decoded and parsed as it is consumed, so memory stays bounded by a chunk and
    a line whatever the file's size; every limit of ``limits`` (default :data:`UPLOAD_LIMITS`) that can be
    checked here is checked as soon as it is passed (file size, decompressed size, line length, rows).
    Raises :class:`CorpusError` with a message that quotes user data only shortened (:func:`dpcore.quoting.quote`).
    """
    limits = _limits_for(limits, max_bytes)
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise CorpusError(f"data must be bytes, got {type(data).__name__}")
    data = bytes(data) if not isinstance(data, bytes) else data
    if len(data) == 0:
        raise CorpusError("the file is empty: upload a CSV or JSONL file with a user column and a text column")
    if len(data) > limits.file_bytes:
        raise CorpusError(
            f"the file is too large: {len(data) / _MB:.1f} MB, the limit is {_mb(limits.file_bytes)}; "
            "upload a sample of the users"
        )
    fmt = _format_of(filename)
    lines = _Seen(_lines(_text_chunks(_byte_chunks(data, limits)), limits))
    rows = _jsonl_rows(lines) if fmt == "jsonl" else _csv_rows(lines, limits)
    n = 0
    for row in rows:
        n += 1
        if n > limits.rows:
            raise CorpusError(
                f"the file has more than {limits.rows:,} rows (this server's limit): upload a sample of the users"
            )
        yield row
    if n == 0:
        if not lines.text:
            raise CorpusError(_NO_TEXT)
        raise CorpusError("the file has a header but no rows")


def read_table(
    data: bytes, filename: str, *, max_bytes: int | None = None, limits: UploadLimits | None = None
) -> list[dict[str, object]]:
    """Parse an uploaded CSV or JSONL file into a list of row dicts, or raise :class:`CorpusError`
    (:func:`iter_table`, collected; ``max_bytes`` sets the file limit and 4 × it once decompressed)."""
    return list(iter_table(data, filename, limits=limits, max_bytes=max_bytes))


def table_columns(rows: Iterable[Mapping[str, object]]) -> list[str]:
    """Column names in first-seen order across the first 1,000 rows (for the column pickers)."""
    seen: dict[str, None] = {}
    for row in islice(rows, 1000):
        for k in row:
            seen.setdefault(str(k), None)
    return list(seen)


def peek_columns(data: bytes, filename: str, *, limits: UploadLimits | None = None) -> list[str]:
    """The columns of an upload, from its first 1,000 rows only (errors further down show when it is loaded)."""
    return table_columns(iter_table(data, filename, limits=limits))


def _column_list(cols: Sequence[str], shown: int = 12) -> str:
    out = ", ".join(_short(c, 40) for c in cols[:shown])
    return out + (f", … ({len(cols):,} columns)" if len(cols) > shown else "")


def load_uploaded_corpus(
    data: bytes,
    filename: str,
    *,
    user_column: str,
    text_column: str,
    max_bytes: int | None = None,
    limits: UploadLimits | None = None,
) -> Corpus:
    """Build a corpus from an uploaded file (one pass, every limit checked while reading); at least two users."""
    for label, col in (("user_column", user_column), ("text_column", text_column)):
        if not isinstance(col, str):
            raise TypeError(f"{label} must be a column name (a string), got {label}={_short(col)}")
    limits = _limits_for(limits, max_bytes)
    rows = iter_table(data, filename, limits=limits)
    head = list(islice(rows, 1000))
    cols = table_columns(head)
    for label, col in (("user column", user_column), ("text column", text_column)):
        if col not in cols:
            raise CorpusError(f"the {label} {_short(col)} is not in the file; its columns are {_column_list(cols)}")
    if user_column == text_column:
        raise CorpusError("the user column and the text column must be different columns")
    name = filename if len(filename) <= 120 else filename[:119] + "…"
    return corpus_from_records(
        chain(head, rows), user_field=user_column, text_field=text_column, name=name, min_users=2, limits=limits
    )
