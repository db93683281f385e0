"""Basic composition helpers (Dwork & Roth Thm 3.14 and 3.16; Gaussian composition, 003 Prop. 2.3)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..errors import UserError
from ..validation import check_delta, check_epsilon, check_sensitivity, check_sequence

__all__ = ["sequential_composition", "parallel_composition", "gaussian_composition_sigma"]


def _budgets(epsilons: Sequence[float], deltas: Sequence[float] | None):
    eps = [check_epsilon(epsilon=e, name=f"epsilons[{i}]") for i, e in enumerate(check_sequence("epsilons", epsilons))]
    if not eps:
        raise UserError("epsilons must hold at least one budget, got an empty sequence")
    if deltas is None:
        dels = [0.0] * len(eps)
    else:
        deltas = check_sequence("deltas", deltas)
        if len(deltas) != len(eps):
            raise UserError(f"deltas must have one entry per epsilon, got {len(deltas)} for {len(eps)}")
        dels = [check_delta(delta=d, name=f"deltas[{i}]", allow_zero=True) for i, d in enumerate(deltas)]
    return eps, dels


def sequential_composition(epsilons: Sequence[float], deltas: Sequence[float] | None = None) -> tuple[float, float]:
    """Mechanisms run on the same data: (Σ ε_i, Σ δ_i)."""
    eps, dels = _budgets(epsilons, deltas)
    return sum(eps), min(1.0, sum(dels))


def parallel_composition(epsilons: Sequence[float], deltas: Sequence[float] | None = None) -> tuple[float, float]:
    """Mechanisms run on disjoint parts of the data (each user in one part): (max ε_i, max δ_i)."""
    eps, dels = _budgets(epsilons, deltas)
    return max(eps), max(dels)


def gaussian_composition_sigma(sigmas: Sequence[float]) -> float:
    """Releasing Gaussians with σ_1..σ_T (unit ℓ2 sensitivity each) costs as much as one with
    σ = (Σ 1/σ_k²)^(−1/2) (003 Prop. 2.3)."""
    vals = [
        check_sensitivity(sensitivity=s, name=f"sigmas[{i}]") for i, s in enumerate(check_sequence("sigmas", sigmas))
    ]
    if not vals:
        raise UserError("sigmas must hold at least one value, got an empty sequence")
    return 1.0 / math.sqrt(sum(1.0 / (s * s) for s in vals))
