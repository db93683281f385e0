"""Figure builders of the Bayesian n-gram DP page (paper 000): each returns the figure and its alt text.

No maths here: the builders only arrange numbers that dpcore computed (via dpui.bayesian.data).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from dpcore.bayesian import (
    BAYESIAN,
    BAYESIAN_STRICT,
    END_TO_END,
    LAPLACE,
    LAPLACE_PUBLIC,
    PRIVATE,
    PUBLIC,
    PUBLIC_BASELINE_GUARANTEE,
    laplace_guarantee,
    summarise,
)
from dpcore.bayesian.end_to_end import end_to_end_guarantee
from dpcore.bayesian.release import bayesian_guarantee
from dpcore.errors import UserError
from dpcore.guarantees import k_anonymity
from dpui.bayesian.data import SWEEP_EPS, eps_sweep, k_sweep
from dpui.common.charts import NEUTRAL, REFERENCE, band_figure, mechanism_style, rgba, series_style
from dpui.common.sidebar import format_number as fmt

KANON = "k-anonymity"
KANON_CURVES = ((BAYESIAN_STRICT, "BayesianDP strict"), (BAYESIAN, "BayesianDP as in the paper (local γ)"))
"""The k-anonymity figure's right panel: mechanism → its label (the legend's tag says DP or not DP)."""
CLAIMED = "claimed ε (y = ε)"
KL_AXIS = "KL divergence to private (lower is better, log)"
EPS_AXIS = "ε (privacy loss, log scale; right = weaker privacy)"
SWEPT = (BAYESIAN, BAYESIAN_STRICT, END_TO_END, LAPLACE, LAPLACE_PUBLIC, PUBLIC)


def series_guarantees(now, *, epsilon: float, delta: float, calibration: str, W: int, K: int) -> dict:
    """Each series the page draws → the Guarantee its release has at the page's ε and δ (issue 31 item 3: every
    legend names its guarantee), from the functions the releases themselves call: BayesianDP in either mode with
    the page's caps (the page's own release for its mode), EndToEndDP (ε split 2ε/3 + ε/3 as it splits it), the
    two Laplace baselines at the page's W, the public baseline (0-DP) and k-anonymity at the page's K."""
    modes = {BAYESIAN: now.local, BAYESIAN_STRICT: now.strict}

    def promise(prep):
        caps = dict(sensitivity_method=prep.sensitivity_method, max_items=prep.max_items, max_users=prep.max_users)
        try:
            return bayesian_guarantee(epsilon=epsilon, delta=delta, calibration=calibration, **caps)
        except UserError:  # strict mode refuses the classic σ at this ε (ε ≳ 8): no strict release here, but what
            # a chart draws of it (other ε, other σ) is a strict release, (ε, δ)-DP — the analytic σ's promise
            return bayesian_guarantee(epsilon=epsilon, delta=delta, calibration="analytic", **caps)

    out = {mech: promise(prep) for mech, prep in modes.items()}
    out.update({mech: now.release.guarantee for mech, prep in modes.items() if prep is now.prepared})
    out[END_TO_END] = end_to_end_guarantee(epsilon_train=2 * epsilon / 3, epsilon_tune=epsilon / 3, delta=delta)
    out.update({mech: laplace_guarantee(mech, epsilon=epsilon, W=W) for mech in (LAPLACE, LAPLACE_PUBLIC)})
    return {**out, PUBLIC: PUBLIC_BASELINE_GUARANTEE, KANON: k_anonymity(K)}


def release_chart(labels, order, private, public, theta, *, n: int, log: bool = False) -> tuple[list[dict], dict, str]:
    """Grouped bars of the top private n-grams: private, public prior and released probability, as one Vega-Lite
    chart (issue 29 item 1: the page's main chart is redrawn on every ε move, and the same grouped bars in Plotly
    cost the browser about twice the CPU, benchmarks/bench_topicdp_views.py). The three bars of an n-gram are always
    in the same order (private, public, released), so they are told apart without their colours.

    ``log``: a logarithmic probability axis (issue 31 item 2: on the real chat at the page's opening settings the
    released probabilities are ~1e-8 against ~0.04, bars nobody sees on a linear axis); a bar then starts at the
    bottom of the plot, and a probability of exactly 0 (no bar on a log axis) is left out of the drawing only.
    The tooltip and the alt text give every value to three significant digits (1e-08 is not "0.0000").

    Returns ``(rows, spec, alt)``: the plotted rows, the Vega-Lite spec (without its data) and the alt text."""
    series = (
        ("private (true)", private, PRIVATE),
        ("public prior", public, PUBLIC),
        ("BayesianDP release θ", theta, BAYESIAN),
    )
    names = [name for name, _, _ in series]
    rows = [
        {"n-gram": lab, "rank": rank + 1, "series": name, "probability": float(vals[i])}
        for rank, (lab, i) in enumerate(zip(labels, order))
        for name, vals, _ in series
    ]
    top = len(order)
    shown = [r["probability"] for r in rows if r["probability"] > 0]
    floor = 10.0 ** (np.ceil(np.log10(min(shown))) - 1) if shown else 1e-12  # a decade under the smallest bar
    spec = {
        "title": {"text": f"Top {top} private {n}-grams: true, public and released probability", "anchor": "start"},
        "height": 420,
        "mark": {"type": "bar"},
        **({"transform": [{"filter": "datum.probability > 0"}]} if log else {}),
        "encoding": {
            "tooltip": [
                {"field": "n-gram", "type": "nominal"},
                {"field": "series", "type": "nominal"},
                {"field": "probability", "type": "quantitative", "format": ".3g"},
            ],
            "x": {
                "field": "n-gram",
                "type": "nominal",
                "sort": list(labels),
                "title": f"{n}-gram (sorted by private frequency)",
                "axis": {"labelAngle": -45, "labelOverlap": False},
            },
            "xOffset": {"field": "series", "type": "nominal", "sort": names},
            "y": {
                "field": "probability",
                "type": "quantitative",
                "title": f"probability{', log scale' if log else ''} (closer to the private bar is better)",
                **({"scale": {"type": "log", "domainMin": floor}, "axis": {"format": ".0e"}} if log else {}),
            },
            **({"y2": {"datum": floor}} if log else {}),  # a log axis has no 0: the bars rise from its floor
            "color": {
                "field": "series",
                "type": "nominal",
                "scale": {"domain": names, "range": [mechanism_style(m).colour for _, _, m in series]},
                "legend": {"orient": "bottom", "title": None},
            },
        },
    }
    alt = (
        f"Grouped bars for the {top} most frequent private {n}-grams: private, public and released probability"
        + (" on a logarithmic axis. " if log else ". ")
        + "; ".join(
            f"{lab}: {private[i]:.3g}, {public[i]:.3g}, {theta[i]:.3g}" for lab, i in list(zip(labels, order))[:10]
        )
    )
    return rows, spec, alt


def kl_eps_figure(shown, summary, *, title: str, eps: float, K: int, kl_k: float) -> tuple[go.Figure, str]:
    """000 Fig. 1: mean KL with a band against ε per mechanism, k-anonymity at K as a flat line."""
    series = {m: (shown[m].mean, shown[m].lower, shown[m].upper) for m in SWEPT if m in shown}
    fig = band_figure(
        SWEEP_EPS, series, title=title, x_title=EPS_AXIS, y_title=KL_AXIS, log_x=True, log_y=True, dash={PUBLIC: "dash"}
    )
    if K >= 2:  # K = 1 keeps every item: the private distribution itself, KL ≈ 0 (off a log axis)
        fig.add_trace(
            go.Scatter(
                x=list(SWEEP_EPS),
                y=[kl_k] * len(SWEEP_EPS),
                mode="lines",
                name=f"{KANON}, K = {K}",  # the legend's tag says "not DP" (kl_eps_guarantees)
                line=mechanism_style(KANON).line(),
            )
        )
    fig.add_vline(x=eps, line=dict(color=NEUTRAL, dash="dot"), annotation_text=f"current ε = {fmt(eps)}")
    b = dict(zip(summary[BAYESIAN].x.tolist(), summary[BAYESIAN].mean))
    lap = dict(zip(summary[LAPLACE].x.tolist(), summary[LAPLACE].mean))
    strict = (
        dict(zip(summary[BAYESIAN_STRICT].x.tolist(), summary[BAYESIAN_STRICT].mean))
        if BAYESIAN_STRICT in summary
        else {}
    )
    alt = (
        "KL divergence against ε on log axes for BayesianDP (the paper's, local γ), BayesianDP strict (DP), Laplace, Laplace with public data and the public "
        f"baseline, with k-anonymity at K = {K} as a horizontal line ({kl_k:.3g}). Mean KL: "
        + "; ".join(
            f"ε={fmt(e)}: BayesianDP {b[e]:.3g}"
            + (f", strict {strict[e]:.3g}" if e in strict else "")
            + f", Laplace {lap[e]:.3g}"
            for e in SWEEP_EPS
        )
    )
    return fig, alt


def kl_eps_guarantees(guarantees: dict, K: int) -> dict:
    """The KL-vs-ε chart's series → Guarantee: the swept mechanisms' and k-anonymity's line at K."""
    return {**guarantees, f"{KANON}, K = {K}": guarantees[KANON]}


def data_sweep_figure(df, x: str, *, title: str, x_title: str) -> tuple[go.Figure, str]:
    """000 Figs. 2–4: mean KL with a band per mechanism against a data property, on a common x grid."""
    s = summarise(df, x)
    xs = sorted(set().union(*(curve.x.tolist() for curve in s.values())))
    names = [m for m in (BAYESIAN, BAYESIAN_STRICT, LAPLACE, LAPLACE_PUBLIC, PUBLIC) if m in s]
    series = {}
    for m in names:  # on the common x grid, NaN where a mechanism has no value (a gap in its line)
        at = {xv: i for i, xv in enumerate(s[m].x.tolist())}
        idx = [at.get(xv, -1) for xv in xs]
        series[m] = tuple(np.append(col, np.nan)[idx] for col in (s[m].mean, s[m].lower, s[m].upper))
    fig = band_figure(
        xs, series, title=title, x_title=x_title, y_title=KL_AXIS, log_x=True, log_y=True, dash={PUBLIC: "dash"}
    )
    alt = f"{title}. Mean KL per mechanism: " + "; ".join(
        f"{m}: " + ", ".join(f"{xv:g}→{v:.3g}" for xv, v in zip(xs, series[m][0])) for m in names
    )
    return fig, alt


def kanon_figure(spec, _private, _public):
    """000 Fig. 5 at the KL-vs-ε spec (its sweep without EndToEndDP; cached by the spec's key)."""
    spec = spec.replace(with_end_to_end=False)
    return _kanon_figure(spec.key(without=("K",)), spec, _private, _public)


@st.cache_resource(show_spinner=False, max_entries=32)
def _kanon_figure(key: str, _spec, _private, _public):
    """000 Fig. 5 on one y-scale. It does not depend on the current ε: built once per setting (plotly's
    make_subplots alone costs ~50 ms per rerun). Right panel: our strict BayesianDP ((ε, δ)-DP) and the
    paper's (γ measured on the private data: not DP), each labelled with what it keeps."""
    kdf = k_sweep(_private.content_hash, _public.content_hash, _spec.n, _private, _public)
    kdf = kdf.subset(kdf["K"] >= 2)  # K = 1 is the private distribution itself (KL ≈ 0 off a log axis)
    df = eps_sweep(_spec, _private, _public)
    fig = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        horizontal_spacing=0.06,
        subplot_titles=("k-anonymity — not DP: KL vs K", "BayesianDP: KL vs ε"),
    )
    kanon = mechanism_style(KANON)
    fig.add_trace(
        go.Scatter(
            x=kdf["K"],
            y=kdf["kl"],
            mode="lines+markers",
            name=KANON,
            line=kanon.line(),
            marker=kanon.marker(),
        ),
        row=1,
        col=1,
    )
    curves = []
    for mech, label in KANON_CURVES:
        bs, style = summarise(df.filter(mechanism=mech), "epsilon")[mech], mechanism_style(mech)
        curves.append((label, bs))
        fig.add_trace(
            go.Scatter(
                x=list(bs.x) + list(bs.x)[::-1],
                y=list(bs.upper) + list(bs.lower)[::-1],
                fill="toself",
                fillcolor=rgba(style.colour, 0.18),
                line=dict(width=0),
                hoverinfo="skip",
                showlegend=False,
            ),
            row=1,
            col=2,
        )
        fig.add_trace(
            go.Scatter(
                x=bs.x,
                y=bs.mean,
                mode="lines+markers",
                name=label,
                line=style.line(),
                marker=style.marker(),
                meta={"lower": list(bs.lower), "upper": list(bs.upper)},
            ),
            row=1,
            col=2,
        )
    fig.update_xaxes(
        type="log", title_text="K (min. users per kept n-gram, log scale; right = more suppression)", row=1, col=1
    )
    fig.update_xaxes(type="log", title_text=EPS_AXIS, row=1, col=2)
    fig.update_yaxes(type="log")  # both panels: a shared (matched) axis must have the same type, or plotly
    fig.update_yaxes(title_text=KL_AXIS, row=1, col=1)  # draws the right panel on its own linear scale
    fig.update_layout(title="Same y-scale: k-anonymity against BayesianDP (000 Fig. 5)")
    alt = (
        "Two panels sharing a log KL axis. Left, k-anonymity KL against K: "
        + ", ".join(f"K={k}: {v:.3g}" for k, v in zip(kdf["K"], kdf["kl"]))
        + ". Right, mean KL against ε — "
        + "; ".join(
            f"{label}: " + ", ".join(f"ε={fmt(e)}: {v:.3g}" for e, v in zip(bs.x, bs.mean)) for label, bs in curves
        )
    )
    return fig, alt


def attack_figure(df) -> tuple[go.Figure, str]:
    """000 Fig. 6: attack success rate and the empirical ε lower bound against ε."""
    fig = make_subplots(rows=1, cols=2, subplot_titles=("attack success rate", "empirical ε lower bound"))
    for mech in (BAYESIAN, LAPLACE):
        part = df.filter(mechanism=mech)
        style = mechanism_style(mech)
        fig.add_trace(
            go.Scatter(
                x=part["epsilon"],
                y=part["success_rate"],
                mode="lines+markers",
                name=mech,
                line=style.line(),
                marker=style.marker(),
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=part["epsilon"],
                y=part["epsilon_lower_bound"],
                mode="lines+markers",
                name=f"{mech} (ε bound)",
                showlegend=False,
                line=style.line(),
                marker=style.marker(),
            ),
            row=1,
            col=2,
        )
    eps_list = sorted(np.unique(df["epsilon"]))
    fig.add_trace(
        go.Scatter(x=eps_list, y=eps_list, mode="lines", name=CLAIMED, line=dict(color=REFERENCE, dash="dash")),
        row=1,
        col=2,
    )
    fig.add_hline(y=0.5, line=dict(color=NEUTRAL, dash="dot"), row=1, col=1)
    fig.update_xaxes(type="log", title_text=EPS_AXIS)
    fig.update_yaxes(title_text="success rate (0.5 = guessing; lower is more private)", range=[0, 1.02], row=1, col=1)
    fig.update_yaxes(title_text="ε lower bound (must stay under the dashed line)", row=1, col=2)
    fig.update_layout(title="Membership inference against BayesianDP and Laplace (000 Fig. 6)")
    alt = (
        "Left: attack success rate against ε for BayesianDP and Laplace. Right: empirical ε lower bound against "
        "ε with the line y = ε. "
        + "; ".join(
            f"{r['mechanism']} ε={fmt(r['epsilon'])}: success {r['success_rate']:.2f}, bound "
            f"{r['epsilon_lower_bound']:.2f}"
            for r in df.rows()
        )
    )
    return fig, alt


def tuning_figure(res, inside) -> tuple[go.Figure, str, pd.DataFrame]:
    """000 Algorithm 2: the noiseless validation score of every (S, ρ) on the grid (from the release's
    EndToEndEvaluation ``inside``: not published); also returns the grid."""
    grid = pd.DataFrame(res.grid, columns=["S", "rho"]).assign(score=inside.scores, noisy_score=inside.noisy_scores)
    fig = go.Figure()
    for i, r in enumerate(sorted(grid["rho"].unique())):
        part = grid[grid.rho == r]
        style = series_style(i)
        fig.add_trace(
            go.Scatter(
                x=part["S"],
                y=part["score"],
                mode="lines+markers",
                name=f"ρ = {r:g}",
                line=style.line(),
                marker=style.marker(),
            )
        )
    fig.update_xaxes(type="log", title_text="S (log scale)")
    fig.update_yaxes(title_text="validation cross-entropy q, eq. 6 (lower is better)")
    fig.update_layout(title="Noiseless grid scores; the noisy min picks S*, ρ*")
    alt = (
        f"Validation score against S for each ρ; chosen S* = {fmt(res.S_star)}, ρ* = {fmt(res.rho_star)}; "
        f"score sensitivity {inside.score_sensitivity:.4g}."
    )
    return fig, alt, grid


# what is computed from an upload is given back with it (issue 25)
from dpui.common import uploads as _uploads  # noqa: E402 (at the end: the functions above are what dpui.common.uploads registers)

_uploads.track_caches(globals())
