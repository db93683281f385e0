"""Fitting LDA (vb / sklearn / tomotopy engines) and the released topic–keyword matrix with its alignment
and distances (thesis 004 §2.1, SPEC §5). The settings and data types are in :mod:`dpcore.topicdp.model`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix

from .._kernels import optional_kernel
from ..errors import UserError
from ..validation import check_int
from .model import DocumentTermData, LdaSettings, TopicKeywordMatrix, TopicModel

__all__ = [
    "fit_topic_word",
    "fit_topic_model",
    "topic_keyword_matrix",
    "align_topics",
    "aligned_matrix_distance",
    "released_matrix_distance",
]


def fit_topic_word(counts, settings: LdaSettings) -> tuple[np.ndarray, np.ndarray]:
    """Fit LDA on a document–term count matrix; return (topic_word K × V with rows summing to 1,
    prevalence K). The one place an engine is called (``settings.engine``; module docstring)."""
    if settings.engine == "vb":
        if settings.learning_method != "batch":
            raise UserError(
                f"learning_method must be 'batch' for engine='vb', got learning_method={settings.learning_method!r}"
            )
        return _fit_vb(counts, settings)
    if settings.engine == "tomotopy":
        return _fit_tomotopy(counts, settings)
    return _fit_sklearn(counts, settings)


def _canonical_counts(counts, dtype) -> csr_matrix:
    """A private CSR copy with summed duplicates and sorted indices: the fit never changes its input,
    and the result does not depend on how the input's indices happen to be ordered."""
    x = csr_matrix(counts, dtype=dtype, copy=True)
    x.sum_duplicates()
    x.sort_indices()
    return x


def _rows(x: csr_matrix, rows: np.ndarray) -> tuple[csr_matrix, np.ndarray]:
    """The CSR sub-matrix of ``rows`` and, for each of its stored entries, its row number."""
    sub = x[rows]
    return sub, np.repeat(np.arange(rows.size), np.diff(sub.indptr))


def _psi(x: np.ndarray) -> np.ndarray:
    from scipy.special import psi

    return psi(x)


def _exp_dirichlet_expectation(a: np.ndarray) -> np.ndarray:
    """exp(E[log X]) for rows X ~ Dirichlet(a): exp(ψ(a) − ψ(Σ a))."""
    return np.exp(_psi(a) - _psi(a.sum(axis=1))[:, None])


def _vb_kernel():
    """The compiled E-step (dpcore.topicdp._vb_kernel) if numba is installed and ``DPCORE_VB_KERNEL`` is not
    ``"numpy"``; else None (the numpy path). Both fit the same model up to rounding."""
    return optional_kernel("dpcore.topicdp._vb_kernel", env="DPCORE_VB_KERNEL")


def _fit_vb(counts, settings: LdaSettings) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's batch variational Bayes for LDA (Hoffman, Blei & Bach 2010, batch form),
    step for step, with the per-document loop vectorised over all documents at once.

    Same random numbers (``numpy.random.RandomState(random_state)``: λ ~ Γ(100, 0.01) once, then
    each E-step's γ ~ Γ(100, 0.01)), the same per-document early stop (a document stops updating once
    the mean absolute change of its γ is below ``mean_change_tol``), the same ε added to φ's
    normaliser, the same M-step λ = η + E[n_kw]. It departs from scikit-learn only in rounding (scipy's
    ψ instead of scikit-learn's own approximation, and sums taken in another order) and it skips the
    final perplexity E-step, which does not change ``components_``. tests/test_topicdp.py compares the
    two on random corpora.
    """
    x = _canonical_counts(counts, np.float64)
    n_docs, n_words = x.shape
    k = settings.n_topics
    alpha = eta = 1.0 / k
    eps = np.finfo(np.float64).eps
    rs = np.random.RandomState(settings.random_state)
    lam = rs.gamma(100.0, 0.01, (k, n_words))
    exp_beta = _exp_dirichlet_expectation(lam)
    kernel = _vb_kernel()
    if kernel is not None:
        for _ in range(settings.max_iter):
            gam = rs.gamma(100.0, 0.01, (n_docs, k))
            sstats = kernel.e_step(
                x.indptr,
                x.indices,
                x.data,
                gam,
                np.ascontiguousarray(exp_beta.T),
                alpha,
                settings.max_doc_update_iter,
                settings.mean_change_tol,
            )
            lam = eta + sstats * exp_beta
            exp_beta = kernel.exp_dirichlet_rows(lam)
        prevalence = lam.sum(axis=1)
        return lam / prevalence[:, None], prevalence
    all_docs = np.arange(n_docs)
    doc_of_all = np.repeat(all_docs, np.diff(x.indptr))
    for _ in range(settings.max_iter):
        beta_t = np.ascontiguousarray(exp_beta.T)  # V × K: row gathers are contiguous
        gam = rs.gamma(100.0, 0.01, (n_docs, k))
        exp_theta = _exp_dirichlet_expectation(gam)
        active = all_docs
        for _ in range(settings.max_doc_update_iter):
            if active.size == 0:
                break
            sub, doc_of = (x, doc_of_all) if active.size == n_docs else _rows(x, active)
            et = exp_theta[active]
            norm = np.einsum("ik,ik->i", np.take(et, doc_of, axis=0), np.take(beta_t, sub.indices, axis=0)) + eps
            ratio = csr_matrix((sub.data / norm, sub.indices, sub.indptr), shape=sub.shape)
            new = et * (ratio @ beta_t) + alpha
            change = np.abs(new - gam[active]).mean(axis=1)
            gam[active] = new
            exp_theta[active] = _exp_dirichlet_expectation(new)
            active = active[change >= settings.mean_change_tol]
        norm = np.einsum("ik,ik->i", np.take(exp_theta, doc_of_all, axis=0), np.take(beta_t, x.indices, axis=0)) + eps
        ratio = csr_matrix((x.data / norm, x.indices, x.indptr), shape=x.shape)
        sstats = np.asarray(ratio.T @ exp_theta).T * exp_beta
        lam = eta + sstats
        exp_beta = _exp_dirichlet_expectation(lam)
    prevalence = lam.sum(axis=1)
    return lam / prevalence[:, None], prevalence


def _fit_sklearn(counts, settings: LdaSettings) -> tuple[np.ndarray, np.ndarray]:
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


_TOKEN_NAMES: dict[int, np.ndarray] = {}


def _token_names(n_words: int) -> np.ndarray:
    """Column j of the count matrix goes to tomotopy as the token "j" (object array, built once per V)."""
    names = _TOKEN_NAMES.get(n_words)
    if names is None:
        names = _TOKEN_NAMES[n_words] = np.array([str(j) for j in range(n_words)], dtype=object)
    return names


def _fit_tomotopy(counts, settings: LdaSettings) -> tuple[np.ndarray, np.ndarray]:
    import tomotopy as tp  # present: LdaSettings falls back to "vb" when it is not

    x = _canonical_counts(counts, np.int64)
    k, n_words = settings.n_topics, x.shape[1]
    prior = 1.0 / k  # scikit-learn's defaults for both priors
    tokens = _token_names(n_words)[np.repeat(x.indices, x.data.astype(np.int64))]
    ends = np.cumsum(np.asarray(x.sum(axis=1)).ravel().astype(np.int64))
    model = tp.LDAModel(k=k, alpha=prior, eta=prior, seed=settings.random_state)
    model.optim_interval = 0  # fixed priors, as in the scikit-learn engine
    n_docs = 0
    for doc in np.split(tokens, ends[:-1]):
        if doc.size:
            model.add_doc(doc.tolist())
            n_docs += 1
    if n_docs == 0:
        raise UserError("the documents must hold at least one vocabulary word, got none")
    model.train(settings.gibbs_iter, workers=1, parallel=tp.ParallelScheme.NONE)
    raw = np.array([model.get_topic_word_dist(t, normalize=False) for t in range(k)])  # n_kw + η
    vocab = model.used_vocabs if len(model.used_vocabs) == raw.shape[1] else model.vocabs
    used = np.fromiter((int(w) for w in vocab), dtype=np.int64, count=raw.shape[1])
    n_kw = np.zeros((k, n_words))
    n_kw[:, used] = np.maximum(raw - prior, 0.0)
    n_kw = np.rint(n_kw)  # integer counts (float32 round-off removed)
    prevalence = n_kw.sum(axis=1)
    topic_word = (n_kw + prior) / (prevalence + n_words * prior)[:, None]
    return topic_word, prevalence


def fit_topic_model(data: DocumentTermData, *, settings: LdaSettings = LdaSettings(), users=None) -> TopicModel:
    """Fit f's LDA on all documents of ``data`` (or of the given ``users``, in that order)."""
    if not isinstance(data, DocumentTermData):
        raise TypeError(f"data must be a DocumentTermData (see document_term_data), got data={type(data).__name__}")
    if not isinstance(settings, LdaSettings):
        raise TypeError(f"settings must be an LdaSettings, got settings={type(settings).__name__}")
    counts = data.counts if users is None else data.counts[data.rows_of(users)]
    topic_word, prevalence = fit_topic_word(counts, settings)
    return TopicModel(
        topic_word=topic_word, prevalence=prevalence, words=data.words, settings=settings, corpus_hash=data.corpus_hash
    )


def _select(topic_word: np.ndarray, prevalence: np.ndarray, m: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the m most prevalent topics and of the n keyword columns, both **in release order**:
    rows by LDA component index, columns by vocabulary index (module docstring, "Release order")."""
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
    return np.sort(topics), np.sort(union)


def topic_keyword_matrix(model: TopicModel, *, m: int, n: int) -> TopicKeywordMatrix:
    """The m × n matrix of SPEC §5 from a fitted model (rows renormalised over the n columns), rows and
    columns in release order (LDA component index; vocabulary index).

    Raises:
      ValueError: m outside [1, K] or n outside [2, vocabulary size].
    """
    m = check_int("m", m, low=1, high=model.n_topics)
    n = check_int("n", n, low=2, high=len(model.words))
    topics, cols = _select(model.topic_word, model.prevalence, m, n)
    w = model.topic_word[np.ix_(topics, cols)]
    w = w / w.sum(axis=1, keepdims=True)
    return TopicKeywordMatrix(matrix=w, topics=tuple(int(t) for t in topics), words=tuple(model.words[c] for c in cols))


def align_topics(reference, other) -> np.ndarray:
    """The row permutation ``perm`` with ``other[perm]`` closest to ``reference`` in Frobenius norm.

    Hungarian matching (``scipy.optimize.linear_sum_assignment``) on the squared Euclidean distance
    between rows (SPEC §5: LDA topics come back permuted). Both arrays must have the same shape.
    """
    a = np.asarray(reference, dtype=float)
    b = np.asarray(other, dtype=float)
    if a.ndim != 2 or a.shape != b.shape:
        raise UserError(f"reference and other must be 2-D arrays of the same shape, got {a.shape} and {b.shape}")
    cost = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=2)
    rows, cols = linear_sum_assignment(cost)
    perm = np.empty(a.shape[0], dtype=int)
    perm[rows] = cols
    return perm


def _embed(a: np.ndarray, a_cols: np.ndarray, b: np.ndarray, b_cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both matrices over the union of their column words (a word a table does not show has probability 0)."""
    union = np.union1d(a_cols, b_cols)
    ea = np.zeros((a.shape[0], union.size))
    eb = np.zeros((b.shape[0], union.size))
    ea[:, np.searchsorted(union, a_cols)] = a
    eb[:, np.searchsorted(union, b_cols)] = b
    return ea, eb


def released_matrix_distance(a: np.ndarray, a_cols: np.ndarray, b: np.ndarray, b_cols: np.ndarray) -> float:
    """‖f(D) − f(D′)‖_F between two released m × n matrices *as released*: row i against row i (rows carry
    no label but their position), columns matched by word (each column is released with its word; a word
    a table does not show has probability 0, thesis §2.1). ``a_cols``/``b_cols`` are vocabulary indices.

    This is TopicDP's Δ_i (SPEC §5, "Release order"): no re-alignment of rows, so a row order that
    depends on the data is paid for in Δ_s.
    """
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[0] != b.shape[0]:
        raise UserError(f"a and b must be 2-D with the same number of rows, got {a.shape} and {b.shape}")
    ea, eb = _embed(a, np.asarray(a_cols), b, np.asarray(b_cols))
    return float(np.linalg.norm(ea - eb))


def aligned_matrix_distance(a: np.ndarray, a_cols: np.ndarray, b: np.ndarray, b_cols: np.ndarray) -> float:
    """‖f(D) − f(D')‖_F for two m × n matrices whose columns are vocabulary indices ``a_cols``/``b_cols``.

    Both are placed in the union of their columns (a word a matrix does not show has probability 0,
    thesis §2.1), then the rows of ``b`` are aligned to those of ``a`` before the norm is taken.

    This *aligned* distance was TopicDP's Δ_i until issue 21 item 3; it is smaller than the distance
    between the matrices as released whenever the release order differs from the best alignment, so it
    is kept as a diagnostic only (:func:`released_matrix_distance` is Δ_i).
    """
    ea, eb = _embed(a, a_cols, b, b_cols)
    perm = align_topics(ea, eb)
    return float(np.linalg.norm(ea - eb[perm]))
