"""BayesianDP's entry points (000 Algorithm 1, Corollary 1; SPEC §3): :func:`prepare_bayesian` (steps 1–7) and
:func:`bayesian_dp` (one release).

Privacy-critical: the guarantee, σ from the sensitivity, the Gaussian noise and the released distribution are in
:mod:`dpcore.bayesian.prepared` (re-exported here); the sensitivity is in :mod:`dpcore.bayesian.statistics`.
"""

from __future__ import annotations

from ..errors import UserError
from ..mechanisms.gaussian import CALIBRATION_CHOICES
from ..validation import check_choice, check_delta, check_epsilon, check_rng
from .prepared import BayesianRelease, PreparedBayesianDP, bayesian_guarantee
from .statistics import SENSITIVITY_METHODS, bayesian_statistics

__all__ = [
    "PreparedBayesianDP",
    "BayesianRelease",
    "bayesian_dp",
    "bayesian_guarantee",
    "prepare_bayesian",
]


def prepare_bayesian(
    user_counts, public_counts, *, S, C, rho, sensitivity: str = "brute-force", max_items=None, max_users=None, rng=None
) -> PreparedBayesianDP:
    """Steps 1–7 of 000 Algorithm 1 (everything but σ and the draw).

    ``sensitivity="strict"`` (SPEC §3b) needs ``max_items`` (L), ``max_users`` (N_max) and ``rng``
    (the per-user item choice); the local methods take none of them.
    """
    check_choice("sensitivity", sensitivity, SENSITIVITY_METHODS)
    if sensitivity == "strict":
        if max_items is None or max_users is None:
            raise UserError(
                "sensitivity='strict' needs max_items (L) and max_users (N_max), got "
                f"max_items={max_items!r}, max_users={max_users!r}"
            )
    else:
        for name, v in (("max_items", max_items), ("max_users", max_users)):
            if v is not None:
                raise UserError(
                    f"{name} applies to sensitivity='strict' only, got sensitivity={sensitivity!r}, {name}={v!r}"
                )
    stats = bayesian_statistics(user_counts, public_counts, C=C, max_items=max_items, rng=rng)
    return stats.prepare(S=S, rho=rho, sensitivity=sensitivity, max_users=max_users)


__all__.append("prepare_bayesian")


def bayesian_dp(
    user_counts,
    public_counts,
    *,
    epsilon,
    delta,
    S,
    C,
    rho,
    rng,
    sensitivity: str = "brute-force",
    calibration: str = "auto",
    max_items=None,
    max_users=None,
) -> BayesianRelease:
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
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    check_choice("calibration", calibration, CALIBRATION_CHOICES)
    rng = check_rng(rng)
    prepared = prepare_bayesian(
        user_counts,
        public_counts,
        S=S,
        C=C,
        rho=rho,
        sensitivity=sensitivity,
        max_items=max_items,
        max_users=max_users,
        rng=rng,
    )
    return prepared.release(epsilon=epsilon, delta=delta, rng=rng, calibration=calibration)
