"""Exercises for the Privacy audit page (issue 10; dpcore.audit).

What the page teaches: an audit runs a mechanism many times on a worst-case pair of neighbouring
datasets and proves a lower bound ε_lower on its real ε (Clopper–Pearson, at a stated confidence); a
bound above the claimed ε proves the claim false, a bound below it proves nothing. "Break it" swaps
in a broken variant — half-scale Laplace, a too-small Δu in the exponential mechanism, the paper's
local γ in BayesianDP — and the audit catches it. Every answer runs the page's own audit
(dpcore.audit.run_scenario on the generator dpcore.audit.audit_rng(seed, scenario, broken, trials)), seeded, so the number a
student reads on the page is the answer.
"""

from __future__ import annotations

import importlib

from ._base import CHOICE, Exercise, Solution

# modules, looked up at call time (a test swaps a function and sees the answer change)
_scenarios = importlib.import_module("dpcore.audit.scenarios")

PAGE = "5_Privacy_audit"

VERDICT_OPTIONS = (
    "No violation found (ε_lower ≤ claimed ε): consistent with the claim, but not a proof of it",
    "A violation (ε_lower > claimed ε): the mechanism does not keep its claimed ε",
    "A proof that the mechanism keeps its claimed ε",
)


def _run(s):
    name = _scenarios.SCENARIO_LABELS[s["mechanism"]]
    run = _scenarios.run_scenario(
        name,
        broken=bool(s["broken"]),
        trials=int(s["trials"]),
        confidence=float(s["confidence"]),
        rng=_scenarios.audit_rng(int(s["seed"]), scenario=name, broken=bool(s["broken"]), trials=int(s["trials"])),
    )
    return run, _scenarios.get_scenario(name).variant(bool(s["broken"]))


def _values(s, run, variant) -> dict:
    r = run.result
    return {
        "mechanism": s["mechanism"],
        "claimed": r.epsilon_claimed,
        "delta": r.delta,
        "trials": r.trials,
        "n_eval": r.n_eval,
        "confidence": r.confidence,
        "seed": int(s["seed"]),
        "eps_lower": r.epsilon_lower,
        "p_d": r.p_hat_d,
        "p_dp": r.p_hat_d_prime,
        "event": r.event.describe(),
        "variant": variant.explanation,
    }


def _epsilon_lower(s) -> Solution:
    run, variant = _run(s)
    return Solution(run.result.epsilon_lower, _values(s, run, variant))


def _verdict(s) -> Solution:
    run, variant = _run(s)
    r = run.result
    return Solution(int(r.epsilon_lower > r.epsilon_claimed), _values(s, run, variant), VERDICT_OPTIONS)


_AUDIT = {"confidence": 0.95, "seed": 0}

EXERCISES = (
    Exercise(
        id="audit-break-laplace",
        page=PAGE,
        title="Break the Laplace mechanism and read ε_lower",
        settings={**_AUDIT, "mechanism": "Laplace count", "broken": True, "trials": 100_000},
        question=(
            "The page opens on the Laplace count with **Break it** on: the noise scale is halved while the claim "
            "stays ε = {claimed:g}. What lower bound ε_lower does the audit prove with {trials:,} runs per "
            "dataset at {confidence:.0%} confidence (seed {seed})?"
        ),
        solve=_epsilon_lower,
        uses=("dpcore.audit.scenarios:run_scenario", "dpcore.audit.scenarios:audit_rng"),
        hints=(
            "Read the **ε lower bound** metric at exactly these settings (the seed fixes the runs).",
            "Halving b doubles the largest privacy loss |y − 50|/b − |y − 51|/b ≤ 1/b: the true ε is 2. The "
            "bound is a lower bound, so it sits a little below that.",
        ),
        solution=(
            "With b = Δ/(2ε) the privacy loss of the pair reaches 1/b = 2ε = 2, so the mechanism is 2-DP, not "
            "{claimed:g}-DP. The audit chose the event {event} on the first half of the runs and measured it "
            "on the other {n_eval:,} per dataset: p̂(D) = {p_d:.4f}, p̂(D′) = {p_dp:.4f}; the Clopper–Pearson "
            "bounds give ε_lower = **{answer}** > {claimed:g}: the broken mechanism is caught."
        ),
        rel_tol=0.0,
        abs_tol=0.01,
        decimals=3,
    ),
    Exercise(
        id="audit-correct-laplace",
        page=PAGE,
        title="What a passed audit says",
        settings={**_AUDIT, "mechanism": "Laplace count", "broken": False, "trials": 100_000},
        question=(
            "Audit the correct Laplace count (claimed ε = {claimed:g}) with {trials:,} runs per dataset. What "
            "does the result show?"
        ),
        solve=_verdict,
        uses=("dpcore.audit.scenarios:run_scenario",),
        hints=(
            "Compare the **ε lower bound** metric with the claimed ε.",
            "Can finitely many runs of a mechanism ever show that *every* output set of *every* pair of "
            "neighbours keeps the ratio e^ε?",
        ),
        solution=(
            "ε_lower = {eps_lower:.3f} ≤ {claimed:g}: **{answer}**. An audit only tests one pair of neighbours "
            "and one event; the proof of ε-DP is the mechanism's analysis (here: Lap(Δ/ε))."
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="audit-exponential-small-du",
        page=PAGE,
        title="The exponential mechanism with too small a Δu",
        settings={**_AUDIT, "mechanism": "Exponential (cities)", "broken": True, "trials": 100_000},
        question=(
            "The broken exponential mechanism on the city example uses a quarter of the utility's sensitivity "
            "Δu while claiming ε = {claimed:g}. What ε_lower does the audit prove ({trials:,} runs per dataset, "
            "seed {seed})?"
        ),
        solve=_epsilon_lower,
        uses=("dpcore.audit.scenarios:run_scenario", "dpcore.audit.scenarios:audit_rng"),
        hints=(
            "Read the **ε lower bound** metric.",
            "P[r] ∝ exp(ε·u(r)/(2Δu)): with Δu/4 in place of Δu every exponent is four times larger.",
        ),
        solution=(
            "{variant} The audit's event {event} has p̂(D) = {p_d:.4f} and p̂(D′) = {p_dp:.4f}, which prove "
            "ε_lower = **{answer}** > {claimed:g}: caught."
        ),
        rel_tol=0.0,
        abs_tol=0.01,
        decimals=3,
    ),
    Exercise(
        id="audit-bayesian-local",
        page=PAGE,
        title="Is the paper's BayesianDP differentially private?",
        settings={**_AUDIT, "mechanism": "BayesianDP", "broken": True, "trials": 5_000},
        question=(
            "With **Break it** on, the BayesianDP scenario uses the paper's γ, measured on each corpus (local "
            "sensitivity), while claiming (ε, δ) = ({claimed:g}, {delta:g}). What does the audit show?"
        ),
        solve=_verdict,
        uses=("dpcore.audit.scenarios:run_scenario",),
        hints=(
            "Compare the **ε lower bound** with the claimed ε; then switch **Break it** off (strict γ) and compare.",
            "With γ measured on the data, σ itself differs between D and D′.",
        ),
        solution=(
            "{variant} ε_lower = {eps_lower:.3f} against the claimed {claimed:g}: **{answer}**. The strict γ "
            "(Break it off) adds the same noise on both datasets and passes."
        ),
        kind=CHOICE,
    ),
)
