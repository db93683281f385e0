"""What a person waits for in the browser: per page, the first render cold and warm, and slider moves.

Run by hand from the repo root (not in CI; needs Playwright and Debian's /usr/bin/chromium):

    python benchmarks/bench_browser.py                                   # every page, app defaults, 3 runs
    python benchmarks/bench_browser.py --corpus paper --runs 1           # paper size (size=paper on main)
    python benchmarks/bench_browser.py --query "corpus=chat" --pages Home TopicDP --json out.json
    python benchmarks/bench_browser.py --interleaved --runs 3 --moves 4  # the floor in the same minutes as the pages

What is measured, per page and per run (every run starts a new `streamlit run app.py` server per page, on a free
port, headless, usage statistics off, and drives Debian's Chromium through Playwright):

- **first render, cold**: the page opened in a new browser context on that fresh server. "Cold" means a new
  Python process (Streamlit's st.cache_data / st.cache_resource empty, the page's modules — dpcore, numpy,
  plotly … — not yet imported, the corpora not yet loaded into memory) and an empty browser cache (Streamlit's
  JavaScript is downloaded). What survives between runs is kept: the disk caches (~/.cache/dpcore, numba's
  compiled kernels, the generated paper-size corpus) and the OS file cache — as on a lecturer's server after
  its first start.
- **first render, warm**: the same page again, in a new browser context (a second person opening the same
  link: a new session, an empty browser cache) on the now warm server. Both first renders include
  downloading and compiling Streamlit's JavaScript, and Plotly's (a 4.7 MB chunk loaded with the first
  chart) — seconds on a loaded machine; the floor app pays the same, so its row shows that part.
- **slider moves**: in that warm session, ``--moves`` (default 5) keyboard steps of each main slider, one
  after the other: ε on every page that shows it, and the page's own main knob (``MAIN_KNOBS``: η on DP
  n-gram extraction, γ on TopicDP, the confidence on the privacy audit). Each step goes to the next value of
  the slider (towards the side with more room, bouncing at the end), so a server cache keyed by the value
  is not hit by an earlier step of the same run (unless it bounced). The median and the first step are
  reported. The server's RSS (its whole process tree, sampled every 0.5 s) gives each page's peak.
- ``--interleaved``: every server runs at once (one cold and one warm first render each), then in each of
  ``--runs`` rounds every page's sliders take ``--moves`` steps in turn, the floor's among them. The sequential
  mode measures the floor minutes before a page, and this machine's speed drifts over minutes (the floor's move
  swung 0.12–0.20 s between runs); interleaved, the floor and the pages see the same machine.

When is a render "done"? Times are read in the page (``performance.now()``: from the navigation start for a
first render, from the key press for a move) by an init script that watches (a) Streamlit's websocket: the
rerun request the frontend sends (BackMsg field 11) and the ``script_finished`` ForwardMsg the server sends
back (field 6, decoded from the wire); (b) the ``data-test-script-state`` attribute of ``stApp``
(``running`` → ``notRunning``), and (c) every DOM mutation, remembering for each Plotly chart (and
dataframe) when it last changed. A render is finished when a ``script_finished`` for this request has
arrived, the app's state is ``notRunning`` and the DOM has been quiet for ``--settle`` seconds (Plotly
draws after the script has finished, and draws each chart in turn: gaps of ~1.7 s were seen on a busy
machine between charts, hence 2.5 s by default). The number reported is then the time to

    max(script state notRunning, last change of the page's main chart)

where the main chart is the first visible Plotly or Vega-Lite chart of the main area (the first visible dataframe on a
page without one, e.g. Home). A chart that does not depend on the slider does not change, and the time is
the time to ``notRunning``. The JSON also holds the time to ``notRunning`` alone and to the last DOM change
anywhere (every chart drawn), whether the main chart changed, the delay between the key press and the
rerun request, and any exception or st.error shown. Why not a fixed wait or Streamlit's status widget
alone: the status widget disappears before Plotly has drawn, and Plotly's drawing is what a person waits for.

**Browser CPU per move**: the CPU seconds (user + system) of every Chromium process (renderer, GPU, browser; read
from /proc, ``_stbench.browser_cpu_seconds``) between the key press and the end of the measurement (the quiet
``--settle`` seconds included: an idle page adds little). It is what a slower laptop in the room pays for drawing.

The floor: a minimal app (one select_slider with the app's ε grid in the sidebar, one Plotly bar chart of 40
values, written to a temporary folder) measured the same way in the same run; each page's median move is
printed as a ratio to the floor's.

Options: ``--root DIR`` serves another checkout's app.py (e.g. ``git archive <commit> | tar -x -C DIR``: before
and after with the same harness); ``--query`` is appended to every page's address as is (the data choice of the branch you run:
today ``corpus=sample&size=classroom|paper``, on the realui branch ``corpus=chat|classroom|paper``);
``--corpus NAME`` puts NAME where this branch's sidebar reads it (a corpus choice, else a sample size).
The output is a Markdown table for the README, then the details. The machine may be shared: the load
average is printed; numbers from a busy machine are sanity checks only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _stbench import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    ROOT,
    AppPage,
    RssSampler,
    Server,
    browser_cpu_seconds,
    build_query,
    fmt_s,
    git_describe,
    loadavg,
    select_pages,
)

MAIN_KNOBS: dict[str, tuple[str, ...]] = {
    "DP_ngram_extraction": ("dpne_eta",),
    "TopicDP": ("topicdp_gamma",),
    "Privacy_audit": ("audit_confidence",),
}
"""The page's own main slider (by widget key) besides ε; ε ("eps") is moved on every page that shows it."""
SLIDER_NAMES = {"eps": "ε", "dpne_eta": "η", "topicdp_gamma": "γ", "audit_confidence": "confidence"}
VIEWPORT = {"width": 1400, "height": 1000}
FLOOR = AppPage("", "floor: 1 slider, 1 chart")

FLOOR_APP = '''\
"""The floor: a minimal Streamlit app with one slider and one Plotly chart (written by bench_browser.py)."""
import numpy as np
import plotly.graph_objects as go
import streamlit as st

OPTIONS = {options!r}
st.set_page_config(page_title="floor", layout="wide")
eps = st.sidebar.select_slider("ε (privacy loss)", options=OPTIONS, value=1.0, format_func=lambda v: f"{{v:g}}",
                               key="eps")
st.title("One slider, one chart")
x = np.arange(1, 41)
y = 100.0 / x + np.random.default_rng(0).laplace(scale=1.0 / eps, size=x.size)
fig = go.Figure(go.Bar(x=x, y=y)).update_layout(title=f"Noisy counts at ε = {{eps:g}}", height=450)
st.plotly_chart(fig, width="stretch", config={{"displaylogo": False}})
'''

INIT_JS = r"""
(() => {
  if (window.__bench) return;
  const B = window.__bench = {sends: [], finished: [], states: [], keys: [], recvs: 0, recvT: [], lastMut: 0};
  const CHART = '[data-testid="stPlotlyChart"],[data-testid="stVegaLiteChart"],[data-testid="stDataFrame"]';
  // The status of a ForwardMsg's script_finished (top-level field 6, a varint), or -1 when it is another message.
  const finishedStatus = (u) => {
    let i = 0;
    const varint = () => {
      let r = 0, m = 1, b;
      do { b = u[i++]; r += (b & 127) * m; m *= 128; } while ((b & 128) && i < u.length);
      return r;
    };
    while (i < u.length) {
      const tag = varint(), field = Math.floor(tag / 8), wire = tag % 8;
      if (wire === 0) { const v = varint(); if (field === 6) return v; }
      else if (wire === 2) { const n = varint(); i += n; }  // not `i += varint()`: i would be read first
      else if (wire === 1) i += 8;
      else if (wire === 5) i += 4;
      else return -1;
    }
    return -1;
  };
  const onMessage = (ev) => {
    const t = performance.now();
    B.recvs += 1;
    B.recvT.push(t);
    const take = (buf) => { const s = finishedStatus(new Uint8Array(buf)); if (s >= 0) B.finished.push([t, s]); };
    if (ev.data instanceof ArrayBuffer) take(ev.data);
    else if (ev.data && ev.data.arrayBuffer) ev.data.arrayBuffer().then(take);
  };
  const OrigWS = window.WebSocket;
  const origSend = OrigWS.prototype.send;
  OrigWS.prototype.send = function (d) {
    let tag = -1;
    try {
      const u = d instanceof ArrayBuffer ? new Uint8Array(d)
        : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
      if (u && u.length) tag = u[0];  // 90 = field 11 (rerun_script), length-delimited
    } catch (e) {}
    B.sends.push([performance.now(), tag]);
    return origSend.call(this, d);
  };
  window.WebSocket = class extends OrigWS {
    constructor(...a) { super(...a); this.addEventListener('message', onMessage); }
  };
  document.addEventListener('keydown', () => B.keys.push(performance.now()), true);
  let lastState = null;
  const observe = () => {
    new MutationObserver((records) => {
      const t = performance.now();
      B.lastMut = t;
      for (const m of records) {
        const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
        const c = el && el.closest ? el.closest(CHART) : null;
        if (c) c.__benchT = t;
        for (const n of m.addedNodes) {
          if (n.nodeType !== 1) continue;
          if (n.matches(CHART)) n.__benchT = t;
          if (n.childElementCount) for (const c2 of n.querySelectorAll(CHART)) c2.__benchT = t;
        }
      }
      const app = document.querySelector('[data-testid="stApp"]');
      const state = app ? app.getAttribute('data-test-script-state') : null;
      if (state !== lastState) { B.states.push([t, state]); lastState = state; }
    }).observe(document.documentElement, {subtree: true, childList: true, attributes: true, characterData: true});
  };
  if (document.documentElement) observe(); else document.addEventListener('DOMContentLoaded', observe);
  const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText.slice(0, 200));
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  // Resolves when this request's script_finished has arrived, the state is notRunning and the DOM has been quiet.
  B.done = ({sincePre, needSend, quiet, timeout}) => new Promise((resolve) => {
    const start = performance.now();
    const tick = () => {
      const now = performance.now();
      const since = needSend ? (B.keys.find((k) => k >= sincePre) ?? sincePre) : sincePre;
      const app = document.querySelector('[data-testid="stApp"]');
      const state = app ? app.getAttribute('data-test-script-state') : null;
      const sent = B.sends.filter((s) => s[0] >= since && s[1] === 90);
      const after = sent.length ? sent[0][0] : since;
      const fin = B.finished.filter((f) => f[0] >= after && f[1] !== 2);  // 2 = finished early for a rerun
      const ready = state === 'notRunning' && fin.length > 0 && (!needSend || sent.length > 0);
      if (ready && now - Math.max(B.lastMut, fin[fin.length - 1][0]) >= quiet) {
        const inMain = (sel) => [...document.querySelectorAll('[data-testid="stMain"] ' + sel)].find(visible);
        const main = inMain('[data-testid="stPlotlyChart"],[data-testid="stVegaLiteChart"]')
          || inMain('[data-testid="stDataFrame"]') || null;
        const nr = B.states.filter((s) => s[0] >= since && s[1] === 'notRunning');
        resolve({
          ok: true, since, send: sent.length ? sent[0][0] : null, nSends: sent.length,
          finished: fin[fin.length - 1][0], status: fin[fin.length - 1][1], nFinished: fin.length,
          notRunning: nr.length ? nr[nr.length - 1][0] : null,
          sawRunning: B.states.some((s) => s[0] >= since && s[1] === 'running'),
          main: main && main.__benchT !== undefined ? main.__benchT : null, mainKind: main ? main.dataset.testid : null,
          lastMut: B.lastMut, nRecv: B.recvT.filter((x) => x >= since).length,
          exceptions: texts('[data-testid="stException"]'), errors: texts('[data-testid="stAlertContentError"]'),
          stale: document.querySelectorAll('[data-stale="true"]').length,
        });
        return;
      }
      if (now - start > timeout) {
        resolve({ok: false, since, state, nSends: sent.length, nFinished: fin.length});
        return;
      }
      setTimeout(tick, 50);
    };
    tick();
  });
})();
"""


def _timings(r: dict) -> dict:
    """Seconds from ``since`` to: the script state notRunning, the main chart's last change (or notRunning if
    later), the last DOM change anywhere."""
    since = r["since"]
    script = max(r["finished"], r["notRunning"] or 0.0)
    main = max(script, r["main"]) if r["main"] is not None and r["main"] > since else script
    return {
        "t_script": (script - since) / 1000,
        "t_main": (main - since) / 1000,
        "t_all": (max(script, r["lastMut"]) - since) / 1000,
        "main_changed": r["main"] is not None and r["main"] > since,
        "main_kind": r["mainKind"],
        "saw_running": r["sawRunning"],
        "status": r["status"],
        "stale_left": r["stale"],
        "send_delay": None if r["send"] is None else (r["send"] - since) / 1000,
        "messages": r["nRecv"],
        "exceptions": r["exceptions"],
        "errors": r["errors"],
    }


def _wait(page, *, since_pre: float, need_send: bool, args) -> dict:
    r = page.evaluate(
        "o => window.__bench.done(o)",
        {"sincePre": since_pre, "needSend": need_send, "quiet": args.settle * 1000, "timeout": args.timeout * 1000},
    )
    if not r["ok"]:
        return {
            "error": f"not finished after {args.timeout:.0f} s (state {r['state']}, {r['nSends']} rerun "
            f"requests, {r['nFinished']} script_finished)"
        }
    return _timings(r)


def first_render(context, url: str, args) -> dict:
    page = context.new_page()
    page.set_default_timeout(args.timeout * 1000)
    page.goto(url, wait_until="commit")
    return _wait(page, since_pre=0.0, need_send=False, args=args) | {"_page": page}


def slider_info(page, key: str) -> dict | None:
    inp = page.locator(f'[data-testid="stApp"] .st-key-{key} input[type="range"]')
    if inp.count() == 0:
        return None
    return inp.first.evaluate(
        "e => ({min: +e.min, max: +e.max, step: +e.step || 1, value: +e.value, text: e.getAttribute('aria-valuetext')})"
    )


def move_slider(page, key: str, direction: int, args) -> dict:
    """One keyboard step of the slider with widget key ``key``, timed to the end of the rerun."""
    inp = page.locator(f'[data-testid="stApp"] .st-key-{key} input[type="range"]').first
    before = inp.get_attribute("aria-valuetext")
    inp.focus()
    since_pre = page.evaluate("performance.now()")
    cpu = browser_cpu_seconds()
    page.keyboard.press("ArrowRight" if direction > 0 else "ArrowLeft")
    out = _wait(page, since_pre=since_pre, need_send=True, args=args)
    out["browser_cpu"] = browser_cpu_seconds() - cpu  # every Chromium process, the quiet --settle time included
    return out | {"from": before, "to": inp.get_attribute("aria-valuetext")}  # a locator: found again after the rerun


def directions(info: dict, n: int) -> list[int]:
    """n steps from the slider's position: towards the side with more room, bouncing at the ends."""
    steps = round((info["max"] - info["min"]) / info["step"])
    pos = round((info["value"] - info["min"]) / info["step"])
    d = 1 if steps - pos >= pos else -1
    out = []
    for _ in range(n):
        if not 0 <= pos + d <= steps:
            d = -d
        pos += d
        out.append(d)
    return out


def bench_page(browser, page: AppPage, run: int, args, *, floor_dir: Path | None = None) -> list[dict]:
    """One run for one page: a fresh server, a cold first render, a warm one, then the slider moves."""
    name = "floor" if floor_dir else (page.url_path or "Home")
    script, cwd = (floor_dir / "floor_app.py", floor_dir) if floor_dir else ("app.py", args.root)
    base = {"page": name, "title": page.title, "run": run}
    records: list[dict] = []
    with Server(script, cwd=cwd, extra_args=args.server_arg) as srv:
        sampler = RssSampler(srv)
        sampler.start()
        try:
            _run_page(browser, srv, page, base, records, args, floor=floor_dir is not None)
        finally:
            sampler.stop()
    peak = max((r for _, _, r in sampler.samples), default=0) / 1e9
    for r in records:
        r["rss_peak_gb"] = peak
    return records


def _run_page(browser, srv: Server, page: AppPage, base: dict, records: list[dict], args, *, floor: bool) -> None:
    """The cold and warm first renders and the slider moves of one page on server ``srv``, into ``records``."""
    pg, ctx = _first_renders(browser, srv, page, base, records, args, floor=floor)
    if pg is None:
        return
    for key, dirs in _slider_plans(pg, page, base, records, args.moves, floor=floor).items():
        for i, d in enumerate(dirs):
            if not _move(pg, key, d, base | {"step": i + 1}, records, args):
                break
    ctx.close()


def _first_renders(browser, srv: Server, page: AppPage, base: dict, records: list[dict], args, *, floor: bool):
    """The cold and the warm first render of ``page`` into ``records``: (the warm page, its context) to move the
    sliders on, or (None, None) after an error."""
    url = f"{srv.url}/{page.url_path}" + (f"?{args.query}" if args.query and not floor else "")
    base["url_path"] = url.split(str(srv.port), 1)[1]
    for kind in ("cold", "warm"):
        ctx = browser.new_context(viewport=VIEWPORT)
        ctx.add_init_script(INIT_JS)
        load = loadavg()
        try:
            r = first_render(ctx, url, args)
        except Exception as e:  # noqa: BLE001 - a page that breaks the browser is reported, the run goes on
            r = {"error": f"{type(e).__name__}: {e}"[:300]}
        pg = r.pop("_page", None)
        records.append(base | {"kind": kind, "load": load} | r)
        _say(records[-1])
        if kind == "cold" or "error" in r:
            ctx.close()
            if "error" in r:
                return None, None
    return pg, ctx


def _slider_plans(pg, page: AppPage, base: dict, records: list[dict], n: int, *, floor: bool) -> dict:
    """Each slider's ``n`` steps (:func:`directions`) by widget key: ε where the page shows it, then its main knob."""
    plans = {}
    for key in ("eps",) + (() if floor else MAIN_KNOBS.get(page.url_path, ())):
        info = slider_info(pg, key)
        if info is not None:
            plans[key] = directions(info, n)
        elif key != "eps":
            records.append(base | {"kind": "move", "slider": key, "error": f"no slider with key {key!r}"})
            _say(records[-1])
    return plans


def _move(pg, key: str, d: int, base: dict, records: list[dict], args) -> bool:
    """One timed step of slider ``key`` into ``records``; False after an error."""
    load = loadavg()
    try:
        r = move_slider(pg, key, d, args)
    except Exception as e:  # noqa: BLE001
        r = {"error": f"{type(e).__name__}: {e}"[:300]}
    records.append(base | {"kind": "move", "slider": key, "load": load} | r)
    _say(records[-1])
    return "error" not in r


def bench_interleaved(browser, pages: list[AppPage], args, floor_dir: Path | None) -> list[dict]:
    """``--interleaved``: every server at once (the floor's too), and in each of ``--runs`` rounds ``--moves`` steps
    of each page's sliders in turn, so the floor and the pages are measured in the same minutes: a machine that
    slows down (another tenant, a warmer CPU) slows them alike. The sequential mode measures the floor once, before
    the pages (minutes earlier); on this machine its move swung 0.12–0.20 s between runs, moving every ratio by
    ±0.3×. Each slider walks on through new values from round to round (:func:`directions` over every round)."""
    entries = ([(FLOOR, floor_dir)] if floor_dir else []) + [(p, None) for p in pages]
    records: list[dict] = []
    with contextlib.ExitStack() as stack:
        live = []
        for page, fdir in entries:
            name = "floor" if fdir else (page.url_path or "Home")
            script, cwd = (fdir / "floor_app.py", fdir) if fdir else ("app.py", args.root)
            srv = stack.enter_context(Server(script, cwd=cwd, extra_args=args.server_arg))
            sampler = RssSampler(srv)
            sampler.start()
            stack.callback(sampler.stop)
            base = {"page": name, "title": page.title, "run": 1}
            own: list[dict] = []
            pg, ctx = _first_renders(browser, srv, page, base, own, args, floor=fdir is not None)
            if ctx is not None:
                stack.callback(ctx.close)
            plans = (
                {} if pg is None else _slider_plans(pg, page, base, own, args.moves * args.runs, floor=fdir is not None)
            )
            live.append((base, pg, plans, sampler, own))
        for rnd in range(args.runs):
            for base, pg, plans, _, own in live:
                for key, dirs in plans.items():
                    for i in range(args.moves):
                        d = dirs[rnd * args.moves + i]
                        _move(pg, key, d, base | {"run": rnd + 1, "step": i + 1}, own, args)
        for *_, sampler, own in live:
            peak = max((r for _, _, r in sampler.samples), default=0) / 1e9
            records += [r | {"rss_peak_gb": peak} for r in own]
    return records


def _say(r: dict) -> None:
    what = r["kind"] + (
        f" {SLIDER_NAMES.get(r.get('slider'), r.get('slider'))} #{r.get('step', '')}" if r["kind"] == "move" else ""
    )
    if "error" in r:
        print(f"  {r['page']:22s} run {r['run']} {what:18s} ERROR {r['error']}", flush=True)
        return
    extra = ""
    if r.get("from") is not None:
        extra += f" {r['from']}→{r['to']}"
    if r["exceptions"] or r["errors"]:
        extra += f"  SHOWS {len(r['exceptions'])} exception(s), st.error: {r['errors'][:2]}"
    print(
        f"  {r['page']:22s} run {r['run']} {what:18s} main chart {r['t_main']:6.2f} s  "
        f"notRunning {r['t_script']:6.2f} s  all drawn {r['t_all']:6.2f} s  (load {r['load']}){extra}",
        flush=True,
    )


def summarize(records: list[dict]) -> list[dict]:
    """Per page: medians over runs of the first renders; per slider: median of all moves and of the first moves."""
    out = []
    for page in dict.fromkeys(r["page"] for r in records):
        rs = [r for r in records if r["page"] == page]
        row = {
            "page": page,
            "title": rs[0]["title"],
            "errors": sorted({r["error"] for r in rs if "error" in r}),
            "shown_errors": sum(len(r.get("exceptions", [])) + len(r.get("errors", [])) for r in rs),
            "rss_peak_gb": max(r["rss_peak_gb"] for r in rs),
        }
        for kind in ("cold", "warm"):
            for metric in ("t_main", "t_script", "t_all"):
                xs = [r[metric] for r in rs if r["kind"] == kind and metric in r]
                row[f"{kind}_{metric}"] = statistics.median(xs) if xs else None
        row["sliders"] = {}
        for key in dict.fromkeys(r["slider"] for r in rs if r["kind"] == "move"):
            ms = [r for r in rs if r["kind"] == "move" and r["slider"] == key and "t_main" in r]
            if not ms:
                continue
            row["sliders"][key] = {
                "n": len(ms),
                "median": statistics.median(r["t_main"] for r in ms),
                "first": statistics.median(r["t_main"] for r in ms if r["step"] == 1),
                "max": max(r["t_main"] for r in ms),
                "median_script": statistics.median(r["t_script"] for r in ms),
                "median_all": statistics.median(r["t_all"] for r in ms),
                "main_changed": sum(r["main_changed"] for r in ms),
                "send_delay": statistics.median(r["send_delay"] for r in ms if r["send_delay"] is not None),
                "browser_cpu": statistics.median(r["browser_cpu"] for r in ms if "browser_cpu" in r)
                if any("browser_cpu" in r for r in ms)
                else None,
                "messages": statistics.median(r.get("messages", 0) for r in ms),
            }
        out.append(row)
    return out


def markdown(summary: list[dict], meta: dict) -> str:
    floor = next((s for s in summary if s["page"] == "floor"), None)
    floor_move = floor["sliders"].get("eps", {}).get("median") if floor else None
    floor_cpu = floor["sliders"].get("eps", {}).get("browser_cpu") if floor else None
    lines = [
        (
            f"Browser, Chromium {meta['chromium']}: {meta['git']}; query `{meta['query'] or '(app defaults)'}`; "
            f"{meta['runs']} run(s), {meta['moves']} moves per slider; load {meta['load_before']} → "
            f"{meta['load_after']}."
        ),
        "Time to Streamlit's `notRunning` and the page's main chart redrawn.",
        "",
        "| page | first render, cold | first render, warm | slider | move: median (first move) | × floor "
        "| browser CPU per move | × floor |",
        "|---|---:|---:|---|---:|---:|---:|---:|",
    ]
    for s in summary:
        title = s["title"]
        cells = [fmt_s(s["cold_t_main"]), fmt_s(s["warm_t_main"])]
        if not s["sliders"]:
            lines.append(f"| {title} | {cells[0]} | {cells[1]} | — | — | — | — | — |")
        for i, (key, m) in enumerate(s["sliders"].items()):
            ratio = f"{m['median'] / floor_move:.1f}×" if floor_move else "—"
            cpu = m.get("browser_cpu")
            cpu_ratio = f"{cpu / floor_cpu:.1f}×" if cpu is not None and floor_cpu else "—"
            lines.append(
                f"| {title if i == 0 else ''} | {cells[0] if i == 0 else ''} | {cells[1] if i == 0 else ''} | "
                f"{SLIDER_NAMES.get(key, key)} | {fmt_s(m['median'])} ({fmt_s(m['first'])}) | {ratio} | "
                f"{fmt_s(cpu)} | {cpu_ratio} |"
            )
        if s["errors"] or s["shown_errors"]:
            lines.append(
                f"| ↳ {title}: {'; '.join(s['errors'])[:150]} {s['shown_errors']} error(s) shown | | | | | | | |"
            )
    lines += [
        "",
        (
            "Details (medians): to `notRunning` alone / to every chart drawn; moves whose main chart changed; "
            "key press → rerun request."
        ),
        "",
        "| page | cold | warm | slider | move | main chart changed | request after | browser CPU | messages | server peak RSS |",
        "|---|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for s in summary:
        c = f"{fmt_s(s['cold_t_script'])} / {fmt_s(s['cold_t_all'])}"
        w = f"{fmt_s(s['warm_t_script'])} / {fmt_s(s['warm_t_all'])}"
        rss = f"{s['rss_peak_gb']:.2f} GB"
        if not s["sliders"]:
            lines.append(f"| {s['title']} | {c} | {w} | — | — | — | — | — | — | {rss} |")
        for i, (key, m) in enumerate(s["sliders"].items()):
            first = i == 0
            lines.append(
                f"| {s['title'] if first else ''} | {c if first else ''} | {w if first else ''} | "
                f"{SLIDER_NAMES.get(key, key)} | {fmt_s(m['median_script'])} / {fmt_s(m['median_all'])} | "
                f"{m['main_changed']}/{m['n']} | {m['send_delay'] * 1000:.0f} ms | {m['browser_cpu']:.2f} s | "
                f"{m['messages']:.0f} | {rss if first else ''} |"
            )
    return "\n".join(lines)


def _epsilon_options() -> tuple[float, ...]:
    """The app's ε grid (the floor's slider has the same options)."""
    from dpui.common.sidebar import EPSILON_OPTIONS

    return tuple(EPSILON_OPTIONS)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--pages", nargs="*", help="pages by URL path or title (Home, Mechanisms_101, TopicDP …); default: every page"
    )
    ap.add_argument("--query", default="", help="query string for every page, e.g. 'corpus=sample&size=paper'")
    ap.add_argument("--corpus", help="data choice, put where this branch's sidebar reads it (e.g. paper)")
    ap.add_argument("--runs", type=int, default=3, help="fresh servers per page (default 3)")
    ap.add_argument("--moves", type=int, default=5, help="moves per slider and run (default 5)")
    ap.add_argument("--settle", type=float, default=2.5, help="seconds of a quiet page that end a measurement")
    ap.add_argument("--timeout", type=float, default=600, help="seconds one render may take (default 600)")
    ap.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument of `streamlit run` (repeat it), e.g. --server-arg=--runner.fastReruns=false",
    )
    ap.add_argument("--no-floor", action="store_true", help="skip the minimal floor app")
    ap.add_argument(
        "--interleaved",
        action="store_true",
        help="every server at once, one slider after the other in each of --runs rounds (bench_interleaved): the "
        "floor measured in the same minutes as the pages",
    )
    ap.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout whose app.py is served (default: this one), e.g. a `git archive` of another commit, "
        "to measure before and after with the same harness",
    )
    ap.add_argument("--json", help="write the meta data, every measurement and the summary to this file")
    args = ap.parse_args()
    args.query = build_query(args.query, args.corpus)
    pages = select_pages(args.pages)

    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise SystemExit(f"needs {CHROMIUM} (Debian's chromium package)")
    records: list[dict] = []
    meta = {
        "git": git_describe(),
        "query": args.query,
        "runs": args.runs,
        "moves": args.moves,
        "settle": args.settle,
        "load_before": loadavg(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as tmp, sync_playwright() as p:
        floor_dir = Path(tmp)
        (floor_dir / "floor_app.py").write_text(FLOOR_APP.format(options=_epsilon_options()))
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        meta["chromium"] = browser.version
        print(
            f"bench_browser: {meta['git']}; query {args.query!r}; Chromium {browser.version}; "
            f"load {meta['load_before']}",
            flush=True,
        )
        if args.interleaved:
            records += bench_interleaved(browser, pages, args, None if args.no_floor else floor_dir)
        for run in range(1, args.runs + 1) if not args.interleaved else ():
            if not args.no_floor:
                records += bench_page(browser, FLOOR, run, args, floor_dir=floor_dir)
            for page in pages:
                records += bench_page(browser, page, run, args)
        browser.close()
    meta["load_after"] = loadavg()
    summary = summarize(records)
    print()
    print(markdown(summary, meta))
    if args.json:
        Path(args.json).write_text(
            json.dumps({"meta": meta, "records": records, "summary": summary}, indent=1, ensure_ascii=False)
        )
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
