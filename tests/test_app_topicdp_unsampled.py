"""Issue 31 item 7: TopicDP on a small upload without sampled sensitivities opens on what needs no sampler.

A 20-user upload (as the sidebar keeps a parsed upload: session state, ``?corpus=upload``) has no stored draws for any
γ. The page shows at once the table before noise, strict TopicDP, Laplace and VIPS-LDA, with their badges, noise
scales, reviews and exports; TopicDP (as in the thesis), TopicDP corrected and MVG are offered on demand: one line
saying they need the sampler, its time estimate and the button. No number or badge that needs Δ_s is shown before the
button is pressed, and the export's record says the sampled mechanisms were not released (it replays exactly).
Pressing the button is tested on the tiny corpus in tests/test_app_topicdp.py (test_sampler_runs_with_progress_…).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from replay_env import clean, export_json  # the `downloads` fixture: conftest
from streamlit.testing.v1 import AppTest
from topicdp_env import WORDS

import dpcore
from dpcore import corpus_from_records
from dpcore.specs import Spec
from dpcore.topicdp import SAMPLER_FREE_MECHANISMS, sensitivity_sampler_size, strict_topicdp_sigma

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "pages" / "4_TopicDP.py")
TAB = "topicdp_tab"
SAMPLED = ("TopicDP (as in the thesis)", "TopicDP corrected", "MVG")  # what needs Δ_s (their badge names)
SHOWN = {*SAMPLER_FREE_MECHANISMS, "VIPS-LDA", "Public-only fit"}


def twenty_users(seed: int = 0):
    """A 20-user upload (three messages each, two of four topics per user): what a lecturer's small CSV gives."""
    rng = np.random.default_rng(seed)
    names, rows = list(WORDS), []
    for u in range(20):
        for _ in range(3):
            a, b = WORDS[names[u % 4]], WORDS[names[(u + 1) % 4]]
            rows.append({"user": f"u{u:02d}", "text": " ".join([*rng.choice(a, 12), *rng.choice(b, 3)]) + "."})
    return corpus_from_records(rows, user_field="user", text_field="text", name="twenty users")


@pytest.fixture(scope="module")
def upload():
    return twenty_users()


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """Draws of this corpus are looked for (and the sampler writes) in a folder of this test only: none stored."""
    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(tmp_path / "cache"))


def _opened(corpus) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.query_params["noise"] = "reproducible"  # the export then carries its seed: its replay is exact
    at.query_params["review"] = "1"  # the reviewer's panel is lazy (issue 29 item 4): the link opens it
    at.session_state["_uploaded_corpus"] = corpus
    at.run()
    clean(at)
    return at


def _badges(at: AppTest) -> list[str]:
    """The names of the guarantee badges on the page (":<colour>-badge[<icon> Guarantee: <name> — …]")."""
    return [m.group(1) for md in at.markdown for m in [re.search(r"-badge\[\S+ Guarantee: (.+?) — ", md.value)] if m]


def _texts(at: AppTest) -> str:
    return " ".join([md.value for md in at.markdown] + [c.value for c in at.caption] + [m.label for m in at.metric])


def _no_sampled_number(at: AppTest) -> None:
    """Nothing on screen that needs Δ_s: no Δ_s, no σ of the sampled mechanisms, no badge of theirs."""
    labels = [m.label for m in at.metric]
    assert not [x for x in labels if "Δₛ" in x or "thesis" in x or "corrected" in x or "MVG" in x], labels
    assert not [b for b in _badges(at) if b.startswith(SAMPLED)], _badges(at)  # "MVG with sampled s₂" too
    assert "Δₛ =" not in _texts(at) and "random DP" not in " ".join(_badges(at))


def test_an_upload_without_draws_opens_on_the_releases_that_need_no_sampler(upload, downloads):
    at = _opened(upload)
    h = sensitivity_sampler_size(gamma=0.1).h
    # the on-demand line: which mechanisms need the sampler, how many pairs, the time estimate (rough: none measured)
    (line,) = [w.value for w in at.warning if "need the sampled sensitivity" in w.value]
    assert all(name in line for name in SAMPLED) and f"needs h = {h:,}" in line and "0 are stored" in line
    estimate = next(c.value for c in at.caption if c.value.startswith("Estimated time"))
    assert (
        f"{h:,} pairs × 0.28 s per pair, a rough estimate" in estimate and "nothing measured on this corpus" in estimate
    )
    assert [b.key for b in at.button if b.key == "topicdp_run"] == ["topicdp_run"]  # offered, not pressed
    # what needs no Δ_s, at once: strict σ and Laplace's b, their badges and VIPS-LDA's, the keyword chart
    m = at.slider(key="topicdp_m").value
    metrics = {x.label: x.value for x in at.metric}
    assert list(metrics)[:2] == ["TopicDP strict σ", "Laplace scale b"]
    assert metrics["TopicDP strict σ"] == f"{strict_topicdp_sigma(epsilon=1.0, delta=1e-5, m=m):,.4g}"
    assert metrics["Laplace scale b"] == f"{2 * m / 1.0:,.4g}"
    assert {"TopicDP strict", "Laplace", "VIPS-LDA"} <= set(_badges(at))
    (chart,) = at.get("vega_lite_chart")
    panels = json.loads(chart.proto.spec)["facet"]["sort"]
    assert [p.partition(" · ")[0] for p in panels] == ["TopicDP strict", "Laplace", "VIPS-LDA"]
    _no_sampled_number(at)
    # the export: the table before noise and the releases shown; its record says the sampled ones were not made
    data = export_json(downloads, at, "topicdp_export_keywords")
    assert data["spec"]["sampled"] is False and "sampled_mechanisms" in data["settings"]
    assert "sampled_sensitivity_delta_s" not in data["settings"] and "sampled_pairs_h" not in data["settings"]
    assert {k[len("after_") :] for k in data["rows"][0] if k.startswith("after_")} == SHOWN
    assert data["settings"]["rng_salt"] == ["topicdp", "release-sampler-free", 1.0, 1e-5, m, data["settings"]["n"]]
    out = dpcore.replay(data["spec"], upload)  # no draws needed: strict TopicDP and Laplace only
    assert out.sensitivity is None and set(out.releases) == set(SAMPLER_FREE_MECHANISMS)
    numbers = Spec.from_record(data["spec"]).numbers(out)
    assert numbers["delta_s"] is None and numbers["h"] is None
    assert numbers["before_noise"] == [r["before_noise"] for r in data["rows"]]
    for mech in SHOWN:
        assert numbers["after"][mech] == [r[f"after_{mech}"] for r in data["rows"]], mech
    # the reviewer's panel and the session budget: the releases made, none of the sampled ones
    panel = next(e for e in at.expander if "Reviewer's panel" in e.label)
    reviewed = [md.value.strip("*") for md in panel.markdown if md.value.startswith("**") and md.value.endswith("**")]
    assert reviewed == ["TopicDP strict", "Laplace", "VIPS-LDA"]
    (entries,) = at.session_state["_session_budget"].values()
    assert sorted(e.mechanism for e in entries) == sorted(["TopicDP strict", "Laplace", "VIPS-LDA"])


@pytest.mark.slow
def test_the_button_runs_the_sampler_and_then_the_sampled_mechanisms_appear():
    """On demand: the button samples the pairs (a 20-user upload: ~0.04 s per pair), then TopicDP (as in the thesis),
    corrected and MVG are released beside the others, with Δ_s, their random-DP badges and a sampled record."""
    at = _opened(twenty_users(seed=1))  # another upload: its draws (kept with it) do not reach the other tests
    _no_sampled_number(at)
    at.button(key="topicdp_run").click()
    at.run()
    clean(at)
    assert "Done" in at.get("progress")[-1].proto.text
    labels = [x.label for x in at.metric]
    assert (
        "Sampled sensitivity Δₛ" in labels and "TopicDP σ, as in the thesis" in labels and "MVG σ per entry" in labels
    )
    assert {"TopicDP (as in the thesis)", "TopicDP corrected", "MVG with sampled s₂"} <= set(_badges(at))
    assert not [w for w in at.warning if "need the sampled sensitivity" in w.value]
    panels = json.loads(at.get("vega_lite_chart")[0].proto.spec)["facet"]["sort"]
    assert [p.partition(" · ")[0] for p in panels] == [*dpcore.topicdp.TOPIC_MECHANISMS, "VIPS-LDA"]


@pytest.mark.parametrize("label", ["Error curves", "Sampled sensitivities", "VIPS-LDA against ε"])
def test_every_tab_says_what_needs_the_sampler_and_shows_no_number_of_it(upload, label):
    at = _opened(upload)
    at.session_state[TAB] = label
    at.run()
    clean(at)
    tab = next(t for t in at.tabs if t.label == label)
    assert any("run the sampler" in i.value.lower() or "Run the sensitivity sampler" in i.value for i in tab.info)
    if label == "VIPS-LDA against ε":  # VIPS-LDA's own topics need no Δ_s: still shown
        assert tab.get("arrow_data_frame") or tab.get("dataframe")
    else:
        assert not tab.get("plotly_chart")
    at.session_state["topicdp_story_open"] = True  # the lazy expander below the charts: no σ story, no means
    at.run()
    clean(at)
    _no_sampled_number(at)
    assert any("need the sampled sensitivity Δₛ" in i.value for i in at.info)


def test_the_time_estimate_uses_the_measured_seconds_per_pair_once_there_are_some():
    """pairs still needed × seconds per pair measured on this corpus's stored pairs; before any, the stated rough
    0.28 s per pair (dpui.topicdp.sampler.ROUGH_SECONDS_PER_PAIR), each sentence saying which."""
    from types import SimpleNamespace

    from dpui.topicdp.sampler import ROUGH_SECONDS_PER_PAIR, time_estimate

    size = sensitivity_sampler_size(gamma=0.1)  # h = 285
    measured = time_estimate(SimpleNamespace(n_pairs=85, seconds=170.0), size)  # 2 s per pair, 200 pairs to go
    assert measured == (
        "Estimated time: about 6.7 minutes (200 pairs × 2.00 s per pair, measured on this corpus's stored pairs)."
    )
    rough = time_estimate(SimpleNamespace(n_pairs=0, seconds=0.0), size)
    assert ROUGH_SECONDS_PER_PAIR == 0.28 and rough == (
        "Estimated time: about 1.3 minutes (285 pairs × 0.28 s per pair, a rough estimate: what a pair took on the "
        "3,000-user classroom sample; nothing measured on this corpus yet, and a smaller corpus takes less)."
    )
    assert "about 15 seconds" in time_estimate(SimpleNamespace(n_pairs=280, seconds=840.0), size)  # 5 × 3 s
