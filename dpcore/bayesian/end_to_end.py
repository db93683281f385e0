"""EndToEndDP (000 Algorithm 2, §3.2; SPEC §3): the Gaussian mechanism on the whole released distribution,
its guarantee and its cross-entropy evaluation.

Privacy-critical (the EndToEndDP mechanism).
"""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np
from scipy.special import logsumexp
from ..mechanisms.gaussian import CALIBRATION_CHOICES
from ..mechanisms.noise import laplace_noise
from ..guarantees import Guarantee, local_sensitivity
from ..validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_noise_scale,
    check_real,
    check_rng,
    check_sequence,
)
from .statistics import (
    BayesianStatistics,
    DEFAULT_RHO_GRID,
    DEFAULT_S_GRID,
    LOCAL_SENSITIVITY_METHODS,
    _check_C,
    _check_S,
    _check_rho,
    bayesian_statistics,
    check_count_matrix,
    clamp_counts,
)
from .release import BayesianRelease
from ..errors import UserError

__all__ = [
    "EndToEndRelease",
    "EndToEndEvaluation",
    "end_to_end_dp",
]


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
    guarantee: Guarantee = None  # type: ignore[assignment]  # None: the default, set by __post_init__

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(
                self,
                "guarantee",
                end_to_end_guarantee(
                    epsilon_train=self.epsilon_train, epsilon_tune=self.epsilon_tune, delta=self.delta
                ),
            )

    def __repr__(self) -> str:
        return (
            f"EndToEndRelease(S*={self.S_star:g}, rho*={self.rho_star:g}, epsilon={self.epsilon:g} "
            f"(train {self.epsilon_train:g} + tune {self.epsilon_tune:g}), delta={self.delta:g}, "
            f"guarantee={self.guarantee.label!r})"
        )


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
    e_train, e_tune = (
        check_epsilon(epsilon=epsilon_train, name="epsilon_train"),
        check_epsilon(epsilon=epsilon_tune, name="epsilon_tune"),
    )
    return local_sensitivity(
        epsilon=e_train + e_tune,
        delta=check_delta(delta=delta),
        promise=(
            "Not DP, and no (ε, δ) holds — not even for this corpus's neighbours: the release's γ and the "
            "tuning score's sensitivity (Claim 2) are both measured on the private data, so on a neighbour "
            "the noise scales themselves change and reveal who is in the data."
        ),
        scope=f"noise scales set from ε_train + ε_tune = {e_train:.3g} + {e_tune:.3g} = {e_train + e_tune:.3g}, "
        f"δ = {delta:g} — not a promise",
    )


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

    def release_with_evaluation(
        self, *, epsilon, delta, rng, calibration: str = "auto"
    ) -> tuple[EndToEndRelease, EndToEndEvaluation]:
        """:meth:`release` (the same draws for the same rng) and its :class:`EndToEndEvaluation`."""
        epsilon = check_epsilon(epsilon=epsilon)
        delta = check_delta(delta=delta)
        rng = check_rng(rng)
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        eps_train, eps_tune = 2.0 * epsilon / 3.0, epsilon / 3.0
        if not eps_tune > 0:  # ε = 5e-324: ε/3 rounds to 0 (a ZeroDivisionError before; issue 21 item 8)
            raise UserError(
                f"epsilon must be large enough to split into ε_train = 2ε/3 and ε_tune = ε/3 (ε/3 is 0 "
                f"in floating point here), got epsilon={epsilon!r}: use a larger epsilon"
            )
        with np.errstate(over="ignore"):
            scale = 2.0 * self.score_sensitivity / eps_tune
        if self.score_sensitivity > 0:
            scale = check_noise_scale("b (tuning)", scale, epsilon=epsilon, score_sensitivity=self.score_sensitivity)
        noisy = self.scores + laplace_noise(scale=scale, size=self.scores.shape, rng=rng)
        k = int(np.argmin(noisy))
        S_star, rho_star = self.grid[k]
        rel = self.statistics.prepare(S=S_star, rho=rho_star, sensitivity=self.sensitivity_method).release(
            epsilon=eps_train, delta=delta, rng=rng, calibration=calibration
        )
        release = EndToEndRelease(
            theta=rel.theta,
            release=rel,
            S_star=S_star,
            rho_star=rho_star,
            grid=self.grid,
            epsilon=epsilon,
            epsilon_train=eps_train,
            epsilon_tune=eps_tune,
            delta=delta,
        )
        return release, EndToEndEvaluation(
            scores=self.scores.copy(),
            noisy_scores=noisy,
            score_sensitivity=self.score_sensitivity,
            tuning_scale=scale,
            n_train=self.n_train,
            n_validation=self.n_validation,
        )


def prepare_end_to_end(
    user_counts,
    public_counts,
    *,
    C,
    rng,
    S_grid=DEFAULT_S_GRID,
    rho_grid=DEFAULT_RHO_GRID,
    validation_share: float = 0.1,
    sensitivity: str = "brute-force",
) -> PreparedEndToEnd:
    """Split users, compute the train statistics, the grid scores and |Δq| (see :func:`end_to_end_dp`)."""
    C = _check_C(C)
    rng = check_rng(rng)
    check_choice("sensitivity", sensitivity, LOCAL_SENSITIVITY_METHODS)
    validation_share = check_real("validation_share", validation_share, low=0.0, high=1.0, high_inclusive=False)
    S_grid = tuple(_check_S(s) for s in check_sequence("S_grid", S_grid))
    rho_grid = tuple(_check_rho(r) for r in check_sequence("rho_grid", rho_grid))
    if not S_grid or not rho_grid:
        raise UserError(f"S_grid and rho_grid must be non-empty, got {len(S_grid)} and {len(rho_grid)} values")
    m = check_count_matrix(user_counts)
    if m.shape[0] < 2:
        raise UserError(f"EndToEndDP needs at least 2 users to split into train and validation, got {m.shape[0]}")
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
    return PreparedEndToEnd(
        statistics=stats,
        grid=tuple(grid),
        scores=np.asarray(scores),
        score_sensitivity=max(sens),
        sensitivity_method=sensitivity,
        n_train=len(train_rows),
        n_validation=len(val_rows),
    )


__all__ += ["PreparedEndToEnd", "prepare_end_to_end"]


def end_to_end_dp(
    user_counts,
    public_counts,
    *,
    epsilon,
    delta,
    C,
    rng,
    S_grid=DEFAULT_S_GRID,
    rho_grid=DEFAULT_RHO_GRID,
    validation_share: float = 0.1,
    sensitivity: str = "brute-force",
    calibration: str = "auto",
) -> EndToEndRelease:
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
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    rng = check_rng(rng)
    check_choice("calibration", calibration, CALIBRATION_CHOICES)
    prepared = prepare_end_to_end(
        user_counts,
        public_counts,
        C=C,
        rng=rng,
        S_grid=S_grid,
        rho_grid=rho_grid,
        validation_share=validation_share,
        sensitivity=sensitivity,
    )
    return prepared.release(epsilon=epsilon, delta=delta, rng=rng, calibration=calibration)
