"""Real-browser checks of the sidebar's own navigation and of settings that a page hides.

Runs `streamlit run app.py` (fixture in conftest.py) and Debian's Chromium via Playwright.
"""

import pytest
from test_browser import NAV_LINK, assert_no_error_text, eps_value, wait_idle

from dpui.common.navigation import available_pages

pytestmark = pytest.mark.browser

SLIDERS = '[data-testid="stSidebar"] [data-testid="stSlider"] input[type="range"]'
TITLES = ["Home"] + [p.title for p in available_pages()]


def slider_values(page) -> list[str]:
    return [s.get_attribute("aria-valuetext") for s in page.locator(SLIDERS).all()]


@pytest.mark.parametrize("path", ["/", "/TopicDP?corpus=classroom"])  # TopicDP's draws ship for the classroom sample
def test_navigation_shows_home_and_every_page_title(page, app_url, path):
    page.goto(app_url + path)
    if path != "/":  # a Plotly figure or a Vega-Lite chart (TopicDP's keywords, issue 29 item 3)
        page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    page.locator(NAV_LINK).nth(len(TITLES) - 1).wait_for(timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stSidebarNav"]').count() == 0, "Streamlit's own page list is not hidden"
    texts = [" ".join(a.inner_text().split()) for a in page.locator(NAV_LINK).all()]
    icons = [p.icon for p in available_pages()]
    assert [t.split(" ", 1)[1] for t in texts] == TITLES, texts
    assert [t.split(" ", 1)[0] for t in texts[1:]] == icons
    assert_no_error_text(page, path)


def test_value_survives_a_page_that_hides_it_and_can_go_back_to_default(page, app_url):
    page.goto(f"{app_url}/Bayesian_ngram_DP?delta=1e-07")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    assert slider_values(page)[:2] == ["1", "1e-07"]
    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowRight")  # ε 1 → 1.25
    page.wait_for_url("**eps=1.25**", timeout=30_000)
    wait_idle(page)

    page.locator(NAV_LINK, has_text="Mechanisms 101").click()  # shows ε (and the seed), not δ
    wait_idle(page)
    assert slider_values(page) == ["1.25"], "Mechanisms 101 should show ε only"
    assert "δ (failure probability)" not in page.locator('[data-testid="stSidebar"]').inner_text()
    hrefs = [a.get_attribute("href") for a in page.locator(NAV_LINK).all()]
    assert all("delta=1e-07" in h and "eps=1.25" in h for h in hrefs), hrefs

    page.locator(NAV_LINK, has_text="Bayesian n-gram DP").click()
    wait_idle(page)
    assert slider_values(page)[:2] == ["1.25", "1e-07"], "δ or ε was lost on the way through Mechanisms 101"
    assert "delta=1e-07" in page.url and "eps=1.25" in page.url
    assert_no_error_text(page, "Bayesian n-gram DP after the round trip")

    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowLeft")  # back to the default ε = 1: it must stay there
    wait_idle(page)
    assert eps_value(page) == "1" and "eps=" not in page.url


def _query(page) -> dict:
    from urllib.parse import parse_qs, urlsplit

    return {k: v[-1] for k, v in parse_qs(urlsplit(page.url).query).items()}


def test_deep_linked_value_reaches_the_next_page(page, app_url):
    page.goto(f"{app_url}/Mechanisms_101?eps=3.5&delta=1e-08&seed=4")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    page.locator(NAV_LINK, has_text="DP n-gram extraction").click()
    wait_idle(page)
    assert slider_values(page)[:2] == ["3.5", "1e-08"]
    assert_no_error_text(page, "DP n-gram extraction after a deep link into Mechanisms 101")
    # issue 24 item 4: the address bar still carries the link's settings, so a copied URL shares this view
    # (the first switch after opening a link used to drop ε, which Mechanisms 101 had bound)
    assert _query(page) == {"eps": "3.5", "delta": "1e-08", "seed": "4"}, page.url
    for title in ("Home", "Mechanisms 101", "Privacy audit", "Bayesian n-gram DP"):
        page.locator(NAV_LINK, has_text=title).click()
        wait_idle(page)
        assert _query(page) == {"eps": "3.5", "delta": "1e-08", "seed": "4"}, f"{title}: {page.url}"
    page.locator(SLIDERS).first.focus()
    page.keyboard.press("ArrowRight")  # ε 3.5 → 4: the slider still writes the address bar
    page.wait_for_url("**eps=4**", timeout=30_000)
    wait_idle(page)
    assert _query(page) == {"eps": "4", "delta": "1e-08", "seed": "4"}, page.url
