"""The session budget keys a release by its identity, never by its output (issue 30 item 2), on the page itself.

The audit: on DP n-gram extraction at ε = 0.5, T = 1, Δ0 = 10, seeds 4 and 8 release the same set, so ten seeds
counted as nine (ε 4.5 instead of 5.0) — the entry's key was (name, released sets, ε, δ). Each seed is a release of
its own: ten seeds are ten entries, whatever they output. (tests/test_budget.py reproduces the collision on a corpus
where every seed releases the same empty set.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpcore.lab.budget import compose_releases

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_ten_dpne_seeds_count_as_ten_releases():
    at = AppTest.from_file(str(ROOT / "pages" / "3_DP_ngram_extraction.py"), default_timeout=600)
    for k, v in {"eps": "0.5", "dpne_T": "1", "dpne_delta0": "10"}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    for seed in range(1, 10):
        at.number_input(key="seed").set_value(seed).run()
        assert not at.exception, [e.message for e in at.exception]
    at.number_input(key="seed").set_value(4).run()  # a seed seen before: the same release, not a new one
    (entries,) = at.session_state["_session_budget"].values()
    dpne = [e for e in entries if e.mechanism == "DPNE"]
    assert len(dpne) == 10 and len({e.key for e in dpne}) == 10
    assert all(e.guarantee.epsilon == 0.5 for e in dpne)
    total = compose_releases(dpne)
    assert total.basic_epsilon == pytest.approx(5.0) and total.epsilon < 5.0
