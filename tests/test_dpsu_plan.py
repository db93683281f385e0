"""Issue 29 item 1: the DPSU baselines' selection apart from their noise (dpcore.dpne.dpsu_plan, DpneSpec version 2).

What is proved here:

* the released sets have the same distribution as the one-shot functions' (per-k-gram release frequencies over
  many seeds, a two-sample test with a union bound over the k-grams), and the same test rejects a release whose
  noise is too small and one whose selection is shared across seeds;
* a brute-force recomputation of each user's kept items gives the plan's histogram, and every user's contribution
  has ℓ2 norm ≤ 1 (the privacy argument: it holds for any data-independent selection);
* two ε draw independent noise; the selection is the same at every ε (it is salted without ε and δ);
* DPNE's selection priorities are keyed by the selection's own seed, its noise by every parameter.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

from dpcore.dpne import dpne_release_seed, dpne_selection_seed, prepare_dpne
from dpcore.dpne.baselines import dpsu_all, dpsu_even, dpsu_single
from dpcore.dpne.dpsu_plan import DPSU_VARIANTS, prepare_dpsu
from dpcore.dpne.selection import _kept_pairs
from dpcore.specs import DpneSpec
from dpcore.text.ngrams import build_ngram_index, encode_users

ONE_SHOT = {"DPSU-all": dpsu_all, "DPSU-even": dpsu_even, "DPSU-single": dpsu_single}
KW = dict(max_length=2, contribution_limit=3)
EPS, DELTA = 2.0, 1e-3
SEEDS = 300
ALPHA = 1e-3  # the family-wise false-alarm rate of one comparison


@pytest.fixture(scope="module")
def index():
    """150 users over a 40-word Zipf vocabulary, 3 sentences of 2–5 words: most hold more than Δ0 = 3 items, and
    ~20 k-grams are released with a probability between 5 % and 95 % at (ε, δ) = (2, 1e-3)."""
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(40)]
    p = 1.0 / np.arange(1, 41) ** 1.1
    p /= p.sum()
    users = [
        [[words[j] for j in rng.choice(40, size=int(rng.integers(2, 6)), p=p)] for _ in range(3)] for _ in range(150)
    ]
    return build_ngram_index(encode_users(users), 2)


def _frequencies(release_of_seed) -> dict:
    counts: dict = {}
    for s in range(SEEDS):
        for grams in release_of_seed(s).ngrams.values():
            for g in grams:
                counts[g] = counts.get(g, 0) + 1
    return counts


def _max_z(a: dict, b: dict) -> tuple[float, float, int]:
    """The largest two-proportion z over the k-grams either released, the union-bound critical value for ALPHA,
    and how many k-grams have a pooled frequency strictly between 0 and 1 (the ones that can differ)."""
    keys = sorted(set(a) | set(b))
    pa = np.array([a.get(g, 0) for g in keys]) / SEEDS
    pb = np.array([b.get(g, 0) for g in keys]) / SEEDS
    pool = (pa + pb) / 2
    se = np.sqrt(2 * pool * (1 - pool) / SEEDS)
    live = se > 0
    z = np.abs(pa - pb)[live] / se[live]
    crit = float(norm.isf(ALPHA / 2 / max(int(live.sum()), 1)))  # Bonferroni: valid under any dependence
    return float(z.max()), crit, int(((pool > 0.05) & (pool < 0.95)).sum())


def _old(index, name):
    return _frequencies(
        lambda s: ONE_SHOT[name](index, epsilon=EPS, delta=DELTA, rng=np.random.default_rng([s, 1]), **KW)
    )


def _new(index, name, *, eps=EPS, shared_selection=False):
    def run(s):
        plan = prepare_dpsu(index, variant=name, rng=np.random.default_rng([0 if shared_selection else s, 2]), **KW)
        return plan.release(epsilon=eps, delta=DELTA, rng=np.random.default_rng([s, 3]))

    return _frequencies(run)


@pytest.mark.parametrize("name", DPSU_VARIANTS)
def test_release_distribution_is_unchanged(index, name):
    """Per-k-gram release frequency over 300 seeds: the plan's path against the one-shot path (independent draws)."""
    z, crit, informative = _max_z(_old(index, name), _new(index, name))
    assert informative >= 10, f"{name}: only {informative} k-grams with a release probability in (5 %, 95 %)"
    assert z < crit, f"{name}: a k-gram's release frequency differs from the one-shot path (z = {z:.2f} ≥ {crit:.2f})"


def test_the_distribution_test_detects_a_change(index):
    """The same test, the same sample size, rejects (a) noise 23 % too small (the release of ε·1.3 passed off as ε)
    and (b) one selection shared by every seed — so the test above would fail if the distribution had changed."""
    old = _old(index, "DPSU-single")
    z, crit, _ = _max_z(old, _new(index, "DPSU-single", eps=EPS * 1.3))
    assert z > crit, f"smaller noise not detected (z = {z:.2f} < {crit:.2f})"
    z, crit, _ = _max_z(old, _new(index, "DPSU-single", shared_selection=True))
    assert z > crit, f"a selection shared across seeds not detected (z = {z:.2f} < {crit:.2f})"


@pytest.mark.parametrize("selection", ["random", "most-frequent"])
@pytest.mark.parametrize("name", DPSU_VARIANTS)
def test_histogram_is_a_sum_of_unit_norm_contributions(index, name, selection):
    """Brute force: redraw each part's kept items with the plan's generator (same stream), add 1/√|kept| per kept
    item user by user in Python, and compare with the plan's support and weights; every user's vector has ℓ2 norm
    ≤ 1 (= 1 for a user with an item) whatever the selection draws were."""
    T, limit = KW["max_length"], KW["contribution_limit"]
    for seed in (0, 1, 2):
        plan = prepare_dpsu(index, variant=name, selection=selection, rng=np.random.default_rng([seed, 9]), **KW)
        rng = np.random.default_rng([seed, 9])
        groups = [(1, 2)] if name == "DPSU-all" else [(1,), (2,)]
        for part, lengths in zip(plan.parts, groups):
            levs = [index.level(k) for k in lengths]
            offsets = np.cumsum([0] + [lev.n_grams for lev in levs])
            pu = np.concatenate([lev.pair_user for lev in levs]).astype(np.int64)
            pi = np.concatenate([lev.pair_gram.astype(np.int64) + offsets[j] for j, lev in enumerate(levs)])
            pc = np.concatenate([lev.pair_count for lev in levs])
            part_limit = limit * (T if name == "DPSU-all" else 1)  # the levels' pairs concatenated: the plan's order
            users, items, _ = _kept_pairs(pu, pi, pc, part_limit, selection, rng)
            hist = np.zeros(part.n_items)
            for u in np.unique(users):
                mine = items[users == u]
                vec = np.full(mine.size, 1.0 / np.sqrt(mine.size))
                assert mine.size <= part_limit and np.isclose(np.sqrt(vec @ vec), 1.0)
                hist[mine] += vec
            support = np.flatnonzero(hist > 0)
            assert np.array_equal(support, part.support)
            np.testing.assert_allclose(hist[support], part.weights, rtol=1e-12)


def test_two_epsilons_draw_independent_noise_and_share_the_selection(index):
    spec = DpneSpec(seed=5, max_length=2, contribution_limit=3)
    plans = spec.dpsu_plans(index)
    again = spec.replace(epsilon=1.0, delta=1e-5).dpsu_plans(index)
    for name in DPSU_VARIANTS:  # the selection: the same at another (ε, δ)
        for a, b in zip(plans[name].parts, again[name].parts):
            assert np.array_equal(a.support, b.support) and np.array_equal(a.weights, b.weights)
    plan = plans["DPSU-single"]
    standardized = {}
    for eps in (1.0, 2.0):
        s = spec.replace(epsilon=eps)
        sigma, _ = plan.scales(eps, s.delta)
        draws = plan.noisy(eps, s.delta, rng=s.rng(*s.baseline_noise_salt("DPSU-single")))
        standardized[eps] = np.concatenate(
            [(noisy - part.weights) / sigma for part, (_, noisy) in zip(plan.parts, draws)]
        )
    z1, z2 = standardized[1.0], standardized[2.0]
    assert z1.size > 200
    assert abs(np.corrcoef(z1, z2)[0, 1]) < 4 / np.sqrt(z1.size)  # independent (a shared stream gives 1)
    assert abs(z1.mean()) < 4 / np.sqrt(z1.size) and abs(z1.std() - 1) < 0.15  # N(0, 1)
    same = spec.replace(epsilon=1.0)
    again_z = plan.noisy(1.0, same.delta, rng=same.rng(*same.baseline_noise_salt("DPSU-single")))
    sigma, _ = plan.scales(1.0, same.delta)
    assert np.array_equal(np.concatenate([(n - p.weights) / sigma for p, (_, n) in zip(plan.parts, again_z)]), z1)


def test_salts_noise_by_every_parameter_selection_by_its_own():
    spec = DpneSpec(seed=3)
    for name in DPSU_VARIANTS:
        base_noise, base_sel = spec.baseline_noise_salt(name), spec.baseline_selection_salt(name)
        for field, value in (("epsilon", 2.0), ("delta", 1e-5), ("max_length", 4), ("contribution_limit", 7)):
            other = spec.replace(**{field: value})
            assert other.baseline_noise_salt(name) != base_noise, field
            changes_selection = field in ("max_length", "contribution_limit")
            assert (other.baseline_selection_salt(name) != base_sel) == changes_selection, field
        for field, value in (("selection", "most-frequent"), ("policy", "policy")):
            other = spec.replace(**{field: value})
            assert other.baseline_noise_salt(name) != base_noise and other.baseline_selection_salt(name) != base_sel
    assert len({spec.baseline_noise_salt(n) for n in DPSU_VARIANTS}) == 3
    assert len({spec.baseline_selection_salt(n) for n in DPSU_VARIANTS}) == 3


def test_policy_gaussian_plan_releases_like_the_one_shot_path(index):
    """The Policy Gaussian (its histogram depends on ε through Γ = ρ + 2σ): the plan keeps the kept pairs and the
    order, and the release at ε equals the one-shot path's for the same draws of selection, order and noise."""
    kw = dict(KW, policy="policy")
    for name in DPSU_VARIANTS:
        plan = prepare_dpsu(index, variant=name, rng=np.random.default_rng(1), **kw)
        rel = plan.release(epsilon=EPS, delta=DELTA, rng=np.random.default_rng(2))
        assert rel.name == name and rel.sigmas and set(rel.ngrams) == {1, 2}
        again = plan.release(epsilon=EPS, delta=DELTA, rng=np.random.default_rng(2))
        assert rel.ngrams == again.ngrams  # deterministic given the plan and the noise generator


def test_dpne_selection_is_keyed_apart_from_its_noise(index):
    """DPNE: the selection priorities come from dpne_selection_seed (seed, Δ0, rule), the noise from the release
    seed (every parameter): two ε give other keys for the noise and the same for the selection; the version-1
    keying (selection_key="release") is still the noise's key, and it changes the release."""
    a = dpne_selection_seed(7, contribution_limit=3, selection="random")
    assert a == dpne_selection_seed(7, contribution_limit=3, selection="random")
    assert a != dpne_selection_seed(7, contribution_limit=4, selection="random")
    assert a != dpne_selection_seed(8, contribution_limit=3, selection="random")
    n1 = dpne_release_seed(7, epsilon=1.0, delta=1e-5, max_length=2, contribution_limit=3)
    n2 = dpne_release_seed(7, epsilon=2.0, delta=1e-5, max_length=2, contribution_limit=3)
    assert len({a, n1, n2}) == 3
    tc = index.corpus
    kw = dict(epsilon=EPS, delta=DELTA, max_length=2, contribution_limit=1, rng=3)
    new = prepare_dpne(tc, **kw).run(0.1).release
    old = prepare_dpne(tc, **kw, selection_key="release").run(0.1).release
    assert new.ngrams != old.ngrams  # Δ0 = 1 on users with many items: the selection decides what is released
    with pytest.raises(ValueError, match="selection_key must be one of"):
        prepare_dpne(tc, **kw, selection_key="noise")


def test_dpne_unigram_is_eps_free_and_gives_the_same_release(index):
    """DPNE's length 1 before noise (DpneSpec.unigram, cached by the page): the same at every ε, δ, T; a run with it
    releases exactly what a run without it does; sharding the users does not change it; a unigram of other users,
    Δ0 or policy is refused."""
    from dpcore.dpne.unigram import _unigram_histogram

    tc = index.corpus
    spec = DpneSpec(seed=4, max_length=3, contribution_limit=2)
    uni = spec.unigram(tc)
    for eps, T in ((1.0, 2), (4.0, 3), (9.0, 3)):
        s = spec.replace(epsilon=eps, max_length=T, delta=1e-4)
        assert np.array_equal(s.unigram(tc).histogram, uni.histogram)
        with_it, without = s.prepare(tc, unigram=uni).run(0.05), s.prepare(tc).run(0.05)
        assert with_it.release.ngrams == without.release.ngrams
        assert with_it.evaluation.levels == without.evaluation.levels
    sharded = _unigram_histogram(tc, 2, "random", uni.select_seed, shard=40)
    np.testing.assert_allclose(sharded, uni.histogram, rtol=1e-12)
    other = encode_users([[["a", "b"]], [["b", "c"]]])
    with pytest.raises(ValueError, match="same users"):
        spec.prepare(other, unigram=uni)
    with pytest.raises(ValueError, match="contribution_limit"):
        spec.replace(contribution_limit=3).prepare(tc, unigram=uni)
    with pytest.raises(ValueError, match="policy='weighted'"):
        spec.replace(policy="policy").prepare(tc, unigram=uni)
    assert spec.replace(policy="policy").unigram(tc) is None


def test_spec_salts_dpne_selection_without_epsilon(monkeypatch):
    """DpneSpec version 2 hands prepare_dpne a selection generator salted with Δ0 and the rule only (no ε, δ, T,
    c, pruning, η); the noise generator with every parameter but η. Version 1 keys the selection like the noise."""
    import dpcore.specs.dpne as module

    seen = []
    monkeypatch.setattr(module, "prepare_dpne", lambda tc, **kw: seen.append(kw))
    spec = DpneSpec(seed=2)
    for change in ({}, {"epsilon": 1.0}, {"delta": 1e-5}, {"max_length": 3}, {"noise_decay": 0.9}, {"eta": 0.1}):
        spec.replace(**change).prepare(None)
    first = seen[0]["selection_rng"].integers(0, 2**63)
    for kw in seen[1:]:
        assert kw["selection_rng"].integers(0, 2**63) == first
    assert len({kw["rng"].integers(0, 2**63) for kw in seen[:5]}) == 5  # the noise: every parameter but η
    spec.replace(contribution_limit=7).prepare(None)
    assert seen[-1]["selection_rng"].integers(0, 2**63) != first
    from dpcore.specs import Spec

    Spec.from_record({**spec.record(), "version": 1}).prepare(None)
    assert seen[-1]["selection_key"] == "release" and "selection_rng" not in seen[-1]


def test_kanonymity_coverage_from_a_cached_reference_equals_the_full_lookup(index):
    """Issue 29 item 4: the page matches a release against the K-anonymous rows (cached per corpus and K) instead of
    looking it up in the whole index per ε; the coverage rows are the same, for releases of several ε."""
    from dpcore.dpne.evaluation import kanonymity_coverage, kanonymity_reference

    tc = index.corpus
    ref = kanonymity_reference(index, min_K=2, max_length=2)
    for eps in (1.0, 3.0, 9.0):
        release, evaluation = prepare_dpne(
            tc, epsilon=eps, delta=1e-4, max_length=2, contribution_limit=3, rng=int(eps)
        ).run(0.1)
        for released in (release, evaluation.ids):
            full = kanonymity_coverage(index, released, ks=[2, 5, 10], max_length=2)
            fast = kanonymity_coverage(index, released, ks=[2, 5, 10], max_length=2, reference=ref)
            assert _nan_free(fast.rows) == _nan_free(full.rows)
        assert any(r["covered"] for r in full.rows)
    with pytest.raises(ValueError, match="must cover K"):
        kanonymity_coverage(index, release, ks=[1], max_length=2, reference=ref)


def _nan_free(rows):
    return [{**r, "share": None if r["share"] != r["share"] else r["share"]} for r in rows]
