"""TopicDP — LDA topics released with a sampled sensitivity (as in the thesis and corrected), strict TopicDP on
the global bound, Laplace and MVG (thesis 004; SPEC §5; issue 21 items 3–4, issue 20 item 3), and beside them
VIPS-LDA, noise on the model's counts inside training, with its public-only baseline (issue 23).

The topic model and the sampled sensitivity do not depend on ε or δ and are cached; when no sampled
sensitivity exists for the chosen settings, a button runs the sampler with a progress bar.
Cached loaders: dpui.topicdp_data; LDA/sampler knobs: dpui.topicdp_knobs; the sampler button:
dpui.topicdp_sampler; σ metrics, badges, story and prompts: dpui.topicdp_panels; figures:
dpui.topicdp_figures; VIPS-LDA's knobs, loaders and panels: dpui.topicdp_vips; texts: dpui/page_texts/topicdp.md.
"""

import pandas as pd
import streamlit as st

from dpcore import review_release, topic_keyword_matrix
from dpcore.topicdp import sensitivity_sampler_size
from dpcore import topicdp as tdp
from dpcore.specs import TopicDpSpec
from dpui import exercise_mode, export_view, paper_vs_here, reviewer_panel, shared_sidebar, show_figure, user_errors
from dpui import topicdp_data as data
from dpui import topicdp_figures as figures
from dpui import topicdp_panels as panels
from dpui import topicdp_vips as vipsui
from dpui.reproduce import reproduce_buttons
from dpui.state import IN_URL
from dpui.texts import text
from dpui.topicdp_knobs import lda_and_sampler_knobs
from dpui.topicdp_sampler import sampled_draws

CONCLUSION_EPSILONS = (0.5, 1.0, 2.0, 3.0, 5.0, 10.0)  # the thesis' ε range (004 Fig. 5.6) and below

st.set_page_config(page_title="TopicDP", page_icon="🗂️", layout="wide")
exercise_mode("4_TopicDP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"))
corpus, eps, delta = settings.private, settings.epsilon, settings.delta
st.title("TopicDP: private topic keywords")
st.markdown(text("topicdp", "lead"))
paper_vs_here("4_TopicDP", settings)  # the paper's numbers beside ours, a preset to its settings

c1, c2, c3 = st.columns(3)
gamma = c1.slider("γ (share of neighbours not covered)", 0.01, 0.30, 0.10, 0.01, key="topicdp_gamma", **IN_URL,
                  help="Confidence of random DP: the guarantee holds for at least a 1 − γ share of neighbouring "
                       "datasets. Smaller γ needs more sampled pairs (h grows like 1/γ²).")
lda, sampler, workers = lda_and_sampler_knobs()
clip, iterations = vipsui.knobs()
m = c2.slider("m (topics in the table)", 2, min(10, lda.n_topics), min(10, lda.n_topics), key="topicdp_m", **IN_URL)
n = c3.slider("n (keywords in the table)", 2, 10, 10, key="topicdp_n", **IN_URL)
with user_errors():  # one spec (dpcore.specs.topicdp): the draws, the export's record and the notebook (issue 22)
    spec = TopicDpSpec(seed=settings.seed, corpus=settings.data, corpus_hash=corpus.content_hash,
                       public_hash=settings.public.content_hash, epsilon=eps, delta=delta, gamma=gamma, m=m, n=n,
                       lda_engine=lda.engine, n_topics=lda.n_topics, max_iter=lda.max_iter,
                       learning_method=lda.learning_method, max_doc_update_iter=lda.max_doc_update_iter,
                       max_features=lda.max_features, sample_users=sampler.sample_users, sampler_seed=sampler.seed,
                       clip_norm=clip, iterations=iterations)
    size = sensitivity_sampler_size(gamma)
    model = data.model_for(corpus.content_hash, spec.lda_settings(), corpus)
    table = topic_keyword_matrix(model, m=m, n=n)
draws = sampled_draws(corpus, lda, sampler, size, gamma, workers)
with user_errors():
    sens = draws.sensitivity(gamma=gamma, m=m, n=n)
delta_s = sens.delta_s

# ------------------------------------------------------------------------------ what the numbers mean
# the SensitivityResult carries γ, so each release labels itself (random DP; strict and Laplace: DP for the values)
releases = spec.release(table, sens)  # rng("topicdp", "release", ε, δ, m, n, γ, Δ_s): every parameter
story = tdp.sigma_story(epsilon=eps, delta=delta, delta_s=delta_s, m=m, n=n, gamma=gamma)
docs = data.prompt_docs_for(corpus.content_hash, model.words, corpus)  # None: the corpus has no prompts
with user_errors():  # VIPS-LDA: its release at (ε, δ, B, J, seed), read on the same table (one reference for all)
    vips = vipsui.prepare(settings, corpus, lda, model, table, docs=docs, clip=clip, iterations=iterations,
                          delta_s=delta_s, gamma=gamma)
shown = {**releases, **vips.shown}  # the five matrix mechanisms, VIPS-LDA and the public-only fit (0-DP)
panels.sigma_metrics(story, releases)
with st.container(border=True):
    panels.guarantee_badges({**releases, vipsui.NAME: vips.vips})  # VIPS-LDA's: green, the choice of topics covered
survival = None if docs is None else data.survival_now(corpus.content_hash, lda, m, n, eps, delta, delta_s, gamma,
                                                       settings.seed, table, docs)
labels = figures.topic_labels(table)
tab_names = ["Keywords before and after noise", "Error curves", "Sampled sensitivities"]
tabs = st.tabs(tab_names + (["Prompts after noise"] if docs is not None else []) + ["VIPS-LDA against ε"])
tab_words, tab_curves, tab_sens = tabs[:3]

with tab_words:
    # Numbered labels, not the keyword labels: they go into the URL (…?topicdp_topics=Topic+1&…) and must not
    # depend on the fitted words; each chart's title names the topic's top keywords.
    chosen = st.multiselect("Topics to show (rows in LDA component order; the chart titles name their keywords)",
                            list(range(m)), default=list(range(min(4, m))), format_func=lambda i: f"Topic {i + 1}",
                            key="topicdp_topics", **IN_URL)
    rows = [{"topic": i + 1, "model_topic": table.topics[i], "keyword": word, "before_noise": table.matrix[i, j],
             **{f"after_{mech}": rel.matrix[i, j] for mech, rel in shown.items()}}
            for i in range(m) for j, word in enumerate(table.words)]
    for i in chosen:
        fig, alt = figures.keyword_figure(table, {**releases, vipsui.NAME: vips.vips}, labels[i], i)
        show_figure(fig, alt=alt, key=f"topicdp_bars_{i}", records=[r for r in rows if r["topic"] == i + 1])
    names = {"l1": "L1 distance", "rmse": "RMSE", "kendall": "Kendall's tau distance", "noise_scale": "noise scale (σ or b)"}
    errs = pd.DataFrame({mech: {names[k]: v for k, v in e.items()}
                         for mech, e in tdp.release_error_table(table.matrix, shown).items()}
                        ).rename_axis("measure")  # a named index: its column header is not empty (axe: empty-table-header)
    st.markdown("**This draw's errors** against the one reference table (lower is better; after clipping at 0 and "
                "renormalising each row; VIPS-LDA's noise scale σ is on counts, the public-only fit has none)")
    st.dataframe(errs.style.format("{:.4g}"), width="stretch")
    export_settings = {
        "page": "TopicDP", "epsilon": eps, "delta": delta, "seed": settings.seed,
        "corpus": settings.corpus_label, "corpus_hash": corpus.content_hash, "gamma": gamma, "m": m, "n": n,
        "lda": lda.as_dict(), "sampler": {"sample_users": sampler.sample_users,  # None = the corpus' size (keys the draws)
                    "sample_users_N": sampler.dataset_size(corpus.n_users), "seed": sampler.seed},
        "sampled_pairs_h": sens.h, "sensitivity_rank_k": sens.k, "sampled_sensitivity_delta_s": delta_s,
        "noise_scales": {mech: rel.noise_scale for mech, rel in shown.items()},  # VIPS-LDA's σ: on counts
        "thesis_sigma_true_epsilon": story.thesis_true_epsilon, "strict_bound_sqrt_2m": story.bound,
        "guarantees": {mech: rel.guarantee for mech, rel in shown.items()}, "vips": vipsui.export_settings(vips),
        "rng_salt": list(spec.salt(delta_s)),
        "release_order": "rows: LDA component index; columns: vocabulary order",
        "released": "clipped at 0, rows renormalised"}
    export_view("keyword table before/after noise", rows, settings=export_settings, key="topicdp_export_keywords",
                spec=spec)
    export_view("this draw's errors", [{"metric": metric_name, **{mech: errs.at[metric_name, mech] for mech in errs}}
                                       for metric_name in errs.index],
                settings=export_settings, key="topicdp_export_errors", spec=spec)
    reproduce_buttons(spec, title="the TopicDP releases (five matrix mechanisms, VIPS-LDA and the public-only fit)",
                      key="topicdp_reproduce")

with tab_curves:
    d1, d2, d3, d4 = st.columns(4)
    # Captions instead of format_func: the URL carries the plain option (…?topicdp_curve_param=gamma).
    parameter = d1.radio("Vary", ("epsilon", "gamma", "size"), key="topicdp_curve_param", **IN_URL,
                         captions=("ε from 1 to 10", "γ from 0.02 to 0.22", "matrix size m = n from 2 to 10"))
    metric = d2.radio("Metric", tuple(figures.METRIC_AXES), key="topicdp_metric", **IN_URL,
                      captions=("L1 distance", "RMSE", "Kendall's tau distance"))
    stage = d3.radio("Measured on", ("released", "noisy"), key="topicdp_stage", **IN_URL,
                     captions=("release (clipped, rows renormalised)", "noisy matrix before clipping"))
    reps = d4.slider("repetitions", 5, 100, 20, 5, key="topicdp_reps", **IN_URL)
    log_y = d4.checkbox("log y-axis", value=True, key="topicdp_logy", **IN_URL)
    with user_errors():
        curve_spec = spec.curve_spec(parameter=parameter, repetitions=reps, stage=stage)
        curve = data.curve_for(curve_spec, model, draws)
    fixed = {"epsilon": f"γ = {gamma:g}, {m} × {n}", "gamma": f"ε = {eps:g}, {m} × {n}",
             "size": f"ε = {eps:g}, γ = {gamma:g}"}[parameter]
    extra = vipsui.curve_series(vips, lda, model, parameter=parameter, metric=metric, values=curve.values, epsilon=eps,
                                delta=delta, m=m, n=n, reps=reps, seed=settings.seed)
    fig, alt = figures.curve_figure(curve, parameter, metric, fixed=fixed, delta=delta, reps=reps, log_y=log_y,
                                    extra=extra)
    show_figure(fig, alt=alt, key="topicdp_curve")
    reproduce_buttons(curve_spec, title=f"the error curves against {parameter}", key="topicdp_reproduce_curve")
    for note in curve.skipped:
        st.info(f"Not drawn: {note}. Run the sampler at that γ (slider above) to add it.", icon="ℹ️")
    if stage == "released":
        st.caption(text("topicdp", "clipping_caption", l1_max=2 * m))

with tab_sens:
    fig, alt = figures.sensitivity_histogram(sens, m, n)
    show_figure(fig, alt=alt, key="topicdp_hist", records=[
        {"sampled pair": j + 1, "distance ‖f(D) − f(D′)‖_F": float(v), "≤ Δₛ": bool(v <= delta_s)}
        for j, v in enumerate(sens.draws)])
    st.dataframe(pd.DataFrame(figures.gamma_table(draws, m, n)), hide_index=True, width="stretch")
    st.caption(text("topicdp", "draws_caption", n_pairs=draws.n_pairs, N=sampler.dataset_size(corpus.n_users),
                    sampler_seed=sampler.seed))

if docs is not None:
    with tabs[3]:
        curve = data.survival_for(corpus.content_hash, lda, m, n, delta, delta_s, gamma, settings.seed, table, docs)
        st.markdown(text("topicdp", "prompts_tab", m=m, n=n))
        fig, alt = figures.survival_figure(curve)
        show_figure(fig, alt=alt, key="topicdp_prompts_curve")
        st.dataframe(pd.DataFrame(panels.matched_rows(table, curve.before, model)), hide_index=True, width="stretch")

with tabs[-1]:
    vipsui.tab(vips, lda, table, eps=eps, delta=delta, delta_s=delta_s, seed=settings.seed,
               before_matched=None if survival is None else survival.before.matched)

# ------------------------------------------------------------------------------ what the numbers mean, below the charts
with st.expander("What the table and the noise are: σ, the prompts, VIPS-LDA and what this corpus shows"):
    st.caption(text("topicdp", "caption"))
    panels.story(story, gamma=gamma)
    if survival is not None:
        panels.prompt_line(survival, eps=eps)
    vipsui.summary(vips, eps=eps, delta=delta, m=m, n=n)
    summary = tdp.summarise_draws(draws, gamma=gamma, m=m, n=n, delta=delta)  # issue 11: computed from the draws
    noise = tdp.compare_noise(delta_s=delta_s, epsilons=CONCLUSION_EPSILONS, delta=delta, m=m, n=n)
    st.markdown(text("topicdp", "conclusion", summary=summary.sentence, noise=noise.sentence))
with st.expander(f"What “random DP with confidence γ = {gamma:g}” means, and how Δ_s was sampled"):
    st.markdown(text("topicdp", "random_dp", gamma=gamma, N=sampler.dataset_size(corpus.n_users), n_users=corpus.n_users,
                     covered=1 - gamma, h=sens.h, k=sens.k, covered_share=sens.covered_share, rho_s=sens.rho_sampler))

# ------------------------------------------------------------------------------ reviewer's panel
reviewer_panel([(mech, review_release(rel, n_users=corpus.n_users)) for mech, rel in releases.items()]
               + [(vipsui.NAME, review_release(vips.vips.release, n_users=corpus.n_users, user_items=vips.setup.user_norms))])
