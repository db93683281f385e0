"""Plotly keyword views measured against the page's Vega-Lite chart by bench_topicdp_views.py (issue 29 item 3):
``keyword_figure``, the page's view before issue 29 (one six-panel figure per topic), and ``keyword_bars_figure``, one
axis of grouped bars (a candidate). Kept here, out of dpui, so the benchmark's "before" stays reproducible."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dpui.common.charts import NEUTRAL, mechanism_style


def keyword_figure(table, releases, label: str, i: int) -> tuple[go.Figure, str]:
    """Topic i's keywords before (grey) and after each mechanism's noise, one panel per mechanism.

    Built from a plain dict without plotly's per-property validation: make_subplots and validation took
    most of a rerun (4 figures × ~60 ms), and this page must rerun in well under 300 ms when ε moves.
    """
    order = np.argsort(-table.matrix[i])
    words = [table.words[j] for j in order]
    data, layout = [], {}
    k = len(releases)
    step = 1.0 / k
    for c, (mech, rel) in enumerate(releases.items()):
        suffix = "" if c == 0 else str(c + 1)
        common = {"type": "bar", "x": words, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}", "legendgroup": mech}
        data.append(
            {**common, "y": table.matrix[i, order].tolist(), "name": "before noise", "marker": {"color": NEUTRAL}}
        )
        data.append(
            {
                **common,
                "y": rel.matrix[i, order].tolist(),
                "name": f"after {mech}",
                "marker": mechanism_style(mech).bar(),
            }
        )
        layout[f"xaxis{suffix}"] = {
            "domain": [c * step, c * step + step * 0.92],
            "anchor": f"y{suffix}",
            "title": {"text": "keyword (left: most probable)" if c == 0 else ""},
        }
        layout[f"yaxis{suffix}"] = {
            "anchor": f"x{suffix}",
            **(
                {"matches": "y", "showticklabels": False}
                if c
                else {"title": {"text": "probability (higher = more typical)"}}
            ),
        }
    layout.update(
        barmode="group",
        height=360,
        showlegend=False,
        title={"text": f"{label} — plain grey: before noise; coloured, patterned: after each mechanism's noise"},
        annotations=[
            {
                "text": f"<b>{mech}</b>",
                "x": c * step + step * 0.46,
                "y": 1.0,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
            }
            for c, mech in enumerate(releases)
        ],
    )
    alt = (
        f"Bar charts for {label}: the {len(words)} keyword probabilities before noise (grey) and after the noise "
        f"of {', '.join(releases)}, side by side."
    )
    return go.Figure({"data": data, "layout": layout}, _validate=False), alt


def keyword_bars_figure(table, releases, label: str, i: int) -> tuple[go.Figure, str]:
    """Topic i's keywords before noise (grey) and after each mechanism's noise as grouped bars on one axis (a
    candidate for the page's default view, issue 29 item 3: measured, then not chosen).

    Each mechanism keeps its colour and bar pattern; the legend names them. Built from a plain dict (no plotly
    validation), like :func:`keyword_figure`."""
    order = np.argsort(-table.matrix[i])
    words = [table.words[j] for j in order]
    data = [{"type": "bar", "x": words, "y": table.matrix[i, order].tolist(), "name": "before noise"}]
    data[0]["marker"] = {"color": NEUTRAL}
    data += [
        {
            "type": "bar",
            "x": words,
            "y": rel.matrix[i, order].tolist(),
            "name": f"after {mech}",
            "marker": mechanism_style(mech).bar(),
        }
        for mech, rel in releases.items()
    ]
    layout = {
        "barmode": "group",
        "bargap": 0.25,
        "height": 420,
        "title": {"text": f"{label} — grey: before noise; coloured, patterned: after each mechanism's noise"},
        "xaxis": {"title": {"text": "keyword (left: most probable before noise)"}, "automargin": True},
        "yaxis": {"title": {"text": "probability (higher = more typical)"}},
        "showlegend": True,
    }
    alt = (
        f"Grouped bar chart for {label}: for each of its {len(words)} keywords, the probability before noise (grey) "
        f"and after the noise of {', '.join(releases)}, side by side."
    )
    return go.Figure({"data": data, "layout": layout}, _validate=False), alt
