"""The data the pages run on (issue 20): the real chat corpus (the default), the synthetic sample (classroom or
paper size), or a file the user uploads.

``DATA_CHOICES`` is the sidebar's one data choice (``?corpus=chat|classroom|paper|upload``), and
:func:`data_corpora` gives its private and public corpora with their labels:

* ``chat`` — real people's messages, the BYU Chit-Chat Challenge 2018 (``dpcore.load_real_corpus``, offline):
  private = the fixed, seeded 70 % of the 1,315 people (920), public = the other 30 % (395): other people
  of the same chat, not a separately published corpus (no person is in both);
* ``classroom`` / ``paper`` — the synthetic sample of that size, private and public from the same generator;
* ``upload`` — your file replaces the private data; the public data (prior, vocabulary) is the real chat's
  public part (395 people): real English conversation, the same on every server, independent of the upload.
  Until a usable file is uploaded the pages run on the real chat.

The sample corpora come in two sizes (``SAMPLE_SIZES``): ``classroom`` (the shipped files, 3,000 private
users) and ``paper`` (100,000 private / 30,000 public users, generated deterministically by dpcore on
first use and cached on disk, about 20 s the first time; ``dpcore.load_sample_corpus(size=...)``). The
first load of the paper corpus in a server process shows a progress bar. The sample corpora are cached
(``st.cache_resource``, keyed by which corpus and its size). A parsed upload is not: it is held for its
session only, within limits, and given back when the session ends (:mod:`dpui.common.uploads`, issue 25); the
session state keeps which file and columns it is under ``UPLOADED_KEY`` so every page of the session uses
it, and a page asked to use an upload that the server no longer holds says so instead of falling back to
the sample.
"""

from __future__ import annotations

import hashlib
import threading

import streamlit as st

from dpcore import Corpus, CorpusError, load_real_corpus, load_sample_corpus
from dpcore.quoting import quote
from dpcore.text import UPLOAD_LIMITS, data_cache_dir, peek_columns
from dpcore.text.samples import PAPER_CACHE_VERSION
from dpui.common import uploads
from dpui.common.errors import show_error

UPLOADED_KEY = "_uploaded_corpus"
"""Session state: which upload this session uses — (sha256 of the file, file name, user column, text column) —
or ("refused", sha256) after a file that could not be used; the parsed corpus itself is held by dpui.common.uploads."""
SAMPLE_SIZES = ("classroom", "paper")
DATA_CHOICES = ("chat", "classroom", "paper", "upload")
"""The sidebar's data choice, as the URL carries it (``?corpus=…``); the first is the default."""
REAL_PEOPLE = {"all": 1315, "private": 920, "public": 395}
"""People of the real chat corpus and of its fixed 70/30 split (stated, public numbers; tests check them)."""
CHAT_PUBLIC_TEXT = (
    "other people of the same chat: {n:,} people, a fixed seeded 30 % split of the 1,315 people "
    "(nobody is in both parts)"
)
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
                    bar.progress(
                        min(max(float(fraction), 0.0), 1.0),
                        text=f"{what} the {size}-size {which} sample corpus … {fraction:.0%}",
                    )

                load_sample_corpus(which, size=size, progress=report)  # dpcore keeps it in memory
                bar.empty()
                corpus = _sample(which, size)
                _READY.add((which, size))
                return corpus
    return _sample(which, size)


@st.cache_resource(show_spinner="Loading the real chat corpus …")
def real_corpus(which: str) -> Corpus:
    """The real chat corpus's ``which`` part ("private": 920 people, "public": 395), from chitchat-dataset."""
    return load_real_corpus("chat", which=which)


def data_corpora(choice: str, *, uploaded: Corpus | None = None) -> dict:
    """The private and public corpora of a data choice, and how the sidebar names them.

    Returns a dict with ``private``, ``public`` (Corpus), ``corpus_label`` (the private data, as exports and
    captions name it) and ``public_label`` (the public data: prior / vocabulary). ``uploaded`` is the upload
    for ``choice == "upload"`` (None: no usable file yet, the real chat stands in).
    """
    if choice in SAMPLE_SIZES:
        label = {"classroom": "shipped sample corpus (classroom size)", "paper": "generated sample corpus (paper size)"}
        public = sample_corpus("public", choice)
        return {
            "private": sample_corpus("private", choice),
            "public": public,
            "corpus_label": label[choice],
            "public_label": f"{choice}-size public sample, {public.n_users:,} users",
        }
    public = real_corpus("public")
    out = {
        "private": real_corpus("private"),
        "public": public,
        "corpus_label": f"real chat (BYU Chit-Chat 2018), private part: {REAL_PEOPLE['private']:,} of "
        f"{REAL_PEOPLE['all']:,} people",
        "public_label": CHAT_PUBLIC_TEXT.format(n=public.n_users),
    }
    if choice == "upload" and uploaded is not None:
        out.update(
            private=uploaded,
            corpus_label=f"uploaded: {quote(uploaded.name, 80, bare=True)}",
            public_label=f"the real chat's public part, {public.n_users:,} people (a fixed seeded 30 % split of "
            f"the chat's {REAL_PEOPLE['all']:,} people), not your file",
        )
    return out


@st.cache_resource(show_spinner="Loading the sample corpus …")
def _sample(which: str, size: str = "classroom") -> Corpus:
    return load_sample_corpus(which, size=size)


_COLUMNS_KEY = "_upload_columns"  # session state: (digest, file name, its columns) of this session's upload


def _columns(digest: str, filename: str, data: bytes) -> list[str]:
    """The file's columns (the first 1,000 rows only: the whole file is read once, by uploads.parse), kept in this
    session's state: never in a cache shared between sessions, which would keep an upload's header row after
    the upload is given back (issue 34)."""
    held = st.session_state.get(_COLUMNS_KEY)
    if held is not None and held[:2] == (digest, filename):
        return list(held[2])
    cols = peek_columns(data, filename)
    st.session_state[_COLUMNS_KEY] = (digest, filename, tuple(cols))
    return cols


USER_COLUMN_NAMES = ("user", "user_id", "userid", "author", "speaker", "sender", "person", "participant", "username")
TEXT_COLUMN_NAMES = ("text", "body", "content", "document", "message_text", "utterance")


def _guess(columns: list[str], names: tuple[str, ...]) -> int | None:
    """The position of the first column named like ``names`` (case-insensitive), or None: not obvious."""
    for i, c in enumerate(columns):
        if c.strip().lower() in names:
            return i
    return None


def _column_label(name: str) -> str:
    return quote(name, 60, bare=True)


def upload_panel() -> Corpus | None:
    """File uploader and column pickers; returns this session's uploaded corpus or None (with a message).

    The file is read within :data:`dpcore.text.UPLOAD_LIMITS` and held for this session only
    (:mod:`dpui.common.uploads`); the session state keeps which file and columns it is (``UPLOADED_KEY``), not the
    corpus. A file that cannot be used gives an error and no corpus: the page then says so and waits
    (:func:`missing_upload_message`) instead of computing on another corpus.
    """
    up = st.file_uploader(
        "Your corpus (CSV or JSONL, one document per row)",
        type=["csv", "jsonl", "ndjson", "json", "gz"],
        key="upload_file",
        help=f"Needs a column naming the user and a column of text; {UPLOAD_LIMITS.describe()}. "
        "Nothing leaves this server.",
    )
    st.caption(
        f"Limits per file: {UPLOAD_LIMITS.describe()}. The parsed file is kept in this server's memory for "
        f"this session only (given back when the tab closes or after {uploads.IDLE_SECONDS // 60} minutes "
        "without use), never written to disk."
    )
    if up is not None:
        data = up.getvalue()
        digest = hashlib.sha256(data).hexdigest()
        try:
            cols = _columns(digest, up.name, data)
            if len(cols) < 2:
                raise CorpusError(f"the file has {len(cols)} column(s); it needs a user column and a text column")
            user_col = st.selectbox(
                "User column: which column says who wrote each row?",
                cols,
                index=_guess(cols, USER_COLUMN_NAMES),  # None when not obvious: the uploader asks (issue 31 item 8)
                key="upload_user_col",
                format_func=_column_label,
                placeholder="choose the column that identifies a person",
                help="DP here protects each *user*: every row with the same value in this column is one person's.",
            )
            text_guess = _guess(cols, TEXT_COLUMN_NAMES)
            text_col = st.selectbox(
                "Text column",
                cols,
                index=text_guess if text_guess is not None else min(1, len(cols) - 1),
                key="upload_text_col",
                format_func=_column_label,
            )
            if user_col is None:
                st.info(
                    f"Which column identifies a person? None of {', '.join(_column_label(c) for c in cols[:6])}"
                    f"{' …' if len(cols) > 6 else ''} is named like a user column: choose it above. Nothing is "
                    "computed until you do.",
                    icon="👤",
                )
                st.session_state[UPLOADED_KEY] = (CHOOSE_USER, digest)
                return None
            key = (digest, up.name, user_col, text_col)
            corpus = uploads.lookup(key)
            if corpus is None:
                with st.spinner("Reading your file …"):
                    corpus = uploads.parse(key, data, up.name, user_col, text_col)
        except CorpusError as exc:
            show_error(f"Could not use {quote(up.name, 80)}: {exc}")
            st.session_state[UPLOADED_KEY] = ("refused", digest)
            return None
        st.session_state[UPLOADED_KEY] = key
        if corpus.n_users == corpus.n_documents and corpus.n_users > 2:
            st.warning(
                f"Every row of {quote(up.name, 80)} is its own user ({corpus.n_users:,} rows, {corpus.n_users:,} "
                f"values of {_column_label(user_col)}): is that the column that says who wrote each row? If it "
                "numbers the rows, “per user” below protects single rows, not people.",
                icon="👤",
            )
        return corpus
    return uploaded_corpus()


CHOOSE_USER = "choose user column"
"""Session state marker (``UPLOADED_KEY``): a file whose user column the uploader has not chosen yet."""


def missing_upload_message() -> str:
    """Why this session has no usable upload (plain text, for a page that was asked to use one)."""
    held = st.session_state.get(UPLOADED_KEY)
    if isinstance(held, tuple) and held[:1] == (CHOOSE_USER,):
        return (
            "Choose in the sidebar which column of your file says who wrote each row (the user column): DP here "
            "protects each user, so the page needs to know who they are. Nothing is computed meanwhile."
        )
    if isinstance(held, tuple) and held[:1] == ("refused",):
        return (
            "The file in the sidebar could not be used (the message is beside it): upload another file, or "
            "choose other data (e.g. the real chat). Nothing is computed on another corpus meanwhile."
        )
    if isinstance(held, tuple):
        return (
            f"Your upload {quote(held[1], 80)} is no longer held by this server (it gives uploads back after "
            f"{uploads.IDLE_SECONDS // 60} minutes without use or when the tab disconnects): upload it again in "
            "the sidebar, or choose other data (e.g. the real chat). Nothing is computed on another corpus meanwhile."
        )
    return (
        "This page is set to use an uploaded corpus (corpus=upload in the address bar), but this session holds "
        "none: upload a file in the sidebar, or choose other data (e.g. the real chat). Uploads live in the server's memory "
        "only, so a server restart, a closed tab or a long pause gives them back. Nothing is computed on another "
        "corpus meanwhile."
    )


def uploaded_corpus() -> Corpus | None:
    """This session's upload if the server still holds it (without drawing the uploader), else None.

    A :class:`~dpcore.Corpus` put in ``st.session_state[UPLOADED_KEY]`` directly (as the app tests do) is
    taken as this session's upload."""
    held = st.session_state.get(UPLOADED_KEY)
    if isinstance(held, Corpus):
        return uploads.keep(("set directly", held.content_hash), held)
    if isinstance(held, tuple) and held[:1] not in (("refused",), (CHOOSE_USER,)):
        return uploads.lookup(held)
    return None
