"""Bayesian n-gram DP — BayesianDP against Laplace, k-anonymity and the public prior (paper 000; SPEC §3).

The current release (θ at the sidebar's ε, δ), then one tab per experiment of 000 §4–§5 (heavy ones on a button).
The tabs are lazy (issue 24): only the open tab (in the URL, ``bayes_tab``) is computed and sent.
Loaders: dpui.bayesian.data; knobs: dpui.bayesian.knobs; tab views: dpui.bayesian.views; figures:
dpui.bayesian.figures; texts: page_texts.
"""

import streamlit as st

from dpcore import review_release
from dpcore.bayesian.baselines import public_baseline
from dpcore.lab.review import items_per_user
from dpcore.metrics import kl_divergence
from dpcore.specs import BayesianKlEpsilonSpec, BayesianSpec
from dpui import exercise_mode, guarantee_badge, reviewer_panel, shared_sidebar, user_errors
from dpui.bayesian import data, views
from dpui.bayesian.knobs import bayesian_knobs
from dpui.bayesian.modes import mode_knobs, modes_panel
from dpui.bayesian.panels import release_panel, text_panel
from dpui.common.paper_vs_here import paper_vs_here
from dpui.common.presenter import presenter_stage
from dpui.common.risk import attacker_view
from dpui.common.sidebar import SharedSettings
from dpui.common.texts import explain, text

st.set_page_config(page_title="Bayesian n-gram DP", page_icon="📊", layout="wide")
exercise_mode("2_Bayesian_ngram_DP")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"), epsilon_fragment=True)  # ε: drawn by the body
st.title("Bayesian differential privacy for n-gram distributions")
first = st.container()  # the page's first sentence: does the public data alone beat this release? (issue 31 item 2)
stage = presenter_stage()  # presenter mode: the release's chart here, under the verdict, ε beside it (issue 31)
explain("bayesian", "lead")
paper_vs_here("2_Bayesian_ngram_DP", settings)  # the paper's numbers beside ours, a preset to its settings
k = bayesian_knobs()
mk = mode_knobs(settings.data)  # strict (DP, default) / local (as in the paper), L and N_max


def release(settings: SharedSettings) -> None:
    """The release at the sidebar's ε and everything that reads it: an st.fragment, so an ε move reruns only this
    (SharedSettings.with_epsilon)."""
    eps, delta, seed = settings.epsilon, settings.delta, settings.seed
    priv, pub = settings.private, settings.public
    ph, qh = priv.content_hash, pub.content_hash

    # ------------------------------------------------------------------------------ the release at these settings
    with user_errors():  # one spec per computation (dpcore.specs.bayesian): its draws, cache key, export and notebook
        common = dict(
            seed=seed,
            corpus=settings.data,
            corpus_hash=ph,
            public_hash=qh,
            S=k.S,
            rho=k.rho,
            C=k.C,
            calibration=k.calibration,
        )
        caps = dict(common, n=k.n, max_items=mk.L, max_users=mk.N_max)  # strict mode's L and N_max (dpcore's names)
        spec = k.spec(BayesianSpec, **caps, epsilon=eps, delta=delta, mode=mk.mode)  # + every other knob of the spec
        kl_spec = k.spec(BayesianKlEpsilonSpec, **caps, delta=delta)  # 000 Figs. 1 and 5 (W, K, repetitions: k's)
        now = data.release_for(spec, priv, pub)
        counts, p, prepared, release = now.counts, now.p, now.prepared, now.release
        sigma_classic = prepared.sigma(epsilon=eps, delta=delta, calibration="classic")
        sigma_analytic = prepared.sigma(epsilon=eps, delta=delta, calibration="analytic")
    kl_now, kl_public = kl_divergence(p, release.theta), kl_divergence(p, public_baseline(counts.public_counts))
    with first:  # measured on the data shown; ε → ∞ (θ = softmax(μ_ps)) says whether any ε could change the verdict
        kl_free = kl_divergence(p, prepared.mean_theta())
        views.verdict(kl_now=kl_now, kl_public=kl_public, kl_noise_free=kl_free, sigma=release.sigma, S=k.S, rho=k.rho)
    view_settings = {  # what an export needs
        "page": "Bayesian n-gram DP",
        "epsilon": eps,
        "delta": delta,
        "seed": seed,
        "corpus": settings.corpus_label,
        "private_corpus_hash": ph,
        "public_corpus_hash": qh,
        **k.as_dict(),
        **mk.as_dict(),
    }

    guarantee_badge(release.guarantee, name=f"BayesianDP {mk.mode}")
    attacker_view(release.guarantee, key="bayes_risk_curve")  # local mode: says why there is no bound

    # ------------------------------------------------------------------------------ one tab open at a time (lazy)
    ctx = views.TabContext(settings, k, mk, common, spec, kl_spec, now, view_settings)
    tab_now, tab_eps, tab_users, tab_vocab, tab_pub, tab_k, tab_ppl, tab_mia, tab_tune = st.tabs(
        views.TABS, key=views.TAB_KEY, bind="query-params"
    )
    if tab_now.open:  # the default tab: the release's top n-grams, its export and notebook
        with tab_now:
            views.release_view(ctx, stage)
    if tab_eps.open:  # 000 Fig. 1: KL vs ε for every mechanism
        with tab_eps:
            views.kl_epsilon_view(ctx)
    for data_tab, kind in ((tab_users, "users"), (tab_vocab, "vocabulary"), (tab_pub, "public")):
        if data_tab.open:  # 000 Figs. 2–4, on a button
            with data_tab:
                views.data_tab(ctx, kind)
    if tab_k.open:  # 000 Fig. 5 and k-anonymity's release at K (not DP)
        with tab_k:
            views.kanon_view(ctx)
    if tab_ppl.open:  # 000 Table 1, on a button
        with tab_ppl:
            views.perplexity_view(ctx)
    if tab_mia.open:  # 000 Fig. 6, on a button
        with tab_mia:
            views.attack_view(ctx)
    if tab_tune.open:  # 000 Algorithm 2 (EndToEndDP), on a button; the session budget counts it when it is shown
        with tab_tune:
            views.tuning_view(ctx)

    # ------------------------------------------------------------------------------ below the charts: what they mean
    release_panel(
        k,
        about=text("bayesian", "caption", public=settings.public_label),
        counts=counts,
        prepared=prepared,
        release=release,
        gamma_worst=now.gamma_worst,
        eps=eps,
        delta=delta,
        sigma_classic=sigma_classic,
        sigma_analytic=sigma_analytic,
        kl_now=kl_now,
        kl_public=kl_public,
    )
    side = None  # the other mode's release, shown side by side: the reviewer's panel and the budget count it too
    with user_errors():
        side = modes_panel(
            strict=now.strict,
            local=now.local,
            p=p,
            epsilon=eps,
            delta=delta,
            calibration=k.calibration,
            rng_strict=spec.rng(*spec.salt("strict")),
            rng_local=spec.rng(*spec.salt("local")),
        )
    text_panel(settings, k, mk.L)  # what this text looks like: shared k-grams, k-grams per person, activity
    # ------------------------------------------------------------------------------ reviewer's panel: the releases shown
    # (the page's, and the other mode's beside it: one truth in badges, panel and budget); EndToEndDP's by its tab
    items = items_per_user(counts.user_counts)
    reviews = [
        (f"BayesianDP {mk.mode}", review_release(release, n_users=counts.n_users, user_items=items, identity=spec))
    ]
    if side is not None:  # the side-by-side panel's other mode: a release of its own (its spec names its mode)
        other = "local" if mk.mode == "strict" else "strict"
        rel = side[0] if other == "strict" else side[1]
        rev = review_release(rel, n_users=counts.n_users, user_items=items, identity=spec.replace(mode=other))
        reviews.append((f"BayesianDP {other} (side by side)", rev))
    reviewer_panel(reviews)


settings.with_epsilon(release)
