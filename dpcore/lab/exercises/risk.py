"""Exercises on what ε means for one person (issue 32; dpcore.lab.risk).

What the pages teach beside every badge: an attacker's prior p that you are in the data can grow to at most
p·e^ε / (p·e^ε + 1 − p) (with δ: stated at ε + ln 2, where it fails with probability at most 2δ), and no test catches more insiders at a given rate of
flagged outsiders than the trade-off curve allows. Every answer goes through :mod:`dpcore.lab.risk` (and, for
the audit, the page's own seeded audit), looked up at call time.
"""

from __future__ import annotations

import importlib

from ._base import CHOICE, Exercise, Solution
from .audit import _run as _audit_run

_risk = importlib.import_module("dpcore.lab.risk")
_scenarios = importlib.import_module("dpcore.audit.scenarios")

M101 = "1_Mechanisms_101"
AUDIT = "5_Privacy_audit"

WHY_BELOW = (
    "Below the curve: the curve is the best possible test against the worst pair of datasets, knowing everything "
    "but the one person; this attack is one score on finitely many runs, and the mechanism keeps its claim",
    "Below the curve only by luck: with more runs the same attack would cross it",
    "Below the curve because the curve is drawn at a smaller ε than the mechanism's",
    "Above the curve: the mechanism does not keep its claimed ε",
)


PRIOR = 0.1  # the classmate's prior (the page's sentence is for a coin flip, 0.5)
TARGET = 0.75  # the attacker's confidence to stay under


def _posterior(s) -> Solution:
    eps, prior = float(s["epsilon"]), PRIOR
    post = _risk.posterior_bound(prior, epsilon=eps)
    coin = _risk.posterior_bound(0.5, epsilon=eps)
    return Solution(100.0 * post, {"eps": eps, "prior": 100 * prior, "coin": 100 * coin, "odds": prior / (1 - prior)})


def _epsilon_for(s) -> Solution:
    target, now = TARGET, float(s["epsilon"])
    eps = _risk.epsilon_for_posterior(0.5, target)
    shown = _risk.percent_at_most(_risk.posterior_bound(0.5, epsilon=now))
    return Solution(eps, {"target": 100 * target, "odds": target / (1 - target), "eps_now": now, "now": shown})


def _why_below(s) -> Solution:
    run, _variant = _audit_run(s)  # the audit exercises' run: the same scenario, salt and trials
    r = run.result
    point = _risk.audit_attack(r)
    above = _risk.above_bound(point.fpr_upper, point.tpr_lower, epsilon=r.epsilon_claimed, delta=r.delta)
    values = {
        "mechanism": s["mechanism"],
        "claimed": r.epsilon_claimed,
        "trials": r.trials,
        "fpr": point.fpr,
        "tpr": point.tpr,
        "bound": _risk.tradeoff(point.fpr, epsilon=r.epsilon_claimed, delta=r.delta),
    }
    return Solution(len(WHY_BELOW) - 1 if above else 0, values, WHY_BELOW)


EXERCISES = (
    Exercise(
        id="risk-read-posterior",
        page=M101,
        title="Read a posterior off the bound",
        settings={"epsilon": 2.0},
        question=(
            "Beside the badge the page says how sure someone who thought it a coin flip could become at ε = {eps:g}. "
            "A classmate thinks it only **{prior:g} %** likely that you are in the data. At most how sure (in %) "
            "can the release make her?"
        ),
        solve=_posterior,
        uses=("dpcore.lab.risk:posterior_bound",),
        hints=(
            "Bayes' rule in odds: posterior odds = prior odds × likelihood ratio, and ε-DP caps the ratio at e^ε.",
            "Prior odds {odds:.4g}; multiply by e^ε, then turn odds o back into a probability o/(1 + o).",
        ),
        solution=(
            "Prior odds {prior:g}/(100 − {prior:g}) = {odds:.4g}; times e^{eps:g} the odds are at most "
            "{odds:.4g}·e^{eps:g}, so the posterior is at most $\\frac{{p e^\\varepsilon}}{{p e^\\varepsilon + 1 - p}}$ "
            "= **{answer}** (the coin flip's {coin:.1f} % on the page, from a smaller prior)."
        ),
        unit="%",
        decimals=2,
    ),
    Exercise(
        id="risk-epsilon-for-75",
        page=M101,
        title="The ε that keeps an attacker under 75 %",
        settings={"epsilon": 1.0},
        question=(
            "Someone thinks it a coin flip that you are in the data. What is the largest ε at which the release can "
            "make her at most **{target:g} %** sure? Move ε in the sidebar and read the sentence beside the badge, "
            "then compute it exactly."
        ),
        solve=_epsilon_for,
        uses=("dpcore.lab.risk:epsilon_for_posterior",),
        hints=(
            "A coin flip is prior odds 1; the posterior odds are at most e^ε.",
            "{target:g} % sure is odds {odds:g}: solve e^ε = {odds:g}.",
        ),
        solution=(
            "Prior odds 1 times at most e^ε must stay ≤ {target:g}/(100 − {target:g}) = {odds:g}, so "
            "ε ≤ ln {odds:g} = **{answer}**. The page's ε = {eps_now:g} keeps her at most {now} sure."
        ),
        decimals=4,
    ),
    Exercise(
        id="risk-why-below",
        page=AUDIT,
        title="Why the measured attack sits where it sits",
        settings={
            "mechanism": "Exponential (cities)",
            "broken": False,
            "trials": 10_000,
            "confidence": 0.95,
            "seed": 0,
        },
        question=(
            "Audit the correct exponential mechanism (claimed ε = {claimed:g}, {trials:,} runs per dataset) and turn "
            "on **Show the attacker's trade-off curve**. Where does the audit's attack sit against the claim's "
            "curve, and why?"
        ),
        solve=_why_below,
        uses=("dpcore.lab.risk:above_bound", "dpcore.audit.scenarios:run_scenario"),
        hints=(
            "Compare what the runs prove (✕) with the black curve at the same false-positive rate.",
            "The curve bounds every test against every pair of neighbours: what would it take to reach it?",
        ),
        solution=(
            "The chosen test flags {fpr:.3f} of the outputs without the person and catches {tpr:.3f} of those with "
            "them; the curve allows up to {bound:.3f} there: **{answer}**. A passed audit proves nothing about ε "
            "(the proof is the mechanism's analysis), but a point above the curve would have proved the claim false."
        ),
        kind=CHOICE,
    ),
)
