"""The source papers' reported numbers, transcribed once, and ours at the same settings with a verdict.

Every number a page shows as "paper" comes from a :class:`Reported` (value, unit, table or figure, page
and the settings it was measured at). Figures whose values are only drawn (no number in the text) are
transcribed as the numbers the text states about them (e.g. "up to 85 %", "90 % of the 6-, 7- and
8-grams used by at least 100 users"); we never read values off a plot.

The ``compare_*`` functions compute ours at the paper's settings (mean over seeds) and return a
:class:`Comparison` whose ``verdict`` says in one line whether the paper's *shape* is reproduced and,
where not, the measured reason. A claim is a hypothesis to test, not a result to force (PREAMBLE).
Pages: 000 = Ramadan et al. (BayesianDP), 003 = Kim et al. (DPNE, NeurIPS 2021), 004 = Sharma (TopicDP),
001 = Habernal's lecture 4 (its worked examples, on the Mechanisms 101 page).

This module is the one place to import them from; they are defined by concept in its siblings: the
transcription in :mod:`dpcore.lab.paper_numbers`, and one module per paper for ours: ``paper_dpne`` (003),
``paper_bayesian`` (000), ``paper_topicdp`` (004) and ``paper_lecture`` (001).
"""

from __future__ import annotations

from .paper_bayesian import compare_bayesian_fig1
from .paper_dpne import (
    PAGE_DPNE_SETTINGS,
    EpsilonSweep,
    compare_table4,
    compare_table4_at_paper_users,
    dpne_epsilon_sweep,
    table4_chain_reason,
    table4_sizes,
    table4_volume_reason,
    users_equivalent_epsilon,
    users_hypothesis_reason,
)
from .paper_lecture import compare_lecture_001
from .paper_numbers import (
    FIG1_BAYES,
    FIG1_SETTINGS,
    FIG4_COVERAGE,
    FIG52_TOPICDP,
    FIG56_TOPICDP,
    FIG57_TOPICDP,
    LECTURE_001,
    LECTURE_SETTINGS,
    REDDIT_USERS,
    REPORTED,
    TABLE2_REDDIT,
    TABLE4,
    TABLE4_SETTINGS,
    TOPICDP_SETTINGS,
    Comparison,
    Reported,
)
from .paper_topicdp import compare_topicdp_fig52

__all__ = [
    "Reported",
    "Comparison",
    "REPORTED",
    "TABLE2_REDDIT",
    "TABLE4",
    "FIG4_COVERAGE",
    "FIG1_BAYES",
    "FIG52_TOPICDP",
    "FIG56_TOPICDP",
    "FIG57_TOPICDP",
    "TABLE4_SETTINGS",
    "FIG1_SETTINGS",
    "TOPICDP_SETTINGS",
    "LECTURE_001",
    "LECTURE_SETTINGS",
    "REDDIT_USERS",
    "compare_table4",
    "compare_table4_at_paper_users",
    "users_equivalent_epsilon",
    "table4_chain_reason",
    "table4_sizes",
    "table4_volume_reason",
    "compare_bayesian_fig1",
    "EpsilonSweep",
    "dpne_epsilon_sweep",
    "PAGE_DPNE_SETTINGS",
    "users_hypothesis_reason",
    "compare_topicdp_fig52",
    "compare_lecture_001",
]
