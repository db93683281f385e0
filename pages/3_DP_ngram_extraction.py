"""DP n-gram extraction — DPNE against the DPSU baselines (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

Tab 1 runs DPNE once for the current knobs and compares it with DPSU-all / -even / -single, shows
k-anonymity coverage, the actual spurious share against η and a step-by-step view of one length.
Tab 2 sweeps one knob (Δ0, ε, η, c or the pruning rule) and plots n-grams per length (003 Figs. 2–4).
Cached loaders: dpui.dpne_data; figures and tables: dpui.dpne_figures; texts: dpui/page_texts/dpne.md.
"""

import numpy as np
import pandas as pd
import streamlit as st

from dpcore.dpne import EVALUATION_ONLY, KANONYMITY_LABEL
from dpcore.lab.review import items_per_user
from dpcore import review_release
from dpcore.dpne import dpne_guarantee
from dpcore.specs import DpneSpec
from dpui import exercise_mode, export_view, guarantee_badge, paper_vs_here, reviewer_panel, shared_sidebar, show_figure, user_errors
from dpui import dpne_data as data
from dpui import dpne_figures as figures
from dpui.reproduce import reproduce_buttons
from dpui.state import IN_URL, run_button
from dpui.text_profile_panel import text_profile_panel
from dpui.texts import latex, text

st.set_page_config(page_title="DP n-gram extraction", page_icon="🧩", layout="wide")
exercise_mode("3_DP_ngram_extraction")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
# opens at Table 4's ε (δ = 1e-6): on the real chat's 920 people ε = 1 releases a handful of n-grams (dpne.md)
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"), defaults=data.PAGE_DEFAULTS)
DECAY_OPTIONS = (0.8, 0.9, 1.0, 1.1, 1.2)
K_OPTIONS = (2, 5, 10, 20, 50, 100, 200, 500)
SWEEP_KNOBS = {  # dpcore parameter → (label, values)
    "contribution_limit": ("Δ0", [5, 10, 20, 50, 100, 200]),
    "epsilon": ("ε", [1.0, 2.0, 3.0, 4.0]),
    "eta": ("η", [0.005, 0.01, 0.02, 0.05, 0.1, 0.2]),
    "noise_decay": ("c", [0.8, 0.9, 1.0, 1.1, 1.2]),
    "pruning": ("pruning rule", ["single", "both"]),
}

st.title("Differentially private n-gram extraction (DPNE)")
st.caption(text("dpne", "caption"))
paper_vs_here("3_DP_ngram_extraction", settings)  # the paper's numbers beside ours, a preset to its settings
c1, c2, c3, c4 = st.columns(4)
eta = c1.select_slider("η (tolerated spurious fraction)", data.ETA_OPTIONS, value=0.01, key="dpne_eta", **IN_URL,
                       help="Sets the thresholds ρₖ (k ≥ 2); it does not change the privacy guarantee.")
delta0 = int(c2.number_input("Δ0 (items per user per length)", min_value=1, max_value=500, value=50, step=5,
                             key="dpne_delta0", **IN_URL, help="Contribution limit Δ_1 = … = Δ_T = Δ0."))
T = c3.slider("T (longest n-gram)", 1, data.MAX_T, 6, key="dpne_T", **IN_URL)
decay = c4.select_slider("c (noise decay: σₖ = c·σₖ₋₁)", DECAY_OPTIONS, value=1.0, key="dpne_c", **IN_URL,
                         help="c < 1 spends more budget on long n-grams, c > 1 on short ones.")
c5, c6, c7, c8 = st.columns(4)
pruning = c5.radio("Pruning rule (valid k-grams)", ("both", "single"), horizontal=True, key="dpne_pruning",
                   captions=("both sides", "single side"), **IN_URL)
selection = c6.radio("Which Δ0 items a user keeps", ("random", "most-frequent"), horizontal=True,
                     key="dpne_selection", **IN_URL)
policy = c7.radio("DPSU update policy", ("weighted", "policy"), horizontal=True, key="dpne_policy",
                  captions=("weighted Gaussian", "Policy Gaussian"), **IN_URL,
                  help="Weighted Gaussian (as in the paper): 1/√|U_i| per kept item. Policy Gaussian (Gopi et al. "
                       "2020): users in random order push their items towards Γ = ρ + 2σ with an ℓ2 step ≤ 1. "
                       "Same σ, same ρ, same guarantee; the Policy Gaussian is slower (a loop over users).")
log_y = c8.toggle("Log scale for counts", value=True, key="dpne_log", **IN_URL)

corpus, eps, delta, seed = settings.private, settings.epsilon, settings.delta, settings.seed
chash = corpus.content_hash
with user_errors():  # one spec: the page's computation, its draws, its export record and its notebook (issue 22)
    spec = DpneSpec(seed=seed, corpus=settings.data, corpus_hash=chash, epsilon=eps, delta=delta, max_length=T,
                    contribution_limit=delta0, eta=eta, noise_decay=decay, pruning=pruning, selection=selection,
                    policy=policy)
    tc = data.token_corpus(chash, corpus)
    result, evaluation = data.dpne_run(spec, corpus)

guarantee_badge(result.guarantee, name="DPNE")
if settings.data == "chat" and (sweep := data.chat_epsilon_sentence()):  # what ε the real chat's 920 people need
    st.info(text("dpne", "opens_at", eps=data.PAGE_DEFAULTS["eps"], delta=data.PAGE_DEFAULTS["delta"], sweep=sweep))
lazy = tc.n_users > data.LAZY_USERS  # paper-size corpus: the costly comparisons wait for a button


def on_demand(label: str, key: str, what: str) -> bool:
    """True when the part may run: always on a small corpus, after its button on a large one."""
    return not lazy or run_button(label, key, hint=f"On {tc.n_users:,} users {what} takes minutes: press the button "
                                                   "to compute it (once per setting).")


tab_main, tab_sweep = st.tabs(["Extraction at these settings", "Sweep one knob (Figs. 2–4)"])

with tab_main:
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("σ for (ε, δ/2)", f"{result.sigma:.4g}")
    m2.metric("ρ₁ (DPSU threshold)", f"{result.thresholds[1]:.4g}")
    m3.metric("n-grams released", f"{result.total:,}")
    m4.metric("longest released length", max((k for k, n in result.sizes.items() if n), default=0))
    with st.expander("How the budget and the thresholds are set (003 Thm 2.1, Prop. 2.2)", expanded=False):
        latex("dpne", "budget_latex")
        st.markdown(text("dpne", "budget_note"))
        st.dataframe(pd.DataFrame({"k": list(result.sigmas), "σₖ": list(result.sigmas.values())}).set_index("k").T
                     .rename_axis("length k"), width="stretch")  # a named index column (axe: empty-table-header)

    # --- n-grams per length: DPNE vs DPSU variants
    base = {}
    if on_demand("Compute the DPSU baselines", "dpne_run_baselines", "running DPSU-all, -even and -single"):
        with user_errors():
            base = data.baseline_sizes(spec, corpus)
    series = {"DPNE": result.sizes, **base}
    fig, alt = figures.sizes_figure(series, T, log_y=log_y,
                                    title=f"n-grams extracted per length at ε = {eps:g}, δ = {delta:g}, Δ0 = {delta0}")
    rows = [{"k": k, **{f"{name} |Sₖ|": sizes.get(k, 0) for name, sizes in series.items()},
             "DPNE σₖ": result.sigmas.get(k), "DPNE ρₖ": result.thresholds.get(k),
             "DPNE |Vₖ|": result.valid_counts.get(k)} for k in range(1, T + 1)]
    show_figure(fig, alt=alt, key="dpne_bars", records=rows)
    for name in base:  # the baselines' guarantees, from the same function their releases use
        guarantee_badge(dpne_guarantee(epsilon=eps, delta=delta, single_length=name == "DPSU-single"), name=name)
    st.caption(text("dpne", "defaults_caption", n_users=tc.n_users, median_words=float(np.median(items_per_user(tc)))))
    st.caption(text("dpne", "baselines_caption"))
    export_view("n-grams per length", rows, settings={"page": "DP n-gram extraction", "epsilon": eps, "delta": delta, "seed": seed,
                  "corpus": settings.corpus_label, "corpus_hash": chash, "T": T, "delta0": delta0, "eta": eta,
                  "c": decay, "pruning": pruning, "selection": selection, "policy": policy,
                  "sigma_for_eps_delta_half": result.sigma, "guarantee": result.guarantee,
                  # the salts exactly as drawn (issue 22: they had drifted); η enters dpcore's keys from length 3
                  "rng_salt_dpne": list(spec.dpne_salt()), "rng_salt_dpsu": list(spec.baseline_salt()),
                  "note": "sizes of the released sets only (never counts); DPSU-single: one separate (ε, δ) "
                          "release per length; σₖ, ρₖ, |Vₖ| are DPNE's (ρₖ, |Vₖ| only for lengths reached)"},
        key="dpne_export_sizes", spec=spec)
    reproduce_buttons(spec, title="the DP n-gram extraction page (DPNE, the DPSU baselines, spurious share vs η)",
                      key="dpne_reproduce")
    # what the text looks like, and the measured reason for DPNE vs DPSU-single on it (the index comes with the coverage)
    index = data.ngram_index(chash, corpus) if not lazy or st.session_state.get("dpne_run_coverage_done") else None
    text_profile_panel("dpne", settings, index=index, reason=None if index is None else data.why_dpne(spec, corpus))

    st.header("How much of the frequent n-grams does DPNE find?")
    ks = st.multiselect("K (users who must share a k-gram)", K_OPTIONS, default=[10, 20, 50, 100], key="dpne_K",
                        **IN_URL, help="The K-anonymous reference set: k-grams used by at least K distinct users.")
    if not ks:
        st.info("Pick at least one K to see the coverage.")
    elif on_demand("Compute the coverage", "dpne_run_coverage", "the per-user k-gram index"):
        cov = data.coverage(spec, tuple(sorted(ks)), corpus)
        fig, alt = figures.coverage_figure(cov, ks)
        show_figure(fig, alt=alt, key="dpne_cov")
        st.caption(text("dpne", "coverage_caption", kanonymity=KANONYMITY_LABEL, evaluation_only=EVALUATION_ONLY))

    st.header("Spurious n-grams against η")
    # every η of the slider from the cached plan (the page's own draws): on the paper-size corpus ~0.7 s each on
    # the first render, after which an η move is a cache hit
    with user_errors():
        sweep_rows = data.eta_sweep(spec, corpus)
    fig, alt = figures.spurious_figure(sweep_rows, T, eta)
    show_figure(fig, alt=alt, key="dpne_spurious")
    st.caption(text("dpne", "spurious_caption", evaluation_only=EVALUATION_ONLY))

    st.header("Step by step: one length")
    diags = {d.k: d for d in evaluation.levels}
    reached = [k for k in diags if k >= 2]
    if reached:
        k_sel = st.select_slider("length k", reached, value=reached[0], key="dpne_step_k", **IN_URL)
        d = diags[k_sel]
        st.dataframe(figures.step_table(d), hide_index=True, width="stretch")
        st.latex(rf"\rho_{{{k_sel}}}=\sigma_{{{k_sel}}}\,\Phi^{{-1}}\Big(1-{eta:g}\cdot\min\big(1,"
                 rf"\tfrac{{{d.previous_size}}}{{{d.valid_count}}}\big)\Big)={d.threshold:.4g}")
        longest = max(k for k, n in result.sizes.items() if n)
        sample = sorted(" ".join(g) for g in result.ngrams[longest])[:15]
        st.markdown(f"Some released {longest}-grams (the release itself; no counts): "
                    + "; ".join(f"`{s}`" for s in sample))
    else:
        st.info("No length ≥ 2 was reached at these settings (T = 1 or no 1-gram passed ρ₁).")

with tab_sweep:
    st.markdown(text("dpne", "sweep_intro"))
    knob = st.selectbox("Knob", list(SWEEP_KNOBS), key="dpne_sweep_knob", **IN_URL,
                        help="dpcore's parameter names: " + ", ".join(f"{k} = {v[0]}" for k, v in SWEEP_KNOBS.items()))
    label, values = SWEEP_KNOBS[knob]
    request = (spec.key(without=("eta_grid",)), knob, tuple(values))
    if st.button("Run the sweep", key="dpne_sweep_run", type="primary"):
        with user_errors():
            rows = data.knob_sweep(spec, knob, tuple(values), corpus)
        st.session_state["dpne_sweep_result"] = (request, rows)
    stored = st.session_state.get("dpne_sweep_result")
    if stored is None or stored[0][1] != knob:
        st.info("Press **Run the sweep** (it runs DPNE once per value, so it is not redone on every slider move).")
    else:
        req, rows = stored
        if req != request:
            st.warning("The settings changed since this sweep: press **Run the sweep** to update it.")
        fig, alt = figures.sweep_figure(rows, label, values, log_y=log_y)
        show_figure(fig, alt=alt, key="dpne_sweep_fig")

# ------------------------------------------------------------------------------ reviewer's panel
reviewer_panel([("DPNE", review_release(result, n_users=tc.n_users, user_items=items_per_user(tc)))])
