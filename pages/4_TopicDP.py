"""TopicDP — LDA topics released with a sampled sensitivity, against Laplace and MVG (thesis 004; SPEC §5).

The topic model and the sampled sensitivity do not depend on ε or δ: both are cached (the shipped
sample corpus has them on disk in sample_data/topicdp_sensitivity/, so the page opens at once).
When no sampled sensitivity exists for the chosen settings, a button runs the sampler with a
progress bar. All maths lives in dpcore.
Page knobs are bound to the URL (bind="query-params", keys = parameter names) and kept for the
session, so a copied link reproduces the view; the download buttons export its numbers with settings.
"""

import math
import zlib

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dpcore import (
    LdaSettings,
    SamplerSettings,
    document_term_data,
    fit_topic_model,
    kendall_tau_distance,
    l1_distance,
    load_topic_model,
    release_all,
    rmse,
    save_topic_model,
    sensitivity_sampler_size,
    topic_keyword_matrix,
)
from dpcore import topicdp as tdp
from dpui import exercise_mode, band_figure, export_view, guarantee_badge, shared_sidebar, show_figure, user_errors
from dpui.charts import PALETTE

st.set_page_config(page_title="TopicDP", page_icon="🗂️", layout="wide")
exercise_mode("4_TopicDP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar()
corpus = settings.private

MECH_COLOURS = {"TopicDP": PALETTE[0], "MVG": PALETTE[1], "Laplace": PALETTE[2]}  # as band_figure orders them
EPS_VALUES = tuple(np.arange(1.0, 10.01, 0.5))
GAMMA_VALUES = (0.02, 0.07, 0.12, 0.17, 0.22)
SIZE_VALUES = tuple(range(2, 11))
METRIC_AXES = {
    "l1": "L1 distance Σ|W − W′| (lower is better)",
    "rmse": "RMSE of the matrix entries (lower is better)",
    "kendall": "Kendall's tau distance of keyword ranks (lower is better)",
}

st.title("TopicDP: private topic keywords")
st.caption(
    "LDA finds topics in the private corpus; the released table holds the m most prevalent topics and, for "
    "each, the probabilities of n keywords. TopicDP adds Gaussian noise scaled to a *sampled* sensitivity "
    "(thesis 004, ch. 4); the baselines are the Laplace mechanism with the worst-case sensitivity 2m and the "
    "matrix-variate Gaussian (MVG) mechanism."
)

# ------------------------------------------------------------------------------ widgets
c1, c2, c3 = st.columns(3)
gamma = c1.slider("γ (share of neighbours not covered)", 0.01, 0.30, 0.10, 0.01, key="topicdp_gamma",
                  bind="query-params", persist_state="session",
                  help="Confidence of random DP: the guarantee holds for at least a 1 − γ share of neighbouring "
                       "datasets. Smaller γ needs more sampled pairs (h grows like 1/γ²).")
with st.expander("Advanced: LDA and sampler settings (changing them needs a new sampler run)"):
    a1, a2, a3, a4 = st.columns(4)
    n_topics = a1.number_input("LDA topics K", 3, 20, 10, key="topicdp_k", bind="query-params", persist_state="session")
    max_iter = a2.number_input("LDA max_iter", 1, 100, 10, key="topicdp_max_iter",
                               bind="query-params", persist_state="session")
    method = a3.selectbox("learning_method", ("batch", "online"), key="topicdp_method",
                          bind="query-params", persist_state="session")
    doc_iter = a4.number_input("max_doc_update_iter", 1, 200, 10, key="topicdp_doc_iter",
                               bind="query-params", persist_state="session")
    b1, b2, b3, b4 = st.columns(4)
    max_features = b1.number_input("vocabulary size (max_features)", 50, 5000, 1000, step=50, key="topicdp_vocab",
                                   bind="query-params", persist_state="session")
    sample_users = b2.number_input("sampled dataset size N (users)", 2, 5000, 100, key="topicdp_N",
                                   bind="query-params", persist_state="session",
                                   help="Each sampled neighbouring pair has N users drawn uniformly with "
                                        "replacement from the corpus (the distribution P).")
    sampler_seed = b3.number_input("sampler seed", 0, 2**31 - 1, 0, key="topicdp_sampler_seed",
                                   bind="query-params", persist_state="session")
    workers = b4.selectbox("worker processes", (2, 1), key="topicdp_workers",
                           bind="query-params", persist_state="session")
    st.caption("Defaults are chosen for speed (the sampler fits LDA 2h times): 1,000 words, batch variational "
               "Bayes, 10 iterations, 10 document updates, mean_change_tol 0.01, random_state 0.")
max_side = min(10, int(n_topics))
m = c2.slider("m (topics in the table)", 2, max_side, max_side, key="topicdp_m",
              bind="query-params", persist_state="session")
n = c3.slider("n (keywords in the table)", 2, 10, 10, key="topicdp_n", bind="query-params", persist_state="session")

with user_errors():
    lda = LdaSettings(n_topics=int(n_topics), max_iter=int(max_iter), learning_method=method,
                      max_doc_update_iter=int(doc_iter), max_features=int(max_features))
    sampler = SamplerSettings(sample_users=int(sample_users), seed=int(sampler_seed))
    size = sensitivity_sampler_size(gamma)


# ------------------------------------------------------------------------------ cached, noise-free
@st.cache_resource(show_spinner="Counting words per document …", max_entries=4)
def data_for(corpus_hash: str, lda: LdaSettings, _corpus):
    return document_term_data(_corpus, settings=lda)


@st.cache_resource(show_spinner="Fitting LDA on the whole corpus …", max_entries=4)
def model_for(corpus_hash: str, lda: LdaSettings, _corpus):
    model = load_topic_model(corpus_hash, lda=lda)
    if model is None:
        model = fit_topic_model(data_for(corpus_hash, lda, _corpus), settings=lda)
        try:
            save_topic_model(model)
        except OSError:  # read-only install: keep it in memory only
            pass
    return model


@st.cache_resource(show_spinner=False, max_entries=8)
def draws_for(corpus_hash: str, lda: LdaSettings, sampler: SamplerSettings, file_stamp: float):
    return tdp.load_sensitivity_draws(corpus_hash, lda=lda, sampler=sampler)


def stamp(corpus_hash: str) -> float:
    path = tdp.sensitivity_cache_path(corpus_hash, lda=lda, sampler=sampler)
    return path.stat().st_mtime if path.exists() else 0.0


@st.cache_data(show_spinner="Computing error curves …", max_entries=32)
def curve_for(corpus_hash, lda, sampler, n_pairs, parameter, epsilon, delta, gamma, m, n, reps, stage, seed,
              _model, _draws):
    values = {"epsilon": EPS_VALUES, "gamma": GAMMA_VALUES, "size": SIZE_VALUES}[parameter]
    rng = np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(f"topicdp-curve-{parameter}".encode())]))
    return tdp.error_curve(_model, _draws, parameter=parameter, values=values, epsilon=epsilon, delta=delta,
                           gamma=gamma, m=m, n=n, repetitions=reps, rng=rng, stage=stage)


with user_errors():
    model = model_for(corpus.content_hash, lda, corpus)
    table = topic_keyword_matrix(model, m=m, n=n)
draws = draws_for(corpus.content_hash, lda, sampler, stamp(corpus.content_hash))

# ------------------------------------------------------------------------------ sampler (when needed)
if not draws.covers(gamma):
    st.warning(
        f"No sampled sensitivity for these settings yet: γ = {gamma:g} needs h = {size.h:,} sampled "
        f"neighbouring pairs ({2 * size.h:,} LDA fits on datasets of N = {sampler.sample_users} users); "
        f"{draws.n_pairs:,} are stored for this corpus and these settings.",
        icon="⏳",
    )
    per_pair = draws.seconds / draws.n_pairs if draws.n_pairs else None
    if per_pair:
        st.caption(f"Estimated time: about {per_pair * (size.h - draws.n_pairs) / 60:.1f} minutes "
                   f"({per_pair:.2f} s per pair so far).")
    if st.button(f"Run the sensitivity sampler ({size.h - draws.n_pairs:,} new pairs)", key="topicdp_run",
                 type="primary"):
        bar = st.progress(0.0, text="Sampling neighbouring datasets …")

        def report(done: int, total: int) -> None:
            bar.progress(done / total, text=f"Sampled pair {done:,} of {total:,} (two LDA fits each)")

        with user_errors():
            data = data_for(corpus.content_hash, lda, corpus)
            tdp.extend_sensitivity_draws(data, n_pairs=size.h, lda=lda, sampler=sampler, progress=report,
                                         workers=int(workers))
        bar.progress(1.0, text="Done: the sampled sensitivities are saved on disk.")
        draws = draws_for(corpus.content_hash, lda, sampler, stamp(corpus.content_hash))
    else:
        st.stop()

with user_errors():
    sens = draws.sensitivity(gamma=gamma, m=m, n=n)
delta_s = sens.delta_s

# ------------------------------------------------------------------------------ what the numbers mean
sigma_topic = tdp.topicdp_sigma(epsilon=settings.epsilon, delta=settings.delta, sensitivity=delta_s, m=m, n=n)
sigma_mvg = tdp.mvg_sigma(epsilon=settings.epsilon, delta=settings.delta, m=m, n=n, gamma_f=math.sqrt(m), s2=delta_s)
b_lap = tdp.matrix_laplace_scale(epsilon=settings.epsilon, m=m)
k1, k2, k3, k4 = st.columns(4)
k1.metric("Sampled sensitivity Δ_s", f"{delta_s:.4g}", help="k-th smallest of the h sampled ‖f(D) − f(D′)‖_F")
k2.metric("TopicDP σ per entry", f"{sigma_topic:.4g}", help="Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n)")
k3.metric("MVG σ per entry", f"{sigma_mvg:.4g}", help="i.i.d. MVG with s₂ = Δ_s, γ_F = √m")
k4.metric("Laplace scale b", f"{b_lap:.4g}", help="b = 2m/ε (worst-case ℓ1 sensitivity 2m)")

with st.container(border=True):
    st.markdown(
        f"**What “random DP with confidence γ = {gamma:g}” means.** Ordinary DP promises the same for *every* pair "
        f"of datasets that differ in one user. Random DP only promises it for most pairs: if a dataset and its "
        f"neighbour are drawn at random from P (here: N = {sampler.sample_users} users picked uniformly, with "
        f"replacement, from the corpus' {corpus.n_users:,} users), the (ε, δ) promise holds with probability at "
        f"least 1 − γ = {1 - gamma:.0%}. For the other {gamma:.0%} of neighbours — unusual users whose text moves "
        f"the topics a lot — there is **no promise at all**. It is therefore **weaker than (ε, δ)-DP**.\n\n"
        f"The sensitivity was sampled: {sens.h:,} random neighbouring pairs were drawn, LDA was fitted on both "
        f"datasets of each pair (same seed, topics matched with the Hungarian algorithm) and Δ_s is the "
        f"{sens.k:,}-th smallest of the {sens.h:,} distances, so it covers {sens.covered_share:.0%} of the sampled "
        f"neighbours (k = h: the largest). The sampler's own confidence parameter is ρ_s = {sens.rho_sampler:.4f}. "
        f"N is smaller than the corpus for speed; a user weighs more in {sampler.sample_users} users than in "
        f"{corpus.n_users:,}, so for a stable model Δ_s errs on the large side — but LDA is not stable: a single "
        f"user can make topics split or merge, which shows up as large Δ_i below."
    )
    g1, g2, g3 = st.columns(3)
    with g1:
        guarantee_badge(f"TopicDP: {tdp.TOPICDP_GUARANTEE}")
    with g2:
        guarantee_badge(f"MVG with sampled s₂: {tdp.TOPICDP_GUARANTEE}")
    with g3:
        guarantee_badge(f"Laplace: {tdp.MATRIX_LAPLACE_GUARANTEE}")

releases = release_all(table.matrix, epsilon=settings.epsilon, delta=settings.delta, sensitivity=delta_s,
                       rng=settings.rng("topicdp", "release", m, n, gamma))
topic_labels = [f"Topic {i + 1}: " + ", ".join(table.words[j] for j in np.argsort(-table.matrix[i])[:3])
                for i in range(m)]

def keyword_figure(i: int) -> go.Figure:
    """Topic i's keywords before (grey) and after each mechanism's noise, three panels side by side.

    Built from a plain dict without plotly's per-property validation: make_subplots and validation took
    most of a rerun (4 figures × ~60 ms), and this page must rerun in well under 300 ms when ε moves.
    """
    order = np.argsort(-table.matrix[i])
    words = [table.words[j] for j in order]
    data, layout = [], {}
    for c, (mech, rel) in enumerate(releases.items()):
        suffix = "" if c == 0 else str(c + 1)
        common = {"type": "bar", "x": words, "xaxis": f"x{suffix}", "yaxis": f"y{suffix}", "legendgroup": mech}
        data.append({**common, "y": table.matrix[i, order].tolist(), "name": "before noise",
                     "marker": {"color": "#9e9e9e"}})
        data.append({**common, "y": rel.matrix[i, order].tolist(), "name": f"after {mech}",
                     "marker": {"color": MECH_COLOURS[mech]}})
        layout[f"xaxis{suffix}"] = {"domain": [c * 0.34, c * 0.34 + 0.32], "anchor": f"y{suffix}",
                                    "title": {"text": "keyword (left = most probable before noise)"}}
        layout[f"yaxis{suffix}"] = {"anchor": f"x{suffix}", **({"matches": "y", "showticklabels": False} if c else
                                    {"title": {"text": "probability (higher = more typical)"}})}
    layout.update(barmode="group", height=360, showlegend=False,
                  title={"text": f"{topic_labels[i]} — grey: before noise, colour: after each mechanism's noise"},
                  annotations=[{"text": f"<b>{mech}</b>", "x": c * 0.34 + 0.16, "y": 1.0, "xref": "paper",
                                "yref": "paper", "xanchor": "center", "yanchor": "bottom", "showarrow": False}
                               for c, mech in enumerate(releases)])
    return go.Figure({"data": data, "layout": layout}, _validate=False)


tab_words, tab_curves, tab_sens = st.tabs(["Keywords before and after noise", "Error curves", "Sampled sensitivities"])

# ------------------------------------------------------------------------------ tab 1: keyword bars
with tab_words:
    # Numbered labels, not the keyword labels: they go into the URL (…?topicdp_topics=Topic+1&…) and must not
    # depend on the fitted words; each chart's title names the topic's top keywords.
    chosen = st.multiselect("Topics to show (numbered by prevalence; the chart titles name their keywords)",
                            list(range(m)), default=list(range(min(4, m))), format_func=lambda i: f"Topic {i + 1}",
                            key="topicdp_topics", bind="query-params", persist_state="session")
    for i in chosen:
        fig = keyword_figure(i)
        show_figure(fig, alt=(f"Bar charts for {topic_labels[i]}: the {n} keyword probabilities before noise "
                              "(grey) and after TopicDP, MVG and Laplace noise, side by side."),
                    key=f"topicdp_bars_{i}")
    errs = pd.DataFrame(
        {mech: {"L1 distance": l1_distance(table.matrix, rel.matrix), "RMSE": rmse(table.matrix, rel.matrix),
                "Kendall's tau distance": kendall_tau_distance(table.matrix, rel.matrix),
                "noise scale (σ or b)": rel.noise_scale}
         for mech, rel in releases.items()}
    )
    st.markdown("**This draw's errors** (lower is better; after clipping at 0 and renormalising each row)")
    st.dataframe(errs.style.format("{:.4g}"), width="stretch")
    export_settings = {
        "page": "TopicDP", "epsilon": settings.epsilon, "delta": settings.delta, "seed": settings.seed,
        "corpus": settings.corpus_label, "corpus_hash": corpus.content_hash, "gamma": gamma, "m": m, "n": n,
        "lda": lda.as_dict(), "sampler": {"sample_users_N": sampler.sample_users, "seed": sampler.seed},
        "sampled_pairs_h": sens.h, "sensitivity_rank_k": sens.k, "sampled_sensitivity_delta_s": delta_s,
        "noise_scales": {mech: rel.noise_scale for mech, rel in releases.items()},
        "guarantees": {mech: rel.guarantee for mech, rel in releases.items()},
        "rng_salt": ["topicdp", "release", m, n, gamma],
        "released": "clipped at 0, rows renormalised"}
    export_view("keyword table before/after noise", [
        {"topic": i + 1, "model_topic": table.topics[i], "keyword": word, "before_noise": table.matrix[i, j],
         **{f"after_{mech}": rel.matrix[i, j] for mech, rel in releases.items()}}
        for i in range(m) for j, word in enumerate(table.words)],
        settings=export_settings, key="topicdp_export_keywords")
    export_view("this draw's errors", [{"metric": metric_name, **{mech: errs.at[metric_name, mech] for mech in errs}}
                                       for metric_name in errs.index],
                settings=export_settings, key="topicdp_export_errors")

# ------------------------------------------------------------------------------ tab 2: error curves
with tab_curves:
    d1, d2, d3, d4 = st.columns(4)
    # Captions instead of format_func: the URL carries the plain option (…?topicdp_curve_param=gamma).
    parameter = d1.radio("Vary", ("epsilon", "gamma", "size"), key="topicdp_curve_param",
                         bind="query-params", persist_state="session",
                         captions=("ε from 1 to 10", "γ from 0.02 to 0.22", "matrix size m = n from 2 to 10"))
    metric = d2.radio("Metric", tuple(METRIC_AXES), key="topicdp_metric", bind="query-params", persist_state="session",
                      captions=("L1 distance", "RMSE", "Kendall's tau distance"))
    stage = d3.radio("Measured on", ("released", "noisy"), key="topicdp_stage",
                     bind="query-params", persist_state="session",
                     captions=("release (clipped, rows renormalised)", "noisy matrix before clipping"))
    reps = d4.slider("repetitions", 5, 100, 20, 5, key="topicdp_reps", bind="query-params", persist_state="session")
    log_y = d4.checkbox("log y-axis", value=True, key="topicdp_logy", bind="query-params", persist_state="session")
    with user_errors():
        curve = curve_for(corpus.content_hash, lda, sampler, draws.n_pairs, parameter, settings.epsilon,
                          settings.delta, gamma, m, n, reps, stage, settings.seed, model, draws)
    x_title = {"epsilon": "ε (privacy loss; right = weaker privacy)",
               "gamma": "γ (share of neighbours not covered; right = weaker guarantee)",
               "size": "matrix size m = n (right = larger table)"}[parameter]
    fixed = {"epsilon": f"γ = {gamma:g}, {m} × {n}", "gamma": f"ε = {settings.epsilon:g}, {m} × {n}",
             "size": f"ε = {settings.epsilon:g}, γ = {gamma:g}"}[parameter]
    fig = band_figure(curve.values, {mech: curve.stats[metric][mech] for mech in tdp.TOPIC_MECHANISMS},
                      title=f"{METRIC_AXES[metric].split(' (')[0]} vs {parameter} ({fixed}, δ = {settings.delta:g}; "
                            f"mean and 10–90 % band over {reps} draws)",
                      x_title=x_title, y_title=METRIC_AXES[metric] + (" — log scale" if log_y else ""), log_y=log_y)
    show_figure(fig, alt=(f"Line chart: {METRIC_AXES[metric]} of TopicDP, MVG and Laplace against {parameter}, "
                          "mean with a shaded 10 to 90 percent band."), key="topicdp_curve")
    for note in curve.skipped:
        st.info(f"Not drawn: {note}. Run the sampler at that γ (slider above) to add it.", icon="ℹ️")
    if stage == "released":
        st.caption("After clipping and renormalising, every row is a probability vector, so the L1 distance per "
                   f"row is at most 2 (at most {2 * m} for the table): a mechanism whose noise swamps the table "
                   "saturates near that ceiling. Switch to “noisy matrix before clipping” to compare noise sizes.")

# ------------------------------------------------------------------------------ tab 3: the draws
with tab_sens:
    hist = go.Figure(go.Histogram(x=sens.draws, nbinsx=40, marker_color=PALETTE[0], name="Δ_i"))
    hist.update_layout(
        shapes=[{"type": "line", "x0": delta_s, "x1": delta_s, "y0": 0, "y1": 1, "yref": "paper",
                 "line": {"dash": "dash", "color": PALETTE[1]}}],
        annotations=[{"x": delta_s, "y": 1, "yref": "paper", "text": f"Δ_s = {delta_s:.3g} (k = {sens.k})",
                      "showarrow": False, "xanchor": "right", "yanchor": "bottom"}])
    hist.update_layout(title=f"The {sens.h} sampled distances ‖f(D) − f(D′)‖_F for a {m} × {n} table",
                       xaxis_title="Frobenius distance between neighbours' tables (right = larger change)",
                       yaxis_title="number of sampled pairs (higher = more common)")
    show_figure(hist, alt=f"Histogram of the {sens.h} sampled sensitivities with the chosen Δ_s marked.",
                key="topicdp_hist")
    rows = []
    for g in (0.02, 0.05, 0.07, 0.1, 0.12, 0.17, 0.2, 0.22, 0.3):
        sz = sensitivity_sampler_size(g)
        avail = draws.covers(g)
        rows.append({"γ": g, "h (pairs)": sz.h, "k": sz.k, "ρ_s": round(sz.rho, 5),
                     "Δ_s": draws.sensitivity(gamma=g, m=m, n=n).delta_s if avail else None,
                     "stored": "yes" if avail else f"needs {sz.h - draws.n_pairs:,} more pairs"})
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(f"{draws.n_pairs:,} pairs stored for this corpus and settings (sampled dataset size "
               f"N = {sampler.sample_users} users, sampler seed {sampler.seed}); any γ uses the first h of them, "
               "so moving γ only costs new LDA fits when h grows.")
