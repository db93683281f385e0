"""The corpus the pages run on: the shipped sample, or a file the user uploads in the sidebar.

The sample corpora and a parsed upload are cached (``st.cache_resource``; an upload keyed by the
SHA-256 of its bytes and the chosen columns); the last usable upload is kept in the session under
``UPLOADED_KEY`` so every page of the session uses it.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from dpcore import Corpus, CorpusError, MAX_UPLOAD_BYTES, load_sample_corpus, load_uploaded_corpus, read_table, table_columns

UPLOADED_KEY = "_uploaded_corpus"


def sample_corpus(which: str) -> Corpus:
    """The shipped sample corpus: "private" or "public" (cached)."""
    return _sample(which)


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


def upload_panel() -> Corpus | None:
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
            user_col = st.selectbox("User column", cols, index=_guess(cols, ("user", "user_id", "author", "userid"), 0),
                                    key="upload_user_col")
            text_col = st.selectbox("Text column", cols, index=_guess(cols, ("text", "body", "content", "document"), 1),
                                    key="upload_text_col")
            corpus = _uploaded(digest, up.name, user_col, text_col, data)
        except CorpusError as exc:
            st.error(f"Could not use {up.name}: {exc}", icon="⚠️")
            return st.session_state.get(UPLOADED_KEY)
        st.session_state[UPLOADED_KEY] = corpus
        return corpus
    return st.session_state.get(UPLOADED_KEY)




def uploaded_corpus() -> Corpus | None:
    """The last usable upload of this session, if any (without drawing the uploader)."""
    return st.session_state.get(UPLOADED_KEY)
