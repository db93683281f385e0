import numpy as np
import pytest

from dpcore import laplace_mechanism
from dpcore.mechanisms import (
    laplace_pdf,
    laplace_privacy_loss,
    laplace_privacy_loss_bound,
    laplace_scale,
    laplace_variance,
)


def test_scale_is_sensitivity_over_epsilon():
    assert laplace_scale(epsilon=0.5, sensitivity=2.0) == 4.0
    assert laplace_variance(epsilon=0.5, sensitivity=2.0) == 32.0


def test_privacy_loss_worked_example_from_lecture():
    # lecture appendix: answers 50 and 51, b = 1/ε; the loss is (|y−51| − |y−50|)/b
    b = laplace_scale(epsilon=0.7, sensitivity=1)
    assert laplace_privacy_loss(100.0, true_answer=50, neighbour_answer=51, scale=b) == pytest.approx(-0.7)
    assert laplace_privacy_loss(0.0, true_answer=50, neighbour_answer=51, scale=b) == pytest.approx(0.7)
    assert laplace_privacy_loss(50.5, true_answer=50, neighbour_answer=51, scale=b) == pytest.approx(0.0)


def test_privacy_loss_equals_log_density_ratio_bruteforce():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, a2 = rng.normal(0, 5, 2)
        b = rng.uniform(0.2, 4)
        y = rng.normal(0, 10, 50)
        direct = np.log(laplace_pdf(y, loc=a, scale=b)) - np.log(laplace_pdf(y, loc=a2, scale=b))
        np.testing.assert_allclose(
            laplace_privacy_loss(y, true_answer=a, neighbour_answer=a2, scale=b), direct, atol=1e-9
        )
        assert np.max(np.abs(direct)) <= laplace_privacy_loss_bound(true_answer=a, neighbour_answer=a2, scale=b) + 1e-9


def test_noise_scale_statistically():
    rng = np.random.default_rng(11)
    b = laplace_scale(epsilon=0.25, sensitivity=1.0)
    x = laplace_mechanism(np.zeros(200_000), epsilon=0.25, sensitivity=1.0, rng=rng)
    # |Lap(0,b)| ~ Exp(b): mean b, sd b; SE of the mean = b/sqrt(n) = 0.22% b; tolerance 5 SE
    assert np.mean(np.abs(x)) == pytest.approx(b, rel=0.012)
    assert abs(np.mean(x)) < 5 * np.sqrt(2) * b / np.sqrt(x.size)


def _empirical_worst_ratio(scale, rng, n=400_000):
    a = laplace_mechanism(np.full(n, 50.0), epsilon=1.0, sensitivity=scale, rng=rng)
    b = laplace_mechanism(np.full(n, 51.0), epsilon=1.0, sensitivity=scale, rng=rng)
    edges = np.linspace(40, 61, 43)
    ha, _ = np.histogram(a, edges)
    hb, _ = np.histogram(b, edges)
    ok = (ha > 2000) & (hb > 2000)  # bins with enough mass for a stable ratio (rel. SE < 3%)
    return np.max(np.maximum(ha[ok] / hb[ok], hb[ok] / ha[ok]))


def test_empirical_ratio_stays_under_e_eps_and_a_wrong_scale_breaks_it():
    rng = np.random.default_rng(5)
    # correct: b = Δ/ε = 1 for neighbours 50/51 → ratio ≤ e; allow 10% for sampling noise (bins ≥ 2000 draws)
    assert _empirical_worst_ratio(1.0, rng) <= np.e * 1.10
    # wrong: b = 1/3 (sensitivity taken as 1/3 instead of 1) → true worst ratio e^3 ≈ 20
    assert _empirical_worst_ratio(1 / 3, rng) > np.e * 2


def test_bad_inputs():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        laplace_mechanism(1.0, epsilon=0, sensitivity=1, rng=rng)
    with pytest.raises(ValueError, match="finite"):
        laplace_mechanism([1.0, np.nan], epsilon=1, sensitivity=1, rng=rng)
    with pytest.raises(TypeError, match="rng"):
        laplace_mechanism(1.0, epsilon=1, sensitivity=1, rng=None)
    assert isinstance(laplace_mechanism(1.0, epsilon=1, sensitivity=1, rng=1), float)
