"""Figure builders of the Mechanisms 101 page (Habernal, lecture 4; SPEC §1): each returns figure and alt text.

The densities and the privacy loss come from dpcore; the builders only arrange them.
"""

from __future__ import annotations

import plotly.graph_objects as go

from dpcore.lab.lecture import CANDIDATE_CITIES, SOCIETY_MEMBERS
from dpcore.mechanisms import laplace_pdf, laplace_privacy_loss
from dpui.common.charts import REFERENCE, cell_axes, grid_figure, series_style

MEMBER, OTHER = series_style(1), series_style(0)  # cities where a member lives / the others


def loss_figure(y, a, a2, b, bound, title) -> go.Figure:
    """Two Laplace densities (true answers a and a2, scale b) on top, the privacy loss L(y) with ±ε below."""
    fig = grid_figure(2, 1, titles=("Output densities", "Privacy loss L(y) = ln p(y|D)/p(y|D')"), shared_x=True)
    fig.add_trace(
        go.Scatter(
            x=y,
            y=laplace_pdf(y, loc=a, scale=b),
            name=f"p(y | D), true answer {a:,g}",
            line=series_style(0).line(),
            **cell_axes(1),
        )
    )
    fig.add_trace(
        go.Scatter(
            x=y,
            y=laplace_pdf(y, loc=a2, scale=b),
            name=f"p(y | D'), true answer {a2:,g}",
            line=series_style(1).line(),
            **cell_axes(1),
        )
    )
    loss = laplace_privacy_loss(y, true_answer=a, neighbour_answer=a2, scale=b)
    fig.add_trace(go.Scatter(x=y, y=loss, name="L(y)", line=dict(color=REFERENCE), **cell_axes(2)))
    for s in (1, -1):
        fig.add_trace(
            go.Scatter(
                x=[y[0], y[-1]],
                y=[s * bound] * 2,
                mode="lines",
                line=series_style(2).line(dash="dash"),
                name="±ε (the promise)",  # dpui.m101.views.PROMISE: its legend tag is "reference"
                showlegend=s == 1,
                **cell_axes(2),
            )
        )
    fig.update_layout(
        title=title, height=560, yaxis_title="density", yaxis2_title="L(y) (nats)", xaxis2_title="released value y"
    )
    return fig


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
