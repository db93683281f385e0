"""Shareable settings and exports on pages 2–4.

* Page knobs are bound to the URL (``bind="query-params"``): a link such as ``?dpne_T=3&dpne_pruning=single``
  opens the page with those values; values the widget cannot take are ignored (the default is shown).
* Each page draws ``dpui.export_view`` download buttons (CSV rows and {settings, rows} JSON); the JSON's
  settings carry the seed, the corpus hash and every knob that produced the rows.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

import dpcore
from dpui.common.exports import records_to_csv

ROOT = Path(__file__).resolve().parent.parent
BAYES = str(ROOT / "pages" / "2_Bayesian_ngram_DP.py")
DPNE = str(ROOT / "pages" / "3_DP_ngram_extraction.py")
TOPIC = str(ROOT / "pages" / "4_TopicDP.py")

try:
    dpcore.load_sample_corpus("private", max_users=1)
    HAVE_SAMPLE = True
except dpcore.CorpusError:
    HAVE_SAMPLE = False

needs_sample = pytest.mark.skipif(not HAVE_SAMPLE, reason="sample corpus not generated yet")


def clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []


def run_with_link(page: str, params: dict[str, str | list[str]]) -> AppTest:
    at = AppTest.from_file(page, default_timeout=180)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    clean(at)
    return at


@pytest.fixture
def media(monkeypatch):
    """One media storage kept across AppTest runs, so the download buttons' payloads can be read back."""
    storage = MemoryMediaFileStorage("/mock/media")
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", lambda prefix: storage)

    def payload(button) -> str:
        return storage.get_file(button.proto.url.rsplit("/", 1)[1]).content.decode("utf-8")

    return payload


def buttons(at: AppTest) -> dict[str, object]:
    return {b.proto.id.rsplit("-", 1)[-1]: b for b in at.get("download_button")}


# ------------------------------------------------------------------------------ records_to_csv


def test_records_to_csv_tiny_input():
    import numpy as np

    text = records_to_csv([{"k": 1, "size": np.int64(3), "name": "a, b"}, {"k": 2, "sigma": np.float64(0.5)}])
    assert text.splitlines()[0] == "k,size,name,sigma"  # columns in first-seen order
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows == [
        {"k": "1", "size": "3", "name": "a, b", "sigma": ""},
        {"k": "2", "size": "", "name": "", "sigma": "0.5"},
    ]
    assert records_to_csv([]) == "\n"  # no rows: an empty header line


# ------------------------------------------------------------------------------ links


@needs_sample
def test_bayesian_link_sets_page_knobs():
    at = run_with_link(
        BAYES, {"bayes_S": "0.1", "bayes_rho": "0.5", "bayes_calibration": "analytic", "bayes_reps": "3"}
    )
    assert at.select_slider(key="bayes_S").value == 0.1
    assert at.slider(key="bayes_rho").value == 0.5
    assert at.radio(key="bayes_calibration").value == "analytic"
    assert at.slider(key="bayes_reps").value == 3
    assert any(m.label == "σ_ps (analytic)" for m in at.metric)


@needs_sample
def test_bayesian_link_sets_n_and_ignores_bad_values():
    at = run_with_link(BAYES, {"bayes_n": "2", "bayes_C": "abc", "bayes_reps": "2", "bayes_K": "7"})
    assert at.radio(key="bayes_n").value == 2
    assert at.slider(key="bayes_C").value == 1  # invalid → default
    assert at.select_slider(key="bayes_K").value == 10  # not an option → default


@needs_sample
def test_dpne_link_sets_page_knobs():
    at = run_with_link(
        DPNE,
        {
            "dpne_T": "3",
            "dpne_pruning": "single",
            "dpne_eta": "0.05",
            "dpne_K": ["5", "50"],
            "dpne_policy": "weighted",
            "dpne_coverage_open": "true",  # the coverage's lazy section, open in the link (issue 29)
        },
    )
    assert at.slider(key="dpne_T").value == 3
    assert at.radio(key="dpne_pruning").value == "single"
    assert at.select_slider(key="dpne_eta").value == 0.05
    assert at.multiselect(key="dpne_K").value == [5, 50]
    spec = json.loads(
        next(c.proto.spec for c in at.get("plotly_chart") if "n-grams extracted per length" in c.proto.spec)
    )
    assert all(max(tr["x"]) == 3 for tr in spec["data"])


@needs_sample
def test_dpne_link_with_invalid_values_falls_back():
    at = run_with_link(
        DPNE,
        {
            "dpne_T": "99",
            "dpne_pruning": "both sides",
            "dpne_delta0": "x",
            "dpne_sweep_knob": "noise_decay",
            "dpne_tab": "Sweep one knob (Figs. 2–4)",
        },
    )
    assert at.slider(key="dpne_T").value == 6
    assert at.radio(key="dpne_pruning").value == "both"
    assert at.number_input(key="dpne_delta0").value == 50
    assert at.selectbox(key="dpne_sweep_knob").value == "noise_decay"


@needs_sample
@pytest.mark.slow
def test_topicdp_link_sets_page_knobs(tiny_topicdp):
    from topicdp_env import TINY_QUERY  # a corpus with draws computed in this session (tests/topicdp_env.py)

    at = run_with_link(
        TOPIC,
        {
            **TINY_QUERY,
            "topicdp_m": "5",
            "topicdp_n": "4",
            "topicdp_gamma": "0.2",
            "topicdp_topics": ["Topic 2", "Topic 3"],
            "topicdp_curve_param": "gamma",
        },
    )
    assert at.slider(key="topicdp_m").value == 5
    assert at.slider(key="topicdp_n").value == 4
    assert at.slider(key="topicdp_gamma").value == pytest.approx(0.2)
    assert at.multiselect(key="topicdp_topics").value == [1, 2]
    titles = [json.loads(c.proto.spec)["title"]["text"] for c in at.get("vega_lite_chart")]  # the keyword charts
    assert sum(t.startswith("Topic 2:") or t.startswith("Topic 3:") for t in titles) == 2
    at.session_state["topicdp_tab"] = "Error curves"  # the tabs are lazy: the curve knobs are drawn in their tab
    at.run()
    clean(at)
    assert at.radio(key="topicdp_curve_param").value == "gamma"  # the link's value, kept while the tab was closed


# ------------------------------------------------------------------------------ exports


@needs_sample
def test_bayesian_exports(media):
    at = run_with_link(BAYES, {"bayes_reps": "2", "bayes_top": "5", "exports": "1"})
    b = buttons(at)
    assert {"bayes_export_release_csv", "bayes_export_release_json"} <= set(b)
    release = json.loads(media(b["bayes_export_release_json"]))
    s = release["settings"]
    assert (s["seed"], s["epsilon"], s["delta"], s["n"], s["calibration"], s["repetitions"]) == (
        0,
        1.0,
        1e-5,
        1,
        "auto",
        2,
    )
    # the export carries the whole guarantee object (kind, ε, δ, label, colour), not a text label
    g = s["guarantee"]
    assert g["kind"] == "approximate DP" and g["epsilon"] == 1.0 and g["delta"] == 1e-5 and g["colour"] == "green"
    assert (s["mode"], s["L"], s["N_max"]) == ("strict", 50, 10_000)
    assert s["private_corpus_hash"] and s["public_corpus_hash"]
    assert len(release["rows"]) == 5
    assert set(release["rows"][0]) == {
        "rank",
        "ngram",
        "private_probability",
        "public_prior_probability",
        "released_probability",
    }
    at.session_state["bayes_tab"] = "KL vs ε"  # its tab (lazy tabs, issue 24), as a click on it opens it
    at.run()
    clean(at)
    b = buttons(at)
    assert {"bayes_export_kl_csv", "bayes_export_kl_json"} <= set(b)
    kl = json.loads(media(b["bayes_export_kl_json"]))
    assert {r["mechanism"] for r in kl["rows"]} >= {"BayesianDP", "Laplace"}
    assert all(r["lower_kl"] <= r["mean_kl"] <= r["upper_kl"] for r in kl["rows"])
    assert media(b["bayes_export_kl_csv"]).splitlines()[0] == "mechanism,epsilon,mean_kl,lower_kl,upper_kl"


@needs_sample
def test_dpne_exports_sizes_never_counts(media):
    at = run_with_link(DPNE, {"dpne_T": "4", "exports": "1"})
    b = buttons(at)
    assert {"dpne_export_sizes_csv", "dpne_export_sizes_json"} <= set(b)
    data = json.loads(media(b["dpne_export_sizes_json"]))
    s = data["settings"]
    for key in ("seed", "epsilon", "delta", "corpus_hash", "T", "delta0", "eta", "c", "pruning", "selection", "policy"):
        assert key in s, key
    assert s["T"] == 4 and s["seed"] == 0
    assert [r["k"] for r in data["rows"]] == [1, 2, 3, 4]
    assert set(data["rows"][0]) == {
        "k",
        "DPNE |Sₖ|",
        "DPSU-all |Sₖ|",
        "DPSU-even |Sₖ|",
        "DPSU-single |Sₖ|",
        "DPNE σₖ",
        "DPNE ρₖ",
        "DPNE |Vₖ|",
    }
    assert data["rows"][0]["DPNE |Vₖ|"] is None  # |V_1| is not defined
    total = sum(r["DPNE |Sₖ|"] for r in data["rows"])
    assert any(m.label == "n-grams released" and m.value == f"{total:,}" for m in at.metric)


@needs_sample
@pytest.mark.slow
def test_topicdp_exports(media, tiny_topicdp):
    from topicdp_env import TINY_QUERY  # a corpus with draws computed in this session (tests/topicdp_env.py)

    at = run_with_link(TOPIC, {**TINY_QUERY, "topicdp_m": "3", "topicdp_n": "4", "exports": "1"})
    b = buttons(at)
    assert {
        "topicdp_export_keywords_csv",
        "topicdp_export_keywords_json",
        "topicdp_export_errors_csv",
        "topicdp_export_errors_json",
    } <= set(b)
    data = json.loads(media(b["topicdp_export_keywords_json"]))
    s = data["settings"]
    assert (s["m"], s["n"], s["seed"], s["gamma"]) == (3, 4, 0, 0.1)
    assert (
        s["corpus_hash"]
        and s["lda"]["n_topics"] == int(TINY_QUERY["topicdp_k"])
        and s["sampled_sensitivity_delta_s"] > 0
    )
    assert len(data["rows"]) == 3 * 4
    # issue 23: VIPS-LDA and the public-only fit, read on the same table, beside the five
    assert set(data["rows"][0]) == {
        "topic",
        "model_topic",
        "keyword",
        "before_noise",
        "after_TopicDP",
        "after_TopicDP corrected",
        "after_TopicDP strict",
        "after_MVG",
        "after_Laplace",
        "after_VIPS-LDA",
        "after_Public-only fit",
    }
    for t in (1, 2, 3):  # each released row is a probability vector
        for mech in ("TopicDP", "TopicDP strict", "VIPS-LDA", "Public-only fit"):
            assert sum(r[f"after_{mech}"] for r in data["rows"] if r["topic"] == t) == pytest.approx(1.0)
    shown = {*dpcore.topicdp.TOPIC_MECHANISMS, "VIPS-LDA", "Public-only fit"}
    assert set(s["noise_scales"]) == shown and s["strict_bound_sqrt_2m"] == pytest.approx(3**0.5 * 2**0.5)
    assert s["guarantees"]["TopicDP strict"]["colour"] == "orange" and s["thesis_sigma_true_epsilon"] < 1
    assert s["guarantees"]["VIPS-LDA"]["colour"] == "green" and s["guarantees"]["Public-only fit"]["epsilon"] == 0
    v = s["vips"]
    assert (v["clip_norm_B"], v["iterations_J"], v["n_topics_K"]) == (2.0, 1, int(TINY_QUERY["topicdp_k"]))
    assert v["sigma"] == s["noise_scales"]["VIPS-LDA"] > 0 and "PLD" in v["accountant"]
    assert v["rng_salt"] == ["topicdp", "vips", s["epsilon"], s["delta"], v["n_topics_K"], 2.0, 1]
    errs = json.loads(media(b["topicdp_export_errors_json"]))["rows"]
    assert [r["metric"] for r in errs][:3] == ["L1 distance", "RMSE", "Kendall's tau distance"]
