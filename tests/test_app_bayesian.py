"""The Bayesian n-gram DP page with AppTest: sliders move, tabs render, no exception, no error. The tabs are lazy
(issue 24): a test opens the tab it reads (``open_tab``, as the URL's ``?bayes_tab=<label>`` does)."""

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from dpcore.bayesian import BAYESIAN, BAYESIAN_STRICT
from dpui.bayesian.views import TAB_KEY, TABS

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


def open_tab(at, label):
    """Open one of the page's tabs (what a click on it does: session state, then a rerun). AppTest sends its
    query parameters again on every run, where the tab's one wins: a page opened with ``bayes_tab`` in its URL
    gets the new label there too, as the browser's address bar shows it after the click."""
    at.session_state[TAB_KEY] = label
    if TAB_KEY in at.query_params:
        at.query_params[TAB_KEY] = label
    at.run()
    clean(at)
    return at


@pytest.fixture
def page():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    clean(at)
    return at


def test_default_render(page):
    assert len(page.tabs) == 9
    # the release's bars (Vega-Lite, issue 29: half Plotly's browser work per move); the text profile's two charts are
    # drawn when opened
    assert len(page.get("vega_lite_chart")) == 1
    # default mode: strict (DP) with γ_strict; default calibration: auto → analytic at ε = 1 (no warning)
    assert page.radio(key="bayes_mode").value == "strict"
    assert page.radio(key="bayes_calibration").value == "auto"
    assert float(metric(page, "γ (strict bound)")) > 0
    assert metric(page, "σ_ps (analytic)")
    assert not any("outside its proof" in w.value for w in page.warning)
    assert any("true δ" in c.value for c in page.caption)  # the classic σ's true δ beside it
    badges = [md.value for md in page.markdown if "badge[" in md.value]
    assert any(
        ":green-badge[🔒 Guarantee: BayesianDP strict — DP: (ε, δ)-DP per user (ε = 1, δ = 1e-05)" in b for b in badges
    )
    # both modes side by side; the local one red (not DP), never green
    assert any(":red-badge[⛔ Guarantee: BayesianDP local (as in the paper) — not DP:" in b for b in badges)
    assert not any(":green-badge[" in b and "local" in b for b in badges)
    assert [m.label for m in page.metric].count("KL to private") == 2
    open_tab(page, "k-anonymity vs ε")
    badges = [md.value for md in page.markdown if "badge[" in md.value]
    assert any(":red-badge[⛔ Guarantee: k-anonymity — not DP: k-anonymity (K = 10)]" in b for b in badges)
    open_tab(page, "KL vs ε")
    note = next(md.value for md in page.markdown if "Laplace's mean KL at ε = 0.1" in md.value)
    assert "as in the paper" in note and "our strict variant, which is (ε, δ)-DP" in note


def test_epsilon_moves_sigma_and_the_warning(page):
    page.radio(key="bayes_calibration").set_value("classic").run()
    clean(page)
    # ε = 1 with the classic calibration: the page says the bound is outside its proof, with its true δ
    assert any("outside its proof" in w.value and "true δ" in w.value for w in page.warning)
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


def test_local_mode_is_labelled_not_dp(page):
    page.radio(key="bayes_mode").set_value("local").run()
    clean(page)
    assert float(metric(page, "γ (brute force, local)")) > 0
    badges = [md.value for md in page.markdown if "badge[" in md.value]
    assert any(":red-badge[⛔ Guarantee: BayesianDP local — not DP:" in b for b in badges)
    assert not any(":green-badge[" in b and "BayesianDP local" in b for b in badges)


def test_n_max_below_the_corpus_is_an_error_naming_max_users(page):
    page.select_slider(key="bayes_Nmax").set_value(100).run()
    assert not page.exception
    assert any("max_users" in e.value for e in page.error)


def test_page_sliders_move(page):
    gamma = metric(page, "γ (strict bound)")
    page.select_slider(key="bayes_S").set_value(1.0).run()
    clean(page)
    assert metric(page, "γ (strict bound)") != gamma
    page.slider(key="bayes_L").set_value(10).run()
    clean(page)
    page.radio(key="bayes_mode").set_value("local").run()
    gamma = metric(page, "γ (brute force, local)")
    page.select_slider(key="bayes_S").set_value(0.1).run()
    clean(page)
    assert metric(page, "γ (brute force, local)") != gamma
    page.slider(key="bayes_rho").set_value(1.0).run()
    page.slider(key="bayes_C").set_value(3).run()
    page.slider(key="bayes_W").set_value(5).run()
    page.select_slider(key="bayes_K").set_value(50).run()
    page.slider(key="bayes_reps").set_value(3).run()
    clean(page)
    page.radio(key="bayes_n").set_value(2).run()
    clean(page)
    page.session_state["bayes_profile_open"] = True  # the text profile's two charts (lazy, issue 29)
    page.run()
    clean(page)
    assert len(page.get("plotly_chart")) + len(page.get("vega_lite_chart")) >= 3


BUTTON_TAB = {
    "bayes_run_users": "Users",
    "bayes_run_vocabulary": "Vocabulary",
    "bayes_run_public": "Public quality",
    "bayes_run_ppl": "Perplexity",
    "bayes_run_mia": "Membership inference",
    "bayes_run_e2e": "Private tuning",
}


@pytest.mark.parametrize(
    "button",
    ["bayes_run_users", "bayes_run_vocabulary", "bayes_run_public", "bayes_run_ppl", "bayes_run_mia", "bayes_run_e2e"],
)
def test_experiment_tabs_run(page, button):
    page.slider(key="bayes_reps").set_value(2).run()
    open_tab(page, BUTTON_TAB[button])
    if button == "bayes_run_mia":
        page.select_slider(key="bayes_trials").set_value(50).run()
    charts = len(page.get("plotly_chart"))
    frames = len(page.dataframe)
    before = {c.proto.spec for c in page.get("plotly_chart")}
    page.button(key=button).click().run()
    clean(page)
    assert len(page.get("plotly_chart")) + len(page.dataframe) > charts + frames
    if button in ("bayes_run_users", "bayes_run_vocabulary", "bayes_run_public"):  # 000 Figs. 2–4: strict beside
        new = [c.proto.spec for c in page.get("plotly_chart") if c.proto.spec not in before]
        assert len(new) == 1
        names = {t["name"] for t in json.loads(new[0])["data"]}  # each names its guarantee (issue 31 item 3)
        assert f"{BAYESIAN_STRICT} · DP" in names and f"{BAYESIAN} · not DP" in names


def test_end_to_end_curve_toggle(page):
    page.slider(key="bayes_reps").set_value(2).run()
    open_tab(page, "KL vs ε")
    assert not any("EndToEndDP (tuned)" in c.proto.spec for c in page.get("plotly_chart"))
    page.toggle(key="bayes_e2e_curve").set_value(True).run()
    clean(page)
    specs = [c.proto.spec for c in page.get("plotly_chart")]
    assert any("EndToEndDP (tuned)" in spec for spec in specs)


def test_what_this_text_looks_like_panel(page):
    """Issue 20 item 4 on the Bayesian page: the activity's heavy tail against the W and L caps (dpcore.text.text_profile)."""
    import dpcore

    chat = dpcore.text.text_profile(dpcore.load_real_corpus("chat", which="private"), max_k=9, ks=(10, 100))
    closed = next(e for e in page.expander if e.label.startswith("🔎 What this text looks like"))
    assert not closed.children  # built only while open (issue 29 item 4: it is ε-free)
    page.session_state["bayes_profile_open"] = True
    page.run()
    panel = next(e for e in page.expander if e.label.startswith("🔎 What this text looks like"))
    note = next(
        m.value
        for m in panel.markdown
        if m.value.startswith("**What this means for the Bayesian page** (real chat (920 people))")
    )
    act = chat.activity()
    assert f"the most active 10 people wrote {act['top10_share']:.0%} of the sentences" in note
    assert f"keeps at most W = 2 tokens per person — {chat.kept_tokens(2):.1%} of this text" in note
    assert f"at most L = 50 distinct 1-grams per person ({chat.kept_share(1, 50):.0%} of the" in note
    assert {"bayes_profile_shared", "bayes_profile_activity"} <= {c.key for c in page.get("plotly_chart")}


def test_tabs_are_lazy_and_in_the_url(monkeypatch):
    """Issue 24: an ε move computes and sends the open tab only; the open tab is the URL's ``bayes_tab``."""
    from dpui.bayesian import data as bayesian_data
    from dpui.bayesian import figures as bayesian_figures

    calls = {"kl_epsilon_for": 0, "kanon_figure": 0, "data_sweep": 0}
    for module, name in (
        (bayesian_data, "kl_epsilon_for"),
        (bayesian_figures, "kanon_figure"),
        (bayesian_data, "data_sweep"),
    ):

        def counted(*args, _real=getattr(module, name), _name=name, **kwargs):
            calls[_name] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["seed"] = "7"
    at.run()
    clean(at)
    assert at.session_state[TAB_KEY] == TABS[0] == "Release"  # the default tab: the page's main chart
    assert [t.label for t in at.tabs] == list(TABS)  # every tab is offered
    at.select_slider(key="eps").set_value(2.0).run()
    clean(at)
    shown = chart_keys(at)
    assert "bayes_bars" in shown and not shown & {"bayes_kl_eps", "bayes_kanon"}
    assert calls == {"kl_epsilon_for": 0, "kanon_figure": 0, "data_sweep": 0}  # nothing computed for hidden tabs
    assert not any(b.key == "bayes_run_users" for b in at.button)
    open_tab(at, "KL vs ε")
    shown = chart_keys(at)
    assert "bayes_kl_eps" in shown and not shown & {"bayes_bars", "bayes_kanon"}
    assert calls["kl_epsilon_for"] > 0 and calls["kanon_figure"] == 0
    # a shared link opens the same tab
    link = AppTest.from_file(PAGE, default_timeout=120)
    link.query_params["bayes_tab"] = "k-anonymity vs ε"
    link.run()
    clean(link)
    shown = chart_keys(link)
    assert "bayes_kanon" in shown and not shown & {"bayes_bars", "bayes_kl_eps"}
    # a tab's own knob comes from a link with its tab
    link = AppTest.from_file(PAGE, default_timeout=120)
    link.query_params["bayes_tab"] = "Membership inference"
    link.query_params["bayes_trials"] = "200"
    link.run()
    clean(link)
    assert link.select_slider(key="bayes_trials").value == 200
    # and keeps its value while another tab is open
    open_tab(at, "Release")
    at.slider(key="bayes_top").set_value(50).run()
    open_tab(at, "KL vs ε")
    open_tab(at, "Release")
    assert at.slider(key="bayes_top").value == 50


def test_session_budget_counts_end_to_end_only_when_its_tab_shows_it():
    """The session budget lists the releases the person was shown: EndToEndDP's release is drawn in its tab (after
    its button), so it is counted when that tab is open, at the ε it was shown at, and not at an ε moved to while
    another tab is open. The page's BayesianDP release is shown below the tabs (its σ and KL), and the other mode's
    beside it (the side-by-side panel), so every ε counts both."""

    def entries(at):
        return [(e.mechanism, e.epsilon) for e in next(iter(at.session_state["_session_budget"].values()))]

    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    open_tab(at, "Private tuning")
    at.button(key="bayes_run_e2e").click().run()
    clean(at)
    view = ["BayesianDP strict", "BayesianDP local (side by side)"]
    assert [m for m, _ in entries(at)] == view + ["EndToEndDP"]
    open_tab(at, "Release")
    at.select_slider(key="eps").set_value(2.0).run()  # EndToEndDP at ε = 2 is not drawn: its tab is closed
    clean(at)
    assert [m for m, _ in entries(at)] == view + ["EndToEndDP"] + view
    assert entries(at)[-2][1] == 2.0
    open_tab(at, "Private tuning")  # shown now (the button stays pressed): counted
    assert [m for m, _ in entries(at)] == view + ["EndToEndDP"] + view + ["EndToEndDP"]
    assert any("EndToEndDP" in md.value for md in at.markdown if "badge[" in md.value)


@pytest.mark.parametrize("query", [{}, {"eps": "10", "bayes_S": "1"}])
def test_release_says_when_the_public_data_alone_beats_it(query):
    """Issue 31 item 2: the page opened on KL 12.97 against 0.054 for the public data alone and never said that the
    release was ~240× worse, and its caption ("frequent ones (w = 1) keep their private weight") contradicted the
    metric "n-grams with w < 1: 100 %". Under the release's chart the page says, from the numbers it shows, when the
    public baseline has the lower KL and by how much, and the caption follows the w < 1 share."""
    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception
    kl_now, kl_public = float(metric(at, "KL, this release")), float(metric(at, "KL, public only"))
    shrunk = float(metric(at, "n-grams with w < 1").rstrip("%")) / 100
    beats = [w.value for w in at.warning if "The public data alone beats this release" in w.value]
    assert kl_now > kl_public and len(beats) == 1
    assert f"KL {kl_public:.3g} for public data against {kl_now:.3g}" in beats[0]
    import re

    times = float(re.search(r"\(([\d,.]+)× worse", beats[0]).group(1).replace(",", ""))
    assert times == pytest.approx(kl_now / kl_public, rel=2e-3)  # the metrics are rounded to 4 digits
    captions = " ".join(c.value for c in at.caption)
    assert "frequent ones (w = 1) keep their private weight" not in captions
    if shrunk == 1.0:
        assert "every n-gram is shrunk towards the prior (w < 1 for all of them)" in captions
    else:
        assert f"the {1 - shrunk:.1%} of the vocabulary written by at least C/S = 1 users keep" in captions


def chart_keys(at: AppTest) -> set[str]:
    """The charts drawn: Plotly figures by key, and the release's bars, the page's one Vega-Lite chart (issue 29;
    AppTest does not keep a Vega-Lite chart's key), by its title."""
    keys = {c.key for c in at.get("plotly_chart")}
    for c in at.get("vega_lite_chart"):
        if json.loads(c.proto.spec)["title"]["text"].startswith("Top "):
            keys.add("bayes_bars")
    return keys


def _verdict_app(kl_now, kl_public, kl_noise_free):
    def app(kl_now, kl_public, kl_noise_free):
        from dpui.bayesian.views import verdict

        verdict(kl_now=kl_now, kl_public=kl_public, kl_noise_free=kl_noise_free, sigma=5.56, S=1e-3, rho=0.3)

    at = AppTest.from_function(app, default_timeout=60, args=(kl_now, kl_public, kl_noise_free))
    at.run()
    clean(at)
    return at


@pytest.mark.parametrize(
    "kl_now, kl_public, kl_noise_free, says",
    [
        (12.97, 0.0542, 0.352, "No ε changes that: without noise (ε → ∞) its KL is"),
        (0.9, 0.0542, 0.03, "The noise is what loses: without noise (ε → ∞) its KL would be"),
        (0.04, 0.0542, 0.03, None),
    ],
)
def test_verdict_says_whether_the_public_data_beats_the_release_and_whether_any_epsilon_could_change_it(
    kl_now, kl_public, kl_noise_free, says
):
    """Issue 31 item 2: the page's first sentence. When the public baseline has the lower KL it says so with the
    ratio, and, from the release without noise (ε → ∞), whether a larger ε could change that (12.97 against 0.0542
    with 0.352 without noise: no ε can); when the release has the lower KL it says that instead, in green."""
    at = _verdict_app(kl_now, kl_public, kl_noise_free)
    if says is None:
        assert [w.value for w in at.warning] == []
        assert len(at.success) == 1 and "This release beats the public data alone" in at.success[0].value
        assert f"KL {kl_now:.3g} for the release against {kl_public:.3g}" in at.success[0].value
        return
    assert len(at.success) == 0
    (warning,) = [w.value for w in at.warning]
    assert "The public data alone beats this release" in warning
    assert f"({kl_now / kl_public:,.1f}× worse" in warning
    assert says in warning
    assert f"{kl_noise_free:.3g}" in warning.split("ε → ∞")[1]


def test_the_verdict_is_the_pages_first_sentence():
    """Issue 31 item 2: directly under the title, before the page's lead text, and only once."""
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.run()
    clean(at)
    kinds = [(e.type, getattr(e, "value", "")) for e in at.main]
    title = next(i for i, (t, v) in enumerate(kinds) if t == "title")
    after = [(t, v) for t, v in kinds[title + 1 :] if t in ("alert", "markdown", "warning", "success")]
    first_type, first = after[0]
    assert "The public data alone beats this release" in first or "This release beats the public data alone" in first
    assert sum("beats" in str(v) for t, v in kinds if t in ("warning", "success")) == 1


def test_release_chart_log_axis_draws_bars_a_linear_axis_hides():
    """Issue 31 item 2: released probabilities ~1e-8 against ~0.04 drew no visible bar. On the log axis every bar
    rises from a decade under the smallest value (Vega-Lite draws no bar from 0 on a log scale), the plotted numbers
    are the data's, and the alt text gives the released value to three digits (not "0.0000")."""
    from dpui.bayesian.figures import release_chart
    from dpui.bayesian.views import HIDDEN_BELOW, hidden_release

    private = np.array([0.0442, 0.0286, 0.0271])
    public = np.array([0.0426, 0.0281, 0.0255])
    theta = np.array([8.17e-9, 2.3e-9, 5.86e-11])
    order, labels = np.arange(3), ["i", "the", "to"]
    assert hidden_release(private, theta) == pytest.approx(np.median(theta / private))
    assert hidden_release(private, theta) < HIDDEN_BELOW <= hidden_release(private, 0.5 * private)
    rows, spec, alt = release_chart(labels, order, private, public, theta, n=1, log=True)
    y = spec["encoding"]["y"]
    assert y["scale"]["type"] == "log" and y["scale"]["domainMin"] == pytest.approx(1e-11)
    assert spec["encoding"]["y2"] == {"datum": y["scale"]["domainMin"]}
    assert 1e-11 < 5.86e-11 and 5.86e-11 / 1e-11 < 10  # a decade under the smallest bar, never above it
    assert sorted(r["probability"] for r in rows) == sorted([*private, *public, *theta])
    assert "i: 0.0442, 0.0426, 8.17e-09" in alt and "logarithmic" in alt
    rows_lin, spec_lin, alt_lin = release_chart(labels, order, private, public, theta, n=1)
    assert "scale" not in spec_lin["encoding"]["y"] and "y2" not in spec_lin["encoding"] and rows_lin == rows


def test_release_axis_is_log_exactly_when_the_released_bars_would_be_hidden(page):
    """The page's "auto" axis: logarithmic iff the median released/private probability of the drawn n-grams is
    under HIDDEN_BELOW (computed here from the chart's own data); "linear" always linear, "log" always log."""
    import pyarrow as pa

    from dpui.bayesian.views import HIDDEN_BELOW

    def chart(at):
        (c,) = at.get("vega_lite_chart")
        frame = pa.ipc.open_stream(c.proto.data.data).read_pandas()
        return json.loads(c.proto.spec), frame

    spec, frame = chart(page)
    private = frame[frame["series"].str.startswith("private")]["probability"].to_numpy()
    released = frame[frame["series"].str.startswith("BayesianDP release")]["probability"].to_numpy()
    hidden = float(np.median(released / private))
    assert (spec["encoding"]["y"].get("scale", {}).get("type") == "log") == (hidden < HIDDEN_BELOW)
    assert any("Logarithmic probability axis" in c.value for c in page.caption) == (hidden < HIDDEN_BELOW)
    page.radio(key="bayes_axis").set_value("linear").run()
    clean(page)
    assert "scale" not in chart(page)[0]["encoding"]["y"]
    page.radio(key="bayes_axis").set_value("log").run()
    clean(page)
    assert chart(page)[0]["encoding"]["y"]["scale"]["type"] == "log"
