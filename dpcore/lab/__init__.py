"""What is teaching rather than mechanism: the lecture's worked examples, the papers' reported numbers vs
ours, the privacy reviewer's warnings and budgets, the session budget, the lecture exercises, and what a guarantee
means for one person (:mod:`.risk`: trade-off curves, the posterior bound, measured attacks).
"""

from __future__ import annotations

from . import exercises, lecture, paper_results, risk
from .budget import (
    PLD_DISCRETIZATION,
    BudgetEntry,
    ComposedBudget,
    budget_entry,
    compose_releases,
    release_identity,
)
from .review import Review, review_release
from .review_budget import BudgetStatement, dpne_budget, end_to_end_budget, no_budget, qualified_budget, single_budget
from .review_noise import (
    NoiseStatement,
    dpne_users_per_released,
    gaussian_noise_in_units,
    laplace_noise_in_units,
    log_space_noise_in_units,
)
from .review_rules import (
    EPSILON_WARN_ABOVE,
    GAMMA_WARN_ABOVE,
    MIN_USERS,
    REVIEW_RULES,
    ReviewWarning,
    review_warnings,
)

__all__ = [
    "lecture",
    "paper_results",
    "exercises",
    "risk",
    "ReviewWarning",
    "NoiseStatement",
    "BudgetStatement",
    "Review",
    "REVIEW_RULES",
    "EPSILON_WARN_ABOVE",
    "GAMMA_WARN_ABOVE",
    "MIN_USERS",
    "review_warnings",
    "laplace_noise_in_units",
    "gaussian_noise_in_units",
    "log_space_noise_in_units",
    "dpne_users_per_released",
    "end_to_end_budget",
    "dpne_budget",
    "single_budget",
    "no_budget",
    "qualified_budget",
    "review_release",
    "BudgetEntry",
    "ComposedBudget",
    "budget_entry",
    "compose_releases",
    "release_identity",
    "PLD_DISCRETIZATION",
]
