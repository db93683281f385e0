"""Cached loaders of the TopicDP page (thesis 004; SPEC §5): document-term data, the LDA model, the
sampled sensitivities and the error curves.

The model and the sampled sensitivities do not depend on ε or δ: ``st.cache_resource`` keyed by the
corpus hash and the settings (the shipped sample corpus has both on disk in
sample_data/topicdp_sensitivity/, so the page opens at once). The error curves are noisy: the seed is
an argument, so it is in the cache key. All maths lives in dpcore.
"""

from __future__ import annotations

import zlib

import numpy as np
import streamlit as st

from dpcore import (
    LdaSettings,
    SamplerSettings,
    document_term_data,
    fit_topic_model,
    load_topic_model,
    save_topic_model,
)
from dpcore import topicdp as tdp

from . import uploads

EPS_VALUES = tuple(np.arange(1.0, 10.01, 0.5))
GAMMA_VALUES = (0.02, 0.07, 0.12, 0.17, 0.22)
SIZE_VALUES = tuple(range(2, 11))


@st.cache_resource(show_spinner="Counting words per document …", max_entries=4)
def data_for(corpus_hash: str, lda: LdaSettings, _corpus):
    return document_term_data(_corpus, settings=lda)


@st.cache_resource(show_spinner="Fitting LDA on the whole corpus …", max_entries=4)
def model_for(corpus_hash: str, lda: LdaSettings, _corpus):
    """The LDA model: from disk when saved before, else fitted (and saved when the folder is writable)."""
    if uploads.is_upload(corpus_hash):  # an upload's fit stays in memory: nothing derived from it on disk (issue 25)
        return fit_topic_model(data_for(corpus_hash, lda, _corpus), settings=lda)
    model = load_topic_model(corpus_hash, lda=lda)
    if model is None:
        model = fit_topic_model(data_for(corpus_hash, lda, _corpus), settings=lda)
        try:
            save_topic_model(model)
        except OSError:  # read-only install: keep it in memory only
            pass
    return model


@st.cache_resource(show_spinner=False, max_entries=8)
def _draws(corpus_hash: str, lda: LdaSettings, sampler: SamplerSettings, file_stamp: float, cache_dir=None):
    return tdp.load_sensitivity_draws(corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)


def draws_for(corpus_hash: str, lda: LdaSettings, sampler: SamplerSettings):
    """The sampled sensitivities on disk, reloaded when the file changes (its mtime is in the cache key).
    An upload's draws live in its scratch folder, deleted with the upload (dpui.uploads.scratch_dir)."""
    cache_dir = uploads.scratch_dir(corpus_hash)
    path = tdp.sensitivity_cache_path(corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    return _draws(corpus_hash, lda, sampler, path.stat().st_mtime if path.exists() else 0.0,
                  None if cache_dir is None else str(cache_dir))


@st.cache_data(show_spinner="Computing error curves …", max_entries=32)
def curve_for(corpus_hash, lda, sampler, n_pairs, parameter, epsilon, delta, gamma, m, n, reps, stage, seed,
              _model, _draws):
    """Error of TopicDP, MVG and Laplace against ε, γ or the table size (mean and band over ``reps`` draws)."""
    values = {"epsilon": EPS_VALUES, "gamma": GAMMA_VALUES, "size": SIZE_VALUES}[parameter]
    rng = np.random.default_rng(np.random.SeedSequence([seed, zlib.crc32(f"topicdp-curve-{parameter}".encode())] + [
        zlib.crc32(repr(v).encode()) for v in (epsilon, delta, gamma, m, n, reps, stage, n_pairs)]))  # every parameter
    return tdp.error_curve(_model, _draws, parameter=parameter, values=values, epsilon=epsilon, delta=delta,
                           gamma=gamma, m=m, n=n, repetitions=reps, rng=rng, stage=stage)


uploads.track_caches(globals())  # what is computed from an upload is given back with it (issue 25)
