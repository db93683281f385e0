"""TopicDP — LDA topics released with a sampled sensitivity (as in the thesis and corrected), strict TopicDP on
the global bound, Laplace and MVG (thesis 004; SPEC §5; issue 21 items 3–4, issue 20 item 3), and beside them
VIPS-LDA, noise on the model's counts inside training, with its public-only baseline (issue 23).

The topic model and the sampled sensitivity do not depend on ε or δ and are cached; when no sampled
sensitivity exists for the chosen settings (an upload), the page shows what needs none (the table, strict TopicDP,
Laplace, VIPS-LDA) and a button runs the sampler with a progress bar for the rest (issue 31 item 7).
Cached loaders: dpui.topicdp.data; LDA/sampler knobs: dpui.topicdp.knobs; the sampler button:
dpui.topicdp.sampler; σ metrics, badges, story, prompts and the reviews: dpui.topicdp.panels; the tabs (stateful and
lazy: only the open one is computed and drawn) and each tab's view: dpui.topicdp.views; figures:
dpui.topicdp.figures; VIPS-LDA's knobs, loaders and panels: dpui.topicdp.vips; texts: dpui/common/page_texts/topicdp.md.
"""

import streamlit as st

from dpcore import topic_keyword_matrix
from dpcore import topicdp as tdp
from dpcore.specs import TopicDpSpec
from dpcore.topicdp import sensitivity_sampler_size
from dpui import exercise_mode, paper_vs_here, reviewer_panel, shared_sidebar, user_errors
from dpui.topicdp import data
from dpui.topicdp import panels
from dpui.topicdp import views
from dpui.topicdp import vips as vipsui
from dpui.common.knobs import draw_knob
from dpui.common.presenter import presenter_stage
from dpui.common.risk import attacker_view
from dpui.common.sidebar import SharedSettings
from dpui.common.texts import explain, text
from dpui.topicdp.knobs import lda_and_sampler_knobs, table_size_knobs
from dpui.topicdp.sampler import sampled_draws

CONCLUSION_EPSILONS = (0.5, 1.0, 2.0, 3.0, 5.0, 10.0)  # the thesis' ε range (004 Fig. 5.6) and below

st.set_page_config(page_title="TopicDP", page_icon="🗂️", layout="wide")
exercise = exercise_mode("4_TopicDP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"), epsilon_fragment=True)  # ε: drawn by the body
corpus, delta = settings.private, settings.delta
st.title("TopicDP: private topic keywords")
stage = presenter_stage()  # presenter mode: the keywords before and after noise here, ε and γ beside it (issue 31)
explain("topicdp", "lead")
paper_vs_here("4_TopicDP", settings)  # the paper's numbers beside ours, a preset to its settings

c1, c2, c3 = st.columns(3)  # γ in c1, drawn by the body below
lda, sampler, workers = lda_and_sampler_knobs()
clip, iterations = vipsui.knobs()
with user_errors():  # the fit first: the sliders offer only a table size the model has (issue 31 item 7)
    model = data.model_for(corpus.content_hash, lda, corpus)
    m, n = table_size_knobs(c2, c3, n_topics=lda.n_topics, n_words=len(model.words))


def release(settings: SharedSettings) -> None:
    """The releases at the sidebar's ε and the first column's γ, and everything that reads them: an st.fragment, so
    an ε or γ move reruns only this (SharedSettings.with_epsilon; γ is drawn here, into the column above)."""
    gamma = draw_knob(TopicDpSpec, "gamma", stage.knob(c1))  # declared on the spec's field (dpcore.specs.topicdp)
    eps = settings.epsilon
    with user_errors():  # one spec (dpcore.specs.topicdp): the draws, the export's record and the notebook (issue 22)
        spec = TopicDpSpec(
            seed=settings.seed,
            corpus=settings.data,
            corpus_hash=corpus.content_hash,
            public_hash=settings.public.content_hash,
            epsilon=eps,
            delta=delta,
            gamma=gamma,
            m=m,
            n=n,
            lda_engine=lda.engine,
            n_topics=lda.n_topics,
            max_iter=lda.max_iter,
            learning_method=lda.learning_method,
            max_doc_update_iter=lda.max_doc_update_iter,
            max_features=lda.max_features,
            sample_users=sampler.sample_users,
            sampler_seed=sampler.seed,
            clip_norm=clip,
            iterations=iterations,
        )
        size = sensitivity_sampler_size(gamma=gamma)
        table = topic_keyword_matrix(model, m=m, n=n)
    draws = sampled_draws(corpus, lda, sampler, size, gamma, workers)  # None: the sampler has not run (issue 31 item 7)
    spec = spec if draws is not None else spec.replace(sampled=False)  # then only what needs no Δ_s is released
    with user_errors():
        sens = None if draws is None else draws.sensitivity(gamma=gamma, m=m, n=n)
    delta_s = None if sens is None else sens.delta_s

    # ------------------------------------------------------------------------------ what the numbers mean
    # the SensitivityResult carries γ, so each release labels itself (random DP; strict and Laplace: DP for the values)
    releases = spec.release(table, sens)  # rng("topicdp", "release", ε, δ, m, n, γ, Δ_s): every parameter
    story = None if sens is None else tdp.sigma_story(epsilon=eps, delta=delta, delta_s=delta_s, m=m, n=n, gamma=gamma)
    docs = data.prompt_docs_for(corpus.content_hash, model.words, corpus)  # None: the corpus has no prompts
    with user_errors():  # VIPS-LDA: its release at (ε, δ, B, J, seed), read on the same table (one reference for all)
        vips = vipsui.prepare(
            settings,
            corpus,
            lda,
            model,
            table,
            docs=docs,
            clip=clip,
            iterations=iterations,
            delta_s=delta_s,
            gamma=gamma,
        )
    panels.sigma_metrics(story, releases)
    with st.container(border=True):
        panels.guarantee_badges({**releases, vipsui.NAME: vips.vips})  # VIPS-LDA's: green, the choice of topics covered
        badges = panels.guarantees({**releases, vipsui.NAME: vips.vips})
        attacker_view(badges, key="topicdp_risk_curve")

    # ------------------------------------------------------------------------------ the tabs: only the open one is drawn
    tabs = views.page_tabs(prompts=docs is not None, exercise=exercise)  # stateful, in the URL (?topicdp_tab=…)
    shown = views.guarantees(releases, vips)  # each mechanism's release Guarantee: the charts' legends name it
    if tabs[views.WORDS].open:
        with tabs[views.WORDS]:
            main = stage.chart([(g, name) for name, g in badges.items()])  # presenter mode: the first chart, on top
            views.keywords(
                spec, settings, table, releases, vips, lda=lda, sampler=sampler, sens=sens, story=story, main=main
            )
    for label in views.needs_sampler(tabs) if draws is None else ():  # these tabs read the sampled Δ_s
        with tabs[label]:
            views.sampler_first(label)
    if draws is not None and tabs[views.CURVES].open:
        with tabs[views.CURVES]:
            views.curves(spec, model, draws, vips, lda=lda, shown=shown)
    if draws is not None and tabs[views.SENSITIVITIES].open:
        with tabs[views.SENSITIVITIES]:
            views.sensitivities(sens, draws, sampler=sampler, corpus=corpus)
    if draws is not None and views.PROMPTS in tabs and tabs[views.PROMPTS].open:
        with tabs[views.PROMPTS]:
            views.prompts(spec, table, model, docs, corpus=corpus, lda=lda, delta_s=delta_s, shown=shown)
    if tabs[views.VIPS].open:
        before = (
            None if docs is None else data.before_for(corpus.content_hash, lda, m, n, table, docs).matched
        )  # ε-free
        with tabs[views.VIPS]:
            vipsui.tab(
                vips,
                lda,
                table,
                eps=eps,
                delta=delta,
                delta_s=delta_s,
                seed=settings.seed,
                before_matched=before,
                shown=shown,
            )

    # ------------------------------------------------------------------------------ what the numbers mean, below the charts
    # a lazy expander (issue 29 item 4): its draws at ε (prompts kept, every mechanism's mean L1) run only while it is open
    story_box = st.expander(
        "What the table and the noise are: σ, the prompts, VIPS-LDA and what this corpus shows",
        key="topicdp_story_open",
        on_change="rerun",
    )
    if story_box.open:
        with story_box:
            st.caption(text("topicdp", "caption"))
            if story is None:  # no Δ_s yet: the story, the prompts' line and the means all read it (issue 31 item 7)
                views.sampler_first("story")
            else:
                panels.story(story, gamma=gamma)
                if docs is not None:
                    args = (corpus.content_hash, lda, m, n, eps, delta, delta_s, gamma, settings.seed, table, docs)
                    panels.prompt_line(data.survival_now(*args), eps=eps)
                vipsui.summary(vips, eps=eps, delta=delta, m=m, n=n)
                summary = tdp.summarise_draws(draws, gamma=gamma, m=m, n=n, delta=delta)  # issue 11: from the draws
                noise = tdp.compare_noise(delta_s=delta_s, epsilons=CONCLUSION_EPSILONS, delta=delta, m=m, n=n)
                st.markdown(text("topicdp", "conclusion", summary=summary.sentence, noise=noise.sentence))
    with st.expander(
        f"What “random DP with confidence γ = {gamma:g}” means, and how Δ_s {'would be' if sens is None else 'was'} sampled"
    ):
        N = sampler.dataset_size(corpus.n_users)
        if sens is None:  # h, k and the covered share are the sampler's: none yet
            views.sampler_first("random_dp", gamma=gamma, h=size.h, N=N)
        else:
            st.markdown(
                text(
                    "topicdp",
                    "random_dp",
                    gamma=gamma,
                    N=N,
                    n_users=corpus.n_users,
                    covered=1 - gamma,
                    h=sens.h,
                    k=sens.k,
                    covered_share=sens.covered_share,
                    rho_s=sens.rho_sampler,
                )
            )

    # ------------------------------------------------------------------------------ reviewer's panel
    # every release is reviewed; the session budget records those whose values this run shows (not an unopened tab's)
    shown = views.releases_on_screen(tabs, releases)
    reviewer_panel(panels.reviews(releases, vips, n_users=corpus.n_users, recorded=shown, spec=spec))


settings.with_epsilon(release)
