"""Bounded working memory for DPNE: positions split into shards of users, per-level candidate k-grams, and
the merged histogram of one level (not privacy-critical: the same histogram for every shard size)."""

from __future__ import annotations

import numpy as np

from ..text.ngrams import TokenCorpus

# second pass (one more array of at most that size) instead of finding them again


def _concat(parts, dtype) -> np.ndarray:
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _shard_bounds(pos, tc: TokenCorpus, user_start: np.ndarray, size: int) -> list[tuple[int, int]]:
    """Cut the sorted positions ``pos`` (None: every position) into runs of about ``size`` that never
    split a user (a user's (user, item) pairs and contribution limit stay in one shard)."""
    n = tc.n_tokens if pos is None else pos.size
    cuts = [0]
    while n - cuts[-1] > size:
        c = cuts[-1] + size
        u = int(tc.user_of[c if pos is None else pos[c]])
        for start in (user_start[u], user_start[u + 1]):  # cut before user u, or after it if u fills the shard
            c2 = int(start) if pos is None else int(np.searchsorted(pos, start))
            if c2 > cuts[-1]:
                break
        cuts.append(c2)
    cuts.append(n)
    return [(a, b) for a, b in zip(cuts[:-1], cuts[1:]) if b > a]


def _level_candidates(tc, pos, rel, k, pruning, token_rel, s1_size):
    """Valid k-grams starting at the alive positions ``pos`` (their (k−1)-gram is in S_{k−1}, index ``rel``).

    Returns (positions, key a·|S_1| + t, index in S_{k−1} of the suffix (both sides) or None).
    """
    cand = tc.run_left[pos] >= k
    if pruning == "both":
        nxt = np.zeros(pos.size, dtype=bool)
        nxt[:-1] = pos[1:] == pos[:-1] + 1  # the next position is alive too: the suffix is released
        cand &= nxt
        ci = np.flatnonzero(cand)
        p = pos[ci]
        t_idx = token_rel[tc.tokens[p + k - 1]]  # ≥ 0: the suffix is released, so are its tokens
        b_at = rel[ci + 1].astype(np.int64)
    else:
        ci = np.flatnonzero(cand)
        p = pos[ci]
        t_idx = token_rel[tc.tokens[p + k - 1]]
        ok = t_idx >= 0
        p, ci, t_idx = p[ok], ci[ok], t_idx[ok]
        b_at = None
    key = rel[ci].astype(np.int64) * s1_size + t_idx
    return p, key, b_at


def _merge_items(parts):
    """[(sorted item keys, b, histogram)] of the shards → the same over all shards (keys sorted, unique)."""
    if len(parts) == 1:
        return parts[0]
    if not parts:
        z = np.zeros(0, dtype=np.int64)
        return z, z, np.zeros(0)
    keys = np.concatenate([p[0] for p in parts])
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    new = np.empty(keys.size, dtype=bool)
    new[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    b = np.concatenate([p[1] for p in parts])[order][starts]
    hist = np.add.reduceat(np.concatenate([p[2] for p in parts])[order], starts) if keys.size else np.zeros(0)
    return keys[starts], b, hist
