"""VIPS-LDA on the TopicDP page (dpcore.topicdp.vips_comparison, issue 23 items 2, 4, 6): one reference table for every mechanism.

- reading a K × V release on the page's table: a worked example (permuted topics, a word outside the release's
  vocabulary) and a brute-force alignment over every permutation;
- the public-only fit (0-DP) and the twin; the one-time setup's disk cache (written, read back identically, an
  upload's twin never written);
- the sweep's noise is salted by every parameter; the ε TopicDP (thesis) needs for an L1 inverts its curve;
- the session budget composes VIPS exactly (J Gaussians with σ/B = one with σ/(B√J)), the reviewer knows it;
- on the real chat (slow): the Done-when of issue 23 — at ε = 1 VIPS-LDA's mean L1 to the page's table is below
  every matrix mechanism's, and its own table matches at least half of its topics to distinct prompts.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import dpcore
from dpcore import guarantees as G
from dpcore import topicdp as tdp
from dpcore.text import Corpus, Document
from dpcore.topicdp import LdaSettings, TopicModel, vips, vips_inputs, vips_setup
from dpcore.topicdp import vips_comparison as tv

TOPICS = {
    "sport": "football goal match team player coach league score stadium season".split(),
    "food": "pasta pizza sauce cheese garlic oven recipe dinner tomato bread".split(),
    "money": "invoice payment bank account dollars budget price cost salary refund".split(),
    "travel": "flight hotel airport train ticket luggage passport taxi beach museum".split(),
}


def corpus(seed: int, n_users: int, name: str) -> Corpus:
    rng = np.random.default_rng(seed)
    names = list(TOPICS)
    users = []
    for u in range(n_users):
        docs = []
        for _ in range(1 + u % 3):
            a, b = TOPICS[names[u % 4]], TOPICS[names[(u + 1) % 4]]
            docs.append(Document(sentences=(tuple(rng.choice(a, 12)) + tuple(rng.choice(b, 3)),)))
        users.append(tuple(docs))
    return Corpus(user_ids=tuple(f"{name}{u:03d}" for u in range(n_users)), users=tuple(users), name=name)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """A private and a public corpus about four topics, the page's LDA model of the private one, its table,
    and VIPS's setup (its files in a throw-away cache)."""
    private, public = corpus(0, 60, "private"), corpus(1, 40, "public")
    lda = LdaSettings(n_topics=4, max_iter=20)
    model = dpcore.fit_topic_model(dpcore.topicdp.document_term_data(private, settings=lda), settings=lda)
    table = dpcore.topic_keyword_matrix(model, m=4, n=6)
    cache = tmp_path_factory.mktemp("vips_cache")
    setup = tv.vips_page_setup(private, public, n_topics=4, cache_dir=cache)
    return private, public, model, table, setup, cache


@pytest.fixture
def shipped_public(world, monkeypatch):
    """The world's public corpus treated as a shipped public split (as the page's public data is), so VIPS's
    guarantee is green and counted by the budget (a caller's corpus is DP only if public: issue 30 item 4)."""
    import dpcore.text.corpus as corpus_module

    monkeypatch.setattr(corpus_module, "_SHIPPED_PUBLIC", corpus_module._SHIPPED_PUBLIC | {world[1].content_hash})
    return world


def _model(topic_word, words) -> TopicModel:
    tw = np.asarray(topic_word, dtype=float)
    return TopicModel(
        topic_word=tw / tw.sum(axis=1, keepdims=True),
        prevalence=np.arange(tw.shape[0], 0, -1) + 10.0,
        words=tuple(words),
        settings=LdaSettings(n_topics=tw.shape[0]),
    )


# ---------------------------------------------------------------------------------------------
# a K × V release read on the page's table


def test_view_worked_example_permuted_topics_and_a_missing_word():
    words = ("apple", "bread", "cheese", "dates", "eggs")
    model = _model([[5, 3, 1, 1, 0.5], [0.5, 1, 6, 2, 1], [1, 0.5, 0.5, 3, 6]], words)
    table = dpcore.topic_keyword_matrix(model, m=3, n=4)
    # the release: the same topics in the order (2, 0, 1), over another vocabulary without "dates" and with "figs"
    theirs = ("eggs", "figs", "apple", "bread", "cheese")
    cols = [words.index(w) if w in words else None for w in theirs]
    release = np.array([[model.topic_word[t, c] if c is not None else 0.2 for c in cols] for t in (2, 0, 1)])
    view = tv.view_on_table(release, theirs, model=model, table=table)
    assert view.order.tolist() == [1, 2, 0]  # the model's topic t is the release's topic order[t]
    assert view.missing == (("dates",) if "dates" in table.words else ())
    expected = np.array(
        [[model.topic_word[t, words.index(w)] if w != "dates" else 0.0 for w in table.words] for t in table.topics]
    )
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(view.matrix, expected, rtol=1e-12)
    if "dates" not in table.words:  # the table's columns hold every word: the view is the table itself
        np.testing.assert_allclose(view.matrix, table.matrix, rtol=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_alignment_is_the_best_permutation_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    words = tuple(f"w{i}" for i in range(12))
    model = _model(rng.gamma(0.5, 1.0, (4, 12)) + 1e-3, words)
    table = dpcore.topic_keyword_matrix(model, m=3, n=5)
    theirs = words[2:] + ("x1", "x2")  # two of the model's words missing, two others added
    tw = rng.gamma(0.5, 1.0, (4, len(theirs))) + 1e-3
    view = tv.view_on_table(tw, theirs, model=model, table=table)
    shared = [w for w in words if w in theirs]
    a = model.topic_word[:, [words.index(w) for w in shared]]
    b = tw[:, [theirs.index(w) for w in shared]]
    a, b = a / a.sum(1, keepdims=True), b / b.sum(1, keepdims=True)
    best = min(itertools.permutations(range(4)), key=lambda p: ((a - b[list(p)]) ** 2).sum())
    assert view.order.tolist() == list(best)
    assert set(view.missing) == set(table.words) - set(theirs)


def test_view_refuses_a_wrong_shape_or_nothing_in_common():
    model = _model(np.ones((2, 3)), ("a", "b", "c"))
    table = dpcore.topic_keyword_matrix(model, m=2, n=2)
    with pytest.raises(ValueError, match="topic_word must be 2 × 3"):
        tv.view_on_table(np.ones((3, 3)), ("a", "b", "c"), model=model, table=table)
    with pytest.raises(ValueError, match="share no word"):
        tv.view_on_table(np.ones((2, 2)), ("x", "y"), model=model, table=table)


# ---------------------------------------------------------------------------------------------
# the setup, the public-only fit, the twin


def test_setup_is_public_and_its_files_are_read_back_identically(world, tmp_path):
    private, public, model, table, setup, cache = world
    assert setup.vocabulary.source_hash == public.content_hash and setup.start.source_hash == public.content_hash
    assert setup.counts.corpus_hash == private.content_hash and setup.counts.words == setup.vocabulary.words
    files = sorted(p.name.split("_")[1] for p in cache.glob("vips_*.npz"))
    assert files == ["start", "twin"]
    again = tv.vips_page_setup(private, public, n_topics=4, cache_dir=cache)  # from the files
    assert again.vocabulary.words == setup.vocabulary.words
    np.testing.assert_array_equal(again.start.lam, setup.start.lam)
    np.testing.assert_array_equal(again.twin.topic_word, setup.twin.topic_word)
    fresh = vips.public_start(
        public, vocabulary=vips_inputs.public_vocabulary(public), n_topics=4
    )  # what the file holds
    np.testing.assert_allclose(setup.start.lam, fresh.lam, rtol=1e-12)
    twin = vips.vips_reference_fit(setup.counts, n_topics=4, vocabulary=setup.vocabulary, start=setup.start)
    np.testing.assert_allclose(setup.twin.topic_word, twin.topic_word, rtol=1e-10)
    # an upload's twin stays in memory: nothing derived from the private data is written
    tv.vips_page_setup(private, public, n_topics=4, cache_dir=tmp_path, save_private=False)
    assert [p.name.split("_")[1] for p in tmp_path.glob("vips_*.npz")] == ["start"]
    # the users' norms are what B bounds: ‖S_u‖_F under λ₀
    contrib = vips.person_contributions(setup.counts, setup.start.lam)
    brute = [np.linalg.norm(contrib[setup.counts.pw_user == u]) for u in range(private.n_users)]
    np.testing.assert_allclose(setup.user_norms, brute, rtol=1e-12)


def test_public_only_fit_is_zero_dp_and_the_twin_is_no_protection(world):
    *_, setup, _ = world
    pub = tv.public_only_release(setup)
    g = pub.guarantee
    assert g.kind == G.PURE_DP and g.epsilon == 0.0 and "0-DP" in g.promise and g.scope == "uses no private data"
    np.testing.assert_allclose(pub.topic_word * pub.prevalence[:, None], setup.start.lam, rtol=1e-12)
    assert setup.twin.guarantee.kind == G.NO_PROTECTION


def test_compare_release_reads_the_twin_and_a_release_on_the_same_cells(world):
    private, public, model, table, setup, _ = world
    rel = vips.vips_lda(
        setup.counts, n_topics=4, epsilon=5.0, delta=1e-5, rng=0, vocabulary=setup.vocabulary, start=setup.start
    )
    c = tv.compare_release(rel, model=model, table=table)
    view = tv.view_on_table(rel.topic_word, rel.words, model=model, table=table)
    np.testing.assert_array_equal(c.matrix, view.matrix)
    assert c.errors["l1"] == pytest.approx(dpcore.metrics.l1_distance(table.matrix, view.matrix))
    assert c.noise_scale == rel.sigma and c.guarantee is rel.guarantee
    # the test's "public" corpus is one it built, not a shipped public split: DP only if it is public (issue 30 item 4)
    assert c.guarantee.colour == "orange" and "DP if this vocabulary is public" in c.guarantee.conditional_on
    # the budget counts it in the badge's words: DP for part of the release, given that the vocabulary is public
    entry = dpcore.lab.budget_entry(rel)
    assert entry.guarantee.budget_standing == "counted for part of the release"
    assert dpcore.lab.compose_releases([entry]).colour == "orange"
    assert c.own_table.words == dpcore.topic_keyword_matrix(rel.topic_model(), m=4, n=6).words and c.match is None
    assert 0 <= c.errors["l1"] <= 2 * table.shape[0]


# ---------------------------------------------------------------------------------------------
# many releases: the salt, the curves, the thesis's ε


def test_sweep_is_deterministic_and_salted_by_every_parameter(world):
    private, public, model, table, setup, _ = world
    kw = dict(model=model, table=table, epsilons=(1.0, 5.0), delta=1e-5, draws=3, seed=4)
    a, b = tv.vips_sweep(setup, **kw), tv.vips_sweep(setup, **kw)
    assert a == b and a.matched is None and a.first_epsilon() is None and a.sigmas[0] > a.sigmas[1]
    for change in (dict(seed=5), dict(delta=1e-6), dict(clip_norm=1.0), dict(draws=4)):
        assert tv.vips_sweep(setup, **{**kw, **change}).stats["l1"] != a.stats["l1"], change
    # the i-th ε's releases are vips_lda's with the documented generator
    rng = np.random.default_rng(tv._seed_words(4, "sweep", 5.0, 1e-5, vips.DEFAULT_CLIP_NORM, 1, 4, 3))
    l1 = [
        tv.compare_release(
            vips.vips_lda(
                setup.counts,
                n_topics=4,
                epsilon=5.0,
                delta=1e-5,
                rng=rng,
                vocabulary=setup.vocabulary,
                start=setup.start,
            ),
            model=model,
            table=table,
        ).errors["l1"]
        for _ in range(3)
    ]
    assert a.at(5.0) == pytest.approx(np.mean(l1), rel=1e-12)


def test_first_epsilon_needs_the_mean_to_reach_the_share():
    stats = {k: ((0.0,) * 3,) * 3 for k in ("l1", "rmse", "kendall")}
    s = tv.VipsSweep((0.1, 0.5, 1.0), (1.0, 1.0, 1.0), stats, (4.9, 5.0, 7.0), 10, 10)
    assert s.first_epsilon() == 0.5 and s.first_epsilon(0.6) == 1.0 and s.first_epsilon(0.8) is None


def test_error_curve_against_gamma_is_flat_and_size_reads_each_table(world):
    private, public, model, table, setup, _ = world
    flat = tv.vips_error_curve(
        setup,
        model=model,
        parameter="gamma",
        values=(0.02, 0.12),
        epsilon=2.0,
        delta=1e-5,
        m=4,
        n=6,
        repetitions=4,
        rng=0,
    )
    assert flat["l1"][0][0] == flat["l1"][0][1]
    sizes = tv.vips_error_curve(
        setup, model=model, parameter="size", values=(2, 4), epsilon=2.0, delta=1e-5, m=4, n=6, repetitions=4, rng=0
    )
    assert all(0 <= x <= 2 * s for x, s in zip(sizes["l1"][0], (2, 4)))
    public_only = tv.fixed_release_curve(
        tv.public_only_release(setup), model=model, parameter="epsilon", values=(1.0, 2.0), m=4, n=6
    )
    assert (
        public_only["l1"][0]
        == public_only["l1"][1]
        == tv.compare_release(tv.public_only_release(setup), model=model, table=table).errors["l1"]
    )


def test_thesis_epsilon_inverts_the_thesis_curve():
    rng = np.random.default_rng(0)
    w = rng.dirichlet(np.ones(6), size=4)
    curve = tv.thesis_l1_curve(w, epsilons=tv.THESIS_EPSILONS, delta=1e-5, delta_s=2.0, draws=50)
    assert all(a >= b - 1e-9 for a, b in zip(curve, curve[1:]))  # less noise, less error
    target = 0.5 * (max(curve) + min(curve))
    eps = tv.thesis_epsilon_for_l1(w, target, delta=1e-5, delta_s=2.0, draws=50)
    assert tv.thesis_l1_curve(w, epsilons=(eps,), delta=1e-5, delta_s=2.0, draws=50)[0] == pytest.approx(
        target, rel=1e-8
    )
    # σ at that ε is the thesis's σ (ε split over the m·n entries)
    sigma = dpcore.topicdp.topicdp_sigma(epsilon=eps, delta=1e-5, sensitivity=2.0, m=4, n=6)
    assert sigma == pytest.approx(2.0 * math.sqrt(2 * math.log(1.25e5)) * 24 / eps)
    assert tv.thesis_epsilon_for_l1(w, 2 * 4, delta=1e-5, delta_s=2.0, draws=50) is None  # beyond pure noise


def test_mean_l1_names_every_mechanism(world):
    private, public, model, table, setup, _ = world
    means = tv.mean_l1_at(setup, model=model, table=table, epsilon=1.0, delta=1e-5, delta_s=1.0, repetitions=3, rng=0)
    assert list(means) == [*tdp.TOPIC_MECHANISMS, tv.VIPS_NAME, tv.PUBLIC_ONLY_NAME]
    assert (
        means[tv.PUBLIC_ONLY_NAME]
        == tv.compare_release(tv.public_only_release(setup), model=model, table=table).errors["l1"]
    )


# ---------------------------------------------------------------------------------------------
# the session budget and the reviewer


@pytest.mark.parametrize("iterations", [1, 3])
def test_budget_composes_vips_exactly_as_j_gaussians(shipped_public, iterations):
    import dp_accounting
    from dp_accounting.pld import PLDAccountant

    *_, setup, _ = shipped_public
    rel = vips.vips_lda(
        setup.counts,
        n_topics=4,
        epsilon=1.0,
        delta=1e-5,
        rng=0,
        iterations=iterations,
        vocabulary=setup.vocabulary,
        start=setup.start,
    )
    entry = dpcore.lab.budget_entry(rel)
    z = rel.sigma / rel.clip_norm
    assert entry.mechanism == "VIPS-LDA" and entry.event == ("gaussian", pytest.approx(z / math.sqrt(iterations)), 1e-5)
    total = dpcore.compose_releases([entry, entry])  # the same release twice is still one in a session, not here
    acc = PLDAccountant(value_discretization_interval=1e-4)
    acc.compose(dp_accounting.GaussianDpEvent(z), 2 * iterations)  # 2J Gaussians with multiplier σ/B
    assert total.epsilon == pytest.approx(acc.get_epsilon(1e-5), abs=2e-3)
    assert dpcore.compose_releases([entry]).epsilon <= 1.0 + 1e-3


def test_reviewer_knows_vips(shipped_public):
    *_, setup, _ = shipped_public
    rel = vips.vips_lda(
        setup.counts, n_topics=4, epsilon=1.0, delta=1e-5, rng=0, vocabulary=setup.vocabulary, start=setup.start
    )
    rev = dpcore.review_release(rel, n_users=60, user_items=setup.user_norms)
    assert rev.guarantee is rel.guarantee and rev.session_entry.event[0] == "gaussian"
    assert rev.noise[0].half_width == pytest.approx(1.959964 * rel.sigma, rel=1e-5)
    assert "VIPS-LDA" in rev.budget.text and (rev.budget.total_epsilon, rev.budget.delta) == (1.0, 1e-5)
    fires = {w.rule for w in dpcore.review_release(rel, n_users=60, user_items=np.full(60, 0.5)).warnings}
    assert "cap-above-median" in fires  # B = 2 above every user's norm of 0.5
    assert "cap-above-median" not in {
        w.rule for w in dpcore.review_release(rel, n_users=60, user_items=np.full(60, 5.0)).warnings
    }
    home = {name: g for page, name, g in dpcore.lab.review.mechanism_guarantees(W=2, max_items=10, max_users=100)}
    assert home["VIPS-LDA"].colour == "green" and home["VIPS-LDA"].is_dp


# ---------------------------------------------------------------------------------------------
# the real chat corpus (issue 23's "done when")


@pytest.mark.slow
def test_real_chat_at_epsilon_1_vips_beats_every_matrix_mechanism_and_matches_half_the_prompts():
    from dpcore.topicdp.prompts import prompt_documents

    private = dpcore.load_real_corpus("chat", which="private")
    public = dpcore.load_real_corpus("chat", which="public")
    model = dpcore.topicdp.load_topic_model(private.content_hash)
    table = dpcore.topic_keyword_matrix(model, m=10, n=10)
    setup = tv.vips_page_setup(private, public, n_topics=10, twin=False)
    ds = dpcore.topicdp.load_sensitivity_draws(private.content_hash).sensitivity(gamma=0.1, m=10, n=10).delta_s
    means = tv.mean_l1_at(setup, model=model, table=table, epsilon=1.0, delta=1e-5, delta_s=ds, repetitions=10, rng=0)
    assert means[tv.VIPS_NAME] < min(means[m] for m in tdp.TOPIC_MECHANISMS) - 2.0, means
    sweep = tv.vips_sweep(
        setup,
        model=model,
        table=table,
        docs=prompt_documents(private, setup.vocabulary.words),
        epsilons=(1.0,),
        delta=1e-5,
        draws=10,
        seed=0,
    )
    assert sweep.matched[0] >= 5, sweep.matched


@pytest.mark.slow
def test_shipped_real_chat_start_and_twin_are_todays_fits():
    """sample_data/topicdp_sensitivity ships VIPS's public start and its twin for the real chat (so that the page's
    first render does not fit them): they are what today's code fits."""
    private = dpcore.load_real_corpus("chat", which="private")
    public = dpcore.load_real_corpus("chat", which="public")
    key = vips_setup._start_key(public, 10)
    start = vips_setup._load(f"vips_start_{key[:20]}.npz", key, tdp.shipped_cache_dir())
    assert start is not None, "the shipped VIPS start of the real chat is missing or stale"
    vocab = vips_inputs.public_vocabulary(public)
    assert tuple(str(w) for w in start["words"]) == vocab.words
    fitted = vips.public_start(public, vocabulary=vocab, n_topics=10)
    np.testing.assert_allclose(start["lam"], fitted.lam, rtol=1e-6)
    tkey = vips_setup._twin_key(private.content_hash, key)
    twin = vips_setup._load(f"vips_twin_{tkey[:20]}.npz", tkey, tdp.shipped_cache_dir())
    assert twin is not None, "the shipped VIPS twin of the real chat is missing or stale"
    ref = vips.vips_reference_fit(private, n_topics=10, vocabulary=vocab, start=fitted)
    np.testing.assert_allclose(twin["lam"], ref.topic_word * ref.prevalence[:, None], rtol=1e-6)
