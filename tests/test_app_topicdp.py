"""AppTest for pages/4_TopicDP.py: the sampler-with-progress path on a tiny corpus, and the shipped view.

The tiny path points the app at a temporary sample-data folder (``DPCORE_SAMPLE_DATA``) holding a
30-user corpus and at an empty sensitivity cache (``DPCORE_TOPICDP_CACHE``), so the page must run the
sampler through its button. Streamlit's caches are process-wide, so they are cleared around it.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import dpcore

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "pages" / "4_TopicDP.py")
TAB = "topicdp_tab"  # the tabs' key and URL parameter (dpui.topicdp.views.TAB_KEY)
WORDS = {
    "sport": "football goal match team player coach league score stadium season".split(),
    "food": "pasta pizza sauce cheese garlic oven recipe dinner tomato bread".split(),
    "money": "invoice payment bank account dollars budget price cost salary refund".split(),
}


def _write_tiny(path: Path, n_users: int = 30, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    names = list(WORDS)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for u in range(n_users):
            for _ in range(2 + u % 3):
                words = list(rng.choice(WORDS[names[u % 3]], 12)) + list(rng.choice(WORDS[names[(u + 1) % 3]], 3))
                fh.write(json.dumps({"user": f"u{u:03d}", "genre": "email", "text": " ".join(words) + "."}) + "\n")


def _clear_caches():
    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture()
def tiny_env(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    _write_tiny(data / "private.jsonl.gz")
    _write_tiny(data / "public.jsonl.gz", seed=1)
    cache = tmp_path / "cache"
    monkeypatch.setenv("DPCORE_SAMPLE_DATA", str(data))
    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(cache))
    _clear_caches()
    yield cache
    _clear_caches()


def _tiny_settings(at: AppTest) -> None:
    at.number_input(key="topicdp_k").set_value(3)
    at.number_input(key="topicdp_N").set_value(8)
    at.selectbox(key="topicdp_workers").set_value(1)
    at.slider(key="topicdp_gamma").set_value(0.3)


def _metric(at: AppTest, label: str) -> float:
    return float(next(m.value for m in at.metric if m.label == label).replace(",", ""))


STORY = "topicdp_story_open"  # the lazy expander "What the table and the noise are …" (issue 29 item 4)


def open_story(at: AppTest) -> None:
    """Open the lazy expander "What the table and the noise are …", as a click on it does (its content is computed
    only while it is open), and rerun."""
    at.session_state[STORY] = True
    at.run()
    assert not at.exception, [e.message for e in at.exception]


def opened_tab(at: AppTest, label: str):
    """The page with the tab ``label`` opened (the tabs are lazy: only the open one has content), as a person clicks
    it: the same session, the page rerun (a click also moves the URL's ?topicdp_tab=, which AppTest would otherwise
    send again on every run). Returns the tab's element (its children only)."""
    at.session_state[TAB] = label
    if TAB in at.query_params:
        del at.query_params[TAB]
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return next(t for t in at.tabs if t.label == label)


def test_sampler_runs_with_progress_when_nothing_is_cached(tiny_env):
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["corpus"] = "classroom"  # the tiny corpus stands in for the synthetic classroom sample
    at.run()
    _tiny_settings(at)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    h = dpcore.topicdp.sensitivity_sampler_size(gamma=0.3).h
    assert any(f"needs h = {h}" in w.value for w in at.warning)
    # before the sampler: the releases that need no Δ_s (issue 31 item 7; tests/test_app_topicdp_unsampled.py), no Δ_s
    assert [m.label for m in at.metric][:2] == ["TopicDP strict σ", "Laplace scale b"]
    assert len(at.get("vega_lite_chart")) == 1 and len(at.get("plotly_chart")) == 0
    at.button(key="topicdp_run").click()
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    bars = at.get("progress")
    assert bars and bars[-1].proto.value == 100  # reached the end
    assert "Done" in bars[-1].proto.text
    files = list(tiny_env.glob("sensitivity_*.json.gz"))
    assert len(files) == 1 and json.loads(gzip.decompress(files[0].read_bytes()))["pairs"] == h
    assert _metric(at, "Sampled sensitivity Δₛ") > 0
    assert len(at.get("vega_lite_chart")) == 1  # the default view: one topic's keyword chart (issue 29 item 3)
    texts = " ".join(m.value for m in at.markdown)
    assert "weaker than (ε, δ)-DP" in texts and f"{h}-th smallest of the {h} distances" in texts

    # A fresh session finds the draws on disk: no warning, no button, and ε moves the noise scale only.
    at2 = AppTest.from_file(PAGE, default_timeout=60)
    at2.query_params["corpus"] = "classroom"
    at2.query_params["review"] = "1"  # the reviewer's panel is lazy (issue 29 item 4): open it
    at2.run()
    _tiny_settings(at2)
    at2.run()
    assert not at2.exception
    # no sampler warning; the reviewer's panel does warn (γ = 0.3 > 0.1, a tiny corpus) — that is its job
    assert [w.value for w in at2.warning if "needs h" in w.value or "sampled pairs" in w.value] == []
    assert {"gamma-large", "few-users"} <= {
        r for r, t in dpcore.lab.REVIEW_RULES.items() if any(t in w.value for w in at2.warning)
    }
    assert not [b for b in at2.button if b.key == "topicdp_run"]
    s1 = _metric(at2, "TopicDP σ, as in the thesis")
    d1 = _metric(at2, "Sampled sensitivity Δₛ")
    at2.select_slider(key="eps").set_value(2.0)
    at2.run()
    assert _metric(at2, "TopicDP σ, as in the thesis") == pytest.approx(s1 / 2, rel=1e-3)
    assert _metric(at2, "Sampled sensitivity Δₛ") == d1
    # the other curves and a smaller table (the curve knobs are in the tab "Error curves": open it)
    at2.session_state[TAB] = "Error curves"
    at2.run()
    for parameter in ("gamma", "size"):
        at2.radio(key="topicdp_curve_param").set_value(parameter)
        at2.run()
        assert not at2.exception, [e.message for e in at2.exception]
        if parameter == "gamma":  # γ = 0.02 … 0.22 need more pairs than the tiny cache holds
            assert any("needs" in i.value for i in at2.info)
    at2.slider(key="topicdp_n").set_value(4)
    at2.run()
    assert not at2.exception and at2.metric


@pytest.mark.slow
def test_view_opens_with_cached_sensitivity(tiny_topicdp):
    """Draws on disk for the corpus and settings (computed in this session on the 40-user corpus of
    tests/topicdp_env.py; the shipped sample corpus needs the shipped draws, see sample_data/
    topicdp_sensitivity/README.md): no sampler run needed, three mechanisms shown."""
    from topicdp_env import TINY_QUERY

    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in TINY_QUERY.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not [b for b in at.button if b.key == "topicdp_run"], "the shipped sensitivity is missing"
    assert _metric(at, "Sampled sensitivity Δₛ") > 0
    badges = [f"{m.value} {m.proto.help}" for m in at.markdown if "-badge[" in m.value]  # chip + its tooltip
    assert any(
        ":orange-badge[⚠️ Guarantee: TopicDP (as in the thesis) — weaker than DP: random DP per user" in b
        and "(ε, δ, γ)-random DP" in b
        for b in badges
    )
    assert any(
        ":orange-badge[⚠️ Guarantee: TopicDP corrected — weaker than DP: random DP per user" in b
        and "(ε, δ, γ)-random DP" in b
        for b in badges
    )
    assert any(":orange-badge[⚠️ Guarantee: MVG with sampled s₂ — weaker than DP:" in b for b in badges)
    # global bounds: (ε, δ)-DP / ε-DP for the values, given a non-private choice of topics and keywords — orange
    # ("DP for part of the release only"): the chosen topics and column words are published without noise
    # (issue 21 item 4; green on this page is kept for a proof that covers the whole release, issue 23)
    values = "given a non-private choice of topics and keywords"
    part = "DP for part of the release only"
    assert any(
        f":orange-badge[⚠️ Guarantee: TopicDP strict — {part}: (ε, δ)-DP per user" in b and values in b for b in badges
    )
    assert any(f":orange-badge[⚠️ Guarantee: Laplace — {part}: ε-DP per user" in b and values in b for b in badges)
    # green only for VIPS-LDA (issue 23): its proof covers the whole matrix, the choice of topics and keywords included
    green = [b for b in badges if ":green-badge[" in b]
    assert green and all(b.startswith(":green-badge[🔒 Guarantee: VIPS-LDA — DP: (ε, δ)-DP per user") for b in green)
    # the thesis's σ beside the corrected and the strict one, with its true ε
    eps, delta = at.select_slider(key="eps").value, at.select_slider(key="delta").value
    m, n = at.slider(key="topicdp_m").value, at.slider(key="topicdp_n").value
    thesis = next(x for x in at.metric if x.label == "TopicDP σ, as in the thesis")
    assert (
        thesis.proto.delta == f"true ε = {dpcore.topicdp.topicdp_true_epsilon(epsilon=eps, delta=delta, m=m, n=n):.2g}"
    )
    assert _metric(at, "TopicDP strict σ") == pytest.approx(
        dpcore.topicdp.strict_topicdp_sigma(epsilon=eps, delta=delta, m=m), rel=1e-3
    )
    ds = _metric(at, "Sampled sensitivity Δₛ")
    assert _metric(at, "TopicDP σ, corrected") == pytest.approx(
        dpcore.topicdp.corrected_topicdp_sigma(epsilon=eps, delta=delta, sensitivity=ds), rel=1e-3
    )
    assert not any("What changes the thesis's story" in md.value for md in at.markdown)  # a lazy expander, closed
    open_story(at)
    assert any("What changes the thesis's story" in md.value for md in at.markdown)
    assert len(at.get("vega_lite_chart")) == 1 and not at.get("plotly_chart")  # one topic's bars (the default tab)
    assert at.multiselect(key="topicdp_topics").value == [0]
    for tab, key in (("Error curves", "topicdp_curve"), ("Sampled sensitivities", "topicdp_hist")):
        at.session_state[TAB] = tab  # the curve and the histogram: their tabs, opened
        at.run()
        assert not at.exception, [e.message for e in at.exception]
        assert [c.key for c in at.get("plotly_chart")] == [key], tab
    at.session_state[TAB] = "Keywords before and after noise"
    at.run()
    # the page's conclusion is the two sentences computed from the draws at the page's settings
    import os

    from dpcore import topicdp as tdp
    from dpcore.topicdp import LdaSettings

    m, n, delta = (
        at.slider(key="topicdp_m").value,
        at.slider(key="topicdp_n").value,
        at.select_slider(key="delta").value,
    )
    corpus = dpcore.load_sample_corpus("private")
    lda = LdaSettings(n_topics=int(TINY_QUERY["topicdp_k"]))
    sampler = tdp.SamplerSettings(sample_users=int(TINY_QUERY["topicdp_N"]))
    draws = tdp.load_sensitivity_draws(
        corpus.content_hash, lda=lda, sampler=sampler, cache_dir=os.environ["DPCORE_TOPICDP_CACHE"]
    )
    conclusion = next(md.value for md in at.markdown if md.value.startswith("**What this corpus shows.**"))
    summary = tdp.summarise_draws(draws, gamma=0.1, m=m, n=n, delta=delta)
    assert summary.sentence in conclusion
    noise = tdp.compare_noise(delta_s=summary.delta_s, epsilons=(0.5, 1.0, 2.0, 3.0, 5.0, 10.0), delta=delta, m=m, n=n)
    assert noise.sentence in conclusion


def test_real_chat_corpus_opens_on_the_shipped_fit_with_the_prompt_line():
    """The real chat corpus's private split (the sidebar's default data, corpus=chat): the shipped LDA fit and
    sampled sensitivities open the page without a sampler run, and the page says how many topics match a prompt
    before noise and keep it after each mechanism's noise."""
    from dpcore.topicdp import prompts as tp

    corpus = dpcore.load_real_corpus("chat", which="private")
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.query_params["corpus"] = "chat"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert not [b for b in at.button if b.key == "topicdp_run"], "the shipped real-corpus sensitivities are missing"
    assert not any("Can a reader still tell" in md.value for md in at.markdown)  # the lazy expander: closed
    open_story(at)
    line = next(md.value for md in at.markdown if "Can a reader still tell what people talked about?" in md.value)
    model = dpcore.topicdp.load_topic_model(corpus.content_hash)
    table = dpcore.topic_keyword_matrix(model, m=10, n=10)
    before = tp.match_topics_to_prompts(table.matrix, table.words, tp.prompt_documents(corpus, model.words))
    assert f"Before noise {before.matched} of the 10 topics match a distinct prompt" in line
    for mech in dpcore.topicdp.TOPIC_MECHANISMS:
        assert f"{mech} " in line
    assert any(tp.MATCH_RULE in c.value for c in at.caption)
    assert any(t.label == "Prompts after noise" for t in at.tabs)
    # the matched prompts are listed with each topic's top words (in the tab "Prompts after noise": opened)
    prompts_tab = opened_tab(at, "Prompts after noise")
    tables = [d.value for d in prompts_tab.dataframe if "prompt matched (before noise)" in d.value.columns]
    assert len(tables) == 1 and (tables[0]["prompt matched (before noise)"] != "—").sum() == before.matched
    _vips_on_the_real_chat(at, corpus, model, table)
    st.cache_resource.clear()
    st.cache_data.clear()


def _vips_on_the_real_chat(at, corpus, model, table):
    """Issue 23: VIPS-LDA beside the five — its σ and accountant, its L1 on the same table as theirs, the public-only
    baseline, its prompts, its own topics, the sentences on where it wins and where it does not, its tab."""
    from dpcore.topicdp import prompts as tp
    from dpcore.topicdp import vips_comparison as tv
    from dpui.common.state import rng_for

    eps, delta, seed = 1.0, 1e-5, at.sidebar.number_input(key="seed").value
    public = dpcore.load_real_corpus("chat", which="public")
    setup = tv.vips_page_setup(corpus, public, n_topics=10)
    rel = dpcore.vips_lda(
        setup.counts,
        n_topics=10,
        epsilon=eps,
        delta=delta,
        clip_norm=2.0,
        iterations=1,
        vocabulary=setup.vocabulary,
        start=setup.start,
        rng=rng_for(seed, "topicdp", "vips", eps, delta, 10, 2.0, 1),
    )  # the page's salt
    docs = tp.prompt_documents(corpus, setup.vocabulary.words)
    c = tv.compare_release(rel, model=model, table=table, docs=docs)
    assert _metric(at, "VIPS-LDA σ per count entry") == pytest.approx(rel.sigma, rel=1e-3)
    assert _metric(at, "accountant's ε for (σ, J)") == pytest.approx(1.0, abs=1e-3)
    assert _metric(at, "L1 to the 10 × 10 table: VIPS-LDA") == pytest.approx(c.errors["l1"], rel=5e-3)
    pub = tv.compare_release(tv.public_only_release(setup), model=model, table=table, docs=docs)
    assert _metric(at, "L1: Public-only fit (0-DP)") == pytest.approx(pub.errors["l1"], rel=5e-3)
    words = opened_tab(at, "Keywords before and after noise")  # this draw's errors: in the default tab
    errs = next(
        d.value for d in words.dataframe if "VIPS-LDA" in d.value.columns and "Public-only fit" in d.value.columns
    )
    assert errs.loc["L1 distance", "VIPS-LDA"] == pytest.approx(c.errors["l1"], rel=1e-9)
    assert errs.loc["L1 distance", "VIPS-LDA"] < min(
        errs.loc["L1 distance", m] for m in dpcore.topicdp.TOPIC_MECHANISMS
    )
    summary = next(md.value for md in at.markdown if md.value.startswith("**VIPS-LDA: noise inside training"))
    for words in (
        "One reference for every row",
        "counts that grow with the 920",
        "public-only fit",
        "not on probabilities in [0, 1]",
        "other people of the same chat: 395 people",
        "(measured on this corpus)",
    ):
        assert words in summary, words
    # what VIPS's public vocabulary sees of the corpus shown, marked evaluation only (issue 30 item 10)
    cov = dpcore.topicdp.vocabulary_coverage(corpus, setup.vocabulary)
    seen = next(c.value for c in at.caption if c.value.startswith("VIPS-LDA sees only its public vocabulary"))
    assert f"holds {cov.token_share:.0%} of this corpus's word tokens" in seen
    assert seen.endswith(dpcore.lab.review_rules.EVALUATION_ONLY)
    line = next(md.value for md in at.markdown if md.value.startswith("**Prompts.** VIPS-LDA"))
    assert f"**{c.match.matched} of its 10 topics**" in line and f"fit's matches {pub.match.matched}" in line
    assert any(t.label == "VIPS-LDA against ε" for t in at.tabs)
    vips_tab = opened_tab(at, "VIPS-LDA against ε")  # its own topics and the audit link: in its tab, opened
    own = next(d.value for d in vips_tab.dataframe if "released topic" in d.value.columns)
    assert list(own["top 5 words"]) == [", ".join(rel.keywords(t, 5)) for t in c.own_table.topics]
    assert any("audit_mechanism=VIPS-LDA" in md.value for md in vips_tab.markdown)


# ------------------------------------------------------------------------------ lazy tabs (issue 24)
MATRIX = list(dpcore.topicdp.TOPIC_MECHANISMS)
PANEL_TAGS = {  # each release's guarantee tag (dpcore.guarantees.Guarantee.tag), as its badge's level says
    "TopicDP": "random DP",
    "TopicDP corrected": "random DP",
    "TopicDP strict": "DP for part",
    "MVG": "random DP",
    "Laplace": "DP for part",
    "VIPS-LDA": "DP",
}


def _recorded(at: AppTest) -> list[tuple[str, float]]:
    """The session budget's entries on this corpus: (mechanism, ε) in the order first seen."""
    (entries,) = at.session_state["_session_budget"].values()
    return [(e.mechanism, e.guarantee.epsilon) for e in entries]


def _reviewed(at: AppTest) -> list[str]:
    panel = next(e for e in at.expander if "Reviewer's panel" in e.label)
    return [md.value.strip("*") for md in panel.markdown if md.value.startswith("**") and md.value.endswith("**")]


@pytest.mark.slow
def test_tabs_are_lazy_and_the_budget_records_only_the_releases_shown(tiny_topicdp):
    """Only the open tab is computed and drawn (its label in the URL: a shared link opens it). The session budget
    records a release when its values are on screen: the five matrix releases and VIPS-LDA's in the keywords tab,
    VIPS-LDA's own topics in its tab; an ε move on another tab records nothing. The reviewer's panel still reviews
    all six on every tab."""
    from topicdp_env import TINY_QUERY

    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in {**TINY_QUERY, TAB: "Error curves", "review": "1"}.items():  # review=1: the lazy panel open
        at.query_params[k] = v
    at.run()  # a link to the tab "Error curves": it opens there, nothing else is drawn
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state[TAB] == "Error curves"
    assert [c.key for c in at.get("plotly_chart")] == ["topicdp_curve"]
    assert not [w for w in at.multiselect if w.key == "topicdp_topics"]  # the keywords tab: not drawn
    assert not [b for b in at.get("download_button") if "topicdp_export" in b.proto.id]
    assert _recorded(at) == [] and _reviewed(at) == [*MATRIX, "VIPS-LDA"]
    at.select_slider(key="eps").set_value(2.0).run()
    assert _recorded(at) == []  # a new release at ε = 2, none of it shown
    opened_tab(at, "Sampled sensitivities")
    assert [c.key for c in at.get("plotly_chart")] == ["topicdp_hist"] and _recorded(at) == []
    opened_tab(at, "VIPS-LDA against ε")  # VIPS-LDA's own released topics: its release is seen
    assert _recorded(at) == [("VIPS-LDA", 2.0)]
    at.select_slider(key="eps").set_value(3.0).run()
    assert _recorded(at) == [("VIPS-LDA", 2.0), ("VIPS-LDA", 3.0)] and _reviewed(at) == [*MATRIX, "VIPS-LDA"]
    words = opened_tab(at, "Keywords before and after noise")  # every release's values: all six seen at ε = 3
    assert len(words.get("vega_lite_chart")) == 1  # one topic at a time by default (issue 29 item 3)
    assert _recorded(at) == [("VIPS-LDA", 2.0), ("VIPS-LDA", 3.0)] + [(mech, 3.0) for mech in MATRIX]
    head = next(md.value for md in at.sidebar.markdown if md.value.startswith("**Session budget**"))
    assert head.startswith("**Session budget** — 7 releases seen")
    at.select_slider(key="eps").set_value(1.0).run()  # the default tab: an ε move shows (and records) all six
    assert _recorded(at)[7:] == [(mech, 1.0) for mech in MATRIX] + [("VIPS-LDA", 1.0)]


@pytest.mark.slow
def test_an_exercise_link_opens_the_tab_it_is_read_in():
    """?exercise=topicdp-sampler-fits: its hint sends the student to the tab "Sampled sensitivities", which the link
    opens (once: the student can then switch tabs, and the exercise does not pull them back)."""
    from dpui.topicdp.views import EXERCISE_TABS

    assert EXERCISE_TABS["topicdp-sampler-fits"] == "Sampled sensitivities"
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.query_params["exercise"] = "topicdp-sampler-fits"
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state[TAB] == "Sampled sensitivities"
    assert [c.key for c in at.get("plotly_chart")] == ["topicdp_hist"]
    opened_tab(at, "Error curves")
    at.run()
    assert at.session_state[TAB] == "Error curves"
    assert [c.key for c in at.get("plotly_chart")] == ["topicdp_curve"]


# ------------------------------------------------------------------------------ drawn with less (issue 29 items 3–4)
def _vega(chart):
    """A Vega-Lite chart's spec and its data (AppTest keeps the data as Arrow bytes)."""
    import pyarrow as pa

    return json.loads(chart.proto.spec), pa.ipc.open_stream(chart.proto.data.data).read_pandas()


@pytest.mark.slow
def test_keywords_open_on_one_topic_and_the_full_grid_on_demand(tiny_topicdp):
    """The default view is one topic's keywords in one chart faceted by mechanism (Vega-Lite: a quarter of the
    browser's work of the six-panel Plotly figure per ε move, benchmarks/bench_topicdp_views.py), its colours the
    mechanisms' Okabe–Ito ones, every panel named by its release, and its numbers table holding what it plots. The
    full grid (every topic) is a toggle in the URL."""
    from topicdp_env import TINY_QUERY

    from dpui.common.charts import NEUTRAL, OKABE_ITO
    from dpui.topicdp.views import GRID_KEY

    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in TINY_QUERY.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    m = at.slider(key="topicdp_m").value
    assert m > 2 and at.toggle(key=GRID_KEY).value is False
    charts = at.get("vega_lite_chart")
    assert len(charts) == 1 and not at.get("plotly_chart")
    spec, data = _vega(charts[0])
    assert spec["title"]["text"].startswith("Topic 1:")
    panel = {mech: f"{mech} · {tag}" for mech, tag in PANEL_TAGS.items()}  # each panel names its guarantee (issue 31)
    assert spec["facet"]["sort"] == [panel[m] for m in [*MATRIX, "VIPS-LDA"]] == list(dict.fromkeys(data["mechanism"]))
    scale = spec["spec"]["encoding"]["color"]["scale"]
    assert scale["domain"][0] == "before noise" and scale["range"][0] == NEUTRAL
    assert {c.lower() for c in scale["range"]} <= {c.lower() for c in OKABE_ITO.values()} | {NEUTRAL.lower()}
    assert len(data) == 2 * 6 * at.slider(key="topicdp_n").value  # before and after, per keyword, per release
    numbers = next(e for e in at.expander if e.label == f"Numbers — {spec['title']['text']}")
    table = numbers.dataframe[0].value
    for mech in MATRIX + ["VIPS-LDA"]:  # every plotted value is in the numbers table
        after = data[(data["mechanism"] == panel[mech]) & (data["stage"] == f"after {mech}")]
        rows = table.set_index("keyword").loc[list(after["keyword"])]
        assert np.allclose(rows[f"after_{mech}"].to_numpy(float), after["probability"].to_numpy(float), rtol=1e-12)
    before = data[data["stage"] == "before noise"].drop_duplicates("keyword")
    assert np.allclose(table.set_index("keyword").loc[list(before["keyword"]), "before_noise"], before["probability"])

    at.toggle(key=GRID_KEY).set_value(True).run()  # the full grid: every topic, each its chart
    assert not at.exception, [e.message for e in at.exception]
    titles = [_vega(c)[0]["title"]["text"] for c in at.get("vega_lite_chart")]
    assert [t.split(":")[0] for t in titles] == [f"Topic {i + 1}" for i in range(m)]
    link = AppTest.from_file(PAGE, default_timeout=120)  # a link with the toggle on opens the full grid
    for k, v in {**TINY_QUERY, GRID_KEY: "true"}.items():
        link.query_params[k] = v
    link.run()
    assert link.toggle(key=GRID_KEY).value is True and len(link.get("vega_lite_chart")) == m


@pytest.mark.slow
def test_an_eps_move_computes_only_what_is_on_screen(tiny_topicdp, monkeypatch):
    """Issue 29 item 4: every mechanism's mean L1 (20 draws each), the accountant's ε of VIPS's σ and the prompts kept
    at ε belong to the collapsed expander "What the table and the noise are …" (and the mean to the VIPS tab): an ε
    move with both closed computes none of them; opening the expander computes them, once per ε."""
    from topicdp_env import TINY_QUERY

    import dpui.topicdp.data as tdata
    import dpui.topicdp.vips as tvips

    calls: dict[str, int] = {}

    def counting(module, name):
        original = getattr(module, name)

        def wrapper(*a, **k):
            calls[name] = calls.get(name, 0) + 1
            return original(*a, **k)

        monkeypatch.setattr(module, name, wrapper)

    counting(tvips, "means_for")
    counting(tvips, "vips_epsilon")
    counting(tdata, "survival_now")
    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in TINY_QUERY.items():
        at.query_params[k] = v
    at.run()
    for eps in (2.0, 3.0):
        at.select_slider(key="eps").set_value(eps).run()
        assert not at.exception, [e.message for e in at.exception]
    assert calls == {}
    open_story(at)  # the expander: its numbers at the page's ε
    assert calls == {"means_for": 1, "vips_epsilon": 1}  # (the tiny corpus has no prompts: no survival_now)
    summary = next(md.value for md in at.markdown if md.value.startswith("**VIPS-LDA: noise inside training"))
    assert "One reference for every row" in summary
    at.select_slider(key="eps").set_value(1.0).run()  # open: it follows ε
    assert calls == {"means_for": 2, "vips_epsilon": 2}
    at.session_state[STORY] = False  # closed again: nothing of it is computed
    at.select_slider(key="eps").set_value(2.0).run()
    assert calls == {"means_for": 2, "vips_epsilon": 2}


def test_the_table_size_sliders_offer_only_what_the_model_has(tmp_path, monkeypatch):
    """Issue 31 item 7: on a corpus whose vocabulary has fewer than 10 words, the n slider ends at its size (it
    offered 10, and the page answered "n must be ≤ 9, got n=10"); m ends at the model's K."""
    data = tmp_path / "data"
    data.mkdir()
    few = ("football", "goal", "pasta", "pizza", "invoice", "payment", "flight", "hotel")  # 8 words in all
    for name, seed in (("private", 0), ("public", 1)):
        with gzip.open(data / f"{name}.jsonl.gz", "wt", encoding="utf-8") as fh:
            for u in range(30):
                text = (
                    " ".join(np.random.default_rng(seed * 100 + u).choice(few[2 * (u % 4) : 2 * (u % 4) + 2], 12)) + "."
                )
                fh.write(json.dumps({"user": f"u{u:03d}", "genre": "email", "text": text}) + "\n")
    monkeypatch.setenv("DPCORE_SAMPLE_DATA", str(data))
    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(tmp_path / "cache"))
    _clear_caches()
    try:
        at = AppTest.from_file(PAGE, default_timeout=120)
        at.query_params["corpus"] = "classroom"
        at.query_params["topicdp_k"] = "4"
        at.run()
        assert not at.exception, [e.message for e in at.exception]
        assert not [e.value for e in at.error if "must be" in e.value]
        n, m = at.slider(key="topicdp_n"), at.slider(key="topicdp_m")
        assert n.max == n.value == 8 and m.max == m.value == 4
    finally:
        _clear_caches()


def test_a_gamma_move_reads_vips_on_the_table_only_once(monkeypatch):
    """Issue 29: VIPS-LDA's release read on the page's table depends on its release (ε, δ, B, J, the seed) and the
    table, not on γ: a γ move must not compare it again; an ε move must."""
    from dpcore.topicdp import vips_comparison as tv
    from dpui.topicdp.vips import NAME

    calls = []
    original = tv.compare_release

    def counted(release, **kw):
        calls.append(kw.get("mechanism"))
        return original(release, **kw)

    monkeypatch.setattr(tv, "compare_release", counted)
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.query_params["seed"] = "8214771"  # a seed of its own: no other test has cached its VIPS release
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert calls.count(NAME) == 1
    at.slider(key="topicdp_gamma").set_value(0.3).run()
    assert not at.exception and calls.count(NAME) == 1
    at.sidebar.select_slider(key="eps").set_value(0.5).run()
    assert not at.exception and calls.count(NAME) == 2
