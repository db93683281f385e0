"""Every release type carries a dpcore.guarantees.Guarantee whose kind matches the mechanism (issue 9
item 2, issue 15 item 2): green only for a proven ε-DP / (ε, δ)-DP, never for a sensitivity measured on
the private data."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

import dpcore
from dpcore import guarantees as G
from dpcore.lab.lecture import bank_debt_guarantee, city_example


def _counts(seed=0, users=30, v=12):
    rng = np.random.default_rng(seed)
    return sp.csr_matrix(rng.integers(0, 4, size=(users, v)) * (rng.random((users, v)) < 0.4)), rng.integers(1, 30, v)


def _users():
    return [[["a", "b", "c"], ["a", "b"]], [["a", "b", "d"]], [["b", "c"]], [["a", "b", "c", "d"]]] * 5


def releases():
    X, alpha = _counts()
    w = np.full((2, 3), 1 / 3)
    out = {
        "BayesianDP local": dpcore.bayesian_dp(X, alpha, epsilon=1, delta=1e-5, S=1, C=1, rho=0.5, rng=0),
        "BayesianDP worst-case": dpcore.bayesian_dp(
            X, alpha, epsilon=1, delta=1e-5, S=1, C=1, rho=0.5, rng=0, sensitivity="worst-case"
        ),
        "BayesianDP strict": dpcore.bayesian_dp(
            X, alpha, epsilon=1, delta=1e-5, S=1, C=1, rho=0.5, rng=0, sensitivity="strict", max_items=4, max_users=100
        ),
        "EndToEndDP": dpcore.end_to_end_dp(X, alpha, epsilon=1, delta=1e-5, C=1, rng=0, S_grid=(1.0,), rho_grid=(0.5,)),
        "Laplace": dpcore.bayesian.laplace_counts_dp(X, epsilon=1, W=3, rng=0),
        "Laplace + public": dpcore.bayesian.laplace_public_dp(X, alpha, epsilon=1, W=3, rng=0),
        "k-anonymity": dpcore.bayesian.k_anonymity_release(X, alpha, K=3),
        "DPNE": dpcore.dpne_extract(
            _users(), epsilon=1, delta=1e-5, max_length=2, contribution_limit=2, eta=0.05, rng=0
        ),
        "DPSU-all": dpcore.dpsu_all(_users(), epsilon=1, delta=1e-5, max_length=2, contribution_limit=2, rng=0),
        "DPSU-even": dpcore.dpsu_even(_users(), epsilon=1, delta=1e-5, max_length=2, contribution_limit=2, rng=0),
        "DPSU-single": dpcore.dpsu_single(_users(), epsilon=1, delta=1e-5, max_length=2, contribution_limit=2, rng=0),
        **{
            f"matrix {k}": v
            for k, v in dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=0.2, rng=0, gamma=0.1).items()
        },
    }
    return out


EXPECTED = {  # mechanism -> (kind, colour)
    "BayesianDP local": (G.LOCAL_SENSITIVITY, "red"),
    "BayesianDP worst-case": (G.LOCAL_SENSITIVITY, "red"),
    "BayesianDP strict": (G.APPROXIMATE_DP, "green"),
    "EndToEndDP": (G.LOCAL_SENSITIVITY, "red"),
    "Laplace": (G.PURE_DP, "green"),
    "Laplace + public": (G.LOCAL_SENSITIVITY, "red"),
    "k-anonymity": (G.K_ANONYMITY, "red"),
    "DPNE": (G.APPROXIMATE_DP, "green"),
    "DPSU-all": (G.APPROXIMATE_DP, "green"),
    "DPSU-even": (G.APPROXIMATE_DP, "green"),
    "DPSU-single": (G.APPROXIMATE_DP, "green"),
    "matrix TopicDP": (G.RANDOM_DP, "orange"),
    "matrix TopicDP corrected": (G.RANDOM_DP, "orange"),
    "matrix MVG": (G.RANDOM_DP, "orange"),
    # global bounds, "for the values, given a non-private choice of topics and keywords" (issue 21 item 4:
    # strict TopicDP is green with that label; the Laplace baseline has the same proof, so the same colour)
    "matrix TopicDP strict": (G.APPROXIMATE_DP, "orange"),  # DP for the values only
    "matrix Laplace": (G.PURE_DP, "orange"),  # DP for the values only
}


@pytest.fixture(scope="module")
def all_releases():
    return releases()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_release_carries_the_right_guarantee(all_releases, name):
    g = all_releases[name].guarantee
    assert isinstance(g, G.Guarantee)
    kind, colour = EXPECTED[name]
    assert (g.kind, g.colour) == (kind, colour)
    d = g.to_dict()  # exports carry the same object
    assert d["kind"] == kind and d["label"] == g.label and d["colour"] == colour


def test_no_measured_sensitivity_is_green(all_releases):
    for name, rel in all_releases.items():
        if "local" in name or "worst-case" in name or name in ("EndToEndDP", "Laplace + public"):
            assert not rel.guarantee.is_dp and rel.guarantee.colour != "green", name


def test_dpsu_single_scope():
    g = dpcore.dpsu_single(_users(), epsilon=1, delta=1e-5, max_length=2, contribution_limit=2, rng=0).guarantee
    assert g.scope == "for each length separately — not for all lengths together"


def test_baselines_and_lecture():
    assert (
        dpcore.bayesian.PUBLIC_BASELINE_GUARANTEE.colour == "green"
        and dpcore.bayesian.PUBLIC_BASELINE_GUARANTEE.epsilon == 0.0
    )
    assert dpcore.bayesian.PRIVATE_BASELINE_GUARANTEE.kind == G.NO_PROTECTION
    assert bank_debt_guarantee(epsilon=1, scale=dpcore.lab.lecture.DEBT_CAP).kind == G.PURE_DP
    assert bank_debt_guarantee(epsilon=1, scale=2_800_798.0).kind == G.LOCAL_SENSITIVITY
    assert city_example(epsilon=1).guarantee.kind == G.LOCAL_SENSITIVITY
    assert city_example(epsilon=1, sensitivity=1e-3).guarantee.kind == G.NO_PROTECTION


def test_strict_classic_at_large_epsilon_is_refused_not_relabelled():
    """Issue 15 item 3: the classic σ at ε = 10 has a true δ 2.27 × the stated one. Since issue 21 item 7 the
    strict release is refused there (before: a green label with that true δ — 0.586 at ε = 50)."""
    X, alpha = _counts()
    true_delta = dpcore.gaussian_delta(
        epsilon=10, sigma=dpcore.mechanisms.classic_gaussian_sigma(epsilon=10, delta=1e-5)
    )
    assert true_delta / 1e-5 == pytest.approx(2.27, abs=0.01)
    with pytest.raises(ValueError, match=r"epsilon=10 is outside the classic σ's proof .*exact δ is 2.27e-05"):
        dpcore.bayesian_dp(
            X,
            alpha,
            epsilon=10,
            delta=1e-5,
            S=1,
            C=1,
            rho=0.5,
            rng=0,
            sensitivity="strict",
            max_items=4,
            max_users=100,
            calibration="classic",
        )
    auto = dpcore.bayesian_dp(
        X,
        alpha,
        epsilon=10,
        delta=1e-5,
        S=1,
        C=1,
        rho=0.5,
        rng=0,
        sensitivity="strict",
        max_items=4,
        max_users=100,
        calibration="auto",
    )
    assert auto.calibration == "analytic" and auto.guarantee.delta == 1e-5


def test_zero_epsilon_only_for_no_private_data():
    with pytest.raises(ValueError):
        G.approximate_dp(epsilon=0.0, delta=1e-5)
    with pytest.raises(ValueError):
        G.random_dp(epsilon=0.0, delta=1e-5, gamma=0.1)
    assert G.no_private_data().is_dp


def test_overview_table_matches_the_release_types(all_releases):
    """The home page table (dpcore.lab.review.mechanism_guarantees) uses the releases' own labelling functions."""
    table = {
        m: g
        for _, m, g in dpcore.lab.review.mechanism_guarantees(
            epsilon=1, delta=1e-5, gamma=0.1, K=3, W=3, max_items=4, max_users=100
        )
    }
    pairs = {
        "BayesianDP strict (L, N_max caps)": "BayesianDP strict",
        "BayesianDP local (as in the paper)": "BayesianDP local",
        "EndToEndDP": "EndToEndDP",
        "Laplace (cap W)": "Laplace",
        "Laplace + public": "Laplace + public",
        "k-anonymity": "k-anonymity",
        "DPNE": "DPNE",
        "DPSU-single": "DPSU-single",
        "MVG": "matrix MVG",
        "Laplace on the matrix": "matrix Laplace",
        "TopicDP corrected": "matrix TopicDP corrected",
        "TopicDP strict": "matrix TopicDP strict",
    }
    for row, rel in pairs.items():
        assert table[row].label == all_releases[rel].guarantee.label, row
    assert table["TopicDP"].kind == all_releases["matrix TopicDP"].guarantee.kind
