"""Exercise mode: the lecture exercises of a page, checked in place (issue 13). No maths here.

One call per page, after ``st.set_page_config`` and **before** ``shared_sidebar()`` and the page's
widgets::

    exercise_mode("1_Mechanisms_101")

What it does:

* ``?exercise=<id>`` in the address bar (a lecturer's deep link) opens the page at the exercise's
  settings: the values are written into ``st.session_state`` under the widgets' keys before the widgets
  are drawn (Streamlit 1.67: a value set in session state before a keyed widget is created is the
  widget's value; for ``bind="query-params"`` widgets a URL parameter of the same key would win on the
  first load, so those parameters are dropped from the URL first). The settings are applied once per
  exercise and session, so the student can move the sliders afterwards.
* The question is shown on top with an answer box (number input or radio) and a **Check** button;
  after a wrong try the first hint (then the second), the worked solution on request, and a link to
  the next exercise.
* An "Exercises" expander lists the page's exercises (✅ solved) with buttons to open them, and the
  download buttons for the printable sheets (this page / all pages; Markdown / HTML; student /
  lecturer).
* Progress (tries, solved, solution shown) lives in ``st.session_state`` only, never on disk: it lasts while
  the tab stays open and starts afresh on a reload (the panel says so).
* While an exercise is open and unanswered, the page elements that state its answer (:data:`SPOILERS`) show
  a placeholder (:func:`answer_hidden`, :func:`spoiler`).
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

import streamlit as st

from dpcore.lab import exercises as _exercises
from dpcore.lab.exercises import CHOICE, Exercise
from dpui.common.errors import plain_text, user_value
from dpui.common.exercise_keys import widget_settings
from dpui.common.exercise_sheets import exercise_link, exercise_sheet, sheet_filename
from dpui.common.noise import NOISE_KEY, REPRODUCIBLE
from dpui.common.state import explicitly_set, forget_link_value, set_before_sidebar
from dpui.common.lazy import lazy_expander

__all__ = [
    "exercise_mode",
    "EXERCISE_PARAM",
    "PROGRESS_KEY",
    "APPLIED_KEY",
    "SPOILERS",
    "answer_hidden",
    "spoiler",
    "HIDDEN",
]

EXERCISE_PARAM = "exercise"
PROGRESS_KEY = "_exercise_progress"
APPLIED_KEY = "_exercise_applied"
_DEFAULT_BASE = "http://localhost:8501"
PUBLIC_URL_ENV = "DPCORE_PUBLIC_URL"
"""The address students open (e.g. ``http://dp-class.example.org:8501``): the sheets' and deep links point there.
``deploy/serve_class.py`` sets it for its processes (``--public-url``, default: this machine's name and port)."""
BASE_URL_KEY = "exercise_base_url"
"""Widget key of the sheets' "address your students open" box (overrides :data:`PUBLIC_URL_ENV` for this tab)."""


SPOILERS: dict[str, tuple[str, ...]] = {
    "m101-loss-b2": ("m101_worst_loss", "reviewer_panel"),
    "m101-prove-backwards": ("m101_scale_b",),
    "m101-debt-which-pair": ("m101_debt_worst_case", "reviewer_panel"),
    "m101-debt-outlier-loss": ("m101_debt_worst_case", "reviewer_panel"),
    "m101-exp-small-du": ("m101_exp_ratio", "reviewer_panel"),
    "bayes-full-weight": ("bayes_full_weight_users",),
    "bayes-strict-vs-local": ("bayes_strict_local_ratio",),
    "topicdp-strict-vs-thesis": ("topicdp_story_ratio",),
    "topicdp-vips-vs-thesis": ("topicdp_vips_equivalent",),
}
"""Exercise id → the page elements that state its answer at the exercise's own settings (issue 24 item 5: the
metric "worst |L(y)| 0.5" answered m101-loss-b2). While the exercise is open and neither solved nor its solution
shown, the page draws a placeholder instead (:func:`answer_hidden`, :func:`spoiler`). Exercises that send the
student to read a number off the page (an audit's ε_lower, σ_k in the budget expander) list nothing;
tests/test_app_exercises.py checks that no other answer is readable."""
HIDDEN = "🙈 hidden until you answer"
"""What a hidden element shows instead of the answer."""


def answer_hidden(name: str) -> bool:
    """True while the open exercise's answer is what the page element ``name`` shows and it is unanswered."""
    ex_id = st.session_state.get(APPLIED_KEY)
    if not ex_id or name not in SPOILERS.get(ex_id, ()) or st.query_params.get(EXERCISE_PARAM) != ex_id:
        return False
    prog = st.session_state.get(PROGRESS_KEY, {}).get(ex_id, {})
    return not (prog.get("solved") or prog.get("solution"))


def spoiler(name: str, value: str) -> str:
    """``value``, or :data:`HIDDEN` while the open exercise asks for it (:func:`answer_hidden`)."""
    return HIDDEN if answer_hidden(name) else value


def _progress(ex_id: str) -> dict:
    store = st.session_state.setdefault(PROGRESS_KEY, {})
    return store.setdefault(ex_id, {"tries": 0, "solved": False, "solution": False, "last": None})


def _as_base(url: str | None) -> str | None:
    """``scheme://host[:port]`` of an http(s) address, or None if ``url`` is not one."""
    parts = urlparse((url or "").strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def is_local_address(url: str) -> bool:
    """True for an address only this machine can open (localhost, 127.x, ::1, 0.0.0.0)."""
    host = (urlparse(url).hostname or "").lower()
    return host in ("localhost", "::1", "0.0.0.0") or host.startswith("127.")


def _served_url() -> str:
    """The deployment's public address (:data:`PUBLIC_URL_ENV`), else the address this browser opened, else
    :data:`_DEFAULT_BASE`."""
    env = _as_base(os.environ.get(PUBLIC_URL_ENV))
    if env:
        return env
    try:
        url = st.context.url
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        url = None
    parts = urlparse(url or "")
    if parts.scheme and parts.netloc:
        return f"{parts.scheme}://{parts.netloc}"
    return _DEFAULT_BASE


def _base_url() -> str:
    """Where the links of this tab's sheets and deep links point: the address typed in the sheets' box, else
    :func:`_served_url`."""
    return _as_base(st.session_state.get(BASE_URL_KEY)) or _served_url()


_forget_link_value = forget_link_value  # (moved to dpui.common.state: the sidebar's old-link translation uses it too)


def apply_settings(ex: Exercise) -> None:
    """Write the exercise's widget values into session state (and drop clashing URL parameters). An exercise
    that depends on data names its corpus (``corpus``: the sidebar's data choice, e.g. chat or classroom)."""
    values = widget_settings(ex)  # dpcore parameter names → this page's widget keys
    for key, value in values.items():
        _forget_link_value(key)
        st.session_state[key] = value
        explicitly_set().add(key)  # a shared setting the exercise sets travels to the other pages
    set_before_sidebar(values)  # the sidebar's arrival keeps them (it does not give back the last page's values)
    _forget_link_value(NOISE_KEY)  # an exercise's answers are computed at its public seed (issue 30)
    st.session_state[NOISE_KEY] = REPRODUCIBLE
    explicitly_set().add(NOISE_KEY)
    st.session_state[APPLIED_KEY] = ex.id
    st.query_params[EXERCISE_PARAM] = ex.id


def _open(ex_id: str) -> None:
    """Button callback: open an exercise of this page (runs before the script, so before the widgets)."""
    apply_settings(_exercises.exercise(ex_id))


def _leave() -> None:
    st.session_state.pop(APPLIED_KEY, None)
    if EXERCISE_PARAM in st.query_params:
        del st.query_params[EXERCISE_PARAM]


@st.cache_data(show_spinner=False, max_entries=64)
def _sheet(page: str | None, lecturer: bool, fmt: str, base_url: str, data_version: str) -> str:
    exs = _exercises.exercises_for_page(page) if page else _exercises.all_exercises()
    return exercise_sheet(exs, lecturer=lecturer, fmt=fmt, base_url=base_url)


@st.cache_data(show_spinner="Computing the exercise …", max_entries=128)
def _solved(ex_id: str, data_version: str):
    """The exercise's solution, cached per data version (a corpus-dependent answer costs a few 100 ms)."""
    return _exercises.exercise(ex_id).solved()


def _question_panel(ex: Exercise, version: str) -> None:
    prog = _progress(ex.id)
    try:
        sol = _solved(ex.id, version)
    except ValueError as exc:  # e.g. TopicDP draws missing for this corpus
        st.error(f"Exercise “{ex.title}” cannot be computed here: {plain_text(exc)}", icon="⚠️")
        return
    with st.container(border=True, key=f"exercise_panel_{ex.id}"):
        st.markdown(f"### 📝 Exercise: {ex.title}")
        st.markdown(ex.question_text(sol))
        answer_key = f"exercise_answer_{ex.id}"
        with st.form(key=f"exercise_form_{ex.id}", border=False):
            if ex.kind == CHOICE:
                response = st.radio(
                    "Your answer",
                    range(len(sol.options)),
                    index=None,
                    key=answer_key,
                    format_func=lambda i: f"{chr(ord('a') + i)}) {sol.options[i]}",
                )
            else:
                response = st.number_input(
                    f"Your answer{f' ({ex.unit})' if ex.unit else ''}",
                    value=None,
                    format="%.6g",
                    key=answer_key,
                    placeholder="type a number",
                )
            checked = st.form_submit_button("Check", type="primary")
        if checked:
            if response is None:
                st.session_state[f"exercise_empty_{ex.id}"] = True
            else:
                st.session_state.pop(f"exercise_empty_{ex.id}", None)
                prog["tries"] += 1
                ok = ex.check(response, sol)
                prog["last"] = "right" if ok else "wrong"
                prog["solved"] = prog["solved"] or ok
        if st.session_state.get(f"exercise_empty_{ex.id}"):
            st.info("Enter an answer first.", icon="✏️")
        elif prog["last"] == "right":
            st.success(f"Right — {ex.format_answer(sol)}.", icon="✅")
        elif prog["last"] == "wrong":
            hints = ex.hint_texts(sol)
            shown = hints[: min(prog["tries"], len(hints))]
            st.warning("Not quite. " + " ".join(f"**Hint {i + 1}:** {h}" for i, h in enumerate(shown)), icon="💡")
        c1, c2, c3 = st.columns([1, 1, 2])
        if c1.button("Show the solution", key=f"exercise_show_{ex.id}"):
            prog["solution"] = True
        if prog["solution"]:
            st.markdown(f"**Solution.** {ex.solution_text(sol)}")
        if c2.button("Leave exercise mode", key=f"exercise_leave_{ex.id}", on_click=_leave):
            pass
        nxt = _exercises.next_exercise(ex.id)
        with c3:
            if nxt is None:
                st.caption("This is the last exercise.")
            elif nxt.page == ex.page:
                st.button(f"Next exercise: {nxt.title} →", key=f"exercise_next_{ex.id}", on_click=_open, args=(nxt.id,))
            else:
                _page_link(nxt, f"Next exercise (next page): {nxt.title} →")
        st.caption(f"Opened at: {ex.settings_text()}. Deep link: `{exercise_link(ex, _base_url())}`")


def _page_link(ex: Exercise, label: str) -> None:
    try:
        st.page_link(f"pages/{ex.page}.py", label=label, query_params={EXERCISE_PARAM: ex.id})
    except Exception:  # noqa: BLE001 - page not registered under that path (e.g. st.navigation layout)
        st.markdown(f"[{label}]({exercise_link(ex, _base_url())})")


LIST_KEY = "exercise_list"
"""The widget key of the "Exercises on this page" expander (open: its list and the printable sheets are drawn)."""


def _list_and_sheets(page: str, exs: tuple[Exercise, ...], active: str | None, version: str) -> None:
    store = st.session_state.get(PROGRESS_KEY, {})
    box = lazy_expander(f"📝 Exercises on this page ({len(exs)})", key=LIST_KEY)
    if box is None:  # lazy (issue 29 item 4): the list and its 8 sheet buttons are built only while open
        return
    with box:
        for i, ex in enumerate(exs):
            done = store.get(ex.id, {}).get("solved")
            a, b = st.columns([5, 1])
            a.markdown(
                f"{'✅' if done else '▫️'} **{i + 1}. {ex.title}**" + (" — open above" if ex.id == active else "")
            )
            b.button("Open", key=f"exercise_open_{ex.id}", on_click=_open, args=(ex.id,), disabled=ex.id == active)
        solved = sum(1 for ex in exs if store.get(ex.id, {}).get("solved"))
        st.caption(
            f"Solved so far: {solved} of {len(exs)} (kept while this tab stays open; reloading the page "
            "starts afresh, and nothing is stored on disk)."
        )
        st.markdown(
            "**Printable sheets** (questions and deep links; the lecturer's version adds answers and worked solutions)"
        )
        served = _served_url()
        typed = st.text_input(
            "Address your students open (the sheets' links point there)",
            key=BASE_URL_KEY,
            placeholder=served,
            help=f"Leave empty for {served}. A class served with deploy/serve_class.py fills this in from its "
            "--public-url; elsewhere set the environment variable DPCORE_PUBLIC_URL before starting the app.",
        )
        if typed and _as_base(typed) is None:
            st.warning(
                f"“{user_value(typed, 60)}” is not an http(s) address (e.g. http://dp-class.example.org:8501): "
                f"the links use {served}.",
                icon="🔗",
            )
        base = _base_url()
        if is_local_address(base):
            st.warning(
                f"The links point to {base}, an address of this machine only: on a hand-out, students cannot "
                "open them. Type the address they use above.",
                icon="🔗",
            )
        for scope in (page, None):
            st.caption("This page" if scope else "All pages")
            cols = st.columns(4)
            n = 0
            for lecturer in (False, True):
                for fmt in ("markdown", "html"):
                    who = "lecturer" if lecturer else "student"
                    label = f"{'Lecturer' if lecturer else 'Student'} ({'Markdown' if fmt == 'markdown' else 'HTML'})"
                    cols[n].download_button(
                        label,
                        data=lambda s=scope, l=lecturer, f=fmt: _sheet(s, l, f, base, version),
                        file_name=sheet_filename(scope, lecturer=lecturer, fmt=fmt),
                        mime="text/markdown" if fmt == "markdown" else "text/html",
                        on_click="ignore",
                        key=f"exercise_sheet_{scope or 'all'}_{who}_{fmt}",
                        width="stretch",
                    )
                    n += 1


def exercise_mode(page: str) -> Exercise | None:
    """Exercise mode for ``page`` (its file name without .py). Call before the sidebar and page widgets.

    Returns the open exercise (or None).
    """
    exs = _exercises.exercises_for_page(page)
    if not exs:
        return None
    version = _exercises.data_version()
    requested = st.query_params.get(EXERCISE_PARAM)
    active: Exercise | None = None
    if requested:
        try:
            ex = _exercises.exercise(requested)
        except ValueError:
            st.warning(
                f"The link asks for exercise “{user_value(requested, 40)}”, which does not exist. The page's "
                "exercises are listed below.",
                icon="🔗",
            )
        else:
            if ex.page != page:
                st.warning(f"Exercise “{ex.title}” belongs to another page.", icon="🔗")
                _page_link(ex, f"Open it on its page: {ex.title} →")
            else:
                if st.session_state.get(APPLIED_KEY) != ex.id:
                    apply_settings(ex)
                active = ex
    if active is not None:
        _question_panel(active, version)
    _list_and_sheets(page, exs, active.id if active else None, version)
    return active
