""" "Reproduce in Python" (issue 22 item 3): a page's spec as a runnable notebook and script, two download buttons.

The files are written by :mod:`dpcore.specs.notebook` (dpcore only: corpus by id, the spec from its record, the run,
the key numbers, a plotly figure); this module only offers them.
"""

from __future__ import annotations

import streamlit as st

from dpcore.specs import Spec, notebook, script
from dpui.common.noise import PRIVATE, check_no_secret, noise_mode

__all__ = ["reproduce_buttons", "run_spec"]


def reproduce_buttons(spec: Spec, *, title: str = "", key: str | None = None) -> None:
    """Two download buttons under a result: the ``.ipynb`` and the ``.py`` that rebuild it with dpcore only.

    ``title`` names what is reproduced ("the DPNE release"); ``key`` (default: the spec's kind) prefixes the
    widget keys and names the files (``<key>.ipynb``, ``<key>.py``).
    """
    key = key or f"reproduce_{spec.KIND}"
    secret = noise_mode() == PRIVATE  # issue 30: the seed is secret, the files reproduce the noise-free numbers only
    st.caption(
        "**Reproduce in Python** — "
        + (
            "private noise mode: the files carry no seed, so they draw fresh noise and print only the noise-free "
            "numbers; the noisy ones cannot be reproduced."
            if secret
            else "the same numbers from `dpcore` alone (the notebook and the script load "
            "the corpus, rebuild these settings, run them, print the key numbers and draw the figure)."
        )
    )
    c1, c2 = st.columns(2)
    c1.download_button(
        "⬇ Notebook (.ipynb)",
        check_no_secret(notebook(spec, title=title, secret_noise=secret)),
        file_name=f"{key}.ipynb",
        mime="application/x-ipynb+json",
        key=f"{key}_ipynb",
        on_click="ignore",
    )
    c2.download_button(
        "⬇ Script (.py)",
        check_no_secret(script(spec, title=title, secret_noise=secret)),
        file_name=f"{key}.py",
        mime="text/x-python",
        key=f"{key}_py",
        on_click="ignore",
    )


@st.cache_data(show_spinner=False, max_entries=64)
def _run(spec_key: str, corpus_hash: str | None, _spec: Spec, _corpus):
    return _spec.run(_corpus)


def run_spec(spec: Spec, corpus=None):
    """``spec.run(corpus)``, cached by the spec's key (seed included: every draw is derived from it) and the
    corpus hash. For a page whose whole computation is one quick call; pages with costly parts cache each part."""
    return _run(spec.key(), getattr(corpus, "content_hash", None), spec, corpus)
