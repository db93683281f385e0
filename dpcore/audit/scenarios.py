"""Worst-case neighbouring pairs, one per mechanism of the app, each with a deliberately broken variant.

Every :class:`Scenario` names a mechanism, a neighbouring pair (D, D') built to make the attack
strong, the score the attacker computes from one output, and the claimed (ε, δ). Its ``correct``
variant runs the mechanism as dpcore ships it; its ``broken`` variant (labelled BROKEN everywhere)
departs from it in the one way the scenario's text names, so that the audit has something to catch.
The audit's δ is the claimed δ; where a larger δ makes the attack stronger the scenario uses it and
says so (DPSU and DPNE, whose guarantee is mostly the δ part).

Each variant has a ``mechanism(data, rng)`` (one honest run, returning the score) and, where the
mechanism allows, a vectorised ``batch(data, n, rng)`` with the same distribution (a test compares
the two). Where a batch audits only the step that matters (TopicDP's noise step given two fixed
fits; DPNE's table for the target item), the scenario text says so.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtr

from ..bayesian.statistics import SENSITIVITY_METHODS, bayesian_statistics
from ..bayesian.baselines import k_anonymity_release
from ..dpne.selection import _dpsu_select, _limit_contributions
from ..dpne.release import dpne_extract
from ..dpne.accounting import dpne_noise_scales, dpsu_threshold
from ..dpne.baselines import dpsu_single
from ..mechanisms.exponential import exponential_mechanism, exponential_mechanism_probabilities
from ..mechanisms.laplace import laplace_mechanism
from ..lab.lecture import CANDIDATE_CITIES, SOCIETY_MEMBERS, city_example, city_utilities
from ..text.ngrams import build_ngram_index, encode_users
from ..mechanisms.gaussian import analytic_gaussian_sigma
from ..topicdp.mechanisms import strict_topicdp_mechanism, topicdp_mechanism, topicdp_sigma
from ..validation import check_choice, check_int, check_rng
from .core import AuditResult, audit

__all__ = ["Variant", "Scenario", "ScenarioRun", "SCENARIOS", "SCENARIO_LABELS", "LOCAL_SENSITIVITY_SCENARIOS",
           "scenario_names", "get_scenario", "run_scenario", "audit_rng", "bayesian_page_pair"]


@dataclass(frozen=True)
class Variant:
    """One way of running a scenario's mechanism: ``mechanism(data, rng) -> score`` and an optional
    vectorised ``batch(data, n, rng) -> n scores``; the claim it makes and what it changes."""

    label: str
    broken: bool
    explanation: str
    epsilon_claimed: float | None
    delta: float
    mechanism: Callable
    batch: Callable | None = None


@dataclass(frozen=True)
class Scenario:
    """A mechanism, its worst-case neighbouring pair, the score, and its correct and broken variants."""

    name: str
    title: str
    explanation: str  # one sentence: why this pair is the worst case
    pair: str  # what D and D' are
    score: str  # what the attacker computes from one output
    d: object
    d_prime: object
    correct: Variant | None
    broken: Variant | None
    default_trials: int
    note: str = ""  # what is simplified, which parameters were chosen to make the attack strong

    def datasets(self) -> tuple:
        """(D, D') as the mechanism sees them (``d`` and ``d_prime`` may be keys of a registry)."""
        return tuple(_DATA.get(k, k) if isinstance(k, tuple) else k for k in (self.d, self.d_prime))

    def variant(self, broken: bool) -> Variant:
        v = self.broken if broken else self.correct
        if v is None:
            which = "broken" if broken else "correct"
            raise ValueError(f"scenario {self.name!r} has no {which} variant")
        return v


@dataclass(frozen=True)
class ScenarioRun:
    """An audit of one scenario variant, with the time it took (wall and CPU seconds)."""

    scenario: str
    variant: str
    broken: bool
    result: AuditResult
    seconds: float
    cpu_seconds: float
    vectorised: bool


# --------------------------------------------------------------------------------------------------
# Laplace count (lecture 001): 50 vs 51, Δ = 1
# --------------------------------------------------------------------------------------------------

def _laplace_scenario() -> Scenario:
    eps = 1.0

    def variant(scale_factor: float, broken: bool) -> Variant:
        b = scale_factor / eps

        def mech(data, rng):
            if broken:
                return float(data) + check_rng(rng).laplace(0.0, b)
            return laplace_mechanism(float(data), epsilon=eps, sensitivity=1.0, rng=rng)

        def batch(data, n, rng):
            return float(data) + rng.laplace(0.0, b, size=n)

        if broken:
            text = "BROKEN: Laplace noise at half the scale, b = Δ/(2ε); the true ε of this pair is 2."
        else:
            text = "Lap(0, Δ/ε) with Δ = 1 (one person changes a count by at most 1)."
        return Variant("broken: half the scale" if broken else "correct", broken, text, eps, 0.0, mech, batch)

    return Scenario(
        "laplace_count", "Laplace mechanism: a count",
        "Two counts one apart are the largest change one person can make, so every output ratio of the "
        "pair reaches the bound e^ε far out in the tails.",
        "D: count 50; D': count 51", "the released value", 50, 51, variant(1.0, False), variant(0.5, True), 100_000)


# --------------------------------------------------------------------------------------------------
# Exponential mechanism on the city example (lecture 001)
# --------------------------------------------------------------------------------------------------

def _exponential_scenario() -> Scenario:
    eps = 1.0
    names = tuple(CANDIDATE_CITIES)
    cities = np.array([CANDIDATE_CITIES[c] for c in names])
    example = city_example(epsilon=eps)
    removed = example.worst_pair[0].replace("D without ", "")
    members = {p: CANDIDATE_CITIES[c] for p, c in SOCIETY_MEMBERS.items()}
    d = np.array(list(members.values()), dtype=float)
    d_prime = np.array([xy for p, xy in members.items() if p != removed], dtype=float)
    du = example.sensitivity_true

    def variant(sens: float, broken: bool) -> Variant:
        pd = exponential_mechanism_probabilities(city_utilities(d, cities), epsilon=eps, sensitivity=sens)
        pdp = exponential_mechanism_probabilities(city_utilities(d_prime, cities), epsilon=eps, sensitivity=sens)
        llr = np.log(pd) - np.log(pdp)  # the attacker knows the mechanism: the Neyman–Pearson score

        def mech(data, rng):
            return float(llr[exponential_mechanism(city_utilities(data, cities), epsilon=eps, sensitivity=sens,
                                                   rng=rng)])

        def batch(data, n, rng):
            p = exponential_mechanism_probabilities(city_utilities(data, cities), epsilon=eps, sensitivity=sens)
            return llr[rng.choice(p.size, size=n, p=p)]

        if broken:
            text = (f"BROKEN: Δu = {sens:.4g}, a quarter of the computed Δu = {du:.4g} — the utility moves "
                    "more than the mechanism assumes.")
        else:
            text = f"Δu = {du:.4g}, computed over D's remove-one neighbours (SPEC §1)."
        return Variant("broken: Δu too small" if broken else "correct", broken, text, eps, 0.0, mech, batch)

    return Scenario(
        "exponential_city", "Exponential mechanism: the secret society's city",
        f"Removing {removed} moves the members' mean city the most, so the selection probabilities of this "
        "pair differ the most (lecture 001).",
        f"D: the four members; D': without {removed}",
        "log(Pr[city | D] / Pr[city | D']) of the selected city", d, d_prime,
        variant(du, False), variant(du / 4.0, True), 100_000)


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


_DATA: dict = {}


def _register(key, users):
    _DATA[key] = users
    return key


def _dpsu_scenario(n_users: int = 200, unique_items: int = 400) -> Scenario:
    eps, delta, limit = 1.0, 0.01, 10
    rng = np.random.default_rng(2024)
    background = _background_users(n_users - 1, 300, rng)
    target_user = [[f"secret{j}" for j in range(i, min(i + 8, unique_items))] for i in range(0, unique_items, 8)]
    d = _register(("dpsu", n_users, unique_items, "D"), background + [target_user])
    d_prime = _register(("dpsu", n_users, unique_items, "D'"), background)
    sigma, rho = dpsu_threshold(eps, delta, limit)

    def count_target(release_mask, target):
        return float(release_mask[target].sum()) if target.size else 0.0

    def correct_mech(data, rng):
        release = dpsu_single(_DATA[data], epsilon=eps, delta=delta, max_length=1, contribution_limit=limit,
                              rng=rng)
        return float(sum(1 for g in release.ngrams[1] if g[0].startswith("secret")))

    def make_batch(cap: int):
        def batch(data, n, rng):
            pu, pg, pc, n_items, vocab = _dpsu_tables(data)
            target = np.array([i for i, w in enumerate(vocab) if w.startswith("secret")], dtype=np.int64)
            out = np.empty(n)
            for i in range(n):
                released, _ = _dpsu_select(pu, pg, pc, n_items, limit=cap, sigma=sigma, threshold=rho,
                                           selection="random", rng=rng)
                out[i] = count_target(released, target)
            return out
        return batch

    def broken_mech(data, rng):
        return float(make_batch(10**9)(data, 1, check_rng(rng))[0])

    correct = Variant(
        "correct", False,
        f"Each user keeps at most Δ0 = {limit} of their items, weight 1/√(kept); release iff H + N(0, σ²) > ρ "
        f"(σ = {sigma:.3g}, ρ = {rho:.3g}).", eps, delta, correct_mech, make_batch(limit))
    broken = Variant(
        "broken: no contribution cap", True,
        f"BROKEN: every user keeps all their items (no Δ0 cap) while ρ is still set for Δ0 = {limit}: a user "
        f"with {unique_items} unique items gets {unique_items} chances to cross the threshold.",
        eps, delta, broken_mech, make_batch(10**9))
    return Scenario(
        "dpsu", "DPSU: n-gram set union",
        f"A user whose {unique_items} words nobody else writes: on D' those words have no weight and are "
        "never released, so only the threshold ρ (the δ part) protects them.",
        f"D: {n_users} users, one of them with {unique_items} unique words; D': without that user",
        "how many of the user's unique words are released", d, d_prime, correct, broken, 2_000,
        note=f"δ = {delta:g}, larger than the app's default, so that the δ the threshold spends is large enough "
             "to measure with a few thousand trials (a larger δ is a weaker claim, easier to pass).")


# --------------------------------------------------------------------------------------------------
# DPNE's 1-gram table read twice with fresh noise (the reference code's bug, SPEC §4)
# --------------------------------------------------------------------------------------------------

def _dpne_scenario() -> Scenario:
    eps, delta, limit, reads = 4.0, 0.05, 10, 2
    sigma, rho = dpsu_threshold(eps, delta, limit)
    assert abs(dpne_noise_scales(eps, delta, max_length=1)[1][0] - sigma) < 1e-12  # DPNE's level 1 is this DPSU

    def bound(h):  # exact ε of the best event of `reads` reads at D-weight h + 1 and D'-weight h
        p1, p0 = ndtr((h + 1.0 - rho) / sigma), ndtr((h - rho) / sigma)
        best = 0.0
        for a, b in ((p1 ** reads, p0 ** reads), ((1 - p0) ** reads, (1 - p1) ** reads)):
            if a - delta > 0 and b > 0:
                best = max(best, math.log((a - delta) / b))
        return best

    others = max(range(1, int(rho) + 8), key=bound)  # users who write the target word (weight 1 each)
    rng = np.random.default_rng(7)
    background = _background_users(40, 200, rng)
    holders = [[["target"]] for _ in range(others)]
    d = _register(("dpne", "D"), background + holders + [[["target"]]])
    d_prime = _register(("dpne", "D'"), background + holders)

    def table(data, rng, n_reads):
        """The weighted histogram of DPNE's first level, read ``n_reads`` times: in how many reads the
        target word passes. Each read draws the noise of every item again (the broken reading)."""
        pu, pg, pc, n_items, vocab = _dpsu_tables(data)
        t = vocab.index("target")
        items, weights = _limit_contributions(pu, pg, pc, limit, "random", rng)
        hist = np.bincount(items, weights=weights, minlength=n_items)
        supp = np.flatnonzero(hist > 0)
        noisy = hist[supp] + sigma * rng.standard_normal((n_reads, supp.size))
        return float(np.sum(noisy[:, np.searchsorted(supp, t)] > rho))

    def batch_for(draws: int):
        def batch(data, n, rng):
            pu, pg, pc, n_items, vocab = _dpsu_tables(data)
            h = float(np.sum(pg == vocab.index("target")))  # each writer writes only it: weight 1 each
            z = rng.standard_normal((n, draws))
            return (h + sigma * z > rho).sum(axis=1).astype(float) * (reads // draws)
        return batch

    def correct_mech(data, rng):  # dpcore's DPNE as shipped (T = 1): one draw, logged and written sets agree
        release = dpne_extract(_DATA[data], epsilon=eps, delta=delta, max_length=1, contribution_limit=limit, eta=0.01,
                       rng=rng)
        return float(reads * (("target",) in release.ngrams[1]))

    def broken_mech(data, rng):
        return table(data, check_rng(rng), reads)

    correct = Variant("correct", False,
                      f"The noise of each item is drawn once; the logged and the written set are the same "
                      f"(σ = {sigma:.3g}, ρ = {rho:.3g}).", eps, delta, correct_mech, batch_for(1))
    broken = Variant("broken: noise redrawn on each read", True,
                     "BROKEN: as in the public reference code, the lazily evaluated table draws its noise again "
                     f"each time it is read, so the logged and the written set are {reads} independent releases.",
                     eps, delta, broken_mech, batch_for(reads))
    return Scenario(
        "dpne_redraw", "DPNE: the 1-gram table read twice (T = 1)",
        f"{others} other users write the target word, which puts its weight near the threshold, where one "
        "more writer changes the release probability the most.",
        f"D: {others + 1} users write 'target' (each writes nothing else) plus 40 others; D': one writer fewer",
        "in how many of the logged and written sets 'target' appears (0, 1 or 2)", d, d_prime, correct, broken,
        200_000,
        note=f"ε = {eps:g}, δ = {delta:g}: a large ε and δ make the gap between one read and two reads measurable "
             "with 10⁵ trials. The vectorised path draws only the target word's noise; its weight is fixed "
             "(every writer of it writes nothing else, so the contribution cap never drops it).")


# --------------------------------------------------------------------------------------------------
# BayesianDP (000 Alg. 1): a pair where the local γ differs
# --------------------------------------------------------------------------------------------------

def _bayesian_matrices():
    rng = np.random.default_rng(11)
    v, n = 20, 30
    m = np.zeros((n, v), dtype=np.int64)
    m[:, :10] = rng.integers(0, 3, size=(n, 10))
    m[:, 0] += 1  # everybody uses word 0
    m[0, :] = 0
    m[0, 14:20] = 1  # user 0 alone uses the rare words 14..19
    public = np.linspace(20.0, 1.0, v)
    return sp.csr_matrix(m), sp.csr_matrix(m[1:]), public


def _bayesian_scenario() -> Scenario:
    eps, delta, S, C, rho = 1.0, 1e-5, 1.0, 2, 1.0
    max_items, max_users = 10, 100  # strict mode: L (no user here holds more) and the public cap N_max
    md, mdp, public = _bayesian_matrices()
    d = _register(("bayes", "D"), md)
    d_prime = _register(("bayes", "D'"), mdp)
    strict = "strict" in SENSITIVITY_METHODS

    def statistics(data, method, rng):
        if method == "strict":
            return bayesian_statistics(_DATA[data], public, C=C, max_items=max_items, rng=rng)
        return bayesian_statistics(_DATA[data], public, C=C)

    def prepare(data, method, rng=0):
        extra = {"max_users": max_users} if method == "strict" else {}
        return statistics(data, method, rng).prepare(S=S, rho=rho, sensitivity=method, **extra)

    def variant(method: str, broken: bool) -> Variant:
        prepared = {k: prepare(k, method) for k in (d, d_prime)}
        sig = {k: p.sigma(epsilon=eps, delta=delta, calibration="analytic") for k, p in prepared.items()}
        mu = {k: p.mu_ps - p.mu_ps.mean() for k, p in prepared.items()}
        dim = md.shape[1] - 1  # the centred log θ lives in a (|V| − 1)-dimensional subspace

        def llr(theta):
            z = np.log(theta)
            z = z - z.mean(axis=-1, keepdims=True)
            ll = {k: -dim * math.log(sig[k]) - np.sum((z - mu[k]) ** 2, axis=-1) / (2 * sig[k] ** 2) for k in mu}
            return ll[d] - ll[d_prime]

        def mech(data, rng):  # the whole pipeline per run (the item cap draws from the run's generator)
            rng = check_rng(rng)
            release = prepare(data, method, rng).release(epsilon=eps, delta=delta, rng=rng, calibration="analytic")
            return float(llr(release.theta))

        def batch(data, n, rng):  # steps 1–7 do not depend on the draw here (no user is above the cap)
            return llr(prepared[data].sample_theta(epsilon=eps, delta=delta, rng=rng, repetitions=n,
                                                   calibration="analytic"))

        if broken:
            text = (f"BROKEN: γ is the local (brute-force) sensitivity of each corpus: σ = {sig[d]:.3g} on D and "
                    f"{sig[d_prime]:.3g} on D', so the noise scale itself tells whether the user is in. The same on "
                    "the Bayesian page's own corpus: the scenario \"BayesianDP local γ (the page's pair)\".")
        else:
            text = (f"γ is the strict, data-independent bound (SPEC §3b; L = {max_items} items per user, at most "
                    f"{max_users} users): σ = {sig[d]:.3g} on both.")
        return Variant("broken: local γ" if broken else "correct (strict γ)", broken, text, eps, delta, mech,
                       batch)

    return Scenario(
        "bayesian", "BayesianDP: unigram distribution",
        "The user alone writes six rare words: removing them changes the brute-force γ, hence the noise scale, "
        "and the log-likelihood ratio of the two Gaussians separates the outputs.",
        "D: 30 users over 20 words, one of them alone writing words 14–19; D': without that user",
        "log-likelihood ratio of N(μ_D, σ_D²) against N(μ_D', σ_D'²) at the centred log θ", d, d_prime,
        variant("strict", False) if strict else None, variant("brute-force", True), 2_000,
        note="Analytic Gaussian calibration (tight and proven for every ε). "
             + ("" if strict else "The strict γ is not available in this build: no correct variant."))


# --------------------------------------------------------------------------------------------------
# Local sensitivity (SPEC §3b; issue 21 item 1): the mechanisms whose sensitivity is measured on the data,
# each run honestly on D and on D' — so each measures its own sensitivity again on D'
# --------------------------------------------------------------------------------------------------

PAGE_DEFAULTS = dict(n=1, S=1e-3, rho=0.3, C=1, W=2, epsilon=1.0, delta=1e-5)
"""The Bayesian page's default settings (dpui.bayesian_knobs, the shared sidebar): the pair it shows."""
_SCORE_CHUNK = 250  # releases scored at once (each a |V|-vector: ~25,000 on the real chat corpus)


@lru_cache(maxsize=1)
def bayesian_page_pair():
    """The Bayesian page's own pair at its defaults: D = the real chat corpus (the app's default data) as
    unigram counts over the public vocabulary; D' = D without its most active user (the largest total
    count — the user the page's membership-inference tab attacks, 000 §5). Returns (D, D', public counts,
    the removed user's row)."""
    from ..text.ngram_counts import ngram_counts
    from ..text.real_corpus import load_real_corpus

    counts = ngram_counts(load_real_corpus(which="private"), load_real_corpus(which="public"), n=PAGE_DEFAULTS["n"])
    m = counts.user_counts.tocsr()
    u = int(np.argmax(np.asarray(m.sum(axis=1)).ravel()))
    return m, m[np.arange(m.shape[0]) != u], np.asarray(counts.public_counts, dtype=float), u


def _centred_log(theta: np.ndarray) -> np.ndarray:
    z = np.log(np.maximum(theta, 1e-300))  # a θ that underflowed to 0 (huge σ) keeps a finite score
    return z - z.mean(axis=-1, keepdims=True)


def _gaussian_llr(z: np.ndarray, mu: dict, sig: dict, d, d_prime) -> np.ndarray:
    """log N(z; μ_D, σ_D²) − log N(z; μ_D', σ_D'²) over the (|V| − 1)-dimensional centred space."""
    dim = z.shape[-1] - 1
    ll = {k: -dim * math.log(sig[k]) - np.sum((z - mu[k]) ** 2, axis=-1) / (2 * sig[k] ** 2) for k in (d, d_prime)}
    return ll[d] - ll[d_prime]


def _bayesian_local_page_scenario() -> Scenario:
    k = PAGE_DEFAULTS
    eps, delta, S, C, rho = k["epsilon"], k["delta"], k["S"], k["C"], k["rho"]
    md, mdp, public, user = bayesian_page_pair()
    d = _register(("bayes-page", "D"), md)
    d_prime = _register(("bayes-page", "D'"), mdp)
    # steps 1–7 are deterministic in the paper's mode (no random cap): prepared once per dataset, each with
    # the γ measured on *its own* data — exactly what the mechanism does when run on D and on D'
    prepared = {key: bayesian_statistics(_DATA[key], public, C=C).prepare(S=S, rho=rho) for key in (d, d_prime)}
    sig = {key: p.sigma(epsilon=eps, delta=delta, calibration="auto") for key, p in prepared.items()}
    mu = {key: p.mu_ps - p.mu_ps.mean() for key, p in prepared.items()}

    def mech(data, rng):
        release = prepared[data].release(epsilon=eps, delta=delta, rng=rng, calibration="auto")
        return float(_gaussian_llr(_centred_log(release.theta), mu, sig, d, d_prime))

    def batch(data, n, rng):  # z = centred log θ = centred h: drawn directly, in chunks
        p = prepared[data]
        out = np.empty(n)
        for i in range(0, n, _SCORE_CHUNK):
            h = p.mu_ps + sig[data] * rng.standard_normal((min(_SCORE_CHUNK, n - i), p.mu_ps.size))
            out[i:i + h.shape[0]] = _gaussian_llr(h - h.mean(axis=-1, keepdims=True), mu, sig, d, d_prime)
        return out

    g = {key: p.sensitivity for key, p in prepared.items()}
    broken = Variant(
        "not DP: local γ", True,
        f"BayesianDP as in the paper: γ measured by brute force on each dataset — {g[d]:.4g} on D, {g[d_prime]:.4g} "
        f"on D' — so σ_ps = {sig[d]:.4g} on D and {sig[d_prime]:.4g} on D': the noise scale itself says whether the "
        f"user is in. The noise was set from ε = {eps:g}, δ = {delta:g} (the claim below), which the release's label "
        "no longer promises: no (ε, δ) holds, not even for this corpus's neighbours (SPEC §3b).",
        eps, delta, mech, batch)
    return Scenario(
        "bayesian_local_page", "BayesianDP as in the paper (local γ): the Bayesian page's own pair",
        "The page's own corpus and settings; the neighbour is the same corpus without its most active user, whose "
        "removal changes the measured γ the most.",
        f"D: the real chat corpus at the Bayesian page's defaults ({md.shape[0]:,} users, |V| = {md.shape[1]:,} "
        f"words, S = {S:g}, ρ = {rho:g}, C = {C}); D': without user {user} (the largest total count)",
        "log-likelihood ratio of N(μ_D, σ_D²) against N(μ_D', σ_D'²) at the centred log θ", d, d_prime, None, broken,
        2_000,
        note="ε = 1, δ = 1e-5, auto calibration (analytic at ε = 1). Steps 1–7 are deterministic here, so they are "
             "computed once per dataset; each run draws the Gaussian. The bound is limited by the number of trials "
             "(the runs on D and on D' barely overlap): more trials push it higher.")


def _end_to_end_local_page_scenario() -> Scenario:
    from ..bayesian.end_to_end import prepare_end_to_end

    k = PAGE_DEFAULTS
    eps, delta, C = k["epsilon"], k["delta"], k["C"]
    md, mdp, public, user = bayesian_page_pair()
    d = _register(("e2e-page", "D"), md)
    d_prime = _register(("e2e-page", "D'"), mdp)
    prep = {key: prepare_end_to_end(_DATA[key], public, C=C, rng=np.random.default_rng(0)) for key in (d, d_prime)}
    grid = prep[d].grid
    eps_train = 2.0 * eps / 3.0
    models = {}  # (dataset, grid index) → (prepared BayesianDP, centred μ, σ) — what the release at k* uses
    for key, p in prep.items():
        for j, (S, rho) in enumerate(grid):
            b = p.statistics.prepare(S=S, rho=rho, sensitivity=p.sensitivity_method)
            models[key, j] = (b, b.mu_ps - b.mu_ps.mean(), b.sigma(epsilon=eps_train, delta=delta, calibration="auto"))
    index = {g: j for j, g in enumerate(grid)}

    def llr(z, j):  # (S*, ρ*) is published with θ: the attacker scores θ under both datasets' models at it
        mu = {key: models[key, j][1] for key in (d, d_prime)}
        sig = {key: models[key, j][2] for key in (d, d_prime)}
        if min(sig.values()) == 0.0:
            return np.zeros(z.shape[:-1])
        return _gaussian_llr(z, mu, sig, d, d_prime)

    def mech(data, rng):
        release = prep[data].release(epsilon=eps, delta=delta, rng=rng, calibration="auto")
        return float(llr(_centred_log(release.theta), index[(release.S_star, release.rho_star)]))

    def batch(data, n, rng):
        p = prep[data]
        scale = 2.0 * p.score_sensitivity / (eps / 3.0)
        chosen = np.argmin(p.scores + rng.laplace(0.0, scale, size=(n, len(grid))), axis=1)  # report-noisy-min
        out = np.empty(n)
        for j in np.unique(chosen):
            idx = np.flatnonzero(chosen == j)
            b, _, s = models[data, j]
            for i in range(0, idx.size, _SCORE_CHUNK):
                rows = idx[i:i + _SCORE_CHUNK]
                h = b.mu_ps + s * rng.standard_normal((rows.size, b.mu_ps.size))
                out[rows] = llr(h - h.mean(axis=-1, keepdims=True), j)
        return out

    q = {key: p.score_sensitivity for key, p in prep.items()}
    broken = Variant(
        "not DP: local γ and |Δq|", True,
        f"EndToEndDP (000 Algorithm 2) as in the paper: γ^(k) and Claim 2's score sensitivity |Δq| are measured on "
        f"each dataset (|Δq| = {q[d]:.4g} on D, {q[d_prime]:.4g} on D'; at the first grid point σ = "
        f"{models[d, 0][2]:.4g} on D and {models[d_prime, 0][2]:.4g} on D'). The noise was set from a total "
        f"ε = {eps:g}, δ = {delta:g} (the claim below), which the label no longer promises (SPEC §3b).",
        eps, delta, mech, batch)
    return Scenario(
        "end_to_end_local_page", "EndToEndDP as in the paper: the Bayesian page's own pair",
        "The page's own corpus and settings; the neighbour is the corpus without its most active user: the "
        "train split's measured γ^(k), hence σ at every grid point, changes with them.",
        f"D: the real chat corpus at the Bayesian page's defaults ({md.shape[0]:,} users, C = {C}); D': without "
        f"user {user} (the largest total count)",
        "log-likelihood ratio of the two datasets' Gaussians at the published (S*, ρ*), at the centred log θ", d,
        d_prime, None, broken, 2_000,
        note="The 90 / 10 user split is drawn once per dataset (seed 0), as the page draws it once per seed and "
             "keeps it; each run does the report-noisy-min over the 40 grid points and the Gaussian draw "
             "(ε_train = 2ε/3, ε_tune = ε/3, auto calibration: classic at ε_train < 1).")


def _laplace_public_local_scenario() -> Scenario:
    from ..bayesian.baselines import laplace_public_dp, prepare_laplace_public

    eps, W, v, n_light = 1.0, 50, 10, 2_000
    rng = np.random.default_rng(3)
    m = np.zeros((n_light + 1, v), dtype=np.int64)
    m[np.arange(1, n_light + 1), rng.integers(0, v, n_light)] = 1  # 2,000 users with one token each
    m[0, :] = W // v  # one user with W = 50 tokens
    public = np.linspace(10.0, 1.0, v)
    d = _register(("lap-public", "D"), sp.csr_matrix(m))
    d_prime = _register(("lap-public", "D'"), sp.csr_matrix(m[1:]))
    prepared = {key: prepare_laplace_public(_DATA[key], public, W=W, rng=0) for key in (d, d_prime)}
    f = {key: p.value for key, p in prepared.items()}
    b = {key: p.sensitivity / eps for key, p in prepared.items()}

    def score(theta):
        return np.abs(theta - f[d]).sum(axis=-1)  # spread of θ around f(D): larger with the larger scale

    def mech(data, rng):  # the library's mechanism, whole: cap (a no-op here), Δ₁ by brute force, noise
        return float(score(laplace_public_dp(_DATA[data], public, epsilon=eps, W=W, rng=rng).theta))

    def batch(data, n, rng):
        y = np.maximum(f[data] + rng.laplace(0.0, b[data], size=(n, v)), 0.0)
        s_ = y.sum(axis=1, keepdims=True)
        return score(np.where(s_ > 0, y / np.where(s_ > 0, s_, 1.0), 1.0 / v))

    page = ""
    try:  # what the same mechanism measures on the Bayesian page's own pair (W = 2 there)
        md, mdp, pub, _ = bayesian_page_pair()
        g = [prepare_laplace_public(x, pub, W=PAGE_DEFAULTS["W"], rng=0).sensitivity for x in (md, mdp)]
        page = (f" On the Bayesian page's own pair (real chat, W = {PAGE_DEFAULTS['W']}) Δ₁ is {g[0]:.5g} on D and "
                f"{g[1]:.5g} without the most active user — a change of {abs(g[1] / g[0] - 1):.2%}: the same leak, "
                "far too small for an audit of this size to see, hence this pair.")
    except ValueError:  # the real corpus is not installed: the constructed pair still stands
        pass
    broken = Variant(
        "not DP: measured Δ₁", True,
        f"Laplace + public data (000 §4.2) as in the paper: Δ₁ of the normalised counts is measured on each dataset "
        f"— {prepared[d].sensitivity:.4g} on D, {prepared[d_prime].sensitivity:.4g} on D' — so the noise scale "
        f"b = Δ₁/ε differs and gives the user away. The noise was set from ε = {eps:g} (the claim below), which the "
        "label no longer promises (SPEC §3b).",
        eps, 0.0, mech, batch)
    return Scenario(
        "laplace_public_local", "Laplace + public data: a pair where the measured Δ₁ moves",
        "One user writes far more than anyone else: with them the measured Δ₁, hence the Laplace scale, is "
        "larger, and the released distribution spreads further around f(D).",
        f"D: {n_light:,} users with one token each over {v} words and one user with W = {W} tokens; D': without "
        "that user",
        "L1 distance of the released θ to f(D)", d, d_prime, None, broken, 2_000,
        note=f"ε = {eps:g}, W = {W} (no user is above it, so the cap draws nothing)." + page)


# --------------------------------------------------------------------------------------------------
# TopicDP (004 Alg. 2): the noise step given two fixed LDA fits; strict TopicDP on the global bound
# --------------------------------------------------------------------------------------------------

def _released_batch(rows, sigma: float, n, rng):
    """n releases of the matrix ``rows`` with i.i.d. N(0, σ²) noise, clipped and rows renormalised."""
    noisy = np.maximum(rows + sigma * rng.standard_normal((n,) + rows.shape), 0.0)
    sums = noisy.sum(axis=2, keepdims=True)
    return np.where(sums > 0, noisy / np.where(sums > 0, sums, 1.0), 1.0 / rows.shape[1])


def _topicdp_scenario() -> Scenario:
    eps, delta = 1.0, 1e-5
    # Two LDA fits of neighbouring datasets: the same two topics, moved by 0.05 in ℓ2, whose prevalences swap.
    topics_d = np.array([[0.9, 0.1], [0.15, 0.85]])
    step = np.array([[-1.0, 1.0], [1.0, -1.0]]) * (0.05 / 2.0)
    topics_dp = topics_d + step
    fits = {("topicdp", "D"): (topics_d, np.array([0.51, 0.49])),
            ("topicdp", "D'"): (topics_dp, np.array([0.49, 0.51]))}
    d = _register(("topicdp", "D"), fits[("topicdp", "D")])
    d_prime = _register(("topicdp", "D'"), fits[("topicdp", "D'")])
    sens = float(np.linalg.norm(topics_d - topics_dp))  # the distance in release order: Δ_s covers it

    def rows(data, by_prevalence: bool):
        tw, prevalence = _DATA[data]
        return tw[np.argsort(-prevalence, kind="stable")] if by_prevalence else tw  # else: component order

    def variant(broken: bool) -> Variant:
        direction = rows(d, broken) - rows(d_prime, broken)

        def mech(data, rng):
            r = topicdp_mechanism(rows(data, broken), epsilon=eps, delta=delta, sensitivity=sens, rng=rng)
            return float(np.sum(r.matrix * direction))

        def batch(data, n, rng):
            w = rows(data, broken)
            sigma = topicdp_sigma(epsilon=eps, delta=delta, sensitivity=sens, m=w.shape[0], n=w.shape[1])
            return np.sum(_released_batch(w, sigma, n, rng) * direction, axis=(1, 2))

        dist = float(np.linalg.norm(rows(d, broken) - rows(d_prime, broken)))
        if broken:
            text = (f"BROKEN: the rows are released by prevalence while Δ_s = {sens:.3g} was measured after aligning "
                    f"the topics (dpcore before issue 21): the two topics swap rows, so the released matrices are "
                    f"{dist:.3g} apart, {dist / sens:.0f} × the Δ_s the noise is scaled to.")
        else:
            text = (f"As shipped: rows in LDA component order, so the released matrices are {dist:.3g} apart, within "
                    f"Δ_s = {sens:.3g}; σ = Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n) (the thesis's split, which "
                    "overstates the noise); clip at 0, renormalise rows.")
        return Variant("broken: rows by prevalence" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "topicdp", "TopicDP: topic–keyword matrix",
        "Two fits of neighbouring datasets with the same two topics whose prevalences swap: in a data-independent "
        "row order the release moves by Δ_s, in prevalence order the rows trade places (issue 21 item 3).",
        "D, D': two 2 × 2 LDA fits, topics 0.05 apart, prevalence 0.51/0.49 on D and 0.49/0.51 on D'",
        "the released matrix projected on the difference of the two releases' noiseless matrices", d, d_prime,
        variant(False), variant(True), 20_000,
        note="Audits the noise step given the two fits (no LDA fit per trial); Δ_s is the pair's distance in the "
             "shipped release order, the largest change TopicDP's random-DP guarantee covers.")


def _topicdp_strict_scenario() -> Scenario:
    eps, delta, m = 1.0, 1e-5, 10
    md = np.tile([1.0, 0.0], (m, 1))  # every topic on the first keyword
    mdp = md[:, ::-1].copy()  # one user moves every topic to the second: ‖f(D) − f(D')‖_F = √(2m), the bound
    d = _register(("topicdp_strict", "D"), md)
    d_prime = _register(("topicdp_strict", "D'"), mdp)
    direction = md - mdp

    def variant(broken: bool) -> Variant:
        bound = 1.0 if broken else math.sqrt(2.0 * m)
        sigma = analytic_gaussian_sigma(eps, delta, bound)

        def mech(data, rng):
            w = _DATA[data]
            if broken:
                rng = check_rng(rng)
                r = _released_batch(w, sigma, 1, rng)[0]
            else:
                r = strict_topicdp_mechanism(w, epsilon=eps, delta=delta, rng=rng).matrix
            return float(np.sum(r * direction))

        def batch(data, n, rng):
            return np.sum(_released_batch(_DATA[data], sigma, n, rng) * direction, axis=(1, 2))

        if broken:
            text = (f"BROKEN: σ = {sigma:.3g} from the change of one probability (at most 1), forgetting that one "
                    f"user moves two entries of every row: the two releases are √(2m) = {math.sqrt(2 * m):.3g} apart, "
                    f"{math.sqrt(2 * m):.3g} × what the noise is scaled to.")
        else:
            text = (f"Analytic Gaussian σ = {sigma:.3g} on the global bound √(2m) = {bound:.3g} (any two "
                    "row-stochastic m × n matrices are this close); clip at 0, renormalise rows.")
        return Variant("broken: one entry's bound" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "topicdp_strict", "TopicDP strict: the global bound √(2m)",
        "One user moves every one of the m topics from one keyword to another: the largest change two "
        "row-stochastic tables can show, exactly the bound strict TopicDP is calibrated to.",
        f"D: {m} topics all on keyword 1; D': all on keyword 2 (Frobenius distance √(2m) = {math.sqrt(2 * m):.3g})",
        "the released matrix projected on f(D) − f(D')", d, d_prime, variant(False), variant(True), 20_000,
        note="The values only: which topics and keywords make the table is not part of this release's proof.")


# --------------------------------------------------------------------------------------------------
# VIPS-LDA (issue 23): a user who alone writes a rare word many times
# --------------------------------------------------------------------------------------------------

def _vips_scenario(rare_tokens: int = 50) -> Scenario:
    from ..text.corpus import Corpus, Document
    from ..topicdp.vips import _fit, clipped_statistics, seeded_start, vips_lda, vips_sigma
    from ..topicdp.vips_inputs import person_counts

    eps, delta, clip, k, iterations = 1.0, 1e-5, 1.0, 2, 1
    rng = np.random.default_rng(23)
    vocab = tuple(f"word{chr(97 + i)}" for i in range(12)) + ("secret",)  # words: letters only
    background = [[[f"word{chr(97 + int(w[1:]))}" for w in s] for s in u] for u in _background_users(30, 12, rng)]
    target = [["secret"] * 10 for _ in range(rare_tokens // 10)]

    def corpus(users, name):
        return Corpus(user_ids=tuple(f"u{i:03d}" for i in range(len(users))), name=name,
                      users=tuple((Document(sentences=tuple(tuple(s) for s in u)),) for u in users))

    counts = {which: person_counts(corpus(users, f"vips {which}"), vocab)
              for which, users in (("D", background + [target]), ("D'", background))}
    d = _register(("vips", rare_tokens, "D"), counts["D"])
    d_prime = _register(("vips", rare_tokens, "D'"), counts["D'"])
    start = seeded_start(vocab, n_topics=k)
    secret = start.words.index("secret")  # the vocabulary's columns are sorted
    sigma = vips_sigma(epsilon=eps, delta=delta, iterations=iterations, clip_norm=clip)
    eta = 1.0 / k

    def variant(broken: bool) -> Variant:
        bound = None if broken else clip

        def mech(data, rng):
            if broken:
                lam = _fit(_DATA[data], start.lam, iterations=iterations, clip_norm=None, sigma=sigma,
                           rng=check_rng(rng))
                return float(lam[:, secret].sum())
            r = vips_lda(_DATA[data], n_topics=k, epsilon=eps, delta=delta, clip_norm=clip, iterations=iterations,
                         rng=rng, vocabulary=vocab, start=start)
            return float((r.topic_word[:, secret] * r.prevalence).sum())

        def batch(data, n, rng):  # J = 1: the statistics do not depend on the draw; the entries are independent
            column = clipped_statistics(_DATA[data], start.lam, clip_norm=bound)[:, secret]
            return (eta + np.maximum(column + sigma * rng.standard_normal((n, k)), 0.0)).sum(axis=1)

        if broken:
            text = (f"BROKEN: no per-user clip, while σ = {sigma:.3g} is still set for B = {clip:g}: the user's "
                    f"{rare_tokens} tokens of 'secret' move its column by about {rare_tokens / math.sqrt(k):.0f} "
                    f"in ℓ2, not {clip:g}.")
        else:
            text = (f"Each user's K × V expected counts are clipped to ℓ2 norm B = {clip:g}; their sum gets "
                    f"N(0, σ²) on every entry, σ = {sigma:.3g} (PLD accountant, J = {iterations}), then clip at 0.")
        return Variant("broken: no per-user clip" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "vips", "VIPS-LDA: noisy topic–word counts",
        f"The user alone writes 'secret', {rare_tokens} times: without them its column holds only noise, with "
        "them their whole (clipped) contribution lies in that column, the largest shift one user can make there.",
        f"D: 31 users, one of them writing 'secret' {rare_tokens} times and nothing else; D': without that user",
        "the released expected count of 'secret', summed over the topics", d, d_prime, variant(False),
        variant(True), 20_000,
        note=f"K = {k} topics, J = {iterations} iteration from a seeded start, vocabulary of {len(vocab)} public "
             "words. With J = 1 the E-step does not depend on the draw, so the vectorised path computes the "
             "statistics once and draws only the 'secret' column's noise (its entries are independent).")


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

    broken = Variant("not DP: k-anonymity", True,
                     f"Keeps the counts of items used by at least K = {K} users, suppresses the rest: deterministic, "
                     "so one user can switch an item between kept and suppressed.", None, 0.0, mech, batch)
    return Scenario(
        "kanonymity", "k-anonymity: suppress rare items",
        "The user is the K-th writer of item 0: with them the item is released with its count, without them "
        "it is suppressed — the output tells for certain whether they are in.",
        f"D: 12 users, item 0 written by K = {K}; D': without one of them",
        "the released share of item 0", d, d_prime, None, broken, 2_000,
        note="k-anonymity claims no ε: the audit's bound is limited only by the number of trials "
             "(a deterministic difference gives ln((p⁻ − δ)/p⁺) with p⁺ the upper bound on 0 of n).")


# --------------------------------------------------------------------------------------------------
# Registry and runner
# --------------------------------------------------------------------------------------------------

_BUILDERS = {
    "laplace_count": _laplace_scenario,
    "exponential_city": _exponential_scenario,
    "dpsu": _dpsu_scenario,
    "dpne_redraw": _dpne_scenario,
    "bayesian": _bayesian_scenario,
    "bayesian_local_page": _bayesian_local_page_scenario,
    "end_to_end_local_page": _end_to_end_local_page_scenario,
    "laplace_public_local": _laplace_public_local_scenario,
    "topicdp": _topicdp_scenario,
    "vips": _vips_scenario,
    "topicdp_strict": _topicdp_strict_scenario,
    "kanonymity": _kanonymity_scenario,
}
SCENARIOS = tuple(_BUILDERS)
LOCAL_SENSITIVITY_SCENARIOS = ("bayesian_local_page", "end_to_end_local_page", "laplace_public_local")
"""One scenario per mechanism whose sensitivity is measured on the data (SPEC §3b), each run on D and on D'."""


def scenario_names() -> tuple[str, ...]:
    """The registered scenario names, in display order."""
    return SCENARIOS


@lru_cache(maxsize=None)
def get_scenario(name: str) -> Scenario:
    """The scenario called ``name`` (built once; the pairs are small)."""
    check_choice("scenario", name, SCENARIOS)
    return _BUILDERS[name]()


def run_scenario(name: str, *, broken: bool = False, trials=None, rng, confidence=0.95, progress=None,
                 vectorised: bool = True) -> ScenarioRun:
    """Audit one variant of a registered scenario.

    Args:
      name: a name from :data:`SCENARIOS`.
      broken: audit the BROKEN variant instead of the correct one.
      trials: runs per dataset (default: the scenario's ``default_trials``).
      rng: numpy Generator or int seed.
      confidence: joint confidence of the bound.
      progress: optional ``progress(done, total)`` callback.
      vectorised: use the variant's batch path where it has one.
    """
    if not isinstance(broken, (bool, np.bool_)):
        raise TypeError(f"broken must be True or False, got broken={broken!r}")
    sc = get_scenario(name)
    v = sc.variant(bool(broken))
    trials = sc.default_trials if trials is None else check_int("trials", trials, low=10)
    t0, c0 = time.perf_counter(), time.process_time()
    batch = v.batch if vectorised else None
    result = audit(v.mechanism, sc.d, sc.d_prime, trials=trials, delta=v.delta, confidence=confidence,
                   epsilon_claimed=v.epsilon_claimed, rng=rng, progress=progress, batch=batch)
    return ScenarioRun(name, v.label, v.broken, result, time.perf_counter() - t0, time.process_time() - c0,
                       batch is not None)


SCENARIO_LABELS: dict[str, str] = {
    "Laplace count": "laplace_count",
    "Exponential (cities)": "exponential_city",
    "DPSU": "dpsu",
    "DPNE": "dpne_redraw",
    "BayesianDP": "bayesian",
    "BayesianDP local γ (the page's pair)": "bayesian_local_page",
    "EndToEndDP (the page's pair)": "end_to_end_local_page",
    "Laplace + public": "laplace_public_local",
    "TopicDP": "topicdp",
    "VIPS-LDA": "vips",
    "TopicDP strict": "topicdp_strict",
    "k-anonymity": "kanonymity",
}
"""Short names of the scenarios (the Privacy audit page's picker and its URL; lecture exercises) → names."""


def audit_rng(seed: int) -> np.random.Generator:
    """The generator an audit at a given seed runs on (the page and its exercises use the same one)."""
    return np.random.default_rng([check_int("seed", seed, low=0), 10])
