"""Real-browser run of the Privacy audit page: a small audit end to end, the broken toggle in the URL."""

import re

import pytest
from test_browser import wait_idle

pytestmark = pytest.mark.browser


def metrics_text(page) -> str:
    return "|".join(page.locator('[data-testid="stMetricValue"]').all_inner_texts())


def assert_no_error_text(page, where: str):
    assert page.locator('[data-testid="stException"]').count() == 0, f"a traceback is shown on {where}"
    errors = page.locator('[data-testid="stAlertContentError"]').all_inner_texts()
    assert errors == [], f"error messages on {where}: {errors}"
    body = page.locator('[data-testid="stApp"]').inner_text()
    assert "Traceback" not in body and "Error:" not in body, f"error text on {where}"


def test_audit_page_runs_a_small_audit_and_breaks_it(page, app_url):
    page.goto(f"{app_url}/Privacy_audit?audit_trials=2%2C000")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    assert_no_error_text(page, "Privacy audit")
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 2
    body = page.locator('[data-testid="stApp"]').inner_text()
    assert "Passed" in body and "not a proof" in body
    before = metrics_text(page)

    page.get_by_text("Break it").click()
    page.wait_for_url(re.compile(r"[?&]audit_broken=true(&|$)"), timeout=30_000)
    wait_idle(page)
    assert_no_error_text(page, "Privacy audit, broken")
    body = page.locator('[data-testid="stApp"]').inner_text()
    assert "BROKEN" in body and "Caught" in body
    assert metrics_text(page) != before

    # a deep link reproduces the broken view
    page.goto(f"{app_url}/Privacy_audit?audit_mechanism=k-anonymity&audit_trials=1%2C000")
    page.wait_for_selector('[data-testid="stPlotlyChart"], [data-testid="stVegaLiteChart"]', timeout=120_000)
    wait_idle(page)
    assert_no_error_text(page, "Privacy audit, k-anonymity")
    assert "claims no ε" in page.locator('[data-testid="stApp"]').inner_text()
