"""Shared by tests/conftest.py and the app tests: the size of the stand-in for the paper-size corpus in fast tests,
and ``run_page`` (one AppTest run of a script with URL parameters, failing on an exception).

(Kept out of conftest.py: with tests/browser/conftest.py on the path too, ``from conftest import …`` can
resolve to the browser one when the whole suite is collected.)
"""

PAPER_STAND_IN_USERS = {"private": 300, "public": 200}


def run_page(script: str, **params):
    """Run ``script`` (relative to the repository root) once in AppTest with ``params`` in the URL."""
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / script), default_timeout=300)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at
