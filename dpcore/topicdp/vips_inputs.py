"""VIPS-LDA's inputs: the public vocabulary and each person's word counts over it (no noise here)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from scipy.sparse import csr_matrix

from ..errors import UserError
from ..text.corpus import Corpus, shipped_public_hashes
from ..validation import check_int, check_real, check_sequence
from .model import TOKEN_PATTERN, TOPIC_STOP_WORDS

__all__ = [
    "DEFAULT_VOCABULARY_SIZE",
    "VIPS_STOP_WORDS",
    "PersonCounts",
    "VipsVocabulary",
    "person_counts",
    "public_vocabulary",
    "VocabularyCoverage",
    "vocabulary_coverage",
]


VIPS_STOP_WORDS = TOPIC_STOP_WORDS
"""The default stop words of :func:`public_vocabulary`: the project's rule, :data:`dpcore.topicdp.TOPIC_STOP_WORDS`
(scikit-learn's English list, the e-mail/review fillers and the chat fillers that a document-frequency rule
finds on the chat's public split, :data:`dpcore.topicdp.CHAT_FILLER_WORDS`) — the same list as the TopicDP
page's LDA, so the two vocabularies differ only by the corpus they are counted on (issue 23: a hand-picked
chat list of VIPS's own was replaced by the project's rule)."""
DEFAULT_VOCABULARY_SIZE = 1000
"""Words kept by :func:`public_vocabulary` (most frequent in the public corpus first)."""


# --------------------------------------------------------------------------------------------------
# Public vocabulary and the private counts over it
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VipsVocabulary:
    """A vocabulary fixed from public data: ``words`` (sorted) and where they come from.

    ``source_hash`` is the content hash of the corpus the words were counted on ("" when the caller
    gave the words), so :func:`vips_lda` can refuse to train on that same corpus. That test is exact: a
    vocabulary of 919 of the 920 private people passes it. So :attr:`known_public` — the only thing that makes
    VIPS-LDA's badge green — is True only for words counted on a public split dpcore's loaders returned
    (:func:`dpcore.text.shipped_public_hashes`); any other source (a caller's corpus or word list) makes the
    release "DP if this vocabulary is public" (orange: DP conditional on a non-private part; issue 30 item 4).
    """

    words: tuple[str, ...]
    source: str
    source_hash: str = field(default="", repr=False)

    def __post_init__(self):
        words = self.words
        if not isinstance(words, tuple) or not words or not all(isinstance(w, str) and w for w in words):
            raise UserError("vocabulary words must be a non-empty tuple of non-empty strings")
        if len(set(words)) != len(words):
            raise UserError("vocabulary must not repeat a word")

    @property
    def known_public(self) -> bool:
        """True when the words were counted on a shipped public split (known to share no person with the private
        data); False for a caller's corpus or word list, whose publicness dpcore cannot check."""
        return bool(self.source_hash) and self.source_hash in shipped_public_hashes()


def public_vocabulary(
    public: Corpus,
    *,
    stop_words=VIPS_STOP_WORDS,
    max_features: int = DEFAULT_VOCABULARY_SIZE,
    min_df: int = 5,
    max_df: float = 0.5,
    source: str | None = None,
) -> VipsVocabulary:
    """The ``max_features`` most frequent words of a *public* corpus, outside ``stop_words``.

    Words are lower-case runs of two or more letters (:data:`dpcore.topicdp.model.TOKEN_PATTERN`); a word
    must appear in at least ``min_df`` and at most a ``max_df`` share of the public documents. The
    caller vouches that ``public`` is public (e.g. ``load_real_corpus("chat", which="public")``, other
    people than the private split, or ``load_sample_corpus("public")``).

    Args:
      public: the public corpus.
      stop_words: words never kept (one parameter, so the project's stop-word rule can be swapped in).
      max_features, min_df, max_df: CountVectorizer limits, as in :class:`dpcore.LdaSettings`.
      source: how the page names the public data (default: the corpus name and size).

    Raises:
      ValueError: no word is left.
    """
    from sklearn.feature_extraction.text import CountVectorizer

    if not isinstance(public, Corpus):
        raise TypeError(f"public must be a dpcore Corpus, got public={type(public).__name__}")
    stop = sorted({str(w) for w in check_sequence("stop_words", stop_words)})
    max_features = check_int("max_features", max_features, low=2, high=100_000)
    min_df = check_int("min_df", min_df, low=1)
    max_df = check_real("max_df", max_df, low=0.0, high=1.0)
    vec = CountVectorizer(
        max_features=max_features, min_df=min_df, max_df=max_df, stop_words=stop, token_pattern=TOKEN_PATTERN
    )
    try:
        vec.fit(public.document_texts())
    except ValueError:
        raise UserError(
            "no word of the public corpus is left after the vocabulary limits (stop words, min_df, "
            f"max_df): got min_df={min_df}, max_df={max_df}"
        ) from None
    words = tuple(str(w) for w in vec.get_feature_names_out())
    source = source or f"the public corpus '{public.name}' ({public.n_users} people)"
    return VipsVocabulary(words=words, source=source, source_hash=public.content_hash)


def _as_vocabulary(vocabulary) -> VipsVocabulary:
    if isinstance(vocabulary, VipsVocabulary):
        return vocabulary
    words = check_sequence("vocabulary", vocabulary)
    if not words or not all(isinstance(w, str) and w for w in words):
        raise UserError("vocabulary must be a VipsVocabulary or a non-empty sequence of non-empty words")
    return VipsVocabulary(words=tuple(sorted(words)), source="a word list given by the caller")


@dataclass(frozen=True, eq=False)
class PersonCounts:
    """The private documents as counts over a public vocabulary, grouped by user (never released).

    ``counts`` is documents × V (CSR, rows of user 0 first, then user 1, …); every stored count p
    belongs to the (user, word) pair ``entry_pw[p]``, whose user and word are ``pw_user`` and
    ``pw_word``: the rows of one user's K × V contribution.
    """

    counts: csr_matrix
    words: tuple[str, ...]
    n_users: int
    entry_pw: np.ndarray
    pw_user: np.ndarray
    pw_word: np.ndarray
    corpus_hash: str

    @property
    def n_pairs(self) -> int:
        return int(self.pw_user.size)


def person_counts(corpus: Corpus, vocabulary) -> PersonCounts:
    """Count every document of ``corpus`` over ``vocabulary`` (other words dropped), grouped by user."""
    from sklearn.feature_extraction.text import CountVectorizer

    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    vocab = _as_vocabulary(vocabulary)
    vec = CountVectorizer(vocabulary=list(vocab.words), token_pattern=TOKEN_PATTERN)
    x = csr_matrix(vec.transform(corpus.document_texts()), dtype=np.float64)
    users = np.asarray(corpus.document_users(), dtype=np.int64)  # already grouped by user, in user order
    x.sum_duplicates()
    x.sort_indices()
    entry_user = np.repeat(users, np.diff(x.indptr))
    codes = entry_user * len(vocab.words) + x.indices
    uniq, entry_pw = np.unique(codes, return_inverse=True)
    return PersonCounts(
        counts=x,
        words=vocab.words,
        n_users=corpus.n_users,
        entry_pw=entry_pw.astype(np.int64),
        pw_user=uniq // len(vocab.words),
        pw_word=uniq % len(vocab.words),
        corpus_hash=corpus.content_hash,
    )


@dataclass(frozen=True)
class VocabularyCoverage:
    """How much of a corpus a fixed vocabulary can see (evaluation only: computed on that corpus, never released).

    ``tokens`` / ``words``: the corpus's word tokens / distinct words (:data:`dpcore.topicdp.model.TOKEN_PATTERN`,
    outside ``stop_words``); ``tokens_covered`` / ``words_covered``: those in the vocabulary."""

    tokens: int
    tokens_covered: int
    words: int
    words_covered: int

    @property
    def token_share(self) -> float:
        return self.tokens_covered / self.tokens if self.tokens else 0.0

    @property
    def word_share(self) -> float:
        return self.words_covered / self.words if self.words else 0.0


def vocabulary_coverage(corpus: Corpus, vocabulary, *, stop_words=VIPS_STOP_WORDS) -> VocabularyCoverage:
    """The share of ``corpus``'s word tokens (and distinct words) outside ``stop_words`` that ``vocabulary`` holds:
    what VIPS-LDA, which drops every other word, can see of an uploaded corpus (issue 30 item 10). Computed on the
    corpus itself: evaluation only, not part of any release."""
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    vocab = _as_vocabulary(vocabulary)
    stop = {str(w) for w in check_sequence("stop_words", stop_words)}
    # the words CountVectorizer(token_pattern=TOKEN_PATTERN) finds in the space-joined documents, counted once per
    # distinct token (tokens never contain a space, so the pattern's matches in a document are those in its tokens)
    per_token = Counter(t for docs in corpus.users for doc in docs for sent in doc.sentences for t in sent)
    per_word: Counter = Counter()
    pattern = re.compile(TOKEN_PATTERN)
    for tok, c in per_token.items():
        for w in pattern.findall(tok.lower()):
            if w not in stop:
                per_word[w] += c
    inside = set(vocab.words)
    return VocabularyCoverage(
        tokens=int(sum(per_word.values())),
        tokens_covered=int(sum(c for w, c in per_word.items() if w in inside)),
        words=len(per_word),
        words_covered=sum(1 for w in per_word if w in inside),
    )
