"""Exports that reproduce the page, and "Reproduce in Python" (issue 22 items 2–3), for the Bayesian n-gram DP and
TopicDP pages: each page opened in AppTest at its defaults on the classroom sample (the fast corpus, as
tests/test_app_salts.py opens the pages; its TopicDP draws ship in sample_data/topicdp_sensitivity); each export's
``spec`` record replayed with ``dpcore.replay`` on the same corpus gives the page's numbers exactly; the generated
``.py`` (run with the system python3) and ``.ipynb`` (executed with nbclient) print the same numbers."""

from __future__ import annotations

import json

import pytest
from replay_env import clean, export_json, opened, run_notebook, run_script  # the `downloads` fixture: conftest

import dpcore
from dpcore.specs import BayesianKlEpsilonSpec, BayesianSpec, Spec, TopicDpSpec, load_corpus

try:
    dpcore.load_sample_corpus("private", max_users=1)
    HAVE_SAMPLE = True
except dpcore.CorpusError:
    HAVE_SAMPLE = False

pytestmark = pytest.mark.skipif(not HAVE_SAMPLE, reason="sample corpus not generated yet")


def _plain(value):
    """What the export's JSON holds for a value (floats round-trip exactly through JSON)."""
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def classroom():
    return load_corpus("classroom"), load_corpus("classroom", which="public")


# ------------------------------------------------------------------------------ Bayesian n-gram DP


def _open_tab(at, label: str) -> None:
    """Open one of the Bayesian page's lazy tabs (issue 24: only the open tab is drawn), as a click on it does."""
    at.session_state["bayes_tab"] = label
    at.run()
    clean(at)


def _check_bayesian_exports(downloads, at, priv) -> tuple[dict, dict]:
    """Both exports replayed; the release's read on its tab, then the KL-vs-ε tab is opened (and left open)."""
    _open_tab(at, "Release")
    rel = export_json(downloads, at, "bayes_export_release")
    spec = Spec.from_record(rel["spec"])
    assert isinstance(spec, BayesianSpec) and spec.corpus == "classroom" and spec.corpus_hash == priv.content_hash
    out = dpcore.replay(rel["spec"], priv)  # the public corpus: loaded by the record's id, its hash checked
    assert _plain(BayesianSpec.top_rows(out, len(rel["rows"]))) == rel["rows"]
    assert (out.release.sigma, out.prepared.sensitivity) == (
        rel["settings"]["sigma_ps"],
        rel["settings"]["sensitivity_gamma"],
    )
    assert rel["settings"]["rng_salt"] == _plain(spec.salt())
    _open_tab(at, "KL vs ε")
    kl = export_json(downloads, at, "bayes_export_kl")
    kl_spec = Spec.from_record(kl["spec"])
    assert isinstance(kl_spec, BayesianKlEpsilonSpec)
    assert _plain(kl_spec.rows(dpcore.replay(kl["spec"], priv))) == kl["rows"]
    return rel, kl


def test_bayesian_exports_replay_and_the_generated_notebooks(downloads, classroom, tmp_path):
    priv, _ = classroom
    at = opened("2_Bayesian_ngram_DP.py", corpus="classroom")
    _check_bayesian_exports(downloads, at, priv)
    # strict mode's caps moved (L and N_max: what the KL-vs-ε export once left out): the records follow them and
    # still replay the page's numbers exactly
    at.slider(key="bayes_L").set_value(7).run()
    at.select_slider(key="bayes_Nmax").set_value(5000).run()
    clean(at)
    rel, kl = _check_bayesian_exports(downloads, at, priv)
    assert [r["spec"][f] for r in (rel, kl) for f in ("max_items", "max_users")] == [7, 5000, 7, 5000]
    # Reproduce in Python: the release's script and the KL-vs-ε notebook print the page's numbers
    notebook = downloads(at, "bayes_reproduce_kl_ipynb").decode("utf-8")  # the KL-vs-ε tab is open
    _open_tab(at, "Release")
    got = run_script(downloads(at, "bayes_reproduce_release_py").decode("utf-8"), tmp_path)
    rows = rel["rows"]
    assert got["top_ngrams"][: len(rows)] == [r["ngram"] for r in rows]
    assert got["top_released_probability"][: len(rows)] == [r["released_probability"] for r in rows]
    assert got["sigma_ps"] == rel["settings"]["sigma_ps"]
    assert (tmp_path / "bayesian_figure.html").stat().st_size > 1000  # the script wrote the plotly figure
    got = run_notebook(notebook, tmp_path)
    for r in kl["rows"]:
        if r["mechanism"].startswith("k-anonymity"):
            assert got["k_anonymity_kl"] == r["mean_kl"]
            continue
        curve = got["curves"][r["mechanism"]]
        i = curve["x"].index(r["epsilon"])
        assert (curve["mean"][i], curve["lower"][i], curve["upper"][i]) == (r["mean_kl"], r["lower_kl"], r["upper_kl"])


# ------------------------------------------------------------------------------ TopicDP


def _values(v) -> list:
    """A plotly JSON array: a list, or a typed array ``{"dtype", "bdata"}`` (plotly ≥ 6)."""
    if isinstance(v, dict) and "bdata" in v:
        import base64

        import numpy as np

        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def _topicdp_numbers_equal(numbers: dict, rows: list[dict], errors: list[dict]) -> None:
    assert numbers["before_noise"] == [r["before_noise"] for r in rows]
    assert set(numbers["after"]) == {k[len("after_") :] for k in rows[0] if k.startswith("after_")}
    for mech, values in numbers["after"].items():
        assert values == [r[f"after_{mech}"] for r in rows], mech
    names = {
        "L1 distance": "l1",
        "RMSE": "rmse",
        "Kendall's tau distance": "kendall",
        "noise scale (σ or b)": "noise_scale",
    }
    for row in errors:
        for mech, value in row.items():
            if mech != "metric":
                assert numbers["errors"][mech][names[row["metric"]]] == value, (mech, row["metric"])


def test_topicdp_exports_replay_and_the_generated_notebooks(downloads, classroom, tmp_path):
    priv, _ = classroom
    at = opened("4_TopicDP.py", corpus="classroom")
    data = export_json(downloads, at, "topicdp_export_keywords")
    errors = export_json(downloads, at, "topicdp_export_errors")
    assert errors["spec"] == data["spec"]
    spec = Spec.from_record(data["spec"])
    assert isinstance(spec, TopicDpSpec) and spec.corpus_hash == priv.content_hash and spec.sample_users is None
    s = data["settings"]
    assert (spec.epsilon, spec.delta, spec.gamma, spec.m, spec.n, spec.seed) == (
        s["epsilon"],
        s["delta"],
        s["gamma"],
        s["m"],
        s["n"],
        s["seed"],
    )
    out = dpcore.replay(data["spec"], priv)
    assert out.sensitivity.delta_s == s["sampled_sensitivity_delta_s"]
    assert s["rng_salt"] == _plain(list(spec.salt(out.sensitivity.delta_s)))
    assert s["sampler"]["sample_users"] is None  # the draws' file is keyed by None (= the corpus' size), not by N
    _topicdp_numbers_equal(_plain(spec.numbers(out)), data["rows"], errors["rows"])
    script = downloads(at, "topicdp_reproduce_py").decode("utf-8")  # the Reproduce buttons: in the default tab
    notebook = downloads(at, "topicdp_reproduce_ipynb").decode("utf-8")
    # the error curves (not exported): the page's chart is the curve spec's replay at the page's settings (its tab,
    # opened: the tabs are lazy)
    curve_spec = spec.curve_spec(parameter="epsilon", repetitions=20, stage="released")
    curve = dpcore.replay(json.loads(json.dumps(curve_spec.record())), priv)
    at.session_state["topicdp_tab"] = "Error curves"
    at.run()
    clean(at)
    titled = [
        (str(f.get("layout", {}).get("title", "")), f)
        for f in (json.loads(c.proto.spec) for c in at.get("plotly_chart"))
    ]
    fig = next(f for title, f in titled if title.count("L1 distance") and " vs epsilon (" in title)
    for mech in dpcore.topicdp.TOPIC_MECHANISMS:
        trace = next(t for t in fig["data"] if t.get("name", "").rpartition(" · ")[0] == mech)  # "<mech> · <tag>"
        assert _values(trace["x"]) == list(curve.values)
        assert _values(trace["y"]) == curve.stats["l1"][mech][0].tolist(), mech
    # Reproduce in Python: the script and the notebook print the page's numbers
    _topicdp_numbers_equal(run_script(script, tmp_path), data["rows"], errors["rows"])
    assert (tmp_path / "topicdp_figure.html").stat().st_size > 1000
    _topicdp_numbers_equal(run_notebook(notebook, tmp_path), data["rows"], errors["rows"])
