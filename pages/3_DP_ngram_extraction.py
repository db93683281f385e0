"""DP n-gram extraction — DPNE against the DPSU baselines (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

Tab 1 runs DPNE once for the current knobs and compares it with DPSU-all / -even / -single, shows
k-anonymity coverage, the actual spurious share against η and a step-by-step view of one length.
Tab 2 sweeps one knob (Δ0, ε, η, c or the pruning rule) and plots n-grams per length (003 Figs. 2–4).
All maths lives in dpcore; what does not depend on the noise is cached by corpus hash.
Page knobs are bound to the URL (bind="query-params", keys = parameter names) and kept for the
session, so a copied link reproduces the view; the download buttons export its numbers with settings.
"""

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dpcore import (
    EVALUATION_ONLY,
    KANONYMITY_LABEL,
    build_ngram_index,
    dpne,
    dpne_noise_scales,
    dpsu_all,
    dpsu_even,
    dpsu_single,
    encode_users,
    kanonymity_coverage,
)
from dpui import exercise_mode, export_view, guarantee_badge, shared_sidebar, show_figure, user_errors
from dpui.charts import PALETTE

st.set_page_config(page_title="DP n-gram extraction", page_icon="🧩", layout="wide")
exercise_mode("3_DP_ngram_extraction")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar()

ETA_OPTIONS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
DECAY_OPTIONS = (0.8, 0.9, 1.0, 1.1, 1.2)
MAX_T = 10
K_OPTIONS = (2, 5, 10, 20, 50, 100, 200, 500)
METHOD_COLOURS = {"DPNE": PALETTE[0], "DPSU-all": PALETTE[1], "DPSU-even": PALETTE[2], "DPSU-single": PALETTE[3]}


# ------------------------------------------------------------------------------ cached, noise-free
@st.cache_resource(show_spinner="Encoding the corpus as token ids …", max_entries=4)
def token_corpus(corpus_hash: str, _corpus):
    tc = encode_users(_corpus.user_sentences())
    _ = tc.unigram_pairs  # computed once here, reused by every DPNE run (an assignment: no st magic)
    return tc


@st.cache_resource(show_spinner="Building the per-user n-gram sets …", max_entries=4)
def ngram_index(corpus_hash: str, _corpus):
    return build_ngram_index(token_corpus(corpus_hash, _corpus), MAX_T)


# ------------------------------------------------------------------------------ cached, seed in key
@st.cache_data(show_spinner="Running the DPSU baselines …", max_entries=64)
def baseline_sizes(corpus_hash, epsilon, delta, T, delta0, selection, policy, seed, _corpus):
    index = ngram_index(corpus_hash, _corpus)
    rng = settings.rng("dpne-baselines", T, delta0, selection, policy)
    kw = dict(epsilon=epsilon, delta=delta, max_length=T, contribution_limit=delta0, selection=selection,
              policy=policy, rng=rng)
    return {rel.name: rel.sizes for rel in (dpsu_all(index, **kw), dpsu_even(index, **kw), dpsu_single(index, **kw))}


@st.cache_data(show_spinner="Running DPNE for each η …", max_entries=64)
def eta_sweep(corpus_hash, epsilon, delta, T, delta0, decay, pruning, selection, policy, seed, _corpus):
    tc = token_corpus(corpus_hash, _corpus)
    rows = []
    for eta in ETA_OPTIONS:
        res = dpne(tc, epsilon=epsilon, delta=delta, max_length=T, contribution_limit=delta0, eta=eta,
                   noise_decay=decay, pruning=pruning, selection=selection, policy=policy,
                   rng=settings.rng("dpne-eta-sweep", eta, T, delta0, decay, pruning, selection, policy))
        for d in res.evaluation.levels:
            rows.append({"eta": eta, "k": d.k, "released": d.released, "spurious": d.spurious})
    return rows


@st.cache_data(show_spinner="Sweeping …", max_entries=32)
def knob_sweep(corpus_hash, knob, values, base, seed, _corpus):
    tc = token_corpus(corpus_hash, _corpus)
    rows = []
    for v in values:
        p = dict(base)
        p[knob] = v
        res = dpne(tc, epsilon=p["epsilon"], delta=p["delta"], max_length=p["max_length"],
                   contribution_limit=p["contribution_limit"], eta=p["eta"], noise_decay=p["noise_decay"],
                   pruning=p["pruning"], selection=p["selection"], policy=p["policy"],
                   rng=settings.rng("dpne-sweep", knob, v))
        for k, n in res.sizes.items():
            rows.append({"value": v, "k": k, "released": n})
    return rows


# ------------------------------------------------------------------------------ header and knobs
st.title("Differentially private n-gram extraction (DPNE)")
st.caption("After Kim, Gopi, Kulkarni, Yekhanin, *Differentially Private n-gram Extraction* (NeurIPS 2021). "
           "ε and δ come from the sidebar; neighbouring corpora differ by one user.")

c1, c2, c3, c4 = st.columns(4)
eta = c1.select_slider("η (tolerated spurious fraction)", ETA_OPTIONS, value=0.01, key="dpne_eta",
                       bind="query-params", persist_state="session",
                       help="Sets the thresholds ρ_k (k ≥ 2); it does not change the privacy guarantee.")
delta0 = c2.number_input("Δ0 (items per user per length)", min_value=1, max_value=500, value=50, step=5,
                         key="dpne_delta0", bind="query-params", persist_state="session",
                         help="Contribution limit Δ_1 = … = Δ_T = Δ0.")
T = c3.slider("T (longest n-gram)", 1, MAX_T, 6, key="dpne_T", bind="query-params", persist_state="session")
decay = c4.select_slider("c (noise decay: σₖ = c·σₖ₋₁)", DECAY_OPTIONS, value=1.0, key="dpne_c",
                         bind="query-params", persist_state="session",
                         help="c < 1 spends more budget on long n-grams, c > 1 on short ones.")
c5, c6, c7, c8 = st.columns(4)
pruning = c5.radio("Pruning rule (valid k-grams)", ("both", "single"), horizontal=True, key="dpne_pruning",
                   captions=("both sides", "single side"), bind="query-params", persist_state="session")
selection = c6.radio("Which Δ0 items a user keeps", ("random", "most-frequent"), horizontal=True,
                     key="dpne_selection", bind="query-params", persist_state="session")
policy = c7.radio("DPSU update policy", ("weighted", "policy"), horizontal=True, key="dpne_policy",
                  captions=("weighted Gaussian", "Policy Gaussian"), bind="query-params", persist_state="session",
                  help="Weighted Gaussian (as in the paper): 1/√|U_i| per kept item. Policy Gaussian (Gopi et al. "
                       "2020): users in random order push their items towards Γ = ρ + 2σ with an ℓ2 step ≤ 1. "
                       "Same σ, same ρ, same guarantee; the Policy Gaussian is slower (a loop over users).")
log_y = c8.toggle("Log scale for counts", value=True, key="dpne_log", bind="query-params", persist_state="session")

corpus = settings.private
chash = corpus.content_hash
eps, delta = settings.epsilon, settings.delta

with user_errors():
    tc = token_corpus(chash, corpus)
    result = dpne(tc, epsilon=eps, delta=delta, max_length=T, contribution_limit=int(delta0), eta=eta,
                  noise_decay=decay, pruning=pruning, selection=selection, policy=policy,
                  rng=settings.rng("dpne", T, int(delta0), decay, pruning, selection, policy, eta))

guarantee_badge(result.guarantee)
tab_main, tab_sweep = st.tabs(["Extraction at these settings", "Sweep one knob (Figs. 2–4)"])

# ------------------------------------------------------------------------------ tab 1
with tab_main:
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("σ for (ε, δ/2)", f"{result.sigma:.4g}")
    m2.metric("ρ₁ (DPSU threshold)", f"{result.thresholds[1]:.4g}")
    m3.metric("n-grams released", f"{result.total:,}")
    m4.metric("longest released length", max((k for k, n in result.sizes.items() if n), default=0))

    with st.expander("How the budget and the thresholds are set (003 Thm 2.1, Prop. 2.2)", expanded=False):
        st.latex(r"\tfrac{\delta}{2}=\Phi\!\Big(\tfrac{1}{2\sigma}-\varepsilon\sigma\Big)-e^{\varepsilon}\,"
                 r"\Phi\!\Big(-\tfrac{1}{2\sigma}-\varepsilon\sigma\Big),\qquad"
                 r"\sigma_k=\sigma_1c^{k-1},\quad \sum_{k=1}^{T}\frac{1}{\sigma_k^2}=\frac{1}{\sigma^2}")
        st.latex(r"\rho_1=\max_{1\le t\le\Delta_0}\Big[\tfrac{1}{\sqrt t}+\sigma_1\,\Phi^{-1}\big((1-\tfrac{\delta}{2})^{1/t}\big)\Big],"
                 r"\qquad \rho_k=\sigma_k\,\Phi^{-1}\Big(1-\eta\min\big(1,\tfrac{|S_{k-1}|}{|V_k|}\big)\Big)")
        st.latex(r"V_k=(S_{k-1}\times S_1)\cap(S_1\times S_{k-1})\ \text{(both sides)}\quad\text{or}\quad"
                 r"V_k=S_{k-1}\times S_1\ \text{(single side)}")
        st.markdown("Each user keeps at most Δ0 of their valid k-grams and adds 1/√|U_i| to each (ℓ2 norm 1); "
                    "a k-gram is released when its weight plus N(0, σ_k²) exceeds ρ_k. Valid k-grams nobody "
                    "wrote pass with probability η·min(1, |S_{k−1}|/|V_k|): at most η·min(|S_{k−1}|, |V_k|) "
                    "spurious k-grams are expected. Only the **sets** are released, never counts.")
        st.dataframe(pd.DataFrame({"k": list(result.sigmas), "σ_k": list(result.sigmas.values())}).set_index("k").T,
                     width="stretch")

    # --- n-grams per length: DPNE vs DPSU variants
    with user_errors():
        base = baseline_sizes(chash, eps, delta, T, int(delta0), selection, policy, settings.seed, corpus)
    lengths = list(range(1, T + 1))
    fig = go.Figure()
    series = {"DPNE": result.sizes, **base}
    for name, sizes in series.items():
        fig.add_trace(go.Bar(x=lengths, y=[sizes.get(k, 0) for k in lengths], name=name,
                             marker_color=METHOD_COLOURS[name]))
    fig.update_layout(barmode="group", title=f"n-grams extracted per length at ε = {eps:g}, δ = {delta:g}, Δ0 = {int(delta0)}",
                      xaxis_title="n-gram length k (tokens)",
                      yaxis_title="number of k-grams released (higher is better)" + (" — log scale" if log_y else ""))
    fig.update_xaxes(dtick=1)
    if log_y:
        fig.update_yaxes(type="log")
    long_dpne = sum(n for k, n in result.sizes.items() if k >= 4)
    long_even = sum(n for k, n in base["DPSU-even"].items() if k >= 4)
    show_figure(fig, alt=(f"Grouped bars of released k-grams per length 1 to {T}. DPNE: "
                          + ", ".join(f"k={k}: {result.sizes.get(k, 0)}" for k in lengths)
                          + ". DPSU-even: " + ", ".join(f"k={k}: {base['DPSU-even'].get(k, 0)}" for k in lengths)
                          + f". Lengths 4 and up: DPNE {long_dpne}, DPSU-even {long_even}."), key="dpne_bars")
    st.caption("The paper's Fig. 1 / Table 4 use ε = 4, δ = 1e-7 (set them in the sidebar). Defaults here: T = 6, "
               "Δ0 = 50 (about the median number of distinct k-grams a user of the 2,400-user sample holds), "
               "η = 0.01, c = 1, both-sides pruning.")
    st.caption("DPSU-all: one DPSU over all lengths with contribution T·Δ0. DPSU-even: one DPSU per length with "
               "σ_k = σ√T. DPSU-single: the **whole** budget on one length, run separately for each length "
               "(each bar is its own (ε, δ) release, so the bars together are not one release).")
    export_view("n-grams per length", [
        {"k": k, **{f"{name} |S_k|": sizes.get(k, 0) for name, sizes in series.items()},
         "DPNE σ_k": result.sigmas.get(k), "DPNE ρ_k": result.thresholds.get(k),
         "DPNE |V_k|": result.valid_counts.get(k)}
        for k in lengths],
        settings={"page": "DP n-gram extraction", "epsilon": eps, "delta": delta, "seed": settings.seed,
                  "corpus": settings.corpus_label, "corpus_hash": chash, "T": T, "delta0": int(delta0), "eta": eta,
                  "c": decay, "pruning": pruning, "selection": selection, "policy": policy,
                  "sigma_for_eps_delta_half": result.sigma, "guarantee": result.guarantee,
                  "rng_salt_dpne": ["dpne", T, int(delta0), decay, pruning, selection, policy, eta],
                  "rng_salt_dpsu": ["dpne-baselines", T, int(delta0), selection, policy],
                  "note": "sizes of the released sets only (never counts); DPSU-single: one separate (ε, δ) "
                          "release per length; σ_k, ρ_k, |V_k| are DPNE's (ρ_k, |V_k| only for lengths reached)"},
        key="dpne_export_sizes")

    # --- k-anonymity coverage
    st.subheader("How much of the frequent n-grams does DPNE find?")
    ks = st.multiselect("K (users who must share a k-gram)", K_OPTIONS, default=[10, 20, 50, 100], key="dpne_K",
                        bind="query-params", persist_state="session",
                        help="The K-anonymous reference set: k-grams used by at least K distinct users.")
    if ks:
        index = ngram_index(chash, corpus)
        cov = kanonymity_coverage(index, result.ids, ks=sorted(ks), max_length=T)
        traces, alt_parts = [], []
        for i, K in enumerate(sorted(ks)):
            part = [r for r in cov.rows if r["K"] == K]
            traces.append({"type": "scatter", "mode": "lines+markers", "name": f"K = {K}",
                           "x": [r["k"] for r in part], "y": [None if r["frequent"] == 0 else r["share"] for r in part],
                           "line": {"color": PALETTE[i % len(PALETTE)]},
                           "customdata": [[r["frequent"], r["covered"]] for r in part],
                           "hovertemplate": "k=%{x}: %{customdata[1]} of %{customdata[0]} k-grams (%{y:.0%})"})
            alt_parts.append(f"K={K}: " + ", ".join(f"k={r['k']} {r['share']:.0%}" if r["frequent"] else f"k={r['k']} none"
                                                   for r in part))
        figc = go.Figure({"data": traces, "layout": {
            "title": {"text": "Share of the k-grams used by at least K users that DPNE released"},
            "xaxis": {"title": {"text": "n-gram length k (tokens)"}, "dtick": 1},
            "yaxis": {"title": {"text": "covered share (higher is better)"}, "range": [0, 1.05]}}})
        show_figure(figc, alt="Lines, one per K, of the share of k-grams used by at least K users that DPNE "
                              "released, against k: " + "; ".join(alt_parts), key="dpne_cov")
        st.caption(f"Reference sets: **{KANONYMITY_LABEL}** — releasing every k-gram used by ≥ K users gives no "
                   f"DP guarantee. Coverage is {EVALUATION_ONLY}. A point is missing where no k-gram reaches K users.")
    else:
        st.info("Pick at least one K to see the coverage.")

    # --- spurious share against η
    st.subheader("Spurious n-grams against η")
    with user_errors():
        sweep_rows = eta_sweep(chash, eps, delta, T, int(delta0), decay, pruning, selection, policy, settings.seed,
                               corpus)
    by = {(r["eta"], r["k"]): (r["released"], r["spurious"]) for r in sweep_rows}
    traces = []
    for i, k in enumerate(range(2, T + 1)):
        share = [(by[(e, k)][1] / by[(e, k)][0]) if by.get((e, k), (0, 0))[0] else None for e in ETA_OPTIONS]
        traces.append({"type": "scatter", "mode": "lines+markers", "name": f"k = {k}", "x": list(ETA_OPTIONS),
                       "y": share, "line": {"color": PALETTE[(i + 1) % len(PALETTE)], "width": 1.5}})
    totals = {e: (sum(r["released"] for r in sweep_rows if r["eta"] == e),
                  sum(r["spurious"] for r in sweep_rows if r["eta"] == e)) for e in ETA_OPTIONS}
    overall = [s_ / max(r_, 1) for r_, s_ in totals.values()]
    traces.append({"type": "scatter", "mode": "lines+markers", "name": "all lengths", "x": list(ETA_OPTIONS),
                   "y": overall, "line": {"color": PALETTE[0], "width": 4}})
    traces.append({"type": "scatter", "mode": "lines", "name": "y = η (the target)", "x": list(ETA_OPTIONS),
                   "y": list(ETA_OPTIONS), "line": {"color": "black", "dash": "dash"}})
    figs = go.Figure({"data": traces, "layout": {
        "title": {"text": "Share of released n-grams that no user wrote, per length (003 Table 3)"},
        "xaxis": {"title": {"text": "η (log scale)"}, "type": "log"},
        "yaxis": {"title": {"text": "spurious share of S_k (lower is better)"}},
        "shapes": [{"type": "line", "xref": "x", "yref": "paper", "x0": eta, "x1": eta, "y0": 0, "y1": 1,
                    "line": {"color": "grey", "dash": "dot"}}],
        "annotations": [{"xref": "x", "yref": "paper", "x": math.log10(eta), "y": 1, "text": f"current η = {eta:g}",
                         "showarrow": False, "yanchor": "bottom"}]}})
    show_figure(figs, alt="Actual spurious share against η on a log axis, one line per length and one for all "
                          "lengths, with the line y = η. All lengths: " + ", ".join(
                              f"η={e:g}: {v:.3f}" for e, v in zip(ETA_OPTIONS, overall)), key="dpne_spurious")
    st.caption(f"Spurious = released but used by no user: {EVALUATION_ONLY}. One DPNE run per η (seeded).")

    # --- step-by-step view of one length
    st.subheader("Step by step: one length")
    diags = {d.k: d for d in result.evaluation.levels}
    reached = [k for k in diags if k >= 2]
    if reached:
        k_sel = st.select_slider("length k", reached, value=reached[0], key="dpne_step_k",
                                bind="query-params", persist_state="session")
        d = diags[k_sel]
        step = pd.DataFrame([
            ("|S_{k−1}|", d.previous_size, "(k−1)-grams released at the previous step", "release"),
            ("|V_k|", d.valid_count, "valid k-grams (exact count)", "release"),
            ("σ_k", float(d.sigma), "noise standard deviation at this length", "release"),
            ("ρ_k", float(d.threshold), "threshold", "release"),
            ("η·min(|S_{k−1}|, |V_k|)", float(d.spurious_bound), "bound on expected spurious k-grams", "release"),
            ("|supp H_k|", d.supported, "valid k-grams with positive weight", "evaluation only"),
            ("kept from the histogram", d.kept_from_histogram, "weight + noise > ρ_k", "evaluation only"),
            ("drawn among zero-weight", d.sampled_zero_weight, "B_k ~ Binomial(|V_k| − |supp H_k|, 1 − Φ(ρ_k/σ_k))",
             "evaluation only"),
            ("|S_k| released", d.released, "kept + drawn", "release"),
            ("spurious", d.spurious, "released k-grams no user wrote", "evaluation only"),
        ], columns=["quantity", "value", "meaning", "part of"], dtype=object)
        step["value"] = [f"{v:,}" if isinstance(v, int) else f"{v:.4g}" for v in step["value"].tolist()]

        st.dataframe(step, hide_index=True, width="stretch")
        st.latex(rf"\rho_{{{k_sel}}}=\sigma_{{{k_sel}}}\,\Phi^{{-1}}\Big(1-{eta:g}\cdot\min\big(1,"
                 rf"\tfrac{{{d.previous_size}}}{{{d.valid_count}}}\big)\Big)={d.threshold:.4g}")
        longest = max(k for k, n in result.sizes.items() if n)
        sample = sorted(" ".join(g) for g in tc.decode(result.ids[longest]))[:15]
        st.markdown(f"Some released {longest}-grams (the release itself; no counts): " + "; ".join(f"`{s}`" for s in sample))
    else:
        st.info("No length ≥ 2 was reached at these settings (T = 1 or no 1-gram passed ρ₁).")

# ------------------------------------------------------------------------------ tab 2
with tab_sweep:
    st.markdown("Vary one knob, keep the others at the values above, and count the released n-grams per length "
                "(one seeded DPNE run per value).")
    knobs = {
        "contribution_limit": ("Δ0", [5, 10, 20, 50, 100, 200]),
        "epsilon": ("ε", [1.0, 2.0, 3.0, 4.0]),
        "eta": ("η", [0.005, 0.01, 0.02, 0.05, 0.1, 0.2]),
        "noise_decay": ("c", [0.8, 0.9, 1.0, 1.1, 1.2]),
        "pruning": ("pruning rule", ["single", "both"]),
    }
    knob = st.selectbox("Knob", list(knobs), key="dpne_sweep_knob", bind="query-params", persist_state="session",
                        help="dpcore's parameter names: " + ", ".join(f"{k} = {v[0]}" for k, v in knobs.items()))
    base_params = dict(epsilon=eps, delta=delta, max_length=T, contribution_limit=int(delta0), eta=eta,
                       noise_decay=decay, pruning=pruning, selection=selection, policy=policy)
    request = (chash, knob, tuple(knobs[knob][1]), tuple(sorted(base_params.items())), settings.seed)
    if st.button("Run the sweep", key="dpne_sweep_run", type="primary"):
        with user_errors():
            rows = knob_sweep(chash, knob, tuple(knobs[knob][1]), tuple(sorted(base_params.items())), settings.seed,
                              corpus)
        st.session_state["dpne_sweep_result"] = (request, rows)
    stored = st.session_state.get("dpne_sweep_result")
    if stored is None or stored[0][1] != knob:
        st.info("Press **Run the sweep** (it runs DPNE once per value, so it is not redone on every slider move).")
    else:
        req, rows = stored
        if req != request:
            st.warning("The settings changed since this sweep: press **Run the sweep** to update it.")
        sw = pd.DataFrame(rows)
        label = knobs[knob][0]
        figw = go.Figure()
        for i, v in enumerate(knobs[knob][1]):
            part = sw[sw["value"] == v]
            figw.add_trace(go.Scatter(x=part["k"].tolist(), y=part["released"].tolist(), mode="lines+markers", name=f"{label} = {v}",
                                      line=dict(color=PALETTE[i % len(PALETTE)])))
        figw.update_layout(title=f"DPNE: n-grams released per length as {label} varies",
                           xaxis_title="n-gram length k (tokens)",
                           yaxis_title="number of k-grams released (higher is better)" + (" — log scale" if log_y else ""))
        figw.update_xaxes(dtick=1)
        if log_y:
            figw.update_yaxes(type="log")
        show_figure(figw, alt=f"Lines of released k-grams per length, one per value of {label}: " + "; ".join(
            f"{label}={v}: " + ", ".join(str(n) for n in sw[sw['value'] == v]['released']) for v in knobs[knob][1]),
            key="dpne_sweep_fig")
