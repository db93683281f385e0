"""VIPS-LDA: a topic model trained with noise on its sufficient statistics, (ε, δ)-DP per user.

Method: Park, Foulds, Chaudhuri & Welling, "Variational Bayes in Private Settings (VIPS)" (JAIR 68,
2020; arXiv 1611.00340) and its LDA version "Private Topic Modeling" (arXiv 1609.04120): in a
conjugate-exponential model the variational M-step reads the data only through the *expected
sufficient statistics* — for LDA the K × V expected topic–word counts S[k, w] = Σ_d n_dw·φ_dwk — so
perturbing S with Gaussian noise in every iteration privatises every posterior the algorithm
produces, and a tight composition (they use the moments accountant) pays for the iterations.

What is computed (batch variational Bayes, Hoffman, Blei & Bach 2010 in its batch form, as
scikit-learn and :mod:`dpcore.topicdp.model` do it), from a start λ₀ that reads no private data — the
non-private fit of the same model on public data (:func:`public_start`) or Γ(100, 0.01)^{K×V} from a
seed (:func:`seeded_start`) — for t = 1..J:

1. E-step from the previous *released* state (:mod:`dpcore.topicdp.vips_estep`): exp(E[log β]) from
   λ_{t−1}; for every document d a fresh γ_d (start γ_dk = 1, at most ``DOC_ITERATIONS`` updates, early stop
   at ``DOC_TOLERANCE``), φ_dwk ∝ exp(E[log θ_dk])·exp(E[log β_kw]); person u's contribution
   S_u = Σ_{d of u} n_d·φ_d (K × V).
2. Clip, sum, noise (:func:`_clipped_sum`, :func:`_noisy_release` — the privacy-critical lines):
   S̃_t = max(0, Σ_u S_u·min(1, B/‖S_u‖_F) + Z_t), Z_t ~ N(0, σ²)^{K×V}.
3. M-step: λ_t = η + S̃_t (η = 1/K).

The release is λ_J as topic–word probabilities (rows normalised) and its row sums (``prevalence``).
The document–topic parameters γ_d never leave the function: they are recomputed from the released
λ_{t−1} in every iteration and dropped.

**Sensitivity (per iteration, per user): ‖S_t(D) − S_t(D′)‖_F ≤ B.** Neighbouring corpora D and D′
differ by one user v and all of v's documents. Condition on the released λ_{t−1}. Every document's
γ_d, hence φ_d, is a function of that document's counts and of λ_{t−1} alone: the start γ_d = 1 is
fixed (scikit-learn draws it at random in document order; such a draw would shift the other
documents' starts when v is removed, so it is not used here), and the vocabulary and λ₀ do not
depend on the private data (for t = 1, λ_{t−1} = λ₀). So S_u(λ_{t−1}) is the same in D and D′ for
every u ≠ v, and S_t(D) − S_t(D′) = clip_B(S_v), whose Frobenius norm is min(‖S_v‖_F, B) ≤ B —
however many documents or tokens v wrote. Each iteration is therefore a Gaussian mechanism with ℓ2
sensitivity B and noise multiplier z = σ/B; clipping at 0, the M-step, the next E-step and the final
normalisation are post-processing; the J iterations are an adaptive composition of J such
mechanisms. Without the clip the difference is S_v itself, whose norm grows with what v wrote (up to
v's token count): no finite σ covers every user (the audit scenario ``vips`` catches that variant).

**Accounting.** (ε, δ) of J adaptively composed Gaussian mechanisms with noise multiplier z, from
dp_accounting's PLD accountant (``PLDAccountant``, add-or-remove-one neighbours, pessimistic
discretisation 1e-3: an upper bound on ε); σ is the smallest z·B found by bisection with
accountant-ε ≤ ε (:func:`vips_sigma`). Gaussian composition has a closed form the tests check
against: J mechanisms with multiplier z cost as much as one with z/√J (the analytic Gaussian of
SPEC §2). The RDP accountant would give a larger ε for the same σ (e.g. 1.31 instead of 1.20 at
z = 10, J = 10, δ = 1e-5), hence more noise.

**Guarantee.** (ε, δ)-DP per user for the whole K × V matrix and its prevalence: choosing topics and
keywords from it afterwards (:func:`dpcore.topic_keyword_matrix`) is post-processing, so the
guarantee needs no "given a non-private choice of topics and keywords". It holds if the vocabulary
(and the start) are public. Green only when dpcore knows they are: words counted on a shipped public
split (the real chat corpus' public split of other people, or the public sample corpus; see
:func:`dpcore.text.shipped_public_hashes`). A caller's word list or corpus gives "DP if this
vocabulary is public" (orange: DP conditional on a non-private part) — :func:`vips_lda` refuses a
vocabulary built from the very corpus it trains on, but that test is an exact hash: a vocabulary of
919 of the 920 private people passes it (issue 30 item 4). Private words outside the vocabulary are
dropped.

Departures from the papers, and why:

* **Unit: a user (all of a person's documents), not a document.** A person's contribution is bounded
  by per-user ℓ2 clipping of their sufficient statistics (DP-SGD's per-example clipping, applied to
  sufficient statistics), not by a bound on document length: a user's text is unbounded in the
  corpora here (the chat's public people of scripts/vips_tune_public.py: median 32 vocabulary tokens per
  person, the heaviest 5,571).
* **Batch, no subsampling.** Every user takes part in every iteration, so there is no privacy
  amplification by sampling; the accountant composes J full Gaussian mechanisms.
* **Accountant:** PLD (tight) instead of the moments accountant (an RDP bound, looser).
* **Deterministic E-step start** (γ_d = 1 for every document), see the proof above.
* **A public start.** The papers start from a random λ₀. On the chat corpus (920 private people,
  K × V = 10,000 noisy entries per iteration) a random start never found the topics at any ε: each
  iteration's noise costs √J in σ and the few affordable iterations cannot leave the random start.
  Starting the private iterations from a fit on the public split (other people; no privacy cost), one
  private iteration recovers the private fit best (docs/SPEC_vips.md has the measurements). The
  private data enters through its clipped, noisy expected counts under the public topics.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import numpy as np

from ..errors import UserError
from ..guarantees import Guarantee, approximate_dp, no_protection
from ..mechanisms.gaussian import analytic_gaussian_sigma
from ..mechanisms.noise import gaussian_noise
from ..text.corpus import Corpus, shipped_public_hashes
from ..validation import check_delta, check_int, check_real, check_rng
from .model import LdaSettings, TopicModel
from .vips_estep import person_contributions
from .vips_inputs import PersonCounts, VipsVocabulary, _as_vocabulary, person_counts

__all__ = [
    "DEFAULT_CLIP_NORM",
    "DEFAULT_ITERATIONS",
    "VIPS_ACCOUNTANT",
    "VipsRelease",
    "VipsStart",
    "clipped_statistics",
    "contribution_norms",
    "person_contributions",
    "public_start",
    "seeded_start",
    "vips_epsilon",
    "vips_lda",
    "vips_reference_fit",
    "vips_sigma",
]


DEFAULT_CLIP_NORM = 2.0
"""B: per-user ℓ2 bound on one iteration's contribution. Tuned on public people only (issue 30 item 5;
scripts/vips_tune_public.py, docs/SPEC_vips.md): the chat's public split in two halves, vocabulary and start from
one, VIPS-LDA trained on the other; B = 2 had the smallest mean L1 over ε = 1, 2, 5 — flat from B = 1 to 5, worse
at 20 (σ ∝ B while most people's norms are a few units: median 5.4 on the public half)."""
DEFAULT_ITERATIONS = 1
"""J: variational-Bayes iterations, each a Gaussian mechanism. Tuned with B on public people
(scripts/vips_tune_public.py): with a public start one private iteration is best at ε = 1, 2 and 5 — each further
iteration costs √J in σ, and the noise floor flattens the next E-step (docs/SPEC_vips.md)."""
PUBLIC_START_ITERATIONS = 30
"""Passes of :func:`public_start` over the public corpus."""
REFERENCE_ITERATIONS = 50
"""Passes of :func:`vips_reference_fit` (the non-private fit the errors are measured against)."""

VIPS_ACCOUNTANT = "PLD (dp_accounting PLDAccountant, add-or-remove-one, pessimistic, discretisation 1e-3)"
_PLD_DISCRETISATION = 1e-3
"""PLD value discretisation: 1e-3 gives the same ε as 1e-4 to 1e-6 (connect-the-dots, pessimistic) and is
~10× faster at large ε (0.06 s instead of 0.6 s per accountant call at z = 0.5)."""
_MAX_ITERATIONS = 500
MAX_EPSILON = 20.0
"""Largest ε :func:`vips_sigma` calibrates (the sliders stop at 10; at ε = 100 one calibration takes ~10 s)."""


# --------------------------------------------------------------------------------------------------
# THE PRIVACY-CRITICAL LINES: per-user clip, sum, Gaussian noise (module docstring: the proof)
# --------------------------------------------------------------------------------------------------


def _user_norms(contrib: np.ndarray, pc: PersonCounts) -> np.ndarray:
    """‖S_u‖_F of every user (0 for a user without a vocabulary word)."""
    return np.sqrt(np.bincount(pc.pw_user, weights=np.einsum("ik,ik->i", contrib, contrib), minlength=pc.n_users))


def _clipped_sum(contrib: np.ndarray, pc: PersonCounts, clip_norm: float | None) -> np.ndarray:
    """Σ_u S_u·min(1, B/‖S_u‖_F) as a K × V array (``clip_norm=None``: no clip — not private)."""
    k, v = contrib.shape[1], len(pc.words)
    scale = np.ones(pc.n_users)
    if clip_norm is not None:
        norms = _user_norms(contrib, pc)
        over = norms > clip_norm
        scale[over] = clip_norm / norms[over]
    weighted = contrib * scale[pc.pw_user][:, None]
    return np.stack([np.bincount(pc.pw_word, weights=weighted[:, j], minlength=v) for j in range(k)])


def _noisy_release(statistics: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """max(0, S + N(0, σ²) on every entry): the released statistics of one iteration."""
    return np.maximum(statistics + gaussian_noise(sigma=sigma, size=statistics.shape, rng=rng), 0.0)


def clipped_statistics(pc: PersonCounts, released_lambda: np.ndarray, *, clip_norm) -> np.ndarray:
    """One iteration's statistics before the noise: Σ_u clip_B(S_u(λ)) (K × V). For tests and audits;
    ``clip_norm=None`` gives the unclipped sum Σ_u S_u (the broken variant)."""
    if clip_norm is not None:
        clip_norm = check_real("clip_norm", clip_norm, low=0.0)
    return _clipped_sum(person_contributions(pc, released_lambda), pc, clip_norm)


def contribution_norms(pc: PersonCounts, released_lambda: np.ndarray) -> np.ndarray:
    """Every user's ‖S_u‖_F before the clip, from the released (or public) λ: what the clip norm B bounds.
    For the reviewer's "cap above the median user" rule; never part of a release."""
    return _user_norms(person_contributions(pc, released_lambda), pc)


@lru_cache(maxsize=8)
def _start_statistics(pc: PersonCounts, start: VipsStart, clip_norm: float | None) -> np.ndarray:
    """The first iteration's Σ_u clip_B(S_u(λ₀)), read-only. The E-step from the start λ₀ is the same for every ε,
    δ and seed, so it is computed once per (counts, start, B) — ``PersonCounts`` and ``VipsStart`` are frozen and
    hashed by identity, so a cached value always belongs to the very objects it was computed from. Only the
    noise differs between releases: a J = 1 release at a new ε costs one draw of K·V normals."""
    out = _clipped_sum(person_contributions(pc, start.lam), pc, clip_norm)
    out.setflags(write=False)
    return out


def _fit(
    pc: PersonCounts, start, *, iterations: int, clip_norm: float | None, sigma: float, rng: np.random.Generator | None
) -> np.ndarray:
    """λ_J after J iterations of: E-step from the released λ, clipped sum, noise (σ > 0), M-step. ``start`` is a
    :class:`VipsStart` (its first statistics are cached, :func:`_start_statistics`) or a positive K × V array."""
    lam = start.lam if isinstance(start, VipsStart) else start
    eta = 1.0 / lam.shape[0]
    for t in range(iterations):
        if t == 0 and isinstance(start, VipsStart):
            statistics = _start_statistics(pc, start, clip_norm)
        else:
            statistics = _clipped_sum(person_contributions(pc, lam), pc, clip_norm)
        if sigma > 0:
            statistics = _noisy_release(statistics, sigma, cast(np.random.Generator, rng))  # given when σ > 0
        lam = eta + statistics
    return lam


# --------------------------------------------------------------------------------------------------
# Accounting: J Gaussian mechanisms with noise multiplier σ/B, dp_accounting's PLD accountant
# --------------------------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _pld_epsilon(noise_multiplier: float, delta: float, iterations: int) -> float:
    """The accountant's ε (a pure function of its arguments, ~40–100 ms a call: cached by them; issue 29 item 4)."""
    import dp_accounting
    from dp_accounting.pld import PLDAccountant

    accountant = PLDAccountant(value_discretization_interval=_PLD_DISCRETISATION)
    accountant.compose(dp_accounting.GaussianDpEvent(noise_multiplier), iterations)
    return float(accountant.get_epsilon(delta))


def vips_epsilon(*, sigma, delta, iterations, clip_norm=1.0) -> float:
    """ε at δ of J = ``iterations`` Gaussian mechanisms with ℓ2 sensitivity B = ``clip_norm`` and noise σ,
    from dp_accounting's PLD accountant (:data:`VIPS_ACCOUNTANT`; an upper bound on the exact ε)."""
    sigma = check_real("sigma", sigma, low=0.0)
    delta = check_delta(delta=delta)
    iterations = check_int("iterations", iterations, low=1, high=_MAX_ITERATIONS)
    clip_norm = check_real("clip_norm", clip_norm, low=0.0)
    return _pld_epsilon(sigma / clip_norm, delta, iterations)


NOISE_TABLE = "vips_noise_multipliers.json"
"""Shipped :func:`_noise_multiplier` values (sample_data/topicdp_sensitivity; scripts/vips_noise_table.py) for the
app's ε and δ grids and J = 1…5: a page's ε move looks z up instead of ~12 accountant calls (0.1–0.5 s)."""


@lru_cache(maxsize=1)
def _shipped_noise_multipliers() -> dict:
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "sample_data" / "topicdp_sensitivity" / NOISE_TABLE
    try:
        rows = json.loads(path.read_text())["entries"]
        return {(float(e), float(d), int(j)): float(z) for e, d, j, z in rows}
    except (OSError, ValueError, KeyError, TypeError):  # missing or damaged: every z is calibrated again
        return {}


@lru_cache(maxsize=256)
def _noise_multiplier(epsilon: float, delta: float, iterations: int) -> float:
    """Smallest z (to 1e-6 relative) with accountant-ε(z) ≤ ε: the shipped value for the app's grids (computed by
    this very calibration, checked in tests), else by bisection in log z (:func:`_calibrate_noise_multiplier`)."""
    shipped = _shipped_noise_multipliers().get((float(epsilon), float(delta), int(iterations)))
    return shipped if shipped is not None else _calibrate_noise_multiplier(epsilon, delta, iterations)


def _calibrate_noise_multiplier(epsilon: float, delta: float, iterations: int) -> float:
    """Smallest z (to 1e-6 relative) with accountant-ε(z) ≤ ε, by bisection in log z.

    The bracket starts around the closed form z₀ = √J·σ_analytic(ε, δ) (only to save accountant calls);
    the accountant decides every step, and the upper end (ε ≤ target) is returned.
    """
    z0 = analytic_gaussian_sigma(epsilon=epsilon, delta=delta) * math.sqrt(iterations)
    lo, hi = z0 * (1.0 - 1e-3), z0 * (1.0 + 2e-3)
    while _pld_epsilon(lo, delta, iterations) <= epsilon:
        lo *= 0.95
    while _pld_epsilon(hi, delta, iterations) > epsilon:
        hi *= 1.05
    while hi / lo > 1.0 + 1e-6:
        mid = math.sqrt(lo * hi)
        if _pld_epsilon(mid, delta, iterations) > epsilon:
            lo = mid
        else:
            hi = mid
    return hi


def vips_sigma(*, epsilon, delta, iterations, clip_norm=1.0) -> float:
    """σ for (ε, δ)-DP of J iterations with per-iteration ℓ2 sensitivity B: σ = B·z, z calibrated by
    bisection on dp_accounting's PLD accountant (:func:`vips_epsilon` of the result is ≤ ε)."""
    epsilon = check_real("epsilon", epsilon, low=0.0, high=MAX_EPSILON)
    delta = check_delta(delta=delta)
    iterations = check_int("iterations", iterations, low=1, high=_MAX_ITERATIONS)
    clip_norm = check_real("clip_norm", clip_norm, low=0.0)
    return clip_norm * _noise_multiplier(epsilon, delta, iterations)


# --------------------------------------------------------------------------------------------------
# The start λ₀: seeded, or a fit on public data (never the private corpus)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class VipsStart:
    """The start λ₀ (K × V, positive) of VIPS-LDA's first E-step and where it comes from.

    ``source_hash`` is the content hash of the corpus λ₀ was fitted on ("" for a seeded start), so
    :func:`vips_lda` can refuse a start fitted on the corpus it trains on.
    """

    lam: np.ndarray
    words: tuple[str, ...]
    source: str
    source_hash: str = field(default="", repr=False)

    def __post_init__(self):
        lam = np.array(self.lam, dtype=np.float64)  # a private, read-only copy
        if lam.ndim != 2 or lam.shape[1] != len(self.words) or not np.all(lam > 0):
            raise UserError(f"start must be a positive K × {len(self.words)} array, got shape {lam.shape}")
        lam.setflags(write=False)
        object.__setattr__(self, "lam", lam)

    @property
    def n_topics(self) -> int:
        return int(self.lam.shape[0])

    @property
    def known_public(self) -> bool:
        """True for a seeded start (no data) or a fit on a shipped public split (as VipsVocabulary.known_public)."""
        return not self.source_hash or self.source_hash in shipped_public_hashes()


def seeded_start(vocabulary, *, n_topics: int = 10, init_seed: int = 0) -> VipsStart:
    """λ₀ ~ Γ(100, 0.01) entry-wise (scikit-learn's start) from ``init_seed`` alone: no data involved."""
    vocab = _as_vocabulary(vocabulary)
    n_topics = check_int("n_topics", n_topics, low=2, high=50)
    init_seed = check_int("init_seed", init_seed, low=0)
    shape = (n_topics, len(vocab.words))
    lam = np.random.default_rng([init_seed, *shape]).gamma(100.0, 0.01, shape)
    return VipsStart(lam=lam, words=vocab.words, source=f"seeded random (init_seed={init_seed})")


def public_start(
    public, *, vocabulary, n_topics: int = 10, iterations: int = PUBLIC_START_ITERATIONS, init_seed: int = 0
) -> VipsStart:
    """λ₀ = the non-private fit of the same model on a *public* corpus (the same E- and M-steps, no clip,
    no noise, ``iterations`` passes from :func:`seeded_start`). Costs the private users nothing: it
    reads no private data (the caller vouches that ``public`` is public, as for :func:`public_vocabulary`).

    Args:
      public: the public :class:`dpcore.Corpus` (or its :func:`person_counts` over ``vocabulary``).
      vocabulary, n_topics, init_seed: as for :func:`vips_lda` and :func:`seeded_start`.
      iterations: passes over the public corpus.
    """
    iterations = check_int("iterations", iterations, low=1, high=_MAX_ITERATIONS)
    seed = seeded_start(vocabulary, n_topics=n_topics, init_seed=init_seed)
    pc = _counts_over(public, _as_vocabulary(vocabulary), "public")
    lam = _fit(pc, seed.lam, iterations=iterations, clip_norm=None, sigma=0.0, rng=None)
    name = public.name if isinstance(public, Corpus) else "public counts"
    return VipsStart(
        lam=lam,
        words=seed.words,
        source=f"a fit on the public corpus '{name}' ({pc.n_users} people)",
        source_hash=pc.corpus_hash,
    )


# --------------------------------------------------------------------------------------------------
# The release
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class VipsRelease:
    """What VIPS-LDA publishes: the final released state and the settings that produced it.

    Nothing in it is an exact function of the private data: no user count, no corpus hash, no
    document–topic parameter (those stay inside :func:`vips_lda`).

    Attributes:
      topic_word: K × V, row k = topic k's distribution over ``words`` (λ_J normalised).
      prevalence: K, the row sums of λ_J (noisy expected tokens per topic, plus the prior).
      words: the public vocabulary.
      sigma: the per-entry noise standard deviation of each iteration (0 for the reference fit).
      clip_norm: B (None for the reference fit).
      iterations, n_topics: J and K.
      epsilon, delta: the budget (None for the reference fit).
      accountant: how σ was calibrated.
      vocabulary_source, start_source: where ``words`` and λ₀ come from.
      guarantee: (ε, δ)-DP per user for the whole release (no protection for the reference fit).
    """

    topic_word: np.ndarray
    prevalence: np.ndarray
    words: tuple[str, ...]
    sigma: float
    clip_norm: float | None
    iterations: int
    n_topics: int
    epsilon: float | None
    delta: float | None
    accountant: str
    vocabulary_source: str
    start_source: str
    guarantee: Guarantee

    def topic_model(self) -> TopicModel:
        """The release as a :class:`dpcore.topicdp.TopicModel` (for :func:`dpcore.topic_keyword_matrix`)."""
        settings = LdaSettings(engine="vb", n_topics=self.n_topics, max_iter=self.iterations)
        return TopicModel(topic_word=self.topic_word, prevalence=self.prevalence, words=self.words, settings=settings)

    def keywords(self, topic: int, n: int = 10) -> tuple[str, ...]:
        """Topic ``topic``'s n most probable words (post-processing of the release)."""
        topic = check_int("topic", topic, low=0, high=self.n_topics - 1)
        n = check_int("n", n, low=1, high=len(self.words))
        return tuple(self.words[i] for i in np.argsort(-self.topic_word[topic], kind="stable")[:n])


def vips_guarantee(
    epsilon: float,
    delta: float,
    *,
    iterations: int,
    clip_norm: float,
    vocabulary_source: str,
    start_source: str,
    unverified: str = "",
) -> Guarantee:
    """(ε, δ)-DP per user for the whole matrix: topics and keywords chosen from it are post-processing.

    ``unverified`` names the inputs dpcore cannot show to be public (a caller's vocabulary or start): then the
    guarantee is DP *if* they are public — conditional, orange, never green (issue 30 item 4)."""
    factor = f"e^ε ≈ {math.exp(epsilon):.3g}" if epsilon <= 50 else "e^ε"
    inputs = f"The vocabulary ({vocabulary_source}) and the start ({start_source})"
    promise = (
        f"Adding or removing one user's text (all of their documents) changes the probability of any "
        f"set of released topic–word matrices by at most a factor {factor}, plus δ = {delta:g}. "
        f"Each of the {iterations} iteration{'s' if iterations > 1 else ''} clips every user's expected "
        f"counts to ℓ2 norm {clip_norm:g} before Gaussian noise; the PLD accountant composes them. "
        + (
            f"{inputs} must read no private data: dpcore cannot check that for {unverified}, so this holds only "
            "if it shares no person with the private corpus (green is kept for a shipped public split)."
            if unverified
            else f"{inputs} read no private data."
        )
    )
    return approximate_dp(
        epsilon=epsilon,
        delta=delta,
        promise=promise,
        scope=("for the whole topic–word matrix: topics and keywords chosen from it are post-processing"),
        conditional_on=(
            f"{unverified} {'are' if ') and the start (' in unverified else 'is'} public — DP if this vocabulary is "
            "public"
            if unverified
            else ""
        ),
    )


def _unverified(vocab: VipsVocabulary, start: VipsStart) -> str:
    """The inputs not known to be public (empty when both come from a shipped public split or no data)."""
    parts = [f"the vocabulary ({vocab.source})"] if not vocab.known_public else []
    parts += [f"the start ({start.source})"] if not start.known_public else []
    return " and ".join(parts)


def _counts_over(corpus, vocab: VipsVocabulary, name: str) -> PersonCounts:
    if isinstance(corpus, PersonCounts):
        if corpus.words != vocab.words:
            raise UserError(
                f"{name} (PersonCounts) must be counted over the given vocabulary: build it with "
                "person_counts(corpus, vocabulary)"
            )
        return corpus
    if isinstance(corpus, Corpus):
        return person_counts(corpus, vocab)
    raise TypeError(f"{name} must be a dpcore Corpus or PersonCounts, got {name}={type(corpus).__name__}")


def _prepare(corpus, vocabulary, start, n_topics: int) -> tuple[PersonCounts, VipsVocabulary, VipsStart]:
    """The private counts, the vocabulary and the start, checked to be public and to fit together."""
    vocab = _as_vocabulary(vocabulary)
    pc = _counts_over(corpus, vocab, "corpus")
    if start is None:
        start = seeded_start(vocab, n_topics=n_topics)
    if not isinstance(start, VipsStart):
        raise TypeError(
            f"start must be a VipsStart (seeded_start or public_start) or None, got start={type(start).__name__}"
        )
    if start.words != vocab.words or start.n_topics != n_topics:
        raise UserError(
            f"start must be over the same vocabulary and n_topics={n_topics}, got "
            f"{start.n_topics} topics over {len(start.words)} words"
        )
    for what, h in (("vocabulary", vocab.source_hash), ("start", start.source_hash)):
        if h and h == pc.corpus_hash:
            raise UserError(
                f"{what} was built from the corpus being trained on: it must come from public data "
                "(e.g. load_real_corpus('chat', which='public'))"
            )
    return pc, vocab, start


def _release(lam: np.ndarray, **fields) -> VipsRelease:
    prevalence = lam.sum(axis=1)
    return VipsRelease(topic_word=lam / prevalence[:, None], prevalence=prevalence, **fields)


def vips_lda(
    corpus,
    *,
    n_topics: int = 10,
    epsilon,
    delta,
    clip_norm=DEFAULT_CLIP_NORM,
    iterations: int = DEFAULT_ITERATIONS,
    rng,
    vocabulary,
    start: VipsStart | None = None,
) -> VipsRelease:
    """VIPS-LDA (module docstring): J iterations of batch variational Bayes with each user's
    sufficient statistics clipped to ℓ2 norm B and Gaussian noise on their sum; (ε, δ)-DP per user.

    Args:
      corpus: the private :class:`dpcore.Corpus` (or its :func:`person_counts` over ``vocabulary``).
      n_topics: K.
      epsilon, delta: the budget for all J iterations together.
      clip_norm: B, the per-user ℓ2 bound of one iteration's K × V contribution.
      iterations: J.
      rng: numpy Generator or int seed (the noise).
      vocabulary: a :class:`VipsVocabulary` from :func:`public_vocabulary`, or a sequence of public words. The
        guarantee is green ((ε, δ)-DP) only for a vocabulary counted on a shipped public split
        (``load_real_corpus(..., which="public")``, ``load_sample_corpus("public")``); for any other — a caller's
        corpus or word list — it reads "DP if this vocabulary is public" (orange): the check that refuses a
        vocabulary of the training corpus itself is an exact hash and cannot see a corpus that shares people.
      start: λ₀ — :func:`public_start` (what the defaults were chosen for) or :func:`seeded_start`;
        ``None`` is ``seeded_start(vocabulary, n_topics=n_topics)``, which needs J ≈ 10 and still finds
        poor topics on the chat corpus (docs/SPEC_vips.md).

    Raises:
      ValueError: a parameter outside its range, or a vocabulary or start built from ``corpus`` itself.
    """
    n_topics = check_int("n_topics", n_topics, low=2, high=50)
    epsilon = check_real("epsilon", epsilon, low=0.0, high=MAX_EPSILON)
    delta = check_delta(delta=delta)
    clip_norm = check_real("clip_norm", clip_norm, low=0.0)
    iterations = check_int("iterations", iterations, low=1, high=_MAX_ITERATIONS)
    rng = check_rng(rng)
    pc, vocab, start = _prepare(corpus, vocabulary, start, n_topics)
    sigma = vips_sigma(epsilon=epsilon, delta=delta, iterations=iterations, clip_norm=clip_norm)
    lam = _fit(pc, start, iterations=iterations, clip_norm=clip_norm, sigma=sigma, rng=rng)
    guarantee = vips_guarantee(
        epsilon,
        delta,
        iterations=iterations,
        clip_norm=clip_norm,
        vocabulary_source=vocab.source,
        start_source=start.source,
        unverified=_unverified(vocab, start),
    )
    return _release(
        lam,
        words=vocab.words,
        sigma=sigma,
        clip_norm=clip_norm,
        iterations=iterations,
        n_topics=n_topics,
        epsilon=epsilon,
        delta=delta,
        accountant=VIPS_ACCOUNTANT,
        vocabulary_source=vocab.source,
        start_source=start.source,
        guarantee=guarantee,
    )


def vips_reference_fit(
    corpus, *, n_topics: int = 10, iterations: int = REFERENCE_ITERATIONS, vocabulary, start: VipsStart | None = None
) -> VipsRelease:
    """The non-private fit of the same model: the same vocabulary, start and E- and M-steps with no clip
    and no noise, run to convergence (``iterations``; 50 and 100 passes differ by L1 0.3 on the chat
    corpus' 10 × 10 table). What :func:`vips_lda`'s errors are measured against. Not private."""
    n_topics = check_int("n_topics", n_topics, low=2, high=50)
    iterations = check_int("iterations", iterations, low=1, high=_MAX_ITERATIONS)
    pc, vocab, start = _prepare(corpus, vocabulary, start, n_topics)
    lam = _fit(pc, start, iterations=iterations, clip_norm=None, sigma=0.0, rng=None)
    return _release(
        lam,
        words=vocab.words,
        sigma=0.0,
        clip_norm=None,
        iterations=iterations,
        n_topics=n_topics,
        epsilon=None,
        delta=None,
        accountant="none (not private)",
        vocabulary_source=vocab.source,
        start_source=start.source,
        guarantee=no_protection(
            promise="The non-private fit: the same model without clipping or "
            "noise, computed from the private data itself."
        ),
    )
