"""BayesianDP's strict release from streamed data (issue 43): the keyed item cap, the per-user totals and the release
the command line (``python -m dpcore bayes``, local and Spark engines) and the page share.

One path: the page (:meth:`dpcore.specs.BayesianSpec.strict_statistics`), the local engine and the Spark engine all

1. clamp each user's counts at C and keep at most L = ``max_items`` distinct n-grams per user, the L smallest keyed
   priorities u(seed, user key, n-gram key) (:func:`keyed_item_cap`; ties by the n-gram's key) — a function of the
   user id's text and the n-gram's text, not of the row or column order, so every engine keeps the same items;
2. add the users' clamped, capped rows into c (counts) and N (users per n-gram): integer sums, exact in any order;
3. compute x̂, μ_p, γ_strict, σ and θ on one machine from (c, N, the number of users, α)
   (:func:`statistics_from_totals`, the same code as :func:`dpcore.bayesian_statistics`), the noise drawn once from
   the spec's generator over the vocabulary in its public order (:mod:`dpcore.mechanisms.noise`).

The seed of the item choice is drawn from the spec's ``rng(*item_cap_salt())`` (:func:`item_cap_seed`): the same
seed and settings give the same choice on the page and on the command line.

The vocabulary is the public corpus's n-grams, ordered by public count (descending), ties alphabetically: the order of
:func:`dpcore.text.ngram_counts` (:func:`public_ngram_vocabulary` counts the public records as they stream).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np
import scipy.sparse as sp

from ..errors import UserError
from ..mechanisms.keyed import STREAM_SELECT, keyed_uniform, row_keys, text_key, token_keys
from ..text.corpus import tokenize
from ..text.counts import sentence_ngrams, vocabulary_from_counter
from ..validation import check_int, check_rng
from .statistics import BayesianStatistics, _check_C, _check_max_items, _from_totals, clamp_counts

__all__ = [
    "user_keys_of",
    "item_keys_of",
    "item_cap_seed",
    "keyed_item_cap",
    "capped_totals",
    "keyed_strict_statistics",
    "statistics_from_totals",
    "public_ngram_vocabulary",
    "record_columns",
]


def user_keys_of(user_ids: Iterable[str]) -> np.ndarray:
    """Each user's 64-bit key: :func:`dpcore.mechanisms.keyed.text_key` of the id's text (stripped, as the upload)."""
    ids = [str(u).strip() for u in user_ids]
    return np.fromiter((text_key(u) for u in ids), dtype=np.uint64, count=len(ids))


def item_keys_of(vocabulary) -> np.ndarray:
    """Each n-gram's 64-bit key (its tokens' keys folded left to right, :func:`dpcore.mechanisms.keyed.row_keys`)."""
    vocab = list(vocabulary)
    if not vocab:
        return np.zeros(0, dtype=np.uint64)
    n = len(vocab[0])
    if any(len(g) != n for g in vocab):
        raise UserError("vocabulary must hold n-grams of one length")
    return row_keys(token_keys([w for g in vocab for w in g]).reshape(-1, n))


def item_cap_seed(rng) -> int:
    """The keyed item choice's seed, one draw of ``rng`` (the spec's ``rng(*item_cap_salt())``)."""
    return int(check_rng(rng).integers(0, 2**63))


def keyed_item_cap(m: sp.csr_matrix, *, max_items, seed, user_keys, item_keys) -> sp.csr_matrix:
    """Keep at most L = ``max_items`` stored items per row of ``m``: the L smallest keyed priorities
    u(seed, user key of the row, item key of the column) (SPEC §3b's uniform L-subset, drawn per user from the
    user's own keys: the strict bound's per-user transform). Rows with at most L items are kept as they are."""
    L = _check_max_items(max_items)
    seed = check_int("seed", seed, low=0)
    user_keys, item_keys = np.asarray(user_keys, dtype=np.uint64), np.asarray(item_keys, dtype=np.uint64)
    if user_keys.shape != (m.shape[0],) or item_keys.shape != (m.shape[1],):
        raise UserError(
            f"user_keys and item_keys must have one key per row and column {m.shape}, got "
            f"{user_keys.shape} and {item_keys.shape}"
        )
    lengths = np.diff(m.indptr)
    if lengths.size == 0 or lengths.max() <= L:
        return m
    rows = np.repeat(np.arange(m.shape[0]), lengths)
    sel = np.flatnonzero(lengths[rows] > L)  # entries of the rows over the cap
    r, cols = rows[sel], m.indices[sel]
    prio = keyed_uniform(seed, user_keys[r], item_keys[cols], stream=STREAM_SELECT)
    order = np.lexsort((item_keys[cols], prio, r))
    r_sorted = r[order]
    rank = np.arange(r_sorted.size) - np.searchsorted(r_sorted, r_sorted, side="left")
    keep = np.ones(m.nnz, dtype=bool)
    keep[sel[order[rank >= L]]] = False
    indptr = np.concatenate(([0], np.cumsum(np.minimum(lengths, L))))
    return sp.csr_matrix((m.data[keep], m.indices[keep], indptr), shape=m.shape)


def _totals(m: sp.csr_matrix) -> tuple[np.ndarray, np.ndarray]:
    """c (sum of the rows) and N (rows holding each column) as float arrays: exact for whole counts."""
    v = m.shape[1]
    c = np.bincount(m.indices, weights=m.data, minlength=v)
    N = np.bincount(m.indices, minlength=v).astype(float)
    return c, N


def capped_totals(user_counts, *, C, max_items, seed, user_keys, item_keys) -> tuple[np.ndarray, np.ndarray, int]:
    """(c, N, users) of a block of users: every row clamped at C, capped at L (:func:`keyed_item_cap`), then added.
    c and N are int64; blocks (a Spark partition, a chunk) add up to the whole corpus's totals exactly."""
    m = keyed_item_cap(clamp_counts(user_counts, C), max_items=max_items, seed=seed, user_keys=user_keys,
                       item_keys=item_keys)  # fmt: skip
    c, N = _totals(m)
    return c.astype(np.int64), N.astype(np.int64), int(m.shape[0])


def keyed_strict_statistics(user_counts, public_counts, *, C, max_items, seed, user_keys, item_keys):
    """Strict-mode statistics of a users × |V| count matrix (the page's path): clamp, keyed cap, totals, x̂, μ_p."""
    C = _check_C(C)
    m = keyed_item_cap(clamp_counts(user_counts, C), max_items=max_items, seed=seed, user_keys=user_keys,
                       item_keys=item_keys)  # fmt: skip
    c, N = _totals(m)
    return _from_totals(m, c, N, public_counts, C=C, max_items=_check_max_items(max_items), n_users=None)


def statistics_from_totals(counts, users_per_item, public_counts, *, n_users, C, max_items) -> BayesianStatistics:
    """Strict-mode statistics from streamed totals (:func:`capped_totals` of every block, added): the same x̂ and μ_p
    as :func:`dpcore.bayesian_statistics`; only γ_strict can be computed from them (no user's row is kept)."""
    C, max_items = _check_C(C), _check_max_items(max_items)
    n_users = check_int("n_users", n_users, low=1)
    c = np.asarray(counts, dtype=np.int64).astype(float)
    N = np.asarray(users_per_item, dtype=np.int64).astype(float)
    if c.ndim != 1 or c.shape != N.shape or c.size < 2:
        raise UserError(f"counts and users_per_item must be 1-D of one length |V| >= 2, got {c.shape} and {N.shape}")
    return _from_totals(None, c, N, public_counts, C=C, max_items=max_items, n_users=n_users)


def public_ngram_vocabulary(texts: Iterable[str], n: int) -> tuple[tuple[tuple[str, ...], ...], np.ndarray]:
    """(V, α) of public texts as they stream: every n-gram of their sentences (:func:`dpcore.tokenize`), ordered as
    :func:`dpcore.text.ngram_counts` orders them (count descending, then alphabetically)."""
    counter: Counter = Counter()
    for text in texts:
        for sent in tokenize(text):
            counter.update(sentence_ngrams(sent, n))
    return vocabulary_from_counter(counter, n, None)


def record_columns(text: str, n: int, lookup: dict) -> tuple[list[int], bool]:
    """The vocabulary columns of one record's n-grams (``lookup``: n-gram tuple → column; others dropped), and
    whether the record holds a token at all (a record without one is skipped, as the upload skips it)."""
    sents = tokenize(text)
    cols = [c for sent in sents for g in sentence_ngrams(sent, n) if (c := lookup.get(g)) is not None]
    return cols, bool(sents)
