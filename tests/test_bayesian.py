"""BayesianDP (000 Algorithm 1, Corollary 1, Claim 1) and EndToEndDP (Algorithm 2): SPEC §3."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.sparse as sp

import dpcore
from dpcore.bayesian import (
    DEFAULT_RHO_GRID,
    DEFAULT_S_GRID,
    bayesian_dp,
    bayesian_sensitivity,
    bayesian_statistics,
    end_to_end_dp,
    softmax,
)
from dpcore.bayesian.end_to_end import cross_entropy_score, prepare_end_to_end
from dpcore.bayesian.release import prepare_bayesian
from dpcore.text import Corpus, Document
from dpcore.text.counts import ngram_counts

# ---------------------------------------------------------------------------------------------
# literal reference: recompute f(D) and f(D₋ₙ) from scratch for every user (dense, no shortcut)


def literal_f(counts: np.ndarray, S: float, C: int) -> np.ndarray:
    clamped = np.minimum(counts, C).astype(float)
    c = clamped.sum(axis=0)
    N = (clamped > 0).sum(axis=0)
    x_hat = np.log(c + 1) - np.mean(np.log(c + 1))
    w = np.minimum(1.0, S * N / C)
    return w * x_hat


def literal_sensitivity(counts: np.ndarray, S: float, C: int) -> float:
    f = literal_f(counts, S, C)
    return max(np.linalg.norm(f - literal_f(np.delete(counts, n, axis=0), S, C)) for n in range(counts.shape[0]))


def random_corpora(seed: int, n: int):
    """Small random count matrices; S is chosen so that some word sits in the transition region
    (N−1)·S/C < 1 < N·S/C in about half of the cases."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        users = int(rng.integers(2, 9))
        v = int(rng.integers(2, 12))
        C = int(rng.integers(1, 4))
        counts = rng.integers(0, 6, size=(users, v)) * (rng.random((users, v)) < 0.6)
        N = (counts > 0).sum(axis=0)
        if k % 2 == 0 and N.max() >= 1:
            # put the most used word in the transition region: S = C/(N − 0.5)
            S = C / (N.max() - 0.5)
        else:
            S = float(10 ** rng.uniform(-3, 2))
        out.append((counts, S, C))
    return out


CORPORA = random_corpora(7, 40)


def in_transition(counts, S, C) -> bool:
    N = (np.minimum(counts, C) > 0).sum(axis=0)
    return bool(np.any(((N - 1) * S / C < 1) & (N * S / C > 1)))


def test_random_corpora_cover_the_transition_region():
    # the brute force must be checked where the paper's shortcut (S/C)·1(N ≤ C/S) is wrong
    assert sum(in_transition(*c) for c in CORPORA) >= 10
    assert sum(not in_transition(*c) for c in CORPORA) >= 10


@pytest.mark.parametrize("case", range(len(CORPORA)))
def test_brute_force_equals_literal_recomputation(case):
    counts, S, C = CORPORA[case]
    expected = literal_sensitivity(counts, S, C)
    got = bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C)
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("case", range(len(CORPORA)))
def test_worst_case_is_never_below_brute_force(case):
    counts, S, C = CORPORA[case]
    brute = bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C, method="brute-force")
    worst = bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C, method="worst-case")
    assert worst >= brute * (1 - 1e-12)


def test_worst_case_bound_on_corpora_built_from_text():
    # a real Corpus path: users → sentences → n-grams, and users whose n-grams are all outside V
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(15)]
    for _trial in range(10):
        users = tuple(
            (Document(sentences=tuple(tuple(rng.choice(words, size=int(rng.integers(1, 6)))) for _ in range(3))),)
            for _ in range(int(rng.integers(3, 10)))
        )
        private = Corpus(user_ids=tuple(f"u{i}" for i in range(len(users))), users=users)
        public = Corpus(user_ids=("p",), users=((Document(sentences=(tuple(words[:10]),)),),))
        for n in (1, 2):
            nc = ngram_counts(private, public, n=n)
            dense = nc.user_counts.toarray()
            for S in (0.01, 0.4, 0.7, 3.0):
                brute = bayesian_sensitivity(nc.user_counts, S=S, C=2)
                assert brute == pytest.approx(literal_sensitivity(dense, S, 2), rel=1e-9, abs=1e-300)
                assert bayesian_sensitivity(nc.user_counts, S=S, C=2, method="worst-case") >= brute * (1 - 1e-12)


def test_brute_force_chunking_gives_the_same_answer(monkeypatch):
    counts, S, C = CORPORA[3]
    whole = bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C)
    import dpcore.bayesian as b

    monkeypatch.setattr(b.statistics, "_CHUNK_NNZ", 3)  # force many small chunks
    assert bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C) == pytest.approx(whole, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# worked example, by hand
#
# Two users, V = {a, b}. User 1 wrote "a" once; user 2 wrote "a" and "b" once each. Public α = (3, 1).
# C = 1 (clamping changes nothing), S = 1, ρ = 0.5.
#   c = (2, 1), N = (2, 1);  log(c+1) = (ln 3, ln 2), mean = ½ ln 6
#   x̂ = (½ ln(3/2), −½ ln(3/2)) = (0.2027326, −0.2027326)            (eq. 2)
#   μ_p: log(α+1) = (ln 4, ln 2) → (½ ln 2, −½ ln 2) = (0.3465736, −0.3465736)   (eq. 1)
#   w = min(1, S·N/C) = (1, 1)                                             (eq. 5)
#   μ_ps = 0.5·x̂ + 0.5·μ_p = (0.2746531, −0.2746531)                     (Corollary 1)
#   remove user 1: c' = (1, 1) → x̂' = (0, 0), w' = (1, 1): ‖f − f'‖ = √2·0.2027326 = 0.2867071
#   remove user 2: c' = (1, 0) → x̂' = (½ ln 2, −½ ln 2), N' = (1, 0), w' = (1, 0):
#       f' = (0.3465736, 0); f − f' = (−0.1438410, −0.2027326); norm = 0.2485780
#   γ = max = 0.2867071 = ln(1.5)/√2
#   classic σ at ε = 0.5, δ = 1e-5: √(2 ln(1.25e5)) = 4.844805, so σ_ps = ρ·γ·4.844805/ε
#       = 0.5·0.2867071·4.844805/0.5 = 1.3890397
# Same data, S = 0.6 (word a in the transition region: (2−1)·0.6 < 1 < 2·0.6):
#   w = (1, 0.6); f = (0.2027326, −0.1216395)
#   remove user 1: w' = (0.6, 0.6), x̂' = 0 → ‖f‖ = √(0.0411005 + 0.0147962) = 0.2364248
#   remove user 2: w' = (0.6, 0), f' = (0.2079442, 0) → ‖(−0.0052116, −0.1216395)‖ = 0.1217511
#   γ = 0.2364248


TINY = sp.csr_matrix(np.array([[1, 0], [1, 1]]))
TINY_ALPHA = np.array([3.0, 1.0])


def test_worked_example_statistics():
    st = bayesian_statistics(TINY, TINY_ALPHA, C=1)
    np.testing.assert_allclose(st.x_hat, [0.2027326, -0.2027326], atol=1e-7)
    np.testing.assert_allclose(st.mu_p, [0.3465736, -0.3465736], atol=1e-7)
    np.testing.assert_allclose(st.weights(1.0), [1.0, 1.0])
    np.testing.assert_allclose(st.posterior_mean(1.0, 0.5), [0.2746531, -0.2746531], atol=1e-7)


def test_worked_example_sensitivity_and_sigma():
    assert bayesian_sensitivity(TINY, S=1.0, C=1) == pytest.approx(0.2867071, abs=1e-7)
    assert bayesian_sensitivity(TINY, S=1.0, C=1) == pytest.approx(math.log(1.5) / math.sqrt(2), rel=1e-12)
    prep = prepare_bayesian(TINY, TINY_ALPHA, S=1.0, C=1, rho=0.5)
    assert prep.sigma(epsilon=0.5, delta=1e-5) == pytest.approx(1.3890397, abs=1e-6)


def test_worked_example_transition_region():
    assert bayesian_sensitivity(TINY, S=0.6, C=1) == pytest.approx(0.2364248, abs=1e-7)
    np.testing.assert_allclose(bayesian_statistics(TINY, C=1).weights(0.6), [1.0, 0.6])


def test_worked_example_softmax_of_the_mean():
    # θ̄ = softmax(±0.2746531) = (e^0.549306/(1+e^0.549306), …) = (0.6339746, 0.3660254)
    prep = prepare_bayesian(TINY, TINY_ALPHA, S=1.0, C=1, rho=0.5)
    np.testing.assert_allclose(prep.mean_theta(), [0.6339746, 0.3660254], atol=1e-7)


def test_analytic_calibration_scales_by_rho_gamma():
    prep = prepare_bayesian(TINY, TINY_ALPHA, S=1.0, C=1, rho=0.5)
    # SPEC §2 check: analytic σ(ε=1, δ=1e-5, Δ=1) = 3.730632
    assert prep.sigma(epsilon=1.0, delta=1e-5, calibration="analytic") == pytest.approx(
        0.5 * prep.sensitivity * 3.730632, rel=1e-6
    )


def test_clamp_is_applied_before_everything():
    big = sp.csr_matrix(np.array([[7, 0], [3, 5]]))
    clamped = sp.csr_matrix(np.array([[2, 0], [2, 2]]))
    assert bayesian_sensitivity(big, S=0.3, C=2) == pytest.approx(bayesian_sensitivity(clamped, S=0.3, C=2), rel=1e-14)


# ---------------------------------------------------------------------------------------------
# releases


@pytest.mark.parametrize("epsilon", [0.01, 10.0])
@pytest.mark.parametrize("S", [1e-3, 1e4])
@pytest.mark.parametrize("rho", [1.0, 0.3])
@pytest.mark.parametrize("calibration", ["classic", "analytic"])
def test_theta_is_a_distribution_at_extreme_settings(epsilon, S, rho, calibration):
    counts, _, C = CORPORA[5]
    alpha = np.arange(1, counts.shape[1] + 1, dtype=float) ** 3
    rel = bayesian_dp(
        sp.csr_matrix(counts), alpha, epsilon=epsilon, delta=1e-10, S=S, C=C, rho=rho, rng=1, calibration=calibration
    )
    assert np.all(np.isfinite(rel.theta)) and np.all(rel.theta >= 0)
    assert rel.theta.sum() == pytest.approx(1.0, abs=1e-12)
    assert rel.guarantee.kind == dpcore.guarantees.LOCAL_SENSITIVITY  # the paper's γ is measured on the data


def test_softmax_is_stable_for_huge_values():
    th = softmax(np.array([1e308, -1e308, 0.0]))
    np.testing.assert_allclose(th, [1.0, 0.0, 0.0])


def test_released_h_has_mean_mu_ps_and_sd_sigma_ps():
    rng = np.random.default_rng(11)
    counts = rng.integers(0, 4, size=(30, 200)) * (rng.random((30, 200)) < 0.3)
    alpha = rng.integers(1, 50, size=200).astype(float)
    prep = prepare_bayesian(sp.csr_matrix(counts), alpha, S=0.2, C=2, rho=0.7)
    eps, delta = 0.5, 1e-6
    sigma = prep.sigma(epsilon=eps, delta=delta)
    assert sigma > 0
    h = np.vstack([prep.release(epsilon=eps, delta=delta, rng=seed).h for seed in range(100)])  # 100 × 200
    z = (h - prep.mu_ps) / sigma
    n = z.size  # 20,000 standardised draws
    # Under the claim z ~ N(0, 1) i.i.d.: the sample mean has sd 1/√n and the sample sd has sd ≈ 1/√(2n).
    # A 5-sd tolerance gives a false-failure probability below 1e-6 while a 2% error in σ_ps
    # (5/√(2n) = 0.025) or a mean shift of 0.04·σ_ps (5/√n = 0.035) would fail.
    assert abs(z.mean()) < 5 / math.sqrt(n)
    assert abs(z.std(ddof=1) - 1.0) < 5 / math.sqrt(2 * n)
    # each coordinate on its own: the per-coordinate means over 100 draws, standardised, look N(0, 1/100)
    assert abs(z.mean(axis=0).std(ddof=1) * 10 - 1.0) < 0.25


def test_release_is_reproducible_from_the_seed():
    counts, S, C = CORPORA[2]
    alpha = np.ones(counts.shape[1])
    a = bayesian_dp(sp.csr_matrix(counts), alpha, epsilon=1, delta=1e-5, S=S, C=C, rho=0.5, rng=42)
    b = bayesian_dp(sp.csr_matrix(counts), alpha, epsilon=1, delta=1e-5, S=S, C=C, rho=0.5, rng=42)
    c = bayesian_dp(sp.csr_matrix(counts), alpha, epsilon=1, delta=1e-5, S=S, C=C, rho=0.5, rng=43)
    np.testing.assert_array_equal(a.theta, b.theta)
    assert not np.array_equal(a.theta, c.theta)


def test_sweep_costs_one_draw_per_point_and_matches_release():
    counts, S, C = CORPORA[4]
    prep = prepare_bayesian(sp.csr_matrix(counts), np.ones(counts.shape[1]), S=S, C=C, rho=0.5)
    th = prep.sample_theta(epsilon=0.3, delta=1e-5, rng=5, repetitions=1)[0]
    rel = prep.release(epsilon=0.3, delta=1e-5, rng=5)
    np.testing.assert_allclose(th, rel.theta, rtol=1e-12)


def test_rho_one_ignores_the_public_prior():
    counts, S, C = CORPORA[6]
    m = sp.csr_matrix(counts)
    a = prepare_bayesian(m, np.ones(counts.shape[1]), S=S, C=C, rho=1.0).mu_ps
    b = prepare_bayesian(m, np.arange(1, counts.shape[1] + 1) ** 4, S=S, C=C, rho=1.0).mu_ps
    np.testing.assert_allclose(a, b)


def test_share_downweighted_counts_words_with_weight_below_one():
    prep = prepare_bayesian(TINY, TINY_ALPHA, S=0.6, C=1, rho=0.5)
    assert prep.share_downweighted == pytest.approx(0.5)  # w = (1, 0.6)


def test_release_repr_and_classic_flag():
    # calibration="classic" named: the default is "auto" (analytic from ε = 1) since issue 21 item 7
    rel = bayesian_dp(TINY, TINY_ALPHA, epsilon=2.0, delta=1e-5, S=1, C=1, rho=0.5, rng=0, calibration="classic")
    assert "guarantee=" in repr(rel) and "not DP — " in repr(rel)
    assert rel.classic_proven is False
    assert bayesian_dp(TINY, TINY_ALPHA, epsilon=2.0, delta=1e-5, S=1, C=1, rho=0.5, rng=0).classic_proven
    assert bayesian_dp(TINY, TINY_ALPHA, epsilon=0.5, delta=1e-5, S=1, C=1, rho=0.5, rng=0).classic_proven


# ---------------------------------------------------------------------------------------------
# validation: one bad input per test; messages name parameter, rule and value


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"S": 0}, ValueError, "S must be > 0, got S=0"),
        ({"S": -2.5}, ValueError, "S must be > 0, got S=-2.5"),
        ({"S": float("nan")}, ValueError, "S must be a number, got S=nan"),
        ({"S": "big"}, TypeError, "S must be a real number, got S='big'"),
        ({"C": 0}, ValueError, "C must be >= 1, got C=0"),
        ({"C": 1.5}, ValueError, "C must be a whole number, got C=1.5"),
        ({"rho": 0}, ValueError, "rho must be > 0, got rho=0"),
        ({"rho": 1.5}, ValueError, "rho must be <= 1, got rho=1.5"),
        ({"epsilon": -1}, ValueError, "epsilon must be > 0, got epsilon=-1"),
        ({"epsilon": float("inf")}, ValueError, "epsilon must be finite, got epsilon=inf"),
        ({"delta": 1.0}, ValueError, "delta must be < 1, got delta=1"),
        ({"delta": 0}, ValueError, "delta must be > 0, got delta=0"),
        (
            {"sensitivity": "exact"},
            ValueError,
            "sensitivity must be one of 'brute-force', 'worst-case', 'strict', got sensitivity='exact'",
        ),
        (
            {"calibration": "tight"},
            ValueError,
            "calibration must be one of 'auto', 'classic', 'analytic', got calibration='tight'",
        ),
        ({"rng": "seed"}, TypeError, "rng must be a numpy.random.Generator or an int seed"),
    ],
)
def test_bayesian_dp_rejects_bad_parameters(kwargs, exc, message):
    params = dict(epsilon=1.0, delta=1e-5, S=1.0, C=1, rho=0.5, rng=0)
    params.update(kwargs)
    with pytest.raises(exc) as info:
        bayesian_dp(TINY, TINY_ALPHA, **params)
    assert message in str(info.value)


def test_one_word_vocabulary_is_rejected():
    with pytest.raises(ValueError, match=r"vocabulary size \|V\| must be >= 2 .*got \|V\|=1"):
        bayesian_dp(sp.csr_matrix(np.array([[3], [1]])), np.array([5.0]), epsilon=1, delta=1e-5, S=1, C=1, rho=1, rng=0)
    with pytest.raises(ValueError, match=r"got \|V\|=1"):
        bayesian_sensitivity(sp.csr_matrix(np.array([[3], [1]])), S=1, C=1)


@pytest.mark.parametrize(
    "counts, exc, message",
    [
        (np.array([[1, 0], [1, 1]]), TypeError, "user_counts must be a scipy.sparse matrix"),
        (sp.csr_matrix(np.array([[1.0, -1.0]])), ValueError, "user_counts must be >= 0, got a count of -1"),
        (sp.csr_matrix(np.array([[1.5, 1.0]])), ValueError, "user_counts must hold whole counts, got a count of 1.5"),
        (sp.csr_matrix(np.array([[np.nan, 1.0]])), ValueError, "user_counts must be finite"),
        (sp.csr_matrix((0, 3)), ValueError, "user_counts must have at least 1 user (row), got 0"),
    ],
)
def test_bad_count_matrices_are_rejected(counts, exc, message):
    with pytest.raises(exc) as info:
        bayesian_sensitivity(counts, S=1, C=1)
    assert message in str(info.value)


def test_bad_method_is_rejected():
    with pytest.raises(
        ValueError, match="method must be one of 'brute-force', 'worst-case', 'strict', got method='exact'"
    ):
        bayesian_sensitivity(TINY, S=1, C=1, method="exact")


@pytest.mark.parametrize(
    "alpha, message",
    [
        (np.ones(3), "public_counts must be a 1-D array of length |V|=2, got shape (3,)"),
        (np.array([1.0, -2.0]), "public_counts must be >= 0, got public_counts min=-2"),
        (np.array([1.0, np.inf]), "public_counts must be finite"),
    ],
)
def test_bad_public_counts_are_rejected(alpha, message):
    with pytest.raises(ValueError) as info:
        prepare_bayesian(TINY, alpha, S=1, C=1, rho=0.5)
    assert message in str(info.value)


# ---------------------------------------------------------------------------------------------
# EndToEndDP


def _users_matrix(seed=0, users=60, v=30):
    rng = np.random.default_rng(seed)
    counts = rng.poisson(0.6, size=(users, v)) * (rng.random((users, v)) < 0.5)
    return sp.csr_matrix(counts), rng.integers(1, 100, size=v).astype(float)


def test_end_to_end_budget_grid_and_choice():
    m, alpha = _users_matrix()
    res = end_to_end_dp(m, alpha, epsilon=0.9, delta=1e-5, C=1, rng=3)
    assert res.epsilon_train == pytest.approx(0.6) and res.epsilon_tune == pytest.approx(0.3)
    assert res.epsilon == pytest.approx(res.epsilon_train + res.epsilon_tune)
    assert res.release.epsilon == pytest.approx(0.6)
    assert (res.S_star, res.rho_star) in res.grid
    assert len(res.grid) == len(DEFAULT_S_GRID) * len(DEFAULT_RHO_GRID)
    # the release publishes the argmin only; the split sizes (their sum is the exact user count, issue 21
    # item 2) are in the evaluation object
    assert not hasattr(res, "scores") and not hasattr(res, "noisy_scores")
    assert not hasattr(res, "n_train") and not hasattr(res, "n_validation")
    _, inside = prepare_end_to_end(m, alpha, C=1, rng=3).release_with_evaluation(epsilon=0.9, delta=1e-5, rng=3)
    assert inside.n_train == 54 and inside.n_validation == 6  # 90 / 10 split by user
    again, inside = prepare_end_to_end(m, alpha, C=1, rng=3).release_with_evaluation(epsilon=0.9, delta=1e-5, rng=3)
    assert np.all(np.isfinite(inside.scores)) and inside.score_sensitivity > 0
    assert inside.tuning_scale == pytest.approx(2 * inside.score_sensitivity / 0.3)
    assert res.theta.sum() == pytest.approx(1.0)
    assert res.guarantee.kind == dpcore.guarantees.LOCAL_SENSITIVITY  # Claim 2 is local (SPEC §3b)
    assert res.guarantee.epsilon == pytest.approx(0.9)
    k = again.grid.index((again.S_star, again.rho_star))
    assert k == int(np.argmin(inside.noisy_scores))


def test_end_to_end_picks_the_true_minimum_when_tuning_noise_vanishes():
    m, alpha = _users_matrix(1)
    prep = prepare_end_to_end(m, alpha, C=1, rng=4)
    # Lap scale 2|Δq|/(ε/3) ≈ 0; the classic σ named (auto's analytic σ stops at ε = 1e6)
    res, inside = prep.release_with_evaluation(epsilon=1e9, delta=1e-5, rng=0, calibration="classic")
    assert res.grid[int(np.argmin(inside.scores))] == (res.S_star, res.rho_star)
    plain = prep.release(
        epsilon=1e9, delta=1e-5, rng=0, calibration="classic"
    )  # the same draws as release_with_evaluation
    assert np.array_equal(plain.theta, res.theta) and (plain.S_star, plain.rho_star) == (res.S_star, res.rho_star)


def test_end_to_end_scores_follow_eq6_and_claim2():
    m, alpha = _users_matrix(2)
    prep = prepare_end_to_end(m, alpha, C=1, rng=9, S_grid=(0.01, 1.0), rho_grid=(0.5, 1.0))
    # recompute the validation split from the same seed and the scores from eq. 6
    perm = np.random.default_rng(9).permutation(m.shape[0])
    val = np.sort(perm[:6])
    c_val = np.minimum(m[val].toarray(), 1).sum(axis=0)
    st = prep.statistics
    expected, sens = [], []
    for S in (0.01, 1.0):
        for rho in (0.5, 1.0):
            mu = st.posterior_mean(S, rho)
            log_theta = mu - np.log(np.exp(mu).sum())
            expected.append(-np.dot(c_val, log_theta))
            sens.append(max(rho * np.linalg.norm(c_val) * st.sensitivity(S), 1 * np.abs(log_theta).sum()))
            assert cross_entropy_score(c_val, mu) == pytest.approx(expected[-1], rel=1e-12)
    np.testing.assert_allclose(prep.scores, expected, rtol=1e-12)
    assert prep.score_sensitivity == pytest.approx(max(sens), rel=1e-12)


def test_end_to_end_validation_messages():
    m, alpha = _users_matrix()
    with pytest.raises(ValueError, match="validation_share must be < 1, got validation_share=1"):
        end_to_end_dp(m, alpha, epsilon=1, delta=1e-5, C=1, rng=0, validation_share=1)
    with pytest.raises(ValueError, match="S_grid and rho_grid must be non-empty, got 0 and 5 values"):
        end_to_end_dp(m, alpha, epsilon=1, delta=1e-5, C=1, rng=0, S_grid=())
    with pytest.raises(ValueError, match="EndToEndDP needs at least 2 users"):
        end_to_end_dp(m[:1], alpha, epsilon=1, delta=1e-5, C=1, rng=0)
    with pytest.raises(ValueError, match="rho must be > 0, got rho=0"):
        end_to_end_dp(m, alpha, epsilon=1, delta=1e-5, C=1, rng=0, rho_grid=(0, 0.5))


def test_public_names_are_exported():
    # issue 22: the mechanisms are exported by their subpackage; the top level keeps what a notebook needs first
    for name in (
        "bayesian_sensitivity",
        "bayesian_dp",
        "end_to_end_dp",
        "BayesianRelease",
        "laplace_counts_dp",
        "k_anonymity_release",
    ):
        assert name in dpcore.bayesian.__all__ and hasattr(dpcore.bayesian, name)
    for name in ("bayesian_dp", "end_to_end_dp", "ngram_counts"):
        assert name in dpcore.__all__ and hasattr(dpcore, name)


def test_brute_force_on_a_larger_heavy_tailed_corpus():
    # |V| = 3000 with a Zipf-like use of items: here Σ_{i∉A} w_i² is computed as a difference of two
    # large sums, so this checks that the closed form keeps 1e-9 relative accuracy at a realistic size
    rng = np.random.default_rng(21)
    users, v = 60, 3000
    p = 1.0 / np.arange(1, v + 1) ** 1.1
    p /= p.sum()
    counts = np.zeros((users, v), dtype=int)
    for u in range(users):
        np.add.at(counts[u], rng.choice(v, size=int(rng.integers(5, 200)), p=p), 1)
    for S in (1e-3, 0.05, 0.5, 20.0):
        expected = literal_sensitivity(counts, S, 3)
        assert bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=3) == pytest.approx(expected, rel=1e-9)
        assert bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=3, method="worst-case") >= expected


def test_sparse_arrays_and_integer_matrices_are_accepted():
    counts, S, C = CORPORA[8]
    ref = bayesian_sensitivity(sp.csr_matrix(counts), S=S, C=C)
    assert bayesian_sensitivity(sp.csr_array(counts.astype(np.int32)), S=S, C=C) == pytest.approx(ref, rel=1e-14)
    assert bayesian_sensitivity(sp.coo_matrix(counts), S=S, C=C) == pytest.approx(ref, rel=1e-14)


def test_the_callers_matrix_is_never_modified():
    m = sp.csr_matrix((np.array([3.0, 0.0, 7.0, 1.0]), np.array([0, 1, 1, 2]), np.array([0, 2, 4])), shape=(2, 3))
    before = (m.data.copy(), m.indices.copy(), m.indptr.copy())
    bayesian_sensitivity(m, S=0.5, C=2)
    prepare_bayesian(m, np.ones(3), S=0.5, C=2, rho=0.5)
    for a, b in zip((m.data, m.indices, m.indptr), before):
        np.testing.assert_array_equal(a, b)
