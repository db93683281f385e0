"""AppTest checks of pages/3_DP_ngram_extraction.py: widgets move, tabs render, charts carry the numbers."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from dpui.dpne.views import SECTIONS

import dpcore

PAGE = str(Path(__file__).resolve().parent.parent / "pages" / "3_DP_ngram_extraction.py")

try:
    dpcore.load_sample_corpus("private", max_users=1)
    HAVE_SAMPLE = True
except dpcore.CorpusError:
    HAVE_SAMPLE = False

pytestmark = pytest.mark.skipif(not HAVE_SAMPLE, reason="sample corpus not generated yet")


def fresh_app(**params) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=180)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


SWEEP = "Sweep one knob (Figs. 2–4)"  # the second tab's label (dpne_tab=… in the URL opens it)


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert len(at.error) == 0, [e.value for e in at.error]


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def title_text(spec: dict) -> str:
    """A chart's title as read: the lines a narrow screen's wrapping puts in (dpui.common.charts.fit_narrow) joined."""
    return spec["layout"].get("title", {}).get("text", "").replace("<br>", " ")


def chart_by_title(at: AppTest, start: str) -> dict:
    for spec in charts(at):
        if title_text(spec).startswith(start):
            return spec
    raise AssertionError(f"no chart titled {start!r}; titles: {[c['layout'].get('title') for c in charts(at)]}")


OPEN_SECTIONS = {k: "true" for k in SECTIONS}  # the lazy sections below the bars, opened as a link does


def test_page_renders_tabs_charts_and_guarantee():
    at = fresh_app(**OPEN_SECTIONS)
    assert [t.label for t in at.tabs] == ["Extraction at these settings", "Sweep one knob (Figs. 2–4)"]
    titles = [title_text(c) for c in charts(at)]
    assert any(t.startswith("n-grams extracted per length") for t in titles)
    assert any(t.startswith("Share of the k-grams used by at least K users") for t in titles)
    assert any(t.startswith("Share of released n-grams that no user wrote") for t in titles)
    for c in at.get("plotly_chart"):
        assert c.proto.alt.strip()  # every chart has alt text
    for spec in charts(at):  # axis titles present
        assert spec["layout"]["xaxis"]["title"]["text"] and spec["layout"]["yaxis"]["title"]["text"]
    badges = [f"{m.value} {m.proto.help}" for m in at.markdown if "badge[" in m.value]  # chip + its tooltip
    # the page's own default ε, δ (dpui.dpne.data.PAGE_DEFAULTS: Table 4's ε, where the real chat shows the effect)
    assert any(":green-badge[🔒 Guarantee: DPNE — DP: (ε, δ)-DP per user (ε = 4, δ = 1e-06)" in b for b in badges)
    assert any("DPSU-single — DP: (ε, δ)-DP per user" in b and "for each length separately" in b for b in badges)
    # formulas: the step view; the budget and the thresholds in a lazy expander, drawn once it is open (issue 29)
    assert len(at.get("latex")) == 1
    assert len(fresh_app(dpne_budget_open="true", **OPEN_SECTIONS).get("latex")) >= 3
    assert any("k-anonymity — not DP" in c.value for c in at.caption)
    # no stray "magic" output of internal arrays (a bare expression in a cached function once leaked)
    assert not any("array(" in m.value for m in at.markdown)
    step_values = at.dataframe[-1].value["value"].tolist()
    assert "." not in step_values[0] and "." not in step_values[1]  # |S_{k−1}|, |V_k| shown as integers
    spur = chart_by_title(at, "Share of released n-grams that no user wrote")
    names = [tr["name"] for tr in spur["data"]]
    # each line is DPNE's release (issue 31 item 3: the legend names its guarantee), the target a reference
    assert names[:5] == [f"k = {k} · DP" for k in range(2, 7)] and "y = η (the target) · reference" in names
    assert spur["layout"]["xaxis"]["type"] == "log"


def test_the_sections_below_the_bars_run_only_while_open():
    """Issue 29 item 4: the coverage, the spurious share and the step view are below the fold. Closed (the default),
    nothing of them is computed or sent — one chart per move, the release's bars; each opens by itself, and the
    open state is in the URL (a shared link opens the same sections)."""
    at = fresh_app()
    assert [c.key for c in at.get("plotly_chart")] == ["dpne_bars"]
    assert not at.get("latex") and "dpne_K" not in {m.key for m in at.multiselect}
    assert {e.label for e in at.expander} >= set(SECTIONS.values())
    at = fresh_app(dpne_spurious_open="true")
    assert [c.key for c in at.get("plotly_chart")] == ["dpne_bars", "dpne_spurious"]
    assert at.session_state["dpne_spurious_open"] is True  # the link's value reached the expander's bound state
    at = fresh_app(dpne_coverage_open="true", dpne_step_open="true")
    assert [c.key for c in at.get("plotly_chart")] == ["dpne_bars", "dpne_cov"]
    assert "dpne_K" in {m.key for m in at.multiselect} and len(at.get("latex")) == 1


def test_dpne_beats_dpsu_even_on_long_ngrams_at_eps4_and_chart_shows_it():
    at = fresh_app(corpus="classroom")  # synthetic text: DPSU-even also finds long n-grams there
    at.select_slider(key="eps").set_value(4.0)
    at.select_slider(key="delta").set_value(1e-7)
    at.run()
    assert_clean(at)
    spec = chart_by_title(at, "n-grams extracted per length")
    bars = {tr["name"]: dict(zip(tr["x"], tr["y"])) for tr in spec["data"]}
    assert set(bars) == {"DPNE · DP", "DPSU-all · DP", "DPSU-even · DP", "DPSU-single · DP"}  # each names its guarantee
    long_dpne = sum(n for k, n in bars["DPNE · DP"].items() if k >= 4)
    long_even = sum(n for k, n in bars["DPSU-even · DP"].items() if k >= 4)
    # the calibrated classroom corpus (issue 20): DPNE 105 n-grams of length >= 4, DPSU-even none (it was
    # ahead but both > 0 on the previous generator's corpus)
    assert long_dpne >= 50 and long_even <= 5, (bars["DPNE · DP"], bars["DPSU-even · DP"])


def test_default_view_on_the_real_chat_shows_dpne_ahead_of_dpsu_single():
    """003 Table 4's shape on real text: the page opens on the real chat (920 people) at ε = 4, δ = 1e-6, where DPNE
    releases more k-grams than DPSU-single at k = 2…4 (issue 20; the mean over seeds is in Paper vs here)."""
    from dpui.dpne.data import PAGE_DEFAULTS

    at = fresh_app()
    assert at.radio(key="corpus").value == "chat"
    assert (at.select_slider(key="eps").value, at.select_slider(key="delta").value) == (
        PAGE_DEFAULTS["eps"],
        PAGE_DEFAULTS["delta"],
    )
    bars = {
        tr["name"]: dict(zip(tr["x"], tr["y"])) for tr in chart_by_title(at, "n-grams extracted per length")["data"]
    }
    assert all(bars["DPNE · DP"][k] > bars["DPSU-single · DP"][k] for k in (2, 3, 4)), bars
    assert bars["DPNE · DP"][5] >= bars["DPSU-single · DP"][5]
    # and it says what ε the 920 people need (the stored sweep of dpcore.lab.paper_results.dpne_epsilon_sweep)
    from dpui.common.paper_vs_here import load_results

    sentence = load_results()["comparisons"]["table4_chat"]["epsilon_sweep"]["sentence"]
    assert any("This page opens at **ε = 4, δ = 1e-06**" in i.value and sentence in i.value for i in at.info)
    assert not any(sentence in i.value for i in fresh_app(corpus="classroom").info)  # the chat's numbers, on the chat


def test_page_default_epsilon_stays_on_this_page():
    """The page's own ε = 4 is not carried to the other pages; an ε the user sets is."""
    at = AppTest.from_file(str(Path(PAGE).parent.parent / "app.py"), default_timeout=180)
    at.run()
    at.switch_page("pages/3_DP_ngram_extraction.py").run()
    assert_clean(at)
    assert at.select_slider(key="eps").value == 4.0
    at.switch_page("pages/2_Bayesian_ngram_DP.py").run()
    assert at.select_slider(key="eps").value == 1.0 and at.select_slider(key="delta").value == 1e-5
    at.switch_page("pages/3_DP_ngram_extraction.py").run()
    at.select_slider(key="eps").set_value(2.0).run()
    at.switch_page("pages/2_Bayesian_ngram_DP.py").run()
    assert at.select_slider(key="eps").value == 2.0
    at.switch_page("pages/3_DP_ngram_extraction.py").run()
    assert at.select_slider(key="eps").value == 2.0


def test_widgets_move_and_page_updates():
    at = fresh_app(**OPEN_SECTIONS)
    metric = lambda label: next(m.value for m in at.metric if m.label.startswith(label))
    rho_before = metric("ρ₁ (DPSU threshold)")
    sizes_before = chart_by_title(at, "n-grams extracted per length")["data"][0]["y"]
    at.select_slider(key="dpne_eta").set_value(0.2)
    at.run()
    assert_clean(at)
    at.number_input(key="dpne_delta0").set_value(5)
    at.slider(key="dpne_T").set_value(3)
    at.select_slider(key="dpne_c").set_value(0.8)
    at.radio(key="dpne_pruning").set_value("single")
    at.radio(key="dpne_selection").set_value("most-frequent")
    at.radio(key="dpne_policy").set_value("policy")
    at.toggle(key="dpne_log").set_value(False)
    at.multiselect(key="dpne_K").set_value([5, 50])
    at.run()
    assert_clean(at)
    spec = chart_by_title(at, "n-grams extracted per length")
    assert all(max(tr["x"]) == 3 for tr in spec["data"])  # T = 3
    assert spec["layout"]["yaxis"].get("type") != "log"
    cov = chart_by_title(at, "Share of the k-grams used by at least K users")
    assert [tr["name"] for tr in cov["data"]] == ["K = 5 · DP", "K = 50 · DP"]  # DPNE's release, read at each K
    # (the total alone can coincide — 161 = 60+60+20+11+7+3 = 22+104+35 with issue 21's draws — so compare
    # ρ₁, a function of Δ0, and the sizes per length)
    assert metric("ρ₁ (DPSU threshold)") != rho_before
    assert spec["data"][0]["y"] != sizes_before[:3]
    # the step-by-step view follows its slider
    at.select_slider(key="dpne_step_k").set_value(3)
    at.run()
    assert_clean(at)
    assert any(r"\rho_{3}" in l.value for l in at.get("latex") if hasattr(l, "value")) or any(
        r"\rho_{3}" in str(l.proto) for l in at.get("latex")
    )


def test_sweep_tab_runs_and_plots_one_line_per_value():
    at = fresh_app(dpne_tab=SWEEP)
    at.slider(key="dpne_T").set_value(4)
    at.selectbox(key="dpne_sweep_knob").set_value("noise_decay")
    at.run()
    assert_clean(at)
    assert any("Run the sweep" in i.value for i in at.info)
    at.button(key="dpne_sweep_run").click()
    at.run()
    assert_clean(at)
    spec = chart_by_title(at, "DPNE: n-grams released per length as c varies")
    assert [tr["name"] for tr in spec["data"]] == [f"c = {v} · DP" for v in (0.8, 0.9, 1.0, 1.1, 1.2)]
    assert all(len(tr["y"]) == 4 for tr in spec["data"])
    # changing a setting flags the stored sweep as stale instead of silently recomputing
    at.select_slider(key="dpne_eta").set_value(0.05)
    at.run()
    assert_clean(at)
    assert any("settings changed" in w.value for w in at.warning)


def test_edge_settings_render_messages_not_errors():
    at = fresh_app(**OPEN_SECTIONS)
    at.slider(key="dpne_T").set_value(1)
    at.run()
    assert_clean(at)
    assert any("No length ≥ 2 was reached" in i.value for i in at.info)
    at.slider(key="dpne_T").set_value(10)
    at.select_slider(key="eps").set_value(0.01)  # nothing passes ρ₁ on the chat's 920 people
    at.multiselect(key="dpne_K").set_value([])
    at.run()
    assert_clean(at)
    assert next(m.value for m in at.metric if m.label.startswith("n-grams released")) == "0"
    assert any("Pick at least one K" in i.value for i in at.info)


def test_large_corpus_waits_for_buttons_then_draws_the_comparisons(monkeypatch):
    """Above dpui.dpne.data.LAZY_USERS users (the paper-size sample) the DPSU baselines and the coverage wait for
    their buttons; DPNE's own release and the η sweep (every η of the slider, from the cached plan) are drawn at
    once. Lowered here so the classroom corpus counts as large."""
    from dpui.dpne import data as dpne_data

    monkeypatch.setattr(dpne_data, "LAZY_USERS", 10)
    at = fresh_app(**OPEN_SECTIONS)
    names = {t["name"] for spec in charts(at) for t in spec["data"] if t.get("name")}
    assert "DPNE · DP" in names and not names & {"DPSU-all · DP", "DPSU-even · DP", "DPSU-single · DP"}
    assert {"dpne_run_baselines", "dpne_run_coverage"} <= {b.key for b in at.button}
    assert "dpne_run_eta_sweep" not in {b.key for b in at.button}
    assert sum("takes minutes: press the button" in i.value for i in at.info) == 2
    assert any(c.key == "dpne_spurious" for c in at.get("plotly_chart"))  # the η sweep, at once
    for key in ("dpne_run_baselines", "dpne_run_coverage"):
        at.button(key=key).click()
        at.run()
        assert_clean(at)
    names = {t["name"] for spec in charts(at) for t in spec["data"] if t.get("name")}
    assert {"DPSU-all · DP", "DPSU-even · DP", "DPSU-single · DP"} <= names
    assert not [i for i in at.info if "takes minutes" in i.value]
    at.select_slider(key="dpne_eta").set_value(0.05).run()  # the buttons stay pressed for the session
    assert_clean(at)
    assert not [i for i in at.info if "takes minutes" in i.value]


def test_defaults_caption_states_this_corpus_s_median_user():
    """Issue 24 item 2: the caption justified Δ0 = 50 by "the 2,400-user sample" (the corpus has 3,000 users): it
    now says how many users the shown corpus has and how many distinct words its median user holds."""
    import numpy as np

    at = fresh_app()
    corpus = dpcore.load_real_corpus("chat", which="private")  # the default data
    words = float(np.median(dpcore.lab.review.items_per_user(dpcore.text.encode_corpus(corpus))))
    caption = next(c.value for c in at.caption if c.value.startswith("The paper's Fig. 1 / Table 4"))
    assert f"the median user of this corpus, {corpus.n_users:,} users, holds {words:,.0f} distinct words" in caption
    assert "2,400" not in caption


def test_what_this_text_looks_like_panel_on_the_real_chat():
    """Issue 20 item 4: the real chat beside the synthetic classroom corpus at the same number of people, and the
    measured reason for DPNE vs DPSU-single on this run (dpcore.text.dpne_vs_dpsu_reason). The panel is a lazy
    expander (issue 29 item 4): nothing of it is computed or sent until it is opened (``dpne_profile_open``)."""
    closed = fresh_app()
    panel = next(e for e in closed.expander if e.label.startswith("🔎 What this text looks like"))
    assert not panel.markdown and not any(c.key == "dpne_profile_activity" for c in closed.get("plotly_chart"))
    at = fresh_app(dpne_profile_open="true")
    panel = next(e for e in at.expander if e.label.startswith("🔎 What this text looks like"))
    chat = dpcore.text.text_profile(dpcore.load_real_corpus("chat", which="private"), max_k=9, ks=(10, 100))
    synth = dpcore.text.text_profile(
        dpcore.load_sample_corpus("private"), max_k=9, ks=(10, 100), max_users=chat.n_users
    )
    shared = chart_by_title(at, "k-grams used by at least K people")
    lines = {tr["name"]: tr["y"] for tr in shared["data"]}
    assert lines["real chat (920 people), ≥ 10 · no noise"] == [v or None for v in chat.shared[10]]  # not a release
    assert lines["synthetic classroom, first 920 users, ≥ 10 · no noise"] == [v or None for v in synth.shared[10]]
    table = next(d.value for d in panel.dataframe if "real chat (920 people): mean (median)" in d.value.columns)
    assert table["real chat (920 people): mean (median)"].tolist()[3] == (
        f"{chat.distinct_mean[3]:,.0f} ({chat.distinct_median[3]:,.0f})"
    )
    why = next(m.value for m in panel.markdown if m.value.startswith("**Why, measured on this run"))
    assert f"{chat.shared_at(4, 10):,} 4-grams are used by ≥ 10 users" in why
    assert f"({chat.kept_share(4, 50):.0%} of all (user, 4-gram) pairs)" in why
    assert any(c.key == "dpne_profile_activity" for c in at.get("plotly_chart"))


def _budget_head(at: AppTest) -> str:
    return next(m.value for m in at.sidebar.markdown if m.value.startswith("**Session budget**"))


def test_only_the_open_tab_runs_and_the_budget_counts_what_was_shown():
    """Issue 24: the tabs are lazy and the open one is in the URL (``dpne_tab``). The extraction tab shows DPNE's
    release and the session budget counts it; the sweep tab neither runs nor shows DPNE at the current settings,
    so it has no reviewer's panel and the budget counts nothing there, ε moves included."""
    at = fresh_app()
    assert any(c.key == "dpne_bars" for c in at.get("plotly_chart"))
    assert any("Reviewer's panel" in e.label for e in at.expander)
    assert _budget_head(at).startswith("**Session budget** — 1 release seen")
    assert "dpne_sweep_knob" not in {s.key for s in at.selectbox}  # the sweep tab's widgets are not drawn
    at.query_params["dpne_tab"] = SWEEP  # what a click on the tab does to the URL
    at.run()
    assert_clean(at)
    assert at.session_state["dpne_tab"] == SWEEP
    assert "dpne_sweep_knob" in {s.key for s in at.selectbox}
    assert not at.get("plotly_chart") and not at.metric  # nothing of the extraction tab ran
    assert not any("Reviewer's panel" in e.label for e in at.expander)
    at.select_slider(key="eps").set_value(2.0).run()  # a new DPNE release, not shown on this tab
    assert_clean(at)
    assert _budget_head(at).startswith("**Session budget** — 1 release seen")
    assert fresh_app(dpne_tab=SWEEP).session_state["dpne_tab"] == SWEEP  # a shared link opens the same tab


def test_an_exercise_opens_the_extraction_tab():
    """An exercise's answer is read in the extraction tab: its link opens that tab, whatever tab the link names."""
    at = fresh_app(exercise="dpne-noise-decay", dpne_tab=SWEEP)
    assert at.session_state["dpne_tab"] == "Extraction at these settings"
    assert any(c.key == "dpne_bars" for c in at.get("plotly_chart"))
    at.query_params["dpne_tab"] = SWEEP  # the student may then move on to the sweep
    at.run()
    assert_clean(at)
    assert at.session_state["dpne_tab"] == SWEEP and "dpne_sweep_knob" in {s.key for s in at.selectbox}


def test_eta_chart_is_one_release_until_asked_and_then_the_budget_counts_every_eta():
    """Issue 30 item 3: the spurious-vs-η chart showed DPNE at 8 η while the session budget counted one release. By
    default it is the evaluation of the one release above (one η, budget 1, said on screen); "Compare every η" runs
    the other 7 and the session budget counts each of them (said on screen)."""
    from dpui.dpne.data import ETA_OPTIONS

    at = fresh_app(**OPEN_SECTIONS)
    fig = chart_by_title(at, "Share of released n-grams that no user wrote")
    assert next(t for t in fig["data"] if t["name"] == "all lengths · DP")["x"] == [0.01]
    assert _budget_head(at).startswith("**Session budget** — 1 release seen")
    assert any(
        c.value.startswith("Spurious = released") and "Shown: the one release above" in c.value for c in at.caption
    )
    at.button(key="dpne_eta_compare").click().run()
    assert_clean(at)
    fig = chart_by_title(at, "Share of released n-grams that no user wrote")
    assert next(t for t in fig["data"] if t["name"] == "all lengths · DP")["x"] == list(ETA_OPTIONS)
    assert _budget_head(at).startswith(f"**Session budget** — {len(ETA_OPTIONS)} releases seen")
    assert any("each counted in the session budget" in c.value for c in at.caption)
    at.select_slider(key="dpne_eta").set_value(0.05).run()  # the comparison stays on; η = 0.05 was counted already
    assert_clean(at)
    assert _budget_head(at).startswith(f"**Session budget** — {len(ETA_OPTIONS)} releases seen")


def test_sweep_at_the_page_s_setting_is_the_page_s_release_and_its_menu_speaks_plainly():
    """Issue 31 item 10: at Δ0 = 50, seed 0 the sweep drew 48/104/78/34/8/2 while the main chart, the CSV and the
    script said 48/111/77/34/6/1. Each sweep value is now the release the extraction tab shows at that setting, so
    the page's own Δ0 gives the main chart's numbers; the knob menu shows people's names, not dpcore's."""
    at = fresh_app()
    main = next(t for t in chart_by_title(at, "n-grams extracted per length")["data"] if t["name"] == "DPNE · DP")["y"]
    at.query_params["dpne_tab"] = SWEEP
    at.run()
    box = at.selectbox(key="dpne_sweep_knob")
    assert "Δ0 — items per user per length" in box.options
    assert not {"contribution_limit", "noise_decay", "epsilon", "eta"} & set(box.options)
    box.set_value("contribution_limit")
    at.button(key="dpne_sweep_run").click().run()
    assert_clean(at)
    lines = {t["name"]: t["y"] for t in chart_by_title(at, "DPNE: n-grams released per length as Δ0")["data"]}
    assert lines["Δ0 = 50 · DP"] == main
    # every value shown is a release: the session budget counts them (the page's own value once)
    assert _budget_head(at).startswith("**Session budget** — 6 releases seen")
    # the URL holds the shown name; a link from before, with dpcore's name, still opens its knob
    assert fresh_app(dpne_tab=SWEEP, dpne_sweep_knob="ε — privacy budget").selectbox(key="dpne_sweep_knob").value == (
        "epsilon"
    )
    assert fresh_app(dpne_tab=SWEEP, dpne_sweep_knob="noise_decay").selectbox(key="dpne_sweep_knob").value == (
        "noise_decay"
    )
