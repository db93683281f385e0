"""Which entries of each group fall beyond its first ``limit`` in a per-group order: the one selection that
DPNE/DPSU's contribution limit (Δ0 items per user) and strict BayesianDP's item cap (L items per user) share.

numpy (a stable lexsort) or, with the ``[fast]`` extra, the compiled per-group partition of
:mod:`dpcore.dpne._dpne_kernel` (the same positions; ``DPCORE_DPNE_KERNEL=numpy`` forces numpy).
"""

from __future__ import annotations

import numpy as np

from .mechanisms.keyed import kernel

__all__ = ["ranked_drops"]


def ranked_drops(user, r, count, limit) -> np.ndarray:
    """Positions (into ``user``) of the pairs beyond each user's first ``limit`` in the selection order.

    Exact order inside a user (a stable lexsort, no packing of user and priority into one float, whose
    rounding could swap near-equal priorities): random (``count`` None) = ascending r; most-frequent =
    descending count, then descending r; remaining ties by position. The Spark engine orders its window
    the same way. With numba (:func:`dpcore.mechanisms.keyed.kernel`) a per-user partition finds the same pairs
    without the sort (:func:`dpcore.dpne._dpne_kernel.ranked_drops`).
    """
    compiled = kernel()
    if compiled is not None:
        return compiled.ranked_drops(user, r, count, limit)
    keys = (r, user) if count is None else (-r, -np.asarray(count).astype(np.int64), user)
    order = np.lexsort(keys)
    su = user[order]
    first = np.ones(su.size, dtype=bool)
    first[1:] = su[1:] != su[:-1]
    group_start = np.maximum.accumulate(np.where(first, np.arange(su.size), 0))
    return order[(np.arange(su.size) - group_start) >= limit]
