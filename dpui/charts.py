"""Chart helpers: one look for every figure, alt text always, mean-and-band curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22")


def show_figure(fig: go.Figure, *, alt: str, key: str | None = None) -> None:
    """Draw a plotly figure full width with alt text (required: say what the chart shows)."""
    if not alt or not alt.strip():
        raise ValueError("alt must describe the chart for screen readers, got an empty string")
    fig.update_layout(margin=dict(l=10, r=10, t=50, b=10), legend=dict(orientation="h", y=-0.2))
    st.plotly_chart(fig, width="stretch", alt=alt, key=key, config={"displaylogo": False})


def _rgba(hex_colour: str, alpha: float) -> str:
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def band_figure(
    x: Sequence[float],
    series: Mapping[str, tuple[Sequence[float], Sequence[float] | None, Sequence[float] | None]],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    dash: Mapping[str, str] | None = None,
) -> go.Figure:
    """Lines for the mean of each series with a shaded band (lower, upper), e.g. over repetitions.

    ``series[name] = (mean, lower, upper)``; pass ``None`` for lower/upper to draw the line only.
    """
    fig = go.Figure()
    xs = list(np.asarray(x, dtype=float))
    for i, (name, (mean, lo, hi)) in enumerate(series.items()):
        colour = PALETTE[i % len(PALETTE)]
        if lo is not None and hi is not None:
            fig.add_trace(go.Scatter(x=xs + xs[::-1], y=list(hi) + list(lo)[::-1], fill="toself",
                                     fillcolor=_rgba(colour, 0.18), line=dict(width=0), hoverinfo="skip",
                                     showlegend=False, name=f"{name} band"))
        fig.add_trace(go.Scatter(x=xs, y=list(mean), mode="lines+markers", name=name,
                                 line=dict(color=colour, dash=(dash or {}).get(name, "solid"))))
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title)
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def badge_text(guarantee, *, name: str = "") -> str:
    """The words of a guarantee badge: the strength in words, then the label (so the badge never relies
    on colour alone): "BayesianDP — not DP: not DP — noise scaled to …"."""
    from dpcore.guarantees import Guarantee

    if not isinstance(guarantee, Guarantee):
        raise TypeError(f"guarantee must be a dpcore.guarantees.Guarantee, got {type(guarantee).__name__}; "
                        "pass the release's .guarantee, never a text label")
    who = f"{name} — " if name else ""
    return f"Guarantee: {who}{guarantee.strength}: {guarantee.label}"


def guarantee_badge(guarantee, *, name: str = "") -> None:
    """Show a release's guarantee: colour, icon and words all derived from the Guarantee's kind (never from
    text matching). Green only for a proven ε-DP / (ε, δ)-DP; orange for random DP, a sensitivity measured
    on the private data, or DP of part of the release; red for k-anonymity and no protection."""
    st.badge(badge_text(guarantee, name=name), icon=guarantee.icon, color=guarantee.colour)


def grid_figure(rows: int, cols: int, *, titles: Sequence[str] = (), shared_x: bool = False,
                v_space: float = 0.12, h_space: float = 0.08) -> go.Figure:
    """A rows × cols grid of axes built directly as layout (plotly's make_subplots costs ~50 ms).

    Cell (r, c), 1-based, uses axes ``x{n}``/``y{n}`` with n = (r−1)·cols + c (n = 1 → "x"/"y");
    add traces with :func:`cell_axes` and set titles with :func:`cell_axis_names`.
    """
    layout: dict = {"annotations": []}
    height = (1 - v_space * (rows - 1)) / rows
    width = (1 - h_space * (cols - 1)) / cols
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            n = (r - 1) * cols + c
            xname, yname = cell_axis_names(n)
            x0 = (c - 1) * (width + h_space)
            y1 = 1 - (r - 1) * (height + v_space)
            layout[xname] = {"domain": [max(0.0, x0), min(1.0, x0 + width)], "anchor": yname.replace("axis", "")}
            layout[yname] = {"domain": [max(0.0, y1 - height), min(1.0, y1)], "anchor": xname.replace("axis", "")}
            if shared_x and r < rows:
                layout[xname]["matches"] = cell_axis_names(rows * cols - cols + c)[0].replace("axis", "")
                layout[xname]["showticklabels"] = False
            if n <= len(titles):
                layout["annotations"].append({"text": titles[n - 1], "x": x0 + width / 2, "y": y1, "xref": "paper",
                                              "yref": "paper", "xanchor": "center", "yanchor": "bottom",
                                              "showarrow": False, "font": {"size": 14}})
    return go.Figure(layout=layout)


def cell_axis_names(n: int) -> tuple[str, str]:
    """Layout keys of cell n's axes: ("xaxis", "yaxis") for n = 1, else ("xaxis2", "yaxis2") …"""
    suffix = "" if n == 1 else str(n)
    return f"xaxis{suffix}", f"yaxis{suffix}"


def cell_axes(n: int) -> dict:
    """Trace keywords placing a trace in cell n: ``go.Scatter(..., **cell_axes(2))``."""
    suffix = "" if n == 1 else str(n)
    return {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
