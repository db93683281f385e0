"""Where a widget's value lives: in the URL and the session, and buttons that stay pressed.

Every page knob takes ``**IN_URL`` (Streamlit 1.67: ``bind="query-params"``, ``persist_state="session"``):
the address bar carries the value under the widget's key, so a copied link reproduces the view, and
the value survives page switches.
"""

from __future__ import annotations

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.state.session_state_proxy import get_session_state

from dpcore.specs import derive_rng

IN_URL = {"bind": "query-params", "persist_state": "session"}
EXPLICIT_KEY = "_explicitly_set"  # session state: the shared settings set on purpose (link, widget, exercise, preset)


def explicitly_set() -> set:
    """The keys of the shared settings this session set on purpose: by a link, by moving the widget, by an exercise
    or a "Paper vs here" preset. Only these travel between pages; the others follow each page's own default."""
    return st.session_state.setdefault(EXPLICIT_KEY, set())


SET_BEFORE_SIDEBAR_KEY = "_set_before_sidebar"
"""Session state: values an exercise or a preset wrote into widget keys before this run's sidebar (key → value)."""


def set_before_sidebar(values: dict) -> None:
    """Record values written into widget keys before the sidebar is drawn (an exercise's link, a preset), so the
    sidebar's arrival takes them as this run's intended values rather than giving back the session's last ones."""
    st.session_state.setdefault(SET_BEFORE_SIDEBAR_KEY, {}).update(values)


def take_set_before_sidebar() -> dict:
    """The values :func:`set_before_sidebar` recorded since the last sidebar, forgotten once read."""
    return st.session_state.pop(SET_BEFORE_SIDEBAR_KEY, {})


def rng_for(seed: int, *salt) -> np.random.Generator:
    """A generator seeded by ``seed`` and a salt (e.g. ``("bayes", repetition)``).

    The same seed and salt always give the same draws, so a shared link reproduces the view, and
    different parts of a page draw independent noise: :func:`dpcore.specs.derive_rng` (the one derivation,
    also ``Spec.rng``). Cached loaders take the seed as an argument
    (it is in their cache key) and call this; pages call ``settings.rng(*salt)``.
    """
    return derive_rng(seed, *salt)


def run_button(label: str, key: str, *, hint: str) -> bool:
    """A button that stays "pressed" for the session: True from its first click on; before that, ``hint``
    (what pressing it computes, and how long it takes) is shown below it."""
    if st.button(label, key=key):
        st.session_state[key + "_done"] = True
    if st.session_state.get(key + "_done"):
        return True
    st.info(hint)
    return False


def forget_link_value(key: str) -> None:
    """Let a ``bind="query-params"`` widget take the session-state value rather than the link's.

    On a page's first load Streamlit 1.67 seeds a bound widget from the URL the session opened with,
    over a value set in ``st.session_state``; a stale ``?m101_b=7.5`` in an exercise link would win.
    The address bar's parameter is dropped with the public API (allowed while the widget is not bound
    yet); the remembered opening URL only through Streamlit's query-params object (private, 1.67), and
    if that ever changes the caller still works, with the link's value for that key.
    """
    if key in st.query_params:
        try:
            del st.query_params[key]
        except StreamlitAPIException:  # already bound: the session-state write that follows syncs the URL
            pass
    try:
        with get_session_state().query_params() as qp:
            qp._initial_query_params.pop(key, None)
    except Exception:  # noqa: BLE001 - private API moved: keep the public behaviour
        pass
