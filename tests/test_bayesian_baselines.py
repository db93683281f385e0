"""Baselines of 000 §4.2 / §4.5 (SPEC §3 "Baselines")."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import dpcore
from dpcore.bayesian.baselines import (
    cap_user_totals,
    k_anonymity_release,
    laplace_counts_dp,
    laplace_public_dp,
    laplace_public_sensitivity,
    normalise_clipped,
    prepare_laplace,
    prepare_laplace_public,
    private_baseline,
    public_baseline,
)


def random_counts(seed, users=12, v=9):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 6, size=(users, v)) * (rng.random((users, v)) < 0.5)


# ---------------------------------------------------------------------------------------------
# Laplace


def test_cap_keeps_at_most_W_tokens_and_only_the_users_tokens():
    counts = random_counts(0, users=40)
    capped = cap_user_totals(sp.csr_matrix(counts), W=4, rng=1).toarray()
    assert np.all(capped <= counts)
    np.testing.assert_array_equal(capped.sum(axis=1), np.minimum(counts.sum(axis=1), 4))
    # users at or under the cap are untouched
    small = counts.sum(axis=1) <= 4
    np.testing.assert_array_equal(capped[small], counts[small])


def test_cap_is_a_uniform_subsample_without_replacement():
    # one user with tokens a,a,a,b and W = 2: P(both kept tokens are a) = C(3,2)/C(4,2) = 1/2,
    # P(a,b) = 3·1/6 = 1/2, P(b,b) = 0 (only one b). 20,000 users → sd of the share = 0.0035.
    m = sp.csr_matrix(np.tile([3, 1], (20000, 1)))
    capped = cap_user_totals(m, W=2, rng=7).toarray()
    assert abs(np.mean(capped[:, 0] == 2) - 0.5) < 0.02
    assert np.all(capped[:, 1] <= 1)


def test_laplace_release_scale_and_distribution():
    counts = random_counts(1)
    rel = laplace_counts_dp(sp.csr_matrix(counts), epsilon=0.5, W=3, rng=0)
    assert rel.scale == pytest.approx(3 / 0.5) and rel.sensitivity == 3
    assert rel.theta.sum() == pytest.approx(1.0) and np.all(rel.theta >= 0)
    assert rel.guarantee.kind == dpcore.guarantees.PURE_DP and rel.guarantee.is_dp
    assert rel.guarantee.epsilon == 0.5 and "W = 3" in rel.guarantee.label


def test_laplace_public_is_labelled_measured_sensitivity_not_dp():
    """Issue 15 item 2: Laplace + public's Δ₁ is measured on the corpus → not DP (red, never green)."""
    counts = random_counts(2)
    for method in ("brute-force", "bound"):
        rel = laplace_public_dp(
            sp.csr_matrix(counts), np.arange(1, counts.shape[1] + 1), epsilon=1.0, W=3, rng=0, sensitivity=method
        )
        g = rel.guarantee
        assert g.kind == dpcore.guarantees.LOCAL_SENSITIVITY and not g.is_dp and g.colour == "red"
        assert "not DP" in g.label and "measured sensitivity" in g.label


def test_baseline_guarantees():
    assert dpcore.bayesian.PUBLIC_BASELINE_GUARANTEE.is_dp and dpcore.bayesian.PUBLIC_BASELINE_GUARANTEE.epsilon == 0
    assert "no private data" in dpcore.bayesian.PUBLIC_BASELINE_GUARANTEE.label
    assert dpcore.bayesian.PRIVATE_BASELINE_GUARANTEE.kind == dpcore.guarantees.NO_PROTECTION
    assert dpcore.bayesian.PRIVATE_BASELINE_GUARANTEE.colour == "red"


def test_laplace_noise_has_the_right_scale():
    # Var(Lap(b)) = 2b²: with b = W/ε = 4 the sd is 5.657; over 200 × 9 draws the sample sd is
    # within 10% with overwhelming probability (relative sd of the sd estimate ≈ 0.03).
    prep = prepare_laplace(sp.csr_matrix(random_counts(2)), W=2, rng=0)
    rng = np.random.default_rng(5)
    noise = np.vstack([rng.laplace(0, prep.scale(0.5), size=prep.value.size) for _ in range(200)])
    assert abs(noise.std() / (np.sqrt(2) * 4) - 1) < 0.1


def test_laplace_all_noise_negative_gives_uniform():
    out = normalise_clipped(np.array([[-1.0, -2.0, -3.0], [1.0, 0.0, -1.0]]))
    np.testing.assert_allclose(out, [[1 / 3, 1 / 3, 1 / 3], [1.0, 0.0, 0.0]])


def test_laplace_is_reproducible():
    m = sp.csr_matrix(random_counts(3))
    a = laplace_counts_dp(m, epsilon=1, W=2, rng=9).theta
    b = laplace_counts_dp(m, epsilon=1, W=2, rng=9).theta
    np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Laplace + public


def literal_laplace_public_f(counts, alpha):
    """Σ_n w_n(Δc̃^n − α̃) + α̃ with w_n = ‖Δc^n‖₁/‖c‖₁, literally, user by user."""
    alpha_t = alpha / alpha.sum()
    T = counts.sum()
    if T == 0:
        return alpha_t
    out = alpha_t.copy()
    for row in counts:
        t = row.sum()
        if t > 0:
            out = out + (t / T) * (row / t - alpha_t)
    return out


@pytest.mark.parametrize("seed", range(8))
def test_laplace_public_value_and_brute_force_l1_sensitivity(seed):
    counts = random_counts(seed + 10)
    alpha = np.arange(1, counts.shape[1] + 1, dtype=float)
    prep = prepare_laplace_public(sp.csr_matrix(counts), alpha, W=10_000, rng=0)  # cap never binds
    f = literal_laplace_public_f(counts, alpha)
    np.testing.assert_allclose(prep.value, f, atol=1e-12)
    # the reading in the docstring: as written the public counts cancel, f(D) = c/‖c‖₁
    np.testing.assert_allclose(prep.value, counts.sum(axis=0) / counts.sum(), atol=1e-12)
    expected = max(
        np.abs(f - literal_laplace_public_f(np.delete(counts, n, axis=0), alpha)).sum() for n in range(counts.shape[0])
    )
    assert prep.sensitivity == pytest.approx(expected, rel=1e-9)
    bound = laplace_public_sensitivity(sp.csr_matrix(counts), alpha, method="bound")
    assert bound >= prep.sensitivity * (1 - 1e-12)


def test_laplace_public_sole_user_falls_back_to_public():
    counts = np.array([[2, 1, 0], [0, 0, 0]])
    alpha = np.array([1.0, 1.0, 2.0])
    # removing the only user with counts leaves f(D₋ₙ) = α̃ = (¼, ¼, ½); f(D) = (⅔, ⅓, 0)
    # ‖f − α̃‖₁ = 5/12 + 1/12 + 1/2 = 1
    assert laplace_public_sensitivity(sp.csr_matrix(counts), alpha) == pytest.approx(1.0)


def test_laplace_public_release():
    counts = random_counts(4)
    rel = laplace_public_dp(sp.csr_matrix(counts), np.ones(counts.shape[1]), epsilon=1.0, W=3, rng=2)
    assert rel.theta.sum() == pytest.approx(1.0)
    assert rel.scale == pytest.approx(rel.sensitivity / 1.0)
    assert rel.mechanism == "Laplace + public"


def test_laplace_public_bad_method():
    with pytest.raises(ValueError, match="sensitivity must be one of 'brute-force', 'bound', got sensitivity='x'"):
        prepare_laplace_public(sp.csr_matrix(random_counts(0)), np.ones(9), W=2, rng=0, sensitivity="x")


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"W": 0}, ValueError, "W must be >= 1, got W=0"),
        ({"W": 2.5}, ValueError, "W must be a whole number, got W=2.5"),
        ({"epsilon": 0}, ValueError, "epsilon must be > 0, got epsilon=0"),
        ({"rng": None}, TypeError, "rng must be a numpy.random.Generator or an int seed, got rng=None"),
    ],
)
def test_laplace_validation(kwargs, exc, message):
    params = dict(epsilon=1.0, W=2, rng=0)
    params.update(kwargs)
    with pytest.raises(exc) as info:
        laplace_counts_dp(sp.csr_matrix(random_counts(0)), **params)
    assert message in str(info.value)


# ---------------------------------------------------------------------------------------------
# k-anonymity and the two baselines


def test_k_anonymity_by_hand():
    # N = (3, 1, 2, 0); c = (5, 2, 3, 0); K = 2 keeps items 0 and 2, suppresses item 1 (mass 2)
    # and item 3 (mass 0); public α = (1, 1, 1, 3) → suppressed share α restricted to {1, 3} = (¼, ¾)
    counts = np.array([[2, 0, 1, 0], [2, 2, 2, 0], [1, 0, 0, 0]])
    alpha = np.array([1.0, 1.0, 1.0, 3.0])
    rel = k_anonymity_release(sp.csr_matrix(counts), alpha, K=2)
    np.testing.assert_allclose(rel.theta, np.array([5, 0.5, 3, 1.5]) / 10)
    assert rel.kept_items == 2 and rel.suppressed_items == 2
    assert rel.suppressed_mass == pytest.approx(0.2)
    assert rel.guarantee.kind == dpcore.guarantees.K_ANONYMITY and rel.guarantee.K == 2
    assert rel.guarantee.colour == "red" and "not DP" in rel.guarantee.label
    zero = k_anonymity_release(sp.csr_matrix(counts), alpha, K=2, fill="zero")
    np.testing.assert_allclose(zero.theta, np.array([5, 0, 3, 0]) / 8)


def test_k_anonymity_K1_is_the_private_distribution():
    counts = random_counts(6)
    rel = k_anonymity_release(sp.csr_matrix(counts), np.ones(counts.shape[1]), K=1)
    np.testing.assert_allclose(rel.theta, private_baseline(sp.csr_matrix(counts)))


def test_k_anonymity_validation():
    with pytest.raises(ValueError, match="K must be >= 1, got K=0"):
        k_anonymity_release(sp.csr_matrix(random_counts(0)), np.ones(9), K=0)
    with pytest.raises(ValueError, match="fill must be one of 'public', 'zero', got fill='mean'"):
        k_anonymity_release(sp.csr_matrix(random_counts(0)), np.ones(9), K=2, fill="mean")


def test_public_and_private_baselines():
    np.testing.assert_allclose(public_baseline(np.array([1.0, 3.0])), [0.25, 0.75])
    np.testing.assert_allclose(private_baseline(sp.csr_matrix(np.array([[1, 0], [1, 2]]))), [0.5, 0.5])
    with pytest.raises(
        ValueError, match=r"public_counts must be a 1-D array with \|V\| >= 2 entries, got shape \(1,\)"
    ):
        public_baseline(np.array([1.0]))
