"""dpcore.prepare_dpne: the η-independent part of a DPNE run, computed once and finished by ``plan.run(eta)``.

``dpne_with_evaluation`` itself is ``prepare_dpne(...).run(eta)``, so the other DPNE tests (worked examples,
brute force, the Spark engine's identical sets) check the shared code; here: a plan reused for many η in any
order gives what a fresh run gives each time (``run`` modifies nothing of the plan), for both policies, both
pruning rules, both selections, the sharded path and both ways of a level's second pass (kept or recomputed
candidate positions: the same sets), and its parameters are checked.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib

import numpy as np
import pytest

import dpcore
from dpcore import prepare_dpne
from dpcore.dpne import DpnePlan, dpne_with_evaluation

dpne_mod = importlib.import_module("dpcore.dpne")


@pytest.fixture(scope="module")
def tc():
    corpus = dpcore.load_sample_corpus("private")
    return dpcore.text.encode_users(corpus.subset(range(600)).user_sentences())


def _same(a, b) -> None:
    assert a.release.ngrams == b.release.ngrams
    assert a.release.thresholds == b.release.thresholds and a.release.valid_counts == b.release.valid_counts
    assert [dataclasses.astuple(x) for x in a.evaluation.levels] == [
        dataclasses.astuple(x) for x in b.evaluation.levels
    ]
    for k in b.evaluation.ids:
        assert np.array_equal(a.evaluation.ids[k], b.evaluation.ids[k])
        assert np.array_equal(a.evaluation.spurious_ids[k], b.evaluation.spurious_ids[k])


def _fingerprint(plan: DpnePlan) -> str:
    h = hashlib.sha256()
    arrays = [plan.pos, plan.rel, *(v for v in plan.state.values() if isinstance(v, np.ndarray))]
    if plan.level2 is not None:
        for f in dataclasses.fields(plan.level2):
            v = getattr(plan.level2, f.name)
            arrays += (
                v
                if isinstance(v, list) and v and isinstance(v[0], np.ndarray)
                else [v]
                if isinstance(v, np.ndarray)
                else []
            )
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


@pytest.mark.parametrize(
    "policy,pruning,selection,shard",
    [
        ("weighted", "both", "random", None),
        ("weighted", "single", "most-frequent", None),
        ("weighted", "both", "most-frequent", 700),
        ("weighted", "single", "random", 700),
        ("policy", "both", "random", None),
        ("policy", "single", "most-frequent", None),
    ],
)
def test_a_reused_plan_gives_fresh_runs_for_any_eta_in_any_order(tc, monkeypatch, policy, pruning, selection, shard):
    if shard:  # and the levels find their candidate positions again instead of keeping them (bounded memory)
        monkeypatch.setattr(dpne_mod.release, "_SHARD_POSITIONS", shard)
        monkeypatch.setattr(dpne_mod.release, "_KEEP_POSITIONS", 0)
    # ε = 6: the calibrated classroom corpus's first 600 users release bigrams under every policy (at ε = 3 none)
    kw = dict(
        epsilon=6.0, delta=1e-5, max_length=5, contribution_limit=8, pruning=pruning, selection=selection, policy=policy
    )
    plan = prepare_dpne(tc, rng=7, **kw)
    assert (plan.level2 is not None) == (policy == "weighted")  # Policy Gaussian: ρ_2 enters its histogram
    before = _fingerprint(plan)
    sizes = {}
    for eta in (0.2, 0.001, 0.05, 0.2, 0.5):
        got = plan.run(eta)
        _same(got, dpne_with_evaluation(tc, rng=7, eta=eta, **kw))
        assert got.release.eta == eta
        sizes[eta] = got.release.sizes
    assert _fingerprint(plan) == before
    # η changes the thresholds of k ≥ 2 only: S_1 is the same, and a larger η releases more bigrams
    assert len({s[1] for s in sizes.values()}) == 1
    assert sizes[0.001][2] <= sizes[0.05][2] <= sizes[0.5][2] and sizes[0.001][2] < sizes[0.5][2]


def test_kept_and_recomputed_candidate_positions_give_the_same_run(tc, monkeypatch):
    kw = dict(epsilon=20.0, delta=1e-5, max_length=6, contribution_limit=8, rng=2, eta=0.05)
    kept = dpne_with_evaluation(tc, **kw)
    monkeypatch.setattr(dpne_mod.release, "_KEEP_POSITIONS", 0)
    again = dpne_with_evaluation(tc, **kw)
    _same(kept, again)
    assert kept.release.sizes[6] > 0  # deep enough for the second pass to matter at every length


def test_plan_for_one_length_and_for_an_empty_first_level(tc):
    plan = prepare_dpne(tc, rng=1, epsilon=2.0, delta=1e-5, max_length=1, contribution_limit=5)
    assert plan.level2 is None and plan.run(0.1).release.sizes == {1: plan.diag1.released}
    tiny = [[["a", "b"]], [["c", "d"]]]  # nobody shares a word: S_1 is (almost surely) empty
    run = prepare_dpne(tiny, rng=1, epsilon=1.0, delta=1e-6, max_length=3, contribution_limit=1).run(0.1)
    _same(run, dpne_with_evaluation(tiny, rng=1, eta=0.1, epsilon=1.0, delta=1e-6, max_length=3, contribution_limit=1))


def test_parameters_are_checked_where_they_are_given(tc):
    with pytest.raises(ValueError, match="epsilon must be > 0, got epsilon=0"):
        prepare_dpne(tc, rng=0, epsilon=0, delta=1e-5, max_length=3, contribution_limit=5)
    with pytest.raises(ValueError, match="contribution_limit must be >= 1"):
        prepare_dpne(tc, rng=0, epsilon=1, delta=1e-5, max_length=3, contribution_limit=0)
    plan = prepare_dpne(tc, rng=0, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5)
    for bad in (0, 1, -0.1):
        with pytest.raises(ValueError, match="eta must be"):
            plan.run(bad)
    # the one-call form checks in the order of its signature: η before noise_decay
    with pytest.raises(ValueError, match="eta must be"):
        dpne_with_evaluation(
            tc, rng=0, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5, eta=2, noise_decay=-1
        )
