"""Cached loaders of the Bayesian n-gram DP page (paper 000; SPEC §3): counts, statistics, sweeps.

What does not depend on ε is cached by corpus hashes and parameters (``st.cache_resource`` for the
large read-only objects, ``st.cache_data`` for small tables); noisy sweeps take the seed as an
argument, so the seed is in their key, and draw from ``rng_for(seed, salt…)``. The corpora are
underscore arguments so Streamlit does not hash them. All maths lives in dpcore.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from dpcore.text import ngram_counts
from dpcore.bayesian import bayesian_statistics
from dpcore.bayesian.end_to_end import prepare_end_to_end
from dpcore.bayesian import BAYESIAN_STRICT, BAYESIAN, END_TO_END, LAPLACE, LAPLACE_PUBLIC, PUBLIC, kl_vs_epsilon, kl_vs_k, kl_vs_public_quality, kl_vs_users, kl_vs_vocabulary, membership_inference, perplexity_setup, perplexity_table

from .state import rng_for

K_OPTIONS = (1, 2, 5, 10, 20, 50, 100, 200)
"""K of the k-anonymity baseline (the page's K slider and the KL-vs-K sweep)."""
SWEEP_EPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
"""ε grid of the KL-vs-ε sweep (000 Fig. 1)."""


# ------------------------------------------------------------------------------ noise-free
@st.cache_resource(show_spinner="Counting n-grams per user …", max_entries=8)
def counts_for(private_hash: str, public_hash: str, n: int, _private, _public):
    return ngram_counts(_private, _public, n=n)


@st.cache_resource(show_spinner="Clamping counts and computing x̂, μ_p …", max_entries=16)
def statistics_for(private_hash: str, public_hash: str, n: int, C: int, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return bayesian_statistics(c.user_counts, c.public_counts, C=C)


@st.cache_resource(show_spinner="Computing the sensitivity by brute force …", max_entries=64)
def prepared_for(private_hash, public_hash, n, C, S, rho, _private, _public):
    """The prepared mechanism (brute-force γ) and Claim 1's worst-case γ."""
    st_ = statistics_for(private_hash, public_hash, n, C, _private, _public)
    return st_.prepare(S=S, rho=rho), st_.sensitivity(S, "worst-case")


@st.cache_data(show_spinner=False, max_entries=16)
def private_distribution(private_hash, public_hash, n, _private, _public):
    return counts_for(private_hash, public_hash, n, _private, _public).private_distribution()


@st.cache_data(show_spinner=False, max_entries=32)
def k_sweep(private_hash, public_hash, n, _private, _public):
    return kl_vs_k(counts_for(private_hash, public_hash, n, _private, _public), Ks=K_OPTIONS)


# ------------------------------------------------------------------------------ seed in the key
# Every parameter that changes a draw salts it (issue 21 item 5), so two views never share their noise.
def eps_sweep_salt(n, S, C, rho, W, delta, calibration, with_e2e, L, N_max) -> tuple:
    """The salt of :func:`eps_sweep`'s draws (the page exports it as it is)."""
    return ("bayes-eps-sweep", delta, n, S, C, rho, W, calibration, with_e2e, L, N_max)


@st.cache_data(show_spinner="Sweeping ε for every mechanism …", max_entries=32)
def eps_sweep(private_hash, public_hash, n, S, C, rho, W, delta, reps, calibration, seed, with_e2e, L, N_max,
              _private, _public):
    """000 Fig. 1 with our strict variant beside the paper's BayesianDP (L, N_max: strict mode's caps)."""
    c = counts_for(private_hash, public_hash, n, _private, _public)
    mechs = (BAYESIAN, BAYESIAN_STRICT, LAPLACE, LAPLACE_PUBLIC, PUBLIC) + ((END_TO_END,) if with_e2e else ())
    return kl_vs_epsilon(c, epsilons=SWEEP_EPS, delta=delta, S=S, C=C, rho=rho, W=W, repetitions=reps,
                         rng=rng_for(seed, *eps_sweep_salt(n, S, C, rho, W, delta, calibration, with_e2e, L, N_max)),
                         calibration=calibration, mechanisms=mechs, max_items=L, max_users=N_max)


@st.cache_data(show_spinner="Running the experiment …", max_entries=16)
def data_sweep(kind, private_hash, public_hash, n, eps, S, C, rho, W, delta, reps, calibration, seed, L, N_max,
               _private, _public):
    """000 Figs. 2–4: KL against the number of users, the vocabulary size or the public data's quality, with our
    strict BayesianDP (L, N_max: strict mode's caps) beside the paper's."""
    c = counts_for(private_hash, public_hash, n, _private, _public)
    kw = dict(epsilon=eps, delta=delta, S=S, C=C, rho=rho, repetitions=min(reps, 5), calibration=calibration,
              rng=rng_for(seed, "bayes", kind, n, eps, delta, S, C, rho, W, calibration, L, N_max), max_items=L,
              max_users=N_max)
    mechs = (BAYESIAN, BAYESIAN_STRICT, LAPLACE, LAPLACE_PUBLIC, PUBLIC)
    if kind == "users":
        sizes = sorted({max(2, int(x)) for x in np.geomspace(min(20, c.n_users), c.n_users, 7).round()})
        return kl_vs_users(c, user_numbers=sizes, W=W, mechanisms=mechs, **kw)
    if kind == "vocabulary":
        sizes = sorted({max(2, int(x)) for x in np.geomspace(min(50, c.vocabulary_size), c.vocabulary_size, 7).round()})
        return kl_vs_vocabulary(c, sizes=sizes, W=W, mechanisms=mechs, **kw)
    return kl_vs_public_quality(c, noise_scales=(0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0), **kw)


@st.cache_resource(show_spinner="Splitting users and counting trigrams …", max_entries=4)
def perplexity_data(private_hash, public_hash, seed, _private, _public):
    return perplexity_setup(_private, _public, rng=rng_for(seed, "bayes-perplexity-split"))


@st.cache_data(show_spinner="Releasing trigram distributions …", max_entries=16)
def perplexity_for(private_hash, public_hash, eps, S, C, rho, W, K, delta, calibration, seed, _private, _public):
    """000 Table 1: the perplexity table, the number of held-out trigrams and of held-out sentences."""
    setup = perplexity_data(private_hash, public_hash, seed, _private, _public)
    return perplexity_table(setup, epsilon=eps, delta=delta, S=S, C=C, rho=rho, W=W, K=K, repetitions=3,
                            rng=rng_for(seed, "bayes-perplexity", eps, delta, S, C, rho, W, K, calibration),
                            calibration=calibration), setup.heldout.size, setup.n_heldout_sentences


@st.cache_data(show_spinner="Attacking: releases with and without the most active user …", max_entries=16)
def attack_for(private_hash, public_hash, n, S, C, rho, W, delta, trials, calibration, seed, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return membership_inference(c, epsilons=(0.1, 0.3, 1.0, 3.0, 10.0), delta=delta, S=S, C=C, rho=rho, W=W,
                                trials=trials, calibration=calibration,
                                rng=rng_for(seed, "bayes-attack", n, delta, S, C, rho, W, trials, calibration))


@st.cache_resource(show_spinner="Scoring the (S, ρ) grid on the validation users …", max_entries=8)
def end_to_end_for(private_hash, public_hash, n, C, seed, _private, _public):
    c = counts_for(private_hash, public_hash, n, _private, _public)
    return prepare_end_to_end(c.user_counts, c.public_counts, C=C, rng=rng_for(seed, "bayes-e2e-split", n, C))


# what is computed from an upload is given back with it (issue 25)
from . import uploads as _uploads  # noqa: E402 (at the end: the functions above are what dpui.uploads registers)

_uploads.track_caches(globals())
