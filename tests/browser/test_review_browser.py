"""A shared `review=1` link opens the reviewer's panel in a real browser; without it the panel is collapsed."""

import pytest
from test_browser import assert_no_error_text, wait_idle

pytestmark = pytest.mark.browser


def panel(page):
    # by its own title: the sidebar's session budget mentions "the reviewer's panel" in its body
    title = page.locator("summary").filter(has_text="Reviewer's panel")
    return page.locator('[data-testid="stExpander"]').filter(has=title).first


@pytest.mark.parametrize("path", ["Bayesian_ngram_DP", "Mechanisms_101"])
def test_review_link_opens_the_panel(page, app_url, path):
    page.goto(f"{app_url}/{path}?review=1")
    wait_idle(page)
    assert_no_error_text(page, path)
    p = panel(page)
    p.scroll_into_view_if_needed()
    assert p.locator("details").first.get_attribute("open") is not None
    promise = p.get_by_text("Promise:").first
    assert promise.is_visible()
    badge_words = p.inner_text()
    assert "Guarantee:" in badge_words and ("— DP:" in badge_words or "not DP" in badge_words)


def test_panel_is_collapsed_without_the_link(page, app_url):
    page.goto(f"{app_url}/Bayesian_ngram_DP")
    wait_idle(page)
    p = panel(page)
    p.scroll_into_view_if_needed()
    assert p.locator("details").first.get_attribute("open") is None
    assert not p.get_by_text("Promise:").first.is_visible()
