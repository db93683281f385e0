"""The sidebar's navigation and its shared settings: each page shows the settings it uses, and only those.

* The navigation lists "Home" and every page by title (dpui.common.navigation is the one list of pages).
* A page shows exactly the shared settings it declares; every control it shows changes what the page
  shows (no control the page ignores); reading an undeclared setting is a bug that raises.
* A value set on one page survives a visit to a page that does not show that control.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from paper_env import run_page as run
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore import corpus_from_records
from dpui.common.corpus_panel import UPLOADED_KEY
from dpui.common.navigation import HOME, PAGES, available_pages
from dpui.common.sidebar import ALL_SETTINGS, EPSILON_DIRECTION

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ["app.py"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))
# What each page uses (the issue: ε only on Mechanisms 101 — plus the seed, which its sampling tab draws with).
USES = {
    "app.py": set(ALL_SETTINGS),
    "pages/1_Mechanisms_101.py": {"eps", "noise", "seed"},
    "pages/5_Privacy_audit.py": {"noise", "seed"},
}  # the audit: each scenario fixes its own claimed ε and δ; a page with the seed shows the noise mode (issue 30)
WIDGET_OF = {
    "eps": "select_slider",
    "delta": "select_slider",
    "seed": "number_input",
    "corpus": "radio",
    "noise": "radio",
}
NEW_VALUE = {"eps": 4.0, "delta": 1e-7, "seed": 7, "corpus": "upload", "noise": "private"}
OTHER_VALUE = {
    "eps": 2.0,
    "delta": 1e-8,
    "seed": 8,
    "corpus": "classroom",
    "noise": "reproducible",
}  # where a page starts at NEW_VALUE
TAB_OF = {  # the (lazy) tab that uses it
    ("pages/1_Mechanisms_101.py", "seed"): {"m101_tab": "(d) Sample many times"},
    ("pages/1_Mechanisms_101.py", "noise"): {"m101_tab": "(d) Sample many times"},
}


def uses(script: str) -> set[str]:
    return USES.get(script, set(ALL_SETTINGS))


def shown_settings(at: AppTest) -> set[str]:
    keys = set()
    for kind in set(WIDGET_OF.values()):
        keys |= {w.key for w in at.sidebar.get(kind)}
    return keys & set(ALL_SETTINGS)


def main_content(at: AppTest) -> list[str]:
    """Everything the page shows outside the sidebar, as text (values, metrics, chart specs, tables)."""
    out = []

    def walk(node):
        kind = type(node).__name__
        proto = getattr(node, "proto", None)
        if kind == "Metric":
            out.append(f"metric {node.label}={node.value}")
        elif kind == "Dataframe":
            out.append("table " + node.value.to_csv())
        elif hasattr(node, "value") and isinstance(getattr(node, "value", None), str):
            out.append(f"{kind} {node.value}")
        elif getattr(node, "type", None) == "plotly_chart" and proto is not None:
            out.append("chart " + json.dumps(json.loads(proto.spec)["data"], sort_keys=True))
        elif getattr(node, "type", None) == "vega_lite_chart" and proto is not None:  # its data: Arrow bytes
            out.append("chart " + proto.spec + proto.data.data.hex())
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return out


# ------------------------------------------------------------------------------ navigation
def test_every_page_file_is_in_the_navigation():
    listed = {p.path for p in PAGES}
    for path in (ROOT / "pages").glob("*.py"):
        assert f"pages/{path.name}" in listed, f"{path.name} is missing from dpui.common.navigation.PAGES"
    titles = [HOME.title] + [p.title for p in PAGES]
    assert len(set(titles)) == len(titles) and all(titles) and all(p.icon for p in PAGES)
    assert [p.path for p in available_pages()] == [p.path for p in PAGES if (ROOT / p.path).exists()]


def test_navigation_shows_home_and_every_page_title():
    at = run("app.py")
    links = at.sidebar.get("page_link")
    assert [link.proto.label for link in links] == ["Home"] + [p.title for p in available_pages()]
    assert [link.proto.page for link in links] == [""] + [p.url_path.lstrip("/") for p in available_pages()]
    assert all(link.proto.icon for link in links)


def test_navigation_links_carry_the_shared_values():
    at = run("app.py", eps="3.5", delta="1e-07", seed="4")
    for link in at.sidebar.get("page_link"):
        assert parse_qs(link.proto.query_string) == {"eps": ["3.5"], "delta": ["1e-07"], "seed": ["4"]}
    at = run("app.py")  # defaults are left out: a clean address
    assert all(link.proto.query_string == "" for link in at.sidebar.get("page_link"))


# ------------------------------------------------------------------------------ settings per page
@pytest.mark.parametrize("script", SCRIPTS)
def test_sidebar_shows_exactly_the_settings_the_page_uses(script):
    at = run(script)
    assert shown_settings(at) == uses(script)
    captions = " ".join(c.value for c in at.sidebar.caption)
    if "eps" in uses(script):
        assert EPSILON_DIRECTION in captions
    if "delta" in uses(script):  # the default data: the real chat's private part (920 people)
        n = dpcore.load_real_corpus("chat", which="private").n_users
        assert f"1/(number of users) = 1/{n:,}" in captions
    if "corpus" not in uses(script):
        assert "Private data:" not in captions  # the corpus is neither offered nor described


TINY = corpus_from_records(
    [{"user": f"u{i}", "text": f"the cat sat on mat {i % 3}. a dog ran far."} for i in range(12)],
    user_field="user",
    text_field="text",
    name="tiny upload",
)


@pytest.mark.parametrize("script, key", [(s, k) for s in SCRIPTS for k in ALL_SETTINGS if k in uses(s)])
def test_every_shown_control_changes_the_page(script, key):
    """No sidebar control is shown that the page ignores: moving it changes what the page shows."""
    at = AppTest.from_file(str(ROOT / script), default_timeout=300)
    if "TopicDP" in script:  # sampled sensitivities ship for the synthetic classroom sample (not yet for the chat)
        at.query_params["corpus"] = "classroom"
    for k, v in TAB_OF.get((script, key), {}).items():
        at.query_params[k] = v
    at.session_state[UPLOADED_KEY] = TINY  # what the upload panel keeps after a file is read
    at.run()
    before = main_content(at)
    widget = getattr(at, WIDGET_OF[key])(key=key)
    widget.set_value(NEW_VALUE[key] if widget.value != NEW_VALUE[key] else OTHER_VALUE[key]).run()
    assert not at.exception, [e.message for e in at.exception]
    assert main_content(at) != before, f"{script} shows {key} but nothing on the page changed when it moved"


def test_reading_an_undeclared_setting_raises():
    def script():
        from dpui import shared_sidebar

        settings = shared_sidebar(uses=("eps",))
        settings.epsilon  # noqa: B018 (reading the attribute is the check: it must not raise)
        settings.delta  # noqa: B018 (same)

    at = AppTest.from_function(script, default_timeout=60)
    at.run()
    assert at.exception and "does not declare it" in at.exception[0].message
    assert "UndeclaredSetting" in str(at.exception[0].proto)


def test_unknown_setting_name_is_refused():
    at = AppTest.from_string("from dpui import shared_sidebar\nshared_sidebar(uses=('eps', 'epsilon'))\n")
    at.run()
    assert at.exception and "uses must name shared settings" in at.exception[0].message


# ------------------------------------------------------------------------------ values across pages
def test_value_survives_a_page_that_does_not_show_it():
    at = run("app.py")
    at.select_slider(key="delta").set_value(1e-7).run()
    at.number_input(key="seed").set_value(5).run()
    at.switch_page("pages/1_Mechanisms_101.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert "delta" not in shown_settings(at) and at.number_input(key="seed").value == 5
    for link in at.sidebar.get("page_link"):  # the links on to the other pages carry the hidden δ
        assert parse_qs(link.proto.query_string)["delta"] == ["1e-07"]
    at.switch_page("pages/2_Bayesian_ngram_DP.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.select_slider(key="delta").value == 1e-7
    assert at.number_input(key="seed").value == 5
    assert any(m.label == "σ_ps (analytic)" for m in at.metric)  # calibration auto → analytic at ε = 1


def test_hidden_setting_from_a_link_reaches_the_next_page():
    at = run("pages/1_Mechanisms_101.py", eps="2", delta="1e-08")
    assert "delta" not in shown_settings(at)
    texts = " ".join(m.value for m in at.sidebar.markdown)  # AppTest runs one page alone: plain links
    assert "/Bayesian_ngram_DP?eps=2&delta=1e-08" in texts
