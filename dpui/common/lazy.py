"""Lazy expanders (issue 29 item 4): what a collapsed expander holds is neither computed nor sent.

Every element a page sends costs the browser about a millisecond on each slider move, changed or not, and an element
inside a collapsed expander costs as much as one on screen (benchmarks/bench_elements.py). A lazy expander reruns
the page when it is opened or closed and holds its content only while it is open.
"""

from __future__ import annotations

import streamlit as st


def lazy_expander(label: str, *, key: str, expanded: bool = False, bind: str | None = None):
    """A collapsed expander keyed ``key``: its container while it is open, else ``None`` (draw nothing in it).

    ``expanded``: open it on this run (a URL flag such as ``review=1``); the user's last choice is kept under
    ``key`` otherwise, also when the label changes (a new label is a new widget: it starts as the last one was
    left). ``bind="query-params"`` puts the open state in the URL.
    """
    extra = {"bind": bind} if bind else {}
    box = st.expander(
        label, expanded=expanded or bool(st.session_state.get(key, False)), key=key, on_change="rerun", **extra
    )
    return box if box.open else None
