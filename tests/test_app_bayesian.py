"""The Bayesian n-gram DP page with AppTest: sliders move, tabs render, no exception, no error."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "pages" / "2_Bayesian_ngram_DP.py")


def metric(at, prefix):
    for m in at.metric:
        if m.label.startswith(prefix):
            return m.value
    raise AssertionError(f"no metric starting with {prefix!r}; have {[m.label for m in at.metric]}")


def clean(at):
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []


@pytest.fixture
def page():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    clean(at)
    return at


def test_default_render(page):
    assert len(page.tabs) == 9
    assert len(page.get("plotly_chart")) >= 3
    assert float(metric(page, "γ (brute force)")) > 0
    # ε = 1 with the classic calibration: the page says the bound is outside its proof
    assert any("outside its proof" in w.value for w in page.warning)
    badges = [md.value for md in page.markdown if "badge[" in md.value]
    # the paper's local γ is measured on the private data: orange "not DP", never a green DP badge
    assert any(b.startswith(":orange-badge[") and "local sensitivity" in b and "NOT DP" in b for b in badges)
    assert not any(b.startswith(":green-badge[") and "BayesianDP" in b for b in badges)
    assert any(b.startswith(":red-badge[") and "k-anonymity (K = 10) — not DP" in b for b in badges)
    assert any("lower than Laplace at ε = 0.1" in md.value for md in page.markdown)


def test_epsilon_moves_sigma_and_the_warning(page):
    sigma_1 = float(metric(page, "σ_ps (classic)"))
    page.select_slider(key="eps").set_value(0.1).run()
    clean(page)
    # classic σ_ps = ρ·γ·√(2 ln(1.25/δ))/ε: ten times smaller ε, ten times larger σ_ps (4 significant digits shown)
    assert float(metric(page, "σ_ps (classic)")) == pytest.approx(10 * sigma_1, rel=2e-3)
    assert not any("outside its proof" in w.value for w in page.warning)


def test_analytic_calibration(page):
    page.radio(key="bayes_calibration").set_value("analytic").run()
    clean(page)
    assert metric(page, "σ_ps (analytic)")
    assert not any("outside its proof" in w.value for w in page.warning)


def test_page_sliders_move(page):
    gamma = metric(page, "γ (brute force)")
    page.select_slider(key="bayes_S").set_value(1.0).run()
    clean(page)
    assert metric(page, "γ (brute force)") != gamma
    page.slider(key="bayes_rho").set_value(1.0).run()
    page.slider(key="bayes_C").set_value(3).run()
    page.slider(key="bayes_W").set_value(5).run()
    page.select_slider(key="bayes_K").set_value(50).run()
    page.slider(key="bayes_reps").set_value(3).run()
    clean(page)
    page.radio(key="bayes_n").set_value(2).run()
    clean(page)
    assert len(page.get("plotly_chart")) >= 3


@pytest.mark.parametrize("button", ["bayes_run_users", "bayes_run_vocabulary", "bayes_run_public",
                                    "bayes_run_ppl", "bayes_run_mia", "bayes_run_e2e"])
def test_experiment_tabs_run(page, button):
    page.slider(key="bayes_reps").set_value(2).run()
    if button == "bayes_run_mia":
        page.select_slider(key="bayes_trials").set_value(50).run()
    charts = len(page.get("plotly_chart"))
    frames = len(page.dataframe)
    page.button(key=button).click().run()
    clean(page)
    assert len(page.get("plotly_chart")) + len(page.dataframe) > charts + frames


def test_end_to_end_curve_toggle(page):
    page.slider(key="bayes_reps").set_value(2).run()
    assert not any("EndToEndDP (tuned)" in c.proto.spec for c in page.get("plotly_chart"))
    page.toggle(key="bayes_e2e_curve").set_value(True).run()
    clean(page)
    specs = [c.proto.spec for c in page.get("plotly_chart")]
    assert any("EndToEndDP (tuned)" in spec for spec in specs)
