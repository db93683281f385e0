import math

import numpy as np
import pytest
from scipy import stats

from dpcore.metrics import KL_SMOOTHING, kendall_tau_distance, kl_divergence, l1_distance, rmse


def test_kl_worked_example_with_lambda_rule():
    p = np.array([0.5, 0.5, 0.0])
    q = np.array([0.25, 0.25, 0.5])
    lam = KL_SMOOTHING
    qs = (1 - lam) * q + lam / 3
    expected = 0.5 * math.log(0.5 / qs[0]) + 0.5 * math.log(0.5 / qs[1])
    assert kl_divergence(p, q) == pytest.approx(expected, rel=1e-12)
    assert kl_divergence(p, q) == pytest.approx(math.log(2), rel=1e-7)


def test_kl_zero_mass_on_used_item_is_large_but_finite():
    v = kl_divergence([1.0, 0.0], [0.0, 1.0])
    assert np.isfinite(v) and v == pytest.approx(-math.log(KL_SMOOTHING / 2), rel=1e-9)


def test_kl_bruteforce_and_stacked_rows():
    rng = np.random.default_rng(0)
    for _ in range(20):
        n = rng.integers(2, 30)
        p = rng.dirichlet(np.ones(n)) * (rng.random(n) > 0.3)
        if p.sum() == 0:
            p[0] = 1
        q = rng.dirichlet(np.ones(n), size=4)
        pn = p / p.sum()
        brute = [
            sum(pi * math.log(pi / ((1 - 1e-9) * qi + 1e-9 / n)) for pi, qi in zip(pn, row) if pi > 0) for row in q
        ]
        np.testing.assert_allclose(kl_divergence(p, q), brute, rtol=1e-10)
        assert kl_divergence(p, q[0]) == pytest.approx(brute[0], rel=1e-10)
    assert kl_divergence([0.2, 0.8], [0.2, 0.8]) == pytest.approx(0.0, abs=1e-8)


def test_kl_rejects_bad_input():
    with pytest.raises(ValueError, match="non-negative"):
        kl_divergence([0.5, 0.5], [1.5, -0.5])
    with pytest.raises(ValueError, match="same length"):
        kl_divergence([0.5, 0.5], [1.0, 0, 0])
    with pytest.raises(ValueError, match="positive total mass"):
        kl_divergence([0.0, 0.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="finite"):
        kl_divergence([np.nan, 1], [0.5, 0.5])


def test_l1_and_rmse():
    a = np.array([[0.2, 0.8], [0.5, 0.5]])
    b = np.array([[0.0, 1.0], [0.5, 0.5]])
    assert l1_distance(a, b) == pytest.approx(0.4)
    assert rmse(a, b) == pytest.approx(math.sqrt((0.04 + 0.04) / 4))
    with pytest.raises(ValueError, match="same shape"):
        l1_distance(a, b[0])


def test_kendall_tau_distance_matches_scipy_without_ties():
    rng = np.random.default_rng(4)
    for _ in range(30):
        n = rng.integers(2, 15)
        a, b = rng.random(n), rng.random(n)
        tau = stats.kendalltau(a, b).statistic
        assert kendall_tau_distance(a, b) == pytest.approx((1 - tau) / 2, abs=1e-12)


def test_kendall_tau_distance_edges_ties_and_rows():
    assert kendall_tau_distance([1, 2, 3], [1, 2, 3]) == 0.0
    assert kendall_tau_distance([1, 2, 3], [3, 2, 1]) == 1.0
    # one pair tied in b only → counts ½ of 3 pairs
    assert kendall_tau_distance([1, 2, 3], [1, 1, 3]) == pytest.approx(0.5 / 3)
    # rows averaged
    assert kendall_tau_distance([[1, 2], [1, 2]], [[1, 2], [2, 1]]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="at least 2 items"):
        kendall_tau_distance([1.0], [2.0])
