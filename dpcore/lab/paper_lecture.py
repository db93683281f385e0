"""001 (Habernal's lecture 4) recomputed: its worked numbers, with a verdict (on the Mechanisms 101 page)."""

from __future__ import annotations

import numpy as np

from .paper_numbers import LECTURE_001, LECTURE_SETTINGS, Comparison

__all__ = ["compare_lecture_001"]


def compare_lecture_001() -> Comparison:
    """001's worked numbers recomputed by dpcore.lab.lecture and dpcore.mechanisms.laplace (instant; no corpus, no noise).

    Laplace scale for ε = 1 on a counting query; the bank-debt totals of D and two neighbours (the debts of
    ``dpcore.lab.lecture.BANK_DEBTS`` are the slides' per-person differences); the secret society's mean
    position and the city closest to it (u = 1/d, the exponential mechanism's utility for D).
    """
    from ..mechanisms.laplace import laplace_scale
    from .lecture import BANK_DEBTS, bank_debt_neighbours, city_example

    s = LECTURE_SETTINGS
    b = laplace_scale(epsilon=s["epsilon"], sensitivity=s["sensitivity"])
    debts = {d.removed: d for d in bank_debt_neighbours(BANK_DEBTS, epsilon=s["epsilon"], scale=1.0)}
    city = city_example(epsilon=s["epsilon"])
    here = {
        "Laplace scale b for ε = 1 on a counting query (Δ = 1)": b,
        "total debt y_true(D)": debts["Alice"].total,
        "y_true(D without Alice)": debts["Alice"].neighbour_total,
        "y_true(D without Bob)": debts["Bob"].neighbour_total,
        "members' mean latitude": city.centre[0],
        "members' mean longitude": city.centre[1],
        "closest city to the members' mean": city.cities[int(np.argmax(city.utilities[0]))],
    }
    rows = [{"quantity": q, "paper": v, "here": here[q]} for q, v in LECTURE_001.values.items()]

    def same(a, b):
        return a == b if isinstance(a, str) else bool(np.isclose(a, b, rtol=1e-9, atol=1e-6))

    off = [r for r in rows if not same(r["paper"], r["here"])]
    ok = not off
    verdict = (
        "Reproduced: every worked number of the lecture."
        if ok
        else f"Reproduced {len(rows) - len(off)} of {len(rows)}; not reproduced: "
        + "; ".join(f"{r['quantity']} (lecture {r['paper']:g}, here {r['here']:.4g})" for r in off)
        + "."
    )
    closest = here["closest city to the members' mean"]
    if any(r["quantity"].startswith("members' mean") for r in off):
        verdict += (
            " The four members' coordinates on the slide average to "
            f"({city.centre[0]:.4g}, {city.centre[1]:.4g}); the slide's mean is not their average, "
            f"and {closest} is the closest city either way."
        )
    return Comparison(LECTURE_001, rows, ok, verdict, 0, dict(s))
