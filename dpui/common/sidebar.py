"""The shared sidebar every page calls: navigation, then the shared settings the page uses.

The shared settings are ε, δ, the seed and the data (``SHARED_SETTINGS``).
A page declares the ones it uses, ``shared_sidebar(uses=("eps", "seed"))``; the sidebar shows only
those, and reading another one from the returned ``SharedSettings`` raises ``UndeclaredSetting`` (a bug
in the page, never a user's mistake). The data is one choice (issue 20; ``dpui.common.corpus_panel.DATA_CHOICES``):
``chat`` — real people's messages, the default on every page (private: 920 of its 1,315 people; public
data: the other 395, a fixed seeded split of people) —, the synthetic ``classroom`` (3,000 users) and
``paper`` (100,000 users, generated on first use) sizes, and ``upload`` (your file replaces the private data;
the public data stays the real chat's public part). Links from before issue 20 (``corpus=sample`` with
``size=classroom|paper``, ``corpus=upload``) open the view they opened then (:func:`legacy_data_choice`).

Values persist across pages and in the URL. A shown setting is a widget with a fixed ``key`` plus
``persist_state="session"`` and ``bind="query-params"`` (Streamlit 1.67): a deep link such as
``/Mechanisms_101?eps=3.5`` opens with ε = 3.5, a slider move writes the new value into the address
bar, and the value survives page switches. A hidden setting keeps its value (from the link, else the
session, else the default), and the navigation links carry every shared value that differs from its
default, so a value set on one page survives a visit to a page that does not show it. The query
parameter names are the keys: ``eps``, ``delta``, ``seed``, ``corpus`` (``?corpus=paper``), ``noise``.

The noise mode (issue 30 item 1, :mod:`dpui.common.noise`): a page that uses the seed also shows ``noise``
(``reproducible``: the seed is public, every badge says the view protects no one; ``private``: the seed is a
per-session secret, ``SharedSettings.seed`` returns it, the sidebar shows "secret" instead of the seed widget).
An upload switches it to private.

Adding a shared setting is one ``SharedSetting`` entry (a draw function and a URL parser) in
``SHARED_SETTINGS``, one property on ``SharedSettings`` and the key in the pages' ``uses``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpui.common import link_values
from dpui.common.budget import session_budget
from dpui.common.corpus_panel import (
    DATA_CHOICES,
    REAL_PEOPLE,
    SAMPLE_SIZES,
    data_corpora,
    missing_upload_message,
    paper_corpus_on_disk,
    upload_panel,
    uploaded_corpus,
)
from dpui.common.errors import plain_text, user_value
from dpui.common.navigation import sidebar_navigation
from dpui.common.noise import DEFAULT_NOISE, NOISE_MODES, PRIVATE, noise_radio, secret_seed_caption, session_secret
from dpui.common.page_style import page_style
from dpui.common.presenter import phone_epsilon, presenter_controls, presenting
from dpui.common.state import IN_URL, explicitly_set, forget_link_value, rng_for, take_set_before_sidebar
from dpui.common.uploads import start_janitor

EPSILON_OPTIONS: tuple[float, ...] = (
    0.01,
    0.015,
    0.02,
    0.03,
    0.05,
    0.07,
    0.1,
    0.15,
    0.2,
    0.3,
    0.4,
    0.5,
    0.6,
    0.7,
    0.8,
    0.9,
    1.0,
    1.25,
    1.5,
    1.75,
    2.0,
    2.5,
    3.0,
    3.5,
    4.0,
    4.5,
    5.0,
    6.0,
    7.0,
    8.0,
    9.0,
    10.0,
)
"""ε on a (roughly) logarithmic grid from 0.01 to 10 (SPEC §0)."""

DELTA_OPTIONS: tuple[float, ...] = (1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
"""δ on a log grid from 1e-10 to 1e-3 (SPEC §0)."""

DEFAULT_EPSILON = 1.0
DEFAULT_DELTA = 1e-5
DEFAULT_SEED = 0
MAX_SEED = 2**31 - 1
CORPUS_CHOICES = DATA_CHOICES  # ("chat", "classroom", "paper", "upload"); the URL key is "corpus"
LEGACY_CORPUS, LEGACY_SIZE = "sample", "size"  # before issue 20: ?corpus=sample|upload & size=classroom|paper
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
        "ε (privacy loss)",
        options=EPSILON_OPTIONS,
        value=DEFAULT_EPSILON,
        format_func=format_number,
        key="eps",
        **IN_URL,
        help="Smaller ε = stronger privacy = more noise. Log-spaced from 0.01 to 10.",
    )
    st.caption(EPSILON_DIRECTION)
    return eps


def _draw_delta(ctx: dict) -> float:
    delta = st.select_slider(
        "δ (failure probability)",
        options=DELTA_OPTIONS,
        value=DEFAULT_DELTA,
        format_func=format_number,
        key="delta",
        **IN_URL,
        help="Used by the approximate-DP mechanisms (Gaussian noise). Keep δ far below 1/number of users.",
    )
    n = ctx["private"].n_users
    if delta < 1 / n:
        st.caption(
            f"1/(number of users) = 1/{n:,} ≈ {format_number(float(f'{1 / n:.2g}'))}; "
            f"δ is {1 / (n * delta):,.0f}× smaller."
        )
    else:
        st.caption(
            f"1/(number of users) = 1/{n:,} ≈ {format_number(float(f'{1 / n:.2g}'))}; ⚠️ δ is **not** "
            "below it: a release could expose one user's data with probability δ."
        )
    return delta


def _draw_noise(ctx: dict) -> str:
    """The noise mode (issue 30 item 1; dpui.common.noise): reproducible (public seed) or private (a session secret)."""
    ctx["noise"] = noise_radio(ctx.get("data"))
    return ctx["noise"]


def _draw_seed(ctx: dict) -> int:
    if ctx.get("noise") == PRIVATE:  # the secret replaces the seed; the public one is kept for reproducible mode
        secret_seed_caption()
        return st.session_state.get("seed", DEFAULT_SEED)
    return st.number_input(
        "Seed",
        min_value=0,
        max_value=MAX_SEED,
        value=DEFAULT_SEED,
        step=1,
        key="seed",
        **IN_URL,
        help="Reproducible mode: every noisy draw on every page depends on this seed only, so the same link shows "
        "the same noise — and anyone with the link can recompute it (a demonstration, not a protection).",
    )


def _data_captions() -> list[str]:
    from dpcore.text.synthetic import SIZES

    later = "cached on this server" if paper_corpus_on_disk() else f"~{PAPER_FIRST_SECONDS} s the first time"
    return [
        f"Real chat ({REAL_PEOPLE['all']:,} people)",
        f"Synthetic, classroom size ({SIZES['classroom']['private']:,} users)",
        f"Synthetic, paper size ({SIZES['paper']['private']:,} users, {later})",
        "Upload (your own CSV/JSONL file)",
    ]


def _draw_corpus(ctx: dict) -> str:
    """The data choice; loads the private and public corpora into ``ctx`` and says which they are."""
    choice = st.radio(
        "Data",
        CORPUS_CHOICES,
        index=0,
        key="corpus",
        **IN_URL,
        captions=_data_captions(),
        help="chat: real people's messages (BYU Chit-Chat Challenge 2018, MIT licence, offline from the "
        "chitchat-dataset package); the pages' private data is a fixed seeded 70 % of its people, the public "
        "data (prior / vocabulary) the other 30 %. classroom / paper: synthetic text from our generator "
        "(paper: the papers' scale, generated on first use and cached on disk; the 'Paper vs here' sections "
        "compare with the papers on it and on the chat). upload: your file replaces the private data; the "
        "public data stays the chat's public part. "
        "Shown in the URL as corpus=chat, classroom, paper or upload.",
    )
    _load_corpora(ctx, choice, draw_panel=True)
    if ctx.get("upload_missing"):
        st.caption("Private data: no usable upload in this session; the page waits for a file.")
        return choice
    private = ctx["private"]
    st.caption(
        f"Private data: {plain_text(ctx['corpus_label'], inline=True)} — {private.n_users:,} users, "
        f"{private.n_tokens:,} tokens. Public data (prior / vocabulary): {plain_text(ctx['public_label'], inline=True)}."
    )
    return choice


def _option(options: tuple) -> Callable[[str], object | None]:
    by_text = {format_number(o) if isinstance(o, float) else str(o): o for o in options}
    return by_text.get


def _seed_from_url(raw: str) -> int | None:
    """The seed a link writes (ASCII digits, 0 … MAX_SEED: :func:`dpui.common.link_values.parse_number`), else None."""
    return link_values.parse_number(raw, integer=True, low=0, high=MAX_SEED)


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


SECTIONS = ("Privacy budget", "Noise", "Data")
SHARED_SETTINGS: dict[str, SharedSetting] = {
    s.key: s
    for s in (
        SharedSetting(
            "eps",
            "Privacy budget",
            DEFAULT_EPSILON,
            _draw_epsilon,
            _option(EPSILON_OPTIONS),
            format_number,
            "ε must be > 0 and at most 10",
            EPSILON_OPTIONS,
        ),
        SharedSetting(
            "delta",
            "Privacy budget",
            DEFAULT_DELTA,
            _draw_delta,
            _option(DELTA_OPTIONS),
            format_number,
            "δ must be in (0, 1); this app offers 1e-10 … 1e-3",
            DELTA_OPTIONS,
        ),
        SharedSetting(
            "noise",
            "Noise",
            DEFAULT_NOISE,
            _draw_noise,
            _option(NOISE_MODES),
            link_rule="noise must be reproducible or private",
            options=NOISE_MODES,
        ),
        SharedSetting("seed", "Noise", DEFAULT_SEED, _draw_seed, _seed_from_url),
        SharedSetting(
            "corpus",
            "Data",
            CORPUS_CHOICES[0],
            _draw_corpus,
            _option(CORPUS_CHOICES),
            link_rule="corpus must be chat, classroom, paper or upload",
            options=CORPUS_CHOICES,
        ),
    )
}
"""Every shared setting, in sidebar order."""
ALL_SETTINGS = tuple(SHARED_SETTINGS)
NEEDS_CORPUS = {"corpus", "delta"}  # δ's caption compares it with 1/(number of users)
DRAW_ORDER = {"corpus": 0, "noise": 1}  # the data loads the corpora (δ's caption needs them), an upload sets the noise
SEED_USES = {"seed": "noise"}  # a page that draws noise from the seed shows the noise mode too (issue 30)


def section_heading(section: str, uses: Iterable[str]) -> str:
    """A sidebar section's heading: "Privacy budget" only over ε or δ (the audit page shows the seed alone, issue 31
    item 12: its heading is "Randomness")."""
    return "Randomness" if section == "Privacy budget" and not {"eps", "delta"} & set(uses) else section


def legacy_data_choice(params: Mapping[str, str]) -> str | None:
    """The data choice a link from before issue 20 meant, or None for a current link.

    Then the data was ``corpus=sample|upload`` (default sample) and the sample's ``size=classroom|paper``
    (default classroom), and only values other than the defaults were in links: ``?size=paper`` meant the
    paper-size sample, ``?corpus=sample&size=classroom`` the classroom one, ``?corpus=upload`` (with any size)
    an upload. A link without either parameter opened the classroom sample then and opens the real chat now
    (the new default); an unknown size meant the classroom sample (with a warning), as it did then.
    """
    corpus, size = params.get("corpus"), params.get(LEGACY_SIZE)
    if size is None and corpus != LEGACY_CORPUS:
        return None
    if corpus in CORPUS_CHOICES:
        return corpus  # a current link with a stray size: the size is dropped
    if corpus not in (None, LEGACY_CORPUS):
        return None  # an unknown corpus: the link check warns about it
    return size if size in SAMPLE_SIZES else SAMPLE_SIZES[0]


def _translate_legacy_link() -> tuple[str | None, list[str]]:
    """Turn an old link's corpus/size into the data choice before any widget is drawn: the address bar's
    parameters are dropped (the radio then writes the new one) and the choice goes into session state.
    Returns (the choice or None, warnings)."""
    params = {k: st.query_params.get(k) for k in ("corpus", LEGACY_SIZE) if k in st.query_params}
    choice = legacy_data_choice(params)
    if choice is None:
        return None, []
    problems = []
    size = params.get(LEGACY_SIZE)
    if size is not None and size not in SAMPLE_SIZES and params.get("corpus") in (None, LEGACY_CORPUS):
        problems.append(
            f"The link asks for size={user_value(size, 40)}, which this app never offered (size must be classroom or "
            f"paper). Showing corpus={choice} instead."
        )
    for key in ("corpus", LEGACY_SIZE):
        forget_link_value(key)
    st.session_state["corpus"] = choice
    explicitly_set().add("corpus")
    return choice, problems


def _load_corpora(ctx: dict, choice: str, *, draw_panel: bool) -> None:
    """Put the private and public corpora and their labels into ``ctx`` (the upload panel when drawn)."""
    uploaded = None
    if choice == "upload":
        uploaded = upload_panel() if draw_panel else uploaded_corpus()
        if uploaded is None and draw_panel:  # never a silent fallback: shared_sidebar stops the page (issue 25)
            ctx["upload_missing"] = missing_upload_message()
    ctx.update(data_corpora(choice, uploaded=uploaded), data=choice)
    if ctx.get("upload_missing"):
        ctx["corpus_label"] = "no usable upload in this session"


# ------------------------------------------------------------------------------ what a page gets
@dataclass(frozen=True)
class SharedSettings:
    """What the sidebar returns to a page: the values of the settings it declared (others raise)."""

    uses: tuple[str, ...]
    values: Mapping[str, object]
    corpora: Mapping[str, object] = field(default_factory=dict)
    secret_seed: int | None = field(default=None, repr=False)  # private noise mode: this session's secret (issue 30)
    later: _EpsilonLater | None = field(default=None, repr=False, compare=False)  # ε drawn by the page's fragment

    def _get(self, key: str):
        if key not in self.uses:
            raise UndeclaredSetting(
                f"this page reads the shared setting {key!r} but does not declare it: "
                f"shared_sidebar(uses={self.uses + (key,)!r}); the sidebar hides it"
            )
        if key == "eps" and self.later is not None:
            raise UndeclaredSetting(
                "this page draws ε in its fragment (shared_sidebar(epsilon_fragment=True)): read ε from the "
                "settings that settings.with_epsilon(body) hands its body, never before it"
            )
        return self.values[key]

    def with_epsilon(self, body: Callable[[SharedSettings], None]) -> None:
        """Draw ε (in the sidebar, where it always is) and run ``body(settings)`` with it: everything on the page
        that depends on ε, so in an ``st.fragment`` — an ε move reruns and resends only the body and the parts of
        the sidebar that follow ε (the ε slider, the navigation links that carry it, the session budget), not the
        page above the body nor the rest of the sidebar (issue 29: ~1 ms of the browser's time per element resent).

        Without ``shared_sidebar(epsilon_fragment=True)`` — and in presenter mode, whose stage draws a second ε
        slider above the body, or while an upload is missing — ε was drawn with the other settings and ``body``
        runs as a plain function. Nothing the page draws outside ``body`` may read ε (``settings.epsilon`` raises
        there)."""
        later = self.later
        if later is None:
            body(self)
            return

        def release() -> None:
            eps = later.draw()
            body(replace(self, values={**self.values, "eps": eps}, later=None))

        st.fragment(release)()

    @property
    def epsilon(self) -> float:
        return float(self._get("eps"))

    @property
    def delta(self) -> float:
        return float(self._get("delta"))

    @property
    def seed(self) -> int:
        """The seed every noisy draw derives from: the public seed in reproducible mode, this session's secret in
        private mode (dpui.common.noise; never show or export it — exports drop it)."""
        public = int(self._get("seed"))
        return public if self.secret_seed is None else self.secret_seed

    @property
    def seed_text(self) -> str:
        """The seed as a page may show it: the public seed, or "secret" in private mode (never the secret itself)."""
        return "secret" if self.secret_seed is not None else str(self.seed)

    @property
    def noise(self) -> str:
        """The noise mode: "reproducible" (the seed is public) or "private" (a session secret; dpui.common.noise)."""
        return str(self._get("noise"))

    @property
    def data(self) -> str:
        """The data choice: "chat" (the default), "classroom", "paper" or "upload" (dpui.common.corpus_panel.DATA_CHOICES)."""
        return str(self._get("corpus"))

    def _corpus(self, what: str):
        self._get("corpus")
        return self.corpora[what]

    @property
    def private(self):
        """The private corpus (the real chat's private part, a synthetic sample, or an upload)."""
        return self._corpus("private")

    @property
    def public(self):
        """The public corpus (prior / vocabulary): the real chat's public part (also for an upload) or the
        synthetic public sample of the chosen size."""
        return self._corpus("public")

    @property
    def public_label(self) -> str:
        """What the public data is, in words (every page that names the public data says this)."""
        return self._corpus("public_label")

    @property
    def corpus_label(self) -> str:
        return self._corpus("corpus_label")

    def rng(self, *salt) -> np.random.Generator:
        """A generator seeded by the shared seed and a salt (e.g. ``("bayes", repetition)``).

        The same seed and salt always give the same draws, so a shared link reproduces the view (reproducible
        mode; in private mode the seed is the session's secret), and different parts of a page draw independent noise.
        """
        return rng_for(self.seed, *salt)


# ------------------------------------------------------------------------------ the sidebar
# link values (issue 34): one parser and one message for every setting, shown or hidden (dpui.common.link_values)
link_values.RULES.update(
    {
        s.key: s.link_rule + (f"; choices: {s.to_url(s.options[0])} … {s.to_url(s.options[-1])}" if s.options else "")
        for s in SHARED_SETTINGS.values()
        if s.link_rule
    }
)
link_values.RULES["seed"] = f"seed must be a whole number from 0 to {MAX_SEED}, written with the digits 0–9"


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
    if value is not None:
        return value
    if s.key not in explicitly_set():  # another page's own default is not this page's value
        shown = s.default
    else:
        shown = record.get(s.key, st.session_state.get(s.key, s.default))
    if raw is not None and raw != "":  # a link value this setting does not take: said, and out of the URL
        link_values.report(s.key, raw, s.to_url(shown))
        try:
            del st.query_params[s.key]
        except (KeyError, StreamlitAPIException):
            pass
    return shown


def _check_page_defaults(defaults: Mapping[str, object], uses: tuple[str, ...]) -> dict:
    defaults = dict(defaults or {})
    for key, value in defaults.items():
        s = SHARED_SETTINGS.get(key)
        if s is None or key not in uses or (s.options and value not in s.options):
            raise ValueError(
                f"defaults must give shown shared settings a value their widget offers, got {key}={value!r}"
            )
    return defaults


def _arrive(
    uses: tuple[str, ...], record: Mapping[str, object], defaults: Mapping[str, object], chosen: Mapping[str, object]
) -> dict:
    """First run on this page (a new session or a page switch): a value the link carries was set on purpose; a
    value an exercise or a preset wrote before the sidebar (``chosen``) stands; a setting this session set
    (``explicitly_set``) gets its last value back; any other starts at this page's default
    (``shared_sidebar(defaults=...)``), else at the global default. Returns the values set so (the shown settings
    the link does not carry)."""
    touched = explicitly_set()
    touched.update(k for k in SHARED_SETTINGS if k in st.query_params)
    intended = {}
    for key in uses:
        s = SHARED_SETTINGS[key]
        if key in st.query_params:
            continue
        if key in chosen:
            intended[key] = chosen[key]
        elif key in touched:
            _restore(s, record)
            intended[key] = record.get(key, s.default)
        else:
            st.session_state[key] = intended[key] = defaults.get(key, s.default)
    return intended


INSISTED = ("eps", "delta", "seed")
"""The shown settings :func:`_insist_on_arrival` gives back their arrival value."""
ARRIVAL_KEY = "_arrival_pending"
"""Session state: shown settings whose arrival value the widget did not take (the browser's Back, below)."""


def _insist_on_arrival(intended: Mapping[str, object], values: Mapping[str, object]) -> None:
    """Rerun once when a widget did not take the value :func:`_arrive` gave it (never twice in a row: the
    run after the rerun passes ``intended={}``, so a value that still differs stands rather than looping).

    The browser's Back button (issue 31 item 1) reruns the page with the widget values of the page left behind:
    Streamlit 1.67 takes the frontend's ε = 1 of the Bayesian page over the session value set before the slider,
    and the DP n-gram extraction page showed ε = 1 at its bare address although it opens at ε = 4. The values go
    into session state for the next run (applied before any widget, :func:`_apply_pending_arrival`), which then
    shows what a click on the navigation link shows."""
    # only the knobs the browser's Back restores from the page left behind; the data and the noise mode follow their
    # own rules on arrival (an upload switches the noise to private), which this must not undo
    missed = {k: v for k, v in intended.items() if k in INSISTED and values.get(k) != v}
    if missed:
        st.session_state[ARRIVAL_KEY] = missed
        st.rerun()


@dataclass(eq=False)
class _EpsilonLater:
    """What :func:`shared_sidebar` leaves to the page's fragment when ε is drawn there (``epsilon_fragment=True``):
    where ε goes in the sidebar, and the sidebar's steps that read ε — the arrival's check (the first draw only), the
    record of this page's values, the navigation links that carry them, the phone's ε slider and the session budget.
    Kept by the fragment between its reruns (the closure Streamlit stores), so a rerun redraws the same places."""

    page: str
    values: dict  # every shared value but ε, as this full run drew them
    intended: dict  # the arrival's values (checked by the first draw only: the full run's)
    budget_corpus: object
    box: object  # the sidebar container ε is drawn in
    nav: object  # the sidebar's navigation container
    phone: object  # the page body's first container: ε on a phone (dpui.common.presenter.phone_epsilon)
    drawn: bool = False

    def draw(self) -> float:
        """Draw ε and the sidebar's parts that follow it; return ε."""
        with self.box:
            eps = SHARED_SETTINGS["eps"].draw({})
        values = {**self.values, "eps": eps}
        if not self.drawn:  # the full run: the Back button may have given ε (or δ, the seed) another value
            self.drawn = True
            _insist_on_arrival(self.intended, values)
        last_page, record = st.session_state.get(RECORD_KEY, (None, {}))
        touched = explicitly_set()
        if last_page == self.page and "eps" in record and record["eps"] != eps:  # moved on this page
            touched.add("eps")
        with self.phone:  # (the budget and the navigation are drawn in the sidebar)
            _after_the_settings(
                self.page, values, touched, nav=self.nav, budget_corpus=self.budget_corpus, shows_eps=True
            )
        _defer(None)
        return eps


_PENDING = threading.local()  # per script thread: (this run's cursors, its _EpsilonLater not drawn yet)


def _this_run_cursors():
    ctx = get_script_run_ctx()
    return getattr(ctx, "cursors", None)


def _defer(later: _EpsilonLater | None) -> None:
    _PENDING.cursors, _PENDING.later = _this_run_cursors(), later


def draw_pending_epsilon() -> None:
    """Draw ε in place if this run's page deferred it to a fragment it has not reached (a page that stops with a
    message before its body: :func:`dpui.common.errors.user_errors` calls this first), so the sidebar keeps ε. Only
    this run's: one an earlier run left undrawn (it stopped otherwise) holds that run's containers."""
    later = getattr(_PENDING, "later", None)
    if later is not None and not later.drawn and _PENDING.cursors is _this_run_cursors() is not None:
        later.draw()


def _after_the_settings(page: str, values: dict, touched: set, *, nav, budget_corpus, shows_eps: bool) -> None:
    """What follows the shared values, ε included: the session budget of the releases seen on this corpus (issue
    21), the record of this page's values (the next page's arrival reads it), the navigation, whose links carry every
    value set on purpose that differs from its default (a page's own default stays on that page), and ε in the page
    body for a phone, where the sidebar is collapsed (issue 31)."""
    session_budget(budget_corpus)
    carried = {k: s.to_url(values[k]) for k, s in SHARED_SETTINGS.items() if values[k] != s.default and k in touched}
    st.session_state[RECORD_KEY] = (page, dict(values))
    with nav:
        sidebar_navigation(carried)
    if shows_eps:
        phone_epsilon(values["eps"], options=EPSILON_OPTIONS, format_func=format_number, label="ε (privacy loss)")


def shared_sidebar(
    uses: Iterable[str] = ALL_SETTINGS,
    *,
    defaults: Mapping[str, object] | None = None,
    epsilon_fragment: bool = False,
) -> SharedSettings:
    """Draw the sidebar (navigation, then the shared settings in ``uses``) and return the settings.

    Call it once at the top of every page, right after ``st.set_page_config``.

    ``defaults`` gives this page its own starting value of a shown shared setting (the DP n-gram extraction page
    opens at ε = 4, where its effect shows on the real chat): used while neither the link nor this session has
    set that setting, and never carried to other pages, which keep the global default. Once the user (or a link,
    an exercise, a preset) sets it, the value is shared as any other.
    """
    requested = set(uses)
    requested |= {SEED_USES[k] for k in requested & set(SEED_USES)}
    if requested - set(SHARED_SETTINGS):
        raise ValueError(
            f"uses must name shared settings {ALL_SETTINGS}, got {sorted(requested - set(SHARED_SETTINGS))}"
        )
    uses = tuple(k for k in ALL_SETTINGS if k in requested)
    defaults = _check_page_defaults(defaults, uses)
    _defer(None)
    link_values.install()  # every URL-bound widget's link value read by one rule (issue 34)
    link_values.begin_run()
    legacy, link_problems = _translate_legacy_link()  # before any widget
    start_janitor()  # gives back uploads and download files of ended sessions (dpui.common.uploads)
    page_style()
    page = _page_id()
    arrived = RECORD_KEY not in st.session_state
    last_page, record = st.session_state.get(RECORD_KEY, (page, {}))
    intended: dict = {}
    chosen = take_set_before_sidebar()  # an exercise's or a preset's values, written before this run's sidebar
    insisted = st.session_state.pop(ARRIVAL_KEY, None) is not None  # this run is the arrival's one rerun
    if arrived or last_page != page:  # a new session or another page: widgets may have lost their value on the way
        intended = _arrive(uses, record, defaults, chosen)
        if insisted:
            intended = {}
        previous = {}
    else:
        previous = record
    nav = st.sidebar.container(key="navigation")  # filled last: its links carry the final values
    # presenter mode and "Reset this page" (issue 31): a reset puts the page's opening values back
    presenter_controls(opening={k: defaults.get(k, s.default) for k, s in SHARED_SETTINGS.items()})
    boxes = {}
    for section in SECTIONS:
        if any(SHARED_SETTINGS[k].section == section for k in uses):
            boxes[section] = st.sidebar.container()
            boxes[section].markdown(f"### {section_heading(section, uses)}")
    ctx: dict = {}
    values: dict = {}
    if "corpus" not in uses:
        values["corpus"] = legacy or _hidden_value(SHARED_SETTINGS["corpus"], record)
        if NEEDS_CORPUS & set(uses):
            _load_corpora(ctx, values["corpus"], draw_panel=False)
    # the data first: δ's caption needs the number of users (the containers keep the sidebar's order)
    later_box = None
    for key in sorted(uses, key=lambda k: DRAW_ORDER.get(k, len(DRAW_ORDER))):
        with boxes[SHARED_SETTINGS[key].section]:
            if key == "eps" and epsilon_fragment and not presenting() and not ctx.get("upload_missing"):
                later_box = st.container()  # filled by the page's fragment (SharedSettings.with_epsilon)
                continue
            values[key] = SHARED_SETTINGS[key].draw(ctx)
    if later_box is None:
        _insist_on_arrival(intended, values)
    touched = explicitly_set()
    touched.update(k for k in uses if k in values and k in previous and values[k] != previous[k])  # moved here
    for key in ALL_SETTINGS:
        if key == "eps" and later_box is not None:
            continue
        if key not in values:
            values[key] = _hidden_value(SHARED_SETTINGS[key], record)
        if key not in uses:  # a hidden setting's value stays in the address bar too (copied links carry it)
            _back_into_address_bar(SHARED_SETTINGS[key], values[key])
    if uses:
        st.sidebar.caption("The address bar carries these settings: copy it to share this exact view.")
    budget_corpus = ctx.get("private") if "corpus" in uses else None  # the releases seen on this corpus (issue 21)
    later = None
    if later_box is not None:  # the page's fragment draws ε, then the parts of the sidebar that follow it
        later = _EpsilonLater(page, values, intended, budget_corpus, box=later_box, nav=nav, phone=st.container())
        _defer(later)
    else:
        _after_the_settings(page, values, touched, nav=nav, budget_corpus=budget_corpus, shows_eps="eps" in uses)
    link_values.show(link_problems)  # the link values not used so far; the page's knobs add theirs below
    if ctx.get("upload_missing"):
        st.warning(plain_text(ctx["upload_missing"]), icon="📄")
        st.stop()
    return SharedSettings(uses, values, ctx, session_secret() if values["noise"] == PRIVATE else None, later)
