"""Bayesian n-gram DP — BayesianDP against Laplace, k-anonymity and the public prior (paper 000; SPEC §3).

The current release (θ at the sidebar's ε, δ), then one tab per experiment of 000 §4–§5 (heavy ones on a button).
Loaders: dpui.bayesian_data; knobs: dpui.bayesian_knobs; figures: dpui.bayesian_figures; texts: page_texts.
"""

import numpy as np
import streamlit as st

from dpcore import review_release
from dpcore.bayesian import BAYESIAN, BAYESIAN_STRICT, LAPLACE, PUBLIC
from dpcore.bayesian.baselines import k_anonymity_release, public_baseline
from dpcore.lab.review import items_per_user
from dpcore.metrics import kl_divergence
from dpcore.lab.paper_results import FIG1_BAYES
from dpcore.specs import (BayesianAttackSpec, BayesianDataSweepSpec, BayesianEndToEndSpec, BayesianKlEpsilonSpec,
                          BayesianPerplexitySpec, BayesianSpec)
from dpui import exercise_mode, export_view, guarantee_badge, paper_vs_here, reviewer_panel, shared_sidebar, show_figure, user_errors
from dpui import bayesian_data as data, bayesian_figures as figures
from dpui.bayesian_modes import mode_knobs, modes_panel
from dpui.bayesian_knobs import bayesian_knobs
from dpui.bayesian_panels import release_panel, text_panel
from dpui.budget import record_release
from dpui.reproduce import reproduce_buttons
from dpui.sidebar import format_number as fmt
from dpui.state import IN_URL, run_button
from dpui.texts import text

st.set_page_config(page_title="Bayesian n-gram DP", page_icon="📊", layout="wide")
exercise_mode("2_Bayesian_ngram_DP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"))
st.title("Bayesian differential privacy for n-gram distributions")
st.markdown(text("bayesian", "lead"))
paper_vs_here("2_Bayesian_ngram_DP", settings)  # the paper's numbers beside ours, a preset to its settings
k = bayesian_knobs()
mk = mode_knobs(settings.data)  # strict (DP, default) / local (as in the paper), L and N_max
S, rho, C, n, W, K, reps, calibration = k.S, k.rho, k.C, k.n, k.W, k.K, k.reps, k.calibration
eps, delta, seed = settings.epsilon, settings.delta, settings.seed
priv, pub = settings.private, settings.public
ph, qh = priv.content_hash, pub.content_hash

# ------------------------------------------------------------------------------ the release at these settings
with user_errors():  # one spec per computation (dpcore.specs.bayesian): its draws, cache key, export and notebook
    common = dict(seed=seed, corpus=settings.data, corpus_hash=ph, public_hash=qh, S=S, rho=rho, C=C,
                  calibration=calibration)
    caps = dict(common, n=n, max_items=mk.L, max_users=mk.N_max)  # strict mode's L and N_max (dpcore's names)
    spec = BayesianSpec(**caps, epsilon=eps, delta=delta, mode=mk.mode)
    now = data.release_for(spec, priv, pub)
    counts, p, local, gamma_worst, strict, prepared, release = now
    sigma_classic = prepared.sigma(epsilon=eps, delta=delta, calibration="classic")
    sigma_analytic = prepared.sigma(epsilon=eps, delta=delta, calibration="analytic")
kl_now, kl_public = kl_divergence(p, release.theta), kl_divergence(p, public_baseline(counts.public_counts))
view_settings = {"page": "Bayesian n-gram DP", "epsilon": eps, "delta": delta, "seed": seed,  # what an export needs
                 "corpus": settings.corpus_label, "private_corpus_hash": ph, "public_corpus_hash": qh, **k.as_dict(),
                 **mk.as_dict()}

guarantee_badge(release.guarantee, name=f"BayesianDP {mk.mode}")

(tab_now, tab_eps, tab_users, tab_vocab, tab_pub, tab_k, tab_ppl, tab_mia, tab_tune) = st.tabs([
    "Release", "KL vs ε", "Users", "Vocabulary", "Public quality", "k-anonymity vs ε", "Perplexity",
    "Membership inference", "Private tuning"])

with tab_now:
    @st.fragment
    def release_view():
        top = st.slider("Show the most frequent private n-grams", 5, 50, 20, 5, key="bayes_top", **IN_URL)
        order = np.argsort(-p)[:top]
        labels = [" ".join(counts.vocabulary[i]) for i in order]
        alpha_t = public_baseline(counts.public_counts)
        rows = BayesianSpec.top_rows(now.outcome(), top)  # the spec's numbers: what a replay of the export gives
        fig, alt = figures.release_figure(labels, order, p, alpha_t, release.theta, n=n)
        show_figure(fig, alt=alt, key="bayes_bars", records=rows)
        st.caption(text("bayesian", "release_caption"))
        export_view(f"top {top} {n}-grams", rows, settings={**view_settings, "top": top, "mechanism": BAYESIAN, "guarantee": release.guarantee,
                      "sensitivity_gamma": prepared.sensitivity, "sigma_ps": release.sigma,
                      "rng_salt": list(spec.salt())}, key="bayes_export_release", spec=spec)
        reproduce_buttons(spec, title=f"the BayesianDP {mk.mode} release", key="bayes_reproduce_release")
    release_view()

with tab_eps:
    with_e2e = st.toggle("Add EndToEndDP (S and ρ tuned privately, total ε) — a few seconds", value=False,
                         key="bayes_e2e_curve", **IN_URL)
    with user_errors():
        kl_spec = BayesianKlEpsilonSpec(**caps, delta=delta, W=W, K=K, repetitions=reps, with_end_to_end=with_e2e)
        curves = data.kl_epsilon_for(kl_spec, priv, pub)  # with EndToEndDP when asked (the export's spec)
        summary = data.kl_epsilon_for(kl_spec.replace(with_end_to_end=False), priv, pub).summary
    shown, kl_k = curves.summary, curves.kl_k
    fig, alt = figures.kl_eps_figure(shown, summary, eps=eps, K=K, kl_k=kl_k, title=(
        f"KL vs ε ({n}-grams, S = {fmt(S)}, ρ = {rho:g}, C = {C}, W = {W}, δ = {fmt(delta)}, {reps} repetitions)"))
    rows = kl_spec.rows(curves)  # k-anonymity at K (K ≥ 2) as a flat line: it has no ε
    show_figure(fig, alt=alt, key="bayes_kl_eps", records=rows)
    b, b_strict, lap, pub_kl = (dict(zip(summary[m].x.tolist(), summary[m].mean)) for m in (BAYESIAN, BAYESIAN_STRICT, LAPLACE, PUBLIC))
    st.markdown(text("bayesian", "kl_eps_note", ratio_01=b[0.1] / lap[0.1], ratio_1=b[1.0] / lap[1.0], L=mk.L,
                     strict_01=b_strict[0.1] / lap[0.1], strict_1=b_strict[1.0] / lap[1.0], N_max=mk.N_max,
                     paper=1 - FIG1_BAYES.values["reduction"], public=pub_kl[0.1], public_data=settings.public_label))
    export_view("KL vs ε summary", rows, settings={**view_settings, "with_end_to_end": with_e2e, "sweep_epsilons": data.SWEEP_EPS,
                  "band": f"10–90% over {reps} seeded releases per ε",
                  "rng_salt": list(kl_spec.salt()), "k_anonymity_kl (not DP, at K)": kl_k}, key="bayes_export_kl",
                spec=kl_spec)
    reproduce_buttons(kl_spec, title="KL vs ε (000 Fig. 1)", key="bayes_reproduce_kl")

# ------------------------------------------------------------------------------ data sweeps, on a button
def data_tab(kind, x, x_title, title):
    @st.fragment
    def view():
        st.caption(text("bayesian", f"{kind}_note"))
        if not run_button(f"Run at ε = {fmt(eps)}", f"bayes_run_{kind}",
                          hint="Press **Run** to compute this experiment (a few seconds)."):
            return
        with user_errors():
            sweep = BayesianDataSweepSpec(**caps, sweep=kind, epsilon=eps, delta=delta, W=W, repetitions=reps)
            df = data.data_sweep(sweep, priv, pub)
        fig, alt = figures.data_sweep_figure(df, x, title=title, x_title=x_title)
        show_figure(fig, alt=alt, key=f"bayes_fig_{kind}")
        reproduce_buttons(sweep, title=title, key=f"bayes_reproduce_{kind}")
    view()


with tab_users:
    data_tab("users", "users", "number of private users (log scale)",
             f"KL vs number of users at ε = {fmt(eps)} (000 Fig. 2)")
with tab_vocab:
    data_tab("vocabulary", "vocabulary", "vocabulary size |V| (most frequent public n-grams, log scale)",
             f"KL vs vocabulary size at ε = {fmt(eps)} (000 Fig. 3)")
with tab_pub:
    data_tab("public", "public_noise", "scale b of the Laplace noise added to the public counts "
             "(log scale; right = worse public data)", f"KL vs public-data quality at ε = {fmt(eps)} (000 Fig. 4)")

with tab_k:
    fig, alt = figures.kanon_figure(kl_spec, priv, pub)
    show_figure(fig, alt=alt, key="bayes_kanon")
    rel_k = k_anonymity_release(counts.user_counts, counts.public_counts, K=K)
    guarantee_badge(rel_k.guarantee, name="k-anonymity")
    st.markdown(text("bayesian", "kanon_text", K=K, kept=rel_k.kept_items, n=n, suppressed=rel_k.suppressed_items,
                     mass=rel_k.suppressed_mass, kl=kl_divergence(p, rel_k.theta)))

with tab_ppl:
    @st.fragment
    def perplexity_view():
        st.caption(text("bayesian", "perplexity_caption"))
        if not run_button(f"Compute the table at ε = {fmt(eps)}", "bayes_run_ppl", hint="Press the button to release "
                          "the trigram distributions and score them (about a second)."):
            return
        with user_errors():
            ppl = BayesianPerplexitySpec(**common, epsilon=eps, delta=delta, W=W, K=K)
            tab, n_tri, n_sent = data.perplexity_for(ppl, priv, pub)
        st.dataframe(tab.rows(), hide_index=True, width="stretch", column_config={
            "perplexity": st.column_config.NumberColumn(format="%.3f")})
        st.caption(text("bayesian", "perplexity_footer", trigrams=n_tri, sentences=n_sent))
    perplexity_view()

with tab_mia:
    @st.fragment
    def attack_view():
        st.caption(text("bayesian", "attack_caption"))
        trials = st.select_slider("Trials per ε", (50, 100, 200, 400), value=100, key="bayes_trials", **IN_URL)
        if not run_button("Run the attack", "bayes_run_mia", hint="Press **Run the attack** (a few seconds)."):
            return
        with user_errors():
            df = data.attack_for(BayesianAttackSpec(**common, n=n, delta=delta, W=W, trials=trials), priv, pub)
        fig, alt = figures.attack_figure(df)
        show_figure(fig, alt=alt, key="bayes_mia")
        st.dataframe({c: df[c] for c in ("mechanism", "epsilon", "success_rate", "fpr", "fnr", "fpr_upper",
                                         "fnr_upper", "epsilon_lower_bound")}, hide_index=True, width="stretch")
    attack_view()

with tab_tune:
    @st.fragment
    def tuning_view():
        st.caption(text("bayesian", "tuning_caption"))
        if not run_button(f"Tune and release at total ε = {fmt(eps)}", "bayes_run_e2e",
                          hint="Press the button to tune S and ρ privately (about a second)."):
            return
        with user_errors():
            e2e = BayesianEndToEndSpec(**common, n=n, epsilon=eps, delta=delta)
            res, inside = e2e.release(data.end_to_end_for(e2e, priv, pub))
        guarantee_badge(res.guarantee, name="EndToEndDP")
        record_release(res, name="EndToEndDP")  # the session budget lists it (from the next full run)
        c1, c2, c3, c4 = st.columns(4)
        c1.metric("chosen S*", fmt(res.S_star))
        c2.metric("chosen ρ*", fmt(res.rho_star))
        c3.metric("score sensitivity |Δq| (Claim 2)", f"{inside.score_sensitivity:.4g}")
        c4.metric("KL(private ‖ release)", f"{kl_divergence(p, res.theta):.4g}")
        fig, alt, grid = figures.tuning_figure(res, inside)
        show_figure(fig, alt=alt, key="bayes_e2e")
        st.markdown(text("bayesian", "tuning_note", scale=inside.tuning_scale,
                         spread=float(grid["score"].max() - grid["score"].min())))
    tuning_view()

# ------------------------------------------------------------------------------ below the charts: what they mean
release_panel(k, about=text("bayesian", "caption", public=settings.public_label), counts=counts, prepared=prepared,
              release=release, gamma_worst=gamma_worst, eps=eps, delta=delta, sigma_classic=sigma_classic,
              sigma_analytic=sigma_analytic, kl_now=kl_now, kl_public=kl_public)
with user_errors():
    modes_panel(strict=strict, local=local, p=p, epsilon=eps, delta=delta, calibration=calibration,
                rng_strict=spec.rng(*spec.salt("strict")), rng_local=spec.rng(*spec.salt("local")))
text_panel(settings, k, mk.L)  # what this text looks like: shared k-grams, k-grams per person, activity
# ------------------------------------------------------------------------------ reviewer's panel
reviewer_panel([(f"BayesianDP {mk.mode}", review_release(release, n_users=counts.n_users,
                                                 user_items=items_per_user(counts.user_counts)))])
