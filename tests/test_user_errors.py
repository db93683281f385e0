"""Only dpcore's own errors for the user's input are shown as the user's mistake (issue 34).

Today: a damaged numba cache of the VIPS kernel raised ``UnicodeDecodeError`` (a ``ValueError``) inside dpcore
and the TopicDP page showed "⚠️ 'utf-8' codec can't decode byte 0x9c in position 395: invalid start byte" as if
the user had chosen something wrong. Now :func:`dpui.common.errors.user_errors` shows :class:`dpcore.errors.UserError`
messages (every check of dpcore that refuses a value raises it) and anything else as an internal error with a
short reference, logged with its traceback.
"""

from __future__ import annotations

import ast
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpcore.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
DECODE = UnicodeDecodeError("utf-8", b"\x9c", 395, 396, "invalid start byte")


def _page(kind: str):
    import streamlit as st

    import dpcore
    from dpui.common.errors import user_errors

    with user_errors():
        if kind == "user":
            dpcore.gaussian_sigma(epsilon=-1, delta=1e-5, sensitivity=1.0)
        elif kind == "decode":
            (b"\x00" * 395 + b"\x9c").decode("utf-8")
        elif kind == "value":
            float("not a number")
        else:
            {}["missing"]
    st.write("after the block")


@pytest.mark.parametrize("kind", ["user", "decode", "value", "key"])
def test_user_errors_shows_only_dpcore_user_errors_as_the_users_mistake(kind, caplog):
    at = AppTest.from_function(_page, args=(kind,), default_timeout=60)
    with caplog.at_level(logging.ERROR, logger="dpui.common.errors"):
        at.run()
    shown = " ".join(e.value for e in at.error)
    internal = " ".join(str(e.value) for e in at.exception)
    assert "after the block" not in " ".join(m.value for m in at.markdown)  # the run stopped either way
    if kind == "user":
        assert "epsilon must be > 0, got epsilon=-1" in shown and not at.exception
        assert not caplog.records
        return
    assert not at.error  # nothing is blamed on the user
    ref = re.search(r"Reference ([0-9a-f]{8})", internal)
    assert ref and "inside the app" in internal, internal
    for private in ("codec", "0x9c", "not a number", "missing"):  # the fault's own message stays in the log
        assert private not in internal
    logged = [r for r in caplog.records if ref.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None  # logged under the same reference, with its traceback


def test_a_unicode_decode_error_inside_the_vips_kernel_is_not_shown_as_a_user_input_error(
    tiny_topicdp, monkeypatch, caplog
):
    """The issue's case on the TopicDP page: the VIPS E-step raises what a damaged cache raised."""
    from topicdp_env import TINY_QUERY

    from dpcore.topicdp import vips_estep

    class Damaged:
        @staticmethod
        def person_word_statistics(*args, **kwargs):
            raise DECODE

    monkeypatch.setattr(vips_estep, "_kernel", lambda: Damaged)
    at = AppTest.from_file(str(ROOT / "pages" / "4_TopicDP.py"), default_timeout=600)
    for k, v in TINY_QUERY.items():
        at.query_params[k] = v
    with caplog.at_level(logging.ERROR, logger="dpui.common.errors"):
        at.run()
    shown = " ".join(e.value for e in at.error)
    internal = " ".join(str(e.value) for e in at.exception)
    assert "codec" not in shown and "codec" not in internal
    assert "inside the app" in internal and re.search(r"Reference [0-9a-f]{8}", internal)
    assert any(r.exc_info and r.exc_info[0] is UnicodeDecodeError for r in caplog.records)


# ------------------------------------------------------------------------------ every check raises UserError
PLUGIN_CHECK = """
import pytest

def test_a_plain_value_error_is_not_a_user_error():
    with pytest.raises(ValueError):
        int("x")
"""


def _run_under_plugin(*paths) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "user_error_plugin", "-p", "no:cacheprovider", *map(str, paths)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_the_plugin_fails_a_test_that_expects_a_plain_value_error(tmp_path):
    """tests/user_error_plugin.py can fail (else the next test would prove nothing)."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(PLUGIN_CHECK)
    out = _run_under_plugin(probe)
    assert out.returncode == 1 and "1 failed" in out.stdout, out.stdout[-2000:]


def test_every_value_error_the_bad_input_tests_expect_is_a_user_error():
    """tests/test_bad_input.py and tests/test_validation.py, with each pytest.raises(ValueError) asking for
    dpcore.errors.UserError: every bad value they try gets a message the app shows as the user's."""
    out = _run_under_plugin(ROOT / "tests" / "test_bad_input.py", ROOT / "tests" / "test_validation.py")
    assert out.returncode == 0, out.stdout[-4000:]


INTERNAL = {  # raise ValueError left in dpcore: checks of the code itself, never of a user's value
    "dpcore/_cache_files.py": "a cache payload must be",  # write_json's caller passed a wrong payload
    "dpcore/topicdp/model_cache.py": "not a topic-word matrix",  # a damaged cache file: caught, file discarded
    "dpcore/lab/exercises/_base.py": "",  # an exercise's definition (the authors' data)
    "dpcore/lab/exercises/__init__.py": "exercise ids must be unique",
    "dpcore/specs/base.py": "spec kind",  # a spec class registered twice
    "dpcore/lab/review_rules.py": "rule must be one of",  # a warning built with a rule name dpcore does not define
    "dpcore/text/synthetic_model.py": "GENRES lacks",  # the shipped real corpus against the generator's genre list
}


def test_every_value_error_dpcore_raises_is_a_user_error_or_a_listed_internal_check():
    """A new check of a user's value written as `raise ValueError(...)` would be shown as an internal error:
    this test names it (use dpcore.errors.UserError, or list it here as a check of the code)."""
    stray = []
    for path in sorted((ROOT / "dpcore").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        src = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                if getattr(node.exc.func, "id", "") == "ValueError":
                    text = ast.get_source_segment(src, node)
                    if rel not in INTERNAL or INTERNAL[rel] not in text:
                        stray.append(f"{rel}:{node.lineno}")
    assert not stray, stray


def test_dpcore_exception_classes_for_input_are_user_errors():
    import dpcore
    from dpcore.text import InputError

    assert issubclass(dpcore.CorpusError, UserError) and issubclass(InputError, UserError)
    assert issubclass(UserError, ValueError)  # `except ValueError` in callers keeps working
