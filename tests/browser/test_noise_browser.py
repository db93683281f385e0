"""Real-browser check of the noise mode (issue 30 item 1): choosing private hides the seed, drops the demonstration
chips, puts ``noise=private`` in the address bar and keeps it across a page switch."""

import pytest
from test_browser import NAV_LINK, assert_no_error_text, wait_idle

from dpui.common.noise import DEMONSTRATION

pytestmark = pytest.mark.browser

SIDEBAR = '[data-testid="stSidebar"]'
SEED_INPUT = SIDEBAR + ' [data-testid="stNumberInput"]'  # the sidebar's only number input is the seed


def demonstration_chips(page) -> int:
    return page.locator(".stMarkdownBadge", has_text=DEMONSTRATION).count()


def test_private_mode_hides_the_seed_and_travels_in_the_url(page, app_url):
    page.goto(f"{app_url}/Mechanisms_101?seed=7")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    assert demonstration_chips(page) >= 1  # reproducible: each guarantee chip has its demonstration chip
    sidebar = page.locator(SIDEBAR)
    assert page.locator(SEED_INPUT).count() == 1
    sidebar.get_by_text("private", exact=True).click()
    page.wait_for_url("**noise=private**", timeout=30_000)
    wait_idle(page)
    assert demonstration_chips(page) == 0
    assert "Seed: secret" in sidebar.inner_text() and page.locator(SEED_INPUT).count() == 0
    page.locator(NAV_LINK, has_text="Bayesian n-gram DP").click()
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    assert "noise=private" in page.url and "Seed: secret" in page.locator(SIDEBAR).inner_text()
    assert demonstration_chips(page) == 0
    assert_no_error_text(page, "Bayesian n-gram DP in private mode")
