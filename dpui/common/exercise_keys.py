"""Which widget shows which exercise setting (issue 22 item 4: UI knowledge lives in dpui, not in dpcore).

An exercise (:mod:`dpcore.lab.exercises`) names its settings by the dpcore parameter they are
(``epsilon``, ``max_length``, ``noise_decay``, …); a page draws each of them with a widget whose key is
its own (``eps``, ``dpne_T``, ``dpne_c``, …). This table is the one place that joins the two: opening an
exercise writes ``widget_settings(ex)`` into ``st.session_state``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["SHARED_WIDGET_KEYS", "WIDGET_KEYS", "widget_key", "widget_settings"]

SHARED_WIDGET_KEYS: Mapping[str, str] = {"epsilon": "eps", "delta": "delta", "seed": "seed", "corpus": "corpus"}
"""The sidebar's settings, the same widget on every page."""

WIDGET_KEYS: Mapping[str, Mapping[str, str]] = {  # page file (without .py) → {dpcore parameter: widget key}
    "1_Mechanisms_101": {
        "scale": "m101_b",
        "debt_rule": "m101_debt_rule",
        "scale_mode": "m101_scale_mode",
        "sensitivity_factor": "m101_sens_factor",
    },
    "2_Bayesian_ngram_DP": {
        "S": "bayes_S",
        "C": "bayes_C",
        "rho": "bayes_rho",
        "calibration": "bayes_calibration",
        "max_items": "bayes_L",
        "max_users": "bayes_Nmax",
        "n": "bayes_n",
        "mode": "bayes_mode",
    },
    "3_DP_ngram_extraction": {
        "max_length": "dpne_T",
        "noise_decay": "dpne_c",
        "contribution_limit": "dpne_delta0",
        "eta": "dpne_eta",
    },
    "4_TopicDP": {
        "gamma": "topicdp_gamma",
        "m": "topicdp_m",
        "n": "topicdp_n",
        "clip_norm": "topicdp_vips_B",
        "iterations": "topicdp_vips_J",
        "n_topics": "topicdp_k",
        "sample_users": "topicdp_N",
        "sampler_seed": "topicdp_sampler_seed",
    },
    "5_Privacy_audit": {
        "mechanism": "audit_mechanism",
        "broken": "audit_broken",
        "trials": "audit_trials",
        "confidence": "audit_confidence",
    },
}


def widget_key(page: str, name: str) -> str:
    """The widget key of setting ``name`` (a dpcore parameter name) on ``page``."""
    if name in SHARED_WIDGET_KEYS:
        return SHARED_WIDGET_KEYS[name]
    keys = WIDGET_KEYS.get(page, {})
    if name not in keys:
        raise ValueError(f"setting must be one of the widgets of {page} ({', '.join(sorted(keys))}), got {name!r}")
    return keys[name]


def widget_settings(ex) -> dict[str, Any]:
    """An exercise's settings keyed by its page's widget keys (what the page's widgets are set to)."""
    return {widget_key(ex.page, name): value for name, value in ex.settings.items()}
