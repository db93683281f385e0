"""dpcore.audit — measure ε from the outside: run a mechanism on two neighbours, bound ε from below.

``dpcore.audit.audit(mechanism, d, d_prime, *, trials, rng, ...)`` runs the audit (the package itself is a plain
module: ``dpcore.audit(...)`` raises TypeError, "'module' object is not callable"); :func:`audit_scores` does the statistics on given scores; :mod:`dpcore.audit.scenarios` holds one
worst-case neighbouring pair per mechanism of the app, with a deliberately broken variant of each.
See :mod:`dpcore.audit.core` for the method (pilot/evaluation split, Clopper–Pearson bounds).
"""

from __future__ import annotations

from .core import (
    DIRECTIONS,
    ORDERINGS,
    AuditEvent,
    AuditResult,
    audit,
    audit_scores,
    clopper_pearson_lower,
    clopper_pearson_upper,
    epsilon_lower_bound,
)
from .scenario_types import Scenario, ScenarioRun
from .scenarios import SCENARIO_LABELS, SCENARIOS, audit_rng, get_scenario, rebound, run_scenario, scenario_names

__all__ = [
    "DIRECTIONS",
    "ORDERINGS",
    "AuditEvent",
    "AuditResult",
    "audit",
    "audit_scores",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "epsilon_lower_bound",
    "SCENARIOS",
    "SCENARIO_LABELS",
    "audit_rng",
    "Scenario",
    "ScenarioRun",
    "get_scenario",
    "run_scenario",
    "rebound",
    "scenario_names",
]
