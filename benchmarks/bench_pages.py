"""Page timings: cold first render and the median of 20 reruns after a slider move, per page.

Run by hand from the repo root (not in CI):  python benchmarks/bench_pages.py [--runs 20] [page ...]
Uses streamlit's AppTest (the script runs in-process, without a browser), so the numbers are the
Python side of a rerun: widgets, dpcore calls, figure building. Cold = empty Streamlit caches.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from dpui.sidebar import EPSILON_OPTIONS  # noqa: E402

# (page file, widget kind, key, values to cycle through)
PAGES = {
    "Mechanisms_101": ("pages/1_Mechanisms_101.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
    "Bayesian_ngram_DP": ("pages/2_Bayesian_ngram_DP.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
    "DP_ngram_extraction": ("pages/3_DP_ngram_extraction.py", "select_slider", "dpne_eta", [0.005, 0.01, 0.02, 0.05]),
    "TopicDP": ("pages/4_TopicDP.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
}


def bench(name: str, runs: int) -> tuple[float, float, float] | None:
    path, kind, key, values = PAGES[name]
    if not (ROOT / path).exists():
        print(f"{name:22s} (page file missing)")
        return None
    st.cache_data.clear()
    st.cache_resource.clear()
    at = AppTest.from_file(str(ROOT / path), default_timeout=600)
    t0 = time.perf_counter()
    at.run()
    cold = time.perf_counter() - t0
    if at.exception:
        print(f"{name:22s} EXCEPTION: {at.exception[0].message}")
        return None
    times, cpu = [], []
    for i in range(runs):
        widget = getattr(at, kind)(key=key)
        widget.set_value(values[i % len(values)])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if at.exception:
            print(f"{name:22s} EXCEPTION on rerun: {at.exception[0].message}")
            return None
    med = statistics.median(times)
    print(f"{name:22s} cold {cold * 1000:8.0f} ms   rerun after {key} move: median {med * 1000:6.0f} ms "
          f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}, n={runs}); CPU median "
          f"{statistics.median(cpu) * 1000:.0f} ms")
    return cold, med, max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("pages", nargs="*", help=f"pages to time (default: all of {', '.join(PAGES)})")
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    assert 4.0 in EPSILON_OPTIONS
    unknown = [p for p in args.pages if p not in PAGES]
    if unknown:
        ap.error(f"unknown page(s) {unknown}; choose from {list(PAGES)}")
    for name in args.pages or list(PAGES):
        bench(name, args.runs)


if __name__ == "__main__":
    main()
