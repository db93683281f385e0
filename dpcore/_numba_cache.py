"""numba's on-disk cache (``@njit(cache=True)``), checked before use (issue 25).

numba pickles each compiled kernel to ``__pycache__/<module>.<function>-<line>.py311.<n>.nbc`` beside an
index (``.nbi``) and trusts both: a truncated or bit-flipped file raised ``UnpicklingError`` (or worse, loaded
damaged machine code) on the DP n-gram extraction page at every start. Here each index and data file
carries a SHA-256 of its pickle, checked before it is unpickled; a file that is damaged, or written by
plain numba (no checksum), counts as a cache miss: numba compiles again and writes a checked file.

One loader for every compiled kernel (issue 34: the VIPS kernel once skipped the check and a bit-flipped
index broke the TopicDP page): :func:`dpcore._kernels.optional_kernel` imports a kernel module and calls
:func:`check_module` on it before anything in it is compiled; that checks every cached function the module
holds, its own and those it imported from another kernel module, and every cached function of those
modules (a callee compiles through its own cache). A kernel module calls nothing itself, and
tests/test_kernel_caches.py checks that every module of dpcore defining a cached numba function is
reached only through the loader. Only numba's documented cache layout is relied on (``IndexDataCacheFile``, ``FunctionCache``
and the dispatcher's ``_cache`` attribute, the same in numba 0.56–0.61 and 0.68).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol, cast

from numba.core.caching import FunctionCache, IndexDataCacheFile
from numba.core.dispatcher import Dispatcher

_MAGIC = b"dpcore-sha256\x00"
_DIGEST = 32
_UNPICKLE_ERRORS = (
    pickle.UnpicklingError,
    EOFError,
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    AttributeError,
    ImportError,
    OSError,
)


class _Damaged(Exception):
    """A cache file whose checksum is missing or wrong."""


def _discard(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


class CheckedCacheFile(IndexDataCacheFile):
    """numba's index + data files, each pickle prefixed by a magic string and its SHA-256."""

    def _dump(self, obj) -> bytes:
        data = super()._dump(obj)
        return _MAGIC + hashlib.sha256(data).digest() + data

    @staticmethod
    def _verified(blob: bytes) -> bytes:
        if not blob.startswith(_MAGIC):
            raise _Damaged("no checksum")
        digest, data = blob[len(_MAGIC) : len(_MAGIC) + _DIGEST], blob[len(_MAGIC) + _DIGEST :]
        if hashlib.sha256(data).digest() != digest:
            raise _Damaged("checksum mismatch")
        return data

    def _load_index(self):
        try:
            with open(self._index_path, "rb") as f:
                version = pickle.load(f)
                blob = f.read()
        except FileNotFoundError:
            return {}
        except _UNPICKLE_ERRORS:
            _discard(self._index_path)
            return {}
        if version != self._version:
            return {}  # another numba version's index (numba itself does the same)
        try:
            stamp, overloads = pickle.loads(self._verified(blob))
        except (_Damaged, *_UNPICKLE_ERRORS):
            _discard(self._index_path)
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _load_data(self, name):
        path = self._data_path(name)
        with open(path, "rb") as f:
            blob = f.read()
        try:
            return pickle.loads(self._verified(blob))
        except (_Damaged, *_UNPICKLE_ERRORS):
            _discard(path)
            raise OSError(f"damaged numba cache file {path}") from None  # load() treats OSError as a miss


class CheckedFunctionCache(FunctionCache):
    """numba's per-function cache, reading and writing :class:`CheckedCacheFile` files."""

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = CheckedCacheFile(
            cache_path=self._cache_path,
            filename_base=self._impl.filename_base,
            source_stamp=self._impl.locator.get_source_stamp(),
        )


_LOCK = threading.Lock()


class CachedDispatcher(Protocol):
    """A numba function with a disk cache: a ``Dispatcher`` whose ``_cache`` numba sets at run time (the
    class does not declare it, so a type checker needs this view of it)."""

    _cache: FunctionCache
    py_func: Callable[..., Any]


def cached_functions(namespace: dict) -> list[CachedDispatcher]:
    """The numba functions with a disk cache (``@njit(cache=True)``) in ``namespace``."""
    return [
        cast(CachedDispatcher, obj)
        for obj in list(namespace.values())
        if isinstance(obj, Dispatcher) and isinstance(getattr(obj, "_cache", None), FunctionCache)
    ]


def check_caches(namespace: dict) -> int:
    """Give every cached numba function in ``namespace`` (a module's ``globals()``) a checked cache (once);
    returns how many it changed. Call it before any of them is compiled."""
    n = 0
    with _LOCK:
        for obj in cached_functions(namespace):
            if not isinstance(obj._cache, CheckedFunctionCache):
                obj._cache = CheckedFunctionCache(obj.py_func)
                n += 1
    return n


def check_module(module: ModuleType) -> int:
    """:func:`check_caches` on a kernel module and on every module its cached functions come from (a
    kernel that imports another's functions: they compile through their own module's caches); how many
    caches it changed."""
    modules = {module.__name__: module}
    for fn in cached_functions(vars(module)):
        home = sys.modules.get(fn.py_func.__module__)
        if home is not None:
            modules.setdefault(home.__name__, home)
    return sum(check_caches(vars(m)) for m in modules.values())
