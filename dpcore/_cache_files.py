"""Disk caches that are checked before they are used (issue 25).

Every file dpcore writes into a cache carries a SHA-256 of its own content *inside* it (one file, written
to a temporary name and renamed, so a reader never sees a new file with an old checksum):

* JSON payloads (TopicDP models and sampled sensitivities): a last key ``"checksum"``, the SHA-256 of the
  file's JSON text without that key (:func:`write_json`, :func:`read_json`; other readers see one more key);
* ``.npz`` arrays (the paper-size corpus): an array ``__checksum__``, the SHA-256 of every other array's
  name, dtype, shape and bytes (:func:`array_checksum`).

A file that cannot be read, or whose checksum is missing or wrong, is never used: the caller rebuilds
it, or reads the copy shipped in the repository. A damaged file (unreadable, or a checksum that does
not match) is deleted so that it is rebuilt; a file without a checksum (written by an older version) is
ignored and overwritten by the next save. Files shipped in the repository (``trusted``) are read
without a checksum but checked when they have one. The checksum detects damage and foreign files (a
truncated write, a flipped bit, a file edited by hand or written by other code under the same name);
it is not a signature: whoever can write the cache folder can also write a matching checksum.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import zipfile
import zlib
from pathlib import Path

import numpy as np

CHECKSUM = "checksum"
ARRAY_CHECKSUM = "__checksum__"
READ_ERRORS = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    zlib.error,
    zipfile.BadZipFile,
    UnicodeDecodeError,
    RecursionError,
)
"""What reading a damaged file can raise (json.JSONDecodeError and gzip.BadGzipFile are among these)."""


_TRAILER = re.compile(r',"checksum":"([0-9a-f]{64})"\}\s*$')


def _json_text(payload: dict) -> str:
    """The file's text: the payload's JSON with ``"checksum": SHA-256 of that JSON`` appended as its last key."""
    if not payload or CHECKSUM in payload:
        raise ValueError("a cache payload must be a non-empty dict without a 'checksum' key")
    body = json.dumps(payload, separators=(",", ":"))
    return body[:-1] + f',"{CHECKSUM}":"{hashlib.sha256(body.encode()).hexdigest()}"}}'


def _checked(text: str):
    """The payload of a file's text when its trailing checksum matches; None when it has none; False when wrong."""
    m = _TRAILER.search(text)
    if m is None:
        return None
    body = text[: m.start()] + "}"
    if hashlib.sha256(body.encode()).hexdigest() != m.group(1):
        return False
    return json.loads(body)


def discard(path: Path) -> None:
    """Delete a damaged cache file (nothing happens when it is gone already or the folder is read-only)."""
    try:
        Path(path).unlink()
    except OSError:
        pass


def read_json(path: Path, *, trusted: bool = False) -> dict | None:
    """The JSON object in ``path`` (gzipped when the name ends in .gz) when it can be used, else None.

    None when the file is missing; when it cannot be read or parsed, or holds a checksum that does not
    match (then it is deleted, unless ``trusted``); when it has no checksum and is not ``trusted``. The
    checksum is over the file's own JSON text (no re-serialisation), so checking costs a hash of the file.
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                text = fh.read()
        else:
            text = path.read_text(encoding="utf-8")
        payload = _checked(text)
        if payload is None:  # no checksum where this module writes it
            payload = json.loads(text)
            if isinstance(payload, dict) and CHECKSUM in payload:
                payload = False  # a checksum elsewhere: not a file this module wrote (foreign, or edited)
            elif not trusted:
                return None  # no checksum at all: written by an older version; ignored, overwritten by the next save
    except READ_ERRORS:
        payload = False
    if payload is False or (payload is not None and not isinstance(payload, dict)):
        if not trusted:
            discard(path)
        return None
    return payload


def write_json(path: Path, payload: dict, *, gz: bool | None = None) -> Path:
    """Write ``payload`` with its checksum to ``path`` atomically (a temporary file, then a rename)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    gz = path.name.endswith(".gz") if gz is None else gz
    tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
    text = _json_text(payload)
    try:
        if gz:
            with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=6) as fh:
                fh.write(text)
        else:
            tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            discard(tmp)
    return path


def array_checksum(arrays: dict) -> str:
    """SHA-256 over every array's name, dtype, shape and bytes (in name order; ``__checksum__`` left out)."""
    h = hashlib.sha256()
    for name in sorted(k for k in arrays if k != ARRAY_CHECKSUM):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\x1f{a.dtype.str}\x1f{a.shape}\x1e".encode())
        h.update(a.data.cast("B") if a.dtype != object else repr(a.tolist()).encode())
    return h.hexdigest()


def read_npz(path: Path, required: tuple[str, ...]) -> dict | None:
    """The arrays of an ``.npz`` file when it is whole (readable, every ``required`` array there, its
    checksum right), else None; a damaged or foreign file is deleted (the caller rebuilds it)."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except READ_ERRORS:
        discard(path)
        return None
    stored = arrays.pop(ARRAY_CHECKSUM, None)
    if (
        stored is None
        or stored.shape != ()
        or str(stored) != array_checksum(arrays)
        or any(k not in arrays for k in required)
    ):
        discard(path)
        return None
    return arrays


def write_npz(path: Path, arrays: dict) -> None:
    """Write ``arrays`` and their checksum to ``path`` atomically; a read-only folder is not an error."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp.npz")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(tmp, **{**arrays, ARRAY_CHECKSUM: np.array(array_checksum(arrays))})
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: work without the cache
    finally:
        if tmp.exists():
            discard(tmp)
