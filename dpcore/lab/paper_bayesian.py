"""000 (Ramadan et al., BayesianDP) at the paper's settings: Fig. 1's KL against Laplace, with a verdict."""

from __future__ import annotations

import numpy as np

from .paper_numbers import FIG1_BAYES, FIG1_SETTINGS, Comparison

__all__ = ["compare_bayesian_fig1"]


def compare_bayesian_fig1(
    counts, *, seeds: int = 5, repetitions: int = 10, delta: float = 1e-5, strict: tuple | None = None
) -> Comparison:
    """000 Fig. 1 at ε = 0.1: mean KL of BayesianDP and Laplace (over ``seeds`` × ``repetitions`` draws)
    and the relative reduction. ``counts``: :class:`dpcore.text.NgramCounts` (unigrams for the done-when check).
    Shape: BayesianDP's KL below Laplace's (the paper reports up to 85 % less).

    ``strict``: (L, N_max) to add our strict (ε, δ)-DP variant (SPEC §3b) and the public baseline beside them
    (rows "KL, BayesianDP strict (DP)", "KL reduction vs Laplace, strict", "KL, public baseline"); the verdict
    is the paper's mechanism's, followed by a sentence on the strict one.
    """
    from ..bayesian.experiments import BAYESIAN, BAYESIAN_STRICT, LAPLACE, PUBLIC, kl_vs_epsilon, summarise
    from ..validation import check_int

    seeds = check_int("seeds", seeds, low=1)
    mechs = (BAYESIAN, LAPLACE) + ((BAYESIAN_STRICT, PUBLIC) if strict is not None else ())
    extra = {} if strict is None else {"max_items": int(strict[0]), "max_users": int(strict[1])}
    kl: dict[str, list[float]] = {m: [] for m in mechs}
    for s in range(seeds):
        table = kl_vs_epsilon(
            counts,
            epsilons=[FIG1_SETTINGS["epsilon"]],
            delta=delta,
            repetitions=repetitions,
            rng=s,
            mechanisms=mechs,
            **extra,
        )
        summ = summarise(table, "epsilon")
        for m in kl:
            kl[m].append(float(np.mean(summ[m].mean)))
    mean = {m: float(np.mean(v)) for m, v in kl.items()}
    b, lap = mean[BAYESIAN], mean[LAPLACE]
    red = 1 - b / lap if lap > 0 else float("nan")
    rows = [
        {"quantity": "KL, BayesianDP", "paper": None, "here": b},
        {"quantity": "KL, Laplace", "paper": None, "here": lap},
        {"quantity": "KL reduction vs Laplace", "paper": 0.85, "here": red},
    ]
    ok = b < lap

    def relation(r: float) -> str:
        return f"{r:.0%} below" if r >= 0 else f"{-r:.0%} above"  # never "−15 % below"

    verdict = (
        f"Shape {'reproduced' if ok else 'not reproduced'}: BayesianDP's KL is {relation(red)} Laplace's at "
        f"ε = 0.1 ({b:.3g} vs {lap:.3g}; paper: up to 85 % below)."
    )
    settings = dict(FIG1_SETTINGS)
    if strict is not None:
        bs = mean[BAYESIAN_STRICT]
        red_s = 1 - bs / lap if lap > 0 else float("nan")
        rows += [
            {"quantity": "KL, BayesianDP strict (DP)", "paper": None, "here": bs},
            {"quantity": "KL reduction vs Laplace, strict", "paper": None, "here": red_s},
            {"quantity": "KL, public baseline", "paper": None, "here": mean[PUBLIC]},
        ]
        verdict += (
            f" Our strict variant, (ε, δ)-DP with L = {extra['max_items']} and N_max = {extra['max_users']:,}, "
            f"is {relation(red_s)} Laplace's ({bs:.3g})."
        )
        settings.update(L=extra["max_items"], N_max=extra["max_users"])
    return Comparison(FIG1_BAYES, rows, ok, verdict, seeds, settings)
