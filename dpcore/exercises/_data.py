"""The data an exercise's answer is computed from: the corpus its settings name, loaded once.

Answers that depend on data are computed from the corpus named by the ``corpus`` setting (only the
shipped ``"sample"`` corpus: a lecturer's link cannot carry an upload), never from numbers written
into the exercise, so regenerating the sample corpus changes the answers with it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping

# Modules, not names: the answers look functions up at call time, so a test can swap one and see the
# answer change (``dpcore.ngram_counts`` the attribute is the function, hence import_module).
_bayesian = importlib.import_module("dpcore.bayesian")
_corpus = importlib.import_module("dpcore.corpus")
_ngram_counts = importlib.import_module("dpcore.ngram_counts")
_ngrams = importlib.import_module("dpcore.ngrams")
_topicdp = importlib.import_module("dpcore.topicdp")
_real_corpus = importlib.import_module("dpcore.real_corpus")
_topic_model = importlib.import_module("dpcore.topic_model")
_topic_prompts = importlib.import_module("dpcore.topic_prompts")
from ..topic_model import LdaSettings
from ..topicdp import SamplerSettings

SAMPLE = "sample"
REAL = "chat"
"""The real chat corpus (``dpcore.load_real_corpus("chat")``: "private" / "public" are its 920 / 395-person split)."""


def corpus_name(settings: Mapping) -> str:
    name = settings.get("corpus", SAMPLE)
    if name not in (SAMPLE, REAL):
        raise ValueError(f"corpus must be {SAMPLE!r} or {REAL!r} for an exercise (a link cannot carry an upload), "
                         f"got corpus={name!r}")
    return name


@functools.lru_cache(maxsize=2)
def sample_corpus(which: str):
    return _corpus.load_sample_corpus(which)


@functools.lru_cache(maxsize=2)
def real_corpus(which: str):
    return _real_corpus.load_real_corpus("chat", which=which)


def private_corpus(settings: Mapping):
    return real_corpus("private") if corpus_name(settings) == REAL else sample_corpus("private")


def public_corpus(settings: Mapping):
    return real_corpus("public") if corpus_name(settings) == REAL else sample_corpus("public")


@functools.lru_cache(maxsize=8)
def _statistics(private_hash: str, public_hash: str, n: int, C: int, max_items: int | None = None):
    priv, pub = sample_corpus("private"), sample_corpus("public")
    assert priv.content_hash == private_hash and pub.content_hash == public_hash
    counts = _ngram_counts.ngram_counts(priv, pub, n=n)
    if max_items is None:
        return _bayesian.bayesian_statistics(counts.user_counts, counts.public_counts, C=C)
    # strict mode's item cap: a seeded random choice (γ_strict does not depend on which items are kept)
    return _bayesian.bayesian_statistics(counts.user_counts, counts.public_counts, C=C, max_items=max_items, rng=0)


def bayesian_statistics(settings: Mapping, *, n: int, C: int, max_items: int | None = None):
    """BayesianStatistics of the named corpus (the page's counts_for + statistics_for; with ``max_items``
    strict mode's strict_statistics_for)."""
    priv, pub = private_corpus(settings), public_corpus(settings)
    return _statistics(priv.content_hash, pub.content_hash, int(n), int(C), None if max_items is None else int(max_items))


@functools.lru_cache(maxsize=2)
def _index(private_hash: str, max_length: int):
    priv = sample_corpus("private")
    assert priv.content_hash == private_hash
    return _ngrams.build_ngram_index(_ngrams.encode_users(priv.user_sentences()), max_length)


def ngram_index(settings: Mapping, max_length: int):
    priv = private_corpus(settings)
    return _index(priv.content_hash, int(max_length))


def sensitivity_draws(settings: Mapping):
    """The TopicDP page's sampled sensitivities for the named corpus at the page's default LDA and sampler
    settings (read from the shipped results or the local cache; never sampled here)."""
    priv = private_corpus(settings)
    lda = LdaSettings(n_topics=int(settings.get("topicdp_k", 10)))
    sampler = SamplerSettings(sample_users=int(settings.get("topicdp_N", 0)) or None,
                              seed=int(settings.get("topicdp_sampler_seed", 0)))
    return _topicdp.load_sensitivity_draws(priv.content_hash, lda=lda, sampler=sampler)


@functools.lru_cache(maxsize=2)
def _prompt_inputs(private_hash: str, n_topics: int):
    """The shipped (or locally cached) LDA model of the real private split and its labelled documents."""
    priv = real_corpus("private")
    assert priv.content_hash == private_hash
    lda = LdaSettings(n_topics=n_topics)
    model = _topicdp.load_topic_model(priv.content_hash, lda=lda)
    if model is None:  # no shipped fit for these settings: fit it (as the page does)
        model = _topic_model.fit_topic_model(_topic_model.document_term_data(priv, settings=lda), settings=lda)
    return model, _topic_prompts.prompt_documents(priv, model.words)


def topic_model_and_prompts(settings: Mapping):
    """The TopicDP page's LDA model of the named corpus and its documents with their prompts (real corpus only:
    the sample corpora have no conversation prompts)."""
    if corpus_name(settings) != REAL:
        raise ValueError(f"corpus must be {REAL!r} for an exercise about prompts, got corpus={corpus_name(settings)!r}")
    priv = private_corpus(settings)
    return _prompt_inputs(priv.content_hash, int(settings.get("topicdp_k", 10)))
