"""What bench_browser.py and bench_classroom.py share: a `streamlit run` server on a free port, the RSS of its
process tree, the list of pages and the query string of a run. Not a benchmark itself.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SERVER_FLAGS = [
    "--server.headless",
    "true",
    "--browser.gatherUsageStats",
    "false",
    "--server.fileWatcherType",
    "none",
    "--server.address",
    "127.0.0.1",
]


def loadavg() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def git_describe() -> str:
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%h %s"], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
        branch = subprocess.run(
            ["git", "rev-parse", "--abbrev-ref", "HEAD"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
        return f"{branch.stdout.strip()} @ {out.stdout.strip()[:70]}"
    except OSError:
        return "?"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ------------------------------------------------------------------------------ the server
class Server:
    """`python -m streamlit run <script>` on a free port in its own process group (started here, stopped here).

    ``with Server() as srv: srv.url …``; the log goes to a temporary file (``srv.log``), shown when it fails.
    """

    def __init__(
        self,
        script: str | Path = "app.py",
        cwd: Path = ROOT,
        env: dict | None = None,
        extra_args: list[str] | None = None,
        start_timeout: float = 120.0,
    ):
        self.script, self.cwd, self.env = str(script), Path(cwd), env or {}
        self.extra_args, self.start_timeout = extra_args or [], start_timeout
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.log = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/_stcore/stream"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        self.port = free_port()
        log = tempfile.NamedTemporaryFile(prefix="bench-streamlit-", suffix=".log", delete=False)
        self.log = log.name
        cmd = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            self.script,
            "--server.port",
            str(self.port),
            *SERVER_FLAGS,
            *self.extra_args,
        ]
        env = {**os.environ, "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false", **self.env}
        self.proc = subprocess.Popen(
            cmd, cwd=self.cwd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
        deadline = time.time() + self.start_timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{Path(self.log).read_text()[-3000:]}")
            try:
                if urllib.request.urlopen(self.url + "/_stcore/health", timeout=2).read() == b"ok":
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(
            f"streamlit did not answer in {self.start_timeout:.0f} s:\n{Path(self.log).read_text()[-3000:]}"
        )

    def stop(self) -> None:
        """Stop the server and whatever it started (its own process group, by the id of the process started here)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        except ProcessLookupError:
            pass

    def rss_bytes(self) -> int:
        return tree_rss_bytes(self.pid)


class RunningServer:
    """A server this script did not start (``--url``, e.g. a proxy in front of several Streamlit processes): not
    started or stopped here; its RSS is the sum over the process trees of ``pids`` (0 when none are given)."""

    def __init__(self, url: str, pids: list[int] | None = None):
        self.url, self.pids = url.rstrip("/"), pids or []
        self.ws_url = self.url.replace("http", "ws", 1) + "/_stcore/stream"

    def __enter__(self) -> RunningServer:
        if urllib.request.urlopen(self.url + "/_stcore/health", timeout=10).read() != b"ok":
            raise RuntimeError(f"{self.url} does not answer /_stcore/health with ok")
        return self

    def __exit__(self, *exc) -> None:
        pass

    def rss_bytes(self) -> int:
        return sum(tree_rss_bytes(p) for p in self.pids)


def tree_rss_bytes(pid: int) -> int:
    """Resident set size of ``pid`` and all its descendants (sum of VmRSS from /proc; shared pages counted once
    per process, as `ps` would)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(d.name))
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        todo.extend(children.get(p, []))
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
                    break
        except OSError:
            pass
    return total


# ------------------------------------------------------------------------------ memory
class RssSampler(threading.Thread):
    """The server tree's RSS every ``interval`` seconds, with the phase it was taken in."""

    def __init__(self, server, interval: float = 0.5):
        super().__init__(daemon=True)
        self.server, self.interval = server, interval
        self.phase = "start"
        self.samples: list[tuple[float, str, int]] = []
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.is_set():
            with contextlib.suppress(OSError):  # the server went away between two reads of /proc
                self.samples.append((time.time(), self.phase, self.server.rss_bytes()))
            self._halt.wait(self.interval)

    def stop(self) -> None:
        self._halt.set()
        self.join()

    def in_phases(self, *phases: str) -> list[int]:
        return [r for _, p, r in self.samples if p in phases]


# ------------------------------------------------------------------------------ pages and the query string
@dataclass(frozen=True)
class AppPage:
    url_path: str  # "" for the home page, "Mechanisms_101" …: what follows the server's address
    title: str


def app_pages() -> list[AppPage]:
    """Home, then every page of pages/ (titles from dpui.common.navigation when it knows them)."""
    titles: dict[str, str] = {}
    try:
        from dpui.common.navigation import HOME, available_pages

        titles = {p.url_path.lstrip("/"): p.title for p in (HOME, *available_pages())}
    except Exception:  # noqa: BLE001 - another branch's navigation: fall back to the file names
        titles = {}
    names = [""] + sorted((p.stem for p in (ROOT / "pages").glob("[0-9]*_*.py")), key=lambda s: int(s.split("_")[0]))
    out = []
    for stem in names:
        url = stem.split("_", 1)[1] if stem else ""
        out.append(AppPage(url, titles.get(url, url.replace("_", " ") or "Home")))
    return out


def select_pages(wanted: list[str] | None, pages: list[AppPage] | None = None) -> list[AppPage]:
    """Pages by URL path or title ("Home" or "" for the home page), in the order given."""
    pages = pages if pages is not None else app_pages()
    if not wanted:
        return pages
    out = []
    for w in wanted:
        hit = [p for p in pages if w in (p.url_path, p.title) or (w.lower() == "home" and p.url_path == "")]
        if not hit:
            raise SystemExit(f"unknown page {w!r}; choose from {[p.url_path or 'Home' for p in pages]}")
        out.append(hit[0])
    return out


def build_query(query: str = "", corpus: str | None = None) -> str:
    """The query string every page is opened with: ``query`` as given, plus ``corpus`` put where this branch's
    sidebar reads it (``corpus=<value>`` when that is a corpus choice, else ``size=<value>`` when that is a sample
    size, as on main today: ``--corpus paper`` → ``size=paper``; on a branch whose corpus choice lists paper →
    ``corpus=paper``)."""
    params = dict(parse_qsl(query.lstrip("?"), keep_blank_values=True))
    if corpus:
        from dpui.common.sidebar import SHARED_SETTINGS

        for key in ("corpus", "size"):
            setting = SHARED_SETTINGS.get(key)
            if setting is not None and setting.parse(corpus) is not None:
                params[key] = corpus
                break
        else:
            raise SystemExit(
                f"--corpus {corpus!r} is neither a corpus choice nor a sample size of this branch's "
                f"sidebar; pass the query string with --query instead"
            )
    return urlencode(params)


def with_params(query: str, **params) -> str:
    q = dict(parse_qsl(query, keep_blank_values=True))
    q.update({k: str(v) for k, v in params.items()})
    return urlencode(q)


def percentile(xs: list[float], q: float) -> float:
    """The q-th percentile (0–100) with linear interpolation, as numpy's default."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    pos = (len(s) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def fmt_s(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "—"
    return f"{x:.2f} s" if x < 10 else f"{x:.1f} s"


def _proc_stat(pid: int) -> tuple[int, str, float] | None:
    """(parent pid, command name, CPU seconds user + system) of a process, or None when it is gone."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = raw[raw.index("(") + 1 : raw.rindex(")")]
    fields = raw[raw.rindex(")") + 2 :].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[1]), name, (int(fields[11]) + int(fields[12])) / ticks


def browser_cpu_seconds(root: int | None = None) -> float:
    """CPU seconds (user + system) used so far by every Chromium process started below ``root`` (default: this
    process, whose Playwright driver starts the browser): renderer, GPU and browser processes together. Sampled
    before and after a slider move it gives the browser's CPU for that move (issue 29: Plotly's drawing)."""
    root = os.getpid() if root is None else root
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _proc_stat(int(entry.name))
            if st is not None:
                stats[int(entry.name)] = st
    children: dict[int, list[int]] = {}
    for pid, (ppid, _, _) in stats.items():
        children.setdefault(ppid, []).append(pid)
    total, todo = 0.0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        _, name, cpu = stats[pid]
        if "chrom" in name.lower():
            total += cpu
        todo += children.get(pid, [])
    return total
