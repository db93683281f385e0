"""Audit scenarios for DPSU, DPNE and k-anonymity (paper 003): worst-case neighbouring corpora."""

from __future__ import annotations

import math
from functools import lru_cache
import numpy as np
import scipy.sparse as sp
from scipy.special import ndtr
from ..bayesian.baselines import k_anonymity_release
from ..dpne.selection import _dpsu_select, _limit_contributions
from ..dpne.release import dpne_extract
from ..dpne.accounting import dpne_noise_scales, dpsu_threshold
from ..dpne.baselines import dpsu_single
from ..mechanisms.noise import gaussian_noise, standard_normal_noise
from ..text.ngrams import build_ngram_index, encode_users
from ..validation import check_rng
from .scenario_types import Scenario, Variant, _DATA, _register


# --------------------------------------------------------------------------------------------------
# DPSU (003 App. B, Gopi et al. 2020): a user whose items are all unique
# --------------------------------------------------------------------------------------------------


def _background_users(n_users: int, vocab: int, rng) -> list:
    """Users writing a few short sentences over a Zipf-like shared vocabulary (no rare word of their own)."""
    p = 1.0 / np.arange(1, vocab + 1)
    p /= p.sum()
    users = []
    for _ in range(n_users):
        sents = []
        for _ in range(int(rng.integers(2, 5))):
            toks = rng.choice(vocab, size=int(rng.integers(4, 9)), p=p)
            sents.append([f"w{t}" for t in toks])
        users.append(sents)
    return users


@lru_cache(maxsize=8)
def _dpsu_tables(key):
    users = _DATA[key]
    index = build_ngram_index(encode_users(users), 1)
    lev = index.level(1)
    return lev.pair_user, lev.pair_gram, lev.pair_count, lev.n_grams, list(index.corpus.vocabulary)


def _dpsu_scenario(n_users: int = 200, unique_items: int = 400, epsilon: float = 1.0) -> Scenario:
    eps, delta, limit = epsilon, 0.01, 10
    rng = np.random.default_rng(2024)
    background = _background_users(n_users - 1, 300, rng)
    target_user = [[f"secret{j}" for j in range(i, min(i + 8, unique_items))] for i in range(0, unique_items, 8)]
    d = _register(("dpsu", n_users, unique_items, "D"), background + [target_user])
    d_prime = _register(("dpsu", n_users, unique_items, "D'"), background)
    sigma, rho = dpsu_threshold(epsilon=eps, delta=delta, contribution_limit=limit)

    def count_target(release_mask, target):
        return float(release_mask[target].sum()) if target.size else 0.0

    def correct_mech(data, rng):
        release = dpsu_single(_DATA[data], epsilon=eps, delta=delta, max_length=1, contribution_limit=limit, rng=rng)
        return float(sum(1 for g in release.ngrams[1] if g[0].startswith("secret")))

    def make_batch(cap: int):
        def batch(data, n, rng):
            pu, pg, pc, n_items, vocab = _dpsu_tables(data)
            target = np.array([i for i, w in enumerate(vocab) if w.startswith("secret")], dtype=np.int64)
            out = np.empty(n)
            for i in range(n):
                released, _ = _dpsu_select(
                    pu, pg, pc, n_items, limit=cap, sigma=sigma, threshold=rho, selection="random", rng=rng
                )
                out[i] = count_target(released, target)
            return out

        return batch

    def broken_mech(data, rng):
        return float(make_batch(10**9)(data, 1, check_rng(rng))[0])

    correct = Variant(
        "correct",
        False,
        f"Each user keeps at most Δ0 = {limit} of their items, weight 1/√(kept); release iff H + N(0, σ²) > ρ "
        f"(σ = {sigma:.3g}, ρ = {rho:.3g}).",
        eps,
        delta,
        correct_mech,
        make_batch(limit),
    )
    broken = Variant(
        "broken: no contribution cap",
        True,
        f"BROKEN: every user keeps all their items (no Δ0 cap) while ρ is still set for Δ0 = {limit}: a user "
        f"with {unique_items} unique items gets {unique_items} chances to cross the threshold.",
        eps,
        delta,
        broken_mech,
        make_batch(10**9),
    )
    return Scenario(
        "dpsu",
        "DPSU: n-gram set union",
        f"A user whose {unique_items} words nobody else writes: on D' those words have no weight and are "
        "never released, so only the threshold ρ (the δ part) protects them.",
        f"D: {n_users} users, one of them with {unique_items} unique words; D': without that user",
        "how many of the user's unique words are released",
        d,
        d_prime,
        correct,
        broken,
        2_000,
        note=f"δ = {delta:g}, larger than the app's default, so that the δ the threshold spends is large enough "
        "to measure with a few thousand trials (a larger δ is a weaker claim, easier to pass).",
    )


# --------------------------------------------------------------------------------------------------
# DPNE's 1-gram table read twice with fresh noise (the reference code's bug, SPEC §4)
# --------------------------------------------------------------------------------------------------


def _redraw_epsilon(h, *, sigma, rho, delta, reads) -> float:
    """The exact ε of the best event of ``reads`` reads at D-weight h + 1 and D'-weight h."""
    p1, p0 = ndtr((h + 1.0 - rho) / sigma), ndtr((h - rho) / sigma)
    best = 0.0
    for a, b in ((p1**reads, p0**reads), ((1 - p0) ** reads, (1 - p1) ** reads)):
        if a - delta > 0 and b > 0:
            best = max(best, math.log((a - delta) / b))
    return best


def _read_table(data, rng, n_reads, *, limit, sigma, rho) -> float:
    """The weighted histogram of DPNE's first level, read ``n_reads`` times: in how many reads the target word
    passes. Each read draws the noise of every item again (the broken reading)."""
    pu, pg, pc, n_items, vocab = _dpsu_tables(data)
    t = vocab.index("target")
    items, weights = _limit_contributions(pu, pg, pc, limit, "random", rng)
    hist = np.bincount(items, weights=weights, minlength=n_items)
    supp = np.flatnonzero(hist > 0)
    noisy = hist[supp] + gaussian_noise(sigma=sigma, size=(n_reads, supp.size), rng=rng)
    return float(np.sum(noisy[:, np.searchsorted(supp, t)] > rho))


def _redraw_batch(draws: int, *, sigma, rho, reads):
    """The vectorised path with ``draws`` independent draws of the target word's noise per run (1: correct)."""

    def batch(data, n, rng):
        pu, pg, pc, n_items, vocab = _dpsu_tables(data)
        h = float(np.sum(pg == vocab.index("target")))  # each writer writes only it: weight 1 each
        z = standard_normal_noise(size=(n, draws), rng=rng)
        return (h + sigma * z > rho).sum(axis=1).astype(float) * (reads // draws)

    return batch


def _dpne_scenario(epsilon: float = 4.0) -> Scenario:
    eps, delta, limit, reads = epsilon, 0.05, 10, 2
    sigma, rho = dpsu_threshold(epsilon=eps, delta=delta, contribution_limit=limit)
    assert (
        abs(dpne_noise_scales(epsilon=eps, delta=delta, max_length=1)[1][0] - sigma) < 1e-12
    )  # DPNE's level 1 is this DPSU

    def bound(h):
        return _redraw_epsilon(h, sigma=sigma, rho=rho, delta=delta, reads=reads)

    others = max(range(1, int(rho) + 8), key=bound)  # users who write the target word (weight 1 each)
    rng = np.random.default_rng(7)
    background = _background_users(40, 200, rng)
    holders = [[["target"]] for _ in range(others)]
    # keyed by what the pair depends on: ``others`` follows ε (a scenario built at another ε has another pair)
    d = _register(("dpne", others, "D"), background + holders + [[["target"]]])
    d_prime = _register(("dpne", others, "D'"), background + holders)

    def batch_for(draws: int):
        return _redraw_batch(draws, sigma=sigma, rho=rho, reads=reads)

    def correct_mech(data, rng):  # dpcore's DPNE as shipped (T = 1): one draw, logged and written sets agree
        release = dpne_extract(
            _DATA[data], epsilon=eps, delta=delta, max_length=1, contribution_limit=limit, eta=0.01, rng=rng
        )
        return float(reads * (("target",) in release.ngrams[1]))

    def broken_mech(data, rng):
        return _read_table(data, check_rng(rng), reads, limit=limit, sigma=sigma, rho=rho)

    correct = Variant(
        "correct",
        False,
        f"The noise of each item is drawn once; the logged and the written set are the same "
        f"(σ = {sigma:.3g}, ρ = {rho:.3g}).",
        eps,
        delta,
        correct_mech,
        batch_for(1),
    )
    broken = Variant(
        "broken: noise redrawn on each read",
        True,
        "BROKEN: as in the public reference code, the lazily evaluated table draws its noise again "
        f"each time it is read, so the logged and the written set are {reads} independent releases.",
        eps,
        delta,
        broken_mech,
        batch_for(reads),
    )
    return Scenario(
        "dpne_redraw",
        "DPNE: the 1-gram table read twice (T = 1)",
        f"{others} other users write the target word, which puts its weight near the threshold, where one "
        "more writer changes the release probability the most.",
        f"D: {others + 1} users write 'target' (each writes nothing else) plus 40 others; D': one writer fewer",
        "in how many of the logged and written sets 'target' appears (0, 1 or 2)",
        d,
        d_prime,
        correct,
        broken,
        200_000,
        note=f"ε = {eps:g}, δ = {delta:g}: a large ε and δ make the gap between one read and two reads measurable "
        "with 10⁵ trials. The vectorised path draws only the target word's noise; its weight is fixed "
        "(every writer of it writes nothing else, so the contribution cap never drops it).",
    )


# --------------------------------------------------------------------------------------------------
# k-anonymity (000 §4.5): a user whose presence lifts an item to K users
# --------------------------------------------------------------------------------------------------


def _kanonymity_scenario() -> Scenario:
    K = 5
    v = 8
    m = np.zeros((12, v), dtype=np.int64)
    m[:, 1:4] = 1
    m[:K, 0] = 1  # item 0: K users in D (user 0 among them), K − 1 in D'
    m[5:, 4:] = 1
    public = np.array([0.1, 5, 5, 5, 3, 3, 3, 3])
    d = _register(("kanon", "D"), sp.csr_matrix(m))
    d_prime = _register(("kanon", "D'"), sp.csr_matrix(m[1:]))

    def mech(data, rng):
        return float(k_anonymity_release(_DATA[data], public, K=K).theta[0])

    def batch(data, n, rng):
        return np.full(n, mech(data, rng))

    broken = Variant(
        "not DP: k-anonymity",
        True,
        f"Keeps the counts of items used by at least K = {K} users, suppresses the rest: deterministic, "
        "so one user can switch an item between kept and suppressed.",
        None,
        0.0,
        mech,
        batch,
    )
    return Scenario(
        "kanonymity",
        "k-anonymity: suppress rare items",
        "The user is the K-th writer of item 0: with them the item is released with its count, without them "
        "it is suppressed — the output tells for certain whether they are in.",
        f"D: 12 users, item 0 written by K = {K}; D': without one of them",
        "the released share of item 0",
        d,
        d_prime,
        None,
        broken,
        2_000,
        note="k-anonymity claims no ε: the audit's bound is limited only by the number of trials "
        "(a deterministic difference gives ln((p⁻ − δ)/p⁺) with p⁺ the upper bound on 0 of n).",
    )
