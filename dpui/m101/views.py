"""What each tab of the Mechanisms 101 page shows below its knobs (Habernal, lecture 4; SPEC §1), and which tab
is open (issue 24: the tabs are lazy, only the open one runs).

The page (pages/1_Mechanisms_101.py) draws each tab's knobs and makes its dpcore call; a view here draws the
numbers, tables, figure and export of that result and returns the ``(name, Review)`` the reviewer's panel lists.
Figures: dpui.m101.figures; texts: dpui/common/page_texts/m101.md.
"""

from __future__ import annotations

from contextlib import nullcontext

import numpy as np
import pandas as pd
import streamlit as st

from dpcore.lab import exercises as _exercises
from dpcore.lab import laplace_noise_in_units
from dpcore.lab.lecture import (
    BANK_DEBTS,
    COUNTING_QUERY,
    DEBT_CAP,
)
from dpcore.lab.review import custom_review, single_budget
from dpui import export_view, show_figure
from dpui.common.charts import NO_NOISE, REFERENCE_TAG, show_vega
from dpui.common.exercise_keys import widget_settings
from dpui.common.exports import export_box
from dpui.common.exercises import APPLIED_KEY, HIDDEN, answer_hidden, spoiler
from dpui.common.noise import PRIVATE, noise_mode
from dpui.common.paper_vs_here import PRESET_KEY, preset
from dpui.common.reproduce import reproduce_buttons
from dpui.common.state import forget_link_value
from dpui.common.texts import text
from dpui.m101.figures import cities_figure, loss_chart, sampling_figure, selection_figure

PAGE = "1_Mechanisms_101"
TAB_KEY = "m101_tab"
TABS = ("(a) Privacy loss", "(b) Global sensitivity", "(c) Exponential mechanism", "(d) Sample many times")
"""The tabs' labels (the open one is in the URL under ``m101_tab``; the first, the default, is not)."""
TAB_OF_WIDGET = {
    "m101_scale_mode": TABS[0],
    "m101_b": TABS[0],
    "m101_debt_rule": TABS[1],
    "m101_sens_factor": TABS[2],
    "m101_exp_rule": TABS[2],
    "m101_exp_bound": TABS[2],
    "m101_sample_mech": TABS[3],
    "m101_draws": TABS[3],
}
"""The tab that draws each page knob: a link or preset that sets a knob opens its tab."""
EXP_RULES = ("computed from D", "public bound B")
"""(c)'s Δu: measured on the society (the lecture's example, not DP) or a public bound on the clipped utilities."""
EXP_BOUNDS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
"""(c)'s public bounds B (utility 1/distance in 1/degrees; the example's utilities run from 0.02 to 0.42)."""
_FOLLOWED = "_m101_tab_exercise"  # session state: the exercise whose tab was last opened


def open_linked_tab() -> None:
    """Open the tab whose knobs an exercise (a ``?exercise=`` link, its Open or Next button) or the "Paper vs
    here" preset has just set: only the open tab draws its widgets. Once per exercise, so the student can then
    move to another tab. Call after ``paper_vs_here`` and before ``st.tabs``."""
    keys: dict = {}
    ex_id = st.session_state.get(APPLIED_KEY)
    if ex_id != st.session_state.get(_FOLLOWED):
        st.session_state[_FOLLOWED] = ex_id
        ex = _exercises.exercise(ex_id) if ex_id else None
        keys = widget_settings(ex) if ex is not None and ex.page == PAGE else {}
    if st.session_state.get(f"{PRESET_KEY}_{PAGE}"):  # the preset's button, pressed for this run
        keys = preset(PAGE)
    tab = next((TAB_OF_WIDGET[k] for k in keys if k in TAB_OF_WIDGET), None)
    if tab is not None:
        forget_link_value(TAB_KEY)  # a tab named in the same link would win on a first load
        st.session_state[TAB_KEY] = tab


PROMISE = "±ε (the promise)"
"""The privacy-loss panel's reference lines (dpui.m101.figures.loss_chart)."""


def _on_stage(stage, badges):
    """The main chart's place: the presenter stage's (dpui.common.presenter.Stage) when there is one, else here."""
    return nullcontext() if stage is None else stage.chart(badges)


def series_tags(chart, guarantee, *references: str) -> dict:
    """Each series of ``chart`` (a Plotly figure, or a Vega-Lite chart's rows) → ``guarantee`` (the release's: its
    outputs' densities or shares, and their privacy loss or ratio), the reference lines named in ``references``
    (±ε, e^ε) → "reference" (issue 31 item 3)."""
    names = [t.name for t in chart.data] if hasattr(chart, "data") else [row["series"] for row in chart]
    return {name: REFERENCE_TAG if name in references else guarantee for name in names}


def loss_view(eps: float, spec, res, *, stage=None):
    """(a) Two Laplace densities of neighbouring counts 50 and 51 with scale ``b`` and their privacy loss, the
    export and the notebook of ``spec`` (a :class:`dpcore.specs.M101LossSpec`). Returns (name, review, badge)."""
    a, a2 = COUNTING_QUERY
    b, worst, by_hand = res.scale, res.worst_loss, spec.scale is not None
    c1, c2, c3 = st.columns(3)
    b_text, worst_text = spoiler("m101_scale_b", f"{b:.3g}"), spoiler("m101_worst_loss", f"{worst:.3g}")
    c1.metric("scale b", b_text)
    c2.metric("worst |L(y)| = Δ/b", worst_text)
    within = worst <= eps * (1 + 1e-12)
    c3.metric(
        "ε (sidebar)",
        f"{eps:g}",
        delta="within ε" if within else "exceeds ε",
        delta_color="normal" if within else "inverse",
    )
    g_loss = res.guarantee
    hidden = answer_hidden("m101_worst_loss")  # its ε is the largest privacy loss the open exercise asks for
    if hidden:
        st.caption(f"Guarantee of (a): {HIDDEN}.")
    noise = laplace_noise_in_units(a, scale=b)
    review = custom_review(g_loss, noise=noise, budget=single_budget(epsilon=worst, name="(a)"), epsilon=worst)
    plotted, chart = loss_chart(
        res.y, a, a2, b, eps, f"Laplace densities for neighbouring counts 50 and 51, b = {b_text}", promise=PROMISE
    )
    rows = None if hidden else spec.rows(res)
    alt = text("m101", "loss_alt", b=b_text, worst=worst_text, eps=eps)
    with _on_stage(stage, () if hidden else [(g_loss, "(a) counting query")]):  # a hidden answer keeps its badge
        tags = series_tags(plotted, g_loss, PROMISE)
        show_vega(plotted, chart, alt=alt, key="m101_loss", records=rows, guarantees=tags)
    st.caption(text("m101", "loss_caption"))
    box = None if hidden else export_box("m101_loss")  # the export holds b and the worst loss: the exercise's answer
    if box:
        with box:
            settings = {"page": "Mechanisms 101 (a)", "epsilon": eps, "scale": b, "b_by_hand": by_hand}
            export_view(
                "these densities", rows, settings={**settings, "worst_loss": worst}, key="m101_export_loss", spec=spec
            )
            reproduce_buttons(spec, title="Mechanisms 101 (a): the privacy loss of Laplace", key="m101_reproduce_loss")
    return "(a) Laplace on a count", review, None if hidden else (g_loss, "(a) counting query")


def sensitivity_view(eps: float, spec, res, *, stage=None):
    """(b) Laplace noise on the bank's total debt, scaled by the rule of ``spec`` (a
    :class:`dpcore.specs.M101DebtSpec`): every neighbour pair's worst loss, the export and the notebook."""
    b, rows, worst_case, g_debt = res.scale, res.neighbours, res.worst_case, res.guarantee
    noise = laplace_noise_in_units(sum(BANK_DEBTS.values()), scale=b, quantity="a total debt (€)")
    review = custom_review(g_debt, noise=noise, budget=single_budget(epsilon=eps, name="(b)"), epsilon=eps)
    table = pd.DataFrame(spec.rows(res))
    table.loc[len(rows), "neighbour D'"] = "{0, 0, 0, 10,000,000} vs {0, 0, 0} (possible data)"
    hide_worst = answer_hidden("m101_debt_worst_case")  # the worst-case pair and its loss answer the open exercise
    st.dataframe(
        table.iloc[: len(rows)] if hide_worst else table,
        hide_index=True,
        width="stretch",
        column_config={c: st.column_config.NumberColumn(format="%.4g") for c in ("worst loss Δ/b",)},
    )
    if hide_worst:
        st.caption(f"The worst possible pair of neighbours, its loss and its figure: {HIDDEN}.")
    elif worst_case.exceeds_epsilon:
        st.warning(text("m101", "debt_fails", loss=worst_case.loss_bound, eps=eps), icon="🚨")
    else:
        st.success(f"With b = cap/ε every neighbour pair the bank's rules allow has loss ≤ ε = {eps:g}.", icon="✅")
    if not hide_worst:
        yv = np.linspace(-2 * DEBT_CAP, 3 * DEBT_CAP, 201)
        title = "Worst-case neighbours: total 10,000,000 € vs 0 €"
        plotted, chart = loss_chart(yv, DEBT_CAP, 0.0, b, eps, title, promise=PROMISE)
        alt = text("m101", "debt_alt", b=b, loss=worst_case.loss_bound, eps=eps)
        with _on_stage(stage, [(g_debt, "(b) total debt")]):
            show_vega(plotted, chart, alt=alt, key="m101_debt", guarantees=series_tags(plotted, g_debt, PROMISE))
        if box := export_box("m101_debt"):
            with box:
                settings = {
                    "page": "Mechanisms 101 (b)",
                    "epsilon": eps,
                    "rule": spec.rule,
                    "sensitivity": res.sensitivity,
                }
                export_view("these neighbours", table, settings=settings, key="m101_export_debt", spec=spec)
                reproduce_buttons(spec, title="Mechanisms 101 (b): global sensitivity", key="m101_reproduce_debt")
    return "(b) Laplace on the total debt", review, (g_debt, "(b) total debt")


def cities_view(eps: float, spec, ex, *, stage=None):
    """(c) The exponential mechanism's choice probabilities on D and its neighbours, the worst ratio against e^ε,
    the export and the notebook of ``spec``."""
    review = custom_review(ex.guarantee, budget=single_budget(epsilon=eps, name="(c)"), epsilon=eps)
    city_rows = [
        {"dataset": nb, **{c: float(v) for c, v in zip(ex.cities, row)}}
        for nb, row in zip(ex.neighbours, ex.probabilities)
    ]
    left, right = st.columns([2, 3])
    with left:
        fig, alt = cities_figure(ex)  # where the members live: the private data as it is, not a release
        show_figure(fig, alt=alt, guarantees={t.name: NO_NOISE for t in fig.data})
    with right:
        fig, alt = selection_figure(ex)
        with _on_stage(stage, [(ex.guarantee, "(c) exponential mechanism")]):  # the release: the main chart
            show_figure(fig, alt=alt, records=city_rows, guarantees=ex.guarantee)  # each bar: release probabilities
    c1, c2, c3 = st.columns(3)
    public = ex.utility_bound is not None
    if public:
        c1.metric("public Δu = B", f"{ex.utility_bound:g}", help=text("m101", "bound_public_help"))
    else:
        c1.metric("computed Δu", f"{ex.sensitivity_true:.4f}")
    c2.metric(
        f"worst ratio over D's {len(ex.neighbours) - 1} neighbours",
        spoiler("m101_exp_ratio", f"{ex.worst_ratio:.4f}"),
        help=text("m101", "ratio_help", city=ex.worst_pair[1], neighbour=ex.worst_pair[0]),
    )
    c3.metric(
        "e^ε",
        f"{ex.bound:.4f}",
        delta=("within e^ε, as ε-DP promises" if public else "within e^ε · not a DP proof")
        if not ex.violates
        else "ratio EXCEEDS e^ε",
        delta_color="off" if not ex.violates else "inverse",
        delta_arrow="off" if not ex.violates else "auto",
        help=text("m101", "bound_public_help" if public else "bound_help"),
    )
    if ex.violates:
        ratio = spoiler("m101_exp_ratio", f"{ex.worst_ratio:.3f}")
        st.warning(text("m101", "ratio_exceeds", used=ex.sensitivity_used, ratio=ratio, bound=ex.bound), icon="🚨")
    if box := export_box("m101_cities"):
        with box:
            settings = {
                "page": "Mechanisms 101 (c)",
                "epsilon": eps,
                "sensitivity_used": ex.sensitivity_used,
                "sensitivity_computed": ex.sensitivity_true,
                "worst_ratio": ex.worst_ratio,
                "utility_bound": ex.utility_bound,
            }
            export_view("these probabilities", city_rows, settings=settings, key="m101_export_cities", spec=spec)
            title = "Mechanisms 101 (c): the exponential mechanism on the cities"
            reproduce_buttons(spec, title=title, key="m101_reproduce_cities")
    st.caption(text("m101", "city_caption"))
    return "(c) Exponential mechanism", review, (ex.guarantee, "(c) exponential mechanism")


def sampling_view(spec, sample, seed: int, guarantee, *, stage=None) -> None:
    """(d) The empirical shares of ``spec.draws`` draws on D and on its neighbour, their ratio against e^ε, the
    export and the notebook; ``guarantee``: the sampled mechanism's (its series' legend tag)."""
    xs, fd, fn, emp, other, unit, bound = (
        sample.xs,
        sample.share_d,
        sample.share_other,
        sample.ratio,
        sample.other,
        sample.unit,
        sample.bound,
    )
    sample_rows = [
        {unit: x, "share under D": a, f"share under {other}": c, "ratio": r, "e^ε": bound}
        for x, a, c, r in zip(xs, fd, fn, emp)
    ]
    shown_seed = "secret" if noise_mode() == PRIVATE else seed  # issue 30: the private mode's seed is never shown
    fig, alt = sampling_figure(xs, fd, fn, emp, other=other, unit=unit, bound=bound, n=spec.draws, seed=shown_seed)
    with _on_stage(stage, [(guarantee, f"(d) the sampled {spec.mechanism} mechanism")]):
        show_figure(fig, alt=alt, records=sample_rows, guarantees=series_tags(fig, guarantee, "e^ε"))
    worst_emp = float(np.nanmax(emp)) if np.any(np.isfinite(emp)) else float("nan")
    st.metric("largest empirical ratio", f"{worst_emp:.3f}", help=text("m101", "sample_ratio_help"))
    st.caption(text("m101", "sample_caption"))
    if box := export_box("m101_sample"):
        with box:
            settings = {
                "page": "Mechanisms 101 (d)",
                "mechanism": spec.mechanism,
                "draws": spec.draws,
                "epsilon": spec.epsilon,
                "seed": seed,
                "e^epsilon": bound,
                "rng_salt": list(spec.sample_salt()),
            }
            export_view("these frequencies", sample_rows, settings=settings, key="m101_export_sample", spec=spec)
            title = "Mechanisms 101 (d): sampling a mechanism many times"
            reproduce_buttons(spec, title=title, key="m101_reproduce_sample")
