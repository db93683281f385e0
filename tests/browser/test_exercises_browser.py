"""One exercise walked end to end in Chromium, from a lecturer's deep link (issue 13).

Opens ``/Mechanisms_101?exercise=m101-loss-b2`` (b = 2 set by hand), checks that the widgets show the
exercise's settings and the question is on top, types a wrong answer (a hint appears), types the right
one (accepted), opens the solution and follows "next exercise".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_browser import wait_idle

import dpcore
from dpui.common.exercise_keys import widget_settings

pytestmark = pytest.mark.browser

EX_ID = "m101-loss-b2"


@pytest.fixture(scope="module")
def exercise_url(app_url):
    """The Mechanisms 101 page of the real app (the page calls ``exercise_mode`` itself)."""
    return f"{app_url}/Mechanisms_101"


def test_exercise_from_link_end_to_end(page, exercise_url):
    ex = dpcore.lab.exercises.exercise(EX_ID)
    sol = ex.solved()
    page.goto(f"{exercise_url}?exercise={EX_ID}")
    panel = page.locator(f".st-key-exercise_panel_{EX_ID}")
    panel.wait_for(timeout=120_000)
    wait_idle(page)

    # the settings are applied: "by hand" selected, the b slider at 2
    by_hand = page.get_by_role("radio", name="by hand")
    assert by_hand.first.is_checked()
    b_slider = page.locator('[data-testid="stSlider"]').filter(has_text="b (scale)").locator('input[type="range"]')
    assert float(b_slider.first.get_attribute("aria-valuetext")) == widget_settings(ex)["m101_b"], (
        b_slider.first.evaluate("e => e.outerHTML")
    )
    # the question is on top of the page, above the page's own content
    assert "Largest privacy loss" in panel.inner_text()
    assert ex.question_text(sol).split(".")[0].replace("**", "") in panel.inner_text()

    answer = panel.locator('input[type="number"]').first
    answer.fill(str(2 * ex.answer() + 1))
    panel.get_by_role("button", name="Check").click()
    panel.get_by_text("Hint 1").wait_for(timeout=30_000)
    wait_idle(page)
    assert "Not quite" in panel.inner_text()

    answer.fill(f"{ex.answer():.4f}")
    panel.get_by_role("button", name="Check").click()
    panel.get_by_text("Right").wait_for(timeout=30_000)
    wait_idle(page)

    panel.get_by_role("button", name="Show the solution").click()
    panel.get_by_text("Solution.").wait_for(timeout=30_000)
    wait_idle(page)
    # the widgets were not moved by the reruns
    assert page.get_by_role("radio", name="by hand").first.is_checked()

    # the printable sheet of this page downloads and holds every exercise of the page, without answers
    page.get_by_text("Exercises on this page").click()
    sheet_button = page.locator(".st-key-exercise_sheet_1_Mechanisms_101_student_html").get_by_role("button")
    sheet_button.wait_for(timeout=30_000)
    wait_idle(page)
    with page.expect_download(timeout=60_000) as download:
        sheet_button.click()
    sheet = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "exercises_Mechanisms_101_student.html"
    for other in dpcore.lab.exercises.exercises_for_page(ex.page):
        assert f"?exercise={other.id}" in sheet
    assert "Answer:" not in sheet and "<script" not in sheet.lower()

    nxt = dpcore.lab.exercises.next_exercise(EX_ID)
    panel.get_by_role("button", name="Next exercise").click()
    page.locator(f".st-key-exercise_panel_{nxt.id}").wait_for(timeout=60_000)
    page.wait_for_function("id => location.search.includes('exercise=' + id)", arg=nxt.id, timeout=30_000)
    wait_idle(page)
    eps = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"] input[type="range"]').first
    assert eps.get_attribute("aria-valuetext") == f"{widget_settings(nxt)['eps']:g}"
    assert page.locator('[data-testid="stException"]').count() == 0
