"""The steps of one DPNE run (:mod:`dpcore.dpne.release`), one function each: length 1's release, the positions that
stay alive, a length k ≥ 2's released set in canonical order with its diagnostics, and the next length's positions.

Every draw is keyed (:mod:`dpcore.mechanisms.keyed`): an item's noise depends on its key, not on which step draws
it. :meth:`dpcore.dpne.release.DpnePlan.run` calls them in this order, length after length.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..mechanisms.keyed import fold_keys
from .results import DpneLevelDiagnostics
from .selection import _LevelHistogram, _dpsu_select, _noisy_threshold
from .shards import _concat, _level_candidates
from .space import _ValidSpace, zero_weight_draw
from .unigram import _unigram_histogram


def unigram_release(tc, key1, params, *, seed, select_seed, sigma, threshold, unigram, shard):
    """S_1 by DPSU over tokens: (released mask, support mask) over the vocabulary. The weighted Gaussian thresholds
    the histogram before noise (the unigram's when given) plus the keyed noise; the Policy Gaussian's histogram
    depends on ρ₁ through its cutoff. ``key1``: the 1-grams' keys; ``params``: the run's parameters."""
    limit, selection, policy = params["contribution_limit"], params["selection"], params["policy"]
    if policy == "weighted":
        hist1 = (
            unigram.histogram if unigram is not None else _unigram_histogram(tc, limit, selection, select_seed, shard)
        )
        return _noisy_threshold(hist1, sigma, threshold, seed, 1, key1)
    pu, pi, pc = tc.unigram_pairs
    return _dpsu_select(
        pu,
        pi,
        pc,
        tc.vocabulary_size,
        limit=limit,
        sigma=sigma,
        threshold=threshold,
        selection=selection,
        rng=None,
        policy=policy,
        cutoff_alpha=params["policy_cutoff"],
        keyed=(seed, 1, key1, tc.user_key_array, select_seed),
    )


def canonical_unigrams(released1, support1, key1, vocabulary_size: int, *, sigma, threshold):
    """S_1 as token ids in canonical order (by key), each token's index in it (−1: not released), and length 1's
    row of the diagnostics (no valid space, no spurious 1-gram)."""
    s1_tokens = np.flatnonzero(released1).astype(np.int32)
    s1_tokens = s1_tokens[np.argsort(key1[s1_tokens], kind="stable")]  # canonical order: by key
    token_rel = np.full(max(vocabulary_size, 1), -1, dtype=np.int64)
    token_rel[s1_tokens] = np.arange(s1_tokens.size)
    released, supported = int(s1_tokens.size), int(support1.sum())
    return (
        s1_tokens,
        token_rel,
        DpneLevelDiagnostics(
            k=1,
            previous_size=None,
            valid_count=None,
            sigma=float(sigma),
            threshold=threshold,
            released=released,
            spurious_bound=None,
            supported=supported,
            used_valid=supported,
            kept_from_histogram=released,
            sampled_zero_weight=0,
            spurious=0,
        ),
    )


def alive_positions(tc, token_rel: np.ndarray, bounds, pos_dtype) -> tuple[np.ndarray, np.ndarray]:
    """The positions whose 1-gram was released and the index in S_1 of the token there, shard by shard."""
    pos_parts, rel_parts = [], []
    for s0, s1 in bounds:
        r_s = token_rel[tc.tokens[s0:s1]]
        hit = np.flatnonzero(r_s >= 0)
        pos_parts.append((hit + s0).astype(pos_dtype))
        rel_parts.append(r_s[hit].astype(pos_dtype))
        del r_s, hit
    return _concat(pos_parts, pos_dtype), _concat(rel_parts, pos_dtype)


@dataclass(frozen=True, eq=False)
class LevelRelease:
    """S_k of one length k ≥ 2 in canonical (key) order: its rows of token ids, which of them are spurious, their
    (prefix, suffix) indices into S_{k−1} and their keys, each written item's index in S_k (−1: not released) and
    the length's diagnostics."""

    rows: np.ndarray
    spurious_mask: np.ndarray
    a: np.ndarray
    b: np.ndarray
    keys: np.ndarray
    item_rel: np.ndarray
    diagnostics: DpneLevelDiagnostics


def _written_by_someone(item_keys: np.ndarray, s_key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which sampled zero-weight k-grams some user did write (valid, but zero weight after the limit: not
    spurious), and their item index (−1 where none)."""
    n_items = item_keys.size
    if not n_items:
        return np.zeros(s_key.size, dtype=bool), np.full(s_key.size, -1)
    at = np.minimum(np.searchsorted(item_keys, s_key), n_items - 1)
    in_corpus = item_keys[at] == s_key
    return in_corpus, np.where(in_corpus, at, -1)


def release_level(
    lh: _LevelHistogram, space: _ValidSpace, *, k, eta, sigma_k, rho_k, p_zero, seed_k, state, prev_rows, prev_keys
) -> LevelRelease:
    """Length k's release: the written k-grams whose noisy weight passes ρ_k, then B_k zero-weight members of V_k
    (:func:`zero_weight_draw`), put in the canonical order of their keys so that V_{k+1} is indexed alike by every
    engine."""
    s1_size, s1_tokens, token_rel = state["s1_size"], state["s1_tokens"], state["token_rel"]
    m, n_valid = prev_rows.shape[0], space.size
    item_keys, item_b = lh.item_keys, lh.item_b
    n_items = item_keys.size
    item_a = item_keys // s1_size
    item_t = item_keys % s1_size
    released = np.zeros(n_items, dtype=bool)
    released[lh.supp_idx[lh.noisy > rho_k]] = True
    n_support = int(lh.supp_idx.size)
    sampled = zero_weight_draw(space, seed_k, k, int(n_valid - n_support), p_zero, lh.support_keys)
    s_a = sampled // space.width
    s_b = sampled % space.width
    s_t = token_rel[prev_rows[s_b, -1]] if state["pruning"] == "both" else s_b
    in_corpus, sampled_item = _written_by_someone(item_keys, s_a * s1_size + s_t)
    kept_items = np.flatnonzero(released)
    item_rel = np.full(max(n_items, 1), -1, dtype=np.int64)
    item_rel[kept_items] = np.arange(kept_items.size)
    item_rel[sampled_item[in_corpus]] = kept_items.size + np.flatnonzero(in_corpus)

    a = np.concatenate([item_a[kept_items], s_a]).astype(np.int64)
    b = np.concatenate([item_b[kept_items], s_b]).astype(np.int64)
    t = np.concatenate([item_t[kept_items], s_t]).astype(np.int64)
    spurious_mask = np.zeros(a.size, dtype=bool)
    spurious_mask[kept_items.size :] = ~in_corpus
    # Canonical order of S_k (by key), so that V_{k+1} is indexed alike by every engine.
    new_keys = fold_keys(prev_keys[a], state["tok_key"][s1_tokens[t]])
    perm = np.argsort(new_keys, kind="stable")
    inv = np.empty(perm.size, dtype=np.int64)
    inv[perm] = np.arange(perm.size)
    hit = item_rel >= 0
    item_rel[hit] = inv[item_rel[hit]]
    a, b, t, spurious_mask, new_keys = a[perm], b[perm], t[perm], spurious_mask[perm], new_keys[perm]
    rows = np.hstack([prev_rows[a], s1_tokens[t].reshape(-1, 1)]).astype(np.int32)
    diagnostics = DpneLevelDiagnostics(
        k=k,
        previous_size=int(m),
        valid_count=int(n_valid),
        sigma=sigma_k,
        threshold=rho_k,
        released=int(rows.shape[0]),
        spurious_bound=float(eta * min(m, n_valid)),
        supported=n_support,
        used_valid=int(n_items),
        kept_from_histogram=int(kept_items.size),
        sampled_zero_weight=int(sampled.size),
        spurious=int(spurious_mask.sum()),
    )
    return LevelRelease(rows, spurious_mask, a, b, new_keys, item_rel, diagnostics)


def next_position_parts(tc, lh: _LevelHistogram, item_rel: np.ndarray, pos, rel, *, k, state) -> tuple[list, list]:
    """The positions whose k-gram was released (a second pass over the shards) and that k-gram's index in S_k, as
    per-shard parts (the caller frees the level's histogram before concatenating them)."""
    pos_dtype, n_items, item_keys = state["pos_dtype"], lh.item_keys.size, lh.item_keys
    pos_parts, rel_parts = [], []
    for j, ((s0, s1), ik, icode) in enumerate(zip(lh.bounds, lh.shard_items, lh.shard_codes)):
        if lh.shard_positions is not None:
            cand = lh.shard_positions[j]
        else:
            cand, _, _ = _level_candidates(
                tc, pos[s0:s1], rel[s0:s1], k, state["pruning"], state["token_rel"], state["s1_size"]
            )
        r = item_rel[np.searchsorted(item_keys, ik)][icode] if n_items else np.zeros(0, dtype=np.int64)
        alive = r >= 0
        pos_parts.append(cand[alive].astype(pos_dtype))
        rel_parts.append(r[alive].astype(pos_dtype))
        del cand, r, alive
    return pos_parts, rel_parts
