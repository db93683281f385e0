"""Turn a user's mistake into a message on screen, never a traceback."""

from __future__ import annotations

from contextlib import contextmanager

import streamlit as st


@contextmanager
def user_errors(*, stop: bool = True):
    """Show a ``ValueError`` (bad parameter, bad upload) with ``st.error`` and stop this run.

    Only ``ValueError`` (and its subclasses such as ``CorpusError``) is caught: those are the
    messages dpcore writes for people. Anything else is a bug and must stay visible.
    """
    try:
        yield
    except ValueError as exc:
        st.error(str(exc), icon="⚠️")
        if stop:
            st.stop()
