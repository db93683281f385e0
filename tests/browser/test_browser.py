"""Real-browser checks of what AppTest cannot see: deep links, the URL, charts redrawing, page switches.

Runs `streamlit run app.py` (fixture in conftest.py) and Debian's Chromium via Playwright.
"""

import hashlib
import re
import time
from pathlib import Path

import pytest

from dpui.navigation import available_pages

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem.split("_", 1)[1] for p in (ROOT / "pages").glob("[0-9]*_*.py"))
# pages whose sidebar shows ε (a page declares its settings in shared_sidebar(uses=...); no uses = all)
EPS_PAGES = sorted(p.stem.split("_", 1)[1] for p in (ROOT / "pages").glob("[0-9]*_*.py")
                   if (m := re.search(r"shared_sidebar\(([^)]*)\)", p.read_text(encoding="utf-8"))) is None
                   or "uses" not in m.group(1) or '"eps"' in m.group(1))
TITLES = {p.url_path.lstrip("/"): p.title for p in available_pages()}  # "Bayesian_ngram_DP" → "Bayesian n-gram DP"
NAV_LINK = '.st-key-navigation a'  # the sidebar's own navigation (dpui.navigation), Streamlit's list is hidden
EPS_INPUT = '[data-testid="stSidebar"] [data-testid="stSlider"] input[type="range"]'


def wait_idle(page, settle: float = 0.6, timeout: float = 120.0):
    """Wait until the script has finished running and stays finished for `settle` seconds."""
    app = page.locator('[data-testid="stApp"]')
    deadline = time.time() + timeout
    quiet_since = None
    while time.time() < deadline:
        state = app.get_attribute("data-test-script-state") if app.count() else None
        if state == "notRunning":
            quiet_since = quiet_since or time.time()
            if time.time() - quiet_since >= settle:
                return
        else:
            quiet_since = None
        time.sleep(0.1)
    raise AssertionError("the app kept running for more than %.0f s" % timeout)


def eps_value(page) -> str:
    return page.locator(EPS_INPUT).first.get_attribute("aria-valuetext")


def charts_signature(page) -> str:
    charts = page.locator('[data-testid="stPlotlyChart"]')
    text = "".join(charts.nth(i).inner_html() for i in range(charts.count()))
    return hashlib.sha256(text.encode()).hexdigest() if text else ""


def metrics_text(page) -> str:
    return "|".join(page.locator('[data-testid="stMetricValue"]').all_inner_texts())


def assert_no_error_text(page, where: str):
    assert page.locator('[data-testid="stException"]').count() == 0, f"a traceback is shown on {where}"
    errors = page.locator('[data-testid="stAlertContentError"]').all_inner_texts()
    assert errors == [], f"error messages on {where}: {errors}"
    body = page.locator('[data-testid="stApp"]').inner_text()
    assert "Traceback" not in body and "Error:" not in body, f"error text on {where}"


@pytest.mark.parametrize("page_name", EPS_PAGES)
def test_deep_link_slider_url_and_page_switch(page, app_url, page_name, request):
    query = "eps=3.5"
    if page_name == "TopicDP":  # charts need sensitivity draws: a corpus with draws computed in this session
        from topicdp_env import TINY_QUERY

        app_url = request.getfixturevalue("tiny_topicdp_url")
        query += "".join(f"&{k}={v}" for k, v in TINY_QUERY.items())
    page.goto(f"{app_url}/{page_name}?{query}")
    page.wait_for_selector('[data-testid="stPlotlyChart"]', timeout=120_000)
    wait_idle(page)
    assert eps_value(page) == "3.5", "the deep link's ε was not applied"
    assert_no_error_text(page, page_name)
    assert page.locator('[data-testid="stPlotlyChart"]').count() >= 1, f"{page_name} shows no chart"
    before = (charts_signature(page), metrics_text(page))

    slider = page.locator(EPS_INPUT).first
    slider.focus()
    page.keyboard.press("ArrowRight")  # next option on the ε grid: 3.5 → 4
    page.wait_for_url(re.compile(r"[?&]eps=4(&|$)"), timeout=30_000)
    wait_idle(page)
    assert eps_value(page) == "4"
    after = (charts_signature(page), metrics_text(page))
    assert after != before, f"nothing on {page_name} changed after the ε move"
    assert_no_error_text(page, f"{page_name} after the ε move")

    # switch to the home page through the sidebar navigation: ε stays 4
    page.locator(NAV_LINK).first.click()
    wait_idle(page)
    assert eps_value(page) == "4", "ε was lost on the page switch"
    assert "eps=4" in page.url
    assert_no_error_text(page, "home")
    # and back to the page by its nav link: ε still 4
    page.locator(NAV_LINK, has_text=TITLES[page_name]).first.click()
    wait_idle(page)
    assert eps_value(page) == "4"
    assert_no_error_text(page, f"{page_name} after coming back")


def test_home_page_has_no_error_and_lists_pages(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    assert_no_error_text(page, "home")
    body = page.locator('[data-testid="stApp"]').inner_text()
    for title in ("Mechanisms 101", "Bayesian n-gram DP", "DP n-gram extraction", "TopicDP"):
        assert title in body
    assert "not DP" in body and "weaker" in body.lower()


def _upload(page, app_url, name: str, data: bytes):
    page.goto(f"{app_url}/?corpus=upload")
    wait_idle(page)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(
        files=[{"name": name, "mimeType": "text/plain", "buffer": data}])
    wait_idle(page, settle=1.0)
    return page.locator('[data-testid="stSidebar"]').inner_text()


@pytest.mark.parametrize("name, data, message", [
    ("empty.csv", b"", "the file is empty"),
    ("latin1.csv", "user,text\nann,caf\xe9 au lait.\nbob,ok.\n".encode("latin-1"), "not UTF-8"),
    ("one_user.csv", b"user,text\nann,First sentence.\nann,Second one.\n", "at least 2 are needed"),
    ("cols.csv", b"name\nann\n", "needs a user column and a text column"),
])
def test_bad_uploads_show_a_message_and_the_app_keeps_working(page, app_url, name, data, message):
    sidebar = _upload(page, app_url, name, data)
    assert message in sidebar
    assert page.locator('[data-testid="stException"]').count() == 0
    assert "Private data: real chat" in sidebar  # falls back to the default data, the real chat
    # the app still works: another page renders with the real chat
    page.goto(f"{app_url}/Mechanisms_101")
    page.wait_for_selector('[data-testid="stPlotlyChart"]', timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_good_upload_is_used(page, app_url):
    rows = "\n".join(f"u{i % 5},Sentence number {i} about the weather. Another line here." for i in range(40))
    sidebar = _upload(page, app_url, "mine.csv", ("user,text\n" + rows + "\n").encode())
    assert "uploaded: mine.csv" in sidebar
    assert "5 users" in sidebar
