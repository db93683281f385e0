import numpy as np
import pytest

from dpcore import exponential_mechanism
from dpcore.lab.lecture import CANDIDATE_CITIES, city_example, city_utilities, utility_sensitivity
from dpcore.mechanisms import exponential_mechanism_probabilities


def test_probabilities_match_formula_bruteforce():
    rng = np.random.default_rng(2)
    for _ in range(30):
        u = rng.normal(0, 3, rng.integers(1, 12))
        eps, sens = rng.uniform(0.01, 10), rng.uniform(0.1, 5)
        w = np.exp(eps * u / (2 * sens))
        p = exponential_mechanism_probabilities(u, epsilon=eps, sensitivity=sens)
        np.testing.assert_allclose(p, w / w.sum(), rtol=1e-10)
        assert p.sum() == pytest.approx(1.0)


def test_probabilities_stable_for_huge_utilities():
    p = exponential_mechanism_probabilities([1e6, 0.0, -1e6], epsilon=10, sensitivity=1e-3)
    assert np.all(np.isfinite(p)) and p[0] == pytest.approx(1.0)


def test_city_example_utilities_from_lecture():
    # The members' mean is exactly (38.75, −87); the lecture's slide prints (36, −88), a slip that does not
    # change its conclusion (Memphis is closest). We compute the mean exactly; u(Memphis) by hand:
    members = np.array([(34, -118), (40, -74), (38, -77), (43, -79)], float)
    cities = np.array(list(CANDIDATE_CITIES.values()))
    u = city_utilities(members, cities)
    mean = members.mean(axis=0)  # (38.75, -87)
    assert mean.tolist() == [38.75, -87.0]
    assert u[list(CANDIDATE_CITIES).index("Memphis")] == pytest.approx(1 / np.hypot(38.75 - 35, -87 + 90))
    assert np.argmax(u) == list(CANDIDATE_CITIES).index("Memphis")  # the lecture's closest city


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
def test_worst_ratio_over_all_neighbours_within_e_eps(eps):
    ex = city_example(epsilon=eps)
    assert ex.worst_ratio <= np.exp(eps) * (1 + 1e-12)
    assert not ex.violates
    # brute force over neighbours and cities, both directions
    ratios = ex.probabilities[1:] / ex.probabilities[0]
    assert np.max(np.maximum(ratios, 1 / ratios)) == pytest.approx(ex.worst_ratio)


def test_sensitivity_is_computed_by_bruteforce():
    members = np.array([(34, -118), (40, -74), (38, -77), (43, -79)], float)
    cities = np.array(list(CANDIDATE_CITIES.values()))
    sens, u = utility_sensitivity(members, cities)
    brute = max(
        np.max(np.abs(city_utilities(np.delete(members, j, 0), cities) - city_utilities(members, cities)))
        for j in range(4)
    )
    assert sens == pytest.approx(brute)
    assert u.shape == (5, 7)


@pytest.mark.parametrize("eps", [1.0, 3.0])
def test_wrong_sensitivity_violates_the_guarantee(eps):
    """Deliberately wrong Δu (5× too small) must make the worst ratio exceed e^ε."""
    true = city_example(epsilon=eps).sensitivity_true
    ex = city_example(epsilon=eps, sensitivity=true / 5)
    assert ex.violates
    assert ex.worst_ratio > np.exp(eps)


def test_sampler_frequencies_match_probabilities():
    u = np.array([1.0, 2.0, 0.5, 3.0])
    p = exponential_mechanism_probabilities(u, epsilon=1.0, sensitivity=1.0)
    draws = exponential_mechanism(u, epsilon=1.0, sensitivity=1.0, rng=np.random.default_rng(9), size=100_000)
    freq = np.bincount(draws, minlength=4) / draws.size
    # binomial SE ≤ sqrt(.25/1e5) = 0.0016; tolerance 5 SE
    np.testing.assert_allclose(freq, p, atol=0.008)
    assert isinstance(exponential_mechanism(u, epsilon=1.0, sensitivity=1.0, rng=1), int)


def test_bad_inputs():
    with pytest.raises(ValueError, match="utilities must be a non-empty 1-D array"):
        exponential_mechanism_probabilities([], epsilon=1, sensitivity=1)
    with pytest.raises(ValueError, match="finite"):
        exponential_mechanism_probabilities([1, np.inf], epsilon=1, sensitivity=1)
    with pytest.raises(ValueError, match="sensitivity must be > 0, got sensitivity=0"):
        exponential_mechanism_probabilities([1, 2], epsilon=1, sensitivity=0)
    with pytest.raises(ValueError, match="epsilon must be > 0"):
        city_example(epsilon=0)


def test_city_example_reports_the_members_mean():
    assert city_example(epsilon=1).centre == (38.75, -87.0)


def test_city_example_with_a_public_bound_is_the_clipped_formula():
    """Issue 31 item 6, worked example: with a public bound B the city example's probabilities are
    exp(ε·min(u, B)/(2B)) normalised (the lecture's formula with Δu = B on the clipped utilities), Δu used is B
    whatever the data, and the guarantee is ε-DP (green), not the local sensitivity of the measured Δu."""
    import numpy as np

    from dpcore.guarantees import PURE_DP
    from dpcore.lab.lecture import city_example
    from dpcore.specs import M101CitiesSpec

    eps, B = 1.5, 0.2
    ex = city_example(epsilon=eps, utility_bound=B)
    plain = city_example(epsilon=eps)
    clipped = np.minimum(plain.utilities, B)
    by_hand = np.exp(eps * clipped / (2 * B))
    assert np.allclose(ex.probabilities, by_hand / by_hand.sum(axis=1, keepdims=True), rtol=1e-12, atol=0)
    assert ex.sensitivity_used == B and ex.sensitivity_true <= B and ex.worst_ratio <= np.exp(eps)
    assert ex.guarantee.kind == PURE_DP and ex.guarantee.colour == "green"
    assert plain.guarantee.colour == "red"  # the measured Δu stays not DP (not DP is red)
    assert M101CitiesSpec(epsilon=eps, utility_bound=B).run().probabilities.tolist() == ex.probabilities.tolist()
    with pytest.raises(ValueError, match="sensitivity_factor must be 1 when utility_bound is given"):
        M101CitiesSpec(epsilon=eps, utility_bound=B, sensitivity_factor=0.5)
    with pytest.raises(ValueError, match="utility_bound must be > 0, got utility_bound=0"):
        M101CitiesSpec(utility_bound=0)
    with pytest.raises(ValueError, match="sensitivity must be None when utility_bound is given"):
        city_example(epsilon=eps, utility_bound=B, sensitivity=0.3)
