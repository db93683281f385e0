"""Parsed uploads in the server's memory: one per session, bounded, and given back (issue 25).

A parsed upload is held for its session only (never in a cache shared between sessions):

* at most one per session (a new file replaces the old one), each within :data:`dpcore.text.UPLOAD_LIMITS`
  (rows, users, words and the parsed size are checked while the file is read);
* at most :data:`TOTAL_BYTES` of parsed uploads (their estimated size) in the whole server: a new upload
  that could pass it is refused with a message until others are given back;
* given back when its session ends (the browser tab closed or disconnected: checked every
  :data:`SWEEP_SECONDS` by a janitor thread), or after :data:`IDLE_SECONDS` without use; the file itself
  stays in the session's uploader, so a later run of the same session reads it again.

What is given back is returned to the operating system, so the server's RSS falls back near where it was
whatever the order in which tabs close (issue 34): an upload this module parsed is emptied in place when it
is given back (its users and tokens dropped from the :class:`~dpcore.Corpus` object), so a reference that
outlives the session — Streamlit keeps the last script run's globals in ``sys.modules["__main__"]`` until the
next run, and a closed tab's session for 2 minutes — holds an empty shell, not the corpus; then the
collector runs and ``malloc_trim`` hands the freed heap back.

Under Python's own small-object allocator (pymalloc) a 1 MiB arena stays as long as one object in it lives, and
the objects other sessions create while an upload is held land in the upload's arenas: measured with two
2 M-word uploads, RSS stayed 123–150 MB above the start after their tabs closed, whatever the order. With
``PYTHONMALLOC=malloc`` (glibc's malloc for every object; ``malloc_trim`` returns free pages, not whole
arenas) it came back within 13 MB (one at a time) and 22 MB (at once). deploy/serve_class.py starts its servers so; a server started otherwise
logs a warning once (benchmarks/bench_upload.py --tabs measures both). The janitor also frees what Streamlit 1.67 keeps of a
session that is gone for good (its uploaded files and download buttons' files: Streamlit drops an expired
disconnected session without shutting it down), and the files behind a closed session's download buttons
as soon as it disconnects.

TopicDP's sampler writes its draws to disk; for an upload they go to a scratch folder of this server
process (:func:`scratch_dir`), deleted with the upload and, for a process that died, at the next start.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from functools import wraps
from pathlib import Path

from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpcore import Corpus, CorpusError, load_uploaded_corpus
from dpcore.text import UPLOAD_LIMITS

IDLE_SECONDS = 30 * 60
"""An upload not used for this long is given back (its session reads the file again when it comes back)."""
TOTAL_BYTES = 1024 * 2**20
"""Estimated size of all parsed uploads held at once (dpcore's ``Corpus.parsed_bytes``)."""
SWEEP_SECONDS = 5.0
"""How often the janitor looks for ended sessions and idle uploads."""
_SCRATCH_PREFIX = "dpcore-uploads-"
_LOG = logging.getLogger(__name__)


@dataclass
class _Entry:
    key: tuple
    corpus: Corpus
    nbytes: int
    last_used: float
    derived: dict = field(default_factory=dict)  # (function, args) of the page caches it filled → their cache clears
    parsed: bool = False  # parsed here (emptied when given back), not a corpus handed in by keep()


_LOCK = threading.RLock()
_ENTRIES: dict[str, _Entry] = {}  # session id → its parsed upload
_RESERVED: dict[str, int] = {}  # session id → bytes set aside for a parse under way
_JANITOR: list[threading.Thread] = []


def session_id() -> str:
    """The id of the session this script run belongs to ("" outside a script run)."""
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else ""


def held_bytes() -> int:
    """Estimated bytes of every parsed upload held now, and of the parses under way."""
    with _LOCK:
        return sum(e.nbytes for e in _ENTRIES.values()) + sum(_RESERVED.values())


def held_sessions() -> list[str]:
    with _LOCK:
        return list(_ENTRIES)


def lookup(key: tuple, sid: str | None = None) -> Corpus | None:
    """This session's parsed upload when it is the one ``key`` names (else None: given back, or never read)."""
    sid = session_id() if sid is None else sid
    with _LOCK:
        e = _ENTRIES.get(sid)
        if e is None or e.key != key:
            return None
        e.last_used = time.monotonic()
        return e.corpus


def keep(key: tuple, corpus: Corpus, sid: str | None = None) -> Corpus:
    """Hold ``corpus`` as this session's upload (a corpus built elsewhere, e.g. by a test)."""
    sid = session_id() if sid is None else sid
    with _LOCK:
        old = _ENTRIES.get(sid)
        if old is not None and old.key == key:
            old.last_used = time.monotonic()
            return old.corpus
        _evict(sid)
        _ENTRIES[sid] = _Entry(key, corpus, int(corpus.parsed_bytes or 0), time.monotonic())
    _start_janitor()
    return corpus


def parse(key: tuple, data: bytes, filename: str, user_column: str, text_column: str, sid: str | None = None) -> Corpus:
    """Read an upload for this session (replacing its previous one) within the limits, or raise CorpusError."""
    sid = session_id() if sid is None else sid
    need = UPLOAD_LIMITS.parsed_bytes
    with _LOCK:
        _evict(sid)  # this session's previous upload is given back first
        others = sum(e.nbytes for e in _ENTRIES.values()) + sum(_RESERVED.values())
        if others + need > TOTAL_BYTES:
            raise CorpusError(
                f"this server holds other people's uploads now ({others / 2**20:.0f} MB of the "
                f"{TOTAL_BYTES / 2**20:.0f} MB it keeps for uploads): try again in a few minutes, or use the sample "
                "corpus"
            )
        _RESERVED[sid] = need
    try:
        corpus = load_uploaded_corpus(
            data,
            filename,
            user_column=user_column,
            text_column=text_column,
            limits=replace(UPLOAD_LIMITS, parsed_bytes=need),
        )
        with _LOCK:
            _ENTRIES[sid] = _Entry(key, corpus, int(corpus.parsed_bytes or 0), time.monotonic(), parsed=True)
    except CorpusError:
        _give_back_memory()  # a refused file's partial corpus is freed: return it to the OS too
        raise
    finally:
        with _LOCK:
            _RESERVED.pop(sid, None)
    _start_janitor()
    return corpus


def _evict(sid: str) -> bool:
    with _LOCK:
        e = _ENTRIES.pop(sid, None)
        if e is None:
            return False
        shared = any(o.corpus.content_hash == e.corpus.content_hash for o in _ENTRIES.values())
    if not shared:  # its scratch folder and the page caches computed from it go (another session's copy keeps them)
        shutil.rmtree(_scratch_root() / e.corpus.content_hash[:20], ignore_errors=True)
        for fn, args, kwargs in e.derived.values():
            fn.clear(*args, **kwargs)
    e.derived.clear()
    if e.parsed:
        _empty(e.corpus)
    return True


def _empty(corpus: Corpus) -> None:
    """Drop a given-back upload's contents from the object itself (users, tokens, computed properties): what
    still refers to it (a finished run's globals, a closed session kept for a reconnect) keeps a shell of a
    few hundred bytes. Its name and content hash stay; it has no users any more."""
    fields = {"user_ids": (), "users": (), "token_arrays": None}
    for name in list(vars(corpus)):
        if name not in fields and name not in ("name", "parsed_bytes", "content_hash"):
            del vars(corpus)[name]  # cached properties (document lists, counts)
    for name, value in fields.items():
        object.__setattr__(corpus, name, value)


def evict(sid: str) -> bool:
    """Give back a session's upload (its memory and its scratch folder); True when it held one."""
    gone = _evict(sid)
    if gone:
        _give_back_memory()
    return gone


def is_upload(corpus_hash: str) -> bool:
    """Whether a corpus with this content hash is a parsed upload held now (then nothing derived from it
    may be written to the shared disk caches)."""
    with _LOCK:
        return any(e.corpus.content_hash == corpus_hash for e in _ENTRIES.values())


def _arg_key(a):
    try:
        hash(a)
        return a
    except TypeError:
        return ("id", id(a))


def track_caches(namespace: dict) -> None:
    """Make the ``st.cache_data`` / ``st.cache_resource`` functions of a module (its ``globals()``) give back
    what they computed from an upload when the upload is given back (issue 25). A call whose arguments
    name an upload's content hash is recorded with the upload, and cleared from its cache (that entry
    only) on eviction; other calls are untouched. Call it at the end of a module of cached loaders."""
    from streamlit.runtime.caching.cache_utils import CachedFunc

    for name, fn in list(namespace.items()):
        if isinstance(fn, CachedFunc):
            namespace[name] = _tracked(fn)


def _tracked(fn):
    @wraps(fn)
    def call(*args, **kwargs):
        hashes = [a for a in args if isinstance(a, str) and len(a) == 64]
        if hashes:
            with _LOCK:
                for e in _ENTRIES.values():
                    if e.corpus.content_hash in hashes:
                        key = (
                            id(fn),
                            tuple(_arg_key(a) for a in args),
                            tuple(sorted((k, _arg_key(v)) for k, v in kwargs.items())),
                        )
                        e.derived.setdefault(key, (fn, args, kwargs))
        return fn(*args, **kwargs)

    call.clear = fn.clear
    call.cached = fn
    return call


def _scratch_root() -> Path:
    return Path(tempfile.gettempdir()) / f"{_SCRATCH_PREFIX}{os.getpid()}"


def scratch_dir(corpus_hash: str) -> Path | None:
    """Where TopicDP may write its sampler draws for an upload (deleted with the upload); None for a corpus
    that is not an upload held now (its files go to the normal caches)."""
    return _scratch_root() / corpus_hash[:20] if is_upload(corpus_hash) else None


def _remove_dead_scratch() -> None:
    """Scratch folders of server processes that are gone (a crash or a kill leaves them behind)."""
    for d in Path(tempfile.gettempdir()).glob(f"{_SCRATCH_PREFIX}*"):
        pid = d.name.removeprefix(_SCRATCH_PREFIX)
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(d, ignore_errors=True)
        except OSError:
            pass  # alive, or another user's process


_LIBC: list = []


def _give_back_memory() -> None:
    """Collect what the given-back upload left in reference cycles, then return freed heap memory to the
    operating system (glibc keeps it otherwise)."""
    gc.collect()
    if not _LIBC:
        name = ctypes.util.find_library("c")
        try:
            _LIBC.append(ctypes.CDLL(name) if name else None)
        except OSError:
            _LIBC.append(None)
    libc = _LIBC[0]
    if libc is not None and hasattr(libc, "malloc_trim"):
        libc.malloc_trim(0)


# ------------------------------------------------------------------------------ the janitor
def _runtime():
    from streamlit.runtime import Runtime

    return Runtime.instance() if Runtime.exists() else None


def sweep(now: float | None = None, *, active=None) -> list[str]:
    """Give back the uploads of ended sessions and idle ones; free what Streamlit keeps of gone sessions.

    ``active(session_id) -> bool`` says whether a session is connected (default: Streamlit's runtime; with
    no runtime, as in AppTest, only the idle time counts). Returns the sessions whose upload was given back.
    """
    now = time.monotonic() if now is None else now
    rt = _runtime()
    if active is None and rt is not None:
        active = rt.is_active_session
    with _LOCK:
        stale = [
            sid
            for sid, e in _ENTRIES.items()
            if now - e.last_used > IDLE_SECONDS or (active is not None and not active(sid))
        ]
    for sid in stale:
        if _evict(sid):
            _LOG.info("upload of session %s given back (session ended or idle)", sid)
    if stale:
        _give_back_memory()
    if rt is not None:
        _free_streamlit_leftovers(rt)
    return stale


def _free_streamlit_leftovers(rt) -> None:
    """Files Streamlit keeps for sessions that are not connected.

    * download buttons' files of a disconnected session: their references are dropped (a rerun after a
      reconnect makes them again), so an export URL stops answering within two sweeps (≤ 10 s) of the tab
      closing (Streamlit marks an unreferenced download first and deletes it at the next call);
    * uploaded files of a session that is gone for good (neither connected nor kept for a reconnect), and
      the sessions kept for a reconnect whose time is up (with their widgets' copies of uploaded files).
    Only attributes of Streamlit 1.67's in-memory managers are used, each looked up defensively: with
    other managers this does nothing.
    """
    mgr = getattr(rt, "_session_mgr", None)
    media = getattr(rt, "media_file_mgr", None)
    uploads = getattr(rt, "uploaded_file_mgr", None)
    if mgr is None:
        return
    by_session = getattr(media, "_files_by_session_and_coord", None)
    if by_session is not None:
        for sid in [s for s in list(by_session) if not mgr.is_active_session(s)]:
            media.clear_session_refs(sid)
        media.remove_orphaned_files()  # marks unreferenced downloads, deletes those marked a sweep ago
    kept = getattr(getattr(mgr, "_session_storage", None), "_cache", None)  # sessions kept for a reconnect
    if hasattr(kept, "expire"):  # drop the expired ones now (Streamlit reaps them only at its next write)
        lock = getattr(mgr, "_storage_lock", None)
        if lock is not None:
            with lock:
                expired = kept.expire()
            for sid, info in expired:  # what Streamlit's own close_session does for a stored session
                session = getattr(info, "session", None)
                if session is not None:
                    session.shutdown()
                    _LOG.info("session %s kept for a reconnect expired: shut down", sid)
    storage = getattr(uploads, "file_storage", None)
    if storage is not None:
        for sid in list(storage):
            if mgr.get_session_info(sid) is None:  # neither active nor stored for a reconnect
                uploads.remove_session_files(sid)


def _janitor_loop() -> None:
    while True:
        time.sleep(SWEEP_SECONDS)
        try:
            sweep()
        except Exception:  # noqa: BLE001 — a background thread must outlive one bad sweep (logged, not hidden)
            _LOG.exception("upload janitor: sweep failed; trying again in %s s", SWEEP_SECONDS)


def start_janitor() -> None:
    """Start the janitor thread once per server process (every page's sidebar calls this)."""
    _start_janitor()


def _start_janitor() -> None:
    with _LOCK:
        if _JANITOR:
            return
        if os.environ.get("PYTHONMALLOC", "") not in ("malloc", "malloc_debug"):
            _LOG.warning(
                "this server runs Python's small-object allocator: an upload's memory goes back to the system "
                "only in part once it is given back; start it with PYTHONMALLOC=malloc (deploy/serve_class.py does)"
            )
        t = threading.Thread(target=_janitor_loop, name="dpcore-upload-janitor", daemon=True)
        _JANITOR.append(t)
    _remove_dead_scratch()
    t.start()
