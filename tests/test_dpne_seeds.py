"""DPNE's keyed draws come from the seed *and* every parameter that changes the release (issue 21 item 5).

With the bare seed, releases at ε = 1 and ε = 2 shared their item noise, so S₁(ε = 1) ⊆ S₁(ε = 2) in every run
and two views together said more than either. Here: the subset relation is no more frequent with one seed
than with independent seeds; η joins the key from the lengths whose histograms depend on it; and the
zero-weight draw at length 2 (kept across η with its noise) is exactly the thresholding of one implicit
Gaussian at each ρ₂(η): nested, with Binomial marginals and the binomial process's increments.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from scipy.stats import binom

import dpcore
from dpcore import prepare_dpne
from dpcore.dpne import dpne_level_seed, dpne_release_seed, eta_dependent_level
from dpcore.dpne.space import _uniform_count_below, _ValidSpace, zero_weight_draw
from dpcore.mechanisms.keyed import level_generator, release_seed


@pytest.fixture(scope="module")
def users():
    """300 users over a 60-word vocabulary with Zipf-like use: many words near the DPSU threshold."""
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(60)]
    p = 1.0 / np.arange(1, 61) ** 1.1
    p /= p.sum()
    return [
        [[words[j] for j in rng.choice(60, size=int(rng.integers(2, 6)), p=p)] for _ in range(3)] for _ in range(300)
    ]


@pytest.fixture(scope="module")
def one_word_users():
    """Each user writes one word; 120 words used by 8 … 16 users each — between the DPSU thresholds
    ρ(ε = 2) = 10.1 and ρ(ε = 1) = 18.2 (Δ0 = 1), where two releases disagree most."""
    return [[[f"w{i}"]] for i in range(120) for _ in range(8 + i % 9)]


def _s1(users, epsilon, seed):
    return dpcore.dpne_extract(
        users, epsilon=epsilon, delta=1e-5, max_length=1, contribution_limit=1, eta=0.05, rng=seed
    ).ngrams[1]


def test_one_seed_no_longer_nests_the_releases_at_two_epsilons(one_word_users):
    runs = 100
    same = sum(_s1(one_word_users, 1.0, s) <= _s1(one_word_users, 2.0, s) for s in range(runs))
    independent = sum(_s1(one_word_users, 1.0, s) <= _s1(one_word_users, 2.0, 10_000 + s) for s in range(runs))
    # the releases differ from run to run (else the test would mean nothing) …
    assert len({frozenset(_s1(one_word_users, 1.0, s)) for s in range(10)}) == 10
    # … and one seed now nests them no more often than independent seeds do (the bare seed: every run)
    assert same <= 80 and independent <= 80, (same, independent)
    assert abs(same - independent) <= 20, (same, independent)


def test_the_key_depends_on_every_parameter_and_on_nothing_else():
    kw = dict(
        epsilon=1.0,
        delta=1e-5,
        max_length=4,
        contribution_limit=10,
        noise_decay=1.0,
        pruning="both",
        selection="random",
        policy="weighted",
        policy_cutoff=2.0,
    )
    base = dpne_release_seed(7, **kw)
    assert 0 <= base < 2**63 and base != 7
    assert dpne_release_seed(7, **{**kw, "epsilon": 1}) == base  # ε = 1 and ε = 1.0: one release
    changed = {
        name: dpne_release_seed(7, **{**kw, name: value})
        for name, value in (
            ("epsilon", 2.0),
            ("delta", 1e-6),
            ("max_length", 5),
            ("contribution_limit", 11),
            ("noise_decay", 0.9),
            ("pruning", "single"),
            ("selection", "most-frequent"),
            ("policy", "policy"),
            ("policy_cutoff", 1.0),
        )
    }
    assert len(set(changed.values()) | {base, dpne_release_seed(8, **kw)}) == len(changed) + 2
    # η: not in the key of length 1 nor of the weighted length 2; in every later length's
    assert [eta_dependent_level(k, "weighted") for k in (1, 2, 3, 4)] == [False, False, True, True]
    assert [eta_dependent_level(k, "policy") for k in (1, 2, 3)] == [False, True, True]
    assert dpne_level_seed(base, 2, 0.01, "weighted") == dpne_level_seed(base, 2, 0.2, "weighted") == base
    assert dpne_level_seed(base, 3, 0.01, "weighted") != dpne_level_seed(base, 3, 0.2, "weighted")
    assert dpne_level_seed(base, 3, 0.01, "weighted") == release_seed(base, eta=0.01)
    assert dpne_level_seed(base, 2, 0.01, "policy") != dpne_level_seed(base, 2, 0.2, "policy")


def test_a_plan_keeps_lengths_one_and_two_across_eta_and_redraws_from_three(users):
    plan = prepare_dpne(users, epsilon=8.0, delta=1e-5, max_length=4, contribution_limit=5, rng=3)
    etas = (0.001, 0.01, 0.05, 0.2)
    runs = {eta: plan.run(eta) for eta in etas}
    s1 = {eta: r.release.ngrams[1] for eta, r in runs.items()}
    assert len({frozenset(v) for v in s1.values()}) == 1  # S₁ does not depend on η
    # length 2: one noisy histogram thresholded at ρ₂(η), which falls as η grows — nested sets, the
    # zero-weight (spurious) draws included
    for a, b in zip(etas, etas[1:]):
        assert runs[a].release.ngrams[2] <= runs[b].release.ngrams[2]
        spur_a = {tuple(r) for r in runs[a].evaluation.spurious_ids[2].tolist()}
        spur_b = {tuple(r) for r in runs[b].evaluation.spurious_ids[2].tolist()}
        assert spur_a <= spur_b
    assert runs[0.2].evaluation.levels[1].sampled_zero_weight > 0  # the zero-weight draw took part
    # the plan is a shortcut only: each η's run is the full run at that η, whatever the order of the runs
    again = dpcore.dpne.dpne_with_evaluation(
        users, epsilon=8.0, delta=1e-5, max_length=4, contribution_limit=5, eta=0.05, rng=3
    )
    assert again.release.ngrams == runs[0.05].release.ngrams


def test_length_three_noise_is_redrawn_for_each_eta(users, monkeypatch):
    """The histograms from length 3 on depend on η (S₂(η) decides the valid set and users' selections), so
    their noise is drawn with η in the key: the standard normals of one item differ between two η."""
    dpne_selection = importlib.import_module("dpcore.dpne.selection")
    seen = {}
    real = dpne_selection._noisy_values

    def spy(hist, sigma, seed, k, item_keys):
        seen.setdefault(k, []).append(seed)
        return real(hist, sigma, seed, k, item_keys)

    monkeypatch.setattr(dpne_selection, "_noisy_values", spy)
    plan = prepare_dpne(users, epsilon=8.0, delta=1e-5, max_length=3, contribution_limit=5, rng=3)
    for eta in (0.01, 0.2):
        plan.run(eta)
    assert len(seen[2]) == 1 and len(set(seen[3])) == 2  # length 2 drawn once (in the plan), length 3 per η
    assert seen[2][0] not in seen[3]


# ------------------------------------------------------------------------------ the zero-weight draw


@pytest.mark.parametrize("n, p", [(50, 0.1), (1000, 0.003), (10**9, 2e-8), (20_000, 0.6)])
def test_uniform_count_below_has_binomial_marginals(n, p):
    counts = np.array([_uniform_count_below(n, p, np.random.default_rng(s)) for s in range(3000)])
    mean, var = n * p, n * p * (1 - p)
    assert abs(counts.mean() - mean) < 5 * np.sqrt(var / counts.size) + 1e-9
    assert counts.var() == pytest.approx(var, rel=0.15)
    if n <= 1000:  # the whole law, bin by bin
        for c in range(int(mean) + 3):
            assert np.mean(counts == c) == pytest.approx(binom.pmf(c, n, p), abs=0.03)


def test_uniform_count_below_is_the_joint_law_of_one_set_of_uniforms():
    """For p₁ < p₂ from one generator: N(p₁) ≤ N(p₂), and N(p₂) − N(p₁) given N(p₁) is
    Binomial(n − N(p₁), (p₂ − p₁)/(1 − p₁)) — what thresholding the same n uniforms gives."""
    n, p1, p2 = 400, 0.01, 0.05
    pairs = np.array(
        [
            (
                _uniform_count_below(n, p1, np.random.default_rng(s)),
                _uniform_count_below(n, p2, np.random.default_rng(s)),
            )
            for s in range(4000)
        ]
    )
    assert np.all(pairs[:, 0] <= pairs[:, 1])
    q = (p2 - p1) / (1 - p1)
    for c in (2, 4, 6):
        rows = pairs[pairs[:, 0] == c]
        assert rows.shape[0] > 200
        assert np.mean(rows[:, 1] - c) == pytest.approx((n - c) * q, abs=4 * np.sqrt((n - c) * q / rows.shape[0]))
    # and not the quantile coupling: the increment is independent of N(p₁) beyond the (n − N(p₁)) factor
    direct = np.array([(np.random.default_rng(s).random(n) < p1).sum() for s in range(4000)])
    assert abs(pairs[:, 0].mean() - direct.mean()) < 0.2


@pytest.mark.parametrize("size_case", ["enumerated", "rejection"])
def test_zero_weight_draws_are_nested_across_thresholds_and_uniform(size_case, monkeypatch):
    dpne_space = importlib.import_module("dpcore.dpne.space")
    if size_case == "rejection":
        monkeypatch.setattr(dpne_space, "_ENUMERATE_LIMIT", 10)
    space = _ValidSpace("both", 40, 40)  # V₂ = S₁ × S₁ = 1,600 k-grams
    support = np.sort(np.random.default_rng(0).choice(space.size, 100, replace=False))
    n_zero = space.size - support.size
    drawn = {p: zero_weight_draw(space, 11, 2, n_zero, p, support) for p in (0.002, 0.01, 0.05, 0.2)}
    ps = sorted(drawn)
    for a, b in zip(ps, ps[1:]):
        assert np.array_equal(drawn[b][: drawn[a].size], drawn[a])  # a prefix: nested sets
    for d in drawn.values():
        assert np.unique(d).size == d.size and not np.isin(d, support).any()
    # uniform over the zero-weight k-grams: every one equally likely to be taken first
    firsts = np.array([zero_weight_draw(space, s, 2, n_zero, 0.2, support)[0] for s in range(4000)])
    hits = np.bincount(np.searchsorted(np.setdiff1d(np.arange(space.size), support), firsts), minlength=n_zero)
    assert hits.max() < 15 and np.count_nonzero(hits) > 0.85 * n_zero  # 4000 draws over 1,500: mean 2.7
    assert level_generator(11, 2).random() != level_generator(11, 2, 5).random()  # count and order: two streams
