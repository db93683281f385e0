"""Exercise mode in the app (issue 13): deep links set the widgets, answers are checked in place.

Every exercise is opened on its real page with ``?exercise=<id>`` (every page calls
``dpui.common.exercises.exercise_mode`` itself).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore.lab.exercises import CHOICE
from dpui.common.exercise_keys import widget_settings
from dpui.common.exercises import APPLIED_KEY, LIST_KEY, PROGRESS_KEY

ROOT = Path(__file__).resolve().parent.parent
PROBE = ROOT / "tests" / "exercise_pages" / "m101_probe.py"
ALL = dpcore.lab.exercises.all_exercises()
WIDGET_KINDS = ("select_slider", "slider", "radio", "number_input", "selectbox", "toggle", "checkbox", "multiselect")


def _app(page: str) -> AppTest:
    path = ROOT / "pages" / f"{page}.py"
    assert "exercise_mode(" in path.read_text(encoding="utf-8"), f"pages/{page}.py does not call exercise_mode"
    return AppTest.from_file(str(path), default_timeout=300)


def widget(at: AppTest, key: str):
    for kind in WIDGET_KINDS:
        try:
            return getattr(at, kind)(key=key)
        except KeyError:
            continue
    raise AssertionError(f"no widget with key {key!r} on the page")


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12)
    return a == b


def _answer_widget(at: AppTest, ex):
    key = f"exercise_answer_{ex.id}"
    return at.radio(key=key) if ex.kind == CHOICE else at.number_input(key=key)


def _check(at: AppTest, ex, value) -> AppTest:
    _answer_widget(at, ex).set_value(value)
    at.button(key=f"FormSubmitter:exercise_form_{ex.id}-Check").click()
    return at.run()


def _wrong(ex):
    ans = ex.answer()
    if ex.kind == CHOICE:
        return (ans + 1) % len(ex.options())
    wrong = 2 * ans + 1
    assert not ex.check(wrong)
    return wrong


@pytest.mark.slow
@pytest.mark.parametrize("ex", ALL, ids=[ex.id for ex in ALL])
def test_deep_link_sets_widgets_and_checks_answers(ex):
    at = _app(ex.page)
    at.query_params["exercise"] = ex.id
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []
    for key, value in widget_settings(ex).items():
        assert _same(widget(at, key).value, value), (
            f"{key}: widget shows {widget(at, key).value!r}, link says {value!r}"
        )
    sol = ex.solved()
    assert ex.question_text(sol) in [m.value for m in at.markdown]  # the question is on the page

    at = _check(at, ex, _wrong(ex))
    warnings = " ".join(w.value for w in at.warning)
    assert "Not quite" in warnings and "Hint 1" in warnings, warnings
    assert ex.hint_texts(sol)[0] in warnings
    assert not at.session_state[PROGRESS_KEY][ex.id]["solved"]

    at = _check(at, ex, ex.answer())
    assert any("Right" in s.value for s in at.success), [s.value for s in at.success]
    progress = at.session_state[PROGRESS_KEY][ex.id]
    assert progress["solved"] and progress["tries"] == 2
    for key, value in widget_settings(ex).items():  # the reruns did not move the widgets
        assert _same(widget(at, key).value, value)


# ---------------------------------------------------------------------------- answers not given away (issue 24 item 5)
READ_OFF = {
    "dpne-sigma-per-length": "the question sends the student to the budget expander that lists σ_k",
    "audit-break-laplace": "running the audit and reading its ε_lower is the exercise",
    "audit-exponential-small-du": "running the audit and reading its ε_lower is the exercise",
    "m101-largest-ratio": "the answer e^(Δ/b) at b = 1 equals the e^ε the page states as the bound at ε = 1",
}
"""Exercises whose answer may be read on the page, and why."""


def _other_tabs(page: str) -> list[tuple[str, str]]:
    """(tabs' key, label) of every tab a page does not open by default: lazy tabs (issue 24) draw only the open
    one, so the answer check opens each of them too."""
    if page == "2_Bayesian_ngram_DP":
        from dpui.bayesian.views import TAB_KEY, TABS

        return [(TAB_KEY, label) for label in TABS[1:]]
    if page == "1_Mechanisms_101":
        from dpui.m101.views import TAB_KEY, TABS
    elif page == "3_DP_ngram_extraction":
        from dpui.dpne.views import TAB_KEY, TABS
    elif page == "4_TopicDP":
        from dpui.topicdp import views as v

        TAB_KEY, TABS = v.TAB_KEY, (v.WORDS, v.CURVES, v.SENSITIVITIES, v.PROMPTS, v.VIPS)
    else:
        return []
    return [(TAB_KEY, label) for label in TABS]  # an exercise may open another tab than the first: every one


def _page_texts(at: AppTest, ex_id: str) -> list[str]:
    """Every text, metric, alert and table cell on the page, outside the exercise's own panel and the list of
    exercises (charts are pictures; their Numbers tables are in: the lazy ones are opened first)."""
    out: list[str] = []
    closed = [e for e in at.expander if e.label.startswith("Numbers — ") and not e.dataframe]
    for e in closed:
        at.session_state[e.proto.id.split("-", 2)[2]] = True
    if closed:
        at.run()
        assert not at.exception, [e.message for e in at.exception]

    def walk(node):
        for child in getattr(node, "children", {}).values():
            proto_id = getattr(getattr(child, "proto", None), "id", "") or ""
            if isinstance(proto_id, str) and proto_id.endswith(f"exercise_panel_{ex_id}"):
                continue
            if getattr(child, "type", "") == "expandable" and "Exercises on this page" in str(child.label):
                continue
            kind = getattr(child, "type", "")
            if kind == "metric":
                out.append(f"{child.label}: {child.value} {child.delta or ''}")
            elif kind in ("markdown", "caption", "alert", "text", "latex") or kind in ("warning", "success", "info"):
                out.append(str(child.value))
            elif kind in ("arrow_data_frame", "table"):
                frame = child.value
                out.extend([str(c) for c in frame.columns] + [str(v) for v in frame.to_numpy().ravel()])
            walk(child)

    walk(at._tree)
    return out


def _answer_forms(ans: float) -> set[str]:
    forms = {f"{ans:.3g}", f"{ans:.4g}"} | ({f"{ans:,.0f}"} if float(ans).is_integer() else set())
    return {f for f in forms if len(f) >= 2}  # "2" alone is everywhere


@pytest.mark.slow
@pytest.mark.parametrize("ex", [e for e in ALL if e.kind != CHOICE], ids=[e.id for e in ALL if e.kind != CHOICE])
def test_answer_is_not_on_the_page_while_the_exercise_is_open(ex):
    """The metric "worst |L(y)| 0.5" answered m101-loss-b2 at its own settings, "The strict σ is 33.7 ×" answered
    bayes-strict-vs-local: while an exercise is open and unanswered, its answer is not written on the page."""
    import re

    at = _app(ex.page)
    at.query_params["exercise"] = ex.id
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    if ex.id in READ_OFF:
        return
    texts = _page_texts(at, ex.id)
    for key, label in _other_tabs(ex.page):
        at.session_state[key] = label
        at.query_params[key] = label  # a tab bound to the URL: the link's value would win over the session's
        at.run()
        assert not at.exception, [e.message for e in at.exception]
        texts += _page_texts(at, ex.id)
    for form in _answer_forms(ex.answer()):
        # a number on its own, not part of another number or of a word (a commit hash "8418342f49ce" holds "49")
        pattern = re.compile(r"(?<![\w.,])" + re.escape(form) + r"(?![\w]|\.\d)")
        shown = [t for t in texts if pattern.search(t)]
        assert not shown, f"{ex.id}: the answer {form} is on the page: {shown[:3]}"


def test_hidden_elements_come_back_once_answered():
    from dpui.common.exercises import HIDDEN

    ex = dpcore.lab.exercises.exercise("m101-loss-b2")
    at = _app(ex.page)
    at.query_params["exercise"] = ex.id
    at.run()
    metric = lambda: next(m for m in at.metric if m.label == "worst |L(y)| = Δ/b")
    assert metric().value == HIDDEN
    assert any(HIDDEN in e.label for e in at.expander if "Reviewer's panel" in e.label)
    at = _check(at, ex, _wrong(ex))
    assert metric().value == HIDDEN  # a wrong try does not reveal it
    at = _check(at, ex, ex.answer())
    assert metric().value == "0.5"
    assert not any(HIDDEN in e.label for e in at.expander)
    ex = dpcore.lab.exercises.exercise("m101-prove-backwards")  # answer b = 2: too short for the generic search
    at = _app(ex.page)
    at.query_params["exercise"] = ex.id
    at.run()
    assert next(m for m in at.metric if m.label == "scale b").value == HIDDEN
    charts = at.get("plotly_chart") + at.get("vega_lite_chart")  # the loss chart is Vega-Lite (issue 29)
    assert charts and not any("b = 2" in str(c.proto.spec) for c in charts)
    ex = dpcore.lab.exercises.exercise("m101-debt-which-pair")  # a choice: the worst-case pair is the answer
    at = _app(ex.page)
    at.query_params["exercise"] = ex.id
    at.run()
    assert not any("10,000,000}" in t for t in _page_texts(at, ex.id)), "the outlier pair is named on the page"
    at.button(key=f"exercise_show_{ex.id}").click().run()  # asking for the solution reveals it too
    assert any("10,000,000}" in t for t in _page_texts(at, ex.id))


def test_progress_wording_says_what_happens_on_reload():
    """The panel said progress was "kept in this browser session" but a reload starts a new session."""
    at = _probe()
    caption = next(c.value for c in at.caption if c.value.startswith("Solved so far"))
    assert "reloading the page starts afresh" in caption and "browser session" not in caption
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Progress is kept in the browser session only" not in readme and "reload" in readme


# ---------------------------------------------------------------------------- the component on a probe page


def _probe(exercise: str | None = None) -> AppTest:
    at = AppTest.from_file(str(PROBE), default_timeout=120)
    if exercise:
        at.query_params["exercise"] = exercise
    at.session_state[LIST_KEY] = True  # the list is lazy (issue 29): open, as a click on it does
    return at.run()


def test_exercise_list_is_built_only_when_opened():
    """Issue 29 item 4: the closed "Exercises on this page" expander sent 57 elements (its list, eight sheet
    buttons) on every ε move; closed it holds nothing, opened it lists the page's exercises."""
    at = AppTest.from_file(str(PROBE), default_timeout=120).run()
    (box,) = [e for e in at.expander if "Exercises on this page" in e.label]
    assert not box.children and not any(b.key.startswith("exercise_open_") for b in at.button if b.key)
    at.session_state[LIST_KEY] = True
    at.run()
    assert any(b.key.startswith("exercise_open_") for b in at.button if b.key)


def test_probe_without_link_lists_exercises_and_sheets():
    at = _probe()
    assert not at.exception
    page_ex = dpcore.lab.exercises.exercises_for_page("1_Mechanisms_101")
    opens = [b for b in at.button if b.key and b.key.startswith("exercise_open_")]
    assert [b.key for b in opens] == [f"exercise_open_{ex.id}" for ex in page_ex]
    sheets = [d for d in at.get("download_button")]
    assert len(sheets) == 8
    assert at.select_slider(key="eps").value == 1.0  # nothing applied without a link
    assert APPLIED_KEY not in at.session_state


def test_open_button_applies_settings_and_student_can_move_on():
    at = _probe()
    at.select_slider(key="eps").set_value(3.0).run()
    at.button(key="exercise_open_m101-prove-backwards").click().run()
    assert at.select_slider(key="eps").value == 0.5
    assert at.radio(key="m101_scale_mode").value == "from ε"
    assert (
        at.query_params["exercise"] == ["m101-prove-backwards"] or at.query_params["exercise"] == "m101-prove-backwards"
    )
    # the student moves the slider: the exercise does not force it back
    at.select_slider(key="eps").set_value(2.0).run()
    assert at.select_slider(key="eps").value == 2.0
    assert not at.exception


def test_link_overrides_clashing_url_values_and_next_and_leave():
    at = AppTest.from_file(str(PROBE), default_timeout=120)
    at.query_params["exercise"] = "m101-loss-b2"
    at.query_params["m101_b"] = "7.5"  # a stale knob in the link must not beat the exercise's value
    at.run()
    assert at.slider(key="m101_b").value == 2.0 and at.radio(key="m101_scale_mode").value == "by hand"
    nxt = dpcore.lab.exercises.next_exercise("m101-loss-b2")
    at.button(key="exercise_next_m101-loss-b2").click().run()
    assert at.session_state[APPLIED_KEY] == nxt.id
    for key, value in widget_settings(nxt).items():
        assert _same(widget(at, key).value, value)
    at.button(key=f"exercise_show_{nxt.id}").click().run()
    assert any(m.value.startswith("**Solution.**") for m in at.markdown)
    at.button(key=f"exercise_leave_{nxt.id}").click().run()
    assert "exercise" not in at.query_params
    assert not any(b.key == f"exercise_show_{nxt.id}" for b in at.button)


def test_empty_answer_asks_for_one_and_counts_no_try():
    at = _probe("m101-loss-b2")
    at.button(key="FormSubmitter:exercise_form_m101-loss-b2-Check").click().run()
    assert any("Enter an answer" in i.value for i in at.info)
    assert at.session_state[PROGRESS_KEY]["m101-loss-b2"]["tries"] == 0


def test_unknown_or_foreign_exercise_is_explained():
    at = _probe("no-such-thing")
    assert any("does not exist" in w.value for w in at.warning)
    at = _probe("dpne-noise-decay")  # belongs to another page
    assert any("another page" in w.value for w in at.warning)
    assert at.select_slider(key="eps").value == 1.0  # nothing applied from a foreign exercise


def _deep_link_captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if "Deep link:" in c.value]


def test_sheet_links_warn_on_a_local_address_and_take_the_typed_one(monkeypatch):
    # issue 31 item 9: a hand-out that links to http://localhost:… is useless to a student
    monkeypatch.delenv("DPCORE_PUBLIC_URL", raising=False)
    at = _probe("m101-loss-b2")
    assert any("address of this machine only" in w.value for w in at.warning)
    assert all("http://localhost:8501/" in c for c in _deep_link_captions(at)) and _deep_link_captions(at)
    at.text_input(key="exercise_base_url").set_value("https://dp-class.example.org/course/").run()
    captions = _deep_link_captions(at)
    assert captions and all("https://dp-class.example.org/course/" in c for c in captions)
    assert not any("address of this machine only" in w.value for w in at.warning)
    at.text_input(key="exercise_base_url").set_value("not an address").run()
    assert any("is not an http(s) address" in w.value for w in at.warning)
    assert all("http://localhost:8501/" in c for c in _deep_link_captions(at))


def test_sheet_links_use_the_deployment_address(monkeypatch):
    monkeypatch.setenv("DPCORE_PUBLIC_URL", "http://lecture-hall-7:8501/")
    at = _probe("m101-loss-b2")
    captions = _deep_link_captions(at)
    assert captions and all("http://lecture-hall-7:8501/Mechanisms_101?exercise=m101-loss-b2" in c for c in captions)
    assert not any("address of this machine only" in w.value for w in at.warning)
