"""Compiled inner loops of DPNE (optional: used when numba is installed, extra [fast]).

Kernels, each computing *exactly* what its numpy counterpart computes — not an approximation:

* :func:`philox4x64` / :func:`keyed_uniform` — Philox4x64-10 as :func:`dpcore.mechanisms.keyed.philox4x64`
  writes it out in numpy (the 64×64 → 128-bit multiply from four 32×32 → 64-bit products, the
  same key schedule), one item per loop iteration instead of ~40 array temporaries per round. Integer
  arithmetic modulo 2⁶⁴ has a single answer, and the uniform ((x >> 11) + ½)·2⁻⁵³ is exact in
  float64 both ways, so the outputs are equal bit for bit.
* :func:`ranked_drops` — which pairs of users over the contribution limit Δ are dropped: in each
  user's pairs ordered by (priority, position) (random selection) or by (−count, −priority, position)
  (most-frequent), the ones ranked Δ or later. That is the order of the stable ``np.lexsort`` the numpy
  path uses, computed by selection (a partition per user) instead of a global sort; see the function.

tests/test_fast_kernels.py compares each with its numpy path. This module imports numba at import
time; load it only through :func:`dpcore.mechanisms.keyed.kernel` (:func:`dpcore._kernels.optional_kernel`, which
checks its disk caches before use and honours ``DPCORE_DPNE_KERNEL=numpy``).
"""

from __future__ import annotations

import numba
import numpy as np

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_PHILOX_M0 = np.uint64(0xD2E7470EE14C6C93)
_PHILOX_M1 = np.uint64(0xCA5A826395121157)
_PHILOX_W0 = np.uint64(0x9E3779B97F4A7C15)
_PHILOX_W1 = np.uint64(0xBB67AE8584CAA73B)


@numba.njit(cache=True, inline="always")
def _mulhilo(a, b):
    """(low, high) 64-bit words of a·b (both uint64), the high word from four 32×32 → 64-bit products."""
    a0, a1 = a & _M32, a >> _S32
    b0, b1 = b & _M32, b >> _S32
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    hi = p11 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)
    return a * b, hi


@numba.njit(cache=True, inline="always")
def _philox_rounds(c0, c1, c2, c3, k0, k1):
    """Ten Philox4x64 rounds on one counter (c0..c3) under the key (k0, k1): the four output words."""
    for r in range(10):
        if r:
            k0 += _PHILOX_W0
            k1 += _PHILOX_W1
        lo0, hi0 = _mulhilo(c0, _PHILOX_M0)
        lo1, hi1 = _mulhilo(c2, _PHILOX_M1)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


@numba.njit(cache=True)
def philox4x64(c0, c1, c2, c3, k0, k1):
    """Philox4x64-10 of n counters given as four 1-D uint64 arrays of length n: an (4, n) uint64 array."""
    n = c0.size
    out = np.empty((4, n), dtype=np.uint64)
    for i in range(n):
        w0, w1, w2, w3 = _philox_rounds(c0[i], c1[i], c2[i], c3[i], k0, k1)
        out[0, i] = w0
        out[1, i] = w1
        out[2, i] = w2
        out[3, i] = w3
    return out


@numba.njit(cache=True)
def keyed_uniform(a, b, n, tag, k0, k1):
    """u_i = ((w_i >> 11) + ½)·2⁻⁵³ (i < n) for w_i the word 0 of Philox4x64-10 at counter (a_i, b_i, tag, 0).

    ``a`` and ``b`` are 1-D uint64 arrays, each of length n or 1 (then broadcast).
    """
    sa = 1 if a.size > 1 else 0
    sb = 1 if b.size > 1 else 0
    zero = np.uint64(0)
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        w0, _, _, _ = _philox_rounds(a[i * sa], b[i * sb], tag, zero, k0, k1)
        out[i] = (np.float64(w0 >> _S11) + 0.5) * 2.0**-53
    return out


@numba.njit(cache=True)
def _keep_smallest(v, lo, hi, m, keep):
    """Mark in ``keep[lo:hi]`` the m smallest of ``v[lo:hi]``, ties taken in position order (0 < m ≤ hi − lo).

    That is the first m of a stable sort: with t the m-th smallest value, every v < t (fewer than m of
    them) and then the first m − #{v < t} of the v == t, left to right.
    """
    t = np.partition(v[lo:hi], m - 1)[m - 1]
    ties = m
    for i in range(lo, hi):
        if v[i] < t:
            ties -= 1
    for i in range(lo, hi):
        if v[i] < t:
            keep[i] = True
        elif v[i] == t and ties > 0:
            keep[i] = True
            ties -= 1


@numba.njit(cache=True)
def _ranked_keep(user, r, count, limit, most_frequent):
    """Keep flags of pairs grouped by user (``user`` non-decreasing): each user's first ``limit`` pairs
    in the order (r, position), or (−count, −r, position) if ``most_frequent``."""
    n = user.size
    keep = np.zeros(n, dtype=np.bool_)
    m_n = n if most_frequent else 0  # scratch of most-frequent selection only
    neg_r = np.empty(m_n, dtype=np.float64)
    neg_c = np.empty(m_n, dtype=np.int64)
    tied = np.zeros(m_n, dtype=np.bool_)
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and user[hi] == user[lo]:
            hi += 1
        if hi - lo <= limit:
            for i in range(lo, hi):
                keep[i] = True
        elif not most_frequent:
            _keep_smallest(r, lo, hi, limit, keep)
        else:
            # by −count first: the pairs whose −count is below the limit-th smallest are kept; then the
            # m best (by −r, position) of the k pairs at that count fill the remaining places
            for i in range(lo, hi):
                neg_c[i] = -count[i]
            tc = np.partition(neg_c[lo:hi], limit - 1)[limit - 1]  # the limit-th smallest −count
            m = limit
            k = 0
            for i in range(lo, hi):
                if neg_c[i] < tc:
                    keep[i] = True
                    m -= 1
                elif neg_c[i] == tc:
                    neg_r[lo + k] = -r[i]
                    tied[lo + k] = False
                    k += 1
            # the m best of the k pairs with count == −tc, by (−r, position), written back in place
            _keep_smallest(neg_r, lo, lo + k, m, tied)
            k = 0
            for i in range(lo, hi):
                if neg_c[i] == tc:
                    keep[i] = tied[lo + k]
                    k += 1
        lo = hi
    return keep


def ranked_drops(user: np.ndarray, r: np.ndarray, count, limit: int) -> np.ndarray:
    """Positions (into ``user``) of the pairs each user drops: those ranked ``limit`` or later among the
    user's pairs in the order of ``np.lexsort((r, user))`` (``count`` None: random selection), or of
    ``np.lexsort((−r, −count, user))`` (most-frequent). ``r`` holds no NaN.

    The lexsort is stable, so within a user ties go by position; a stable argsort on ``user`` (skipped
    when ``user`` is already non-decreasing) groups the users and keeps that position order.
    """
    user = np.asarray(user, dtype=np.int64)
    r = np.asarray(r, dtype=np.float64)
    if user.size == 0:
        return np.zeros(0, dtype=np.int64)
    perm = None
    if np.any(user[1:] < user[:-1]):
        perm = np.argsort(user, kind="stable")
        user, r = user[perm], r[perm]
        count = None if count is None else np.asarray(count)[perm]
    most_frequent = count is not None
    c = np.asarray(count, dtype=np.int64) if most_frequent else np.zeros(1, dtype=np.int64)
    drop = np.flatnonzero(~_ranked_keep(user, r, c, int(limit), most_frequent))
    return drop if perm is None else perm[drop]
