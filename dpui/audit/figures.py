"""Figures, tables and sentences of the Privacy audit page (builders return ``(figure, alt)``).

No maths here: every number comes from the :class:`dpcore.audit.AuditResult` of a run.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dpcore.audit import ScenarioRun
from dpcore.guarantees import Guarantee, approximate_dp, no_protection, pure_dp
from dpcore.lab.risk import MeasuredAttack, audit_attack
from dpui.common.charts import REFERENCE, series_style
from dpui.common.texts import text


def score_histogram(run: ScenarioRun) -> tuple[go.Figure, str]:
    """The two score distributions (all trials) and the chosen event's threshold, with alt text.

    Binned here, not in the browser: the figure (and its Numbers table) holds ~60 bars per dataset whatever the
    number of trials, instead of every score (200,000 of them at the Laplace pair's 100,000 trials took ~0.4 s
    per rerun and 0.2 GB more)."""
    r = run.result
    a, b = r.scores_d, r.scores_d_prime
    lo, hi = float(np.min([a.min(), b.min()])), float(np.max([a.max(), b.max()]))
    if np.isfinite(lo) and np.isfinite(hi) and np.unique(np.concatenate([a, b])).size <= 12:
        size = max((hi - lo) / 10, 0.5) if hi > lo else 1.0
        start, end = lo - 0.5, hi + 0.5
    else:
        lo_q, hi_q = np.quantile(np.concatenate([a, b]), [0.001, 0.999])
        start, end = float(lo_q), float(hi_q)
        size = (end - start) / 60 or 1.0
    edges = start + size * np.arange(int(np.ceil((end - start) / size)) + 1)
    centres = (edges[:-1] + edges[1:]) / 2
    fig = go.Figure()
    for i, (name, s) in enumerate((("runs on D", a), ("runs on D'", b))):
        counts, _ = np.histogram(s, bins=edges)
        fig.add_trace(
            go.Bar(
                x=centres, y=counts / max(len(s), 1), width=size, name=name, opacity=0.55, marker=series_style(i).bar()
            )
        )
    fig.add_vline(
        x=r.event.threshold,
        line_dash="dash",
        line_color=REFERENCE,
        annotation_text=f"event: score {r.event.direction} {r.event.threshold:.4g}",
    )
    fig.update_layout(
        barmode="overlay",
        bargap=0,
        title="Scores of the two output distributions",
        xaxis_title="score of one output",
        yaxis_title="share of runs",
        height=380,
    )
    alt = (
        f"Overlaid histograms of the score of each output, {r.trials:,} runs on D and {r.trials:,} on D', with "
        f"a dashed line at the chosen event's threshold, score {r.event.direction} {r.event.threshold:.4g}."
    )
    return fig, alt


def bound_figure(run: ScenarioRun) -> tuple[go.Figure, str]:
    """ε lower bound against the claimed ε on one axis, with alt text."""
    r = run.result
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            y=["measured"],
            x=[r.epsilon_lower],
            orientation="h",
            name="ε lower bound (95 % one-sided)"
            if r.confidence == 0.95
            else f"ε lower bound ({r.confidence:.0%} one-sided)",
            marker=series_style(3 if r.violates_claim else 2).bar(),
            text=[f"{r.epsilon_lower:.3f}"],
            textposition="outside",
        )
    )
    top = max(r.epsilon_lower, r.epsilon_claimed or 0.0) * 1.3 + 0.2
    if r.epsilon_claimed is not None:
        fig.add_vline(
            x=r.epsilon_claimed,
            line_color=REFERENCE,
            line_width=3,
            annotation_text=f"claimed ε = {r.epsilon_claimed:g}",
        )
    fig.update_layout(
        title="What the audit proves about ε, against the claim",
        height=230,
        xaxis=dict(title="ε (nats); the true ε is at least the bar", range=[0, top]),
        showlegend=False,
    )
    claim = "no claimed ε" if r.epsilon_claimed is None else f"a vertical line at the claimed ε = {r.epsilon_claimed:g}"
    return fig, f"Bar: the measured lower bound on ε, {r.epsilon_lower:.2f}, against {claim}."


def claim_text(run: ScenarioRun) -> str:
    """The claimed guarantee in words."""
    r = run.result
    if r.epsilon_claimed is None:
        return "none (not differentially private)"
    return f"ε = {r.epsilon_claimed:g}" + (f", δ = {r.delta:g}" if r.delta > 0 else " (pure DP, δ = 0)")


def claimed_guarantee(run: ScenarioRun) -> Guarantee:
    """The guarantee the audited mechanism claims (a claim, not a proof: a broken variant claims it too)."""
    r = run.result
    if r.epsilon_claimed is None:
        return no_protection(promise="The mechanism claims no differential privacy.")
    return (
        approximate_dp(epsilon=r.epsilon_claimed, delta=r.delta) if r.delta > 0 else pure_dp(epsilon=r.epsilon_claimed)
    )


def measured_attacks(run: ScenarioRun) -> list[MeasuredAttack]:
    """The audit's attack on the bound's axes: its chosen test and the ROC of its score (evaluation runs)."""
    return [audit_attack(run.result, name="the audit's attack" + (" (broken variant)" if run.broken else ""))]


def probability_rows(run: ScenarioRun) -> list[dict]:
    """p̂ of the event on D and D' (evaluation half) with the Clopper–Pearson bounds, as table rows."""
    r = run.result
    return [
        {
            "dataset": name,
            "runs in the event": k,
            "evaluation runs": r.n_eval,
            "share": k / r.n_eval,
            f"lower bound ({r.bound_level:.1%})": iv[0],
            f"upper bound ({r.bound_level:.1%})": iv[1],
        }
        for name, k, iv in (("D", r.count_d, r.interval_d), ("D'", r.count_d_prime, r.interval_d_prime))
    ]


def verdict(run: ScenarioRun) -> tuple[str, str]:
    """(kind, sentence): what the result means and what it does not. kind is "caught" or "passed"."""
    r = run.result
    values = {"conf": f"{r.confidence:.0%}", "bound": r.epsilon_lower, "claim": r.epsilon_claimed}
    if r.epsilon_claimed is None:
        return "caught", text("audit", "caught_no_claim", **values)
    if r.violates_claim:
        return "caught", text("audit", "caught", **values)
    return "passed", text("audit", "passed", **values)


def export_records(run: ScenarioRun, label: str) -> list[dict]:
    """One row with the counts, intervals, event and bound of the run (no raw scores)."""
    row = {
        "mechanism": label,
        "variant": run.variant,
        "broken": run.broken,
        **run.result.as_dict(),
        "seconds": round(run.seconds, 3),
        "cpu_seconds": round(run.cpu_seconds, 3),
    }
    return [row]
