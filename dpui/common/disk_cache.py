"""A disk layer under the in-memory caches of the default seed's releases (issue 29 item 5: a class on one server).

``deploy/serve_class.py`` runs several Streamlit processes, each with its own ``st.cache_*``: a lecture's "now move
ε to 0.5" is computed once per process, and again after every restart. This layer keeps the releases of the
*default seed* on the shipped corpora on disk, keyed exactly like the in-memory cache (the spec's key, the corpus
hash), so that serve_class's warm-up computes the ε grid once and every process reads it.

What is never written to disk (:func:`shareable`):

* **private-mode noise** (dpui.common.noise): its seed is a per-session secret; writing its draws to a shared folder would
  let another session (or anyone with the folder) read them;
* an **upload** (someone's real data) and any seed but the default (DEFAULT_SEED): a student's own seed stays in
  memory (and the folder stays bounded: the ε grid × the pages' defaults).

The key also holds a fingerprint of dpcore's and the data loaders' source, so a changed mechanism never reads an old
draw. Entries are pickles written atomically (a temporary file, then ``os.replace``) in :func:`release_cache_dir`
(``releases/`` in dpcore's data cache, ``~/.cache/dpcore/corpora/releases`` by default; ``DPCORE_RELEASE_CACHE=off`` switches the layer off, a path moves it). A
file that cannot be read is recomputed; a folder that cannot be written is skipped (the page still answers).
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from dpcore.text.corpus import data_cache_dir

__all__ = ["ENV", "SHARED_CHOICES", "release_cache_dir", "shareable", "disk_shared", "source_fingerprint"]

T = TypeVar("T")
ENV = "DPCORE_RELEASE_CACHE"
SHARED_CHOICES = ("chat", "classroom", "paper")
"""The shipped data choices (never ``upload``)."""
_ROOT = Path(__file__).resolve().parents[2]


@functools.cache
def source_fingerprint() -> str:
    """A hash of dpcore's source and of dpui's data loaders: a change to either starts a new folder."""
    h = hashlib.sha256()
    files = sorted((_ROOT / "dpcore").rglob("*.py")) + sorted((_ROOT / "dpui").glob("*/data.py"))
    for f in files:
        h.update(str(f.relative_to(_ROOT)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def release_cache_dir() -> Path | None:
    """The folder of this source's entries, or None when ``DPCORE_RELEASE_CACHE`` is ``off``/``0``."""
    given = os.environ.get(ENV, "")
    if given.lower() in ("off", "0", "false", "no"):
        return None
    base = Path(given) if given else data_cache_dir() / "releases"
    return base / source_fingerprint()


def shareable(seed, corpus_choice) -> bool:
    """Whether a release may be kept on disk: reproducible noise, the default seed, a shipped corpus."""
    from dpui.common.noise import REPRODUCIBLE, noise_mode
    from dpui.common.sidebar import DEFAULT_SEED

    return noise_mode() == REPRODUCIBLE and seed == DEFAULT_SEED and corpus_choice in SHARED_CHOICES


def _path(folder: Path, namespace: str, key: str) -> Path:
    return folder / namespace / (hashlib.sha256(key.encode()).hexdigest()[:40] + ".pkl")


def disk_shared(namespace: str, key: str, compute: Callable[[], T], *, share: bool) -> T:
    """``compute()``, read from and written to disk under (``namespace``, ``key``) when ``share`` (see
    :func:`shareable`); otherwise just ``compute()``. The stored key is compared on read (no hash collision can
    return another release)."""
    folder = release_cache_dir() if share else None
    if folder is None:
        return compute()
    path = _path(folder, namespace, key)
    try:
        with path.open("rb") as f:
            stored_key, value = pickle.load(f)
        if stored_key == key:
            return value
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError):
        pass  # missing or unreadable: recompute
    value = compute()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump((key, value), f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # a read-only or full disk: the release is still returned
    return value
