"""BayesianDP (000 Algorithm 1, Corollary 1) and EndToEndDP (000 Algorithm 2, §3.2).

SPEC §3, step by step (Δc^n user n's counts over V, users × |V| sparse):

1. V = the public vocabulary (done by :func:`dpcore.ngram_counts`).
2. Clamp Δc^n ← min(C, Δc^n); c = Σ_n Δc^n; N_i = #users with Δc^n_i > 0.
3. x̂ = log(c+1) − mean(log(c+1))  (000 eq. 2);  μ_p = log(α+1) − mean(log(α+1))  (000 eq. 1;
   the appendix writes log α, we use log(α+1) as eq. 1 and Algorithm 1 do).
4. w = min(1, S·N/C)  (000 eq. 5).
5. μ_ps = ρ·(w ⊙ x̂) + (1−ρ)·μ_p  (Corollary 1; Algorithm 1's last lines omit w — a typo).
6. γ = max_n ‖w ⊙ x̂ − w₋ₙ ⊙ x̂₋ₙ‖₂ with w₋ₙ = min(1, S·(N − 1[Δc^n>0])/C): exactly, by brute
   force in O(nnz) (:func:`brute_force_sensitivity`), or the Claim 1 worst case
   (:func:`worst_case_sensitivity`).
7. σ_ps = ρ·γ·√(2 ln(1.25/δ))/ε (classic, 000 Def. 4, proven for ε < 1) or ρ·γ·σ_analytic(ε, δ).
8. h ~ N(μ_ps, σ_ps² I); θ = softmax(h).

Departures from the paper (SPEC §3 records them):
- The paper's shortcut w − w₋ₙ = (S/C)·1(N ≤ C/S) is wrong where (N−1)·S/C < 1 < N·S/C (it gives
  0 there, the truth is 1 − (N−1)·S/C). The brute force uses the exact w₋ₙ, and the worst case
  replaces (S/C)·1(N ≤ C/S) by the exact largest drop w_i − min(1, S·(N_i−1)/C), which keeps the
  bound valid in the transition region.
- Worst case, words with N_i = 0: no user holds them, so removing a user does not change their
  log(c+1) term and their weight is w_i = 0. They are excluded from the sums in L (their term would
  be 1/0) and contribute nothing to the bound. This is exact, not an approximation: see
  :func:`worst_case_sensitivity`.
- Like the paper, γ ("brute-force" and "worst-case") is the largest change under removal of one user
  *of this dataset* (Def. 2 with D₋ₙ over n ∈ U), computed from the data: a *local* sensitivity
  (SPEC §3b). Noise scaled to it is not (ε, δ)-DP, and the release says so in its guarantee
  (kind "local sensitivity (not DP)").
- Strict mode (SPEC §3b, our addition, not in the paper): every user keeps at most L = ``max_items``
  distinct items (a seeded uniform choice after the C clamp, like DPSU's Δ0) and the number of users
  is at most a public cap N_max = ``max_users``. Then γ_strict = √L·[ln(1+C) + min(1, S/C)·ln(C·N_max+1)]
  bounds the change for *every* pair of neighbouring corpora (see :func:`strict_sensitivity`), and
  the release is (ε, δ)-DP per user.

Only step 8 depends on (ε, δ): :class:`PreparedBayesianDP` holds steps 1–7 without σ, so an ε sweep
costs one Gaussian draw and one softmax per point.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from ._ranking import ranked_drops
from .gaussian import CALIBRATION_CHOICES, gaussian_sigma, resolve_calibration
from .guarantees import Guarantee, approximate_dp, local_sensitivity
from .validation import (as_float_array, check_choice, check_delta, check_epsilon, check_int, check_noise_scale, check_probability,
                         check_real, check_rng, check_sequence)

__all__ = [
    "SENSITIVITY_METHODS",
    "DEFAULT_S_GRID",
    "DEFAULT_RHO_GRID",
    "BayesianStatistics",
    "PreparedBayesianDP",
    "BayesianRelease",
    "EndToEndRelease",
    "EndToEndEvaluation",
    "bayesian_statistics",
    "bayesian_sensitivity",
    "brute_force_sensitivity",
    "worst_case_sensitivity",
    "strict_sensitivity",
    "cap_user_items",
    "LOCAL_SENSITIVITY_METHODS",
    "bayesian_dp",
    "end_to_end_dp",
    "clamp_counts",
    "decay_weights",
    "softmax",
    "check_count_matrix",
]

LOCAL_SENSITIVITY_METHODS = ("brute-force", "worst-case")
"""γ measured on the private data (SPEC §3b: a local sensitivity, not DP)."""
SENSITIVITY_METHODS = LOCAL_SENSITIVITY_METHODS + ("strict",)
DEFAULT_S_GRID = tuple(float(s) for s in np.logspace(-3, 4, 8))
DEFAULT_RHO_GRID = (0.1, 0.25, 0.5, 0.75, 1.0)
_CHUNK_NNZ = 2_000_000


# ----------------------------------------------------------------------------------------------
# validation helpers


def check_count_matrix(user_counts, name: str = "user_counts") -> sp.csr_matrix:
    """A users × |V| scipy.sparse matrix of finite, non-negative, whole counts with |V| ≥ 2.

    Returns a float64 CSR copy with explicit zeros removed and duplicates summed.
    """
    if not sp.issparse(user_counts):
        raise TypeError(
            f"{name} must be a scipy.sparse matrix (users × |V|), got {name} of type {type(user_counts).__name__}; "
            "build it with dpcore.ngram_counts or scipy.sparse.csr_matrix"
        )
    if user_counts.ndim != 2:
        raise ValueError(f"{name} must be 2-D (users × |V|), got shape {user_counts.shape}")
    m = user_counts.tocsr() if user_counts.format != "csr" else user_counts
    if not m.has_canonical_format:
        m = m.copy()
        m.sum_duplicates()
    # a fresh float64 data array (it is clamped in place later); the index arrays are shared read-only
    m = sp.csr_matrix((np.array(m.data, dtype=np.float64, copy=True), m.indices, m.indptr), shape=m.shape)
    n_users, v = m.shape
    if v < 2:
        raise ValueError(
            f"vocabulary size |V| must be >= 2 (a softmax over one word always outputs 1), got |V|={v}"
        )
    if n_users < 1:
        raise ValueError(f"{name} must have at least 1 user (row), got {n_users}")
    d = m.data
    if d.size:
        lo, hi = float(d.min()), float(d.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"{name} must be finite, got a NaN or infinite count")
        if lo < 0:
            raise ValueError(f"{name} must be >= 0, got a count of {lo:g}")
        if np.issubdtype(user_counts.dtype, np.floating):
            frac = np.flatnonzero(np.mod(d, 1.0))
            if frac.size:
                raise ValueError(f"{name} must hold whole counts, got a count of {d[frac[0]]:g}")
        if lo == 0:  # explicit zeros: compact into own index arrays (never touch the caller's)
            m = sp.csr_matrix((d, m.indices.copy(), m.indptr.copy()), shape=m.shape)
            m.eliminate_zeros()
    return m


def _check_public(public_counts, v: int) -> np.ndarray:
    if sp.issparse(public_counts):
        public_counts = public_counts.toarray().ravel()
    a = as_float_array("public_counts", public_counts)
    if a.ndim != 1 or a.shape[0] != v:
        raise ValueError(f"public_counts must be a 1-D array of length |V|={v}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError("public_counts must be finite, got a NaN or infinite entry")
    if a.size and a.min() < 0:
        raise ValueError(f"public_counts must be >= 0, got public_counts min={a.min():g}")
    return a


def _check_S(S) -> float:
    return check_real("S", S, low=0.0)


def _check_C(C) -> int:
    return check_int("C", C, low=1)


def _check_rho(rho) -> float:
    return check_probability(rho, "rho", allow_zero=False)


def clamp_counts(user_counts, C) -> sp.csr_matrix:
    """Δc^n ← min(C, Δc^n) elementwise (000 Algorithm 1, first loop)."""
    C = _check_C(C)
    m = check_count_matrix(user_counts)
    np.minimum(m.data, C, out=m.data)
    return m


def _check_max_items(max_items) -> int:
    return check_int("max_items", max_items, low=1)


MAX_USERS_CAP = 10**12
"""The largest public cap N_max accepted: a hundred times the world's population (10**300 overflowed
C·N_max in γ_strict before; issue 21 item 8)."""


def _check_max_users(max_users) -> int:
    n = check_int("max_users", max_users, low=1)
    if n > MAX_USERS_CAP:
        digits = f"<an integer with {len(str(n))} digits>" if n >= 10**60 else str(n)
        raise ValueError(f"max_users must be at most 1e12 (a public cap on the number of people), got max_users={digits}")
    return n


def smallest_keys_per_row(keys, row_start, k) -> tuple[np.ndarray, np.ndarray]:
    """Positions (ascending) and rows of the k smallest values ``r + key`` of every row r, ties broken by
    position: the first k per row of a stable sort of row + key over all positions (the float sum, whose
    rounding can tie near-equal keys, as the Laplace baselines' W cap has always drawn).

    Row r holds the positions ``row_start[r]:row_start[r+1]`` of ``keys`` (uniform in [0, 1)). Only the keys
    under a per-row cut τ_r (about k + 4 sd + 4 of them expected) are sorted: a row with at least k values
    strictly below its cut is settled by its candidates (every other key is ≥ the cut); any other row
    takes all its positions. The cuts only decide the speed, never the result.
    """
    keys = np.asarray(keys, dtype=np.float64)
    row_start = np.asarray(row_start, dtype=np.int64)
    lengths = np.diff(row_start)
    n_rows = lengths.size
    big = lengths > k
    if not big.any():
        pos = np.arange(keys.size, dtype=np.int64)
        return pos, np.repeat(np.arange(n_rows, dtype=np.int64), lengths)
    # per-row cut: about k + 4 sd + 4 candidates expected in a row of t keys; 0 for rows taken whole
    tau = np.where(big, np.minimum(1.0, (k + 4.0 * math.sqrt(k) + 4.0) / np.maximum(lengths, 1)), 0.0)

    def rows_of(pos):
        return np.searchsorted(row_start, pos, side="right") - 1

    def value(pos, r):
        return r + keys[pos]

    idx = np.flatnonzero(keys < np.repeat(tau, lengths))
    r = rows_of(idx)
    cut = r + tau[r]
    strict = value(idx, r) < cut
    settled = big & (np.bincount(r[strict], minlength=n_rows) >= k)
    whole = np.flatnonzero(~settled)  # rows of at most k entries, and big rows the cut did not settle
    if whole.size:
        sel = settled[r]
        idx, r = idx[sel], r[sel]
        n_whole = lengths[whole]
        r_whole = np.repeat(whole, n_whole)
        pos_whole = np.arange(int(n_whole.sum()), dtype=np.int64) + np.repeat(row_start[whole] - np.concatenate(
            ([0], np.cumsum(n_whole)[:-1])), n_whole)
        idx = np.concatenate((idx, pos_whole))
        r = np.concatenate((r, r_whole))
        o = np.argsort(idx, kind="stable")
        idx, r = idx[o], r[o]
    v = value(idx, r)
    order = np.argsort(v.view(np.int64), kind="stable")  # non-negative floats order like their int64 bits
    per_row = np.bincount(r, minlength=n_rows)
    starts = np.concatenate(([0], np.cumsum(per_row)[:-1]))
    chosen = np.sort(order[np.arange(idx.size) - starts[r[order]] < k])
    return idx[chosen], r[chosen]


def cap_user_items(user_counts, *, max_items, rng) -> sp.csr_matrix:
    """Keep at most L = ``max_items`` distinct items per user (SPEC §3b, strict mode).

    A user with more than L items in their row keeps a uniform random L-subset of them (every
    non-zero gets an i.i.d. uniform key; the L smallest keys of a row are kept), seeded by ``rng``;
    counts of the kept items are unchanged. Users with at most L items are kept as they are. Each
    user's choice uses only that user's keys, so the transform acts on one user at a time (what the
    strict bound needs). Apply it after the C clamp (the order does not matter: the clamp acts
    entry-wise).
    """
    max_items = _check_max_items(max_items)
    rng = check_rng(rng)
    m = check_count_matrix(user_counts)
    lengths = np.diff(m.indptr)
    if lengths.size == 0 or lengths.max() <= max_items:
        return m
    keys = rng.random(m.nnz)
    rows = np.repeat(np.arange(m.shape[0]), lengths)
    keep = np.ones(m.nnz, dtype=bool)  # the L smallest keys of each row, ties by position (DPNE's Δ0 selection)
    keep[ranked_drops(rows, keys, None, max_items)] = False
    out = sp.csr_matrix((m.data[keep], m.indices[keep], np.concatenate(([0], np.cumsum(np.minimum(lengths, max_items))))),
                        shape=m.shape)
    return out


def strict_sensitivity(*, S, C, max_items, max_users) -> float:
    """γ_strict = √L·[ln(1 + C) + min(1, S/C)·ln(C·N_max + 1)] (SPEC §3b; not in the paper).

    A data-independent bound on ‖w ⊙ x̂ − w' ⊙ x̂'‖₂ over *every* pair of neighbouring corpora (one
    user added or removed, any data), when every user holds at most L = ``max_items`` distinct items
    with counts clamped at C and both corpora have at most N_max = ``max_users`` users:

    - ‖w ⊙ x̂ − w' ⊙ x̂'‖₂ ≤ ‖w ⊙ (x̂ − x̂')‖₂ + ‖(w − w') ⊙ x̂'‖₂ ≤ ‖x̂ − x̂'‖₂ + ‖(w − w') ⊙ x̂'‖₂ (w ≤ 1);
    - x̂ − x̂' is the centring projection of a − a' (a = log(c+1)), so ‖x̂ − x̂'‖₂ ≤ ‖a − a'‖₂; the user
      moves at most L coordinates, each by log(c+Δ+1) − log(c+1) ≤ ln(1+C): ≤ √L·ln(1+C);
    - w − w' is non-zero on the user's ≤ L items only, each |w_i − w'_i| ≤ min(1, S/C), and
      |x̂'_i| ≤ max a' − min a' ≤ ln(C·N_max + 1): ≤ √L·min(1, S/C)·ln(C·N_max + 1).

    SPEC check: L = 50, C = 1, S = 1e-3, N_max = 2400 → 4.9563.
    """
    S, C = _check_S(S), _check_C(C)
    L, n_max = _check_max_items(max_items), _check_max_users(max_users)
    # exact integers inside the logs: C·N_max may exceed the float range although its log does not
    return math.sqrt(L) * (math.log(C + 1) + min(1.0, S / C) * math.log(C * n_max + 1))


def _check_user_cap(n_users: int, max_users: int) -> None:
    if n_users > max_users:
        raise ValueError(
            f"max_users must be >= the number of users in the corpus, got max_users={max_users} for {n_users} users; "
            "max_users is a public cap (stated, not measured): raise it, or use fewer users"
        )


def _check_items_capped(m: sp.csr_matrix, max_items: int) -> None:
    """γ_strict bounds users with at most L distinct items only: refuse a matrix with a longer row (issue 21
    item 6: one user with 290 items at L = 1 moved w ⊙ x̂ by 9.39 while γ_strict said 8.44)."""
    lengths = np.diff(m.indptr)
    if lengths.size and int(lengths.max()) > max_items:
        worst = int(np.argmax(lengths))
        over = int(np.count_nonzero(lengths > max_items))
        raise ValueError(
            f"max_items must be >= every user's number of distinct items for method='strict', got max_items="
            f"{max_items} while user (row) {worst} holds {int(lengths[worst])} items ({over} user(s) above the cap): "
            "γ_strict would not bound them. Cap the users first: dpcore.cap_user_items(user_counts, max_items=L, "
            "rng=…), or bayesian_statistics(…, max_items=L, rng=…), which keeps a seeded random L of their items")


def decay_weights(users_per_item, *, S, C) -> np.ndarray:
    """w = min(1, S·N/C) (000 eq. 5)."""
    S, C = _check_S(S), _check_C(C)
    n = np.asarray(users_per_item, dtype=float)
    return np.minimum(1.0, S * n / C)


def softmax(h: np.ndarray) -> np.ndarray:
    """Row-wise softmax computed stably (h − max h before exp).

    Infinite entries take their limit: a row with +∞ entries puts its mass uniformly on them (−∞
    entries get 0), so the result is a probability vector whenever no entry is NaN.
    """
    h = np.asarray(h, dtype=float)
    m = h.max(axis=-1, keepdims=True)
    top = np.isposinf(m)
    with np.errstate(over="ignore", invalid="ignore"):  # h − max ≤ 0; an overflow to −inf just means exp → 0
        z = np.exp(h - np.where(top, 0.0, m))
    if top.any():
        z = np.where(top, np.isposinf(h).astype(float), z)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def _softmax_of_draw(mu: np.ndarray, sigma: float, noise: np.ndarray) -> np.ndarray:
    """softmax(μ + σ·Z) without forming μ + σ·Z, so a σ near the float limit cannot overflow to ∞ − ∞.

    With k = argmax_i (μ_i/σ + Z_i) (the argmax of h, scale-free), h_i − h_k = (μ_i − μ_k) + σ(Z_i − Z_k)
    is ≤ 0 up to rounding and can only overflow towards −∞ (exp → 0), while h_k − h_k = 0 exactly: the
    result is a probability vector for every finite σ; it tends to a point mass on argmax Z as σ → ∞.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        h = mu + sigma * noise
    if np.all(np.isfinite(h)):
        return softmax(h)
    # here σ·|Z| overflowed, so σ is huge and μ/σ is a finite, tiny shift
    k = np.argmax(mu / sigma + noise, axis=-1)[..., None]
    with np.errstate(over="ignore", invalid="ignore"):
        d = (mu - np.take_along_axis(np.broadcast_to(mu, noise.shape), k, axis=-1)) + \
            sigma * (noise - np.take_along_axis(noise, k, axis=-1))
    d = np.where(np.isnan(d), -np.inf, d)
    z = np.exp(np.minimum(d, 0.0))
    return z / z.sum(axis=-1, keepdims=True)


def _centered_log1p(x: np.ndarray) -> np.ndarray:
    lx = np.log1p(x)
    return lx - lx.mean()


# ----------------------------------------------------------------------------------------------
# sensitivity


def _brute_force(clamped: sp.csr_matrix, c, N, log_c1, x_hat, w, S, C) -> float:
    """max_n ‖w ⊙ x̂ − w₋ₙ ⊙ x̂₋ₙ‖₂ in O(nnz), processing users in chunks.

    For user n with support A (Δc_j > 0): d_j = log(c_j+1) − log(c_j−Δc_j+1) on A, 0 elsewhere;
    the mean of log(c+1) drops by m = Σ_A d_j/|V|, so x̂₋ₙ = x̂ − d + m. Off A, w is unchanged and the
    difference is −m·w_i, whose squared norm is m²·(Σ w² − Σ_A w²). On A the difference is
    w_j x̂_j − w₋ₙ,j (x̂_j − d_j + m) with w₋ₙ,j = min(1, S(N_j − 1)/C).
    """
    v = clamped.shape[1]
    w2_item = w * w
    w2_total = float(w2_item.sum())
    w_minus_item = np.minimum(1.0, S * np.maximum(N - 1.0, 0.0) / C)  # w₋ₙ on the user's support
    base_item = (w - w_minus_item) * x_hat  # w x̂ − w₋ₙ x̂; the difference on A is base + w₋ₙ·(d − m)
    indptr, indices, data = clamped.indptr, clamped.indices, clamped.data
    n_users = clamped.shape[0]
    best = 0.0
    start = 0
    while start < n_users:
        # chunk rows so that each chunk holds about _CHUNK_NNZ non-zeros
        end = int(np.searchsorted(indptr, indptr[start] + _CHUNK_NNZ, side="right"))
        end = min(max(end - 1, start + 1), n_users)
        a, b = indptr[start], indptr[end]
        if b > a:
            idx = indices[a:b]
            lengths = np.diff(indptr[start:end + 1])
            nonempty = lengths > 0
            offsets = (indptr[start:end] - a)[nonempty]  # rows are contiguous: segment sums by reduceat
            d = log_c1[idx] - np.log1p(c[idx] - data[a:b])
            m = np.add.reduceat(d, offsets) / v
            d -= np.repeat(m, lengths[nonempty])
            diff = base_item[idx] + w_minus_item[idx] * d
            on_support = np.add.reduceat(diff * diff, offsets)
            w2_support = np.add.reduceat(w2_item[idx], offsets)
            g2 = on_support + m * m * np.maximum(w2_total - w2_support, 0.0)
            best = max(best, float(g2.max()))
        start = end
    return math.sqrt(best)


def _worst_case(N, x_hat, w, S, C) -> float:
    """Claim 1 with the exact largest weight drop (see :func:`worst_case_sensitivity`)."""
    v = N.shape[0]
    used = N > 0
    inv = np.zeros(v)
    inv[used] = 1.0 / N[used]
    total = inv.sum()
    L = (1.0 - 1.0 / v) * inv + (total - inv) / v
    drop = np.where(used, w - np.minimum(1.0, S * np.maximum(N - 1.0, 0.0) / C), 0.0)
    bound = w * L * C + drop * np.abs(x_hat)
    return float(np.linalg.norm(bound))


@dataclass(frozen=True, eq=False)
class BayesianStatistics:
    """Steps 1–3 of BayesianDP: everything that depends on neither S, ρ nor (ε, δ).

    Attributes:
      clamped: the clamped per-user counts (CSR, float64).
      counts: c = Σ_n Δc^n (clamped).
      users_per_item: N.
      x_hat: 000 eq. 2.
      mu_p: 000 eq. 1, or None when no public counts were given (sensitivity only).
      C: the clamp.
      max_items: L, the per-user item cap applied after the clamp (strict mode), or None.
    """

    clamped: sp.csr_matrix
    counts: np.ndarray
    users_per_item: np.ndarray
    log_counts1: np.ndarray
    x_hat: np.ndarray
    mu_p: np.ndarray | None
    C: int
    _cache: dict = field(default_factory=dict, repr=False, compare=False)
    max_items: int | None = None

    @property
    def n_users(self) -> int:
        return self.clamped.shape[0]

    @property
    def vocabulary_size(self) -> int:
        return self.clamped.shape[1]

    def weights(self, S) -> np.ndarray:
        """w = min(1, S·N/C) (000 eq. 5)."""
        return decay_weights(self.users_per_item, S=S, C=self.C)

    def sensitivity(self, S, method: str = "brute-force", *, max_users=None) -> float:
        """γ of w ⊙ x̂ (cached per (S, method)).

        "brute-force" / "worst-case": under removal of one user of *this* corpus (local, SPEC §3b).
        "strict": :func:`strict_sensitivity`, which needs the statistics built with ``max_items``
        and a public ``max_users`` ≥ the number of users.
        """
        S = _check_S(S)
        check_choice("method", method, SENSITIVITY_METHODS)
        if method == "strict":
            if self.max_items is None:
                raise ValueError("method='strict' needs the per-user item cap: build the statistics with "
                                 "bayesian_statistics(..., max_items=L, rng=...)")
            if max_users is None:
                raise ValueError("method='strict' needs max_users (a public cap on the number of users)")
            max_users = _check_max_users(max_users)
            _check_user_cap(self.n_users, max_users)
            return strict_sensitivity(S=S, C=self.C, max_items=self.max_items, max_users=max_users)
        if max_users is not None:
            raise ValueError(f"max_users applies to method='strict' only, got method={method!r}")
        key = ("gamma", S, method)
        if key not in self._cache:
            w = self.weights(S)
            N = self.users_per_item.astype(float)
            if method == "brute-force":
                g = _brute_force(self.clamped, self.counts, N, self.log_counts1, self.x_hat, w, S, self.C)
            else:
                g = _worst_case(N, self.x_hat, w, S, self.C)
            self._cache[key] = g
        return self._cache[key]

    def posterior_mean(self, S, rho) -> np.ndarray:
        """μ_ps = ρ·(w ⊙ x̂) + (1−ρ)·μ_p (Corollary 1)."""
        if self.mu_p is None:
            raise ValueError("public_counts are needed for the posterior mean; build with bayesian_statistics(..., public_counts)")
        rho = _check_rho(rho)
        return rho * (self.weights(S) * self.x_hat) + (1.0 - rho) * self.mu_p

    def prepare(self, *, S, rho, sensitivity: str = "brute-force", max_users=None) -> "PreparedBayesianDP":
        """Steps 4–7 without σ: the object whose :meth:`~PreparedBayesianDP.release` costs one draw.

        ``sensitivity="strict"`` needs statistics built with ``max_items`` and a public ``max_users``."""
        S, rho = _check_S(S), _check_rho(rho)
        check_choice("sensitivity", sensitivity, SENSITIVITY_METHODS)
        w = self.weights(S)
        gamma = self.sensitivity(S, sensitivity, max_users=max_users)
        return PreparedBayesianDP(
            mu_ps=self.posterior_mean(S, rho), weights=w, sensitivity=gamma,
            S=S, C=self.C, rho=rho, sensitivity_method=sensitivity, n_users=self.n_users,
            max_items=self.max_items if sensitivity == "strict" else None,
            max_users=None if max_users is None else int(max_users),
        )


def bayesian_statistics(user_counts, public_counts=None, *, C, max_items=None, rng=None) -> BayesianStatistics:
    """Clamp the counts and compute c, N, x̂ (000 eq. 2) and μ_p (000 eq. 1).

    Args:
      user_counts: scipy.sparse users × |V| matrix of raw counts (|V| ≥ 2).
      public_counts: α over the same V (None: only the sensitivity can be computed).
      C: the clamp, an integer ≥ 1 (max count per user per word).
      max_items: L for strict mode (SPEC §3b): after the clamp each user keeps at most L distinct
        items, a seeded random choice (:func:`cap_user_items`); None keeps every item (paper).
      rng: numpy Generator or int seed; needed with ``max_items``.

    Raises:
      TypeError: user_counts is not sparse, C not an integer.
      ValueError: |V| < 2, negative/NaN/fractional counts, C < 1, α of the wrong length.
    """
    C = _check_C(C)
    m = clamp_counts(user_counts, C)
    if max_items is not None:
        max_items = _check_max_items(max_items)
        if rng is None:
            raise ValueError("max_items needs rng (the per-user item choice is random); pass rng=<seed or Generator>")
        m = cap_user_items(m, max_items=max_items, rng=rng)
    c = np.asarray(m.sum(axis=0), dtype=float).ravel()
    N = np.bincount(m.indices, minlength=m.shape[1]).astype(float)
    log_c1 = np.log1p(c)
    x_hat = log_c1 - log_c1.mean()
    mu_p = None
    if public_counts is not None:
        mu_p = _centered_log1p(_check_public(public_counts, m.shape[1]))
    return BayesianStatistics(clamped=m, counts=c, users_per_item=N, log_counts1=log_c1, x_hat=x_hat, mu_p=mu_p, C=C,
                              max_items=max_items)


def brute_force_sensitivity(user_counts, *, S, C) -> float:
    """Exact γ = max_n ‖w ⊙ x̂ − w₋ₙ ⊙ x̂₋ₙ‖₂ (000 Corollary 1, SPEC §3 step 6) in O(nnz)."""
    return bayesian_statistics(user_counts, C=C).sensitivity(S, "brute-force")


def worst_case_sensitivity(user_counts, *, S, C) -> float:
    """Claim 1 upper bound on γ, with the exact largest weight drop (SPEC §3 step 6).

    γ ≤ ‖w ⊙ L·C + drop ⊙ |x̂|‖₂ with L_i = (1 − 1/|V|)/N_i + Σ_{j≠i, N_j>0} 1/(|V|·N_j) and
    drop_i = w_i − min(1, S·(N_i − 1)/C). Why it holds: w ⊙ x̂ − w₋ₙ ⊙ x̂₋ₙ = w₋ₙ ⊙ Δx̂ + (w − w₋ₙ) ⊙ x̂
    (000 eq. 7); w₋ₙ ≤ w, w − w₋ₙ ≤ drop; and |Δx̂_i| ≤ L_i·C because log(c_j+1) − log(c_j−Δc_j+1)
    ≤ Δc_j/(c_j − Δc_j + 1) ≤ C/N_j (the other N_j − 1 users hold ≥ 1 count each). Words with
    N_j = 0 never change, so they drop out of the sum in L; their own weight is 0.
    """
    return bayesian_statistics(user_counts, C=C).sensitivity(S, "worst-case")


def bayesian_sensitivity(user_counts, *, S, C, method: str = "brute-force", max_items=None, max_users=None) -> float:
    """γ, the ℓ2 sensitivity of w ⊙ x̂ (000 Corollary 1 / Claim 1; SPEC §3b for "strict").

    Args:
      user_counts: scipy.sparse users × |V| matrix of raw counts; clamped at C here.
      S: weighting of the linear decay w = min(1, S·N/C), > 0.
      C: clamp, integer ≥ 1.
      method: ``"brute-force"`` (exact over this corpus' remove-one neighbours, O(nnz)),
        ``"worst-case"`` (Claim 1 bound, O(|V|)) — both *local* (measured on the data, not DP) —
        or ``"strict"`` (:func:`strict_sensitivity`: every pair of neighbouring corpora, needs
        ``max_items`` and ``max_users``; the corpus is only checked: at most max_users users, and no
        user with more than max_items distinct items — cap them first with :func:`cap_user_items`).
      max_items: L, the per-user item cap (strict only).
      max_users: N_max, the public cap on the number of users (strict only).

    Returns:
      γ as a float (μ_p does not enter γ: x̂ depends on c only, w on N).

    Raises:
      ValueError: strict, and a user holds more than ``max_items`` distinct items (γ_strict would not be a
        bound) or the corpus has more than ``max_users`` users.
    """
    check_choice("method", method, SENSITIVITY_METHODS)
    S = _check_S(S)
    if method == "strict":
        if max_items is None or max_users is None:
            raise ValueError("method='strict' needs max_items (L) and max_users (N_max), got "
                             f"max_items={max_items!r}, max_users={max_users!r}")
        L, n_max = _check_max_items(max_items), _check_max_users(max_users)
        m = check_count_matrix(user_counts)
        _check_user_cap(m.shape[0], n_max)
        _check_items_capped(m, L)
        return strict_sensitivity(S=S, C=C, max_items=L, max_users=n_max)
    for name, v in (("max_items", max_items), ("max_users", max_users)):
        if v is not None:
            raise ValueError(f"{name} applies to method='strict' only, got method={method!r}, {name}={v!r}")
    return bayesian_statistics(user_counts, C=C).sensitivity(S, method)


# ----------------------------------------------------------------------------------------------
# release


def bayesian_guarantee(*, epsilon, delta, sensitivity_method: str, calibration: str = "analytic",
                       max_items=None, max_users=None) -> Guarantee:
    """What a BayesianDP release promises (SPEC §3b).

    - "strict": (ε, δ)-DP per user (approximate DP), given the caps L and N_max. The classic σ at ε ≥ 1
      (outside its proof) keeps the promise only where its exact (Balle–Wang) δ is at most the δ asked
      for — true up to ε ≈ 8 at δ = 1e-5; beyond, the release is refused with a ValueError about ε
      (issue 21 item 7: it showed a green (ε = 50, δ = 0.586) before, and failed on δ = 1 at ε = 300).
    - "brute-force" / "worst-case": γ measured on the private data → local sensitivity: not DP, and no
      (ε, δ) at all (SPEC §3b) — ε and δ only set the noise scale.
    """
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    check_choice("sensitivity_method", sensitivity_method, SENSITIVITY_METHODS)
    calibration = resolve_calibration(calibration, epsilon)
    if sensitivity_method == "strict":
        scope = (f"every user capped at L = {max_items} items (C per item); "
                 f"at most N_max = {max_users} users (a public cap)")
        if calibration == "classic" and epsilon >= 1.0:
            from .gaussian import classic_true_delta
            true = classic_true_delta(epsilon, delta)  # the exact δ of the classic σ
            if true > delta:
                raise ValueError(
                    f"epsilon={epsilon:g} is outside the classic σ's proof (ε < 1), and there its exact δ is "
                    f"{true:.3g}, more than the delta={delta:g} asked for: strict BayesianDP refuses this release. "
                    "Use calibration='auto' (the analytic σ from ε = 1) or 'analytic' (tight for every ε), or a "
                    "smaller epsilon")
            scope += f"; the classic σ at ε ≥ 1 is outside its proof, but its exact δ {true:.3g} is ≤ δ"
        return approximate_dp(epsilon, delta, scope=scope)
    return local_sensitivity(
        epsilon, delta,
        promise=("Not DP, and no (ε, δ) holds — not even for this corpus's neighbours: γ was measured on the "
                 "private data (N_i, c_i), and run on a neighbour the mechanism measures γ again, so the noise "
                 "scale itself differs between the two and reveals who is in the data. ε and δ only set the "
                 "noise scale, as in the paper."),
        scope=f"σ set from ε = {epsilon:g}, δ = {delta:g} and γ measured on the data, as in the paper — a noise "
              "scale, not a promise")


__all__.append("bayesian_guarantee")


@dataclass(frozen=True)
class BayesianRelease:
    """One BayesianDP release (000 Algorithm 1).

    θ the released distribution, h the Gaussian draw it came from, σ_ps the noise standard
    deviation, γ the sensitivity of w ⊙ x̂, and the parameters. ``guarantee`` says what holds
    (:func:`bayesian_guarantee`: approximate DP in strict mode, local sensitivity otherwise).
    """

    theta: np.ndarray
    h: np.ndarray
    sigma: float
    sensitivity: float
    epsilon: float
    delta: float
    S: float
    C: int
    rho: float
    calibration: str
    sensitivity_method: str
    max_items: int | None = None
    max_users: int | None = None
    guarantee: Guarantee | None = None

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", bayesian_guarantee(
                epsilon=self.epsilon, delta=self.delta, sensitivity_method=self.sensitivity_method,
                calibration=self.calibration, max_items=self.max_items, max_users=self.max_users))

    def __repr__(self) -> str:
        return (f"BayesianRelease(|V|={self.theta.size}, sigma={self.sigma:.4g}, sensitivity={self.sensitivity:.4g}, "
                f"epsilon={self.epsilon:g}, delta={self.delta:g}, S={self.S:g}, C={self.C}, rho={self.rho:g}, "
                f"calibration={self.calibration!r}, guarantee={self.guarantee.label!r})")

    @property
    def classic_proven(self) -> bool:
        """False when the classic calibration was used outside its proof (ε ≥ 1)."""
        return self.calibration != "classic" or self.epsilon < 1.0


@dataclass(frozen=True, eq=False)
class PreparedBayesianDP:
    """Steps 1–7 of BayesianDP for fixed (S, C, ρ): μ_ps, w and γ; σ_ps follows from (ε, δ).

    Build with :meth:`BayesianStatistics.prepare` or :func:`prepare_bayesian`.
    """

    mu_ps: np.ndarray
    weights: np.ndarray
    sensitivity: float
    S: float
    C: int
    rho: float
    sensitivity_method: str
    n_users: int
    max_items: int | None = None
    max_users: int | None = None

    def __repr__(self) -> str:
        return (f"PreparedBayesianDP(|V|={self.mu_ps.size}, sensitivity={self.sensitivity:.4g}, S={self.S:g}, "
                f"C={self.C}, rho={self.rho:g}, method={self.sensitivity_method!r})")

    @property
    def vocabulary_size(self) -> int:
        return self.mu_ps.size

    @property
    def share_downweighted(self) -> float:
        """Share of words with w < 1, whose mass is partly taken from the public prior."""
        return float(np.mean(self.weights < 1.0))

    def mean_theta(self) -> np.ndarray:
        """softmax(μ_ps): the release without noise (what §3.2 tunes against)."""
        return softmax(self.mu_ps)

    def sigma(self, *, epsilon, delta, calibration: str = "auto") -> float:
        """σ_ps = ρ·γ·σ(ε, δ, Δ=1) (Corollary 1; "classic", "analytic" or "auto" calibration)."""
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        base = gaussian_sigma(epsilon, delta, 1.0, method=calibration)
        s = self.rho * self.sensitivity * base
        if s == 0.0:  # γ = 0 (no user moves w ⊙ x̂): no noise is needed
            return s
        return check_noise_scale("σ_ps", s, epsilon=epsilon, delta=delta, rho=self.rho,
                                 sensitivity=self.sensitivity)

    def sample_h(self, *, epsilon, delta, rng, repetitions: int = 1, calibration: str = "auto") -> np.ndarray:
        """``repetitions`` draws of h ~ N(μ_ps, σ_ps² I), shape (repetitions, |V|)."""
        rng = check_rng(rng)
        repetitions = check_int("repetitions", repetitions, low=1)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        with np.errstate(over="ignore"):  # σ near the float limit: h may hold ±∞ (θ stays finite)
            return self.mu_ps + s * rng.standard_normal((repetitions, self.mu_ps.size))

    def sample_theta(self, *, epsilon, delta, rng, repetitions: int = 1, calibration: str = "auto") -> np.ndarray:
        """``repetitions`` releases θ = softmax(h), shape (repetitions, |V|) (same draws as :meth:`sample_h`)."""
        rng = check_rng(rng)
        repetitions = check_int("repetitions", repetitions, low=1)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        noise = rng.standard_normal((repetitions, self.mu_ps.size))
        if s == 0.0:
            return softmax(np.broadcast_to(self.mu_ps, noise.shape))
        return _softmax_of_draw(self.mu_ps, s, noise)

    def release(self, *, epsilon, delta, rng, calibration: str = "auto") -> BayesianRelease:
        """Step 8: h ~ N(μ_ps, σ_ps² I), θ = softmax(h)."""
        epsilon = check_epsilon(epsilon)
        delta = check_delta(delta)
        rng = check_rng(rng)
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        calibration = resolve_calibration(calibration, epsilon)
        guarantee = bayesian_guarantee(epsilon=epsilon, delta=delta, sensitivity_method=self.sensitivity_method,
                                       calibration=calibration, max_items=self.max_items,
                                       max_users=self.max_users)  # refuses before drawing (classic, large ε)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        noise = rng.standard_normal(self.mu_ps.size)
        with np.errstate(over="ignore"):  # σ near the float limit: h may hold ±∞ (θ stays finite)
            h = self.mu_ps + s * noise
        theta = _softmax_of_draw(self.mu_ps, s, noise) if s > 0 else softmax(h)
        return BayesianRelease(
            theta=theta, h=h, sigma=s, sensitivity=self.sensitivity, epsilon=epsilon, delta=delta,
            S=self.S, C=self.C, rho=self.rho, calibration=calibration, sensitivity_method=self.sensitivity_method,
            max_items=self.max_items, max_users=self.max_users, guarantee=guarantee,
        )


def prepare_bayesian(user_counts, public_counts, *, S, C, rho, sensitivity: str = "brute-force",
                     max_items=None, max_users=None, rng=None) -> PreparedBayesianDP:
    """Steps 1–7 of 000 Algorithm 1 (everything but σ and the draw).

    ``sensitivity="strict"`` (SPEC §3b) needs ``max_items`` (L), ``max_users`` (N_max) and ``rng``
    (the per-user item choice); the local methods take none of them.
    """
    check_choice("sensitivity", sensitivity, SENSITIVITY_METHODS)
    if sensitivity == "strict":
        if max_items is None or max_users is None:
            raise ValueError("sensitivity='strict' needs max_items (L) and max_users (N_max), got "
                             f"max_items={max_items!r}, max_users={max_users!r}")
    else:
        for name, v in (("max_items", max_items), ("max_users", max_users)):
            if v is not None:
                raise ValueError(f"{name} applies to sensitivity='strict' only, got sensitivity={sensitivity!r}, "
                                 f"{name}={v!r}")
    stats = bayesian_statistics(user_counts, public_counts, C=C, max_items=max_items, rng=rng)
    return stats.prepare(S=S, rho=rho, sensitivity=sensitivity, max_users=max_users)


__all__.append("prepare_bayesian")


def bayesian_dp(user_counts, public_counts, *, epsilon, delta, S, C, rho, rng,
                sensitivity: str = "brute-force", calibration: str = "auto", max_items=None,
                max_users=None) -> BayesianRelease:
    """BayesianDP (000 Algorithm 1 with Corollary 1): one release θ over V.

    (ε, δ)-DP per user only with ``sensitivity="strict"`` (SPEC §3b: caps L = ``max_items`` and
    N_max = ``max_users``); with the paper's local γ the release is labelled "local sensitivity (not DP)".

    Args:
      user_counts: scipy.sparse users × |V| raw counts; public_counts: α over V.
      epsilon, delta: privacy parameters (ε > 0, δ ∈ (0, 1)).
      S: decay weighting > 0; C: clamp, integer ≥ 1; rho: private weight in (0, 1].
      rng: numpy Generator or int seed.
      sensitivity: "brute-force" (exact, local), "worst-case" (Claim 1, local) or "strict" (DP).
      calibration: "auto" (default: the classic σ below ε = 1, as in the paper, the analytic σ from 1 on),
        "classic" (as in the paper; proven for ε < 1 — strict mode refuses it where its exact δ exceeds δ)
        or "analytic" (tight, every ε).
      max_items, max_users: L and N_max for strict mode.

    Raises:
      ValueError: a bad parameter; strict mode with the classic σ at an ε ≥ 1 where its exact δ exceeds δ.

    Returns:
      :class:`BayesianRelease`.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    check_choice("calibration", calibration, CALIBRATION_CHOICES)
    rng = check_rng(rng)
    prepared = prepare_bayesian(user_counts, public_counts, S=S, C=C, rho=rho, sensitivity=sensitivity,
                                max_items=max_items, max_users=max_users, rng=rng)
    return prepared.release(epsilon=epsilon, delta=delta, rng=rng, calibration=calibration)


# ----------------------------------------------------------------------------------------------
# EndToEndDP


@dataclass(frozen=True)
class EndToEndRelease:
    """EndToEndDP (000 Algorithm 2): the tuned (S*, ρ*) and the final release — what is published.

    ``epsilon`` is the total ε_train + ε_tune; ``release`` is the BayesianDP release at ε_train. The
    grid's exact and noisy validation scores, the score sensitivity and the split sizes are not part of
    the release (report-noisy-min publishes the argmin only; the exact scores are computed from the
    private validation users; n_train + n_validation is the exact number of users, which tells every
    pair of neighbours apart — issue 21 item 2): they are in the :class:`EndToEndEvaluation` of
    :meth:`PreparedEndToEnd.release_with_evaluation`, for teaching and tests.
    """

    theta: np.ndarray
    release: BayesianRelease
    S_star: float
    rho_star: float
    grid: tuple[tuple[float, float], ...]
    epsilon: float
    epsilon_train: float
    epsilon_tune: float
    delta: float
    guarantee: Guarantee | None = None

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", end_to_end_guarantee(
                epsilon_train=self.epsilon_train, epsilon_tune=self.epsilon_tune, delta=self.delta))

    def __repr__(self) -> str:
        return (f"EndToEndRelease(S*={self.S_star:g}, rho*={self.rho_star:g}, epsilon={self.epsilon:g} "
                f"(train {self.epsilon_train:g} + tune {self.epsilon_tune:g}), delta={self.delta:g}, "
                f"guarantee={self.guarantee.label!r})")


@dataclass(frozen=True, eq=False)
class EndToEndEvaluation:
    """What happened inside one EndToEndDP release, computed from the private data (never published):
    the exact validation score q_k of every grid point (000 eq. 6), the noisy scores the noisy min
    compared, the score sensitivity |Δq| (Claim 2, measured on the data), the Laplace scale used, and
    the split sizes (their sum is the exact number of users)."""

    scores: np.ndarray
    noisy_scores: np.ndarray
    score_sensitivity: float
    tuning_scale: float
    n_train: int = 0
    n_validation: int = 0


def end_to_end_guarantee(*, epsilon_train, epsilon_tune, delta) -> Guarantee:
    """EndToEndDP: local sensitivity — not DP, and no (ε, δ) at all. Both the BayesianDP γ^(k) and Claim 2's
    score sensitivity (which uses γ^(k) and the validation counts) are measured on the private data
    (SPEC §3b). The scope states the ε_train + ε_tune the noise scales were set from."""
    e_train, e_tune = check_epsilon(epsilon_train, "epsilon_train"), check_epsilon(epsilon_tune, "epsilon_tune")
    return local_sensitivity(
        e_train + e_tune, check_delta(delta),
        promise=("Not DP, and no (ε, δ) holds — not even for this corpus's neighbours: the release's γ and the "
                 "tuning score's sensitivity (Claim 2) are both measured on the private data, so on a neighbour "
                 "the noise scales themselves change and reveal who is in the data."),
        scope=f"noise scales set from ε_train + ε_tune = {e_train:.3g} + {e_tune:.3g} = {e_train + e_tune:.3g}, "
              f"δ = {delta:g} — not a promise")


__all__.append("end_to_end_guarantee")


def cross_entropy_score(counts, mu_ps) -> float:
    """q(c, μ_ps) = −Σ_i c_i·(μ_ps,i − logsumexp(μ_ps)) (000 eq. 6)."""
    mu = np.asarray(mu_ps, dtype=float)
    return float(-np.dot(np.asarray(counts, dtype=float), mu - logsumexp(mu)))


__all__.append("cross_entropy_score")


@dataclass(frozen=True, eq=False)
class PreparedEndToEnd:
    """The ε-independent part of EndToEndDP: the user split, the train statistics, the grid scores
    q_k (eq. 6) and the score sensitivity |Δq| (Claim 2). :meth:`release` does the noisy min and the
    Gaussian draw, so an ε sweep reuses one split."""

    statistics: BayesianStatistics
    grid: tuple[tuple[float, float], ...]
    scores: np.ndarray
    score_sensitivity: float
    sensitivity_method: str
    n_train: int
    n_validation: int

    def release(self, *, epsilon, delta, rng, calibration: str = "auto") -> EndToEndRelease:
        """Report-noisy-min over the grid with Lap(0, 2|Δq|/ε_tune), then BayesianDP at ε_train."""
        return self.release_with_evaluation(epsilon=epsilon, delta=delta, rng=rng, calibration=calibration)[0]

    def release_with_evaluation(self, *, epsilon, delta, rng,
                                calibration: str = "auto") -> tuple[EndToEndRelease, EndToEndEvaluation]:
        """:meth:`release` (the same draws for the same rng) and its :class:`EndToEndEvaluation`."""
        epsilon = check_epsilon(epsilon)
        delta = check_delta(delta)
        rng = check_rng(rng)
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        eps_train, eps_tune = 2.0 * epsilon / 3.0, epsilon / 3.0
        if not eps_tune > 0:  # ε = 5e-324: ε/3 rounds to 0 (a ZeroDivisionError before; issue 21 item 8)
            raise ValueError(f"epsilon must be large enough to split into ε_train = 2ε/3 and ε_tune = ε/3 (ε/3 is 0 "
                             f"in floating point here), got epsilon={epsilon!r}: use a larger epsilon")
        with np.errstate(over="ignore"):
            scale = 2.0 * self.score_sensitivity / eps_tune
        if self.score_sensitivity > 0:
            scale = check_noise_scale("b (tuning)", scale, epsilon=epsilon, score_sensitivity=self.score_sensitivity)
        noisy = self.scores + rng.laplace(0.0, scale, size=self.scores.shape)
        k = int(np.argmin(noisy))
        S_star, rho_star = self.grid[k]
        rel = self.statistics.prepare(S=S_star, rho=rho_star, sensitivity=self.sensitivity_method).release(
            epsilon=eps_train, delta=delta, rng=rng, calibration=calibration)
        release = EndToEndRelease(
            theta=rel.theta, release=rel, S_star=S_star, rho_star=rho_star, grid=self.grid, epsilon=epsilon,
            epsilon_train=eps_train, epsilon_tune=eps_tune, delta=delta,
        )
        return release, EndToEndEvaluation(scores=self.scores.copy(), noisy_scores=noisy,
                                           score_sensitivity=self.score_sensitivity, tuning_scale=scale,
                                           n_train=self.n_train, n_validation=self.n_validation)


def prepare_end_to_end(user_counts, public_counts, *, C, rng, S_grid=DEFAULT_S_GRID, rho_grid=DEFAULT_RHO_GRID,
                       validation_share: float = 0.1, sensitivity: str = "brute-force") -> PreparedEndToEnd:
    """Split users, compute the train statistics, the grid scores and |Δq| (see :func:`end_to_end_dp`)."""
    C = _check_C(C)
    rng = check_rng(rng)
    check_choice("sensitivity", sensitivity, LOCAL_SENSITIVITY_METHODS)
    validation_share = check_real("validation_share", validation_share, low=0.0, high=1.0, high_inclusive=False)
    S_grid = tuple(_check_S(s) for s in check_sequence("S_grid", S_grid))
    rho_grid = tuple(_check_rho(r) for r in check_sequence("rho_grid", rho_grid))
    if not S_grid or not rho_grid:
        raise ValueError(f"S_grid and rho_grid must be non-empty, got {len(S_grid)} and {len(rho_grid)} values")
    m = check_count_matrix(user_counts)
    if m.shape[0] < 2:
        raise ValueError(f"EndToEndDP needs at least 2 users to split into train and validation, got {m.shape[0]}")
    perm = rng.permutation(m.shape[0])
    n_val = min(max(int(round(validation_share * m.shape[0])), 1), m.shape[0] - 1)
    val_rows, train_rows = np.sort(perm[:n_val]), np.sort(perm[n_val:])
    stats = bayesian_statistics(m[train_rows], public_counts, C=C)
    c_val = np.asarray(clamp_counts(m[val_rows], C).sum(axis=0), dtype=float).ravel()
    c_val_norm = float(np.linalg.norm(c_val))
    grid, scores, sens = [], [], []
    for S in S_grid:
        gamma = stats.sensitivity(S, sensitivity)
        for rho in rho_grid:
            mu = stats.posterior_mean(S, rho)
            log_theta = mu - logsumexp(mu)
            grid.append((S, rho))
            scores.append(float(-np.dot(c_val, log_theta)))
            sens.append(max(rho * c_val_norm * gamma, C * float(np.abs(log_theta).sum())))
    return PreparedEndToEnd(statistics=stats, grid=tuple(grid), scores=np.asarray(scores), score_sensitivity=max(sens),
                            sensitivity_method=sensitivity, n_train=len(train_rows), n_validation=len(val_rows))


__all__ += ["PreparedEndToEnd", "prepare_end_to_end"]


def end_to_end_dp(user_counts, public_counts, *, epsilon, delta, C, rng, S_grid=DEFAULT_S_GRID,
                  rho_grid=DEFAULT_RHO_GRID, validation_share: float = 0.1, sensitivity: str = "brute-force",
                  calibration: str = "auto") -> EndToEndRelease:
    """EndToEndDP (000 Algorithm 2, Theorem 2, Claim 2; SPEC §3 "EndToEndDP").

    Users are split at random (seeded) into a train part (≈ 1 − validation_share, default 90%) on
    which BayesianDP runs, and a validation part whose clamped counts c^val score each grid point
    (S_k, ρ_k) with q_k = q(c^val, μ_ps^(k)) (eq. 6). The score sensitivity is Claim 2's bound, the
    max over k of max[ρ_k·‖c^val‖₂·γ_k, C·Σ_i |μ_ps,i^(k) − logsumexp(μ_ps^(k))|]. The grid point is
    chosen by report-noisy-min with Lap(0, 2|Δq|/ε_tune) (Theorem 2), and θ is released at it with
    ε_train. Budget as in 000 §4.3: ε_train = 2ε/3, ε_tune = ε/3; the total is (ε, δ) by basic
    composition (the two parts also use disjoint users, so this is conservative).

    Grid reading: S log-spaced over [1e-3, 1e4] (8 values by default) × ρ ∈ {0.1, 0.25, 0.5, 0.75, 1}.
    γ depends on S only, so it is computed once per S value. Note that Claim 2's second term
    C·Σ_i|log θ_i| grows with |V|, so on small validation sets the noisy min is close to a uniform
    choice over the grid; the result carries the scores and |Δq| so a page can show this.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    rng = check_rng(rng)
    check_choice("calibration", calibration, CALIBRATION_CHOICES)
    prepared = prepare_end_to_end(user_counts, public_counts, C=C, rng=rng, S_grid=S_grid, rho_grid=rho_grid,
                                  validation_share=validation_share, sensitivity=sensitivity)
    return prepared.release(epsilon=epsilon, delta=delta, rng=rng, calibration=calibration)
