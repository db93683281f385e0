"""Audit scenarios for TopicDP (published and strict) and VIPS-LDA (thesis 004, issue 23)."""

from __future__ import annotations

import math

import numpy as np

from ..mechanisms.gaussian import analytic_gaussian_sigma
from ..mechanisms.noise import gaussian_noise
from ..topicdp.mechanisms import strict_topicdp_mechanism, topicdp_mechanism, topicdp_sigma
from ..validation import check_rng
from .scenario_types import _DATA, Scenario, Variant, _register
from .scenarios_ngrams import _background_users

# --------------------------------------------------------------------------------------------------
# TopicDP (004 Alg. 2): the noise step given two fixed LDA fits; strict TopicDP on the global bound
# --------------------------------------------------------------------------------------------------


def _released_batch(rows, sigma: float, n, rng):
    """n releases of the matrix ``rows`` with i.i.d. N(0, σ²) noise, clipped and rows renormalised."""
    noisy = np.maximum(rows + gaussian_noise(sigma=sigma, size=(n,) + rows.shape, rng=rng), 0.0)
    sums = noisy.sum(axis=2, keepdims=True)
    return np.where(sums > 0, noisy / np.where(sums > 0, sums, 1.0), 1.0 / rows.shape[1])


def _topicdp_scenario(epsilon: float = 1.0) -> Scenario:
    eps, delta = epsilon, 1e-5
    # Two LDA fits of neighbouring datasets: the same two topics, moved by 0.05 in ℓ2, whose prevalences swap.
    topics_d = np.array([[0.9, 0.1], [0.15, 0.85]])
    step = np.array([[-1.0, 1.0], [1.0, -1.0]]) * (0.05 / 2.0)
    topics_dp = topics_d + step
    fits = {
        ("topicdp", "D"): (topics_d, np.array([0.51, 0.49])),
        ("topicdp", "D'"): (topics_dp, np.array([0.49, 0.51])),
    }
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
            text = (
                f"BROKEN: the rows are released by prevalence while Δ_s = {sens:.3g} was measured after aligning "
                f"the topics (dpcore before issue 21): the two topics swap rows, so the released matrices are "
                f"{dist:.3g} apart, {dist / sens:.0f} × the Δ_s the noise is scaled to."
            )
        else:
            text = (
                f"As shipped: rows in LDA component order, so the released matrices are {dist:.3g} apart, within "
                f"Δ_s = {sens:.3g}; σ = Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n) (the thesis's split, which "
                "overstates the noise); clip at 0, renormalise rows."
            )
        return Variant("broken: rows by prevalence" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "topicdp",
        "TopicDP: topic–keyword matrix",
        "Two fits of neighbouring datasets with the same two topics whose prevalences swap: in a data-independent "
        "row order the release moves by Δ_s, in prevalence order the rows trade places (issue 21 item 3).",
        "D, D': two 2 × 2 LDA fits, topics 0.05 apart, prevalence 0.51/0.49 on D and 0.49/0.51 on D'",
        "the released matrix projected on the difference of the two releases' noiseless matrices",
        d,
        d_prime,
        variant(False),
        variant(True),
        20_000,
        note="Audits the noise step given the two fits (no LDA fit per trial); Δ_s is the pair's distance in the "
        "shipped release order, the largest change TopicDP's random-DP guarantee covers.",
    )


def _topicdp_strict_scenario(epsilon: float = 1.0) -> Scenario:
    eps, delta, m = epsilon, 1e-5, 10
    md = np.tile([1.0, 0.0], (m, 1))  # every topic on the first keyword
    mdp = md[:, ::-1].copy()  # one user moves every topic to the second: ‖f(D) − f(D')‖_F = √(2m), the bound
    d = _register(("topicdp_strict", "D"), md)
    d_prime = _register(("topicdp_strict", "D'"), mdp)
    direction = md - mdp

    def variant(broken: bool) -> Variant:
        bound = 1.0 if broken else math.sqrt(2.0 * m)
        sigma = analytic_gaussian_sigma(epsilon=eps, delta=delta, sensitivity=bound)

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
            text = (
                f"BROKEN: σ = {sigma:.3g} from the change of one probability (at most 1), forgetting that one "
                f"user moves two entries of every row: the two releases are √(2m) = {math.sqrt(2 * m):.3g} apart, "
                f"{math.sqrt(2 * m):.3g} × what the noise is scaled to."
            )
        else:
            text = (
                f"Analytic Gaussian σ = {sigma:.3g} on the global bound √(2m) = {bound:.3g} (any two "
                "row-stochastic m × n matrices are this close); clip at 0, renormalise rows."
            )
        return Variant("broken: one entry's bound" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "topicdp_strict",
        "TopicDP strict: the global bound √(2m)",
        "One user moves every one of the m topics from one keyword to another: the largest change two "
        "row-stochastic tables can show, exactly the bound strict TopicDP is calibrated to.",
        f"D: {m} topics all on keyword 1; D': all on keyword 2 (Frobenius distance √(2m) = {math.sqrt(2 * m):.3g})",
        "the released matrix projected on f(D) − f(D')",
        d,
        d_prime,
        variant(False),
        variant(True),
        20_000,
        note="The values only: which topics and keywords make the table is not part of this release's proof.",
    )


# --------------------------------------------------------------------------------------------------
# VIPS-LDA (issue 23): a user who alone writes a rare word many times
# --------------------------------------------------------------------------------------------------


def _vips_counts(rare_tokens: int) -> tuple[tuple[str, ...], dict]:
    """VIPS-LDA's pair as person × word counts over a 13-word vocabulary: 30 background users (letters only) and,
    in D, one user who writes 'secret' ``rare_tokens`` times and nothing else."""
    from ..text.corpus import Corpus, Document
    from ..topicdp.vips_inputs import person_counts

    rng = np.random.default_rng(23)
    vocab = tuple(f"word{chr(97 + i)}" for i in range(12)) + ("secret",)  # words: letters only
    background = [[[f"word{chr(97 + int(w[1:]))}" for w in s] for s in u] for u in _background_users(30, 12, rng)]
    target = [["secret"] * 10 for _ in range(rare_tokens // 10)]

    def corpus(users, name):
        return Corpus(
            user_ids=tuple(f"u{i:03d}" for i in range(len(users))),
            name=name,
            users=tuple((Document(sentences=tuple(tuple(s) for s in u)),) for u in users),
        )

    counts = {
        which: person_counts(corpus(users, f"vips {which}"), vocab)
        for which, users in (("D", background + [target]), ("D'", background))
    }
    return vocab, counts


def _vips_variant_text(broken: bool, *, sigma, clip, rare_tokens, k, iterations) -> str:
    if broken:
        return (
            f"BROKEN: no per-user clip, while σ = {sigma:.3g} is still set for B = {clip:g}: the user's "
            f"{rare_tokens} tokens of 'secret' move its column by about {rare_tokens / math.sqrt(k):.0f} "
            f"in ℓ2, not {clip:g}."
        )
    return (
        f"Each user's K × V expected counts are clipped to ℓ2 norm B = {clip:g}; their sum gets "
        f"N(0, σ²) on every entry, σ = {sigma:.3g} (PLD accountant, J = {iterations}), then clip at 0."
    )


def _vips_scenario(rare_tokens: int = 50, epsilon: float = 1.0) -> Scenario:
    from ..topicdp.vips import _fit, clipped_statistics, seeded_start, vips_lda, vips_sigma

    eps, delta, clip, k, iterations = epsilon, 1e-5, 1.0, 2, 1
    vocab, counts = _vips_counts(rare_tokens)
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
                lam = _fit(
                    _DATA[data], start.lam, iterations=iterations, clip_norm=None, sigma=sigma, rng=check_rng(rng)
                )
                return float(lam[:, secret].sum())
            r = vips_lda(
                _DATA[data],
                n_topics=k,
                epsilon=eps,
                delta=delta,
                clip_norm=clip,
                iterations=iterations,
                rng=rng,
                vocabulary=vocab,
                start=start,
            )
            return float((r.topic_word[:, secret] * r.prevalence).sum())

        def batch(data, n, rng):  # J = 1: the statistics do not depend on the draw; the entries are independent
            column = clipped_statistics(_DATA[data], start.lam, clip_norm=bound)[:, secret]
            return (eta + np.maximum(column + gaussian_noise(sigma=sigma, size=(n, k), rng=rng), 0.0)).sum(axis=1)

        text = _vips_variant_text(broken, sigma=sigma, clip=clip, rare_tokens=rare_tokens, k=k, iterations=iterations)
        return Variant("broken: no per-user clip" if broken else "correct", broken, text, eps, delta, mech, batch)

    return Scenario(
        "vips",
        "VIPS-LDA: noisy topic–word counts",
        f"The user alone writes 'secret', {rare_tokens} times: without them its column holds only noise, with "
        "them their whole (clipped) contribution lies in that column, the largest shift one user can make there.",
        f"D: 31 users, one of them writing 'secret' {rare_tokens} times and nothing else; D': without that user",
        "the released expected count of 'secret', summed over the topics",
        d,
        d_prime,
        variant(False),
        variant(True),
        20_000,
        note=f"K = {k} topics, J = {iterations} iteration from a seeded start, vocabulary of {len(vocab)} public "
        "words. With J = 1 the E-step does not depend on the draw, so the vectorised path computes the "
        "statistics once and draws only the 'secret' column's noise (its entries are independent).",
    )
