"""Tests for dpcore.topicdp.model and dpcore.topicdp (SPEC §5, thesis 004)."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math

import numpy as np
import pytest

import dpcore
from dpcore import topicdp as tdp
from dpcore.mechanisms.gaussian import classic_gaussian_sigma
from dpcore.text import corpus_from_records
from dpcore.topicdp import (
    LdaSettings,
    align_topics,
    aligned_matrix_distance,
    document_term_data,
    fit_topic_model,
    topic_keyword_matrix,
)
from dpcore.topicdp import fitting as tdp_tm_fit
from dpcore.topicdp import model as tdp_tm

TOPIC_WORDS = {
    "sport": "football goal match team player coach league score stadium season".split(),
    "food": "pasta pizza sauce cheese garlic oven recipe dinner tomato bread".split(),
    "money": "invoice payment bank account dollars budget price cost salary refund".split(),
}


def tiny_corpus(n_users: int = 24, seed: int = 1):
    """Users who write mostly about one of three topics, 2–4 documents each."""
    rng = np.random.default_rng(seed)
    names = list(TOPIC_WORDS)
    records = []
    for u in range(n_users):
        main, side = names[u % 3], names[(u + 1) % 3]
        for _ in range(2 + u % 3):
            words = list(rng.choice(TOPIC_WORDS[main], size=12)) + list(rng.choice(TOPIC_WORDS[side], size=3))
            records.append({"user": f"user{u:03d}", "text": " ".join(words)})
    return corpus_from_records(records, user_field="user", text_field="text", name="tiny")


TINY_LDA = LdaSettings(n_topics=3, min_df=1, max_df=1.0)
TINY_SAMPLER = tdp.SamplerSettings(sample_users=8, seed=3)
ENGINES = ["vb", "sklearn"] + (["tomotopy"] if tdp_tm.tomotopy_available() else [])


@pytest.fixture(scope="module")
def tiny_data():
    return document_term_data(tiny_corpus(), settings=TINY_LDA)


@pytest.fixture(scope="module")
def tiny_model(tiny_data):
    return fit_topic_model(tiny_data, settings=TINY_LDA)


# ------------------------------------------------------------------ sampler size (SPEC check)


@pytest.mark.parametrize("gamma, h", [(0.02, 9498), (0.05, 1305), (0.1, 285), (0.2, 61)])
def test_sampler_size_matches_spec(gamma, h):
    size = dpcore.topicdp.sensitivity_sampler_size(gamma=gamma)
    assert (size.h, size.k) == (h, h)
    assert 0 < size.rho < gamma


def test_sampler_size_satisfies_theorem_conditions():
    # 004 Thm 4.6.1: h ≥ ln(1/ρ)/(2(γ−ρ)²) and k ≥ h(1 − γ + ρ + √(ln(1/ρ)/(2h))) unless capped at h.
    for gamma in (0.01, 0.03, 0.1, 0.25, 0.3):
        h, k, rho = dpcore.topicdp.sensitivity_sampler_size(gamma=gamma)
        assert h >= math.log(1 / rho) / (2 * (gamma - rho) ** 2)
        assert k == h or k >= h * (1 - gamma + rho + math.sqrt(math.log(1 / rho) / (2 * h)))
        # ρ_s is the optimum: another ρ in (0, γ) never needs fewer pairs.
        for other in np.linspace(rho * 0.3, gamma * 0.9, 7):
            assert math.ceil(math.log(1 / other) / (2 * (gamma - other) ** 2)) >= h


def test_sampler_size_is_named_tuple():
    size = dpcore.topicdp.sensitivity_sampler_size(gamma=0.1)
    assert size._fields == ("h", "k", "rho")


@pytest.mark.parametrize(
    "bad, exc, text",
    [
        (0.0, ValueError, "gamma must be > 0, got gamma=0.0"),
        (1.0, ValueError, "gamma must be < 1, got gamma=1.0"),
        (float("nan"), ValueError, "gamma must be a number, got gamma=nan"),
        ("0.1", TypeError, "gamma must be a real number"),
    ],
)
def test_sampler_size_validation(bad, exc, text):
    with pytest.raises(exc, match=text.replace("(", r"\(").replace(")", r"\)")):
        dpcore.topicdp.sensitivity_sampler_size(gamma=bad)


# ------------------------------------------------------------------ alignment and the matrix


def test_align_topics_recovers_known_permutation():
    rng = np.random.default_rng(0)
    a = rng.dirichlet(np.ones(30), size=8)
    perm = rng.permutation(8)
    b = a[perm] + rng.normal(0, 1e-4, a.shape)  # b's row i is a's row perm[i]
    found = align_topics(a, b)
    assert np.allclose(b[found], a, atol=1e-3)
    assert np.array_equal(perm[found], np.arange(8))


def test_align_topics_is_optimal_against_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(20):
        a, b = rng.random((5, 4)), rng.random((5, 4))
        best = min(np.linalg.norm(a - b[list(p)]) for p in itertools.permutations(range(5)))
        assert np.linalg.norm(a - b[align_topics(a, b)]) == pytest.approx(best)


def test_align_topics_shape_check():
    with pytest.raises(ValueError, match="same shape"):
        align_topics(np.ones((2, 3)), np.ones((3, 3)))


def test_aligned_distance_uses_union_of_words():
    a = np.array([[0.5, 0.5], [1.0, 0.0]])
    b = np.array([[1.0, 0.0], [0.5, 0.5]])  # same rows, swapped; same words
    assert aligned_matrix_distance(a, np.array([3, 7]), b, np.array([3, 7])) == pytest.approx(0.0)
    # b shows word 9 instead of word 7: row [.5 (w3), .5 (w7)] vs [.5 (w3), .5 (w9)] differ by √0.5.
    c = np.array([[0.5, 0.5], [1.0, 0.0]])
    d = aligned_matrix_distance(a, np.array([3, 7]), c, np.array([3, 9]))
    assert d == pytest.approx(math.sqrt(0.5))


def test_topic_keyword_matrix_is_row_stochastic(tiny_model):
    for m, n in [(1, 2), (2, 5), (3, 10)]:
        w = topic_keyword_matrix(tiny_model, m=m, n=n)
        assert w.matrix.shape == (m, n)
        assert np.allclose(w.matrix.sum(axis=1), 1.0)
        assert len(set(w.words)) == n
        # the m most prevalent topics, released in LDA component order (issue 21 item 3), columns in vocabulary order
        assert set(w.topics) == set(np.argsort(-tiny_model.prevalence, kind="stable")[:m].tolist())
        assert list(w.topics) == sorted(w.topics)
        assert [tiny_model.words.index(x) for x in w.words] == sorted(tiny_model.words.index(x) for x in w.words)


def test_topic_model_finds_the_three_topics(tiny_model):
    w = topic_keyword_matrix(tiny_model, m=3, n=9)
    for t in range(3):
        top = tiny_model.topic_word[w.topics[t]].argsort()[::-1][:5]
        groups = {g for g, ws in TOPIC_WORDS.items() for i in top if tiny_model.words[i] in ws}
        assert len(groups) == 1  # a topic's top words come from one planted topic


@pytest.mark.parametrize(
    "kw, text",
    [
        ({"m": 0, "n": 4}, "m must be >= 1, got m=0"),
        ({"m": 4, "n": 4}, "m must be <= 3, got m=4"),
        ({"m": 2, "n": 1}, "n must be >= 2, got n=1"),
    ],
)
def test_topic_keyword_matrix_validation(tiny_model, kw, text):
    with pytest.raises(ValueError, match=text):
        topic_keyword_matrix(tiny_model, **kw)


# ------------------------------------------------------------------ mechanisms


def test_mvg_sigma_spec_check():
    s = dpcore.topicdp.mvg_sigma(epsilon=1, delta=1e-5, m=10, n=10, gamma_f=1, s2=1)
    assert float(f"{s:.4g}") == 404.8


def test_mvg_sigma_independent_formula():
    # Re-derived from Chanyaswad et al. 2018, Thm 3 with i.i.d. covariance, written out differently.
    m, n, eps, delta, gf, s2 = 4, 6, 2.0, 1e-6, 2.0, 0.3
    hr = np.sum(1 / np.arange(1, 5))
    hh = np.sum(1 / np.sqrt(np.arange(1, 5)))
    zeta = np.sqrt(2 * np.sqrt(-m * n * np.log(delta)) - 2 * np.log(delta) + m * n)
    a = (hr + hh) * gf**2 + 2 * hr * gf * s2
    b = 2 * (m * n) ** 0.25 * hr * s2 * zeta
    # P solves α·P + β·√P = 2ε ... i.e. the positive root of α x² + β x − 2ε = 0 with x = √P.
    x = (-b + np.sqrt(b * b + 8 * a * eps)) / (2 * a)
    assert a * x * x + b * x == pytest.approx(2 * eps)
    assert dpcore.topicdp.mvg_sigma(epsilon=eps, delta=delta, m=m, n=n, gamma_f=gf, s2=s2) == pytest.approx(
        math.sqrt(math.sqrt(m * n) / x**2)
    )


def test_topicdp_sigma_is_classic_gaussian_at_split_budget():
    s = dpcore.topicdp.topicdp_sigma(epsilon=3, delta=1e-5, sensitivity=0.2, m=10, n=10)
    assert s == pytest.approx(classic_gaussian_sigma(epsilon=3 / 100, delta=1e-5, sensitivity=0.2))
    assert s == pytest.approx(0.2 * math.sqrt(2 * math.log(1.25e5)) / 0.03)


def test_topicdp_per_entry_std_before_clipping():
    # Seeded statistical check: 4,000 releases of a 2×3 matrix = 24,000 noise values. The sample
    # standard deviation of N(0, σ²) has relative s.e. 1/√(2·24000) ≈ 0.46 %; accept ±2 %.
    w = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    sigma = dpcore.topicdp.topicdp_sigma(epsilon=1, delta=1e-5, sensitivity=0.01, m=2, n=3)
    rng = np.random.default_rng(2024)
    noise = np.stack(
        [dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=0.01, rng=rng).noisy - w for _ in range(4000)]
    )
    assert abs(noise.mean()) < 4 * sigma / math.sqrt(noise.size)
    assert noise.std() / sigma == pytest.approx(1.0, abs=0.02)
    # per entry too (each has 4,000 draws: relative s.e. 1.1 %, accept ±5 %)
    assert np.allclose(noise.std(axis=0) / sigma, 1.0, atol=0.05)


def test_laplace_matrix_scale_and_std():
    w = np.full((4, 5), 0.2)
    assert dpcore.topicdp.matrix_laplace_scale(epsilon=2, m=4) == 4.0
    rng = np.random.default_rng(7)
    noise = np.stack([dpcore.topicdp.matrix_laplace_mechanism(w, epsilon=2, rng=rng).noisy - w for _ in range(2000)])
    assert noise.std() / (math.sqrt(2) * 4.0) == pytest.approx(1.0, abs=0.03)


@pytest.mark.parametrize("sens", [1e-6, 0.05, 3.0])
def test_noised_rows_are_probability_vectors(sens):
    rng = np.random.default_rng(1)
    w = rng.dirichlet(np.ones(6), size=4)
    for rel in dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=sens, rng=rng).values():
        assert rel.matrix.shape == w.shape
        assert np.all(rel.matrix >= 0)
        assert np.allclose(rel.matrix.sum(axis=1), 1.0)


def test_all_negative_row_becomes_uniform():
    out = tdp.mechanisms._clip_renormalise(np.array([[-1.0, -2.0, -0.5], [1.0, -1.0, 3.0]]))
    assert np.allclose(out, [[1 / 3] * 3, [0.25, 0.0, 0.75]])


def test_guarantees():
    w = np.full((2, 2), 0.5)
    G = dpcore.guarantees
    rels = dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0, gamma=0.05)
    assert tuple(rels) == tdp.TOPIC_MECHANISMS
    for mech in ("TopicDP", "TopicDP corrected", "MVG"):  # sampled Δ_s: random DP
        g = rels[mech].guarantee
        assert g.kind == G.RANDOM_DP and g.gamma == 0.05 and g.colour == "orange" and not g.is_dp
        assert "weaker than DP" in g.label and "given a non-private choice of topics and keywords" in g.label
    # global bounds (issue 21 item 4): (ε, δ)-DP / ε-DP for the values, for every pair of neighbours — but the
    # rows' topics and the columns' words are chosen from the private fit without noise and published with the
    # values, so the release as a whole is not DP: orange ("DP for part of the release only"), never green
    # (issue 23: green on this page only for VIPS-LDA, whose proof covers the choice of topics and keywords).
    for mech, kind in (("TopicDP strict", G.APPROXIMATE_DP), ("Laplace", G.PURE_DP)):
        g = rels[mech].guarantee
        assert g.kind == kind and g.colour == "orange" and g.gamma is None and not g.is_dp
        assert g.strength == "DP for part of the release only"
        assert g.label.endswith("given a non-private choice of topics and keywords"), g.label
    assert rels["TopicDP strict"].guarantee.label.startswith("(ε, δ)-DP per user (ε = 1, δ = 1e-05)")
    # a bare number without γ: never green (the mechanisms that use it)
    bare = dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0)
    assert all(bare[m].guarantee.colour != "green" for m in tdp.SAMPLED_MECHANISMS)
    # γ read from a SensitivityResult
    res = tdp.SensitivityResult(
        delta_s=0.1, gamma=0.2, h=61, k=61, rho_sampler=0.01, m=2, n=2, sample_users=10, draws=np.full(61, 0.1)
    )
    assert dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=res, rng=0).guarantee.gamma == 0.2
    with pytest.raises(ValueError, match="gamma must match"):
        dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=res, rng=0, gamma=0.1)
    with pytest.raises(Exception):  # noqa: B017 (dataclasses.FrozenInstanceError: any error is the frozen check)
        rels["TopicDP"].epsilon = 2  # frozen


def test_noise_depends_on_seed_only():
    w = np.full((3, 3), 1 / 3)
    a = dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=11).noisy
    b = dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=np.random.default_rng(11)).noisy
    c = dpcore.topicdp_mechanism(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=12).noisy
    assert np.array_equal(a, b) and not np.array_equal(a, c)


@pytest.mark.parametrize(
    "fn, kw, exc, text",
    [
        (
            dpcore.topicdp.topicdp_sigma,
            dict(epsilon=-1, delta=1e-5, sensitivity=1, m=2, n=2),
            ValueError,
            "epsilon must be > 0, got epsilon=-1",
        ),
        (
            dpcore.topicdp.topicdp_sigma,
            dict(epsilon=1, delta=1.5, sensitivity=1, m=2, n=2),
            ValueError,
            "delta must be < 1, got delta=1.5",
        ),
        (
            dpcore.topicdp.topicdp_sigma,
            dict(epsilon=1, delta=1e-5, sensitivity=0, m=2, n=2),
            ValueError,
            "sensitivity must be > 0, got sensitivity=0",
        ),
        (
            dpcore.topicdp.topicdp_sigma,
            dict(epsilon=1, delta=1e-5, sensitivity=1, m=0, n=2),
            ValueError,
            "m must be >= 1, got m=0",
        ),
        (dpcore.topicdp.strict_topicdp_sigma, dict(epsilon=1, delta=1e-5, m=0), ValueError, "m must be >= 1, got m=0"),
        (dpcore.topicdp.strict_topicdp_sigma, dict(epsilon=0, delta=1e-5, m=3), ValueError, "epsilon must be > 0"),
        (dpcore.topicdp.strict_topicdp_sigma, dict(epsilon=1, delta=0, m=3), ValueError, "delta must be > 0"),
        (
            dpcore.topicdp.corrected_topicdp_sigma,
            dict(epsilon=1, delta=1e-5, sensitivity=-1),
            ValueError,
            "sensitivity must be > 0, got sensitivity=-1",
        ),
        (
            dpcore.topicdp.mvg_sigma,
            dict(epsilon=1, delta=1e-5, m=2, n=2, gamma_f=1, s2=-1),
            ValueError,
            "s2 must be > 0, got s2=-1",
        ),
        (
            dpcore.topicdp_mechanism,
            dict(matrix=np.ones((2, 2)), epsilon=1, delta=1e-5, sensitivity=1, rng="x"),
            TypeError,
            "rng must be a numpy.random.Generator or an int seed",
        ),
    ],
)
def test_mechanism_validation_messages(fn, kw, exc, text):
    with pytest.raises(exc, match=text):
        fn(**kw)


def test_matrix_validation():
    with pytest.raises(ValueError, match="matrix must be finite"):
        dpcore.topicdp_mechanism(np.array([[np.nan, 1.0]]), epsilon=1, delta=1e-5, sensitivity=1, rng=0)
    with pytest.raises(ValueError, match="at least 1 row and 2 columns"):
        dpcore.topicdp.matrix_laplace_mechanism(np.ones(3), epsilon=1, rng=0)


# ------------------------------------------------------------------ the sampler


def _brute_force_delta(data, index, m, n, lda=TINY_LDA, sampler=TINY_SAMPLER, aligned=False):
    """Δ_i recomputed literally: build D and D′, fit each, release each table, compare row i with row i and
    word with word (a word a table does not show has probability 0). ``aligned=True``: the old definition,
    the best of every row permutation (a lower bound of Δ_i)."""
    shared, x, x2 = tdp.sampler.pair_users(data.n_users, index, sampler)
    mats = []
    for extra in (x, x2):
        model = fit_topic_model(data, settings=lda, users=list(shared) + [extra])
        w = topic_keyword_matrix(model, m=m, n=n)
        mats.append(dict(zip(((t, word) for t in range(m) for word in w.words), w.matrix.ravel())))
    words = sorted({wd for mat in mats for (_, wd) in mat})
    a = np.array([[mats[0].get((t, wd), 0.0) for wd in words] for t in range(m)])
    b = np.array([[mats[1].get((t, wd), 0.0) for wd in words] for t in range(m)])
    if aligned:
        return min(np.linalg.norm(a - b[list(p)]) for p in itertools.permutations(range(m)))
    return float(np.linalg.norm(a - b))


def test_sampler_brute_force_and_cache_reuse(tiny_data, tmp_path, monkeypatch):
    calls = []
    real = tdp.pair_deltas

    def counting(data, index, **kw):
        calls.append(index)
        return real(data, index, **kw)

    monkeypatch.setattr(tdp.sampler, "pair_deltas", counting)
    seen = []
    res = tdp.sampled_sensitivity(
        tiny_data,
        gamma=0.22,
        m=3,
        n=4,
        lda=TINY_LDA,
        sampler=TINY_SAMPLER,
        cache_dir=tmp_path,
        progress=lambda a, b: seen.append((a, b)),
    )
    h = dpcore.topicdp.sensitivity_sampler_size(gamma=0.22).h
    assert calls == list(range(h)) and seen[-1] == (h, h) and len(seen) == h
    # Δ_s is the k-th smallest of the h draws; each draw matches a literal recomputation.
    assert res.delta_s == pytest.approx(np.sort(res.draws)[res.k - 1])
    assert res.draws.shape == (h,)
    for i in range(4):
        assert res.draws[i] == pytest.approx(_brute_force_delta(tiny_data, i, 3, 4), abs=1e-9)
        assert res.draws[i] >= _brute_force_delta(tiny_data, i, 3, 4, aligned=True) - 1e-12
    assert res.delta_s > 0

    # γ = 0.25 needs fewer pairs: nothing is fitted, and it uses the first h(0.25) draws.
    calls.clear()
    draws = tdp.load_sensitivity_draws(tiny_data.corpus_hash, lda=TINY_LDA, sampler=TINY_SAMPLER, cache_dir=tmp_path)
    h25 = dpcore.topicdp.sensitivity_sampler_size(gamma=0.25).h
    r25 = tdp.sampled_sensitivity(
        tiny_data, gamma=0.25, m=3, n=4, lda=TINY_LDA, sampler=TINY_SAMPLER, cache_dir=tmp_path
    )
    assert calls == []
    assert r25.delta_s == pytest.approx(np.sort(draws.draws_for(3, 4)[:h25])[r25.k - 1], rel=1e-5)
    # γ = 0.2 needs 61 pairs: only the missing ones are fitted, the first 49 are kept as they were.
    r20 = tdp.sampled_sensitivity(
        tiny_data, gamma=0.2, m=3, n=4, lda=TINY_LDA, sampler=TINY_SAMPLER, cache_dir=tmp_path
    )
    assert calls == list(range(h, 61))
    assert np.allclose(r20.draws[:h], res.draws, rtol=1e-5)
    import gzip

    stored = json.loads(gzip.decompress(next(tmp_path.glob("sensitivity_*.json.gz")).read_bytes()))
    assert stored["pairs"] == 61 and stored["corpus_hash"] == tiny_data.corpus_hash


def test_order_statistic_uses_first_h_draws_only():
    deltas = np.zeros((300, 1, 1))
    deltas[:, 0, 0] = np.linspace(0.01, 1.0, 300)[::-1]  # descending: the first h are the largest
    deltas[285, 0, 0] = 99.0  # beyond h(0.1) = 285: must be ignored
    draws = tdp.SensitivityDraws(
        deltas=deltas,
        m_values=(1,),
        n_values=(2,),
        corpus_hash="x",
        lda=LdaSettings(),
        sampler=tdp.SamplerSettings(),
        key="k",
    )
    res = draws.sensitivity(gamma=0.1, m=1, n=2)
    first = deltas[:285, 0, 0]
    assert res.delta_s == np.sort(first)[res.k - 1] == first.max()
    assert res.covered_share == 1.0
    with pytest.raises(ValueError, match="gamma=0.05 needs h=1305 sampled pairs, only 300 are stored"):
        draws.sensitivity(gamma=0.05, m=1, n=2)
    with pytest.raises(ValueError, match="n must be in 2..2, got n=3"):
        draws.sensitivity(gamma=0.1, m=1, n=3)


@pytest.mark.parametrize("engine", ENGINES)
def test_pairs_do_not_depend_on_worker_count(tiny_data, tmp_path, engine):
    """Same seed → the same Δ_i, bit for bit, with 1 and 2 worker processes (and on a rerun)."""
    lda = LdaSettings(n_topics=3, min_df=1, max_df=1.0, engine=engine)
    serial = tdp.extend_sensitivity_draws(
        tiny_data, n_pairs=8, lda=lda, sampler=TINY_SAMPLER, cache_dir=tmp_path / "a", workers=1
    )
    parallel = tdp.extend_sensitivity_draws(
        tiny_data, n_pairs=8, lda=lda, sampler=TINY_SAMPLER, cache_dir=tmp_path / "b", workers=2
    )
    again = np.stack([tdp.pair_deltas(tiny_data, i, lda=lda, sampler=TINY_SAMPLER) for i in range(8)])
    assert np.array_equal(serial.deltas, parallel.deltas)
    assert np.array_equal(serial.deltas, again)
    assert np.array_equal(serial.full, parallel.full) and np.all(np.isfinite(serial.full))
    back = tdp.load_sensitivity_draws(tiny_data.corpus_hash, lda=lda, sampler=TINY_SAMPLER, cache_dir=tmp_path / "a")
    assert np.allclose(back.full, serial.full, rtol=1e-5) and np.allclose(back.deltas, serial.deltas, rtol=1e-5)
    assert serial.deltas.std() > 0


@pytest.mark.parametrize("engine", ENGINES)
def test_sampler_matches_literal_recomputation_for_each_engine(tiny_data, tmp_path, engine):
    """Each engine's Δ_i (same seeds) equals a literal recomputation: D and D′ built user by user,
    fitted separately, every row permutation tried."""
    lda = LdaSettings(n_topics=3, min_df=1, max_df=1.0, engine=engine)
    sampler = tdp.SamplerSettings(seed=9)  # N = the corpus' 24 users
    draws = tdp.extend_sensitivity_draws(tiny_data, n_pairs=3, lda=lda, sampler=sampler, cache_dir=tmp_path)
    shared, _, _ = tdp.sampler.pair_users(tiny_data.n_users, 0, sampler)
    assert shared.size == tiny_data.n_users - 1
    for i in range(3):
        for m, n in [(2, 3), (3, 5)]:
            assert draws.draws_for(m, n)[i] == pytest.approx(
                _brute_force_delta(tiny_data, i, m, n, lda=lda, sampler=sampler), abs=1e-9
            )
        # the diagnostic: whole topic–word matrices, best row permutation by brute force
        shared, x, x2 = tdp.sampler.pair_users(tiny_data.n_users, i, sampler)
        a, b = (fit_topic_model(tiny_data, settings=lda, users=list(shared) + [u]).topic_word for u in (x, x2))
        best = min(np.linalg.norm(a - b[list(p)]) for p in itertools.permutations(range(3)))
        assert draws.full[i] == pytest.approx(best, abs=1e-9)


VB_KERNELS = ["numpy"] + (["numba"] if importlib.util.find_spec("numba") else [])


@pytest.fixture(params=VB_KERNELS)
def vb_kernel(request, monkeypatch):
    """Run a test with each path of the "vb" engine: numpy, and the compiled one when numba is installed."""
    monkeypatch.setenv("DPCORE_VB_KERNEL", request.param)
    assert (tdp_tm_fit._vb_kernel() is None) == (request.param == "numpy")
    return request.param


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vectorised_vb_is_sklearn_batch_vb(seed, vb_kernel):
    """engine="vb" reproduces scikit-learn's batch LDA on random count matrices (same random_state)."""
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(seed)
    n_docs, n_words = 60, 40
    dense = rng.poisson(rng.gamma(0.3, 2.0, size=(n_docs, n_words)))
    dense[3] = 0  # an empty document
    x = csr_matrix(dense)
    for kw in [dict(max_iter=4), dict(max_iter=10, mean_change_tol=1e-3, max_doc_update_iter=30)]:
        settings = LdaSettings(n_topics=4, random_state=seed, **kw)
        vb = tdp_tm_fit.fit_topic_word(x, LdaSettings(**{**settings.as_dict(), "engine": "vb"}))
        sk = tdp_tm_fit.fit_topic_word(x, LdaSettings(**{**settings.as_dict(), "engine": "sklearn"}))
        assert np.allclose(vb[0], sk[0], atol=1e-7, rtol=0)
        assert np.allclose(vb[1], sk[1], rtol=1e-7)


@pytest.mark.parametrize("seed", [3, 4])
def test_compiled_vb_kernel_equals_numpy_path(seed, monkeypatch):
    """The numba E-step fits the same model as the numpy path (rounding only), documents of every
    length including empty ones, early stops included."""
    pytest.importorskip("numba")
    from scipy.sparse import csr_matrix

    rng = np.random.default_rng(seed)
    dense = rng.poisson(rng.gamma(0.2, 3.0, size=(200, 80)))
    dense[::17] = 0
    x = csr_matrix(dense)
    settings = LdaSettings(n_topics=6, random_state=seed, max_iter=7, max_doc_update_iter=15, mean_change_tol=1e-3)
    monkeypatch.setenv("DPCORE_VB_KERNEL", "numpy")
    ref = tdp_tm_fit.fit_topic_word(x, settings)
    monkeypatch.setenv("DPCORE_VB_KERNEL", "numba")
    fast = tdp_tm_fit.fit_topic_word(x, settings)
    assert np.allclose(fast[0], ref[0], atol=1e-11, rtol=0)
    assert np.allclose(fast[1], ref[1], rtol=1e-11)
    assert not np.allclose(
        ref[0], tdp_tm_fit.fit_topic_word(x, LdaSettings(**{**settings.as_dict(), "random_state": 99}))[0]
    )


def test_compiled_digamma_matches_scipy():
    pytest.importorskip("numba")
    from scipy.special import psi

    from dpcore._kernels import optional_kernel

    _vb_kernel = optional_kernel("dpcore.topicdp._vb_kernel", env="DPCORE_TEST_NO_SUCH_SWITCH")
    rng = np.random.default_rng(0)
    x = np.concatenate(
        [
            rng.uniform(1e-6, 1.0, 2000),
            rng.uniform(1.0, 6.5, 2000),
            rng.gamma(1.0, 50.0, 2000),
            [1e-6, 5.999999, 6.0, 1.4616321449683622, 1e6],
        ]
    )
    got = _vb_kernel.exp_dirichlet_rows(np.stack([x, np.full_like(x, 1.0)], axis=1))
    want = np.exp(psi(np.stack([x, np.ones_like(x)], axis=1)) - psi(x + 1.0)[:, None])
    assert np.allclose(got, want, rtol=1e-12, atol=0)


def test_fit_does_not_change_its_input_and_ignores_index_order(tiny_data):
    x = tiny_data.counts.copy()
    before = (x.indices.copy(), x.data.copy())
    a = tdp_tm_fit.fit_topic_word(x, TINY_LDA)
    assert np.array_equal(x.indices, before[0]) and np.array_equal(x.data, before[1])
    shuffled = x.tocoo()
    order = np.random.default_rng(0).permutation(shuffled.nnz)
    from scipy.sparse import coo_matrix

    b = tdp_tm_fit.fit_topic_word(
        coo_matrix((shuffled.data[order], (shuffled.row[order], shuffled.col[order])), shape=x.shape).tocsr(), TINY_LDA
    )
    assert np.array_equal(a[0], b[0])


def test_engine_falls_back_when_tomotopy_is_missing(monkeypatch, tiny_data):
    import builtins

    real_import = builtins.__import__

    def no_tomotopy(name, *args, **kwargs):
        if name == "tomotopy" or name.startswith("tomotopy."):
            raise ImportError("No module named 'tomotopy'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tomotopy)
    monkeypatch.delitem(__import__("sys").modules, "tomotopy", raising=False)
    assert not tdp_tm.tomotopy_available()
    assert LdaSettings().engine == "vb"
    with pytest.warns(RuntimeWarning, match="falling back to engine='vb'"):
        s = LdaSettings(engine="tomotopy", n_topics=3, min_df=1, max_df=1.0)
    assert s.engine == "vb"
    tw, prev = tdp_tm_fit.fit_topic_word(tiny_data.counts, s)
    assert np.allclose(tw.sum(axis=1), 1.0)
    # the cache key names the engine that really fits
    assert tdp.sampler._cache_key("h", s, TINY_SAMPLER) == tdp.sampler._cache_key("h", TINY_LDA, TINY_SAMPLER)


def test_cache_key_changes_with_every_setting_that_changes_the_draws():
    base_lda = LdaSettings(engine="vb")
    base = tdp.sensitivity_cache_path("abc", lda=base_lda, sampler=tdp.SamplerSettings())
    assert base == tdp.sensitivity_cache_path("abc", lda=LdaSettings(engine="vb"), sampler=tdp.SamplerSettings())
    variants = [
        ("corpus", "abd", base_lda, tdp.SamplerSettings()),
        ("engine", "abc", LdaSettings(engine="sklearn"), tdp.SamplerSettings()),
        ("N", "abc", base_lda, tdp.SamplerSettings(sample_users=100)),
        ("sampler seed", "abc", base_lda, tdp.SamplerSettings(seed=1)),
        ("K", "abc", LdaSettings(engine="vb", n_topics=12), tdp.SamplerSettings()),
        ("max_iter", "abc", LdaSettings(engine="vb", max_iter=11), tdp.SamplerSettings()),
        ("gibbs_iter", "abc", LdaSettings(engine="vb", gibbs_iter=31), tdp.SamplerSettings()),
        ("doc iter", "abc", LdaSettings(engine="vb", max_doc_update_iter=11), tdp.SamplerSettings()),
        ("tol", "abc", LdaSettings(engine="vb", mean_change_tol=2e-2), tdp.SamplerSettings()),
        ("max_features", "abc", LdaSettings(engine="vb", max_features=900), tdp.SamplerSettings()),
        ("min_df", "abc", LdaSettings(engine="vb", min_df=4), tdp.SamplerSettings()),
        ("max_df", "abc", LdaSettings(engine="vb", max_df=0.4), tdp.SamplerSettings()),
        ("LDA seed", "abc", LdaSettings(engine="vb", random_state=1), tdp.SamplerSettings()),
        ("stop words", "abc", LdaSettings(engine="vb", vocabulary_version="other"), tdp.SamplerSettings()),
    ]
    paths = {name: tdp.sensitivity_cache_path(c, lda=lda, sampler=s) for name, c, lda, s in variants}
    for name, path in paths.items():
        assert path != base, name
    assert len(set(paths.values())) == len(paths)
    # the full-corpus model file is keyed by the LDA settings (engine included) too
    assert tdp.model_cache._model_path("abc", base_lda, None) != tdp.model_cache._model_path(
        "abc", LdaSettings(engine="sklearn"), None
    )
    assert base_lda.vocabulary_version == tdp_tm.VOCABULARY_VERSION


def test_default_dataset_size_is_the_corpus():
    s = tdp.SamplerSettings()
    assert s.sample_users is None and s.dataset_size(2400) == 2400
    shared, x, x2 = tdp.sampler.pair_users(37, 0, s)
    assert shared.shape == (36,)
    assert tdp.SamplerSettings(sample_users=10).dataset_size(2400) == 10


STOPPY_TEXT = (
    "thanks so much , i hope you are well and just wanted to let you know that the "
    "{a} {b} {c} is really good and we will make it great "
)


def test_shipped_stop_word_list_is_sklearns():
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    assert tdp_tm.ENGLISH_STOP_WORDS == frozenset(ENGLISH_STOP_WORDS)
    assert tdp_tm.TOPIC_STOP_WORDS == frozenset(ENGLISH_STOP_WORDS) | tdp_tm.FILLER_WORDS | tdp_tm.CHAT_FILLER_WORDS


def test_top_keywords_are_never_stop_words():
    """Stop words and fillers dominate the raw text, yet no topic's top-5 keyword is one of them."""
    rng = np.random.default_rng(4)
    names = list(TOPIC_WORDS)
    records = []
    for u in range(30):
        words = TOPIC_WORDS[names[u % 3]]
        for _ in range(3):
            a, b, c = rng.choice(words, 3)
            records.append({"user": f"u{u}", "text": STOPPY_TEXT.format(a=a, b=b, c=c) * 2})
    corpus = corpus_from_records(records, user_field="user", text_field="text", name="stoppy")
    lda = LdaSettings(n_topics=3, min_df=1, max_df=1.0)
    model = fit_topic_model(document_term_data(corpus, settings=lda), settings=lda)
    assert {"thanks", "hope", "just", "really", "make", "good", "great", "know"} <= tdp_tm.TOPIC_STOP_WORDS
    for t in range(model.n_topics):
        top5 = [model.words[i] for i in np.argsort(-model.topic_word[t])[:5]]
        assert not set(top5) & tdp_tm.TOPIC_STOP_WORDS, top5
        assert set(top5) <= set(sum(TOPIC_WORDS.values(), []))


def test_sample_corpus_top_keywords_are_not_stop_words():
    """On the shipped sample corpus (whatever it holds): every topic's top-5 keywords are content words."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    corpus = dpcore.load_sample_corpus("private")
    lda = LdaSettings()
    model = fit_topic_model(document_term_data(corpus, settings=lda), settings=lda)
    for t in range(model.n_topics):
        top5 = {model.words[i] for i in np.argsort(-model.topic_word[t])[:5]}
        assert not top5 & tdp_tm.TOPIC_STOP_WORDS and not top5 & ENGLISH_STOP_WORDS, top5


def test_pair_users_shape_and_range():
    shared, x, x2 = tdp.sampler.pair_users(50, 7, tdp.SamplerSettings(sample_users=20, seed=1))
    assert shared.shape == (19,) and shared.min() >= 0 and shared.max() < 50 and 0 <= x < 50 and 0 <= x2 < 50
    again = tdp.sampler.pair_users(50, 7, tdp.SamplerSettings(sample_users=20, seed=1))
    assert np.array_equal(shared, again[0]) and (x, x2) == again[1:]


def test_settings_validation():
    with pytest.raises(ValueError, match="sample_users must be >= 2, got sample_users=1"):
        tdp.SamplerSettings(sample_users=1)
    with pytest.raises(ValueError, match="learning_method must be one of 'batch', 'online', got learning_method='em'"):
        LdaSettings(learning_method="em")
    with pytest.raises(ValueError, match="n_topics must be >= 2, got n_topics=1"):
        LdaSettings(n_topics=1)


def test_model_round_trip(tiny_model, tmp_path):
    path = tdp.save_topic_model(tiny_model, cache_dir=tmp_path)
    back = tdp.load_topic_model(tiny_model.corpus_hash, lda=TINY_LDA, cache_dir=tmp_path)
    assert path.exists() and back is not None
    assert np.allclose(back.topic_word, tiny_model.topic_word, rtol=1e-5)
    assert back.words == tiny_model.words
    assert tdp.load_topic_model("other", lda=TINY_LDA, cache_dir=tmp_path) is None


# ------------------------------------------------------------------ experiments


def test_error_curve_shapes_and_skipped_gamma(tiny_model):
    deltas = np.full((70, 3, 9), 0.05)
    draws = tdp.SensitivityDraws(
        deltas=deltas,
        m_values=(1, 2, 3),
        n_values=tuple(range(2, 11)),
        corpus_hash="x",
        lda=TINY_LDA,
        sampler=TINY_SAMPLER,
        key="k",
    )
    curve = tdp.error_curve(
        tiny_model,
        draws,
        parameter="gamma",
        values=[0.1, 0.2],
        epsilon=3,
        delta=1e-5,
        gamma=0.2,
        m=3,
        n=4,
        repetitions=5,
        rng=0,
    )
    mean, lo, hi = curve.stats["l1"]["TopicDP"]
    assert np.isnan(mean[0]) and not np.isnan(mean[1])  # 0.1 needs 285 pairs, 70 stored
    assert len(curve.skipped) == 1 and "285" in curve.skipped[0]
    assert lo[1] <= mean[1] <= hi[1]
    eps_curve = tdp.error_curve(
        tiny_model,
        draws,
        parameter="epsilon",
        values=[1, 10],
        epsilon=3,
        delta=1e-5,
        gamma=0.2,
        m=3,
        n=4,
        repetitions=30,
        rng=0,
        stage="noisy",
    )
    for mech in tdp.TOPIC_MECHANISMS:
        m1, m10 = eps_curve.stats["l1"][mech][0]
        assert m10 < m1  # more budget, less noise
    with pytest.raises(ValueError, match="parameter must be one of"):
        tdp.error_curve(
            tiny_model, draws, parameter="delta", values=[1], epsilon=3, delta=1e-5, gamma=0.2, m=3, n=4, rng=0
        )


def test_release_errors_match_metrics():
    w = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]])
    errs = tdp.release_errors(w, epsilon=5, delta=1e-5, sensitivity=1e-4, repetitions=3, rng=4)
    rels = dpcore.topicdp.release_all(w, epsilon=5, delta=1e-5, sensitivity=1e-4, rng=np.random.default_rng(4))
    assert errs["TopicDP"]["l1"][0] == pytest.approx(np.abs(rels["TopicDP"].matrix - w).sum())
    assert errs["Laplace"]["rmse"][0] == pytest.approx(np.sqrt(np.mean((rels["Laplace"].matrix - w) ** 2)))
    assert 0 <= errs["MVG"]["kendall"].min() and errs["MVG"]["kendall"].max() <= 1


def test_run_time_results_go_to_the_user_cache_and_shipped_files_are_read(
    tmp_path, monkeypatch, tiny_model, _tiny_topicdp_dirs
):
    """The app never writes into the repository: new files go to $DPCORE_TOPICDP_CACHE (or ~/.cache);
    loading falls back to the shipped folder (here: a folder of draws computed in this test session for
    the 40-user corpus of tests/topicdp_env.py, standing in for sample_data/topicdp_sensitivity)."""
    from topicdp_env import TINY_QUERY

    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(tmp_path))
    shipped_before = sorted(p.name for p in tdp.shipped_cache_dir().iterdir())
    path = tdp.save_topic_model(tiny_model)
    assert path.parent == tmp_path
    assert sorted(p.name for p in tdp.shipped_cache_dir().iterdir()) == shipped_before
    assert tdp.load_topic_model(tiny_model.corpus_hash, lda=TINY_LDA) is not None
    # draws in the shipped folder are found although the writable cache is empty of them
    data, shipped = _tiny_topicdp_dirs
    monkeypatch.setattr(tdp.sampler, "shipped_cache_dir", lambda: shipped)
    monkeypatch.setenv("DPCORE_SAMPLE_DATA", str(data))
    from dpcore import load_sample_corpus

    corpus = load_sample_corpus("private")
    lda = LdaSettings(n_topics=int(TINY_QUERY["topicdp_k"]))
    sampler = tdp.SamplerSettings(sample_users=int(TINY_QUERY["topicdp_N"]))
    assert not list(tmp_path.glob("sensitivity_*.json"))
    draws = tdp.load_sensitivity_draws(corpus.content_hash, lda=lda, sampler=sampler)
    assert draws.n_pairs >= 285


# ------------------------------------------------------------------ the page's conclusion


def test_laplace_break_even_is_where_the_noise_scales_meet():
    for delta, n, m in [(1e-4, 10, 10), (1e-5, 4, 3)]:
        even = tdp.laplace_break_even_sensitivity(delta=delta, n=n)
        for eps in (0.5, 3.0, 10.0):
            sigma = dpcore.topicdp.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=even, m=m, n=n)
            assert sigma == pytest.approx(math.sqrt(2) * tdp.matrix_laplace_scale(epsilon=eps, m=m))
    assert tdp.laplace_break_even_sensitivity(delta=1e-4, n=10) == pytest.approx(2 / (10 * math.sqrt(math.log(12500))))


def test_compare_noise_ranks_and_sentence_follow_the_numbers():
    eps = (1.0, 3.0, 10.0)
    even = tdp.laplace_break_even_sensitivity(delta=1e-4, n=10)
    small = tdp.compare_noise(delta_s=even / 10, epsilons=eps, delta=1e-4, m=10, n=10)
    large = tdp.compare_noise(delta_s=even * 10, epsilons=eps, delta=1e-4, m=10, n=10)
    assert small.topicdp_beats_laplace == (True, True, True)
    assert large.topicdp_beats_laplace == (False, False, False)
    assert "less noise than Laplace at every ε" in small.sentence and "below" in small.sentence
    assert "less noise than Laplace at no ε" in large.sentence and "above" in large.sentence
    for c in (small, large):
        for i, e in enumerate(eps):
            assert c.std["MVG"][i] == pytest.approx(
                dpcore.topicdp.mvg_sigma(epsilon=e, delta=1e-4, m=10, n=10, gamma_f=math.sqrt(10), s2=c.delta_s)
            )
            assert c.topicdp_beats_mvg[i] == (c.std["TopicDP"][i] < c.std["MVG"][i])
    with pytest.raises(ValueError, match="delta_s must be > 0"):
        tdp.compare_noise(delta_s=0, epsilons=eps, delta=1e-4, m=2, n=2)


def test_summarise_draws_reports_the_numbers_it_is_given():
    h = dpcore.topicdp.sensitivity_sampler_size(gamma=0.2).h  # 61, k = h
    grid = np.full((h, 1, 1), 0.01)
    grid[:6, 0, 0] = 1.4  # 6 jumps out of 61
    full = np.full(h, 0.02)
    draws = tdp.SensitivityDraws(
        deltas=grid,
        m_values=(1,),
        n_values=(2,),
        corpus_hash="x",
        lda=TINY_LDA,
        sampler=TINY_SAMPLER,
        key="k",
        full=full,
    )
    s = tdp.summarise_draws(draws, gamma=0.2, m=1, n=2, delta=1e-4)
    assert s.delta_s == 1.4 and s.median == pytest.approx(0.01) and s.h == h
    assert s.share_above_break_even == pytest.approx(6 / h)
    assert s.break_even_laplace == tdp.laplace_break_even_sensitivity(delta=1e-4, n=2)
    assert "LDA itself is stable" in s.sentence and f"{6 / h:.0%}" in s.sentence
    unstable = tdp.SensitivityDraws(
        deltas=grid,
        m_values=(1,),
        n_values=(2,),
        corpus_hash="x",
        lda=TINY_LDA,
        sampler=TINY_SAMPLER,
        key="k",
        full=np.full(h, 1.2),
    )
    assert "LDA itself moves" in tdp.summarise_draws(unstable, gamma=0.2, m=1, n=2, delta=1e-4).sentence
    legacy = tdp.SensitivityDraws(
        deltas=grid, m_values=(1,), n_values=(2,), corpus_hash="x", lda=TINY_LDA, sampler=TINY_SAMPLER, key="k"
    )
    assert np.isnan(tdp.summarise_draws(legacy, gamma=0.2, m=1, n=2, delta=1e-4).full_median)


# ------------------------------------------------------------------ issue 21 items 3–4: release order, σ, strict


def test_strict_topicdp_sigma_spec_check_and_bound():
    """SPEC §5 check: ε = 1, δ = 1e-5, m = 10 → Δ = √20 = 4.4721, analytic σ = 16.68 (and the analytic
    Gaussian of SPEC §2 at Δ = √(2m), for other m)."""
    assert float(f"{dpcore.topicdp.strict_topicdp_sigma(epsilon=1, delta=1e-5, m=10):.4g}") == 16.68
    # issue 21 names it at the top level: the same function
    assert dpcore.strict_topicdp_sigma is dpcore.topicdp.strict_topicdp_sigma
    for m in (1, 3, 10):
        assert dpcore.topicdp.strict_topicdp_sigma(epsilon=2, delta=1e-6, m=m) == pytest.approx(
            dpcore.gaussian_sigma(epsilon=2, delta=1e-6, sensitivity=math.sqrt(2 * m), method="analytic"), rel=1e-12
        )
    # its σ meets δ exactly for an ℓ2 change of √(2m) (Balle & Wang's profile, recomputed)
    s = dpcore.topicdp.strict_topicdp_sigma(epsilon=1, delta=1e-5, m=10)
    assert dpcore.gaussian_delta(epsilon=1, sigma=s, sensitivity=math.sqrt(20)) == pytest.approx(1e-5, rel=1e-6)


def test_any_two_row_stochastic_tables_are_within_sqrt_2m():
    """The global bound behind strict TopicDP: brute force over random tables (and words) — never above √(2m),
    reached when every row moves all its mass to another word."""
    rng = np.random.default_rng(3)
    for m, n in [(1, 2), (3, 4), (10, 10)]:
        worst = 0.0
        for _ in range(2000):
            a = rng.dirichlet(rng.uniform(0.05, 2, n), size=m)
            b = rng.dirichlet(rng.uniform(0.05, 2, n), size=m)
            cols_a, cols_b = rng.choice(30, n, replace=False), rng.choice(30, n, replace=False)
            worst = max(worst, tdp_tm_fit.released_matrix_distance(a, np.sort(cols_a), b, np.sort(cols_b)))
        assert worst <= math.sqrt(2 * m) + 1e-12
        one_hot = np.zeros((m, n))
        one_hot[:, 0] = 1.0
        assert np.linalg.norm(one_hot - one_hot[:, ::-1]) == pytest.approx(math.sqrt(2 * m))


def test_corrected_sigma_has_no_split_and_switches_to_analytic_at_one():
    for eps in (0.1, 0.5, 0.99):
        assert dpcore.topicdp.corrected_topicdp_sigma(epsilon=eps, delta=1e-5, sensitivity=2.235) == pytest.approx(
            2.235 * math.sqrt(2 * math.log(1.25e5)) / eps
        )
        # the thesis's σ is m·n times larger
        assert dpcore.topicdp.topicdp_sigma(epsilon=eps, delta=1e-5, sensitivity=2.235, m=10, n=10) == pytest.approx(
            100 * dpcore.topicdp.corrected_topicdp_sigma(epsilon=eps, delta=1e-5, sensitivity=2.235)
        )
    for eps in (1.0, 3.0, 10.0):
        assert dpcore.topicdp.corrected_topicdp_sigma(epsilon=eps, delta=1e-5, sensitivity=2.235) == pytest.approx(
            dpcore.gaussian_sigma(epsilon=eps, delta=1e-5, sensitivity=2.235, method="analytic"), rel=1e-12
        )


def test_thesis_true_epsilon_spec_check():
    """SPEC §5: at 10 × 10, ε = 1, δ = 1e-5, Δ_s = 2.235 the thesis's σ = 1,082.8 has a true ε of 0.0046."""
    sigma = dpcore.topicdp.topicdp_sigma(epsilon=1, delta=1e-5, sensitivity=2.235, m=10, n=10)
    assert float(f"{sigma:.5g}") == 1082.8
    true = dpcore.topicdp.topicdp_true_epsilon(epsilon=1, delta=1e-5, m=10, n=10)
    # 0.004549 (mpmath at 60 digits: 0.0045488841); SPEC's "0.0046" is 0.00455 rounded half up
    assert float(f"{true:.5g}") == 0.0045489 and abs(true - 0.0046) < 1e-4
    # the definition, recomputed: δ(ε_true, σ) = δ for an ℓ2 change of Δ_s, whatever Δ_s
    for ds in (2.235, 0.01):
        s = dpcore.topicdp.topicdp_sigma(epsilon=1, delta=1e-5, sensitivity=ds, m=10, n=10)
        assert dpcore.gaussian_delta(epsilon=true, sigma=s, sensitivity=ds) == pytest.approx(1e-5, rel=1e-6)
        assert dpcore.gaussian_delta(epsilon=true * 0.99, sigma=s, sensitivity=ds) > 1e-5


def test_sigma_story_numbers():
    st_ = tdp.sigma_story(epsilon=1, delta=1e-5, delta_s=2.235, m=10, n=10, gamma=0.1)
    assert st_.thesis_sigma == pytest.approx(1082.8, rel=1e-4) and st_.strict_sigma == pytest.approx(16.68, rel=1e-3)
    assert st_.strict_vs_thesis == pytest.approx(st_.thesis_sigma / st_.strict_sigma)
    assert st_.bound == pytest.approx(math.sqrt(20))
    assert st_.sampling_gain == pytest.approx(st_.strict_sigma / st_.corrected_sigma)


def test_release_all_strict_noise_and_redraws():
    """Strict TopicDP's noise has standard deviation strict_topicdp_sigma (seeded, 4,000 × 6 values, ±2 %), and
    redraw_releases draws each mechanism at its release's scale."""
    w = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    rng = np.random.default_rng(5)
    noise = np.stack(
        [dpcore.topicdp.strict_topicdp_mechanism(w, epsilon=3, delta=1e-5, rng=rng).noisy - w for _ in range(4000)]
    )
    assert noise.std() / dpcore.topicdp.strict_topicdp_sigma(epsilon=3, delta=1e-5, m=2) == pytest.approx(1.0, abs=0.02)
    rels = dpcore.topicdp.release_all(w, epsilon=50, delta=1e-5, sensitivity=0.05, rng=0, gamma=0.1)
    for _mech, rel in rels.items():
        many = tdp.redraw_releases(rel, w, 3000, np.random.default_rng(1))
        assert many.shape == (3000, 2, 3) and np.allclose(many.sum(axis=2), 1.0) and np.all(many >= 0)
    # at tiny noise the redraws sit on w; Laplace's scale is b (std √2·b)
    calm = dpcore.topicdp.release_all(w, epsilon=1e4, delta=1e-5, sensitivity=1e-4, rng=0, gamma=0.1)[
        "TopicDP corrected"
    ]
    assert np.allclose(tdp.redraw_releases(calm, w, 5, 0), w, atol=1e-3)


def _swap_corpus():
    """20 users half on sport, half on food, plus a sport-heavy user and a food-heavy user."""
    rng = np.random.default_rng(0)
    records = []
    for u in range(20):
        words = TOPIC_WORDS["sport" if u % 2 == 0 else "food"]
        records += [{"user": f"u{u:02d}", "text": " ".join(rng.choice(words, 15))} for _ in range(3)]
    for name, topic in (("x_sport", "sport"), ("y_food", "food")):
        records += [{"user": name, "text": " ".join(rng.choice(TOPIC_WORDS[topic], 15))} for _ in range(12)]
    return corpus_from_records(records, user_field="user", text_field="text", name="swap")


def test_neighbours_whose_topics_swap_prevalence_are_covered_by_the_sampler(monkeypatch):
    """Issue 21 item 3: D = 20 users + a sport-heavy user, D′ = the same 20 + a food-heavy user. The two topics
    swap prevalence ranks between D and D′. The released tables keep a data-independent row order (LDA
    component index) and the sampler's Δ_i is the distance between the two tables *as released* — so it covers
    what a recipient sees. (Before: rows by prevalence, Δ_i after alignment: the release moved by > 1 while
    Δ_i stayed at the aligned distance.)"""
    lda = LdaSettings(n_topics=2, min_df=1, max_df=1.0)
    data = document_term_data(_swap_corpus(), settings=lda)
    ids = list(_swap_corpus().user_ids)
    shared = np.array([ids.index(f"u{u:02d}") for u in range(20)])
    x, x2 = ids.index("x_sport"), ids.index("y_food")
    monkeypatch.setattr(tdp.sampler, "pair_users", lambda n_users, index, sampler: (shared, x, x2))
    fits = [fit_topic_model(data, settings=lda, users=list(shared) + [u]) for u in (x, x2)]
    assert list(np.argsort(-fits[0].prevalence)) == list(np.argsort(-fits[1].prevalence))[::-1]  # the swap
    grid = tdp.pair_deltas(data, 0, lda=lda, sampler=tdp.SamplerSettings())
    for m, n in [(2, 2), (2, 4), (2, 6), (1, 3)]:
        tables = [topic_keyword_matrix(f, m=m, n=n) for f in fits]
        if m == 2:
            assert tables[0].topics == tables[1].topics == (0, 1)  # component order, not prevalence order
        cols = [np.array([data.words.index(w) for w in t.words]) for t in tables]
        released = tdp_tm_fit.released_matrix_distance(tables[0].matrix, cols[0], tables[1].matrix, cols[1])
        delta_i = grid[m - 1, n - 2]
        assert delta_i == pytest.approx(released, abs=1e-12) and delta_i >= released - 1e-12
        if m == 2:  # what a prevalence-ordered release would have moved, against the aligned distance it was sampled at
            by_prev = [f.topic_word[np.argsort(-f.prevalence)][:, c] for f, c in zip(fits, cols)]
            by_prev = [b / b.sum(axis=1, keepdims=True) for b in by_prev]
            swapped = tdp_tm_fit.released_matrix_distance(by_prev[0], cols[0], by_prev[1], cols[1])
            aligned = aligned_matrix_distance(tables[0].matrix, cols[0], tables[1].matrix, cols[1])
            assert swapped > 1.0 and swapped > aligned + 0.5


def test_cache_key_names_the_release_order_format():
    """Δ_i changed meaning (issue 21 item 3): the key carries format 3, so files of the aligned Δ_i (format 2)
    are never read."""
    import hashlib

    lda, sampler = LdaSettings(engine="vb"), tdp.SamplerSettings()
    old = json.dumps(
        {
            "corpus": "abc",
            "lda": lda.as_dict(),
            "sampler": sampler.as_dict(),
            "grid": [list(g) for g in tdp.sampler._grid(lda)],
            "format": 2,
        },
        sort_keys=True,
    )
    assert tdp.sampler._cache_key("abc", lda, sampler) != hashlib.sha256(old.encode()).hexdigest()
    new = json.dumps(
        {
            "corpus": "abc",
            "lda": lda.as_dict(),
            "sampler": sampler.as_dict(),
            "grid": [list(g) for g in tdp.sampler._grid(lda)],
            "format": 3,
        },
        sort_keys=True,
    )
    assert tdp.sampler._cache_key("abc", lda, sampler) == hashlib.sha256(new.encode()).hexdigest()


def test_chat_filler_list_is_the_document_frequency_rule_on_the_public_split():
    """CHAT_FILLER_WORDS is exactly the stated rule's output: words in ≥ 10 % of the public chat documents,
    beyond scikit-learn's list (issue 20 item 3); every one is a stop word of the topic vocabulary."""
    public = dpcore.load_real_corpus("chat", which="public")
    assert tdp_tm.chat_filler_words(public) == tdp_tm.CHAT_FILLER_WORDS
    assert {"haha", "lol", "oh", "thats"} <= tdp_tm.CHAT_FILLER_WORDS <= tdp_tm.TOPIC_STOP_WORDS
    assert tdp_tm.chat_filler_words(public, min_share=0.2) < tdp_tm.CHAT_FILLER_WORDS
    with pytest.raises(ValueError, match="min_share must be > 0"):
        tdp_tm.chat_filler_words(public, min_share=0)


@pytest.mark.parametrize("which", ["classroom", "real"])
def test_shipped_draws_are_the_current_definition(which):
    """The shipped Δ_i (sample_data/topicdp_sensitivity) are recomputed for three pairs with today's code: the
    release order, the vocabulary and the distance as released (a stale file would differ; issue 21 item 3)."""
    corpus = (
        dpcore.load_real_corpus("chat", which="private") if which == "real" else dpcore.load_sample_corpus("private")
    )
    lda, sampler = LdaSettings(), tdp.SamplerSettings()
    draws = tdp.load_sensitivity_draws(corpus.content_hash, lda=lda, sampler=sampler, cache_dir=tdp.shipped_cache_dir())
    assert draws.covers(0.1), f"run: nice -n 10 python scripts/topicdp_ship.py --corpus {which}"
    data = document_term_data(corpus, settings=lda)
    for i in (0, 1, 2):
        assert np.allclose(tdp.pair_deltas(data, i, lda=lda, sampler=sampler), draws.deltas[i], rtol=1e-5, atol=1e-9)
