"""The noise modes (issue 30 item 1): reproducible (public seed, a demonstration) and private (a session secret).

The audit's finding: the sidebar's seed is in the URL and every export, so anyone recomputes the noise and subtracts
it — a green badge over a view that protects no one. These tests open pages in AppTest (each ``AppTest`` is a session
of its own) on the classroom corpus and check: in private mode the same URL opened twice draws different noise, and
the same session shows the same release again; the seed recomputation (the draw recomputed from the URL's seed and
subtracted from the released BayesianDP distribution) recovers the private statistic exactly in reproducible mode
and nothing in private mode; a private export carries no seed, says the noise is secret, and its replay reproduces
the noise-free parts only and says so; an upload opens in private mode; in reproducible mode every guarantee badge
carries the demonstration sentence.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

import numpy as np
import pytest
from replay_env import ROOT, clean, export_json, opened
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore.specs import BayesianSpec, SecretNoiseWarning, Spec
from dpui.common.noise import DEMONSTRATION

BAYES = "2_Bayesian_ngram_DP.py"
EXPORT = "bayes_export_release"
URL = {"corpus": "classroom", "seed": "4"}  # the seed in the link: what anyone who sees the link knows


@pytest.fixture(scope="module")
def classroom():
    return dpcore.load_sample_corpus("private", size="classroom")


@pytest.fixture(scope="module")
def classroom_public():
    return dpcore.load_sample_corpus("public", size="classroom")


def _released(data: dict) -> np.ndarray:
    return np.array([r["released_probability"] for r in data["rows"]])


def _secret(at: AppTest) -> int:
    return at.session_state["_noise_secret"]


def test_private_mode_same_url_twice_gives_different_noise_and_one_session_the_same(downloads):
    first = opened(BAYES, noise="private", **URL)
    a = export_json(downloads, first, EXPORT)
    second = opened(BAYES, noise="private", **URL)
    b = export_json(downloads, second, EXPORT)
    assert _secret(first) != _secret(second)
    # the noise-free columns are the same data; the released probabilities are two different draws
    for col in ("rank", "ngram", "private_probability", "public_prior_probability"):
        assert [r[col] for r in a["rows"]] == [r[col] for r in b["rows"]], col
    assert np.all(_released(a) != _released(b))
    # within a session the same settings show the same release (the session budget counts it once)
    first.select_slider(key="eps").set_value(2.0).run()
    clean(first)
    assert not np.array_equal(_released(export_json(downloads, first, EXPORT)), _released(a))
    first.select_slider(key="eps").set_value(1.0).run()
    clean(first)
    assert np.array_equal(_released(export_json(downloads, first, EXPORT)), _released(a))
    # reproducible mode: the same URL opened twice shows the same noise (what makes the demonstration replayable)
    r1 = export_json(downloads, opened(BAYES, **URL), EXPORT)
    r2 = export_json(downloads, opened(BAYES, **URL), EXPORT)
    assert np.array_equal(_released(r1), _released(r2))


def _recompute_and_subtract(data: dict, url_seed: int, corpus, public) -> tuple[np.ndarray, np.ndarray]:
    """The issue's attack on the BayesianDP release θ = softmax(μ + σ·z): recompute z from the URL's seed and the
    settings, subtract σ·z from log θ. Returns (recovered, true) differences μ_i − μ_top over the exported rows (the
    private statistic μ comes from the private corpus, to score the attack)."""
    record = {k: v for k, v in data["spec"].items() if k != "noise"}
    spec = Spec.from_record({**record, "seed": url_seed})
    counts = spec.counts(corpus, public)
    stats = spec.local_statistics(counts) if spec.mode == "local" else spec.strict_statistics(counts)
    prepared = spec.prepare(stats)
    sigma = prepared.sigma(epsilon=spec.epsilon, delta=spec.delta, calibration=spec.calibration)
    z = spec.rng(*spec.salt()).standard_normal(prepared.mu_ps.size)
    index = {" ".join(w): i for i, w in enumerate(counts.vocabulary)}
    rows = [index[r["ngram"]] for r in data["rows"]]
    recovered = np.log(_released(data)) - sigma * z[rows]
    true = prepared.mu_ps[rows]
    return recovered - recovered[0], true - true[0]


def test_the_seed_recomputation_recovers_everything_in_reproducible_and_nothing_in_private_mode(
    downloads, classroom, classroom_public
):
    url_seed = int(URL["seed"])
    public = export_json(downloads, opened(BAYES, **URL), EXPORT)
    recovered, true = _recompute_and_subtract(public, url_seed, classroom, classroom_public)
    assert np.max(np.abs(recovered - true)) < 1e-6  # the attack works on a public seed: the private μ, exactly
    private = export_json(downloads, opened(BAYES, noise="private", **URL), EXPORT)
    recovered, true = _recompute_and_subtract(private, url_seed, classroom, classroom_public)
    err = np.abs(recovered - true)[1:]  # (the first row is the reference of the differences)
    assert np.all(err > 1e-3), err  # not one entry recovered
    assert np.median(err) > 0.1  # off by the noise's own size (σ·|z₁ − z₂|)


def test_a_private_export_has_no_seed_says_the_noise_is_secret_and_replays_the_noise_free_parts(downloads, classroom):
    at = opened(BAYES, noise="private", **URL)
    secret = _secret(at)
    raw = downloads(at, f"{EXPORT}_json").decode("utf-8")
    assert str(secret) not in raw and str(secret) not in downloads(at, f"{EXPORT}_csv").decode("utf-8")
    data = json.loads(raw)
    settings, record = data["settings"], data["spec"]
    assert "seed" not in settings and "seed" not in record
    assert settings["noise"] == "private" and settings["noise_seed"].startswith("secret")
    assert "noise-free numbers only" in settings["noise_seed"] and record["noise"] == "secret"
    # the notebook and the script carry no seed either, and say what they reproduce
    for suffix in ("bayes_reproduce_release_py", "bayes_reproduce_release_ipynb"):
        text = downloads(at, suffix).decode("utf-8")
        assert str(secret) not in text and "'noise': 'secret'" in text and "cannot be reproduced" in text
    # the replay: fresh noise, said so; the noise-free parts are the export's, the noisy ones are not
    with pytest.warns(SecretNoiseWarning, match="the noisy ones cannot be reproduced"):
        out = dpcore.replay(record, classroom)
    with pytest.warns(SecretNoiseWarning):
        spec = Spec.from_record(record)
    assert isinstance(spec, BayesianSpec)
    rows = BayesianSpec.top_rows(out, len(data["rows"]))
    for col in ("rank", "ngram", "private_probability", "public_prior_probability"):
        assert [r[col] for r in rows] == [r[col] for r in data["rows"]], col
    assert not np.any(np.array([r["released_probability"] for r in rows]) == _released(data))
    numbers = spec.numbers(out)
    assert set(spec.noise_free(numbers)) == {"sensitivity_gamma", "sigma_ps", "kl_public_prior", "top_ngrams"}
    # a reproducible export still replays exactly (its seed is public)
    public = export_json(downloads, opened(BAYES, **URL), EXPORT)
    assert public["settings"]["seed"] == 4 and public["settings"]["noise"] == "reproducible"
    assert public["spec"]["seed"] == 4 and "noise" not in public["spec"]
    replayed = BayesianSpec.top_rows(dpcore.replay(public["spec"], classroom), len(public["rows"]))
    assert [r["released_probability"] for r in replayed] == list(_released(public))


TINY_UPLOAD = dpcore.corpus_from_records(
    [{"user": f"u{i}", "text": f"the cat sat on the mat {i % 3}. a dog ran far away."} for i in range(30)],
    user_field="user",
    text_field="text",
    name="tiny upload",
)


def test_an_upload_opens_in_private_mode():
    from dpui.common.corpus_panel import UPLOADED_KEY

    at = AppTest.from_file(str(ROOT / "pages" / BAYES), default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.session_state[UPLOADED_KEY] = TINY_UPLOAD
    at.run()
    clean(at)
    assert at.radio(key="noise").value == "private"
    assert not any(DEMONSTRATION in m.value for m in at.markdown)
    assert any("Seed: **secret**" in c.value for c in at.sidebar.caption)
    assert not at.sidebar.get("number_input") or "seed" not in {w.key for w in at.sidebar.get("number_input")}
    # switching to the upload within a session (from the chat's reproducible view) also turns private mode on
    at = AppTest.from_file(str(ROOT / "pages" / BAYES), default_timeout=300)
    at.query_params["corpus"] = "classroom"
    at.session_state[UPLOADED_KEY] = TINY_UPLOAD
    at.run()
    assert at.radio(key="noise").value == "reproducible"
    at.radio(key="corpus").set_value("upload").run()
    clean(at)
    assert at.radio(key="noise").value == "private"
    # choosing reproducible on an upload is allowed, on purpose, and kept
    at.radio(key="noise").set_value("reproducible").run()
    clean(at)
    assert at.radio(key="noise").value == "reproducible"
    assert at.number_input(key="seed").value == 0
    # a link that names the mode on purpose is followed
    at = AppTest.from_file(str(ROOT / "pages" / BAYES), default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.query_params["noise"] = "reproducible"
    at.session_state[UPLOADED_KEY] = TINY_UPLOAD
    at.run()
    clean(at)
    assert at.radio(key="noise").value == "reproducible"


def _chips(at: AppTest) -> tuple[list[str], list[str]]:
    values = [m.value.strip() for m in at.markdown]
    return [v for v in values if "-badge[" in v and "Guarantee:" in v], [v for v in values if DEMONSTRATION in v]


def test_every_badge_carries_the_demonstration_sentence_in_reproducible_mode_only():
    at = opened("1_Mechanisms_101.py")
    badges, demos = _chips(at)
    assert badges and len(demos) == len(badges)
    values = [m.value.strip() for m in at.markdown]
    for i, v in enumerate(values):  # each guarantee chip is followed by its demonstration chip
        if v in badges:
            assert DEMONSTRATION in values[i + 1]
    at.radio(key="noise").set_value("private").run()
    clean(at)
    badges, demos = _chips(at)
    assert badges and demos == []
    for link in at.sidebar.get("page_link"):  # the mode travels to the other pages like any shared setting
        assert parse_qs(link.proto.query_string)["noise"] == ["private"]


def _everything_shown(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [c.value for c in at.sidebar.caption]
    parts += [c.proto.spec for c in at.get("plotly_chart")] + [f"{m.label} {m.value}" for m in at.metric]
    # chart titles wrapped for a phone (dpui.common.charts.fit_narrow), as drawn and as escaped in a chart's JSON
    return "\n".join(parts).replace("<br>", " ").replace("\\u003cbr\\u003e", " ")


def test_the_secret_is_never_shown_and_the_public_seed_survives_a_private_interlude():
    at = opened("1_Mechanisms_101.py", seed="7", m101_tab="(d) Sample many times")
    assert "(seed 7)" in _everything_shown(at)
    at.radio(key="noise").set_value("private").run()
    clean(at)
    shown = _everything_shown(at)
    assert str(_secret(at)) not in shown and "(seed secret)" in shown and "(seed 7)" not in shown
    at.radio(key="noise").set_value("reproducible").run()
    clean(at)
    assert at.number_input(key="seed").value == 7 and "(seed 7)" in _everything_shown(at)
    home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    for k, v in {"noise": "private", "seed": "7", "corpus": "classroom"}.items():
        home.query_params[k] = v
    home.run()
    clean(home)
    shown = _everything_shown(home)
    assert "noise = private, seed = secret" in shown and str(_secret(home)) not in shown
