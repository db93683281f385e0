"""Serve the app to a class: several Streamlit processes behind one address (nginx, sticky per browser).

One Streamlit process runs every session's script on one core at a time (Python's GIL), so a room that moves
a slider together queues behind one core. This starts ``--processes`` servers (default: one per core) on
local ports and nginx in front of them on ``--port``; a browser keeps its process for the whole session
(a cookie, see nginx-class.conf.template). Each process has its own caches: memory grows with the number of
processes, and each process renders a page cold once (this script opens every page once on every process
before it opens the address, and the first moves ε through its grid on DP n-gram extraction; `--no-warm` skips
that, `--no-warm-grid` the grid). The default seed's releases there are kept on disk (dpui.common.disk_cache), so the
first process draws the grid once and every process reads it: a lecture's shared-seed moves are then disk or
memory hits on every process.

    apt-get install nginx-light            # Debian; any nginx >= 1.18
    python3 deploy/serve_class.py                       # http://0.0.0.0:8501, one process per core
    python3 deploy/serve_class.py --processes 3 --port 8080 --address 127.0.0.1

Ctrl-C stops nginx and every process. The servers get the settings of .streamlit/config.toml (usage
statistics off, upload cap) plus headless mode and no file watcher, and run with ``PYTHONMALLOC=malloc``
(:data:`SERVER_ENV`): an upload's memory then goes back to the system whatever order its tabs close in.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

SERVER_ENV = {"PYTHONMALLOC": "malloc"}
"""The servers' environment (issue 34). Python's small-object allocator keeps a 1 MiB arena while one object
in it lives: a parsed upload's millions of small objects, given back while other sessions kept allocating,
left their arenas pinned (RSS +123 MB with two uploads closed one at a time, +133 MB at once). glibc's
malloc, trimmed after each give-back (dpui.common.uploads), returns them page by page (+13 MB one at a time, +22 MB at once): see
``benchmarks/bench_upload.py --tabs``."""
ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx-class.conf.template"
STREAMLIT_FLAGS = [
    "--server.headless",
    "true",
    "--server.fileWatcherType",
    "none",
    "--browser.gatherUsageStats",
    "false",
    "--server.address",
    "127.0.0.1",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def max_upload_mb() -> int:
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    return int(config.get("server", {}).get("maxUploadSize", 200))


def nginx_config(*, ports: list[int], address: str, port: int, run_dir: Path) -> str:
    """The nginx configuration for these local Streamlit ports (the template with its fields filled in)."""
    servers = "\n".join(f"        server 127.0.0.1:{p} max_fails=0;" for p in ports)
    fields = {
        "servers": servers,
        "address": address,
        "port": port,
        "run_dir": run_dir,
        "max_upload_mb": max_upload_mb() + 1,
    }
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in fields.items():
        text = text.replace("{{" + name + "}}", str(value))
    missing = re.findall(r"\{\{(\w+)\}\}", text)
    if missing:
        raise ValueError(f"{TEMPLATE.name} has fields no value is given for: {missing}")
    return text


def wait_healthy(port: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    import urllib.request

    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"streamlit on port {port} exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"streamlit on port {port} did not answer /_stcore/health within {timeout:.0f} s")


GRID_PAGES = ("DP_ngram_extraction",)
"""The pages whose default-seed releases are kept on disk (dpui.common.disk_cache): the warm-up moves ε through its grid
there, on the first process only. Sweeping every page on every process kept each process's in-memory caches full
(RSS after warm-up 4.65 GB for two processes on the chat instead of ~1.8 GB) for no gain in another process."""


def warm(ports: list[int], timeout: float = 300, *, grid: bool = True) -> None:
    """Open every page once on every process (default settings), so that no student waits for a cold cache; with
    ``grid``, the first process also moves ε through its whole grid on :data:`GRID_PAGES` (the default seed: what
    a lecture shares). The releases it draws there are kept on disk (dpui.common.disk_cache, never private-mode noise), so
    every process reads them on its first move to that ε instead of drawing them again. Uses the Streamlit protocol
    client of benchmarks/bench_classroom.py (a session is one websocket, as a tab)."""
    import asyncio

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from _stbench import app_pages
    from bench_classroom import Session

    async def one(port: int, path: str, sweep: bool = False) -> str:
        session = Session(f"ws://127.0.0.1:{port}/_stcore/stream", path, "", timeout)
        try:
            seconds = await session.open()
            line = f"{seconds:.1f} s"
            if sweep and "eps" in session.widgets:
                t0 = time.perf_counter()
                for value in session.options("eps"):
                    await session.move("eps", value)
                line += f" + ε grid {time.perf_counter() - t0:.1f} s"
            return line + (f" ({'; '.join(session.errors)})" if session.errors else "")
        except Exception as e:  # noqa: BLE001 - a page that fails to warm is reported, the class can still start
            return f"failed: {e}"
        finally:
            await session.close()

    async def process(port: int, sweep: bool) -> list[str]:
        pages = app_pages()
        return [
            f"{p.url_path or 'Home'} {await one(port, p.url_path, sweep and p.url_path in GRID_PAGES)}" for p in pages
        ]

    async def every_process() -> list[list[str]]:
        return await asyncio.gather(*(process(p, grid and i == 0) for i, p in enumerate(ports)))

    for port, lines in zip(ports, asyncio.run(every_process())):
        print(f"warmed :{port}: " + ", ".join(lines), flush=True)


def public_url(given: str | None, *, address: str, port: int) -> str:
    """The address the exercise sheets' links point to (the app reads it as DPCORE_PUBLIC_URL): ``given``, else
    this machine's name when nginx listens on every interface, else the address nginx listens on."""
    if given:
        return given.rstrip("/")
    if address in ("0.0.0.0", "::"):
        host = socket.getfqdn() or socket.gethostname() or "localhost"
    elif address.startswith("127."):
        host = "localhost"
    else:
        host = address
    return f"http://{host}:{port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--processes",
        type=int,
        default=os.cpu_count() or 1,
        help="Streamlit processes (default: one per core, %(default)s here)",
    )
    parser.add_argument("--port", type=int, default=8501, help="the address's port (default %(default)s)")
    parser.add_argument("--address", default="0.0.0.0", help="the address nginx listens on (default %(default)s)")
    parser.add_argument(
        "--public-url",
        default=None,
        help="the address students open, for the exercise sheets' links (default: http://<this machine's name>:<port>; "
        "http://localhost:<port> with --address 127.0.0.1)",
    )
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx", help="the nginx binary")
    parser.add_argument("--no-warm", action="store_true", help="do not open every page once on every process first")
    parser.add_argument(
        "--no-warm-grid",
        action="store_true",
        help="warm up without moving ε through its grid (the default seed's releases, shared on disk)",
    )
    parser.add_argument("--print-config", action="store_true", help="print the nginx configuration and exit")
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error(f"--processes must be >= 1, got --processes={args.processes}")
    if not args.print_config and not Path(args.nginx).exists():
        parser.error(f"nginx not found at {args.nginx}: apt-get install nginx-light (or pass --nginx PATH)")

    ports = [free_port() for _ in range(args.processes)]
    run_dir = Path(tempfile.mkdtemp(prefix="dp-class-"))
    config = run_dir / "nginx.conf"
    config.write_text(nginx_config(ports=ports, address=args.address, port=args.port, run_dir=run_dir))
    if args.print_config:
        print(config.read_text())
        shutil.rmtree(run_dir, ignore_errors=True)
        return 0

    procs: list[subprocess.Popen] = []

    def stop(*_):
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(run_dir, ignore_errors=True)

    signal.signal(signal.SIGTERM, lambda *_: (stop(), sys.exit(0)))
    env = {
        **os.environ,
        **SERVER_ENV,
        "DPCORE_PUBLIC_URL": public_url(args.public_url, address=args.address, port=args.port),
    }
    try:
        for p in ports:  # the same interpreter as this script: its packages are the app's
            procs.append(
                subprocess.Popen(
                    [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(p), *STREAMLIT_FLAGS],
                    cwd=ROOT,
                    env=env,
                )
            )
        for p, proc in zip(ports, procs):
            wait_healthy(p, proc)
        if not args.no_warm:
            warm(ports, grid=not args.no_warm_grid)
        nginx = subprocess.Popen([args.nginx, "-c", str(config), "-p", str(run_dir), "-g", "daemon off;"])
        procs.append(nginx)
        host = "localhost" if args.address in ("0.0.0.0", "127.0.0.1") else args.address
        print(
            f"serving {args.processes} Streamlit processes (ports {', '.join(map(str, ports))}) at "
            f"http://{host}:{args.port}  (nginx pid {nginx.pid}; Ctrl-C stops all)",
            flush=True,
        )
        while all(p.poll() is None for p in procs):
            time.sleep(1)
        return next(p.returncode for p in procs if p.poll() is not None) or 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
