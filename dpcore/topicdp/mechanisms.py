"""TopicDP's matrix mechanisms (thesis 004 ch. 4–5; SPEC §5): their guarantees, TopicDP (as published,
corrected and strict), the matrix Laplace mechanism and the matrix-variate Gaussian (MVG), each one record of
:data:`MATRIX_MECHANISMS` (the registry every consumer reads, issue 33 item 1), released by :func:`release_matrix`.

Privacy-critical: this is the module a reviewer reads for TopicDP, with its noise scales in
:mod:`dpcore.topicdp.matrix_scales`; the sampled sensitivity it is fed is in :mod:`dpcore.topicdp.sampler` (a
random-DP quantity, labelled orange).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

import numpy as np
from ..mechanisms.noise import gaussian_noise, laplace_noise
from ..guarantees import Guarantee, approximate_dp, pure_dp, random_dp
from ..validation import (
    as_float_array,
    check_choice,
    check_delta,
    check_draw_scale,
    check_epsilon,
    check_real,
    check_sensitivity,
)
from .matrix_scales import (
    corrected_topicdp_sigma,
    matrix_laplace_scale,
    mvg_sigma,
    strict_topicdp_sigma,
    topicdp_sigma,
    topicdp_true_epsilon,
)
from .sampler import SensitivityResult
from ..errors import UserError

__all__ = [
    "TOPICS_CHOICE",
    "matrix_guarantee",
    "MatrixRelease",
    "MatrixMechanism",
    "MATRIX_MECHANISMS",
    "matrix_mechanism",
    "release_matrix",
    "topicdp_sigma",
    "topicdp_mechanism",
    "corrected_topicdp_sigma",
    "corrected_topicdp_mechanism",
    "strict_topicdp_sigma",
    "strict_topicdp_mechanism",
    "topicdp_true_epsilon",
    "SAMPLED_MECHANISMS",
    "matrix_laplace_scale",
    "matrix_laplace_mechanism",
    "mvg_sigma",
    "mvg_mechanism",
    "TOPIC_MECHANISMS",
    "SAMPLER_FREE_MECHANISMS",
]


TOPICS_CHOICE = "a non-private choice of topics and keywords"
"""What none of the mechanisms covers: W's m topics and n keywords are picked from the private
LDA fit without noise (004 §5.2); the noise protects the values only (issue 15 item 2)."""


def matrix_guarantee(mechanism: str, *, epsilon, delta=None, gamma=None, m: int = 1, n: int = 2) -> Guarantee:
    """What a release of W by ``mechanism`` (a name of :data:`MATRIX_MECHANISMS`) promises: its record's rule.

    - TopicDP (thesis σ), TopicDP corrected and MVG with the sampled Δ_s: (ε, δ, γ)-random DP (004 Thm
      4.6.2; orange), given :data:`TOPICS_CHOICE`. Without γ (a sensitivity passed as a bare number) the
      promise is (ε, δ)-DP *conditional on* that number being a global bound — orange as well, never green.
    - TopicDP strict (analytic Gaussian on the global bound √(2m)) and MVG strict (MVG's σ on the global bounds
      s₂ = √(2m), γ_F = √m): (ε, δ)-DP for the values, given :data:`TOPICS_CHOICE` — orange ("DP for part of
      the release only"): the proof covers the m·n values for every pair of neighbours, but which topics are rows
      and which words are the columns are picked from the private fit without noise and published with them, so
      the release as a whole is not DP.
    - Laplace (global ℓ1 sensitivity 2m): ε-DP for the values, given :data:`TOPICS_CHOICE` (orange, the
      same reason; its proof is the strict mechanism's, with ℓ1 for ℓ2).
    Green on this page only for a release whose proof covers the choice of topics and keywords too
    (VIPS-LDA, :mod:`dpcore.topicdp.vips`).
    """
    check_choice("mechanism", mechanism, tuple(r.name for r in MATRIX_MECHANISMS))
    epsilon = check_epsilon(epsilon=epsilon)
    return matrix_mechanism(mechanism).guarantee(epsilon=epsilon, delta=delta, gamma=gamma, m=m, n=n)


def _values_pure_dp(*, epsilon, delta, gamma, m, n) -> Guarantee:
    """ε-DP for the values (a global ℓ1 bound), given :data:`TOPICS_CHOICE`."""
    return pure_dp(epsilon=epsilon, conditional_on=TOPICS_CHOICE)


def _values_approximate_dp(*, epsilon, delta, gamma, m, n) -> Guarantee:
    """(ε, δ)-DP for the values (a global ℓ2 bound), given :data:`TOPICS_CHOICE`."""
    return approximate_dp(epsilon=epsilon, delta=check_delta(delta=delta), conditional_on=TOPICS_CHOICE)


def _sampled_random_dp(*, epsilon, delta, gamma, m, n, split: bool = False) -> Guarantee:
    """(ε, δ, γ)-random DP on the sampled Δ_s (or (ε, δ)-DP conditional on a bare Δ_s taken as a global bound);
    ``split``: the thesis's classic σ at ε′ = ε/(m·n), outside its proof where ε′ ≥ 1 (the guarantee's scope)."""
    delta = check_delta(delta=delta)
    scope = ""
    if split and epsilon / (m * n) >= 1.0:
        scope = f"the classic σ at ε′ = ε/(m·n) = {epsilon / (m * n):.3g} ≥ 1 is outside its proof"
    if gamma is None:
        return approximate_dp(
            epsilon=epsilon,
            delta=delta,
            conditional_on="a supplied sensitivity taken as a global bound (not checked) and " + TOPICS_CHOICE,
            scope=scope,
        )
    return random_dp(
        epsilon=epsilon,
        delta=delta,
        gamma=check_real("gamma", gamma, low=0.0, high=1.0, high_inclusive=False),
        conditional_on=TOPICS_CHOICE,
        scope=scope,
    )


def _sensitivity_gamma(sensitivity, gamma):
    """Accept Δ_s as a number (γ from ``gamma``) or as a :class:`SensitivityResult` (γ from it)."""
    if isinstance(sensitivity, SensitivityResult):
        if gamma is not None and float(gamma) != sensitivity.gamma:
            raise UserError(f"gamma must match the sensitivity's gamma={sensitivity.gamma:g}, got gamma={gamma}")
        return sensitivity.delta_s, sensitivity.gamma
    return sensitivity, gamma


# ---------------------------------------------------------------------------------------------
# 3. The release (the noise scales: dpcore.topicdp.matrix_scales)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MatrixRelease:
    """One noisy release of W.

    Attributes:
      mechanism: its mechanism's name (a record of :data:`MATRIX_MECHANISMS`).
      matrix: the released matrix (noisy, clipped at 0, rows renormalised; an all-zero row → uniform).
      noisy: the noisy matrix before clipping and renormalising.
      noise_scale: the per-entry Gaussian standard deviation σ, or the Laplace scale b.
      sensitivity: the sensitivity used (Δ_s, or the record's global bound: √(2m), 2m for Laplace).
      guarantee: what the release promises (:func:`matrix_guarantee`).
      gamma: the random-DP γ behind a sampled sensitivity, or None.
    """

    mechanism: str
    matrix: np.ndarray
    noisy: np.ndarray
    noise_scale: float
    sensitivity: float
    epsilon: float
    delta: float | None
    guarantee: Guarantee
    gamma: float | None = None

    def mechanism_record(self) -> MatrixMechanism:
        """The record of :data:`MATRIX_MECHANISMS` this release was drawn by (a method, not a field or property: a
        release holds its numbers and its labels only, tests/test_release_leaks.py walks them)."""
        return matrix_mechanism(self.mechanism)

    def noise_kind(self) -> str:
        """ "gaussian" (N(0, σ²) on every entry, ``noise_scale`` = σ) or "laplace" (Lap(0, b), ``noise_scale`` = b)."""
        return self.mechanism_record().noise

    def budget_event(self) -> tuple:
        """Its event for the session budget (:func:`dpcore.lab.budget_entry`): the record's ``budget_event`` —
        one Gaussian of multiplier σ/Δ (N(0, σ²) per entry, the matrix's ℓ2 sensitivity Δ), a Laplace of b/Δ
        (ℓ1 sensitivity Δ = 2m), or the (ε, δ) pair (MVG: its proof gives a pair, not a profile)."""
        kind = self.mechanism_record().budget_event
        if kind == "laplace":
            return ("laplace", self.noise_scale / self.sensitivity)
        delta = float(cast(float, self.guarantee.delta))  # a Gaussian record's guarantee always has its δ
        if kind == "approximate":
            return ("approximate", float(cast(float, self.guarantee.epsilon)), delta, 1)
        return ("gaussian", self.noise_scale / self.sensitivity, delta)


def _check_matrix(matrix) -> np.ndarray:
    w = as_float_array("matrix", matrix)
    if w.ndim != 2 or w.shape[0] < 1 or w.shape[1] < 2:
        raise UserError(f"matrix must be 2-D with at least 1 row and 2 columns, got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise UserError("matrix must be finite, got a NaN or infinite entry")
    return w


def _clip_renormalise(noisy: np.ndarray) -> np.ndarray:
    out = np.clip(noisy, 0.0, None)
    s = out.sum(axis=1, keepdims=True)
    uniform = np.full_like(out, 1.0 / out.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(s > 0, out / np.where(s > 0, s, 1.0), uniform)
    return out


# ---------------------------------------------------------------------------------------------
# 4. The registry: every matrix mechanism as one record
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatrixMechanism:
    """One matrix mechanism: the one record the page, the curves, the review, the budget, the exercises, the
    charts and the audit read (issue 33 item 1). Adding a mechanism is one record in :data:`MATRIX_MECHANISMS`
    plus its tests (docs/ADDING_A_MECHANISM.md).

    Attributes:
      name: its name everywhere (releases, curves, exports, budget lines, chart legends).
      key: a short id (the exercises' fields ``sd_<key>``).
      noise: "gaussian" (N(0, σ²) on every entry) or "laplace" (Lap(0, b) on every entry), drawn through
        :mod:`dpcore.mechanisms`.
      scale: ``scale(*, epsilon, delta, sensitivity, m, n, **options) -> σ or b``, validating its inputs;
        ``sensitivity`` is the sampled Δ_s (None for a mechanism on a global bound).
      bound: ``bound(m)``, the global sensitivity it is calibrated to (ℓ2 for a Gaussian, ℓ1 for Laplace), or
        None when it is calibrated to the sampled Δ_s (random DP).
      guarantee: ``guarantee(*, epsilon, delta, gamma, m, n) -> Guarantee`` (ε already validated).
      budget_event: how the session budget composes it (:meth:`MatrixRelease.budget_event`): "gaussian",
        "laplace" or "approximate".
      label: its name in sentences and exercise options ("TopicDP (as in the thesis)").
      metric_label, metric_help: the page's noise metric for it (``metric_help`` may name ``{bound}`` = √(2m)).
      style: the charts' style: a palette index, or the name of the mechanism it is the strict variant of (same
        colour, dotted).
      on_page: drawn on the TopicDP page, its curves, exports and exercises (:data:`TOPIC_MECHANISMS`); False:
        in dpcore only (release, review, budget, audit).
      audit_scenario: the Privacy audit page's scenario that audits it, or None.
      badge: its guarantee badge's name, when not its ``label`` ("MVG with sampled s₂").
      overview: its name in the home page's table of every mechanism (:func:`dpcore.lab.mechanism_guarantees`),
        when its name alone is ambiguous there ("Laplace on the matrix": the Bayesian page has a Laplace too).
    """

    name: str
    key: str
    noise: str
    scale: Callable[..., float]
    bound: Callable[[int], float] | None
    guarantee: Callable[..., Guarantee]
    budget_event: str
    label: str
    metric_label: str
    metric_help: str
    style: int | str
    on_page: bool = True
    audit_scenario: str | None = None
    badge: str | None = None
    overview: str | None = None

    @property
    def badge_name(self) -> str:
        """The name on its guarantee badge."""
        return self.label if self.badge is None else self.badge

    @property
    def sampled(self) -> bool:
        """Calibrated to the sampled Δ_s (random DP) rather than a global bound."""
        return self.bound is None

    def std(self, *, epsilon, delta, sensitivity=None, m: int, n: int) -> float:
        """The standard deviation of the noise on one entry: σ, or √2·b for Laplace."""
        s = self.scale(epsilon=epsilon, delta=delta, sensitivity=sensitivity, m=m, n=n)
        return math.sqrt(2.0) * s if self.noise == "laplace" else s


def _l2_bound(m: int) -> float:
    """√(2m): any two row-stochastic m-row tables are within it in Frobenius norm (:func:`strict_topicdp_sigma`)."""
    return math.sqrt(2.0 * m)


MATRIX_MECHANISMS: tuple[MatrixMechanism, ...] = (
    MatrixMechanism(
        name="TopicDP",
        key="thesis",
        noise="gaussian",
        scale=lambda *, epsilon, delta, sensitivity, m, n: topicdp_sigma(
            epsilon=epsilon, delta=delta, sensitivity=sensitivity, m=m, n=n
        ),
        bound=None,
        guarantee=functools.partial(_sampled_random_dp, split=True),
        budget_event="gaussian",
        label="TopicDP (as in the thesis)",
        metric_label="TopicDP σ, as in the thesis",
        metric_help="Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n) (004 Alg. 2).",
        style=0,
        audit_scenario="topicdp",
    ),
    MatrixMechanism(
        name="TopicDP corrected",
        key="corrected",
        noise="gaussian",
        scale=lambda *, epsilon, delta, sensitivity, m, n: corrected_topicdp_sigma(
            epsilon=epsilon, delta=delta, sensitivity=sensitivity
        ),
        bound=None,
        guarantee=_sampled_random_dp,
        budget_event="gaussian",
        label="TopicDP corrected",
        metric_label="TopicDP σ, corrected",
        metric_help="The same Δ_s without the split of ε: Δ_s·√(2 ln(1.25/δ))/ε below ε = 1, the analytic σ "
        "(Balle & Wang) from ε = 1. Still random DP: Δ_s is sampled.",
        style=3,
    ),
    MatrixMechanism(
        name="TopicDP strict",
        key="strict",
        noise="gaussian",
        scale=lambda *, epsilon, delta, sensitivity, m, n: strict_topicdp_sigma(epsilon=epsilon, delta=delta, m=m),
        bound=_l2_bound,
        guarantee=_values_approximate_dp,
        budget_event="gaussian",
        label="TopicDP strict",
        metric_label="TopicDP strict σ",
        metric_help="Analytic Gaussian on the global bound √(2m) = {bound:.4g}: no sampling, no γ.",
        style="TopicDP",
        audit_scenario="topicdp_strict",
    ),
    MatrixMechanism(
        name="MVG",
        key="mvg",
        noise="gaussian",
        scale=lambda *, epsilon, delta, sensitivity, m, n, gamma_f=None: mvg_sigma(
            epsilon=epsilon,
            delta=delta,
            m=m,
            n=n,
            gamma_f=math.sqrt(m) if gamma_f is None else gamma_f,
            s2=check_sensitivity(sensitivity=sensitivity),
        ),
        bound=None,
        guarantee=_sampled_random_dp,
        budget_event="approximate",
        label="MVG",
        badge="MVG with sampled s₂",
        metric_label="MVG σ per entry",
        metric_help="i.i.d. MVG with s₂ = Δ_s, γ_F = √m",
        style=2,
    ),
    MatrixMechanism(
        name="Laplace",
        key="laplace",
        noise="laplace",
        scale=lambda *, epsilon, delta, sensitivity, m, n: matrix_laplace_scale(epsilon=epsilon, m=m),
        bound=lambda m: 2.0 * m,
        guarantee=_values_pure_dp,
        budget_event="laplace",
        label="Laplace",
        metric_label="Laplace scale b",
        metric_help="b = 2m/ε (worst-case ℓ1 sensitivity 2m)",
        style=1,
        overview="Laplace on the matrix",
    ),
    # MVG on the global bounds (issue 33 item 1): Chanyaswad et al.'s i.i.d. σ with s₂ = √(2m) and γ_F = √m, the
    # proven sup of ‖f(D) − f(D′)‖_F and ‖f(D)‖_F for row-stochastic tables — (ε, δ)-DP for the values, no γ. Its
    # noise is an isotropic Gaussian, so the exact profile (Balle & Wang) checks the claim too: the tests find its
    # σ above the analytic σ on √(2m) everywhere. The baseline made fair against strict TopicDP; not on the page.
    MatrixMechanism(
        name="MVG strict",
        key="mvg_strict",
        noise="gaussian",
        scale=lambda *, epsilon, delta, sensitivity, m, n: mvg_sigma(
            epsilon=epsilon, delta=delta, m=m, n=n, gamma_f=math.sqrt(m), s2=math.sqrt(2.0 * m)
        ),
        bound=_l2_bound,
        guarantee=_values_approximate_dp,
        budget_event="gaussian",
        label="MVG strict (global s₂ = √(2m))",
        metric_label="MVG strict σ per entry",
        metric_help="i.i.d. MVG with the global s₂ = √(2m) = {bound:.4g} and γ_F = √m: no sampling, no γ.",
        style="MVG",
        on_page=False,
    ),
)
"""Every matrix mechanism, one record each, in the page's order: TopicDP as in the thesis, TopicDP with the
corrected σ, strict TopicDP (ours), the thesis's two baselines, then the records kept off the page."""

TOPIC_MECHANISMS = tuple(r.name for r in MATRIX_MECHANISMS if r.on_page)
"""Every mechanism of the page, in this order everywhere (releases, curves, exports): TopicDP as in the
thesis, TopicDP with the corrected σ, strict TopicDP (ours), and the thesis's two baselines."""
SAMPLED_MECHANISMS = tuple(r.name for r in MATRIX_MECHANISMS if r.on_page and r.sampled)
"""The mechanisms whose noise rests on the sampled Δ_s (random DP); the others use a global bound."""
SAMPLER_FREE_MECHANISMS = tuple(r.name for r in MATRIX_MECHANISMS if r.on_page and not r.sampled)
"""The mechanisms of :data:`TOPIC_MECHANISMS` that need no sampled sensitivity Δ_s: strict TopicDP (analytic
Gaussian on the global bound √(2m)) and Laplace (b = 2m/ε). What a corpus without sampled draws can release at once."""
_BY_NAME = {r.name: r for r in MATRIX_MECHANISMS}


def matrix_mechanism(name: str) -> MatrixMechanism:
    """The record of :data:`MATRIX_MECHANISMS` called ``name``."""
    check_choice("mechanism", name, tuple(_BY_NAME))
    return _BY_NAME[name]


def release_matrix(name: str, matrix, *, epsilon, delta=None, sensitivity=None, rng, gamma=None, **options):
    """One release of W by the mechanism ``name``: the one place a :class:`MatrixRelease` is built.

    Its record's scale (σ or b, validated) on the sampled Δ_s (``sensitivity``: a number with the sampler's
    ``gamma``, or a :class:`SensitivityResult`) or on its global bound; :func:`check_draw_scale` (ε = 1e-320: a
    scale of ∞ would make every row NaN, issue 21 item 8); the noise drawn through :mod:`dpcore.mechanisms`
    (``gaussian_noise`` / ``laplace_noise``) from ``rng``; clipped at 0 and rows renormalised."""
    record = matrix_mechanism(name)
    if record.sampled:
        sensitivity, gamma = _sensitivity_gamma(sensitivity, gamma)
    else:
        sensitivity, gamma = None, None
    w = _check_matrix(matrix)
    m, n = w.shape
    scale = record.scale(epsilon=epsilon, delta=delta, sensitivity=sensitivity, m=m, n=n, **options)
    sens = float(sensitivity) if record.bound is None else record.bound(m)
    if record.noise == "laplace":
        scale = check_draw_scale("b", scale, epsilon=epsilon, m=m)
        noisy = w + laplace_noise(scale=scale, size=w.shape, rng=rng)
    else:
        scale = check_draw_scale("σ", scale, epsilon=epsilon, delta=delta, sensitivity=sens)
        noisy = w + gaussian_noise(sigma=scale, size=w.shape, rng=rng)
    return MatrixRelease(
        mechanism=record.name,
        matrix=_clip_renormalise(noisy),
        noisy=noisy,
        noise_scale=scale,
        sensitivity=sens,
        epsilon=float(epsilon),
        delta=None if record.noise == "laplace" else float(delta),
        guarantee=matrix_guarantee(record.name, epsilon=epsilon, delta=delta, gamma=gamma, m=m, n=n),
        gamma=gamma,
    )


# ---------------------------------------------------------------------------------------------
# 5. The mechanisms by name (each its record's release)
# ---------------------------------------------------------------------------------------------


def topicdp_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma=None) -> MatrixRelease:
    """TopicDP (004 Alg. 2): add N(0, σ²) to every entry, σ from :func:`topicdp_sigma`; clip at 0 and
    renormalise rows. (ε, δ, γ)-random DP with the sampled sensitivity Δ_s (004 Thm 4.6.2).

    ``sensitivity`` is Δ_s as a number (then pass the sampler's ``gamma``) or a :class:`SensitivityResult`."""
    return release_matrix(
        "TopicDP", matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng, gamma=gamma
    )


def corrected_topicdp_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma=None) -> MatrixRelease:
    """TopicDP with the corrected σ (:func:`corrected_topicdp_sigma`): N(0, σ²) on every entry, clip at 0,
    renormalise rows. (ε, δ, γ)-random DP with the sampled Δ_s, like the thesis's TopicDP, with m·n times
    less noise below ε = 1."""
    return release_matrix(
        "TopicDP corrected", matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng, gamma=gamma
    )


def strict_topicdp_mechanism(matrix, *, epsilon, delta, rng) -> MatrixRelease:
    """Strict TopicDP (ours; SPEC §5): N(0, σ²) with σ = :func:`strict_topicdp_sigma` on every entry, clip
    at 0, renormalise rows. (ε, δ)-DP for the values with no sampled sensitivity: the guarantee holds for
    every pair of neighbours, not a 1 − γ share (given a non-private choice of topics and keywords)."""
    return release_matrix("TopicDP strict", matrix, epsilon=epsilon, delta=delta, rng=rng)


def matrix_laplace_mechanism(matrix, *, epsilon, rng) -> MatrixRelease:
    """Laplace baseline: i.i.d. Lap(0, 2m/ε) on every entry, clip, renormalise rows. ε-DP."""
    return release_matrix("Laplace", matrix, epsilon=epsilon, rng=rng)


def mvg_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma_f=None, gamma=None) -> MatrixRelease:
    """MVG baseline, i.i.d. form, with s₂ = Δ_s and γ_F = √m by default; clip, renormalise rows.

    With a sampled s₂ the guarantee is (ε, δ, γ)-random DP, like TopicDP's (thesis §5.2); ``gamma`` is the
    sampler's γ (or pass a :class:`SensitivityResult` as ``sensitivity``)."""
    return release_matrix(
        "MVG", matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng, gamma=gamma, gamma_f=gamma_f
    )
