"""The session budget's maths (dpcore.lab.budget, dpcore.lab.budget_accounting; issues 21 item 5, 29 item 2, 30 items
2 and 7, 31 item 4): one entry per release, keyed by the release's identity, composed exactly — checked against
dp_accounting's own analytic Gaussian, its PLD at a fine discretization, an arbitrary-precision closed form, and basic
composition."""

from __future__ import annotations

import math
from types import SimpleNamespace

import mpmath
import numpy as np
import pytest
import scipy.sparse as sp

import dpcore
from dpcore.guarantees import approximate_dp, local_sensitivity, pure_dp
from dpcore.lab import budget_accounting as acc
from dpcore.lab.budget import BudgetEntry, budget_entry, compose_releases, release_identity

dpa = pytest.importorskip("dp_accounting")
from dp_accounting.pld import privacy_loss_distribution as pld_lib  # noqa: E402
from dp_accounting.pld import privacy_loss_mechanism as plm  # noqa: E402


def gaussian_entry(epsilon, delta=1e-5, key=None):
    z = dpcore.gaussian_sigma(epsilon=epsilon, delta=delta, method="analytic")
    return BudgetEntry(
        "G", "θ", approximate_dp(epsilon=epsilon, delta=delta), ("gaussian", z, delta), key or f"g{epsilon}{delta}"
    )


def laplace_entry(epsilon):
    return BudgetEntry("L", "counts", pure_dp(epsilon=epsilon), ("laplace", 1.0 / epsilon), f"l{epsilon}")


def generic_entry(epsilon, delta, count=1):
    return BudgetEntry(
        "D",
        "sets",
        approximate_dp(epsilon=epsilon, delta=delta),
        ("approximate", epsilon, delta, count),
        f"d{epsilon}{delta}{count}",
    )


def fine_pld_epsilon(events, delta, d=1e-5):
    """dp_accounting's PLD of ``events`` at value discretization ``d`` (finer than the budget's 1e-4)."""
    out = None
    for e in events:
        if e[0] == "gaussian":
            one = pld_lib.from_gaussian_mechanism(e[1], value_discretization_interval=d)
        elif e[0] == "laplace":
            one = pld_lib.from_laplace_mechanism(e[1], value_discretization_interval=d)
        else:
            one = pld_lib.from_privacy_parameters(
                dpa.pld.common.DifferentialPrivacyParameters(e[1], e[2]), value_discretization_interval=d
            ).self_compose(e[3])
        out = one if out is None else out.compose(one)
    return out.get_epsilon_for_delta(delta)


# ------------------------------------------------------------------------------ one Gaussian: the closed form

Z_GRID = (0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 3.7, 10.0, 50.0, 300.0)
DELTA_GRID = (1e-2, 1e-5, 1e-8, 1e-12)


@pytest.mark.parametrize("z", Z_GRID)
@pytest.mark.parametrize("delta", DELTA_GRID)
def test_one_gaussians_epsilon_is_exact_against_dp_accountings_analytic_gaussian(z, delta):
    """Issue 29 item 2. dp_accounting's GaussianPrivacyLoss.get_delta_for_epsilon is its own analytic hockey-stick
    divergence of the Gaussian (no discretization): at our ε it gives back δ to 1e-6 relative, and bisecting it for
    ε (an independent root-finder over an independent implementation) gives our ε to 1e-6. No PLD tolerance is needed
    here: both sides are exact up to floating point."""
    eps = acc.gaussian_epsilon(z, delta=delta)
    analytic = plm.GaussianPrivacyLoss(z, sensitivity=1.0)
    if eps == 0:  # so much noise that even ε = 0 holds at this δ (z = 50, δ = 0.01: δ(0) = 2Φ(1/(2z)) − 1 = 0.008)
        assert analytic.get_delta_for_epsilon(0.0) <= delta
        return
    assert analytic.get_delta_for_epsilon(eps) == pytest.approx(delta, rel=1e-6)
    lo, hi = 0.0, 1.0
    while analytic.get_delta_for_epsilon(hi) > delta:
        lo, hi = hi, 2 * hi
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if analytic.get_delta_for_epsilon(mid) > delta else (lo, mid)
    assert eps == pytest.approx(hi, abs=1e-6)


@pytest.mark.parametrize(
    ("z", "delta"), [(3.7, 1e-3), (3.7, 1e-6), (20.0, 1e-6), pytest.param(0.3, 1e-3, marks=pytest.mark.slow)]
)
def test_one_gaussians_epsilon_against_dp_accountings_pld_at_a_fine_discretization(z, delta):
    """Against the PLD itself: the PLD rounds each privacy loss up to its grid (pessimistic), so for one mechanism its
    ε lies in [exact, exact + d] with d its discretization (here 1e-5); ours lies below it up to the PLD's own float
    error (its truncated tails and sums: ~1e-9 at z = 0.3), well inside the 1e-6 asked for."""
    eps = acc.gaussian_epsilon(z, delta=delta)
    pld = fine_pld_epsilon([("gaussian", z, delta)], delta, d=1e-5)
    assert eps - 1e-6 <= pld <= eps + 1e-5


@pytest.mark.parametrize(("z", "delta"), [(0.02, 1e-10), (0.01, 1e-5), (1000.0, 1e-12), (0.3, 1e-300)])
def test_one_gaussian_stays_exact_far_in_the_tails(z, delta):
    """Large ε/z (ε in the thousands: e^ε overflows a float, both Φ terms underflow) and huge z: the log-space closed
    form agrees with the same formula in 60-digit arithmetic (mpmath), where dp_accounting's analytic δ overflows."""
    eps = acc.gaussian_epsilon(z, delta=delta)
    mpmath.mp.dps = 60
    phi = lambda x: mpmath.ncdf(x)  # noqa: E731
    e, zz = mpmath.mpf(eps), mpmath.mpf(z)
    exact = phi(-e * zz + 1 / (2 * zz)) - mpmath.exp(e) * phi(-e * zz - 1 / (2 * zz))
    assert float(exact / delta) == pytest.approx(1.0, rel=1e-6)
    assert math.isfinite(eps) and eps > 0


def test_the_profile_is_decreasing_and_its_inverse_is_monotone():
    eps = np.linspace(-5, 50, 2001)
    for z in (0.1, 1.0, 10.0):
        d = acc.gaussian_profile(epsilon=eps, z=z)
        assert np.all(np.diff(d) <= 1e-300) and d[0] <= 1.0 and d[-1] >= 0.0
    e = [acc.gaussian_epsilon(1.0, delta=d) for d in (1e-2, 1e-4, 1e-6, 1e-8)]
    assert e == sorted(e)
    assert acc.gaussian_epsilon(1.0, delta=0.99) == 0.0 and acc.gaussian_epsilon(1.0, delta=0.0) == math.inf


# ------------------------------------------------------------------------------ compositions


@pytest.mark.parametrize("k", [1, 2, 5, 20])
def test_k_equal_gaussians_compose_to_one_gaussian_with_z_over_root_k(k):
    """k Gaussian releases with noise multiplier z are one Gaussian with z/√k: exactly its closed form (dpcore's own
    gaussian_delta, an independent implementation, gives back δ)."""
    entries = [gaussian_entry(1.0, key=f"g{i}") for i in range(k)]
    z = entries[0].event[1] / math.sqrt(k)
    got = compose_releases(entries).epsilon
    assert dpcore.gaussian_delta(epsilon=got, sigma=z) == pytest.approx(1e-5, rel=1e-6)
    if k == 1:
        assert got == pytest.approx(1.0, abs=1e-9)  # σ was calibrated to (1, 1e-5) by the analytic Gaussian


@pytest.mark.parametrize(
    "events",
    [
        [("gaussian", 3.7, 1e-5), ("laplace", 1 / 0.7)],
        [("gaussian", 3.0, 1e-5), ("gaussian", 6.0, 1e-5), ("laplace", 2.0), ("laplace", 1.0)],
        [("gaussian", 2.5, 1e-6), ("approximate", 1.0, 1e-6, 3)],
        [("laplace", 1.0), ("approximate", 0.5, 1e-6, 2)],
    ],
)
def test_mixed_compositions_agree_with_dp_accountings_fine_pld(events):
    """With a non-Gaussian event the others' PLD (discretization 1e-4) is convolved with the merged Gaussian's exact
    profile. dp_accounting's PLD chain at 1e-5 is pessimistic by ≤ 1e-5 per event; ours by ≤ 1e-4 per non-Gaussian
    event (their PLD), and never below the exact value, so the two agree within 1e-4 per non-Gaussian event — and
    ours is never optimistic by more than the fine PLD's own pessimism."""
    got, delta = acc.compose_events(tuple(sorted(events)))
    fine = fine_pld_epsilon(events, delta)
    others = sum(1 for e in events if e[0] != "gaussian")
    assert fine - 1e-5 * len(events) <= got <= fine + 1e-4 * others


def test_the_pld_grid_stays_fine_for_a_short_session_and_bounded_for_a_long_one():
    """Issue 29: a long session's Laplace and (ε, δ) losses span many nats; at 1e-4 their composed PLD grew to a
    million points and a new release cost seconds. The interval is 1e-4 while the span fits PLD_MAX_POINTS, else
    the smallest power-of-two multiple of 1e-4 that fits it."""
    assert acc.pld_interval((("laplace", 1.0), ("approximate", 0.5, 1e-6, 1))) == acc.PLD_DISCRETIZATION  # 3 nats
    assert acc.pld_interval((("gaussian", 1.0, 1e-5),)) == acc.PLD_DISCRETIZATION
    long = tuple(("laplace", 1 / e) for e in (10, 9, 7, 4, 1)) + tuple(("approximate", e, 1e-5, 1) for e in (10, 9, 7))
    span = 2 * (10 + 9 + 7 + 4 + 1) + 2 * (10 + 9 + 7)
    interval = acc.pld_interval(long)
    ratio = interval / acc.PLD_DISCRETIZATION
    assert ratio > 1 and math.log2(ratio) == round(math.log2(ratio))
    assert span / interval <= acc.PLD_MAX_POINTS < 2 * span / interval


def test_a_coarser_grid_stays_pessimistic_and_within_one_interval_per_event(monkeypatch):
    """Four Laplace releases at ε = 1 beside a Gaussian span 8 nats: the grid coarsens (4e-4 at 2^15 points). The
    composed ε is never below the 1e-4 grid's by more than that grid's own pessimism and exceeds it by at most the
    coarse interval per non-Gaussian event; the same against dp_accounting's fine PLD, and the support fits."""
    others = tuple(("laplace", 1.0) for _ in range(4))
    events = tuple(sorted((("gaussian", 2.0, 1e-5),) + others))
    interval = acc.pld_interval(others)
    assert interval > acc.PLD_DISCRETIZATION
    got, delta = acc.compose_events(events)
    for losses, _, _ in acc._losses(others, interval):
        assert losses.size <= acc.PLD_MAX_POINTS
    monkeypatch.setattr(acc, "PLD_MAX_POINTS", 1 << 30)  # the 1e-4 grid, composed directly (not via the cache)
    fine_grid = acc._convolved_epsilon(others, 2.0, delta)
    assert fine_grid - 4 * acc.PLD_DISCRETIZATION <= got <= fine_grid + 4 * interval
    fine = fine_pld_epsilon(events, delta)
    assert fine - 1e-5 * len(events) <= got <= fine + 4 * interval
    assert got > fine_grid  # a coarser pessimistic grid never reports less (here: strictly more)


@pytest.mark.parametrize("seed", range(6))
def test_the_convolutions_newton_solve_agrees_with_brents_method_on_the_same_function(seed):
    """Issue 29: the mixed composition's ε is found by Newton's method on log(δ − m_∞) with the profile's derivative;
    the same convolution solved by Brent's method (the scalar Gaussian's solver) gives the same ε to 1e-9, and
    Newton's answer is never below it by more than the tolerance (it returns the bracket's upper end)."""
    rng = np.random.default_rng(seed)
    others = tuple(sorted(("laplace", float(1 / e)) for e in rng.uniform(0.2, 2.0, rng.integers(1, 4)))) + tuple(
        ("approximate", float(e), float(d), 1) for e, d in zip(rng.uniform(0.1, 1.5, 2), (1e-6, 1e-5))
    )
    z, delta = float(rng.uniform(0.5, 4.0)), float(rng.choice([1e-4, 3e-5]))
    got = acc._convolved_epsilon(others, z, delta)
    brent = 0.0
    for losses, probs, inf_mass in acc._losses(others, acc.pld_interval(others)):
        brent = max(
            brent,
            acc._solve_decreasing(
                lambda e: inf_mass + float(probs @ acc.gaussian_profile(epsilon=e - losses, z=z)), delta, inf_mass
            ),
        )
    assert got == pytest.approx(brent, abs=1e-9) and got >= brent - 1e-11


def test_unequal_gaussians_merge_into_one_and_laplace_beside_them_agrees_with_dp_accountings_accountant():
    entries = [gaussian_entry(e, key=f"g{i}") for i, e in enumerate((0.3, 1.0, 2.0, 0.5, 4.0))]
    zs = [e.event[1] for e in entries]
    z = math.fsum(x**-2 for x in zs) ** -0.5
    assert acc.merged_gaussian(tuple(e.event for e in entries)) == z
    assert compose_releases(entries).epsilon == pytest.approx(acc.gaussian_epsilon(z, delta=1e-5), abs=1e-12)
    a = dpa.pld.PLDAccountant()
    for x in zs:
        a.compose(dpa.GaussianDpEvent(x))
    a.compose(dpa.LaplaceDpEvent(1 / 0.7))
    with_laplace = compose_releases(entries + [laplace_entry(0.7)])
    assert with_laplace.delta == 1e-5  # the largest Gaussian δ; Laplace adds none
    assert with_laplace.epsilon == pytest.approx(a.get_epsilon(1e-5), abs=2e-3)  # the accountant's PLD at 1e-4
    assert with_laplace.epsilon <= with_laplace.basic_epsilon == pytest.approx(sum((0.3, 1.0, 2.0, 0.5, 4.0, 0.7)))


def test_generic_pairs_compose_optimally():
    # pure ε pairs: exactly k·ε (nothing to trade at δ = 0)
    assert compose_releases([generic_entry(0.5, 0.0, 3)]).epsilon == pytest.approx(1.5, abs=1e-3)
    entries = [generic_entry(1.0, 1e-5), generic_entry(1.0, 1e-5, 2)]
    got = compose_releases(entries)
    assert got.delta == pytest.approx(3e-5) and got.basic_epsilon == pytest.approx(3.0)
    p = dpa.pld.privacy_loss_distribution.from_privacy_parameters(dpa.pld.common.DifferentialPrivacyParameters(1, 1e-5))
    assert got.epsilon == pytest.approx(p.self_compose(3).get_epsilon_for_delta(3e-5), rel=1e-9)
    assert got.epsilon <= 3.0 + 1e-9


def test_one_more_release_never_lowers_the_reported_epsilon():
    entries, last = [], 0.0
    for i, e in enumerate((1.0, 2.0, 0.5, 0.5, 4.0)):
        entries.append(gaussian_entry(e, key=f"g{i}"))
        if i == 3:
            entries.append(laplace_entry(0.3))
        now = compose_releases(entries).epsilon
        assert now >= last - 1e-9
        last = now


def test_every_accountant_call_is_cached_by_the_multiset_of_events():
    """The order of the releases does not matter to a composition: the cache is keyed by the sorted events, so the
    same releases in another order, or seen again on the next rerun, cost no accountant call."""
    entries = [gaussian_entry(0.7, key="a"), laplace_entry(0.9), generic_entry(0.4, 1e-7, 2), gaussian_entry(1.3)]
    first = compose_releases(entries)
    before = acc.compose_events.cache_info()
    again = compose_releases(entries[::-1])
    after = acc.compose_events.cache_info()
    assert (again.epsilon, again.delta) == (first.epsilon, first.delta)
    assert after.hits == before.hits + 1 and after.misses == before.misses


# ------------------------------------------------------------------------------ kinds: one vocabulary


def test_a_release_that_is_not_dp_makes_the_total_red_and_not_dp():
    local = BudgetEntry("BayesianDP local", "θ", local_sensitivity(epsilon=1.0, delta=1e-5), None, "x")
    total = compose_releases([gaussian_entry(1.0), local])
    assert total.epsilon is None and total.delta is None and total.without_guarantee == 1
    assert total.colour == "red" and total.strength == "not DP" and total.guarantee.kind == local.guarantee.kind
    assert total.text.startswith("Composed guarantee: not DP") and "BayesianDP local" in total.text
    assert total.counted_epsilon == pytest.approx(1.0, abs=1e-9)  # what the DP one alone spends, said apart
    assert local.promise.startswith("not DP: sensitivity measured on the private data (its noise was set from ε = 1")
    assert compose_releases([]).epsilon == 0.0


def public_only_fit():
    from dpcore.topicdp.vips_setup import public_only_release

    setup = SimpleNamespace(
        public_name="the public split",
        start=SimpleNamespace(lam=np.ones((2, 3)), source="public fit"),
        vocabulary=SimpleNamespace(words=("a", "b", "c"), source="public split"),
        n_topics=2,
    )
    return public_only_release(setup)


def test_a_public_only_fit_is_a_pure_zero_event_not_none():
    """Issue 30 item 7: the 0-DP public-only fit turned the session total into "none"; it is a pure ε = 0 event:
    alone it spends nothing, beside another release it changes nothing."""
    e = budget_entry(public_only_fit(), identity="public")
    assert e.has_guarantee and e.event == ("approximate", 0.0, 0.0, 1) and e.epsilon == 0.0
    assert e.promise == "DP: ε-DP per user (ε = 0)" and e.colour == "green"
    alone = compose_releases([e])
    assert (alone.epsilon, alone.delta, alone.colour) == (0.0, 0.0, "green")
    assert "ε = 0-DP (pure)" in alone.text
    g = gaussian_entry(1.0)
    beside = compose_releases([g, e])
    assert beside.epsilon == compose_releases([g]).epsilon and beside.colour == "green" and beside.releases == 2


def test_the_non_private_vips_reference_fit_is_a_red_entry_not_a_traceback():
    """The reference fit (VIPS's model without clip or noise) has ε = None: budget_entry compared None > 0 and raised
    a TypeError (found by mypy). It is not DP: a red entry that spends nothing and turns the total red."""
    from dpcore.text import Corpus, Document
    from dpcore.topicdp.vips import vips_reference_fit

    users = [[Document(sentences=(("a", "b", "a", "c"),))], [Document(sentences=(("b", "c", "c"),))]]
    ref = vips_reference_fit(
        Corpus(user_ids=("u0", "u1"), users=users), n_topics=2, iterations=2, vocabulary=("a", "b", "c")
    )
    assert ref.epsilon is None and ref.sigma == 0.0
    e = budget_entry(ref, identity="reference")
    assert e.mechanism == "VIPS-LDA reference fit (not private)" and e.released.startswith("2 × 3 topic–word matrix")
    assert not e.has_guarantee and e.event is None and e.epsilon is None and e.colour == "red"
    total = compose_releases([gaussian_entry(1.0), e])
    assert total.epsilon is None and total.without_guarantee == 1 and total.colour == "red"


# ------------------------------------------------------------------------------ entries of real releases


@pytest.fixture(scope="module")
def counts():
    rng = np.random.default_rng(0)
    return sp.csr_matrix(rng.integers(0, 3, size=(200, 30))), np.arange(1, 31.0)


def test_entries_carry_each_mechanisms_own_event(counts):
    X, a = counts
    strict = dpcore.bayesian_dp(
        X,
        a,
        epsilon=1,
        delta=1e-5,
        S=1,
        C=1,
        rho=0.5,
        rng=0,
        sensitivity="strict",
        max_items=30,
        max_users=1000,
        calibration="analytic",
    )
    e = budget_entry(strict)
    # h = μ_ps + σ_ps·Z with Δ(μ_ps) = ρ·γ_strict: the noise multiplier is σ(ε, δ) at Δ = 1
    assert e.event[0] == "gaussian" and e.event[1] == pytest.approx(
        dpcore.gaussian_sigma(epsilon=1, delta=1e-5, method="analytic")
    )
    assert e.epsilon == 1 and e.delta == 1e-5 and e.promise == "DP: (ε, δ)-DP per user (ε = 1, δ = 1e-05)"
    lap = budget_entry(dpcore.bayesian.laplace_counts_dp(X, epsilon=0.5, W=5, rng=0))
    assert lap.event == ("laplace", pytest.approx(2.0)) and lap.promise == "DP: ε-DP per user (ε = 0.5)"
    for rel in (
        dpcore.bayesian_dp(X, a, epsilon=1, delta=1e-5, S=1, C=1, rho=0.5, rng=0),
        dpcore.bayesian.laplace_public_dp(X, a, epsilon=1, W=5, rng=0),
        dpcore.bayesian.k_anonymity_release(X, a, K=5),
        dpcore.end_to_end_dp(X, a, epsilon=1, delta=1e-5, C=1, rng=0),
    ):
        assert budget_entry(rel).event is None and budget_entry(rel).colour == "red"  # not DP
    users = [[["a", "b", "c"]]] * 300
    d = budget_entry(
        dpcore.dpne_extract(users, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5, eta=0.1, rng=0)
    )
    assert d.event == ("approximate", 1.0, 1e-5, 1) and "sets only" in d.released
    single = budget_entry(dpcore.dpsu_single(users, epsilon=1, delta=1e-5, max_length=3, contribution_limit=5, rng=0))
    assert single.event == ("approximate", 1.0, 1e-5, 3)  # one (ε, δ) release per length


def test_topicdp_matrix_entries_are_counted_in_their_own_words():
    """Issue 31 item 4: the matrix releases' badges say "DP for part of the release only" (strict, Laplace) and
    "weaker than DP" (random DP); the budget said they "promise nothing". Their entries carry the badge's words and
    their own events (Gaussian σ/Δ, Laplace b/(2m), MVG's pair), and the total says what it is given."""
    w = np.full((2, 3), 1 / 3)
    rels = dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0, gamma=0.1)
    entries = {name: budget_entry(rel, identity="one view") for name, rel in rels.items()}
    for name, e in entries.items():
        assert e.promise == e.guarantee.words and e.has_guarantee and e.colour == "orange", name
    assert entries["TopicDP strict"].promise.startswith("DP for part of the release only: (ε, δ)-DP per user")
    assert entries["TopicDP strict"].event == ("gaussian", rels["TopicDP strict"].noise_scale / 2.0, 1e-5)
    assert entries["Laplace"].event == ("laplace", pytest.approx(1.0 / 1.0))  # b = 2m/ε, Δ₁ = 2m
    assert entries["MVG"].event == ("approximate", 1.0, 1e-5, 1)
    assert entries["TopicDP"].promise.startswith("weaker than DP: random DP per user")
    part = compose_releases([entries["TopicDP strict"], entries["Laplace"]])
    assert part.colour == "orange" and part.strength == "DP for part of the release only"
    assert part.epsilon is not None and "given a non-private choice" in part.text
    everything = compose_releases(list(entries.values()))
    # three random-DP releases on one sampled bound fail on the same pairs: γ counted once
    assert everything.colour == "orange" and everything.guarantee.gamma == pytest.approx(0.1)
    assert everything.strength == "weaker than DP" and "share ≥ 90%" in everything.text


def test_the_key_is_the_releases_identity_never_its_output(counts):
    """Issue 30 item 2: the key hashes the mechanism and the spec record; the same spec is one release, another seed
    is another release even when the outputs are equal, and without an identity there is no key."""
    X, a = counts
    kw = dict(S=1, C=1, rho=0.5, sensitivity="strict", max_items=30, max_users=1000)
    rel = dpcore.bayesian_dp(X, a, epsilon=1, delta=1e-5, rng=3, **kw)
    spec = dpcore.specs.BayesianSpec(seed=3, epsilon=1.0)
    assert budget_entry(rel, identity=spec).key == budget_entry(rel, identity=spec.record()).key
    assert budget_entry(rel, identity=spec).key != budget_entry(rel, identity=spec.replace(seed=4)).key
    assert budget_entry(rel, identity=spec).key != budget_entry(rel, identity=spec.replace(mode="local")).key
    assert budget_entry(rel).key is None
    assert release_identity(spec, without=("seed",)) == {k: v for k, v in spec.record().items() if k != "seed"}


def test_ten_dpne_seeds_that_release_the_same_nothing_count_as_ten():
    """Issue 30 item 2, reproduced: DPNE at ε = 0.5, T = 1, Δ0 = 10 on a corpus too small for anything to pass the
    threshold releases the same (empty) set at every seed. Keyed by its output, ten seeds counted as one (the audit:
    ten seeds as nine on the chat, five as one at T = 3); keyed by the spec record they are ten releases and compose
    to more than one."""
    records = [{"user": f"u{i}", "text": f"word{i} other{i} shared words here"} for i in range(12)]
    corpus = dpcore.corpus_from_records(records, user_field="user", text_field="text")
    entries, outputs = {}, set()
    for seed in range(10):
        spec = dpcore.specs.DpneSpec(
            seed=seed, corpus_hash=corpus.content_hash, epsilon=0.5, max_length=1, contribution_limit=10
        )
        out = spec.run(corpus)
        outputs.add(tuple(sorted((k, tuple(sorted(v))) for k, v in out.release.ngrams.items())))
        e = budget_entry(out.release, identity=release_identity(spec, without=("eta_grid",)))
        entries.setdefault(e.key, e)
    assert len(outputs) == 1  # the same output at every seed: the defect's trigger
    assert len(entries) == 10
    total = compose_releases(entries.values())
    assert (
        total.basic_epsilon == pytest.approx(5.0) and total.epsilon > compose_releases([*entries.values()][:9]).epsilon
    )
