"""Benchmarks for the privacy audit (dpcore.audit, issue 10).

    python benchmarks/bench_audit.py            # the two targets + every scenario at its default trials

Targets: 100,000 Laplace trials per dataset (vectorised) < 1 s; 2,000 DPSU trials per dataset on the
200-user corpus < 30 s (the honest path: ``dpsu_single`` called once per run, and the batch path).
Reported: wall and CPU time (time.process_time) and the load average before and after, since the
machine is shared.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dpcore.audit import SCENARIOS, get_scenario, run_scenario


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def timed(name, broken, trials, vectorised=True, repeats=3):
    best = None
    for i in range(repeats):
        run = run_scenario(name, broken=broken, trials=trials, rng=i, vectorised=vectorised)
        if best is None or run.seconds < best.seconds:
            best = run
    return best


def line(label, run, target=None):
    r = run.result
    verdict = "" if target is None else ("  OK" if run.seconds < target else f"  SLOWER than {target} s")
    claim = "none" if r.epsilon_claimed is None else f"{r.epsilon_claimed:g}"
    print(
        f"{label:58s} wall {run.seconds:7.3f} s  cpu {run.cpu_seconds:7.3f} s  "
        f"ε_lower {r.epsilon_lower:6.3f} (claimed {claim}){verdict}",
        flush=True,
    )


def main() -> None:
    print(f"load average before: {loadavg()}  (CPUs: {os.cpu_count()})")
    line("Laplace, 100,000 trials per dataset, vectorised", timed("laplace_count", False, 100_000), 1.0)
    line("Laplace half scale (broken), 100,000 trials, vectorised", timed("laplace_count", True, 100_000), 1.0)
    get_scenario("dpsu")  # build the corpus once, outside the timing
    line("DPSU, 200 users, 2,000 trials, dpsu_single per run", timed("dpsu", False, 2_000, False, 1), 30.0)
    line("DPSU, 200 users, 2,000 trials, batch path", timed("dpsu", False, 2_000, True, 1), 30.0)
    line("DPSU no cap (broken), 2,000 trials, batch path", timed("dpsu", True, 2_000, True, 1), 30.0)
    print("\nevery scenario at its default trials (seed 0):")
    for name in SCENARIOS:
        sc = get_scenario(name)
        for broken in (False, True):
            if (sc.broken if broken else sc.correct) is None:
                continue
            run = run_scenario(name, broken=broken, rng=0)
            line(f"{name} [{run.variant}] {sc.default_trials:,} trials", run)
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    main()
