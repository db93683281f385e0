"""Figure and table builders of the DP n-gram extraction page (paper 003): each figure comes with its alt text.

No maths here: the builders only arrange what dpcore released or evaluated.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from dpui.common.charts import NEUTRAL, REFERENCE, mechanism_style, series_style
from dpui.dpne.data import ETA_OPTIONS

LENGTH_AXIS = "n-gram length k (tokens)"


def _count_axis(fig: go.Figure, log_y: bool) -> None:
    """The y-axis of released k-grams per length, linear or log, and integer ticks on k."""
    fig.update_layout(yaxis_title="number of k-grams released (higher is better)" + (" — log scale" if log_y else ""))
    fig.update_xaxes(dtick=1)
    if log_y:
        fig.update_yaxes(type="log")


def sizes_figure(series: dict, T: int, *, title: str, log_y: bool) -> tuple[go.Figure, str]:
    """Grouped bars of |S_k| per length for DPNE and the DPSU variants (003 Fig. 1)."""
    lengths = list(range(1, T + 1))
    bars = [
        {"type": "bar", "x": lengths, "y": [sizes.get(k, 0) for k in lengths], "name": name}
        | {"marker": mechanism_style(name).bar()}
        for name, sizes in series.items()
    ]
    y_title = "number of k-grams released (higher is better)" + (" — log scale" if log_y else "")
    layout = {
        "barmode": "group",
        "title": {"text": title},
        "xaxis": {"title": {"text": LENGTH_AXIS}, "dtick": 1},
        "yaxis": {"title": {"text": y_title}} | ({"type": "log"} if log_y else {}),
    }
    fig = go.Figure({"data": bars, "layout": layout})  # one validation pass (issue 29 item 4), as _count_axis does
    dpne_sizes = series["DPNE"]
    long_dpne = sum(n for k, n in dpne_sizes.items() if k >= 4)
    alt = f"Grouped bars of released k-grams per length 1 to {T}. DPNE: " + ", ".join(
        f"k={k}: {dpne_sizes.get(k, 0)}" for k in lengths
    )
    even = series.get("DPSU-even")  # absent until the baselines are computed (paper-size corpus)
    if even is None:
        return fig, alt + f". Lengths 4 and up: DPNE {long_dpne}; the DPSU baselines are not computed yet."
    long_even = sum(n for k, n in even.items() if k >= 4)
    alt += (
        ". DPSU-even: "
        + ", ".join(f"k={k}: {even.get(k, 0)}" for k in lengths)
        + f". Lengths 4 and up: DPNE {long_dpne}, DPSU-even {long_even}."
    )
    return fig, alt


def coverage_figure(cov, ks) -> tuple[go.Figure, str]:
    """Share of the k-grams used by ≥ K users that DPNE released, one line per K."""
    traces, alt_parts = [], []
    for i, K in enumerate(sorted(ks)):
        part = [r for r in cov.rows if r["K"] == K]
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": f"K = {K}",
                "x": [r["k"] for r in part],
                "y": [None if r["frequent"] == 0 else r["share"] for r in part],
                "line": series_style(i).line(),
                "marker": series_style(i).marker(),
                "customdata": [[r["frequent"], r["covered"]] for r in part],
                "hovertemplate": "k=%{x}: %{customdata[1]} of %{customdata[0]} k-grams (%{y:.0%})",
            }
        )
        alt_parts.append(
            f"K={K}: "
            + ", ".join(f"k={r['k']} {r['share']:.0%}" if r["frequent"] else f"k={r['k']} none" for r in part)
        )
    fig = go.Figure(
        {
            "data": traces,
            "layout": {
                "title": {"text": "Share of the k-grams used by at least K users that DPNE released"},
                "xaxis": {"title": {"text": LENGTH_AXIS}, "dtick": 1},
                "yaxis": {"title": {"text": "covered share (higher is better)"}, "range": [0, 1.05]},
            },
        }
    )
    alt = (
        "Lines, one per K, of the share of k-grams used by at least K users that DPNE released, against k: "
        + "; ".join(alt_parts)
    )
    return fig, alt


def coverage_records(cov) -> list[dict]:
    """The coverage chart's Numbers table (its plotted shares and their counts), built from the data, not the figure."""
    return [
        {"K": r["K"], "k": r["k"], "used by ≥ K users": r["frequent"], "released": r["covered"], "share": r["share"]}
        for r in cov.rows
    ]


def spurious_records(sweep_rows, T: int) -> list[dict]:
    """The spurious chart's Numbers table: per η and length (k = 2…T, then all lengths) the released and spurious
    k-grams and the share plotted, and the target line y = η."""
    rows = []
    for e in sorted({r["eta"] for r in sweep_rows}):
        part = [r for r in sweep_rows if r["eta"] == e]
        for r in part:
            if 2 <= r["k"] <= T:
                share = r["spurious"] / r["released"] if r["released"] else None
                rows.append({"η": e, "k": r["k"], "released": r["released"], "spurious": r["spurious"], "share": share})
        released, spurious = sum(r["released"] for r in part), sum(r["spurious"] for r in part)
        rows.append(
            {"η": e, "k": "all", "released": released, "spurious": spurious, "share": spurious / max(released, 1)}
        )
    return rows + [{"η": e, "k": "target y = η", "share": e} for e in ETA_OPTIONS]


ETA_TARGET = "y = η (the target)"
"""The spurious chart's reference line (its legend tag: "reference")."""


def spurious_figure(sweep_rows, T: int, eta: float) -> tuple[go.Figure, str]:
    """Actual spurious share of S_k against η, per length and overall, with the target y = η (003 Table 3), at the η
    the rows hold (one release: one point per line; the η comparison: every η of the slider)."""
    by = {(r["eta"], r["k"]): (r["released"], r["spurious"]) for r in sweep_rows}
    etas = sorted({r["eta"] for r in sweep_rows}) or [eta]
    traces = []
    for i, k in enumerate(range(2, T + 1)):
        share = [(by[(e, k)][1] / by[(e, k)][0]) if by.get((e, k), (0, 0))[0] else None for e in etas]
        traces.append(
            {
                "type": "scatter",
                "mode": "lines+markers",
                "name": f"k = {k}",
                "x": etas,
                "y": share,
                "line": series_style(i + 1).line(width=1.5),
                "marker": series_style(i + 1).marker(),
            }
        )
    totals = {
        e: (
            sum(r["released"] for r in sweep_rows if r["eta"] == e),
            sum(r["spurious"] for r in sweep_rows if r["eta"] == e),
        )
        for e in etas
    }
    overall = [s_ / max(r_, 1) for r_, s_ in totals.values()]
    traces.append(
        {
            "type": "scatter",
            "mode": "lines+markers",
            "name": "all lengths",
            "x": etas,
            "y": overall,
            "line": series_style(0).line(width=4),
            "marker": series_style(0).marker(),
        }
    )
    traces.append(
        {
            "type": "scatter",
            "mode": "lines",
            "name": ETA_TARGET,
            "x": list(ETA_OPTIONS),
            "y": list(ETA_OPTIONS),
            "line": {"color": REFERENCE, "dash": "dash"},
        }
    )
    fig = go.Figure(
        {
            "data": traces,
            "layout": {
                "title": {"text": "Share of released n-grams that no user wrote, per length (003 Table 3)"},
                "xaxis": {"title": {"text": "η (log scale)"}, "type": "log"},
                "yaxis": {"title": {"text": "spurious share of Sₖ (lower is better)"}},
                "shapes": [
                    {
                        "type": "line",
                        "xref": "x",
                        "yref": "paper",
                        "x0": eta,
                        "x1": eta,
                        "y0": 0,
                        "y1": 1,
                        "line": {"color": NEUTRAL, "dash": "dot"},
                    }
                ],
                "annotations": [
                    {
                        "xref": "x",
                        "yref": "paper",
                        "x": math.log10(eta),
                        "y": 1,
                        "text": f"current η = {eta:g}",
                        "showarrow": False,
                        "yanchor": "bottom",
                    }
                ],
            },
        }
    )
    alt = (
        "Actual spurious share against η on a log axis, one line per length and one for all lengths, with the "
        "line y = η. All lengths: " + ", ".join(f"η={e:g}: {v:.3f}" for e, v in zip(etas, overall))
    )
    return fig, alt


def step_table(d) -> pd.DataFrame:
    """The quantities of one length k of a DPNE run, and which of them the release itself contains (names with
    Unicode subscripts, never pseudo-LaTeX such as |S_{k−1}|: a table shows them as typed)."""
    step = pd.DataFrame(
        [
            ("|Sₖ₋₁|", d.previous_size, "(k−1)-grams released at the previous step", "release"),
            ("|Vₖ|", d.valid_count, "valid k-grams (exact count)", "release"),
            ("σₖ", float(d.sigma), "noise standard deviation at this length", "release"),
            ("ρₖ", float(d.threshold), "threshold", "release"),
            ("η·min(|Sₖ₋₁|, |Vₖ|)", float(d.spurious_bound), "bound on expected spurious k-grams", "release"),
            ("|supp Hₖ|", d.supported, "valid k-grams with positive weight", "evaluation only"),
            ("kept from the histogram", d.kept_from_histogram, "weight + noise > ρₖ", "evaluation only"),
            (
                "drawn among zero-weight",
                d.sampled_zero_weight,
                "Bₖ ~ Binomial(|Vₖ| − |supp Hₖ|, 1 − Φ(ρₖ/σₖ))",
                "evaluation only",
            ),
            ("|Sₖ| released", d.released, "kept + drawn", "release"),
            ("spurious", d.spurious, "released k-grams no user wrote", "evaluation only"),
        ],
        columns=["quantity", "value", "meaning", "part of"],
        dtype=object,
    )
    step["value"] = [f"{v:,}" if isinstance(v, int) else f"{v:.4g}" for v in step["value"].tolist()]
    return step


def sweep_figure(rows, label: str, values, *, log_y: bool) -> tuple[go.Figure, str]:
    """003 Figs. 2–4: released k-grams per length, one line per value of the swept knob."""
    sw = pd.DataFrame(rows)
    fig = go.Figure()
    for i, v in enumerate(values):
        part = sw[sw["value"] == v]
        fig.add_trace(
            go.Scatter(
                x=part["k"].tolist(),
                y=part["released"].tolist(),
                mode="lines+markers",
                name=f"{label} = {v}",
                line=series_style(i).line(),
                marker=series_style(i).marker(),
            )
        )
    fig.update_layout(title=f"DPNE: n-grams released per length as {label} varies", xaxis_title=LENGTH_AXIS)
    _count_axis(fig, log_y)
    alt = f"Lines of released k-grams per length, one per value of {label}: " + "; ".join(
        f"{label}={v}: " + ", ".join(str(n) for n in sw[sw["value"] == v]["released"]) for v in values
    )
    return fig, alt
