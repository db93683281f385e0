"""Issue 30, item 8: the audit lab's correct and broken variants are two independent experiments.

Before, every audit at a seed ran on ``default_rng([seed, 10])``: the broken Laplace's scores were the correct
one's halved, and the strict TopicDP's correlated at 0.95 — the "catch" compared one experiment with itself.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpcore.audit import audit_rng, run_scenario
from dpcore.specs import AuditSpec


def _centred(x):
    x = np.asarray(x, dtype=float)
    return x - x.mean()


@pytest.mark.parametrize("name", ["laplace_count", "topicdp_strict"])
def test_correct_and_broken_runs_are_uncorrelated_at_one_seed(name):
    runs = {b: AuditSpec(seed=0, scenario=name, broken=b, trials=10_000).run().result for b in (False, True)}
    for attr in ("scores_d", "scores_d_prime"):
        a, b = getattr(runs[False], attr), getattr(runs[True], attr)
        assert a.shape == b.shape
        r = float(np.corrcoef(_centred(a), _centred(b))[0, 1])
        assert abs(r) < 0.1, (name, attr, r)


def test_every_experiment_parameter_salts_the_generator():
    base = dict(scenario="laplace_count", broken=False, trials=1000)
    first = audit_rng(0, **base).random(4)
    assert np.array_equal(first, audit_rng(0, **base).random(4))  # replay: same spec, same draws
    for change in (
        {"broken": True},
        {"scenario": "exponential_city"},
        {"trials": 1001},
    ):
        assert not np.allclose(first, audit_rng(0, **{**base, **change}).random(4)), change
    assert not np.allclose(first, audit_rng(1, **base).random(4))
    assert not np.allclose(first, np.random.default_rng([0, 10]).random(4))  # not the old shared stream


def test_an_int_seed_and_the_page_spec_run_the_same_experiment():
    spec = AuditSpec(seed=3, scenario="laplace_count", broken=True, trials=500)
    by_spec = spec.run().result
    by_seed = run_scenario("laplace_count", broken=True, trials=500, rng=3).result
    assert np.array_equal(by_spec.scores_d, by_seed.scores_d)
    assert by_spec.epsilon_lower == by_seed.epsilon_lower


def test_audit_rng_validates():
    with pytest.raises(ValueError, match=r"scenario must be one of .*got scenario='magic'"):
        audit_rng(0, scenario="magic", broken=False, trials=100)
    with pytest.raises(TypeError, match=r"broken must be True or False, got broken='yes'"):
        audit_rng(0, scenario="laplace_count", broken="yes", trials=100)
    with pytest.raises(ValueError, match=r"trials must be >= 10, got trials=5"):
        audit_rng(0, scenario="laplace_count", broken=False, trials=5)
    with pytest.raises(TypeError):
        audit_rng(0)  # the salt is not optional


@pytest.mark.parametrize(
    ("name", "broken", "trials"),
    [
        ("laplace_count", False, 5_000),
        ("laplace_count", True, 5_000),
        ("exponential_city", False, 5_000),
        ("dpsu", False, 60),
        ("topicdp_strict", True, 2_000),
    ],
)
def test_rebound_is_the_audit_at_the_other_confidence(name, broken, trials):
    """Issue 29: a confidence move bounds the same runs again instead of rerunning the mechanism — which must be
    exactly the audit a fresh run at that confidence gives (the generator holds no confidence)."""
    first = AuditSpec(seed=5, scenario=name, broken=broken, trials=trials, confidence=0.9)
    run = first.run()
    for confidence in (0.95, 0.99):
        spec = first.replace(confidence=confidence)
        fresh, again = spec.run(), spec.rebound(run)
        assert again.result.as_dict() == fresh.result.as_dict()
        assert again.result.event == fresh.result.event and again.result.confidence == confidence
        assert np.array_equal(again.result.scores_d_prime, fresh.result.scores_d_prime)
        assert (again.scenario, again.variant, again.broken) == (fresh.scenario, fresh.variant, fresh.broken)
    # the bound really was computed again: its intervals are those of the other confidence
    wider = first.replace(confidence=0.99).rebound(run).result
    assert (wider.interval_d, wider.interval_d_prime) != (run.result.interval_d, run.result.interval_d_prime)
