"""Shared by tests/conftest.py and the app tests: the size of the stand-in for the paper-size corpus in fast tests,
``run_page`` (one AppTest run of a script with URL parameters, failing on an exception) and ``table4_shape`` (003
Table 4's shape, recomputed from rows of "<mechanism>, k = <k>" quantities).

(Kept out of conftest.py: with tests/browser/conftest.py on the path too, ``from conftest import …`` can
resolve to the browser one when the whole suite is collected.)
"""

PAPER_STAND_IN_USERS = {"private": 300, "public": 200}


def run_page(script: str, **params):
    """Run ``script`` (relative to the repository root) once in AppTest with ``params`` in the URL and its "Paper
    vs here" section open."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from dpui.common.paper_vs_here import OPEN_KEY

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / script), default_timeout=300)
    for k, v in params.items():
        at.query_params[k] = v
    at.session_state[f"{OPEN_KEY}_{Path(script).stem}"] = True  # "Paper vs here" is lazy (issue 29): opened
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def table4_shape(rows) -> bool:
    """003 Table 4's shape from comparison rows ({quantity, here}): DPNE above DPSU-all and -even for every
    k ≥ 3 and above DPSU-single for every k ≥ 5 (k = 1..9), written out here apart from dpcore's own check."""
    here = {r["quantity"]: r["here"] for r in rows}
    d, a, e, s = (
        [here[f"{m}, k = {k}"] for k in range(1, 10)] for m in ("DPNE", "DPSU-all", "DPSU-even", "DPSU-single")
    )
    return all(d[k] > max(a[k], e[k]) for k in range(2, 9)) and all(d[k] > s[k] for k in range(4, 9))


def table4_verdict_start(rows) -> str:
    """How a Table 4 verdict must begin, from its rows: "Shape reproduced" (``table4_shape``), "Shape partly
    reproduced" when every length that misses the shape is one where no mechanism releases a k-gram, else "Shape not
    reproduced"."""
    if table4_shape(rows):
        return "Shape reproduced"
    here = {r["quantity"]: r["here"] for r in rows}
    names = ("DPNE", "DPSU-all", "DPSU-even", "DPSU-single")
    d, a, e, s = ([here[f"{m}, k = {k}"] for k in range(1, 10)] for m in names)
    missed = {k for k in range(2, 9) if not d[k] > max(a[k], e[k])} | {k for k in range(4, 9) if not d[k] > s[k]}
    silent = {k for k in range(9) if d[k] == a[k] == e[k] == s[k] == 0}
    return "Shape partly reproduced" if missed <= silent else "Shape not reproduced"
