"""Which widget shows which exercise setting (issue 22 item 4: UI knowledge lives in dpui, not in dpcore).

An exercise (:mod:`dpcore.lab.exercises`) names its settings by the dpcore parameter they are
(``epsilon``, ``max_length``, ``noise_decay``, …); a page draws each of them with a widget whose key is
its own (``eps``, ``dpne_T``, ``dpne_c``, …). This table is the one place that joins the two: opening an
exercise writes ``widget_settings(ex)`` into ``st.session_state``.

The pages whose knobs are declared on their specs' fields (dpcore.specs.knobs: Bayesian, DPNE, TopicDP; the specs in
:data:`PAGE_SPECS`) take their table from those declarations; Mechanisms 101 and the audit name settings that are
not spec fields (``debt_rule``, ``scale_mode``, the audit's mechanism label), so theirs is written here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dpcore.specs import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianKlEpsilonSpec,
    BayesianPerplexitySpec,
    BayesianSpec,
    DpneSpec,
    TopicDpCurveSpec,
    TopicDpSpec,
)
from dpcore.specs.knobs import widget_keys

__all__ = ["PAGE_SPECS", "SHARED_WIDGET_KEYS", "WIDGET_KEYS", "widget_key", "widget_settings"]

PAGE_SPECS: Mapping[str, tuple[type, ...]] = {
    "2_Bayesian_ngram_DP": (
        BayesianSpec,
        BayesianKlEpsilonSpec,
        BayesianDataSweepSpec,
        BayesianPerplexitySpec,
        BayesianAttackSpec,
        BayesianEndToEndSpec,
    ),
    "3_DP_ngram_extraction": (DpneSpec,),
    "4_TopicDP": (TopicDpSpec, TopicDpCurveSpec),
}
"""Page file (without .py) → its specs: their fields' knobs (dpcore.specs.knobs) are the page's widgets."""

SHARED_WIDGET_KEYS: Mapping[str, str] = {"epsilon": "eps", "delta": "delta", "seed": "seed", "corpus": "corpus"}
"""The sidebar's settings, the same widget on every page."""

WIDGET_KEYS: Mapping[str, Mapping[str, str]] = {  # page file (without .py) → {dpcore parameter: widget key}
    "1_Mechanisms_101": {
        "scale": "m101_b",
        "debt_rule": "m101_debt_rule",
        "scale_mode": "m101_scale_mode",
        "sensitivity_factor": "m101_sens_factor",
    },
    **{page: widget_keys(specs) for page, specs in PAGE_SPECS.items()},  # declared on the specs' fields
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
