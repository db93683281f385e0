"""The exercise record: settings, a question, an answer computed by dpcore, hints and a worked solution.

An exercise never stores its answer. ``answer()`` runs ``solve(settings)``, a small function that calls
the dpcore functions the page itself calls (listed in ``uses``), so when a page's maths changes the
answer changes with it, and the tests check that the answer goes through those functions.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["NUMBER", "CHOICE", "EXERCISE_KINDS", "Solution", "Exercise"]

NUMBER = "number"
CHOICE = "choice"
EXERCISE_KINDS = (NUMBER, CHOICE)


@dataclass(frozen=True)
class Solution:
    """What ``solve(settings)`` returns: the answer and the named numbers the texts use.

    ``value`` is a float for a number exercise and the index of the right option for a choice.
    ``values`` feed the ``{placeholders}`` of the question (givens only), the options and the worked
    solution; ``options`` (choice exercises) are the option texts, computed beside the answer.
    """

    value: float | int
    values: Mapping[str, Any] = field(default_factory=dict)
    options: tuple[str, ...] = ()


class _Blank(dict):
    def __missing__(self, key):  # a template field the solver did not provide
        raise KeyError(f"exercise text uses {{{key}}} but its solver gives no value of that name")


def _fill(template: str, values: Mapping[str, Any]) -> str:
    return string.Formatter().vformat(template, (), _Blank(values))


@dataclass(frozen=True, eq=False)
class Exercise:
    """One lecture exercise on one page.

    Attributes:
      id: short unique slug used in the deep link ``?exercise=<id>``.
      page: the page file's name without ``.py`` (e.g. ``"1_Mechanisms_101"``).
      title: a few words.
      settings: widget key → value the page opens with (values the widgets accept).
      question: Markdown; ``{name}`` fields are filled from the solver's ``values`` (givens only).
      solve: ``settings → Solution``; computes the answer with dpcore functions (never a constant).
      uses: the dpcore functions the answer goes through, as ``"module:function"``.
      hints: one or two hints, shown after a wrong try.
      solution: worked solution (Markdown with LaTeX between $…$); ``{answer}`` and the solver's
        ``values`` fill its fields.
      kind: ``"number"`` or ``"choice"``.
      rel_tol, abs_tol: a number answer x is right when |x − answer| ≤ max(rel_tol·|answer|, abs_tol).
      unit: shown beside the number input.
      decimals: how many decimals the answer is shown with in the lecturer's sheet and the solution.
    """

    id: str
    page: str
    title: str
    settings: Mapping[str, Any]
    question: str
    solve: Callable[[Mapping[str, Any]], Solution]
    uses: tuple[str, ...]
    hints: tuple[str, ...]
    solution: str
    kind: str = NUMBER
    rel_tol: float = 0.01
    abs_tol: float = 0.0
    unit: str = ""
    decimals: int = 3

    def __post_init__(self):
        if self.kind not in EXERCISE_KINDS:
            raise ValueError(f"kind must be one of {EXERCISE_KINDS}, got kind={self.kind!r}")
        if not self.id or not all(ch.isalnum() or ch == "-" for ch in self.id):
            raise ValueError(f"id must be a non-empty slug of letters, digits and '-', got id={self.id!r}")
        if not 1 <= len(self.hints) <= 2:
            raise ValueError(f"hints must hold one or two hints, got {len(self.hints)} for {self.id}")
        if not self.uses:
            raise ValueError(f"uses must name the dpcore functions the answer goes through ({self.id})")
        if self.rel_tol < 0 or self.abs_tol < 0 or (self.kind == NUMBER and self.rel_tol == 0 and self.abs_tol == 0):
            raise ValueError(f"a number exercise needs a tolerance > 0 ({self.id})")
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))

    # -- the answer -------------------------------------------------------------------------------
    def solved(self) -> Solution:
        """``solve(settings)``: the answer with the numbers the texts use (recomputed on each call)."""
        sol = self.solve(self.settings)
        if self.kind == CHOICE:
            if not sol.options or not 0 <= int(sol.value) < len(sol.options):
                raise ValueError(f"choice exercise {self.id}: index {sol.value} outside its {len(sol.options)} options")
        elif not math.isfinite(float(sol.value)):
            raise ValueError(f"exercise {self.id}: the answer is not a finite number ({sol.value})")
        return sol

    def answer(self) -> float | int:
        """The right answer for ``settings``: a number, or the index of the right option."""
        v = self.solved().value
        return int(v) if self.kind == CHOICE else float(v)

    def options(self) -> tuple[str, ...]:
        """The option texts of a choice exercise (empty for a number exercise)."""
        return self.solved().options if self.kind == CHOICE else ()

    def tolerance(self) -> float:
        """The absolute tolerance for this exercise's answer: max(rel_tol·|answer|, abs_tol)."""
        return 0.0 if self.kind == CHOICE else max(self.rel_tol * abs(self.answer()), self.abs_tol)

    def check(self, response, solution: Solution | None = None) -> bool:
        """True when ``response`` (a number, or an option index) is right."""
        sol = solution or self.solved()
        if self.kind == CHOICE:
            try:
                return int(response) == int(sol.value)
            except (TypeError, ValueError):
                return False
        try:
            x = float(response)
        except (TypeError, ValueError):
            return False
        if not math.isfinite(x):
            return False
        ans = float(sol.value)
        return abs(x - ans) <= max(self.rel_tol * abs(ans), self.abs_tol) * (1 + 1e-12)

    # -- the texts ----------------------------------------------------------------------------------
    def format_answer(self, solution: Solution | None = None) -> str:
        sol = solution or self.solved()
        if self.kind == CHOICE:
            return f"{chr(ord('a') + int(sol.value))}) {sol.options[int(sol.value)]}"
        return f"{float(sol.value):.{self.decimals}f}" + (f" {self.unit}" if self.unit else "")

    def question_text(self, solution: Solution | None = None) -> str:
        """The question with its givens filled in (never the answer)."""
        sol = solution or self.solved()
        return _fill(self.question, sol.values)

    def solution_text(self, solution: Solution | None = None) -> str:
        """The worked solution with the computed numbers and the answer filled in."""
        sol = solution or self.solved()
        return _fill(self.solution, {**sol.values, "answer": self.format_answer(sol)})

    def hint_texts(self, solution: Solution | None = None) -> tuple[str, ...]:
        sol = solution or self.solved()
        return tuple(_fill(h, sol.values) for h in self.hints)

    def settings_text(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.settings.items())

    def __repr__(self) -> str:
        return f"Exercise(id={self.id!r}, page={self.page!r}, kind={self.kind!r}, settings={dict(self.settings)!r})"
