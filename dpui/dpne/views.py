"""Parts of the DP n-gram extraction page's tabs (Kim et al., NeurIPS 2021 = paper 003; SPEC §4), and which tab is
open (issue 24: the tabs are lazy, only the open one runs).

The page (pages/3_DP_ngram_extraction.py) builds the spec, runs DPNE and draws its main chart; the sections below
it (the budget, the k-anonymity coverage, the spurious share against η, one length step by step) and the sweep
tab are drawn here. Cached loaders: dpui.dpne.data; figures and tables: dpui.dpne.figures; texts:
dpui/common/page_texts/dpne.md.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dpcore.dpne import EVALUATION_ONLY, KANONYMITY_LABEL, dpne_guarantee
from dpcore.lab import exercises as _exercises
from dpcore.lab import release_identity
from dpui import show_figure, user_errors
from dpui.common.budget import record_release
from dpui.common.charts import REFERENCE_TAG
from dpui.common.exercises import APPLIED_KEY
from dpui.common.exports import export_view
from dpui.common.lazy import lazy_expander
from dpui.common.reproduce import reproduce_buttons
from dpui.common.state import IN_URL, forget_link_value, run_button
from dpui.common.texts import explain, latex, text
from dpui.dpne import data, figures
from dpui.dpne.knobs import K_OPTIONS, SWEEP_KNOB_NAMES, SWEEP_KNOBS

PAGE = "3_DP_ngram_extraction"
TAB_KEY = "dpne_tab"
TABS = ("Extraction at these settings", "Sweep one knob (Figs. 2–4)")
"""The tabs' labels (the open one is in the URL under ``dpne_tab``; the first, the default, is not)."""
_FOLLOWED = "_dpne_tab_exercise"  # session state: the exercise whose tab was last opened


def open_linked_tab() -> None:
    """An exercise just opened (a ``?exercise=`` link, its Open or Next button) opens the extraction tab: its
    answers are read there. Once per exercise, so the student can then move to the sweep. Call before ``st.tabs``."""
    ex_id = st.session_state.get(APPLIED_KEY)
    if ex_id == st.session_state.get(_FOLLOWED):
        return
    st.session_state[_FOLLOWED] = ex_id
    if ex_id and _exercises.exercise(ex_id).page == PAGE:
        forget_link_value(TAB_KEY)  # a tab named in the same link would win on a first load
        st.session_state[TAB_KEY] = TABS[0]


def on_demand(lazy: bool, n_users: int, label: str, key: str, what: str) -> bool:
    """True when the part may run: always on a small corpus, after its button on a large one (``lazy``)."""
    hint = f"On {n_users:,} users {what} takes minutes: press the button to compute it (once per setting)."
    return not lazy or run_button(label, key, hint=hint)


def budget_expander(result) -> None:
    """How σ and the thresholds are set, and σₖ per length (003 Thm 2.1, Prop. 2.2). A lazy expander: drawn only
    while open (issue 29 item 4; its open state is in the URL as ``dpne_budget_open``)."""
    label = "How the budget and the thresholds are set (003 Thm 2.1, Prop. 2.2)"
    box = lazy_expander(label, key="dpne_budget_open", bind="query-params")
    if box is None:
        return
    with box:
        latex("dpne", "budget_latex")
        st.markdown(text("dpne", "budget_note"))
        sigmas = pd.DataFrame({"k": list(result.sigmas), "σₖ": list(result.sigmas.values())})
        # a named index column (axe: empty-table-header)
        st.dataframe(sigmas.set_index("k").T.rename_axis("length k"), width="stretch")


def coverage_section(spec, corpus, lazy: bool, n_users: int) -> None:
    """The share of the K-anonymous k-grams DPNE releases, for the K the person picks (evaluation only)."""
    ks = st.multiselect(
        "K (users who must share a k-gram)",
        K_OPTIONS,
        default=[10, 20, 50, 100],
        key="dpne_K",
        **IN_URL,
        help="The K-anonymous reference set: k-grams used by at least K distinct users.",
    )
    if not ks:
        st.info("Pick at least one K to see the coverage.")
    elif on_demand(lazy, n_users, "Compute the coverage", "dpne_run_coverage", "the per-user k-gram index"):
        cov = data.coverage(spec, tuple(sorted(ks)), corpus)
        fig, alt = figures.coverage_figure(cov, ks)
        records = figures.coverage_records(cov)  # each line: DPNE's release, read against the K-anonymous k-grams
        show_figure(fig, alt=alt, key="dpne_cov", records=records, guarantees=release_guarantee(spec))
        st.caption(text("dpne", "coverage_caption", kanonymity=KANONYMITY_LABEL, evaluation_only=EVALUATION_ONLY))


SECTIONS = {
    "dpne_coverage_open": "How much of the frequent n-grams does DPNE find? (coverage of the K-anonymous k-grams)",
    "dpne_spurious_open": "Spurious n-grams against η",
    "dpne_step_open": "Step by step: one length",
}
"""The sections below the release's bars, by the key of their lazy expander (in the URL as ``<key>=true`` while
open). Issue 29 item 4: below the fold, each is computed and sent only while open (an ε or η move with all three
closed drew three Plotly charts instead of one: 0.39 -> 0.31 s to the redrawn bars, η 0.40 -> 0.24 s)."""


def below_the_bars(spec, corpus, evaluation, result, *, lazy: bool, n_users: int) -> None:
    """The coverage, the spurious share and one length step by step, each in its lazy expander (:data:`SECTIONS`)."""
    sections = (
        lambda: coverage_section(spec, corpus, lazy, n_users),
        lambda: spurious_section(spec, corpus, evaluation),
        lambda: step_section(result, evaluation, spec.eta),
    )
    for (key, label), draw in zip(SECTIONS.items(), sections, strict=True):
        if box := lazy_expander(label, key=key, bind="query-params"):
            with box:
                draw()


def release_guarantee(spec):
    """DPNE's guarantee at the page's ε and δ (the badge's; each chart's lines are DPNE releases: issue 31 item 3)."""
    return dpne_guarantee(epsilon=spec.epsilon, delta=spec.delta)


SWEEP_KNOB_KEY = "dpne_sweep_knob"
ETA_COMPARE_KEY = "dpne_eta_compare"
"""The button that runs DPNE at every η of the slider (issue 30 item 3: those are releases; the budget counts them)."""


def eta_compare_requested() -> bool:
    """Whether the person asked for DPNE at every η (the button of :func:`spurious_section`, pressed in this run or
    before in the session). Read before the spec is built: it sets the spec's ``eta_grid``."""
    return bool(st.session_state.get(ETA_COMPARE_KEY) or st.session_state.get(ETA_COMPARE_KEY + "_done"))


def spurious_section(spec, corpus, evaluation) -> None:
    """Released and spurious k-grams per length (evaluation only): of the one release above by default; at every η
    of the slider after a button — 7 more releases, each recorded in the session budget (issue 30 item 3)."""
    extra = [e for e in spec.eta_grid if e != spec.eta]
    hint = text("dpne", "spurious_hint", extra=len(data.ETA_OPTIONS) - 1)
    if extra and run_button("Compare every η", ETA_COMPARE_KEY, hint=hint):
        with user_errors():  # from the cached plan: lengths 1–2 share their noise, lengths ≥ 3 draw anew per η
            sweep_rows = data.eta_sweep(spec, corpus)
            for eta, release in data.eta_releases(spec, corpus).items():
                ident = release_identity(spec.replace(eta=eta), without=("eta_grid",))  # the release's spec record
                record_release(release, identity=ident, name=f"DPNE at η = {eta:g} (the η comparison)", render=True)
        which = text("dpne", "spurious_all", n=len(spec.eta_grid), extra=len(extra))
    else:
        sweep_rows = data.DpneSpec.spurious_rows({spec.eta: evaluation})
        which = text("dpne", "spurious_one", eta=spec.eta)
        if not extra:
            run_button("Compare every η", ETA_COMPARE_KEY, hint=hint)
    fig, alt = figures.spurious_figure(sweep_rows, spec.max_length, spec.eta)
    records = figures.spurious_records(sweep_rows, spec.max_length)
    shown = {t.name: release_guarantee(spec) for t in fig.data} | {figures.ETA_TARGET: REFERENCE_TAG}
    show_figure(fig, alt=alt, key="dpne_spurious", records=records, guarantees=shown)
    st.caption(text("dpne", "spurious_caption", evaluation_only=EVALUATION_ONLY, which=which))


def step_section(result, evaluation, eta: float) -> None:
    """One length k ≥ 2 step by step: |S_{k−1}|, |V_k|, ρ_k, and some released k-grams of the longest length."""
    diags = {d.k: d for d in evaluation.levels}
    reached = [k for k in diags if k >= 2]
    if not reached:
        st.info("No length ≥ 2 was reached at these settings (T = 1 or no 1-gram passed ρ₁).")
        return
    k_sel = st.select_slider("length k", reached, value=reached[0], key="dpne_step_k", **IN_URL)
    d = diags[k_sel]
    st.dataframe(figures.step_table(d), hide_index=True, width="stretch")
    st.latex(
        rf"\rho_{{{k_sel}}}=\sigma_{{{k_sel}}}\,\Phi^{{-1}}\Big(1-{eta:g}\cdot\min\big(1,"
        rf"\tfrac{{{d.previous_size}}}{{{d.valid_count}}}\big)\Big)={d.threshold:.4g}"
    )
    longest = max(k for k, n in result.sizes.items() if n)
    sample = sorted(" ".join(g) for g in result.ngrams[longest])[:15]
    st.markdown(
        f"Some released {longest}-grams (the release itself; no counts): " + "; ".join(f"`{s}`" for s in sample)
    )


def sweep_tab(spec, corpus, log_y: bool) -> None:
    """003 Figs. 2–4: DPNE once per value of one knob, the others at the page's settings, after a button."""
    explain("dpne", "sweep_intro")
    # the URL holds the knob's shown name; a link from before (``dpne_sweep_knob=noise_decay``) still opens its knob
    old = st.query_params.get(SWEEP_KNOB_KEY)
    if old in SWEEP_KNOBS and SWEEP_KNOB_KEY not in st.session_state:
        forget_link_value(SWEEP_KNOB_KEY)
        st.session_state[SWEEP_KNOB_KEY] = old
    knob = st.selectbox(
        "Knob",
        list(SWEEP_KNOBS),
        format_func=SWEEP_KNOB_NAMES.get,
        key=SWEEP_KNOB_KEY,
        **IN_URL,
        help="Each value is the release the extraction tab shows at that setting (the same seed, the same draws).",
    )
    label, values = SWEEP_KNOBS[knob]
    request = (spec.key(without=("eta_grid",)), knob, tuple(values))
    if st.button("Run the sweep", key="dpne_sweep_run", type="primary"):
        with user_errors():
            rows = data.knob_sweep(spec, knob, tuple(values), corpus)
            for v, release in data.sweep_releases(spec, knob, tuple(values), corpus).items():  # shown: counted
                ident = release_identity(spec.replace(**{knob: v}), without=("eta_grid",))
                record_release(release, identity=ident, name=f"DPNE at {label} = {v} (the sweep)", render=True)
        st.session_state["dpne_sweep_result"] = (request, rows)
    stored = st.session_state.get("dpne_sweep_result")
    if stored is None or stored[0][1] != knob:
        st.info("Press **Run the sweep** (it runs DPNE once per value, so it is not redone on every slider move).")
        return
    req, rows = stored
    if req != request:
        st.warning("The settings changed since this sweep: press **Run the sweep** to update it.")
    fig, alt = figures.sweep_figure(rows, label, values, log_y=log_y)
    shown = {f"{label} = {v}": release_guarantee(spec.replace(**{knob: v})) for v in values}  # each: a release
    show_figure(fig, alt=alt, key="dpne_sweep_fig", guarantees=shown)


def export_release(rows, spec, result, knobs, settings, *, chash: str) -> None:
    """The release's rows as CSV and JSON with every setting and salt, and its notebook and script."""
    export_view(
        "n-grams per length",
        rows,
        settings={
            "page": "DP n-gram extraction",
            "epsilon": spec.epsilon,
            "delta": spec.delta,
            "seed": spec.seed,
            "corpus": settings.corpus_label,
            "corpus_hash": chash,
            "T": knobs.T,
            "delta0": knobs.delta0,
            "eta": knobs.eta,
            "c": knobs.decay,
            "pruning": knobs.pruning,
            "selection": knobs.selection,
            "policy": knobs.policy,
            "sigma_for_eps_delta_half": result.sigma,
            "guarantee": result.guarantee,
            # the salts exactly as drawn (issue 22: they had drifted); η enters dpcore's keys from length 3
            "rng_salt_dpne": list(spec.dpne_salt()),  # the noise's (spec version 2: the selection apart)
            "rng_salt_dpne_selection": list(spec.dpne_selection_salt()),
            "rng_salt_dpsu_selection": {n: list(spec.baseline_selection_salt(n)) for n in data.BASELINES},
            "rng_salt_dpsu_noise": {n: list(spec.baseline_noise_salt(n)) for n in data.BASELINES},
            "note": text("dpne", "export_note"),
        },
        key="dpne_export_sizes",
        spec=spec,
    )
    reproduce_buttons(
        spec,
        title="the DP n-gram extraction page (DPNE, the DPSU baselines, spurious share vs η)",
        key="dpne_reproduce",
    )
