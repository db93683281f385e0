"""Per-user n-gram counts over a vocabulary fixed by the public corpus (000 §3, §4.1; SPEC §3 step 1).

The BayesianDP mechanism and its baselines all start from the same object: a sparse matrix of
per-user counts (users × |V|) and the public counts α over the same vocabulary V. V is the set of
distinct n-grams of the *public* corpus; private n-grams outside V are dropped (000 §4.1: "the
vocabulary is determined only by the public dataset"). n-grams never cross a sentence boundary.

Columns are ordered by public count (descending, ties broken alphabetically), so "the top-k
public items" (000 Fig. 3, vocabulary size) is simply the first k columns: see
:meth:`NgramCounts.top_vocabulary`.

The function is pure (no caching); the page caches its result with ``st.cache_resource`` keyed by
the two corpus hashes and n.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np
import scipy.sparse as sp

from ..errors import UserError
from ..validation import check_int, check_rng
from .corpus import Corpus
from .ngrams import encode_corpus

__all__ = ["NgramCounts", "ngram_counts", "sentence_ngrams", "vocabulary_from_counter", "NGRAM_ORDERS"]

NGRAM_ORDERS = (1, 2, 3)


def sentence_ngrams(sentence: Sequence[str], n: int) -> Iterable[tuple[str, ...]]:
    """The n-grams of one sentence (never crossing its ends); empty if the sentence is shorter than n."""
    if n == 1:
        return ((t,) for t in sentence)
    return zip(*(sentence[k:] for k in range(n)))


def _check_order(n) -> int:
    n = check_int("n", n, low=1, high=3)
    return n


@dataclass(frozen=True, eq=False)
class NgramCounts:
    """Per-user n-gram counts over the public vocabulary.

    Attributes:
      n: the n-gram order (1, 2 or 3).
      vocabulary: the n-grams of V as tuples of tokens, in column order (public count descending).
      user_counts: ``scipy.sparse.csr_matrix`` of shape (users, |V|), raw integer counts (not clamped).
      public_counts: α, float array of length |V| (every entry ≥ 1 for a vocabulary built from a corpus).
      user_ids: the private users, in row order.
      dropped_tokens: private n-gram occurrences outside V (dropped, SPEC §3 step 1).
      private_hash, public_hash: content hashes of the corpora the counts came from ("" if built directly).
    """

    n: int
    vocabulary: tuple[tuple[str, ...], ...]
    user_counts: sp.csr_matrix
    public_counts: np.ndarray
    user_ids: tuple[str, ...] = ()
    dropped_tokens: int = 0
    private_hash: str = ""
    public_hash: str = ""
    _index: dict | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        m = self.user_counts
        if not sp.issparse(m):
            raise TypeError(f"user_counts must be a scipy.sparse matrix, got {type(m).__name__}")
        m = sp.csr_matrix(m)
        alpha = np.asarray(self.public_counts, dtype=float)
        if alpha.ndim != 1 or alpha.shape[0] != m.shape[1]:
            raise UserError(
                f"public_counts must have one entry per vocabulary column, got {alpha.shape} for {m.shape[1]} columns"
            )
        if self.vocabulary and len(self.vocabulary) != m.shape[1]:
            raise UserError(f"vocabulary has {len(self.vocabulary)} items but user_counts has {m.shape[1]} columns")
        object.__setattr__(self, "user_counts", m)
        object.__setattr__(self, "public_counts", alpha)
        if not self.user_ids:
            object.__setattr__(self, "user_ids", tuple(str(i) for i in range(m.shape[0])))

    def __repr__(self) -> str:
        return (
            f"NgramCounts(n={self.n}, users={self.n_users}, vocabulary={self.vocabulary_size}, "
            f"nnz={self.user_counts.nnz}, dropped_tokens={self.dropped_tokens})"
        )

    @property
    def n_users(self) -> int:
        return self.user_counts.shape[0]

    @property
    def vocabulary_size(self) -> int:
        return self.user_counts.shape[1]

    @property
    def index(self) -> dict:
        """n-gram tuple → column id."""
        index = self._index
        if index is None:
            index = {g: i for i, g in enumerate(self.vocabulary)}
            object.__setattr__(self, "_index", index)
        return index

    def total_counts(self) -> np.ndarray:
        """c = Σ_n Δc^n (raw, unclamped), float array of length |V|."""
        return np.asarray(self.user_counts.sum(axis=0), dtype=float).ravel()

    def users_per_item(self) -> np.ndarray:
        """N_i = number of users with a positive count of item i."""
        return np.bincount(self.user_counts.indices, minlength=self.vocabulary_size).astype(np.int64)

    def private_distribution(self) -> np.ndarray:
        """The normalised private counts over V (the distribution every KL is measured against)."""
        c = self.total_counts()
        total = c.sum()
        if total <= 0:
            raise UserError("the private corpus has no n-gram inside the public vocabulary; KL is undefined")
        return c / total

    def public_distribution(self) -> np.ndarray:
        """α̃, the normalised public counts (all-zero → uniform)."""
        a = self.public_counts
        s = a.sum()
        return a / s if s > 0 else np.full(a.shape, 1.0 / a.size)

    def subset_users(self, rows) -> "NgramCounts":
        """The counts of the given users (row indices); vocabulary and public counts unchanged."""
        rows = np.asarray(rows, dtype=np.int64)
        return NgramCounts(
            n=self.n,
            vocabulary=self.vocabulary,
            user_counts=self.user_counts[rows],
            public_counts=self.public_counts,
            user_ids=tuple(self.user_ids[i] for i in rows),
            dropped_tokens=-1,
            private_hash="",
            public_hash=self.public_hash,
        )

    def top_vocabulary(self, size: int) -> "NgramCounts":
        """Restrict V to the ``size`` most frequent public items (000 Fig. 3)."""
        size = check_int("vocabulary size", size, low=2, high=self.vocabulary_size)
        return NgramCounts(
            n=self.n,
            vocabulary=self.vocabulary[:size],
            user_counts=self.user_counts[:, :size].tocsr(),
            public_counts=self.public_counts[:size],
            user_ids=self.user_ids,
            dropped_tokens=-1,
        )

    def with_public_counts(self, public_counts) -> "NgramCounts":
        """The same private counts with another public prior α (e.g. a noisier one, 000 Fig. 4)."""
        return NgramCounts(
            n=self.n,
            vocabulary=self.vocabulary,
            user_counts=self.user_counts,
            public_counts=np.asarray(public_counts, dtype=float),
            user_ids=self.user_ids,
            dropped_tokens=self.dropped_tokens,
        )

    def split_users(self, share: float, rng) -> tuple[np.ndarray, np.ndarray]:
        """Random disjoint row indices (first ≈ share of the users, the rest), seeded."""
        rng = check_rng(rng)
        perm = rng.permutation(self.n_users)
        k = int(round(share * self.n_users))
        k = min(max(k, 1), self.n_users - 1)
        return np.sort(perm[:k]), np.sort(perm[k:])


def _public_vocabulary(public: Corpus, n: int, max_vocabulary: int | None):
    counter: Counter = Counter()
    for docs in public.users:
        for doc in docs:
            for sent in doc.sentences:
                counter.update(sentence_ngrams(sent, n))
    return vocabulary_from_counter(counter, n, max_vocabulary)


def vocabulary_from_counter(counter: Counter, n: int, max_vocabulary: int | None):
    """(V, α) from the public n-grams' counts: count descending, ties alphabetically (as tuples of str), the first
    ``max_vocabulary``; ValueError when there is none."""
    if not counter:
        raise UserError(f"the public corpus has no {n}-gram: its sentences are all shorter than n={n}")
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    if max_vocabulary is not None:
        items = items[:max_vocabulary]
    vocab = tuple(k for k, _ in items)
    alpha = np.fromiter((v for _, v in items), dtype=float, count=len(items))
    return vocab, alpha


def ngram_counts(private: Corpus, public: Corpus, *, n: int = 1, max_vocabulary: int | None = None) -> NgramCounts:
    """Count n-grams per private user over the vocabulary of the public corpus.

    Args:
      private: the corpus to protect (rows of the result, in its user order).
      public: the public corpus; its distinct n-grams form V and their counts α.
      n: n-gram order, 1, 2 or 3. n-grams never cross a sentence boundary.
      max_vocabulary: keep only the most frequent public n-grams (None = all).

    Returns:
      :class:`NgramCounts` with a CSR matrix (users × |V|) of int64 counts.

    Raises:
      TypeError: a corpus is not a :class:`Corpus`.
      ValueError: n outside {1, 2, 3}, a vocabulary of fewer than 2 items, or no public n-gram.

    Cost: both corpora as token ids (:func:`dpcore.text.encode_corpus`: numpy only for the generated sample
    corpora), each n-gram an int64 key, one ``np.unique`` for V, one ``searchsorted`` for the private
    n-grams, one sparse COO → CSR conversion; no Python loop over tokens (the same result as the dict
    lookup per token of :func:`_ngram_counts_python`, used only when the keys would overflow int64).
    """
    for name, c in (("private", private), ("public", public)):
        if not isinstance(c, Corpus):
            raise TypeError(f"{name} must be a dpcore.Corpus, got {name}={type(c).__name__}")
    n = _check_order(n)
    if max_vocabulary is not None:
        max_vocabulary = check_int("max_vocabulary", max_vocabulary, low=2)
    pub_ids, pub_run, _, words = _token_ids(public, n)
    v = max(len(words), 1)
    if v**n >= 2**62:  # n-gram keys would not fit in int64 (millions of distinct tokens): count in Python
        return _ngram_counts_python(private, public, n, max_vocabulary)
    keys, _ = _ngram_keys(pub_ids, pub_run, n, v)
    del pub_ids, pub_run
    if keys.size == 0:
        raise UserError(f"the public corpus has no {n}-gram: its sentences are all shorter than n={n}")
    uniq, freq = np.unique(keys, return_counts=True)
    del keys
    words = np.asarray(words, dtype=object)
    digits = _digits(uniq, n, v)  # token ids of each distinct n-gram
    order = _vocabulary_order(digits, freq, words, v, max_vocabulary)
    columns = [words[d[order]].tolist() for d in digits]
    vocab = tuple(zip(*columns))
    alpha = freq[order].astype(float)
    _check_vocabulary(vocab)
    row, col, dropped = _private_entries(private, n, v, words, uniq, order)
    return _assemble(private, public, n, vocab, alpha, row, col, dropped)


def _check_vocabulary(vocab) -> None:
    if len(vocab) < 2:
        raise UserError(
            f"vocabulary size must be >= 2 (a softmax over one item carries no information), got |V|={len(vocab)}"
        )


def _assemble(private, public, n: int, vocab, alpha, row, col, dropped: int, index=None) -> NgramCounts:
    """The counts of the private entries (``row``: a user, ``col``: its n-gram's place in V), summed per cell."""
    data = np.ones(col.shape[0], dtype=np.int64)
    m = sp.coo_matrix((data, (row, col)), shape=(private.n_users, len(vocab))).tocsr()
    m.sum_duplicates()
    return NgramCounts(
        n=n,
        vocabulary=vocab,
        user_counts=m,
        public_counts=alpha,
        user_ids=private.user_ids,
        dropped_tokens=dropped,
        private_hash=private.content_hash,
        public_hash=public.content_hash,
        _index=index,
    )


def _digits(uniq: np.ndarray, n: int, v: int) -> list[np.ndarray]:
    """The token ids of each distinct n-gram key (key = Σ_j id_j · v^(n−1−j))."""
    return [(uniq // v ** (n - 1 - j)) % v for j in range(n)]


def _vocabulary_order(digits, freq, words: np.ndarray, v: int, max_vocabulary: int | None) -> np.ndarray:
    """The distinct public n-grams in vocabulary order: count descending, then alphabetical (as tuples of str),
    the first ``max_vocabulary`` of them."""
    rank = np.empty(v, dtype=np.int64)  # alphabetical rank of each token: tuples of str compare by these
    rank[sorted(range(words.size), key=words.__getitem__)] = np.arange(words.size)
    order = np.lexsort(tuple(rank[d] for d in reversed(digits)) + (-freq,))  # count desc, then alphabetical
    return order if max_vocabulary is None else order[:max_vocabulary]


def _private_entries(private: Corpus, n: int, v: int, words: np.ndarray, uniq, order) -> tuple:
    """(user row, vocabulary column) of every private n-gram in V, and how many private n-grams are not in V."""
    # private tokens in the public id space (-1: not a public token, so no n-gram of V holds it)
    lookup = {w: i for i, w in enumerate(words.tolist())}
    prv_ids, prv_run, prv_user, prv_words = _token_ids(private, n)
    to_public = np.fromiter((lookup.get(w, -1) for w in prv_words), dtype=np.int64, count=len(prv_words))
    pkeys, pos = _ngram_keys(to_public[prv_ids], prv_run, n, v)
    del prv_ids, prv_run
    column_of = np.full(uniq.size, -1, dtype=np.int64)  # column of each distinct public n-gram (-1: cut off)
    column_of[order] = np.arange(order.size)
    if v**n <= 2**25:  # a direct table over the key space
        table = np.full(v**n + 1, -1, dtype=np.int64)  # the last slot: keys of unknown tokens (-1)
        table[uniq] = column_of
        col = table[pkeys]
    else:  # uniq is sorted: binary search, then check the hit
        at = np.minimum(np.searchsorted(uniq, pkeys), uniq.size - 1)
        col = np.where(uniq[at] == pkeys, column_of[at], -1)
    found = col >= 0
    dropped = int(pkeys.size - np.count_nonzero(found))
    row = (prv_user[found] if pos is None else prv_user[pos[found]]).astype(np.int64)
    return row, col[found], dropped


def _token_ids(corpus: Corpus, n: int):
    """(token ids, tokens left in the sentence (None for n = 1: not needed), user of each position, the
    token strings) of a corpus.

    The generated sample corpora keep their token arrays (ids into a list of distinct words): used as
    they are. Any other corpus goes through :func:`dpcore.text.encode_corpus`."""
    arrays = getattr(corpus, "token_arrays", None)
    if arrays:
        words = list(arrays["words"])
        if len(set(words)) == len(words):
            tokens = np.asarray(arrays["tokens"])
            so, do, uo = (np.asarray(arrays[k], dtype=np.int64) for k in ("sent_off", "doc_off", "user_off"))
            lens = np.diff(so)
            run_left = np.repeat(so[1:], lens) - np.arange(tokens.size) if n > 1 else None
            sent_user = np.repeat(np.repeat(np.arange(len(uo) - 1, dtype=np.int32), np.diff(uo)), np.diff(do))
            return tokens, run_left, np.repeat(sent_user, lens), words
    tc = encode_corpus(corpus)
    return tc.tokens, tc.run_left, tc.user_of, tc.vocabulary.tolist()


def _ngram_keys(ids: np.ndarray, run_left: np.ndarray | None, n: int, v: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The n-grams of a token-id stream as int64 keys Σ_j id_j·v^(n−1−j), and their start positions
    (None for n = 1: every position; the keys may then be ``ids`` itself).

    An n-gram starts at p iff ``run_left[p] >= n`` (it stays inside its sentence). A window holding an
    id of −1 (a token outside the public vocabulary) gets a negative key, which matches no n-gram of V."""
    if n == 1:  # every token is a 1-gram (an unknown one is already −1); the start positions are all
        return ids.astype(np.int64, copy=False), None
    pos = np.flatnonzero(cast(np.ndarray, run_left) >= n)  # given for n > 1 (see _token_ids)
    ids = ids.astype(np.int64, copy=False)
    keys = ids[pos]
    unknown = keys < 0
    for j in range(1, n):
        nxt = ids[pos + j]
        unknown |= nxt < 0
        keys *= v
        keys += nxt
    keys[unknown] = -1
    return keys, pos


def _ngram_counts_python(private: Corpus, public: Corpus, n: int, max_vocabulary: int | None) -> NgramCounts:
    """:func:`ngram_counts` by a dict lookup per private token (for vocabularies too large for int64 keys)."""
    vocab, alpha = _public_vocabulary(public, n, max_vocabulary)
    _check_vocabulary(vocab)
    index = {g: i for i, g in enumerate(vocab)}
    get = index.get
    cols: list[int] = []
    row_lengths = np.zeros(private.n_users, dtype=np.int64)
    dropped = 0
    for u, docs in enumerate(private.users):
        before = len(cols)
        for doc in docs:
            for sent in doc.sentences:
                for g in sentence_ngrams(sent, n):
                    j = get(g)
                    if j is None:
                        dropped += 1
                    else:
                        cols.append(j)
        row_lengths[u] = len(cols) - before
    col = np.asarray(cols, dtype=np.int64)
    row = np.repeat(np.arange(private.n_users, dtype=np.int64), row_lengths)
    return _assemble(private, public, n, vocab, alpha, row, col, dropped, index)
