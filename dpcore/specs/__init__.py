"""Specs: one frozen description per computation (issue 22) — see :mod:`dpcore.specs.base` for the API.

``Spec`` (the base: fields, ``rng``, ``run``, ``numbers``, ``record``, ``from_record``, ``key``), ``replay(record,
corpus)``, ``load_corpus(corpus_id)``, and :mod:`dpcore.specs.notebook` (``script``/``notebook``: a runnable ``.py``
and ``.ipynb``). Each page's spec lives in its own module here and registers itself on import (below).
"""

# the pages' specs (importing registers them for replay)
from .audit import AuditSpec
from .base import (
    CORPUS_IDS,
    SECRET_NOISE,
    SecretNoiseWarning,
    Spec,
    derive_rng,
    jsonable,
    load_corpus,
    replay,
    secret_record,
    spec_kinds,
)
from .bayesian import BayesianKlEpsilonSpec, BayesianSpec
from .bayesian_experiments import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianPerplexitySpec,
)
from .dpne import DpneOutcome, DpneSpec
from .m101 import M101CitiesSpec, M101Spec
from .m101_laplace import M101DebtSpec, M101LossSpec
from .notebook import notebook, script
from .topicdp import TopicDpCurveSpec, TopicDpOutcome, TopicDpSpec

__all__ = [
    "CORPUS_IDS",
    "SECRET_NOISE",
    "SecretNoiseWarning",
    "secret_record",
    "Spec",
    "derive_rng",
    "jsonable",
    "load_corpus",
    "replay",
    "spec_kinds",
    "notebook",
    "script",
    "AuditSpec",
    "DpneOutcome",
    "DpneSpec",
    "M101CitiesSpec",
    "M101Spec",
    "M101DebtSpec",
    "M101LossSpec",
    "BayesianAttackSpec",
    "BayesianDataSweepSpec",
    "BayesianEndToEndSpec",
    "BayesianKlEpsilonSpec",
    "BayesianPerplexitySpec",
    "BayesianSpec",
    "TopicDpCurveSpec",
    "TopicDpOutcome",
    "TopicDpSpec",
]
