"""Hostile and large uploads against a real server (issue 25): peak RSS, time, RSS after the session ends.

Run by hand from the repo root (not in CI; needs Playwright and /usr/bin/chromium, as the browser tests):

    nice -n 10 python benchmarks/bench_upload.py [--skip-large] [--hold 60]

What it does, each step measured on the server process (``/proc/<pid>/status``: VmRSS sampled every 0.1 s
and VmHWM, the kernel's own peak):

1. writes the issue's file: 5,300,000 users, each one line {"user":"u0000001","text":"hi there"} (38 bytes,
   201 MB expanded), gzip level 6 (12.9 MB);
2. starts ``streamlit run app.py`` on a free port and opens ``/?corpus=upload`` in headless Chromium;
   the baseline is the server's RSS once that page is idle;
3. uploads the file through the sidebar's uploader and waits for the panel's answer (the message, or the
   uploaded corpus in the sidebar caption);
4. closes the uploader's tab (its session ends) and samples RSS for ``--hold`` seconds;
5. the same ``--repeat`` times, one tab after the other, for a file within every limit (95,000 users,
   4.75 M words; ``--skip-large`` leaves it out): RSS must not grow from one uploader to the next;
   ``--visit`` opens pages on the upload in the same session (their caches of it go with it); they are
   opened once on the sample corpus first, so one-time costs (imports, compiled kernels) are not counted;
6. waits ``--final-hold`` seconds (Streamlit keeps a closed tab's session, with its uploaded file, for
   2 minutes in case it reconnects) and reports the server's RSS against the first baseline.

``--tabs`` (issue 34) measures the order in which tabs close instead, each order on a fresh server: tabs A
and B each upload a 2 M-word, 90,000-user ``.csv.gz`` and a tab C stays on ``/?corpus=upload``; then
``one-at-a-time`` closes A, waits ``--gap`` seconds, closes B and C; ``at-once`` closes all three together.
It reports RSS at the start (C idle, before any upload), with both uploads held, and every 15 s for
``--after`` seconds after the last tab closes (target: within 100 MB of the start at 60 s). The server runs
with ``--env`` (default ``PYTHONMALLOC=malloc``, as deploy/serve_class.py starts it; ``--env`` alone: pymalloc).

Measured (issue 34; 2 CPUs shared, load 10–26; RSS in MB: start → both uploads held → 60 s after the last tab):

====================================  ==================  ==================
server                                one at a time       at once
====================================  ==================  ==================
before (pymalloc, ``_columns`` cache)  251 → 448 → 374     249 → 448 → 382
                                      (+123)              (+133)
emptied uploads, pymalloc             250 → 443 → 400     250 → 447 → 378
                                      (+150)              (+128)
emptied uploads, PYTHONMALLOC=malloc  283 → 456 → 297     282 → 473 → 303
                                      (+13)               (+22)
====================================  ==================  ==================

Under pymalloc the live Python blocks were back at their start count (``sys.getallocatedblocks``) while RSS
stayed up: 1 MiB arenas pinned by a few objects that other sessions allocated while the uploads were held.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


def hostile_file(path: Path) -> Path:
    if not path.exists():
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as gz:
            for start in range(0, 5_300_000, 100_000):
                gz.write(b"".join(b'{"user":"u%07d","text":"hi there"}\n' % i for i in range(start, start + 100_000)))
        path.write_bytes(buf.getvalue())
    return path


def large_allowed_file(path: Path) -> Path:
    """95,000 users, 190,000 rows, 4.75 M words from a 20,000-word vocabulary: within every limit."""
    if not path.exists():
        import numpy as np

        rng = np.random.default_rng(0)
        vocab = [f"w{i}" for i in range(20_000)]
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as gz:
            for i in range(190_000):
                w = rng.choice(20_000, 25)
                text = " ".join(vocab[x] for x in w[:12]) + ". " + " ".join(vocab[x] for x in w[12:])
                gz.write((json.dumps({"user": f"u{i % 95_000}", "text": text}) + "\n").encode())
        path.write_bytes(buf.getvalue())
    return path


def status(pid: int) -> dict[str, float]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        k, _, v = line.partition(":")
        if k in ("VmRSS", "VmHWM"):
            out[k] = int(v.split()[0]) / 1024
    return out


class Sampler:
    """VmRSS of ``pid`` every 0.1 s in a thread; ``peak`` since the last ``reset``."""

    def __init__(self, pid: int):
        self.pid, self.peak, self._stop = pid, 0.0, False
        self.t = threading.Thread(target=self._run, daemon=True)
        self.t.start()

    def _run(self):
        while not self._stop:
            self.peak = max(self.peak, status(self.pid)["VmRSS"])
            time.sleep(0.1)

    def reset(self):
        self.peak = status(self.pid)["VmRSS"]

    def stop(self):
        self._stop = True


def tabs_file(path: Path) -> Path:
    """90,000 users, 180,000 rows, ~2.0 M words from a 20,000-word vocabulary, as a gzipped CSV."""
    if not path.exists():
        import numpy as np

        rng = np.random.default_rng(1)
        vocab = [f"w{i}" for i in range(20_000)]
        buf = io.BytesIO()
        with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as gz:
            gz.write(b"user,text\n")
            for i in range(180_000):
                w = rng.choice(20_000, 11)
                text = " ".join(vocab[x] for x in w[:6]) + ". " + " ".join(vocab[x] for x in w[6:])
                gz.write(f"u{i % 90_000},{text}\n".encode())
        path.write_bytes(buf.getvalue())
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_idle(page, settle: float = 0.6, timeout: float = 1800):
    """Until the script has finished and stays finished for ``settle`` seconds (as tests/browser does)."""
    app = page.locator('[data-testid="stApp"]')
    deadline, quiet = time.time() + timeout, None
    while time.time() < deadline:
        if app.count() and app.get_attribute("data-test-script-state") == "notRunning":
            quiet = quiet or time.time()
            if time.time() - quiet >= settle:
                return
        else:
            quiet = None
        time.sleep(0.1)
    raise TimeoutError("the app kept running")


def upload_once(browser, url: str, proc_pid: int, sampler: Sampler, path: Path, hold: float, visit: tuple = ()) -> dict:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(900_000)
    page.goto(f"{url}/?corpus=upload")
    page.wait_for_selector('[data-testid="stSidebar"] input[type="file"]', state="attached")
    wait_idle(page)
    time.sleep(2)
    base = status(proc_pid)["VmRSS"]
    sampler.reset()
    t0 = time.perf_counter()
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(path))
    time.sleep(1.0)
    wait_idle(page, settle=1.5)
    seconds = time.perf_counter() - t0
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    visited = {}
    for name in visit:  # pages computed on the upload in the same session (their caches go with it)
        t1 = time.perf_counter()
        page.locator(".st-key-navigation a", has_text=name).first.click()
        time.sleep(1.0)
        wait_idle(page, settle=2.0)
        visited[name] = {
            "seconds": round(time.perf_counter() - t1, 1),
            "rss_MB": round(status(proc_pid)["VmRSS"]),
            "shows": page.locator('[data-testid="stMain"]').inner_text()[:120],
        }
    main = page.locator('[data-testid="stMain"]').inner_text() if page.locator('[data-testid="stMain"]').count() else ""
    peak = max(sampler.peak, status(proc_pid)["VmRSS"])
    answer = next((line for line in sidebar.splitlines() if "Could not use" in line or "Private data" in line), "")
    ctx.close()  # the uploader's tab closes: its session ends
    t_close = time.perf_counter()
    after = []
    while time.perf_counter() - t_close < hold:
        time.sleep(1.0)
        after.append((round(time.perf_counter() - t_close, 1), status(proc_pid)["VmRSS"]))
    return {
        "file": path.name,
        "file_MB": round(path.stat().st_size / 1e6, 2),
        "baseline_MB": round(base),
        "answer": answer[:300],
        "seconds_to_answer": round(seconds, 1),
        "peak_MB": round(peak),
        "rss_after_session_MB": {
            f"{s:g} s": round(r) for s, r in after if s in (5.0, 10.0, 20.0, 30.0) or s >= hold - 1
        },
        "main_area": main[:200],
        "pages_visited": visited,
    }


def start_server(work: Path, name: str = "server.log", env: dict | None = None):
    port = free_port()
    log = open(work / name, "w")
    # streamlit run, with dpui's INFO log lines (uploads given back, expired sessions shut down) in the log
    launcher = (
        "import logging, sys; logging.basicConfig(level=logging.WARNING); "
        "logging.getLogger('dpui').setLevel(logging.INFO); from streamlit.web.cli import main; "
        "sys.argv = ['streamlit'] + sys.argv[1:]; main()"
    )
    cmd = [sys.executable, "-c", launcher, "run", "app.py", "--server.port", str(port), "--server.address"]
    cmd += ["127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"]
    cmd += ["--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            time.sleep(0.2)
    return proc, url, log


def tabs_run(browser, work: Path, path: Path, order: str, gap: float, after: float, env: dict) -> dict:
    """One closing order on a fresh server (see the module's docstring)."""
    proc, url, log = start_server(work, f"server-{order}.log", env)
    try:
        tabs = {}
        for name in "CAB":
            ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            page.set_default_timeout(900_000)
            page.goto(f"{url}/?corpus=upload")
            page.wait_for_selector('[data-testid="stSidebar"] input[type="file"]', state="attached")
            wait_idle(page)
            tabs[name] = (ctx, page)
            if name == "C":
                time.sleep(5)
                start = status(proc.pid)["VmRSS"]
        answers = {}
        for name in "AB":
            page = tabs[name][1]
            page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(path))
            time.sleep(1.0)
            wait_idle(page, settle=1.5)
            sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
            answers[name] = next((x for x in sidebar.splitlines() if "Could not use" in x or "Private data" in x), "")
        held = status(proc.pid)["VmRSS"]
        steps = {}
        if order == "one-at-a-time":
            tabs["A"][0].close()
            time.sleep(gap)
            steps[f"{gap:g} s after A closed"] = round(status(proc.pid)["VmRSS"])
            tabs["B"][0].close()
            tabs["C"][0].close()
        else:
            for name in "ABC":
                tabs[name][0].close()
        t0, rss = time.perf_counter(), {}
        while time.perf_counter() - t0 < after:
            time.sleep(15.0)
            rss[f"+{round(time.perf_counter() - t0)} s"] = round(status(proc.pid)["VmRSS"])
        return {
            "order": order,
            "server_env": env,
            "file_MB": round(path.stat().st_size / 1e6, 2),
            "answers": answers,
            "start_MB": round(start),
            "both_held_MB": round(held),
            **steps,
            "after_last_tab_closed_MB": rss,
            "above_start_at_end_MB": round(status(proc.pid)["VmRSS"] - start),
            "loadavg": Path("/proc/loadavg").read_text().split()[:3],
        }
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()


def main_tabs(args, work: Path) -> None:
    from playwright.sync_api import sync_playwright

    path = tabs_file(work / "tabs_90k_users_2M_words.csv.gz")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        for order in args.orders:
            env = dict(kv.split("=", 1) for kv in args.env)
            print(json.dumps(tabs_run(browser, work, path, order, args.gap, args.after, env), indent=1), flush=True)
        browser.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tabs", action="store_true", help="the closing orders of issue 34 (see the docstring)")
    ap.add_argument("--orders", nargs="*", default=["one-at-a-time", "at-once"])
    ap.add_argument("--gap", type=float, default=12.0, help="--tabs: seconds between closing A and closing B, C")
    ap.add_argument("--after", type=float, default=60.0, help="--tabs: seconds watched after the last tab closes")
    ap.add_argument(
        "--env",
        nargs="*",
        default=["PYTHONMALLOC=malloc"],
        help="--tabs: the server's environment (KEY=VALUE; default as deploy/serve_class.py starts it; "
        "--env with nothing: Python's own small-object allocator)",
    )
    ap.add_argument("--skip-large", action="store_true")
    ap.add_argument("--hold", type=float, default=30.0, help="seconds to watch RSS after the tab closes")
    ap.add_argument("--repeat", type=int, default=3, help="uploads of the allowed file, one tab after the other")
    ap.add_argument(
        "--visit",
        nargs="*",
        default=[],
        help='pages to open on the upload (their titles in the sidebar), e.g. "DP n-gram extraction"',
    )
    ap.add_argument("--skip-hostile", action="store_true")
    ap.add_argument("--final-hold", type=float, default=150.0, help="seconds to wait after the last tab closes")
    args = ap.parse_args()
    work = Path(tempfile.gettempdir()) / "dpcore-bench-upload"
    work.mkdir(exist_ok=True)
    if args.tabs:
        return main_tabs(args, work)
    files = [] if args.skip_hostile else [hostile_file(work / "hi_there_5.3M.jsonl.gz")]
    if not args.skip_large:
        files.append(large_allowed_file(work / "allowed_95k_users.jsonl.gz"))
    port = free_port()
    log = open(work / "server.log", "w")
    # streamlit run, with dpui's INFO log lines (uploads given back, expired sessions shut down) in server.log
    launcher = (
        "import logging, sys; logging.basicConfig(level=logging.WARNING); "
        "logging.getLogger('dpui').setLevel(logging.INFO); from streamlit.web.cli import main; "
        "sys.argv = ['streamlit'] + sys.argv[1:]; main()"
    )
    cmd = [
        sys.executable,
        "-c",
        launcher,
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    results = []
    try:
        for _ in range(600):
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.2)
        from playwright.sync_api import sync_playwright

        sampler = Sampler(proc.pid)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            first = status(proc.pid)["VmRSS"]
            if args.visit:  # warm-up on the sample corpus: imports, compiled kernels, the sample's caches
                ctx = browser.new_context()
                page = ctx.new_page()
                page.set_default_timeout(900_000)
                page.goto(url)
                wait_idle(page)
                for name in args.visit:
                    page.locator(".st-key-navigation a", has_text=name).first.click()
                    time.sleep(1.0)
                    wait_idle(page, settle=2.0)
                ctx.close()
                time.sleep(10)
                print(json.dumps({"after_warm_up_on_the_sample_MB": round(status(proc.pid)["VmRSS"])}), flush=True)
            for f in files:
                for _ in range(1 if "hi_there" in f.name else args.repeat):
                    r = upload_once(
                        browser, url, proc.pid, sampler, f, args.hold, () if "hi_there" in f.name else tuple(args.visit)
                    )
                    results.append(r)
                    print(json.dumps(r, indent=1), flush=True)
            browser.close()
            t = time.perf_counter()  # Streamlit keeps a closed tab's session (and its uploaded file) for 2 minutes
            while time.perf_counter() - t < args.final_hold:
                time.sleep(5)
        sampler.stop()
        print(
            json.dumps(
                {
                    "server_before_any_page_MB": round(first),
                    f"server_rss_{args.final_hold:g}s_after_the_last_tab_MB": round(status(proc.pid)["VmRSS"]),
                    "server_VmHWM_MB": round(status(proc.pid)["VmHWM"]),
                    "loadavg": Path("/proc/loadavg").read_text().split()[:3],
                }
            )
        )
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()
        given_back = [line.strip() for line in (work / "server.log").read_text().splitlines() if "dpui" in line]
        print(json.dumps({"server_log_dpui": given_back[-20:]}, indent=1))


if __name__ == "__main__":
    main()
