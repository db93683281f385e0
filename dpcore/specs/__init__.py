"""Specs: one frozen description per computation (issue 22) — see :mod:`dpcore.specs.base` for the API.

``Spec`` (the base: fields, ``rng``, ``run``, ``numbers``, ``record``, ``from_record``), ``replay(record, corpus)``,
``load_corpus(corpus_id)``, and :mod:`dpcore.specs.notebook` (``script``/``notebook``: a runnable ``.py`` and
``.ipynb``). Each page's spec lives in its own module here and registers itself on import.
"""

from .base import CORPUS_IDS, Spec, derive_rng, jsonable, load_corpus, replay, spec_kinds
from .notebook import notebook, script

__all__ = ["CORPUS_IDS", "Spec", "derive_rng", "jsonable", "load_corpus", "notebook", "replay", "script",
           "spec_kinds"]

from .dpne import DpneOutcome, DpneSpec  # noqa: E402  (each page's spec registers itself on import)

__all__ += ["DpneOutcome", "DpneSpec"]

from .m101 import M101CitiesSpec, M101Spec  # noqa: E402
from .audit import AuditSpec  # noqa: E402

__all__ += ["M101CitiesSpec", "M101Spec", "AuditSpec"]

from .bayesian import (  # noqa: E402
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianKlEpsilonSpec,
    BayesianPerplexitySpec,
    BayesianSpec,
)

__all__ += ["BayesianAttackSpec", "BayesianDataSweepSpec", "BayesianEndToEndSpec", "BayesianKlEpsilonSpec",
            "BayesianPerplexitySpec", "BayesianSpec"]

from .topicdp import TopicDpCurveSpec, TopicDpOutcome, TopicDpSpec  # noqa: E402

__all__ += ["TopicDpCurveSpec", "TopicDpOutcome", "TopicDpSpec"]
