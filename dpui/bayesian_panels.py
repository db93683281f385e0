"""The Bayesian n-gram DP page's "What happened at these settings" panel (paper 000 Algorithm 1).

It only shows numbers the page computed with dpcore: the sensitivity, σ_ps, the share of shrunk
n-grams and the KL of this release, then the same in words and the mechanism's formulas.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from dpcore.metrics import KL_SMOOTHING

from .bayesian_knobs import BayesKnobs
from .sidebar import format_number as fmt
from .texts import latex, text


def release_panel(k: BayesKnobs, *, counts, prepared, release, gamma_worst: float, eps: float, delta: float,
                  sigma_classic: float, sigma_analytic: float, kl_now: float, kl_public: float) -> None:
    """Warning when the classic calibration is used outside its proof, metrics, the words, the formulas."""
    if k.calibration == "classic" and eps >= 1:
        st.warning(text("bayesian", "classic_warning", eps=fmt(eps), sigma_analytic=sigma_analytic,
                        sigma_classic=sigma_classic), icon="⚠️")
    st.subheader("What happened at these settings")
    m = st.columns(5)
    m[0].metric("γ (brute force)", f"{prepared.sensitivity:.4g}",
                help=f"Sensitivity: the largest change of w ⊙ x̂ when one of the {counts.n_users:,} users is removed, "
                     f"computed exactly. Claim 1 worst case: {gamma_worst:.4g}.")
    m[1].metric(f"σ_ps ({k.calibration})", f"{release.sigma:.4g}",
                help=f"classic: {sigma_classic:.4g}; analytic: {sigma_analytic:.4g}")
    m[2].metric("n-grams with w < 1", f"{prepared.share_downweighted:.1%}",
                help="Share of the vocabulary whose private evidence is shrunk (mass taken from the public prior).")
    m[3].metric("KL, this release", f"{kl_now:.4g}", help="KL(private ‖ θ). Lower is better.")
    m[4].metric("KL, public only", f"{kl_public:.4g}",
                help="KL(private ‖ public baseline): what the public data alone achieves.")
    st.markdown(text("bayesian", "in_words", e_eps=np.exp(eps), delta=fmt(delta), n_users=counts.n_users,
                     vocabulary=counts.vocabulary_size, n=k.n, C=k.C, downweighted=prepared.share_downweighted,
                     c_over_s=k.C / k.S, gamma=prepared.sensitivity, gamma_worst=gamma_worst, sigma=release.sigma,
                     sigma_classic=sigma_classic, sigma_analytic=sigma_analytic))
    st.info(text("bayesian", "sensitivity_info"), icon="ℹ️")
    with st.expander("The mechanism (000 Algorithm 1, Corollary 1; SPEC §3)", expanded=False):
        latex("bayesian", "mechanism_latex")
        st.markdown(text("bayesian", "mechanism_note", smoothing=KL_SMOOTHING))
