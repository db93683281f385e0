"""Mechanisms 101's Laplace tabs with an export (Habernal, lecture 4; SPEC §1; issue 31 item 6).

M101LossSpec — (a) the Laplace densities of the neighbouring counts 50 and 51 and the privacy loss L(y) at scale b
(b = Δ/ε with Δ = 1, or a b chosen by hand); M101DebtSpec — (b) Laplace noise on the bank's total debt with the scale
set from the data's largest debt (wrong) or from the cap (the global sensitivity, right): every neighbour's worst
loss and the domain's worst pair. Neither draws noise: they are the exact densities and bounds the page shows.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from ..guarantees import Guarantee, pure_dp
from ..lab.lecture import (
    BANK_DEBTS,
    COUNTING_QUERY,
    DEBT_CAP,
    DebtNeighbour,
    bank_debt_guarantee,
    bank_debt_neighbours,
    bank_debt_worst_case,
)
from ..mechanisms.laplace import laplace_pdf, laplace_privacy_loss, laplace_scale
from ..validation import check_choice, check_epsilon, check_real
from .base import Spec

__all__ = ["M101LossSpec", "M101Loss", "M101DebtSpec", "M101Debt", "DEBT_RULES"]

DEBT_RULES = ("largest debt", "cap")
"""(b)'s scale rules: b = (the data's largest debt)/ε (local, not DP) or b = cap/ε (the global sensitivity)."""
LOSS_POINTS = 201
"""Points of (a)'s grid of released values y (plus the two true answers, where the densities peak)."""


class M101Loss(NamedTuple):
    """(a): the grid y, the densities p(y|D) and p(y|D'), the loss L(y), the scale, the worst |L| and the guarantee."""

    y: np.ndarray
    p_d: np.ndarray
    p_neighbour: np.ndarray
    loss: np.ndarray
    scale: float
    worst_loss: float
    guarantee: Guarantee


@dataclasses.dataclass(frozen=True, kw_only=True)
class M101LossSpec(Spec):
    """Mechanisms 101, tab (a): ε and the Laplace scale (``scale`` None: b = Δ/ε with Δ = 1; a number: b by hand)."""

    KIND = "m101-loss"
    USES_CORPUS = False
    NOTEBOOK_FIGURE = """
r = result
fig = go.Figure([go.Scatter(x=r.y, y=r.p_d, name="p(y | D), true answer 50"),
                 go.Scatter(x=r.y, y=r.p_neighbour, name="p(y | D'), true answer 51"),
                 go.Scatter(x=r.y, y=r.loss, name="L(y)", yaxis="y2")])
fig.update_layout(xaxis_title="released value y", yaxis_title="density",
                  yaxis2=dict(overlaying="y", side="right", title="L(y) (nats)"),
                  title=f"Laplace densities for counts 50 and 51, b = {r.scale:.3g}, worst |L| = {r.worst_loss:.3g}")
"""

    epsilon: float = 1.0
    scale: float | None = None

    def _validated(self):
        out = dict(epsilon=check_epsilon(epsilon=self.epsilon))
        if self.scale is not None:
            out["scale"] = check_real("scale", self.scale, low=0.0)
        return out

    @property
    def b(self) -> float:
        """The Laplace scale this spec uses."""
        return laplace_scale(epsilon=self.epsilon, sensitivity=1.0) if self.scale is None else float(self.scale)

    def run(self, corpus=None) -> M101Loss:
        """The densities on the page's grid (±6b around the answers), L(y), worst |L| = Δ/b and its guarantee."""
        a, a2 = COUNTING_QUERY
        b = self.b
        y = np.union1d(np.linspace(a - 6 * b - 1, a2 + 6 * b + 1, LOSS_POINTS), [a, a2])
        worst = abs(a - a2) / b
        scope = "" if self.scale is None else "b chosen by hand: ε = Δ/b"
        return M101Loss(
            y,
            laplace_pdf(y, loc=a, scale=b),
            laplace_pdf(y, loc=a2, scale=b),
            laplace_privacy_loss(y, true_answer=a, neighbour_answer=a2, scale=b),
            b,
            worst,
            pure_dp(epsilon=worst, scope=scope),
        )

    def rows(self, result: M101Loss) -> list[dict]:
        """The export's rows: one per grid point."""
        return [
            {"y": float(y), "p(y | D)": float(p), "p(y | D')": float(q), "L(y)": float(v)}
            for y, p, q, v in zip(result.y, result.p_d, result.p_neighbour, result.loss)
        ]

    def numbers(self, result: M101Loss) -> dict:
        return {"scale": result.scale, "worst_loss": result.worst_loss, "epsilon_guaranteed": result.worst_loss}


class M101Debt(NamedTuple):
    """(b): the sensitivity used, the scale, each customer's neighbour, the domain's worst pair and the guarantee."""

    sensitivity: float
    scale: float
    neighbours: list[DebtNeighbour]
    worst_case: DebtNeighbour
    guarantee: Guarantee


@dataclasses.dataclass(frozen=True, kw_only=True)
class M101DebtSpec(Spec):
    """Mechanisms 101, tab (b): ε and the rule that sets the scale (``"largest debt"`` or ``"cap"``)."""

    KIND = "m101-debt"
    USES_CORPUS = False
    NOTEBOOK_FIGURE = """
r = result
pairs = r.neighbours + [r.worst_case]
fig = go.Figure(go.Bar(x=[p.removed for p in pairs], y=[p.loss_bound for p in pairs], name="worst loss Δ/b"))
fig.add_hline(y=spec.epsilon, line_dash="dash", annotation_text="ε")
fig.update_layout(xaxis_title="customer removed", yaxis_title="worst privacy loss",
                  title=f"Total debt with b = {r.scale:,.0f} € (rule: {spec.rule})")
"""

    epsilon: float = 1.0
    rule: str = "largest debt"

    def _validated(self):
        return dict(epsilon=check_epsilon(epsilon=self.epsilon), rule=check_choice("rule", self.rule, DEBT_RULES))

    def run(self, corpus=None) -> M101Debt:
        """Every customer's neighbour and the domain's worst pair at b = sensitivity/ε, and the guarantee."""
        sens = max(BANK_DEBTS.values()) if self.rule == "largest debt" else DEBT_CAP
        b = laplace_scale(epsilon=self.epsilon, sensitivity=sens)
        return M101Debt(
            float(sens),
            b,
            bank_debt_neighbours(BANK_DEBTS, epsilon=self.epsilon, scale=b),
            bank_debt_worst_case(epsilon=self.epsilon, scale=b),
            bank_debt_guarantee(epsilon=self.epsilon, scale=b),
        )

    def rows(self, result: M101Debt) -> list[dict]:
        """The export's rows: each customer's neighbour, then the domain's worst pair."""
        return [
            {
                "neighbour D'": f"D without {r.removed}"
                if r is not result.worst_case
                else "{0, 0, 0, cap} vs {0, 0, 0}",
                "true total": r.total,
                "neighbour total": r.neighbour_total,
                "difference": r.difference,
                "worst loss Δ/b": r.loss_bound,
                "≤ ε?": "yes" if not r.exceeds_epsilon else "NO",
            }
            for r in [*result.neighbours, result.worst_case]
        ]

    def numbers(self, result: M101Debt) -> dict:
        return {
            "sensitivity": result.sensitivity,
            "scale": result.scale,
            "worst_loss": result.worst_case.loss_bound,
            "largest_customer_loss": max(r.loss_bound for r in result.neighbours),
        }
