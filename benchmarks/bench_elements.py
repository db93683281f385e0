"""What an element costs the browser on an ε move (issue 29 item 1): the floor app plus N extra elements.

    python benchmarks/bench_elements.py                           # every variant, 1 run × 6 moves
    python benchmarks/bench_elements.py --variants md_same md_new --runs 2

The pages resend every element on every ε move (ε is in the sidebar: the whole script reruns), and the browser's
CPU per move grows with the number of messages (2026-11-28, bench_browser.py: the floor's 8 messages 0.18 s,
Mechanisms 101's 82 0.48 s, Bayesian's 165 0.60 s, TopicDP's 207 0.68 s). Which elements cost what? One app
(written to a temporary folder) draws the floor's slider and chart, then ``--n`` (default 120) extra elements of one
kind; the floor itself is measured in the same run. Per move: the CPU seconds of every Chromium process between
the key press and the end of the render (bench_browser.py's rule), median over the moves.

Variants: ``md_same`` markdown lines that do not change with ε; ``md_new`` markdown lines that hold ε (new text on
every move); ``metric`` st.metric with ε in the value; ``caption_cols`` captions in pairs of columns (layout
blocks); ``slider`` widgets that do not change; ``frag_same`` the ``md_same`` lines inside an ``st.fragment`` (a
full rerun still reruns it); ``expander`` the lines inside one collapsed expander; ``none`` the floor's elements
alone, through the same app.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _stbench import CHROMIUM, CHROMIUM_FLAGS, Server, loadavg  # noqa: E402
from bench_browser import FLOOR_APP, _epsilon_options  # noqa: E402
from bench_topicdp_views import bench  # noqa: E402

VARIANTS = ("none", "md_same", "md_new", "metric", "caption_cols", "slider", "frag_same", "expander")

APP = '''\
"""The floor plus N elements of one kind (written by bench_elements.py)."""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

OPTIONS = {options!r}
N = {n}
st.set_page_config(page_title="elements", layout="wide")
eps = st.sidebar.select_slider("ε (privacy loss)", options=OPTIONS, value=1.0, format_func=lambda v: f"{{v:g}}",
                               key="eps")
st.title("One slider, one chart, N elements")
x = np.arange(1, 41)
y = 100.0 / x + np.random.default_rng(0).laplace(scale=1.0 / eps, size=x.size)
fig = go.Figure(go.Bar(x=x, y=y)).update_layout(title=f"Noisy counts at ε = {{eps:g}}", height=450)
st.plotly_chart(fig, width="stretch", config={{"displaylogo": False}})
v = st.query_params.get("variant", "none")
if v == "md_same":
    for i in range(N):
        st.markdown(f"Line **{{i}}** of a text that does not depend on ε, with some *emphasis*.")
elif v == "md_new":
    for i in range(N):
        st.markdown(f"Line **{{i}}** at ε = {{eps:g}}: {{i * eps:.3f}}.")
elif v == "metric":
    for i in range(N):
        st.metric(f"metric {{i}}", f"{{i * eps:.3f}}")
elif v == "caption_cols":
    for i in range(N // 2):
        a, b = st.columns(2)
        a.caption(f"left {{i}}")
        b.caption(f"right {{i}}")
elif v == "slider":
    for i in range(N):
        st.slider(f"knob {{i}}", 0, 10, 5, key=f"k{{i}}")
elif v == "frag_same":
    @st.fragment
    def lines():
        for i in range(N):
            st.markdown(f"Line **{{i}}** of a text that does not depend on ε, with some *emphasis*.")
    lines()
elif v == "expander":
    with st.expander("N lines"):
        for i in range(N):
            st.markdown(f"Line **{{i}}** of a text that does not depend on ε, with some *emphasis*.")
'''


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=VARIANTS)
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--settle", type=float, default=1.5)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict]] = {}
    print(f"load {loadavg()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-elements-") as tmp, sync_playwright() as p:
        d = Path(tmp)
        (d / "floor_app.py").write_text(FLOOR_APP.format(options=_epsilon_options()))
        (d / "elements_app.py").write_text(APP.format(options=_epsilon_options(), n=args.n))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        for run in range(args.runs):
            for name in ["floor", *args.variants]:
                script = "floor_app.py" if name == "floor" else "elements_app.py"
                with Server(d / script, cwd=d) as srv:
                    rs = bench(browser, srv.url + ("" if name == "floor" else f"/?variant={name}"), args)
                results.setdefault(name, []).extend(rs)
                cpu = [r["browser_cpu"] for r in rs if "browser_cpu" in r]
                print(f"run {run + 1} {name:12s} browser CPU/move {statistics.median(cpu):.3f} s", flush=True)
        browser.close()
    print(f"\nload {loadavg()}\n")
    print(f"| variant (N = {args.n}) | browser CPU per move (median) | × floor | per extra element |")
    print("|---|---:|---:|---:|")
    floor = statistics.median(r["browser_cpu"] for r in results["floor"])
    for name, rs in results.items():
        cpu = statistics.median(r["browser_cpu"] for r in rs if "browser_cpu" in r)
        per = "" if name in ("floor", "none") else f"{(cpu - floor) / args.n * 1000:.1f} ms"
        print(f"| {name} | {cpu:.3f} s | {cpu / floor:.1f}× | {per} |")


if __name__ == "__main__":
    main()
