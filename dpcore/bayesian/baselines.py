"""The baselines BayesianDP is compared with (000 §4.2, §4.5; SPEC §3 "Baselines").

- Laplace: each user contributes at most W counts in total (a user's tokens in V are subsampled
  down to W without replacement, seeded); Lap(0, W/ε) is added to every count in V; clip at 0;
  normalise (all-zero → uniform). Pure ε-DP per user (ℓ1 sensitivity of the capped count vector = W).
- Laplace + public data (000 §4.2, the formula as written): see :func:`laplace_public_dp`.
- k-anonymity: items used by at least K distinct users keep their counts; the suppressed mass is
  spread over the suppressed items in proportion to the public distribution (or zero-filled).
  Not differentially private.
- Public baseline α/‖α‖₁ and private baseline c/‖c‖₁.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..errors import UserError
from ..guarantees import Guarantee, k_anonymity, local_sensitivity, no_private_data, no_protection, pure_dp
from ..mechanisms.noise import laplace_noise
from ..validation import check_choice, check_epsilon, check_int, check_noise_scale, check_rng
from .statistics import _check_public, check_count_matrix, smallest_keys_per_row

__all__ = [
    "LAPLACE_PUBLIC_SENSITIVITY_METHODS",
    "LaplaceRelease",
    "KAnonymityRelease",
    "PreparedLaplace",
    "cap_user_totals",
    "prepare_laplace",
    "prepare_laplace_public",
    "laplace_counts_dp",
    "laplace_public_dp",
    "laplace_public_sensitivity",
    "k_anonymity_release",
    "public_baseline",
    "private_baseline",
    "normalise_clipped",
    "laplace_guarantee",
    "PUBLIC_BASELINE_GUARANTEE",
    "PRIVATE_BASELINE_GUARANTEE",
]

PUBLIC_BASELINE_GUARANTEE = no_private_data()
"""The public baseline α/‖α‖₁ reads no private data: 0-DP (green). It protects fully and is the floor of
what public data alone gives; we label it as DP with ε = 0 rather than "none" because no user can be
affected by it — "none" is for the private baseline."""
PRIVATE_BASELINE_GUARANTEE = no_protection(
    promise="Nothing protects the users: this is the private distribution itself (the reference every KL is "
    "measured against)."
)


def laplace_guarantee(mechanism: str, *, epsilon, W) -> Guarantee:
    """What a Laplace baseline promises (000 §4.2; issue 15 item 2).

    - "Laplace": every user capped at W counts, Lap(0, W/ε): ε-DP per user (pure).
    - "Laplace + public": Δ₁ of the normalised counts is *measured* on the corpus (brute force over its
      users, or 2·max t_n/‖c‖₁, both from the data): local sensitivity — not DP and no ε at all, not even
      for this corpus's neighbours (the audit found ε_lower 4.60 at an ε of 1; SPEC §3b).
    """
    check_choice("mechanism", mechanism, ("Laplace", "Laplace + public"))
    epsilon = check_epsilon(epsilon=epsilon)
    if mechanism == "Laplace":
        return pure_dp(epsilon=epsilon, scope=f"each user capped at W = {W} counts in total")
    return local_sensitivity(
        epsilon=epsilon,
        delta=None,
        promise=(
            "Not DP, and no ε holds — not even for this corpus's neighbours: Δ₁ of the normalised counts is "
            "measured on the private data, and on a neighbour it is measured again, so the noise scale itself "
            "reveals who is in the data."
        ),
        scope=f"measured sensitivity: b = Δ₁/ε with Δ₁ from this corpus and ε = {epsilon:g} — a noise scale, "
        "not a promise",
    )


LAPLACE_PUBLIC_SENSITIVITY_METHODS = ("brute-force", "bound")


def normalise_clipped(x: np.ndarray) -> np.ndarray:
    """max(x, 0) normalised along the last axis; a row with no positive entry becomes uniform."""
    x = np.maximum(np.asarray(x, dtype=float), 0.0)
    s = x.sum(axis=-1, keepdims=True)
    v = x.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(s > 0, x / np.where(s > 0, s, 1.0), 1.0 / v)
    return out


def _check_W(W) -> int:
    return check_int("W", W, low=1)


_MAX_CAP_EXPANSION = 2e8  # counts of over-cap users expanded one entry each (8 bytes × a few arrays)


def cap_user_totals(user_counts, *, W, rng) -> sp.csr_matrix:
    """Limit each user to W counts in total: a user with more keeps a uniform random W of their
    tokens (multivariate hypergeometric, without replacement), seeded. Users at or under W are kept."""
    W = _check_W(W)
    rng = check_rng(rng)
    m = check_count_matrix(user_counts)
    totals = np.asarray(m.sum(axis=1)).ravel()
    over = np.flatnonzero(totals > W)
    if over.size == 0:
        return m
    # Expand the over-cap users' counts into one entry per token, give every token a uniform random
    # key and keep the W smallest keys of each user: a uniform W-subset without replacement.
    sub = m[over]
    n_expand = float(totals[over].sum())
    if n_expand > _MAX_CAP_EXPANSION:
        raise UserError(
            f"user_counts: the {over.size} user(s) above W={W} hold {n_expand:.3g} counts in total; capping draws "
            f"one key per count, so at most {_MAX_CAP_EXPANSION:.0e} are supported (are these real token counts?)"
        )
    # Tokens are numbered user by user (each entry's count expanded in column order); each user keeps the
    # W tokens of smallest row + key, ties by position — the first W of a stable sort of row + key —
    # found without expanding every token (smallest_keys_per_row).
    entry_start = np.concatenate(([0], np.cumsum(sub.data.astype(np.int64))))
    row_start = entry_start[sub.indptr]
    keys = rng.random(int(entry_start[-1]))
    pos, row = smallest_keys_per_row(keys, row_start, W)
    del keys
    col = sub.indices[np.searchsorted(entry_start, pos, side="right") - 1]
    kept = sp.coo_matrix((np.ones(pos.size), (over[row], col)), shape=m.shape).tocsr()
    under = np.ones(m.shape[0], dtype=bool)
    under[over] = False
    out = sp.diags(under.astype(float)) @ m + kept
    out = sp.csr_matrix(out)
    out.sum_duplicates()
    out.eliminate_zeros()
    return out


@dataclass(frozen=True)
class LaplaceRelease:
    """A Laplace-baseline release: θ, the noise scale b = Δ₁/ε, the ℓ1 sensitivity Δ₁ and the guarantee."""

    theta: np.ndarray
    scale: float
    sensitivity: float
    epsilon: float
    W: int
    mechanism: str
    guarantee: Guarantee = None  # type: ignore[assignment]  # None: the default, set by __post_init__

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", laplace_guarantee(self.mechanism, epsilon=self.epsilon, W=self.W))

    def __repr__(self) -> str:
        return (
            f"LaplaceRelease(mechanism={self.mechanism!r}, |V|={self.theta.size}, scale={self.scale:.4g}, "
            f"sensitivity={self.sensitivity:.4g}, epsilon={self.epsilon:g}, W={self.W}, guarantee={self.guarantee.label!r})"
        )


@dataclass(frozen=True, eq=False)
class PreparedLaplace:
    """The ε-independent part of a Laplace baseline: the query value f(D) and its ℓ1 sensitivity."""

    value: np.ndarray
    sensitivity: float
    W: int
    mechanism: str

    def scale(self, epsilon) -> float:
        epsilon = check_epsilon(epsilon=epsilon)
        b = self.sensitivity / epsilon
        if b == 0.0:  # Δ₁ = 0 (no user moves f): no noise is needed
            return b
        return check_noise_scale("b", b, epsilon=epsilon, sensitivity=self.sensitivity)

    def sample_theta(self, *, epsilon, rng, repetitions: int = 1) -> np.ndarray:
        """``repetitions`` releases: max(f(D) + Lap(0, Δ₁/ε), 0) normalised, shape (repetitions, |V|)."""
        rng = check_rng(rng)
        repetitions = check_int("repetitions", repetitions, low=1)
        b = self.scale(epsilon)
        noisy = (
            self.value + laplace_noise(scale=b, size=(repetitions, self.value.size), rng=rng)
            if b > 0
            else np.repeat(self.value[None, :], repetitions, axis=0)
        )
        return normalise_clipped(noisy)

    def release(self, *, epsilon, rng) -> LaplaceRelease:
        epsilon = check_epsilon(epsilon=epsilon)
        theta = self.sample_theta(epsilon=epsilon, rng=rng)[0]
        return LaplaceRelease(
            theta=theta,
            scale=self.scale(epsilon),
            sensitivity=self.sensitivity,
            epsilon=epsilon,
            W=self.W,
            mechanism=self.mechanism,
        )


def prepare_laplace(user_counts, *, W, rng) -> PreparedLaplace:
    """Laplace baseline (000 §4.2 item 1): capped counts Σ_n Δc^n with ℓ1 sensitivity W."""
    capped = cap_user_totals(user_counts, W=W, rng=rng)
    value = np.asarray(capped.sum(axis=0), dtype=float).ravel()
    return PreparedLaplace(value=value, sensitivity=float(W), W=int(W), mechanism="Laplace")


def laplace_counts_dp(user_counts, *, epsilon, W, rng) -> LaplaceRelease:
    """The standard Laplace baseline: cap users at W counts, add Lap(0, W/ε) to every count in V,
    clip at 0, normalise (000 §4.2 item 1). One rng drives the subsampling and the noise."""
    epsilon = check_epsilon(epsilon=epsilon)
    rng = check_rng(rng)
    return prepare_laplace(user_counts, W=W, rng=rng).release(epsilon=epsilon, rng=rng)


def _laplace_public_value(m: sp.csr_matrix, alpha_tilde: np.ndarray) -> np.ndarray:
    """Σ_n w_n(Δc̃^n − α̃) + α̃ with w_n = ‖Δc^n‖₁/‖c‖₁ and Δc̃^n = Δc^n/‖Δc^n‖₁, computed literally
    through its two sums (Σ_n w_n Δc̃^n = c/‖c‖₁ and Σ_n w_n)."""
    totals = np.asarray(m.sum(axis=1)).ravel()
    T = totals.sum()
    if T <= 0:
        return alpha_tilde.copy()
    c = np.asarray(m.sum(axis=0), dtype=float).ravel()
    weight_sum = float(totals[totals > 0].sum() / T)
    return c / T - weight_sum * alpha_tilde + alpha_tilde


def laplace_public_sensitivity(capped_counts, public_counts, *, method: str = "brute-force") -> float:
    """ℓ1 sensitivity of the Laplace + public query f(D) = c/‖c‖₁ (see :func:`laplace_public_dp`).

    ``"brute-force"``: max_n ‖f(D) − f(D₋ₙ)‖₁ over the users, in O(nnz): on user n's support A the
    terms |c_j/T − (c_j − Δc_j)/(T − t_n)| are summed, off A the closed form
    (T − Σ_A c_j)·t_n/(T(T − t_n)). If the user is the only one with counts, f(D₋ₙ) = α̃.
    ``"bound"``: 2·max_n t_n/T (from ‖Δ/T − c₋ₙ·t/(T(T−t))‖₁ ≤ t/T + t/T), always ≥ the brute force.
    """
    check_choice("method", method, LAPLACE_PUBLIC_SENSITIVITY_METHODS)
    m = check_count_matrix(capped_counts, "capped_counts")
    alpha_tilde = _check_public(public_counts, m.shape[1])
    s = alpha_tilde.sum()
    alpha_tilde = alpha_tilde / s if s > 0 else np.full(m.shape[1], 1.0 / m.shape[1])
    totals = np.asarray(m.sum(axis=1)).ravel()
    T = float(totals.sum())
    if T <= 0:
        return 0.0
    if method == "bound":
        return float(2.0 * totals.max() / T)
    c = np.asarray(m.sum(axis=0), dtype=float).ravel()
    f = c / T
    rows = np.repeat(np.arange(m.shape[0]), np.diff(m.indptr))
    t = totals[rows]
    cj = c[m.indices]
    rest = T - t
    with np.errstate(divide="ignore", invalid="ignore"):
        on_a = np.abs(cj / T - np.where(rest > 0, (cj - m.data) / np.where(rest > 0, rest, 1.0), 0.0))
    on_sum = np.bincount(rows, weights=on_a, minlength=m.shape[0])
    c_on_a = np.bincount(rows, weights=cj, minlength=m.shape[0])
    rest_u = T - totals
    with np.errstate(divide="ignore", invalid="ignore"):
        off = np.where(rest_u > 0, (T - c_on_a) * totals / (T * np.where(rest_u > 0, rest_u, 1.0)), 0.0)
    g = on_sum + off
    sole = np.flatnonzero((rest_u <= 0) & (totals > 0))
    for n in sole:  # the only user with counts: f(D₋ₙ) = α̃
        g[n] = float(np.abs(f - alpha_tilde).sum())
    return float(g.max())


def prepare_laplace_public(user_counts, public_counts, *, W, rng, sensitivity: str = "brute-force") -> PreparedLaplace:
    """The ε-independent part of Laplace + public data: capped counts → f(D) and its ℓ1 sensitivity."""
    check_choice("sensitivity", sensitivity, LAPLACE_PUBLIC_SENSITIVITY_METHODS)
    capped = cap_user_totals(user_counts, W=W, rng=rng)
    alpha = _check_public(public_counts, capped.shape[1])
    s = alpha.sum()
    alpha_tilde = alpha / s if s > 0 else np.full(alpha.shape, 1.0 / alpha.size)
    value = _laplace_public_value(capped, alpha_tilde)
    gamma = laplace_public_sensitivity(capped, alpha, method=sensitivity)
    return PreparedLaplace(value=value, sensitivity=gamma, W=int(W), mechanism="Laplace + public")


def laplace_public_dp(
    user_counts, public_counts, *, epsilon, W, rng, sensitivity: str = "brute-force"
) -> LaplaceRelease:
    """Laplace with public data (000 §4.2 item 2), the formula as written.

    Output (un-normalised): max[Σ_n w_n(Δc̃^n − α̃) + e + α̃, 0], with α̃ the normalised public
    counts, Δc̃^n = Δc^n/‖Δc^n‖₁ user n's normalised counts, w_n = ‖Δc^n‖₁/‖c‖₁, e ~ Lap(0, Δ₁/ε)
    per coordinate, then re-normalised. Users are first capped at W counts as in the plain Laplace
    baseline (our reading: the paper caps every mechanism's users at W).

    Reading: as written, Σ_n w_n Δc̃^n = c/‖c‖₁ and Σ_n w_n = 1, so f(D) = c/‖c‖₁ and α̃ cancels —
    the public data does not enter the noiseless query. What changes against plain Laplace is the
    scale: Δ₁ is the ℓ1 sensitivity of the *normalised* counts, computed by brute force over the
    users (max_n ‖f(D) − f(D₋ₙ)‖₁, on this dataset, like BayesianDP's γ) or bounded by 2·max t_n/‖c‖₁.
    We implement the formula literally (both sums), so a different weighting would show up.
    """
    epsilon = check_epsilon(epsilon=epsilon)
    rng = check_rng(rng)
    return prepare_laplace_public(user_counts, public_counts, W=W, rng=rng, sensitivity=sensitivity).release(
        epsilon=epsilon, rng=rng
    )


@dataclass(frozen=True)
class KAnonymityRelease:
    """k-anonymity release: θ, K, how many items were kept and the suppressed share of the mass."""

    theta: np.ndarray
    K: int
    kept_items: int
    suppressed_items: int
    suppressed_mass: float
    fill: str
    guarantee: Guarantee = None  # type: ignore[assignment]  # None: the default, set by __post_init__

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", k_anonymity(self.K))

    def __repr__(self) -> str:
        return (
            f"KAnonymityRelease(K={self.K}, kept_items={self.kept_items}, suppressed_mass={self.suppressed_mass:.4g}, "
            f"fill={self.fill!r}, guarantee={self.guarantee.label!r})"
        )


def k_anonymity_release(user_counts, public_counts, *, K, fill: str = "public") -> KAnonymityRelease:
    """k-anonymity baseline (000 §4.5; SPEC §3): keep the private counts of items used by at least K
    distinct users; spread the suppressed mass over the suppressed items in proportion to the public
    distribution restricted to them (uniform if the public data has no mass there), or zero-fill them.
    Raw (unclamped) counts. Deterministic and **not** differentially private.
    """
    K = check_int("K", K, low=1)
    check_choice("fill", fill, ("public", "zero"))
    m = check_count_matrix(user_counts)
    alpha = _check_public(public_counts, m.shape[1])
    c = np.asarray(m.sum(axis=0), dtype=float).ravel()
    N = np.bincount(m.indices, minlength=m.shape[1])
    keep = N >= K
    out = np.where(keep, c, 0.0)
    suppressed = ~keep
    mass = float(c[suppressed].sum())
    if fill == "public" and mass > 0:
        a = alpha[suppressed]
        share = a / a.sum() if a.sum() > 0 else np.full(a.shape, 1.0 / a.size)
        out[suppressed] = mass * share
    total = c.sum()
    return KAnonymityRelease(
        theta=normalise_clipped(out),
        K=K,
        kept_items=int(keep.sum()),
        suppressed_items=int(suppressed.sum()),
        suppressed_mass=mass / total if total > 0 else 0.0,
        fill=fill,
    )


def public_baseline(public_counts) -> np.ndarray:
    """α/‖α‖₁ (all-zero → uniform). Uses no private data."""
    a = np.asarray(public_counts, dtype=float)
    if a.ndim != 1 or a.size < 2:
        raise UserError(f"public_counts must be a 1-D array with |V| >= 2 entries, got shape {a.shape}")
    return normalise_clipped(_check_public(a, a.size))


def private_baseline(user_counts) -> np.ndarray:
    """c/‖c‖₁, the non-private distribution every KL is measured against (no privacy)."""
    m = check_count_matrix(user_counts)
    return normalise_clipped(np.asarray(m.sum(axis=0), dtype=float).ravel())
