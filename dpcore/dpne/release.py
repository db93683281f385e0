"""Differentially private n-gram extraction: DPSU, DPNE and the DPSU baselines (paper 003, SPEC §4).

Neighbouring corpora differ by one *user*. Every mechanism here releases **sets** of n-grams only —
never counts: the weighted or raw counts are not differentially private.

* Accounting (003 Thm 2.1, Prop. 2.3): σ solves δ/2 = Φ(1/(2σ) − εσ) − e^ε·Φ(−1/(2σ) − εσ) (analytic
  Gaussian, :func:`dpcore.gaussian_sigma` with ``method="analytic"``); σ_k = σ_1·c^(k−1) with
  Σ_k 1/σ_k² = 1/σ²; ρ_1 = max_{1≤t≤Δ1} [1/√t + σ_1·Φ⁻¹((1 − δ/2)^(1/t))] (the whole max);
  ρ_k = σ_k·Φ⁻¹(1 − η·min(1, |S_{k−1}|/|V_k|)) for k ≥ 2.
* DPSU (Gopi et al. 2020, weighted Gaussian policy; 003 App. B): each user keeps at most Δ of their
  distinct items (random, or most frequent), adds 1/√|U_i| to each; release u iff H[u] + N(0, σ²) > ρ.
* DPNE (003 Algorithm 1 with the scalable implicit histogram of §2 "Scaling up DPNE"): 1-grams by DPSU,
  then for k ≥ 2 only valid k-grams V_k (both sides: (S_{k−1}×S_1) ∩ (S_1×S_{k−1}); single side:
  S_{k−1}×S_1) enter the histogram. Valid k-grams with zero weight are never enumerated: B_k ~
  Binomial(|V_k| − |supp H_k|, 1 − Φ(ρ_k/σ_k)) of them are added, drawn uniformly from
  V_k \\ supp(H_k) (every draw is itself a member of V_k, so it satisfies the pruning rule — the public
  reference code draws from S_{k−1}×S_1 without the both-sides check for k ≥ 3; we do not copy that).
  |V_k| is exact. Noise is drawn once per item. Stop at the first empty S_k.
* Baselines (003 §3.1.2): DPSU-all, DPSU-even, DPSU-single.
* Optional second DPSU policy (``policy="policy"``): the Policy Gaussian of Gopi et al. 2020 — users in
  random order move their kept items towards the cutoff Γ = ρ + α·σ (α = 2, as in the DPSU reference
  code) by an ℓ2 step ≤ 1; same σ and ρ (ℓ2 sensitivity 1), same guarantee; a Python loop over users.
* Release and evaluation are two objects. :func:`dpne` returns a :class:`DpneRelease` that holds the
  released sets as string tuples and the public parameters, nothing else; :func:`dpne_with_evaluation`
  returns it together with a :class:`DpneEvaluation` (the encoder and its private vocabulary, the token
  ids, the diagnostics). Evaluation only (needs the private corpus, never part of a release): which
  released k-grams are spurious (used by no user), histogram support sizes, k-anonymity coverage.

Readings where the paper or its code leave room (SPEC §4 decides where it speaks):

* Δ_1 = … = Δ_T = Δ0 (as in the paper's experiments). A user's k-grams are first pruned to V_k, then
  limited to Δ0 (Algorithm 1 order). "most-frequent" ranks by occurrences in the user's text, ties at
  random.
* "Spurious" in the diagnostics = released but used by no user (the paper's definition). Prop. 2.2
  bounds the zero-*weight* releases, a superset (valid k-grams a user wrote but dropped under the
  contribution limit also have weight 0), so the bound covers our count too.
* Zero-weight k-grams are drawn uniformly from V_k \\ supp(H_k) directly (both sides: a member of V_k
  is a pair of released (k−1)-grams that overlap in k−2 tokens), not from S_{k−1}×S_1 with rejection;
  the distribution is the same, the acceptance rate is higher, and the pruning rule holds by
  construction. Below 2·10⁶ valid k-grams V_k is enumerated and a subset drawn without replacement.
* |V_1| is not defined (the vocabulary is unbounded); no spurious 1-gram can be released. If |V_k| = 0
  the run stops. Users without any token count as users (they hold no k-gram).
* DPSU-even: σ_k = σ√T per length (SPEC §4); each threshold is a (0, δ/(2T)) part, so ρ_k uses δ/T in
  the ρ formula (whose δ/2 then becomes δ/(2T)) and the whole is (ε, δ)-DP. DPSU-all: contribution
  T·Δ0, one threshold with δ. DPSU-single: the whole (ε, δ) per length, each length its own release.
* k-anonymity coverage counts k-grams used by **at least** K users (the reference code: more than K).

Implementation: the corpus is a flat array of token ids (:class:`dpcore.text.TokenCorpus`). A released
k-gram is stored as the pair (index of its prefix in S_{k−1}, index of its suffix in S_{k−1}) — both
sides — or (prefix index, index of its last token in S_1) — single side; so a valid (k+1)-gram is a
pair of released k-grams that overlap, |V_{k+1}| is a sum of products of two bincounts, and a uniform
member of V_{k+1} is drawn in O(1). At level k only positions whose (k−1)-gram was released are visited,
and they are grouped per (user, k-gram) by a lookup table or a sort, never by Python objects.
Users are taken in shards of about 2^23 positions (cut between users) and only the per-k-gram weight
sums are merged, so the working memory stays near 20 bytes a token however large the corpus. Every
draw is keyed (:mod:`dpcore.mechanisms.keyed`; issue 12): an item's noise is a function of (seed, k, the item's
tokens), a user's kept subset of (seed, k, user key, items), the zero-weight draw of (seed, k) over
S_{k−1} sorted by key — so the shards, the visiting order and the engine (:mod:`dpcore.dpne.spark_engine`)
do not change the release.
Measured (benchmarks/bench_dpne.py, 2 CPUs shared with other jobs): T = 10 on 10,000 generated users
0.18–0.27 s (encoding + DPNE); on 1,000,000 users (35.5 M tokens) 55 s at moderate load (encoding 11 s +
DPNE 44 s) and up to ~2 min under heavy load; peak RSS 6.3 GB, most of it the corpus as Python lists.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import cast
import numpy as np
from ..mechanisms.keyed import fold_keys
from ..text.ngrams import TokenCorpus
from .accounting import (
    _spurious_probability,
    dpne_noise_scales,
    dpsu_threshold_for_sigma,
    spurious_threshold,
)
from .levels import alive_positions, next_position_parts, release_level, canonical_unigrams, unigram_release
from .selection import (
    _LevelHistogram,
    _keyed_seed,
    _level_histogram,
    dpne_level_seed,
    dpne_release_seed,
    dpne_selection_seed,
)
from .unigram import (  # noqa: F401 (_check_dpne: re-exported for dpcore.specs.dpne)
    SELECTION_KEYS,
    _check_dpne,
    _check_eta,
    _check_selection_key,
    _check_unigram,
)
from .results import DpneEvaluation, DpneLevelDiagnostics, DpneRelease, DpneRun, _released_sets
from .space import _ValidSpace, _as_token_corpus
from .shards import _concat, _shard_bounds

__all__ = [
    "DpnePlan",
    "prepare_dpne",
    "dpne_extract",
    "dpne_with_evaluation",
]


_SHARD_POSITIONS = 1 << 23  # positions per shard of users (bounded working memory); tests set it small
_KEEP_POSITIONS = 1 << 26  # up to this many alive positions, a level keeps its candidate positions for its


def dpne_extract(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    eta,
    noise_decay=1.0,
    pruning="both",
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
    selection_key="selection",
    selection_rng=None,
) -> DpneRelease:
    """Differentially private n-gram extraction: the release only (see :func:`dpne_with_evaluation`).

    Same arguments and the same draw as :func:`dpne_with_evaluation`; returns its ``release``, which
    holds the released sets and the public parameters and nothing else of the corpus.
    """
    return dpne_with_evaluation(
        users,
        epsilon=epsilon,
        delta=delta,
        max_length=max_length,
        contribution_limit=contribution_limit,
        eta=eta,
        noise_decay=noise_decay,
        pruning=pruning,
        rng=rng,
        selection=selection,
        policy=policy,
        policy_cutoff=policy_cutoff,
        selection_key=selection_key,
        selection_rng=selection_rng,
    ).release


def dpne_with_evaluation(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    eta,
    noise_decay=1.0,
    pruning="both",
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
    selection_key="selection",
    selection_rng=None,
) -> DpneRun:
    """Differentially private n-gram extraction (003 Algorithm 1, scalable version of §2).

    Args:
      users: one item per user, each a sequence of sentences, each a list of string tokens (e.g.
        ``Corpus.user_sentences()``); a :class:`dpcore.Corpus`, a :class:`TokenCorpus` or an
        :class:`NgramIndex` are accepted too (so a page can cache the encoding).
      epsilon, delta: the total budget; the release is (ε, δ)-DP per user (003 Thm 2.1).
      max_length: T, the longest n-gram length.
      contribution_limit: Δ0 = Δ_1 = … = Δ_T, the most items a user contributes per length.
      eta: η ∈ (0, 1), the tolerated fraction of spurious k-grams (sets ρ_k; does not affect privacy).
      noise_decay: c > 0, σ_k = σ_1·c^(k−1).
      pruning: "both" (default, (S_{k−1}×S_1) ∩ (S_1×S_{k−1})) or "single" (S_{k−1}×S_1).
      rng: an int seed or a ``numpy.random.Generator`` (which then gives a 63-bit seed). Every draw is
        keyed (:mod:`dpcore.mechanisms.keyed`): an item's noise is a function of (key, k, the item's tokens), a
        user's kept subset of (key, k, user id, items), the zero-weight k-grams of (key, k) over
        the key-sorted S_{k−1} — so the Spark engine releases the same sets for the same int seed. The
        key is derived from the seed *and every parameter that changes the release*
        (:func:`dpne_release_seed`; η too from the length where the histograms depend on it,
        :func:`dpne_level_seed`), so two releases with other parameters draw independent noise (with
        the bare seed, S₁(ε = 1) ⊆ S₁(ε = 2) held in every run). **A seed must not be reused for
        another release** of the same data in any other way; as with any seeded generator, the
        guarantee assumes the seed is secret.
      selection: "random" (default: a uniform subset of Δ0 valid k-grams per user) or "most-frequent".
      policy: the DPSU update policy at every length: "weighted" (weighted Gaussian, 1/√|U_i| per item,
        as in the paper) or "policy" (Policy Gaussian, Gopi et al. 2020: users in random order push
        their items towards the cutoff Γ_k = ρ_k + policy_cutoff·σ_k). Both have ℓ2 sensitivity 1, so
        σ_k and ρ_k are the same.
      policy_cutoff: α ≥ 0 in Γ = ρ + α·σ (Policy Gaussian only; the DPSU reference code uses 2 by default).
      selection_key: what keys the selection draws (which Δ0 items a user keeps, the Policy Gaussian's
        order): "selection" (default) = :func:`dpne_selection_seed` of the seed, Δ0 and the rule only, so
        releases at other ε, δ, T, c or η keep the same data-independent selection and draw new noise
        (issue 29; each user's contribution still has ℓ2 norm ≤ 1, so the guarantee is unchanged);
        "release" = the noise's key, as before DpneSpec version 2 (old exports replay with it).
      selection_rng: an int seed or a Generator for the selection's key (with ``selection_key="selection"``):
        salt it with what the selection depends on (:class:`dpcore.specs.DpneSpec` does); default ``rng``.

    Returns:
      :class:`DpneRun` ``(release, evaluation)``: the :class:`DpneRelease` (the sets S_1..S_T as string
      tuples and the public parameters — the only part that may be published) and the
      :class:`DpneEvaluation` (encoder, token ids, diagnostics: evaluation only).

    Raises:
      TypeError / ValueError: a parameter of the wrong kind or out of range.
    """
    checked = _check_dpne(
        epsilon, delta, max_length, contribution_limit, noise_decay, pruning, selection, policy, policy_cutoff, eta=eta
    )
    key = _check_selection_key(selection_key)
    return _prepare_dpne(users, rng, *checked[:-1], selection_key=key, selection_rng=selection_rng).run(checked[-1])


def prepare_dpne(
    users,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    noise_decay=1.0,
    pruning="both",
    rng,
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
    selection_key="selection",
    selection_rng=None,
    unigram=None,
) -> "DpnePlan":
    """Everything of a DPNE run that does not depend on η, computed once: ``plan.run(eta)`` then equals
    ``dpne_with_evaluation(users, eta=eta, …)`` with the same arguments, bit for bit, for any η.

    η only sets the thresholds ρ_k of the lengths k ≥ 2 (SPEC §4). What comes before the first of them does
    not depend on it: the 1-gram release S_1 and, with the weighted Gaussian policy, the whole length-2
    histogram and its keyed noise (its candidates S_1 × S_1 depend on S_1 alone). On the 100,000-user sample
    these are ~90 % of a run's time, so a page that moves η reruns only the rest. (With the Policy Gaussian
    the length-2 histogram depends on ρ_2 through its cutoff, so only S_1 is kept.)

    Same arguments as :func:`dpne_with_evaluation` except ``eta``, and ``unigram``: a
    :class:`dpcore.dpne.unigram.DpneUnigram` of the same users, Δ0 and rule (:func:`prepare_dpne_unigram`, from the
    selection generator) — length 1's histogram before noise, which no ε depends on; it replaces ``selection_rng``
    and only the noise is then drawn at length 1. The plan holds the encoded corpus and private intermediate
    counts: evaluation only, never publish it.
    """
    return _prepare_dpne(
        users,
        rng,
        *_check_dpne(
            epsilon, delta, max_length, contribution_limit, noise_decay, pruning, selection, policy, policy_cutoff
        ),
        selection_key=_check_selection_key(selection_key),
        selection_rng=selection_rng,
        unigram=unigram,
    )


def _plan_seeds(bare, selection_rng, unigram, params) -> tuple[int, int]:
    """(the noise's key, the selection's key): every parameter but η keys the noise of lengths 1 and 2 (η joins
    the key from where the histograms depend on it); the selection is keyed by what it depends on
    (dpne_selection_seed), or like the noise (version 1)."""
    sel = bare if selection_rng is None else _keyed_seed(selection_rng)
    select_seed = dpne_selection_seed(
        sel, contribution_limit=params["contribution_limit"], selection=params["selection"]
    )
    select_seed = select_seed if unigram is None else unigram.select_seed
    return dpne_release_seed(bare, **params), select_seed


def _prepare_dpne(
    users,
    rng,
    epsilon,
    delta,
    max_length,
    limit,
    noise_decay,
    pruning,
    selection,
    policy,
    policy_cutoff,
    *,
    selection_key="selection",
    selection_rng=None,
    unigram=None,
) -> "DpnePlan":
    bare = _keyed_seed(rng)
    tc = _as_token_corpus(users)
    if unigram is not None:
        unigram = _check_unigram(unigram, tc, limit, selection, policy, selection_key)
    params = dict(
        epsilon=epsilon,
        delta=delta,
        max_length=max_length,
        contribution_limit=limit,
        noise_decay=noise_decay,
        pruning=pruning,
        selection=selection,
        policy=policy,
        policy_cutoff=policy_cutoff,
    )
    seed, select_seed = _plan_seeds(bare, selection_rng, unigram, params)
    sigma, sigmas = dpne_noise_scales(epsilon=epsilon, delta=delta, max_length=max_length, noise_decay=noise_decay)
    rho1 = dpsu_threshold_for_sigma(sigma=sigmas[0], delta=delta, contribution_limit=limit)

    # ---- k = 1: DPSU over tokens -----------------------------------------------------------------
    shard = _SHARD_POSITIONS if policy == "weighted" else None
    user_start = np.searchsorted(tc.user_of, np.arange(tc.n_users + 1)) if shard else None
    key1 = fold_keys(None, tc.token_key_array)  # the 1-gram keys
    select1 = seed if selection_key == "release" else select_seed
    released1, support1 = unigram_release(
        tc, key1, params, seed=seed, select_seed=select1, sigma=sigmas[0], threshold=rho1, unigram=unigram, shard=shard
    )
    s1_tokens, token_rel, diag1 = canonical_unigrams(
        released1, support1, key1, tc.vocabulary_size, sigma=sigmas[0], threshold=rho1
    )
    state = dict(
        seed=seed,
        select_seed=None if selection_key == "release" else select_seed,  # None: the level's noise key (version 1)
        tok_key=tc.token_key_array,  # stable key of every token id
        user_key=tc.user_key_array,
        s1_tokens=s1_tokens,
        s1_size=int(s1_tokens.size),
        token_rel=token_rel,
        prev_keys=key1[s1_tokens],
        user_start=user_start,
        shard=shard,
        limit=limit,
        selection=selection,
        pruning=pruning,
        pos_dtype=np.int32 if tc.n_tokens < 2**31 else np.int64,  # 4 bytes a position where they fit
    )
    pos, rel = _alive_positions(tc, state)
    level2 = _weighted_level2(tc, pos, rel, state, max_length=max_length, policy=policy, sigma_2=sigmas[1:2])
    return DpnePlan(
        tc=tc,
        state=state,
        pos=pos,
        rel=rel,
        level2=level2,
        diag1=diag1,
        sigma=float(sigma),
        sigmas=tuple(float(x) for x in sigmas),
        rho1=rho1,
        params=params,
    )


def _alive_positions(tc, state) -> tuple[np.ndarray, np.ndarray]:
    """The alive positions (their 1-gram released) and the index in S_1 of the token there, shard by shard."""
    shard, user_start = state["shard"], state["user_start"]
    # user_start is set when shard is
    bounds = _shard_bounds(None, tc, cast(np.ndarray, user_start), shard) if shard else [(0, tc.n_tokens)]
    return alive_positions(tc, state["token_rel"], bounds, state["pos_dtype"])


def _weighted_level2(tc, pos, rel, state, *, max_length, policy, sigma_2) -> _LevelHistogram | None:
    """With the weighted Gaussian, length 2's histogram and its keyed noise: its candidates S_1 × S_1 depend on S_1
    alone, so it is computed once for every η (None otherwise)."""
    m = state["s1_size"]
    if max_length < 2 or not m or policy != "weighted":
        return None
    space = _ValidSpace(state["pruning"], m, m, None, None, 0)
    if not space.size:
        return None
    return _level_histogram(
        tc,
        pos,
        rel,
        2,
        st={**state, "select_seed": state["seed"] if state["select_seed"] is None else state["select_seed"]},
        m=m,
        space=space,
        sigma_k=float(sigma_2[0]),
        policy_gamma=None,
        keep_positions=True,
    )


@dataclass(frozen=True, eq=False)
class DpnePlan:
    """The part of a DPNE run that does not depend on η (:func:`prepare_dpne`); ``run(eta)`` finishes it.

    Evaluation only: it holds the encoded private corpus and intermediate counts. Its arrays are never
    modified by ``run``, so one plan serves any number of runs (a page caches it and redraws on an η move).
    """

    tc: TokenCorpus = field(repr=False)
    state: dict = field(repr=False)
    pos: np.ndarray = field(repr=False)
    rel: np.ndarray = field(repr=False)
    level2: _LevelHistogram | None = field(repr=False)
    diag1: DpneLevelDiagnostics
    sigma: float
    sigmas: tuple
    rho1: float
    params: dict

    def run(self, eta) -> DpneRun:
        """``dpne_with_evaluation(…, eta=eta)`` with this plan's corpus, seed and other arguments."""
        eta = _check_eta(eta)
        s1_rows = self.state["s1_tokens"].reshape(-1, 1)
        levels = _Levels(
            thresholds={1: self.rho1},
            valid_counts={},
            ids={1: s1_rows},
            spurious_ids={1: np.zeros((0, 1), dtype=np.int32)},
            diags=[self.diag1],
        )
        front: _Frontier | None = _Frontier(self.pos, self.rel, self.state["prev_keys"], s1_rows)
        for k in range(2, self.params["max_length"] + 1):
            if front is None or front.prev_rows.shape[0] == 0:
                break
            front = self._level(k, eta, front, levels)
        return self._finish(eta, levels)

    def _level(self, k: int, eta: float, front: "_Frontier", levels: "_Levels") -> "_Frontier | None":
        """Release length k into ``levels``; the positions and S_k the next length reads (None: the run stops)."""
        st, p = self.state, self.params
        m = front.prev_rows.shape[0]
        space = _ValidSpace(p["pruning"], m, st["s1_size"], front.prev_a, front.prev_b, front.prev_prev_size)
        n_valid = space.size
        levels.valid_counts[k] = int(n_valid)
        sigma_k = float(self.sigmas[k - 1])
        if n_valid == 0:
            levels.thresholds[k] = math.inf
            levels.ids[k] = np.zeros((0, k), dtype=np.int32)
            levels.spurious_ids[k] = np.zeros((0, k), dtype=np.int32)
            levels.diags.append(DpneLevelDiagnostics(k, m, 0, sigma_k, math.inf, 0, 0.0, 0, 0, 0, 0, 0))
            return None
        p_zero = _spurious_probability(eta, m, n_valid)  # a zero-weight valid k-gram passes ρ_k with it
        rho_k = spurious_threshold(sigma_k, eta, m, n_valid)  # the one ρ_k of Spark, the CLI and the exercises
        levels.thresholds[k] = rho_k
        seed_k = dpne_level_seed(st["seed"], k, eta, p["policy"])
        lh = self._histogram(k, front, space, seed_k=seed_k, sigma_k=sigma_k, rho_k=rho_k)
        out = release_level(
            lh,
            space,
            k=k,
            eta=eta,
            sigma_k=sigma_k,
            rho_k=rho_k,
            p_zero=p_zero,
            seed_k=seed_k,
            state=st,
            prev_rows=front.prev_rows,
            prev_keys=front.prev_keys,
        )
        levels.ids[k] = out.rows
        levels.spurious_ids[k] = out.rows[out.spurious_mask]
        levels.diags.append(out.diagnostics)
        pos_parts, rel_parts = next_position_parts(self.tc, lh, out.item_rel, front.pos, front.rel, k=k, state=st)
        del lh
        pos, rel = _concat(pos_parts, st["pos_dtype"]), _concat(rel_parts, st["pos_dtype"])
        del pos_parts, rel_parts
        prev_a, prev_b = (out.a, out.b) if p["pruning"] == "both" else (None, None)
        return _Frontier(pos, rel, out.keys, out.rows, prev_a, prev_b, m)

    def _histogram(self, k: int, front: "_Frontier", space: _ValidSpace, *, seed_k, sigma_k, rho_k) -> _LevelHistogram:
        """Length k's weighted histogram and its keyed noise (length 2's from the plan when it kept it)."""
        if k == 2 and self.level2 is not None:
            return self.level2  # drawn with the η-independent key (weighted Gaussian)
        st, p = self.state, self.params
        return _level_histogram(
            self.tc,
            front.pos,
            front.rel,
            k,
            st={
                **st,
                "prev_keys": front.prev_keys,
                "seed": seed_k,
                "select_seed": seed_k if st["select_seed"] is None else st["select_seed"],
            },
            m=front.prev_rows.shape[0],
            space=space,
            sigma_k=sigma_k,
            keep_positions=front.pos.size <= _KEEP_POSITIONS,
            policy_gamma=None if p["policy"] == "weighted" else rho_k + p["policy_cutoff"] * sigma_k,
        )

    def _finish(self, eta: float, levels: "_Levels") -> DpneRun:
        """The release (the sets and the public parameters) and its evaluation, every length present."""
        ids, spurious_ids = levels.ids, levels.spurious_ids
        for k in range(1, self.params["max_length"] + 1):
            ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
            spurious_ids.setdefault(k, np.zeros((0, k), dtype=np.int32))
        release = DpneRelease(
            ngrams=_released_sets(self.tc.vocabulary, ids),
            sigma=self.sigma,
            sigmas={k: float(s) for k, s in enumerate(self.sigmas, start=1)},
            thresholds=levels.thresholds,
            valid_counts=levels.valid_counts,
            eta=eta,
            **self.params,
        )
        evaluation = DpneEvaluation(levels=tuple(levels.diags), spurious_ids=spurious_ids, ids=ids, corpus=self.tc)
        return DpneRun(release, evaluation)


@dataclass
class _Levels:
    """What a run has released so far, length by length (filled by :meth:`DpnePlan._level`)."""

    thresholds: dict[int, float]
    valid_counts: dict[int, int]
    ids: dict[int, np.ndarray]
    spurious_ids: dict[int, np.ndarray]
    diags: list[DpneLevelDiagnostics]


@dataclass(frozen=True)
class _Frontier:
    """What the next length reads: the alive positions and their index in S_{k−1}, S_{k−1}'s keys and rows, and
    (both sides) S_{k−1} as (prefix, suffix) index pairs into S_{k−2}."""

    pos: np.ndarray
    rel: np.ndarray
    prev_keys: np.ndarray
    prev_rows: np.ndarray
    prev_a: np.ndarray | None = None
    prev_b: np.ndarray | None = None
    prev_prev_size: int = 0
