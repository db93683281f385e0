"""The topic model behind TopicDP: LDA on a corpus' documents and its m × n topic–keyword matrix.

Thesis 004 §2.1 and SPEC §5: f(D) fits LDA (scikit-learn, fixed ``random_state``) on the
documents; the released matrix W ∈ [0, 1]^{m×n} has the m most prevalent topics as rows and, as
columns, the union of the selected topics' top keywords, truncated or padded to n by overall weight;
every row is renormalised to a probability vector over those n words (thesis §2.1: "the sum of the
entries in each row is 1"; this is also what the Laplace baseline's ℓ1 sensitivity 2m assumes).

Readings taken here (the thesis and SPEC are silent on them):

* **Fixed vocabulary.** The CountVectorizer vocabulary is built once from the whole corpus and kept
  for every fit (the full-corpus release and the 2h fits of the sensitivity sampler), so the fits
  of D and D' share their columns. Words a topic does not use still carry the LDA prior mass.
* **Prevalence** of a topic = the number of word tokens LDA assigns to it (the row sums of
  ``components_``), which needs no extra E-step.
* **Keyword columns**: each selected topic contributes its top ⌈n/m⌉ words; the union is ordered by
  overall weight Σ_t prevalence_t·β_t,w over the selected topics, truncated to n, and padded with
  the next words by the same weight when the union is smaller than n.
* **Speed.** The sampler repeats the fit 2h times, so the defaults are chosen for speed: at most
  1,000 words (min_df = 5, max_df = 0.5, English stop words removed), batch variational Bayes with
  ``max_iter = 10``, ``max_doc_update_iter = 10`` and ``mean_change_tol = 1e-2`` (sklearn's defaults
  are 100 and 1e-3; on the sample corpus most topics keep the same top words and a fit is ~1.4× faster:
  24.7 s → 17.8 s for all 9,465 documents, ~1.4 s → ~1.0 s for a 100-user sample, on a shared 2-core machine).
  Batch learning is deterministic for a fixed ``random_state`` and processes D and D' identically.

Topic alignment: LDA returns its topics in an arbitrary order, so two fits are compared after
matching their rows with the Hungarian algorithm (``scipy.optimize.linear_sum_assignment``) on
squared Euclidean distances, which gives the row permutation minimising the Frobenius distance.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix

from .corpus import Corpus
from .validation import check_choice, check_int, check_real

__all__ = [
    "LDA_LEARNING_METHODS",
    "LdaSettings",
    "DocumentTermData",
    "TopicModel",
    "TopicKeywordMatrix",
    "document_term_data",
    "fit_topic_word",
    "fit_topic_model",
    "topic_keyword_matrix",
    "align_topics",
    "aligned_matrix_distance",
]

LDA_LEARNING_METHODS = ("batch", "online")


@dataclass(frozen=True)
class LdaSettings:
    """Everything that determines f(D) besides the data (part of every cache key).

    Attributes:
      n_topics: number of LDA topics K (the matrix's m is at most K).
      max_iter, learning_method, max_doc_update_iter, mean_change_tol: scikit-learn LDA settings.
      max_features, min_df, max_df: CountVectorizer vocabulary limits (built once on the corpus).
      random_state: the LDA seed, identical for every fit (SPEC §5: same seed for D and D').
    """

    n_topics: int = 10
    max_iter: int = 10
    learning_method: str = "batch"
    max_doc_update_iter: int = 10
    mean_change_tol: float = 1e-2
    max_features: int = 1000
    min_df: int = 5
    max_df: float = 0.5
    random_state: int = 0

    def __post_init__(self):
        check_int("n_topics", self.n_topics, low=2, high=50)
        check_int("max_iter", self.max_iter, low=1, high=500)
        check_choice("learning_method", self.learning_method, LDA_LEARNING_METHODS)
        check_int("max_doc_update_iter", self.max_doc_update_iter, low=1, high=1000)
        check_real("mean_change_tol", self.mean_change_tol, low=0.0)
        check_int("max_features", self.max_features, low=10, high=100_000)
        check_int("min_df", self.min_df, low=1)
        check_real("max_df", self.max_df, low=0.0, high=1.0)
        check_int("random_state", self.random_state, low=0)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, eq=False)
class DocumentTermData:
    """The corpus as a document–term count matrix over a fixed vocabulary, grouped by user.

    ``user_rows[u]`` are the rows of ``counts`` holding user u's documents.
    """

    counts: csr_matrix
    words: tuple[str, ...]
    user_rows: tuple[np.ndarray, ...]
    corpus_hash: str

    @property
    def n_users(self) -> int:
        return len(self.user_rows)

    def rows_of(self, users) -> np.ndarray:
        """Row indices of the documents of ``users`` (a user may repeat: resampling with replacement)."""
        return np.concatenate([self.user_rows[int(u)] for u in users])


@dataclass(frozen=True, eq=False)
class TopicModel:
    """A fitted LDA: ``topic_word[k]`` is topic k's distribution over ``words``; ``prevalence[k]``
    the number of tokens assigned to topic k."""

    topic_word: np.ndarray
    prevalence: np.ndarray
    words: tuple[str, ...]
    settings: LdaSettings
    corpus_hash: str = ""

    @property
    def n_topics(self) -> int:
        return self.topic_word.shape[0]


@dataclass(frozen=True, eq=False)
class TopicKeywordMatrix:
    """The released query f(D): an m × n row-stochastic matrix and what its rows and columns are.

    ``topics`` are indices into the model's topics (most prevalent first); ``words`` the column words.
    """

    matrix: np.ndarray
    topics: tuple[int, ...]
    words: tuple[str, ...]

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape


def document_term_data(corpus: Corpus, *, settings: LdaSettings = LdaSettings()) -> DocumentTermData:
    """Count matrix of ``corpus.document_texts()`` over a vocabulary fixed once on the whole corpus.

    Raises:
      ValueError: the corpus has fewer than two users or no word survives the vocabulary limits.
    """
    from sklearn.feature_extraction.text import CountVectorizer

    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    if corpus.n_users < 2:
        raise ValueError(f"the corpus must have >= 2 users for topic mining, got {corpus.n_users}")
    texts = corpus.document_texts()
    # min_df / max_df relative to a tiny corpus can leave nothing: relax them so a small upload works.
    min_df = min(settings.min_df, max(1, len(texts) // 20))
    max_df = settings.max_df if len(texts) >= 20 else 1.0
    vec = CountVectorizer(max_features=settings.max_features, min_df=min_df, max_df=max_df,
                          stop_words="english", token_pattern=r"(?u)\b[a-z][a-z']+\b")
    try:
        counts = vec.fit_transform(texts).tocsr()
    except ValueError:
        raise ValueError(
            "no word is left for topic mining after the vocabulary limits (stop words, min_df, max_df): "
            "the corpus needs more text"
        ) from None
    users = np.asarray(corpus.document_users())
    order = np.argsort(users, kind="stable")
    bounds = np.searchsorted(users[order], np.arange(corpus.n_users + 1))
    user_rows = tuple(order[bounds[u]:bounds[u + 1]] for u in range(corpus.n_users))
    return DocumentTermData(counts=counts, words=tuple(vec.get_feature_names_out()), user_rows=user_rows,
                            corpus_hash=corpus.content_hash)


def fit_topic_word(counts, settings: LdaSettings) -> tuple[np.ndarray, np.ndarray]:
    """Fit LDA on a count matrix; return (topic_word K × V with rows summing to 1, prevalence K)."""
    from sklearn.decomposition import LatentDirichletAllocation

    lda = LatentDirichletAllocation(
        n_components=settings.n_topics,
        max_iter=settings.max_iter,
        learning_method=settings.learning_method,
        max_doc_update_iter=settings.max_doc_update_iter,
        mean_change_tol=settings.mean_change_tol,
        random_state=settings.random_state,
    )
    lda.fit(counts)
    comp = lda.components_
    prevalence = comp.sum(axis=1)
    return comp / prevalence[:, None], prevalence


def fit_topic_model(data: DocumentTermData, *, settings: LdaSettings = LdaSettings(), users=None) -> TopicModel:
    """Fit f's LDA on all documents of ``data`` (or of the given ``users``, in that order)."""
    if not isinstance(data, DocumentTermData):
        raise TypeError(f"data must be a DocumentTermData (see document_term_data), got data={type(data).__name__}")
    if not isinstance(settings, LdaSettings):
        raise TypeError(f"settings must be an LdaSettings, got settings={type(settings).__name__}")
    counts = data.counts if users is None else data.counts[data.rows_of(users)]
    topic_word, prevalence = fit_topic_word(counts, settings)
    return TopicModel(topic_word=topic_word, prevalence=prevalence, words=data.words, settings=settings,
                      corpus_hash=data.corpus_hash)


def _select(topic_word: np.ndarray, prevalence: np.ndarray, m: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the m most prevalent topics and of the n keyword columns (see module docstring)."""
    topics = np.argsort(-prevalence, kind="stable")[:m]
    sub = topic_word[topics]
    per_topic = math.ceil(n / m)
    top = np.argsort(-sub, axis=1, kind="stable")[:, :per_topic]
    overall = prevalence[topics] @ sub
    union = np.unique(top)
    union = union[np.argsort(-overall[union], kind="stable")][:n]
    if union.size < n:
        rest = np.setdiff1d(np.argsort(-overall, kind="stable")[: n + union.size], union, assume_unique=False)
        rest = rest[np.argsort(-overall[rest], kind="stable")]
        union = np.concatenate([union, rest[: n - union.size]])
    return topics, union


def topic_keyword_matrix(model: TopicModel, *, m: int, n: int) -> TopicKeywordMatrix:
    """The m × n matrix of SPEC §5 from a fitted model (rows renormalised over the n columns).

    Raises:
      ValueError: m outside [1, K] or n outside [2, vocabulary size].
    """
    m = check_int("m", m, low=1, high=model.n_topics)
    n = check_int("n", n, low=2, high=len(model.words))
    topics, cols = _select(model.topic_word, model.prevalence, m, n)
    w = model.topic_word[np.ix_(topics, cols)]
    w = w / w.sum(axis=1, keepdims=True)
    return TopicKeywordMatrix(matrix=w, topics=tuple(int(t) for t in topics),
                              words=tuple(model.words[c] for c in cols))


def align_topics(reference, other) -> np.ndarray:
    """The row permutation ``perm`` with ``other[perm]`` closest to ``reference`` in Frobenius norm.

    Hungarian matching (``scipy.optimize.linear_sum_assignment``) on the squared Euclidean distance
    between rows (SPEC §5: LDA topics come back permuted). Both arrays must have the same shape.
    """
    a = np.asarray(reference, dtype=float)
    b = np.asarray(other, dtype=float)
    if a.ndim != 2 or a.shape != b.shape:
        raise ValueError(f"reference and other must be 2-D arrays of the same shape, got {a.shape} and {b.shape}")
    cost = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    rows, cols = linear_sum_assignment(cost)
    perm = np.empty(a.shape[0], dtype=int)
    perm[rows] = cols
    return perm


def aligned_matrix_distance(a: np.ndarray, a_cols: np.ndarray, b: np.ndarray, b_cols: np.ndarray) -> float:
    """‖f(D) − f(D')‖_F for two m × n matrices whose columns are vocabulary indices ``a_cols``/``b_cols``.

    Both are placed in the union of their columns (a word a matrix does not show has probability 0,
    thesis §2.1), then the rows of ``b`` are aligned to those of ``a`` before the norm is taken.
    """
    union = np.union1d(a_cols, b_cols)
    ea = np.zeros((a.shape[0], union.size))
    eb = np.zeros((b.shape[0], union.size))
    ea[:, np.searchsorted(union, a_cols)] = a
    eb[:, np.searchsorted(union, b_cols)] = b
    perm = align_topics(ea, eb)
    return float(np.linalg.norm(ea - eb[perm]))
