"""The session budget's cost per move (issue 29 item 2): a Bayesian page session of 20 ε moves.

    python benchmarks/bench_budget.py             # the accountant alone: before (one PLD) and after (closed form)
    python benchmarks/bench_budget.py --page      # and the Bayesian page in AppTest, 20 ε moves (≈ 1–3 min)
    python benchmarks/bench_budget.py --page-only # the page only (runs on a checkout from before issue 29 too)

Each ε move on the Bayesian page is two new releases (the page's strict release, a Gaussian of noise multiplier
σ(ε, δ), and the local one beside it, not DP), so the budget composes one more Gaussian per move. Before, the
merged Gaussian's ε came from dp_accounting's PLD at value discretization 1e-4 (its size grows as the merged
multiplier shrinks, i.e. with every move); now from its closed form (Balle & Wang 2018, Thm 8). The moves walk the
sidebar's ε grid from 0.3 upwards (20 distinct values: every move is a new release, a cache miss).

Printed: the time of each move's composition (wall and CPU), before and after, and the check that both agree (the
PLD is pessimistic: it lies above the exact ε by at most its discretization). With ``--page``: the page's script
time per move (AppTest, wall and this process's CPU), move 1 against move 20 — the target is "as fast at the 20th
move as at the 1st". A shared machine's load swings wall times; compare within one run.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dpcore.guarantees import approximate_dp, local_sensitivity  # noqa: E402
from dpcore.lab.budget import BudgetEntry, compose_releases  # noqa: E402
from dpcore.mechanisms.gaussian import gaussian_sigma  # noqa: E402
from dpui.common.sidebar import EPSILON_OPTIONS  # noqa: E402

DELTA = 1e-5
MOVES = EPSILON_OPTIONS[EPSILON_OPTIONS.index(0.3) :][:20]


def session_entries(moves) -> list[list[BudgetEntry]]:
    """The budget's entries after each move: the strict release (Gaussian) and the local one (not DP) per ε."""
    entries, out = [], []
    for i, eps in enumerate(moves):
        z = gaussian_sigma(epsilon=eps, delta=DELTA, method="analytic")
        entries.append(
            BudgetEntry(
                "BayesianDP strict", "θ", approximate_dp(epsilon=eps, delta=DELTA), ("gaussian", z, DELTA), f"s{i}"
            )
        )
        entries.append(BudgetEntry("BayesianDP local", "θ", local_sensitivity(epsilon=eps, delta=DELTA), None, f"l{i}"))
        out.append(list(entries))
    return out


def before(entries) -> float:
    """The budget before issue 29: the merged Gaussian's PLD at discretization 1e-4, then its ε at δ."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    zs = [e.event[1] for e in entries if e.event is not None]
    z = math.fsum(x**-2 for x in zs) ** -0.5
    return pld.from_gaussian_mechanism(z, value_discretization_interval=1e-4).get_epsilon_for_delta(DELTA)


def timed(fn, *args):
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - w, time.process_time() - c


def accountant() -> None:
    import dp_accounting  # noqa: F401  (imported once, outside the timings)

    from dpcore.lab import budget_accounting as acc

    print(f"load average {os.getloadavg()[0]:.2f}; ε moves: {', '.join(f'{e:g}' for e in MOVES)}")
    print(f"{'move':>4} {'ε':>5} {'releases':>8} {'before ms':>10} {'after ms':>9} {'after CPU ms':>12} {'ε exact':>9}")
    rows = []
    for i, entries in enumerate(session_entries(MOVES), 1):
        old, w_old, _ = timed(before, entries)
        total, w_new, c_new = timed(compose_releases, entries)
        exact = total.counted_epsilon
        assert exact - 1e-9 <= old <= exact + 2e-4, (old, exact)  # the PLD is pessimistic by ≤ its discretization
        rows.append((w_old, w_new))
        print(
            f"{i:>4} {MOVES[i - 1]:>5g} {len(entries):>8} {1e3 * w_old:>10.1f} {1e3 * w_new:>9.2f} {1e3 * c_new:>12.2f} {exact:>9.4f}"
        )
    first, last = rows[0], rows[-1]
    print(f"before: move 1 {1e3 * first[0]:.0f} ms, move 20 {1e3 * last[0]:.0f} ms")
    print(f"after:  move 1 {1e3 * first[1]:.2f} ms, move 20 {1e3 * last[1]:.2f} ms (cache miss each time)")
    last_entries = session_entries(MOVES)[-1]
    _, w_hit, c_hit = timed(compose_releases, last_entries)
    print(
        f"after, the same 40 releases again (a rerun): {1e6 * w_hit:.0f} µs wall, {1e6 * c_hit:.0f} µs CPU; "
        f"cache {acc.compose_events.cache_info()}"
    )


def page() -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "2_Bayesian_ngram_DP.py"), default_timeout=600)
    at.run()
    at.select_slider(key="eps").set_value(MOVES[0]).run()  # warm: the corpus, counts and caches loaded
    print(f"\nBayesian page (AppTest), load average {os.getloadavg()[0]:.2f}: script time per ε move")
    walls, cpus = [], []
    for i, eps in enumerate(EPSILON_OPTIONS[EPSILON_OPTIONS.index(0.3) :][1:21], 1):  # 20 new ε after the warm-up
        w, c = time.perf_counter(), time.process_time()
        at.select_slider(key="eps").set_value(eps).run()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        assert not at.exception, [e.message for e in at.exception]
        n = len(next(iter(at.session_state["_session_budget"].values())))
        print(f"  move {i:>2} ε = {eps:<5g} releases {n:>3}: wall {walls[-1]:.3f} s, CPU {cpus[-1]:.3f} s")
    print(
        f"  moves 1–3 median CPU {statistics.median(cpus[:3]):.3f} s, moves 18–20 median CPU "
        f"{statistics.median(cpus[-3:]):.3f} s (wall {statistics.median(walls[:3]):.3f} / "
        f"{statistics.median(walls[-3:]):.3f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", action="store_true", help="also time the Bayesian page in AppTest (20 ε moves)")
    parser.add_argument("--page-only", action="store_true", help="time the page only (no accountant table)")
    args = parser.parse_args()
    if not args.page_only:
        accountant()
    if args.page or args.page_only:
        page()


if __name__ == "__main__":
    main()
