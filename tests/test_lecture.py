import numpy as np
import pytest

from dpcore.lab.lecture import (
    BANK_DEBTS,
    DEBT_CAP,
    bank_debt_neighbours,
    bank_debt_worst_case,
    empirical_selection_ratios,
)
from dpcore.mechanisms import laplace_scale


def test_neighbour_differences_are_each_persons_debt():
    rows = bank_debt_neighbours(BANK_DEBTS, epsilon=1.0, scale=DEBT_CAP)
    assert [r.difference for r in rows] == [2_800_798.00, 7_000.00, 1.56, 0.0]
    assert rows[0].total == pytest.approx(2_807_799.56)
    assert rows[1].neighbour_total == pytest.approx(2_800_799.56)  # D without Bob, as on the slide


@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_scale_from_largest_debt_breaks_worst_case_and_cap_fixes_it(eps):
    wrong = laplace_scale(epsilon=eps, sensitivity=max(BANK_DEBTS.values()))
    bad = bank_debt_worst_case(epsilon=eps, scale=wrong)
    assert bad.exceeds_epsilon
    assert bad.loss_bound == pytest.approx(eps * DEBT_CAP / 2_800_798.0)  # ≈ 3.57 ε
    right = laplace_scale(epsilon=eps, sensitivity=DEBT_CAP)
    good = bank_debt_worst_case(epsilon=eps, scale=right)
    assert not good.exceeds_epsilon and good.loss_bound == pytest.approx(eps)
    # with the wrong scale the actual data's neighbours still look fine: the danger is invisible in D
    assert not any(r.exceeds_epsilon for r in bank_debt_neighbours(BANK_DEBTS, epsilon=eps, scale=wrong))


def test_empirical_ratios():
    fa, fb, r = empirical_selection_ratios([0, 0, 1, 2], [0, 1, 1, 1], 4)
    np.testing.assert_allclose(fa, [0.5, 0.25, 0.25, 0])
    assert r[0] == pytest.approx(2.0) and np.isnan(r[2]) and np.isnan(r[3])
    with pytest.raises(ValueError, match="must not be empty"):
        empirical_selection_ratios([], [0], 2)


def test_negative_debt_rejected():
    with pytest.raises(ValueError, match="debt of A must be >= 0"):
        bank_debt_neighbours({"A": -1.0, "B": 2.0}, epsilon=1, scale=1)


def test_empirical_density_ratios_respect_min_count_and_bound():
    from dpcore import laplace_mechanism
    from dpcore.lab.lecture import empirical_density_ratios

    rng = np.random.default_rng(1)
    a = laplace_mechanism(np.full(200_000, 50.0), epsilon=1.0, sensitivity=1.0, rng=rng)
    b = laplace_mechanism(np.full(200_000, 51.0), epsilon=1.0, sensitivity=1.0, rng=rng)
    fa, fb, r = empirical_density_ratios(a, b, np.linspace(45, 56, 23), min_count=2000)
    ok = np.isfinite(r)
    assert ok.sum() >= 8
    # bins with ≥ 2000 draws: relative SE of each share ≤ 2.3%, of the ratio ≤ 3.3%; allow 12%
    assert np.max(np.maximum(r[ok], 1 / r[ok])) <= np.e * 1.12
    assert fa.sum() <= 1.0 and np.isnan(r[~ok]).all()
