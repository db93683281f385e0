"""The shared sidebar: shared values, deep links, bad link values, seeds; Mechanisms 101 reacting to them."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
M101 = str(ROOT / "pages" / "1_Mechanisms_101.py")


def _metric(at, label):
    for m in at.metric:
        if m.label == label:
            return m.value
    raise AssertionError(f"no metric {label!r}; have {[m.label for m in at.metric]}")


@pytest.fixture
def m101():
    at = AppTest.from_file(M101, default_timeout=120)
    at.run()
    assert not at.exception
    return at


def test_moving_epsilon_changes_the_laplace_scale(m101):
    assert _metric(m101, "scale b") == "1"
    m101.select_slider(key="eps").set_value(0.1).run()
    assert _metric(m101, "scale b") == "10"
    assert _metric(m101, "worst |L(y)| = Δ/b") == "0.1"
    m101.select_slider(key="eps").set_value(4.0).run()
    assert _metric(m101, "scale b") == "0.25"
    assert not m101.exception


def test_deep_link_sets_epsilon_and_delta():
    # Mechanisms 101 shows ε only (δ does nothing there); the δ of the link is kept for the pages that use it
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params["eps"] = "3.5"
    at.query_params["delta"] = "1e-07"
    at.run()
    assert at.select_slider(key="eps").value == 3.5
    assert "delta" not in [w.key for w in at.sidebar.select_slider]
    assert _metric(at, "ε (sidebar)") == "3.5"
    bayes = AppTest.from_file(str(ROOT / "pages" / "2_Bayesian_ngram_DP.py"), default_timeout=120)
    bayes.query_params["eps"] = "3.5"
    bayes.query_params["delta"] = "1e-07"
    bayes.run()
    assert bayes.select_slider(key="delta").value == 1e-7


@pytest.mark.parametrize("raw", ["0", "-1", "abc", "11"])
def test_link_with_invalid_epsilon_warns_and_keeps_working(raw):
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params["eps"] = raw
    at.run()
    assert not at.exception
    assert any(f"eps={raw}" in w.value and "ε must be > 0" in w.value for w in at.warning)
    assert at.select_slider(key="eps").value == 1.0


def test_link_with_delta_of_one_warns():
    at = AppTest.from_file(M101, default_timeout=120)
    at.query_params["delta"] = "1"
    at.run()
    assert not at.exception
    assert any("delta=1" in w.value and "δ must be in (0, 1)" in w.value for w in at.warning)


def test_seed_fixes_the_sampled_histogram(m101):
    m101.query_params["m101_tab"] = "(d) Sample many times"  # the tab that draws with the seed (only it runs)
    m101.run()
    m101.select_slider(key="m101_draws").set_value(100).run()
    first = _metric(m101, "largest empirical ratio")
    m101.number_input(key="seed").set_value(0).run()
    assert _metric(m101, "largest empirical ratio") == first  # same seed, same draws
    values = set()
    for seed in (1, 2, 3, 4):
        m101.number_input(key="seed").set_value(seed).run()
        values.add(_metric(m101, "largest empirical ratio"))
    assert len(values | {first}) > 1  # other seeds, other draws


def test_wrong_sensitivity_is_flagged_on_the_page(m101):
    m101.query_params["m101_tab"] = "(c) Exponential mechanism"  # the tab of the Δu factor (only it runs)
    m101.run()
    assert not any("EXCEEDS" in str(m.delta) for m in m101.metric)
    m101.select_slider(key="m101_sens_factor").set_value(0.2).run()
    assert any("no longer ε-DP" in w.value for w in m101.warning)
    m101.select_slider(key="m101_sens_factor").set_value(1.0).run()
    assert not any("no longer ε-DP" in w.value for w in m101.warning)


def test_debt_scale_rule(m101):
    m101.query_params["m101_tab"] = "(b) Global sensitivity"  # the tab of the debt rule (only it runs)
    m101.run()
    radio = m101.radio(key="m101_debt_rule")
    radio.set_value(radio.options[0]).run()
    assert any("guarantee fails" in w.value for w in m101.warning)
    radio.set_value(radio.options[1]).run()
    assert any("every neighbour pair" in s.value for s in m101.success)


def test_hand_set_scale_beyond_epsilon_is_flagged(m101):
    m101.radio(key="m101_scale_mode").set_value("by hand").run()
    m101.slider(key="m101_b").set_value(0.5).run()  # worst loss 2 > ε = 1
    assert _metric(m101, "worst |L(y)| = Δ/b") == "2"
    assert not m101.exception


def test_laplace_sampling_exercise(m101):
    m101.query_params["m101_tab"] = "(d) Sample many times"  # the tab of the sampling (only it runs)
    m101.run()
    m101.radio(key="m101_sample_mech").set_value("Laplace").run()
    m101.select_slider(key="m101_draws").set_value(100_000).run()
    assert not m101.exception
    ratio = float(_metric(m101, "largest empirical ratio"))
    # 100k draws, bins with ≥ 30 draws: a ratio can exceed e^1 by sampling noise, but not wildly
    assert 1.0 < ratio < 2.718 * 1.6


def test_page_knobs_come_from_the_url():
    link = {"m101_scale_mode": "by hand", "m101_b": "4.0", "m101_debt_rule": "cap", "m101_sample_mech": "Laplace"}
    opened = {}
    for tab in (None, "(b) Global sensitivity", "(d) Sample many times"):  # each knob is drawn by its (lazy) tab
        at = AppTest.from_file(M101, default_timeout=120)
        for k, v in {**link, **({"m101_tab": tab} if tab else {})}.items():
            at.query_params[k] = v
        at.run()
        assert not at.exception
        opened[tab] = at
    assert opened[None].radio(key="m101_scale_mode").value == "by hand"
    assert _metric(opened[None], "scale b") == "4"
    assert opened["(b) Global sensitivity"].radio(key="m101_debt_rule").value == "cap"
    assert opened["(d) Sample many times"].radio(key="m101_sample_mech").value == "Laplace"


def test_exports_are_offered(m101):
    offered = 0
    for tab, key in (
        ("(c) Exponential mechanism", "m101_export_cities"),
        ("(d) Sample many times", "m101_export_sample"),
    ):
        m101.query_params["m101_tab"] = tab  # each tab offers its own (only the open tab runs)
        m101.query_params["exports"] = "1"  # in its export box (lazy, issue 29 item 4), opened by the link
        m101.run()
        offered += sum(key in b.proto.id for b in m101.get("download_button"))
    assert offered >= 4  # CSV + JSON for tabs (c) and (d)


# ------------------------------------------------------------------------------ ε drawn by the page's fragment (issue 29)
FRAGMENT_PAGE = """
import streamlit as st
from dpcore.errors import UserError
from dpui import shared_sidebar, user_errors

settings = shared_sidebar(uses=("eps", "seed"), epsilon_fragment=True)
try:
    settings.epsilon
except Exception as exc:  # read above the body: refused
    st.session_state["read_above"] = type(exc).__name__
if st.session_state.get("stop_before_body"):
    with user_errors():
        raise UserError("a knob says no")


def body(s):
    st.markdown(f"body at eps={s.epsilon:g}")


settings.with_epsilon(body)
"""


def test_epsilon_is_read_only_in_the_body_and_the_sidebar_keeps_it_when_the_page_stops_before():
    at = AppTest.from_string(FRAGMENT_PAGE, default_timeout=60)
    at.query_params["eps"] = "2"
    at.run()
    assert not at.exception
    assert at.session_state["read_above"] == "UndeclaredSetting"
    assert at.sidebar.select_slider(key="eps").value == 2.0
    assert [m.value for m in at.markdown if m.value.startswith("body")] == ["body at eps=2"]
    at.sidebar.select_slider(key="eps").set_value(3.0).run()
    assert [m.value for m in at.markdown if m.value.startswith("body")] == ["body at eps=3"]
    links = [m.value for m in at.sidebar.markdown if "](" in m.value]  # a script of its own: plain links
    assert links and all("eps=3" in v for v in links), links  # the navigation carries the new ε

    at.session_state["stop_before_body"] = True
    at.run()  # the page stops with its message before the body: ε stays in the sidebar, at its value
    assert [e.value for e in at.error] == ["a knob says no"]
    assert at.sidebar.select_slider(key="eps").value == 3.0
    assert not [m.value for m in at.markdown if m.value.startswith("body")]
