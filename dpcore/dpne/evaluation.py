"""Evaluation only (computed from the private corpus, never part of a release): k-anonymity coverage of a
release and the pruning chain that explains why DPNE finds or misses the popular k-grams."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np

from ..errors import UserError
from ..text.ngrams import NgramIndex
from ..validation import check_int, check_sequence
from .accounting import DEFAULT_K_VALUES, EVALUATION_ONLY, KANONYMITY_LABEL, dpsu_threshold
from .results import DpneRelease, DpsuBaselineRelease

__all__ = [
    "KAnonymityReference",
    "kanonymity_reference",
    "PruningChain",
    "pruning_chain",
    "kanonymity_coverage",
    "KAnonymityCoverage",
]


# --------------------------------------------------------------------------------------------------
# k-anonymity coverage (evaluation only)
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class KAnonymityCoverage:
    """For each length k and K: how many k-grams are used by at least K users (the K-anonymous set,
    ``KANONYMITY_LABEL``: a reference, not DP) and the share of them the release contains.

    ``rows`` is a list of dicts with keys k, K, frequent, covered, share (share is NaN when no k-gram
    reaches K users). Evaluation only: it reads the private corpus.
    """

    rows: list
    ks: tuple
    label: str = EVALUATION_ONLY
    reference_label: str = KANONYMITY_LABEL

    def share(self, k: int, K: int) -> float:
        for r in self.rows:
            if r["k"] == k and r["K"] == K:
                return r["share"]
        raise KeyError(f"no coverage row for k={k}, K={K}")


def _released_id_rows(index: NgramIndex, released) -> dict:
    """k → ``(n, k)`` token-id rows over ``index.corpus`` for a release, a mapping of string k-grams or a
    mapping of id rows. String k-grams with a token the corpus does not hold cannot be in it: dropped."""
    if isinstance(released, (DpneRelease, DpsuBaselineRelease)):
        released = released.ngrams
    if not isinstance(released, Mapping):
        raise TypeError(
            "released must be a DpneRelease, a DpsuBaselineRelease or a mapping k → released k-grams, "
            f"got released={released!r} ({type(released).__name__})"
        )
    lookup = None
    out = {}
    for k, grams in released.items():
        k = check_int("released length", k, low=1)
        if isinstance(grams, np.ndarray) and grams.dtype.kind in "iu":
            out[k] = grams.reshape(-1, k)
            continue
        if lookup is None:
            lookup = {w: i for i, w in enumerate(index.corpus.vocabulary.tolist())}
        rows = [
            [lookup[w] for w in g] for g in grams if len(g) == k and all(isinstance(w, str) and w in lookup for w in g)
        ]
        out[k] = np.asarray(rows, dtype=np.int64).reshape(-1, k)
    return out


@dataclass(frozen=True, eq=False)
class KAnonymityReference:
    """The k-grams used by at least ``min_K`` users, per length k = 1..max_length: their token-id rows and user
    counts (:func:`kanonymity_reference`). No release enters it, so a page computes it once per corpus and K and
    :func:`kanonymity_coverage` then only matches a release against these rows. Evaluation only."""

    index: NgramIndex
    min_K: int
    max_length: int
    rows: dict  # k -> (n, k) int64 token ids
    user_counts: dict  # k -> (n,) users of each row


def kanonymity_reference(index: NgramIndex, *, min_K: int, max_length: int | None = None) -> KAnonymityReference:
    """The K-anonymous reference sets of :func:`kanonymity_coverage` for every K ≥ ``min_K`` (evaluation only)."""
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    min_K = check_int("min_K", min_K, low=1)
    T = index.max_length if max_length is None else check_int("max_length", max_length, low=1, high=index.max_length)
    rows, counts = {}, {}
    for k in range(1, T + 1):
        lev = index.level(k)
        ids = np.flatnonzero(lev.user_counts >= min_K)
        rows[k] = np.ascontiguousarray(lev.rows(ids), dtype=np.int64).reshape(-1, k)
        counts[k] = np.asarray(lev.user_counts)[ids]
    return KAnonymityReference(index, min_K, T, rows, counts)


def _row_keys(rows: np.ndarray) -> np.ndarray:
    """Each token-id row as one opaque value (equal rows, equal values), for set membership."""
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    return rows.view(np.dtype((np.void, 8 * rows.shape[1]))).ravel()


def kanonymity_coverage(
    index: NgramIndex, released, *, ks=DEFAULT_K_VALUES, max_length: int | None = None, reference=None
) -> KAnonymityCoverage:
    """Share of the k-grams used by **at least** K users that ``released`` contains (003 Fig. 4 right).

    Args:
      index: the corpus' :class:`NgramIndex`.
      released: a :class:`DpneRelease` or :class:`DpsuBaselineRelease`, a mapping k → string k-grams, or
        a mapping k → ``(n, k)`` token-id rows over ``index.corpus`` (e.g. ``DpneEvaluation.ids``, when
        the run and the index share one :class:`TokenCorpus`).
      ks: the thresholds K (integers ≥ 1). The reference code counts "more than K"; we say "at least".
      max_length: report lengths 1..max_length (default: all lengths of the index).
      reference: optional :class:`KAnonymityReference` of this index (``min_K`` ≤ every K, up to ``max_length``):
        the release is then matched against its rows only (the same numbers; a page caches the reference).
    """
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    released_ids = _released_id_rows(index, released)
    ks = tuple(check_int(f"ks[{i}]", K, low=1) for i, K in enumerate(check_sequence("ks", ks)))
    if not ks:
        raise UserError("ks must hold at least one K, got an empty sequence")
    T = index.max_length if max_length is None else check_int("max_length", max_length, low=1, high=index.max_length)
    if reference is not None:
        if not isinstance(reference, KAnonymityReference) or reference.index is not index:
            raise UserError("reference must be kanonymity_reference(index, ...) of this index")
        if reference.min_K > min(ks) or reference.max_length < T:
            raise UserError(
                f"reference must cover K ≥ {min(ks)} and lengths up to {T}, got min_K={reference.min_K}, "
                f"max_length={reference.max_length}"
            )
        return _coverage_from_reference(reference, released_ids, ks, T)
    rows = []
    for k in range(1, T + 1):
        lev = index.level(k)
        rel = np.asarray(released_ids.get(k, np.zeros((0, k), dtype=np.int32))).reshape(-1, k)
        covered_mask = np.zeros(lev.n_grams, dtype=bool)
        if rel.shape[0]:
            found = index.lookup(rel)
            covered_mask[found[found >= 0]] = True
        for K in ks:
            freq = lev.user_counts >= K
            n_freq = int(freq.sum())
            n_cov = int((freq & covered_mask).sum())
            rows.append(
                {
                    "k": k,
                    "K": K,
                    "frequent": n_freq,
                    "covered": n_cov,
                    "share": (n_cov / n_freq) if n_freq else float("nan"),
                }
            )
    return KAnonymityCoverage(rows=rows, ks=ks)


def _coverage_from_reference(ref: KAnonymityReference, released_ids: dict, ks: tuple, T: int) -> KAnonymityCoverage:
    rows = []
    for k in range(1, T + 1):
        rel = np.asarray(released_ids.get(k, np.zeros((0, k), dtype=np.int64))).reshape(-1, k)
        counts = ref.user_counts[k]
        covered = np.isin(_row_keys(ref.rows[k]), _row_keys(rel)) if rel.shape[0] and counts.size else counts > counts
        for K in ks:
            freq = counts >= K
            n_freq, n_cov = int(freq.sum()), int((freq & covered).sum())
            rows.append(
                {
                    "k": k,
                    "K": K,
                    "frequent": n_freq,
                    "covered": n_cov,
                    "share": (n_cov / n_freq) if n_freq else float("nan"),
                }
            )
    return KAnonymityCoverage(rows=rows, ks=ks)


@dataclass(frozen=True)
class PruningChain:
    """Why DPNE releases (or misses) the k-grams used by at least ``K`` users, length by length.

    ``rows``: one dict per length k = 1..(last length the release reached) with

    * ``popular``: how many k-grams at least K users use;
    * ``valid``: the share of them that are candidates at length k (k = 1: all; k ≥ 2: both (k−1)-gram
      halves were released, or the prefix alone under single-side pruning) — a popular k-gram that is not a
      candidate cannot be released, whatever its count;
    * ``released``: the share of them that DPNE released (DPNE's coverage, 003 Fig. 4);
    * ``threshold_dpne`` ρ_k and ``threshold_single`` ρ of DPSU-single (the whole budget on length k);
    * ``weight_dpne``: the median expected weighted count H_k of the popular *candidates* under DPNE (each user
      keeps a uniform Δ0 of their candidates at length k, weight 1/√kept), ``weight_single``: the median
      expected count of the popular k-grams under DPSU-single (a uniform Δ0 of all of the user's k-grams),
      and ``gain``: the median ratio of the two over the popular candidates (how much pruning raises a
      candidate's count).

    Expected counts, no noise: for a user with n distinct items of which the policy may keep Δ0, an item's
    expected weight is min(1, Δ0/n)/√min(n, Δ0) (uniform selection, weighted Gaussian policy). Evaluation only.
    """

    rows: list
    K: int
    label: str = EVALUATION_ONLY


def _expected_weights(pair_user: np.ndarray, keep: np.ndarray, n_users: int, limit: int) -> np.ndarray:
    """Each kept pair's expected weight when a user keeps a uniform ``limit`` of their kept pairs, 1/√kept each."""
    n = np.bincount(pair_user[keep], minlength=n_users).astype(float)[pair_user]
    return np.where(
        keep, np.minimum(1.0, limit / np.maximum(n, 1.0)) / np.sqrt(np.maximum(np.minimum(n, limit), 1.0)), 0.0
    )


def pruning_chain(index: NgramIndex, release: DpneRelease, *, K: int = 100, lengths=None) -> PruningChain:
    """:class:`PruningChain` of a DPNE ``release`` on the corpus of ``index`` (selection "random", policy
    "weighted": the expected counts assume both).

    Args:
      index: the corpus' :class:`NgramIndex` (max_length at least the release's longest length).
      release: a :class:`DpneRelease` of that corpus.
      K: the popularity threshold (003 Fig. 4: K = 100).
      lengths: the lengths to report (default: every length the release reached); the others are only walked
        through (their released sets decide the next length's candidates), which saves the weights' cost.
    """
    if not isinstance(index, NgramIndex):
        raise TypeError(f"index must be an NgramIndex (see build_ngram_index), got {type(index).__name__}")
    if not isinstance(release, DpneRelease):
        raise TypeError(f"release must be a DpneRelease, got {type(release).__name__}")
    if release.selection != "random" or release.policy != "weighted":
        raise UserError(
            "pruning_chain's expected counts assume selection='random' and policy='weighted', got "
            f"selection={release.selection!r}, policy={release.policy!r}"
        )
    K = check_int("K", K, low=1)
    ids = _released_id_rows(index, release)
    limit = release.contribution_limit
    _, rho_single = dpsu_threshold(epsilon=release.epsilon, delta=release.delta, contribution_limit=limit)
    n_users = index.corpus.n_users
    reached = sorted(k for k in release.thresholds if k <= index.max_length)
    report = set(reached if lengths is None else (int(k) for k in lengths))
    in_prev: np.ndarray | None = None
    rows = []
    for k in reached:
        lev = index.level(k)
        released = np.zeros(lev.n_grams, dtype=bool)
        rel = np.asarray(ids.get(k, np.zeros((0, k), dtype=np.int64))).reshape(-1, k)
        if rel.shape[0]:
            found = index.lookup(rel)
            released[found[found >= 0]] = True
        if k not in report:
            in_prev = released
            continue
        if k == 1:
            valid = np.ones(lev.n_grams, dtype=bool)
        else:
            prev = cast(np.ndarray, in_prev)  # S_{k−1}'s mask: the lengths reached run 1, 2, …, so k − 1 came first
            valid = prev[lev.prefix]
            candidates = np.flatnonzero(valid)  # the suffix is looked up for the prefix-valid k-grams only
            if release.pruning == "both" and candidates.size:
                suffix = index.lookup(lev.rows(candidates)[:, 1:])
                valid[candidates] = (suffix >= 0) & prev[np.maximum(suffix, 0)]
        pu, pg = lev.pair_user, lev.pair_gram
        h_dpne = np.bincount(pg, weights=_expected_weights(pu, valid[pg], n_users, limit), minlength=lev.n_grams)
        h_single = np.bincount(
            pg, weights=_expected_weights(pu, np.ones(pu.size, dtype=bool), n_users, limit), minlength=lev.n_grams
        )
        popular = lev.user_counts >= K
        pv = popular & valid
        n_pop = int(popular.sum())

        def median(x):
            return float(np.median(x)) if x.size else float("nan")

        rows.append(
            {
                "k": k,
                "popular": n_pop,
                "valid": float(pv.sum() / n_pop) if n_pop else float("nan"),
                "released": float((popular & released).sum() / n_pop) if n_pop else float("nan"),
                "threshold_dpne": float(release.thresholds[k]),
                "threshold_single": float(rho_single),
                "weight_dpne": median(h_dpne[pv]),
                "weight_single": median(h_single[popular]),
                "gain": median(h_dpne[pv] / h_single[pv]),
            }
        )
        in_prev = released
    return PruningChain(rows=rows, K=K)
