"""VIPS-LDA's E-step: every person's expected topic–word counts given the *released* state (not privacy-critical).

Step 1 of :mod:`dpcore.topicdp.vips` (whose docstring has the method and the proof): from the previous released
λ_{t−1}, exp(E[log β]); for every document d a fresh γ_d (start γ_dk = :data:`GAMMA_START`, at most
:data:`DOC_ITERATIONS` updates, early stop at :data:`DOC_TOLERANCE`), φ_dwk ∝ exp(E[log θ_dk])·exp(E[log β_kw]);
person u's contribution S_u = Σ_{d of u} n_d·φ_d. Each document's γ_d depends on its own counts and λ_{t−1} only,
which is what makes one person's contribution independent of the others'. The unclipped contributions computed
here are clipped, summed and perturbed by :mod:`dpcore.topicdp.vips` (the privacy-critical lines).
"""

from __future__ import annotations

import numpy as np
from scipy.sparse import csr_matrix
from scipy.special import psi

from .._kernels import optional_kernel
from ..errors import UserError
from .vips_inputs import PersonCounts

__all__ = ["DOC_ITERATIONS", "DOC_TOLERANCE", "GAMMA_START", "person_contributions"]

DOC_ITERATIONS = 20
"""At most this many updates of one document's γ per E-step (scikit-learn's ``max_doc_update_iter``)."""
DOC_TOLERANCE = 1e-3
"""A document stops updating once the mean absolute change of its γ is below this (``mean_change_tol``)."""
GAMMA_START = 1.0
"""Every document's γ_dk starts here in every E-step (the mean of scikit-learn's Γ(100, 0.01) start)."""


def _kernel():
    """dpcore.topicdp._vips_kernel if numba is installed and ``DPCORE_VB_KERNEL`` is not ``"numpy"``; else None."""
    return optional_kernel("dpcore.topicdp._vips_kernel", env="DPCORE_VB_KERNEL")


def _exp_dirichlet(a: np.ndarray) -> np.ndarray:
    """exp(E[log X]) for rows X ~ Dirichlet(a): exp(ψ(a) − ψ(Σ a))."""
    return np.exp(psi(a) - psi(a.sum(axis=1))[:, None])


def _person_word_statistics_numpy(pc: PersonCounts, exp_beta: np.ndarray) -> np.ndarray:
    """The numpy path of :func:`dpcore.topicdp._vips_kernel.person_word_statistics` (same model up to rounding)."""
    x = pc.counts
    k = exp_beta.shape[0]
    alpha = 1.0 / k
    eps = np.finfo(np.float64).eps
    beta_t = np.ascontiguousarray(exp_beta.T)
    n_docs = x.shape[0]
    doc_of = np.repeat(np.arange(n_docs), np.diff(x.indptr))
    gam = np.full((n_docs, k), GAMMA_START)
    exp_theta = _exp_dirichlet(gam)
    active = np.flatnonzero(np.diff(x.indptr) > 0)
    for _ in range(DOC_ITERATIONS):
        if active.size == 0:
            break
        sub = x[active]
        sub_doc = np.repeat(np.arange(active.size), np.diff(sub.indptr))
        et = exp_theta[active]
        norm = np.einsum("ik,ik->i", et[sub_doc], beta_t[sub.indices]) + eps
        ratio = csr_matrix((sub.data / norm, sub.indices, sub.indptr), shape=sub.shape)
        new = et * (ratio @ beta_t) + alpha
        change = np.abs(new - gam[active]).mean(axis=1)
        gam[active] = new
        exp_theta[active] = _exp_dirichlet(new)
        active = active[change >= DOC_TOLERANCE]
    et = exp_theta[doc_of]
    bt = beta_t[x.indices]
    norm = np.einsum("ik,ik->i", et, bt) + eps
    contrib = et * bt * (x.data / norm)[:, None]
    out = np.zeros((pc.n_pairs, k))
    np.add.at(out, pc.entry_pw, contrib)
    return out


def person_contributions(pc: PersonCounts, released_lambda: np.ndarray) -> np.ndarray:
    """Every (user, word) pair's expected topic counts Σ_{d of u} n_dw·φ_dwk (n_pairs × K), computed
    from the released variational parameter λ (K × V) only; row i belongs to ``pc.pw_user[i]``,
    ``pc.pw_word[i]``. Summing the rows of user u gives S_u."""
    lam = np.asarray(released_lambda, dtype=np.float64)
    if lam.ndim != 2 or lam.shape[1] != len(pc.words) or not np.all(lam > 0):
        raise UserError(f"released_lambda must be a positive K × {len(pc.words)} array, got shape {lam.shape}")
    exp_beta = _exp_dirichlet(lam)
    kernel = _kernel()
    if kernel is None:
        return _person_word_statistics_numpy(pc, exp_beta)
    x = pc.counts
    return kernel.person_word_statistics(
        x.indptr,
        x.indices,
        x.data,
        pc.entry_pw,
        pc.n_pairs,
        np.ascontiguousarray(exp_beta.T),
        1.0 / lam.shape[0],
        GAMMA_START,
        DOC_ITERATIONS,
        DOC_TOLERANCE,
    )
