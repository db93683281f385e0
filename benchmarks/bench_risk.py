"""Benchmarks for the attacker's view (dpcore.lab.risk, dpui.common.risk; issue 32).

    python benchmarks/bench_risk.py

Target: a trade-off curve draws in < 50 ms — the curve at the page's (ε, δ) computed on the 201-point FPR grid,
its plotly figure built (with a measured attack: the audit's ROC on 50,000 evaluation runs) and serialised to the
JSON Streamlit sends. Also reported, for information: the sentence beside each badge (computed on every run,
toggle or not), the Gaussian curve, and the composed session's curve read off a dp_accounting PLD (not on a
slider's path: the sidebar says the session's total in words only). Median and best of the repeats, wall time,
the load average before and after, and a reference (a numpy sort) to read them against, since the machine is
shared: compare with the floor measured in the same run.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from dpcore.audit import run_scenario  # noqa: E402
from dpcore.lab import risk  # noqa: E402
from dpui.common.risk import curve_figure  # noqa: E402

TARGET_MS = 50.0


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def timed(label: str, fn, repeats: int = 30, target: float | None = None) -> None:
    fn()  # warm up (imports, plotly's validators)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(1000 * (time.perf_counter() - t0))
    med, best = statistics.median(times), min(times)
    verdict = "" if target is None else ("  OK" if med < target else f"  SLOWER than {target:g} ms")
    print(f"{label:<68} median {med:8.2f} ms   best {best:8.2f} ms{verdict}")


def main() -> None:
    print(f"load average before: {loadavg()}")
    x = risk.FPR_GRID
    ref = np.random.default_rng(0).random(100_000)
    timed("reference: np.sort of 100,000 floats (~5 ms on an idle core)", lambda: np.sort(ref), repeats=20)
    timed(
        "sentence beside a badge (attacker_limits, ε = 4, δ = 1e-6)",
        lambda: risk.attacker_limits(epsilon=4, delta=1e-6),
    )
    timed("(ε, δ) curve, 201 points", lambda: risk.tradeoff(x, epsilon=4, delta=1e-6), repeats=200)
    timed("Gaussian curve, 201 points", lambda: risk.gaussian_tradeoff(x, noise_multiplier=0.8), repeats=200)
    timed(
        "page curve drawn: curve + figure + JSON (one bound)",
        lambda: curve_figure([(4.0, 1e-6)], [])[0].to_json(),
        target=TARGET_MS,
    )
    audit = run_scenario("laplace_count", broken=True, trials=100_000, rng=0).result

    def audit_curve():
        fig, _ = curve_figure([(1.0, 0.0)], [risk.audit_attack(audit, name="audit")])
        return fig.to_json()

    roc = risk.audit_attack(audit)
    timed(
        f"audit curve drawn: bound + ROC of {audit.n_eval:,} runs ({roc.roc_fpr.size:,} points) + JSON",
        audit_curve,
        repeats=10,
        target=TARGET_MS,
    )
    from dp_accounting.pld import privacy_loss_distribution as pld

    session = pld.from_gaussian_mechanism(2.0, value_discretization_interval=1e-4).self_compose(4)
    timed("composed session's curve from a PLD (64 δ(ε) look-ups)", lambda: risk.pld_tradeoff(x, session), repeats=3)
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    main()
