"""The optional compiled kernels (numba, the ``[fast]`` extra): one loader for every kernel module.

Each kernel module has a numpy twin that gives the same results (bit for bit for DPNE's keyed draws, up to
rounding for the LDA / VIPS E-steps); an environment variable forces the numpy path.
"""

from __future__ import annotations

import importlib
import os

__all__ = ["optional_kernel"]

_LOADED: dict = {}


def optional_kernel(module: str, *, env: str):
    """The compiled module ``module`` (a dotted path such as ``"dpcore.topicdp._vb_kernel"``), imported once per
    process; None when numba is not installed (the import fails) or the environment variable ``env`` is
    ``"numpy"`` (read at every call, so a test can switch paths)."""
    if os.environ.get(env, "").lower() == "numpy":
        return None
    if module not in _LOADED:
        try:
            _LOADED[module] = importlib.import_module(module)
        except ImportError:
            _LOADED[module] = None
    return _LOADED[module]
