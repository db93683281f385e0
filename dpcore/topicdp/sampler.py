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

from .. import _cache_files
from ..errors import UserError
from ..validation import check_int, check_real
from .fitting import _select, align_topics, fit_topic_word, released_matrix_distance
from .model import DocumentTermData, LdaSettings

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
]


MAX_MATRIX_SIDE = 10
"""m and n go up to 10 (the thesis' 10 × 10); the sampler records Δ_i for every m, n up to this."""

# ---------------------------------------------------------------------------------------------
# 1. Sample size h, order statistic k and ρ_s from γ
# ---------------------------------------------------------------------------------------------

SamplerSize = namedtuple("SamplerSize", ["h", "k", "rho"])
SamplerSize.__doc__ = """h pairs to sample, the order statistic k ≤ h, and the sampler's ρ_s (SPEC: ``rho_sampler``)."""


def sensitivity_sampler_size(*, gamma) -> SamplerSize:
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
        raise UserError(
            f"gamma must be >= 1e-12, got gamma={gamma:g}: the sampler needs h ≈ ln(1/γ)/(2γ²) model fits, "
            "which is unbounded as γ → 0"
        )
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


def pair_deltas(
    data: DocumentTermData, index: int, *, lda: LdaSettings, sampler: SamplerSettings, with_full: bool = False
):
    """Δ_i for pair ``index``, for every (m, n) of the grid: an array of shape (len(m grid), len(n grid)).

    D and D′ list the shared users' documents first, then x's (resp. x′'s); both fits use
    ``lda.random_state`` and run in this one process. Vocabulary columns are fixed (see
    ``topic_model``); the Frobenius norm is taken between the two matrices as released
    (:func:`dpcore.topicdp.released_matrix_distance`: rows in release order, columns by word).

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


def _pair_chunk(
    data: DocumentTermData, indices: list[int], lda: LdaSettings, sampler: SamplerSettings
) -> list[tuple[int, np.ndarray]]:
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
    full: np.ndarray = None  # type: ignore[assignment]  # None: NaN for every pair, set by __post_init__
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
            raise UserError(f"m must be in {self.m_values[0]}..{self.m_values[-1]}, got m={m}")
        if n not in self.n_values:
            raise UserError(f"n must be in {self.n_values[0]}..{self.n_values[-1]}, got n={n}")
        return self.deltas[:, self.m_values.index(m), self.n_values.index(n)]

    def covers(self, gamma) -> bool:
        """True when enough pairs are on disk for γ (h(γ) ≤ pairs drawn)."""
        return sensitivity_sampler_size(gamma=gamma).h <= self.n_pairs

    def sensitivity(self, *, gamma, m: int, n: int) -> SensitivityResult:
        """Δ_s = the k-th smallest of the first h(γ) draws for m × n.

        Raises:
          ValueError: fewer than h(γ) draws are stored (run :func:`extend_sensitivity_draws`), or
            Δ_s = 0 (every sampled neighbour gave the same matrix: no noise scale can be derived).
        """
        size = sensitivity_sampler_size(gamma=gamma)
        m = check_int("m", m, low=1)
        n = check_int("n", n, low=2)
        if size.h > self.n_pairs:
            raise UserError(
                f"gamma={gamma:g} needs h={size.h} sampled pairs, only {self.n_pairs} are stored: "
                "run the sensitivity sampler for more pairs or raise gamma"
            )
        draws = self.draws_for(m, n)[: size.h]
        delta_s = float(np.sort(draws)[size.k - 1])
        if not delta_s > 0:
            raise UserError(
                f"the sampled sensitivity is 0 for m={m}, n={n}, gamma={gamma:g}: the sampled neighbours all "
                "gave the same matrix; raise the sampled dataset size or lower gamma"
            )
        return SensitivityResult(
            delta_s=delta_s,
            gamma=float(gamma),
            h=size.h,
            k=size.k,
            rho_sampler=size.rho,
            m=m,
            n=n,
            sample_users=self.sampler.sample_users,
            draws=draws,
            key=self.key,
        )


def shipped_cache_dir() -> Path:
    """The results shipped with the repo (``sample_data/topicdp_sensitivity``): read, never written at run time."""
    return Path(__file__).resolve().parents[2] / "sample_data" / "topicdp_sensitivity"


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
    payload = json.dumps(
        {
            "corpus": corpus_hash,
            "lda": lda.as_dict(),
            "sampler": sampler.as_dict(),
            "grid": [list(g) for g in _grid(lda)],
            "format": 3,
        },
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def sensitivity_cache_path(
    corpus_hash: str, *, lda: LdaSettings, sampler: SamplerSettings, cache_dir: str | os.PathLike | None = None
) -> Path:
    """The gzipped JSON file holding the draws for these settings (~0.4 kB per pair)."""
    d = Path(cache_dir) if cache_dir is not None else sensitivity_cache_dir()
    return d / f"sensitivity_{_cache_key(corpus_hash, lda, sampler)[:20]}.json.gz"


def load_sensitivity_draws(
    corpus_hash: str,
    *,
    lda: LdaSettings = LdaSettings(),
    sampler: SamplerSettings = SamplerSettings(),
    cache_dir: str | os.PathLike | None = None,
) -> SensitivityDraws:
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
                full = np.array(
                    [np.nan if v is None else v for v in f] + [np.nan] * (found.shape[0] - len(f)), dtype=float
                )
    return SensitivityDraws(
        deltas=deltas,
        m_values=m_values,
        n_values=n_values,
        corpus_hash=corpus_hash,
        lda=lda,
        sampler=sampler,
        key=key,
        seconds=seconds,
        full=full,
    )


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
        "for confidence gamma use the k-th smallest of the first h pairs (dpcore.topicdp.sensitivity_sampler_size)",
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
      data: the corpus' document–term data (:func:`dpcore.topicdp.document_term_data`).
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
        d = SensitivityDraws(
            deltas=np.concatenate(rows),
            m_values=draws.m_values,
            n_values=draws.n_values,
            corpus_hash=draws.corpus_hash,
            lda=lda,
            sampler=sampler,
            key=draws.key,
            seconds=base_seconds + time.perf_counter() - t0,
            full=np.concatenate(fulls),
        )
        _save(d, path)
        return d

    def record(index: int, value: tuple[np.ndarray, float], count: int) -> None:
        done[index] = value
        if progress is not None:
            progress(count, len(todo))
        if count % save_every == 0:
            flush()

    _fit_pairs(data, todo, lda=lda, sampler=sampler, workers=workers, record=record)
    return flush()


def _fit_pairs(data, todo: list[int], *, lda, sampler, workers: int, record) -> None:
    """Fit the pairs ``todo``, calling ``record(index, (grid, full), count)`` as each one is done (in any order
    with several workers: chunks of up to 5 pairs go to joblib's loky processes)."""
    if workers == 1 or len(todo) < 4:
        for count, i in enumerate(todo, start=1):
            record(i, pair_deltas(data, i, lda=lda, sampler=sampler, with_full=True), count)
        return
    from joblib import Parallel, delayed

    chunk = max(1, min(5, len(todo) // (4 * workers)))
    chunks = [todo[a : a + chunk] for a in range(0, len(todo), chunk)]
    count = 0
    for results in Parallel(n_jobs=workers, backend="loky", return_as="generator_unordered")(
        delayed(_pair_chunk)(data, c, lda, sampler) for c in chunks
    ):
        for i, value in results:
            count += 1
            record(i, value, count)


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
    size = sensitivity_sampler_size(gamma=gamma)
    draws = extend_sensitivity_draws(
        data, n_pairs=size.h, lda=lda, sampler=sampler, cache_dir=cache_dir, progress=progress, workers=workers
    )
    return draws.sensitivity(gamma=gamma, m=m, n=n)
