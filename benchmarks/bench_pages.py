"""Page timings and memory: cold first render, the median redraw after a slider move, peak RSS, per page.

Run by hand from the repo root (not in CI):

    python benchmarks/bench_pages.py [--data chat|classroom|paper] [--runs 20] [page ...]

Each page runs in its own Python process (so "cold" is a new session with empty Streamlit caches and
the corpus not yet loaded, and the peak RSS is that page's alone), through streamlit's AppTest (the
script runs in-process, without a browser): the numbers are the Python side of a rerun — widgets,
dpcore calls, figure building. Wall time and CPU time (time.process_time, all threads) are printed with
the load average, since the machine may be shared.

``--data`` is the sidebar's data choice, passed through the URL (``?corpus=chat|classroom|paper``, issue 20):
``chat`` (the default, as in the app: the real chat's 920 private people), ``classroom`` (3,000 synthetic users) or
``paper`` (100,000). ``--size classroom|paper`` is the old spelling of ``--data classroom|paper``. On a branch
whose sidebar has no data choice yet, the size goes through ``?size=`` or a hook in ``dpui.common.corpus_panel``'s loader.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (page file, widget kind, key, values to cycle through)
PAGES = {
    "Mechanisms_101": ("pages/1_Mechanisms_101.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
    "Bayesian_ngram_DP": ("pages/2_Bayesian_ngram_DP.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
    "DP_ngram_extraction": ("pages/3_DP_ngram_extraction.py", "select_slider", "dpne_eta", [0.005, 0.01, 0.02, 0.05]),
    # a new ε on every move (issue 29: the page's worst case; --runs ≤ 11 never revisits a value)
    "DP_ngram_extraction_eps": (
        "pages/3_DP_ngram_extraction.py",
        "select_slider",
        "eps",
        [4.0, 3.0, 5.0, 2.5, 6.0, 2.0, 7.0, 1.75, 8.0, 1.5, 9.0, 1.25],
    ),
    "TopicDP": ("pages/4_TopicDP.py", "select_slider", "eps", [0.5, 1.0, 2.0, 4.0]),
    "Privacy_audit": ("pages/5_Privacy_audit.py", "select_slider", "audit_confidence", [0.9, 0.95, 0.99]),
}


def _loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def _size_hook(size: str) -> str:
    """Make the pages read the ``size`` data. Returns how."""
    from dpui.common import sidebar

    if size in getattr(sidebar, "CORPUS_CHOICES", ()):
        return "corpus"  # the sidebar reads ?corpus=…; nothing to patch
    if "size" in getattr(sidebar, "SHARED_SETTINGS", {}):
        return "url"  # the sidebar reads ?size=…; nothing to patch
    if size == "classroom":
        return "default"
    import dpui.common.corpus_panel as cp

    cp.load_sample_corpus = functools.partial(cp.load_sample_corpus, size=size)
    return "hook"


def child(name: str, runs: int, size: str) -> dict:
    """One page, in this process: cold run, then ``runs`` reruns after a slider move."""
    from streamlit.testing.v1 import AppTest

    how = _size_hook(size)
    path, kind, key, values = PAGES[name]
    out = {"page": name, "size": size, "size_via": how, "load_before": _loadavg()}
    if not (ROOT / path).exists():
        return out | {"error": "page file missing"}
    at = AppTest.from_file(str(ROOT / path), default_timeout=3600)
    if how == "corpus":
        at.query_params["corpus"] = size
    elif how == "url":
        at.query_params["size"] = size
    t0, c0 = time.perf_counter(), time.process_time()
    at.run()
    out |= {"cold_wall": time.perf_counter() - t0, "cold_cpu": time.process_time() - c0}
    if at.exception:
        return out | {"error": at.exception[0].message}
    if at.error:
        out["st_error"] = at.error[0].value
    widgets = [w for w in getattr(at, kind) if getattr(w, "key", None) == key]
    if not widgets:
        return out | {"error": f"no {kind} with key {key!r} rendered"}
    times, cpu = [], []
    for i in range(runs):
        getattr(at, kind)(key=key).set_value(values[(i + 1) % len(values)])
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        if at.exception:
            return out | {"error": f"on rerun: {at.exception[0].message}"}
    return out | {
        "slider": key,
        "median_wall": statistics.median(times),
        "max_wall": max(times),
        "median_cpu": statistics.median(cpu),
        "runs": runs,
        "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
        "load_after": _loadavg(),
    }


def _show(r: dict) -> str:
    head = f"{r['page']:20s} [{r['size']}, via {r.get('size_via', '?')}]"
    if "error" in r and "cold_wall" not in r:
        return f"{head} {r['error']}"
    s = f"{head} cold {r['cold_wall']:7.1f} s (CPU {r['cold_cpu']:6.1f} s)"
    if "median_wall" in r:
        s += (
            f"; {r['slider']} move: median {r['median_wall'] * 1000:6.0f} ms (CPU {r['median_cpu'] * 1000:.0f} ms, "
            f"max {r['max_wall'] * 1000:.0f} ms, n={r['runs']}); peak RSS {r['peak_rss_gb']:.2f} GB; "
            f"load {r['load_before']} → {r['load_after']}"
        )
    if "error" in r:
        s += f"  ERROR {r['error']}"
    if "st_error" in r:
        s += f"  (page shows st.error: {r['st_error'][:80]})"
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pages", nargs="*", help=f"pages to time (default: all of {', '.join(PAGES)})")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--data", choices=("chat", "classroom", "paper"), default="chat")
    ap.add_argument("--size", choices=("classroom", "paper"), help="old spelling of --data classroom|paper")
    ap.add_argument("--json", help="also append the results as JSON lines to this file")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.size = args.size or args.data
    if args.child:
        print("RESULT " + json.dumps(child(args.child, args.runs, args.size)), flush=True)
        return
    unknown = [p for p in args.pages if p not in PAGES]
    if unknown:
        ap.error(f"unknown page(s) {unknown}; choose from {list(PAGES)}")
    for name in args.pages or list(PAGES):
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, __file__, "--child", name, "--runs", str(args.runs), "--data", args.size],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=os.environ.copy(),
        )
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")), None)
        if line is None:
            print(
                f"{name:20s} [{args.size}] child failed after {time.perf_counter() - t0:.0f} s "
                f"(exit {proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}"
            )
            continue
        r = json.loads(line[len("RESULT ") :])
        print(_show(r), flush=True)
        if args.json:
            with open(args.json, "a") as fh:
                fh.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
