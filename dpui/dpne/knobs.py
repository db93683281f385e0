"""The DP n-gram extraction page's own knobs (Kim et al., NeurIPS 2021 = paper 003; SPEC §4), drawn above its tabs.

Keys are the URL's parameter names (``dpne_eta``, ``dpne_delta0`` …); values persist for the session.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dpui.common.state import IN_URL
from dpui.dpne.data import ETA_OPTIONS, MAX_T

DECAY_OPTIONS = (0.8, 0.9, 1.0, 1.1, 1.2)
K_OPTIONS = (2, 5, 10, 20, 50, 100, 200, 500)
SWEEP_KNOBS = {  # dpcore parameter (the URL's value) → (label, values)
    "contribution_limit": ("Δ0", [5, 10, 20, 50, 100, 200]),
    "epsilon": ("ε", [1.0, 2.0, 3.0, 4.0]),
    "eta": ("η", [0.005, 0.01, 0.02, 0.05, 0.1, 0.2]),
    "noise_decay": ("c", [0.8, 0.9, 1.0, 1.1, 1.2]),
    "pruning": ("pruning rule", ["single", "both"]),
}
SWEEP_KNOB_NAMES = {  # what the knob menu shows (issue 31 item 10: people's names, not dpcore's)
    "contribution_limit": "Δ0 — items per user per length",
    "epsilon": "ε — privacy budget",
    "eta": "η — tolerated spurious fraction",
    "noise_decay": "c — noise decay over lengths",
    "pruning": "pruning rule — which k-grams are valid",
}
POLICY_HELP = (
    "Weighted Gaussian (as in the paper): 1/√|U_i| per kept item. Policy Gaussian (Gopi et al. 2020): users in "
    "random order push their items towards Γ = ρ + 2σ with an ℓ2 step ≤ 1. Same σ, same ρ, same guarantee; the "
    "Policy Gaussian is slower (a loop over users)."
)


@dataclass(frozen=True)
class DpneKnobs:
    """003's parameters (η, Δ0, T, c, the pruning rule, the selection, the DPSU policy) and the log-scale toggle."""

    eta: float
    delta0: int
    T: int
    decay: float
    pruning: str
    selection: str
    policy: str
    log_y: bool


def dpne_knobs(stage=None) -> DpneKnobs:
    """Draw the page's two rows of knobs and return their values; in presenter mode (an active ``stage``,
    dpui.common.presenter.Stage) η is drawn beside the main chart instead."""
    c1, c2, c3, c4 = st.columns(4)
    eta = (c1 if stage is None else stage.knob(c1)).select_slider(
        "η (tolerated spurious fraction)",
        ETA_OPTIONS,
        value=0.01,
        key="dpne_eta",
        **IN_URL,
        help="Sets the thresholds ρₖ (k ≥ 2); it does not change the privacy guarantee.",
    )
    delta0 = c2.number_input(
        "Δ0 (items per user per length)",
        min_value=1,
        max_value=500,
        value=50,
        step=5,
        key="dpne_delta0",
        **IN_URL,
        help="Contribution limit Δ_1 = … = Δ_T = Δ0.",
    )
    T = c3.slider("T (longest n-gram)", 1, MAX_T, 6, key="dpne_T", **IN_URL)
    decay = c4.select_slider(
        "c (noise decay: σₖ = c·σₖ₋₁)",
        DECAY_OPTIONS,
        value=1.0,
        key="dpne_c",
        **IN_URL,
        help="c < 1 spends more budget on long n-grams, c > 1 on short ones.",
    )
    c5, c6, c7, c8 = st.columns(4)
    pruning = c5.radio(
        "Pruning rule (valid k-grams)",
        ("both", "single"),
        horizontal=True,
        key="dpne_pruning",
        captions=("both sides", "single side"),
        **IN_URL,
    )
    selection = c6.radio(
        "Which Δ0 items a user keeps", ("random", "most-frequent"), horizontal=True, key="dpne_selection", **IN_URL
    )
    policy = c7.radio(
        "DPSU update policy",
        ("weighted", "policy"),
        horizontal=True,
        key="dpne_policy",
        captions=("weighted Gaussian", "Policy Gaussian"),
        **IN_URL,
        help=POLICY_HELP,
    )
    log_y = c8.toggle("Log scale for counts", value=True, key="dpne_log", **IN_URL)
    return DpneKnobs(eta, int(delta0), T, decay, pruning, selection, policy, log_y)
