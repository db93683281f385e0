"""Settings of the server process the app runs in (issue 29), applied once when the pages import :mod:`dpui`.

A Streamlit server runs every session's script as a thread of one process, beside the event loop that sends the
pages' messages; these settings keep those threads from waiting on each other. dpcore alone (a notebook, the
command line) keeps Python's and numpy's defaults.
"""

from __future__ import annotations

import sys

from threadpoolctl import threadpool_limits

SWITCH_INTERVAL = 0.001
"""Seconds a Python thread may hold the GIL while another waits (the interpreter's default is 0.005). A script doing
many short numpy calls gives the GIL back at each and then waits up to the interval to get it back while another
thread runs Python (the "convoy effect"). Measured: the session budget's convolution took 10 ms alone, 100 ms beside
one busy Python thread at 0.005 s and 35 ms at 0.001 s; a class of 10 on one process, all moving ε at once, p95
0.74 -> 0.62 s (benchmarks/bench_classroom.py)."""

BLAS_THREADS = 1
"""BLAS threads per server process. numpy's OpenBLAS starts its own threads for a vector product and waits for them;
when the cores are busy (the other sessions, or a browser on the same machine) each such product waits for a
descheduled thread. Measured: the session budget's convolution (6 evaluations, two dot products each over 20k points)
took 6-30 ms alone and 155-266 ms in the server during a TopicDP ε move while the browser drew; with one BLAS
thread 13-44 ms. The app's arrays are small enough that one thread loses nothing."""


def tune_process() -> None:
    """Apply :data:`SWITCH_INTERVAL` and :data:`BLAS_THREADS` to this process (idempotent)."""
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)
    threadpool_limits(limits=BLAS_THREADS, user_api="blas")
