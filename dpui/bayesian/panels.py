"""The Bayesian n-gram DP page's "What happened at these settings" panel (paper 000 Algorithm 1).

It only shows numbers the page computed with dpcore: the sensitivity, σ_ps, the share of shrunk
n-grams and the KL of this release, then the same in words and the mechanism's formulas.
"""

from __future__ import annotations

import streamlit as st

from dpcore.metrics import KL_SMOOTHING
from dpui.bayesian.knobs import BayesKnobs
from dpui.common.calibration import calibration_note
from dpui.common.exercises import spoiler
from dpui.common.text_profile_panel import text_profile_panel
from dpui.common.texts import latex, text
from dpui.common.lazy import lazy_expander


def release_panel(
    k: BayesKnobs,
    *,
    about: str = "",
    counts,
    prepared,
    release,
    gamma_worst: float,
    eps: float,
    delta: float,
    sigma_classic: float,
    sigma_analytic: float,
    kl_now: float,
    kl_public: float,
) -> None:
    """Warning when the classic calibration is used outside its proof, metrics, then (folded, below the page's
    charts) what the page is about, the release in words and the formulas."""
    # which calibration is used, both σ_ps and the classic σ's true δ; a warning when classic runs at ε ≥ 1
    calibration_note(
        choice=k.calibration,
        epsilon=eps,
        delta=delta,
        sigma_classic=sigma_classic,
        sigma_analytic=sigma_analytic,
        unit="σ_ps",
    )
    st.header("What happened at these settings")
    m = st.columns(5)
    strict = prepared.sensitivity_method == "strict"
    m[0].metric(
        "γ (strict bound)" if strict else "γ (brute force, local)",
        f"{prepared.sensitivity:.4g}",
        help=(
            f"γ_strict = √L·[ln(1+C) + min(1, S/C)·ln(C·N_max+1)] with L = {prepared.max_items}, "
            f"N_max = {prepared.max_users}: a bound for every pair of neighbouring corpora."
            if strict
            else f"Local sensitivity: the largest change of w ⊙ x̂ when one of the {counts.n_users:,} users is "
            f"removed, computed exactly on this corpus. Claim 1 worst case (also local): {gamma_worst:.4g}."
        ),
    )
    m[1].metric(
        f"σ_ps ({release.calibration})",
        f"{release.sigma:.4g}",
        help=f"classic: {sigma_classic:.4g}; analytic: {sigma_analytic:.4g}",
    )
    m[2].metric(
        "n-grams with w < 1",
        f"{prepared.share_downweighted:.1%}",
        help="Share of the vocabulary whose private evidence is shrunk (mass taken from the public prior).",
    )
    m[3].metric("KL, this release", f"{kl_now:.4g}", help="KL(private ‖ θ). Lower is better.")
    m[4].metric(
        "KL, public only",
        f"{kl_public:.4g}",
        help="KL(private ‖ public baseline): what the public data alone achieves.",
    )
    gamma_kind = (
        "the strict bound, the same for every corpus of at most N_max users"
        if strict
        else f"measured on this corpus by brute force, as in the paper; Claim 1's bound: {gamma_worst:.4g}"
    )
    cap = f" and capped at L = {prepared.max_items} distinct n-grams per user" if strict else ""
    with st.expander("What happened, in words: the guarantee, γ, σ and what the sensitivity covers"):
        if about:
            st.caption(about)
        st.markdown(
            text(
                "bayesian",
                "in_words",
                promise=release.guarantee.promise,
                n_users=counts.n_users,
                vocabulary=counts.vocabulary_size,
                n=k.n,
                C=k.C,
                cap=cap,
                downweighted=prepared.share_downweighted,
                c_over_s=spoiler("bayes_full_weight_users", f"{k.C / k.S:g}"),
                gamma=prepared.sensitivity,
                gamma_kind=gamma_kind,
                sigma=release.sigma,
                sigma_classic=sigma_classic,
                sigma_analytic=sigma_analytic,
            )
        )
        st.info(text("bayesian", "sensitivity_info"), icon="ℹ️")
    box = lazy_expander("The mechanism (000 Algorithm 1, Corollary 1; SPEC §3)", key="bayes_mechanism")
    if box:  # lazy (issue 29 item 4): ten formulas, drawn only while open
        with box:
            latex("bayesian", "mechanism_latex")
            st.markdown(text("bayesian", "mechanism_note", smoothing=KL_SMOOTHING))


def text_panel(settings, k: BayesKnobs, L: int) -> None:
    """ "What this text looks like" (dpui.common.text_profile_panel) with what the activity means for the W and L caps."""

    def note(name, profile) -> str:
        act = profile.activity()
        return text(
            "text_profile",
            "bayes_note",
            corpus=name,
            top10=act["top10_share"],
            q50=act["q50"],
            mean=act["mean"],
            W=k.W,
            kept_w=profile.kept_tokens(k.W),
            L=L,
            n=k.n,
            kept_l=profile.kept_share(k.n, L),
        )

    text_profile_panel("bayes", settings, note=note, on_demand=True)
