"""What a lecturer projects (issue 31), in a real browser: presenter mode, "Reset this page", Back."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from test_browser import EPS_INPUT, NAV_LINK, assert_no_error_text, eps_value, wait_idle

pytestmark = pytest.mark.browser
SHOTS = Path(tempfile.gettempdir()) / "dp_text_screens"
"""Where a test leaves a screenshot of what it saw (for the issue's notes)."""
SHOTS.mkdir(exist_ok=True)


def _open(page, url: str):
    page.goto(url)
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=180_000)
    wait_idle(page)


def test_presenter_link_draws_for_a_projector(page, app_url):
    _open(page, f"{app_url}/Mechanisms_101?present=1")
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "20px"
    assert page.locator('[data-testid="stAppDeployButton"]').filter(visible=True).count() == 0
    assert page.locator('[data-testid="stToolbar"]').filter(visible=True).count() == 0
    assert page.locator(".st-key-presenter_controls input[type=checkbox]").first.is_checked()
    assert "present=1" in page.url
    # the switch turns it off and drops it from the address bar
    page.locator(".st-key-presenter_controls label", has_text="Presenter mode").first.click()
    wait_idle(page)
    assert "present=" not in page.url
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "16px"
    assert_no_error_text(page, "Mechanisms 101 after leaving presenter mode")


def test_reset_returns_to_the_opening_settings(page, app_url):
    _open(page, f"{app_url}/DP_ngram_extraction")
    assert eps_value(page) == "4"
    page.locator(EPS_INPUT).first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**eps=4.5**", timeout=60_000)
    wait_idle(page)
    page.get_by_role("button", name="↺ Reset this page").click()
    wait_idle(page)
    assert eps_value(page) == "4"
    # the address bar reproduces the opening view: no ε, or the page's own opening ε (Streamlit writes a value
    # set through session state when it differs from the slider's declared default)
    assert "eps=4.5" not in page.url and ("eps=" not in page.url or "eps=4&" in page.url + "&")
    assert_no_error_text(page, "DP n-gram extraction after a reset")


def test_back_restores_the_shared_link(page, app_url):
    # issue 31 item 1: Back showed eps = 1 at a bare URL while the page opens at 4
    _open(page, f"{app_url}/DP_ngram_extraction")
    before = eps_value(page)
    metrics = page.locator('[data-testid="stMetricValue"]').all_inner_texts()
    page.locator(NAV_LINK, has_text="Bayesian n-gram DP").click()
    page.wait_for_url("**/Bayesian_ngram_DP**", timeout=60_000)
    wait_idle(page)
    page.go_back()
    page.wait_for_url("**/DP_ngram_extraction**", timeout=60_000)
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=180_000)
    wait_idle(page)
    assert eps_value(page) == before
    assert page.locator('[data-testid="stMetricValue"]').all_inner_texts() == metrics
    # the highlighted navigation item is drawn with its own style class: at most one link differs from the rest
    classes = [a.get_attribute("class") for a in page.locator(NAV_LINK).all()]
    common = max(set(classes), key=classes.count)
    assert sum(c != common for c in classes) <= 1, f"two navigation items are highlighted: {classes}"
    assert_no_error_text(page, "DP n-gram extraction after Back")


def test_reset_returns_a_page_knob_to_its_default(page, app_url):
    _open(page, f"{app_url}/Mechanisms_101?m101_scale_mode=by+hand&m101_b=5.0&eps=2")
    assert eps_value(page) == "2" and "m101_b=5" in page.url
    page.get_by_role("button", name="↺ Reset this page").click()
    wait_idle(page)
    assert eps_value(page) == "1"
    assert "m101_b" not in page.url and "m101_scale_mode" not in page.url and "eps=" not in page.url
    assert page.get_by_text("b (scale)").count() == 0  # the hand-set scale's slider is gone: b = Δ/ε again
    assert_no_error_text(page, "Mechanisms 101 after a reset")


def test_a_hidden_answer_is_never_cut(page, app_url):
    _open(page, f"{app_url}/Mechanisms_101?exercise=m101-loss-b2")
    values = page.locator('[data-testid="stMetricValue"]', has_text="hidden")
    assert values.count() >= 1
    for i in range(values.count()):
        v = values.nth(i)
        assert "hidden until you answer" in v.inner_text()
        cut = v.evaluate("e => [e, ...e.querySelectorAll('*')].some(x => x.scrollWidth > x.clientWidth + 1)")
        assert not cut, "the placeholder is cut"


def test_an_upload_asks_for_the_user_column_and_warns_when_every_row_is_a_user(page, app_url):
    # issue 31 item 8: columns `message` (a row number) and `body` were taken as 30 "users", one per row, silently
    from test_browser import _upload

    rows = "\n".join(f"{i},Sentence number {i} about the weather. Another line here." for i in range(30))
    sidebar = _upload(page, app_url, "rows.csv", ("message,body\n" + rows + "\n").encode())
    assert "Which column identifies a person?" in sidebar
    assert "uploaded: rows.csv" not in sidebar  # nothing is computed until the uploader chooses
    assert "Choose in the sidebar which column" in page.locator('[data-testid="stMain"]').inner_text()
    box = page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]', has_text="User column")
    box.locator("input").click()
    page.keyboard.type("message")
    page.keyboard.press("Enter")
    wait_idle(page, settle=1.0)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "uploaded: rows.csv" in sidebar and "30 users" in sidebar
    assert "is its own user" in sidebar
    assert page.locator('[data-testid="stException"]').count() == 0


def test_presenter_mode_shows_the_main_chart_first_with_epsilon_beside_it(page, app_url):
    # issue 31: "the page's main chart first with its one or two knobs beside it"
    _open(page, f"{app_url}/DP_ngram_extraction?present=1")
    stage = page.locator(".st-key-presenter_stage")
    chart = stage.locator('[data-testid="stPlotlyChart"]').first
    chart.wait_for(timeout=180_000)
    page.evaluate("window.scrollTo(0, 0)")
    box = chart.bounding_box()
    assert box is not None and box["y"] < 1000, f"the main chart starts at {box} (above the fold: under 1000 px)"
    lead = page.get_by_text("After Kim, Gopi", exact=False).first  # the page's caption, its lead text, comes after it
    assert lead.bounding_box()["y"] > box["y"]
    column = stage.locator('[data-testid="stColumn"]').first.bounding_box()  # the chart's, its badges above it
    assert column["y"] <= box["y"] < column["y"] + column["height"]
    for key in ("eps_body", "dpne_eta"):  # ε and η in the column beside the chart, level with it
        knob = stage.locator(f".st-key-{key}").first.bounding_box()
        assert knob is not None and knob["x"] >= box["x"] + box["width"] - 5, f"{key} is not beside the chart"
        assert column["y"] - 5 <= knob["y"] < box["y"] + box["height"], f"{key} is not level with the chart"
    page.screenshot(path=str(SHOTS / "presenter_dpne.png"))
    assert eps_value(page) == "4"  # the body ε moves the sidebar's: one ε
    stage.locator('.st-key-eps_body input[type="range"]').first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**eps=4.5**", timeout=60_000)
    wait_idle(page)
    assert eps_value(page) == "4.5"
    assert_no_error_text(page, "DP n-gram extraction in presenter mode")
