"""BayesianDP (000 Algorithm 1, Corollary 1) and EndToEndDP (000 Algorithm 2, §3.2).

SPEC §3, step by step (Δc^n user n's counts over V, users × |V| sparse):

1. V = the public vocabulary (done by :func:`dpcore.text.counts`).
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

from .._ranking import ranked_drops
from ..errors import UserError
from ..validation import as_float_array, check_choice, check_int, check_probability, check_real, check_rng
from .prepared import (
    LOCAL_SENSITIVITY_METHODS,
    SENSITIVITY_METHODS,
    PreparedBayesianDP,
    softmax,
)
from .prepared import (
    _softmax_of_draw as _softmax_of_draw,
)

__all__ = [
    "SENSITIVITY_METHODS",
    "DEFAULT_S_GRID",
    "DEFAULT_RHO_GRID",
    "BayesianStatistics",
    "bayesian_statistics",
    "bayesian_sensitivity",
    "brute_force_sensitivity",
    "worst_case_sensitivity",
    "strict_sensitivity",
    "cap_user_items",
    "LOCAL_SENSITIVITY_METHODS",
    "clamp_counts",
    "decay_weights",
    "softmax",
    "check_count_matrix",
]


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
            "build it with dpcore.text.ngram_counts or scipy.sparse.csr_matrix"
        )
    if user_counts.ndim != 2:
        raise UserError(f"{name} must be 2-D (users × |V|), got shape {user_counts.shape}")
    m = user_counts.tocsr() if user_counts.format != "csr" else user_counts
    if not m.has_canonical_format:
        m = m.copy()
        m.sum_duplicates()
    # a fresh float64 data array (it is clamped in place later); the index arrays are shared read-only
    m = sp.csr_matrix((np.array(m.data, dtype=np.float64, copy=True), m.indices, m.indptr), shape=m.shape)
    n_users, v = m.shape
    if v < 2:
        raise UserError(f"vocabulary size |V| must be >= 2 (a softmax over one word always outputs 1), got |V|={v}")
    if n_users < 1:
        raise UserError(f"{name} must have at least 1 user (row), got {n_users}")
    d = m.data
    if d.size:
        lo, hi = float(d.min()), float(d.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise UserError(f"{name} must be finite, got a NaN or infinite count")
        if lo < 0:
            raise UserError(f"{name} must be >= 0, got a count of {lo:g}")
        if np.issubdtype(user_counts.dtype, np.floating):
            frac = np.flatnonzero(np.mod(d, 1.0))
            if frac.size:
                raise UserError(f"{name} must hold whole counts, got a count of {d[frac[0]]:g}")
        if lo == 0:  # explicit zeros: compact into own index arrays (never touch the caller's)
            m = sp.csr_matrix((d, m.indices.copy(), m.indptr.copy()), shape=m.shape)
            m.eliminate_zeros()
    return m


def _check_public(public_counts, v: int) -> np.ndarray:
    if sp.issparse(public_counts):
        public_counts = public_counts.toarray().ravel()
    a = as_float_array("public_counts", public_counts)
    if a.ndim != 1 or a.shape[0] != v:
        raise UserError(f"public_counts must be a 1-D array of length |V|={v}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise UserError("public_counts must be finite, got a NaN or infinite entry")
    if a.size and a.min() < 0:
        raise UserError(f"public_counts must be >= 0, got public_counts min={a.min():g}")
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
        raise UserError(
            f"max_users must be at most 1e12 (a public cap on the number of people), got max_users={digits}"
        )
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
        pos_whole = np.arange(int(n_whole.sum()), dtype=np.int64) + np.repeat(
            row_start[whole] - np.concatenate(([0], np.cumsum(n_whole)[:-1])), n_whole
        )
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
    out = sp.csr_matrix(
        (m.data[keep], m.indices[keep], np.concatenate(([0], np.cumsum(np.minimum(lengths, max_items))))), shape=m.shape
    )
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
        raise UserError(
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
        raise UserError(
            f"max_items must be >= every user's number of distinct items for method='strict', got max_items="
            f"{max_items} while user (row) {worst} holds {int(lengths[worst])} items ({over} user(s) above the cap): "
            "γ_strict would not bound them. Cap the users first: dpcore.bayesian.cap_user_items(user_counts, max_items=L, "
            "rng=…), or bayesian_statistics(…, max_items=L, rng=…), which keeps a seeded random L of their items"
        )


def decay_weights(users_per_item, *, S, C) -> np.ndarray:
    """w = min(1, S·N/C) (000 eq. 5)."""
    S, C = _check_S(S), _check_C(C)
    n = np.asarray(users_per_item, dtype=float)
    return np.minimum(1.0, S * n / C)


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
            lengths = np.diff(indptr[start : end + 1])
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
      clamped: the clamped per-user counts (CSR, float64), or None for statistics built from streamed totals
        (:func:`statistics_from_totals`: strict mode only, the local γ needs every user's row).
      counts: c = Σ_n Δc^n (clamped).
      users_per_item: N.
      x_hat: 000 eq. 2.
      mu_p: 000 eq. 1, or None when no public counts were given (sensitivity only).
      C: the clamp.
      max_items: L, the per-user item cap applied after the clamp (strict mode), or None.
    """

    clamped: sp.csr_matrix | None
    counts: np.ndarray
    users_per_item: np.ndarray
    log_counts1: np.ndarray
    x_hat: np.ndarray
    mu_p: np.ndarray | None
    C: int
    _cache: dict = field(default_factory=dict, repr=False, compare=False)
    max_items: int | None = None
    streamed_users: int | None = None

    @property
    def n_users(self) -> int:
        return self.clamped.shape[0] if self.clamped is not None else int(self.streamed_users or 0)

    @property
    def vocabulary_size(self) -> int:
        return int(self.counts.size)

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
                raise UserError(
                    "method='strict' needs the per-user item cap: build the statistics with "
                    "bayesian_statistics(..., max_items=L, rng=...)"
                )
            if max_users is None:
                raise UserError("method='strict' needs max_users (a public cap on the number of users)")
            max_users = _check_max_users(max_users)
            _check_user_cap(self.n_users, max_users)
            return strict_sensitivity(S=S, C=self.C, max_items=self.max_items, max_users=max_users)
        if max_users is not None:
            raise UserError(f"max_users applies to method='strict' only, got method={method!r}")
        key = ("gamma", S, method)
        if key not in self._cache and self.clamped is None:
            raise UserError(
                f"method={method!r} measures γ on every user's row; statistics from streamed totals "
                "(statistics_from_totals) offer method='strict' only"
            )
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
            raise UserError(
                "public_counts are needed for the posterior mean; build with bayesian_statistics(..., public_counts)"
            )
        rho = _check_rho(rho)
        return rho * (self.weights(S) * self.x_hat) + (1.0 - rho) * self.mu_p

    def prepare(self, *, S, rho, sensitivity: str = "brute-force", max_users=None) -> PreparedBayesianDP:
        """Steps 4–7 without σ: the object whose :meth:`~PreparedBayesianDP.release` costs one draw.

        ``sensitivity="strict"`` needs statistics built with ``max_items`` and a public ``max_users``."""
        S, rho = _check_S(S), _check_rho(rho)
        check_choice("sensitivity", sensitivity, SENSITIVITY_METHODS)
        w = self.weights(S)
        gamma = self.sensitivity(S, sensitivity, max_users=max_users)
        return PreparedBayesianDP(
            mu_ps=self.posterior_mean(S, rho),
            weights=w,
            sensitivity=gamma,
            S=S,
            C=self.C,
            rho=rho,
            sensitivity_method=sensitivity,
            n_users=self.n_users,
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
            raise UserError("max_items needs rng (the per-user item choice is random); pass rng=<seed or Generator>")
        m = cap_user_items(m, max_items=max_items, rng=rng)
    c = np.asarray(m.sum(axis=0), dtype=float).ravel()
    N = np.bincount(m.indices, minlength=m.shape[1]).astype(float)
    return _from_totals(m, c, N, public_counts, C=C, max_items=max_items, n_users=None)


def _from_totals(m, c, N, public_counts, *, C, max_items, n_users) -> BayesianStatistics:
    """Steps 2–3 from the clamped totals c and N (the one place x̂ and μ_p are computed)."""
    log_c1 = np.log1p(c)
    x_hat = log_c1 - log_c1.mean()
    mu_p = None
    if public_counts is not None:
        mu_p = _centered_log1p(_check_public(public_counts, c.size))
    return BayesianStatistics(
        clamped=m,
        counts=c,
        users_per_item=N,
        log_counts1=log_c1,
        x_hat=x_hat,
        mu_p=mu_p,
        C=C,
        max_items=max_items,
        streamed_users=n_users,
    )


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
            raise UserError(
                "method='strict' needs max_items (L) and max_users (N_max), got "
                f"max_items={max_items!r}, max_users={max_users!r}"
            )
        L, n_max = _check_max_items(max_items), _check_max_users(max_users)
        m = check_count_matrix(user_counts)
        _check_user_cap(m.shape[0], n_max)
        _check_items_capped(m, L)
        return strict_sensitivity(S=S, C=C, max_items=L, max_users=n_max)
    for name, v in (("max_items", max_items), ("max_users", max_users)):
        if v is not None:
            raise UserError(f"{name} applies to method='strict' only, got method={method!r}, {name}={v!r}")
    return bayesian_statistics(user_counts, C=C).sensitivity(S, method)
