"""A class on one server: N concurrent sessions open pages and move sliders; latency, errors and memory.

Run by hand from the repo root (not in CI):

    python benchmarks/bench_classroom.py                          # N = 1, 10, 30; 2-minute staggered phase
    python benchmarks/bench_classroom.py --sessions 1 10 --duration 30 --after 10
    python benchmarks/bench_classroom.py --corpus paper --sessions 10 --json class.json
    python benchmarks/bench_classroom.py --validate               # the protocol client against Chromium, once

How: a client of Streamlit's own websocket protocol (no browser, so no Chromium competes with the server
for the machine's cores; the client's CPU time is printed). Each session is one websocket to
``/_stcore/stream``, as a browser tab opens: it sends the ``rerun_script`` BackMsg a page load sends (page
name, query string, browser context), receives the ForwardMsgs (resolving ``ref_hash`` references from
its own message cache and announcing the cached hashes on each rerun, as the frontend does), and moves a
slider the way the frontend does after a drag: a ``rerun_script`` whose widget states hold the slider's
new value (a select_slider's formatted option, a slider's float) and whose query string carries it (the
widgets are bound to the URL). A request is done when its ``script_finished`` ForwardMsg arrives
(Streamlit's ``notRunning``; what the browser then draws is not included: bench_browser.py measures that).
``--validate`` checks this client once against Chromium: the same page shows the same metric values, and
after the same ε step both show the new ε and the same, changed, values.

Per N (each N on a fresh `streamlit run app.py` server, headless, usage statistics off):

1. warm-up: one session renders each page of the mix once (the server's caches of data that do not
   depend on the seed are then warm, as after a lecturer's own check; ``--no-warmup`` to skip);
2. open: N sessions (seeds 1 … N, so each sees its own noise; ``--shared-seed``: all at the default seed, as a room
   following the lecturer; pages taken in turn from the mix, by default
   every page with an ε slider, Home last) connect at the same moment: first-render latency;
3. all at once: ``--rounds`` times (default 3) every session moves ε to the same value at the same moment
   (the lecturer's "now move ε to 0.5"; values 0.5, 2, 4, …); a round ends when the last session is done;
4. staggered: for ``--duration`` seconds (default 120) each session moves ε every ``--period`` seconds
   (default 5) from a random offset, to a random other value of the ε grid (a new value is likelier to
   miss the server's caches than a one-notch step); a move that takes longer than the period delays the next;
5. the sessions close; the server's memory is sampled for ``--after`` seconds more (default 30). Streamlit
   keeps a disconnected session (its session state, uploads) for ``server.disconnectedSessionTTL`` seconds
   (120 by default; expired lazily, when the session manager is next used) so that a reconnecting tab finds
   it: pass ``--server-arg=--server.disconnectedSessionTTL=5`` to take that out of the picture.

``--url`` measures a server already running (e.g. several Streamlit processes behind one address); ``--pid``
names the processes whose memory is sampled. ``--server-arg`` passes settings to the `streamlit run` started here.

Reported per N: median / p95 / max latency of the first render, of the all-at-once moves and of the
staggered moves; errors (exceptions or st.error shown, compile errors, timeouts, closed connections, a
missing page or slider); the RSS of the server's whole process tree (sampled every 0.5 s): after the
warm-up, peak during the sessions, and at the end of the ``--after`` window. ``--query``/``--corpus`` as in
bench_browser.py. The machine may be shared: the load average is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
import websockets  # a dependency of streamlit
from _stbench import (
    AppPage,
    RssSampler,
    RunningServer,
    Server,
    app_pages,
    build_query,
    fmt_s,
    git_describe,
    loadavg,
    percentile,
    select_pages,
)
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider

MAIN_KNOBS = {"Privacy_audit": "audit_confidence"}
"""The slider a session moves on a page without ε (ε elsewhere)."""
FINISHED_OK = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)


class RequestError(Exception):
    pass


class Session:
    """One browser tab's worth of Streamlit protocol: a websocket, a page, a query string, its widgets."""

    def __init__(self, ws_url: str, page: str, query: str, timeout: float):
        self.ws_url, self.page, self.timeout = ws_url, page, timeout
        self.query = dict(parse_qsl(query, keep_blank_values=True))
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.cache: dict[str, ForwardMsg] = {}  # hash → cacheable ForwardMsg (the frontend's message cache)
        self.widgets: dict[str, Slider] = {}  # user key → last slider proto seen
        self.values: dict[str, str | float] = {}  # user key → value this client set
        self.elements: dict[tuple, object] = {}  # delta path → element, this run
        self.errors: list[str] = []  # what the page showed as an error, this run
        self.fragment: dict[str, str] = {}  # user key → fragment id the widget lives in
        self._done: asyncio.Future | None = None

    # ---------------------------------------------------------------- receiving
    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                msg = ForwardMsg()
                msg.ParseFromString(frame)
                self._handle(msg)
        except websockets.ConnectionClosed as e:
            self._fail(f"connection closed: {e}")
        except Exception as e:  # noqa: BLE001 - any parse or handler failure ends this session, reported
            self._fail(f"{type(e).__name__}: {e}")
        else:
            self._fail("connection closed by the server")

    def _fail(self, why: str) -> None:
        if self._done is not None and not self._done.done():
            self._done.set_exception(RequestError(why))

    def _handle(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":
            if msg.ref_hash not in self.cache:
                self._fail(f"reference to a message not in the cache: {msg.ref_hash}")
                return
            cached = ForwardMsg()
            cached.CopyFrom(self.cache[msg.ref_hash])
            cached.metadata.CopyFrom(msg.metadata)
            msg, kind = cached, cached.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash:
            self.cache[msg.hash] = msg
        if kind == "delta":
            self._delta(msg)
        elif kind == "script_finished":
            status = msg.script_finished
            if self._done is not None and not self._done.done():
                if status in FINISHED_OK:
                    self._done.set_result(time.perf_counter())
                elif status == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    self._done.set_exception(RequestError("script compile error"))
        elif kind == "page_not_found":
            self._fail(f"page not found: {msg.page_not_found.page_name!r}")
        elif kind == "session_event" and msg.session_event.WhichOneof("type") == "script_compilation_exception":
            self.errors.append("script compilation exception")

    def _delta(self, msg: ForwardMsg) -> None:
        d = msg.delta
        if d.WhichOneof("type") != "new_element":
            return
        el = d.new_element
        et = el.WhichOneof("type")
        path = tuple(msg.metadata.delta_path)
        self.elements[path] = el
        if et == "exception" and not el.exception.is_warning:
            self.errors.append(f"exception {el.exception.type}: {el.exception.message[:150]}")
        elif et == "alert" and el.alert.format == Alert.ERROR:
            self.errors.append(f"st.error: {el.alert.body[:150]}")
        elif et == "slider" and el.slider.id.startswith("$$ID-"):
            key = el.slider.id.split("-", 2)[2]
            self.widgets[key] = el.slider
            self.fragment[key] = d.fragment_id

    # ---------------------------------------------------------------- requests
    def _client_state(self, widget=None):
        b = BackMsg()
        cs = b.rerun_script
        cs.query_string = urlencode(self.query)
        cs.page_name = self.page
        cs.cached_message_hashes.extend(self.cache)
        cs.context_info.timezone = "UTC"
        cs.context_info.timezone_offset = 0
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"http://127.0.0.1/{self.page}"
        cs.context_info.is_embedded = False
        cs.context_info.color_scheme = "light"
        if widget is not None:
            cs.widget_states.widgets.append(widget)
        return b

    async def _request(self, back: BackMsg, t0: float) -> float:
        loop = asyncio.get_running_loop()
        self._done = loop.create_future()
        self.elements, self.errors = {}, []
        await self.ws.send(back.SerializeToString())
        try:
            end = await asyncio.wait_for(self._done, self.timeout)
        except TimeoutError:
            raise RequestError(f"no script_finished after {self.timeout:.0f} s") from None
        return end - t0

    async def open(self) -> float:
        """Connect and render the page; returns seconds from the connection attempt to script_finished."""
        t0 = time.perf_counter()
        self.ws = await websockets.connect(
            self.ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=self.timeout, ping_interval=None
        )
        self.reader = asyncio.create_task(self._read())
        return await self._request(self._client_state(), t0)

    def options(self, key: str) -> list[str]:
        return list(self.widgets[key].options)

    def current(self, key: str) -> str | float:
        if key in self.values:
            return self.values[key]
        w = self.widgets[key]
        idx = list(w.value) if w.set_value and len(w.value) else list(w.default)
        return w.options[int(idx[0])] if w.type == Slider.SELECT_SLIDER else idx[0]

    async def move(self, key: str, value: str | float) -> float:
        """Set the slider ``key`` to ``value`` (an option's text for a select_slider) and rerun, as the frontend
        does after a drag; returns seconds to script_finished."""
        if key not in self.widgets:
            raise RequestError(f"no slider with key {key!r} on {self.page or 'Home'}")
        w = self.widgets[key]
        ws = widget_state(w, value)
        self.values[key] = value
        if w.query_param_key:
            self.query[w.query_param_key] = _url_text(w, value)
        back = self._client_state(ws)
        back.rerun_script.fragment_id = self.fragment.get(key, "")
        return await self._request(back, time.perf_counter())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)

    # ---------------------------------------------------------------- what the page shows (for --validate)
    def main_metrics(self) -> list[str]:
        return [
            el.metric.body
            for path, el in sorted(self.elements.items())
            if path and path[0] == 0 and el.WhichOneof("type") == "metric"
        ]

    def main_headings(self) -> list[str]:
        """Headings of the main area as plain text (markdown emphasis removed, as the browser shows them)."""
        return [
            _plain(el.heading.body)
            for path, el in sorted(self.elements.items())
            if path and path[0] == 0 and el.WhichOneof("type") == "heading"
        ]

    def count(self, element_type: str) -> int:
        return sum(el.WhichOneof("type") == element_type for path, el in self.elements.items() if path[0] == 0)


def _plain(text: str) -> str:
    return " ".join(text.replace("*", "").replace("`", "").split())


def widget_state(w: Slider, value):
    """The WidgetState the frontend sends for slider ``w`` at ``value``."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    ws = WidgetState(id=w.id)
    if w.type == Slider.SELECT_SLIDER:
        if value not in w.options:
            raise RequestError(f"{value!r} is not an option of {w.label!r}: {list(w.options)}")
        ws.string_array_value.data.append(str(value))
    else:
        ws.double_array_value.data.append(float(value))
    return ws


def _url_text(w: Slider, value) -> str:
    if w.type == Slider.SELECT_SLIDER:
        return str(value)
    return f"{int(value)}" if w.data_type == Slider.INT else f"{float(value):g}"


# ------------------------------------------------------------------------------ one class
def eps_pages() -> list[AppPage]:
    """The pages whose sidebar shows ε: those calling ``shared_sidebar()`` without ``uses`` or with "eps" in it."""
    import re

    from _stbench import ROOT

    out = []
    for page in app_pages():
        src = (ROOT / "app.py") if not page.url_path else next((ROOT / "pages").glob(f"[0-9]*_{page.url_path}.py"))
        m = re.search(r"shared_sidebar\(([^)]*)\)", src.read_text(encoding="utf-8"))
        if m is not None and ("uses" not in m.group(1) or '"eps"' in m.group(1)):
            out.append(page)
    return sorted(out, key=lambda p: p.url_path == "")  # Home last: N = 1 opens a page that computes something


def _slider_of(s: Session) -> str | None:
    if "eps" in s.widgets:
        return "eps"
    knob = MAIN_KNOBS.get(s.page)
    return knob if knob in s.widgets else None


def _note(out: dict, phase: str, page: str, t: float | None) -> None:
    """Keep latency ``t`` of ``phase`` overall and by page."""
    if t is None:
        return
    out[phase].append(t)
    out["by_page"].setdefault(page or "Home", {}).setdefault(phase, []).append(t)


async def _timed(coro, errors: list[str], what: str) -> float | None:
    try:
        return await coro
    except Exception as e:  # noqa: BLE001 - every failure is an error of the run, counted and shown
        errors.append(f"{what}: {e}")
        return None


async def run_class(n: int, pages: list[AppPage], args) -> dict:
    rng = random.Random(args.seed + n)
    out: dict = {
        "n": n,
        "load_before": loadavg(),
        "errors": [],
        "first_render": [],
        "together": [],
        "staggered": [],
        "by_page": {},
    }
    with make_server(args) as srv:
        sampler = RssSampler(srv)
        sampler.start()
        t_start = time.perf_counter()
        sampler.phase = "warmup"
        mix = [p.url_path for p in pages]
        if not args.no_warmup:  # one render per page (default seed): the server's seed-independent caches warm up
            for path in mix:
                s = Session(srv.ws_url, path, args.query, args.timeout)
                t = await _timed(s.open(), out["errors"], f"warm-up {path or 'Home'}")
                out["errors"] += [f"warm-up {path or 'Home'} shows {e}" for e in s.errors]
                print(f"  N={n:<3d} warm-up {path or 'Home':22s} {fmt_s(t)}", flush=True)
                await s.close()
        out["warmup_s"] = time.perf_counter() - t_start
        out["mix"] = mix
        await asyncio.sleep(2)
        sampler.phase = "baseline"
        await asyncio.sleep(1.5)
        cpu0 = resource.getrusage(resource.RUSAGE_SELF)
        sessions = [Session(srv.ws_url, mix[i % len(mix)], _session_query(args, i), args.timeout) for i in range(n)]

        # 2. open
        sampler.phase = "open"
        first = await asyncio.gather(*(_timed(s.open(), out["errors"], f"open {s.page or 'Home'}") for s in sessions))
        _page_errors(sessions, out, "open")
        for s, t in zip(sessions, first):
            _note(out, "first_render", s.page, t)
        live = [s for s, t in zip(sessions, first) if t is not None]
        print(f"  N={n:<3d} open:      {_stats_line(out['first_render'])}  (load {loadavg()})", flush=True)

        # 3. all at once
        sampler.phase = "together"
        for r in range(args.rounds):
            await asyncio.sleep(args.pause)
            value = args.values[r % len(args.values)]
            jobs, movers = [], []
            for s in live:
                key = _slider_of(s)
                if key is None:
                    out["errors"].append(f"no slider to move on {s.page or 'Home'}")
                    continue
                v = value if key == "eps" else _other_option(s, key, rng)
                jobs.append(_timed(s.move(key, v), out["errors"], f"together {s.page or 'Home'} {key}={v}"))
                movers.append(s)
            ts = await asyncio.gather(*jobs)
            for s, t in zip(movers, ts):
                _note(out, "together", s.page, t)
            _page_errors(live, out, f"together round {r + 1}")
            print(
                f"  N={n:<3d} together round {r + 1} (ε = {value}): {_stats_line([t for t in ts if t is not None])}"
                f"  (load {loadavg()})",
                flush=True,
            )

        # 4. staggered
        sampler.phase = "staggered"
        out["late"] = 0
        t_end = time.perf_counter() + args.duration

        async def student(s: Session) -> None:
            key = _slider_of(s)
            if key is None:
                return
            nxt = time.perf_counter() + rng.uniform(0, args.period)
            while True:
                await asyncio.sleep(max(0.0, nxt - time.perf_counter()))
                if time.perf_counter() >= t_end:
                    return
                v = _other_option(s, key, rng)
                t = await _timed(s.move(key, v), out["errors"], f"staggered {s.page or 'Home'} {key}={v}")
                for e in s.errors:
                    out["errors"].append(f"staggered {s.page or 'Home'}?{urlencode(s.query)} shows {e}")
                if t is None:
                    return
                _note(out, "staggered", s.page, t)
                nxt += args.period
                if nxt < time.perf_counter():
                    out["late"] += 1
                    nxt = time.perf_counter()

        if args.duration > 0:
            await asyncio.gather(*(student(s) for s in live))
            print(
                f"  N={n:<3d} staggered: {_stats_line(out['staggered'])}; {out['late']} move(s) later than the "
                f"period  (load {loadavg()})",
                flush=True,
            )
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        out["client_cpu_s"] = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)

        # 5. close, then watch the memory
        sampler.phase = "closing"
        await asyncio.gather(*(s.close() for s in sessions), return_exceptions=True)
        sampler.phase = "after"
        await asyncio.sleep(args.after)
        sampler.stop()
        during = sampler.in_phases("open", "together", "staggered")
        out |= {
            "rss_baseline_gb": _gb(statistics.median(sampler.in_phases("baseline") or [0])),
            "rss_peak_gb": _gb(max(during, default=0)),
            "rss_end_gb": _gb(sampler.samples[-1][2] if sampler.samples else 0),
            "rss_after_min_gb": _gb(min(sampler.in_phases("after"), default=0)),
            "rss_samples": [(round(t - sampler.samples[0][0], 1), p, r) for t, p, r in sampler.samples],
            "load_after": loadavg(),
        }
    return out


def make_server(args) -> Server | RunningServer:
    if args.url:
        return RunningServer(args.url, args.pid)
    return Server(extra_args=args.server_arg)


def _session_query(args, i: int) -> str:
    """Session i's query: its own seed i + 1, or with ``--shared-seed`` the app's default (a lecture's room)."""
    return args.query if args.shared_seed else _with_seed(args.query, i + 1)


def _with_seed(query: str, seed: int) -> str:
    q = dict(parse_qsl(query, keep_blank_values=True))
    q["seed"] = str(seed)
    return urlencode(q)


def _other_option(s: Session, key: str, rng: random.Random):
    w, now = s.widgets[key], s.current(key)
    if w.type == Slider.SELECT_SLIDER:
        return rng.choice([o for o in w.options if o != now])
    steps = round((w.max - w.min) / w.step)
    return rng.choice([v for v in (w.min + i * w.step for i in range(steps + 1)) if abs(v - float(now)) > w.step / 2])


def _page_errors(sessions: list[Session], out: dict, when: str) -> None:
    for s in sessions:
        out["errors"] += [f"{when} {s.page or 'Home'}?{urlencode(s.query)} shows {e}" for e in s.errors]


def _gb(b: float) -> float:
    return b / 1e9


def _stats(xs: list[float]) -> dict:
    return {
        "n": len(xs),
        "median": statistics.median(xs) if xs else None,
        "p95": percentile(xs, 95) if xs else None,
        "max": max(xs) if xs else None,
    }


def _stats_line(xs: list[float]) -> str:
    s = _stats(xs)
    return f"n={s['n']:3d} median {fmt_s(s['median'])}, p95 {fmt_s(s['p95'])}, max {fmt_s(s['max'])}"


def markdown(results: list[dict], meta: dict) -> str:
    lines = [
        (
            f"Class on one server (Streamlit websocket protocol client, {meta['git']}; query "
            f"`{meta['query'] or '(app defaults)'}`; mix {meta['mix']}; all at once: {meta['rounds']} rounds; "
            f"staggered: every {meta['period']:g} s for {meta['duration']:g} s; load {meta['load_before']} → "
            f"{meta['load_after']}). Latency to Streamlit's script_finished, median / p95 (max)."
        ),
        "",
        (
            "| N | first render | all at once | staggered | errors | RSS after warm-up | RSS peak | RSS "
            f"{meta['after']:g} s after |"
        ),
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        cells = []
        for k in ("first_render", "together", "staggered"):
            s = _stats(r.get(k, []))
            cells.append(f"{fmt_s(s['median'])} / {fmt_s(s['p95'])} ({fmt_s(s['max'])})" if s["n"] else "—")
        lines.append(
            f"| {r['n']} | {' | '.join(cells)} | {len(r['errors'])} | {r.get('rss_baseline_gb', 0):.2f} GB | "
            f"{r.get('rss_peak_gb', 0):.2f} GB | {r.get('rss_end_gb', 0):.2f} GB |"
        )
    return "\n".join(lines)


async def amain(args, pages: list[AppPage]) -> list[dict]:
    results = []
    for n in args.sessions:
        r = await run_class(n, pages, args)
        results.append(r)
        for page, phases in r["by_page"].items():
            print(
                f"  N={n} {page:22s} "
                + "; ".join(f"{k} median {fmt_s(statistics.median(v))} (n={len(v)})" for k, v in phases.items()),
                flush=True,
            )
        if r["errors"]:
            print(f"  N={n}: {len(r['errors'])} error(s), first: {r['errors'][:3]}", flush=True)
        print(
            f"  N={n}: RSS {r.get('rss_baseline_gb', 0):.2f} GB after warm-up, peak {r.get('rss_peak_gb', 0):.2f} GB, "
            f"{r.get('rss_end_gb', 0):.2f} GB {args.after:g} s after closing; client CPU "
            f"{r.get('client_cpu_s', 0):.1f} s",
            flush=True,
        )
    return results


# ------------------------------------------------------------------------------ --validate
async def _protocol_view(srv: Server | RunningServer, page: str, query: str, timeout: float) -> dict:
    s = Session(srv.ws_url, page, query, timeout)
    await s.open()
    if "eps" not in s.widgets:
        await s.close()
        return {"error": "no ε slider"}
    before = {
        "metrics": s.main_metrics(),
        "headings": s.main_headings(),
        "charts": s.count("plotly_chart"),
        "eps": s.current("eps"),
        "errors": list(s.errors),
    }
    opts = s.options("eps")
    nxt = opts[opts.index(str(before["eps"])) + 1]  # the browser's ArrowRight: the next option
    await s.move("eps", nxt)
    after = {
        "metrics": s.main_metrics(),
        "headings": s.main_headings(),
        "charts": s.count("plotly_chart"),
        "eps": nxt,
        "errors": list(s.errors),
    }
    await s.close()
    return {"before": before, "after": after}


def _browser_view(srv: Server | RunningServer, page: str, query: str, timeout: float) -> dict:
    import bench_browser as bb
    from _stbench import CHROMIUM, CHROMIUM_FLAGS
    from playwright.sync_api import sync_playwright

    args = argparse.Namespace(settle=1.5, timeout=timeout)
    read = r"""() => ({metrics: [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMetricValue"]')]
                       .map(e => e.textContent.trim()),
                     headings: [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stHeading"]')]
                       .map(e => e.textContent.replace(/\s+/g, ' ').trim()),
                     charts: document.querySelectorAll('[data-testid="stMain"] [data-testid="stPlotlyChart"]').length})"""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        ctx = browser.new_context(viewport=bb.VIEWPORT)
        ctx.add_init_script(bb.INIT_JS)
        r = bb.first_render(ctx, f"{srv.url}/{page}?{query}", args)
        pg = r.pop("_page")
        if "error" in r:
            return {"error": r["error"]}
        eps_in = pg.locator('[data-testid="stApp"] .st-key-eps input[type="range"]').first
        before = pg.evaluate(read) | {"eps": eps_in.get_attribute("aria-valuetext")}
        m = bb.move_slider(pg, "eps", +1, args)
        if "error" in m:
            return {"error": m["error"]}
        after = pg.evaluate(read) | {"eps": m["to"]}
        browser.close()
    return {"before": before, "after": after}


def validate(pages: list[AppPage], args) -> bool:
    """The protocol client and Chromium on the same server: same metric values, headings and chart count before
    and after one ε step; the step changed what is shown."""
    ok = True
    with make_server(args) as srv:
        for page in pages:
            query = _with_seed(args.query, 7)
            proto = asyncio.run(_protocol_view(srv, page.url_path, query, args.timeout))
            brow = _browser_view(srv, page.url_path, query, args.timeout)
            name = page.url_path or "Home"
            if "error" in proto or "error" in brow:
                print(f"  {name:22s} skipped: protocol {proto.get('error', 'ok')}, browser {brow.get('error', 'ok')}")
                continue
            checks = {
                "same metrics before": proto["before"]["metrics"] == brow["before"]["metrics"],
                "same metrics after": proto["after"]["metrics"] == brow["after"]["metrics"],
                "same headings": proto["before"]["headings"] == brow["before"]["headings"]
                and proto["after"]["headings"] == brow["after"]["headings"],
                "same ε after": str(proto["after"]["eps"]) == brow["after"]["eps"],
                "same number of charts": proto["before"]["charts"] == brow["before"]["charts"]
                and proto["after"]["charts"] == brow["after"]["charts"],
                "the step changed the metrics or headings": (proto["after"]["metrics"], proto["after"]["headings"])
                != (proto["before"]["metrics"], proto["before"]["headings"]),
                "no error shown": not proto["before"]["errors"] and not proto["after"]["errors"],
            }
            good = all(checks.values())
            ok &= good
            print(
                f"  {name:22s} {'OK ' if good else 'BAD'} ε {proto['before']['eps']} → {proto['after']['eps']}; "
                f"{len(proto['after']['metrics'])} metrics, {proto['after']['charts']} charts; "
                + ", ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items()),
                flush=True,
            )
            if not good:
                print(f"    protocol {proto}\n    browser  {brow}", flush=True)
    return ok


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 30], help="class sizes N (default 1 10 30)")
    ap.add_argument("--pages", nargs="*", help="the page mix by URL path or title (default: every page with ε)")
    ap.add_argument("--query", default="", help="query string for every session (a seed is added per session)")
    ap.add_argument("--corpus", help="data choice, put where this branch's sidebar reads it (e.g. paper)")
    ap.add_argument("--rounds", type=int, default=3, help="all-at-once moves (default 3)")
    ap.add_argument("--values", nargs="+", default=["0.5", "2", "4"], help="ε of the all-at-once rounds")
    ap.add_argument("--pause", type=float, default=2.0, help="seconds before each all-at-once round")
    ap.add_argument("--duration", type=float, default=120, help="seconds of staggered moves (default 120)")
    ap.add_argument("--period", type=float, default=5, help="seconds between one session's staggered moves")
    ap.add_argument("--after", type=float, default=30, help="seconds of memory sampling after the sessions close")
    ap.add_argument("--timeout", type=float, default=300, help="seconds one request may take")
    ap.add_argument("--no-warmup", action="store_true", help="open the sessions on a cold server")
    ap.add_argument("--seed", type=int, default=0, help="seed of the offsets and values of the staggered moves")
    ap.add_argument(
        "--shared-seed",
        action="store_true",
        help="every session keeps the app's default seed (a lecture: the room shares one noise) instead of 1 … N",
    )
    ap.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument of `streamlit run` (repeat it), e.g. --server-arg=--server.disconnectedSessionTTL=10",
    )
    ap.add_argument(
        "--url",
        help="measure this running server (e.g. a proxy before several processes) instead of "
        "starting one per N; its caches stay warm from one N to the next",
    )
    ap.add_argument(
        "--pid",
        type=int,
        action="append",
        default=[],
        help="with --url: a server process whose tree's RSS is sampled (repeat it)",
    )
    ap.add_argument("--validate", action="store_true", help="check the protocol client against Chromium, then stop")
    ap.add_argument("--json", help="write every latency, error and RSS sample to this file")
    args = ap.parse_args()
    args.query = build_query(args.query, args.corpus)
    print(f"bench_classroom: {git_describe()}; query {args.query!r}; load {loadavg()}", flush=True)
    if args.validate:
        pages = select_pages(args.pages) if args.pages else eps_pages()
        raise SystemExit(0 if validate(pages, args) else 1)
    pages = select_pages(args.pages) if args.pages else eps_pages()
    meta = {
        "git": git_describe(),
        "query": args.query,
        "rounds": args.rounds,
        "period": args.period,
        "duration": args.duration,
        "after": args.after,
        "load_before": loadavg(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
    }
    results = asyncio.run(amain(args, pages))
    meta["load_after"] = loadavg()
    meta["mix"] = ", ".join(p or "Home" for p in results[0].get("mix", [])) if results else ""
    print()
    print(markdown(results, meta))
    if args.json:
        Path(args.json).write_text(json.dumps({"meta": meta, "results": results}, indent=1, ensure_ascii=False))
        print(f"\nwrote {args.json}")


if __name__ == "__main__":
    main()
