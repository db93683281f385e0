import math

import numpy as np
import pytest
from scipy import integrate, stats

import dpcore
from dpcore import gaussian_delta, gaussian_sigma


def test_spec_check_values_analytic_and_classic():
    assert gaussian_sigma(epsilon=1, delta=1e-5, method="analytic") == pytest.approx(3.730632, rel=1e-5)
    assert gaussian_sigma(epsilon=4, delta=1e-7, method="analytic") == pytest.approx(1.297843, rel=1e-5)
    assert gaussian_sigma(epsilon=1, delta=1e-5, method="classic") == pytest.approx(4.844805, rel=1e-6)
    assert gaussian_sigma(epsilon=4, delta=1e-7, method="classic") == pytest.approx(1.429215, rel=1e-6)
    assert gaussian_sigma(epsilon=1, delta=1e-5) == gaussian_sigma(
        epsilon=1, delta=1e-5, method="analytic"
    )  # default "auto", ε ≥ 1
    assert gaussian_sigma(epsilon=0.5, delta=1e-5) == gaussian_sigma(
        epsilon=0.5, delta=1e-5, method="classic"
    )  # default "auto", ε < 1


def test_classic_formula_worked_example():
    # σ = Δ √(2 ln(1.25/δ)) / ε with Δ = 2, ε = 0.5, δ = 1e-6
    assert gaussian_sigma(epsilon=0.5, delta=1e-6, sensitivity=2.0) == pytest.approx(
        2.0 * math.sqrt(2 * math.log(1.25e6)) / 0.5
    )


@pytest.mark.parametrize("eps", [0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0])
@pytest.mark.parametrize("delta", [1e-10, 1e-7, 1e-5, 1e-3, 0.1])
def test_analytic_inverse_recovers_delta(eps, delta):
    sigma = gaussian_sigma(epsilon=eps, delta=delta, method="analytic")
    assert gaussian_delta(epsilon=eps, sigma=sigma) == pytest.approx(delta, rel=1e-6)
    # σ scales linearly with the sensitivity
    assert gaussian_sigma(epsilon=eps, delta=delta, sensitivity=3.0, method="analytic") == pytest.approx(
        3.0 * sigma, rel=1e-8
    )


@pytest.mark.parametrize("eps, sigma", [(0.5, 2.0), (1.0, 1.0), (3.0, 0.7), (0.1, 8.0)])
def test_delta_against_numerical_integration(eps, sigma):
    """Independent computation: δ(ε) = ∫ max(0, p(y) − e^ε q(y)) dy for N(0,σ²) vs N(1,σ²)."""
    p = stats.norm(0, sigma).pdf
    q = stats.norm(1, sigma).pdf
    val, _ = integrate.quad(
        lambda y: max(0.0, p(y) - math.exp(eps) * q(y)),
        -60 * sigma,
        60 * sigma,
        points=[0.5 - eps * sigma**2],
        limit=400,
    )
    assert gaussian_delta(epsilon=eps, sigma=sigma) == pytest.approx(val, rel=1e-6, abs=1e-14)


def test_analytic_never_larger_than_classic_where_classic_is_proven():
    for eps in [0.05, 0.2, 0.5, 0.9]:
        for delta in [1e-9, 1e-5, 1e-3]:
            assert gaussian_sigma(epsilon=eps, delta=delta, method="analytic") < gaussian_sigma(
                epsilon=eps, delta=delta, method="classic"
            )


def test_sigma_decreases_in_epsilon_and_delta():
    s = [gaussian_sigma(epsilon=e, delta=1e-5, method="analytic") for e in (0.1, 0.5, 1, 2, 5)]
    assert all(a > b for a, b in zip(s, s[1:]))
    s = [gaussian_sigma(epsilon=1, delta=d, method="analytic") for d in (1e-9, 1e-6, 1e-3)]
    assert all(a > b for a, b in zip(s, s[1:]))


def test_classic_proof_range_flag():
    assert dpcore.mechanisms.classic_calibration_proven(epsilon=0.5)
    assert not dpcore.mechanisms.classic_calibration_proven(epsilon=1.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(epsilon=0, delta=1e-5), "epsilon must be > 0, got epsilon=0"),
        (dict(epsilon=1, delta=1), "delta must be < 1, got delta=1"),
        (dict(epsilon=1, delta=0), "delta must be > 0, got delta=0"),
        (dict(epsilon=1, delta=1e-5, sensitivity=-2), "sensitivity must be > 0, got sensitivity=-2"),
        (
            dict(epsilon=1, delta=1e-5, method="tight"),
            "method must be one of 'auto', 'classic', 'analytic', got method='tight'",
        ),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        kw = dict(kwargs)
        gaussian_sigma(epsilon=kw.pop("epsilon"), delta=kw.pop("delta"), **kw)


def test_gaussian_noise_scale_statistically():
    rng = np.random.default_rng(7)
    sigma = gaussian_sigma(epsilon=1, delta=1e-5, method="analytic")
    x = dpcore.mechanisms.gaussian_noise(sigma=sigma, size=200_000, rng=rng)
    # sample sd of 200k normals has relative SE 1/sqrt(2n) = 0.16%; allow 5 SE = 0.8%
    assert np.std(x) == pytest.approx(sigma, rel=0.008)


def test_auto_calibration_switches_at_one_and_classic_true_delta():
    import dpcore

    assert dpcore.mechanisms.resolve_calibration("auto", epsilon=0.5) == "classic"
    assert dpcore.mechanisms.resolve_calibration("auto", epsilon=1.0) == "analytic"
    assert dpcore.gaussian_sigma(epsilon=0.5, delta=1e-5, method="auto") == dpcore.mechanisms.classic_gaussian_sigma(
        epsilon=0.5, delta=1e-5
    )
    assert dpcore.gaussian_sigma(epsilon=4, delta=1e-7, method="auto") == pytest.approx(1.297843, abs=1e-6)
    # the classic σ's true δ: below the stated δ inside the proof, 2.27 × it at ε = 10
    assert dpcore.mechanisms.classic_true_delta(epsilon=0.5, delta=1e-5) < 1e-5
    assert dpcore.mechanisms.classic_true_delta(epsilon=10, delta=1e-5) / 1e-5 == pytest.approx(2.2654, abs=1e-3)
    with pytest.raises(ValueError, match="calibration must be one of 'auto', 'classic', 'analytic'"):
        dpcore.mechanisms.resolve_calibration("exact", epsilon=1.0)


# ---------------------------------------------------------------------------------------------
# issue 30 item 9: one policy for the classic σ at ε ≥ 1, shared by gaussian_sigma and strict BayesianDP


def test_gaussian_sigma_default_keeps_its_promise_at_epsilon_10():
    # before: the classic σ 0.4845, whose exact δ is 2.27e-5 > 1e-5 asked for
    sigma = gaussian_sigma(epsilon=10, delta=1e-5)
    assert sigma == gaussian_sigma(epsilon=10, delta=1e-5, method="analytic")
    assert gaussian_delta(epsilon=10, sigma=sigma) == pytest.approx(1e-5, rel=1e-6)
    assert gaussian_delta(
        epsilon=10, sigma=dpcore.mechanisms.classic_gaussian_sigma(epsilon=10, delta=1e-5)
    ) == pytest.approx(2.2654e-5, rel=1e-3)


def test_classic_is_refused_exactly_where_its_exact_delta_exceeds_delta():
    msg = r"epsilon=10 .*exact δ is 2.27e-05, more than the delta=1e-05 asked for.*calibration='auto'"
    with pytest.raises(ValueError, match=msg):
        gaussian_sigma(epsilon=10, delta=1e-5, method="classic")
    for eps in (0.5, 0.99, 1.0, 2.0, 4.0, 8.0, 8.5, 10.0, 20.0):
        true = dpcore.mechanisms.classic_true_delta(epsilon=eps, delta=1e-5)
        if eps >= 1.0 and true > 1e-5:
            with pytest.raises(ValueError, match="the classic calibration is refused"):
                gaussian_sigma(epsilon=eps, delta=1e-5, method="classic")
        else:  # inside the proof, or outside it with an exact δ ≤ δ: allowed, and it keeps (ε, δ)
            sigma = gaussian_sigma(epsilon=eps, delta=1e-5, method="classic")
            assert sigma == dpcore.mechanisms.classic_gaussian_sigma(epsilon=eps, delta=1e-5)
            assert gaussian_delta(epsilon=eps, sigma=sigma) <= 1e-5
    # the formula without a promise stays available (to show it beside the analytic σ)
    assert dpcore.mechanisms.gaussian_noise_scale(epsilon=10, delta=1e-5, method="classic") == pytest.approx(
        0.4844805, rel=1e-6
    )


def test_gaussian_sigma_and_strict_bayesian_dp_refuse_the_same_cases():
    from dpcore.bayesian.release import bayesian_guarantee

    for eps in (0.5, 2.0, 8.0, 8.5, 10.0, 50.0):
        outcomes = []
        for call in (
            lambda: gaussian_sigma(epsilon=eps, delta=1e-5, method="classic"),
            lambda: bayesian_guarantee(
                epsilon=eps, delta=1e-5, sensitivity_method="strict", calibration="classic", max_items=5, max_users=10
            ),
        ):
            try:
                call()
                outcomes.append("ok")
            except ValueError as exc:
                outcomes.append(str(exc))
        assert outcomes[0] == outcomes[1], (eps, outcomes)
