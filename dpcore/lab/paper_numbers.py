"""The source papers' reported numbers, transcribed once: what every page shows as "paper".

Every number a page shows as "paper" comes from a :class:`Reported` below (value, unit, table or
figure, page and the settings it was measured at). Figures whose values are only drawn (no number in
the text) are transcribed as the numbers the text states about them (e.g. "up to 85 %", "90 % of the
6-, 7- and 8-grams used by at least 100 users"); we never read values off a plot.
Pages: 000 = Ramadan et al. (BayesianDP), 003 = Kim et al. (DPNE, NeurIPS 2021), 004 = Sharma (TopicDP),
001 = Habernal's lecture 4 (its worked examples, on the Mechanisms 101 page). Ours at the same settings:
:mod:`dpcore.lab.paper_dpne`, ``paper_bayesian``, ``paper_topicdp`` and ``paper_lecture``, each returning a
:class:`Comparison`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

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
]


@dataclass(frozen=True)
class Reported:
    """One reported result: ``values`` maps a label (mechanism, length …) to a number or a tuple."""

    paper: str
    where: str
    page: int | None
    quantity: str
    unit: str
    settings: dict
    values: dict
    note: str = ""

    @property
    def source(self) -> str:
        page = f", p. {self.page}" if self.page else ""
        return f"{self.paper} {self.where}{page}"


class Table4Settings(TypedDict):
    epsilon: float
    delta: float
    contribution_limit: int
    eta: float
    max_length: int


TABLE4_SETTINGS: Table4Settings = {
    "epsilon": 4.0,
    "delta": 1e-7,
    "contribution_limit": 100,
    "eta": 0.01,
    "max_length": 9,
}
FIG1_SETTINGS = {"epsilon": 0.1, "n": 1}
TOPICDP_SETTINGS = {"epsilon": 3.0, "gamma": 0.1, "m": 10, "n": 10, "delta": 1e-4}

TABLE2_REDDIT = Reported(
    "003",
    "Table 2",
    None,
    "average number of distinct k-grams per user, k = 1..9",
    "k-grams per user",
    {"dataset": "Reddit, 1,217,516 users"},
    {"Reddit": (497.60, 470.76, 444.37, 418.77, 393.72, 369.32, 345.65, 322.80, 300.82)},
)

TABLE4 = Reported(
    "003",
    "Table 4",
    None,
    "number of extracted k-grams, k = 1..9",
    "k-grams",
    dict(TABLE4_SETTINGS),
    {
        "DPNE": (16_173, 59_918, 110_160, 119_039, 88_174, 51_816, 23_144, 9_019, 2_748),
        "DPSU-all": (18_010, 54_937, 38_283, 10_990, 1_978, 352, 71, 16, 4),
        "DPSU-even": (16_164, 44_871, 35_032, 11_093, 2_210, 440, 113, 28, 7),
        "DPSU-single": (44_635, 194_131, 201_901, 92_486, 25_451, 5_906, 1_385, 329, 92),
    },
    "Reddit (1.2 M users); DPSU-single spends the whole budget on one length at a time. The printed DPSU-all "
    "total, 124,637, omits its 9-gram cell (the cells add up to 124,641).",
)

FIG4_COVERAGE = Reported(
    "003",
    "Fig. 4 (right), §3.1.2",
    None,
    "share of the k-grams used by at least K = 100 users that DPNE releases",
    "share",
    {"epsilon": 4.0, "delta": 1e-7, "contribution_limit": 300, "eta": 0.01, "max_length": 9},
    {"k = 6, 7, 8": 0.90},
    "Text: 'our new algorithm could output 90% of the n-grams of length 6,7,8 that appear in the dataset at least "
    "100 times'. §3.1 fixes Δ0 = 300 unless stated otherwise; we compare at Table 4's Δ0 = 100.",
)

FIG1_BAYES = Reported(
    "000",
    "Fig. 1 and abstract",
    None,
    "reduction of the KL divergence of BayesianDP relative to Laplace at ε = 0.1",
    "share",
    {"epsilon": 0.1, "users": 4_000_000, "vocabulary": 50_000},
    {"reduction": 0.85},
    "Abstract: 'up to 85% reduction in KL-divergence compared to the Laplace mechanism for ε = 0.1' (n-grams of "
    "Reddit). Figs. 2–5 (KL vs users, vocabulary, public-data noise, K-anonymity) state no numbers; Fig. 5: at "
    "ε = 0.2 BayesianDP's KL is similar to K-anonymity with K = 50.",
)

FIG52_TOPICDP = Reported(
    "004",
    "Fig. 5.2(a) (Enron)",
    23,
    "range of the L1 distance over matrix sizes m, n = 2..10",
    "L1",
    {"epsilon": 3.0, "gamma": 0.1},
    {"TopicDP": (0.0179, 0.8954), "MVG": (0.0794, 77.1487)},
    "Laplace is 'much larger' than both (no number given).",
)
FIG56_TOPICDP = Reported(
    "004",
    "Fig. 5.6(a) (Enron)",
    28,
    "L1 distance at small ε (ε from 1 to 10, γ = 0.1, 10 × 10)",
    "L1",
    {"gamma": 0.1, "m": 10, "n": 10},
    {"TopicDP": ("<", 6), "MVG": (">", 2500)},
    "Text: 'greater than 2500 in MVG mechanism but less than 6 in our TopicDP'.",
)
FIG57_TOPICDP = Reported(
    "004",
    "Fig. 5.7(a) (Enron)",
    29,
    "range of the L1 distance over γ = 0.02..0.22",
    "L1",
    {"epsilon": 3.0, "m": 10, "n": 10},
    {"TopicDP": (0.1389, 8.4426), "MVG": (4.8034, 6475.0496)},
)

LECTURE_SETTINGS = {"epsilon": 1.0, "sensitivity": 1.0}
LECTURE_001 = Reported(
    "001",
    "worked examples (counting query, bank debt, secret society)",
    None,
    "the lecture's worked numbers",
    "various",
    dict(LECTURE_SETTINGS),
    {
        "Laplace scale b for ε = 1 on a counting query (Δ = 1)": 1.0,
        "total debt y_true(D)": 2_807_799.56,
        "y_true(D without Alice)": 7_001.56,
        "y_true(D without Bob)": 2_800_799.56,
        "members' mean latitude": 36.0,
        "members' mean longitude": -88.0,
        "closest city to the members' mean": "Memphis",
    },
    "Slides 'Summary' (b = 1 bounds the privacy loss by exp(1); ε = 1/b), the bank-debt slides (€) and 'Example more "
    "concretely' ('Mean = 36, -88, closest city = Memphis (35, -90)'). One debt slide writes 2,800.798 for "
    "2,800,798.",
)

REPORTED = (TABLE2_REDDIT, TABLE4, FIG4_COVERAGE, FIG1_BAYES, FIG52_TOPICDP, FIG56_TOPICDP, FIG57_TOPICDP, LECTURE_001)


@dataclass(frozen=True)
class Comparison:
    """Paper vs here: ``rows`` are dicts {quantity, paper, here}; ``reproduced`` is the shape verdict."""

    reported: Reported
    rows: list
    reproduced: bool
    verdict: str
    seeds: int
    settings: dict = field(default_factory=dict)


REDDIT_USERS = 1_217_516
"""Users of 003's Reddit corpus (Table 2), the scale Table 4 was measured at."""
