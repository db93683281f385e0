"""Cached loaders of the TopicDP page (thesis 004; SPEC §5): document-term data, the LDA model, the
sampled sensitivities and the error curves.

The model, the sampled sensitivities and the labelled documents (prompts) do not depend on ε or δ: ``st.cache_resource`` keyed by the
corpus hash and the settings (the shipped sample corpus has both on disk in
sample_data/topicdp_sensitivity/, so the page opens at once). The error curves are noisy: the seed is
an argument, so it is in the cache key. All maths lives in dpcore.
"""

from __future__ import annotations

import streamlit as st

from dpcore import LdaSettings, fit_topic_model
from dpcore import topicdp as tdp
from dpcore.specs.topicdp import TopicDpCurveSpec
from dpcore.topicdp import SamplerSettings, document_term_data, load_topic_model, save_topic_model
from dpcore.topicdp.prompts import match_topics_to_prompts, prompt_documents, prompt_survival, prompt_survival_curve
from dpui.common import uploads
from dpui.common.state import rng_for


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
    An upload's draws live in its scratch folder, deleted with the upload (dpui.common.uploads.scratch_dir)."""
    cache_dir = uploads.scratch_dir(corpus_hash)
    path = tdp.sensitivity_cache_path(corpus_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    return _draws(
        corpus_hash,
        lda,
        sampler,
        path.stat().st_mtime if path.exists() else 0.0,
        None if cache_dir is None else str(cache_dir),
    )


@st.cache_data(show_spinner="Computing error curves …", max_entries=32)
def _curve(key: str, n_pairs: int, _spec: TopicDpCurveSpec, _model, _draws):
    return _spec.curve(_model, _draws)


def curve_for(spec: TopicDpCurveSpec, model, draws):
    """Error of TopicDP, MVG and Laplace against ε, γ or the table size (mean and band over the spec's repetitions),
    drawn from the spec's ``rng`` (dpcore.specs.topicdp); cached by its key without the swept field (an ε move leaves
    the curve against ε alone) and the number of stored pairs."""
    return _curve(spec.key(without=spec.swept()), draws.n_pairs, spec, model, draws)


@st.cache_resource(show_spinner="Counting the labelled conversations …", max_entries=4)
def prompt_docs_for(corpus_hash: str, words: tuple[str, ...], _corpus):
    """The corpus's documents counted over the model's words, with their prompts (evaluation only), or None
    when the corpus has fewer than 3 distinct prompts (nothing to match topics to)."""
    if len([g for g in _corpus.genres() if g != "(none)"]) < 3:  # e.g. the sample corpora: "email", "review"
        return None
    return prompt_documents(_corpus, words)


@st.cache_data(show_spinner=False, max_entries=16)
def before_for(corpus_hash: str, lda: LdaSettings, m: int, n: int, _table, _docs):
    """The table's topics matched to prompts before noise (ε-free: it leaves the ε-keyed :func:`survival_now`, so
    the VIPS tab's reference line costs nothing on an ε move)."""
    return match_topics_to_prompts(_table.matrix, _table.words, _docs)


@st.cache_data(show_spinner="Matching topics to prompts after noise …", max_entries=16)
def survival_for(
    corpus_hash: str,
    lda: LdaSettings,
    m: int,
    n: int,
    delta: float,
    delta_s: float,
    gamma: float,
    seed: int,
    _table,
    _docs,
):
    """Topics kept after each mechanism's noise over ε = 1 … 10,000 (dpcore.topicdp.prompt_survival_curve); the seed
    is in the key, the noise is drawn from it."""
    return prompt_survival_curve(_table, _docs, sensitivity=delta_s, delta=delta, gamma=gamma, seed=seed)


@st.cache_data(show_spinner=False, max_entries=64)
def survival_now(
    corpus_hash: str,
    lda: LdaSettings,
    m: int,
    n: int,
    epsilon: float,
    delta: float,
    delta_s: float,
    gamma: float,
    seed: int,
    _table,
    _docs,
):
    """Topics kept at the page's ε (20 fresh draws per mechanism, dpcore.topicdp.prompt_survival)."""
    releases = tdp.release_all(
        _table.matrix,
        epsilon=epsilon,
        delta=delta,
        sensitivity=delta_s,
        gamma=gamma,
        rng=rng_for(seed, "topicdp", "prompts", m, n, gamma, epsilon, delta),
    )
    return prompt_survival(
        _table, _docs, releases, draws=20, rng=rng_for(seed, "topicdp", "prompt-draws", m, n, gamma, epsilon, delta)
    )


uploads.track_caches(globals())  # what is computed from an upload is given back with it (issue 25)
