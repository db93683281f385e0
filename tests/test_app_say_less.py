"""Issue 24 item 5 "Say less, show more": each page opens with one sentence and its main chart (the explanations go
into expanders or the reviewer's panel); the Home page is a short map of the pages with ONE guarantee table.

Words are counted in the prose elements (markdown, caption, info, warning, page links) outside any expander; guarantee chips
(st.badge, seen as ``:<colour>-badge[…]`` markdown) are not prose and are not counted (they are short by
test_app_guarantees), nor is the guarantee's meaning for one person beside the chip (issue 32, dpui.common.risk: part of
the guarantee's display, one sentence per release line, capped by tests/test_app_risk.py)."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
PROSE = {"markdown", "caption", "info", "warning", "page_link"}
BADGE = re.compile(r"^:\w+-badge\[")
PAGES = [
    "pages/1_Mechanisms_101.py",
    "pages/2_Bayesian_ngram_DP.py",
    "pages/3_DP_ngram_extraction.py",
    "pages/4_TopicDP.py",
    "pages/5_Privacy_audit.py",
]
FOLDED = {"expander", "popover"}
"""Blocks whose contents a reader sees only after a click."""
BEFORE_CHART_MAX = 60
RISK_ICON = "🕵️"
"""dpui.common.risk's line beside a badge: part of the guarantee's display, like the chip (tests/test_app_risk.py caps it
at one sentence of at most RISK_LINE_MAX words per release line)."""
HOME_MAX = 250


def run(path: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / path), default_timeout=300)
    at.query_params["corpus"] = "classroom"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def in_order(node, in_expander=False):
    """(element, inside an expander?) for every element under node, in the order the page shows them."""
    children = getattr(node, "children", None)
    if children is None:
        yield node, in_expander
        return
    inside = in_expander or getattr(node, "type", "") in FOLDED
    for k in sorted(children):
        yield from in_order(children[k], inside)


def words(element) -> int:
    value = element.proto.label if element.type == "page_link" else element.value
    value = value if isinstance(value, str) else str(value)
    if BADGE.match(value.strip()) or value.strip().startswith(RISK_ICON):
        return 0  # a guarantee chip, or its meaning for one person beside it (issue 32: capped in test_app_risk)
    return len(re.findall(r"\w+", value))


def visible_prose(at: AppTest, *, until_chart: bool) -> tuple[int, bool]:
    """Words of prose outside expanders on the main area (before the first chart if until_chart), and
    whether a chart was found."""
    total = 0
    for el, hidden in in_order(at.main):
        if el.type in ("plotly_chart", "vega_lite_chart") and not hidden:  # (TopicDP's keywords: Vega-Lite)
            return total, True
        if el.type in PROSE and not hidden:
            total += words(el)
    return total, False


@pytest.mark.parametrize("path", PAGES)
def test_each_page_opens_with_one_sentence_then_its_chart(path):
    at = run(path)
    n, chart = visible_prose(at, until_chart=True)
    assert chart, f"no chart outside an expander on {path}"
    assert n <= BEFORE_CHART_MAX, f"{path}: {n} words before the first chart (max {BEFORE_CHART_MAX})"


def test_home_is_a_short_map_with_one_guarantee_table():
    from dpcore.lab.review import mechanism_guarantees
    from dpui.bayesian.knobs import guarantee_settings
    from dpui.common.charts import guarantee_icon
    from dpui.common.navigation import available_pages

    at = run("app.py")
    n, _ = visible_prose(at, until_chart=False)
    badges = [m for m in at.main.markdown if BADGE.match(m.value.strip())]
    assert n <= HOME_MAX, f"Home page: {n} visible words outside expanders (max {HOME_MAX})"
    assert not badges, f"{len(badges)} guarantee chips on the Home page; its guarantees are in one table"
    # one line per page: a link to every page
    links = [el for el, _ in in_order(at.main) if el.type == "page_link"]
    titles = [p.title for p in available_pages()]
    assert len(links) == len(titles) and all(f"**{t}**" in el.proto.label for t, el in zip(titles, links)), [
        el.proto.label for el in links
    ]
    # exactly one guarantee table, listing every mechanism with its level and full sentence
    tables = [d for d in [*at.table, *at.dataframe] if "guarantee" in d.value.columns]
    assert len(tables) == 1 and tables[0].type == "table", len(tables)  # static: sentences wrap, never cut
    table = tables[0].value
    expected = mechanism_guarantees(epsilon=1.0, delta=1e-5, **guarantee_settings("classroom"))
    assert list(table["mechanism"]) == [m for _, m, _ in expected]
    for (_, mech, g), (_, row) in zip(expected, table.iterrows()):
        assert g.strength in row["level"] and guarantee_icon(g) in row["level"], (mech, row["level"])
        assert row["guarantee"] == g.label, (mech, row["guarantee"])  # the full sentence, every qualifier
