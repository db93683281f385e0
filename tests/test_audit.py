"""The privacy audit (dpcore.audit, issue 10) and the membership-inference bound (issue 15, item 4).

Statistical tests are seeded (deterministic) and use trial counts at which the margins below are many
standard errors wide; the whole file runs in well under a minute.
"""

import math
import types

import numpy as np
import pytest
from scipy.stats import ks_2samp

import dpcore
from dpcore.audit import (
    SCENARIOS,
    AuditEvent,
    audit,
    audit_scores,
    clopper_pearson_lower,
    clopper_pearson_upper,
    epsilon_lower_bound,
    get_scenario,
    run_scenario,
)
from dpcore.audit.core import _choose_event
from dpcore.bayesian.evaluation import membership_attack

# ---------------------------------------------------------------------------------------------
# Clopper–Pearson and the bound, by hand


def test_clopper_pearson_by_hand():
    # k = n: Pr[Bin(n, p) ≥ n] = p^n = α → p⁻ = α^(1/n); k = 0: (1 − p)^n = α → p⁺ = 1 − α^(1/n)
    assert clopper_pearson_lower(100, 100, confidence=0.95) == pytest.approx(0.05 ** (1 / 100), rel=1e-9)
    assert clopper_pearson_upper(0, 100, confidence=0.95) == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-9)
    assert clopper_pearson_lower(0, 10) == 0.0 and clopper_pearson_upper(10, 10) == 1.0
    # symmetry: the lower bound on k/n is one minus the upper bound on (n − k)/n
    for k in (1, 7, 30, 49):
        assert clopper_pearson_lower(k, 50) == pytest.approx(1 - clopper_pearson_upper(50 - k, 50), rel=1e-9)
    # the exact binomial tail at the bound equals α
    from scipy.stats import binom

    p = clopper_pearson_upper(3, 40, confidence=0.9)
    assert binom.cdf(3, 40, p) == pytest.approx(0.1, rel=1e-6)


def test_epsilon_lower_bound_by_hand():
    assert epsilon_lower_bound(0.5, 0.1) == pytest.approx(math.log(5))
    assert epsilon_lower_bound(0.5, 0.1, delta=0.25) == pytest.approx(math.log(2.5))
    assert epsilon_lower_bound(0.2, 0.3) == 0.0  # below 1: no evidence, ε ≥ 0 only
    assert epsilon_lower_bound(0.01, 0.001, delta=0.02) == 0.0  # p⁻ ≤ δ: nothing to bound


def test_deterministic_difference_gives_the_exact_finite_bound():
    # every run separates D from D': the bound is what the Clopper–Pearson maths gives, finite
    n = 1000
    r = audit_scores(np.ones(2 * n), np.zeros(2 * n), delta=1e-3, confidence=0.95)
    level = 0.975  # two one-sided bounds at 1 − α/2 each
    expected = math.log(
        (clopper_pearson_lower(n, n, confidence=level) - 1e-3) / clopper_pearson_upper(0, n, confidence=level)
    )
    assert r.epsilon_lower == pytest.approx(expected, rel=1e-12)
    assert (r.count_d, r.count_d_prime, r.n_eval) == (n, 0, n)
    assert r.event.numerator == "D" and r.point_estimate == math.inf
    assert 5.0 < r.epsilon_lower < math.log(n)


def test_identical_distributions_give_zero():
    rng = np.random.default_rng(3)
    r = audit_scores(rng.normal(size=4000), rng.normal(size=4000))
    assert r.epsilon_lower == 0.0


def _brute_choice(a, b, delta, level):
    best = (-np.inf, None)
    for t in np.unique(np.concatenate([a, b])):
        for direction in (">=", "<="):
            ka = int(np.sum(a >= t if direction == ">=" else a <= t))
            kb = int(np.sum(b >= t if direction == ">=" else b <= t))
            for num, kn, kd in (("D", ka, kb), ("D'", kb, ka)):
                lo = clopper_pearson_lower(kn, a.size, confidence=level)
                hi = clopper_pearson_upper(kd, a.size, confidence=level)
                v = math.log((lo - delta) / hi) if lo - delta > 0 else -np.inf
                if v > best[0] + 1e-12:
                    best = (v, (direction, float(t), num))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_event_choice_agrees_with_a_literal_search(seed):
    rng = np.random.default_rng(seed)
    a = np.round(rng.normal(0.0, 1.0, 60), 1)  # ties on purpose
    b = np.round(rng.normal(0.8 * (seed % 3), 1.0, 60), 1)
    delta = (0.0, 0.01)[seed % 2]
    event, pilot = _choose_event(a, b, delta, 0.975)
    v, choice = _brute_choice(a, b, delta, 0.975)
    if choice is None:
        assert pilot == 0.0
    else:
        assert pilot == pytest.approx(max(0.0, v), rel=1e-9, abs=1e-12)
        # the chosen event reaches the same value (ties between events may pick another one)
        ev = AuditEvent(*choice)
        got = AuditEvent(event.direction, event.threshold, event.numerator)
        k = {e: (int(e.contains(a).sum()), int(e.contains(b).sum())) for e in (ev, got)}
        for e in (ev, got):
            kn, kd = k[e] if e.numerator == "D" else k[e][::-1]
            val = math.log(
                (clopper_pearson_lower(kn, 60, confidence=0.975) - delta)
                / clopper_pearson_upper(kd, 60, confidence=0.975)
            )
            assert val == pytest.approx(v, rel=1e-9)


def test_the_bound_is_conservative_over_many_seeds():
    # Laplace at ε = 1 on 50 vs 51: the true ε of the pair is exactly 1. With a 95 % bound, at most
    # ~5 % of independent audits may exceed it; a bound from point estimates would exceed it about half
    # of the time (each audit picks its best-looking event).
    rng = np.random.default_rng(20261122)
    over = 0
    runs = 200
    for _ in range(runs):
        r = audit_scores(50 + rng.laplace(0, 1, 4000), 51 + rng.laplace(0, 1, 4000), epsilon_claimed=1.0)
        over += r.violates_claim
    assert over <= 0.08 * runs


# ---------------------------------------------------------------------------------------------
# the public API


def test_dpcore_audit_is_a_package_and_audit_its_function():
    """dpcore.audit.audit runs an audit; the package is a plain module (issue 33 item 4: no callable-module hack)."""
    assert not callable(dpcore.audit) and type(dpcore.audit) is types.ModuleType
    with pytest.raises(TypeError, match="'module' object is not callable"):
        dpcore.audit(lambda data, rng: data, 50, 51, trials=2000, rng=0)  # type: ignore[operator]
    r = dpcore.audit.audit(
        lambda data, rng: data + rng.laplace(0.0, 1.0), 50, 51, trials=2000, rng=0, epsilon_claimed=1.0
    )
    assert isinstance(r, dpcore.audit.AuditResult) and 0.0 <= r.epsilon_lower <= 1.0
    assert dpcore.audit.SCENARIOS == SCENARIOS and dpcore.audit.audit_scores is audit_scores
    with pytest.raises(AttributeError):
        r.epsilon_lower = 3.0  # frozen


def test_loop_score_and_batch_paths():
    calls = []
    r1 = audit(
        lambda data, rng: {"v": data + rng.normal()},
        0.0,
        3.0,
        trials=400,
        score=lambda o: o["v"],
        rng=1,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls[-1] == (800, 800) and all(a <= b for (a, _), (b, _) in zip(calls, calls[1:]))
    r2 = audit(
        lambda data, rng: data + rng.normal(),
        0.0,
        3.0,
        trials=400,
        rng=1,
        batch=lambda data, n, rng: data + rng.normal(size=n),
    )
    assert r1.epsilon_lower > 2.0 and r2.epsilon_lower > 2.0
    assert r1.scores_d.size == r2.scores_d.size == 400
    assert r1.as_dict()["count_d"] == r1.count_d and "scores_d" not in r1.as_dict()


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        (dict(mechanism=3), TypeError, "mechanism must be callable, got mechanism=3"),
        (dict(trials=5), ValueError, "trials must be >= 10, got trials=5"),
        (dict(trials=2.5), ValueError, "trials must be a whole number, got trials=2.5"),
        (dict(trials="100"), TypeError, "trials must be an integer"),
        (dict(delta=1.0), ValueError, "delta must be < 1, got delta=1.0"),
        (dict(delta=-0.1), ValueError, "delta must be >= 0"),
        (dict(confidence=1.0), ValueError, "confidence must be < 1, got confidence=1.0"),
        (dict(confidence=0), ValueError, "confidence must be > 0"),
        (dict(epsilon_claimed=0), ValueError, "epsilon_claimed must be > 0, got epsilon_claimed=0"),
        (dict(rng=None), TypeError, "rng must be a numpy.random.Generator or an int seed"),
        (dict(score="mean"), TypeError, "score must be callable, got score='mean'"),
        (dict(progress=1), TypeError, "progress must be callable"),
        (dict(mechanism=lambda d, rng: "x"), TypeError, "mechanism output \\(pass score=...\\) must be a real number"),
        (dict(mechanism=lambda d, rng: float("nan")), ValueError, "mechanism returned NaN"),
        (dict(batch=lambda d, n, rng: np.zeros(n + 1)), ValueError, "must return n = 10 outputs, got 11"),
    ],
)
def test_audit_validates_at_the_boundary(kwargs, exc, message):
    args = dict(mechanism=lambda d, rng: d + rng.normal(), trials=200, rng=0)
    args.update(kwargs)
    mech = args.pop("mechanism")
    with pytest.raises(exc, match=message):
        audit(mech, 0.0, 1.0, **args)


@pytest.mark.parametrize(
    "a, b, exc, message",
    [
        ([1.0] * 20, [1.0] * 19, ValueError, "must have the same length, got 20 and 19"),
        ([1.0] * 5, [1.0] * 5, ValueError, "trials must be >= 10, got trials=5"),
        ([float("nan")] * 20, [1.0] * 20, ValueError, "scores_d must not contain NaN"),
        ([[1.0, 2.0]] * 20, [1.0] * 20, ValueError, "scores_d must be one-dimensional"),
        (["a"] * 20, [1.0] * 20, TypeError, "scores_d must be a sequence of real numbers"),
    ],
)
def test_audit_scores_validates(a, b, exc, message):
    with pytest.raises(exc, match=message):
        audit_scores(a, b)


# ---------------------------------------------------------------------------------------------
# the scenarios: every correct mechanism passes, every broken variant is caught


def test_laplace_half_scale_is_caught_from_100000_trials():
    run = run_scenario("laplace_count", broken=True, trials=100_000, rng=0)
    assert run.result.epsilon_lower > 1.2 and run.result.epsilon_claimed == 1.0
    assert run.result.epsilon_lower < 2.0  # the true ε of the broken pair is exactly 2
    assert run.vectorised


CORRECT = [n for n in SCENARIOS if get_scenario(n).correct is not None]
BROKEN = [n for n in SCENARIOS if get_scenario(n).broken is not None]


@pytest.mark.parametrize("name", CORRECT)
def test_correct_mechanisms_pass_their_audit(name):
    r = run_scenario(name, broken=False, rng=11).result
    assert r.epsilon_claimed is not None and r.epsilon_lower <= r.epsilon_claimed
    assert not r.violates_claim


@pytest.mark.parametrize("name", BROKEN)
def test_broken_variants_are_caught(name):
    sc = get_scenario(name)
    assert sc.broken.broken and (sc.broken.label.startswith("broken") or "not DP" in sc.broken.label)
    r = run_scenario(name, broken=True, rng=12).result
    claimed = r.epsilon_claimed if r.epsilon_claimed is not None else 5.0  # k-anonymity claims no ε
    assert r.epsilon_lower > claimed, (name, r.epsilon_lower)


def test_bayesian_local_pair_has_different_noise_scales():
    sc = get_scenario("bayesian")
    from dpcore.bayesian import bayesian_statistics

    gammas = [bayesian_statistics(m, None, C=2).sensitivity(1.0) for m in sc.datasets()]
    assert gammas[0] > 3 * gammas[1]  # γ(D) ≫ γ(D'): σ alone reveals the user


@pytest.mark.parametrize("name, broken", [(n, False) for n in CORRECT] + [(n, True) for n in BROKEN])
def test_vectorised_path_has_the_distribution_of_the_loop(name, broken):
    sc = get_scenario(name)
    v = sc.variant(broken)
    rng = np.random.default_rng(5)
    for data in (sc.d, sc.d_prime):
        loop = np.array([v.mechanism(data, rng) for _ in range(300)])
        fast = v.batch(data, 300, rng)
        assert fast.shape == (300,)
        if np.ptp(loop) == 0 and np.ptp(fast) == 0:
            assert loop[0] == fast[0]
        else:
            assert ks_2samp(loop, fast, method="asymp").pvalue > 1e-3, (name, broken)


def test_run_scenario_validates():
    with pytest.raises(ValueError, match="scenario must be one of"):
        run_scenario("magic", rng=0)
    with pytest.raises(ValueError, match="has no correct variant"):
        run_scenario("kanonymity", broken=False, rng=0)
    with pytest.raises(TypeError, match="broken must be True or False"):
        run_scenario("laplace_count", broken="yes", rng=0)


# ---------------------------------------------------------------------------------------------
# issue 15, item 4: the membership-inference bound has power


def test_membership_attack_bound_on_a_laplace_pair_with_epsilon_2():
    # scores of a pair that leaks exactly ε = 2 (Laplace, Δ = 1, b = 1/2); the former rule picked a
    # threshold where a pilot error rate was 0 and returned 0 here
    rng = np.random.default_rng(0)
    s_in = rng.laplace(0.0, 0.5, 2000)
    s_out = 1.0 + rng.laplace(0.0, 0.5, 2000)
    row = membership_attack(s_in, s_out, delta=1e-5)
    assert 1.0 < row["epsilon_lower_bound"] <= 2.0
    assert 0 <= row["fpr"] <= row["fpr_upper"] <= 1 and 0 <= row["fnr"] <= row["fnr_upper"] <= 1
    # the same number as the audit's, one implementation
    assert row["epsilon_lower_bound"] == audit_scores(s_in, s_out, delta=1e-5).epsilon_lower


# ---------------------------------------------------------------------------------------------
# issue 21 item 1: local-sensitivity mechanisms on their own pairs (D, D minus one user)


def _local_guarantee(name):
    from dpcore.bayesian.baselines import laplace_guarantee
    from dpcore.bayesian.end_to_end import end_to_end_guarantee
    from dpcore.bayesian.release import bayesian_guarantee

    return {
        "bayesian_local_page": bayesian_guarantee(epsilon=1, delta=1e-5, sensitivity_method="brute-force"),
        "end_to_end_local_page": end_to_end_guarantee(epsilon_train=2 / 3, epsilon_tune=1 / 3, delta=1e-5),
        "laplace_public_local": laplace_guarantee("Laplace + public", epsilon=1, W=50),
    }[name]


@pytest.mark.parametrize("name", dpcore.audit.scenarios.LOCAL_SENSITIVITY_SCENARIOS)
def test_local_sensitivity_mechanisms_break_the_epsilon_their_noise_was_set_from(name):
    """Each mechanism whose sensitivity is measured on the data, run honestly on D and on D minus one user (so it
    measures again on D'): the audit proves an ε above the one its noise was set from — the ε its old label
    promised "for this corpus' neighbours". Its label now promises no (ε, δ) at all."""
    sc = get_scenario(name)
    assert sc.correct is None and sc.broken.broken and sc.broken.label.startswith("not DP")
    d, d_prime = sc.datasets()
    assert d.shape[0] == d_prime.shape[0] + 1 and d.shape[1] == d_prime.shape[1]  # one user removed
    g = _local_guarantee(name)
    assert g.kind == dpcore.guarantees.LOCAL_SENSITIVITY and not g.is_dp and g.colour == "red"
    assert "no (ε, δ) holds, not even for this corpus's neighbours" in g.label
    assert "neighbours only" not in g.label + g.promise
    run = run_scenario(name, broken=True, rng=21)
    r = run.result
    assert r.epsilon_claimed == 1.0 and r.violates_claim and r.epsilon_lower > 2.5, (name, r.epsilon_lower)


def test_the_page_pair_is_the_real_chat_corpus_without_its_most_active_user():
    md, mdp, public, user = dpcore.audit.scenarios_bayesian.bayesian_page_pair()
    totals = np.asarray(md.sum(axis=1)).ravel()
    assert user == int(np.argmax(totals)) and md.shape[0] == 920
    keep = np.arange(md.shape[0]) != user
    assert (md[keep] != mdp).nnz == 0
    # the measured γ moves by far more than a sampling wobble when that user leaves (0.267 → 0.149)
    from dpcore.bayesian import bayesian_statistics

    g = [bayesian_statistics(m, public, C=1).sensitivity(1e-3) for m in (md, mdp)]
    assert g[1] < 0.7 * g[0]


# ---------------------------------------------------------------------------------------------
# issue 31 item 12: a reviewer audits at an ε of their choice


@pytest.mark.parametrize("name", [n for n in CORRECT if n not in ("bayesian_local_page", "end_to_end_local_page")])
def test_correct_mechanisms_pass_their_audit_at_a_chosen_epsilon(name):
    """Every correct mechanism run at ε = 2.5 claims 2.5, and its audited lower bound stays below it (the privacy
    claim at the chosen ε, measured); the scenario at its own ε is unchanged (built without ``epsilon``)."""
    r = run_scenario(name, broken=False, rng=11, epsilon=2.5).result
    assert r.epsilon_claimed == 2.5 and r.epsilon_lower <= 2.5 and not r.violates_claim
    assert get_scenario(name) is get_scenario(name, epsilon=None)


def test_broken_laplace_at_a_chosen_epsilon_is_caught_near_twice_it():
    """The broken Laplace variant halves the scale: at ε = 2 its true ε is 4, and the audit's bound lands between
    the claim and the truth; the correct one at ε = 2 is audited close to (and not above) 2."""
    broken = run_scenario("laplace_count", broken=True, trials=100_000, rng=0, epsilon=2.0).result
    assert broken.epsilon_claimed == 2.0 and 2.0 < broken.epsilon_lower < 4.0
    correct = run_scenario("laplace_count", trials=100_000, rng=0, epsilon=2.0).result
    assert 1.6 < correct.epsilon_lower <= 2.0
    assert "the true ε of this pair is 4" in get_scenario("laplace_count", epsilon=2.0).broken.explanation


def test_chosen_epsilon_is_validated_and_k_anonymity_claims_none():
    with pytest.raises(ValueError, match="epsilon must be > 0, got epsilon=0"):
        run_scenario("laplace_count", rng=0, epsilon=0)
    with pytest.raises(ValueError, match="epsilon must be None for scenario 'kanonymity', which claims no ε"):
        run_scenario("kanonymity", broken=True, rng=0, epsilon=1.0)
    from dpcore.specs import AuditSpec, Spec

    spec = AuditSpec(scenario="dpne_redraw", epsilon=2, trials=1_000)
    assert spec.epsilon == 2.0 and Spec.from_record(spec.record()) == spec
    old = {k: v for k, v in AuditSpec(trials=1_000).record().items() if k != "epsilon"}  # a record from before
    assert Spec.from_record(old).epsilon is None
