"""The tabs of the TopicDP page and the whole view of each (issue 24: lazy tabs).

The tabs are stateful (``st.tabs(..., key="topicdp_tab", bind="query-params")``): the open tab is in the URL, so a
shared link opens the same tab, and the page computes and draws a tab's content only while it is open
(``tab.open``); an ε move then redraws one tab, not five. What a tab shows is listed here, one function per tab; the
cached loaders are dpui.topicdp.data and dpui.topicdp.vips, the figures dpui.topicdp.figures. No maths here.
"""

from __future__ import annotations

from contextlib import nullcontext

import pandas as pd
import streamlit as st

from dpcore import topicdp as tdp
from dpcore.specs import TopicDpCurveSpec

from dpui.topicdp import data
from dpui.topicdp import figures
from dpui.topicdp import panels
from dpui.topicdp import vips as vipsui
from dpui.common.charts import NO_NOISE, show_figure
from dpui.common.errors import user_errors
from dpui.common.exports import export_box, export_view
from dpui.common.knobs import draw_knob
from dpui.common.reproduce import reproduce_buttons
from dpui.common.state import IN_URL, forget_link_value
from dpui.common.texts import text

TAB_KEY = "topicdp_tab"
GRID_KEY = "topicdp_grid"
"""The keywords tab's "full grid" toggle (``?topicdp_grid=true``): every topic's chart instead of the picked ones."""
"""The tabs' widget key and URL parameter (``?topicdp_tab=Error+curves``; the default tab leaves the URL)."""
WORDS, CURVES, SENSITIVITIES = "Keywords before and after noise", "Error curves", "Sampled sensitivities"
PROMPTS, VIPS = "Prompts after noise", "VIPS-LDA against ε"
EXERCISE_TABS = {
    "topicdp-sampler-fits": SENSITIVITIES,  # its first hint: the tab lists h for several γ
    "topicdp-real-prompts-strict": PROMPTS,  # the question reads the tab's chart
    "topicdp-vips-vs-thesis": VIPS,  # the question reads the tab's two charts
}
"""Exercise id → the tab it is read in: an exercise link opens that tab (once; the student may then switch)."""
_OPENED_FOR = "_topicdp_tab_exercise"  # session state: the exercise whose tab was opened last


def page_tabs(*, prompts: bool, exercise=None) -> dict:
    """The page's tabs, label → tab (``prompts``: the corpus has labelled conversations, so the prompts tab is
    there). ``exercise``: the open exercise (dpui.common.exercises.exercise_mode); the first run it is open in opens its tab
    (:data:`EXERCISE_TABS`)."""
    labels = [WORDS, CURVES, SENSITIVITIES] + ([PROMPTS] if prompts else []) + [VIPS]
    if exercise is not None and st.session_state.get(_OPENED_FOR) != exercise.id:
        st.session_state[_OPENED_FOR] = exercise.id
        if EXERCISE_TABS.get(exercise.id) in labels:
            forget_link_value(TAB_KEY)  # a ?topicdp_tab= of the link would win over the exercise's tab
            st.session_state[TAB_KEY] = EXERCISE_TABS[exercise.id]
    return dict(zip(labels, st.tabs(labels, key=TAB_KEY, bind="query-params")))


SAMPLED_TABS = (CURVES, SENSITIVITIES, PROMPTS)
"""The tabs that read the sampled Δ_s (every curve draws the five matrix mechanisms; the prompts' curve too)."""
_FIRST = {
    CURVES: "The error curves draw all five matrix mechanisms, three of which need the sampled sensitivity Δₛ.",
    SENSITIVITIES: "This tab shows the sampled distances and Δₛ: the sampler has not computed them yet.",
    PROMPTS: "The prompts' curve follows every matrix mechanism, three of which need the sampled sensitivity Δₛ.",
    "story": "σ of TopicDP as in the thesis and corrected, the prompts kept and every mechanism's mean L1 at ε all "
    "need the sampled sensitivity Δₛ.",
}


def needs_sampler(tabs: dict) -> list[str]:
    """The open tab's label when it reads the sampled Δ_s (:data:`SAMPLED_TABS`; the tabs are lazy)."""
    return [label for label in SAMPLED_TABS if label in tabs and tabs[label].open]


def sampler_first(what: str, **numbers) -> None:
    """Where a view needs the sampled Δ_s and no draws cover γ (issue 31 item 7): one line saying so and where the
    sampler's button is; no number that needs Δ_s. ``what``: a tab label, ``"story"`` or ``"random_dp"``."""
    if what == "random_dp":
        st.markdown(
            f"TopicDP as in the thesis, TopicDP corrected and MVG hold for at least a 1 − γ = {1 - numbers['gamma']:g} "
            f"share of neighbouring datasets once Δₛ is sampled: h = {numbers['h']:,} pairs of datasets of N = "
            f"{numbers['N']} users, not sampled yet. Strict TopicDP, Laplace and VIPS-LDA need no sampling and no γ."
        )
        return
    st.info(f"{_FIRST[what]} Run the sensitivity sampler (the button at the top of the page) to see it.", icon="⏳")


def releases_on_screen(tabs: dict, releases) -> set[str]:
    """The names of the releases whose released values this run shows: the five matrix mechanisms' and VIPS-LDA's
    in the keywords tab, VIPS-LDA's own topics in its tab. The session budget records these only: a release in an
    unopened tab is not seen (the other tabs and the panels show noise scales, guarantees and errors measured
    against the private table, which the budget does not count, as it does not count the curves' draws)."""
    if tabs[WORDS].open:
        return {*releases, vipsui.NAME}
    return {vipsui.NAME} if tabs[VIPS].open else set()


def export_settings(spec, settings, *, lda, sampler, sens, story, shown: dict, vips) -> dict:
    """The keyword table's and the error table's export settings: every parameter, the seed and its salt. ``sens``
    and ``story`` None: the sampler has not run (``spec.sampled`` False), no Δ_s-number is exported."""
    corpus = settings.private
    return {
        "page": "TopicDP",
        "epsilon": spec.epsilon,
        "delta": spec.delta,
        "seed": settings.seed,
        "corpus": settings.corpus_label,
        "corpus_hash": corpus.content_hash,
        "gamma": spec.gamma,
        "m": spec.m,
        "n": spec.n,
        "lda": lda.as_dict(),
        "sampler": {
            "sample_users": sampler.sample_users,  # None = the corpus' size (keys the draws)
            "sample_users_N": sampler.dataset_size(corpus.n_users),
            "seed": sampler.seed,
        },
        **(
            {"sampled_mechanisms": "not released: the sensitivity sampler has not run for these settings"}
            if sens is None  # no Δ_s: the sampled mechanisms were not released (issue 31 item 7)
            else {"sampled_pairs_h": sens.h, "sensitivity_rank_k": sens.k, "sampled_sensitivity_delta_s": sens.delta_s}
        ),
        "noise_scales": {mech: rel.noise_scale for mech, rel in shown.items()},  # VIPS-LDA's σ: on counts
        **({} if story is None else {"thesis_sigma_true_epsilon": story.thesis_true_epsilon}),
        "strict_bound_sqrt_2m": (2 * spec.m) ** 0.5 if story is None else story.bound,
        "guarantees": {mech: rel.guarantee for mech, rel in shown.items()},
        "vips": vipsui.export_settings(vips),
        "rng_salt": list(spec.salt(None if sens is None else sens.delta_s)),
        "release_order": "rows: LDA component index; columns: vocabulary order",
        "released": "clipped at 0, rows renormalised",
    }


def guarantees(releases: dict, vips) -> dict:
    """Each mechanism the tabs draw → its release's Guarantee, the one its badge shows (issue 31 item 3: every
    legend names its guarantee): the five matrix mechanisms, VIPS-LDA and the public-only fit (0-DP)."""
    return {mech: rel.guarantee for mech, rel in {**releases, **vips.shown}.items()}


def show_facets(plotted: list[dict], spec: dict, *, alt: str, key: str, records: list[dict]) -> None:
    """A Vega-Lite chart full width with alt text, and below it a collapsed "Numbers" table of its values (as
    dpui.common.charts.show_figure does for a Plotly figure: the same table the page exports for this chart)."""
    if not alt.strip():
        raise ValueError("alt must describe the chart for screen readers, got an empty string")
    st.vega_lite_chart(pd.DataFrame(plotted), spec, alt=alt, key=key, width="content")
    with st.expander(f"Numbers — {spec['title']['text']}"):
        st.dataframe(pd.DataFrame(records), hide_index=True, width="stretch")


def keywords(spec, settings, table, releases: dict, vips, *, lda, sampler, sens, story, main=None) -> None:
    """The tab "Keywords before and after noise": the chosen topics' bars, this draw's errors, the exports and the
    Reproduce buttons. ``main``: where the first topic's chart goes (a context: dpui.common.presenter.Stage.chart in
    presenter mode); the rest stays in the tab."""
    m = spec.m
    shown = {**releases, **vips.shown}  # the five matrix mechanisms, VIPS-LDA and the public-only fit (0-DP)
    labels = figures.topic_labels(table)
    pick, full = st.columns([3, 1], vertical_alignment="bottom")
    grid = full.toggle(
        "Full grid: all topics",
        key=GRID_KEY,
        **IN_URL,
        help="Every topic of the table, one chart each (slower to redraw on an ε move); off: the topics picked here.",
    )
    # Numbered labels, not the keyword labels: they go into the URL (…?topicdp_topics=Topic+1&…) and must not
    # depend on the fitted words; each chart's title names the topic's top keywords.
    chosen = pick.multiselect(
        "Topics to show (rows in LDA component order; the chart titles name their keywords)",
        list(range(m)),
        default=[0],  # one topic at a time by default: what a room can read, redrawn at once (issue 29 item 3)
        format_func=lambda i: f"Topic {i + 1}",
        key="topicdp_topics",
        disabled=grid,
        **IN_URL,
    )
    rows = [
        {
            "topic": i + 1,
            "model_topic": table.topics[i],
            "keyword": word,
            "before_noise": table.matrix[i, j],
            **{f"after_{mech}": rel.matrix[i, j] for mech, rel in shown.items()},
        }
        for i in range(m)
        for j, word in enumerate(table.words)
    ]
    for n, i in enumerate(range(m) if grid else chosen):
        plotted, chart, alt = figures.keyword_facet_chart(table, {**releases, vipsui.NAME: vips.vips}, labels[i], i)
        with main if n == 0 and main is not None else nullcontext():
            show_facets(
                plotted, chart, alt=alt, key=f"topicdp_bars_{i}", records=[r for r in rows if r["topic"] == i + 1]
            )
    names = {
        "l1": "L1 distance",
        "rmse": "RMSE",
        "kendall": "Kendall's tau distance",
        "noise_scale": "noise scale (σ or b)",
    }
    errs = pd.DataFrame(
        {mech: {names[k]: v for k, v in e.items()} for mech, e in tdp.release_error_table(table.matrix, shown).items()}
    ).rename_axis("measure")  # a named index: its column header is not empty (axe: empty-table-header)
    st.markdown(
        "**This draw's errors** against the one reference table (lower is better; after clipping at 0 and "
        "renormalising each row; VIPS-LDA's noise scale σ is on counts, the public-only fit has none)"
    )
    number = st.column_config.NumberColumn(format="%.4g")  # not a pandas Styler: 4× cheaper to send on every move
    st.dataframe(errs, column_config={mech: number for mech in errs.columns}, width="stretch")
    box = export_box("topicdp_releases")
    if not box:
        return
    with box:
        exported = export_settings(
            spec, settings, lda=lda, sampler=sampler, sens=sens, story=story, shown=shown, vips=vips
        )
        export_view(
            "keyword table before/after noise", rows, settings=exported, key="topicdp_export_keywords", spec=spec
        )
        errors = [{"metric": metric, **{mech: errs.at[metric, mech] for mech in errs}} for metric in errs.index]
        export_view("this draw's errors", errors, settings=exported, key="topicdp_export_errors", spec=spec)
        reproduce_buttons(
            spec,
            title=f"the TopicDP releases ({'five matrix mechanisms' if spec.sampled else 'strict TopicDP, Laplace'}, "
            "VIPS-LDA and the public-only fit)",
            key="topicdp_reproduce",
        )


def curves(spec, model, draws, vips, *, lda, shown: dict) -> None:
    """The tab "Error curves": each mechanism's error against ε, γ or the table size, with VIPS-LDA and the
    public-only fit beside (mean and 10–90 % band over the repetitions); ``shown``: :func:`guarantees`."""
    eps, delta, gamma, m, n = spec.epsilon, spec.delta, spec.gamma, spec.m, spec.n
    d1, d2, d3, d4 = st.columns(4)
    # the knobs declared on TopicDpCurveSpec's fields (dpcore.specs.topicdp); captions keep the URL's plain option
    parameter = draw_knob(TopicDpCurveSpec, "parameter", d1)
    metric = d2.radio(
        "Metric",
        tuple(figures.METRIC_AXES),
        key="topicdp_metric",
        **IN_URL,
        captions=("L1 distance", "RMSE", "Kendall's tau distance"),
    )
    stage = draw_knob(TopicDpCurveSpec, "stage", d3)
    reps = draw_knob(TopicDpCurveSpec, "repetitions", d4)
    log_y = d4.checkbox("log y-axis", value=True, key="topicdp_logy", **IN_URL)
    with user_errors():
        curve_spec = spec.curve_spec(parameter=parameter, repetitions=reps, stage=stage)
        curve = data.curve_for(curve_spec, model, draws)
    fixed = {
        "epsilon": f"γ = {gamma:g}, {m} × {n}",
        "gamma": f"ε = {eps:g}, {m} × {n}",
        "size": f"ε = {eps:g}, γ = {gamma:g}",
    }[parameter]
    extra = vipsui.curve_series(
        vips,
        lda,
        model,
        parameter=parameter,
        metric=metric,
        values=curve.values,
        epsilon=eps,
        delta=delta,
        m=m,
        n=n,
        reps=reps,
        seed=spec.seed,
    )
    fig, alt = figures.curve_figure(
        curve, parameter, metric, fixed=fixed, delta=delta, reps=reps, log_y=log_y, extra=extra
    )
    show_figure(fig, alt=alt, key="topicdp_curve", guarantees=shown)
    if box := export_box("topicdp_curve", label="⬇ Reproduce in Python — notebook, script"):
        with box:
            reproduce_buttons(curve_spec, title=f"the error curves against {parameter}", key="topicdp_reproduce_curve")
    for note in curve.skipped:
        st.info(f"Not drawn: {note}. Run the sampler at that γ (slider above) to add it.", icon="ℹ️")
    if stage == "released":
        st.caption(text("topicdp", "clipping_caption", l1_max=2 * m))


def sensitivities(sens, draws, *, sampler, corpus) -> None:
    """The tab "Sampled sensitivities": the sampled distances with Δ_s marked, and h, k and Δ_s for a range of γ."""
    fig, alt = figures.sensitivity_histogram(sens, sens.m, sens.n)
    records = [
        {"sampled pair": j + 1, "distance ‖f(D) − f(D′)‖_F": float(v), "≤ Δₛ": bool(v <= sens.delta_s)}
        for j, v in enumerate(sens.draws)
    ]
    show_figure(fig, alt=alt, key="topicdp_hist", records=records, guarantees={"Δ_i": NO_NOISE})  # not a release
    st.dataframe(pd.DataFrame(figures.gamma_table(draws, sens.m, sens.n)), hide_index=True, width="stretch")
    n_users = sampler.dataset_size(corpus.n_users)
    st.caption(text("topicdp", "draws_caption", n_pairs=draws.n_pairs, N=n_users, sampler_seed=sampler.seed))


def prompts(spec, table, model, docs, *, corpus, lda, delta_s: float, shown: dict) -> None:
    """The tab "Prompts after noise": topics still matched to their prompt after each mechanism's noise, against ε
    (ε-free: the curve spans ε = 1 … 10,000), and the table's topics with the prompt each matches before noise."""
    m, n = spec.m, spec.n
    curve = data.survival_for(corpus.content_hash, lda, m, n, spec.delta, delta_s, spec.gamma, spec.seed, table, docs)
    st.markdown(text("topicdp", "prompts_tab", m=m, n=n))
    fig, alt = figures.survival_figure(curve)
    show_figure(fig, alt=alt, key="topicdp_prompts_curve", guarantees=shown)
    st.dataframe(pd.DataFrame(panels.matched_rows(table, curve.before, model)), hide_index=True, width="stretch")
