"""dpcore.dpne: accounting check values, DPNE properties (003 Props. 2.1, 2.2), baselines, coverage."""

import dataclasses
import importlib
import math
from itertools import product

import numpy as np
import pytest
from scipy import stats

import dpcore
from dpcore.dpne import (
    count_valid_kgrams,
    dpne_extract,
    dpne_noise_scales,
    dpne_with_evaluation,
    dpsu_all,
    dpsu_even,
    dpsu_single,
    dpsu_threshold,
    dpsu_threshold_for_sigma,
    kanonymity_coverage,
    spurious_threshold,
)
from dpcore.text.ngrams import build_ngram_index, encode_users

# the package exports the function dpne, which shadows the module name on the package
dpne_selection = importlib.import_module("dpcore.dpne.selection")
dpne_space = importlib.import_module("dpcore.dpne.space")


def naive_union(users, k):
    return {tuple(s[i : i + k]) for sentences in users for s in sentences for i in range(len(s) - k + 1)}


def naive_user_counts(users, k):
    counts = {}
    for sentences in users:
        for g in {tuple(s[i : i + k]) for s in sentences for i in range(len(s) - k + 1)}:
            counts[g] = counts.get(g, 0) + 1
    return counts


def phrase_corpus(seed, n_users=300, vocab=12, n_phrases=25, per_user=3):
    """Users who each write a few sentences drawn from a fixed pool of phrases (known truth)."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    phrases = [[words[j] for j in rng.integers(0, vocab, size=int(rng.integers(3, 7)))] for _ in range(n_phrases)]
    return [[phrases[j] for j in rng.integers(0, n_phrases, size=per_user)] for _ in range(n_users)]


# ---------------------------------------------------------------------------------------------- accounting


def test_dpsu_threshold_spec_check_values():
    sigma, rho = dpsu_threshold(epsilon=3, delta=math.exp(-10), contribution_limit=10)
    assert sigma == pytest.approx(1.3328, abs=5e-5)
    assert rho == pytest.approx(6.4353, abs=5e-5)
    sigma, rho = dpsu_threshold(epsilon=1, delta=1e-5, contribution_limit=10)
    assert sigma == pytest.approx(3.8841, abs=5e-5)
    assert rho == pytest.approx(19.316, abs=5e-4)


def test_dpsu_threshold_is_the_full_max_over_t():
    # (1, 1e-5, 10): the max sits at t = 10, not at t = 1; the 1-term value is smaller.
    sigma, rho = dpsu_threshold(epsilon=1, delta=1e-5, contribution_limit=10)
    only_t1 = 1.0 + sigma * stats.norm.ppf(1 - 1e-5 / 2)
    assert rho > only_t1 + 1.0
    # brute force with scipy, t by t
    values = [1 / math.sqrt(t) + sigma * stats.norm.isf(1 - (1 - 1e-5 / 2) ** (1 / t)) for t in range(1, 11)]
    assert rho == pytest.approx(max(values), rel=1e-9)


@pytest.mark.parametrize("c", [0.8, 1.0, 1.2])
@pytest.mark.parametrize("T", [1, 3, 9])
def test_noise_split_composes_to_sigma(c, T):
    sigma, sigmas = dpne_noise_scales(epsilon=4, delta=1e-7, max_length=T, noise_decay=c)
    assert sigma == pytest.approx(dpcore.gaussian_sigma(epsilon=4, delta=0.5e-7, method="analytic"), rel=1e-12)
    assert np.sum(1 / sigmas**2) == pytest.approx(1 / sigma**2, rel=1e-12)
    assert np.allclose(sigmas[1:] / sigmas[:-1], c)
    assert dpcore.mechanisms.gaussian_composition_sigma(sigmas) == pytest.approx(sigma, rel=1e-12)
    if c == 1.0:
        assert np.allclose(sigmas, sigma * math.sqrt(T))


def test_spurious_threshold_passes_eta_share_of_zero_weight_items():
    rho = spurious_threshold(2.0, 0.05, 10, 400)
    assert 1 - stats.norm.cdf(rho / 2.0) == pytest.approx(0.05 * 10 / 400, rel=1e-9)
    rho = spurious_threshold(2.0, 0.05, 400, 10)  # min(1, ·) caps the ratio
    assert 1 - stats.norm.cdf(rho / 2.0) == pytest.approx(0.05, rel=1e-9)


# ---------------------------------------------------------------------------------------------- |V_k|


def brute_force_valid(prev, ones, pruning):
    cands = {s + t for s in prev for t in ones}
    if pruning == "single":
        return cands
    return {w for w in cands if w[1:] in prev}  # (S_{k-1} x S_1) ∩ (S_1 x S_{k-1})


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("pruning", ["both", "single"])
def test_valid_count_exact_against_enumeration(seed, pruning):
    rng = np.random.default_rng(seed)
    ones = {(f"t{i}",) for i in range(int(rng.integers(1, 6)))}
    letters = [o[0] for o in ones]
    k1 = int(rng.integers(1, 4))
    prev = {tuple(rng.choice(letters, size=k1)) for _ in range(int(rng.integers(1, 15)))}
    if k1 == 1:
        prev = {p for p in prev} | set()
    assert count_valid_kgrams(prev, ones, pruning=pruning) == len(brute_force_valid(prev, ones, pruning))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("pruning", ["both", "single"])
def test_dpne_valid_counts_and_pruning_rule_against_brute_force(seed, pruning):
    """|V_k| inside DPNE equals brute-force enumeration from its own released sets, and every released
    k-gram (spurious or not) lies in V_k: for both sides the output is downward closed (Prop. 2.1)."""
    users = phrase_corpus(seed, n_users=120, vocab=6, n_phrases=12)
    res = dpne_extract(
        users, epsilon=6, delta=1e-6, max_length=6, contribution_limit=8, eta=0.3, pruning=pruning, rng=seed
    )
    S = res.ngrams
    assert S[1] <= naive_union(users, 1)  # no spurious 1-grams
    assert S[2] and S[3], "the checks below need released 2- and 3-grams"
    for k in range(2, 7):
        if not S[k - 1]:
            assert not S[k]
            continue
        valid = brute_force_valid(S[k - 1], S[1], pruning)
        assert res.valid_counts[k] == len(valid)
        assert S[k] <= valid
    if pruning == "both":
        for k in range(2, 7):
            for w in S[k]:
                assert w[:-1] in S[k - 1] and w[1:] in S[k - 1]
                assert all((t,) in S[1] for t in w)


def test_downward_closed_with_many_spurious_both_sides():
    users = phrase_corpus(11, n_users=200, vocab=5, n_phrases=10)
    n_checked = 0
    for seed in range(10):
        res, ev = dpne_with_evaluation(
            users, epsilon=8, delta=1e-6, max_length=7, contribution_limit=10, eta=0.5, rng=seed
        )
        S = res.ngrams
        n_checked += sum(len(S[k]) for k in range(3, 8)) + ev.total_spurious
        for k in range(2, 8):
            for w in S[k]:
                for i in range(k):
                    for j in range(i + 1, k + 1):
                        if j - i < k:
                            assert w[i:j] in S[j - i]
    assert n_checked > 50


def test_valid_space_sampling_is_uniform_over_valid_kgrams():
    # S_2 over tokens {0,1,2}: prefix/suffix pairs; V_3 = overlapping pairs of S_2.
    s2 = [(0, 1), (1, 2), (1, 0), (2, 2), (0, 0)]
    a = np.array([p[0] for p in s2])
    b = np.array([p[1] for p in s2])
    space = dpne_space._ValidSpace("both", len(s2), 3, a, b, 3)
    brute = {(i, j) for i, j in product(range(5), range(5)) if s2[i][1] == s2[j][0]}
    assert space.size == len(brute)
    keys = space.enumerate()
    assert {(int(x) // 5, int(x) % 5) for x in keys} == brute and keys.size == len(brute)
    draws = space.sample(60_000, np.random.default_rng(0))
    pairs, counts = np.unique(draws, return_counts=True)
    assert {(int(x) // 5, int(x) % 5) for x in pairs} == brute
    assert stats.chisquare(counts).pvalue > 1e-4


def test_rejection_sampling_path_excludes_support_and_repeats(monkeypatch):
    monkeypatch.setattr(dpne_space, "_ENUMERATE_LIMIT", 0)
    space = dpne_space._ValidSpace("single", 30, 40)
    support = np.sort(np.random.default_rng(1).choice(space.size, size=200, replace=False))
    got = dpne_space._sample_zero_weight(space, space.size - 200, 300, support, np.random.default_rng(2))
    assert got.size == 300 == np.unique(got).size
    assert not np.isin(got, support).any()
    assert ((got >= 0) & (got < space.size)).all()


# ---------------------------------------------------------------------------------------------- spurious


@pytest.mark.parametrize("pruning", ["both", "single"])
def test_mean_spurious_stays_under_eta_bound(pruning):
    """003 Prop. 2.2 with ρ_k from η: E[spurious_k] ≤ η·min(|S_{k−1}|, |V_k|). Truth is known: a released
    k-gram is spurious iff no user wrote it (checked here independently of DPNE's own diagnostics)."""
    users = phrase_corpus(3, n_users=300, vocab=12, n_phrases=25)
    truth = {k: naive_union(users, k) for k in range(1, 5)}
    tc = encode_users(users)
    eta, n_seeds = 0.2, 150
    spur = np.zeros((n_seeds, 3))
    bound = np.zeros((n_seeds, 3))
    for s in range(n_seeds):
        res, ev = dpne_with_evaluation(
            tc, epsilon=5, delta=1e-6, max_length=4, contribution_limit=5, eta=eta, pruning=pruning, rng=s
        )
        for k in range(2, 5):
            spurious = res.ngrams[k] - truth[k]
            spur[s, k - 2] = len(spurious)
            if len(ev.levels) >= k:
                assert len(spurious) == ev.levels[k - 1].spurious
            if k in res.valid_counts and res.ngrams[k - 1]:
                bound[s, k - 2] = eta * min(len(res.ngrams[k - 1]), res.valid_counts[k])
    se = spur.std(axis=0, ddof=1) / math.sqrt(n_seeds)
    assert np.all(spur.mean(axis=0) <= bound.mean(axis=0) + 3 * se + 1e-12), (spur.mean(0), bound.mean(0))
    # Not vacuous: the implicit zero-weight sampling does produce spurious k-grams at this η.
    assert spur[:, 0].mean() > 0.2 * bound[:, 0].mean() > 0


def test_spurious_kgrams_satisfy_pruning_rule_and_are_unused():
    users = phrase_corpus(5, n_users=150, vocab=8, n_phrases=15)
    for pruning in ("both", "single"):
        n_spur = 0
        for seed in range(20):
            res, ev = dpne_with_evaluation(
                users, epsilon=5, delta=1e-6, max_length=5, contribution_limit=6, eta=0.4, pruning=pruning, rng=seed
            )
            S = res.ngrams
            for k in range(2, 6):
                spurious = ev.spurious_ngrams()[k]
                assert spurious == S[k] - naive_union(users, k)
                for w in spurious:
                    n_spur += 1
                    assert w[:-1] in S[k - 1] and (w[-1],) in S[1]
                    if pruning == "both":
                        assert w[1:] in S[k - 1]
        assert n_spur > 0  # the check above ran on real spurious k-grams


# ---------------------------------------------------------------------------------------------- behaviour


def test_shared_phrase_released_and_unique_text_not():
    shared = ["please", "find", "the", "attached", "report", "today"]
    users = [[shared, ["thanks", f"name{i}"]] for i in range(400)]
    users.append([["my", "bank", "pin", "is", "4921", "seriously"]])
    big = dpne_extract(users, epsilon=10, delta=1e-6, max_length=6, contribution_limit=10, eta=0.01, rng=0)
    assert tuple(shared) in big.ngrams[6]
    secret = {"my", "bank", "pin", "4921", "seriously"}
    for seed in range(20):
        small = dpne_extract(users, epsilon=0.5, delta=1e-6, max_length=6, contribution_limit=10, eta=0.01, rng=seed)
        released_words = {w for k, grams in small.ngrams.items() for g in grams for w in g}
        assert not (released_words & secret)
        assert not any(g[0].startswith("name") for g in small.ngrams[1])


def test_result_carries_guarantee_parameters_and_no_counts():
    users = phrase_corpus(0, n_users=100)
    res, ev = dpne_with_evaluation(users, epsilon=4, delta=1e-7, max_length=4, contribution_limit=5, eta=0.05, rng=1)
    assert res.guarantee.kind == dpcore.guarantees.APPROXIMATE_DP and res.guarantee.is_dp
    assert (res.guarantee.epsilon, res.guarantee.delta) == (res.epsilon, res.delta)
    assert set(res.ngrams) == {1, 2, 3, 4}
    assert all(
        all(isinstance(g, tuple) and len(g) == k and all(isinstance(w, str) for w in g) for g in res.ngrams[k])
        for k in res.ngrams
    )
    assert set(res.sigmas) == {1, 2, 3, 4}
    assert res.thresholds[1] == pytest.approx(
        dpsu_threshold_for_sigma(sigma=res.sigmas[1], delta=1e-7, contribution_limit=5)
    )
    assert "evaluation only" in ev.label
    # the evaluation's token-id rows are the same sets, one row per released k-gram
    for k, rows in ev.ids.items():
        assert rows.dtype.kind == "i" and rows.shape == (len(res.ngrams[k]), k)
        assert {tuple(r) for r in ev.vocabulary[rows].tolist()} == res.ngrams[k]
    # the release holds the sets and public parameters only: no counts, no encoder, no diagnostics
    released_fields = {f.name for f in dataclasses.fields(res)}
    assert not released_fields & {
        "counts",
        "weights",
        "histogram",
        "noisy_counts",
        "ids",
        "vocabulary",
        "evaluation",
        "corpus",
    }
    # dpne() is the release of the same draw
    assert (
        dpne_extract(users, epsilon=4, delta=1e-7, max_length=4, contribution_limit=5, eta=0.05, rng=1).ngrams
        == res.ngrams
    )


def test_same_seed_same_release_and_seed_matters():
    users = phrase_corpus(2, n_users=200, vocab=10)
    kw = dict(epsilon=3, delta=1e-6, max_length=5, contribution_limit=4, eta=0.3)
    a, b = dpne_extract(users, rng=7, **kw), dpne_extract(users, rng=7, **kw)
    assert a.ngrams == b.ngrams
    outs = [dpne_extract(users, rng=s, **kw).ngrams for s in range(6)]
    assert any(o != outs[0] for o in outs[1:])


def test_early_stop_at_first_empty_level():
    users = [[["a", "b"]] for _ in range(300)] + [[["c"]]]
    res, ev = dpne_with_evaluation(users, epsilon=5, delta=1e-6, max_length=5, contribution_limit=2, eta=0.01, rng=0)
    assert res.ngrams[2] == {("a", "b")}
    assert res.ngrams[3] == set() and res.ngrams[4] == set() and res.ngrams[5] == set()
    assert [d.k for d in ev.levels] == [1, 2, 3]


def test_contribution_limit_random_and_most_frequent():
    # user 0: 5 items with counts 5,4,3,2,1; user 1: 2 items
    pu = np.array([0, 0, 0, 0, 0, 1, 1])
    pi = np.array([0, 1, 2, 3, 4, 0, 5])
    pc = np.array([5, 4, 3, 2, 1, 1, 1])
    rng = np.random.default_rng(0)
    items, w = dpne_selection._limit_contributions(pu, pi, pc, 3, "most-frequent", rng)
    assert sorted(items.tolist()) == [0, 0, 1, 2, 5]
    assert np.allclose(np.sort(w), np.sort([1 / math.sqrt(3)] * 3 + [1 / math.sqrt(2)] * 2))
    seen = set()
    for s in range(200):
        items, w = dpne_selection._limit_contributions(pu, pi, pc, 3, "random", np.random.default_rng(s))
        user0 = items[:3] if items.size == 5 else None
        assert items.size == 5
        seen.add(tuple(sorted(user0.tolist())))
        # per-user ℓ2 norm of the contribution is 1
        assert np.isclose((w[:3] ** 2).sum(), 1) and np.isclose((w[3:] ** 2).sum(), 1)
    assert len(seen) == 10  # all C(5, 3) subsets occur


def test_selection_most_frequent_runs_and_is_validated():
    users = phrase_corpus(4, n_users=150)
    res = dpne_extract(
        users, epsilon=4, delta=1e-6, max_length=4, contribution_limit=3, eta=0.05, rng=0, selection="most-frequent"
    )
    assert res.selection == "most-frequent" and res.ngrams[1]
    with pytest.raises(ValueError, match=r"selection must be one of 'random', 'most-frequent', got selection='top'"):
        dpne_extract(users, epsilon=4, delta=1e-6, max_length=4, contribution_limit=3, eta=0.05, rng=0, selection="top")


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"epsilon": -1}, ValueError, r"epsilon must be > 0, got epsilon=-1"),
        ({"epsilon": float("nan")}, ValueError, r"epsilon must be a number, got epsilon=nan"),
        ({"delta": 1.5}, ValueError, r"delta must be < 1, got delta=1.5"),
        ({"eta": 1.0}, ValueError, r"eta must be < 1, got eta=1.0"),
        ({"eta": 0}, ValueError, r"eta must be > 0, got eta=0"),
        ({"max_length": 0}, ValueError, r"max_length must be >= 1, got max_length=0"),
        (
            {"contribution_limit": 2.5},
            ValueError,
            r"contribution_limit must be a whole number, got contribution_limit=2.5",
        ),
        ({"contribution_limit": "10"}, TypeError, r"contribution_limit must be an integer"),
        ({"noise_decay": 0}, ValueError, r"noise_decay must be > 0, got noise_decay=0"),
        ({"pruning": "left"}, ValueError, r"pruning must be one of 'both', 'single', got pruning='left'"),
        ({"rng": "seed"}, TypeError, r"rng must be a numpy.random.Generator or an int seed"),
    ],
)
def test_validation_messages_name_parameter_rule_value(kwargs, exc, message):
    params = dict(epsilon=1, delta=1e-6, max_length=3, contribution_limit=5, eta=0.1, rng=0)
    params.update(kwargs)
    with pytest.raises(exc, match=message):
        dpne_extract([[["a", "b"]]], **params)


def test_dpsu_threshold_validation():
    with pytest.raises(ValueError, match=r"contribution_limit must be >= 1, got contribution_limit=0"):
        dpsu_threshold(epsilon=1, delta=1e-5, contribution_limit=0)
    with pytest.raises(ValueError, match=r"delta must be > 0, got delta=0"):
        dpsu_threshold(epsilon=1, delta=0, contribution_limit=10)


# ---------------------------------------------------------------------------------------------- baselines


def test_baselines_release_only_real_kgrams_with_their_accounting():
    users = phrase_corpus(8, n_users=300, vocab=10, n_phrases=20)
    index = build_ngram_index(users, 5)
    kw = dict(epsilon=4, delta=1e-7, max_length=5, contribution_limit=5, rng=0)
    sigma = dpcore.gaussian_sigma(epsilon=4, delta=0.5e-7, method="analytic")
    allr, even, single = dpsu_all(index, **kw), dpsu_even(index, **kw), dpsu_single(index, **kw)
    for rel in (allr, even, single):
        for k in range(1, 6):
            assert rel.ngrams[k] <= naive_union(users, k), rel.name
    assert allr.sigmas[3] == pytest.approx(sigma) and allr.contribution_limit == 25
    assert allr.thresholds[1] == pytest.approx(dpsu_threshold_for_sigma(sigma=sigma, delta=1e-7, contribution_limit=25))
    assert even.sigmas[2] == pytest.approx(sigma * math.sqrt(5))
    assert even.thresholds[2] == pytest.approx(
        dpsu_threshold_for_sigma(sigma=sigma * math.sqrt(5), delta=1e-7 / 5, contribution_limit=5)
    )
    assert single.thresholds[4] == pytest.approx(dpsu_threshold(epsilon=4, delta=1e-7, contribution_limit=5)[1])
    assert "for each length separately — not for all lengths together" in single.guarantee.label
    assert single.guarantee.kind == dpcore.guarantees.APPROXIMATE_DP
    # the whole budget on one length buys at least as much as a 1/T share of it, in expectation
    assert sum(single.sizes.values()) >= sum(even.sizes.values())


def test_dpsu_single_at_huge_epsilon_releases_every_frequent_kgram():
    users = phrase_corpus(9, n_users=300, vocab=10, n_phrases=10, per_user=2)
    rel = dpsu_single(users, epsilon=200, delta=1e-3, max_length=3, contribution_limit=50, rng=0)
    for k in (1, 2, 3):
        frequent = {g for g, c in naive_user_counts(users, k).items() if c >= 20}
        assert frequent <= rel.ngrams[k]


# ---------------------------------------------------------------------------------------------- coverage


def test_kanonymity_coverage_against_naive_counts():
    users = phrase_corpus(6, n_users=250, vocab=10, n_phrases=30)
    tc = encode_users(users)
    index = build_ngram_index(tc, 4)
    res, ev = dpne_with_evaluation(tc, epsilon=2, delta=1e-6, max_length=4, contribution_limit=5, eta=0.05, rng=3)
    cov = kanonymity_coverage(index, res, ks=(10, 20, 50, 100))

    # the same coverage from the evaluation's id rows and from a mapping of string k-grams
    def key(c):  # NaN shares compare equal here
        return [(r["k"], r["K"], r["frequent"], r["covered"]) for r in c.rows]

    assert key(kanonymity_coverage(index, ev.ids, ks=(10, 20, 50, 100))) == key(cov)
    assert key(kanonymity_coverage(index, dict(res.ngrams), ks=(10, 20, 50, 100))) == key(cov)
    assert any(r["covered"] for r in cov.rows)
    assert cov.reference_label == "k-anonymity — not DP"
    for k in range(1, 5):
        counts = naive_user_counts(users, k)
        for K in (10, 20, 50, 100):
            frequent = {g for g, c in counts.items() if c >= K}  # at least K users
            row = next(r for r in cov.rows if r["k"] == k and r["K"] == K)
            assert row["frequent"] == len(frequent)
            assert row["covered"] == len(frequent & res.ngrams[k])
            if frequent:
                assert cov.share(k, K) == pytest.approx(len(frequent & res.ngrams[k]) / len(frequent))
            else:
                assert math.isnan(cov.share(k, K))
    # "at least K": a k-gram used by exactly K users counts
    exact = [[["x", "y"]] for _ in range(10)] + [[["z"]]]
    idx2 = build_ngram_index(exact, 2)
    cov2 = kanonymity_coverage(idx2, {1: idx2.level(1).grams, 2: idx2.level(2).grams}, ks=(10,))
    assert cov2.share(2, 10) == 1.0 and next(r for r in cov2.rows if r["k"] == 2)["frequent"] == 1


# ---------------------------------------------------------------------------------------------- sample corpus

# Parameters for the paper's comparison on the shipped sample corpus (003 Table 4 / Fig. 1 at ε = 4,
# δ = 1e-7). Chosen for a ~2,400-user corpus: T = 6, Δ0 = 50 (about the median number of valid
# k-grams a user holds), η = 0.01, c = 1, both-sides pruning, random selection.
SAMPLE_PARAMS = dict(epsilon=4.0, delta=1e-7, max_length=6, contribution_limit=50, eta=0.01)


def test_sample_corpus_dpne_beats_dpsu_even_on_long_ngrams():
    try:
        corpus = dpcore.load_sample_corpus("private")
    except dpcore.CorpusError:
        pytest.skip("sample corpus not generated yet")
    tc = encode_users(corpus.user_sentences())
    index = build_ngram_index(tc, SAMPLE_PARAMS["max_length"])
    long_dpne, long_even = [], []
    # On the realistic classroom corpus DPNE wins on average, not on every seed (measured: 53, 47, 58 vs
    # 49, 44, 45 for seeds 0-2), so the check is on the mean over five seeds.
    for seed in range(5):
        res = dpne_extract(tc, rng=seed, **SAMPLE_PARAMS)
        even = dpsu_even(index, rng=seed, **{k: v for k, v in SAMPLE_PARAMS.items() if k != "eta"})
        long_dpne.append(sum(n for k, n in res.sizes.items() if k >= 4))
        long_even.append(sum(n for k, n in even.sizes.items() if k >= 4))
    assert np.mean(long_dpne) > np.mean(long_even), (long_dpne, long_even)


def test_release_probability_matches_weighted_gaussian_tail():
    """P[x ∈ S_1] = Φ((H[x] − ρ_1)/σ_1) with H[x] = Σ_users 1/√|U_i| (weights, σ_1 and ρ_1 all enter)."""
    eps, delta, limit, T = 1.0, 1e-5, 5, 2
    sigma, sigmas = dpne_noise_scales(epsilon=eps, delta=delta, max_length=T)
    rho1 = dpsu_threshold_for_sigma(sigma=sigmas[0], delta=delta, contribution_limit=limit)
    n = int(round(rho1 * math.sqrt(2)))  # each of n users holds {x, own word}: weight 1/√2 each
    users = [[["x", f"own{i}"]] for i in range(n)]
    expected = stats.norm.cdf((n / math.sqrt(2) - rho1) / sigmas[0])
    assert 0.2 < expected < 0.8
    tc = encode_users(users)
    runs = 600
    hits = sum(
        ("x",)
        in dpne_extract(tc, epsilon=eps, delta=delta, max_length=T, contribution_limit=limit, eta=0.1, rng=s).ngrams[1]
        for s in range(runs)
    )
    assert abs(hits / runs - expected) < 4 * math.sqrt(expected * (1 - expected) / runs), (hits / runs, expected)


def test_accepts_corpus_token_corpus_and_index_alike():
    records = [{"user": f"u{i}", "text": "the quick brown fox. jumps over"} for i in range(80)]
    corpus = dpcore.corpus_from_records(records, user_field="user", text_field="text")
    tc = encode_users(corpus.user_sentences())
    index = build_ngram_index(tc, 3)
    kw = dict(epsilon=5, delta=1e-6, max_length=3, contribution_limit=10, eta=0.01)
    outs = [dpne_extract(x, rng=3, **kw).ngrams for x in (corpus, corpus.user_sentences(), tc, index)]
    assert all(o == outs[0] for o in outs[1:])
    assert ("the", "quick", "brown") in outs[0][3]
    assert ("fox", "jumps") not in outs[0][2]  # never across the sentence boundary


# ---------------------------------------------------------------------------------------------- Policy Gaussian


def test_policy_gaussian_histogram_steps_are_unit_l2_and_capped():
    rng = np.random.default_rng(0)
    gamma = 3.0
    # one user with 4 items at zero: the step is the gap direction with ℓ2 norm 1
    h = dpne_selection._policy_gaussian_histogram(np.zeros(4, dtype=np.int64), np.arange(4), 6, gamma, rng)
    assert np.allclose(h[:4], 0.5) and np.allclose(h[4:], 0) and math.isclose(np.linalg.norm(h), 1.0)
    # one user whose gap is shorter than 1 fills it exactly
    h = dpne_selection._policy_gaussian_histogram(np.zeros(1, dtype=np.int64), np.array([2]), 3, 0.4, rng)
    assert np.allclose(h, [0, 0, 0.4])
    # many users on one item: it climbs to Γ and stops there; the other items never exceed Γ
    users = np.repeat(np.arange(50), 2)
    items = np.tile([0, 1], 50)
    items[1::2] = np.arange(1, 51)  # item 0 shared by all, item i+1 private to user i
    h = dpne_selection._policy_gaussian_histogram(users, items, 51, gamma, rng)
    assert gamma - 1e-6 < h[0] <= gamma and np.all(h <= gamma)
    # ℓ2 sensitivity 1 (Gopi et al. 2020): with the other users in the same order, removing one user
    # moves the histogram by at most 1 in ℓ2 — checked for every user of random instances.
    worst = 0.0
    for seed in range(6):
        r = np.random.default_rng(seed)
        pairs = np.unique(np.c_[r.integers(0, 12, 90), r.integers(0, 10, 90)], axis=0)
        u, it = pairs[:, 0], pairs[:, 1]
        prio = r.random(12)
        full = dpne_selection._policy_gaussian_histogram(u, it, 10, 2.5, r, priority=prio)
        for drop in range(12):
            keep = u != drop
            part = dpne_selection._policy_gaussian_histogram(u[keep], it[keep], 10, 2.5, r, priority=prio)
            worst = max(worst, float(np.linalg.norm(full - part)))
    assert 0.3 < worst <= 1.0 + 1e-9


def test_dpne_with_policy_gaussian_is_valid_and_validated():
    users = phrase_corpus(7, n_users=200, vocab=8, n_phrases=15)
    res, ev = dpne_with_evaluation(
        users, epsilon=4, delta=1e-6, max_length=5, contribution_limit=5, eta=0.2, rng=1, policy="policy"
    )
    assert res.policy == "policy" and res.ngrams[1] and res.ngrams[2]
    S = res.ngrams
    for k in range(2, 6):
        for w in S[k]:
            assert w[:-1] in S[k - 1] and w[1:] in S[k - 1]
    for k in (1, 2):
        assert S[k] - naive_union(users, k) == ev.spurious_ngrams()[k]
    base = dpsu_even(users, epsilon=4, delta=1e-6, max_length=3, contribution_limit=5, rng=0, policy="policy")
    assert all(base.ngrams[k] <= naive_union(users, k) for k in (1, 2, 3))
    with pytest.raises(ValueError, match=r"policy must be one of 'weighted', 'policy', got policy='greedy'"):
        dpne_extract(users, epsilon=4, delta=1e-6, max_length=3, contribution_limit=5, eta=0.1, rng=0, policy="greedy")
    with pytest.raises(ValueError, match=r"policy_cutoff must be >= 0, got policy_cutoff=-1"):
        dpne_extract(
            users,
            epsilon=4,
            delta=1e-6,
            max_length=3,
            contribution_limit=5,
            eta=0.1,
            rng=0,
            policy="policy",
            policy_cutoff=-1,
        )


def test_policy_gaussian_release_probability_on_a_shared_item():
    """n users who hold only x: the Policy Gaussian pushes H[x] to min(n, Γ), then P[release] is the tail."""
    eps, delta, limit = 1.0, 1e-5, 5
    sigma, sigmas = dpne_noise_scales(epsilon=eps, delta=delta, max_length=1)
    rho = dpsu_threshold_for_sigma(sigma=sigmas[0], delta=delta, contribution_limit=limit)
    n = int(round(rho))  # below Γ = ρ + 2σ, so H[x] = n exactly
    users = [[["x"]] for _ in range(n)]
    expected = stats.norm.cdf((n - rho) / sigmas[0])
    tc = encode_users(users)
    runs = 500
    hits = sum(
        ("x",)
        in dpne_extract(
            tc, epsilon=eps, delta=delta, max_length=1, contribution_limit=limit, eta=0.1, rng=s, policy="policy"
        ).ngrams[1]
        for s in range(runs)
    )
    assert abs(hits / runs - expected) < 4 * math.sqrt(expected * (1 - expected) / runs), (hits / runs, expected)
