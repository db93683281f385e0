"""VIPS-LDA beside TopicDP: every mechanism's 10 × 10 table against one reference (issue 23 items 2, 4, 6).

:mod:`dpcore.topicdp.vips` trains a topic model with noise on its sufficient statistics; this module puts its release on
the TopicDP page next to the five matrix mechanisms (:data:`dpcore.topicdp.TOPIC_MECHANISMS`), so that every
number the page compares was measured the same way.

**The reference.** One table for every mechanism: the page's own m × n table
(:func:`dpcore.topic_keyword_matrix` of the standard LDA fit on the private data, the "before noise" bars).
Why this one and not VIPS's natural reference (:func:`dpcore.topicdp.vips_reference_fit`, the same model as VIPS
without clip and noise):

* it is what the five matrix mechanisms perturb, so their errors are pure noise; measured against another
  table they would also carry the difference between two non-private fits;
* it does not share VIPS's public start: VIPS's twin is fitted *from* the public-only fit, so against the twin
  the public-only fit looks closer than it is (L1 3.9 there, 11.0 here on the chat at 10 × 10);
* VIPS's release is the whole K × V matrix, so it can be read at the very cells the table holds (below);
  its distance to the reference then includes the difference of the model itself (a vocabulary from the
  public split, a start from the public fit, one private iteration), which :attr:`VipsPageSetup.twin`
  measures: the twin's own distance to the table, with no noise at all.

**Reading a K × V release on the reference table** (:func:`view_on_table`, evaluation only — nothing here is
released): align the release's topics to the page model's topics (:func:`dpcore.topicdp.align_topics`, Hungarian on
the rows restricted to the words both vocabularies share and renormalised), take the aligned topics of the
table's rows at the table's column words (a column word outside the release's public vocabulary reads 0),
renormalise the rows (an all-zero row reads uniform, as the matrix mechanisms' clipped rows do). L1, RMSE and
Kendall's tau distance are then the page's metrics (:data:`dpcore.topicdp.TOPIC_METRICS`) on the same cells.

**Prompts** (the real chat only): a VIPS release chooses its own topics and keywords from the noisy matrix —
:func:`dpcore.topic_keyword_matrix` of the release, post-processing covered by its guarantee — so its own
m × n table is matched to conversation prompts with the page's rule (:data:`dpcore.topicdp.MATCH_RULE`,
unchanged). Unlike the matrix mechanisms, whose column words come from the private fit without noise, a
VIPS table's words come from the noisy release, so its matches are evidence of what survived the noise.

**The setup** every release reuses (public vocabulary and start, private counts, the twin, the public-only
fit) and its disk cache: :mod:`dpcore.topicdp.vips_setup`.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ..errors import UserError
from ..mechanisms.noise import standard_normal_noise
from ..validation import check_delta, check_int, check_real
from . import vips as _vips
from .fitting import align_topics, topic_keyword_matrix
from .model import TopicKeywordMatrix, TopicModel
from .prompts import PromptDocuments, PromptMatch, match_topics_to_prompts
from .vips_setup import VipsPageSetup, public_only_release, vips_page_setup

_Bands = tuple[list[float], list[float], list[float]]  # a metric's mean, 10th and 90th percentile (_band) along a sweep

__all__ = [
    "PUBLIC_ONLY_NAME",
    "THESIS_EPSILONS",
    "VIPS_EPSILONS",
    "VIPS_NAME",
    "TableView",
    "VipsComparison",
    "VipsPageSetup",
    "VipsSweep",
    "compare_release",
    "fixed_release_curve",
    "mean_l1_at",
    "public_only_release",
    "setup_release",
    "thesis_epsilon_for_l1",
    "thesis_l1_curve",
    "view_on_table",
    "vips_error_curve",
    "vips_page_setup",
    "vips_sweep",
]

VIPS_NAME = "VIPS-LDA"
PUBLIC_ONLY_NAME = "Public-only fit"
VIPS_EPSILONS = (0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""The ε grid of the page's VIPS charts and of :func:`vips_sweep` (VIPS calibrates ε ≤ 20)."""
THESIS_EPSILONS = tuple(float(f"{10 ** (k / 4):.6g}") for k in range(-4, 25))
"""0.1 … 10⁶ (four points a decade): where TopicDP as in the thesis reaches VIPS's L1 (:func:`thesis_l1_curve`)."""

# --------------------------------------------------------------------------------------------------
# A K × V release read on the reference table
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TableView:
    """A release read at the reference table's cells: ``matrix`` (m × n, rows renormalised), ``order``
    (``order[t]`` = the release's topic aligned to the page model's topic t) and the table's column words
    outside the release's vocabulary (``missing``, read as 0)."""

    matrix: np.ndarray
    order: np.ndarray
    missing: tuple[str, ...]


def _normalised(a: np.ndarray) -> np.ndarray:
    s = a.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, a / np.where(s > 0, s, 1.0), 1.0 / a.shape[1])


def view_on_table(topic_word, words: Sequence[str], *, model: TopicModel, table: TopicKeywordMatrix) -> TableView:
    """``topic_word`` (K × |words|) read on ``table`` (an m × n table of ``model``), module docstring.

    Raises:
      ValueError: a shape that does not match (K must be ``model``'s number of topics), or no word in common.
    """
    tw = np.asarray(topic_word, dtype=float)
    words = tuple(words)
    if tw.ndim != 2 or tw.shape != (model.n_topics, len(words)):
        raise UserError(
            f"topic_word must be {model.n_topics} × {len(words)} (the model's topics × the words), got shape {tw.shape}"
        )
    index = {w: i for i, w in enumerate(words)}
    shared = [j for j, w in enumerate(model.words) if w in index]
    if not shared:
        raise UserError("the release and the model share no word: nothing to align")
    ours = np.array([index[model.words[j]] for j in shared])
    order = align_topics(_normalised(model.topic_word[:, shared]), _normalised(tw[:, ours]))
    rows = tw[order[list(table.topics)]]
    cells = np.zeros(table.shape)
    missing = []
    for c, w in enumerate(table.words):
        if w in index:
            cells[:, c] = rows[:, index[w]]
        else:
            missing.append(w)
    return TableView(matrix=_normalised(cells), order=order, missing=tuple(missing))


def _errors(reference: np.ndarray, matrix: np.ndarray) -> dict[str, float]:
    from .experiments import TOPIC_METRICS

    return {metric: float(fn(reference, matrix)) for metric, fn in TOPIC_METRICS.items()}


@dataclass(frozen=True, eq=False)
class VipsComparison:
    """One VIPS release (or the public-only fit) as the TopicDP page compares it.

    ``matrix``: the release read on the reference table (:func:`view_on_table`); ``errors``: L1, RMSE and
    Kendall's tau distance of ``matrix`` to the reference table; ``own_table``: the release's own m × n table
    (its most prevalent topics and keywords, chosen from the release); ``match``: that table matched to prompts
    (None without labelled documents). ``noise_scale`` and ``guarantee`` are the release's σ and Guarantee.
    """

    mechanism: str
    release: _vips.VipsRelease
    matrix: np.ndarray
    missing: tuple[str, ...]
    errors: Mapping[str, float]
    own_table: TopicKeywordMatrix
    match: PromptMatch | None

    @property
    def noise_scale(self) -> float:
        return self.release.sigma

    @property
    def guarantee(self):
        return self.release.guarantee


def compare_release(
    release: _vips.VipsRelease,
    *,
    model: TopicModel,
    table: TopicKeywordMatrix,
    docs: PromptDocuments | None = None,
    mechanism: str = VIPS_NAME,
) -> VipsComparison:
    """``release`` on the reference ``table`` of ``model``: its view, errors, own table and prompt matches."""
    if not isinstance(release, _vips.VipsRelease):
        raise TypeError(f"release must be a VipsRelease, got {type(release).__name__}")
    view = view_on_table(release.topic_word, release.words, model=model, table=table)
    own = topic_keyword_matrix(release.topic_model(), m=table.shape[0], n=table.shape[1])
    match = None if docs is None else match_topics_to_prompts(own.matrix, own.words, docs)
    return VipsComparison(mechanism, release, view.matrix, view.missing, _errors(table.matrix, view.matrix), own, match)


# --------------------------------------------------------------------------------------------------
# Many releases: against ε (with prompts), and the page's error curves
# --------------------------------------------------------------------------------------------------


def _seed_words(seed: int, *parts) -> list[int]:
    return [check_int("seed", seed, low=0), 23] + [zlib.crc32(repr(p).encode()) for p in parts]


def setup_release(setup: VipsPageSetup, *, epsilon, delta, clip_norm, iterations: int, rng) -> _vips.VipsRelease:
    """One :func:`dpcore.vips_lda` release on the setup's counts, vocabulary and start (K = the start's)."""
    return _vips.vips_lda(
        setup.counts,
        n_topics=setup.n_topics,
        epsilon=epsilon,
        delta=delta,
        clip_norm=clip_norm,
        iterations=iterations,
        rng=rng,
        vocabulary=setup.vocabulary,
        start=setup.start,
    )


def _band(values: np.ndarray) -> tuple[float, float, float]:
    return float(values.mean()), float(np.percentile(values, 10)), float(np.percentile(values, 90))


@dataclass(frozen=True)
class VipsSweep:
    """VIPS-LDA at each ε of ``epsilons``, ``draws`` releases each (noise from the seed and every parameter).

    ``stats[metric] = (mean, p10, p90)`` tuples aligned with ``epsilons`` (on the reference table);
    ``matched``: mean number of the release's own m topics matched to a distinct prompt (None without prompts);
    ``sigmas``: VIPS's σ at each ε.
    """

    epsilons: tuple[float, ...]
    sigmas: tuple[float, ...]
    stats: Mapping[str, tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]]
    matched: tuple[float, ...] | None
    draws: int
    m: int

    def first_epsilon(self, share: float = 0.5) -> float | None:
        """The smallest ε of the grid at which the release's own table matches at least ``share`` of its m topics
        to distinct prompts (mean over the draws), or None (no prompts, or no ε of the grid does)."""
        if self.matched is None:
            return None
        share = check_real("share", share, low=0.0, high=1.0)
        return next((e for e, k in zip(self.epsilons, self.matched) if k >= share * self.m), None)

    def at(self, epsilon: float, metric: str = "l1") -> float:
        """The mean ``metric`` at a grid ε."""
        return self.stats[metric][0][self.epsilons.index(float(epsilon))]


def vips_sweep(
    setup: VipsPageSetup,
    *,
    model: TopicModel,
    table: TopicKeywordMatrix,
    docs: PromptDocuments | None = None,
    epsilons: Sequence[float] = VIPS_EPSILONS,
    delta,
    clip_norm=_vips.DEFAULT_CLIP_NORM,
    iterations: int = _vips.DEFAULT_ITERATIONS,
    draws: int = 10,
    seed: int = 0,
) -> VipsSweep:
    """:func:`compare_release` of ``draws`` VIPS releases at each ε. The i-th ε's noise comes from
    ``np.random.default_rng([seed, 23, crc32 of ε, δ, B, J, K, draws])`` — every parameter of the release is in
    it, and the page and an exercise that pass the same seed see the same sweep."""
    eps = tuple(float(e) for e in epsilons)
    if not eps:
        raise UserError("epsilons must not be empty")
    delta = check_delta(delta=delta)
    draws = check_int("draws", draws, low=1, high=1000)
    stats: dict[str, _Bands] = {metric: ([], [], []) for metric in ("l1", "rmse", "kendall")}
    matched: list[float] = []
    sigmas = []
    for e in eps:
        rng = np.random.default_rng(_seed_words(seed, "sweep", e, delta, clip_norm, iterations, setup.n_topics, draws))
        rows = [
            compare_release(
                setup_release(setup, epsilon=e, delta=delta, clip_norm=clip_norm, iterations=iterations, rng=rng),
                model=model,
                table=table,
                docs=docs,
            )
            for _ in range(draws)
        ]
        sigmas.append(rows[0].release.sigma)
        for metric, columns in stats.items():
            for col, v in zip(columns, _band(np.array([r.errors[metric] for r in rows]))):
                col.append(v)
        if docs is not None:
            matched.append(float(np.mean([cast(PromptMatch, r.match).matched for r in rows])))  # docs: a match
    return VipsSweep(
        eps,
        tuple(sigmas),
        {k: (tuple(mean), tuple(p10), tuple(p90)) for k, (mean, p10, p90) in stats.items()},
        tuple(matched) if docs is not None else None,
        draws,
        table.shape[0],
    )


def vips_error_curve(
    setup: VipsPageSetup,
    *,
    model: TopicModel,
    parameter: str,
    values: Sequence[float],
    epsilon,
    delta,
    m: int,
    n: int,
    clip_norm=_vips.DEFAULT_CLIP_NORM,
    iterations: int = _vips.DEFAULT_ITERATIONS,
    repetitions: int = 20,
    rng,
) -> dict:
    """VIPS-LDA's (mean, p10, p90) of each metric at each of ``values``, as :func:`dpcore.topicdp.error_curve` draws
    the matrix mechanisms: ``"epsilon"`` (values are ε), ``"gamma"`` (VIPS has no γ: the same releases at
    ``epsilon`` for every value) or ``"size"`` (the same releases read on the m = n = value table).
    Returns ``{metric: (mean, p10, p90)}``, tuples aligned with ``values``."""
    from ..validation import check_choice, check_rng
    from .experiments import CURVE_PARAMETERS

    check_choice("parameter", parameter, CURVE_PARAMETERS)
    rng = check_rng(rng)
    repetitions = check_int("repetitions", repetitions, low=1, high=10_000)
    values = tuple(float(v) for v in values)
    out: dict[str, _Bands] = {metric: ([], [], []) for metric in ("l1", "rmse", "kendall")}
    fixed = None
    if parameter != "epsilon":
        fixed = [
            setup_release(setup, epsilon=epsilon, delta=delta, clip_norm=clip_norm, iterations=iterations, rng=rng)
            for _ in range(repetitions)
        ]
    for v in values:
        rels = fixed or [
            setup_release(setup, epsilon=v, delta=delta, clip_norm=clip_norm, iterations=iterations, rng=rng)
            for _ in range(repetitions)
        ]
        size = int(v) if parameter == "size" else None
        table = topic_keyword_matrix(model, m=size or m, n=size or n)
        errs = [
            _errors(table.matrix, view_on_table(r.topic_word, r.words, model=model, table=table).matrix) for r in rels
        ]
        for metric, columns in out.items():
            for col, x in zip(columns, _band(np.array([e[metric] for e in errs]))):
                col.append(x)
    return {k: tuple(tuple(x) for x in v) for k, v in out.items()}


def mean_l1_at(
    setup: VipsPageSetup,
    *,
    model: TopicModel,
    table: TopicKeywordMatrix,
    epsilon,
    delta,
    delta_s,
    clip_norm=_vips.DEFAULT_CLIP_NORM,
    iterations: int = _vips.DEFAULT_ITERATIONS,
    repetitions: int = 20,
    rng,
) -> dict[str, float]:
    """Mean L1 on the reference ``table`` at one ε over ``repetitions`` releases of each mechanism: the five matrix
    mechanisms (:func:`dpcore.topicdp.release_errors`, Δ_s = ``delta_s``), VIPS-LDA, and the public-only fit
    (fixed). Noise from ``rng``: the matrix mechanisms first, then VIPS."""
    from ..validation import check_rng
    from .experiments import release_errors
    from .mechanisms import TOPIC_MECHANISMS

    rng = check_rng(rng)
    errs = release_errors(
        table.matrix, epsilon=epsilon, delta=delta, sensitivity=delta_s, repetitions=repetitions, rng=rng
    )
    out = {mech: float(errs[mech]["l1"].mean()) for mech in TOPIC_MECHANISMS}
    vips = [
        _errors(table.matrix, view_on_table(r.topic_word, r.words, model=model, table=table).matrix)["l1"]
        for r in (
            setup_release(setup, epsilon=epsilon, delta=delta, clip_norm=clip_norm, iterations=iterations, rng=rng)
            for _ in range(repetitions)
        )
    ]
    out[VIPS_NAME] = float(np.mean(vips))
    public = public_only_release(setup)
    out[PUBLIC_ONLY_NAME] = _errors(
        table.matrix, view_on_table(public.topic_word, public.words, model=model, table=table).matrix
    )["l1"]
    return out


def fixed_release_curve(
    release: _vips.VipsRelease, *, model: TopicModel, parameter: str, values: Sequence[float], m: int, n: int
) -> dict:
    """The errors of one fixed release (the public-only fit: it does not depend on ε or γ) on the reference table
    at each of ``values`` — the same at every ε or γ, on the m = n = value table for ``"size"``.
    Returns ``{metric: tuple aligned with values}``."""
    from ..validation import check_choice
    from .experiments import CURVE_PARAMETERS

    check_choice("parameter", parameter, CURVE_PARAMETERS)
    out: dict[str, list[float]] = {metric: [] for metric in ("l1", "rmse", "kendall")}
    for v in values:
        size = int(v) if parameter == "size" else None
        table = topic_keyword_matrix(model, m=size or m, n=size or n)
        errs = _errors(table.matrix, view_on_table(release.topic_word, release.words, model=model, table=table).matrix)
        for metric, col in out.items():
            col.append(errs[metric])
    return {k: tuple(v) for k, v in out.items()}


# --------------------------------------------------------------------------------------------------
# What ε TopicDP as in the thesis needs for VIPS's L1
# --------------------------------------------------------------------------------------------------


def _thesis_noise(shape, draws: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(_seed_words(seed, "thesis", tuple(shape), draws))
    return standard_normal_noise(size=(draws,) + tuple(shape), rng=rng)


def _mean_l1(w: np.ndarray, z: np.ndarray, sigma: float) -> float:
    y = _normalised_3d(np.clip(w + sigma * z, 0.0, None))
    return float(np.abs(y - w).sum(axis=(1, 2)).mean())


def _normalised_3d(y: np.ndarray) -> np.ndarray:
    s = y.sum(axis=2, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, y / np.where(s > 0, s, 1.0), 1.0 / y.shape[2])


def _thesis_sigma_at_1(w: np.ndarray, delta, delta_s) -> float:
    from .mechanisms import topicdp_sigma

    return topicdp_sigma(epsilon=1.0, delta=delta, sensitivity=delta_s, m=w.shape[0], n=w.shape[1])


def thesis_l1_curve(
    matrix, *, epsilons: Sequence[float] = THESIS_EPSILONS, delta, delta_s, draws: int = 200, seed: int = 0
) -> tuple[float, ...]:
    """Mean L1 of TopicDP as in the thesis (σ = Δ_s·√(2 ln(1.25/δ))·m·n/ε, clipped, rows renormalised) on
    ``matrix`` at each ε — the same ``draws`` standard normal tables at every ε (common random numbers), so the
    curve is smooth and :func:`thesis_epsilon_for_l1` inverts it exactly."""
    from .mechanisms import _check_matrix

    w = _check_matrix(matrix)
    draws = check_int("draws", draws, low=1, high=100_000)
    z = _thesis_noise(w.shape, draws, seed)
    at1 = _thesis_sigma_at_1(w, delta, delta_s)
    return tuple(_mean_l1(w, z, at1 / check_real("epsilon", e, low=0.0)) for e in epsilons)


def thesis_epsilon_for_l1(matrix, target_l1, *, delta, delta_s, draws: int = 200, seed: int = 0) -> float | None:
    """The ε at which TopicDP as in the thesis reaches mean L1 = ``target_l1`` on ``matrix`` (the curve of
    :func:`thesis_l1_curve`: σ ∝ 1/ε, so ε = σ(ε = 1)/σ*, with σ* found by Brent's method on log σ). None when
    the target is not between the L1 of a noiseless release (0) and that of a release of pure noise."""
    from scipy.optimize import brentq

    from .mechanisms import _check_matrix

    w = _check_matrix(matrix)
    target = check_real("target_l1", target_l1, low=0.0)
    draws = check_int("draws", draws, low=1, high=100_000)
    z = _thesis_noise(w.shape, draws, seed)
    lo, hi = math.log(1e-9), math.log(1e9)
    f = lambda log_sigma: _mean_l1(w, z, math.exp(log_sigma)) - target
    if not f(lo) < 0.0 < f(hi):
        return None
    sigma = math.exp(brentq(f, lo, hi, xtol=1e-10, rtol=1e-12))
    return _thesis_sigma_at_1(w, delta, delta_s) / sigma
