"""Mechanisms 101's computations with an export (Habernal, lecture 4; SPEC §1): M101CitiesSpec and M101Spec.

M101CitiesSpec — (c) the exponential mechanism on the secret-society cities, with the Δu plugged in as a multiple of the computed one
or a public bound B on the clipped utilities (ε-DP)
(no draws: the selection probabilities over D and its neighbours); (d) sampling a mechanism many times on D and on
its worst neighbour D' and comparing the empirical ratio with e^ε: M101Spec (the page's draws).

Draws of (d): ``spec.rng("m101-sample", mechanism, draws, epsilon)``. Before issue 22 the salt lacked ε, so the
Laplace draws at two ε were the same standard draws scaled by b = 1/ε, and two views gave the true count away —
the leak issue 21 item 5 removed from the other pages; ε is now in the salt (the page's (d) numbers changed).
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import numpy as np

from ..errors import UserError
from ..lab.lecture import city_example, empirical_density_ratios, empirical_selection_ratios
from ..mechanisms.exponential import exponential_mechanism
from ..mechanisms.laplace import laplace_mechanism, laplace_scale
from ..validation import check_choice, check_epsilon, check_int, check_real
from .base import Spec
from .knobs import Salt, knob

__all__ = ["M101Spec", "M101CitiesSpec", "M101Sample", "SAMPLE_MECHANISMS"]

SAMPLE_MECHANISMS = ("exponential", "Laplace")
"""(d)'s mechanisms: the exponential mechanism on the cities, Laplace on the counts 50 vs 51."""


class M101Sample(NamedTuple):
    """(d): per city or per bin of y, the share of draws under D and under D', and max(ratio, 1/ratio) (NaN where a
    ratio is not estimated)."""

    xs: list
    share_d: np.ndarray
    share_other: np.ndarray
    ratio: np.ndarray
    other: str
    unit: str
    bound: float


def _finite_or_none(values) -> list:
    return [float(v) if np.isfinite(v) else None for v in np.asarray(values, dtype=float)]


@dataclasses.dataclass(frozen=True, kw_only=True)
class M101CitiesSpec(Spec):
    """Mechanisms 101, tab (c): the exponential mechanism's probabilities on D and its neighbours (no draws)."""

    KIND = "m101-cities"
    NOISE_FREE = (
        "city_probabilities",
        "sensitivity_used",
        "sensitivity_computed",
        "worst_ratio",
        "utility_bound",
    )  # no draws
    USES_CORPUS = False
    NOTEBOOK_FIGURE = """
ex = result
fig = go.Figure([go.Bar(x=list(ex.cities), y=[float(v) for v in row], name=nb)
                 for nb, row in zip(ex.neighbours, ex.probabilities)])
fig.update_layout(barmode="group", xaxis_title="city", yaxis_title="selection probability",
                  title=f"Exponential mechanism at ε = {spec.epsilon:g}, Δu = {ex.sensitivity_used:.4f}")
"""

    epsilon: float = 1.0
    sensitivity_factor: float = 1.0
    utility_bound: float | None = None  # a public Δu bound B (utilities clipped to [0, B]): ε-DP; None: Δu from D

    def _validated(self):
        out = dict(
            epsilon=check_epsilon(epsilon=self.epsilon),
            sensitivity_factor=check_real("sensitivity_factor", self.sensitivity_factor, low=0.0),
        )
        if self.utility_bound is not None:
            out["utility_bound"] = check_real("utility_bound", self.utility_bound, low=0.0)
            if out["sensitivity_factor"] != 1.0:
                raise UserError(
                    "sensitivity_factor must be 1 when utility_bound is given (Δu is the public bound), "
                    f"got sensitivity_factor={self.sensitivity_factor!r}"
                )
        return out

    def run(self, corpus=None):
        """The city example with Δu = factor × the computed Δu (the factor 1 is the computed one), or with the
        public bound B (``utility_bound``: utilities clipped to [0, B], Δu = B, ε-DP). Records without
        ``utility_bound`` (before issue 31) replay as they did."""
        if self.utility_bound is not None:
            return city_example(epsilon=self.epsilon, utility_bound=self.utility_bound)
        base = city_example(epsilon=self.epsilon)
        if self.sensitivity_factor == 1.0:
            return base
        return city_example(epsilon=self.epsilon, sensitivity=base.sensitivity_true * self.sensitivity_factor)

    def numbers(self, result) -> dict:
        ex = result
        return {
            "city_probabilities": {nb: [float(v) for v in row] for nb, row in zip(ex.neighbours, ex.probabilities)},
            "sensitivity_used": float(ex.sensitivity_used),
            "sensitivity_computed": float(ex.sensitivity_true),
            "worst_ratio": float(ex.worst_ratio),
            "utility_bound": ex.utility_bound,
        }


@dataclasses.dataclass(frozen=True, kw_only=True)
class M101Spec(Spec):
    """Mechanisms 101, tab (d): ε, the mechanism and the number of draws per dataset."""

    KIND = "m101"
    NOISE_FREE = ("sample_x", "bound")
    USES_CORPUS = False
    NOTEBOOK_FIGURE = """
s = result
fig = go.Figure([go.Bar(x=[str(x) for x in s.xs], y=list(s.share_d), name="share under D"),
                 go.Bar(x=[str(x) for x in s.xs], y=list(s.share_other), name=f"share under {s.other}")])
fig.add_trace(go.Scatter(x=[str(x) for x in s.xs], y=list(s.ratio), name="max(ratio, 1/ratio)", yaxis="y2",
                         mode="lines+markers"))
fig.update_layout(barmode="group", xaxis_title=s.unit, yaxis_title="share of draws",
                  yaxis2=dict(overlaying="y", side="right", title=f"ratio (bound e^ε = {s.bound:.3f})"),
                  title=f"{spec.draws:,} draws of the {spec.mechanism} mechanism per dataset at ε = {spec.epsilon:g}")
"""

    SALTS = {"sample": Salt(("m101-sample",), ("mechanism", "draws", "epsilon"))}

    epsilon: float = knob(1.0, salts=True)
    mechanism: str = knob("exponential", options=SAMPLE_MECHANISMS, salts=True)
    draws: int = knob(1000, salts=True)

    def _validated(self):
        return dict(
            epsilon=check_epsilon(epsilon=self.epsilon),
            mechanism=check_choice("mechanism", self.mechanism, SAMPLE_MECHANISMS),
            draws=check_int("draws", self.draws, low=1, high=10_000_000),
        )

    def sample_salt(self) -> tuple:
        """The salt of the draws: every parameter that changes them."""
        return self.salt_of("sample")

    def run(self, corpus=None) -> M101Sample:
        """``draws`` draws on D and on its worst neighbour D', the empirical shares and their ratio."""
        eps, n, rng = self.epsilon, self.draws, self.rng(*self.sample_salt())
        xs: list[str] | list[float]  # the cities, or the bins' centres
        if self.mechanism == "exponential":
            ex = city_example(epsilon=eps)
            j = ex.neighbours.index(ex.worst_pair[0])
            draws_d = exponential_mechanism(
                ex.utilities[0], epsilon=eps, sensitivity=ex.sensitivity_used, rng=rng, size=n
            )
            draws_n = exponential_mechanism(
                ex.utilities[j], epsilon=eps, sensitivity=ex.sensitivity_used, rng=rng, size=n
            )
            fd, fn, ratio = empirical_selection_ratios(draws_d, draws_n, len(ex.cities))
            xs, other, unit = list(ex.cities), ex.worst_pair[0], "city"
        else:
            b = laplace_scale(epsilon=eps, sensitivity=1.0)
            draws_d = laplace_mechanism(np.full(n, 50.0), epsilon=eps, sensitivity=1.0, rng=rng)
            draws_n = laplace_mechanism(np.full(n, 51.0), epsilon=eps, sensitivity=1.0, rng=rng)
            edges = np.linspace(50.5 - 5 * b, 50.5 + 5 * b, 41)
            fd, fn, ratio = empirical_density_ratios(draws_d, draws_n, edges)
            xs, other, unit = (
                [float(x) for x in (edges[:-1] + edges[1:]) / 2],
                "D' (answer 51)",
                "released value y (bin centre)",
            )
        return M101Sample(xs, fd, fn, np.maximum(ratio, 1 / ratio), other, unit, float(np.exp(eps)))

    def numbers(self, result: M101Sample) -> dict:
        s = result
        emp = np.asarray(s.ratio, dtype=float)
        return {
            "sample_x": list(s.xs),
            "share_d": [float(v) for v in s.share_d],
            "share_other": [float(v) for v in s.share_other],
            "ratio": _finite_or_none(emp),
            "largest_ratio": float(np.nanmax(emp)) if np.any(np.isfinite(emp)) else None,
            "bound": s.bound,
        }
