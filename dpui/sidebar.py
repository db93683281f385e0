"""The shared sidebar every page calls: navigation, then the shared settings the page uses.

The shared settings are ε, δ, the seed, the corpus and the sample corpus's size (``SHARED_SETTINGS``).
A page declares the ones it uses, ``shared_sidebar(uses=("eps", "seed"))``; the sidebar shows only
those, and reading another one from the returned ``SharedSettings`` raises ``UndeclaredSetting`` (a bug
in the page, never a user's mistake). Declaring ``"corpus"`` also declares ``"size"``: every page that
reads the corpus offers both sample sizes (classroom: the shipped 3,000 users; paper: 100,000 users,
generated on first use, issue 8). An upload replaces the private sample of either size; the public
corpus (prior, vocabulary) is the public sample of the chosen size.

Values persist across pages and in the URL. A shown setting is a widget with a fixed ``key`` plus
``persist_state="session"`` and ``bind="query-params"`` (Streamlit 1.67): a deep link such as
``/Mechanisms_101?eps=3.5`` opens with ε = 3.5, a slider move writes the new value into the address
bar, and the value survives page switches. A hidden setting keeps its value (from the link, else the
session, else the default), and the navigation links carry every shared value that differs from its
default, so a value set on one page survives a visit to a page that does not show it. The query
parameter names are the keys: ``eps``, ``delta``, ``seed``, ``corpus``, ``size`` (``?size=paper``).

Adding a shared setting is one ``SharedSetting`` entry (a draw function and a URL parser) in
``SHARED_SETTINGS``, one property on ``SharedSettings`` and the key in the pages' ``uses``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpcore import quote

from .corpus_panel import (SAMPLE_SIZES, missing_upload_message, paper_corpus_on_disk, sample_corpus, upload_panel,
                           uploaded_corpus)
from .budget import session_budget
from .errors import plain_text, user_value
from .uploads import start_janitor
from .navigation import sidebar_navigation
from .page_style import page_style
from .state import IN_URL, rng_for

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
SIZE_CHOICES = SAMPLE_SIZES  # ("classroom", "paper"): dpcore.load_sample_corpus(size=...)
PAPER_FIRST_SECONDS = 20
"""Wall time of the paper corpus's first generation (measured: 13 s private + 4 s public on one core)."""
EPSILON_DIRECTION = "← more privacy · less privacy →"
RECORD_KEY = "_shared_settings"  # session state: (page, shared values) of the last run


def format_number(v: float) -> str:
    """How ε and δ appear on the slider and in the URL: 3.5, 0.01, 1e-05."""
    return f"{v:g}"


class UndeclaredSetting(RuntimeError):
    """A page read a shared setting it did not declare in ``shared_sidebar(uses=...)``."""


# ------------------------------------------------------------------------------ the settings
def _draw_epsilon(ctx: dict) -> float:
    eps = st.select_slider(
        "ε (privacy loss)", options=EPSILON_OPTIONS, value=DEFAULT_EPSILON, format_func=format_number, key="eps",
        **IN_URL, help="Smaller ε = stronger privacy = more noise. Log-spaced from 0.01 to 10.",
    )
    st.caption(EPSILON_DIRECTION)
    return eps


def _draw_delta(ctx: dict) -> float:
    delta = st.select_slider(
        "δ (failure probability)", options=DELTA_OPTIONS, value=DEFAULT_DELTA, format_func=format_number,
        key="delta", **IN_URL,
        help="Used by the approximate-DP mechanisms (Gaussian noise). Keep δ far below 1/number of users.",
    )
    n = ctx["private"].n_users
    if delta < 1 / n:
        st.caption(f"1/(number of users) = 1/{n:,} ≈ {format_number(float(f'{1 / n:.2g}'))}; "
                   f"δ is {1 / (n * delta):,.0f}× smaller.")
    else:
        st.caption(f"1/(number of users) = 1/{n:,} ≈ {format_number(float(f'{1 / n:.2g}'))}; ⚠️ δ is **not** "
                   "below it: a release could expose one user's data with probability δ.")
    return delta


def _draw_seed(ctx: dict) -> int:
    return st.number_input(
        "Seed", min_value=0, max_value=MAX_SEED, value=DEFAULT_SEED, step=1, key="seed", **IN_URL,
        help="Every noisy draw on every page depends on this seed only: the same link shows the same noise.",
    )


def _draw_corpus(ctx: dict) -> str:
    """The sample/upload radio; the corpora are loaded by :func:`_draw_size`, drawn right below it."""
    choice = st.radio(
        "Corpus", CORPUS_CHOICES, index=0, key="corpus", **IN_URL,
        captions=["generated sample data", "your own CSV/JSONL file"],
        horizontal=True, help="Shown in the URL as corpus=sample or corpus=upload.",
    )
    ctx["corpus_choice"] = choice
    return choice


def _size_captions() -> list[str]:
    from sample_data.generate import SIZES

    later = "cached on this server" if paper_corpus_on_disk() else f"~{PAPER_FIRST_SECONDS} s the first time"
    return [f"{SIZES['classroom']['private']:,} users, instant", f"{SIZES['paper']['private']:,} users, {later}"]


def _draw_size(ctx: dict) -> str:
    size = st.radio(
        "Sample corpus size", SIZE_CHOICES, index=0, key="size", **IN_URL, captions=_size_captions(), horizontal=True,
        help="classroom: the shipped sample. paper: the same generator at the papers' scale (100,000 private and "
             "30,000 public users), generated deterministically on first use and cached on disk; the "
             "'Paper vs here' sections compare with the papers on it. Shown in the URL as size=classroom or "
             "size=paper. An upload replaces the private sample of either size.",
    )
    _load_corpora(ctx, ctx.get("corpus_choice", CORPUS_CHOICES[0]), size, draw_panel=True)
    private, public = ctx["private"], ctx["public"]
    if ctx.get("upload_missing"):
        st.caption("Private data: no usable upload in this session; the page waits for a file.")
        return size
    st.caption(
        f"Private data: {plain_text(ctx['corpus_label'], inline=True)} — {private.n_users:,} users, "
        f"{private.n_tokens:,} tokens. "
        f"Public data (prior / vocabulary): {size}-size public sample, {public.n_users:,} users."
    )
    return size


def _option(options: tuple) -> Callable[[str], object | None]:
    by_text = {format_number(o) if isinstance(o, float) else str(o): o for o in options}
    return by_text.get


def _seed_from_url(raw: str) -> int | None:
    return int(raw) if raw.isdigit() and int(raw) <= MAX_SEED else None


@dataclass(frozen=True)
class SharedSetting:
    """One shared setting: its key (= widget key = URL parameter), sidebar section, default, how it is
    drawn (``draw(ctx)`` returns the value; ``ctx`` holds what earlier settings loaded, e.g. the corpus),
    how a URL value is read (``parse`` returns None for a value the widget would reject) and written."""

    key: str
    section: str
    default: object
    draw: Callable[[dict], object]
    parse: Callable[[str], object | None]
    to_url: Callable[[object], str] = str
    link_rule: str | None = None  # when set, a link value the widget rejects gets a warning naming this rule
    options: tuple = field(default=())


SECTIONS = ("Privacy budget", "Data")
SHARED_SETTINGS: dict[str, SharedSetting] = {s.key: s for s in (
    SharedSetting("eps", "Privacy budget", DEFAULT_EPSILON, _draw_epsilon, _option(EPSILON_OPTIONS), format_number,
                  "ε must be > 0 and at most 10", EPSILON_OPTIONS),
    SharedSetting("delta", "Privacy budget", DEFAULT_DELTA, _draw_delta, _option(DELTA_OPTIONS), format_number,
                  "δ must be in (0, 1); this app offers 1e-10 … 1e-3", DELTA_OPTIONS),
    SharedSetting("seed", "Privacy budget", DEFAULT_SEED, _draw_seed, _seed_from_url),
    SharedSetting("corpus", "Data", CORPUS_CHOICES[0], _draw_corpus, _option(CORPUS_CHOICES)),
    SharedSetting("size", "Data", SIZE_CHOICES[0], _draw_size, _option(SIZE_CHOICES), link_rule="size must be "
                  "classroom or paper", options=SIZE_CHOICES),
)}
"""Every shared setting, in sidebar order."""
ALL_SETTINGS = tuple(SHARED_SETTINGS)
NEEDS_CORPUS = {"corpus", "size", "delta"}  # δ's caption compares it with 1/(number of users)
DRAW_ORDER = {"corpus": 0, "size": 1}  # the size loads the corpora; δ's caption needs them (then the rest)
SAMPLE_LABELS = {"classroom": "shipped sample corpus (classroom size)",
                 "paper": "generated sample corpus (paper size)"}


def _load_corpora(ctx: dict, choice: str, size: str, *, draw_panel: bool) -> None:
    """Put the private and public corpora and a label into ``ctx`` (the upload panel when drawn)."""
    private, label = None, SAMPLE_LABELS[size]
    if choice == "upload":
        private = upload_panel() if draw_panel else uploaded_corpus()
        if private is None and draw_panel:  # never a silent fallback: shared_sidebar stops the page (issue 25)
            ctx["upload_missing"] = missing_upload_message()
            label = "no usable upload in this session"
        elif private is not None:
            label = f"uploaded: {quote(private.name, 80, bare=True)}"
    ctx.update(private=private if private is not None else sample_corpus("private", size),
               public=sample_corpus("public", size), corpus_label=label, size=size)


# ------------------------------------------------------------------------------ what a page gets
@dataclass(frozen=True)
class SharedSettings:
    """What the sidebar returns to a page: the values of the settings it declared (others raise)."""

    uses: tuple[str, ...]
    values: Mapping[str, object]
    corpora: Mapping[str, object] = field(default_factory=dict)

    def _get(self, key: str):
        if key not in self.uses:
            raise UndeclaredSetting(f"this page reads the shared setting {key!r} but does not declare it: "
                                    f"shared_sidebar(uses={self.uses + (key,)!r}); the sidebar hides it")
        return self.values[key]

    @property
    def epsilon(self) -> float:
        return float(self._get("eps"))

    @property
    def delta(self) -> float:
        return float(self._get("delta"))

    @property
    def seed(self) -> int:
        return int(self._get("seed"))

    @property
    def size(self) -> str:
        """The sample corpus's size: "classroom" or "paper" (an upload replaces the private sample)."""
        return str(self._get("size"))

    def _corpus(self, what: str):
        self._get("corpus")
        return self.corpora[what]

    @property
    def private(self):
        """The private corpus (sample or upload)."""
        return self._corpus("private")

    @property
    def public(self):
        """The public corpus (prior / vocabulary): the shipped public sample."""
        return self._corpus("public")

    @property
    def corpus_label(self) -> str:
        return self._corpus("corpus_label")

    def rng(self, *salt) -> np.random.Generator:
        """A generator seeded by the shared seed and a salt (e.g. ``("bayes", repetition)``).

        The same seed and salt always give the same draws, so a shared link reproduces the view,
        and different parts of a page draw independent noise.
        """
        return rng_for(self.seed, *salt)


# ------------------------------------------------------------------------------ the sidebar
def _check_link_values() -> list[str]:
    """Say so when a link carries an ε or δ the sliders cannot take (Streamlit would drop it silently)."""
    problems = []
    for s in SHARED_SETTINGS.values():
        raw = st.query_params.get(s.key)
        if s.link_rule is None or raw is None or s.parse(raw) is not None:
            continue
        problems.append(
            f"The link asks for {s.key}={user_value(raw, 40)}, which is not a value this slider offers "
            f"({s.link_rule}; "
            f"choices: {s.to_url(s.options[0])} … {s.to_url(s.options[-1])}). "
            f"Showing {s.key}={s.to_url(st.session_state.get(s.key, s.default))} instead."
        )
    return problems


def _page_id() -> str:
    """Which page this run draws (changes on a page switch)."""
    ctx = get_script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def _restore(s: SharedSetting, record: Mapping[str, object]) -> None:
    """On arrival from another page, give a shown setting the value this session last had when the
    address bar does not carry it (within a page, the widget's own state is right: never overridden).

    On a page switch Streamlit 1.67 drops the query parameters bound on the previous page, and a
    bound widget without its parameter starts at its default although the session kept its value
    (persist_state): a deep-linked ε = 3.5 came back as 1 on the next page. Setting the session
    value before the widget is drawn is the way Streamlit allows to change a bound widget.
    """
    if s.key not in st.query_params and record.get(s.key, s.default) != s.default:
        st.session_state[s.key] = record[s.key]
        _back_into_address_bar(s, record[s.key])


def _back_into_address_bar(s: SharedSetting, value) -> None:
    """Put a non-default value the address bar lost on a page switch back into it.

    Streamlit 1.67 removes from the link's query string every parameter bound to a widget of the page
    left behind (and unbinds it); a widget restored from the session does not write it back unless a
    value for its key was kept from an earlier visit. So the first switch after opening a shared link
    left the address bar without ?eps=…: whoever copied it shared the defaults. A parameter still bound
    to a widget (one of the home page's, which Streamlit keeps on every page) is Streamlit's to write.
    """
    if value == s.default or s.key in st.query_params:
        return
    try:
        st.query_params[s.key] = s.to_url(value)
    except StreamlitAPIException:  # bound to a widget on another page: Streamlit keeps it in the address bar
        pass


def _hidden_value(s: SharedSetting, record: Mapping[str, object]):
    """A setting this page does not show: from the link, else this session's last value, else the default.

    (The navigation links carry it on; :func:`_back_into_address_bar` puts it in this page's address bar
    unless a widget of another page holds it there.)
    """
    raw = st.query_params.get(s.key)
    value = s.parse(raw) if raw is not None else None
    return value if value is not None else record.get(s.key, st.session_state.get(s.key, s.default))


def shared_sidebar(uses: Iterable[str] = ALL_SETTINGS) -> SharedSettings:
    """Draw the sidebar (navigation, then the shared settings in ``uses``) and return the settings.

    Call it once at the top of every page, right after ``st.set_page_config``.
    """
    requested = set(uses)
    if requested - set(SHARED_SETTINGS):
        raise ValueError(f"uses must name shared settings {ALL_SETTINGS}, got {sorted(requested - set(SHARED_SETTINGS))}")
    if "corpus" in requested:  # the sample's size goes with the corpus choice
        requested.add("size")
    uses = tuple(k for k in ALL_SETTINGS if k in requested)
    link_problems = _check_link_values()
    start_janitor()  # gives back uploads and download files of ended sessions (dpui.uploads)
    page_style()
    page = _page_id()
    last_page, record = st.session_state.get(RECORD_KEY, (page, {}))
    if last_page != page:  # arrived from another page: widgets may have lost their value on the way
        for key in uses:
            _restore(SHARED_SETTINGS[key], record)
    nav = st.sidebar.container(key="navigation")  # filled last: its links carry the final values
    boxes = {}
    for section in SECTIONS:
        if any(SHARED_SETTINGS[k].section == section for k in uses):
            boxes[section] = st.sidebar.container()
            boxes[section].markdown(f"### {section}")
    ctx: dict = {}
    values: dict = {}
    if "corpus" not in uses:
        values["corpus"] = ctx["corpus_choice"] = _hidden_value(SHARED_SETTINGS["corpus"], record)
        if "size" not in uses:
            values["size"] = _hidden_value(SHARED_SETTINGS["size"], record)
            if NEEDS_CORPUS & set(uses):
                _load_corpora(ctx, values["corpus"], values["size"], draw_panel=False)
    # the corpus and its size first: δ's caption needs the number of users (the containers keep the sidebar's order)
    for key in sorted(uses, key=lambda k: DRAW_ORDER.get(k, len(DRAW_ORDER))):
        with boxes[SHARED_SETTINGS[key].section]:
            values[key] = SHARED_SETTINGS[key].draw(ctx)
    for key in ALL_SETTINGS:
        if key not in values:
            values[key] = _hidden_value(SHARED_SETTINGS[key], record)
        if key not in uses:  # a hidden setting's value stays in the address bar too (copied links carry it)
            _back_into_address_bar(SHARED_SETTINGS[key], values[key])
    if uses:
        st.sidebar.caption("The address bar carries these settings: copy it to share this exact view.")
    session_budget(ctx.get("private") if "corpus" in uses else None)  # the releases seen on this corpus (issue 21)
    carried = {k: s.to_url(values[k]) for k, s in SHARED_SETTINGS.items() if values[k] != s.default}
    st.session_state[RECORD_KEY] = (page, dict(values))
    with nav:
        sidebar_navigation(carried)
    for problem in link_problems:
        st.warning(problem, icon="🔗")
    if ctx.get("upload_missing"):
        st.warning(plain_text(ctx["upload_missing"]), icon="📄")
        st.stop()
    return SharedSettings(uses, values, ctx)
