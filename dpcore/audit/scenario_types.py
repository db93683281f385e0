"""What an audit scenario is: a worst-case neighbouring pair, its correct and broken variants, a run."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import UserError
from .core import AuditResult

__all__ = [
    "Variant",
    "Scenario",
    "ScenarioRun",
]


@dataclass(frozen=True)
class Variant:
    """One way of running a scenario's mechanism: ``mechanism(data, rng) -> score`` and an optional
    vectorised ``batch(data, n, rng) -> n scores``; the claim it makes and what it changes."""

    label: str
    broken: bool
    explanation: str
    epsilon_claimed: float | None
    delta: float
    mechanism: Callable
    batch: Callable | None = None


@dataclass(frozen=True)
class Scenario:
    """A mechanism, its worst-case neighbouring pair, the score, and its correct and broken variants."""

    name: str
    title: str
    explanation: str  # one sentence: why this pair is the worst case
    pair: str  # what D and D' are
    score: str  # what the attacker computes from one output
    d: object
    d_prime: object
    correct: Variant | None
    broken: Variant | None
    default_trials: int
    note: str = ""  # what is simplified, which parameters were chosen to make the attack strong

    def datasets(self) -> tuple:
        """(D, D') as the mechanism sees them (``d`` and ``d_prime`` may be keys of a registry)."""
        return tuple(_DATA.get(k, k) if isinstance(k, tuple) else k for k in (self.d, self.d_prime))

    def variant(self, broken: bool) -> Variant:
        v = self.broken if broken else self.correct
        if v is None:
            which = "broken" if broken else "correct"
            raise UserError(f"scenario {self.name!r} has no {which} variant")
        return v


@dataclass(frozen=True)
class ScenarioRun:
    """An audit of one scenario variant, with the time it took (wall and CPU seconds)."""

    scenario: str
    variant: str
    broken: bool
    result: AuditResult
    seconds: float
    cpu_seconds: float
    vectorised: bool


_DATA: dict = {}


def _register(key, users):
    _DATA[key] = users
    return key
