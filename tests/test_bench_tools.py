"""The hand-run benchmarks start (benchmarks/bench_browser.py, bench_classroom.py), and the websocket client of
bench_classroom.py renders a page and reruns it after a slider move as the browser does. No timings are checked."""

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))


@pytest.mark.parametrize("script", ["bench_browser.py", "bench_classroom.py"])
def test_help_runs(script):
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage:") and "--json" in out.stdout


def test_slider_steps_bounce_at_the_ends():
    from bench_browser import directions

    # 32 options (ε grid), at index 16: 15 steps of room to the right, 16 to the left → left
    assert directions({"min": 0, "max": 31, "step": 1, "value": 16}, 3) == [-1, -1, -1]
    # 8 options at index 6: one step right is left, then it must bounce back
    assert directions({"min": 0, "max": 7, "step": 1, "value": 6}, 4) == [-1, -1, -1, -1]
    assert directions({"min": 0, "max": 2, "step": 1, "value": 1}, 4) == [1, -1, -1, 1]
    # a float slider 0.01 … 0.30 by 0.01 at 0.10: more room to the right
    assert directions({"min": 0.01, "max": 0.30, "step": 0.01, "value": 0.10}, 2) == [1, 1]


@pytest.mark.slow
def test_protocol_client_renders_a_page_and_reruns_after_a_slider_move():
    from _stbench import Server
    from bench_classroom import Session

    async def run(srv):
        s = Session(srv.ws_url, "Mechanisms_101", "seed=3", timeout=300)
        try:
            await s.open()
            assert s.errors == []
            assert s.current("eps") == "1"
            before = s.main_metrics()
            assert before, "no metric rendered"
            await s.move("eps", "2")
            after = s.main_metrics()
            assert s.errors == []
            # the page reran with ε = 2: Mechanisms 101 shows ε and b = 1/ε as metrics
            assert "2" in after and "0.5" in after and after != before
        finally:
            await s.close()

    # a thread of its own: an earlier test (Playwright's sync API) may have left an event loop running in this one
    errors = []

    def in_thread(srv):
        try:
            asyncio.run(run(srv))
        except BaseException as exc:  # handed back to the test's thread below
            errors.append(exc)

    with Server() as srv:
        worker = threading.Thread(target=in_thread, args=(srv,))
        worker.start()
        worker.join()
    if errors:
        raise errors[0]
