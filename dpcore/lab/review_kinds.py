"""What each release type answers to the reviewer's panel and the session budget (issue 33 item 1): its noise
statements, its budget statement and the settings its warnings are checked on (a reviewer), and its budget line
(name, what it released, its privacy event), small functions registered by type.

:func:`dpcore.lab.review.review_release` and :func:`dpcore.lab.budget.budget_entry` are dispatches over this table
(:func:`release_reviewer`, :func:`release_budget_line`); a new release type adds its functions here and one line in
:func:`_reviewers`. The TopicDP matrix mechanisms need no entry of
their own: :func:`_matrix` reads the release's record (:data:`dpcore.topicdp.MATRIX_MECHANISMS`) for its noise.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .review_budget import BudgetStatement, dpne_budget, end_to_end_budget, single_budget
from .review_noise import (
    NoiseStatement,
    dpne_users_per_released,
    gaussian_noise_in_units,
    laplace_noise_in_units,
    log_space_noise_in_units,
)

__all__ = ["ReviewParts", "release_reviewer", "release_budget_line", "reviewed_types"]


@dataclass(frozen=True)
class ReviewParts:
    """A release's answers: its noise statements, its budget statement (None: it spends none) and the settings
    :func:`dpcore.lab.review_warnings` checks beyond ``n_users`` (ε, δ, its cap and calibration…)."""

    noise: tuple[NoiseStatement, ...] = ()
    budget: BudgetStatement | None = None
    settings: dict = field(default_factory=dict)


Reviewer = Callable[..., ReviewParts]
"""``reviewer(release, *, value, confidence, user_items) -> ReviewParts``."""
BudgetLine = Callable[..., tuple]
"""``budget_line(release, guarantee, counts) -> (name, released, event, share)`` (:func:`dpcore.lab.budget_entry`)."""


def _theta(release, *, value, confidence, user_items, end_to_end: bool = False) -> ReviewParts:
    """BayesianDP (and EndToEndDP, its tuned inner release): log-normal noise on θ."""
    inner = release.release if end_to_end else release
    noise = log_space_noise_in_units(
        1.0 / inner.theta.size if value is None else value, sigma=inner.sigma, confidence=confidence
    )
    settings: dict = dict(epsilon=release.epsilon, delta=release.delta, calibration=inner.calibration)
    if end_to_end:
        budget = end_to_end_budget(
            epsilon_train=release.epsilon_train, epsilon_tune=release.epsilon_tune, delta=release.delta
        )
    else:
        budget = single_budget(epsilon=release.epsilon, delta=release.delta, name="BayesianDP release")
        if release.max_items is not None:
            settings.update(contribution_cap=release.max_items, user_items=user_items, cap_name="item cap L")
    return ReviewParts((noise,), budget, settings)


def _laplace(release, *, value, confidence, user_items) -> ReviewParts:
    """The Bayesian page's Laplace baselines: Lap(b) on a count (cap W) or on a share (+ public)."""
    noise: tuple[NoiseStatement, ...] = ()
    if release.scale > 0:
        quantity = "a count" if release.mechanism == "Laplace" else "a share"
        v = 100.0 if value is None else value
        noise = (laplace_noise_in_units(v, scale=release.scale, confidence=confidence, quantity=quantity),)
    settings: dict = dict(epsilon=release.epsilon)
    if release.mechanism == "Laplace":
        settings.update(contribution_cap=release.W, user_items=user_items, cap_name="count cap W")
    return ReviewParts(noise, single_budget(epsilon=release.epsilon, name=release.mechanism), settings)


def _not_noisy(release, *, value, confidence, user_items) -> ReviewParts:
    """k-anonymity: no noise and no budget; its guarantee says what it is."""
    return ReviewParts()


def _sets(release, *, value, confidence, user_items, baseline: bool = False) -> ReviewParts:
    """DPNE and the DPSU baselines: users per released n-gram at every length k with a finite threshold ρ_k."""
    g = release.guarantee
    noise = tuple(
        dpne_users_per_released(sigma=release.sigmas[k], threshold=release.thresholds[k], confidence=confidence, k=k)
        for k in sorted(k for k, rho in release.thresholds.items() if math.isfinite(rho))  # ρ_k = ∞: nothing at k
    )
    eps, delta = (g.epsilon, g.delta) if baseline else (release.epsilon, release.delta)
    settings = dict(
        epsilon=eps,
        delta=delta,
        contribution_cap=release.contribution_limit,
        user_items=user_items,
        cap_name="contribution limit Δ0",
    )
    if baseline:
        name = release.name + (" — per length; the lengths together spend more" if g.scope else "")
        budget = single_budget(epsilon=eps, delta=delta, name=name)
    else:
        budget = dpne_budget(sigma=release.sigma, sigmas=release.sigmas, epsilon=eps, delta=delta)
    return ReviewParts(noise, budget, settings)


def _vips(release, *, value, confidence, user_items) -> ReviewParts:
    """VIPS-LDA: Gaussian noise on expected counts in every iteration (the reference fit: none)."""
    if not release.sigma > 0:
        return ReviewParts()
    noise = gaussian_noise_in_units(
        100.0 if value is None else value,
        sigma=release.sigma,
        confidence=confidence,
        quantity="an expected topic–word count (in every iteration)",
    )  # noise on expected counts (unbounded above): no answer range to swamp
    iterations = f"{release.iterations} iteration{'s' if release.iterations > 1 else ''}"
    budget = single_budget(
        epsilon=release.epsilon, delta=release.delta, name=f"VIPS-LDA, {iterations} composed by the PLD accountant"
    )
    settings = dict(
        epsilon=release.epsilon,
        delta=release.delta,
        contribution_cap=release.clip_norm,
        user_items=user_items,
        cap_name="clip norm B (ℓ2 norm of a person's expected counts)",
    )
    return ReviewParts((noise,), budget, settings)


def _matrix(release, *, value, confidence, user_items) -> ReviewParts:
    """A TopicDP matrix mechanism: its record's noise (Gaussian σ or Laplace b) on a topic–word probability.

    TopicDP's classic σ runs at ε′ = ε/(m·n); where ε′ ≥ 1 its guarantee's scope says so. A probability lies in
    [0, 1]: a noise wider than that is flagged (issue 24 item 6)."""
    v = 1.0 / release.matrix.shape[1] if value is None else value
    q = "a topic–word probability"
    if release.noise_kind() == "laplace":
        noise = laplace_noise_in_units(v, scale=release.noise_scale, confidence=confidence, quantity=q)
    else:
        noise = gaussian_noise_in_units(v, sigma=release.noise_scale, confidence=confidence, quantity=q)
    budget = single_budget(epsilon=release.epsilon, delta=release.delta, name=release.mechanism)
    settings = dict(
        epsilon=release.epsilon,
        delta=release.delta,
        random_dp_gamma=release.gamma,
        noise=(noise,),
        answer_range=1.0,
    )
    return ReviewParts((noise,), budget, settings)


# ------------------------------------------------------------------------------------------ the session budget
# budget_line(release, g, counts) -> (name, released, event, share): the BudgetEntry's name and "what it released",
# its event (None unless ``counts``) and, for random DP, its (γ, Δ_s) share (dpcore.lab.budget.budget_entry).


def _theta_line(release, g, counts: bool) -> tuple:
    name = f"BayesianDP {'strict' if release.sensitivity_method == 'strict' else 'local'}"
    event = None
    if counts and release.sigma > 0:  # h = μ_ps + σ_ps·Z, μ_ps moves by at most ρ·γ_strict
        event = ("gaussian", release.sigma / (release.rho * release.sensitivity), float(g.delta))
    return name, f"θ over {release.theta.size:,} n-grams", event, None


def _end_to_end_line(release, g, counts: bool) -> tuple:
    return "EndToEndDP", f"θ over {release.theta.size:,} n-grams and the tuned (S*, ρ*)", None, None


def _laplace_line(release, g, counts: bool) -> tuple:
    event = None
    if counts and release.scale > 0:  # Lap(0, W/ε) on counts with ℓ1 sensitivity W
        event = ("laplace", release.scale / release.sensitivity)
    return release.mechanism, f"θ over {release.theta.size:,} n-grams", event, None


def _k_anonymity_line(release, g, counts: bool) -> tuple:
    return f"k-anonymity (K = {release.K})", f"θ over {release.theta.size:,} n-grams", None, None


def _sets_line(release, g, counts: bool, baseline: bool = False) -> tuple:
    n = sum(len(v) for v in release.ngrams.values())
    released = f"{n:,} n-grams (sets only, lengths 1–{max(release.ngrams)})"
    event = None
    if counts:
        count = len(release.ngrams) if g.scope else 1  # DPSU-single: one (ε, δ) release per length
        event = ("approximate", float(g.epsilon), float(g.delta), count)
    return (release.name if baseline else "DPNE"), released, event, None


def _vips_line(release, g, counts: bool) -> tuple:
    """J Gaussians with multiplier z = σ/B compose exactly to one with z/√J (dpcore.lab.budget.budget_entry)."""
    if release.epsilon is None:  # the non-private reference fit (vips_reference_fit): no budget at all
        name = "VIPS-LDA reference fit (not private)"
    else:
        name = "VIPS-LDA" if release.sigma > 0 or release.epsilon > 0 else "public-only fit"
    released = (
        f"{release.n_topics} × {len(release.words):,} topic–word matrix "
        f"({release.iterations} noisy iteration{'s' if release.iterations > 1 else ''})"
    )
    event = None
    if counts and release.sigma > 0:  # a noisy fit has its B (None only for the reference fit)
        event = ("gaussian", release.sigma / (release.clip_norm * math.sqrt(release.iterations)), float(g.delta))
    return name, released, event, None


def _matrix_line(release, g, counts: bool) -> tuple:
    """DP for the values given the non-private choice of topics, or random DP on the sampled Δ_s: the record's event
    (:meth:`dpcore.topicdp.MatrixRelease.budget_event`)."""
    released = f"{release.matrix.shape[0]} × {release.matrix.shape[1]} topic–keyword matrix"
    if not counts:
        return release.mechanism, released, None, None
    share = None if g.gamma is None else (float(g.gamma), float(release.sensitivity))
    return release.mechanism, released, release.budget_event(), share


@functools.cache
def _reviewers() -> tuple[tuple[type, Reviewer, BudgetLine], ...]:
    """(release type, its reviewer, its budget line) in the order they are tried."""
    from ..bayesian.baselines import KAnonymityRelease, LaplaceRelease
    from ..bayesian.end_to_end import EndToEndRelease
    from ..bayesian.release import BayesianRelease
    from ..dpne.results import DpneRelease, DpsuBaselineRelease
    from ..topicdp.mechanisms import MatrixRelease
    from ..topicdp.vips import VipsRelease

    return (
        (EndToEndRelease, functools.partial(_theta, end_to_end=True), _end_to_end_line),
        (BayesianRelease, _theta, _theta_line),
        (KAnonymityRelease, _not_noisy, _k_anonymity_line),
        (LaplaceRelease, _laplace, _laplace_line),
        (DpneRelease, _sets, _sets_line),
        (DpsuBaselineRelease, functools.partial(_sets, baseline=True), functools.partial(_sets_line, baseline=True)),
        (MatrixRelease, _matrix, _matrix_line),
        (VipsRelease, _vips, _vips_line),
    )


def reviewed_types() -> tuple[type, ...]:
    """The release types the reviewer's panel and the session budget know."""
    return tuple(t for t, _, _ in _reviewers())


def _kind(release) -> tuple[type, Reviewer, BudgetLine]:
    for kind in _reviewers():
        if isinstance(release, kind[0]):
            return kind
    raise TypeError(f"release must be a dpcore release object, got {type(release).__name__}")


def release_reviewer(release) -> Reviewer:
    """The reviewer of ``release``'s type, or a TypeError naming it."""
    return _kind(release)[1]


def release_budget_line(release) -> BudgetLine:
    """The budget line of ``release``'s type, or a TypeError naming it."""
    return _kind(release)[2]
