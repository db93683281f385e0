"""The Bayesian n-gram DP page's own knobs, drawn in the sidebar below the shared settings.

Keys are the URL's parameter names (``bayes_S``, ``bayes_rho`` …); values persist for the session.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dpui.bayesian.data import K_OPTIONS
from dpui.common.calibration import calibration_radio
from dpui.common.sidebar import format_number
from dpui.common.state import IN_URL

S_OPTIONS = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 1e3, 1e4)
DEFAULT_W = 2
"""W's default (000 §4.3: W = |U|/1000, ≈ 2 for the sample corpus)."""
DEFAULT_K = 10


@dataclass(frozen=True)
class BayesKnobs:
    """000's parameters: decay S, evidence weight ρ, clamp C, order n, Laplace cap W, k-anonymity K."""

    S: float
    rho: float
    C: int
    n: int
    W: int
    K: int
    reps: int
    calibration: str

    def as_dict(self) -> dict:
        return {
            "n": self.n,
            "S": self.S,
            "rho": self.rho,
            "C": self.C,
            "W": self.W,
            "K": self.K,
            "repetitions": self.reps,
            "calibration": self.calibration,
        }


def bayesian_knobs() -> BayesKnobs:
    """Draw the page's sidebar knobs and return their values."""
    with st.sidebar:
        st.markdown("### BayesianDP")
        S = st.select_slider(
            "S (decay weighting, w = min(1, S·N/C))",
            S_OPTIONS,
            value=1e-3,
            format_func=format_number,
            key="bayes_S",
            **IN_URL,
            help="Small S shrinks rare words (few users N) towards the public prior "
            "and lowers the sensitivity. Log-spaced 1e-3 … 1e4.",
        )
        rho = st.slider(
            "ρ (weight of the private evidence)",
            0.05,
            1.0,
            0.3,
            0.05,
            key="bayes_rho",
            **IN_URL,
            help="μ_ps = ρ·(w ⊙ x̂) + (1−ρ)·μ_p; the noise scales with ρ too.",
        )
        C = st.slider(
            "C (max count per user per n-gram)",
            1,
            20,
            1,
            key="bayes_C",
            **IN_URL,
            help="Each user's count of an n-gram is clamped at C (000 uses C = 1 below 1M users).",
        )
        st.markdown("### This page")
        n = st.radio(
            "n-gram order n",
            (1, 2, 3),
            index=0,
            horizontal=True,
            key="bayes_n",
            **IN_URL,
            help="Vocabulary = the public corpus' n-grams; n-grams never cross a sentence boundary.",
        )
        W = st.slider(
            "W (Laplace baselines: max counts per user)",
            1,
            50,
            DEFAULT_W,
            key="bayes_W",
            **IN_URL,
            help="000 §4.3 uses W = |U|/1000 (≈ 1 for the real chat's 920 people, 3 for the classroom sample).",
        )
        K = st.select_slider(
            "K (k-anonymity: min. users per item)", K_OPTIONS, value=DEFAULT_K, key="bayes_K", **IN_URL
        )
        reps = st.slider(
            "Repetitions (noisy curves)",
            2,
            30,
            10,
            key="bayes_reps",
            **IN_URL,
            help="Curves show the mean and a 10–90% band over this many seeded releases.",
        )
        calibration = calibration_radio(key="bayes_calibration")  # auto (default) / classic / analytic
    return BayesKnobs(S, rho, C, n, W, K, reps, calibration)


SPEC_WIDGETS = {
    "corpus": "corpus",
    "seed": "seed",
    "epsilon": "eps",
    "delta": "delta",
    "n": "bayes_n",
    "S": "bayes_S",
    "rho": "bayes_rho",
    "C": "bayes_C",
    "calibration": "bayes_calibration",
    "mode": "bayes_mode",
    "max_items": "bayes_L",
    "max_users": "bayes_Nmax",
    "W": "bayes_W",
    "K": "bayes_K",
    "repetitions": "bayes_reps",
    "trials": "bayes_trials",
}
"""The widget (URL) key of each field of the page's specs (dpcore.specs.bayesian): the page builds its specs from
these widgets, and a preset written as a spec sets them (:func:`widget_values`)."""


def widget_values(spec, fields) -> dict:
    """``{widget key: value}`` that put the page's widgets at ``spec``'s ``fields`` (validated by the spec)."""
    return {SPEC_WIDGETS[f]: getattr(spec, f) for f in fields}


def guarantee_settings(data: str = "chat") -> dict:
    """The page's caps that its guarantees name, as keywords of :func:`dpcore.lab.review.mechanism_guarantees` (W, K, L as
    ``max_items``, N_max as ``max_users``): this session's values where the page has set them, else the page's
    own defaults (N_max's follows the data choice). The home page shows these, so it says what the page uses."""
    from dpui.bayesian.modes import DEFAULT_L, default_n_max

    state = st.session_state
    return {
        "W": int(state.get("bayes_W", DEFAULT_W)),
        "K": int(state.get("bayes_K", DEFAULT_K)),
        "max_items": int(state.get("bayes_L", DEFAULT_L)),
        "max_users": int(state.get("bayes_Nmax", default_n_max(data))),
    }
