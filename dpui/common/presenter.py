"""What a lecturer projects (issue 31): presenter mode and "Reset this page", drawn by the shared sidebar.

* **Presenter mode** — a switch on every page (widget key ``present``; in the address bar as ``present=1``, so a
  lecture link opens in it): larger type and charts for a projector, black on white, the development toolbar
  ("Deploy", the menu) hidden, explanations collapsed (:func:`explanation`). Charts read :func:`presenting` to
  draw larger fonts (``dpui.common.charts.show_figure``).
* **Reset this page** (button key ``reset_page``): the page's knobs go back to what a fresh visit shows, the
  shared ε, δ and seed to the page's opening values. The data choice stays (an upload is not thrown away), and
  so do the noise mode (a private view never turns reproducible by a reset) and presenter mode.

The switch is not a ``bind="query-params"`` widget: Streamlit would write ``present=true``; a lecturer types
``present=1``. Its value is read from the link once per session and written back as ``present=1`` (or dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

import streamlit as st

from dpui.common.state import explicitly_set, forget_link_value

__all__ = [
    "PRESENT_KEY",
    "RESET_KEY",
    "PHONE_EPS_KEY",
    "presenting",
    "presenter_controls",
    "phone_epsilon",
    "explanation",
    "PRESENTER_FONT",
    "Stage",
    "presenter_stage",
]

PRESENT_KEY = "present"
RESET_KEY = "reset_page"
_LINK_READ = "_present_link_read"
KEEP_ON_RESET = ("corpus", "noise", PRESENT_KEY)
"""URL parameters a reset keeps: the data (an upload stays), the noise mode (private stays private) and presenter
mode."""
PRESENTER_FONT = 20
"""Plotly's base font size in presenter mode (12 otherwise)."""

STYLE = """
<style>
/* presenter mode (dpui.common.presenter): a projector in a lit room needs big, black type and nothing else */
html { font-size: 20px; }
.stApp, .stApp p, .stApp li, .stApp label, [data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] *,
[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] * {
  color: #000000 !important;
}
[data-testid="stToolbar"], [data-testid="stAppDeployButton"], [data-testid="stMainMenu"],
[data-testid="stDecoration"], .modebar-container { display: none !important; }
.stMainBlockContainer { padding-top: 1.5rem; max-width: 100%; }
</style>
"""


def _truthy(raw: str | None) -> bool:
    return (raw or "").strip().lower() in ("1", "true", "yes", "on")


def presenting() -> bool:
    """True while this session is in presenter mode."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def page_fragment(body: Callable[[], None]) -> None:
    """Run ``body`` — a page's own knobs and everything they drive — as an ``st.fragment``: moving one of its knobs
    reruns and resends only the body, not the page above it nor the sidebar (issue 29; the pages whose knob is the
    sidebar's ε use :meth:`dpui.common.sidebar.SharedSettings.with_epsilon`). In presenter mode a plain call: the
    stage at the top of the page holds knobs the body draws."""
    if presenting():
        body()
    else:
        st.fragment(body)()


def _sync_address_bar() -> None:
    if presenting():
        st.query_params[PRESENT_KEY] = "1"
    elif PRESENT_KEY in st.query_params:
        del st.query_params[PRESENT_KEY]


OPENING_KEY = "_page_opening"
"""Session state: the shared settings' values a fresh visit of the current page shows (set by the sidebar)."""


def _reset(shared: tuple[str, ...]) -> None:
    """Put the shared settings back to the page's opening values and forget every page knob the address bar
    carries (but the data and presenter mode), so the next run shows the page as a fresh visit does.

    Runs as the button's callback, before the script: a bound widget's URL parameter cannot be deleted then,
    but a value written into session state before the widget is drawn is the widget's value (and Streamlit
    writes it into the address bar)."""
    opening = st.session_state.get(OPENING_KEY, {})
    for key in shared:
        if key in KEEP_ON_RESET or key not in opening:
            continue
        st.session_state[key] = opening[key]
    for key in list(st.query_params):
        if key in KEEP_ON_RESET or key in shared:
            continue
        forget_link_value(key)
        st.session_state.pop(key, None)
    explicitly_set().difference_update(k for k in shared if k not in KEEP_ON_RESET)


def presenter_controls(*, opening: dict) -> None:
    """The presenter switch and the reset button (in the sidebar), and presenter mode's style when it is on.

    ``opening`` maps the shared settings' keys to the values a fresh visit of this page shows (the reset puts
    them back)."""
    st.session_state[OPENING_KEY] = dict(opening)
    if not st.session_state.get(_LINK_READ):
        st.session_state[_LINK_READ] = True
        if PRESENT_KEY in st.query_params:
            st.session_state[PRESENT_KEY] = _truthy(st.query_params.get(PRESENT_KEY))
    with st.sidebar.container(key="presenter_controls"):
        st.toggle(
            "Presenter mode",
            key=PRESENT_KEY,
            help="For a projector: larger type and charts, black on white, explanations collapsed, no toolbar. "
            "In the address bar as present=1: a lecture link can open in it.",
        )
        st.button(
            "↺ Reset this page",
            key=RESET_KEY,
            on_click=_reset,
            args=(tuple(opening),),
            help="Back to what a fresh visit of this page shows (its knobs, and ε, δ and the seed at the page's "
            "opening values). The data choice and presenter mode stay.",
        )
    _sync_address_bar()
    if presenting():
        st.html(STYLE)


@contextmanager
def explanation(label: str = "How this works"):
    """A page's explanatory text: inline normally, in a collapsed expander in presenter mode."""
    if presenting():
        with st.expander(label, expanded=False):
            yield
    else:
        yield


PHONE_EPS_KEY = "eps_body"
PHONE_BOX = "phone_eps"
PHONE_WIDTH = 640
"""Below this many CSS pixels Streamlit collapses the sidebar: the page body then shows its own ε slider."""
PHONE_STYLE = f"""
<style>
/* ε in the page body on a phone only (dpui.common.presenter.phone_epsilon): the sidebar is collapsed there */
.st-key-{PHONE_BOX} {{ display: none; }}
@media (max-width: {PHONE_WIDTH}px) {{ .st-key-{PHONE_BOX} {{ display: block; }} }}
</style>
"""


def _from_body() -> None:
    st.session_state["eps"] = st.session_state[PHONE_EPS_KEY]


def _body_slider(value: float, *, options: tuple, format_func, label: str) -> None:
    st.session_state[PHONE_EPS_KEY] = value
    st.select_slider(label, options=options, format_func=format_func, key=PHONE_EPS_KEY, on_change=_from_body)


_STAGED_EPS = "_presenter_staged_eps"
"""Session state: the body ε slider's arguments of this run, kept for :func:`presenter_stage` in presenter mode."""


def phone_epsilon(value: float, *, options: tuple, format_func, label: str) -> None:
    """The page's main knob, ε, in the page body on a phone-width screen (issue 31), where the sidebar is collapsed.

    A second slider (key ``eps_body``, hidden by CSS on wider screens) that moves the sidebar's: its callback writes
    the sidebar slider's session value before the next run draws it, so the URL, the budget and every page see one
    ε. Draw it after the sidebar (``value`` is the sidebar's ε of this run).

    In presenter mode the same slider is drawn instead, at every width, beside the page's main chart by
    :func:`presenter_stage` (which every page under pages/ calls under its title); the Home page, which has no chart
    and draws no stage, then offers ε in the sidebar only."""
    args = dict(value=value, options=options, format_func=format_func, label=label)
    if presenting():
        st.session_state[_STAGED_EPS] = args
        return
    st.session_state.pop(_STAGED_EPS, None)
    st.html(PHONE_STYLE)
    with st.container(key=PHONE_BOX):
        _body_slider(**args)


# ------------------------------------------------------------------------------ the main chart first (issue 31)
STAGE_KEY = "presenter_stage"
"""The container (its element key) at the top of a page's body that holds, in presenter mode, the page's main chart
and beside it ε and at most one page knob."""
STAGE_WIDTHS = (3, 1)
"""The chart's and the knobs' column widths on the stage."""


class Stage:
    """Where a page draws its main chart and its one or two knobs: on the stage at the top of the body in presenter
    mode, in their usual places otherwise (an inactive stage changes nothing).

    ``knob(default)``: the container to draw the page's presenter knob with (``stage.knob(c1).slider(...)``);
    ``chart(badges)``: a context for the main chart (the first one drawn with it; later ones stay where they are),
    with the guarantees of the releases it shows as one line of badges above it."""

    def __init__(self, chart=None, knobs=None):
        self.active = chart is not None
        self._chart, self._knobs, self._used = chart, knobs, False

    def knob(self, default):
        return self._knobs if self.active else default

    @contextmanager
    def chart(self, badges=()):
        if not self.active or self._used:
            yield
            return
        self._used = True
        with self._chart:
            badge_line(badges)
            yield


def badge_line(badges) -> None:
    """The guarantees ``badges`` ((Guarantee, name) pairs) as one line of chips, one per distinct guarantee (the
    releases that share it named together): colour, icon and words from dpui.common.charts, the same as their full badges
    elsewhere on the page, which keep the tooltips."""
    from dpui.common.charts import (  # dpui.common.charts reads presenting() from here
        BADGE_COLOURS,
        badge_text,
        guarantee_icon,
    )
    from dpui.common.noise import DEMONSTRATION, REPRODUCIBLE, noise_mode

    same: dict = {}  # releases with the same guarantee share a chip (a projector's line holds few words)
    for g, name in badges:
        same.setdefault((g.colour, g.words), (g, []))[1].append(name)
    chips = [
        f":{BADGE_COLOURS[g.colour]}-badge[{guarantee_icon(g)} {_escape(badge_text(g, name=', '.join(names)))}]"
        for g, names in same.values()
    ]
    if chips and noise_mode() == REPRODUCIBLE:  # as every full badge says (dpui.common.noise.demonstration_chip)
        chips.append(f":gray-badge[🎭 {_escape(DEMONSTRATION)}]")
    if chips:
        st.markdown(" ".join(chips))


def _escape(words: str) -> str:
    return words.replace("[", "(").replace("]", ")").replace("$", "\\$")


def presenter_stage() -> Stage:
    """Call under the page's title: in presenter mode, a container there with the main chart's column and beside it
    the knobs' column, ε first (the body ε slider of :func:`phone_epsilon`, moving the sidebar's: one ε); outside
    presenter mode nothing is drawn and the stage is inactive."""
    if not presenting():
        return Stage()
    box = st.container(key=STAGE_KEY)
    chart, knobs = box.columns(STAGE_WIDTHS)
    staged = st.session_state.pop(_STAGED_EPS, None)
    if staged is not None:
        with knobs:
            _body_slider(**staged)
    return Stage(chart, knobs)
