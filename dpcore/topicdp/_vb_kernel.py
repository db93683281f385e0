"""Compiled inner loops of the "vb" LDA engine (optional: used when numba is installed, extra [fast]).

The same arithmetic as :func:`dpcore.topicdp.fitting._fit_vb`'s numpy path — scikit-learn's batch
variational Bayes, document by document as scikit-learn's Cython ``_update_doc_distribution`` does —
compiled, so one E-step is a single pass over the stored counts instead of a dozen numpy temporaries
of size nnz × K. The random numbers stay in numpy (the caller draws γ's initial values from the
same ``RandomState`` in the same order), so the numba and numpy paths fit the same model; they
differ only in rounding: ψ here is the asymptotic series scikit-learn itself uses (``_psi`` in
``sklearn/decomposition/_online_lda_fast.pyx``) where the numpy path calls scipy, and sums run in
another order. tests/test_topicdp.py compares the two paths on random corpora.

This module imports numba at import time; load it only through :func:`dpcore._kernels.optional_kernel`
(:func:`dpcore.topicdp.fitting._vb_kernel`), which checks its disk caches before use.
"""

from __future__ import annotations

import math

import numba
import numpy as np


@numba.njit(cache=True, fastmath=False)
def _psi(x: float) -> float:
    """Digamma ψ(x) for x > 0: ψ(x) = ψ(x + 6) − Σ_{i<6} 1/(x + i) below 6 (the six reciprocals summed
    as one fraction: one division instead of six), then the asymptotic series. Within 1e-13 of scipy."""
    r = 0.0
    if x < 6.0:
        a = x * (x + 1.0)
        b = (x + 2.0) * (x + 3.0)
        c = (x + 4.0) * (x + 5.0)
        r = -((2.0 * x + 1.0) * b * c + (2.0 * x + 5.0) * a * c + (2.0 * x + 9.0) * a * b) / (a * b * c)
        x += 6.0
    f = 1.0 / (x * x)
    t = f * (
        -1.0 / 12
        + f
        * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12))))))
    )
    return r + math.log(x) - 0.5 / x + t


@numba.njit(cache=True, fastmath=False)
def _exp_psi_minus(x: float, c: float) -> float:
    """exp(ψ(x) − c) without the logarithm: with y = x (+ 6 below 6) and ψ(x) = log y − 1/(2y) + t(y) − Σ,
    exp(ψ(x) − c) = y · exp(−1/(2y) + t(y) − Σ − c). The same series as :func:`_psi`."""
    r = 0.0
    if x < 6.0:
        a = x * (x + 1.0)
        b = (x + 2.0) * (x + 3.0)
        e = (x + 4.0) * (x + 5.0)
        r = ((2.0 * x + 1.0) * b * e + (2.0 * x + 5.0) * a * e + (2.0 * x + 9.0) * a * b) / (a * b * e)
        x += 6.0
    f = 1.0 / (x * x)
    t = f * (
        -1.0 / 12
        + f
        * (1.0 / 120 + f * (-1.0 / 252 + f * (1.0 / 240 + f * (-1.0 / 132 + f * (691.0 / 32760 + f * (-1.0 / 12))))))
    )
    return x * math.exp(t - 0.5 / x - r - c)


@numba.njit(cache=True)
def exp_dirichlet_rows(a: np.ndarray) -> np.ndarray:
    """exp(ψ(a) − ψ(Σ a)) row by row (exp of E[log X] for X ~ Dirichlet(a))."""
    n, k = a.shape
    out = np.empty_like(a)
    for i in range(n):
        s = 0.0
        for j in range(k):
            s += a[i, j]
        ps = _psi(s)
        for j in range(k):
            out[i, j] = _exp_psi_minus(a[i, j], ps)
    return out


@numba.njit(cache=True, fastmath=True, inline="always")
def _phi_norm(et, beta_t, w, eps):
    """φ's normaliser for word w of one document: exp_θ_d · exp_β_w + ε (scikit-learn's norm_phi)."""
    norm = eps
    for j in range(et.shape[0]):
        norm += et[j] * beta_t[w, j]
    return norm


@numba.njit(cache=True, fastmath=True)
def e_step(indptr, indices, data, gam, beta_t, alpha, max_iter, tol):
    """One E-step over every document, in place on ``gam`` (n_docs × K, the fresh initial values).

    ``beta_t`` is exp(E[log β]) transposed (V × K). Returns the sufficient statistics before the
    final multiplication by exp(E[log β]): S[k, w] = Σ_d exp_θ_dk · n_dw / (exp_θ_d · exp_β_w + ε).
    """
    n_docs, k = gam.shape
    n_words = beta_t.shape[0]
    eps = np.finfo(np.float64).eps
    sstats = np.zeros((k, n_words))
    et = np.empty(k)
    new = np.empty(k)
    psum = np.empty(k)
    for d in range(n_docs):
        lo, hi = indptr[d], indptr[d + 1]
        s = 0.0
        for j in range(k):
            s += gam[d, j]
        ps = _psi(s)
        for j in range(k):
            et[j] = _exp_psi_minus(gam[d, j], ps)
        for _ in range(max_iter):
            for j in range(k):
                psum[j] = 0.0
            for p in range(lo, hi):
                w = indices[p]
                r = data[p] / _phi_norm(et, beta_t, w, eps)
                for j in range(k):
                    psum[j] += r * beta_t[w, j]
            change = 0.0
            s = 0.0
            for j in range(k):
                new[j] = et[j] * psum[j] + alpha
                change += abs(new[j] - gam[d, j])
                gam[d, j] = new[j]
                s += new[j]
            ps = _psi(s)
            for j in range(k):
                et[j] = _exp_psi_minus(new[j], ps)
            if change / k < tol:
                break
        for p in range(lo, hi):
            w = indices[p]
            r = data[p] / _phi_norm(et, beta_t, w, eps)
            for j in range(k):
                sstats[j, w] += et[j] * r
    return sstats
