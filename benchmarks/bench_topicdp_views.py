"""Browser CPU per ε move of candidate keyword views for the TopicDP page (issue 29 item 3), isolated from the page.

    python benchmarks/bench_topicdp_views.py                      # every view, 2 runs × 6 moves
    python benchmarks/bench_topicdp_views.py --views grid4 bars1 --runs 1

One small Streamlit app (written to a temporary folder) draws one candidate view of the page's "Keywords before and
after noise" tab from a synthetic 10 × 10 table and six noisy releases (the page's five matrix mechanisms and
VIPS-LDA), redrawn with new noise on every ε move, through the page's own figure builders and ``show_figure`` (so each
chart has its collapsed "Numbers" table, as on the page). The floor (one slider, one 40-bar chart,
bench_browser.py's) is measured in the same run. Per move: the CPU seconds of every Chromium process (renderer, GPU,
browser: ``_stbench.browser_cpu_seconds``, from /proc) between the key press and the end of the render, and the time
to the end of the render (bench_browser.py's rule: script finished, ``notRunning``, the DOM quiet for ``--settle``
seconds; the quiet time itself is not counted in the time, its idle CPU is in the CPU).

The Plotly candidates are in benchmarks/topicdp_view_candidates.py; the Vega-Lite one is the page's
(dpui.topicdp.figures.keyword_facet_chart). Views: ``grid4`` the page before issue 29 (four topics, one six-panel figure each), ``grid1`` one six-panel figure,
``bars1`` / ``bars2`` one / two topics as grouped bars on one axis, ``heat1`` one topic as a heatmap (mechanisms ×
keywords), ``vega1`` a plain Vega-Lite facet chart (one bar per keyword and mechanism), ``facet1`` / ``facet2`` one /
two topics as the page draws them now (Vega-Lite, one panel per mechanism, before and after side by side),
``none`` no chart (the rest of the app).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _stbench import CHROMIUM, CHROMIUM_FLAGS, ROOT, Server, browser_cpu_seconds, loadavg  # noqa: E402
from bench_browser import FLOOR_APP, INIT_JS, _epsilon_options, _wait, slider_info  # noqa: E402

VIEWS = ("grid4", "grid1", "bars1", "bars2", "bars1plain", "heat1", "vega1", "facet1", "facet2", "none")

VIEW_APP = '''\
"""Candidate keyword views of the TopicDP page (written by bench_topicdp_views.py)."""
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

sys.path.insert(0, {root!r})
sys.path.insert(0, {root!r} + "/benchmarks")
from dpui.topicdp import figures
from dpui.common.charts import show_figure
from topicdp_view_candidates import keyword_bars_figure, keyword_figure

OPTIONS = {options!r}
MECHS = ("TopicDP", "TopicDP corrected", "TopicDP strict", "MVG", "Laplace", "VIPS-LDA")
st.set_page_config(page_title="views", layout="wide")
view = st.query_params.get("view", "grid4")
eps = st.sidebar.select_slider("ε", options=OPTIONS, value=1.0, format_func=lambda v: f"{{v:g}}", key="eps")
st.title(f"TopicDP keyword view: {{view}}")
base = np.random.default_rng(0).dirichlet(np.full(10, 0.5), size=10)
words = tuple(f"word{{j}}" for j in range(10))
table = SimpleNamespace(matrix=base, words=words, topics=tuple(range(10)))
rng = np.random.default_rng(int(eps * 1000))
releases = {{}}
for k, mech in enumerate(MECHS):
    noisy = np.clip(base + rng.laplace(scale=0.05 * (k + 1) / eps, size=base.shape), 0, None) + 1e-12
    releases[mech] = SimpleNamespace(matrix=noisy / noisy.sum(axis=1, keepdims=True))
labels = figures.topic_labels(table)


def records(i):
    return [
        {{"keyword": w, "before_noise": base[i, j], **{{m: r.matrix[i, j] for m, r in releases.items()}}}}
        for j, w in enumerate(words)
    ]


if view in ("grid4", "grid1"):
    for i in range(4 if view == "grid4" else 1):
        fig, alt = keyword_figure(table, releases, labels[i], i)
        show_figure(fig, alt=alt, key=f"bars_{{i}}", records=records(i))
elif view in ("bars1", "bars2", "bars1plain"):
    for i in range(2 if view == "bars2" else 1):
        fig, alt = keyword_bars_figure(table, releases, labels[i], i)
        if view == "bars1plain":  # no fill patterns (colour only): what the patterns cost
            for trace in fig.data:
                trace.marker.pattern = None
        show_figure(fig, alt=alt, key=f"bars_{{i}}", records=records(i))
elif view == "heat1":
    z = [base[0]] + [r.matrix[0] for r in releases.values()]
    fig = go.Figure(go.Heatmap(z=z, x=list(words), y=["before noise", *MECHS], colorscale="Cividis"))
    fig.update_layout(title=labels[0], height=420)
    show_figure(fig, alt="heatmap", key="heat", records=records(0))
elif view == "vega1":
    rows = [{{"mechanism": "before noise", "keyword": w, "p": base[0, j]}} for j, w in enumerate(words)]
    rows += [{{"mechanism": m, "keyword": w, "p": r.matrix[0, j]}} for m, r in releases.items() for j, w in enumerate(words)]
    spec = {{
        "mark": "bar",
        "encoding": {{"x": {{"field": "keyword", "type": "nominal"}}, "y": {{"field": "p", "type": "quantitative"}},
                     "color": {{"field": "mechanism", "type": "nominal"}}}},
        "facet": {{"field": "mechanism", "type": "nominal", "columns": 7}},
        "width": 150, "height": 250,
    }}
    st.vega_lite_chart(pd.DataFrame(rows), spec)
    with st.expander("Numbers — vega"):
        st.dataframe(pd.DataFrame(records(0)), hide_index=True)
elif view in ("facet1", "facet2"):
    for i in range(2 if view == "facet2" else 1):
        rows, spec, alt = figures.keyword_facet_chart(table, releases, labels[i], i)
        st.vega_lite_chart(pd.DataFrame(rows), spec, alt=alt, key=f"facet_{{i}}")
        with st.expander("Numbers — facet"):
            st.dataframe(pd.DataFrame(rows), hide_index=True)
st.caption(f"ε = {{eps:g}}")
'''


def move(page, direction: int, args) -> dict:
    inp = page.locator('[data-testid="stApp"] .st-key-eps input[type="range"]').first
    inp.focus()
    since = page.evaluate("performance.now()")
    c0 = browser_cpu_seconds()
    page.keyboard.press("ArrowRight" if direction > 0 else "ArrowLeft")
    out = _wait(page, since_pre=since, need_send=True, args=args)
    return out | {"browser_cpu": browser_cpu_seconds() - c0}


def bench(browser, url: str, args) -> list[dict]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_init_script(INIT_JS)
    page = ctx.new_page()
    page.set_default_timeout(args.timeout * 1000)
    page.goto(url, wait_until="commit")
    _wait(page, since_pre=0.0, need_send=False, args=args)
    info = slider_info(page, "eps")
    steps = round((info["max"] - info["min"]) / info["step"])
    pos = round((info["value"] - info["min"]) / info["step"])
    out = []
    for k in range(args.moves):
        d = 1 if (k // 3) % 2 == 0 else -1  # three steps right, three back: every value new to this server
        if not 0 <= pos + d <= steps:
            d = -d
        pos += d
        out.append(move(page, d, args))
    ctx.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--views", nargs="*", default=list(VIEWS), choices=VIEWS)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--moves", type=int, default=6)
    ap.add_argument("--settle", type=float, default=1.5)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    results: dict[str, list[dict]] = {}
    print(f"load {loadavg()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-views-") as tmp, sync_playwright() as p:
        d = Path(tmp)
        (d / "floor_app.py").write_text(FLOOR_APP.format(options=_epsilon_options()))
        (d / "views_app.py").write_text(VIEW_APP.format(root=str(ROOT), options=_epsilon_options()))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        for run in range(args.runs):
            for name in ["floor", *args.views]:
                script = "floor_app.py" if name == "floor" else "views_app.py"
                with Server(d / script, cwd=d) as srv:
                    url = srv.url + ("" if name == "floor" else f"/?view={name}")
                    rs = bench(browser, url, args)
                results.setdefault(name, []).extend(rs)
                cpu = [r["browser_cpu"] for r in rs if "browser_cpu" in r]
                print(f"run {run + 1} {name:6s} browser CPU/move {statistics.median(cpu):.3f} s", flush=True)
        browser.close()
    print(f"\nload {loadavg()}\n")
    print("| view | browser CPU per move (median) | × floor | move, to the end of drawing (median) |")
    print("|---|---:|---:|---:|")
    floor = statistics.median(r["browser_cpu"] for r in results["floor"])
    for name, rs in results.items():
        cpu = statistics.median(r["browser_cpu"] for r in rs if "browser_cpu" in r)
        t = statistics.median(r["t_all"] for r in rs if "t_all" in r)
        print(f"| {name} | {cpu:.3f} s | {cpu / floor:.1f}× | {t:.2f} s |")
    started = time.strftime("%Y-%m-%d %H:%M")
    print(f"\n({args.runs} runs × {args.moves} moves per view, {started})")


if __name__ == "__main__":
    main()
