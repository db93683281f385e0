"""The DP selection step of DPSU/DPNE (003 Algorithm 1, SPEC §4): contribution limit Δ0 per user, the weighted or
policy Gaussian histogram, noise and threshold — and the keyed seeds every draw is derived from.

Privacy-critical: with :mod:`dpcore.dpne.accounting` this is the code a reviewer must read; the rest of
:mod:`dpcore.dpne` orchestrates it (levels, shards, memory) or evaluates it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
import numpy as np
from ..mechanisms.keyed import (
    STREAM_NOISE,
    STREAM_ORDER,
    STREAM_SELECT,
    fold_keys,
    keyed_normal,
    keyed_uniform,
    release_seed,
)
from ..mechanisms.noise import standard_normal_noise
from .._ranking import ranked_drops as _ranked_drops
from ..text.ngrams import group_by_user
from ..validation import check_rng
from .shards import _level_candidates, _merge_items, _shard_bounds

__all__ = [
    "dpne_release_seed",
    "dpne_selection_seed",
    "dpne_level_seed",
    "eta_dependent_level",
]


# --------------------------------------------------------------------------------------------------
# Weighted Gaussian DPSU step (shared by DPNE levels and the baselines)
# --------------------------------------------------------------------------------------------------


def _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority=None):
    """Keep at most ``limit`` items per user: returns (users, items, kept items of that user) per kept pair.

    Random selection (default) draws a uniform subset of size Δ per user; "most-frequent" keeps the
    user's Δ most frequent items, ties broken at random. Only users above the limit are sorted.
    ``priority`` (optional): a function of the pair indices → uniforms in (0, 1) replacing ``rng``
    (keyed draws, :mod:`dpcore.mechanisms.keyed`: the kept subset is then a function of (seed, user, item)).
    """
    if pair_user.size == 0:
        return pair_user, pair_item, np.zeros(0, dtype=np.int64)
    limit = min(int(limit), int(pair_user.size))  # no user holds more items than there are pairs: exact
    sizes = np.bincount(pair_user)
    size_of_pair = sizes[pair_user]
    over = size_of_pair > limit
    if not over.any():
        return pair_user, pair_item, size_of_pair
    idx = np.flatnonzero(over)
    r = rng.random(idx.size) if priority is None else priority(idx)
    keep = np.ones(pair_user.size, dtype=bool)
    keep[idx[_ranked_drops(pair_user[idx], r, None if selection == "random" else pair_count[idx], limit)]] = False
    return pair_user[keep], pair_item[keep], np.minimum(size_of_pair[keep], limit)


def _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng, priority=None):
    """Weighted Gaussian policy: the kept items of a user each get 1/√(number kept) (ℓ2 norm 1).

    Returns (kept items, their weights).
    """
    _, items, kept_size = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority)
    return items, 1.0 / np.sqrt(kept_size)


def _policy_gaussian_histogram(users, items, n_items, gamma, rng, *, priority=None) -> np.ndarray:
    """Policy Gaussian (Gopi et al. 2020, §4): users in a uniformly random order; each moves its kept
    items that are still below the cutoff Γ towards Γ along the gap vector g = Γ − H, by an ℓ2 step of
    min(1, ‖g‖₂). Each user's contribution has ℓ2 norm ≤ 1 and the map is ℓ2-contractive, so the same σ
    and ρ as the weighted Gaussian policy apply. Sequential by nature: a Python loop over users.
    ``priority`` (one float per user id, lower goes first) fixes the order; by default it is drawn
    from ``rng``, independently of the data.
    """
    hist = np.zeros(n_items)
    if users.size == 0:
        return hist
    order = np.argsort(users, kind="stable")
    su, si = users[order], items[order]
    starts = np.flatnonzero(np.r_[True, su[1:] != su[:-1]])
    ends = np.r_[starts[1:], su.size]
    if priority is None:
        priority = rng.random(int(su[-1]) + 1)
    for g in np.argsort(np.asarray(priority)[su[starts]], kind="stable"):
        its = si[starts[g] : ends[g]]
        gap = gamma - hist[its]
        below = gap > 0
        if not below.any():
            continue
        its, gap = its[below], gap[below]
        norm = math.sqrt(float(gap @ gap))
        hist[its] += gap * (min(1.0, norm) / norm)
    return hist


def _dpsu_select(
    pair_user,
    pair_item,
    pair_count,
    n_items,
    *,
    limit,
    sigma,
    threshold,
    selection,
    rng,
    policy="weighted",
    cutoff_alpha=2.0,
    keyed=None,
):
    """One DPSU pass (weighted or policy Gaussian). Returns (released mask, support mask) over items.

    ``keyed`` (optional) = (seed, k, item keys, user keys, selection seed): every draw is then read off the keyed
    generator of :mod:`dpcore.mechanisms.keyed` — the selection priority of a pair at (user key, item key) and the
    Policy Gaussian's user order at the user key from the selection seed, the noise of an item at its item key
    from ``seed`` — instead of ``rng``, so the result does not depend on the order in which items or users are
    visited.
    """
    priority = order = noise = None
    if keyed is not None:
        seed, k, item_keys, user_keys, select_seed = keyed
        priority = lambda idx: keyed_uniform(
            select_seed, user_keys[pair_user[idx]], item_keys[pair_item[idx]], stream=STREAM_SELECT, k=k
        )
        noise = lambda idx: keyed_normal(seed, item_keys[idx], stream=STREAM_NOISE, k=k)
        if policy != "weighted":
            order = keyed_uniform(select_seed, user_keys, stream=STREAM_ORDER, k=k)
    if policy == "weighted":
        items, weights = _limit_contributions(pair_user, pair_item, pair_count, limit, selection, rng, priority)
        hist = np.bincount(items, weights=weights, minlength=n_items)
    else:
        users, items, _ = _kept_pairs(pair_user, pair_item, pair_count, limit, selection, rng, priority)
        hist = _policy_gaussian_histogram(users, items, n_items, threshold + cutoff_alpha * sigma, rng, priority=order)
    return _noisy_release(hist, sigma, threshold, rng, noise)


def _noisy_release(hist, sigma, threshold, rng, noise=None):
    """The items whose weight plus N(0, σ²) noise exceeds ρ (one draw per item of the support, in item
    order). Returns (released mask, support mask).

    Runs over blocks of :data:`_NOISE_BLOCK` items so that no support-sized temporaries are built; the
    normals are drawn block after block in item order, which is the same stream as one draw for the
    whole support (numpy's Generator draws each normal from fresh bits; ``noise`` is a function of the
    item) — tested in tests/test_dpne_memory.py.
    """
    support = hist > 0
    released = np.zeros(hist.size, dtype=bool)
    for a in range(0, hist.size, _NOISE_BLOCK):
        supp_idx = np.flatnonzero(support[a : a + _NOISE_BLOCK]) + a
        z = standard_normal_noise(size=supp_idx.size, rng=rng) if noise is None else noise(supp_idx)
        noisy = hist[supp_idx] + sigma * z  # one draw per item, once
        released[supp_idx[noisy > threshold]] = True
    return released, support


_NOISE_BLOCK = 1 << 22
"""Items per block of :func:`_noisy_release`."""

_BLOCK_USERS = 1024
"""Users over the limit handled per block by :func:`_dpsu_weighted_levels` (bounds its working memory)."""


def _dpsu_weighted_levels(levels, n_users, *, limit, sigma, threshold, selection, rng):
    """Weighted-Gaussian DPSU over the union of several levels' k-grams (DPSU-all): :func:`_weighted_levels_histogram`
    then one normal per supported item from the same ``rng`` (the selection's uniforms first, then the noise).

    Returns the released mask of each level.
    """
    hist, offsets = _weighted_levels_histogram(levels, n_users, limit=limit, selection=selection, rng=rng)
    mask, _ = _noisy_release(hist, sigma, threshold, rng)
    del hist
    return [mask[offsets[j] : offsets[j + 1]] for j in range(len(levels))]


def _weighted_levels_histogram(levels, n_users, *, limit, selection, rng):
    """The weighted histogram of DPSU over the union of several levels' k-grams (DPSU-all), level by level.

    Same draws, same result as :func:`_dpsu_select` on the levels' pairs concatenated (level 1 first,
    item ids offset level by level): one uniform per pair of a user over the limit, in that
    concatenated order, the same exact per-user order (a stable lexsort on user, then r — or count,
    then r), the same weights 1/√min(|items of the user|, limit) summed per item in the same order,
    one normal per supported item. It never builds the concatenation: the uniforms (8 bytes per pair
    of a user over the limit) and one keep flag per pair are the only corpus-sized arrays; the
    per-user ranking runs over blocks of :data:`_BLOCK_USERS` users (a user's rank depends on that
    user's pairs only, and the lexsort is stable, so a block sees its users' pairs in the same
    relative order as the whole). Tested against the concatenated path (tests/test_dpne_memory.py).

    Returns (the weighted histogram over the levels' items, concatenated; the item offset of each level).
    """
    n_pairs = [int(lev.pair_user.size) for lev in levels]
    total = sum(n_pairs)
    counts = [np.bincount(lev.pair_user, minlength=n_users).astype(np.int64) for lev in levels]
    sizes = np.sum(counts, axis=0) if counts else np.zeros(n_users, dtype=np.int64)
    limit = min(int(limit), total) if total else int(limit)
    over_user = sizes > limit
    keeps = [None] * len(levels)
    over_counts = [np.where(over_user, c, 0) for c in counts]
    n_over = [int(c.sum()) for c in over_counts]
    if total and sum(n_over):
        r_all = rng.random(sum(n_over))  # the concatenated path's single draw, in the same order
        r_off = np.concatenate([[0], np.cumsum(n_over)])
        pair_start = [np.concatenate([[0], np.cumsum(c)]) for c in counts]  # pairs are grouped by user
        over_start = [np.concatenate([[0], np.cumsum(c)]) for c in over_counts]
        keeps = [np.ones(n, dtype=bool) for n in n_pairs]
        over_users = np.flatnonzero(over_user)
        for b in range(0, over_users.size, _BLOCK_USERS):
            first, last = int(over_users[b]), int(over_users[min(b + _BLOCK_USERS, over_users.size) - 1])
            idx_parts, r_parts, u_parts, c_parts, lev_parts = [], [], [], [], []
            for j, lev in enumerate(levels):
                lo, hi = int(pair_start[j][first]), int(pair_start[j][last + 1])
                idx = np.flatnonzero(over_user[lev.pair_user[lo:hi]]) + lo
                o_lo = int(r_off[j] + over_start[j][first])
                idx_parts.append(idx)
                r_parts.append(r_all[o_lo : o_lo + idx.size])
                u_parts.append(lev.pair_user[idx])
                if selection != "random":
                    c_parts.append(lev.pair_count[idx])
                lev_parts.append(np.full(idx.size, j, dtype=np.int16))
            r = np.concatenate(r_parts)
            u = np.concatenate(u_parts)
            drop = _ranked_drops(u, r, None if selection == "random" else np.concatenate(c_parts), limit)
            idx_all, lev_all = np.concatenate(idx_parts), np.concatenate(lev_parts)
            for j in range(len(levels)):
                keeps[j][idx_all[drop[lev_all[drop] == j]]] = False
        del r_all
    offsets = np.cumsum([0] + [lev.n_grams for lev in levels])
    hist = np.empty(int(offsets[-1]))
    for j, lev in enumerate(levels):
        pu, pi = (
            (lev.pair_user, lev.pair_gram) if keeps[j] is None else (lev.pair_user[keeps[j]], lev.pair_gram[keeps[j]])
        )
        weights = 1.0 / np.sqrt(np.minimum(sizes[pu], limit))
        hist[offsets[j] : offsets[j + 1]] = np.bincount(pi, weights=weights, minlength=lev.n_grams)
        keeps[j] = None
        del pu, pi, weights
    return hist, offsets


def _keyed_priority(seed, k, pair_user, pair_item, item_keys, user_keys):
    return lambda idx: keyed_uniform(
        seed, user_keys[pair_user[idx]], item_keys[pair_item[idx]], stream=STREAM_SELECT, k=k
    )


def _shard_histogram(pair_user, pair_item, pair_count, n_items, *, limit, selection, seed, k, item_keys, user_keys):
    """Weighted Gaussian policy on one shard of users: the kept items' 1/√(kept) summed per item. ``seed`` keys
    the selection priorities (the selection seed, not the noise's)."""
    items, weights = _limit_contributions(
        pair_user,
        pair_item,
        pair_count,
        limit,
        selection,
        None,
        _keyed_priority(seed, k, pair_user, pair_item, item_keys, user_keys),
    )
    return np.bincount(items, weights=weights, minlength=n_items)


def _noisy_values(hist, sigma, seed, k, item_keys):
    """(support indices, H[u] + σ·Z_u over the support H > 0), Z_u keyed by (seed, k, item key)."""
    supp_idx = np.flatnonzero(hist > 0)
    return supp_idx, hist[supp_idx] + sigma * keyed_normal(seed, item_keys[supp_idx], stream=STREAM_NOISE, k=k)


def _noisy_threshold(hist, sigma, threshold, seed, k, item_keys):
    """Release item u iff H[u] + σ·Z_u > ρ over the support (H > 0), Z_u keyed by (seed, k, item key)."""
    supp_idx, noisy = _noisy_values(hist, sigma, seed, k, item_keys)
    released = np.zeros(hist.size, dtype=bool)
    released[supp_idx[noisy > threshold]] = True
    support = np.zeros(hist.size, dtype=bool)
    support[supp_idx] = True
    return released, support


def _keyed_seed(rng) -> int:
    """The integer seed of the keyed draws: ``rng`` itself when an int (so ``--seed S`` on the command
    line, the Spark engine and ``dpne(..., rng=S)`` agree), else 63 bits drawn from the Generator."""
    rng_checked = check_rng(rng)
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return int(rng)
    return int(rng_checked.integers(0, 2**63))


def dpne_release_seed(
    seed,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    noise_decay=1.0,
    pruning="both",
    selection="random",
    policy="weighted",
    policy_cutoff=2.0,
) -> int:
    """The key of a DPNE release's η-independent draws: :func:`dpcore.mechanisms.release_seed` of the seed and every
    parameter except η (issue 21 item 5). Lengths 1 and 2 (weighted Gaussian) draw from it; see
    :func:`dpne_level_seed` for the others. Both engines derive it alike, so they still agree for one seed."""
    return release_seed(
        seed,
        mechanism="dpne",
        epsilon=float(epsilon),
        delta=float(delta),
        max_length=int(max_length),
        contribution_limit=int(contribution_limit),
        noise_decay=float(noise_decay),
        pruning=pruning,
        selection=selection,
        policy=policy,
        policy_cutoff=float(policy_cutoff),
    )


def eta_dependent_level(k: int, policy: str) -> bool:
    """Whether length k's histogram depends on η: from k = 3 on always (ρ_{k−1}(η) decided S_{k−1}, hence the
    valid k-grams and every user's pruned selection); at k = 2 with the Policy Gaussian only (its cutoff
    Γ_2 = ρ_2 + α·σ_2 moves with η). Length 1 and the weighted length-2 histogram do not: thresholding that
    one noisy histogram at several ρ_2(η) is post-processing of one Gaussian release."""
    return k >= 3 or (k == 2 and policy != "weighted")


def dpne_level_seed(base: int, k: int, eta, policy: str) -> int:
    """The key of length k's draws: ``base`` (:func:`dpne_release_seed`) where the length does not depend on
    η, else a key derived from ``base`` and η — so a run at another η draws fresh noise there (reusing it
    would not be post-processing: the histograms themselves differ)."""
    if not eta_dependent_level(k, policy):
        return int(base)
    return release_seed(base, eta=float(eta))


def dpne_selection_seed(seed, *, contribution_limit, selection="random") -> int:
    """The key of a DPNE release's *selection* draws (which Δ0 items a user keeps, the Policy Gaussian's user
    order): :func:`dpcore.mechanisms.release_seed` of the seed, Δ0 and the selection rule only — what the
    selection depends on. The noise is keyed by every parameter (:func:`dpne_release_seed`,
    :func:`dpne_level_seed`); the selection is not noise: for any data-independent priorities each user's
    kept items still carry ℓ2 norm ≤ 1, so each release is (ε, δ)-DP given them, and releases at several ε or
    η that share them compose as releases with independent selections do (DpneSpec version 2, issue 29)."""
    return release_seed(
        seed, mechanism="dpne-selection", contribution_limit=int(contribution_limit), selection=str(selection)
    )


@dataclass(frozen=True, eq=False)
class _LevelHistogram:
    """One length's weighted histogram over the valid k-grams users wrote, and its noisy values.

    Per shard of users: bounds into the alive positions, the shard's item keys, the item of each candidate
    position and (when kept) the candidate positions; merged over shards: item keys a·|S_1| + t, suffix index
    b, H, the items' stable keys; the support (H > 0) with its noisy values H + σ_k·Z (Z keyed by the item) and
    its sorted valid-space keys a·width + b (for the zero-weight draw)."""

    bounds: list
    shard_items: list
    shard_codes: list
    shard_positions: list | None
    item_keys: np.ndarray
    item_b: np.ndarray
    item_key: np.ndarray
    supp_idx: np.ndarray
    noisy: np.ndarray
    support_keys: np.ndarray


def _level_histogram(tc, pos, rel, k, *, st, m, space, sigma_k, policy_gamma, keep_positions) -> _LevelHistogram:
    """Valid k-grams at the visited positions, keyed by (prefix index a, index t of the last token in S_1):
    a·|S_1| + t identifies a k-gram whatever the rule and keeps the key space small. Users are taken shard by
    shard (positions cut at user boundaries); the keyed draws make the result independent of the cut."""
    s1_size, seed, select_seed = st["s1_size"], st["seed"], st["select_seed"]
    bounds = _shard_bounds(pos, tc, st["user_start"], st["shard"]) if st["shard"] else [(0, pos.size)]
    parts, shard_codes, shard_positions = [], [], []  # per shard: (items, b, histogram); item of each position
    for s0, s1 in bounds:
        p, key, b_at = _level_candidates(tc, pos[s0:s1], rel[s0:s1], k, st["pruning"], st["token_rel"], s1_size)
        pu, pi, pc, ik, icode = group_by_user(tc.user_of[p], key, m * s1_size)
        shard_codes.append(icode.astype(np.int32 if ik.size < 2**31 else np.int64))
        if keep_positions:
            shard_positions.append(p)
        ia, it = ik // s1_size, ik % s1_size
        ikey = fold_keys(st["prev_keys"][ia], st["tok_key"][st["s1_tokens"][it]])
        if policy_gamma is None:  # weighted Gaussian
            h = _shard_histogram(
                pu,
                pi,
                pc,
                ik.size,
                limit=st["limit"],
                selection=st["selection"],
                seed=select_seed,
                k=k,
                item_keys=ikey,
                user_keys=st["user_key"],
            )
        else:  # Policy Gaussian: one shard (a sequential pass over all users)
            users, items, _ = _kept_pairs(
                pu,
                pi,
                pc,
                st["limit"],
                st["selection"],
                None,
                _keyed_priority(select_seed, k, pu, pi, ikey, st["user_key"]),
            )
            h = _policy_gaussian_histogram(
                users,
                items,
                ik.size,
                policy_gamma,
                None,
                priority=keyed_uniform(select_seed, st["user_key"], stream=STREAM_ORDER, k=k),
            )
        if st["pruning"] == "both":
            ib = np.empty(ik.size, dtype=np.int64)
            ib[icode] = b_at  # the suffix's index in S_{k−1} (same for every occurrence)
        else:
            ib = it
        parts.append((ik, ib, h))
        del p, key, b_at, pu, pi, pc, icode
    shard_items = [part[0] for part in parts]
    item_keys, item_b, hist = _merge_items(parts)
    del parts
    item_a = item_keys // s1_size
    item_key = fold_keys(st["prev_keys"][item_a], st["tok_key"][st["s1_tokens"][item_keys % s1_size]])
    supp_idx, noisy = _noisy_values(hist, sigma_k, seed, k, item_key)
    support_keys = np.sort(item_a[supp_idx] * space.width + item_b[supp_idx])
    return _LevelHistogram(
        bounds,
        shard_items,
        shard_codes,
        shard_positions if keep_positions else None,
        item_keys,
        item_b,
        item_key,
        supp_idx,
        noisy,
        support_keys,
    )
