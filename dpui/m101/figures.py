"""Figure builders of the Mechanisms 101 page (Habernal, lecture 4; SPEC §1): each returns figure and alt text.

The densities and the privacy loss come from dpcore; the builders only arrange them.
"""

from __future__ import annotations

import textwrap

import numpy as np
import plotly.graph_objects as go

from dpcore.lab.lecture import CANDIDATE_CITIES, SOCIETY_MEMBERS
from dpcore.mechanisms import laplace_pdf, laplace_privacy_loss
from dpui.common.charts import REFERENCE, TITLE_CHARS, cell_axes, grid_figure, series_style

MEMBER, OTHER = series_style(1), series_style(0)  # cities where a member lives / the others


def loss_chart(y, a, a2, b, bound, title, *, promise: str) -> tuple[list[dict], dict]:
    """Two Laplace densities (true answers a and a2, scale b) on top, the privacy loss L(y) with ±ε (the series
    ``promise``) below, as one Vega-Lite chart of two panels sharing the released value's axis (issue 29: the same
    two-panel Plotly figure cost the browser about 0.2 s per ε move, its second axis half of it).

    Returns ``(rows, spec)``: the plotted rows (panel, series, released value y, value) and the spec without data."""
    d1, d2 = f"p(y | D), true answer {a:,g}", f"p(y | D'), true answer {a2:,g}"
    y = np.asarray(y, dtype=float)
    loss = laplace_privacy_loss(y, true_answer=a, neighbour_answer=a2, scale=b)
    rows = [
        {"panel": "density", "series": name, "part": name, "released value y": float(x), "value": float(v)}
        for name, vals in ((d1, laplace_pdf(y, loc=a, scale=b)), (d2, laplace_pdf(y, loc=a2, scale=b)))
        for x, v in zip(y, vals)
    ]
    rows += [
        {"panel": "loss", "series": "L(y)", "part": "L(y)", "released value y": float(x), "value": float(v)}
        for x, v in zip(y, loss)
    ]
    rows += [
        {
            "panel": "loss",
            "series": promise,
            "part": f"{s:+d}ε",
            "released value y": float(x),
            "value": s * float(bound),
        }
        for s in (1, -1)
        for x in (y[0], y[-1])
    ]
    names = [d1, d2, "L(y)", promise]
    colours = [series_style(0).colour, series_style(1).colour, REFERENCE, series_style(2).colour]
    x = {"field": "released value y", "type": "quantitative", "scale": {"domain": [float(y[0]), float(y[-1])]}}
    colour = {
        "field": "series",
        "type": "nominal",
        "scale": {"domain": names, "range": colours},
        "legend": {"orient": "bottom", "title": None, "columns": 1, "labelLimit": 320},  # whole labels, on a phone too
    }
    dash = {
        "field": "series",
        "type": "nominal",
        "scale": {"domain": names, "range": [[1, 0], [6, 3], [1, 0], [4, 4]]},
        "legend": None,
    }
    tooltip = [
        {"field": "series", "type": "nominal"},
        {"field": "released value y", "type": "quantitative", "format": ".4g"},
        {"field": "value", "type": "quantitative", "format": ".4g"},
    ]

    def panel(which: str, heading: str, y_title: str, x_title: str | None) -> dict:
        return {
            "title": {"text": heading, "fontSize": 14, "fontWeight": "normal", "anchor": "start"},
            "height": 200,
            "transform": [{"filter": f"datum.panel == '{which}'"}],
            "mark": {"type": "line", "strokeWidth": 2},
            "encoding": {
                "x": {**x, "title": x_title},
                "y": {"field": "value", "type": "quantitative", "title": y_title},
                "color": colour,
                "strokeDash": dash,
                "detail": {"field": "part", "type": "nominal"},
                "tooltip": tooltip,
            },
        }

    spec = {
        "title": {"text": textwrap.wrap(title, TITLE_CHARS), "anchor": "start"},  # lines that fit a phone
        "vconcat": [
            panel("density", "Output densities", "density", None),
            panel("loss", "Privacy loss L(y) = ln p(y|D)/p(y|D')", "L(y) (nats)", "released value y"),
        ],
        "resolve": {"scale": {"color": "shared", "strokeDash": "shared"}},
    }
    return rows, spec


LABEL_POSITIONS = {
    "Toronto": "middle left",
    "New York": "middle right",
    "Washington": "bottom center",
    "Memphis": "bottom center",
}
"""Where a city's name goes beside its marker (the north-east cities are close together); others: above."""


def cities_figure(ex) -> tuple[go.Figure, str]:
    """The candidate cities on a map; marker size = selection probability under D; a cross at the members' mean.
    Cities where a member lives and the others are two series (the legend shows their markers; no shape is
    named in words), and the axes leave room for every city's name."""
    names = list(CANDIDATE_CITIES)
    lat = [CANDIDATE_CITIES[c][0] for c in names]
    lon = [CANDIDATE_CITIES[c][1] for c in names]
    member_cities = set(SOCIETY_MEMBERS.values())
    mean = ex.centre
    fig = go.Figure()
    for style, name, members in ((MEMBER, "a member lives here", True), (OTHER, "no member lives here", False)):
        idx = [i for i, c in enumerate(names) if (c in member_cities) == members]
        fig.add_trace(
            go.Scatter(
                x=[lon[i] for i in idx],
                y=[lat[i] for i in idx],
                mode="markers+text",
                text=[names[i] for i in idx],
                name=name,
                cliponaxis=False,
                textposition=[LABEL_POSITIONS.get(names[i], "top center") for i in idx],
                marker=style.marker(size=[10 + 60 * ex.probabilities[0][i] for i in idx]),
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[mean[1]],
            y=[mean[0]],
            mode="markers",
            marker=dict(symbol="x", size=14, color=REFERENCE),
            name="members' mean",
        )
    )
    fig.update_layout(
        title="Candidate cities (marker size = Pr under D)",
        xaxis_title="longitude (°)",
        yaxis_title="latitude (°)",
        height=430,
    )
    fig.update_xaxes(range=[min(lon) - 14, max(lon) + 22])  # room for "Los Angeles" and "New York" beside the points
    fig.update_yaxes(range=[min(lat) - 5, max(lat) + 5])
    alt = (
        "Scatter of the seven candidate cities by longitude and latitude, cities where a member lives apart from "
        "the others; marker size shows the probability of being chosen under D; a cross marks the members' mean "
        "near Memphis."
    )
    return fig, alt


def selection_figure(ex) -> tuple[go.Figure, str]:
    """Grouped bars: each city's selection probability under D and under each neighbour."""
    fig = go.Figure()
    for i, nb in enumerate(ex.neighbours):
        fig.add_trace(go.Bar(x=list(ex.cities), y=ex.probabilities[i], name=nb, marker=series_style(i).bar()))
    fig.update_layout(
        barmode="group",
        title="Selection probabilities under D and each neighbour",
        yaxis_title="Pr[M = city]",
        xaxis_title="city",
        height=430,
    )
    alt = (
        "Grouped bars: for each city, its selection probability under D and under each of the four neighbours "
        "that lack one member."
    )
    return fig, alt


def sampling_figure(
    xs, fd, fn, emp, *, other: str, unit: str, bound: float, n: int, seed: int
) -> tuple[go.Figure, str]:
    """Empirical frequencies under D and D' (left) and their ratio against e^ε (right)."""
    fig = grid_figure(1, 2, titles=("Empirical frequencies", "Empirical ratio vs e^ε"))
    fig.add_trace(go.Bar(x=xs, y=fd, name="D", marker=series_style(0).bar(), **cell_axes(1)))
    fig.add_trace(go.Bar(x=xs, y=fn, name=other, marker=series_style(1).bar(), **cell_axes(1)))
    fig.add_trace(go.Bar(x=xs, y=emp, name="max(f_D/f_D', f_D'/f_D)", marker=series_style(2).bar(), **cell_axes(2)))
    fig.add_trace(
        go.Scatter(
            x=[xs[0], xs[-1]] if unit != "city" else xs,
            y=[bound] * (2 if unit != "city" else len(xs)),
            mode="lines",
            line=dict(dash="dash", color=REFERENCE),
            name="e^ε",
            **cell_axes(2),
        )
    )
    fig.update_layout(
        barmode="group",
        height=420,
        title=f"{n:,} draws from M(D) and M(D') (seed {seed})",
        yaxis_title="share of draws",
        yaxis2_title="frequency ratio",
        xaxis_title=unit,
        xaxis2_title=unit,
    )
    alt = (
        f"Left: frequencies over {n} draws under D and under {other}. Right: the ratio of the two frequencies per "
        f"{unit} against the dashed line e^ε = {bound:.3f}."
    )
    return fig, alt
