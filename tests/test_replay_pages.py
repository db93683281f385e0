"""Every export of the DP n-gram extraction, Mechanisms 101 and Privacy audit pages replays (issue 22 item 2).

Each test opens a page in AppTest on the classroom corpus, downloads an export's JSON, rebuilds its spec with
``dpcore.replay(record, corpus)`` on the same corpus and checks the numbers equal what the page shows and exports —
exactly (same seed, same draws). The generated notebook and script are executed in tests/test_notebooks.py.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from replay_env import export_json, opened

import dpcore
from dpcore.specs import DpneSpec, Spec

CLASSROOM = {"corpus": "classroom"}
DPNE_SECTIONS_OPEN = {"dpne_step_open": "true", "dpne_spurious_open": "true"}  # lazy sections below the bars (issue 29)


@pytest.fixture(scope="module")
def classroom():
    return dpcore.load_sample_corpus("private", size="classroom")


def _chart(at, title_part: str) -> dict:
    for c in at.get("plotly_chart"):
        fig = json.loads(c.proto.spec)
        title = fig.get("layout", {}).get("title", {})
        text = title.get("text", "") if isinstance(title, dict) else str(title)
        if title_part in text.replace("<br>", " "):  # a title wrapped for a phone (dpui.common.charts.fit_narrow)
            return fig
    raise AssertionError(f"no chart titled …{title_part}…")


# ------------------------------------------------------------------------------ DP n-gram extraction
def _check_dpne_page(at, downloads, classroom, *, eta):
    data = export_json(downloads, at, "dpne_export_sizes")
    record, rows = data["spec"], data["rows"]
    assert record["spec"] == "dpne" and record["eta"] == eta and record["corpus"] == "classroom"
    assert record["corpus_hash"] == classroom.content_hash
    spec = Spec.from_record(record)
    assert isinstance(spec, DpneSpec) and spec.record() == record
    out = dpcore.replay(record, classroom)
    nums = spec.numbers(out)
    # the exported table: DPNE's and the three baselines' |S_k|, σ_k, ρ_k, |V_k| per length
    for name, sizes in nums["sizes"].items():
        assert [r[f"{name} |Sₖ|"] for r in rows] == sizes, name
    assert [r["DPNE σₖ"] for r in rows] == nums["sigmas"]
    assert [r["DPNE ρₖ"] for r in rows] == nums["thresholds"]
    assert [r["DPNE |Vₖ|"] for r in rows] == nums["valid_counts"]
    assert data["settings"]["rng_salt_dpne"] == list(spec.dpne_salt())
    # the metrics and the released sample
    assert at.metric[2].value == f"{nums['total']:,}"
    text = next(m.value for m in at.markdown if m.value.startswith("Some released "))
    k = int(re.match(r"Some released (\d+)-grams", text).group(1))
    assert re.findall(r"`([^`]+)`", text) == sorted(" ".join(g) for g in out.release.ngrams[k])[:15]
    # the spurious-share chart: every η of the grid, from the same plan
    fig = _chart(at, "no user wrote")
    overall = next(t for t in fig["data"] if t["name"] == "all lengths · DP")["y"]
    totals = [
        (sum(r[2] for r in nums["spurious"] if r[0] == e), sum(r[3] for r in nums["spurious"] if r[0] == e))
        for e in spec.eta_grid
    ]
    assert overall == [s / max(n, 1) for n, s in totals]
    return spec, out


def test_dpne_export_replays_at_the_defaults(downloads, classroom):
    at = opened("3_DP_ngram_extraction.py", **CLASSROOM, **DPNE_SECTIONS_OPEN)
    spec, out = _check_dpne_page(at, downloads, classroom, eta=0.01)
    assert (spec.epsilon, spec.delta, spec.max_length, spec.contribution_limit) == (4.0, 1e-6, 6, 50)


@pytest.mark.slow
def test_dpne_export_replays_at_another_eta_and_eta_changes_the_draws(downloads, classroom):
    at = opened(
        "3_DP_ngram_extraction.py",
        dpne_eta="0.05",
        dpne_T="5",
        dpne_delta0="20",
        eps="2",
        **CLASSROOM,
        **DPNE_SECTIONS_OPEN,
    )
    spec, out = _check_dpne_page(at, downloads, classroom, eta=0.05)
    assert (spec.epsilon, spec.max_length, spec.contribution_limit) == (2.0, 5, 20)
    # η is part of how the draws are derived: the same record at another η keeps S₁ (η does not enter it) and
    # draws lengths ≥ 3 with η in the key (dpcore.dpne.dpne_level_seed), so they are not the thresholds alone
    other = dpcore.replay({**spec.record(), "eta": 0.01}, classroom)
    assert other.release.ngrams[1] == out.release.ngrams[1]
    from dpcore.dpne import dpne_level_seed, dpne_release_seed
    from dpcore.dpne.selection import _keyed_seed

    base = dpne_release_seed(_keyed_seed(spec.rng(*spec.dpne_salt())), **{k: v for k, v in spec.dpne_kwargs().items()})
    assert dpne_level_seed(base, 3, 0.05, spec.policy) != dpne_level_seed(base, 3, 0.01, spec.policy)
    assert dpne_level_seed(base, 2, 0.05, spec.policy) == dpne_level_seed(base, 2, 0.01, spec.policy) == base


# ------------------------------------------------------------------------------ Mechanisms 101
def _nan_to_none(v):
    return None if isinstance(v, float) and v != v else v


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"m101_sample_mech": "Laplace", "m101_draws": "10000", "eps": "2", "m101_sens_factor": "0.2", "seed": "5"},
        {"m101_exp_rule": "public bound B", "m101_exp_bound": "0.2", "eps": "0.5"},
    ],
)
def test_m101_exports_replay(downloads, query):
    at = opened("1_Mechanisms_101.py", **query, m101_tab="(c) Exponential mechanism")  # only the open tab runs
    # (c) the exponential mechanism's probabilities: no draws, ε and the Δu factor only
    data = export_json(downloads, at, "m101_export_cities")
    assert data["spec"]["spec"] == "m101-cities"
    nums = Spec.from_record(data["spec"]).numbers(dpcore.replay(data["spec"]))
    assert {r["dataset"]: [v for k, v in r.items() if k != "dataset"] for r in data["rows"]} == nums[
        "city_probabilities"
    ]
    assert data["settings"]["worst_ratio"] == nums["worst_ratio"]
    assert data["settings"]["sensitivity_used"] == nums["sensitivity_used"]
    assert data["spec"]["utility_bound"] == (0.2 if "m101_exp_bound" in query else None)
    # (d) the sampled shares: the page's seed and every parameter of the draws
    at = opened("1_Mechanisms_101.py", **query, m101_tab="(d) Sample many times")
    data = export_json(downloads, at, "m101_export_sample")
    rec = data["spec"]
    assert rec["spec"] == "m101" and rec["seed"] == int(query.get("seed", 0))
    assert rec["mechanism"] == query.get("m101_sample_mech", "exponential")
    spec = Spec.from_record(rec)
    nums = spec.numbers(dpcore.replay(rec))
    rows = data["rows"]
    assert [list(r.values())[0] for r in rows] == nums["sample_x"]
    assert [r["share under D"] for r in rows] == nums["share_d"]
    assert [[v for k, v in r.items() if k.startswith("share under") and k != "share under D"][0] for r in rows] == nums[
        "share_other"
    ]
    assert [_nan_to_none(r["ratio"]) for r in rows] == nums["ratio"]
    shown = next(m.value for m in at.metric if m.label == "largest empirical ratio")
    assert shown == f"{nums['largest_ratio']:.3f}"
    assert data["settings"]["rng_salt"] == list(spec.sample_salt())


@pytest.mark.parametrize(
    "query",
    [{}, {"eps": "2", "m101_scale_mode": "by hand", "m101_b": "0.5", "m101_debt_rule": "cap"}],
)
def test_m101_laplace_tabs_export_and_replay(downloads, query):
    """Issue 31 item 6: tabs (a) and (b) had no CSV/JSON and no "Reproduce in Python". Their JSON replays to the
    numbers the page shows (no draws: exactly), and the notebook and script buttons are there."""
    at = opened("1_Mechanisms_101.py", **query)  # (a), the first tab
    data = export_json(downloads, at, "m101_export_loss")
    rec = data["spec"]
    assert rec["spec"] == "m101-loss" and rec["epsilon"] == float(query.get("eps", 1))
    assert rec["scale"] == (0.5 if query else None)
    out = dpcore.replay(rec)
    nums = Spec.from_record(rec).numbers(out)
    assert data["settings"]["worst_loss"] == nums["worst_loss"] and data["settings"]["scale"] == nums["scale"]
    assert [r["L(y)"] for r in data["rows"]] == [float(v) for v in out.loss]
    assert [r["p(y | D)"] for r in data["rows"]] == [float(v) for v in out.p_d]
    assert next(m.value for m in at.metric if m.label == "worst |L(y)| = Δ/b") == f"{nums['worst_loss']:.3g}"
    keys = {b.key for b in at.get("download_button")}
    assert {"m101_reproduce_loss_ipynb", "m101_reproduce_loss_py", "m101_export_loss_csv"} <= keys
    at = opened("1_Mechanisms_101.py", **query, m101_tab="(b) Global sensitivity")
    data = export_json(downloads, at, "m101_export_debt")
    rec = data["spec"]
    assert rec["spec"] == "m101-debt" and rec["rule"] == query.get("m101_debt_rule", "largest debt")
    out = dpcore.replay(rec)
    nums = Spec.from_record(rec).numbers(out)
    assert data["rows"][-1]["worst loss Δ/b"] == nums["worst_loss"]
    assert [r["worst loss Δ/b"] for r in data["rows"][:-1]] == [r.loss_bound for r in out.neighbours]
    assert data["settings"]["sensitivity"] == nums["sensitivity"]
    keys = {b.key for b in at.get("download_button")}
    assert {"m101_reproduce_debt_ipynb", "m101_reproduce_debt_py", "m101_export_debt_json"} <= keys


def test_m101_epsilon_is_in_the_salt_of_the_draws():
    """Before issue 22 the salt was ("m101-sample", mechanism, draws): the Laplace draws at ε = 1 and ε = 2 were the
    same standard draws scaled by 1/ε, and the two views gave the count 50 away, y₁ − 2(y₂ − 50) = 50 (issue 21)."""
    from dpcore.specs import M101Spec

    ys = {}
    for eps in (1.0, 2.0):
        spec = M101Spec(epsilon=eps, mechanism="Laplace", draws=1000, seed=3)
        assert eps in spec.sample_salt()
        ys[eps] = dpcore.laplace_mechanism(
            np.full(1000, 50.0), epsilon=eps, sensitivity=1.0, rng=spec.rng(*spec.sample_salt())
        )
    assert not np.allclose(ys[1.0] - 50, 2 * (ys[2.0] - 50))
    old = [
        dpcore.laplace_mechanism(
            np.full(1000, 50.0), epsilon=e, sensitivity=1.0, rng=M101Spec(seed=3).rng("m101-sample", "Laplace", 1000)
        )
        for e in (1.0, 2.0)
    ]
    assert np.allclose(old[0] - 50, 2 * (old[1] - 50))  # the old salt's leak, as it was


# ------------------------------------------------------------------------------ Privacy audit
@pytest.mark.parametrize(
    "query", [{}, {"audit_mechanism": "DPNE", "audit_broken": "true", "seed": "4", "audit_confidence": "99%"}]
)
def test_audit_export_replays(downloads, query):
    at = opened("5_Privacy_audit.py", **query)
    data = export_json(downloads, at, "audit_export")
    rec = data["spec"]
    assert rec["spec"] == "audit" and rec["seed"] == int(query.get("seed", 0))
    spec = Spec.from_record(rec)
    nums = spec.numbers(dpcore.replay(rec))
    (row,) = data["rows"]
    assert {k: v for k, v in row.items() if k in nums} == nums
    assert set(nums) <= set(row)
    assert next(m.value for m in at.metric if m.label == "ε lower bound") == f"{nums['epsilon_lower']:.3f}"
    if query:
        assert spec.broken and spec.scenario == "dpne_redraw" and spec.confidence == 0.99
