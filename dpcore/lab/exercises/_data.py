"""The data an exercise's answer is computed from: the corpus its settings name, loaded once.

Answers that depend on data are computed from the corpus named by the ``corpus`` setting — the sidebar's
data choice, so the page opens on the same data: ``"chat"`` (the real chat corpus: private = its fixed 70 %
of people, public = the other 30 %; ``dpcore.load_real_corpus``) or ``"classroom"`` (the shipped synthetic
sample). A lecturer's link cannot carry an upload, and the paper size is too slow for an answer. Nothing
about either corpus is written into an exercise, so regenerating the sample changes the answers with it.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping

from ...errors import UserError

# Modules, not names: the answers look functions up at call time, so a test can swap one and see the
# answer change (``dpcore.text.counts`` the attribute is the function, hence import_module).
from ...topicdp.model import LdaSettings
from ...topicdp.sampler import SamplerSettings

_bayesian_statistics = importlib.import_module("dpcore.bayesian.statistics")
_samples = importlib.import_module("dpcore.text.samples")
_ngram_counts = importlib.import_module("dpcore.text.counts")
_ngrams = importlib.import_module("dpcore.text.ngrams")
_real = importlib.import_module("dpcore.text.real_corpus")
_topic_model = importlib.import_module("dpcore.topicdp.model")
_topic_model_fitting = importlib.import_module("dpcore.topicdp.fitting")
_topic_prompts = importlib.import_module("dpcore.topicdp.prompts")
_topicdp_sampler = importlib.import_module("dpcore.topicdp.sampler")
_topicdp_models = importlib.import_module("dpcore.topicdp.model_cache")
_topic_vips = importlib.import_module("dpcore.topicdp.vips_setup")

CHAT, CLASSROOM = "chat", "classroom"
CORPORA = (CHAT, CLASSROOM)
SAMPLE = CLASSROOM  # (the name before issue 20, when the synthetic sample was the only corpus)


def corpus_name(settings: Mapping) -> str:
    """The corpus an exercise's settings name (``corpus``: "chat" or "classroom"); ValueError otherwise."""
    name = settings.get("corpus")
    if name not in CORPORA:
        raise UserError(
            f"corpus must be one of {CORPORA} for an exercise that depends on data (a link cannot carry "
            f"an upload; the paper size is too slow), got corpus={name!r}"
        )
    return name


@functools.lru_cache(maxsize=2)
def sample_corpus(which: str):
    return _samples.load_sample_corpus(which)


@functools.lru_cache(maxsize=2)
def real_corpus(which: str):
    return _real.load_real_corpus("chat", which=which)


def _load(name: str, which: str):
    return real_corpus(which) if name == CHAT else sample_corpus(which)


def private_corpus(settings: Mapping):
    return _load(corpus_name(settings), "private")


def public_corpus(settings: Mapping):
    return _load(corpus_name(settings), "public")


@functools.lru_cache(maxsize=8)
def _statistics(name: str, private_hash: str, public_hash: str, n: int, C: int, max_items: int | None = None):
    priv, pub = _load(name, "private"), _load(name, "public")
    assert priv.content_hash == private_hash and pub.content_hash == public_hash
    counts = _ngram_counts.ngram_counts(priv, pub, n=n)
    if max_items is None:
        return _bayesian_statistics.bayesian_statistics(counts.user_counts, counts.public_counts, C=C)
    # strict mode's item cap: a seeded random choice (γ_strict does not depend on which items are kept)
    return _bayesian_statistics.bayesian_statistics(
        counts.user_counts, counts.public_counts, C=C, max_items=max_items, rng=0
    )


def bayesian_statistics(settings: Mapping, *, n: int, C: int, max_items: int | None = None):
    """BayesianStatistics of the named corpus (the page's counts_for + statistics_for; with ``max_items``
    strict mode's strict_statistics_for)."""
    name = corpus_name(settings)
    priv, pub = private_corpus(settings), public_corpus(settings)
    return _statistics(
        name, priv.content_hash, pub.content_hash, int(n), int(C), None if max_items is None else int(max_items)
    )


@functools.lru_cache(maxsize=4)
def _index(name: str, private_hash: str, max_length: int):
    priv = _load(name, "private")
    assert priv.content_hash == private_hash
    return _ngrams.build_ngram_index(_ngrams.encode_users(priv.user_sentences()), max_length)


def ngram_index(settings: Mapping, max_length: int):
    priv = private_corpus(settings)
    return _index(corpus_name(settings), priv.content_hash, int(max_length))


def sensitivity_draws(settings: Mapping):
    """The TopicDP page's sampled sensitivities for the named corpus at the page's default LDA and sampler
    settings (read from the shipped results or the local cache; never sampled here)."""
    priv = private_corpus(settings)
    lda = LdaSettings(n_topics=int(settings.get("n_topics", 10)))
    sampler = SamplerSettings(
        sample_users=int(settings.get("sample_users", 0)) or None, seed=int(settings.get("sampler_seed", 0))
    )
    return _topicdp_sampler.load_sensitivity_draws(priv.content_hash, lda=lda, sampler=sampler)


@functools.lru_cache(maxsize=2)
def _prompt_inputs(private_hash: str, n_topics: int):
    """The shipped (or locally cached) LDA model of the real private split and its labelled documents."""
    priv = real_corpus("private")
    assert priv.content_hash == private_hash
    lda = LdaSettings(n_topics=n_topics)
    model = _topicdp_models.load_topic_model(priv.content_hash, lda=lda)
    if model is None:  # no shipped fit for these settings: fit it (as the page does)
        model = _topic_model_fitting.fit_topic_model(_topic_model.document_term_data(priv, settings=lda), settings=lda)
    return model, _topic_prompts.prompt_documents(priv, model.words)


def topic_model_and_prompts(settings: Mapping):
    """The TopicDP page's LDA model of the named corpus and its documents with their prompts (real corpus only:
    the sample corpora have no conversation prompts)."""
    if corpus_name(settings) != CHAT:
        raise UserError(f"corpus must be {CHAT!r} for an exercise about prompts, got corpus={corpus_name(settings)!r}")
    priv = private_corpus(settings)
    return _prompt_inputs(priv.content_hash, int(settings.get("n_topics", 10)))


@functools.lru_cache(maxsize=2)
def _vips_inputs(private_hash: str, public_hash: str, n_topics: int):
    """VIPS-LDA's setup on the real chat (public vocabulary and start, private counts) and the labelled conversations
    over its vocabulary — what the TopicDP page's VIPS panel computes (dpui.topicdp.vips.setup_for, docs_for)."""
    priv, pub = real_corpus("private"), real_corpus("public")
    assert priv.content_hash == private_hash and pub.content_hash == public_hash
    setup = _topic_vips.vips_page_setup(priv, pub, n_topics=n_topics, twin=False)
    return setup, _topic_prompts.prompt_documents(priv, setup.vocabulary.words)


def vips_setup_and_prompts(settings: Mapping):
    """The TopicDP page's VIPS-LDA setup on the named corpus and its labelled documents (real corpus only)."""
    if corpus_name(settings) != CHAT:
        raise UserError(f"corpus must be {CHAT!r} for an exercise about prompts, got corpus={corpus_name(settings)!r}")
    priv, pub = private_corpus(settings), public_corpus(settings)
    return _vips_inputs(priv.content_hash, pub.content_hash, int(settings.get("n_topics", 10)))
