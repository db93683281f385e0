"""Keyed randomness: every random choice of DPNE is a function of (seed, item), not of visiting order.

Why (issue 12): the same DPNE release must come out of the local engine (numpy, :mod:`dpcore.dpne`)
and the Spark engine (:mod:`dpcore.dpne.spark_engine`), whose rows arrive in an order nobody controls.
A sequential generator would give each item the draw that happens to be next; here each item's draw
is read off a counter-based generator at a counter fixed by the item itself:

* **Item keys.** A token's key is the first 8 bytes of BLAKE2b of its UTF-8 bytes (stable across
  processes and machines, unlike Python's ``hash()``; independent of encoding order, unlike token ids).
  An n-gram's key folds its tokens' keys left to right, ``h_1 = fmix64(t_1 + C2)``,
  ``h_k = fmix64(h_{k−1}·C1 + t_k)`` (MurmurHash3's 64-bit finaliser), so a k-gram's key is computed
  from its (k−1)-prefix key and its last token in one vectorised step. A user's key is BLAKE2b of
  the user id's text.
* **Generator.** Philox4x64-10 (Salmon et al. 2011, the generator behind ``numpy.random.Philox``),
  written out in vectorised numpy: one call per item at counter (item key, second key, stream·2³² + k,
  0) under the 128-bit key derived from the seed. Its output equals ``numpy.random.Philox`` at the same
  counter and key (tests/test_keyed.py), so "a keyed counter-based generator" is meant literally.
  With numba installed (extra ``[fast]``) the same arithmetic runs compiled, one item per loop
  iteration (:mod:`dpcore.dpne._dpne_kernel`; the same bits, tests/test_fast_kernels.py);
  ``DPCORE_DPNE_KERNEL=numpy`` forces the numpy path.
* **Normals.** A 64-bit output word x → u = (⌊x/2¹¹⌋ + ½)·2⁻⁵³ ∈ (0, 1) → Φ⁻¹(u). Departure from an
  exact Gaussian: u has 53-bit resolution, so |z| < 8.3; P(|N(0,1)| > 8.3) ≈ 10⁻¹⁶.
* **Whole-level draws** (the Binomial count of zero-weight k-grams and which ones) come from a
  ``numpy.random.Generator(Philox(key=…))`` keyed by (seed, k) and applied to candidates in a
  canonical order (sorted by key), so both engines draw the same ones.

Two distinct items share a key with probability 2⁻⁶⁴ per pair (then they share their noise; the
release stays DP — noise independence across *neighbouring* datasets is what the proof needs, and a
collision only correlates two items' noise within one run).

* **A seed serves one release** (issue 21 item 5). The key is derived from the seed *and every
  parameter that changes the release* (:func:`release_seed`): with the bare seed, two releases at
  ε = 1 and ε = 2 shared their item noise Z_u, so S₁(ε = 1) ⊆ S₁(ε = 2) in 200 of 200 runs (133/200
  with independent seeds) and two views together revealed far more than either. With the derived key
  two releases with other parameters draw independent noise. Reusing one seed for a second release
  with the *same* parameters returns the same release (no new information, no new cost); a seed must
  never be reused for a different release of the same data in any other way.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np
from scipy.special import ndtri

from .._kernels import optional_kernel
from ..errors import UserError

__all__ = [
    "STREAM_NOISE",
    "STREAM_SELECT",
    "STREAM_ORDER",
    "STREAM_ZERO_WEIGHT",
    "STREAM_ZERO_ORDER",
    "seed_key",
    "release_seed",
    "token_keys",
    "text_key",
    "fold_keys",
    "row_keys",
    "philox4x64",
    "keyed_uniform",
    "keyed_normal",
    "level_generator",
]

STREAM_NOISE = 1  # Gaussian noise of a histogram item
STREAM_SELECT = 2  # contribution-limit priority of a (user, item) pair
STREAM_ORDER = 3  # the Policy Gaussian's user order
STREAM_ZERO_WEIGHT = 4  # B_k, the number of zero-weight k-grams released at level k
STREAM_ZERO_ORDER = 5  # the order in which level k's zero-weight k-grams are taken

_M64 = np.uint64(0xFFFFFFFFFFFFFFFF)
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_C1 = np.uint64(0x9E3779B97F4A7C15)
_C2 = np.uint64(0xD6E8FEB86659FD93)
_PHILOX_M0 = 0xD2E7470EE14C6C93
_PHILOX_M1 = 0xCA5A826395121157
_PHILOX_W0 = np.uint64(0x9E3779B97F4A7C15)
_PHILOX_W1 = np.uint64(0xBB67AE8584CAA73B)


def _blake64(data: bytes, person: bytes) -> int:
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, person=person).digest(), "little")


def seed_key(seed) -> tuple[int, int]:
    """The 128-bit Philox key (two 64-bit words) of an integer seed ≥ 0 (BLAKE2b of its decimal text)."""
    seed = int(seed)
    if seed < 0:
        raise UserError(f"seed must be >= 0, got seed={seed}")
    d = hashlib.blake2b(str(seed).encode(), digest_size=16, person=b"dpcore-seed").digest()
    return int.from_bytes(d[:8], "little"), int.from_bytes(d[8:], "little")


def _canonical(value) -> str:
    """A parameter's text for :func:`release_seed`: equal values give equal text (1 and 1.0, numpy scalars)."""
    if isinstance(value, (bool, np.bool_)):
        return repr(bool(value))
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return repr(int(v)) if v.is_integer() and abs(v) < 2**53 else repr(v)
    if isinstance(value, str):
        return repr(value)
    raise TypeError(f"release parameters must be numbers or strings, got {type(value).__name__}")


def release_seed(seed, **parameters) -> int:
    """A 63-bit seed for one release: BLAKE2b of the integer ``seed`` and every parameter (name = value, sorted
    by name), so a release with other parameters draws independent keyed noise (issue 21 item 5).

    Numbers compare by value (ε = 1 and ε = 1.0 give the same key). The seed itself stays secret: the key is a
    one-way function of it.
    """
    seed = int(seed)
    if seed < 0:
        raise UserError(f"seed must be >= 0, got seed={seed}")
    text = ";".join([str(seed)] + [f"{k}={_canonical(v)}" for k, v in sorted(parameters.items())])
    return _blake64(text.encode("utf-8"), b"dpcore-release") >> 1


def text_key(text: str, person: bytes = b"dpcore-user") -> int:
    """A stable 64-bit key of a string (BLAKE2b), e.g. of a user id."""
    return _blake64(str(text).encode("utf-8"), person)


def token_keys(words: Iterable[str]) -> np.ndarray:
    """The 64-bit key of each token (``uint64``): BLAKE2b-64 of its UTF-8 bytes (one pass per word)."""
    words = list(words)
    out = np.fromiter((_blake64(w.encode("utf-8"), b"dpcore-token") for w in words), dtype=np.uint64, count=len(words))
    return out


def _fmix64(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def fold_keys(prefix: np.ndarray | None, last: np.ndarray) -> np.ndarray:
    """Key of the k-gram with (k−1)-prefix key ``prefix`` (None for k = 1) and last-token key ``last``."""
    last = np.asarray(last, dtype=np.uint64)
    with np.errstate(over="ignore"):
        if prefix is None:
            return _fmix64(last + _C2)
        return _fmix64(np.asarray(prefix, dtype=np.uint64) * _C1 + last)


def row_keys(token_key_rows: np.ndarray) -> np.ndarray:
    """Keys of n-grams given as an ``(n, k)`` array of token keys (``uint64``)."""
    rows = np.asarray(token_key_rows, dtype=np.uint64)
    if rows.ndim != 2 or rows.shape[1] < 1:
        raise UserError(f"token_key_rows must be a 2-D array with at least one column, got shape {rows.shape}")
    h = fold_keys(None, rows[:, 0])
    for j in range(1, rows.shape[1]):
        h = fold_keys(h, rows[:, j])
    return h


def kernel():
    """DPNE's compiled kernels (:mod:`dpcore.dpne._dpne_kernel`: Philox, the per-user selection) if numba is
    installed and the environment variable ``DPCORE_DPNE_KERNEL`` is not ``"numpy"``; else None (the
    numpy paths). Both paths give the same bits."""
    return optional_kernel("dpcore.dpne._dpne_kernel", env="DPCORE_DPNE_KERNEL")


def _mulhilo(a: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
    """(low, high) 64-bit words of a·b for uint64 arrays a and a 64-bit constant b."""
    a0, a1 = a & _M32, a >> _S32
    b0, b1 = np.uint64(b & 0xFFFFFFFF), np.uint64(b >> 32)
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    mid = (p00 >> _S32) + (p01 & _M32) + (p10 & _M32)
    hi = p11 + (p01 >> _S32) + (p10 >> _S32) + (mid >> _S32)
    lo = a * np.uint64(b)
    return lo, hi


def philox4x64(counter, key) -> tuple[np.ndarray, ...]:
    """Philox4x64-10 (Salmon, Moraes, Dror, Shaw 2011) on arrays: 4 counter words → 4 output words.

    Args:
      counter: four ``uint64`` arrays (or scalars) of one shape.
      key: two 64-bit integers.
    """
    c = [
        np.asarray(x, dtype=np.uint64) for x in np.broadcast_arrays(*[np.asarray(x, dtype=np.uint64) for x in counter])
    ]
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    compiled = kernel()
    if compiled is not None:
        out = compiled.philox4x64(*[x.ravel() for x in c], k0, k1)
        return tuple(w.reshape(c[0].shape) for w in out)
    with np.errstate(over="ignore"):
        for r in range(10):
            if r:
                k0 = np.uint64((int(k0) + int(_PHILOX_W0)) & 0xFFFFFFFFFFFFFFFF)
                k1 = np.uint64((int(k1) + int(_PHILOX_W1)) & 0xFFFFFFFFFFFFFFFF)
            lo0, hi0 = _mulhilo(c[0], _PHILOX_M0)
            lo1, hi1 = _mulhilo(c[2], _PHILOX_M1)
            c = [hi1 ^ c[1] ^ k0, lo1, hi0 ^ c[3] ^ k1, lo0]
    return tuple(c)


def _counter(a, b, stream: int, k: int):
    a = np.asarray(a, dtype=np.uint64)
    b = np.zeros_like(a) if b is None else np.asarray(b, dtype=np.uint64)
    tag = np.uint64((int(stream) << 32) | int(k))
    return a, b, np.full(np.broadcast(a, b).shape, tag, dtype=np.uint64), np.zeros(1, dtype=np.uint64)


def keyed_uniform(seed, a, b=None, *, stream: int, k: int = 0) -> np.ndarray:
    """u ∈ (0, 1) for each item: a function of (seed, a, b, stream, k) only (Philox4x64-10 word 0)."""
    compiled = kernel()
    if compiled is not None:
        a = np.asarray(a, dtype=np.uint64)
        b = np.zeros((), dtype=np.uint64) if b is None else np.asarray(b, dtype=np.uint64)
        shape = np.broadcast(a, b, np.zeros(1, dtype=np.uint64)).shape  # as _counter's: at least 1-D
        if a.shape != shape and a.size != 1 or b.shape != shape and b.size != 1:  # a general broadcast
            a, b = np.broadcast_arrays(a, b)
        k0, k1 = (np.uint64(w) for w in seed_key(seed))
        tag = np.uint64((int(stream) << 32) | int(k))
        return compiled.keyed_uniform(a.ravel(), b.ravel(), int(np.prod(shape)), tag, k0, k1).reshape(shape)
    out = philox4x64(_counter(a, b, stream, k), seed_key(seed))[0]
    return ((out >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0**-53


def keyed_normal(seed, a, b=None, *, stream: int = STREAM_NOISE, k: int = 0) -> np.ndarray:
    """N(0, 1) for each item, a function of (seed, item key, stream, k) only: Φ⁻¹ of :func:`keyed_uniform`."""
    return ndtri(keyed_uniform(seed, a, b, stream=stream, k=k))


def level_generator(seed, k: int, stream: int = STREAM_ZERO_WEIGHT) -> np.random.Generator:
    """A ``numpy.random.Generator`` (Philox) keyed by (seed, stream, k), for whole-level draws."""
    k0, k1 = seed_key(seed)
    k1 ^= (int(stream) << 32) | int(k)
    return np.random.Generator(np.random.Philox(key=k0 | (k1 << 64)))
