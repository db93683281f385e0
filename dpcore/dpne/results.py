"""What a DPNE/DPSU run returns: the released sets (public) and the evaluation-only diagnostics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..guarantees import Guarantee
from ..text.ngrams import TokenCorpus
from .accounting import EVALUATION_ONLY, dpne_guarantee

__all__ = [
    "DpneLevelDiagnostics",
    "DpneEvaluation",
    "DpneRelease",
    "DpneRun",
    "DpsuBaselineRelease",
]


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DpneLevelDiagnostics:
    """One length of a DPNE run. The fields marked (E) are evaluation only: they use the private corpus.

    k, previous_size |S_{k−1}|, valid_count |V_k|, sigma σ_k, threshold ρ_k, released |S_k| and
    spurious_bound η·min(|S_{k−1}|, |V_k|) are functions of the release and may be shown freely.
    """

    k: int
    previous_size: int | None
    valid_count: int | None
    sigma: float
    threshold: float
    released: int
    spurious_bound: float | None
    supported: int  # (E) |supp H_k|: valid k-grams with positive weight after the contribution limit
    used_valid: int  # (E) valid k-grams used by at least one user
    kept_from_histogram: int  # (E) released k-grams with positive weight
    sampled_zero_weight: int  # (E) B_k: released k-grams drawn among zero-weight valid k-grams
    spurious: int  # (E) released k-grams used by no user

    @property
    def spurious_share(self) -> float:
        return self.spurious / self.released if self.released else 0.0


@dataclass(frozen=True, eq=False)
class DpneEvaluation:
    """Evaluation-only companion of a :class:`DpneRelease` (it reads the private corpus; never publish it).

    Holds everything a run knows that is not the release: the encoder (``corpus``, whose
    ``vocabulary`` lists *every* private token, released or not), the released sets as token-id rows
    over that vocabulary (``ids``, for :func:`kanonymity_coverage` and fast set tests), the released
    k-grams no user wrote (``spurious_ids``) and the per-length diagnostics (``levels``).
    """

    levels: tuple[DpneLevelDiagnostics, ...]
    spurious_ids: dict = field(repr=False)  # k -> (n, k) token ids of released k-grams used by nobody
    ids: dict = field(repr=False, default_factory=dict)  # k -> (n, k) token ids of the released k-grams
    corpus: TokenCorpus | None = field(repr=False, default=None)  # the encoder (private vocabulary)
    label: str = EVALUATION_ONLY

    @property
    def vocabulary(self) -> np.ndarray:
        """Token id → string for every token of the private corpus (evaluation only)."""
        return self.corpus.vocabulary if self.corpus is not None else np.zeros(0, dtype=object)

    def spurious_ngrams(self) -> dict[int, set[tuple[str, ...]]]:
        """k → the released k-grams that no user wrote, as string tuples."""
        return {k: _decode_rows(self.vocabulary, rows) for k, rows in self.spurious_ids.items()}

    def spurious_by_length(self) -> dict[int, int]:
        return {d.k: d.spurious for d in self.levels}

    def spurious_share_by_length(self) -> dict[int, float]:
        return {d.k: d.spurious_share for d in self.levels}

    @property
    def total_spurious(self) -> int:
        return sum(d.spurious for d in self.levels)


def _decode_rows(vocabulary: np.ndarray, rows: np.ndarray) -> set[tuple[str, ...]]:
    rows = np.asarray(rows)
    return {tuple(r) for r in vocabulary[rows].tolist()} if rows.size else set()


def _released_sets(vocabulary: np.ndarray, ids: dict) -> dict[int, frozenset]:
    """k → frozenset of the released k-grams as k-tuples of strings.

    Only the released rows are decoded, so nothing of the vocabulary beyond the released tokens is kept.
    Built in sorted order: the token ids follow the private corpus' first-seen order, which the
    release must not carry either.
    """
    out = {}
    for k, rows in ids.items():
        grams = sorted(_decode_rows(vocabulary, rows))
        out[k] = frozenset(grams)
    return out


class _ReleasedSets:
    """Accessors shared by every set release: ``ngrams`` maps k → frozenset of k-tuples of strings."""

    ngrams: dict  # a field of each subclass (this base is not a dataclass: the annotation adds no field)

    @property
    def sizes(self) -> dict[int, int]:
        return {k: len(grams) for k, grams in self.ngrams.items()}

    @property
    def total(self) -> int:
        return sum(self.sizes.values())

    def sorted_ngrams(self, k: int) -> list[tuple[str, ...]]:
        """The released k-grams in lexicographic order (for display)."""
        return sorted(self.ngrams.get(k, ()))


@dataclass(frozen=True, eq=False)
class DpneRelease(_ReleasedSets):
    """The output of :func:`dpne`: the sets S_1..S_T (never counts) and the public parameters — nothing else.

    ``ngrams`` maps k → frozenset of the released k-grams as k-tuples of strings. ``sigmas``/
    ``thresholds``/``valid_counts`` map k → σ_k, ρ_k, |V_k| (thresholds and |V_k| only for the lengths
    reached before the early stop; |V_1| is not defined); they are functions of (ε, δ, T, Δ0, η, c) and
    of the released sets, so they may be published with them. The release holds no encoder, no
    vocabulary, no token ids, no weights or counts and no diagnostics: those are in the
    :class:`DpneEvaluation` that :func:`dpne_with_evaluation` returns beside it.
    """

    ngrams: dict = field(repr=False)
    sigma: float
    sigmas: dict
    thresholds: dict
    valid_counts: dict
    epsilon: float
    delta: float
    max_length: int
    contribution_limit: int
    eta: float
    noise_decay: float
    pruning: str
    selection: str
    policy: str
    policy_cutoff: float
    guarantee: Guarantee = None  # type: ignore[assignment]  # None: the default, set by __post_init__

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", dpne_guarantee(epsilon=self.epsilon, delta=self.delta))


class DpneRun(NamedTuple):
    """What :func:`dpne_with_evaluation` returns: the publishable ``release`` and its ``evaluation``
    (private: encoder, token ids, diagnostics). Unpacks as ``release, evaluation = …``."""

    release: DpneRelease
    evaluation: DpneEvaluation


@dataclass(frozen=True, eq=False)
class DpsuBaselineRelease(_ReleasedSets):
    """A DPSU baseline (003 §3.1.2): sets per length, never counts, and nothing else of the corpus.

    ``ngrams`` maps k → frozenset of k-tuples of strings; ``sigmas``/``thresholds`` map k → the σ and ρ
    used for that length. For "DPSU-single" each length is a *separate* release spending the whole
    budget (so the lengths together are not one (ε, δ) release).
    """

    name: str
    ngrams: dict = field(repr=False)
    sigmas: dict
    thresholds: dict
    contribution_limit: int
    guarantee: Guarantee
