"""TopicDP (thesis 004, ch. 4–5; SPEC §5): a sampled sensitivity for LDA and three matrix mechanisms.

Pieces, in the order the page uses them:

1. :func:`sensitivity_sampler_size` — h, k and ρ_s from γ (Rubinstein & Aldà 2017; 004 Alg. 1 lines
   1–2, Thm 4.6.1): ρ_s = exp(W₋₁(−γ/(2√e)) + ½), h = ⌈ln(1/ρ_s)/(2(γ−ρ_s)²)⌉,
   k = ⌈h·(1 − γ + ρ_s + √(ln(1/ρ_s)/(2h)))⌉ capped at h.
2. The sensitivity sampler (004 Alg. 1): pair i draws N−1 users i.i.d. from P plus x and x′,
   fits LDA on D = D₁..N−1 ∪ {x} and D′ = D₁..N−1 ∪ {x′} with the same LDA seed, and records
   Δ_i = ‖f(D) − f(D′)‖_F between the two matrices **as released** (rows in release order, columns
   matched by word). Δ_s = the k-th smallest of Δ_1..Δ_h.
3. Mechanisms on the m × n matrix W: TopicDP as the thesis writes it (004 Alg. 2: ε′ = ε/(m·n)),
   TopicDP with the corrected σ (no split of ε), **strict TopicDP** (ours: the analytic Gaussian on the
   global bound √(2m), (ε, δ)-DP for the values with no sampling), Laplace with ℓ1 sensitivity 2m
   (004 §5.2) and MVG in its i.i.d. form (Chanyaswad et al. 2018, as SPEC §5 writes it).
4. Metrics and experiments: L1, RMSE and Kendall's tau distance vs ε, γ and matrix size.

Readings (SPEC is the decision; where it is silent, these are ours):

* **P and N.** P is uniform resampling *with replacement* of the corpus' users (i.i.d. draws, which
  the sampler's DKW argument needs; a user may appear twice in D). N, the sampled dataset size, is the
  corpus' number of users by default, as in 004 Alg. 1 ("Database size N") and §4.4 (N + 1 records
  drawn per pair). A smaller N is an explicit option (``SamplerSettings(sample_users=...)``): faster,
  but a user weighs more in a small dataset, so Δ_s then describes smaller datasets than the corpus.
* **What the draws are keyed by.** The Δ_i are i.i.d. and do not depend on γ, so a cache file holds
  every draw made so far for (corpus hash, LDA settings, N, sampler seed) and Δ_i for *every*
  (m, n) in 1..min(K, 10) × 2..10 (each pair's two fits give all of them). Any γ uses the first
  h(γ) draws: moving γ, m or n only needs new fits when h grows beyond the draws on disk.
* **Release order** (issue 21 item 3; SPEC §5). The released rows are the m most prevalent topics in
  ascending **LDA component index** — an order fixed by the seeded initialisation, not by the data —
  and the columns are in vocabulary order (each is released with its word). Δ_i compares the two
  matrices exactly as released: row i with row i, columns by word, no re-alignment. Until issue 21 the
  rows were released by prevalence while Δ_i was taken after a Hungarian alignment, so a pair whose two
  topics swap prevalence moved the release by up to ~2 while its Δ_i stayed ~0. The choice among
  prevalence order (measured in release order), component order and alignment to a public reference fit
  was measured on the classroom corpus (sample_data/topicdp_sensitivity/README.md).
* **Seeds.** Pair i's users come from ``SeedSequence(seed, spawn_key=(i,))``, so the draws do not
  depend on the number of worker processes or the order in which pairs finish.
* **Post-processing.** All three mechanisms clip at 0 and renormalise each row (an all-zero row
  becomes uniform), so every release is a valid row-stochastic matrix; post-processing keeps each
  guarantee. SPEC asks this for TopicDP; for the baselines it makes the three releases comparable
  as matrices a recipient would use. The noisy matrix before clipping is kept in the result
  (``noisy``) and the experiments can measure either stage.
* **MVG guarantee.** With s₂ = Δ_s (sampled, as the thesis does for fairness) MVG is only
  (ε, δ, γ)-random DP as used here, not (ε, δ)-DP.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections import namedtuple
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from scipy.special import lambertw

from . import _cache_files
from .gaussian import analytic_gaussian_sigma, gaussian_delta, gaussian_sigma
from .guarantees import Guarantee, approximate_dp, pure_dp, random_dp
from .metrics import kendall_tau_distance, l1_distance, rmse
from .topic_model import (
    DocumentTermData,
    LdaSettings,
    TopicModel,
    _select,
    align_topics,
    fit_topic_word,
    released_matrix_distance,
    topic_keyword_matrix,
)
from .validation import (as_float_array, check_choice, check_delta, check_epsilon, check_int, check_noise_scale, check_real, check_rng,
                         check_sensitivity)

__all__ = [
    "SamplerSize",
    "sensitivity_sampler_size",
    "SamplerSettings",
    "SensitivityDraws",
    "SensitivityResult",
    "pair_deltas",
    "sensitivity_cache_dir",
    "shipped_cache_dir",
    "sensitivity_cache_path",
    "load_sensitivity_draws",
    "extend_sensitivity_draws",
    "sampled_sensitivity",
    "TOPICDP_GUARANTEE",
    "MATRIX_LAPLACE_GUARANTEE",
    "TOPICS_CHOICE",
    "matrix_guarantee",
    "MatrixRelease",
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
    "TOPIC_METRICS",
    "release_all",
    "release_errors",
    "redraw_releases",
    "ErrorCurve",
    "error_curve",
    "load_topic_model",
    "save_topic_model",
    "laplace_break_even_sensitivity",
    "NoiseComparison",
    "compare_noise",
    "DrawsSummary",
    "summarise_draws",
    "SigmaStory",
    "sigma_story",
    "release_error_table",
]

# Deprecated text labels, kept while pages print them; every MatrixRelease carries a Guarantee.
TOPICDP_GUARANTEE = "(ε, δ, γ)-random DP — weaker than (ε, δ)-DP"
MATRIX_LAPLACE_GUARANTEE = "ε-DP"
TOPICS_CHOICE = "a non-private choice of topics and keywords"
"""What none of the mechanisms covers: W's m topics and n keywords are picked from the private
LDA fit without noise (004 §5.2); the noise protects the values only (issue 15 item 2)."""


def matrix_guarantee(mechanism: str, *, epsilon, delta=None, gamma=None, m: int = 1, n: int = 2) -> Guarantee:
    """What a release of W promises.

    - TopicDP (thesis σ), TopicDP corrected and MVG with the sampled Δ_s: (ε, δ, γ)-random DP (004 Thm
      4.6.2; orange), given :data:`TOPICS_CHOICE`. Without γ (a sensitivity passed as a bare number) the
      promise is (ε, δ)-DP *conditional on* that number being a global bound — orange as well, never green.
    - TopicDP strict (analytic Gaussian on the global bound √(2m)): (ε, δ)-DP for the values, given
      :data:`TOPICS_CHOICE` — orange ("DP for part of the release only"): the proof covers the m·n values
      for every pair of neighbours, but which topics are rows and which words are the columns are picked
      from the private fit without noise and published with them, so the release as a whole is not DP.
    - Laplace (global ℓ1 sensitivity 2m): ε-DP for the values, given :data:`TOPICS_CHOICE` (orange, the
      same reason; its proof is the strict mechanism's, with ℓ1 for ℓ2).
    Green on this page only for a release whose proof covers the choice of topics and keywords too
    (VIPS-LDA, :mod:`dpcore.vips`).
    """
    check_choice("mechanism", mechanism, TOPIC_MECHANISMS)
    epsilon = check_epsilon(epsilon)
    if mechanism == "Laplace":
        return pure_dp(epsilon, conditional_on=TOPICS_CHOICE)
    delta = check_delta(delta)
    if mechanism == "TopicDP strict":
        return approximate_dp(epsilon, delta, conditional_on=TOPICS_CHOICE)
    scope = ""
    if mechanism == "TopicDP" and epsilon / (m * n) >= 1.0:
        scope = f"the classic σ at ε′ = ε/(m·n) = {epsilon / (m * n):.3g} ≥ 1 is outside its proof"
    if gamma is None:
        return approximate_dp(epsilon, delta, conditional_on="a supplied sensitivity taken as a global bound (not "
                              "checked) and " + TOPICS_CHOICE, scope=scope)
    return random_dp(epsilon, delta, check_real("gamma", gamma, low=0.0, high=1.0, high_inclusive=False),
                     conditional_on=TOPICS_CHOICE, scope=scope)


def _sensitivity_gamma(sensitivity, gamma):
    """Accept Δ_s as a number (γ from ``gamma``) or as a :class:`SensitivityResult` (γ from it)."""
    if isinstance(sensitivity, SensitivityResult):
        if gamma is not None and float(gamma) != sensitivity.gamma:
            raise ValueError(f"gamma must match the sensitivity's gamma={sensitivity.gamma:g}, got gamma={gamma}")
        return sensitivity.delta_s, sensitivity.gamma
    return sensitivity, gamma
MAX_MATRIX_SIDE = 10
"""m and n go up to 10 (the thesis' 10 × 10); the sampler records Δ_i for every m, n up to this."""

# ---------------------------------------------------------------------------------------------
# 1. Sample size h, order statistic k and ρ_s from γ
# ---------------------------------------------------------------------------------------------

SamplerSize = namedtuple("SamplerSize", ["h", "k", "rho"])
SamplerSize.__doc__ = """h pairs to sample, the order statistic k ≤ h, and the sampler's ρ_s (SPEC: ``rho_sampler``)."""


def sensitivity_sampler_size(gamma) -> SamplerSize:
    """(h, k, ρ_s) of the sensitivity sampler for confidence γ (004 Alg. 1 lines 1–2, Thm 4.6.1).

    ρ_s = exp(W₋₁(−γ/(2√e)) + ½) (the optimal ρ of Rubinstein & Aldà 2017, Cor. 20; real part of
    scipy's ``lambertw(x, k=-1)``), h = ⌈ln(1/ρ_s)/(2(γ − ρ_s)²)⌉,
    k = ⌈h·(1 − γ + ρ_s + √(ln(1/ρ_s)/(2h)))⌉ capped at h.

    Args:
      gamma: γ in (0, 1); SPEC's slider range is 0.01 … 0.3.

    Returns:
      ``SamplerSize(h, k, rho)``. SPEC check: γ = 0.02, 0.05, 0.1, 0.2 → h = 9498, 1305, 285, 61, k = h.

    Raises:
      ValueError: γ outside (0, 1) — h grows like ln(1/γ)/γ², so γ → 0 needs unboundedly many fits.
    """
    gamma = check_real("gamma", gamma, low=0.0, high=1.0, high_inclusive=False)
    rho = math.exp(float(lambertw(-gamma / (2.0 * math.sqrt(math.e)), k=-1).real) + 0.5)
    if not (0.0 < rho < gamma) or gamma < 1e-12:
        raise ValueError(f"gamma must be >= 1e-12, got gamma={gamma:g}: the sampler needs h ≈ ln(1/γ)/(2γ²) model fits, "
                         "which is unbounded as γ → 0")
    h = math.ceil(math.log(1.0 / rho) / (2.0 * (gamma - rho) ** 2))
    k = math.ceil(h * (1.0 - gamma + rho + math.sqrt(math.log(1.0 / rho) / (2.0 * h))))
    return SamplerSize(h=int(h), k=int(min(k, h)), rho=rho)


# ---------------------------------------------------------------------------------------------
# 2. The sensitivity sampler
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SamplerSettings:
    """How neighbouring pairs are drawn.

    Attributes:
      sample_users: N, the size of each sampled dataset D (users drawn i.i.d. from P, the uniform
        distribution over the corpus' users). ``None`` (the default, as the thesis runs it) = the
        corpus' number of users; a smaller N is faster but describes smaller datasets.
      seed: seed of the pair sampler (pair i uses ``SeedSequence(seed, spawn_key=(i,))``).
    """

    sample_users: int | None = None
    seed: int = 0

    def __post_init__(self):
        if self.sample_users is not None:
            check_int("sample_users", self.sample_users, low=2, high=1_000_000)
        check_int("seed", self.seed, low=0)

    def dataset_size(self, n_users: int) -> int:
        """N for a corpus of ``n_users`` users."""
        return int(n_users) if self.sample_users is None else int(self.sample_users)

    def as_dict(self) -> dict:
        return asdict(self)


def _grid(settings: LdaSettings) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(range(1, min(settings.n_topics, MAX_MATRIX_SIDE) + 1)), tuple(range(2, MAX_MATRIX_SIDE + 1))


def pair_users(n_users: int, index: int, sampler: SamplerSettings) -> tuple[np.ndarray, int, int]:
    """The N−1 shared users and the two differing users x, x′ of pair ``index`` (deterministic)."""
    rng = np.random.default_rng(np.random.SeedSequence(sampler.seed, spawn_key=(int(index),)))
    shared = rng.integers(0, n_users, size=sampler.dataset_size(n_users) - 1)
    x, x2 = rng.integers(0, n_users, size=2)
    return shared, int(x), int(x2)


def pair_deltas(data: DocumentTermData, index: int, *, lda: LdaSettings, sampler: SamplerSettings,
                with_full: bool = False):
    """Δ_i for pair ``index``, for every (m, n) of the grid: an array of shape (len(m grid), len(n grid)).

    D and D′ list the shared users' documents first, then x's (resp. x′'s); both fits use
    ``lda.random_state`` and run in this one process. Vocabulary columns are fixed (see
    ``topic_model``); the Frobenius norm is taken between the two matrices as released
    (:func:`dpcore.topic_model.released_matrix_distance`: rows in release order, columns by word).

    With ``with_full=True`` it returns ``(grid, full)`` where ``full`` is a diagnostic that is *not*
    part of f: the distance between the two whole K × V topic–word matrices after aligning topics. It
    tells how far LDA itself moved, apart from the selection of the m topics and n keyword columns.
    """
    shared, x, x2 = pair_users(data.n_users, index, sampler)
    base = data.rows_of(shared)
    m_grid, n_grid = _grid(lda)
    out = np.zeros((len(m_grid), len(n_grid)))
    if x == x2:  # identical datasets and seeds: identical fits
        return (out, 0.0) if with_full else out
    fits = []
    for extra in (x, x2):
        rows = np.concatenate([base, data.user_rows[extra]])
        fits.append(fit_topic_word(data.counts[rows], lda))
    (tw_a, pr_a), (tw_b, pr_b) = fits
    for i, m in enumerate(m_grid):
        for j, n in enumerate(n_grid):
            ta, ca = _select(tw_a, pr_a, m, n)
            tb, cb = _select(tw_b, pr_b, m, n)
            wa = tw_a[np.ix_(ta, ca)]
            wb = tw_b[np.ix_(tb, cb)]
            wa = wa / wa.sum(axis=1, keepdims=True)
            wb = wb / wb.sum(axis=1, keepdims=True)
            out[i, j] = released_matrix_distance(wa, ca, wb, cb)
    if with_full:
        return out, float(np.linalg.norm(tw_a - tw_b[align_topics(tw_a, tw_b)]))
    return out


def _pair_chunk(data: DocumentTermData, indices: list[int], lda: LdaSettings,
                sampler: SamplerSettings) -> list[tuple[int, np.ndarray]]:
    """Worker task: several pairs at once, so the count matrix is pickled once per chunk."""
    return [(i, pair_deltas(data, i, lda=lda, sampler=sampler, with_full=True)) for i in indices]


@dataclass(frozen=True)
class SensitivityResult:
    """Δ_s for one (γ, m, n) and what it rests on.

    ``draws`` are the first h Δ_i (in sampling order); ``delta_s`` is their k-th smallest.
    """

    delta_s: float
    gamma: float
    h: int
    k: int
    rho_sampler: float
    m: int
    n: int
    sample_users: int | None
    draws: np.ndarray = field(repr=False)
    key: str = field(repr=False, default="")

    @property
    def covered_share(self) -> float:
        """Share of the h sampled neighbouring pairs whose Δ_i ≤ Δ_s (≥ k/h)."""
        return float(np.mean(self.draws <= self.delta_s))


@dataclass(frozen=True, eq=False)
class SensitivityDraws:
    """Every Δ_i drawn so far for one (corpus, LDA settings, sampler settings): shape (pairs, |m|, |n|)."""

    deltas: np.ndarray
    m_values: tuple[int, ...]
    n_values: tuple[int, ...]
    corpus_hash: str
    lda: LdaSettings
    sampler: SamplerSettings
    key: str
    seconds: float = 0.0
    """Total wall-clock seconds spent fitting the stored pairs (as recorded when they were drawn)."""
    full: np.ndarray | None = None
    """Diagnostic per pair, not part of f: distance of the whole aligned K × V topic–word matrices
    (NaN where not recorded). See :func:`pair_deltas`."""

    def __post_init__(self):
        if self.full is None:
            object.__setattr__(self, "full", np.full(self.deltas.shape[0], np.nan))

    @property
    def n_pairs(self) -> int:
        return int(self.deltas.shape[0])

    def draws_for(self, m: int, n: int) -> np.ndarray:
        """All Δ_i for the m × n matrix, in sampling order."""
        if m not in self.m_values:
            raise ValueError(f"m must be in {self.m_values[0]}..{self.m_values[-1]}, got m={m}")
        if n not in self.n_values:
            raise ValueError(f"n must be in {self.n_values[0]}..{self.n_values[-1]}, got n={n}")
        return self.deltas[:, self.m_values.index(m), self.n_values.index(n)]

    def covers(self, gamma) -> bool:
        """True when enough pairs are on disk for γ (h(γ) ≤ pairs drawn)."""
        return sensitivity_sampler_size(gamma).h <= self.n_pairs

    def sensitivity(self, *, gamma, m: int, n: int) -> SensitivityResult:
        """Δ_s = the k-th smallest of the first h(γ) draws for m × n.

        Raises:
          ValueError: fewer than h(γ) draws are stored (run :func:`extend_sensitivity_draws`), or
            Δ_s = 0 (every sampled neighbour gave the same matrix: no noise scale can be derived).
        """
        size = sensitivity_sampler_size(gamma)
        m = check_int("m", m, low=1)
        n = check_int("n", n, low=2)
        if size.h > self.n_pairs:
            raise ValueError(
                f"gamma={gamma:g} needs h={size.h} sampled pairs, only {self.n_pairs} are stored: "
                "run the sensitivity sampler for more pairs or raise gamma"
            )
        draws = self.draws_for(m, n)[: size.h]
        delta_s = float(np.sort(draws)[size.k - 1])
        if not delta_s > 0:
            raise ValueError(
                f"the sampled sensitivity is 0 for m={m}, n={n}, gamma={gamma:g}: the sampled neighbours all "
                "gave the same matrix; raise the sampled dataset size or lower gamma"
            )
        return SensitivityResult(delta_s=delta_s, gamma=float(gamma), h=size.h, k=size.k, rho_sampler=size.rho,
                                 m=m, n=n, sample_users=self.sampler.sample_users, draws=draws, key=self.key)


def shipped_cache_dir() -> Path:
    """The results shipped with the repo (``sample_data/topicdp_sensitivity``): read, never written at run time."""
    return Path(__file__).resolve().parent.parent / "sample_data" / "topicdp_sensitivity"


def sensitivity_cache_dir() -> Path:
    """Where new sampler draws and fitted models are written: ``$DPCORE_TOPICDP_CACHE``, else
    ``$XDG_CACHE_HOME/dpcore/topicdp`` (default ``~/.cache/dpcore/topicdp``).

    Loading looks here first and then in :func:`shipped_cache_dir`, so the app never writes into the
    repository. To refresh the shipped files, run with ``DPCORE_TOPICDP_CACHE=sample_data/topicdp_sensitivity``.
    """
    env = os.environ.get("DPCORE_TOPICDP_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dpcore" / "topicdp"


def _read_candidates(path: Path, cache_dir) -> list[Path]:
    """The writable cache's file, then the shipped one (only when no explicit cache_dir was given)."""
    if cache_dir is not None:
        return [path]
    return [path, shipped_cache_dir() / path.name]


def _cache_key(corpus_hash: str, lda: LdaSettings, sampler: SamplerSettings) -> str:
    """Everything Δ_i depends on: the corpus, every LDA setting (engine, iterations, priors' K, the
    vocabulary limits and the stop-word fingerprint), N and the sampler seed, the (m, n) grid, and the
    definition of Δ_i (``format``: 3 = between the matrices as released, issue 21 item 3; files of format 2,
    Δ_i after a Hungarian alignment, are never read)."""
    payload = json.dumps({"corpus": corpus_hash, "lda": lda.as_dict(), "sampler": sampler.as_dict(),
                          "grid": [list(g) for g in _grid(lda)], "format": 3}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def sensitivity_cache_path(corpus_hash: str, *, lda: LdaSettings, sampler: SamplerSettings,
                           cache_dir: str | os.PathLike | None = None) -> Path:
    """The gzipped JSON file holding the draws for these settings (~0.4 kB per pair)."""
    d = Path(cache_dir) if cache_dir is not None else sensitivity_cache_dir()
    return d / f"sensitivity_{_cache_key(corpus_hash, lda, sampler)[:20]}.json.gz"


def load_sensitivity_draws(corpus_hash: str, *, lda: LdaSettings = LdaSettings(),
                           sampler: SamplerSettings = SamplerSettings(),
                           cache_dir: str | os.PathLike | None = None) -> SensitivityDraws:
    """The draws stored on disk for these settings (zero pairs when there is no file). Never fits."""
    key = _cache_key(corpus_hash, lda, sampler)
    m_values, n_values = _grid(lda)
    path = sensitivity_cache_path(corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    deltas = np.zeros((0, len(m_values), len(n_values)))
    full = np.zeros(0)
    seconds = 0.0
    for stored in _verified_draws(_read_candidates(path, cache_dir), cache_dir):  # the file with the most draws wins
        if stored.get("key") == key and stored.get("deltas"):
            found = np.asarray(stored["deltas"], dtype=float).reshape(-1, len(m_values), len(n_values))
            if found.shape[0] > deltas.shape[0]:
                deltas, seconds = found, float(stored.get("seconds", 0.0))
                f = stored.get("full_matrix_deltas") or []
                full = np.array([np.nan if v is None else v for v in f] + [np.nan] * (found.shape[0] - len(f)),
                                dtype=float)
    return SensitivityDraws(deltas=deltas, m_values=m_values, n_values=n_values, corpus_hash=corpus_hash,
                            lda=lda, sampler=sampler, key=key, seconds=seconds, full=full)


def _save(draws: SensitivityDraws, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "key": draws.key,
        "corpus_hash": draws.corpus_hash,
        "lda": draws.lda.as_dict(),
        "sampler": draws.sampler.as_dict(),
        "m_values": list(draws.m_values),
        "n_values": list(draws.n_values),
        "pairs": draws.n_pairs,
        "seconds": round(draws.seconds, 2),
        "note": "deltas[i][a][b] = ||f(D_i) - f(D'_i)||_F between the matrices as released (rows by LDA component "
                "index, columns by word) for m = m_values[a], n = n_values[b]; "
                "for confidence gamma use the k-th smallest of the first h pairs (dpcore.sensitivity_sampler_size)",
        "deltas": [[[float(f"{v:.6g}") for v in row] for row in pair] for pair in draws.deltas],
        "full_matrix_deltas": [None if not np.isfinite(v) else float(f"{v:.6g}") for v in draws.full],
    }
    _cache_files.write_json(path, payload)  # with its checksum, atomically


def _shipped(path: Path) -> bool:
    return path.parent.resolve() == shipped_cache_dir().resolve()


def _verified_draws(candidates: Sequence[Path], cache_dir) -> list[dict]:
    """The usable sampler files among ``candidates`` (issue 25): each is read through its checksum
    (dpcore._cache_files.read_json: a damaged, foreign or unchecked file of the writable cache is not used,
    and a damaged one is deleted; the shipped one is trusted), and a writable file whose draws disagree with
    the shipped file's draws for the same key (they are the same pairs, so they must agree to rounding) is
    deleted and not used: never a silent wrong Δ_s."""
    found = [(c, _cache_files.read_json(c, trusted=_shipped(c))) for c in candidates]
    shipped = next((p for c, p in found if p is not None and _shipped(c)), None)
    out = []
    for c, p in found:
        if p is None:
            continue
        if shipped is not None and p is not shipped and not _draws_agree(p, shipped):
            _cache_files.discard(c)
            continue
        out.append(p)
    return out


def _draws_agree(a: dict, b: dict) -> bool:
    """Whether two sampler files of the same key hold the same draws on the pairs both have (to 1e-3)."""
    if a.get("key") != b.get("key"):
        return True  # different settings: nothing to compare
    try:
        x, y = np.asarray(a.get("deltas") or [], dtype=float), np.asarray(b.get("deltas") or [], dtype=float)
        n = min(len(x), len(y))
        return x[:n].shape == y[:n].shape and bool(np.allclose(x[:n], y[:n], rtol=1e-3, atol=1e-9))
    except (ValueError, TypeError):
        return False


def extend_sensitivity_draws(
    data: DocumentTermData,
    *,
    n_pairs: int,
    lda: LdaSettings = LdaSettings(),
    sampler: SamplerSettings = SamplerSettings(),
    cache_dir: str | os.PathLike | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    save_every: int = 20,
) -> SensitivityDraws:
    """Make sure at least ``n_pairs`` draws exist on disk; fit only the missing pairs.

    Args:
      data: the corpus' document–term data (:func:`dpcore.document_term_data`).
      n_pairs: how many pairs are needed (h of the γ in use).
      progress: called as ``progress(done, total)`` after each new pair (the page drives st.progress).
      workers: processes to fit pairs in parallel (joblib's loky backend, which starts clean worker
        processes and works from a Streamlit script or a notebook; pairs go out in chunks of up to
        5). The draws are the same for any number of workers.
      save_every: the completed prefix is written to disk every this many pairs, so an
        interrupted run keeps its work.

    Returns:
      the stored draws (possibly more than ``n_pairs``).
    """
    n_pairs = check_int("n_pairs", n_pairs, low=1, high=100_000)
    workers = check_int("workers", workers, low=1, high=64)
    path = sensitivity_cache_path(data.corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    draws = load_sensitivity_draws(data.corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    start = draws.n_pairs
    if start >= n_pairs:
        return draws
    todo = list(range(start, n_pairs))
    done: dict[int, tuple[np.ndarray, float]] = {}
    rows = [draws.deltas]
    fulls = [draws.full]
    t0 = time.perf_counter()
    base_seconds = draws.seconds

    def flush() -> SensitivityDraws:
        nonlocal rows
        i = start + sum(r.shape[0] for r in rows[1:])
        new, new_full = [], []
        while i in done:
            grid, full = done.pop(i)
            new.append(grid[None])
            new_full.append(full)
            i += 1
        if new:
            rows.append(np.concatenate(new))
            fulls.append(np.asarray(new_full, dtype=float))
        d = SensitivityDraws(deltas=np.concatenate(rows), m_values=draws.m_values, n_values=draws.n_values,
                             corpus_hash=draws.corpus_hash, lda=lda, sampler=sampler, key=draws.key,
                             seconds=base_seconds + time.perf_counter() - t0, full=np.concatenate(fulls))
        _save(d, path)
        return d

    def record(index: int, value: tuple[np.ndarray, float], count: int) -> None:
        done[index] = value
        if progress is not None:
            progress(count, len(todo))
        if count % save_every == 0:
            flush()

    if workers == 1 or len(todo) < 4:
        for count, i in enumerate(todo, start=1):
            record(i, pair_deltas(data, i, lda=lda, sampler=sampler, with_full=True), count)
    else:
        from joblib import Parallel, delayed

        chunk = max(1, min(5, len(todo) // (4 * workers)))
        chunks = [todo[a:a + chunk] for a in range(0, len(todo), chunk)]
        count = 0
        for results in Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered")(
                delayed(_pair_chunk)(data, c, lda, sampler) for c in chunks):
            for i, value in results:
                count += 1
                record(i, value, count)
    return flush()


def sampled_sensitivity(
    data: DocumentTermData,
    *,
    gamma,
    m: int,
    n: int,
    lda: LdaSettings = LdaSettings(),
    sampler: SamplerSettings = SamplerSettings(),
    cache_dir: str | os.PathLike | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> SensitivityResult:
    """Δ_s for (γ, m, n): runs the sampler for the missing pairs (004 Alg. 1), then takes the k-th
    smallest of the first h draws. See :func:`extend_sensitivity_draws` for the arguments."""
    size = sensitivity_sampler_size(gamma)
    draws = extend_sensitivity_draws(data, n_pairs=size.h, lda=lda, sampler=sampler, cache_dir=cache_dir,
                                     progress=progress, workers=workers)
    return draws.sensitivity(gamma=gamma, m=m, n=n)


# ---------------------------------------------------------------------------------------------
# Full-corpus model cache (so that the page opens without a 15-second LDA fit)
# ---------------------------------------------------------------------------------------------


def _model_path(corpus_hash: str, lda: LdaSettings, cache_dir) -> Path:
    d = Path(cache_dir) if cache_dir is not None else sensitivity_cache_dir()
    key = hashlib.sha256(json.dumps({"corpus": corpus_hash, "lda": lda.as_dict(), "format": 2},
                                    sort_keys=True).encode()).hexdigest()
    return d / f"model_{key[:20]}.json"


def save_topic_model(model: TopicModel, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """Write a fitted full-corpus model as JSON next to the sampler results."""
    path = _model_path(model.corpus_hash, model.settings, cache_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"corpus_hash": model.corpus_hash, "lda": model.settings.as_dict(), "words": list(model.words),
               "prevalence": [float(f"{v:.8g}") for v in model.prevalence],
               "topic_word": [[float(f"{v:.6g}") for v in row] for row in model.topic_word]}
    return _cache_files.write_json(path, payload)  # with its checksum, atomically


def load_topic_model(corpus_hash: str, *, lda: LdaSettings = LdaSettings(),
                     cache_dir: str | os.PathLike | None = None) -> TopicModel | None:
    """The stored full-corpus model for these settings, or None (a damaged or unchecked file of the writable
    cache is not used, and the shipped copy is read instead when there is one)."""
    for path in _read_candidates(_model_path(corpus_hash, lda, cache_dir), cache_dir):
        p = _cache_files.read_json(path, trusted=_shipped(path))  # None: missing, damaged (deleted) or unchecked
        if p is not None and p.get("corpus_hash") == corpus_hash and p.get("lda") == lda.as_dict():
            try:
                return _model_from_payload(p, corpus_hash, lda)
            except (KeyError, TypeError, ValueError):
                if not _shipped(path):
                    _cache_files.discard(path)
    return None


def _model_from_payload(p: dict, corpus_hash: str, lda: LdaSettings) -> TopicModel:
    tw = np.asarray(p["topic_word"], dtype=float)
    if tw.ndim != 2 or len(p["words"]) != tw.shape[1] or not np.all(np.isfinite(tw)) or (tw < 0).any():
        raise ValueError("not a topic-word matrix")
    return TopicModel(topic_word=tw / tw.sum(axis=1, keepdims=True), prevalence=np.asarray(p["prevalence"]),
                      words=tuple(p["words"]), settings=lda, corpus_hash=corpus_hash)


# ---------------------------------------------------------------------------------------------
# 3. Mechanisms on the topic–keyword matrix
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MatrixRelease:
    """One noisy release of W.

    Attributes:
      mechanism: "TopicDP", "Laplace" or "MVG".
      matrix: the released matrix (noisy, clipped at 0, rows renormalised; an all-zero row → uniform).
      noisy: the noisy matrix before clipping and renormalising.
      noise_scale: the per-entry Gaussian standard deviation σ, or the Laplace scale b.
      sensitivity: the sensitivity used (Δ_s, or 2m for Laplace).
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


def _check_matrix(matrix) -> np.ndarray:
    w = as_float_array("matrix", matrix)
    if w.ndim != 2 or w.shape[0] < 1 or w.shape[1] < 2:
        raise ValueError(f"matrix must be 2-D with at least 1 row and 2 columns, got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError("matrix must be finite, got a NaN or infinite entry")
    return w


def _clip_renormalise(noisy: np.ndarray) -> np.ndarray:
    out = np.clip(noisy, 0.0, None)
    s = out.sum(axis=1, keepdims=True)
    uniform = np.full_like(out, 1.0 / out.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(s > 0, out / np.where(s > 0, s, 1.0), uniform)
    return out


def topicdp_sigma(*, epsilon, delta, sensitivity, m: int, n: int) -> float:
    """σ = Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n), **as in the thesis** (004 Alg. 2 lines 2–4; SPEC §5).

    The split of ε is an error of the thesis (issue 21 item 4): the Gaussian is calibrated to the whole
    matrix's ℓ2 sensitivity, so this σ is m·n times larger than needed and its true ε is far below the
    ε asked for (:func:`topicdp_true_epsilon`: 0.0046 at 10 × 10, ε = 1, δ = 1e-5). Kept to reproduce the
    thesis; :func:`corrected_topicdp_sigma` is the σ its own argument needs."""
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    sensitivity = check_sensitivity(sensitivity)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    if not epsilon / (m * n) > 0:  # ε′ = ε/(m·n) underflows to 0 (e.g. ε = 5e-324): σ would be 1/0
        raise ValueError(f"epsilon must be large enough that ε′ = ε/(m·n) is not 0 in floating point, got "
                         f"epsilon={epsilon!r} with m·n = {m * n}: use a larger epsilon")
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / (epsilon / (m * n))


def topicdp_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma=None) -> MatrixRelease:
    """TopicDP (004 Alg. 2): add N(0, σ²) to every entry, σ from :func:`topicdp_sigma`; clip at 0 and
    renormalise rows. (ε, δ, γ)-random DP with the sampled sensitivity Δ_s (004 Thm 4.6.2).

    ``sensitivity`` is Δ_s as a number (then pass the sampler's ``gamma``) or a :class:`SensitivityResult`."""
    sensitivity, gamma = _sensitivity_gamma(sensitivity, gamma)
    w = _check_matrix(matrix)
    sigma = topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=sensitivity, m=w.shape[0], n=w.shape[1])
    from .validation import check_draw_scale  # ε = 1e-320: σ = ∞ and every row NaN (issue 21 item 8)
    sigma = check_draw_scale("σ", sigma, epsilon=epsilon, delta=delta, sensitivity=sensitivity)
    rng = check_rng(rng)
    noisy = w + sigma * rng.standard_normal(w.shape)
    return MatrixRelease("TopicDP", _clip_renormalise(noisy), noisy, sigma, float(sensitivity), float(epsilon),
                         float(delta), matrix_guarantee("TopicDP", epsilon=epsilon, delta=delta, gamma=gamma,
                                                        m=w.shape[0], n=w.shape[1]), gamma)


def corrected_topicdp_sigma(*, epsilon, delta, sensitivity) -> float:
    """TopicDP's σ without the thesis's split of ε (issue 21 item 4; SPEC §5).

    A Gaussian on the whole matrix calibrated to its ℓ2 (Frobenius) sensitivity Δ_s is (ε, δ)-DP for
    that change: no ε′ = ε/(m·n) is needed (that is the composition of m·n separate releases, each
    with its own ℓ2 sensitivity Δ_s, which overstates the noise m·n-fold). σ = Δ_s·√(2 ln(1.25/δ))/ε
    (classic, proven for ε < 1) below ε = 1 and the analytic σ (Balle & Wang 2018) from ε = 1 on
    (``gaussian_sigma(method="auto")``). With a sampled Δ_s the release is still only (ε, δ, γ)-random DP.
    """
    return gaussian_sigma(epsilon, delta, check_sensitivity(sensitivity), method="auto")


def strict_topicdp_sigma(*, epsilon, delta, m: int) -> float:
    """σ of strict TopicDP: the analytic Gaussian (Balle & Wang 2018) on the global bound Δ = √(2m).

    Any two row-stochastic m × n matrices are within √(2m) in Frobenius norm — each row is a probability
    vector, and two probability vectors are at most √2 apart (all mass on different words), whatever the
    rows, columns or their order — so no sensitivity has to be sampled and the release is (ε, δ)-DP for the
    values (given a non-private choice of topics and keywords). SPEC check: ε = 1, δ = 1e-5, m = 10 →
    Δ = 4.4721, σ = 16.68.
    """
    m = check_int("m", m, low=1, high=10**12)
    return analytic_gaussian_sigma(epsilon, delta, math.sqrt(2.0 * m))


def topicdp_true_epsilon(*, epsilon, delta, m: int, n: int) -> float:
    """The ε the thesis's σ really gives: the smallest ε′ with δ(ε′, σ) ≤ δ for an ℓ2 change of Δ_s, where
    σ = :func:`topicdp_sigma` (the exact privacy profile of Balle & Wang 2018, Thm 8). It does not depend
    on Δ_s (σ/Δ_s = √(2 ln(1.25/δ))·m·n/ε). SPEC check: 10 × 10, ε = 1, δ = 1e-5 → 0.0046.

    Found by bisection in log ε′ on δ(ε′), which decreases in ε′; 1e-12 relative.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    ratio = topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=1.0, m=m, n=n)
    if gaussian_delta(1e-12, ratio) <= delta:
        return 1e-12
    lo, hi = math.log(1e-12), math.log(max(2.0 * epsilon, 1.0))
    while gaussian_delta(math.exp(hi), ratio) > delta:
        hi += 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if gaussian_delta(math.exp(mid), ratio) > delta:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return math.exp(hi)


def corrected_topicdp_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma=None) -> MatrixRelease:
    """TopicDP with the corrected σ (:func:`corrected_topicdp_sigma`): N(0, σ²) on every entry, clip at 0,
    renormalise rows. (ε, δ, γ)-random DP with the sampled Δ_s, like the thesis's TopicDP, with m·n times
    less noise below ε = 1."""
    sensitivity, gamma = _sensitivity_gamma(sensitivity, gamma)
    w = _check_matrix(matrix)
    sigma = corrected_topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=sensitivity)
    rng = check_rng(rng)
    noisy = w + sigma * rng.standard_normal(w.shape)
    return MatrixRelease("TopicDP corrected", _clip_renormalise(noisy), noisy, sigma, float(sensitivity),
                         float(epsilon), float(delta),
                         matrix_guarantee("TopicDP corrected", epsilon=epsilon, delta=delta, gamma=gamma,
                                          m=w.shape[0], n=w.shape[1]), gamma)


def strict_topicdp_mechanism(matrix, *, epsilon, delta, rng) -> MatrixRelease:
    """Strict TopicDP (ours; SPEC §5): N(0, σ²) with σ = :func:`strict_topicdp_sigma` on every entry, clip
    at 0, renormalise rows. (ε, δ)-DP for the values with no sampled sensitivity: the guarantee holds for
    every pair of neighbours, not a 1 − γ share (given a non-private choice of topics and keywords)."""
    w = _check_matrix(matrix)
    sigma = strict_topicdp_sigma(epsilon=epsilon, delta=delta, m=w.shape[0])
    rng = check_rng(rng)
    noisy = w + sigma * rng.standard_normal(w.shape)
    return MatrixRelease("TopicDP strict", _clip_renormalise(noisy), noisy, sigma, math.sqrt(2.0 * w.shape[0]),
                         float(epsilon), float(delta), matrix_guarantee("TopicDP strict", epsilon=epsilon,
                                                                        delta=delta), None)


def matrix_laplace_scale(*, epsilon, m: int) -> float:
    """b = 2m/ε: ℓ1 sensitivity 2m, each of the m row-stochastic rows can move by at most 2 (004 §5.2)."""
    epsilon = check_epsilon(epsilon)
    m = check_int("m", m, low=1)
    return 2.0 * m / epsilon


def matrix_laplace_mechanism(matrix, *, epsilon, rng) -> MatrixRelease:
    """Laplace baseline: i.i.d. Lap(0, 2m/ε) on every entry, clip, renormalise rows. ε-DP."""
    w = _check_matrix(matrix)
    b = matrix_laplace_scale(epsilon=epsilon, m=w.shape[0])
    from .validation import check_draw_scale  # ε = 1e-320: b = ∞ and every row NaN (issue 21 item 8)
    b = check_draw_scale("b", b, epsilon=epsilon, m=w.shape[0])
    rng = check_rng(rng)
    noisy = w + rng.laplace(0.0, b, size=w.shape)
    return MatrixRelease("Laplace", _clip_renormalise(noisy), noisy, b, 2.0 * w.shape[0], float(epsilon), None,
                         matrix_guarantee("Laplace", epsilon=epsilon))


def mvg_sigma(*, epsilon, delta, m: int, n: int, gamma_f, s2) -> float:
    """Per-entry standard deviation of the i.i.d. MVG mechanism (Chanyaswad et al. 2018; SPEC §5).

    r = min(m, n), H_r = Σ_{k≤r} 1/k, H_{r,1/2} = Σ_{k≤r} 1/√k,
    ζ(δ) = √(2√(−mn·ln δ) − 2 ln δ + mn), α = (H_r + H_{r,1/2})γ_F² + 2H_r·γ_F·s₂,
    β = 2(mn)^{1/4}·H_r·s₂·ζ(δ), P = (−β + √(β² + 8αε))²/(4α²); the noise is N(0, √(mn)/P) with
    √(mn)/P the *variance*, so σ = √(√(mn)/P). SPEC check: m = n = 10, γ_F = 1, s₂ = 1, ε = 1,
    δ = 1e-5 → σ ≈ 404.8.

    Args:
      gamma_f: γ_F = sup ‖f(D)‖_F (≤ √m for row-stochastic rows).
      s2: the ℓ2 sensitivity s₂ (here the sampled Δ_s).
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    gamma_f = check_real("gamma_f", gamma_f, low=0.0, high=1e150)  # γ_F ≤ √m for row-stochastic rows; γ_F² must fit
    s2 = check_sensitivity(s2, "s2")
    r = min(m, n)
    h_r = sum(1.0 / k for k in range(1, r + 1))
    h_half = sum(1.0 / math.sqrt(k) for k in range(1, r + 1))
    mn = m * n
    ln_d = math.log(delta)
    zeta = math.sqrt(2.0 * math.sqrt(-mn * ln_d) - 2.0 * ln_d + mn)
    alpha = (h_r + h_half) * gamma_f**2 + 2.0 * h_r * gamma_f * s2
    beta = 2.0 * mn**0.25 * h_r * s2 * zeta
    # (−β + √(β² + 8αε))² / (4α²), written without the cancellation of −β + √(β² + …) (tiny ε, huge s₂)
    r = 4.0 * epsilon / (beta + math.hypot(beta, math.sqrt(8.0 * alpha * epsilon)))
    p = r * r
    with np.errstate(over="ignore"):
        sigma = float(np.sqrt(np.sqrt(float(mn)) / np.float64(p))) if p > 0 else math.inf
    return check_noise_scale("σ", sigma, epsilon=epsilon, delta=delta, s2=s2)


def mvg_mechanism(matrix, *, epsilon, delta, sensitivity, rng, gamma_f=None, gamma=None) -> MatrixRelease:
    """MVG baseline, i.i.d. form, with s₂ = Δ_s and γ_F = √m by default; clip, renormalise rows.

    With a sampled s₂ the guarantee is (ε, δ, γ)-random DP, like TopicDP's (thesis §5.2); ``gamma`` is the
    sampler's γ (or pass a :class:`SensitivityResult` as ``sensitivity``)."""
    sensitivity, gamma = _sensitivity_gamma(sensitivity, gamma)
    w = _check_matrix(matrix)
    sensitivity = check_sensitivity(sensitivity)
    gf = math.sqrt(w.shape[0]) if gamma_f is None else gamma_f
    sigma = mvg_sigma(epsilon=epsilon, delta=delta, m=w.shape[0], n=w.shape[1], gamma_f=gf, s2=sensitivity)
    rng = check_rng(rng)
    noisy = w + sigma * rng.standard_normal(w.shape)
    return MatrixRelease("MVG", _clip_renormalise(noisy), noisy, sigma, float(sensitivity), float(epsilon),
                         float(delta), matrix_guarantee("MVG", epsilon=epsilon, delta=delta, gamma=gamma), gamma)


# ---------------------------------------------------------------------------------------------
# 4. Metrics and experiments
# ---------------------------------------------------------------------------------------------

TOPIC_MECHANISMS = ("TopicDP", "TopicDP corrected", "TopicDP strict", "MVG", "Laplace")
"""Every mechanism of the page, in this order everywhere (releases, curves, exports): TopicDP as in the
thesis, TopicDP with the corrected σ, strict TopicDP (ours), and the thesis's two baselines."""
SAMPLED_MECHANISMS = ("TopicDP", "TopicDP corrected", "MVG")
"""The mechanisms whose noise rests on the sampled Δ_s (random DP); the others use a global bound."""
TOPIC_METRICS = {"l1": l1_distance, "rmse": rmse, "kendall": kendall_tau_distance}
METRIC_LABELS = {"l1": "L1 distance Σ|W − W′|", "rmse": "RMSE", "kendall": "Kendall's tau distance"}
STAGES = ("released", "noisy")


def release_all(matrix, *, epsilon, delta, sensitivity, rng, gamma=None) -> dict[str, MatrixRelease]:
    """One release of W by each mechanism of :data:`TOPIC_MECHANISMS`, noise from one generator in that order.

    ``sensitivity``: Δ_s as a number with the sampler's ``gamma``, or a :class:`SensitivityResult` (strict
    TopicDP and Laplace do not use it)."""
    rng = check_rng(rng)
    sensitivity, gamma = _sensitivity_gamma(sensitivity, gamma)
    return {
        "TopicDP": topicdp_mechanism(matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng,
                                     gamma=gamma),
        "TopicDP corrected": corrected_topicdp_mechanism(matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity,
                                                         rng=rng, gamma=gamma),
        "TopicDP strict": strict_topicdp_mechanism(matrix, epsilon=epsilon, delta=delta, rng=rng),
        "MVG": mvg_mechanism(matrix, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng, gamma=gamma),
        "Laplace": matrix_laplace_mechanism(matrix, epsilon=epsilon, rng=rng),
    }


def redraw_releases(release: MatrixRelease, matrix, repetitions: int, rng) -> np.ndarray:
    """``repetitions`` fresh releases of ``matrix`` with ``release``'s mechanism and noise scale (shape
    repetitions × m × n, clipped and renormalised like the release): Laplace noise of scale b for
    "Laplace", Gaussian noise of standard deviation σ for the others. For experiments that need many
    draws at one setting without recalibrating σ each time."""
    if not isinstance(release, MatrixRelease):
        raise TypeError(f"release must be a MatrixRelease, got release={type(release).__name__}")
    w = _check_matrix(matrix)
    repetitions = check_int("repetitions", repetitions, low=1, high=1_000_000)
    rng = check_rng(rng)
    shape = (repetitions,) + w.shape
    if release.mechanism == "Laplace":
        noise = rng.laplace(0.0, release.noise_scale, size=shape)
    else:
        noise = release.noise_scale * rng.standard_normal(shape)
    out = np.clip(w + noise, 0.0, None)
    s = out.sum(axis=2, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(s > 0, out / np.where(s > 0, s, 1.0), 1.0 / w.shape[1])


def release_errors(matrix, *, epsilon, delta, sensitivity, repetitions: int, rng,
                   stage: str = "released") -> dict[str, dict[str, np.ndarray]]:
    """errors[mechanism][metric] = array of ``repetitions`` values of L1, RMSE and Kendall's tau
    distance between W and its release (``stage="released"``: after clipping and renormalising;
    ``"noisy"``: before). Kendall's tau distance is averaged over the topics (rows)."""
    repetitions = check_int("repetitions", repetitions, low=1, high=100_000)
    check_choice("stage", stage, STAGES)
    w = _check_matrix(matrix)
    rng = check_rng(rng)
    out = {mech: {metric: np.empty(repetitions) for metric in TOPIC_METRICS} for mech in TOPIC_MECHANISMS}
    for r in range(repetitions):
        for mech, rel in release_all(w, epsilon=epsilon, delta=delta, sensitivity=sensitivity, rng=rng).items():
            y = rel.matrix if stage == "released" else rel.noisy
            for metric, fn in TOPIC_METRICS.items():
                out[mech][metric][r] = fn(w, y)
    return out


@dataclass(frozen=True, eq=False)
class ErrorCurve:
    """Error of each mechanism vs one parameter: mean and a 10–90 % band over repetitions.

    ``stats[metric][mechanism] = (mean, p10, p90)`` arrays aligned with ``values``; entries are NaN
    where a point could not be computed (``skipped`` says why, e.g. too few sampled pairs for γ).
    """

    parameter: str
    values: tuple[float, ...]
    stats: dict
    sensitivities: tuple[float, ...]
    repetitions: int
    stage: str
    skipped: tuple[str, ...] = ()


CURVE_PARAMETERS = ("epsilon", "gamma", "size")


def error_curve(model: TopicModel, draws: SensitivityDraws, *, parameter: str, values: Sequence[float],
                epsilon, delta, gamma, m: int, n: int, repetitions: int = 20, rng,
                stage: str = "released") -> ErrorCurve:
    """L1 / RMSE / Kendall vs ε, vs γ or vs matrix size (m = n = value) for every mechanism.

    The other parameters stay at ``epsilon``, ``gamma``, ``m``, ``n``. Each point uses its own
    Δ_s from ``draws`` (γ and size change it; ε does not). γ points that need more sampled pairs
    than ``draws`` holds are NaN and listed in ``skipped``.
    """
    check_choice("parameter", parameter, CURVE_PARAMETERS)
    rng = check_rng(rng)
    values = tuple(float(v) for v in values)
    if not values:
        raise ValueError("values must not be empty")
    stats = {metric: {mech: tuple(np.full(len(values), np.nan) for _ in range(3)) for mech in TOPIC_MECHANISMS}
             for metric in TOPIC_METRICS}
    sens, skipped = [], []
    for i, v in enumerate(values):
        eps_i, gamma_i, m_i, n_i = epsilon, gamma, m, n
        if parameter == "epsilon":
            eps_i = v
        elif parameter == "gamma":
            gamma_i = v
        else:
            m_i = n_i = int(v)
        if not draws.covers(gamma_i):
            sens.append(float("nan"))
            skipped.append(f"γ = {gamma_i:g} needs {sensitivity_sampler_size(gamma_i).h} sampled pairs, "
                           f"{draws.n_pairs} are stored")
            continue
        s = draws.sensitivity(gamma=gamma_i, m=m_i, n=n_i).delta_s
        sens.append(s)
        w = topic_keyword_matrix(model, m=m_i, n=n_i).matrix
        errs = release_errors(w, epsilon=eps_i, delta=delta, sensitivity=s, repetitions=repetitions, rng=rng,
                              stage=stage)
        for metric in TOPIC_METRICS:
            for mech in TOPIC_MECHANISMS:
                x = errs[mech][metric]
                mean, lo, hi = stats[metric][mech]
                mean[i], lo[i], hi[i] = x.mean(), np.percentile(x, 10), np.percentile(x, 90)
    return ErrorCurve(parameter=parameter, values=values, stats=stats, sensitivities=tuple(sens),
                      repetitions=repetitions, stage=stage, skipped=tuple(skipped))


# ---------------------------------------------------------------------------------------------
# 5. When does TopicDP add less noise than the baselines? (numbers for the page's conclusion)
# ---------------------------------------------------------------------------------------------


def laplace_break_even_sensitivity(*, delta, n: int) -> float:
    """The Δ_s below which TopicDP's per-entry noise is smaller than the Laplace baseline's, at every ε.

    TopicDP's standard deviation is σ = Δ_s·√(2 ln(1.25/δ))·mn/ε; the Laplace baseline's is
    √2·b = 2√2·m/ε. Both scale as 1/ε, so σ < √2·b ⇔ Δ_s < 2/(n·√(ln(1.25/δ))), whatever ε and m.
    """
    delta = check_delta(delta)
    n = check_int("n", n, low=1)
    return 2.0 / (n * math.sqrt(math.log(1.25 / delta)))


@dataclass(frozen=True, eq=False)
class NoiseComparison:
    """Per-entry noise standard deviation of every mechanism at each ε, and what it means.

    ``std[mechanism]`` is aligned with ``epsilons`` (Laplace: √2·b). ``sentence`` says in plain words
    where TopicDP's noise is the smallest, computed from these numbers only.
    """

    epsilons: tuple[float, ...]
    std: dict
    delta_s: float
    break_even_laplace: float
    topicdp_beats_laplace: tuple[bool, ...]
    topicdp_beats_mvg: tuple[bool, ...]
    sentence: str


def _ranges(values: Sequence[float], flags: Sequence[bool]) -> str:
    chosen = [v for v, f in zip(values, flags) if f]
    if not chosen:
        return "at no ε"
    if len(chosen) == len(values):
        return "at every ε"
    return "at ε = " + ", ".join(f"{v:g}" for v in chosen)


def compare_noise(*, delta_s, epsilons: Sequence[float], delta, m: int, n: int) -> NoiseComparison:
    """Compare TopicDP (thesis σ), TopicDP corrected, TopicDP strict, MVG (i.i.d., s₂ = Δ_s, γ_F = √m) and
    Laplace (b = 2m/ε) by the standard deviation of the noise each adds to one entry of the m × n matrix,
    for every ε in ``epsilons``.

    This is the comparison the thesis' curves make (004 §5.2), computed exactly instead of by drawing
    noise; the page's error curves show the same ranking. The returned ``sentence`` names the ε where
    TopicDP adds less noise than each baseline, the measured Δ_s and the Δ_s TopicDP would need to beat
    Laplace (:func:`laplace_break_even_sensitivity`).
    """
    delta_s = check_sensitivity(delta_s, "delta_s")
    delta = check_delta(delta)
    m = check_int("m", m, low=1)
    n = check_int("n", n, low=1)
    eps = tuple(float(check_epsilon(e)) for e in epsilons)
    if not eps:
        raise ValueError("epsilons must not be empty")
    std = {
        "TopicDP": np.array([topicdp_sigma(epsilon=e, delta=delta, sensitivity=delta_s, m=m, n=n) for e in eps]),
        "TopicDP corrected": np.array([corrected_topicdp_sigma(epsilon=e, delta=delta, sensitivity=delta_s)
                                       for e in eps]),
        "TopicDP strict": np.array([strict_topicdp_sigma(epsilon=e, delta=delta, m=m) for e in eps]),
        "MVG": np.array([mvg_sigma(epsilon=e, delta=delta, m=m, n=n, gamma_f=math.sqrt(m), s2=delta_s) for e in eps]),
        "Laplace": np.array([math.sqrt(2.0) * matrix_laplace_scale(epsilon=e, m=m) for e in eps]),
    }
    beats_lap = tuple(bool(a < b) for a, b in zip(std["TopicDP"], std["Laplace"]))
    beats_mvg = tuple(bool(a < b) for a, b in zip(std["TopicDP"], std["MVG"]))
    even = laplace_break_even_sensitivity(delta=delta, n=n)
    ratio = std["TopicDP"] / std["Laplace"]
    lap_part = (f"TopicDP adds less noise than Laplace {_ranges(eps, beats_lap)}: its noise is "
                f"{ratio[0]:.3g}× Laplace's at every ε, because the measured Δ_s = {delta_s:.3g} is "
                f"{'below' if delta_s < even else 'above'} the {even:.3g} it would need to beat Laplace "
                f"(2/(n·√ln(1.25/δ)) for n = {n}, δ = {delta:g})")
    mvg_ratio = std["TopicDP"] / std["MVG"]
    mvg_part = (f"it adds less noise than MVG {_ranges(eps, beats_mvg)} (TopicDP/MVG noise ratio "
                f"{mvg_ratio.min():.3g}–{mvg_ratio.max():.3g} over ε = {eps[0]:g}…{eps[-1]:g})")
    strict_ratio = std["TopicDP strict"] / std["TopicDP"]
    corr_ratio = std["TopicDP corrected"] / std["TopicDP strict"]
    fair = (f"Without the thesis's split of ε, the same Δ_s gives the corrected σ, {corr_ratio.min():.2g}–"
            f"{corr_ratio.max():.2g}× strict TopicDP's, whose global bound √(2m) = {math.sqrt(2 * m):.3g} needs no "
            f"sampling and no γ: strict TopicDP adds {1 / strict_ratio.max():.3g}–{1 / strict_ratio.min():.3g}× less "
            f"noise than the thesis's TopicDP and {'less' if np.all(std['TopicDP strict'] < std['Laplace']) else 'not always less'} "
            f"than Laplace, with a proven (ε, δ)")
    return NoiseComparison(epsilons=eps, std=std, delta_s=float(delta_s), break_even_laplace=even,
                           topicdp_beats_laplace=beats_lap, topicdp_beats_mvg=beats_mvg,
                           sentence=f"On this corpus at m × n = {m} × {n}: {lap_part}; {mvg_part}. {fair}.")


@dataclass(frozen=True)
class SigmaStory:
    """The σ of each TopicDP variant at one setting and what they say (issue 21 item 4; the page's story).

    ``thesis_sigma`` (ε′ = ε/(m·n), as in the thesis) and its ``thesis_true_epsilon``; ``corrected_sigma``
    (same Δ_s, no split); ``strict_sigma`` (global bound √(2m), no sampling); ``bound`` = √(2m).
    """

    epsilon: float
    delta: float
    delta_s: float
    gamma: float | None
    m: int
    n: int
    thesis_sigma: float
    thesis_true_epsilon: float
    corrected_sigma: float
    strict_sigma: float
    bound: float

    @property
    def strict_vs_thesis(self) -> float:
        """How many times less noise strict TopicDP adds than the thesis's TopicDP."""
        return self.thesis_sigma / self.strict_sigma

    @property
    def sampling_gain(self) -> float:
        """strict σ / corrected σ: what sampling Δ_s instead of using the bound saves (can be < 1)."""
        return self.strict_sigma / self.corrected_sigma


def sigma_story(*, epsilon, delta, delta_s, m: int, n: int, gamma=None) -> SigmaStory:
    """The σ of the thesis's TopicDP, of TopicDP corrected and of strict TopicDP at (ε, δ, Δ_s, m, n)."""
    epsilon, delta = check_epsilon(epsilon), check_delta(delta)
    delta_s = check_sensitivity(delta_s, "delta_s")
    m, n = check_int("m", m, low=1), check_int("n", n, low=1)
    return SigmaStory(epsilon=float(epsilon), delta=float(delta), delta_s=float(delta_s),
                      gamma=None if gamma is None else float(gamma), m=m, n=n,
                      thesis_sigma=topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=delta_s, m=m, n=n),
                      thesis_true_epsilon=topicdp_true_epsilon(epsilon=epsilon, delta=delta, m=m, n=n),
                      corrected_sigma=corrected_topicdp_sigma(epsilon=epsilon, delta=delta, sensitivity=delta_s),
                      strict_sigma=strict_topicdp_sigma(epsilon=epsilon, delta=delta, m=m),
                      bound=math.sqrt(2.0 * m))


def release_error_table(matrix, releases: dict[str, MatrixRelease]) -> dict[str, dict[str, float]]:
    """errors[mechanism] = {"l1", "rmse", "kendall", "noise_scale"} of one release of each mechanism
    against the noiseless ``matrix`` (after clipping and renormalising)."""
    w = _check_matrix(matrix)
    return {mech: {**{metric: float(fn(w, rel.matrix)) for metric, fn in TOPIC_METRICS.items()},
                   "noise_scale": float(rel.noise_scale)} for mech, rel in releases.items()}


@dataclass(frozen=True, eq=False)
class DrawsSummary:
    """What the sampled Δ_i say about f's stability, in numbers and one plain sentence."""

    h: int
    delta_s: float
    median: float
    share_above_break_even: float
    break_even_laplace: float
    full_median: float
    full_max: float
    sentence: str


def summarise_draws(draws: SensitivityDraws, *, gamma, m: int, n: int, delta) -> DrawsSummary:
    """Summarise the first h(γ) draws for the m × n table: Δ_s, the median Δ_i, the share of pairs whose
    Δ_i alone is above the Δ_s TopicDP needs to beat Laplace, and the diagnostic distance of the whole
    topic–word matrices (how far LDA itself moved). Nothing here changes Δ_s."""
    res = draws.sensitivity(gamma=gamma, m=m, n=n)
    even = laplace_break_even_sensitivity(delta=delta, n=n)
    full = draws.full[: res.h]
    full = full[np.isfinite(full)]
    median = float(np.median(res.draws))
    share = float(np.mean(res.draws > even))
    parts = [f"Of the {res.h:,} sampled neighbouring pairs, the median distance between the two {m} × {n} tables "
             f"is {median:.3g}, but Δ_s (the {res.k:,}-th smallest) is {res.delta_s:.3g}, and {share:.0%} of the "
             f"pairs alone lie above the {even:.3g} TopicDP would need to add less noise than Laplace"]
    if full.size:
        f_med, f_max = float(np.median(full)), float(full.max())
        if f_max < res.delta_s / 2:
            parts.append(f"LDA itself is stable across neighbours — the whole topic–word matrices move by "
                         f"{f_med:.3g} (median, at most {f_max:.3g}) — so the jumps come from choosing which "
                         f"{m} topics and {n} keyword columns make the table: one swapped keyword moves a "
                         f"renormalised row by up to √2")
        else:
            parts.append(f"LDA itself moves between neighbours: the whole topic–word matrices differ by "
                         f"{f_med:.3g} (median, at most {f_max:.3g})")
    else:
        f_med = f_max = float("nan")
    return DrawsSummary(h=res.h, delta_s=res.delta_s, median=median, share_above_break_even=share,
                        break_even_laplace=even, full_median=f_med, full_max=f_max,
                        sentence="; ".join(parts) + ".")
