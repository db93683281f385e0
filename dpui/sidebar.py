"""The shared sidebar every page calls: ε, δ, seed and corpus, kept across pages and in the URL.

Widgets use a fixed ``key`` plus ``persist_state="session"`` and ``bind="query-params"`` (Streamlit
1.67), so a deep link such as ``/Mechanisms_101?eps=3.5`` opens with ε = 3.5, a slider move writes
the new value into the address bar, and values survive page switches. The query parameter names
are the keys: ``eps``, ``delta``, ``seed``, ``corpus``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import streamlit as st

from dpcore import Corpus, CorpusError, MAX_UPLOAD_BYTES, load_sample_corpus, load_uploaded_corpus, read_table, table_columns

from .state import rng_for

EPSILON_OPTIONS: tuple[float, ...] = (
    0.01, 0.015, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9,
    1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0,
)
"""ε on a (roughly) logarithmic grid from 0.01 to 10 (SPEC §0)."""

DELTA_OPTIONS: tuple[float, ...] = (1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
"""δ on a log grid from 1e-10 to 1e-3 (SPEC §0)."""

DEFAULT_EPSILON = 1.0
DEFAULT_DELTA = 1e-5
DEFAULT_SEED = 0
MAX_SEED = 2**31 - 1
CORPUS_CHOICES = ("sample", "upload")
_UPLOADED = "_uploaded_corpus"


def format_number(v: float) -> str:
    """How ε and δ appear on the slider and in the URL: 3.5, 0.01, 1e-05."""
    return f"{v:g}"


@dataclass(frozen=True)
class SharedSettings:
    """What the sidebar returns to a page."""

    epsilon: float
    delta: float
    seed: int
    private: Corpus
    public: Corpus
    corpus_label: str

    def rng(self, *salt) -> np.random.Generator:
        """A generator seeded by the shared seed and a salt (e.g. ``("bayes", repetition)``).

        The same seed and salt always give the same draws, so a shared link reproduces the view,
        and different parts of a page draw independent noise.
        """
        return rng_for(self.seed, *salt)


@st.cache_resource(show_spinner="Loading the sample corpus …")
def _sample(which: str) -> Corpus:
    return load_sample_corpus(which)


@st.cache_resource(show_spinner="Reading your file …", max_entries=4)
def _uploaded(digest: str, filename: str, user_column: str, text_column: str, _data: bytes) -> Corpus:
    return load_uploaded_corpus(_data, filename, user_column=user_column, text_column=text_column)


@st.cache_data(max_entries=8, show_spinner=False)
def _columns(digest: str, filename: str, _data: bytes) -> list[str]:
    return table_columns(read_table(_data, filename))


def _guess(columns: list[str], names: tuple[str, ...], fallback: int) -> int:
    for i, c in enumerate(columns):
        if c.lower() in names:
            return i
    return min(fallback, len(columns) - 1)


def _upload_panel() -> Corpus | None:
    """File uploader and column pickers; returns the uploaded corpus or None (with a message)."""
    up = st.file_uploader(
        "Your corpus (CSV or JSONL, one document per row)",
        type=["csv", "jsonl", "ndjson", "json", "gz"],
        key="upload_file",
        help=f"Needs a column naming the user and a column of text; at most {MAX_UPLOAD_BYTES // 2**20} MB. "
        "Nothing leaves this server.",
    )
    if up is not None:
        data = up.getvalue()
        digest = hashlib.sha256(data).hexdigest()
        try:
            cols = _columns(digest, up.name, data)
            if len(cols) < 2:
                raise CorpusError(f"the file has {len(cols)} column(s); it needs a user column and a text column")
            user_col = st.selectbox("User column", cols, index=_guess(cols, ("user", "user_id", "author", "userid"), 0), key="upload_user_col")
            text_col = st.selectbox("Text column", cols, index=_guess(cols, ("text", "body", "content", "document"), 1), key="upload_text_col")
            corpus = _uploaded(digest, up.name, user_col, text_col, data)
        except CorpusError as exc:
            st.error(f"Could not use {up.name}: {exc}", icon="⚠️")
            return st.session_state.get(_UPLOADED)
        st.session_state[_UPLOADED] = corpus
        return corpus
    return st.session_state.get(_UPLOADED)


def _check_link_values() -> list[str]:
    """Say so when a link carries an ε or δ the sliders cannot take (Streamlit would drop it silently)."""
    problems = []
    for key, options, default, rule in (
        ("eps", EPSILON_OPTIONS, DEFAULT_EPSILON, "ε must be > 0 and at most 10"),
        ("delta", DELTA_OPTIONS, DEFAULT_DELTA, "δ must be in (0, 1); this app offers 1e-10 … 1e-3"),
    ):
        raw = st.query_params.get(key)
        if raw is None or raw in {format_number(o) for o in options}:
            continue
        problems.append(
            f"The link asks for {key}={raw}, which is not a value this slider offers ({rule}; "
            f"choices: {format_number(options[0])} … {format_number(options[-1])}). "
            f"Showing {key}={format_number(st.session_state.get(key, default))} instead."
        )
    return problems


def shared_sidebar() -> SharedSettings:
    """Draw the shared sidebar and return the settings. Call it once at the top of every page."""
    link_problems = _check_link_values()
    with st.sidebar:
        st.markdown("### Privacy budget")
        epsilon = st.select_slider(
            "ε (privacy loss)",
            options=EPSILON_OPTIONS,
            value=DEFAULT_EPSILON,
            format_func=format_number,
            key="eps",
            bind="query-params",
            persist_state="session",
            help="Smaller ε = stronger privacy = more noise. Log-spaced from 0.01 to 10.",
        )
        delta = st.select_slider(
            "δ (failure probability)",
            options=DELTA_OPTIONS,
            value=DEFAULT_DELTA,
            format_func=format_number,
            key="delta",
            bind="query-params",
            persist_state="session",
            help="Used by the approximate-DP mechanisms (Gaussian noise). Keep δ far below 1/number of users.",
        )
        seed = st.number_input(
            "Seed", min_value=0, max_value=MAX_SEED, value=DEFAULT_SEED, step=1,
            key="seed", bind="query-params", persist_state="session",
            help="Every noisy draw on every page depends on this seed only: the same link shows the same noise.",
        )
        st.markdown("### Data")
        choice = st.radio(
            "Corpus", CORPUS_CHOICES, index=0, key="corpus", bind="query-params", persist_state="session",
            captions=["shipped sample data", "your own CSV/JSONL file"],
            horizontal=True, help="Shown in the URL as corpus=sample or corpus=upload.",
        )
        public = _sample("public")
        private = None
        label = "shipped sample corpus"
        if choice == "upload":
            private = _upload_panel()
            if private is None:
                st.info("No usable file uploaded in this session yet: the pages use the shipped sample.", icon="ℹ️")
            else:
                label = f"uploaded: {private.name}"
        if private is None:
            private = _sample("private")
        st.caption(
            f"Private data: {label} — {private.n_users:,} users, {private.n_tokens:,} tokens. "
            f"Public data (prior / vocabulary): shipped public sample, {public.n_users:,} users."
        )
        st.caption("The address bar carries ε, δ, the seed and the corpus choice: copy it to share this exact view.")
    for problem in link_problems:
        st.warning(problem, icon="🔗")
    return SharedSettings(float(epsilon), float(delta), int(seed), private, public, label)
