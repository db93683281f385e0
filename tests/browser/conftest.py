"""Start `streamlit run app.py` on a free port and drive Debian's Chromium with Playwright."""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]


def _need_browser():
    missing = []
    if not Path(CHROMIUM).exists():
        missing.append(CHROMIUM)
    try:
        import playwright  # noqa: F401 (imported only to see whether the optional package is installed)
    except ImportError:
        missing.append("playwright (pip install -e '.[test]')")
    if missing:
        msg = "browser tests need " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(msg + " — CI must run them (scripts/test.sh installs both)")
        pytest.skip(msg)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(env: dict | None = None):
    _need_browser()
    port = _free_port()
    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        "--server.fileWatcherType",
        "none",
    ]
    # Telemetry as shipped (.streamlit/config.toml), not switched off here: test_browser checks that no request
    # leaves the machine (tests/conftest.py switches it off for AppTest runs through the environment).
    base = {k: v for k, v in os.environ.items() if k != "STREAMLIT_BROWSER_GATHER_USAGE_STATS"}
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**base, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{Path(log.name).read_text()}")
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        else:
            raise RuntimeError(f"streamlit did not start in 60 s:\n{Path(log.name).read_text()}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def app_url():
    yield from _serve()


@pytest.fixture(scope="session")
def tiny_topicdp_url(_tiny_topicdp_dirs):
    """A second app whose sample data is the 40-user corpus of tests/topicdp_env.py, with TopicDP draws
    computed in this session (the shipped corpus's draws are not needed); open pages with TINY_QUERY."""
    data, cache = _tiny_topicdp_dirs
    yield from _serve({"DPCORE_SAMPLE_DATA": str(data), "DPCORE_TOPICDP_CACHE": str(cache)})


@pytest.fixture(scope="session")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(90_000)
    yield pg
    ctx.close()
