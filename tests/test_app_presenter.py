"""Presenter mode and "Reset this page" (issue 31): a switch and a button on every page, in the address bar."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpui.common.presenter import PRESENT_KEY, RESET_KEY, STYLE

ROOT = Path(__file__).resolve().parent.parent
M101 = str(ROOT / "pages" / "1_Mechanisms_101.py")
DPNE = str(ROOT / "pages" / "3_DP_ngram_extraction.py")


def _styled(at: AppTest) -> bool:
    return any("presenter mode" in h.proto.body for h in at.get("html"))


def _param(at: AppTest, key: str):
    v = at.query_params.get(key)
    return v[0] if isinstance(v, list) else v


@pytest.mark.parametrize("raw", ["1", "true"])
def test_a_link_opens_in_presenter_mode(raw):
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params[PRESENT_KEY] = raw
    at.run()
    assert not at.exception
    assert at.toggle(key=PRESENT_KEY).value is True
    assert _styled(at)
    assert _param(at, PRESENT_KEY) == "1"
    assert "display: none" in STYLE and "stAppDeployButton" in STYLE  # the development toolbar is hidden


def test_the_switch_writes_present_1_and_back():
    at = AppTest.from_file(M101, default_timeout=120).run()
    assert at.toggle(key=PRESENT_KEY).value is False and not _styled(at)
    assert PRESENT_KEY not in at.query_params
    at.toggle(key=PRESENT_KEY).set_value(True).run()
    assert _styled(at) and _param(at, PRESENT_KEY) == "1"
    at.toggle(key=PRESENT_KEY).set_value(False).run()
    assert not _styled(at) and PRESENT_KEY not in at.query_params


def test_charts_are_drawn_larger_in_presenter_mode():
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params[PRESENT_KEY] = "1"
    at.run()
    import json

    sizes = [json.loads(c.proto.spec)["layout"].get("font", {}).get("size") for c in at.get("plotly_chart")]
    for chart in at.get("vega_lite_chart"):  # the loss chart is Vega-Lite (issue 29): its axes' and legend's type
        config = json.loads(chart.proto.spec)["config"]
        sizes += [config["axis"]["labelFontSize"], config["axis"]["titleFontSize"], config["legend"]["labelFontSize"]]
    assert sizes and all(s == 20 for s in sizes)


def test_reset_puts_the_page_back_to_its_opening_settings():
    at = AppTest.from_file(DPNE, default_timeout=600)
    at.query_params[PRESENT_KEY] = "1"
    at.run()
    opening = at.select_slider(key="eps").value
    assert opening == 4.0  # the DP n-gram extraction page opens at its own ε
    at.select_slider(key="eps").set_value(1.0).run()
    at.number_input(key="seed").set_value(7).run()
    assert at.select_slider(key="eps").value == 1.0
    at.button(key=RESET_KEY).click().run()
    assert not at.exception
    assert at.select_slider(key="eps").value == opening
    assert at.number_input(key="seed").value == 0
    # the address bar reproduces the opening view (the page's own ε may be written: it is not the slider's default)
    assert _param(at, "eps") in (None, "4") and "seed" not in at.query_params
    assert at.toggle(key=PRESENT_KEY).value is True  # presenter mode stays


def test_the_phone_slider_moves_the_shared_epsilon():
    # issue 31: on a phone the sidebar is collapsed; the page body has its own ε slider (shown by CSS below 640 px)
    at = AppTest.from_file(M101, default_timeout=120).run()
    body = at.main.select_slider(key="eps_body")
    assert body.value == at.sidebar.select_slider(key="eps").value == 1.0
    body.set_value(3.0).run()
    assert at.sidebar.select_slider(key="eps").value == 3.0 and _param(at, "eps") == "3"
    at.sidebar.select_slider(key="eps").set_value(0.5).run()
    assert at.main.select_slider(key="eps_body").value == 0.5
    assert not at.exception


def test_reset_keeps_the_noise_mode():
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params["noise"] = "private"
    at.query_params["eps"] = "2"
    at.run()
    at.button(key=RESET_KEY).click().run()
    assert not at.exception
    assert at.select_slider(key="eps").value == 1.0
    assert _param(at, "noise") == "private"


@pytest.mark.parametrize("page", [M101, str(ROOT / "pages" / "5_Privacy_audit.py")])
def test_explanations_are_collapsed_in_presenter_mode(page):
    from dpui.common.texts import text

    lead = text("m101", "loss_intro") if page == M101 else text("audit", "lead")
    plain = AppTest.from_file(page, default_timeout=300).run()
    assert any(m.value == lead for m in plain.main.markdown)
    assert not any(e.label == "How this works" for e in plain.expander)
    at = AppTest.from_file(page, default_timeout=300)
    at.query_params[PRESENT_KEY] = "1"
    at.run()
    box = next(e for e in at.expander if e.label == "How this works")
    assert any(m.value == lead for m in box.markdown)
