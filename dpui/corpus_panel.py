"""The corpus the pages run on: the sample (classroom or paper size), or a file the user uploads.

The sample corpora come in two sizes (``SAMPLE_SIZES``): ``classroom`` (the shipped files, 3,000 private
users) and ``paper`` (100,000 private / 30,000 public users, generated deterministically by dpcore on
first use and cached on disk, about 20 s the first time; ``dpcore.load_sample_corpus(size=...)``). The
first load of the paper corpus in a server process shows a progress bar. The sample corpora and a parsed
upload are cached (``st.cache_resource``, keyed by which corpus and its size; an upload keyed by the
SHA-256 of its bytes and the chosen columns); the last usable upload is kept in the session under
``UPLOADED_KEY`` so every page of the session uses it.
"""

from __future__ import annotations

import hashlib
import threading

import streamlit as st

from dpcore import Corpus, CorpusError, MAX_UPLOAD_BYTES, load_sample_corpus, load_uploaded_corpus, read_table, table_columns
from dpcore.corpus import PAPER_CACHE_VERSION, data_cache_dir

UPLOADED_KEY = "_uploaded_corpus"
SAMPLE_SIZES = ("classroom", "paper")
_READY: set = set()  # (which, size) loaded in this server process (st.cache_resource holds the corpus)
_LOCK = threading.Lock()


def paper_corpus_on_disk() -> bool:
    """True when the paper-size corpora are already generated in dpcore's disk cache (fast to load)."""
    d = data_cache_dir()
    return all((d / f"paper-{w}-v{PAPER_CACHE_VERSION}.npz").exists() for w in ("private", "public"))


def sample_corpus(which: str, size: str = "classroom") -> Corpus:
    """The sample corpus: ``which`` "private" or "public", ``size`` "classroom" or "paper" (cached).

    The first paper-size load of a server process draws a progress bar where it is called (dpcore calls
    back while it generates or reads the corpus) and removes it when done.
    """
    if size != "classroom" and (which, size) not in _READY:
        with _LOCK:  # two sessions must not generate the same corpus twice at once
            if (which, size) not in _READY:
                what = "Reading" if paper_corpus_on_disk() else "Generating (first time only)"
                bar = st.progress(0.0, text=f"{what} the {size}-size {which} sample corpus …")

                def report(fraction: float) -> None:
                    bar.progress(min(max(float(fraction), 0.0), 1.0),
                                 text=f"{what} the {size}-size {which} sample corpus … {fraction:.0%}")

                load_sample_corpus(which, size=size, progress=report)  # dpcore keeps it in memory
                bar.empty()
                corpus = _sample(which, size)
                _READY.add((which, size))
                return corpus
    return _sample(which, size)


@st.cache_resource(show_spinner="Loading the sample corpus …")
def _sample(which: str, size: str = "classroom") -> Corpus:
    return load_sample_corpus(which, size=size)


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
