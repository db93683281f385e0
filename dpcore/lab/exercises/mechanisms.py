"""Exercises for Mechanisms 101 (lecture 001, Habernal "Pure Differential Privacy Mechanisms"; SPEC §1).

The lecture's own exercises: the largest privacy loss of two Laplace densities, "prove it backwards"
(from the definition to the scale b), the largest likelihood ratio, the bank-debt sensitivity (which
neighbouring pair breaks a data-derived scale) and the secret-society city example of the exponential
mechanism. Every answer is computed by the functions the page calls (dpcore.mechanisms.laplace, dpcore.lab.lecture).
"""

from __future__ import annotations

import importlib
import math

from scipy.optimize import brentq

from ...errors import UserError
from ._base import CHOICE, Exercise, Solution

# modules, looked up at call time (a test swaps a function and sees the answer change)
_laplace = importlib.import_module("dpcore.mechanisms.laplace")
_lecture = importlib.import_module("dpcore.lab.lecture")

PAGE = "1_Mechanisms_101"

# ------------------------------------------------------------------------------ (a) privacy loss


def _loss_at_hand_scale(s) -> Solution:
    a, a2 = _lecture.COUNTING_QUERY
    b = float(s["scale"])
    bound = _laplace.laplace_privacy_loss_bound(true_answer=a, neighbour_answer=a2, scale=b)
    return Solution(bound, {"a": a, "a2": a2, "b": b, "diff": abs(a - a2)})


def _scale_backwards(s) -> Solution:
    a, a2 = _lecture.COUNTING_QUERY
    eps = float(s["epsilon"])
    b = _laplace.laplace_scale(epsilon=eps, sensitivity=abs(a - a2))
    return Solution(b, {"a": a, "a2": a2, "eps": eps, "diff": abs(a - a2)})


def _largest_ratio(s) -> Solution:
    sol = _loss_at_hand_scale(s)
    return Solution(math.exp(sol.value), {**sol.values, "loss": sol.value})


# ------------------------------------------------------------------------------ (b) bank debts


def _data_scale(s) -> float:
    """The page's "largest debt" rule: b = (the table's largest debt)/ε."""
    return _laplace.laplace_scale(epsilon=float(s["epsilon"]), sensitivity=max(_lecture.BANK_DEBTS.values()))


def _which_pair_breaks(s) -> Solution:
    eps = float(s["epsilon"])
    b = _data_scale(s)
    rows = _lecture.bank_debt_neighbours(_lecture.BANK_DEBTS, epsilon=eps, scale=b)
    worst = _lecture.bank_debt_worst_case(epsilon=eps, scale=b)
    by_size = sorted(rows, key=lambda r: -r.difference)[:2]
    cap = f"{_lecture.DEBT_CAP:,.0f}"
    candidates = [
        (f"the bank's table D and D′ = D without {r.removed} (debt {r.difference:,.2f} €)", r.exceeds_epsilon)
        for r in by_size
    ]
    candidates.append((f"the possible tables D = {{0, 0, 0, {cap}}} and D′ = {{0, 0, 0}}", worst.exceeds_epsilon))
    candidates.append(("none of these pairs: the scale from the largest debt is safe", False))
    breaking = [i for i, (_, bad) in enumerate(candidates) if bad]
    if len(breaking) > 1:
        raise UserError(f"more than one pair exceeds ε={eps:g} at this scale: the exercise needs exactly one")
    index = breaking[0] if breaking else len(candidates) - 1
    return Solution(
        index,
        {
            "eps": eps,
            "b": b,
            "largest": max(_lecture.BANK_DEBTS.values()),
            "cap": _lecture.DEBT_CAP,
            "worst_loss": worst.loss_bound,
            "alice_loss": by_size[0].loss_bound,
        },
        tuple(text for text, _ in candidates),
    )


def _outlier_loss(s) -> Solution:
    eps = float(s["epsilon"])
    b = _data_scale(s)
    worst = _lecture.bank_debt_worst_case(epsilon=eps, scale=b)
    return Solution(
        worst.loss_bound, {"eps": eps, "b": b, "largest": max(_lecture.BANK_DEBTS.values()), "cap": _lecture.DEBT_CAP}
    )


# ------------------------------------------------------------------------------ (c) exponential mechanism


def _ratio_reaches_two(s) -> Solution:
    target = 2.0

    def worst(e: float) -> float:
        return _lecture.city_example(epsilon=e).worst_ratio

    eps_star = brentq(lambda e: worst(e) - target, 1e-3, 10.0, xtol=1e-6)
    return Solution(
        eps_star,
        {
            "target": target,
            "ln_target": math.log(target),
            "bound_at": math.exp(eps_star),
            "slope": math.log(target) / eps_star,
            "start_ratio": worst(float(s["epsilon"])),
            "eps": float(s["epsilon"]),
        },
    )


def _too_small_sensitivity(s) -> Solution:
    eps, factor = float(s["epsilon"]), float(s["sensitivity_factor"])
    base = _lecture.city_example(epsilon=eps)
    ex = _lecture.city_example(epsilon=eps, sensitivity=base.sensitivity_true * factor)
    return Solution(
        ex.worst_ratio,
        {
            "eps": eps,
            "factor": factor,
            "bound": ex.bound,
            "du": base.sensitivity_true,
            "du_used": ex.sensitivity_used,
            "eff_eps": eps / factor,
            "pair": f"{ex.worst_pair[1]}, {ex.worst_pair[0]} vs D",
        },
    )


EXERCISES = (
    Exercise(
        id="m101-loss-b2",
        page=PAGE,
        title="Largest privacy loss for b = 2",
        settings={"scale_mode": "by hand", "scale": 2.0},
        question=(
            "Tab **(a) Privacy loss**. The counting query answers {a:g} on D and {a2:g} on the neighbour D′. "
            "The Laplace scale is set by hand to b = {b:g}. What is the largest privacy loss |L(y)| over all "
            "outputs y (in nats)?"
        ),
        solve=_loss_at_hand_scale,
        uses=("dpcore.mechanisms.laplace:laplace_privacy_loss_bound",),
        hints=(
            "Look at the lower plot: where is L(y) flat, and at what height?",
            "Triangle inequality: | |y − a′| − |y − a| | ≤ |a − a′|.",
        ),
        solution=(
            r"$L(y)=\ln\frac{{p(y\mid D)}}{{p(y\mid D')}}=\frac{{|y-a'|-|y-a|}}{{b}}$. By the triangle inequality "
            r"$|L(y)|\le |a-a'|/b = {diff:g}/{b:g}$ = **{answer}**, reached for every y outside "
            r"[{a:g}, {a2:g}]. This is the ε the mechanism keeps: ε = Δ/b."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="m101-prove-backwards",
        page=PAGE,
        title="Prove it backwards: from ε to the scale b",
        settings={"epsilon": 0.5, "scale_mode": "from ε"},
        question=(
            "Tab **(a)**. Work backwards from the definition: you must guarantee "
            "Pr[Y = y] ≤ e^ε·Pr[Y′ = y] for every y, with ε = {eps:g}, for a counting query whose answers on "
            "neighbours differ by at most {diff:g}. What is the smallest Laplace scale b that does it?"
        ),
        solve=_scale_backwards,
        uses=("dpcore.mechanisms.laplace:laplace_scale",),
        hints=(
            "Take the logarithm of the ratio: you need |L(y)| ≤ ε for every y.",
            "The largest |L(y)| is Δ/b. Solve Δ/b ≤ ε for b.",
        ),
        solution=(
            r"$\ln\frac{{\Pr[Y=y]}}{{\Pr[Y'=y]}}=\frac{{|y-a'|-|y-a|}}{{b}}\le\frac{{\Delta}}{{b}}$, so the "
            r"definition holds for every y exactly when $\Delta/b\le\varepsilon$, i.e. "
            r"$b\ge\Delta/\varepsilon={diff:g}/{eps:g}$ = **{answer}**. This is the page's b = Δ/ε."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="m101-largest-ratio",
        page=PAGE,
        title="The largest likelihood ratio",
        settings={"scale_mode": "by hand", "scale": 1.0},
        question=(
            "Tab **(a)**, b = {b:g} set by hand. The lecture asks: what is the maximum of "
            "Pr[Y = y]/Pr[Y′ = y] over all outputs y, for true answers {a:g} and {a2:g}?"
        ),
        solve=_largest_ratio,
        uses=("dpcore.mechanisms.laplace:laplace_privacy_loss_bound",),
        hints=("The ratio is exp(L(y)). Where is L(y) largest?",),
        solution=(
            r"$\frac{{\Pr[Y=y]}}{{\Pr[Y'=y]}}=e^{{L(y)}}\le e^{{|a-a'|/b}}=e^{{{loss:g}}}$ = **{answer}** "
            "(the lecture's e¹ ≈ 2.718 for b = 1)."
        ),
        rel_tol=0.005,
    ),
    Exercise(
        id="m101-debt-which-pair",
        page=PAGE,
        title="Which neighbouring debt tables break the data-derived scale?",
        settings={"epsilon": 1.0, "debt_rule": "largest debt"},
        question=(
            "Tab **(b) Global sensitivity**, rule **largest debt**: the Laplace scale is "
            "b = (largest debt in the table)/ε = {largest:,.0f}/{eps:g}. For which pair of neighbouring "
            "tables does the worst privacy loss exceed ε = {eps:g}?"
        ),
        solve=_which_pair_breaks,
        uses=("dpcore.lab.lecture:bank_debt_neighbours", "dpcore.lab.lecture:bank_debt_worst_case"),
        hints=(
            "The worst loss of a pair is |total(D) − total(D′)|/b: the debt of the person who differs, over b.",
            "Sensitivity is a worst case over every table the bank's rules allow, not only the table you hold.",
        ),
        solution=(
            "The loss bound of a pair is (debt of the person who differs)/b. The table's own pairs stay at or "
            "below ε (Alice: {alice_loss:.3g}) because b was fitted to them. But the bank lends up to "
            "{cap:,.0f} €, and the possible pair {{0, 0, 0, {cap:,.0f}}} vs {{0, 0, 0}} has loss "
            "{cap:,.0f}/{b:,.0f} = {worst_loss:.3g} > ε. Answer: **{answer}**. The scale must come from the "
            "global sensitivity (the cap), which does not depend on the data."
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="m101-debt-outlier-loss",
        page=PAGE,
        title="How far the outlier breaks ε",
        settings={"epsilon": 1.0, "debt_rule": "largest debt"},
        question=(
            "Tab **(b)**, rule **largest debt**, ε = {eps:g}. What is the worst privacy loss of the possible "
            "neighbours D = {{0, 0, 0, {cap:,.0f}}} and D′ = {{0, 0, 0}}?"
        ),
        solve=_outlier_loss,
        uses=("dpcore.lab.lecture:bank_debt_worst_case", "dpcore.mechanisms.laplace:laplace_scale"),
        hints=("b = {largest:,.0f}/ε. The two totals differ by the cap.",),
        solution=(
            r"$b={largest:,.0f}/{eps:g}={b:,.0f}$ €; the totals differ by {cap:,.0f} €, so the loss bound is "
            r"$\Delta/b={cap:,.0f}/{b:,.0f}$ = **{answer}** > ε = {eps:g}: the promise fails for an "
            "outlier customer."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="m101-exp-ratio-two",
        page=PAGE,
        title="When does the exponential mechanism's worst ratio reach 2?",
        settings={"epsilon": 1.0, "sensitivity_factor": 1.0},
        question=(
            "Tab **(c) Exponential mechanism**, Δu as computed. At ε = {eps:g} the worst ratio over neighbours "
            "and cities is {start_ratio:.3f}. At which ε does it first reach {target:g}? (Two decimals.)"
        ),
        solve=_ratio_reaches_two,
        uses=("dpcore.lab.lecture:city_example",),
        hints=(
            "Move the ε slider until the worst ratio passes 2, then interpolate between the two slider values.",
            "ln(ratio) grows almost linearly in ε here: interpolate ln(ratio), not the ratio.",
        ),
        solution=(
            "The ratio grows with ε; solving worst ratio(ε) = {target:g} numerically gives ε = **{answer}**. "
            r"ε-DP only promises ratio ≤ e^ε, which reaches {target:g} already at ε = ln {target:g} = "
            "{ln_target:.3f}: here e^ε = {bound_at:.3f}, so the true ratio is well inside the bound. The proof "
            r"allows $e^{{\varepsilon/2}}$ for the chosen city's utility and another $e^{{\varepsilon/2}}$ for "
            "the normalising sum; here ln(ratio)/ε = {slope:.2f} < 1/2: the normalising sum hardly moves."
        ),
        rel_tol=0.02,
        decimals=2,
    ),
    Exercise(
        id="m101-exp-small-du",
        page=PAGE,
        title="Too small a Δu",
        settings={"epsilon": 1.0, "sensitivity_factor": 0.2},
        question=(
            "Tab **(c)**, ε = {eps:g}, and Δu plugged into the mechanism at {factor:g} × the computed Δu. "
            "What is the worst ratio over neighbours and cities now? Is the mechanism still ε-DP?"
        ),
        solve=_too_small_sensitivity,
        uses=("dpcore.lab.lecture:city_example",),
        hints=("exp(ε·u/(2·Δu)) with Δu/5 is the same as the correct mechanism at 5ε.",),
        solution=(
            r"With Δu′ = {factor:g}·Δu the exponent is $\varepsilon u/(2\cdot{factor:g}\Delta u)$, i.e. the "
            "correct mechanism at ε/{factor:g} = {eff_eps:g}. Worst ratio (at {pair}) = **{answer}** > "
            r"$e^\varepsilon$ = {bound:.3f}: no longer ε-DP."
        ),
        rel_tol=0.01,
    ),
)
