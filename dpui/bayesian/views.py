"""The Bayesian n-gram DP page's tabs, one view each (paper 000 §4–§5): the release, then one tab per experiment.

The page's tabs are stateful and lazy (issue 24): ``st.tabs(TABS, key=TAB_KEY, bind="query-params")`` puts the
open tab in the URL (``?bayes_tab=KL+vs+ε``), and the page calls a tab's view only when that tab is open, so an ε
move computes and sends one tab. Each view reads :class:`TabContext` (what the page built from its widgets: the
specs and the current release); the heavy ones wait for a button (``dpui.common.state.run_button``). Loaders:
dpui.bayesian.data; figures: dpui.bayesian.figures; texts: page_texts/bayesian.md. No maths here.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import streamlit as st

from dpcore.bayesian import BAYESIAN, BAYESIAN_STRICT, LAPLACE, PUBLIC
from dpcore.bayesian.baselines import k_anonymity_release, public_baseline
from dpcore.lab.paper_results import FIG1_BAYES
from dpcore.lab.risk import membership_points
from dpcore.metrics import kl_divergence
from dpcore.specs import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianKlEpsilonSpec,
    BayesianPerplexitySpec,
    BayesianSpec,
)

from dpui.bayesian import data
from dpui.bayesian import figures
from dpui.bayesian.data import PageRelease
from dpui.bayesian.knobs import BayesKnobs
from dpui.bayesian.modes import ModeKnobs
from dpui.common.budget import record_release
from dpui.common.charts import NO_NOISE, REFERENCE_TAG, guarantee_badge, show_figure, show_vega
from dpui.common.errors import user_errors
from dpui.common.exercises import spoiler
from dpui.common.exports import export_box, export_view
from dpui.common.knobs import draw_knob
from dpui.common.reproduce import reproduce_buttons
from dpui.common.risk import measured_attack_view
from dpui.common.sidebar import format_number as fmt
from dpui.common.state import IN_URL, run_button
from dpui.common.texts import text

TAB_KEY = "bayes_tab"
"""The tabs' key: session state and the URL's parameter hold the open tab's label."""
TABS = (
    "Release",
    "KL vs ε",
    "Users",
    "Vocabulary",
    "Public quality",
    "k-anonymity vs ε",
    "Perplexity",
    "Membership inference",
    "Private tuning",
)
"""The tab labels, in order; the first (the release, the page's main chart) is open by default."""


@dataclass(frozen=True)
class TabContext:
    """What the tabs read: the shared settings, the page's knobs, the common spec fields, the release's and the
    KL-vs-ε spec, the current release and the settings an export carries."""

    settings: object  # dpui.common.sidebar.SharedSettings
    k: BayesKnobs
    mk: ModeKnobs
    common: dict  # the fields every spec of the page shares (seed, corpus and hashes, S, ρ, C, calibration)
    spec: BayesianSpec
    kl_spec: BayesianKlEpsilonSpec
    now: PageRelease
    view_settings: dict

    @property
    def guarantees(self) -> dict:
        """Each series the tabs draw → its release's Guarantee at the page's ε and δ (the legends' tags, issue 31
        item 3: "BayesianDP · not DP" beside "BayesianDP strict (DP) · DP")."""
        s, k = self.settings, self.k
        return figures.series_guarantees(
            self.now, epsilon=s.epsilon, delta=s.delta, calibration=k.calibration, W=k.W, K=k.K
        )

    @property
    def caps(self) -> dict:
        """``common`` with n and strict mode's caps L and N_max (dpcore's names)."""
        return dict(self.common, n=self.k.n, max_items=self.mk.L, max_users=self.mk.N_max)


# ------------------------------------------------------------------------------ the release at these settings
def release_view(c: TabContext, stage=None) -> None:
    """The top private n-grams: private, public prior and released probability; the export and the notebook.

    A fragment (a move of its own knobs redraws only it), but in presenter mode, where its chart is drawn on the
    stage at the top of the page (``stage``: dpui.common.presenter.Stage), a plain function: a fragment cannot draw outside
    its own container."""
    if stage is not None and stage.active:
        _release(c, stage)
    else:
        _release_fragment(c)


@st.fragment
def _release_fragment(c: TabContext) -> None:
    _release(c, None)


def _release(c: TabContext, stage) -> None:
    now, release, n = c.now, c.now.release, c.k.n
    top = st.slider("Show the most frequent private n-grams", 5, 50, 20, 5, key="bayes_top", **IN_URL)
    order = np.argsort(-now.p)[:top]
    labels = [" ".join(now.counts.vocabulary[i]) for i in order]
    alpha_t = public_baseline(now.counts.public_counts)
    rows = BayesianSpec.top_rows(now.outcome(), top)  # the spec's numbers: what a replay of the export gives
    axis = st.radio("Probability axis", AXES, horizontal=True, key="bayes_axis", **IN_URL, help=AXIS_HELP)
    hidden = hidden_release(now.p[order], release.theta[order])
    log = axis == "log" or (axis == "auto" and hidden < HIDDEN_BELOW)
    plotted, spec, alt = figures.release_chart(labels, order, now.p, alpha_t, release.theta, n=n, log=log)
    shown = {
        "private (true)": NO_NOISE,
        "public prior": c.guarantees[PUBLIC],
        "BayesianDP release θ": release.guarantee,
    }
    with nullcontext() if stage is None else stage.chart([(release.guarantee, f"BayesianDP {c.mk.mode}")]):
        show_vega(plotted, spec, alt=alt, key="bayes_bars", records=rows, guarantees=shown)  # Vega-Lite: half Plotly's
    if log and axis == "auto":  # say why the axis is logarithmic: the linear one would hide the release
        st.caption(text("bayesian", "log_axis", ratio=hidden))
    release_words(c.k, now.prepared)
    if box := export_box("bayes_release"):
        with box:
            export_settings = {
                **c.view_settings,
                "top": top,
                "mechanism": BAYESIAN,
                "guarantee": release.guarantee,
                "sensitivity_gamma": now.prepared.sensitivity,
                "sigma_ps": release.sigma,
                "rng_salt": list(c.spec.salt()),
            }
            export_view(f"top {top} {n}-grams", rows, settings=export_settings, key="bayes_export_release", spec=c.spec)
            reproduce_buttons(c.spec, title=f"the BayesianDP {c.mk.mode} release", key="bayes_reproduce_release")


def release_words(k: BayesKnobs, prepared) -> None:
    """Under the release's chart, from the data shown (issue 31 item 2): which n-grams keep their private weight —
    none at all when every w < 1 (the caption said "frequent ones keep it" beside "w < 1: 100 %")."""
    shrunk = prepared.share_downweighted
    c_over_s = spoiler("bayes_full_weight_users", f"{k.C / k.S:g}")
    if shrunk >= 1.0:
        st.caption(text("bayesian", "release_caption_all", c_over_s=c_over_s))
    else:
        st.caption(text("bayesian", "release_caption", kept=1.0 - shrunk, c_over_s=c_over_s))


AXES = ("auto", "linear", "log")
"""The release chart's probability axis (URL key ``bayes_axis``): auto is logarithmic when the released bars would be
invisible on a linear one (:data:`HIDDEN_BELOW`)."""
AXIS_HELP = (
    "auto: logarithmic when the released probabilities of the top n-grams are mostly under a tenth of the private "
    "ones (their bars would be invisible on a linear axis), else linear."
)
HIDDEN_BELOW = 0.1
"""auto's threshold on the median of released / private probability over the n-grams drawn."""


def hidden_release(private, released) -> float:
    """The median of released / private probability over the n-grams drawn (1: as tall; 1e-7: invisible)."""
    private, released = np.asarray(private, dtype=float), np.asarray(released, dtype=float)
    return float(np.median(released / private)) if private.size and np.all(private > 0) else 1.0


def verdict(*, kl_now: float, kl_public: float, kl_noise_free: float, sigma: float, S: float, rho: float) -> None:
    """The page's first sentence (issue 31 item 2): whether the public data alone beats the release at these
    settings, by how much, and — from the release without noise (ε → ∞, θ = softmax(μ_ps)) — whether any ε could
    change that at these S, ρ, C. Every number is computed on the data the page shows."""
    if kl_now > kl_public:
        times = kl_now / kl_public if kl_public > 0 else float("inf")
        reach = "out_of_reach" if kl_noise_free > kl_public else "noise_loses"
        st.warning(
            text("bayesian", "baseline_beats", kl_public=kl_public, kl_now=kl_now, times=times)
            + " "
            + text("bayesian", reach, kl_free=kl_noise_free),
            icon="📉",
        )
        with st.expander("Why — and what would change it"):  # the reasons, one click away (≤ 60 words before the chart)
            st.markdown(text("bayesian", f"{reach}_why", kl_free=kl_noise_free, S=fmt(S), rho=rho, sigma=sigma))
    else:
        st.success(text("bayesian", "release_beats", kl_public=kl_public, kl_now=kl_now), icon="📈")


# ------------------------------------------------------------------------------ 000 Fig. 1
def kl_epsilon_view(c: TabContext) -> None:
    """KL against ε for every mechanism (with EndToEndDP when asked), the note and the export."""
    k, delta, priv, pub = c.k, c.settings.delta, c.settings.private, c.settings.public
    with_e2e = st.toggle(
        "Add EndToEndDP (S and ρ tuned privately, total ε) — a few seconds",
        value=False,
        key="bayes_e2e_curve",
        **IN_URL,
    )
    with user_errors():
        kl_spec = c.kl_spec.replace(with_end_to_end=with_e2e)
        curves = data.kl_epsilon_for(kl_spec, priv, pub)  # with EndToEndDP when asked (the export's spec)
        summary = data.kl_epsilon_for(kl_spec.replace(with_end_to_end=False), priv, pub).summary
    shown, kl_k = curves.summary, curves.kl_k
    title = f"KL vs ε ({k.n}-grams, S = {fmt(k.S)}, ρ = {k.rho:g}, C = {k.C}, W = {k.W}, δ = {fmt(delta)}, "
    title += f"{k.reps} repetitions)"
    fig, alt = figures.kl_eps_figure(shown, summary, eps=c.settings.epsilon, K=k.K, kl_k=kl_k, title=title)
    rows = kl_spec.rows(curves)  # k-anonymity at K (K ≥ 2) as a flat line: it has no ε
    show_figure(fig, alt=alt, key="bayes_kl_eps", records=rows, guarantees=figures.kl_eps_guarantees(c.guarantees, k.K))
    b, b_strict, lap, pub_kl = (
        dict(zip(summary[m].x.tolist(), summary[m].mean)) for m in (BAYESIAN, BAYESIAN_STRICT, LAPLACE, PUBLIC)
    )
    note = text(
        "bayesian",
        "kl_eps_note",
        ratio_01=b[0.1] / lap[0.1],
        ratio_1=b[1.0] / lap[1.0],
        L=c.mk.L,
        strict_01=b_strict[0.1] / lap[0.1],
        strict_1=b_strict[1.0] / lap[1.0],
        N_max=c.mk.N_max,
        paper=1 - FIG1_BAYES.values["reduction"],
        public=pub_kl[0.1],
        public_data=c.settings.public_label,
    )
    st.markdown(note)
    if box := export_box("bayes_kl"):
        with box:
            export_settings = {
                **c.view_settings,
                "with_end_to_end": with_e2e,
                "sweep_epsilons": data.SWEEP_EPS,
                "band": f"10–90% over {k.reps} seeded releases per ε",
                "rng_salt": list(kl_spec.salt()),
                "k_anonymity_kl (not DP, at K)": kl_k,
            }
            export_view("KL vs ε summary", rows, settings=export_settings, key="bayes_export_kl", spec=kl_spec)
            reproduce_buttons(kl_spec, title="KL vs ε (000 Fig. 1)", key="bayes_reproduce_kl")


# ------------------------------------------------------------------------------ 000 Figs. 2–4: data sweeps, on a button
DATA_SWEEPS = {
    "users": ("users", "number of private users (log scale)", "KL vs number of users at ε = {eps} (000 Fig. 2)"),
    "vocabulary": (
        "vocabulary",
        "vocabulary size |V| (most frequent public n-grams, log scale)",
        "KL vs vocabulary size at ε = {eps} (000 Fig. 3)",
    ),
    "public": (
        "public_noise",
        "scale b of the Laplace noise added to the public counts (log scale; right = worse public data)",
        "KL vs public-data quality at ε = {eps} (000 Fig. 4)",
    ),
}
"""kind → (the table's x column, the x axis title, the chart title) of the three data sweeps."""


def data_tab(c: TabContext, kind: str) -> None:
    """One data sweep (``kind``: users, vocabulary or public, :data:`DATA_SWEEPS`) at the current ε, on a button."""
    eps, delta = c.settings.epsilon, c.settings.delta
    x, x_title, title = DATA_SWEEPS[kind]
    title = title.format(eps=fmt(eps))

    @st.fragment
    def view():
        st.caption(text("bayesian", f"{kind}_note"))
        hint = "Press **Run** to compute this experiment (a few seconds)."
        if not run_button(f"Run at ε = {fmt(eps)}", f"bayes_run_{kind}", hint=hint):
            return
        with user_errors():
            sweep = c.k.spec(
                BayesianDataSweepSpec, **c.caps, sweep=kind, epsilon=eps, delta=delta
            )  # W, repetitions: k's
            df = data.data_sweep(sweep, c.settings.private, c.settings.public)
        fig, alt = figures.data_sweep_figure(df, x, title=title, x_title=x_title)
        show_figure(fig, alt=alt, key=f"bayes_fig_{kind}", guarantees=c.guarantees)
        reproduce_buttons(sweep, title=title, key=f"bayes_reproduce_{kind}")

    view()


# ------------------------------------------------------------------------------ 000 Fig. 5: k-anonymity
def kanon_view(c: TabContext) -> None:
    """k-anonymity against BayesianDP on one y-scale, and k-anonymity's release at K (not DP: a red badge)."""
    counts, K = c.now.counts, c.k.K
    fig, alt = figures.kanon_figure(c.kl_spec, c.settings.private, c.settings.public)
    g = c.guarantees
    shown = {figures.KANON: g[figures.KANON], **{label: g[mech] for mech, label in figures.KANON_CURVES}}
    show_figure(fig, alt=alt, key="bayes_kanon", guarantees=shown)
    rel_k = k_anonymity_release(counts.user_counts, counts.public_counts, K=K)
    guarantee_badge(rel_k.guarantee, name="k-anonymity")
    note = text(
        "bayesian",
        "kanon_text",
        K=K,
        kept=rel_k.kept_items,
        n=c.k.n,
        suppressed=rel_k.suppressed_items,
        mass=rel_k.suppressed_mass,
        kl=kl_divergence(c.now.p, rel_k.theta),
    )
    st.markdown(note)


# ------------------------------------------------------------------------------ 000 Table 1, Fig. 6, Algorithm 2
@st.fragment
def perplexity_view(c: TabContext) -> None:
    """000 Table 1: perplexity of the released trigram distributions on held-out sentences, on a button."""
    eps, delta = c.settings.epsilon, c.settings.delta
    st.caption(text("bayesian", "perplexity_caption"))
    hint = "Press the button to release the trigram distributions and score them (about a second)."
    if not run_button(f"Compute the table at ε = {fmt(eps)}", "bayes_run_ppl", hint=hint):
        return
    with user_errors():
        ppl = c.k.spec(BayesianPerplexitySpec, **c.common, epsilon=eps, delta=delta)  # W, K: the knobs'
        tab, n_tri, n_sent = data.perplexity_for(ppl, c.settings.private, c.settings.public)
    columns = {"perplexity": st.column_config.NumberColumn(format="%.3f")}
    st.dataframe(tab.rows(), hide_index=True, width="stretch", column_config=columns)
    st.caption(text("bayesian", "perplexity_footer", trigrams=n_tri, sentences=n_sent))


ATTACK_COLUMNS = ("mechanism", "epsilon", "success_rate", "fpr", "fnr", "fpr_upper", "fnr_upper", "epsilon_lower_bound")


@st.fragment
def attack_view(c: TabContext) -> None:
    """000 Fig. 6: membership inference against BayesianDP and Laplace, on a button."""
    st.caption(text("bayesian", "attack_caption"))
    trials = draw_knob(BayesianAttackSpec, "trials")  # declared on the spec's field (dpcore.specs)
    if not run_button("Run the attack", "bayes_run_mia", hint="Press **Run the attack** (a few seconds)."):
        return
    with user_errors():
        spec = c.k.spec(BayesianAttackSpec, **c.common, delta=c.settings.delta, trials=trials)  # n, W: the knobs'
        df = data.attack_for(spec, c.settings.private, c.settings.public)
    fig, alt = figures.attack_figure(df)
    shown = {name: c.guarantees[mech] for mech in (BAYESIAN, LAPLACE) for name in (mech, f"{mech} (ε bound)")}
    show_figure(fig, alt=alt, key="bayes_mia", guarantees={**shown, figures.CLAIMED: REFERENCE_TAG})
    st.dataframe({col: df[col] for col in ATTACK_COLUMNS}, hide_index=True, width="stretch")
    # issue 32: the attack on the bound's axes, at the attack's ε nearest the sidebar's
    at = min(set(df["epsilon"].tolist()), key=lambda e: abs(np.log(e / c.settings.epsilon)))
    st.markdown(text("bayesian", "attack_on_bound", eps=at, delta=c.settings.delta))
    measured_attack_view(membership_points(df, epsilon=at), epsilon=at, delta=c.settings.delta, key="bayes_mia_bound")


@st.fragment
def tuning_view(c: TabContext) -> None:
    """000 Algorithm 2 (EndToEndDP): S and ρ tuned privately, then released at the total ε, on a button. The
    release is recorded in the session budget only here, when its tab is open and it is shown."""
    eps, delta = c.settings.epsilon, c.settings.delta
    st.caption(text("bayesian", "tuning_caption"))
    hint = "Press the button to tune S and ρ privately (about a second)."
    if not run_button(f"Tune and release at total ε = {fmt(eps)}", "bayes_run_e2e", hint=hint):
        return
    with user_errors():
        e2e = c.k.spec(BayesianEndToEndSpec, **c.common, epsilon=eps, delta=delta)  # n: the knob's
        res, inside = e2e.release(data.end_to_end_for(e2e, c.settings.private, c.settings.public))
    guarantee_badge(res.guarantee, name="EndToEndDP")
    record_release(res, identity=e2e, name="EndToEndDP")  # the session budget lists it (next full run)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("chosen S*", fmt(res.S_star))
    c2.metric("chosen ρ*", fmt(res.rho_star))
    c3.metric("score sensitivity |Δq| (Claim 2)", f"{inside.score_sensitivity:.4g}")
    c4.metric("KL(private ‖ release)", f"{kl_divergence(c.now.p, res.theta):.4g}")
    fig, alt, grid = figures.tuning_figure(res, inside)
    show_figure(fig, alt=alt, key="bayes_e2e", guarantees={name: NO_NOISE for name in fig_names(fig)})
    spread = float(grid["score"].max() - grid["score"].min())
    st.markdown(text("bayesian", "tuning_note", scale=inside.tuning_scale, spread=spread))


def fig_names(fig) -> list[str]:
    """The names of a figure's series (the tuning grid's lines: noiseless scores, not releases)."""
    return [t.name for t in fig.data if t.name]
