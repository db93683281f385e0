"""Presenter mode's stage (issue 31, "the page's main chart first with its one or two knobs beside it"): with
``present=1`` each page draws its main chart at the top of its body, under the title and before its lead text, with
ε (the body slider ``eps_body`` that moves the sidebar's one ε; on the audit the page's own audited ε) and at most
one page knob in the column beside it, and the guarantees of what it shows on one line above it. Without it the
page's order is today's: the lead text first, no stage, the knob in its row.

The order is read off the element tree (dpui.common.presenter.STAGE_KEY is the stage's block key)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpui.common.presenter import PHONE_BOX, PHONE_EPS_KEY, PRESENT_KEY, STAGE_KEY
from dpui.common.texts import text

ROOT = Path(__file__).resolve().parents[1]
CHARTS = ("plotly_chart", "vega_lite_chart")
BADGE = ":green-badge[", ":orange-badge[", ":red-badge["

# page → (the lead text's (page, section) in dpui/common/page_texts, the ε control's key, the page knob beside it or None,
#         the main chart's key or words of its title)
PAGES = {
    "pages/1_Mechanisms_101.py": (("m101", "loss_intro"), PHONE_EPS_KEY, None, "Laplace densities"),
    "pages/2_Bayesian_ngram_DP.py": (("bayesian", "lead"), PHONE_EPS_KEY, None, "true, public and released"),
    "pages/3_DP_ngram_extraction.py": (("dpne", "caption"), PHONE_EPS_KEY, "dpne_eta", "dpne_bars"),
    "pages/4_TopicDP.py": (("topicdp", "lead"), PHONE_EPS_KEY, "topicdp_gamma", "grey = before noise"),
    "pages/5_Privacy_audit.py": (
        ("audit", "lead"),
        "audit_epsilon",
        "audit_mechanism",
        "audit_bound_chart",
    ),
}


def run(path: str, present: bool) -> AppTest:
    at = AppTest.from_file(str(ROOT / path), default_timeout=600)
    at.query_params["corpus"] = "classroom"
    if present:
        at.query_params[PRESENT_KEY] = "1"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def in_order(node, path=()):
    """(element, the blocks above it from the main area down) for every element, in the order the page shows them."""
    children = getattr(node, "children", None)
    if children is None:
        yield node, path
        return
    for k in sorted(children):
        yield from in_order(children[k], path + (node,))


def key_of(node):
    try:
        return node.key
    except (AttributeError, NotImplementedError):
        return None


def index_of(order, pred) -> int:
    return next(i for i, (el, _) in enumerate(order) if pred(el))


def value_is(el, wanted: str) -> bool:
    try:
        return isinstance(el.value, str) and el.value == wanted
    except (AttributeError, NotImplementedError):
        return False


@pytest.mark.parametrize("path", PAGES)
def test_presenter_mode_draws_the_main_chart_first_with_its_knobs_beside_it(path):
    (page, section), eps_key, knob, title = PAGES[path]
    lead = text(page, section)
    order = list(in_order(run(path, present=True).main))
    chart = index_of(order, lambda el: el.type in CHARTS)
    assert chart < index_of(order, lambda el: value_is(el, lead)), f"{path}: the lead text comes before the chart"
    chart_el, chart_blocks = order[chart]
    assert title in str(chart_el.proto), f"{path}: the first chart is not the main one"
    stage = next(b for b in chart_blocks if key_of(b) == STAGE_KEY)  # the chart is on the stage...
    chart_column = chart_blocks[chart_blocks.index(stage) + 2]  # stage → its columns → the chart's column
    assert chart_column.type == "column"
    on_stage = [(el, blocks) for el, blocks in order if stage in blocks]
    knobs = [key_of(el) for el, blocks in on_stage if chart_column not in blocks]  # ...the other column: its knobs
    assert sorted(knobs) == sorted(k for k in (eps_key, knob) if k), f"{path}: beside the chart: {knobs}"
    # the guarantees of what the chart shows, on one line above it (the audit's chart is a measurement: no release)
    first = next(el for el, blocks in on_stage if chart_column in blocks)
    if path != "pages/5_Privacy_audit.py":
        assert first.type == "markdown" and first.value.startswith(BADGE), f"{path}: no badge above the moved chart"
    assert not any(key_of(b) == PHONE_BOX for _, blocks in order for b in blocks)  # one ε slider in the body


@pytest.mark.parametrize("path", PAGES)
def test_outside_presenter_mode_the_order_is_todays(path):
    (page, section), eps_key, knob, _ = PAGES[path]
    order = list(in_order(run(path, present=False).main))
    assert not any(key_of(b) == STAGE_KEY for _, blocks in order for b in blocks)
    lead = index_of(order, lambda el: value_is(el, text(page, section)))
    assert lead < index_of(order, lambda el: el.type in CHARTS)
    if eps_key == PHONE_EPS_KEY:  # the body ε is the phone's (hidden by CSS on a wide screen), before the title
        el, blocks = order[index_of(order, lambda el: key_of(el) == PHONE_EPS_KEY)]
        assert any(key_of(b) == PHONE_BOX for b in blocks)
    if knob is not None:  # the page knob in its row, below the lead text
        assert lead < index_of(order, lambda el: key_of(el) == knob)
