"""Real-browser checks of what AppTest cannot see: deep links, the URL, charts redrawing, page switches.

Runs `streamlit run app.py` (fixture in conftest.py) and Debian's Chromium via Playwright.
"""

import hashlib
import re
import time
from pathlib import Path

import pytest

from dpui.common.navigation import available_pages

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(p.stem.split("_", 1)[1] for p in (ROOT / "pages").glob("[0-9]*_*.py"))
# pages whose sidebar shows ε (a page declares its settings in shared_sidebar(uses=...); no uses = all)
EPS_PAGES = sorted(
    p.stem.split("_", 1)[1]
    for p in (ROOT / "pages").glob("[0-9]*_*.py")
    if (m := re.search(r"shared_sidebar\(([^)]*)\)", p.read_text(encoding="utf-8"))) is None
    or "uses" not in m.group(1)
    or '"eps"' in m.group(1)
)
TITLES = {p.url_path.lstrip("/"): p.title for p in available_pages()}  # "Bayesian_ngram_DP" → "Bayesian n-gram DP"
NAV_LINK = ".st-key-navigation a"  # the sidebar's own navigation (dpui.common.navigation), Streamlit's list is hidden
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


CHARTS = '[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]'
"""Plotly figures and Vega-Lite charts (TopicDP's keyword chart, issue 29 item 3)."""


def charts_signature(page) -> str:
    charts = page.locator(CHARTS)
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
    page.wait_for_selector(CHARTS, timeout=120_000)
    wait_idle(page)
    assert eps_value(page) == "3.5", "the deep link's ε was not applied"
    assert_no_error_text(page, page_name)
    assert page.locator(CHARTS).count() >= 1, f"{page_name} shows no chart"
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


def test_no_request_leaves_the_machine(page, app_url):
    """Issue 24 item 8: a privacy teaching tool does not phone home. The server runs with the shipped
    .streamlit/config.toml (conftest.py does not switch telemetry off); every request the browser makes while
    opening two pages and moving a slider goes to the app's own address."""
    from urllib.parse import urlsplit

    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(f"{app_url}/Mechanisms_101")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    page.locator(EPS_INPUT).first.focus()
    page.keyboard.press("ArrowRight")
    wait_idle(page)
    page.locator(NAV_LINK, has_text="Home").click()
    wait_idle(page, settle=2.0)
    own = urlsplit(app_url).netloc
    outside = sorted(
        {u for u in requests if urlsplit(u).scheme in ("http", "https", "ws", "wss") and urlsplit(u).netloc != own}
    )
    assert outside == [], f"requests to other hosts: {outside}"


@pytest.mark.parametrize("path", ["/Mechanisms_101", "/Bayesian_ngram_DP", "/DP_ngram_extraction"])
def test_guarantee_chips_are_never_cut(page, app_url, path):
    """Issue 24 item 7: Streamlit cuts a badge wider than its column with "…" — on the home page exactly where
    the qualifier was. Every chip shows its whole text (short label; it wraps in a narrow column), and
    hovering it shows the full sentence. (The home page has no chips since item 5: one static table holds every
    full sentence — tests/test_app_say_less.py.)"""
    page.set_viewport_size({"width": 900, "height": 1000})
    page.goto(app_url + path)
    if path != "/":
        page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    chips = page.locator(".stMarkdownBadge")
    sizes = chips.evaluate_all(
        "els => els.filter(e => e.offsetParent !== null && e.textContent.includes('Guarantee:'))"
        ".map(e => [e.textContent, e.scrollWidth, e.clientWidth])"
    )
    assert sizes, f"no guarantee chip on {path}"
    cut = [text for text, scroll, client in sizes if scroll > client + 1]
    assert cut == [], f"chips cut on {path}: {cut}"
    first = page.locator(".stMarkdownBadge", has_text="Guarantee:").first
    first.hover()
    tooltip = page.locator('[data-testid="stTooltipContent"]').first
    tooltip.wait_for(timeout=10_000)
    assert "Adding or removing one user" in tooltip.inner_text() or "not DP" in tooltip.inner_text()


def test_city_map_shows_every_name_and_its_whole_legend(page, app_url):
    """Issue 24 item 3: on Mechanisms 101's exponential mechanism the city map cut "Los Angeles" at the plot's
    edge and its legend ("… a member lives ther"). Every city name lies inside the plot area, every legend
    entry inside the chart."""
    page.goto(f"{app_url}/Mechanisms_101")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    page.get_by_role("tab", name="(c) Exponential mechanism").click()
    wait_idle(page)
    chart = page.locator('[data-testid="stPlotlyChart"]', has_text="Candidate cities").first
    chart.scroll_into_view_if_needed()
    chart.locator(".textpoint text").first.wait_for(timeout=30_000)
    boxes = chart.evaluate("""el => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return {svg: box(el.querySelector(".main-svg")), plot: box(el.querySelector(".nsewdrag")),
                names: [...el.querySelectorAll(".textpoint text")].map(t => [t.textContent, box(t)]),
                legend: [...el.querySelectorAll(".legendtext")].map(t => [t.textContent, box(t)])};
    }""")
    inside = lambda b, outer: (
        b[0] >= outer[0] - 1 and b[2] <= outer[2] + 1 and b[1] >= outer[1] - 1 and b[3] <= outer[3] + 1
    )
    assert len(boxes["names"]) == 7
    assert [n for n, b in boxes["names"] if not inside(b, boxes["plot"])] == [], boxes
    assert boxes["legend"] and [n for n, b in boxes["legend"] if not inside(b, boxes["svg"])] == [], boxes


def _upload(page, app_url, name: str, data: bytes):
    page.goto(f"{app_url}/?corpus=upload")
    wait_idle(page)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(
        files=[{"name": name, "mimeType": "text/plain", "buffer": data}]
    )
    wait_idle(page, settle=1.0)
    return page.locator('[data-testid="stSidebar"]').inner_text()


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("empty.csv", b"", "the file is empty"),
        ("latin1.csv", "user,text\nann,caf\xe9 au lait.\nbob,ok.\n".encode("latin-1"), "not UTF-8"),
        ("one_user.csv", b"user,text\nann,First sentence.\nann,Second one.\n", "at least 2 are needed"),
        ("cols.csv", b"name\nann\n", "needs a user column and a text column"),
    ],
)
def test_bad_uploads_show_a_message_and_the_app_keeps_working(page, app_url, name, data, message):
    sidebar = _upload(page, app_url, name, data)
    assert message in sidebar
    assert page.locator('[data-testid="stException"]').count() == 0
    # issue 25: no silent fallback to the sample data; the page says it waits for a usable file
    assert "no usable upload" in sidebar
    assert "Nothing is computed on another corpus" in page.locator('[data-testid="stMain"]').inner_text()
    # the app still works: another page renders
    page.goto(f"{app_url}/Mechanisms_101")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_good_upload_is_used(page, app_url):
    rows = "\n".join(f"u{i % 5},Sentence number {i} about the weather. Another line here." for i in range(40))
    sidebar = _upload(page, app_url, "mine.csv", ("user,text\n" + rows + "\n").encode())
    assert "uploaded: mine.csv" in sidebar
    assert "5 users" in sidebar
