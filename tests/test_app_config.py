"""The shipped Streamlit configuration (.streamlit/config.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_usage_statistics_are_off_in_the_shipped_config():
    """Issue 24 item 8: no telemetry. Read as Streamlit reads it when started from the repository (the
    test environment's STREAMLIT_BROWSER_GATHER_USAGE_STATS, set by tests/conftest.py, removed)."""
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["browser"]["gatherUsageStats"] is False
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    code = (
        "from streamlit import config; config.get_config_options(force_reparse=True); "
        "print(config.get_option('browser.gatherUsageStats'), config.get_where_defined('browser.gatherUsageStats'))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    value, where = out.stdout.split(maxsplit=1)
    assert value == "False", out.stdout
    assert where.strip() == str(ROOT / ".streamlit" / "config.toml"), out.stdout


def test_no_full_garbage_collection_after_every_rerun():
    """Issue 29: Streamlit's post-script gc.collect(2) walked the whole heap on every slider move (0.13-0.15 s
    per rerun on the real chat); the shipped config turns it off, read as Streamlit reads it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    code = "from streamlit import config; config.get_config_options(force_reparse=True); print(config.get_option('runner.postScriptGC'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout


def test_the_app_shortens_the_gil_switch_interval():
    """Issue 29: a script thread doing many short numpy calls waits up to the switch interval for the GIL after each
    while another thread runs Python (the event loop, another session's script); dpui sets it to 1 ms."""
    code = "import sys, dpui; from dpui.common.process import SWITCH_INTERVAL; print(sys.getswitchinterval(), SWITCH_INTERVAL)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    now, wanted = map(float, out.stdout.split())
    assert now == wanted == 0.001, out.stdout


def test_the_app_runs_one_blas_thread_per_server_process():
    """Issue 29: OpenBLAS's own threads, inside every session's script thread, waited for descheduled cores (the
    session budget's convolution 10-40x slower in the server while a browser drew). dpui limits BLAS to one thread;
    dpcore alone keeps numpy's default."""
    code = (
        "import threadpoolctl, dpcore; before = [p['num_threads'] for p in threadpoolctl.threadpool_info() "
        "if p['user_api'] == 'blas']; import dpui; after = [p['num_threads'] for p in "
        "threadpoolctl.threadpool_info() if p['user_api'] == 'blas']; print(max(before), max(after))"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    before, after = map(int, out.stdout.split())
    assert after == 1, out.stdout
    assert before == (os.cpu_count() or 1) or before > 1, out.stdout  # dpcore alone leaves numpy's default
