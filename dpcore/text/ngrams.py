"""Tokens → per-user distinct k-gram sets (k = 1..T), stored as integer arrays.

003 §1 (Problem 1.1) and SPEC §4: a user's k-grams G_k(user) are the distinct contiguous k-token
sequences inside one of the user's sentences — a k-gram never crosses a sentence boundary.

Two compact representations are built here, both free of Python tuples in the hot loops:

* :class:`TokenCorpus` — every token of every sentence in one flat ``int32`` array of token ids
  (users are contiguous, sentences are contiguous inside a user), plus for each position the
  number of tokens left in its sentence (``run_left``): the k-gram starting at position p exists iff
  ``run_left[p] >= k``. DPNE (:mod:`dpcore.dpne`) works on positions directly, so it only ever
  touches the positions whose (k−1)-grams were released.
* :class:`NgramIndex` — for each length k, the distinct k-grams of the corpus, each stored as (id of
  its (k−1)-gram prefix, last token id) — the token rows are rebuilt from this chain on demand — and
  each user's distinct k-grams as (user, k-gram id, occurrences) triples grouped by user. k-gram ids
  are built level by level: the id of the k-gram at position p is the dense code of the pair (id of the
  (k−1)-gram at p, token at p+k−1), so keys are packed ``int64`` values that never overflow whatever
  the vocabulary size or k.

Strings appear only at the boundary: :func:`encode_users` maps tokens to ids once (a dict pass
in C), and :meth:`TokenCorpus.decode` maps id rows back to string tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, repeat
from typing import NoReturn, cast

import numpy as np

from ..errors import UserError
from ..quoting import quote as _short
from ..validation import check_int

__all__ = [
    "encode_corpus",
    "TokenCorpus",
    "KgramLevel",
    "NgramIndex",
    "encode_users",
    "build_ngram_index",
    "rows_membership",
    "MAX_NGRAM_LENGTH",
]

MAX_NGRAM_LENGTH = 50


def _factorize(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense codes and the unique values, numbered in first-appearance order (numpy only).

    Sort-based: equal values form runs in the sorted order, and the first position of each run's value
    gives its first-appearance rank, so the codes are those a hash table would give. When
    (value − min) and the position fit together in 63 bits, both are packed into one int64 and sorted
    with ``np.sort`` (several times faster than ``np.argsort``); otherwise an argsort is used and
    the first position of a run is its minimum.
    """
    values = np.asarray(values).ravel()
    n = values.size
    if n == 0:
        return np.zeros(0, dtype=np.int64), values.copy()
    lo = int(values.min())
    span = int(values.max()) - lo
    pos_bits = max(int(n - 1).bit_length(), 1)
    if values.dtype.kind in "iu" and span.bit_length() + pos_bits <= 63:
        packed = values.astype(np.int64) - lo
        packed <<= pos_bits
        packed |= np.arange(n, dtype=np.int64)
        packed.sort()
        order = packed & ((1 << pos_bits) - 1)
        packed >>= pos_bits
        sv = packed  # (value − min), sorted; ties in position order
        stable = True
    else:
        order = np.argsort(values)  # unstable (a stable argsort of int64 is a much slower timsort)
        sv = values[order]
        stable = False
    new = np.empty(n, dtype=bool)
    new[0] = True
    np.not_equal(sv[1:], sv[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    del new, sv
    # first position of each distinct value: the head of its run when ties are in position order
    first = order[starts] if stable else np.minimum.reduceat(order, starts)
    first_sorted = np.sort(first)  # the distinct values' first positions, in appearance order
    rank = np.searchsorted(first_sorted, first)
    codes = np.empty(n, dtype=np.int64)
    codes[order] = np.repeat(rank, np.diff(np.append(starts, n)))
    return codes, values[first_sorted]


_TABLE_LIMIT = 2**27  # key spaces up to this size are grouped through a direct lookup table


def group_by_user(users: np.ndarray, keys: np.ndarray, key_space: int, *, need_positions: bool = True):
    """Distinct (user, key) pairs of a list of positions whose users are non-decreasing.

    Args:
      users: user index per position, non-decreasing (positions are visited user by user).
      keys: integer key per position in [0, key_space).
      key_space: an upper bound on the keys.

    Returns:
      (pair_user, pair_item, pair_count, item_keys, item_of_position): ``item_keys`` are the distinct
      keys, sorted; ``pair_item`` and ``item_of_position`` index into them.

    Small key spaces (≤ 2^27) map keys to dense codes through a lookup table (O(n + key_space)); the
    pairs then come from a stable sort of user·n_items + code (values only, no argsort), which is
    fast because the array is already sorted by user. Larger key spaces sort key·n_users + user once. Both are much faster than
    hashing millions of distinct pairs.
    """
    users = np.asarray(users, dtype=np.int64)
    keys = np.asarray(keys, dtype=np.int64)
    n = keys.size
    if n == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z, z, z
    key_space = max(int(key_space), 1)
    n_users = int(users[-1]) + 1
    if key_space <= _TABLE_LIMIT:
        present = np.zeros(key_space, dtype=bool)
        present[keys] = True
        item_keys = np.flatnonzero(present)
        del present
        lookup = np.empty(key_space, dtype=np.int32)  # only entries at item_keys are touched
        lookup[item_keys] = np.arange(item_keys.size, dtype=np.int32)
        code = lookup[keys].astype(np.int64)
        del lookup
        n_items = max(item_keys.size, 1)
        sc = np.sort(users * n_items + code, kind="stable")  # already sorted by user: runs, fast
        new = np.empty(n, dtype=bool)
        new[0] = True
        np.not_equal(sc[1:], sc[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        pair_comb = sc[starts]
        return (
            pair_comb // n_items,
            pair_comb % n_items,
            np.diff(np.append(starts, n)),
            item_keys,
            code if need_positions else None,
        )
    if key_space * n_users >= 2**62:  # pragma: no cover - astronomically many released (k−1)-grams
        item_keys, code = np.unique(keys, return_inverse=True)
        return group_by_user(users, code, item_keys.size, need_positions=need_positions)[:3] + (item_keys, code)
    comb = keys * n_users + users
    order = np.argsort(comb)
    sc = comb[order]
    new_pair = np.empty(n, dtype=bool)
    new_pair[0] = True
    np.not_equal(sc[1:], sc[:-1], out=new_pair[1:])
    key_sorted = sc // n_users
    new_item = np.empty(n, dtype=bool)
    new_item[0] = True
    np.not_equal(key_sorted[1:], key_sorted[:-1], out=new_item[1:])
    item_keys = key_sorted[new_item]
    item_idx_sorted = np.cumsum(new_item) - 1
    starts = np.flatnonzero(new_pair)
    item_of_position = None
    if need_positions:
        item_of_position = np.empty(n, dtype=np.int64)
        item_of_position[order] = item_idx_sorted
    return (sc[starts] % n_users, item_idx_sorted[starts], np.diff(np.append(starts, n)), item_keys, item_of_position)


@dataclass(frozen=True, eq=False)
class TokenCorpus:
    """A corpus as flat token ids.

    Attributes:
      tokens: ``int32`` token id at every position (all users' sentences concatenated in order).
      run_left: ``int32``, tokens left in the sentence from this position on (≥ 1).
      user_of: ``int32``, the user index of every position.
      vocabulary: ``object`` array, ``vocabulary[i]`` is the string of token id i.
      n_users: number of users (users without any token still count: they hold no k-gram).
      user_keys: optional ``uint64`` per user, a stable key of the user's id (:func:`dpcore.mechanisms.text_key`
        of the id, as the streaming reader sets it); by default the key of the user's index as text.
        DPNE's keyed contribution limit is a function of (seed, user key, item).
    """

    tokens: np.ndarray
    run_left: np.ndarray
    user_of: np.ndarray
    vocabulary: np.ndarray
    n_users: int
    user_keys: np.ndarray | None = field(default=None, repr=False)

    @cached_property
    def token_key_array(self) -> np.ndarray:
        """The stable 64-bit key of every token id (:func:`dpcore.mechanisms.token_keys`), computed once."""
        from ..mechanisms.keyed import token_keys

        return token_keys(self.vocabulary.tolist())

    @cached_property
    def user_key_array(self) -> np.ndarray:
        """``user_keys`` or, when absent, the keys of the user indices as text ("0", "1", …)."""
        if self.user_keys is not None:
            return np.asarray(self.user_keys, dtype=np.uint64)
        from ..mechanisms.keyed import text_key

        return np.fromiter((text_key(str(i)) for i in range(self.n_users)), dtype=np.uint64, count=self.n_users)

    @property
    def n_tokens(self) -> int:
        return int(self.tokens.size)

    @property
    def vocabulary_size(self) -> int:
        return int(self.vocabulary.size)

    @cached_property
    def unigram_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Distinct (user, token) pairs with occurrence counts, grouped by user (computed once).

        Level 1 of DPNE and DPSU over 1-grams do not depend on anything released, so a cached
        corpus pays this hash pass once.
        """
        pair_user, pair_item, counts, item_keys, _ = group_by_user(
            self.user_of, self.tokens, self.vocabulary_size, need_positions=False
        )
        return pair_user, item_keys[pair_item], counts

    def decode(self, rows: np.ndarray) -> set[tuple[str, ...]]:
        """Token-id rows ``(n, k)`` → a set of k-tuples of strings (for display and tests)."""
        rows = np.asarray(rows)
        if rows.size == 0:
            return set()
        words = self.vocabulary[rows]
        return {tuple(r) for r in words.tolist()}

    def encode_rows(self, grams: Sequence[Sequence[str]], k: int) -> np.ndarray:
        """String k-grams → ``(n, k)`` id rows; k-grams with an unknown token are dropped."""
        lookup = {w: i for i, w in enumerate(self.vocabulary.tolist())}
        out = [[lookup[w] for w in g] for g in grams if len(g) == k and all(w in lookup for w in g)]
        return np.asarray(out, dtype=np.int32).reshape(-1, k)


def _shape(name: str) -> str:
    return f"{name} is a list of users, each a list of sentences, each a list of string tokens"


def _check_users(users, name: str = "users") -> list:
    """``users`` as a list of users, or a TypeError that says what was passed instead."""
    if users is None or isinstance(users, (str, bytes)) or not isinstance(users, Iterable):
        raise TypeError(
            f"{name} must be a sequence of users (each a list of sentences, each a list of string "
            f"tokens), got {name}={_short(users)} ({type(users).__name__})"
        )
    if isinstance(users, Mapping):
        raise TypeError(
            f"{name} must be a sequence of users, got a mapping (dict); pass list({name}.values()) "
            "if it maps user ids to their sentences"
        )
    users = list(users)
    _check_items(None, users, name, depth=0)
    return users


def _check_items(users, items: list, name: str, *, depth: int) -> None:
    """Every user (depth 0) or sentence (depth 1) must be a sized iterable that is not a string."""
    kinds = set(map(type, items))
    if all(k in (list, tuple) for k in kinds):
        return
    for i, item in enumerate(items):
        if (
            isinstance(item, (str, bytes))
            or item is None
            or not isinstance(item, Iterable)
            or not hasattr(item, "__len__")
        ):
            where = f"{name}[{i}]" if depth == 0 else _sentence_position(users, i, name)
            if isinstance(item, (str, bytes)):
                hint = (
                    f"the string {_short(item)}, which would be split into characters; split the text "
                    "first (e.g. dpcore.tokenize(text) gives sentences of tokens)"
                )
            else:
                hint = f"{_short(item)} ({type(item).__name__}), not a list"
            raise TypeError(
                f"{where} must be a list of {'sentences' if depth == 0 else 'string tokens'}, got "
                f"{hint}; {_shape(name)}"
            )


def _sentence_position(users, flat_index: int, name: str) -> str:
    for u, sentences in enumerate(users):
        if flat_index < len(sentences):
            return f"{name}[{u}][{flat_index}]"
        flat_index -= len(sentences)
    return "a sentence"  # pragma: no cover


def _raise_bad_token(users, name: str) -> NoReturn:
    for u, sentences in enumerate(users):
        for s, sentence in enumerate(sentences):
            for t, token in enumerate(sentence):
                if not isinstance(token, str):
                    raise TypeError(
                        f"tokens must be strings, got {name}[{u}][{s}][{t}]={_short(token)} "
                        f"({type(token).__name__}); {_shape(name)}"
                    )
    raise TypeError(f"tokens must be strings; {_shape(name)}")  # pragma: no cover


def encode_users(users: Sequence[Sequence[Sequence[str]]]) -> TokenCorpus:
    """Users → :class:`TokenCorpus` (token ids, sentence run lengths, user of each position).

    Args:
      users: one item per user; each a sequence of sentences; each sentence a sequence of string
        tokens (e.g. ``Corpus.user_sentences()``). Empty sentences are skipped.

    Raises:
      TypeError: ``users`` is not a sequence of users, a user or a sentence is a string (it would be split
        into characters) or None, or a token is not a string (e.g. None). The message gives the position,
        e.g. ``users[3][0][2]``.
    """
    return _encode(users, "users")


def _encode(users, name: str) -> TokenCorpus:
    users = _check_users(users, name)
    n_users = len(users)
    sents_per_user = np.fromiter(map(len, users), dtype=np.int64, count=n_users)
    sentences = list(chain.from_iterable(users))
    _check_items(users, sentences, name, depth=1)
    lens = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = list(chain.from_iterable(sentences))
    if flat:
        # dict.fromkeys and map(dict.__getitem__) run in C and keep first-seen order; about twice as
        # fast as hashing an object array, since the str hashes are cached on the token objects.
        try:
            first_seen = dict.fromkeys(flat)
        except TypeError:  # an unhashable token, e.g. a list
            first_seen = None
        if first_seen is None or not all(map(isinstance, first_seen, repeat(str))):
            _raise_bad_token(users, name)
        lookup = {w: i for i, w in enumerate(first_seen)}
        tokens = np.fromiter(map(lookup.__getitem__, flat), dtype=np.int32, count=len(flat))
        vocab = np.empty(len(lookup), dtype=object)
        vocab[:] = list(lookup)
        del lookup, first_seen
    else:
        tokens = np.zeros(0, dtype=np.int32)
        vocab = np.zeros(0, dtype=object)
    ends = np.cumsum(lens)
    run_left = (np.repeat(ends, lens) - np.arange(tokens.size)).astype(np.int32)
    sentence_user = np.repeat(np.arange(n_users, dtype=np.int32), sents_per_user)
    user_of = np.repeat(sentence_user, lens).astype(np.int32)
    return TokenCorpus(tokens=tokens, run_left=run_left, user_of=user_of, vocabulary=vocab, n_users=n_users)


def encode_corpus(corpus) -> TokenCorpus:
    """A :class:`dpcore.Corpus` → :class:`TokenCorpus`, identical to ``encode_users(corpus.user_sentences())``.

    Corpora built from token arrays (the generated sample corpora, ``Corpus.token_arrays``) are
    converted with numpy only: ids are renumbered in first-seen order, as :func:`encode_users` does,
    so both paths give the same ids and therefore the same seeded releases.
    """
    arrays = getattr(corpus, "token_arrays", None)
    if not arrays:
        return encode_users(corpus.user_sentences())
    tokens = np.asarray(arrays["tokens"])
    so, do, uo = (np.asarray(arrays[k], dtype=np.int64) for k in ("sent_off", "doc_off", "user_off"))
    uniq, first = np.unique(tokens, return_index=True)
    order = np.argsort(first, kind="stable")
    remap = np.zeros(int(uniq.max()) + 1 if uniq.size else 1, dtype=np.int32)
    remap[uniq[order]] = np.arange(order.size, dtype=np.int32)
    ids = remap[tokens] if tokens.size else np.zeros(0, dtype=np.int32)
    words = arrays["words"]
    vocab = np.empty(order.size, dtype=object)
    vocab[:] = [words[i] for i in uniq[order].tolist()]
    lens = np.diff(so)
    run_left = (np.repeat(so[1:], lens) - np.arange(tokens.size)).astype(np.int32)
    sent_user = np.repeat(np.repeat(np.arange(len(uo) - 1, dtype=np.int32), np.diff(uo)), np.diff(do))
    user_of = np.repeat(sent_user, lens).astype(np.int32)
    return TokenCorpus(tokens=ids, run_left=run_left, user_of=user_of, vocabulary=vocab, n_users=len(uo) - 1)


@dataclass(frozen=True, eq=False)
class KgramLevel:
    """The distinct k-grams of one length k and who uses them.

    Attributes:
      k: the length.
      prefix, last: ``int32`` per k-gram id: the id of its (k−1)-gram prefix at level k−1 and its last
        token id (for k = 1, ``prefix`` is empty and ``last`` is the token id). The token rows are
        rebuilt from this chain on demand (:meth:`rows`, :attr:`grams`), so the index stores 8 bytes per
        distinct k-gram instead of 4·k.
      pair_user, pair_gram, pair_count: one entry per (user, distinct k-gram used by that user),
        grouped by user (users ascending): the user, the k-gram id and how many times the user wrote it.
      user_counts: for each k-gram id, the number of distinct users who use it.
      key_order: ``int32``, the k-gram ids sorted by their packed key prefix·|vocabulary| + last (for
        :meth:`NgramIndex.lookup`); empty for k = 1, whose ids are the token ids.
      parent: the level k−1 (None for k = 1).
    """

    k: int
    prefix: np.ndarray
    last: np.ndarray
    pair_user: np.ndarray
    pair_gram: np.ndarray
    pair_count: np.ndarray
    user_counts: np.ndarray
    key_order: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int32), repr=False)
    parent: "KgramLevel | None" = field(default=None, repr=False)

    @property
    def n_grams(self) -> int:
        return int(self.last.shape[0])

    def rows(self, ids) -> np.ndarray:
        """``(len(ids), k)`` ``int32`` token-id rows of the k-grams ``ids`` (walks the prefix chain)."""
        ids = np.asarray(ids, dtype=np.int64).ravel()
        out = np.empty((ids.size, self.k), dtype=np.int32)
        lev, cur = self, ids
        for j in range(self.k - 1, -1, -1):
            out[:, j] = lev.last[cur]
            if j:
                cur = lev.prefix[cur]
                lev = cast(KgramLevel, lev.parent)  # levels 2..k have their level k − 1
        return out

    @property
    def grams(self) -> np.ndarray:
        """``(n_k, k)`` ``int32`` token ids, one row per distinct k-gram (built on each access)."""
        return self.rows(np.arange(self.n_grams))

    def packed_keys(self) -> np.ndarray:
        """prefix·|vocabulary| + last per k-gram id (``int64``; k ≥ 2)."""
        V = np.int64(max(self._vocabulary_size(), 1))
        return self.prefix.astype(np.int64) * V + self.last

    def _vocabulary_size(self) -> int:
        lev = self
        while lev.parent is not None:
            lev = lev.parent
        return lev.n_grams


@dataclass(frozen=True, eq=False)
class NgramIndex:
    """Per-user distinct k-gram sets for k = 1..max_length over a :class:`TokenCorpus`."""

    corpus: TokenCorpus
    max_length: int
    levels: dict = field(default_factory=dict)  # k -> KgramLevel

    def level(self, k: int) -> KgramLevel:
        if k not in self.levels:
            raise UserError(f"k must be in 1..{self.max_length}, got k={k}")
        return self.levels[k]

    def lookup(self, rows: np.ndarray) -> np.ndarray:
        """The k-gram id of each token-id row ``(n, k)``, or −1 where the corpus has no such k-gram.

        Walks prefix by prefix through the packed keys, so the cost is O(n·k·log n_k) — cheap for a
        release, whatever the corpus size.
        """
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim != 2:
            raise UserError(f"rows must be a 2-D array of token ids, got shape {rows.shape}")
        n, k = rows.shape
        if k < 1 or k > self.max_length:
            raise UserError(f"row length must be in 1..{self.max_length}, got {k}")
        V = max(self.corpus.vocabulary_size, 1)
        in_vocab = ((rows >= 0) & (rows < self.corpus.vocabulary_size)).all(axis=1)  # an out-of-range id in a
        ids = np.where(in_vocab, rows[:, 0], -1)  # later column would alias another packed key
        for j in range(2, k + 1):
            lev = self.levels[j]
            if lev.n_grams == 0:
                return np.full(n, -1, dtype=np.int64)
            keys = lev.packed_keys()  # by id; sorted through key_order (searchsorted's sorter)
            key = ids * V + rows[:, j - 1]
            at = np.minimum(np.searchsorted(keys, key, sorter=lev.key_order), lev.n_grams - 1)
            hit = lev.key_order[at].astype(np.int64)
            found = (ids >= 0) & (keys[hit] == key)
            ids = np.where(found, hit, -1)
        return ids

    def user_sets(self, k: int) -> list[set[tuple[str, ...]]]:
        """G_k of every user as sets of string tuples (slow; for tests and small displays)."""
        lev = self.level(k)
        decoded = self.corpus.vocabulary[lev.grams].tolist() if lev.n_grams else []
        out: list[set[tuple[str, ...]]] = [set() for _ in range(self.corpus.n_users)]
        for u, g in zip(lev.pair_user.tolist(), lev.pair_gram.tolist()):
            out[u].add(tuple(decoded[g]))
        return out


def build_ngram_index(corpus: TokenCorpus | Sequence, max_length: int) -> NgramIndex:
    """Distinct k-grams per user for k = 1..max_length, never crossing a sentence boundary.

    Cost per level is two sort-based factorisations over the positions that hold a k-gram; memory per
    level is the (user, k-gram) pairs. Positions are visited user by user, so pairs come out grouped by user.

    Args:
      corpus: a :class:`TokenCorpus` or raw users (see :func:`encode_users`).
      max_length: T ≥ 1.
    """
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    if not isinstance(corpus, TokenCorpus):
        corpus = _encode(corpus, "corpus")
    tc = corpus
    n = tc.n_tokens
    V = max(tc.vocabulary_size, 1)
    levels: dict[int, KgramLevel] = {}
    pos = np.arange(n, dtype=np.int64)  # positions holding a k-gram at the current level
    gid = tc.tokens.astype(np.int64)  # k-gram id at each position of `pos`
    parent = None
    for k in range(1, max_length + 1):
        if k > 1:
            keep = tc.run_left[pos] >= k
            pos, gid = pos[keep], gid[keep]
            del keep
            key = gid * V + tc.tokens[pos + k - 1]
            gid, uniq = _factorize(key)
            del key
            prefix = (uniq // V).astype(np.int32)
            last = (uniq % V).astype(np.int32)
            key_order = np.argsort(uniq, kind="stable").astype(np.int32)
            del uniq
        else:
            prefix = np.zeros(0, dtype=np.int32)
            last = np.arange(tc.vocabulary_size, dtype=np.int32)
            key_order = np.zeros(0, dtype=np.int32)
        n_k = last.shape[0]
        users = tc.user_of[pos].astype(np.int64)
        pu, pi, pc, item_keys, _ = group_by_user(users, gid, n_k, need_positions=False)
        del users
        pair_user = pu.astype(np.int32)
        pair_gram = item_keys[pi].astype(np.int32)
        pair_count = pc.astype(np.int32)
        del pu, pi, pc, item_keys
        user_counts = np.bincount(pair_gram, minlength=n_k).astype(np.int32)
        parent = levels[k] = KgramLevel(
            k=k,
            prefix=prefix,
            last=last,
            pair_user=pair_user,
            pair_gram=pair_gram,
            pair_count=pair_count,
            user_counts=user_counts,
            key_order=key_order,
            parent=parent,
        )
    return NgramIndex(corpus=tc, max_length=max_length, levels=levels)


def rows_membership(rows: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """For each row of ``rows`` (n, k), whether it equals some row of ``reference`` (m, k). Exact.

    Rows are packed column by column into dense int64 codes by repeated factorisation, so no
    product of vocabulary sizes can overflow.
    """
    rows = np.asarray(rows, dtype=np.int64)
    reference = np.asarray(reference, dtype=np.int64)
    if rows.ndim != 2 or reference.ndim != 2 or rows.shape[1] != reference.shape[1]:
        raise UserError(f"rows and reference must be 2-D with the same width, got {rows.shape} and {reference.shape}")
    n = rows.shape[0]
    if n == 0:
        return np.zeros(0, dtype=bool)
    if reference.shape[0] == 0:
        return np.zeros(n, dtype=bool)
    both = np.vstack([rows, reference])
    code = np.zeros(both.shape[0], dtype=np.int64)
    for j in range(both.shape[1]):
        col_codes, col_uniq = _factorize(both[:, j])
        code, _ = _factorize(code * max(col_uniq.size, 1) + col_codes)
    ref_codes = np.zeros(code.max() + 1, dtype=bool)
    ref_codes[code[n:]] = True
    return ref_codes[code[:n]]
