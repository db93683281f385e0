"""The session budget's maths (dpcore.lab.budget; issue 21 item 5): one entry per release, composed with
dp_accounting's PLD — checked against dp_accounting's own accountant, a closed form, and basic composition."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import brentq

import dpcore
from dpcore.lab.budget import BudgetEntry, budget_entry, compose_releases
from dpcore.guarantees import approximate_dp, local_sensitivity, pure_dp

dpa = pytest.importorskip("dp_accounting")


def gaussian_entry(epsilon, delta=1e-5, key=None):
    z = dpcore.gaussian_sigma(epsilon, delta, method="analytic")
    return BudgetEntry("G", "θ", approximate_dp(epsilon, delta), ("gaussian", z, delta), key or f"g{epsilon}{delta}")


def laplace_entry(epsilon):
    return BudgetEntry("L", "counts", pure_dp(epsilon), ("laplace", 1.0 / epsilon), f"l{epsilon}")


def generic_entry(epsilon, delta, count=1):
    return BudgetEntry(
        "D", "sets", approximate_dp(epsilon, delta), ("approximate", epsilon, delta, count), f"d{epsilon}{delta}{count}"
    )


@pytest.mark.parametrize("epsilons", [(1.0,), (1.0, 0.5), (0.3, 1.0, 2.0, 4.0)])
def test_gaussian_and_laplace_composition_equals_dp_accountings_own_accountant(epsilons):
    entries = [gaussian_entry(e) for e in epsilons] + [laplace_entry(0.7)]
    got = compose_releases(entries)
    acc = dpa.pld.PLDAccountant()
    for e in entries[:-1]:
        acc.compose(dpa.GaussianDpEvent(e.event[1]))
    acc.compose(dpa.LaplaceDpEvent(1 / 0.7))
    assert got.delta == 1e-5  # the largest Gaussian δ; Laplace adds none
    assert got.epsilon == pytest.approx(acc.get_epsilon(got.delta), rel=2e-3)
    assert got.epsilon <= got.basic_epsilon == pytest.approx(sum(epsilons) + 0.7)


@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_k_equal_gaussians_compose_to_one_gaussian_with_sigma_over_root_k(k):
    """Closed form: k Gaussian releases with noise multiplier z are one Gaussian with z/√k (Balle–Wang's δ(ε, σ),
    solved for ε independently of dp_accounting). The PLD is pessimistic: at most 1e-3·k above."""
    entries = [gaussian_entry(1.0, key=f"g{i}") for i in range(k)]
    z = entries[0].event[1] / math.sqrt(k)
    exact = brentq(lambda e: dpcore.gaussian_delta(e, z) - 1e-5, 1e-6, 100.0)
    got = compose_releases(entries).epsilon
    assert exact - 1e-6 <= got <= exact + 1e-3 * k
    if k == 1:
        assert got == pytest.approx(1.0, abs=1e-3)


def test_unequal_gaussians_compose_to_one_gaussian_exactly_and_beside_laplace_as_dp_accounting():
    """Gaussians of multipliers z_i are one Gaussian of (Σ z_i⁻²)^(-1/2): the budget composes them as that one
    (one PLD, no per-step discretization error), and beside a Laplace release it agrees with dp_accounting's
    chain of the separate events."""
    from dpcore.lab.budget import _gaussians_merged

    entries = [gaussian_entry(e, key=f"g{i}") for i, e in enumerate((0.3, 1.0, 2.0, 0.5, 4.0))]
    zs = [e.event[1] for e in entries]
    z = math.fsum(x**-2 for x in zs) ** -0.5
    assert _gaussians_merged(tuple(e.event for e in entries)) == (("gaussian", z, 1e-5),)
    exact = brentq(lambda e: dpcore.gaussian_delta(e, z) - 1e-5, 1e-6, 100.0)
    assert exact - 1e-6 <= compose_releases(entries).epsilon <= exact + 1e-3
    acc = dpa.pld.PLDAccountant()
    for x in zs:
        acc.compose(dpa.GaussianDpEvent(x))
    acc.compose(dpa.LaplaceDpEvent(1 / 0.7))
    with_laplace = compose_releases(entries + [laplace_entry(0.7)]).epsilon
    assert with_laplace == pytest.approx(acc.get_epsilon(1e-5), rel=2e-3)


def test_generic_pairs_compose_optimally():
    # pure ε pairs: exactly k·ε (nothing to trade at δ = 0)
    assert compose_releases([generic_entry(0.5, 0.0, 3)]).epsilon == pytest.approx(1.5, abs=1e-3)
    # (ε, δ) pairs at δ' = k·δ: the optimal composition, ≤ basic composition, as dp_accounting computes it
    entries = [generic_entry(1.0, 1e-5), generic_entry(1.0, 1e-5, 2)]
    got = compose_releases(entries)
    assert got.delta == pytest.approx(3e-5) and got.basic_epsilon == pytest.approx(3.0)
    p = dpa.pld.privacy_loss_distribution.from_privacy_parameters(dpa.pld.common.DifferentialPrivacyParameters(1, 1e-5))
    assert got.epsilon == pytest.approx(p.self_compose(3).get_epsilon_for_delta(3e-5), rel=1e-9)
    assert got.epsilon <= 3.0 + 1e-9


def test_a_release_without_guarantee_makes_the_total_none():
    local = BudgetEntry("BayesianDP local", "θ", local_sensitivity(1.0, 1e-5), None, "x")
    total = compose_releases([gaussian_entry(1.0), local])
    assert total.epsilon is None and total.delta is None and total.without_guarantee == 1
    assert "none" in total.text and "BayesianDP local" in total.text
    assert local.promise.startswith("no guarantee (local sensitivity (not DP); its noise was set from ε = 1")
    assert compose_releases([]).epsilon == 0.0


def test_one_more_release_never_lowers_the_reported_epsilon():
    entries, last = [], 0.0
    for e in (1.0, 2.0, 0.5, 0.5, 4.0):
        entries.append(gaussian_entry(e, key=f"g{len(entries)}"))
        now = compose_releases(entries).epsilon
        assert now >= last - 1e-9
        last = now


# ------------------------------------------------------------------------------ entries of real releases


@pytest.fixture(scope="module")
def counts():
    rng = np.random.default_rng(0)
    return sp.csr_matrix(rng.integers(0, 3, size=(200, 30))), np.arange(1, 31.0)


def test_entries_carry_each_mechanisms_own_event(counts):
    X, a = counts
    strict = dpcore.bayesian_dp(
        X,
        a,
        epsilon=1,
        delta=1e-5,
        S=1,
        C=1,
        rho=0.5,
        rng=0,
        sensitivity="strict",
        max_items=30,
        max_users=1000,
        calibration="analytic",
    )
    e = budget_entry(strict)
    # h = μ_ps + σ_ps·Z with Δ(μ_ps) = ρ·γ_strict: the noise multiplier is σ(ε, δ) at Δ = 1
    assert e.event[0] == "gaussian" and e.event[1] == pytest.approx(dpcore.gaussian_sigma(1, 1e-5, method="analytic"))
    assert e.epsilon == 1 and e.delta == 1e-5 and e.promise == "(ε = 1, δ = 1e-05)-DP"
    lap = budget_entry(dpcore.bayesian.laplace_counts_dp(X, epsilon=0.5, W=5, rng=0))
    assert lap.event == ("laplace", pytest.approx(2.0)) and lap.promise == "ε = 0.5-DP (pure)"
    for rel in (
        dpcore.bayesian_dp(X, a, epsilon=1, delta=1e-5, S=1, C=1, rho=0.5, rng=0),
        dpcore.bayesian.laplace_public_dp(X, a, epsilon=1, W=5, rng=0),
        dpcore.bayesian.k_anonymity_release(X, a, K=5),
        dpcore.end_to_end_dp(X, a, epsilon=1, delta=1e-5, C=1, rng=0),
    ):
        assert budget_entry(rel).event is None  # not DP: listed with "no guarantee"
    for rel in dpcore.topicdp.release_all(
        np.full((2, 3), 1 / 3), epsilon=1, delta=1e-5, sensitivity=0.1, rng=0, gamma=0.1
    ).values():
        assert budget_entry(rel).event is None  # random DP, or DP for the values only
    users = [[["a", "b", "c"]]] * 300
    d = budget_entry(
        dpcore.dpne_extract(users, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5, eta=0.1, rng=0)
    )
    assert d.event == ("approximate", 1.0, 1e-5, 1) and "sets only" in d.released
    single = budget_entry(dpcore.dpsu_single(users, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5, rng=0))
    assert single.event == ("approximate", 1.0, 1e-5, 3)  # one (ε, δ) release per length


def test_the_same_release_has_one_key_and_another_release_another(counts):
    X, a = counts
    kw = dict(S=1, C=1, rho=0.5, sensitivity="strict", max_items=30, max_users=1000)
    one = budget_entry(dpcore.bayesian_dp(X, a, epsilon=1, delta=1e-5, rng=3, **kw))
    again = budget_entry(dpcore.bayesian_dp(X, a, epsilon=1, delta=1e-5, rng=3, **kw))
    other = budget_entry(dpcore.bayesian_dp(X, a, epsilon=2, delta=1e-5, rng=3, **kw))
    assert one.key == again.key and one.key != other.key
