"""The Bayesian n-gram DP page's own knobs, drawn in the sidebar below the shared settings.

Every knob is declared on its spec field (dpcore.specs.bayesian: ``knob(default, key=..., label=..., ...)``) and drawn
from that declaration (dpui.common.knobs.draw_knob); keys are the URL's parameter names (``bayes_S``, ``bayes_rho`` …);
values persist for the session. A field of the page's specs that declares a widget and is drawn nowhere else
(:data:`DRAWN_ELSEWHERE`) is drawn here, at the end of "This page", and reaches the specs the page builds with
:meth:`BayesKnobs.spec`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import streamlit as st

from dpcore.specs import BayesianKlEpsilonSpec
from dpcore.specs.knobs import knob_of

from dpui.common.exercise_keys import PAGE_SPECS as _ALL_PAGE_SPECS
from dpui.common.knobs import draw_knob, spec_widgets
from dpui.common.knobs import widget_values as _widget_values

PAGE_SPECS = _ALL_PAGE_SPECS["2_Bayesian_ngram_DP"]
"""The page's specs (dpcore.specs.bayesian, .bayesian_experiments): their knobs are the page's."""
DEFAULT_W = knob_of(BayesianKlEpsilonSpec, "W").default
"""W's default (000 §4.3: W = |U|/1000, ≈ 2 for the sample corpus)."""
DEFAULT_K = knob_of(BayesianKlEpsilonSpec, "K").default
SIDEBAR = {"BayesianDP": ("S", "rho", "C"), "This page": ("n", "W", "K", "repetitions", "calibration")}
"""The sidebar's sections and their knobs (by field), in order; any other knob of the page is added to the last."""
DRAWN_ELSEWHERE = ("mode", "max_items", "max_users", "trials")
"""Knobs drawn by other parts of the page: the mode and caps (dpui.bayesian.modes), the attack tab's trials."""
_AS_DICT_ORDER = ("n", "S", "rho", "C", "W", "K", "repetitions", "calibration")  # the export's order, as before


def _owner(name: str) -> type:
    """The first page spec whose field ``name`` declares a widget (the same key on every spec: widget_keys)."""
    return next(cls for cls in PAGE_SPECS if name in {f.name for f in fields(cls)} and knob_of(cls, name).key)


@dataclass(frozen=True)
class BayesKnobs:
    """The sidebar knobs' values by spec field (000's S, ρ, C, n, W, K, the repetitions and the calibration, and
    any knob added since): ``k.S``, ``k.rho`` …"""

    values: dict[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        if name == "reps":
            name = "repetitions"
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None

    def as_dict(self) -> dict:
        """``{field: value}`` (what an export records)."""
        order = [*(f for f in _AS_DICT_ORDER if f in self.values), *(f for f in self.values if f not in _AS_DICT_ORDER)]
        return {f: self.values[f] for f in order}

    def spec(self, cls: type, **given):
        """``cls(**given)`` with every other field of ``cls`` that is a knob here at its value."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in self.values.items() if k in names and k not in given}, **given)


def _sidebar_sections() -> dict[str, tuple[str, ...]]:
    listed = {f for names in SIDEBAR.values() for f in names}
    extra = tuple(f for f in SPEC_WIDGETS if f not in listed and f not in DRAWN_ELSEWHERE and f not in _SHARED)
    sections = dict(SIDEBAR)
    sections["This page"] = sections["This page"] + extra
    return sections


def bayesian_knobs() -> BayesKnobs:
    """Draw the page's sidebar knobs and return their values."""
    values = {}
    with st.sidebar:
        for title, names in _sidebar_sections().items():
            st.markdown(f"### {title}")
            values.update({name: draw_knob(_owner(name), name) for name in names})
    return BayesKnobs(values)


SPEC_WIDGETS = spec_widgets(PAGE_SPECS)
"""The widget (URL) key of each field of the page's specs (dpcore.specs.bayesian), derived from their knobs: the page
builds its specs from these widgets, and a preset written as a spec sets them (:func:`widget_values`)."""
_SHARED = ("corpus", "seed", "epsilon", "delta")


def widget_values(spec, fields) -> dict:
    """``{widget key: value}`` that put the page's widgets at ``spec``'s ``fields`` (validated by the spec)."""
    return _widget_values(spec, fields, SPEC_WIDGETS)


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
