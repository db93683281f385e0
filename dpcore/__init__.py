"""dpcore — differential privacy mechanisms for text statistics, without any UI.

Usable from a notebook: ``from dpcore import gaussian_sigma, load_sample_corpus``. Every function
that samples takes an explicit ``rng`` (a ``numpy.random.Generator`` or an int seed); parameters are
validated at the public boundary with messages that name the parameter, the rule and the value.
See ``SPEC.md`` (shared) for the formulas and the readings taken where a paper is ambiguous, and
``docs/ARCHITECTURE.md`` for the layout.

The top level holds the few names a notebook needs (``__all__`` below, listed in the README); everything
else is in its subpackage: :mod:`dpcore.mechanisms` (Laplace, Gaussian, exponential, composition, keyed
draws), :mod:`dpcore.text` (corpora, tokens, k-grams, counts), :mod:`dpcore.dpne` (DP n-gram extraction),
:mod:`dpcore.bayesian` (BayesianDP, EndToEndDP), :mod:`dpcore.topicdp` (TopicDP, VIPS-LDA),
:mod:`dpcore.audit` (the privacy audit) and :mod:`dpcore.lab` (lecture, papers' numbers, review, budget,
exercises). The command line: ``python -m dpcore`` (:mod:`dpcore.cli`).
"""

from __future__ import annotations

from . import audit, bayesian, dpne, lab, mechanisms, specs, text, topicdp
from .bayesian.end_to_end import end_to_end_dp
from .bayesian.release import bayesian_dp
from .dpne import dpne_extract
from .dpne.baselines import dpsu_all, dpsu_even, dpsu_single
from .dpne.release import prepare_dpne
from .errors import UserError
from .guarantees import Guarantee
from .lab import compose_releases, review_release
from .mechanisms import exponential_mechanism, gaussian_delta, gaussian_sigma, laplace_mechanism
from .specs import replay  # issue 22: rebuild and run an export's spec record
from .text import (
    REAL_CORPORA,
    SAMPLE_CORPORA,
    Corpus,
    CorpusError,
    build_ngram_index,
    corpus_from_records,
    load_real_corpus,
    load_sample_corpus,
    load_uploaded_corpus,
    ngram_counts,
    tokenize,
)
from .topicdp import fit_topic_model, vips_lda
from .topicdp.fitting import topic_keyword_matrix
from .topicdp.mechanisms import strict_topicdp_sigma, topicdp_mechanism
from .topicdp.model import LdaSettings
from .topicdp.sampler import sampled_sensitivity

__version__ = "0.1.0"

__all__ = [
    # subpackages
    "audit",
    "bayesian",
    "dpne",
    "lab",
    "mechanisms",
    "text",
    "topicdp",
    "specs",
    # data in
    "Corpus",
    "CorpusError",
    "UserError",
    "REAL_CORPORA",
    "SAMPLE_CORPORA",
    "corpus_from_records",
    "load_real_corpus",
    "load_sample_corpus",
    "load_uploaded_corpus",
    "tokenize",
    "build_ngram_index",
    "ngram_counts",
    # what a release promises
    "Guarantee",
    # mechanisms
    "laplace_mechanism",
    "gaussian_sigma",
    "gaussian_delta",
    "exponential_mechanism",
    "dpne_extract",
    "prepare_dpne",
    "dpsu_all",
    "dpsu_even",
    "dpsu_single",
    "bayesian_dp",
    "end_to_end_dp",
    "LdaSettings",
    "fit_topic_model",
    "topic_keyword_matrix",
    "topicdp_mechanism",
    "strict_topicdp_sigma",
    "sampled_sensitivity",
    "vips_lda",
    # reading a release
    "review_release",
    "compose_releases",
    "replay",
]
