"""Exercises for Bayesian n-gram DP (paper 000, Algorithm 1 and Corollary 1; SPEC §3).

What the page teaches: the decay weight w = min(1, S·N/C) decides which n-grams lean on the public
prior; the sensitivity γ of w ⊙ x̂ is measured on the corpus; σ_ps = ρ·γ·σ(ε, δ) with a classic or an
analytic Gaussian calibration. Answers that depend on the corpus are computed from the corpus the
settings name, through the same dpcore calls the page makes (ngram_counts → bayesian_statistics →
prepare → sigma).
"""

from __future__ import annotations

import importlib

import numpy as np

from ...errors import UserError
from . import _data
from ._base import CHOICE, Exercise, Solution

# modules, looked up at call time (a test swaps a function and sees the answer change)
_bayesian_statistics = importlib.import_module("dpcore.bayesian.statistics")

PAGE = "2_Bayesian_ngram_DP"


def _prepared(s, **override):
    p = {**s, **override}
    stats = _data.bayesian_statistics(p, n=int(p["n"]), C=int(p["C"]))
    return stats.prepare(S=float(p["S"]), rho=float(p["rho"]))


def _calibration_factor(s) -> Solution:
    prep = _prepared(s)
    eps, delta = float(s["epsilon"]), float(s["delta"])
    classic = prep.sigma(epsilon=eps, delta=delta, calibration="classic")
    analytic = prep.sigma(epsilon=eps, delta=delta, calibration="analytic")
    return Solution(
        classic / analytic,
        {
            "eps": eps,
            "delta": delta,
            "classic": classic,
            "analytic": analytic,
            "gamma": prep.sensitivity,
            "rho": prep.rho,
        },
    )


def _users_for_full_weight(s) -> Solution:
    S, C = float(s["S"]), int(s["C"])
    # the page's weight function on N = 1, 2, …: the first N whose weight reaches 1
    upper = int(np.ceil(C / S)) + 2
    w = _bayesian_statistics.decay_weights(np.arange(1, upper + 1), S=S, C=C)
    full = np.flatnonzero(w >= 1.0)
    if full.size == 0:
        raise UserError(f"no N ≤ {upper} gives w = 1 at S={S:g}, C={C}")
    n_full = int(full[0]) + 1
    return Solution(
        n_full, {"S": S, "C": C, "w_before": float(w[n_full - 2]) if n_full > 1 else float("nan"), "before": n_full - 1}
    )


def _gamma_when_c_grows(s) -> Solution:
    low = _prepared(s, C=1)
    high = _prepared(s)
    C = int(s["C"])
    g_low, g_high = low.sensitivity, high.sensitivity
    rel = (g_high - g_low) / g_low
    options = (
        "γ grows: more counts per user means a user can move log(c + 1) further",
        "γ shrinks: w = min(1, S·N/C) falls for every n-gram as C grows",
        "γ stays the same: γ depends on the number of users N only, not on the counts",
    )
    if abs(rel) < 1e-9:
        index = 2
    else:
        index = 0 if g_high > g_low else 1
    why = (
        "the weight w = S·N/C of the down-weighted n-grams shrinks by the factor C, which outweighs a user's "
        "larger move of log(c + 1) (at most ln(1 + C))"
        if index == 1
        else "a user's larger move of log(c + 1) (up to ln(1 + C)) outweighs the smaller weights w = S·N/C"
        if index == 0
        else "the two effects cancel"
    )
    return Solution(
        index,
        {
            "C": C,
            "gamma_1": g_low,
            "gamma_C": g_high,
            "S": high.S,
            "share_1": low.share_downweighted,
            "share_C": high.share_downweighted,
            "why": why,
        },
        options,
    )


def _rho_factor(s) -> Solution:
    rho = float(s["rho"])
    base_rho = rho / 2
    eps, delta, cal = float(s["epsilon"]), float(s["delta"]), s["calibration"]
    now = _prepared(s).sigma(epsilon=eps, delta=delta, calibration=cal)
    before = _prepared(s, rho=base_rho).sigma(epsilon=eps, delta=delta, calibration=cal)
    return Solution(
        now / before, {"rho": rho, "rho0": base_rho, "sigma": now, "sigma0": before, "gamma": _prepared(s).sensitivity}
    )


def _strict_over_local(s) -> Solution:
    eps, delta, cal = float(s["epsilon"]), float(s["delta"]), s["calibration"]
    S, C, rho = float(s["S"]), int(s["C"]), float(s["rho"])
    L, n_max = int(s["max_items"]), int(s["max_users"])
    local = _prepared(s)
    # γ_strict does not depend on which L items a user keeps: any seed gives the page's σ
    strict = _data.bayesian_statistics(s, n=int(s["n"]), C=C, max_items=L).prepare(
        S=S, rho=rho, sensitivity="strict", max_users=n_max
    )
    sig_l = local.sigma(epsilon=eps, delta=delta, calibration=cal)
    sig_s = strict.sigma(epsilon=eps, delta=delta, calibration=cal)
    return Solution(
        sig_s / sig_l,
        {
            "L": L,
            "N_max": n_max,
            "S": S,
            "C": C,
            "gamma_local": local.sensitivity,
            "gamma_strict": strict.sensitivity,
            "sigma_local": sig_l,
            "sigma_strict": sig_s,
            "n_users": local.n_users,
        },
    )


_BASE = {"S": 0.001, "C": 1, "rho": 0.3, "n": 1, "corpus": "classroom"}

EXERCISES = (
    Exercise(
        id="bayes-classic-vs-analytic",
        page=PAGE,
        title="Classic against analytic Gaussian calibration",
        settings={**_BASE, "epsilon": 2.0, "delta": 1e-5, "calibration": "analytic"},
        question=(
            "At ε = {eps:g}, δ = {delta:g} the classic calibration σ = ρ·γ·√(2 ln(1.25/δ))/ε is outside its "
            "proof (ε ≥ 1). By what factor is σ_ps with the classic calibration larger than with the analytic "
            "one? (Switch the **Gaussian calibration** radio and compare.)"
        ),
        solve=_calibration_factor,
        uses=(
            "dpcore.bayesian.prepared:PreparedBayesianDP.sigma",
            "dpcore.mechanisms.gaussian:analytic_gaussian_sigma",
        ),
        hints=(
            "ρ and γ are the same in both: the factor is a ratio of two Gaussian σ at Δ = 1.",
            "The metric's help text shows both σ_ps values.",
        ),
        solution=(
            r"$\sigma_{{ps}}=\rho\gamma\,\sigma(\varepsilon,\delta)$ with ρ·γ = {rho:g}·{gamma:.4g} in both; "
            r"classic {classic:.4g}, analytic {analytic:.4g} (Balle & Wang: solve "
            r"$\Phi(\tfrac{{1}}{{2\sigma}}-\varepsilon\sigma)-e^\varepsilon\Phi(-\tfrac{{1}}{{2\sigma}}-\varepsilon\sigma)=\delta$). "
            "Ratio = **{answer}**: the classic bound is not only unproven at ε ≥ 1, it also spends more noise."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="bayes-full-weight",
        page=PAGE,
        title="When does an n-gram get full weight?",
        settings={**_BASE, "S": 0.01, "C": 2},
        question=(
            "With S = {S:g} and C = {C}, how many users N must use an n-gram before its private evidence gets "
            "the full weight w = 1?"
        ),
        solve=_users_for_full_weight,
        uses=("dpcore.bayesian.statistics:decay_weights",),
        hints=("w = min(1, S·N/C). Solve S·N/C ≥ 1 for N.",),
        solution=(
            r"$w=\min(1, S N / C)$ reaches 1 when $N\ge C/S={C}/{S:g}$: N = **{answer}** users "
            "(with {before} users, w = {w_before:.4g}). Rarer n-grams take part of their mass from the "
            "public prior, which is what lowers the sensitivity."
        ),
        rel_tol=0.0,
        abs_tol=0.5,
        decimals=0,
    ),
    Exercise(
        id="bayes-gamma-vs-C",
        page=PAGE,
        title="Does raising C raise the sensitivity?",
        settings={**_BASE, "C": 5},
        question=(
            "Compare C = 1 with C = {C} (S = {S:g}, unigrams, the synthetic classroom corpus): what happens to the "
            "brute-force sensitivity γ? (Move the **C** slider and read the γ metric.)"
        ),
        solve=_gamma_when_c_grows,
        uses=(
            "dpcore.bayesian.statistics:BayesianStatistics.prepare",
            "dpcore.bayesian.statistics:bayesian_statistics",
        ),
        hints=(
            "Two things move with C: how far one user can shift log(c + 1), and the weight w = min(1, S·N/C).",
            "With S this small almost every n-gram has w = S·N/C < 1: what does dividing by a larger C do to w?",
        ),
        solution=(
            "γ is {gamma_1:.4g} at C = 1 and {gamma_C:.4g} at C = {C}. Answer: **{answer}**. With S = {S:g} "
            "{share_1:.0%} of the n-grams are down-weighted at C = 1, {share_C:.0%} at C = {C}: {why}."
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="bayes-rho-noise",
        page=PAGE,
        title="What ρ does to the noise",
        settings={**_BASE, "rho": 0.6, "epsilon": 1.0, "delta": 1e-5, "calibration": "classic"},
        question=(
            "The page opens at ρ = {rho:g}. By what factor is σ_ps larger than at ρ = {rho0:g} (all else equal)?"
        ),
        solve=_rho_factor,
        uses=(
            "dpcore.bayesian.prepared:PreparedBayesianDP.sigma",
            "dpcore.bayesian.statistics:BayesianStatistics.prepare",
        ),
        hints=("Does γ, the sensitivity of w ⊙ x̂, depend on ρ?",),
        solution=(
            r"$\mu_{{ps}}=\rho(w\odot\hat x)+(1-\rho)\mu_p$: only the private part ρ·(w ⊙ x̂) changes with one "
            r"user, by at most ρ·γ, and γ = {gamma:.4g} does not depend on ρ. So $\sigma_{{ps}}=\rho\gamma\sigma(\varepsilon,\delta)$ "
            "grows in proportion to ρ: {sigma0:.4g} → {sigma:.4g}, factor **{answer}**. The signal-to-noise "
            "ratio of the private part does not change; ρ moves the mean towards the private data."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="bayes-strict-vs-local",
        page=PAGE,
        title="The price of a real guarantee: strict against local γ",
        settings={
            **_BASE,
            "epsilon": 1.0,
            "delta": 1e-5,
            "calibration": "classic",
            "mode": "strict",
            "max_items": 50,
            "max_users": 10_000,
        },
        question=(
            "The page opens in **strict** mode (each user keeps at most L = {L} distinct n-grams; at most "
            "N_max = {N_max:,} users). By what factor is σ_ps larger than in **local** mode, the paper's γ "
            "measured on this corpus? (Read the side-by-side panel, or switch the mode.)"
        ),
        solve=_strict_over_local,
        uses=(
            "dpcore.bayesian.statistics:strict_sensitivity",
            "dpcore.bayesian.statistics:BayesianStatistics.prepare",
            "dpcore.bayesian.prepared:PreparedBayesianDP.sigma",
        ),
        hints=(
            "σ_ps = ρ·γ·σ(ε, δ): only γ differs between the modes.",
            "γ_strict = √L·[ln(1 + C) + min(1, S/C)·ln(C·N_max + 1)] (SPEC §3b) holds for every corpus; the "
            "local γ is measured on this one.",
        ),
        solution=(
            r"$\gamma_{{strict}}=\sqrt{{L}}\,[\ln(1+C)+\min(1,S/C)\ln(C N_{{max}}+1)]$ = {gamma_strict:.4g} "
            "with L = {L}, C = {C}, S = {S:g}, N_max = {N_max:,}; the local γ of this corpus' {n_users:,} users "
            "is {gamma_local:.4g}. σ_ps goes from {sigma_local:.4g} to {sigma_strict:.4g}: factor **{answer}**. "
            "The local γ is smaller because it only covers removing a user of *this* corpus — and it "
            "leaks, since σ itself depends on the data: not DP. The strict one is the price of a real "
            "(ε, δ)-DP guarantee."
        ),
        rel_tol=0.01,
    ),
)
