"""The noise mode (issue 30 item 1): whether a view's noise can be recomputed by whoever sees its link.

DP assumes the noise is secret. With a public seed (in the URL and in every export) anyone recomputes the draw and
subtracts it: on the real chat that gave back the exact private sums. So there are two modes, a sidebar setting
carried in the URL as ``noise=reproducible|private`` and shared by every page:

* **reproducible** — the noise is derived from the public seed (shown in the sidebar, in the URL and the exports):
  the view can be shared and replayed exactly. A demonstration: every guarantee badge says that it protects no one
  (:data:`DEMONSTRATION`).
* **private** — the noise is derived from a 128-bit secret drawn once per session from the operating system's
  entropy (``secrets``), kept in this session's state, never shown, never in the URL or an export. It is used where
  the public seed was (``SharedSettings.seed``/``rng``), so moving a slider back to a setting shows the same release
  (the session budget stays honest). Exports say the noise is secret and carry no seed; their replay reproduces the
  noise-free numbers only (``dpcore.specs.secret_record``).

An upload (someone's real private data) opens in private mode; choosing reproducible on it is allowed, on purpose.

Caches: every noisy computation is cached with its seed in the key (house rule), so in private mode its entries are
keyed by the session's secret — another session cannot hit them (it would need the same 128-bit secret), and every
such cache has ``max_entries``, so private sessions evict entries rather than grow memory.
"""

from __future__ import annotations

import json
import secrets

import streamlit as st

from dpcore.specs import secret_record
from dpui.common.state import IN_URL, explicitly_set

__all__ = [
    "NOISE_KEY",
    "NOISE_MODES",
    "REPRODUCIBLE",
    "PRIVATE",
    "DEMONSTRATION",
    "noise_radio",
    "secret_seed_caption",
    "session_secret",
    "noise_mode",
    "demonstration_chip",
    "export_settings",
    "export_record",
    "check_no_secret",
]

NOISE_KEY = "noise"  # the widget key and the URL parameter
REPRODUCIBLE, PRIVATE = "reproducible", "private"
NOISE_MODES = (REPRODUCIBLE, PRIVATE)
DEFAULT_NOISE = REPRODUCIBLE
_SECRET = "_noise_secret"  # session state: the private mode's 128-bit seed
_MODE = "_noise_mode"  # session state: the mode of this run (badges and exports read it)
_LAST_DATA = "_noise_last_data"  # session state: the data choice of the last run that drew the radio

DEMONSTRATION = "demonstration: the noise is derived from the public seed, so this view protects no one"
"""What every guarantee badge adds in reproducible mode."""
SECRET_NOTE = (
    "secret: the noise was drawn from a per-session secret (the operating system's entropy), never shown and not "
    "in this file; replaying this export reproduces its noise-free numbers only — the noisy ones cannot be reproduced"
)
PUBLIC_NOTE = "public: the noise is derived from the seed below, so anyone with this file can recompute and subtract it"


def session_secret() -> int:
    """This session's 128-bit noise seed (drawn once from ``secrets``; never shown, never exported)."""
    secret = st.session_state.get(_SECRET)
    if secret is None:
        secret = st.session_state[_SECRET] = secrets.randbits(128)
    return secret


def noise_mode() -> str:
    """The noise mode of this run (the sidebar sets it; reproducible before it has run)."""
    return st.session_state.get(_MODE, DEFAULT_NOISE)


def noise_radio(data: str | None) -> str:
    """The sidebar's noise-mode radio (key and URL parameter ``noise``). ``data``: the data choice of this run; when
    it becomes ``upload`` the mode switches to private (unless the link that opened the session asks for a mode)."""
    last = st.session_state.get(_LAST_DATA)
    link_asks = _LAST_DATA not in st.session_state and NOISE_KEY in st.query_params  # a deep link, on purpose
    if data == "upload" and last != "upload" and not link_asks:
        st.session_state[NOISE_KEY] = PRIVATE  # an upload is someone's real private data: private by default
        explicitly_set().add(NOISE_KEY)  # travels to the other pages like a choice
    if data is not None:
        st.session_state[_LAST_DATA] = data
    mode = st.radio(
        "Noise",
        NOISE_MODES,
        index=0,
        key=NOISE_KEY,
        **IN_URL,
        captions=[
            "seed shown and in the link: the view can be shared and replayed; it protects no one",
            "secret seed for this session: the view protects the data; exports replay its noise-free parts only",
        ],
        help="DP assumes the noise is secret. reproducible: every draw is derived from the public seed, so anyone "
        "with the link recomputes the noise and subtracts it — a demonstration. private: the noise comes from a "
        "secret drawn for this session from the operating system's entropy, never shown, never in the link or "
        "the exports. An upload opens in private mode. Shown in the URL as noise=reproducible or private.",
    )
    st.session_state[_MODE] = mode
    return mode


def secret_seed_caption() -> None:
    """What the sidebar shows instead of the seed in private mode."""
    st.caption(
        "Seed: **secret** — drawn for this session from the operating system's entropy, never shown and never "
        "in the link or an export. The same settings show the same release within this session; another "
        "session (or this link opened elsewhere) draws other noise."
    )


def demonstration_chip() -> None:
    """In reproducible mode, the chip every guarantee badge adds (dpui.common.charts.guarantee_badge): the view protects
    no one. A chip of its own, so the guarantee's chip keeps its length and its words."""
    if noise_mode() == REPRODUCIBLE:
        st.badge(
            DEMONSTRATION,
            icon="🎭",
            color="gray",
            help="Reproducible noise mode: the seed is in the link and the exports, so anyone can recompute the "
            "noise and subtract it. Choose **private** under Noise in the sidebar for a view that protects the data.",
        )


def export_settings(settings: dict) -> dict:
    """An export's settings with the noise mode: in private mode without the seed (the noise is secret)."""
    if noise_mode() == PRIVATE:
        out = {k: v for k, v in settings.items() if k != "seed"}
        return {**out, "noise": PRIVATE, "noise_seed": SECRET_NOTE}
    return {**settings, "noise": REPRODUCIBLE, "noise_seed": PUBLIC_NOTE}


def export_record(spec) -> dict:
    """An export's spec record: in private mode without the seed and marked ``"noise": "secret"``."""
    return secret_record(spec.record()) if noise_mode() == PRIVATE else spec.record()


def check_no_secret(text: str) -> str:
    """``text`` (an export or a generated file) after checking that the session's secret is not in it."""
    secret = st.session_state.get(_SECRET)
    if secret is not None and str(secret) in text:
        raise RuntimeError("an export would carry the private noise mode's secret seed: not written")
    return text


def dumps(payload: dict) -> str:
    """The JSON text of an export (after :func:`check_no_secret`)."""
    return check_no_secret(json.dumps(payload, indent=1, default=str))
