"""The optional compiled kernels (numba, the ``[fast]`` extra): one loader for every kernel module.

Every compiled kernel is loaded here, and only here: :func:`optional_kernel` gives each of its numba
functions a disk cache that is checked before it is read (:func:`dpcore._numba_cache.check_module`, issue 34),
before anything is compiled. tests/test_kernel_caches.py checks that no module reaches a kernel otherwise.

Each kernel module has a numpy twin that gives the same results (bit for bit for DPNE's keyed draws, up to
rounding for the LDA / VIPS E-steps); an environment variable forces the numpy path.
"""

from __future__ import annotations

import importlib
import os
import threading

__all__ = ["optional_kernel"]

_LOADED: dict = {}
_LOCK = threading.Lock()


def optional_kernel(module: str, *, env: str):
    """The compiled module ``module`` (a dotted path such as ``"dpcore.topicdp._vb_kernel"``), imported once per
    process; None when numba is not installed (the import fails) or the environment variable ``env`` is
    ``"numpy"`` (read at every call, so a test can switch paths). Its numba caches are checked before use."""
    if os.environ.get(env, "").lower() == "numpy":
        return None
    with _LOCK:
        if module not in _LOADED:
            try:
                mod = importlib.import_module(module)
            except ImportError:
                mod = None
            if mod is not None:
                from ._numba_cache import check_module  # numba is importable: the kernel module imported it

                check_module(mod)
            _LOADED[module] = mod
    return _LOADED[module]
