"""dpcore.lab.risk: the attacker's limits (issue 32) — closed forms, brute-force Neyman–Pearson, the curve's
properties, the PLD cross-check with dp_accounting, and measured attacks against the bound."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from dpcore.audit import run_scenario
from dpcore.lab import risk as R
from dpcore.mechanisms import gaussian_delta

GRID = np.linspace(0.0, 1.0, 1001)
SETTINGS = [(0.0, 0.0), (0.1, 0.0), (1.0, 0.0), (1.0, 1e-5), (4.0, 1e-6), (2.0, 0.05), (10.0, 0.2)]


def neyman_pearson_curve(p, q, alphas):
    """The exact trade-off curve of two discrete distributions p (in) and q (out): the most powerful randomised
    test at each FPR α flags outcomes in decreasing order of p/q (Neyman–Pearson), brute force over the outcomes."""
    p, q = np.asarray(p, float), np.asarray(q, float)
    ratio = np.where(q > 0, p / np.where(q > 0, q, 1), np.inf)
    order = np.argsort(-ratio, kind="stable")
    fpr = np.concatenate([[0.0], np.cumsum(q[order])])
    tpr = np.concatenate([[0.0], np.cumsum(p[order])])
    # outcomes with q = 0 come first: their p is caught at FPR 0
    out = []
    for a in alphas:
        j = np.searchsorted(fpr, a, side="right") - 1
        j = min(j, len(q) - 1)
        while j + 1 < len(fpr) and fpr[j + 1] <= a:
            j += 1
        if j + 1 < len(fpr):
            step = q[order][j]
            frac = 0.0 if step == 0 else (a - fpr[j]) / step
            out.append(tpr[j] + frac * p[order][j])
        else:
            out.append(tpr[j])
    return np.minimum(np.array(out), 1.0)


def canonical_pair(eps, delta):
    """Kairouz, Oh & Viswanath (2015, Thm 2.1)'s worst (ε, δ)-DP pair, on four outcomes."""
    e = math.exp(eps)
    in_ = [delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0.0]
    out = [0.0, (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta]
    return in_, out


# ------------------------------------------------------------------------------------------------ closed forms


def test_tradeoff_worked_examples():
    # ε = 1, δ = 0, FPR = 10 %: TPR ≤ e·0.1 = 0.2718 (the first segment)
    assert R.tradeoff(0.1, epsilon=1.0) == pytest.approx(math.e * 0.1, rel=1e-12)
    # ε = 4, δ = 1e-6, FPR = 10 %: the second segment, 1 − e^(−4)·(0.9 − 1e-6) = 0.983516…
    assert R.tradeoff(0.1, epsilon=4.0, delta=1e-6) == pytest.approx(1 - math.exp(-4) * (0.9 - 1e-6), rel=1e-12)
    assert R.tradeoff(0.1, epsilon=4.0, delta=1e-6) == pytest.approx(0.98351594, abs=1e-8)
    # ε = 1, δ = 0.05, FPR = 0.2: min(0.05 + 0.5437, 1 − 0.3679·0.75) = 0.5937
    assert R.tradeoff(0.2, epsilon=1.0, delta=0.05) == pytest.approx(0.05 + math.e * 0.2, rel=1e-12)


def test_gaussian_worked_examples():
    # z = 1 (μ = 1), FPR = 5 %: Φ(−1.6449 + 1) = Φ(−0.6449) = 0.2595
    assert R.gaussian_tradeoff(0.05, noise_multiplier=1.0) == pytest.approx(0.25951, abs=1e-5)
    # z = 0.5 (μ = 2), FPR = 10 %: Φ(−1.2816 + 2) = Φ(0.7184) = 0.7637
    assert R.gaussian_tradeoff(0.1, noise_multiplier=0.5) == pytest.approx(0.76375, abs=1e-5)


def test_posterior_worked_examples():
    # a coin flip, ε = ln 3: posterior odds 3 → 75 %
    assert R.posterior_bound(0.5, epsilon=math.log(3)) == pytest.approx(0.75, rel=1e-12)
    # prior 10 %, ε = 1: 0.1e / (0.1e + 0.9) = 0.23196
    assert R.posterior_bound(0.1, epsilon=1.0) == pytest.approx(0.1 * math.e / (0.1 * math.e + 0.9), rel=1e-12)
    assert R.posterior_bound(0.5, epsilon=4.0, delta=1e-6) == pytest.approx(0.98201379, abs=1e-8)
    assert R.posterior_bound(np.array([0.0, 1.0]), epsilon=3.0).tolist() == [0.0, 1.0]
    assert R.epsilon_for_posterior(0.5, 0.75) == pytest.approx(math.log(3), rel=1e-12)
    for p in (0.01, 0.3, 0.5, 0.9):
        for eps in (0.0, 0.5, 2.0, 7.0):
            assert R.epsilon_for_posterior(p, R.posterior_bound(p, epsilon=eps)) == pytest.approx(eps, abs=1e-9)


def test_sentence_on_the_issue_example():
    lim = R.attacker_limits(epsilon=4, delta=1e-6)
    # with δ the posterior is stated at ε + ln 2 (never at ε "except with probability δ", which is false)
    assert lim.stated_epsilon == pytest.approx(4 + math.log(2))
    assert lim.posterior == pytest.approx(2 * math.exp(4) / (2 * math.exp(4) + 1))
    assert lim.tail == pytest.approx(2e-6)
    assert lim.tpr == pytest.approx(R.tradeoff(0.1, epsilon=4, delta=1e-6))
    assert lim.sentence.startswith("At ε = 4, δ = 1e-06: someone who thought it a coin flip")
    assert "at most 99.10 % sure (except with probability at most 2e-06, the (ε, δ) bound at ε + ln 2)" in (
        lim.sentence
    )
    assert "for 10 % of outsiders catches at most 98.4 % of insiders" in lim.sentence
    pure = R.attacker_limits(epsilon=1)
    assert "except with probability" not in pure.sentence and "at most 73.2 % sure" in pure.sentence


def _gaussian_worst_tail(mu: float, eps: float) -> float:
    """Pr_D[the posterior exceeds the bound at eps] for the worst thing computed from a Gaussian release with
    Δ/σ = mu: the threshold test "in" whose TPR/FPR = e^eps (the largest TPR with a likelihood ratio ≥ e^eps)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    t = brentq(lambda t: norm.logcdf(t + mu) - eps - norm.logcdf(t), -60.0, 60.0)
    return float(norm.cdf(t + mu))


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-5), (4.0, 1e-6), (0.5, 1e-5), (2.0, 1e-7)])
def test_the_stated_tail_holds_for_the_gaussian_and_delta_alone_would_not(eps, delta):
    """Issue 42 item 1, at the pages' opening settings (ε = 1, δ = 1e-5 on most; ε = 4, δ = 1e-6 on DP n-gram
    extraction): the probability that the posterior exceeds the printed bound is at most the printed tail — for the
    raw Gaussian output and for the worst test computed from it — while at ε itself it is well above δ."""
    from scipy.stats import norm

    from dpcore.mechanisms.gaussian import gaussian_sigma

    mu = 1.0 / gaussian_sigma(epsilon=eps, delta=delta)
    lim = R.attacker_limits(epsilon=eps, delta=delta)
    raw_tail = float(norm.cdf(mu / 2 - lim.stated_epsilon / mu))  # L ~ N(μ²/2, μ²) under D
    assert raw_tail <= lim.tail
    assert _gaussian_worst_tail(mu, lim.stated_epsilon) <= lim.tail * (1 + 1e-9)
    # "except with probability δ" at ε would be false: the tight (analytic) Gaussian exceeds ε's bound far more often
    tight = 1.0 / gaussian_sigma(epsilon=eps, delta=delta, method="analytic")
    assert _gaussian_worst_tail(tight, eps) > 5 * delta
    assert _gaussian_worst_tail(tight, lim.stated_epsilon) <= lim.tail * (1 + 1e-9)


def test_the_gaussian_loss_tail_by_monte_carlo():
    """2·10⁶ draws of the Gaussian release at ε = 1, δ = 1e-5: the privacy loss exceeds ε far more often than δ
    (the misconception the sentence no longer states), and agrees with the closed form used above."""
    from scipy.stats import norm

    from dpcore.mechanisms.gaussian import gaussian_sigma

    mu = 1.0 / gaussian_sigma(epsilon=1.0, delta=1e-5)
    y = np.random.default_rng(42).standard_normal(2_000_000) + mu  # output / σ under D; D′ is N(0, 1)
    loss = mu * y - mu * mu / 2
    freq = float(np.mean(loss > 1.0))
    closed = float(norm.cdf(mu / 2 - 1.0 / mu))
    assert freq == pytest.approx(closed, rel=0.25)  # ~320 exceedances: a 25 % band is > 4 standard errors
    assert freq > 5e-5  # > 5 δ
    assert float(np.mean(loss > 1.0 + R.TAIL_STEP)) <= 2e-5 + 4 * math.sqrt(2e-5 / 2e6)


def test_loss_tail_bound_is_the_theorem_and_validates():
    eps2, t = R.loss_tail_bound(epsilon=1.0, delta=1e-5, step=1.0)
    assert eps2 == 2.0 and t == pytest.approx(1e-5 / (1 - math.exp(-1.0)))
    with pytest.raises(ValueError, match="step"):
        R.loss_tail_bound(epsilon=1.0, delta=1e-5, step=0.0)


@pytest.mark.parametrize(
    "x, shown", [(0.7310, "73.1 %"), (0.73106, "73.2 %"), (0.98168, "98.2 %"), (0.99982, "99.982 %"), (1.0, "100 %")]
)
def test_percent_is_rounded_up_never_down(x, shown):
    assert R.percent_at_most(x) == shown
    assert float(shown.split()[0]) >= 100 * x - 1e-9


# ------------------------------------------------------------------------------------ brute force against formulas


@pytest.mark.parametrize("eps, delta", SETTINGS)
def test_tradeoff_is_the_neyman_pearson_curve_of_the_canonical_pair(eps, delta):
    """Brute force: the most powerful tests between the worst (ε, δ)-DP pair trace exactly the closed form."""
    p, q = canonical_pair(eps, delta)
    alphas = np.linspace(0, 1, 101)
    assert np.allclose(R.tradeoff(alphas, epsilon=eps, delta=delta), neyman_pearson_curve(p, q, alphas), atol=1e-12)


def test_gaussian_is_the_neyman_pearson_curve_of_two_normals():
    """Brute force: N(1/z, 1) against N(0, 1), discretised finely; the likelihood-ratio test of each FPR."""
    z = 0.8
    x = np.linspace(-12, 14, 200_001)
    p, q = norm.pdf(x, loc=1 / z), norm.pdf(x)
    p, q = p / p.sum(), q / q.sum()
    alphas = np.linspace(0.001, 0.999, 41)
    assert np.allclose(R.gaussian_tradeoff(alphas, noise_multiplier=z), neyman_pearson_curve(p, q, alphas), atol=2e-4)


def test_posterior_by_bayes_rule_on_the_canonical_pair():
    """Brute force: in the 1 − δ branch of the canonical pair (outcomes 1, 2) the posterior never exceeds the
    bound and reaches it; the δ branch (outcomes 0, 3) says in/out outright."""
    for eps, delta in ((1.0, 1e-5), (4.0, 1e-6), (0.3, 0.1)):
        p_in, p_out = canonical_pair(eps, delta)
        for prior in (0.05, 0.5, 0.8):
            post = [prior * a / (prior * a + (1 - prior) * b) for a, b in zip(p_in[1:3], p_out[1:3])]
            assert max(post) == pytest.approx(R.posterior_bound(prior, epsilon=eps, delta=delta), rel=1e-12)
            # the branch has the same probability whether or not the person is in: it tells nothing by itself
            assert sum(p_in[1:3]) == pytest.approx(1 - delta) and sum(p_out[1:3]) == pytest.approx(1 - delta)


# --------------------------------------------------------------------------------------------- the curve's shape


@pytest.mark.parametrize("eps, delta", SETTINGS)
def test_curve_properties(eps, delta):
    tpr = R.tradeoff(GRID, epsilon=eps, delta=delta)
    assert tpr[0] == pytest.approx(delta) and tpr[-1] == 1.0  # the trivial points
    assert (tpr <= 1.0).all() and (tpr >= GRID - 1e-15).all()  # a probability, never below the diagonal
    assert (np.diff(tpr) >= -1e-15).all()  # the type II error 1 − TPR is non-increasing
    assert (np.diff(tpr, 2) <= 1e-12).all()  # concave TPR = convex trade-off function
    # symmetric: f(f(α)) = α for the type II error f = 1 − TPR, wherever f(α) > 0
    f = 1.0 - tpr
    ff = 1.0 - R.tradeoff(f, epsilon=eps, delta=delta)
    inside = f > 0
    assert np.allclose(ff[inside], GRID[inside], atol=1e-12)
    if eps == 0 and delta == 0:
        assert np.allclose(tpr, GRID)  # ε = 0: no test beats a coin


@pytest.mark.parametrize("z", [0.3, 1.0, 3.0])
def test_gaussian_curve_properties(z):
    tpr = R.gaussian_tradeoff(GRID, noise_multiplier=z)
    assert tpr[0] == 0.0 and tpr[-1] == 1.0
    assert (tpr <= 1).all() and (tpr >= GRID).all() and (np.diff(tpr) >= 0).all()
    f = 1.0 - tpr
    assert np.allclose(1.0 - R.gaussian_tradeoff(f, noise_multiplier=z), GRID, atol=1e-9)  # symmetric


@pytest.mark.parametrize("z", [0.5, 1.0, 2.5])
def test_gaussian_at_least_as_tight_as_every_eps_delta_curve_it_implies(z):
    """Balle & Wang's exact δ(ε) (dpcore.gaussian_delta): the Gaussian is (ε, δ(ε))-DP at every ε, its own curve
    lies under each of those curves, and their envelope gives it back (Dong, Roth & Su, Prop. 2.12)."""
    gauss = R.gaussian_tradeoff(GRID, noise_multiplier=z)
    epsilons = np.concatenate([np.linspace(0.01, 3, 150), np.linspace(3.05, 30, 200)])
    deltas = np.array([gaussian_delta(epsilon=e, sigma=z) for e in epsilons])
    for e, d in zip(epsilons, deltas):
        assert (gauss <= R.tradeoff(GRID, epsilon=e, delta=d) + 1e-12).all(), e
    envelope = R.profile_tradeoff(GRID, epsilons=np.append(epsilons, 0.0), deltas=np.append(deltas, 1.0))
    assert (envelope >= gauss - 1e-12).all()
    assert np.max(envelope - gauss) < 5e-3


# ------------------------------------------------------------------------------------ composed: against the PLD


def test_composed_curve_against_dp_accounting_pld():
    """Four Gaussians of multiplier z compose to one of z/2 exactly (μ-GDP composes as √k·μ, Dong, Roth & Su
    Cor. 3.3); the curve read off dp_accounting's composed PLD lies on it, from above (the PLD is pessimistic)."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    z = 2.0
    composed = pld.from_gaussian_mechanism(z, value_discretization_interval=1e-4).self_compose(4)
    curve = R.pld_tradeoff(R.FPR_GRID, composed)
    exact = R.gaussian_tradeoff(R.FPR_GRID, noise_multiplier=z / 2)
    assert (curve >= exact - 1e-9).all()
    assert np.max(curve - exact) < 2e-3


def test_pld_of_one_eps_delta_pair_gives_its_curve():
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as pld

    one = pld.from_privacy_parameters(common.DifferentialPrivacyParameters(1.0, 1e-3))
    curve = R.pld_tradeoff(R.FPR_GRID, one, epsilons=np.linspace(0, 3, 301))
    assert np.allclose(curve, R.tradeoff(R.FPR_GRID, epsilon=1.0, delta=1e-3), atol=2e-3)
    # composed twice: never below the exact pair's curve at (2ε, 2δ)'s envelope partner, never above basic composition
    two = one.self_compose(2)
    curve2 = R.pld_tradeoff(R.FPR_GRID, two, epsilons=np.linspace(0, 4, 401))
    assert (curve2 <= R.tradeoff(R.FPR_GRID, epsilon=2.0, delta=2e-3) + 2e-3).all()
    assert (curve2 >= curve - 1e-9).all()  # two releases never allow less than one


# ------------------------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: R.tradeoff(1.5, epsilon=1), r"fpr must be in \[0, 1\], got fpr=1.5"),
        (lambda: R.tradeoff([0.1, float("nan")], epsilon=1), "fpr must not be NaN"),
        (lambda: R.tradeoff(0.1, epsilon=-1), "epsilon must be >= 0, got epsilon=-1"),
        (lambda: R.tradeoff(0.1, epsilon=1, delta=1.0), r"delta must be < 1"),
        (lambda: R.gaussian_tradeoff(0.1, noise_multiplier=0), "noise_multiplier must be > 0"),
        (lambda: R.posterior_bound(-0.1, epsilon=1), r"prior must be in \[0, 1\], got prior=-0.1"),
        (lambda: R.posterior_bound(0.5, epsilon=float("inf")), "epsilon must be finite"),
        (lambda: R.profile_tradeoff(0.1, epsilons=[1, 2], deltas=[0.1]), "equal length"),
        (lambda: R.epsilon_for_posterior(0.5, 0.4), "posterior must be >= prior"),
        (lambda: R.empirical_roc([], [1.0]), "must be non-empty"),
    ],
)
def test_bad_input_is_refused_with_a_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_wrong_kinds_are_type_errors():
    with pytest.raises(TypeError):
        R.tradeoff("often", epsilon=1)
    with pytest.raises(TypeError):
        R.pld_tradeoff(0.1, object())


# ------------------------------------------------------------------------------------------- measured attacks


def test_empirical_roc_by_hand():
    fpr, tpr = R.empirical_roc([3, 2, 2], [1, 2])
    # thresholds 3, 2, 1: (0, 1/3), (1/2, 1), (1, 1)
    assert fpr.tolist() == [0.0, 0.0, 0.5, 1.0, 1.0]
    assert np.allclose(tpr, [0.0, 1 / 3, 1.0, 1.0, 1.0])


def test_broken_variant_lies_above_the_bound_and_the_correct_one_below():
    """The audit lab's Laplace pair at its claimed ε = 1: the half-scale variant (true ε = 2) is caught — its
    proven corner (FPR⁺, TPR⁻) lies above the curve; the correct variant's does not."""
    broken = run_scenario("laplace_count", broken=True, trials=20_000, rng=7).result
    point = R.audit_attack(broken)
    assert broken.epsilon_claimed == 1.0
    assert R.above_bound(point.fpr_upper, point.tpr_lower, epsilon=1.0, delta=broken.delta)
    assert point.tpr_lower <= point.tpr and point.fpr_upper >= point.fpr
    # the ROC of the same score crosses the bound too, and is a proper ROC
    over = point.roc_tpr - R.tradeoff(point.roc_fpr, epsilon=1.0)
    assert over.max() > 0.01 and (np.diff(point.roc_fpr) >= 0).all() and (np.diff(point.roc_tpr) >= 0).all()

    correct = run_scenario("laplace_count", broken=False, trials=20_000, rng=7).result
    ok = R.audit_attack(correct)
    assert not R.above_bound(ok.fpr_upper, ok.tpr_lower, epsilon=1.0, delta=correct.delta)
    assert not correct.violates_claim


def test_audit_point_is_the_audits_own_event():
    r = run_scenario("laplace_count", broken=True, trials=2_000, rng=3).result
    m = R.audit_attack(r)
    num, den = (r.p_hat_d, r.p_hat_d_prime) if r.event.numerator == "D" else (r.p_hat_d_prime, r.p_hat_d)
    assert (m.tpr, m.fpr) == (num, den)
    assert (m.tpr_lower, m.fpr_upper) == (r.numerator_lower, r.denominator_upper)
    # the audit's ε_lower > ε claimed exactly when the corner is above the first segment of the curve
    assert (r.epsilon_lower > 1.0) == (m.tpr_lower > r.delta + math.exp(1.0) * m.fpr_upper)


def _on_roc(fpr, tpr, roc_fpr, roc_tpr) -> bool:
    return bool(np.any(np.isclose(roc_fpr, fpr, atol=1e-12) & np.isclose(roc_tpr, tpr, atol=1e-12)))


@pytest.mark.parametrize("broken", [False, True])
def test_the_audits_chosen_test_is_a_point_of_its_roc(broken):
    r = run_scenario("exponential_city", broken=broken, trials=4_000, rng=5).result
    m = R.audit_attack(r)
    assert _on_roc(m.fpr, m.tpr, m.roc_fpr, m.roc_tpr)
    fpr_d, tpr_d = r.roc(positive="D")  # read the other way round: the same tests, as a test of D
    assert fpr_d[0] == 0 and tpr_d[-1] == 1 and len(fpr_d) == len(m.roc_fpr)


def test_membership_points_read_the_attack_table():
    """The Bayesian page's attack (000 §5) on a blatant leak: its points, proven corners and ROC on the bound's
    axes; at ε = 1e4 the BayesianDP attack is far above the ε = 1 curve (and allowed by its own ε)."""
    import scipy.sparse as sp

    from dpcore.bayesian import BAYESIAN
    from dpcore.bayesian.evaluation import membership_inference
    from dpcore.text.counts import NgramCounts

    rng = np.random.default_rng(0)
    m = np.zeros((30, 12), dtype=int)
    m[:, 0] = rng.integers(1, 3, 30)
    m[:, 5:] = rng.integers(0, 2, (30, 7))
    m[0, 1:5] = 1
    counts = NgramCounts(n=1, vocabulary=(), user_counts=sp.csr_matrix(m * 5 + (m > 0)), public_counts=np.ones(12))
    table = membership_inference(
        counts, epsilons=[1e4], trials=100, rng=1, S=1.0, C=5, rho=1.0, W=5, mechanisms=(BAYESIAN,)
    )
    (point,) = R.membership_points(table, epsilon=1e4)
    row = table.rows()[0]
    assert point.name == BAYESIAN and point.tpr == 1 - row["fnr"] and point.fpr_upper == row["fpr_upper"]
    assert _on_roc(point.fpr, point.tpr, point.roc_fpr, point.roc_tpr)
    assert R.above_bound(point.fpr_upper, point.tpr_lower, epsilon=1.0)
    assert not R.above_bound(point.fpr_upper, point.tpr_lower, epsilon=1e4)
    with pytest.raises(ValueError, match="epsilon must be one of the attack's ε"):
        R.membership_points(table, epsilon=2.0)


def test_a_thinned_roc_is_made_of_the_exact_rocs_points():
    r = run_scenario("laplace_count", broken=True, trials=20_000, rng=11).result
    exact = r.roc()
    thin = r.roc(points=300)
    assert 300 <= thin[0].size <= 400 < exact[0].size
    for f, t in zip(*thin):
        assert _on_roc(f, t, *exact)
    m = R.audit_attack(r, points=300)
    assert _on_roc(m.fpr, m.tpr, m.roc_fpr, m.roc_tpr)  # the chosen test is kept
    fpr, tpr = R.empirical_roc([3, 2, 2], [1, 2], thresholds=[2.5, 1.5])
    assert fpr.tolist() == [0.0, 0.0, 0.5, 1.0] and np.allclose(tpr, [0.0, 1 / 3, 1.0, 1.0])


def test_the_session_line_claims_a_bound_only_for_a_dp_total():
    from types import SimpleNamespace

    from dpui.common.risk import session_line

    green = SimpleNamespace(epsilon=1.0, delta=0.0, colour="green")
    assert "at most 73.2 %" in session_line(3, green)
    with_delta = session_line(3, SimpleNamespace(epsilon=1.0, delta=1e-5, colour="green"))
    assert "at most 84.5 % sure (except with probability at most 2e-05" in with_delta
    orange = SimpleNamespace(epsilon=1.0, delta=1e-6, colour="orange")  # issue 42 item 2: no per-person bound
    assert "no bound" in session_line(3, orange) and "%" not in session_line(3, orange)
    red = SimpleNamespace(epsilon=2.0, delta=1e-6, colour="red")  # a not-DP total may still carry the others' ε
    assert "no bound" in session_line(3, red) and "%" not in session_line(3, red)
    assert "Nothing viewed yet" in session_line(0, green)
