"""Figure and table builders of the TopicDP page (thesis 004): each figure comes with its alt text.

No maths here: the builders only arrange what dpcore released, sampled or measured.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dpcore import topicdp as tdp
from dpcore.topicdp import sensitivity_sampler_size
from dpcore.topicdp import vips_comparison as tv
from dpui.common.charts import NEUTRAL, REFERENCE, add_band, band_figure, mechanism_style, series_style, tagged

METRIC_AXES = {
    "l1": "L1 distance Σ|W − W′| (lower is better)",
    "rmse": "RMSE of the matrix entries (lower is better)",
    "kendall": "Kendall's tau distance of keyword ranks (lower is better)",
}
CURVE_X_AXES = {
    "epsilon": "ε (privacy loss; right = weaker privacy)",
    "gamma": "γ (share of neighbours not covered; right = weaker guarantee)",
    "size": "matrix size m = n (right = larger table)",
}


def topic_labels(table) -> list[str]:
    """'Topic 1: word, word, word' — each topic with its three most probable keywords before noise."""
    return [
        f"Topic {i + 1}: " + ", ".join(table.words[j] for j in np.argsort(-table.matrix[i])[:3])
        for i in range(table.matrix.shape[0])
    ]


def keyword_facet_chart(table, releases, label: str, i: int) -> tuple[list[dict], dict, str]:
    """Topic i's keywords before noise (grey) and after each mechanism's noise, one small panel per mechanism, as
    one Vega-Lite chart faceted by mechanism: the page's default view (issue 29 item 3). The same reading as
    the six-panel Plotly figure per topic it replaces at about a quarter of the browser's work per ε move (measured:
    benchmarks/bench_topicdp_views.py). Each panel is headed by its mechanism's name (mechanisms are not told apart
    by colour alone); colours are the mechanisms' Okabe–Ito colours; every panel has the same y scale.

    Returns ``(rows, spec, alt)``: the plotted rows (also the chart's numbers table), the Vega-Lite spec (without its
    data) and the alt text."""
    order = np.argsort(-table.matrix[i])
    words = [table.words[j] for j in order]
    panel = {mech: tagged(mech, rel.guarantee) for mech, rel in releases.items()}  # "Laplace · DP for part" (issue 31)
    rows = [
        {
            "mechanism": panel[mech],
            "keyword": table.words[j],
            "rank": rank + 1,
            "stage": stage,
            "probability": float(matrix[i, j]),
        }
        for mech, rel in releases.items()
        for rank, j in enumerate(order)
        for stage, matrix in (("before noise", table.matrix), (f"after {mech}", rel.matrix))
    ]
    stages = ["before noise", *(f"after {mech}" for mech in releases)]
    colours = [NEUTRAL, *(mechanism_style(mech).colour for mech in releases)]
    spec = {
        "title": {
            "text": f"{label}",
            "subtitle": "In each panel: grey = before noise, coloured = after that mechanism's noise; "
            "keywords from the most probable before noise (left)",
            "anchor": "start",
            "fontSize": 16,
            "subtitleFontSize": 13,
        },
        "facet": {
            "field": "mechanism",
            "type": "nominal",
            "sort": list(panel.values()),
            "title": None,
            "header": {"labelFontSize": 14, "labelFontWeight": "bold", "labelColor": REFERENCE},
        },
        "columns": 3,
        "spec": {
            "width": 250,
            "height": 170,
            "transform": [{"calculate": "indexof(datum.stage, 'before') === 0 ? 'before' : 'after'", "as": "when"}],
            "mark": {"type": "bar", "tooltip": True},
            "encoding": {
                "x": {
                    "field": "keyword",
                    "type": "nominal",
                    "sort": words,
                    "title": None,
                    "axis": {"labelAngle": -45, "labelOverlap": False, "labelFontSize": 12},
                },
                "xOffset": {"field": "when", "type": "nominal", "sort": ["before", "after"]},
                "y": {"field": "probability", "type": "quantitative", "title": "probability"},
                "color": {
                    "field": "stage",
                    "type": "nominal",
                    "scale": {"domain": stages, "range": colours},
                    "legend": None,
                },
            },
        },
        "resolve": {"axis": {"x": "independent"}},
    }
    alt = (
        f"Bar charts for {label}, one panel per mechanism: the {len(words)} keyword probabilities before noise (grey) "
        f"and after the noise of {', '.join(releases)} (coloured), side by side."
    )
    return rows, spec, alt


def add_reference_lines(fig: go.Figure, lines) -> None:
    """Horizontal lines across the plot, each labelled at its left end (or its right end: "top right", "bottom
    right"), above or below it: ``(y, label, colour, dash, "top" | "bottom" | "top right" | "bottom right")``. What ``fig.add_hline(..., annotation_position="top left")`` draws, in one ``update_layout``
    (add_hline validates and copies the whole layout each time: ~30 ms a line)."""
    shapes = [
        {
            "type": "line",
            "xref": "x domain",
            "x0": 0,
            "x1": 1,
            "yref": "y",
            "y0": y,
            "y1": y,
            "line": {"color": colour, "dash": dash},
        }
        for y, _, colour, dash, _ in lines
    ]
    notes = [
        {
            "text": label,
            "showarrow": False,
            "xref": "x domain",
            "x": 1 if where.endswith("right") else 0,
            "xanchor": "right" if where.endswith("right") else "left",
            "yref": "y",
            "y": y,
            "yanchor": "bottom" if where.startswith("top") else "top",
        }
        for y, label, _, _, where in lines
    ]
    fig.update_layout(shapes=[*fig.layout.shapes, *shapes], annotations=[*fig.layout.annotations, *notes])


def curve_figure(
    curve, parameter: str, metric: str, *, fixed: str, delta: float, reps: int, log_y: bool, extra=None
) -> tuple[go.Figure, str]:
    """Mean error and 10–90 % band of each mechanism against ε, γ or the table size; ``extra``: more series on their
    own x values, ``{name: (x, (mean, p10, p90))}`` (VIPS-LDA, and the public-only fit with a None band)."""
    fig = band_figure(
        curve.values,
        {mech: curve.stats[metric][mech] for mech in tdp.TOPIC_MECHANISMS},
        title=f"{METRIC_AXES[metric].split(' (')[0]} vs {parameter} ({fixed}, δ = {delta:g}; "
        f"mean and 10–90 % band over {reps} draws)",
        x_title=CURVE_X_AXES[parameter],
        y_title=METRIC_AXES[metric] + (" — log scale" if log_y else ""),
        log_y=log_y,
    )
    for name, (x, (mean, lo, hi)) in (extra or {}).items():
        add_band(fig, name, x, mean, lo, hi)
    names = list(tdp.TOPIC_MECHANISMS) + list(extra or {})
    alt = (
        f"Line chart: {METRIC_AXES[metric]} of {', '.join(names)} against {parameter}, mean with "
        "a shaded 10 to 90 percent band."
    )
    return fig, alt


def vips_prompts_figure(sweep, *, before: int | None, public: int) -> tuple[go.Figure, str]:
    """VIPS-LDA's own released topics matched to distinct prompts against ε (log x), with the public-only fit, the
    page's table before noise and half of the table's topics as reference lines."""
    fig = band_figure(
        sweep.epsilons,
        {tv.VIPS_NAME: (sweep.matched, None, None)},
        title=f"VIPS-LDA: released topics matched to a distinct prompt (mean of {sweep.draws} releases per ε)",
        x_title="ε (privacy loss, log scale; right = weaker privacy)",
        y_title=f"topics of {sweep.m} matched (higher = a reader tells what people talked about)",
        log_x=True,
    )
    # the public-only fit's label goes under its line when the table's line is at (nearly) the same height: the two
    # labels fell on each other (issue 31 item 11)
    close = before is not None and abs(before - public) < 0.08 * sweep.m
    lines = [
        (public, f"{tv.PUBLIC_ONLY_NAME} (0-DP)", "dot", "bottom" if close else "top"),
        (sweep.m / 2, "half of the topics", "dashdot", "top"),
    ]
    if before is not None:
        lines.insert(0, (before, "the page's table before noise", "dash", "top"))
    add_reference_lines(
        fig,
        [(y, f"{name}: {y:.2g}", NEUTRAL if dash == "dot" else REFERENCE, dash, at) for y, name, dash, at in lines],
    )
    alt = (
        f"Line chart: how many of the {sweep.m} topics VIPS-LDA releases match a distinct conversation prompt, for "
        f"ε from {sweep.epsilons[0]:g} to {sweep.epsilons[-1]:g}, beside the public-only fit and the table before "
        "noise."
    )
    return fig, alt


def vips_vs_thesis_figure(sweep, thesis, *, public: float, m: int, n: int) -> tuple[go.Figure, str]:
    """L1 on the page's table against ε far beyond the slider (log x): TopicDP as in the thesis (the same draws at
    every ε) and VIPS-LDA (mean and 10–90 % band), the public-only fit as a line."""
    fig = band_figure(
        tv.THESIS_EPSILONS,
        {"TopicDP": (thesis, None, None)},
        title=f"L1 to the {m} × {n} table: where TopicDP (as in the thesis) reaches VIPS-LDA",
        x_title="ε (privacy loss, log scale; far beyond the slider's 10 for TopicDP)",
        y_title=f"L1 distance (lower is better; at most {2 * m})",
        log_x=True,
    )
    add_band(fig, tv.VIPS_NAME, sweep.epsilons, *sweep.stats["l1"])
    add_reference_lines(fig, [(public, f"{tv.PUBLIC_ONLY_NAME} (0-DP): {public:.3g}", NEUTRAL, "dot", "bottom")])
    alt = (
        f"Line chart: mean L1 distance to the {m} × {n} table of TopicDP as in the thesis for ε from 0.1 to a "
        "million, and of VIPS-LDA for ε from 0.1 to 10, with the public-only fit as a horizontal line."
    )
    return fig, alt


def sensitivity_histogram(sens, m: int, n: int) -> tuple[go.Figure, str]:
    """The sampled distances ‖f(D) − f(D′)‖_F with the chosen Δ_s marked."""
    delta_s = sens.delta_s
    hist = go.Figure(go.Histogram(x=sens.draws, nbinsx=40, marker_color=series_style(0).colour, name="Δ_i"))
    hist.update_layout(
        shapes=[
            {
                "type": "line",
                "x0": delta_s,
                "x1": delta_s,
                "y0": 0,
                "y1": 1,
                "yref": "paper",
                "line": {"dash": "dash", "color": REFERENCE},
            }
        ],
        annotations=[
            {
                "x": delta_s,
                "y": 1,
                "yref": "paper",
                "text": f"Δ_s = {delta_s:.3g} (k = {sens.k})",
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "bottom",
            }
        ],
    )
    hist.update_layout(
        title=f"The {sens.h} sampled distances ‖f(D) − f(D′)‖_F for a {m} × {n} table",
        xaxis_title="Frobenius distance between neighbours' tables (right = larger change)",
        yaxis_title="number of sampled pairs (higher = more common)",
    )
    return hist, f"Histogram of the {sens.h} sampled sensitivities with the chosen Δ_s marked."


def gamma_table(draws, m: int, n: int) -> list[dict]:
    """For a range of γ: the pairs h and rank k it needs, and Δ_s where enough pairs are stored."""
    rows = []
    for g in (0.02, 0.05, 0.07, 0.1, 0.12, 0.17, 0.2, 0.22, 0.3):
        sz = sensitivity_sampler_size(gamma=g)
        avail = draws.covers(g)
        rows.append(
            {
                "γ": g,
                "h (pairs)": sz.h,
                "k": sz.k,
                "ρₛ": round(sz.rho, 5),
                "Δₛ": draws.sensitivity(gamma=g, m=m, n=n).delta_s if avail else None,
                "stored": "yes" if avail else f"needs {sz.h - draws.n_pairs:,} more pairs",
            }
        )
    return rows


def survival_figure(curve) -> tuple[go.Figure, str]:
    """Topics a reader still matches to their prompt after each mechanism's noise, against ε (log x), with the
    count before noise and the chance level as reference lines."""
    fig = band_figure(
        curve.epsilons,
        {mech: (kept, None, None) for mech, kept in curve.kept.items()},
        title=f"Topics still matched to their prompt after noise (mean of {curve.draws} draws per ε)",
        x_title="ε (privacy loss, log scale; right = weaker privacy — far beyond the slider's 10)",
        y_title="topics kept (higher = better)",  # short: a long title ran into the chart's title (issue 31 item 11)
        log_x=True,
    )
    # the notes at the right end, where the curves have left the chance level (at the left they run along it)
    lines = (
        (curve.before.matched, "before noise", "dash", "top right"),
        (curve.chance, "chance", "dot", "bottom right"),
    )
    add_reference_lines(
        fig, [(y, f"{name}: {y:.2g}", NEUTRAL if dash == "dot" else REFERENCE, dash, at) for y, name, dash, at in lines]
    )
    alt = (
        f"Line chart: for each mechanism, how many of the {curve.before.matched} topics matched to a prompt before "
        f"noise keep that prompt after noise, for ε from {curve.epsilons[0]:g} to {curve.epsilons[-1]:g}."
    )
    return fig, alt
