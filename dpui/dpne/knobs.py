"""The DP n-gram extraction page's own knobs (Kim et al., NeurIPS 2021 = paper 003; SPEC §4), drawn above its tabs.

Keys are the URL's parameter names (``dpne_eta``, ``dpne_delta0`` …); values persist for the session. Each knob is
declared on its DpneSpec field (dpcore.specs.dpne) and drawn from that declaration (dpui.common.knobs.draw_knob).
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from dpcore.specs import DpneSpec
from dpcore.specs.dpne import DECAY_OPTIONS, POLICY_HELP  # noqa: F401  (the c values and the policy's help)

from dpui.common.exercise_keys import PAGE_SPECS
from dpui.common.knobs import draw_knob, spec_widgets
from dpui.common.knobs import widget_values as _widget_values
from dpui.common.state import IN_URL

SPEC_WIDGETS = spec_widgets(PAGE_SPECS["3_DP_ngram_extraction"])
"""The widget (URL) key of each field of DpneSpec, derived from its knobs (dpcore.specs.dpne)."""


def widget_values(spec, fields) -> dict:
    """``{widget key: value}`` that put the page's widgets at ``spec``'s ``fields`` (validated by the spec)."""
    return _widget_values(spec, fields, SPEC_WIDGETS)


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
    c1, c2, c3, c4 = st.columns(4)  # the knobs declared on DpneSpec's fields (dpcore.specs.dpne)
    eta = draw_knob(DpneSpec, "eta", c1 if stage is None else stage.knob(c1))
    delta0 = draw_knob(DpneSpec, "contribution_limit", c2)
    T = draw_knob(DpneSpec, "max_length", c3)
    decay = draw_knob(DpneSpec, "noise_decay", c4)
    c5, c6, c7, c8 = st.columns(4)
    pruning = draw_knob(DpneSpec, "pruning", c5)
    selection = draw_knob(DpneSpec, "selection", c6)
    policy = draw_knob(DpneSpec, "policy", c7)
    log_y = c8.toggle("Log scale for counts", value=True, key="dpne_log", **IN_URL)
    return DpneKnobs(eta, int(delta0), T, decay, pruning, selection, policy, log_y)
