"""Compiled E-step of VIPS-LDA (optional: used when numba is installed, extra [fast]).

The same arithmetic as :func:`dpcore.topicdp.vips_estep._person_word_statistics_numpy`: for every document, the
batch variational-Bayes update of its topic proportions γ_d (scikit-learn's
``_update_doc_distribution``, as in :mod:`dpcore.topicdp._vb_kernel`) from a fixed start γ_d = ``gamma0``
against the *released* exp(E[log β]); then each of the document's word counts n_dw, split over the
topics by φ_dwk ∝ exp(E[log θ_dk])·exp(E[log β_kw]), is added to the row of its (person, word) pair:

    out[pw(d, w), k] += n_dw · φ_dwk.

Nothing here is privacy-critical: it computes every person's unclipped contribution, which
:func:`dpcore.topicdp.vips._clipped_sum` clips, sums and :func:`dpcore.topicdp.vips._noisy_release` perturbs.
tests/test_vips.py compares this kernel with the numpy path and with a per-document loop.

This module imports numba at import time; load it only through :func:`dpcore.topicdp.vips_estep._kernel`
(:func:`dpcore._kernels.optional_kernel`, which checks its disk caches, and those of the imported
:mod:`dpcore.topicdp._vb_kernel` functions, before use).
"""

from __future__ import annotations

import numba
import numpy as np

from ._vb_kernel import _exp_psi_minus, _phi_norm, _psi


@numba.njit(cache=True, fastmath=True)
def person_word_statistics(indptr, indices, data, entry_pw, n_pw, beta_t, alpha, gamma0, max_iter, tol):
    """(n_pw × K) contributions n_dw·φ_dwk summed per (person, word) row ``entry_pw[p]`` of each stored count.

    ``beta_t`` is exp(E[log β]) transposed (V × K). Each document starts from γ_dk = ``gamma0`` and stops
    after ``max_iter`` updates or once the mean absolute change of γ_d is below ``tol``.
    """
    n_docs = indptr.size - 1
    k = beta_t.shape[1]
    eps = np.finfo(np.float64).eps
    out = np.zeros((n_pw, k))
    gam = np.empty(k)
    et = np.empty(k)
    new = np.empty(k)
    psum = np.empty(k)
    for d in range(n_docs):
        lo, hi = indptr[d], indptr[d + 1]
        if lo == hi:
            continue
        for j in range(k):
            gam[j] = gamma0
        ps = _psi(gamma0 * k)
        for j in range(k):
            et[j] = _exp_psi_minus(gamma0, ps)
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
                change += abs(new[j] - gam[j])
                gam[j] = new[j]
                s += new[j]
            ps = _psi(s)
            for j in range(k):
                et[j] = _exp_psi_minus(new[j], ps)
            if change / k < tol:
                break
        for p in range(lo, hi):
            w = indices[p]
            r = data[p] / _phi_norm(et, beta_t, w, eps)
            row = entry_pw[p]
            for j in range(k):
                out[row, j] += et[j] * r * beta_t[w, j]
    return out
