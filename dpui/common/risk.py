"""What a release's guarantee means for one person, beside its badge (issue 32).

One call per page, right below the guarantee badge(s): :func:`attacker_view`. It says in one sentence what the
best attacker can do at the release's (ε, δ) (:func:`dpcore.lab.risk.attacker_limits`), says so when a release
promises nothing (no sentence, no curve: local sensitivity, k-anonymity, random DP, DP of part of the release),
and offers the trade-off curve on a toggle — drawn, and computed, only while the toggle is on (issue 29: hidden
content costs nothing per slider move). A measured attack (the audit's chosen test, the membership inference
attack) is drawn on the same axes: :func:`measured_attack_view`. The sidebar's session budget says its total in
the same words: :func:`session_line`. All numbers: :mod:`dpcore.lab.risk`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dpcore.guarantees import K_ANONYMITY, LOCAL_SENSITIVITY, NO_PROTECTION, RANDOM_DP, Guarantee
from dpcore.lab import risk
from dpui.common.charts import NEUTRAL, REFERENCE, series_style, show_figure
from dpui.common.noise import REPRODUCIBLE, noise_mode

__all__ = ["attacker_view", "measured_attack_view", "session_line", "no_bound_reason", "CURVE_LABEL"]

CURVE_LABEL = "Show the attacker's trade-off curve"
ICON = "🕵️"
_WHY_NOT = {
    LOCAL_SENSITIVITY: "its noise is scaled to a sensitivity measured on the private data, so no (ε, δ) holds",
    K_ANONYMITY: "k-anonymity hides rare items but bounds nothing about one person",
    RANDOM_DP: "random DP covers most neighbouring datasets drawn at random, not you in particular",
    NO_PROTECTION: "it claims no protection at all",
}


def no_bound_reason(guarantee: Guarantee) -> str:
    """Why a release that is not (ε, δ)-DP bounds no attacker, in words."""
    reasons = [_WHY_NOT[guarantee.kind]] if guarantee.kind in _WHY_NOT else []
    if guarantee.conditional_on:
        reasons.append(f"its proof covers the values, not {guarantee.conditional_on}")
    return "; and ".join(reasons) or "it is not DP"


def _as_mapping(releases) -> dict[str, Guarantee]:
    return {"": releases} if isinstance(releases, Guarantee) else dict(releases)


def attacker_view(
    releases: Guarantee | Mapping[str, Guarantee],
    *,
    key: str,
    measured: Callable[[], Iterable[risk.MeasuredAttack]] | None = None,
    claim: str = "",
) -> None:
    """The attacker's limits for the release(s) beside their badge, and their trade-off curve on demand.

    Args:
      releases: a Guarantee, or name → Guarantee for a page with several releases.
      key: the toggle's widget key (page-prefixed).
      measured: called only when the curve is open: the measured attacks to draw on the same axes.
      claim: words before the sentence (the audit: "The claim says:"), for a guarantee that is claimed, not proven.
    """
    named = _as_mapping(releases)
    bounded = {name: g for name, g in named.items() if g.is_dp}
    lines = []
    if bounded and noise_mode() == REPRODUCIBLE:  # issue 42 item 5: the sentence says what the badge's chip says
        lines.append(PUBLIC_SEED_CAVEAT)
    for name, g in bounded.items():
        sentence = risk.attacker_limits(epsilon=g.epsilon, delta=g.delta or 0.0).sentence
        lines.append(f"{f'**{name}.** ' if name else ''}{claim}{' ' if claim else ''}{sentence}")
    unbounded: dict[str, list[str]] = {}  # reason -> the releases it holds for (one line per reason)
    for name, g in named.items():
        if not g.is_dp:
            unbounded.setdefault(no_bound_reason(g), []).append(name)
    for reason, names in unbounded.items():
        who = ", ".join(f"**{n}**" for n in names if n) or "This release"
        verb = "promises" if len(names) == 1 else "promise"
        lines.append(f"{who} {verb} no bound on what an attacker learns about you: {reason}.")
    st.caption("  \n".join(f"{ICON} {line}" for line in lines))
    if not bounded and measured is None:
        return
    if st.toggle(
        CURVE_LABEL,
        value=False,
        key=key,
        help="The best attacker's true-positive rate at each "
        "false-positive rate: no test does better against this release. Drawn only while this is on.",
    ):
        pairs = list(dict.fromkeys((float(g.epsilon), float(g.delta or 0.0)) for g in bounded.values()))
        attacks = list(measured()) if measured is not None else []
        fig, alt = curve_figure(pairs, attacks)
        show_figure(fig, alt=alt, key=f"{key}_chart")


def measured_attack_view(attacks: Iterable[risk.MeasuredAttack], *, epsilon, delta, key: str) -> None:
    """A measured attack (the Bayesian page's membership inference) beside the bound at (ε, δ), on the same axes."""
    fig, alt = curve_figure([(float(epsilon), float(delta))], list(attacks))
    show_figure(fig, alt=alt, key=key)


ROC_POINTS = 600
"""At most this many points of a measured ROC are drawn (an audit's has one per distinct score: 100,000 and more)."""


def thin_roc(fpr, tpr, points: int = ROC_POINTS):
    """The ROC's vertices at evenly spaced steps along FPR + TPR (non-decreasing), its ends kept: the same picture
    at a plotly cost that does not grow with the runs."""
    fpr, tpr = np.asarray(fpr, dtype=float), np.asarray(tpr, dtype=float)
    if fpr.size <= points:
        return fpr, tpr
    idx = np.unique(np.searchsorted(fpr + tpr, np.linspace(0.0, 2.0, points), side="left").clip(0, fpr.size - 1))
    idx = np.unique(np.concatenate([[0], idx, [fpr.size - 1]]))
    return fpr[idx], tpr[idx]


def _where(eps: float, delta: float) -> str:
    return f"ε = {eps:g}" + (f", δ = {delta:g}" if delta else "")


def curve_figure(pairs: list[tuple[float, float]], attacks: list[risk.MeasuredAttack]) -> tuple[go.Figure, str]:
    """The bound's curve at each (ε, δ), the diagonal (a coin) and each measured attack (ROC, point, proven corner)."""
    x = risk.FPR_GRID
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=x, y=x, mode="lines", name="a coin: no information", line=dict(color=NEUTRAL, dash="dot"))
    )
    for i, (eps, delta) in enumerate(pairs):
        style = series_style(i)
        fig.add_trace(
            go.Scatter(
                x=x,
                y=risk.tradeoff(x, epsilon=eps, delta=delta),
                mode="lines",
                name=f"bound at {_where(eps, delta)}: no attacker above",
                line=dict(color=REFERENCE if i == 0 else style.colour, dash=style.dash, width=3),
            )
        )
    for j, a in enumerate(attacks):
        style = series_style(3 + j)  # dashdot / longdash …: never the coin's dots or a bound's dash
        roc_x, roc_y = thin_roc(a.roc_fpr, a.roc_tpr)
        fig.add_trace(go.Scatter(x=roc_x, y=roc_y, mode="lines", name=f"{a.name}: every threshold", line=style.line()))
        fig.add_trace(
            go.Scatter(
                x=[a.fpr], y=[a.tpr], mode="markers", name=f"{a.name}: the chosen test", marker=style.marker(size=12)
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[a.fpr_upper],
                y=[a.tpr_lower],
                mode="markers",
                name=f"{a.name}: what the runs prove (FPR⁺, TPR⁻)",
                marker=dict(
                    color=style.colour, symbol=f"{style.symbol}-open", size=14, line=dict(width=2, color=style.colour)
                ),
            )
        )
    fig.update_layout(
        title="What an attacker can tell: insiders caught against outsiders flagged",
        xaxis=dict(title="false-positive rate: outsiders flagged “in”", range=[0, 1]),
        yaxis=dict(title="true-positive rate: insiders caught", range=[0, 1.02]),
        height=420,
    )
    bounds = "; ".join(
        f"at {_where(e, d)} a test flagging 10 % of outsiders catches at most "
        f"{risk.percent_at_most(risk.tradeoff(0.1, epsilon=e, delta=d))} of insiders"
        for e, d in pairs
    )
    seen = "; ".join(f"{a.name} measured TPR {a.tpr:.3f} at FPR {a.fpr:.3f}" for a in attacks)
    alt = (
        "Trade-off curve: the best attacker's true-positive rate at each false-positive rate, above the diagonal "
        + (f"({bounds})" if bounds else "(no bound)")
        + (f"; {seen}." if seen else ".")
    )
    return fig, alt


PUBLIC_SEED_CAVEAT = (
    "The seed is public (reproducible mode), so anyone can recompute this noise and the view protects no one: "
    "what follows holds **only if the noise were secret** (private mode)."
)
"""Said before every attacker's sentence while the noise is drawn from the public seed."""


def session_line(releases: int, total) -> str:
    """The session's total in the sentence's words: "after the 7 releases you viewed: at most 99.98 % sure".

    ``total`` is the budget's composed total (:class:`dpcore.lab.budget.ComposedBudget`): its ε and δ bound the
    attacker only when it is DP (green). An orange total (random DP, DP given a non-private part) proves nothing per
    person about the releases it includes — those releases' own view says "no bound" — so neither does the total; a
    red one is not DP at all. With δ > 0 the bound is stated at ε + ln 2, where (ε, δ)-DP proves it except with
    probability at most 2δ (:func:`dpcore.lab.risk.loss_tail_bound`)."""
    seen = f"after the {releases} release{'' if releases == 1 else 's'} you viewed"
    if not releases:
        return (
            f"{ICON} Nothing viewed yet: an attacker who thought it a coin flip that you are in this data still does."
        )
    epsilon, delta, colour = total.epsilon, total.delta, getattr(total, "colour", "green")
    if epsilon is None or colour == "red":
        return f"{ICON} {seen.capitalize()}: no bound on what an attacker learns about you (a release is not DP)."
    if colour == "orange":
        return (
            f"{ICON} {seen.capitalize()}: no bound on what an attacker learns about you — a release among them is "
            "random DP or DP only given a non-private part, which promises no per-person bound."
        )
    lim = risk.attacker_limits(epsilon=epsilon, delta=delta or 0.0)
    tail = f" (except with probability at most {lim.tail:.2g}, the (ε, δ) bound at ε + ln 2)" if delta else ""
    public = noise_mode() == REPRODUCIBLE  # issue 42 item 5: the seed is public, so the bound is hypothetical
    who = "if the noise were secret (private mode), " if public else ""
    return (
        f"{ICON} {seen.capitalize()}: {who}someone who thought it a coin flip that you are in this data could be at "
        f"most {risk.percent_at_most(lim.posterior)} sure{tail}."
        + (" The seed is public, so as it is, these views protect no one." if public else "")
    )
