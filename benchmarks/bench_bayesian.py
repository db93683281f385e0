"""Benchmarks for BayesianDP (000 Algorithm 1) and the Bayesian n-gram DP page.

    python benchmarks/bench_bayesian.py            # everything (≈ 1–2 min incl. generating 1M users)
    python benchmarks/bench_bayesian.py --quick    # 100,000 users instead of 1,000,000

Targets (checked and printed as PASS/FAIL):
  1. brute-force sensitivity on 1,000,000 generated users × 50 distinct items each, |V| = 50,000,
     in under 10 s on one core (the process is pinned to one CPU);
  2. its speed-up over a naive per-user recomputation (a dense |V|-vector f(D₋ₙ) per user) at
     10,000 users — reported, with both answers checked equal;
  3. a 20-point ε sweep × 10 repetitions at |V| = 50,000 (one Gaussian draw + softmax + KL per
     release) in under 1 s once the ε-independent part is prepared;
  4. median page rerun after an ε move under 300 ms on the sample corpus (AppTest, 20 runs).

Every timing is reported as wall-clock time and as the process's CPU time (``time.process_time``).
On a shared machine other processes steal the core this one is pinned to; the CPU time is then the
fair measure of "on one core", so the PASS/FAIL verdicts use it, and the load average is printed.

The generated data: user u holds one item in each of 50 bands of 1,000 item ids (so 50 distinct
items), skewed towards the low ids of each band (id = band·1000 + ⌊1000·U³⌋), with counts
Geometric(½) ≥ 1. Parameters: S = 0.01, C = 5.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np
import scipy.sparse as sp

from dpcore.bayesian import (
    bayesian_sensitivity,
    bayesian_statistics,
)
from dpcore.metrics import kl_divergence

V = 50_000
ITEMS = 50
S, C = 0.01, 5


def generate(n_users: int, seed: int = 0) -> sp.csr_matrix:
    rng = np.random.default_rng(seed)
    band = np.tile(np.arange(ITEMS, dtype=np.int64) * (V // ITEMS), n_users)
    offset = np.floor((V // ITEMS) * rng.random(n_users * ITEMS) ** 3).astype(np.int64)
    indices = (band + offset).astype(np.int32)
    data = rng.geometric(0.5, size=n_users * ITEMS).astype(np.float64)
    indptr = np.arange(0, ITEMS * (n_users + 1), ITEMS, dtype=np.int64)
    return sp.csr_matrix((data, indices, indptr), shape=(n_users, V))


def naive_sensitivity(m: sp.csr_matrix, S: float, C: int) -> float:
    """Literal per-user recomputation: for each user a dense |V|-vector f(D₋ₙ) = w₋ₙ ⊙ x̂₋ₙ."""
    m = m.tocsr(copy=True)
    np.minimum(m.data, C, out=m.data)
    c = np.asarray(m.sum(axis=0)).ravel()
    N = np.bincount(m.indices, minlength=m.shape[1]).astype(float)
    lc = np.log1p(c)
    f = np.minimum(1.0, S * N / C) * (lc - lc.mean())
    best = 0.0
    for n in range(m.shape[0]):
        a, b = m.indptr[n], m.indptr[n + 1]
        idx, dc = m.indices[a:b], m.data[a:b]
        c2 = c.copy()
        c2[idx] -= dc
        N2 = N.copy()
        N2[idx] -= 1
        l2 = np.log1p(c2)
        f2 = np.minimum(1.0, S * N2 / C) * (l2 - l2.mean())
        best = max(best, float(np.linalg.norm(f - f2)))
    return best


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def bench_sensitivity(n_users: int) -> None:
    t0 = time.perf_counter()
    m = generate(n_users)
    print(
        f"\n== brute-force sensitivity: {n_users:,} users × {ITEMS} distinct items, |V| = {V:,}, "
        f"nnz = {m.nnz:,} (generated in {time.perf_counter() - t0:.1f} s)"
    )
    times = []
    for _ in range(2):
        c0, t0 = time.process_time(), time.perf_counter()
        stats = bayesian_statistics(m, C=C)
        c1, _t1 = time.process_time(), time.perf_counter()
        g = stats.sensitivity(S, "brute-force")
        c2, t2 = time.process_time(), time.perf_counter()
        times.append((c2 - c0, t2 - t0, c1 - c0, c2 - c1))
    cpu, wall, prep, kernel = min(times)
    c0, t0 = time.process_time(), time.perf_counter()
    g_api = bayesian_sensitivity(m, S=S, C=C)
    cpu_api, wall_api = time.process_time() - c0, time.perf_counter() - t0
    t0 = time.perf_counter()
    g_wc = stats.sensitivity(S, "worst-case")
    t_wc = time.perf_counter() - t0
    print(f"γ = {g:.6g} (worst case {g_wc:.6g}, {t_wc * 1e3:.0f} ms)")
    print(
        f"CPU: bayesian_statistics (validate, clamp, c, N, x̂) {prep:.2f} s + brute-force kernel {kernel:.2f} s "
        f"= {cpu:.2f} s (wall {wall:.2f} s; best of 2); public call dpcore.bayesian.bayesian_sensitivity: CPU {cpu_api:.2f} s, "
        f"wall {wall_api:.2f} s; load average {os.getloadavg()[0]:.1f}"
    )
    if n_users >= 1_000_000:
        print(f"target < 10 s on one core (CPU time of the public call): {verdict(cpu_api < 10)}")
    assert g_api == g


def bench_naive_ratio(n_users: int = 10_000) -> None:
    m = generate(n_users, seed=1)
    bayesian_sensitivity(m, S=S, C=C)  # warm-up
    c0 = time.process_time()
    g = bayesian_sensitivity(m, S=S, C=C)
    t_fast = time.process_time() - c0
    c0 = time.process_time()
    g_naive = naive_sensitivity(m, S, C)
    t_naive = time.process_time() - c0
    print(f"\n== brute force vs naive per-user recomputation at {n_users:,} users, |V| = {V:,} (CPU time)")
    print(
        f"O(nnz) brute force: {t_fast * 1e3:.1f} ms; naive (dense f(D₋ₙ) per user): {t_naive:.2f} s; "
        f"speed-up ×{t_naive / t_fast:,.0f}; same γ: {abs(g - g_naive) <= 1e-9 * g} ({g:.10g} vs {g_naive:.10g})"
    )


def bench_sweep() -> None:
    m = generate(100_000, seed=2)
    alpha = np.asarray(m.sum(axis=0)).ravel() * 0.5 + np.random.default_rng(3).integers(0, 5, V)
    p = np.asarray(m.sum(axis=0)).ravel()
    t0 = time.perf_counter()
    prep = bayesian_statistics(m, alpha, C=C).prepare(S=S, rho=0.5)
    t_prep = time.perf_counter() - t0
    eps = np.logspace(-2, 1, 20)
    rng = np.random.default_rng(0)
    runs, cpus = [], []
    for _ in range(3):
        c0, t0 = time.process_time(), time.perf_counter()
        kls = [kl_divergence(p, prep.sample_theta(epsilon=e, delta=1e-5, rng=rng, repetitions=10)) for e in eps]
        runs.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    t0 = time.perf_counter()
    for e in eps:
        prep.sample_theta(epsilon=e, delta=1e-5, rng=rng, repetitions=10)
    t_draw = time.perf_counter() - t0
    print(
        f"\n== ε sweep: 20 ε × 10 repetitions at |V| = {V:,} (ε-independent part prepared once in {t_prep:.2f} s "
        f"from 100,000 users)"
    )
    print(
        f"draw + softmax + KL: CPU {min(cpus) * 1e3:.0f} ms, wall {min(runs) * 1e3:.0f} ms (best of 3; wall "
        f"{', '.join(f'{r * 1e3:.0f}' for r in runs)} ms); draw + softmax only: wall {t_draw * 1e3:.0f} ms; "
        f"load average {os.getloadavg()[0]:.1f}; target < 1 s: {verdict(min(cpus) < 1.0)}"
    )
    print(f"mean KL at ε = 0.01 / 1 / 10: {kls[0].mean():.3g} / {kls[13].mean():.3g} / {kls[-1].mean():.3g}")


def bench_page(runs: int = 20) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "2_Bayesian_ngram_DP.py"), default_timeout=300)
    t0 = time.perf_counter()
    at.run()
    first = time.perf_counter() - t0
    assert not at.exception, [e.message for e in at.exception]
    values = (0.1, 0.5, 2.0, 0.02, 5.0)
    at.select_slider(key="eps").set_value(0.3).run()  # warm the caches that do not depend on ε
    wall, cpu = [], []
    for i in range(runs):
        at.select_slider(key="eps").set_value(values[i % len(values)])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        assert not at.exception, [e.message for e in at.exception]
        assert not at.error, [e.value for e in at.error]
    med = statistics.median(wall)
    load = os.getloadavg()
    print(f"\n== page rerun after an ε move (AppTest, sample corpus, {runs} runs; first render {first:.1f} s)")
    print(
        f"median wall {med * 1e3:.0f} ms (min {min(wall) * 1e3:.0f}, max {max(wall) * 1e3:.0f}); median CPU "
        f"{statistics.median(cpu) * 1e3:.0f} ms; load average {load[0]:.1f} on {os.cpu_count()} CPUs; "
        f"target < 300 ms: wall {verdict(med < 0.3)}, CPU {verdict(statistics.median(cpu) < 0.3)}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="100,000 users instead of 1,000,000")
    ap.add_argument("--no-page", action="store_true", help="skip the AppTest page timing")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        print("pinned to one CPU:", os.sched_getaffinity(0))
    bench_sensitivity(100_000 if args.quick else 1_000_000)
    bench_naive_ratio()
    bench_sweep()
    if not args.no_page:
        bench_page()


if __name__ == "__main__":
    main()
