"""Cached loaders of the Bayesian n-gram DP page (paper 000; SPEC §3): counts, statistics, sweeps.

What does not depend on ε is cached by corpus hashes and parameters (``st.cache_resource`` for the
large read-only objects, ``st.cache_data`` for small tables); noisy computations are keyed by their
spec (dpcore.specs.bayesian: the seed and every parameter are in ``spec.key()``) and draw from the spec's ``rng``. The corpora are
underscore arguments so Streamlit does not hash them. All maths lives in dpcore.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import streamlit as st

from dpcore import ngram_counts
from dpcore.bayesian import bayesian_statistics, kl_vs_k, summarise
from dpcore.bayesian.baselines import public_baseline
from dpcore.metrics import kl_divergence
from dpcore.specs.bayesian import (
    SWEEP_EPS,  # noqa: F401  (the ε grid of 000 Fig. 1, read by the page and the figures)
    BayesianKlEpsilonSpec,
    BayesianOutcome,
    BayesianSpec,
    KlEpsilonOutcome,
)
from dpcore.specs.bayesian_experiments import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianPerplexitySpec,
)
from dpcore.specs.bayesian import K_OPTIONS  # K of the k-anonymity baseline (the K knob and the KL-vs-K sweep)


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


# ------------------------------------------------------------------------------ keyed by the spec (seed included)
# One spec per computation (dpcore.specs.bayesian, issue 22): its fields are the cache key (``spec.key()``), its
# ``rng`` and salts the draws, so the page, its export and a replay of the export draw the same numbers.
class PageRelease(NamedTuple):
    """The release tab's objects: the counts, p, both modes' prepared mechanisms, the release of the spec's mode."""

    counts: object
    p: np.ndarray
    local: object
    gamma_worst: float
    strict: object
    prepared: object
    release: object

    def outcome(self) -> BayesianOutcome:
        """As :meth:`BayesianSpec.run` returns it (what the spec's ``numbers`` reads)."""
        return BayesianOutcome(
            self.counts,
            self.p,
            self.prepared,
            self.release,
            self.gamma_worst,
            kl_divergence(self.p, self.release.theta),
            kl_divergence(self.p, public_baseline(self.counts.public_counts)),
        )


_NOT_ITEM_CAP = ("epsilon", "delta", "S", "rho", "calibration", "mode", "max_users")
"""Fields strict mode's item choice does not depend on (its cache ignores them)."""


@st.cache_resource(show_spinner="Capping users at L n-grams …", max_entries=16)
def _strict_statistics(cap_key: str, _spec: BayesianSpec, _counts):
    return _spec.strict_statistics(_counts)


def release_for(spec: BayesianSpec, _private, _public) -> PageRelease:
    """The spec's release from the cached parts (counts, the local statistics and γ, strict mode's item choice):
    the numbers of ``spec.run(private, public)``. The strict mechanism is prepared in both modes (the side-by-side
    panel shows both): ValueError naming max_users when the corpus has more than N_max users."""
    ph, qh = _private.content_hash, _public.content_hash
    counts = counts_for(ph, qh, spec.n, _private, _public)
    local, gamma_worst = prepared_for(ph, qh, spec.n, spec.C, spec.S, spec.rho, _private, _public)
    strict = spec.prepare(_strict_statistics(spec.key(without=_NOT_ITEM_CAP), spec, counts), "strict")
    prepared = strict if spec.mode == "strict" else local
    return PageRelease(
        counts,
        private_distribution(ph, qh, spec.n, _private, _public),
        local,
        gamma_worst,
        strict,
        prepared,
        spec.release(prepared),
    )


@st.cache_data(show_spinner="Sweeping ε for every mechanism …", max_entries=32)
def _eps_sweep(key: str, _spec: BayesianKlEpsilonSpec, _private, _public):
    c = counts_for(_private.content_hash, _public.content_hash, _spec.n, _private, _public)
    return _spec.sweep(c)


def eps_sweep(spec: BayesianKlEpsilonSpec, _private, _public):
    """000 Fig. 1 with our strict variant beside the paper's BayesianDP (the spec's table; cached by its key)."""
    return _eps_sweep(spec.key(without=("K",)), spec, _private, _public)


def kl_epsilon_for(spec: BayesianKlEpsilonSpec, _private, _public) -> KlEpsilonOutcome:
    """The KL-vs-ε tab's outcome, as ``spec.run`` returns it (sweep and k-anonymity's KL from the caches)."""
    table = eps_sweep(spec, _private, _public)
    kl_k = (
        float(
            k_sweep(_private.content_hash, _public.content_hash, spec.n, _private, _public)
            .filter(K=spec.K)["kl"]
            .item()
        )
        if spec.K in K_OPTIONS
        else spec.k_anonymity_kl(counts_for(_private.content_hash, _public.content_hash, spec.n, _private, _public))
    )
    return KlEpsilonOutcome(table, summarise(table, "epsilon"), kl_k)


@st.cache_data(show_spinner="Running the experiment …", max_entries=16)
def _data_sweep(key: str, _spec: BayesianDataSweepSpec, _private, _public):
    return _spec.sweep_table(counts_for(_private.content_hash, _public.content_hash, _spec.n, _private, _public))


def data_sweep(spec: BayesianDataSweepSpec, _private, _public):
    """000 Figs. 2–4 (the spec's table): KL against the number of users, the vocabulary size or the public data's
    quality, with our strict BayesianDP (L, N_max) beside the paper's."""
    return _data_sweep(spec.key(), spec, _private, _public)


@st.cache_resource(show_spinner="Splitting users and counting trigrams …", max_entries=4)
def perplexity_data(private_hash, public_hash, seed, _spec: BayesianPerplexitySpec, _private, _public):
    return _spec.setup(_private, _public)


@st.cache_data(show_spinner="Releasing trigram distributions …", max_entries=16)
def _perplexity(key: str, _spec: BayesianPerplexitySpec, _private, _public):
    setup = perplexity_data(_private.content_hash, _public.content_hash, _spec.seed, _spec, _private, _public)
    return _spec.table(setup), int(setup.heldout.size), int(setup.n_heldout_sentences)


def perplexity_for(spec: BayesianPerplexitySpec, _private, _public):
    """000 Table 1: the perplexity table, the number of held-out trigrams and of held-out sentences."""
    return _perplexity(spec.key(), spec, _private, _public)


@st.cache_data(show_spinner="Attacking: releases with and without the most active user …", max_entries=16)
def _attack(key: str, _spec: BayesianAttackSpec, _private, _public):
    return _spec.attack(counts_for(_private.content_hash, _public.content_hash, _spec.n, _private, _public))


def attack_for(spec: BayesianAttackSpec, _private, _public):
    return _attack(spec.key(), spec, _private, _public)


@st.cache_resource(show_spinner="Scoring the (S, ρ) grid on the validation users …", max_entries=8)
def _end_to_end(key: str, _spec: BayesianEndToEndSpec, _private, _public):
    return _spec.prepare(counts_for(_private.content_hash, _public.content_hash, _spec.n, _private, _public))


def end_to_end_for(spec: BayesianEndToEndSpec, _private, _public):
    """The validation split and the scored (S, ρ) grid (independent of ε and δ: cached without them)."""
    return _end_to_end(spec.key(without=("epsilon", "delta", "calibration")), spec, _private, _public)


# what is computed from an upload is given back with it (issue 25)
from dpui.common import uploads as _uploads  # noqa: E402

_uploads.track_caches(globals())
