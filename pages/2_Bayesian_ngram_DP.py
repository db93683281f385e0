"""Bayesian n-gram DP — BayesianDP against Laplace, k-anonymity and the public prior (paper 000; SPEC §3).

The current release (θ at the sidebar's ε, δ) with a "what happened" panel, then one tab per
experiment of 000 §4–§5. Everything that does not depend on ε is cached by corpus hash and
parameters (counts, statistics, sensitivity, the ε sweeps); the heavy experiments run on a button.
All maths lives in dpcore.
Page knobs are bound to the URL (bind="query-params", keys = parameter names) and kept for the
session, so a copied link reproduces the view; the download buttons export its numbers with settings.
"""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from dpcore import kl_divergence, ngram_counts
from dpcore.bayesian import bayesian_statistics, prepare_end_to_end
from dpcore.bayesian_baselines import k_anonymity_release, public_baseline
from dpcore.bayesian_experiments import (
    BAYESIAN,
    END_TO_END,
    LAPLACE,
    LAPLACE_PUBLIC,
    PRIVATE,
    PUBLIC,
    kl_vs_epsilon,
    kl_vs_k,
    kl_vs_public_quality,
    kl_vs_users,
    kl_vs_vocabulary,
    membership_inference,
    perplexity_setup,
    perplexity_table,
    summarise,
)
from dpcore.gaussian import gaussian_sigma
from dpcore.metrics import KL_SMOOTHING
from dpui import exercise_mode, band_figure, export_view, guarantee_badge, shared_sidebar, show_figure, user_errors
from dpui.charts import PALETTE

st.set_page_config(page_title="Bayesian n-gram DP", page_icon="📊", layout="wide")
exercise_mode("2_Bayesian_ngram_DP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar()

S_OPTIONS = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 1e3, 1e4)
K_OPTIONS = (1, 2, 5, 10, 20, 50, 100, 200)
SWEEP_EPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
# Radio captions; the option itself (and so the URL) says classic / analytic.
CALIBRATION_LABELS = {"classic": "as in the paper; proven for ε < 1", "analytic": "tight, valid for every ε"}
COLOURS = {BAYESIAN: PALETTE[0], END_TO_END: PALETTE[4], LAPLACE: PALETTE[1], LAPLACE_PUBLIC: PALETTE[3],
           PUBLIC: PALETTE[2], PRIVATE: PALETTE[7]}
KL_AXIS = "KL divergence to private (lower is better, log)"
EPS_AXIS = "ε (privacy loss, log scale; right = weaker privacy)"


def fmt(v: float) -> str:
    return f"{v:g}"


# ------------------------------------------------------------------------------ cached, noise-free
@st.cache_resource(show_spinner="Counting n-grams per user …", max_entries=8)
def counts_for(private_hash: str, public_hash: str, n: int, _private, _public):
    return ngram_counts(_private, _public, n=n)


@st.cache_resource(show_spinner="Clamping counts and computing x̂, μ_p …", max_entries=16)
def statistics_for(private_hash: str, public_hash: str, n: int, C: int, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return bayesian_statistics(c.user_counts, c.public_counts, C=C)


@st.cache_resource(show_spinner="Computing the sensitivity by brute force …", max_entries=64)
def prepared_for(private_hash, public_hash, n, C, S, rho, _private, _public):
    st_ = statistics_for(private_hash, public_hash, n, C, _private, _public)
    return st_.prepare(S=S, rho=rho), st_.sensitivity(S, "worst-case")


@st.cache_data(show_spinner=False, max_entries=16)
def private_distribution(private_hash, public_hash, n, _private, _public):
    return counts_for(private_hash, public_hash, n, _private, _public).private_distribution()


# ------------------------------------------------------------------------------ cached, seed in key
@st.cache_data(show_spinner="Sweeping ε for every mechanism …", max_entries=32)
def eps_sweep(private_hash, public_hash, n, S, C, rho, W, delta, reps, calibration, seed, with_e2e, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    mechs = (BAYESIAN, LAPLACE, LAPLACE_PUBLIC, PUBLIC) + ((END_TO_END,) if with_e2e else ())
    return kl_vs_epsilon(c, epsilons=SWEEP_EPS, delta=delta, S=S, C=C, rho=rho, W=W, repetitions=reps,
                         rng=settings.rng("bayes-eps-sweep", n, S, C, rho, W, calibration, with_e2e),
                         calibration=calibration, mechanisms=mechs)


@st.cache_data(show_spinner=False, max_entries=32)
def k_sweep(private_hash, public_hash, n, _private, _public):
    return kl_vs_k(counts_for(private_hash, public_hash, n, _private, _public), Ks=K_OPTIONS)


@st.cache_data(show_spinner="Running the experiment …", max_entries=16)
def data_sweep(kind, private_hash, public_hash, n, eps, S, C, rho, W, delta, reps, calibration, seed, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    kw = dict(epsilon=eps, delta=delta, S=S, C=C, rho=rho, repetitions=min(reps, 5), calibration=calibration,
              rng=settings.rng("bayes", kind, n, eps, S, C, rho, W, calibration))
    if kind == "users":
        sizes = sorted({max(2, int(x)) for x in np.geomspace(min(20, c.n_users), c.n_users, 7).round()})
        return kl_vs_users(c, user_numbers=sizes, W=W, **kw)
    if kind == "vocabulary":
        sizes = sorted({max(2, int(x)) for x in np.geomspace(min(50, c.vocabulary_size), c.vocabulary_size, 7).round()})
        return kl_vs_vocabulary(c, sizes=sizes, W=W, **kw)
    return kl_vs_public_quality(c, noise_scales=(0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0), **kw)


@st.cache_resource(show_spinner="Splitting users and counting trigrams …", max_entries=4)
def perplexity_data(private_hash, public_hash, seed, _private, _public):
    return perplexity_setup(_private, _public, rng=settings.rng("bayes-perplexity-split"))


@st.cache_data(show_spinner="Releasing trigram distributions …", max_entries=16)
def perplexity_for(private_hash, public_hash, eps, S, C, rho, W, K, delta, calibration, seed, _private, _public):
    setup = perplexity_data(private_hash, public_hash, seed, _private, _public)
    return perplexity_table(setup, epsilon=eps, delta=delta, S=S, C=C, rho=rho, W=W, K=K, repetitions=3,
                            rng=settings.rng("bayes-perplexity", eps, S, C, rho, W, K, calibration),
                            calibration=calibration), setup.heldout.size, setup.n_heldout_sentences


@st.cache_data(show_spinner="Attacking: releases with and without the most active user …", max_entries=16)
def attack_for(private_hash, public_hash, n, S, C, rho, W, delta, trials, calibration, seed, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return membership_inference(c, epsilons=(0.1, 0.3, 1.0, 3.0, 10.0), delta=delta, S=S, C=C, rho=rho, W=W,
                                trials=trials, calibration=calibration,
                                rng=settings.rng("bayes-attack", n, S, C, rho, W, calibration))


@st.cache_resource(show_spinner="Scoring the (S, ρ) grid on the validation users …", max_entries=8)
def end_to_end_for(private_hash, public_hash, n, C, seed, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return prepare_end_to_end(c.user_counts, c.public_counts, C=C, rng=settings.rng("bayes-e2e-split", n, C))


# ------------------------------------------------------------------------------ header and knobs
st.title("Bayesian differential privacy for n-gram distributions")
st.caption("After Ramadan, Withers, Orr, *N-grams Bayesian Differential Privacy* (paper 000): the public "
           "corpus is the prior, the private counts the likelihood, and one Gaussian draw in log space is the "
           "release. ε and δ come from the sidebar; neighbouring corpora differ by one **user**.")

with st.sidebar:
    st.markdown("### BayesianDP")
    S = st.select_slider("S (decay weighting, w = min(1, S·N/C))", S_OPTIONS, value=1e-3, format_func=fmt,
                         key="bayes_S", bind="query-params", persist_state="session",
                         help="Small S shrinks rare words (few users N) towards the public prior "
                              "and lowers the sensitivity. Log-spaced 1e-3 … 1e4.")
    rho = st.slider("ρ (weight of the private evidence)", 0.05, 1.0, 0.3, 0.05, key="bayes_rho",
                    bind="query-params", persist_state="session",
                    help="μ_ps = ρ·(w ⊙ x̂) + (1−ρ)·μ_p; the noise scales with ρ too.")
    C = st.slider("C (max count per user per n-gram)", 1, 20, 1, key="bayes_C",
                  bind="query-params", persist_state="session",
                  help="Each user's count of an n-gram is clamped at C (000 uses C = 1 below 1M users).")
    st.markdown("### This page")
    n = st.radio("n-gram order n", (1, 2, 3), index=0, horizontal=True, key="bayes_n",
                 bind="query-params", persist_state="session",
                 help="Vocabulary = the public corpus' n-grams; n-grams never cross a sentence boundary.")
    W = st.slider("W (Laplace baselines: max counts per user)", 1, 50, 2, key="bayes_W",
                  bind="query-params", persist_state="session",
                  help="000 §4.3 uses W = |U|/1000 (≈ 2 for the sample corpus).")
    K = st.select_slider("K (k-anonymity: min. users per item)", K_OPTIONS, value=10, key="bayes_K",
                         bind="query-params", persist_state="session")
    reps = st.slider("Repetitions (noisy curves)", 2, 30, 10, key="bayes_reps",
                     bind="query-params", persist_state="session",
                     help="Curves show the mean and a 10–90% band over this many seeded releases.")
    calibration = st.radio("Gaussian calibration", tuple(CALIBRATION_LABELS),
                           captions=tuple(CALIBRATION_LABELS.values()),
                           key="bayes_calibration", bind="query-params", persist_state="session",
                           help="classic: σ = Δ√(2 ln(1.25/δ))/ε, proven for ε < 1 only. analytic: Balle & Wang "
                                "(2018), exact for every ε.")

eps, delta = settings.epsilon, settings.delta
priv, pub = settings.private, settings.public
ph, qh = priv.content_hash, pub.content_hash

with user_errors():
    counts = counts_for(ph, qh, n, priv, pub)
    p = private_distribution(ph, qh, n, priv, pub)
    prepared, gamma_worst = prepared_for(ph, qh, n, C, S, rho, priv, pub)
    sigma_classic = prepared.sigma(epsilon=eps, delta=delta, calibration="classic")
    sigma_analytic = prepared.sigma(epsilon=eps, delta=delta, calibration="analytic")
    release = prepared.release(epsilon=eps, delta=delta, calibration=calibration,
                               rng=settings.rng("bayes-release", n, S, C, rho, calibration))

kl_now = kl_divergence(p, release.theta)
# Everything an exported file needs to reproduce this page's view (the URL carries the same knobs).
view_settings = {"page": "Bayesian n-gram DP", "epsilon": eps, "delta": delta, "seed": settings.seed,
                 "corpus": settings.corpus_label, "private_corpus_hash": ph, "public_corpus_hash": qh,
                 "n": n, "S": S, "rho": rho, "C": C, "W": W, "K": K, "repetitions": reps, "calibration": calibration}
kl_public = kl_divergence(p, public_baseline(counts.public_counts))

# ------------------------------------------------------------------------------ what happened
guarantee_badge(f"{release.guarantee} at ε = {fmt(eps)}, δ = {fmt(delta)}")
if calibration == "classic" and eps >= 1:
    st.warning(f"ε = {fmt(eps)} ≥ 1: the classic bound σ = ρ·γ·√(2 ln(1.25/δ))/ε is **outside its proof** "
               f"(it is proven for ε < 1). The analytic calibration is valid for every ε and needs "
               f"σ = {sigma_analytic:.4g} here instead of {sigma_classic:.4g}.", icon="⚠️")

st.subheader("What happened at these settings")
m = st.columns(5)
m[0].metric("γ (brute force)", f"{prepared.sensitivity:.4g}",
            help=f"Sensitivity: the largest change of w ⊙ x̂ when one of the {counts.n_users:,} users is removed, computed exactly. "
                 f"Claim 1 worst case: {gamma_worst:.4g}.")
m[1].metric(f"σ_ps ({calibration})", f"{release.sigma:.4g}",
            help=f"classic: {sigma_classic:.4g}; analytic: {sigma_analytic:.4g}")
m[2].metric("n-grams with w < 1", f"{prepared.share_downweighted:.1%}",
            help="Share of the vocabulary whose private evidence is shrunk (mass taken from the public prior).")
m[3].metric("KL, this release", f"{kl_now:.4g}", help="KL(private ‖ θ). Lower is better.")
m[4].metric("KL, public only", f"{kl_public:.4g}", help="KL(private ‖ public baseline): what the public data alone achieves.")
st.markdown(
    f"**In words.** Any single user's text changes the released distribution's probability of any outcome by "
    f"at most a factor e^ε ≈ {np.exp(eps):.3g}, except with probability δ = {fmt(delta)}. "
    f"To get there, each of the {counts.n_users:,} users' counts of the {counts.vocabulary_size:,} public "
    f"{n}-grams were clamped at C = {C}; {prepared.share_downweighted:.1%} of the {n}-grams are used by fewer "
    f"than C/S = {C / S:g} users and get weight w < 1, so part of their mass comes from the public prior; "
    f"removing one user moves w ⊙ x̂ by at most γ = {prepared.sensitivity:.4g} (Claim 1 bound: "
    f"{gamma_worst:.4g}); Gaussian noise with σ_ps = ρ·γ·σ(ε, δ) = {release.sigma:.4g} was added in log space. "
    f"σ_ps is {sigma_classic:.4g} with the classic calibration and {sigma_analytic:.4g} with the analytic one.")
st.info(
    "**What the sensitivity covers.** As in the paper, γ is measured on *this* corpus: the largest change when one "
    "of its users is removed (the sensitivity at D, over its neighbours D₋ₙ). The promise above is for those "
    "neighbours. It is not a worst case over every possible dataset — a global sensitivity, as Mechanisms 101 (b) "
    "shows for the bank's cap — and γ itself is computed from the private data without noise, so a strict reading "
    "of DP would need a data-independent bound on γ. The same holds for the ℓ1 sensitivity of Laplace + public "
    "(computed over this corpus' users). Plain Laplace with the per-user cap W uses a global sensitivity.",
    icon="ℹ️")

with st.expander("The mechanism (000 Algorithm 1, Corollary 1; SPEC §3)", expanded=False):
    st.latex(r"\Delta c^n \leftarrow \min(C, \Delta c^n),\quad c=\sum_n \Delta c^n,\quad "
             r"N_i=\#\{n:\Delta c^n_i>0\}")
    st.latex(r"\hat x_i=\log(c_i+1)-\tfrac{1}{|V|}\sum_j\log(c_j+1),\qquad "
             r"\mu_{p,i}=\log(\alpha_i+1)-\tfrac{1}{|V|}\sum_j\log(\alpha_j+1)")
    st.latex(r"w_i=\min\!\big(1,\tfrac{S N_i}{C}\big),\qquad \mu_{ps}=\rho\,(w\odot\hat x)+(1-\rho)\,\mu_p")
    st.latex(r"\gamma=\max_{n}\big\|w\odot\hat x-w_{-n}\odot\hat x_{-n}\big\|_2,\qquad "
             r"w_{-n}=\min\!\big(1,\tfrac{S\,(N-\mathbb 1[\Delta c^n>0])}{C}\big)")
    st.latex(r"\sigma_{ps}=\rho\,\gamma\,\frac{\sqrt{2\ln(1.25/\delta)}}{\varepsilon}\ \text{(classic)},\qquad "
             r"h\sim\mathcal N(\mu_{ps},\sigma_{ps}^2 I),\qquad \theta=\operatorname{softmax}(h)")
    st.markdown(
        "The paper's shortcut w − w₋ₙ = (S/C)·1(N ≤ C/S) is wrong where (N−1)·S/C < 1 < N·S/C; the brute force "
        "uses the exact w₋ₙ, in O(nnz). The Claim 1 worst case uses the exact largest drop of w instead of "
        "(S/C)·1(N ≤ C/S), so it stays an upper bound. Every KL mixes the release with the uniform "
        f"distribution at λ = {KL_SMOOTHING:g} first (one rule for all mechanisms).")

(tab_now, tab_eps, tab_users, tab_vocab, tab_pub, tab_k, tab_ppl, tab_mia, tab_tune) = st.tabs([
    "Release", "KL vs ε", "Users", "Vocabulary", "Public quality", "k-anonymity vs ε", "Perplexity",
    "Membership inference", "Private tuning"])

# ------------------------------------------------------------------------------ current release
with tab_now:
    @st.fragment
    def release_view():
        top = st.slider("Show the most frequent private n-grams", 5, 50, 20, 5, key="bayes_top",
                        bind="query-params", persist_state="session")
        order = np.argsort(-p)[:top]
        labels = [" ".join(counts.vocabulary[i]) for i in order]
        alpha_t = public_baseline(counts.public_counts)
        fig = go.Figure()
        for name, vals, colour in (("private (true)", p, COLOURS[PRIVATE]), ("public prior", alpha_t, COLOURS[PUBLIC]),
                                   ("BayesianDP release θ", release.theta, COLOURS[BAYESIAN])):
            fig.add_trace(go.Bar(x=labels, y=vals[order], name=name, marker_color=colour))
        fig.update_layout(barmode="group", title=f"Top {top} private {n}-grams: true, public and released probability",
                          xaxis_title=f"{n}-gram (sorted by private frequency)",
                          yaxis_title="probability (closer to the private bar is better)")
        show_figure(fig, alt=f"Grouped bars for the {top} most frequent private {n}-grams: private, public and "
                             "released probability. " + "; ".join(
                                 f"{lab}: {p[i]:.4f}, {alpha_t[i]:.4f}, {release.theta[i]:.4f}"
                                 for lab, i in list(zip(labels, order))[:10]), key="bayes_bars")
        st.caption("Rare n-grams are shrunk towards the prior; frequent ones (w = 1) keep their private weight.")
        export_view(
            f"top {top} {n}-grams", [
                {"rank": r + 1, "ngram": lab, "private_probability": p[i], "public_prior_probability": alpha_t[i],
                 "released_probability": release.theta[i]}
                for r, (lab, i) in enumerate(zip(labels, order))],
            settings={**view_settings, "top": top, "mechanism": BAYESIAN, "guarantee": release.guarantee,
                      "sensitivity_gamma": prepared.sensitivity, "sigma_ps": release.sigma,
                      "rng_salt": ["bayes-release", n, S, C, rho, calibration]},
            key="bayes_export_release")

    release_view()

# ------------------------------------------------------------------------------ KL vs ε
with tab_eps:
    with_e2e = st.toggle("Add EndToEndDP (S and ρ tuned privately, total ε) — a few seconds", value=False,
                         key="bayes_e2e_curve", bind="query-params", persist_state="session")
with user_errors():
    sweep = eps_sweep(ph, qh, n, S, C, rho, W, delta, reps, calibration, settings.seed, False, priv, pub)
    if with_e2e:
        sweep_e2e = eps_sweep(ph, qh, n, S, C, rho, W, delta, reps, calibration, settings.seed, True, priv, pub)
summary = summarise(sweep, "epsilon")


def mech_series(summaries, names):
    return {name: (summaries[name].mean, summaries[name].lower, summaries[name].upper)
            for name in names if name in summaries}


with tab_eps:
    shown = summarise(sweep_e2e, "epsilon") if with_e2e else summary
    series = mech_series(shown, (BAYESIAN, END_TO_END, LAPLACE, LAPLACE_PUBLIC, PUBLIC))
    fig = band_figure(SWEEP_EPS, series, title=f"KL vs ε ({n}-grams, S = {fmt(S)}, ρ = {rho:g}, C = {C}, W = {W}, "
                      f"δ = {fmt(delta)}, {reps} repetitions)", x_title=EPS_AXIS, y_title=KL_AXIS,
                      log_x=True, log_y=True, dash={PUBLIC: "dash"})
    kl_k = float(k_sweep(ph, qh, n, priv, pub).filter(K=K)["kl"].item())
    if K >= 2:  # K = 1 keeps every item: the private distribution itself, KL ≈ 0 (off a log axis)
        fig.add_trace(go.Scatter(x=list(SWEEP_EPS), y=[kl_k] * len(SWEEP_EPS), mode="lines",
                                 name=f"k-anonymity, K = {K} (not DP)", line=dict(color=PALETTE[5], dash="dot")))
    fig.add_vline(x=eps, line=dict(color="grey", dash="dot"), annotation_text=f"current ε = {fmt(eps)}")
    b = dict(zip(summary[BAYESIAN].x.tolist(), summary[BAYESIAN].mean))
    lap = dict(zip(summary[LAPLACE].x.tolist(), summary[LAPLACE].mean))
    show_figure(fig, alt="KL divergence against ε on log axes for BayesianDP, Laplace, Laplace with public data and "
                         f"the public baseline, with k-anonymity at K = {K} as a horizontal line ({kl_k:.3g}). Mean KL: "
                         + "; ".join(f"ε={fmt(e)}: BayesianDP {b[e]:.3g}, Laplace {lap[e]:.3g}" for e in SWEEP_EPS),
                key="bayes_kl_eps")
    red = {e: 1 - b[e] / lap[e] for e in (0.1, 1.0)}
    st.markdown(f"BayesianDP's mean KL is **{red[0.1]:.0%}** lower than Laplace at ε = 0.1 and **{red[1.0]:.0%}** "
                f"lower at ε = 1 on this corpus (000 reports up to 85% on Reddit). The private baseline has KL 0 "
                f"and is not drawn. Laplace + public implements 000 §4.2's formula as written: the public counts "
                f"cancel from it (see the dpcore docstring). EndToEndDP's ε is the total (2ε/3 to release, ε/3 to "
                f"tune).")
    export_view("KL vs ε summary", [
        {"mechanism": mech, "epsilon": x, "mean_kl": mean, "lower_kl": lo, "upper_kl": hi}
        for mech, curve in shown.items()
        for x, mean, lo, hi in zip(curve.x.tolist(), curve.mean.tolist(), curve.lower.tolist(), curve.upper.tolist())],
        settings={**view_settings, "with_end_to_end": with_e2e, "sweep_epsilons": SWEEP_EPS,
                  "band": f"10–90% over {reps} seeded releases per ε",
                  "rng_salt": ["bayes-eps-sweep", n, S, C, rho, W, calibration, with_e2e],
                  "k_anonymity_kl (not DP, at K)": kl_k},
        key="bayes_export_kl")

# ------------------------------------------------------------------------------ data sweeps on a button


def run_button(label: str, key: str) -> bool:
    if st.button(label, key=key):
        st.session_state[key + "_done"] = True
    return bool(st.session_state.get(key + "_done"))


def data_tab(kind, x, x_title, title, note):
    @st.fragment
    def view():
        st.caption(note)
        if not run_button(f"Run at ε = {fmt(eps)}", f"bayes_run_{kind}"):
            st.info("Press **Run** to compute this experiment (a few seconds).")
            return
        with user_errors():
            df = data_sweep(kind, ph, qh, n, eps, S, C, rho, W, delta, reps, calibration, settings.seed, priv, pub)
        s = summarise(df, x)
        xs = sorted(set().union(*(curve.x.tolist() for curve in s.values())))
        names = [m for m in (BAYESIAN, LAPLACE, LAPLACE_PUBLIC, PUBLIC) if m in s]
        series = {}
        for m in names:  # on the common x grid, NaN where a mechanism has no value (a gap in its line)
            at = {xv: i for i, xv in enumerate(s[m].x.tolist())}
            idx = [at.get(xv, -1) for xv in xs]
            series[m] = tuple(np.append(col, np.nan)[idx] for col in (s[m].mean, s[m].lower, s[m].upper))
        fig = band_figure(xs, series, title=title, x_title=x_title, y_title=KL_AXIS, log_x=True, log_y=True,
                          dash={PUBLIC: "dash"})
        show_figure(fig, alt=f"{title}. Mean KL per mechanism: " + "; ".join(
            f"{m}: " + ", ".join(f"{xv:g}→{v:.3g}" for xv, v in zip(xs, series[m][0])) for m in names),
            key=f"bayes_fig_{kind}")
    view()


with tab_users:
    data_tab("users", "users", "number of private users (log scale)",
             f"KL vs number of users at ε = {fmt(eps)} (000 Fig. 2)",
             "Random subsets of the private users (a fresh subset per repetition, at most 5 repetitions); KL "
             "against that subset's own distribution. More users: smaller sensitivity relative to the counts.")
with tab_vocab:
    data_tab("vocabulary", "vocabulary", "vocabulary size |V| (most frequent public n-grams, log scale)",
             f"KL vs vocabulary size at ε = {fmt(eps)} (000 Fig. 3)",
             "V restricted to the |V| most frequent public n-grams; KL against the private distribution on that V.")
with tab_pub:
    data_tab("public", "public_noise", "scale b of the Laplace noise added to the public counts (log scale; right = worse public data)",
             f"KL vs public-data quality at ε = {fmt(eps)} (000 Fig. 4)",
             "The public counts get Lap(0, b) noise (clipped at 0) before they become the prior. The public "
             "baseline uses the same degraded counts.")

# ------------------------------------------------------------------------------ k-anonymity vs ε
@st.cache_resource(show_spinner=False, max_entries=32)
def kanon_figure(private_hash, public_hash, n, S, C, rho, W, delta, reps, calibration, seed, _private, _public):
    """The two-panel figure does not depend on the current ε: build it once per setting (plotly's
    make_subplots alone costs ~50 ms per rerun)."""
    kdf = k_sweep(private_hash, public_hash, n, _private, _public)
    kdf = kdf.subset(kdf["K"] >= 2)  # K = 1 is the private distribution itself (KL ≈ 0 off a log axis)
    df = eps_sweep(private_hash, public_hash, n, S, C, rho, W, delta, reps, calibration, seed, False, _private, _public)
    bs = summarise(df.filter(mechanism=BAYESIAN), "epsilon")[BAYESIAN]
    fig = make_subplots(rows=1, cols=2, shared_yaxes=True, horizontal_spacing=0.06,
                        subplot_titles=("k-anonymity — not DP: KL vs K", "BayesianDP — (ε, δ)-DP: KL vs ε"))
    fig.add_trace(go.Scatter(x=kdf["K"], y=kdf["kl"], mode="lines+markers", name="k-anonymity (not DP)",
                             line=dict(color=PALETTE[5])), row=1, col=1)
    fig.add_trace(go.Scatter(x=list(bs.x) + list(bs.x)[::-1],
                             y=list(bs.upper) + list(bs.lower)[::-1], fill="toself",
                             fillcolor="rgba(31,119,180,0.18)", line=dict(width=0), hoverinfo="skip",
                             showlegend=False), row=1, col=2)
    fig.add_trace(go.Scatter(x=bs.x, y=bs.mean, mode="lines+markers", name="BayesianDP",
                             line=dict(color=COLOURS[BAYESIAN])), row=1, col=2)
    fig.update_xaxes(type="log", title_text="K (min. users per kept n-gram, log scale; right = more suppression)",
                     row=1, col=1)
    fig.update_xaxes(type="log", title_text=EPS_AXIS, row=1, col=2)
    fig.update_yaxes(type="log", title_text=KL_AXIS, row=1, col=1)
    fig.update_layout(title="Same y-scale: k-anonymity against BayesianDP (000 Fig. 5)")
    alt = ("Two panels sharing a log KL axis. Left, k-anonymity KL against K: " + ", ".join(
        f"K={k}: {v:.3g}" for k, v in zip(kdf["K"], kdf["kl"])) + ". Right, BayesianDP mean KL against ε: " + ", ".join(
        f"ε={fmt(e)}: {v:.3g}" for e, v in zip(bs.x, bs.mean)))
    return fig, alt


with tab_k:
    fig, alt = kanon_figure(ph, qh, n, S, C, rho, W, delta, reps, calibration, settings.seed, priv, pub)
    show_figure(fig, alt=alt, key="bayes_kanon")
    rel_k = k_anonymity_release(counts.user_counts, counts.public_counts, K=K)
    guarantee_badge(rel_k.guarantee)
    st.markdown(f"At K = {K}: {rel_k.kept_items:,} {n}-grams kept, {rel_k.suppressed_items:,} suppressed "
                f"({rel_k.suppressed_mass:.1%} of the private mass, refilled from the public distribution); "
                f"KL = {kl_divergence(p, rel_k.theta):.4g}. k-anonymity is deterministic and gives **no** DP "
                f"guarantee: a single user's rare n-gram appears or disappears with them.")

# ------------------------------------------------------------------------------ perplexity
with tab_ppl:
    @st.fragment
    def perplexity_view():
        st.caption("000 Table 1: 10% of the private users are held out; their sentences whose trigrams are all in "
                   "the public vocabulary are scored with P(w3 | w1, w2) = θ(w1 w2 w3) / Σ_w θ(w1 w2 w). Trigrams "
                   "(n = 3) regardless of the n chosen above.")
        if not run_button(f"Compute the table at ε = {fmt(eps)}", "bayes_run_ppl"):
            st.info("Press the button to release the trigram distributions and score them (about a second).")
            return
        with user_errors():
            tab, n_tri, n_sent = perplexity_for(ph, qh, eps, S, C, rho, W, K, delta, calibration, settings.seed,
                                                priv, pub)
        st.dataframe(pd.DataFrame(tab.rows()).style.format({"perplexity": "{:.3f}"}), hide_index=True,
                     width="stretch")
        st.caption(f"Word perplexity (lower is better) over {n_tri:,} held-out trigrams in {n_sent:,} sentences; "
                   "noisy mechanisms: mean over 3 releases.")
    perplexity_view()

# ------------------------------------------------------------------------------ membership inference
with tab_mia:
    @st.fragment
    def attack_view():
        st.caption("000 §5: u = the user with the largest total count. Each trial releases θ from D and θ' from "
                   "D without u; the attack succeeds when KL(p_u‖θ) < KL(p_u‖θ'). The empirical ε lower bound "
                   "uses a KL threshold chosen on half the trials and Clopper–Pearson upper bounds (95%) on the "
                   "false positive and negative rates measured on the other half.")
        trials = st.select_slider("Trials per ε", (50, 100, 200, 400), value=100, key="bayes_trials",
                                  bind="query-params", persist_state="session")
        if not run_button("Run the attack", "bayes_run_mia"):
            st.info("Press **Run the attack** (a few seconds).")
            return
        with user_errors():
            df = attack_for(ph, qh, n, S, C, rho, W, delta, trials, calibration, settings.seed, priv, pub)
        fig = make_subplots(rows=1, cols=2, subplot_titles=("attack success rate", "empirical ε lower bound"))
        for i, mech in enumerate((BAYESIAN, LAPLACE)):
            part = df.filter(mechanism=mech)
            fig.add_trace(go.Scatter(x=part["epsilon"], y=part["success_rate"], mode="lines+markers", name=mech,
                                     line=dict(color=COLOURS[mech])), row=1, col=1)
            fig.add_trace(go.Scatter(x=part["epsilon"], y=part["epsilon_lower_bound"], mode="lines+markers",
                                     name=f"{mech} (ε bound)", showlegend=False, line=dict(color=COLOURS[mech])),
                          row=1, col=2)
        eps_list = sorted(np.unique(df["epsilon"]))
        fig.add_trace(go.Scatter(x=eps_list, y=eps_list, mode="lines", name="claimed ε (y = ε)",
                                 line=dict(color="black", dash="dash")), row=1, col=2)
        fig.add_hline(y=0.5, line=dict(color="grey", dash="dot"), row=1, col=1)
        fig.update_xaxes(type="log", title_text=EPS_AXIS)
        fig.update_yaxes(title_text="success rate (0.5 = guessing; lower is more private)", range=[0, 1.02], row=1, col=1)
        fig.update_yaxes(title_text="ε lower bound (must stay under the dashed line)", row=1, col=2)
        fig.update_layout(title="Membership inference against BayesianDP and Laplace (000 Fig. 6)")
        show_figure(fig, alt="Left: attack success rate against ε for BayesianDP and Laplace. Right: empirical ε "
                             "lower bound against ε with the line y = ε. " + "; ".join(
                                 f"{r['mechanism']} ε={fmt(r['epsilon'])}: success {r['success_rate']:.2f}, bound "
                                 f"{r['epsilon_lower_bound']:.2f}" for r in df.rows()), key="bayes_mia")
        st.dataframe(pd.DataFrame({c: df[c] for c in ("mechanism", "epsilon", "success_rate", "fpr", "fnr",
                                                        "fpr_upper", "fnr_upper", "epsilon_lower_bound")}),
                     hide_index=True, width="stretch")
    attack_view()

# ------------------------------------------------------------------------------ EndToEndDP
with tab_tune:
    @st.fragment
    def tuning_view():
        st.caption("000 Algorithm 2: 90% of the users train, 10% validate. Each (S, ρ) on the grid "
                   "(S log-spaced 1e-3 … 1e4 × ρ ∈ {0.1, 0.25, 0.5, 0.75, 1}) is scored by the cross-entropy of "
                   "eq. 6 on the validation counts; report-noisy-min with Lap(2|Δq|/ε_tune) picks one, and θ is "
                   "released with ε_train. Budget: ε_train = 2ε/3, ε_tune = ε/3.")
        if not run_button(f"Tune and release at total ε = {fmt(eps)}", "bayes_run_e2e"):
            st.info("Press the button to tune S and ρ privately (about a second).")
            return
        with user_errors():
            prep = end_to_end_for(ph, qh, n, C, settings.seed, priv, pub)
            res = prep.release(epsilon=eps, delta=delta, calibration=calibration,
                               rng=settings.rng("bayes-e2e", n, C, calibration))
        guarantee_badge(f"{res.guarantee} at total ε = {fmt(res.epsilon)} "
                        f"({res.epsilon_train:.3g} train + {res.epsilon_tune:.3g} tune), δ = {fmt(delta)}")
        c1, c2, c3, c4 = st.columns(4)
        c1.metric("chosen S*", fmt(res.S_star))
        c2.metric("chosen ρ*", fmt(res.rho_star))
        c3.metric("score sensitivity |Δq| (Claim 2)", f"{res.score_sensitivity:.4g}")
        c4.metric("KL(private ‖ release)", f"{kl_divergence(p, res.theta):.4g}")
        grid = pd.DataFrame(res.grid, columns=["S", "rho"]).assign(score=res.scores, noisy_score=res.noisy_scores)
        fig = go.Figure()
        for i, r in enumerate(sorted(grid["rho"].unique())):
            part = grid[grid.rho == r]
            fig.add_trace(go.Scatter(x=part["S"], y=part["score"], mode="lines+markers", name=f"ρ = {r:g}",
                                     line=dict(color=PALETTE[i % len(PALETTE)])))
        fig.update_xaxes(type="log", title_text="S (log scale)")
        fig.update_yaxes(title_text="validation cross-entropy q, eq. 6 (lower is better)")
        fig.update_layout(title="Noiseless grid scores; the noisy min picks S*, ρ*")
        show_figure(fig, alt=f"Validation score against S for each ρ; chosen S* = {fmt(res.S_star)}, "
                             f"ρ* = {fmt(res.rho_star)}; score sensitivity {res.score_sensitivity:.4g}.",
                    key="bayes_e2e")
        spread = float(grid["score"].max() - grid["score"].min())
        st.markdown(f"The Laplace noise on each score has scale 2|Δq|/ε_tune = "
                    f"{2 * res.score_sensitivity / res.epsilon_tune:.4g}, against a spread of {spread:.4g} between "
                    f"the best and worst grid point: Claim 2's second term C·Σ|μ_ps,i − logsumexp μ_ps| grows with "
                    f"|V|, so with few validation users the choice is close to random.")
    tuning_view()
