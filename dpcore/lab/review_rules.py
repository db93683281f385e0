"""The reviewer's rules (issue 9 item 3): the settings a privacy reviewer would question, each with what is wrong
here and what to do.

:func:`review_warnings` returns one :class:`ReviewWarning` (rule, message, fix) per rule that fires: δ ≥ 1/(number
of users), ε > 10, the classic Gaussian at ε ≥ 1, a contribution cap larger than the median user's items, a
random-DP γ > 0.1, fewer than 100 users, a noise wider than the answer's whole range. The rules in words:
:data:`REVIEW_RULES`.

Three rules read exact statistics of the private data — the number of users (``delta-vs-users``, ``few-users``)
and the users' contributions (``cap-above-median``: the median, the share above the cap). Those numbers are not
part of any release and no noise covers them: their warnings carry ``evaluation_only=True`` and say so in the
message (:data:`EVALUATION_ONLY`; issue 30 item 6), so a green release is never shown beside an unmarked private
statistic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import median

import numpy as np

from ..mechanisms.gaussian import classic_gaussian_sigma, gaussian_delta
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real
from .review_noise import NoiseStatement, _num

__all__ = [
    "ReviewWarning",
    "REVIEW_RULES",
    "EPSILON_WARN_ABOVE",
    "GAMMA_WARN_ABOVE",
    "MIN_USERS",
    "EVALUATION_ONLY",
    "PRIVATE_STATISTIC_RULES",
    "review_warnings",
]

EPSILON_WARN_ABOVE = 10.0
GAMMA_WARN_ABOVE = 0.1
MIN_USERS = 100
REVIEW_RULES = {
    "delta-vs-users": "δ must be well below 1/(number of users)",
    "epsilon-large": f"ε above {EPSILON_WARN_ABOVE:g} promises practically nothing",
    "classic-gaussian": "the classic Gaussian σ is proven only for ε < 1",
    "cap-above-median": "a contribution cap should not exceed what the median user contributes",
    "gamma-large": f"random DP with γ above {GAMMA_WARN_ABOVE:g} leaves too many neighbours uncovered",
    "few-users": f"fewer than {MIN_USERS} users: DP noise swamps what the data says",
    "noise-swamps-answer": "noise wider than the whole range of the answer leaves nothing of it",
}
"""rule id → the rule in words (shown beside each warning)."""
PRIVATE_STATISTIC_RULES = ("delta-vs-users", "cap-above-median", "few-users")
"""The rules whose message quotes exact statistics of the private data (not released, not noised)."""
EVALUATION_ONLY = "Evaluation only — computed on the private data, not part of the release."
"""Appended to the message of every rule of :data:`PRIVATE_STATISTIC_RULES`."""


@dataclass(frozen=True)
class ReviewWarning:
    """One setting a reviewer would question: ``rule`` (a key of :data:`REVIEW_RULES`), what is wrong
    here (``message``, with the numbers) and what to do (``fix``). ``evaluation_only``: the numbers are exact
    statistics of the private data (a rule of :data:`PRIVATE_STATISTIC_RULES`); the message then ends with
    :data:`EVALUATION_ONLY`."""

    rule: str
    message: str
    fix: str
    evaluation_only: bool = False

    def __post_init__(self):
        if self.rule not in REVIEW_RULES:
            raise ValueError(f"rule must be one of {tuple(REVIEW_RULES)}, got rule={self.rule!r}")
        if self.rule in PRIVATE_STATISTIC_RULES and not self.evaluation_only:
            object.__setattr__(self, "evaluation_only", True)
        if self.evaluation_only and not self.message.endswith(EVALUATION_ONLY):
            object.__setattr__(self, "message", f"{self.message} {EVALUATION_ONLY}")

    @property
    def rule_text(self) -> str:
        return REVIEW_RULES[self.rule]

    def to_dict(self) -> dict:
        return {
            "rule": self.rule,
            "rule_text": self.rule_text,
            "message": self.message,
            "fix": self.fix,
            "evaluation_only": self.evaluation_only,
        }


def review_warnings(
    *,
    epsilon=None,
    delta=None,
    n_users=None,
    calibration=None,
    contribution_cap=None,
    user_items=None,
    cap_name: str = "contribution cap",
    random_dp_gamma=None,
    noise=(),
    answer_range=None,
) -> tuple[ReviewWarning, ...]:
    """The warnings that fire for these settings (every argument optional; a rule whose inputs are missing
    does not fire).

    Args:
      epsilon, delta: the privacy parameters of the release.
      n_users: number of users in the corpus.
      calibration: the Gaussian calibration *used* ("classic" or "analytic"; "auto" never warns).
      contribution_cap: the per-user cap (Laplace's W, DPNE's Δ0, BayesianDP strict's L) and
        ``user_items`` the per-user amounts it caps (a sequence, one number per user, in the cap's unit).
      cap_name: how the page calls the cap, e.g. "L (items per user)".
      random_dp_gamma: γ of (ε, δ, γ)-random DP (TopicDP, MVG).
      noise, answer_range: the release's :class:`NoiseStatement` records and the width of the range its
        answer can take (1 for a probability); an additive noise whose half-width is at least that range
        ("0.1 comes back as 0.1 ± 2,100") fires "noise-swamps-answer".

    Rules (:data:`REVIEW_RULES`): δ ≥ 1/n_users; ε > 10; classic Gaussian at ε ≥ 1 (with its true δ);
    cap > median of ``user_items``; γ > 0.1; n_users < 100; noise half-width ≥ the answer's range.
    """
    eps = None if epsilon is None else check_epsilon(epsilon=epsilon)
    dl = None if delta is None else check_delta(delta=delta)
    n = None if n_users is None else check_int("n_users", n_users, low=0)
    if calibration is not None:
        check_choice("calibration", calibration, ("auto", "classic", "analytic"))
    return (
        *_delta_vs_users(dl, n),
        *_epsilon_large(eps),
        *_classic_gaussian(calibration, eps, dl),
        *_cap_above_median(contribution_cap, user_items, cap_name),
        *_gamma_large(random_dp_gamma),
        *_noise_swamps_answer(noise, answer_range),
        *_few_users(n),
    )


def _delta_vs_users(dl, n) -> list[ReviewWarning]:
    if dl is None or n is None or n <= 0 or dl < 1.0 / n:
        return []
    return [
        ReviewWarning(
            "delta-vs-users",
            f"δ = {dl:g} is at least 1/(number of users) = 1/{n} = {1.0 / n:.3g}: a mechanism that publishes one "
            f"random user's data whole meets (ε, δ)-DP at this δ.",
            f"Set δ well below 1/{n}, e.g. δ ≤ {0.01 / n:.1g} (1 % of 1/n).",
        )
    ]


def _epsilon_large(eps) -> list[ReviewWarning]:
    if eps is None or eps <= EPSILON_WARN_ABOVE:
        return []
    return [
        ReviewWarning(
            "epsilon-large",
            f"ε = {eps:g}: one user may change the probability of an output by a factor e^ε ≈ "
            f"{math.exp(eps) if eps < 700 else math.inf:.3g} "
            "— practically no promise.",
            f"Use ε ≤ {EPSILON_WARN_ABOVE:g}; ε ≤ 1 for a strong promise.",
        )
    ]


def _classic_gaussian(calibration, eps, dl) -> list[ReviewWarning]:
    if calibration != "classic" or eps is None or eps < 1.0:
        return []
    msg = f"The classic σ = √(2 ln(1.25/δ))/ε is outside its proof at ε = {eps:g} ≥ 1"
    if dl is not None:
        true = gaussian_delta(epsilon=eps, sigma=classic_gaussian_sigma(epsilon=eps, delta=dl))
        msg += f": its true δ is {true:.3g}, {true / dl:.3g} × the stated δ = {dl:g}"
    return [
        ReviewWarning(
            "classic-gaussian",
            msg + ".",
            "Use the analytic calibration (Balle & Wang 2018), or 'auto', which switches to it from ε = 1.",
        )
    ]


def _cap_above_median(contribution_cap, user_items, cap_name: str) -> list[ReviewWarning]:
    if contribution_cap is None or user_items is None:
        return []
    cap = check_real("contribution_cap", contribution_cap, low=0.0)
    items = np.asarray(list(user_items), dtype=float)
    if not items.size:
        return []
    med = float(median(items.tolist()))
    if cap <= med:
        return []
    return [
        ReviewWarning(
            "cap-above-median",
            f"The {cap_name} {cap:g} is larger than the median user's {med:g}: the noise grows with the cap "
            f"while the cap cuts only the {np.mean(items > cap):.0%} of users above it.",
            f"Lower the {cap_name} towards the median ({med:g}); it bounds what one user can add.",
        )
    ]


def _gamma_large(random_dp_gamma) -> list[ReviewWarning]:
    if random_dp_gamma is None:
        return []
    g = check_real("random_dp_gamma", random_dp_gamma, low=0.0, high=1.0, high_inclusive=False)
    if g <= GAMMA_WARN_ABOVE:
        return []
    return [
        ReviewWarning(
            "gamma-large",
            f"γ = {g:g}: the (ε, δ) promise does not hold for {g:.0%} of neighbouring pairs drawn from the data "
            "distribution — and nobody knows which.",
            f"Use γ ≤ {GAMMA_WARN_ABOVE:g} (the sensitivity sampler needs more pairs), or a mechanism with a "
            "proven global sensitivity.",
        )
    ]


def _noise_swamps_answer(noise, answer_range) -> list[ReviewWarning]:
    if answer_range is None:
        return []
    width = check_real("answer_range", answer_range, low=0.0, low_inclusive=False)
    return [
        ReviewWarning(
            "noise-swamps-answer",
            f"{st.text[0].upper() + st.text[1:]} The noise's half-width is {_num(st.half_width / width)} × the "
            f"whole range ({width:g}) the answer can take: the released value tells almost nothing "
            "about the data.",
            "Raise ε, or release fewer and coarser numbers (a smaller table) so that the noise of one "
            "answer is small against its range; compare the mechanisms' noise first.",
        )
        for st in ((noise,) if isinstance(noise, NoiseStatement) else tuple(noise))
        if st.kind == "additive" and st.half_width is not None and st.half_width >= width
    ]


def _few_users(n) -> list[ReviewWarning]:
    if n is None or n >= MIN_USERS:
        return []
    return [
        ReviewWarning(
            "few-users",
            f"The corpus has {n} users (< {MIN_USERS}): noise that hides one user is large against what {n} users "
            "say, and δ must be far below 1/n.",
            f"Use at least {MIN_USERS} users, or release fewer, coarser statistics.",
        )
    ]
