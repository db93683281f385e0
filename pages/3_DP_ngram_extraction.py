"""DP n-gram extraction — DPNE against the DPSU baselines (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

Tab 1 runs DPNE once for the current knobs and compares it with DPSU-all / -even / -single, shows
k-anonymity coverage, the actual spurious share against η and a step-by-step view of one length.
Tab 2 sweeps one knob (Δ0, ε, η, c or the pruning rule) and plots n-grams per length (003 Figs. 2–4).
Only the open tab runs (issue 24; it is in the URL as ``dpne_tab``). Knobs: dpui.dpne.knobs; cached loaders:
dpui.dpne.data; the tabs' sections: dpui.dpne.views; figures and tables: dpui.dpne.figures; texts:
dpui/common/page_texts/dpne.md.
"""

import numpy as np
import streamlit as st

from dpcore import review_release
from dpcore.dpne import dpne_guarantee
from dpcore.lab import release_identity
from dpcore.lab.review import items_per_user
from dpcore.specs import DpneSpec
from dpui import exercise_mode, guarantee_badge, reviewer_panel, shared_sidebar, show_figure, user_errors
from dpui.common.paper_vs_here import paper_vs_here
from dpui.common.presenter import presenter_stage
from dpui.common.exports import export_box
from dpui.common.risk import attacker_view
from dpui.common.sidebar import SharedSettings
from dpui.common.text_profile_panel import text_profile_panel
from dpui.common.texts import text
from dpui.dpne import data, figures, views
from dpui.dpne.knobs import dpne_knobs

st.set_page_config(page_title="DP n-gram extraction", page_icon="🧩", layout="wide")
exercise_mode("3_DP_ngram_extraction")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
# opens at Table 4's ε (δ = 1e-6): on the real chat's 920 people ε = 1 releases a handful of n-grams (dpne.md)
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"), defaults=data.PAGE_DEFAULTS, epsilon_fragment=True)

st.title("Differentially private n-gram extraction (DPNE)")
stage = presenter_stage()  # presenter mode: n-grams per length here, ε and η beside it (issue 31)
st.caption(text("dpne", "caption"))
paper_vs_here("3_DP_ngram_extraction", settings)  # the paper's numbers beside ours, a preset to its settings
knobs = dpne_knobs(stage)  # η, Δ0, T, c, pruning, selection, DPSU policy, log scale


def release(settings: SharedSettings) -> None:
    """The release at the sidebar's ε and everything that reads it: an st.fragment, so an ε move reruns only this
    (SharedSettings.with_epsilon)."""
    corpus, eps, delta, seed = settings.private, settings.epsilon, settings.delta, settings.seed
    chash = corpus.content_hash
    with user_errors():  # one spec: the page's computation, its draws, its export record and its notebook (issue 22)
        spec = DpneSpec(
            seed=seed,
            corpus=settings.data,
            corpus_hash=chash,
            epsilon=eps,
            delta=delta,
            max_length=knobs.T,
            contribution_limit=knobs.delta0,
            eta=knobs.eta,
            noise_decay=knobs.decay,
            pruning=knobs.pruning,
            selection=knobs.selection,
            policy=knobs.policy,
            # the spurious chart: the one release, or every η of the slider once asked for (the budget counts each)
            eta_grid=data.ETA_OPTIONS if views.eta_compare_requested() else (knobs.eta,),
        )

    guarantee_badge(dpne_guarantee(epsilon=spec.epsilon, delta=spec.delta), name="DPNE")  # the release's own
    attacker_view(dpne_guarantee(epsilon=spec.epsilon, delta=spec.delta), key="dpne_risk_curve")
    if settings.data == "chat" and (sweep := data.chat_epsilon_sentence()):  # what ε the real chat's 920 people need
        st.info(text("dpne", "opens_at", eps=data.PAGE_DEFAULTS["eps"], delta=data.PAGE_DEFAULTS["delta"], sweep=sweep))
    views.open_linked_tab()  # an exercise opens the extraction tab
    tab_main, tab_sweep = st.tabs(views.TABS, key=views.TAB_KEY, bind="query-params")

    if tab_main.open:
        with tab_main:
            with user_errors():
                tc = data.token_corpus(chash, corpus)
                result, evaluation = data.dpne_run(spec, corpus)
            lazy = tc.n_users > data.LAZY_USERS  # paper-size corpus: the costly comparisons wait for a button
            m1, m2, m3, m4 = st.columns(4)
            m1.metric("σ for (ε, δ/2)", f"{result.sigma:.4g}")
            m2.metric("ρ₁ (DPSU threshold)", f"{result.thresholds[1]:.4g}")
            m3.metric("n-grams released", f"{result.total:,}")
            m4.metric("longest released length", max((k for k, n in result.sizes.items() if n), default=0))
            views.budget_expander(result)

            # --- n-grams per length: DPNE vs DPSU variants
            base = {}
            what = "running DPSU-all, -even and -single"
            if views.on_demand(lazy, tc.n_users, "Compute the DPSU baselines", "dpne_run_baselines", what):
                with user_errors():
                    base = data.baseline_sizes(spec, corpus)
            series = {"DPNE": result.sizes, **base}
            title = f"n-grams extracted per length at ε = {eps:g}, δ = {delta:g}, Δ0 = {knobs.delta0}"
            fig, alt = figures.sizes_figure(series, knobs.T, log_y=knobs.log_y, title=title)
            rows = [
                {
                    "k": k,
                    **{f"{name} |Sₖ|": sizes.get(k, 0) for name, sizes in series.items()},
                    "DPNE σₖ": result.sigmas.get(k),
                    "DPNE ρₖ": result.thresholds.get(k),
                    "DPNE |Vₖ|": result.valid_counts.get(k),
                }
                for k in range(1, knobs.T + 1)
            ]
            # every release's guarantee, from the same function the releases use: in the legend and on the badges
            shown = {
                name: dpne_guarantee(epsilon=eps, delta=delta, single_length=name == "DPSU-single") for name in series
            }
            with stage.chart([(g, name) for name, g in shown.items()]):  # presenter mode: at the top, badges above
                show_figure(fig, alt=alt, key="dpne_bars", records=rows, guarantees=shown)
            for name in base:
                guarantee_badge(shown[name], name=name)
            median_words = float(np.median(items_per_user(tc)))
            st.caption(text("dpne", "defaults_caption", n_users=tc.n_users, median_words=median_words))
            st.caption(text("dpne", "baselines_caption"))
            if box := export_box("dpne_release"):  # built only while open (issue 29 item 4)
                with box:
                    views.export_release(rows, spec, result, knobs, settings, chash=chash)
            # what the text looks like, and the measured reason for DPNE vs DPSU-single on it (the index comes with
            # the coverage); computed only when the expander is open (issue 29 item 4)
            index = (
                data.ngram_index(chash, corpus) if not lazy or st.session_state.get("dpne_run_coverage_done") else None
            )
            reason = None if index is None else (lambda: data.why_dpne(spec, corpus))
            text_profile_panel("dpne", settings, index=index, reason=reason, key="dpne_profile_open")

            views.below_the_bars(spec, corpus, evaluation, result, lazy=lazy, n_users=tc.n_users)  # lazy (issue 29)

    if tab_sweep.open:
        with tab_sweep:
            views.sweep_tab(spec, corpus, knobs.log_y)

    # ------------------------------------------------------------------------------ reviewer's panel
    if tab_main.open:  # it covers the release shown in that tab: the session budget counts no release left unseen
        ident = release_identity(spec, without=("eta_grid",))  # the release's spec record (issue 30 item 2)
        review = review_release(result, n_users=tc.n_users, user_items=items_per_user(tc), identity=ident)
        reviewer_panel([("DPNE", review)])


settings.with_epsilon(release)
