"""Where a widget's value lives: in the URL and the session, and buttons that stay pressed.

Every page knob takes ``**IN_URL`` (Streamlit 1.67: ``bind="query-params"``, ``persist_state="session"``):
the address bar carries the value under the widget's key, so a copied link reproduces the view, and
the value survives page switches.
"""

from __future__ import annotations

import zlib

import numpy as np
import streamlit as st

IN_URL = {"bind": "query-params", "persist_state": "session"}


def rng_for(seed: int, *salt) -> np.random.Generator:
    """A generator seeded by ``seed`` and a salt (e.g. ``("bayes", repetition)``).

    The same seed and salt always give the same draws, so a shared link reproduces the view, and
    different parts of a page draw independent noise. Cached loaders take the seed as an argument
    (it is in their cache key) and call this; pages call ``settings.rng(*salt)``.
    """
    words = [seed] + [zlib.crc32(repr(s).encode()) for s in salt]
    return np.random.default_rng(np.random.SeedSequence(words))


def run_button(label: str, key: str, *, hint: str) -> bool:
    """A button that stays "pressed" for the session: True from its first click on; before that, ``hint``
    (what pressing it computes, and how long it takes) is shown below it."""
    if st.button(label, key=key):
        st.session_state[key + "_done"] = True
    if st.session_state.get(key + "_done"):
        return True
    st.info(hint)
    return False
