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

import dpcore
from dpcore.specs import DpneSpec, Spec
from replay_env import clean, downloads, export_json, opened  # noqa: F401  (downloads is a fixture)

CLASSROOM = {"corpus": "classroom"}


@pytest.fixture(scope="module")
def classroom():
    return dpcore.load_sample_corpus("private", size="classroom")


def _chart(at, title_part: str) -> dict:
    for c in at.get("plotly_chart"):
        fig = json.loads(c.proto.spec)
        title = fig.get("layout", {}).get("title", {})
        if title_part in (title.get("text", "") if isinstance(title, dict) else str(title)):
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
    overall = next(t for t in fig["data"] if t["name"] == "all lengths")["y"]
    totals = [(sum(r[2] for r in nums["spurious"] if r[0] == e), sum(r[3] for r in nums["spurious"] if r[0] == e))
              for e in spec.eta_grid]
    assert overall == [s / max(n, 1) for n, s in totals]
    return spec, out


def test_dpne_export_replays_at_the_defaults(downloads, classroom):
    at = opened("3_DP_ngram_extraction.py", **CLASSROOM)
    spec, out = _check_dpne_page(at, downloads, classroom, eta=0.01)
    assert (spec.epsilon, spec.delta, spec.max_length, spec.contribution_limit) == (4.0, 1e-6, 6, 50)


@pytest.mark.slow
def test_dpne_export_replays_at_another_eta_and_eta_changes_the_draws(downloads, classroom):
    at = opened("3_DP_ngram_extraction.py", dpne_eta="0.05", dpne_T="5", dpne_delta0="20", eps="2", **CLASSROOM)
    spec, out = _check_dpne_page(at, downloads, classroom, eta=0.05)
    assert (spec.epsilon, spec.max_length, spec.contribution_limit) == (2.0, 5, 20)
    # η is part of how the draws are derived: the same record at another η keeps S₁ (η does not enter it) and
    # draws lengths ≥ 3 with η in the key (dpcore.dpne.dpne_level_seed), so they are not the thresholds alone
    other = dpcore.replay({**spec.record(), "eta": 0.01}, classroom)
    assert other.release.ngrams[1] == out.release.ngrams[1]
    from dpcore.dpne import _keyed_seed, dpne_level_seed, dpne_release_seed

    base = dpne_release_seed(_keyed_seed(spec.rng(*spec.dpne_salt())), **{k: v for k, v in spec.dpne_kwargs().items()})
    assert dpne_level_seed(base, 3, 0.05, spec.policy) != dpne_level_seed(base, 3, 0.01, spec.policy)
    assert dpne_level_seed(base, 2, 0.05, spec.policy) == dpne_level_seed(base, 2, 0.01, spec.policy) == base
