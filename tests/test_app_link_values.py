"""Link values, one rule (issue 34): every page, each bad link value, one message and a clean URL.

Today: ``?seed=-5`` or ``?seed=99999999999999999999`` silently showed seed 0 and dropped the value; ``?seed=٣``
(an Arabic-Indic 3) was accepted and kept; ``_seed_from_url`` used ``str.isdigit``, which accepts "²"; an
out-of-range ``dpne_*`` value was dropped without a word. Now every link value goes through
:func:`dpui.common.link_values.parse_number` / the widget's own choices, and each one not used gets
"🔗 The link asks for key=value, which this page cannot show (…); showing key=… instead." and leaves the URL.
The page knobs are found on the page itself (every widget bound to the URL), so a new knob is covered.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpui.common import link_values
from dpui.common.sidebar import MAX_SEED

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    "app.py",
    "pages/1_Mechanisms_101.py",
    "pages/2_Bayesian_ngram_DP.py",
    "pages/3_DP_ngram_extraction.py",
    "pages/4_TopicDP.py",
    "pages/5_Privacy_audit.py",
]
BAD_SEEDS = ["-5", "99999999999999999999", "٣", "²"]
WIDGETS = ("slider", "number_input", "select_slider", "radio", "selectbox", "checkbox", "toggle", "multiselect")


# ------------------------------------------------------------------------------ the parser
@pytest.mark.parametrize(
    "raw, integer, low, high, value",
    [
        ("7", True, 0, MAX_SEED, 7),
        ("0", True, 0, MAX_SEED, 0),
        (str(MAX_SEED), True, 0, MAX_SEED, MAX_SEED),
        (str(MAX_SEED + 1), True, 0, MAX_SEED, None),
        ("-5", True, 0, MAX_SEED, None),
        ("-5", True, None, None, -5),
        ("99999999999999999999", True, 0, MAX_SEED, None),
        ("٣", True, None, None, None),  # Arabic-Indic 3: int("٣") == 3, but not the ASCII digits
        ("²", True, None, None, None),  # "²".isdigit() is True
        ("３", True, None, None, None),  # fullwidth 3
        ("+3", True, None, None, None),
        (" 3", True, None, None, None),
        ("3 ", True, None, None, None),
        ("1_000", True, None, None, None),
        ("3.0", True, None, None, None),
        ("", True, None, None, None),
        ("0.1", False, 0, 1, 0.1),
        ("1e-05", False, 0, 1, 1e-05),
        (".5", False, None, None, 0.5),
        ("1e999", False, None, None, None),
        ("nan", False, None, None, None),
        ("inf", False, None, None, None),
        ("٠.٥", False, None, None, None),
        ("2", False, 0, 1, None),
    ],
)
def test_parse_number_takes_ascii_digits_within_the_range_only(raw, integer, low, high, value):
    got = link_values.parse_number(raw, integer=integer, low=low, high=high)
    assert got == value and (value is None or type(got) is (int if integer else float))


def test_the_message_quotes_the_value_as_text():
    msg = link_values.link_message("seed", "![](http://x.invalid/a.png)", 0, "a rule")
    assert msg.startswith("The link asks for seed=") and msg.endswith("showing seed=0 instead.")
    assert "![](http" not in msg  # escaped (dpui.common.errors.user_value)


# ------------------------------------------------------------------------------ every page, every knob
def _bound_widgets(at) -> list:
    """The widgets of a run bound to the URL (their proto names the query parameter)."""
    out = []
    for kind in WIDGETS:
        for w in getattr(at, kind):
            if getattr(w.proto, "query_param_key", "") and w.key:
                out.append((kind, w))
    return out


def _bad(kind: str, w, variant: int) -> str:
    """A value the widget ``w`` cannot show: out of range, non-ASCII digits, not a choice, not a bool."""
    if kind in ("checkbox", "toggle"):
        return ["maybe", "yes", "٣", "TRUE!"][variant % 4]
    if kind in ("slider", "number_input"):
        lo, hi = w.min, w.max
        integer = isinstance(w.value, int) if not isinstance(w.value, (list, tuple)) else isinstance(w.value[0], int)
        above = (hi + 1 if integer else hi * 2 + 1) if hi is not None and math.isfinite(hi) else None
        below = (lo - 1 if integer else lo - 1.5) if lo is not None and math.isfinite(lo) else None
        options = [v for v in (above, below) if v is not None]
        return [
            str(options[0]) if options else "٣",
            "٣",
            "²",
            str(options[-1]) if options else "²",
        ][variant % 4]
    return ["no-such-choice", "٣", "²", "no such"][variant % 4]


def _run(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=900)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _check(at, asked: dict) -> None:
    """One 🔗 message per refused key, each in the one form; none of them left in the URL."""
    link = [w for w in at.warning if w.value.startswith("The link asks for ")]
    for key, raw in asked.items():
        mine = [w for w in link if w.value.startswith(f"The link asks for {key}=")]
        assert len(mine) == 1, (key, raw, [w.value for w in link])
        assert "which this page cannot show (" in mine[0].value and f"showing {key}=" in mine[0].value
        assert mine[0].value.endswith("instead.") and mine[0].icon == "🔗"
        assert key not in at.query_params, (key, dict(at.query_params))  # a clean URL
    assert len(link) == len(asked), [w.value for w in link]


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_every_page_says_so_for_each_bad_link_value_and_cleans_the_url(page):
    """``?seed=`` each bad value; with it, every knob the page draws bound to the URL, set to a value it
    cannot show (out of range, non-ASCII digits, superscript, not a choice)."""
    first = _run(page, {"seed": BAD_SEEDS[0]})
    _check(first, {"seed": BAD_SEEDS[0]})
    knobs = {w.key: (kind, w) for kind, w in _bound_widgets(first) if w.key != "seed"}
    if page != "app.py":
        assert knobs, page  # the scan finds the page's knobs (else this test would check only the seed)
    for variant, seed in enumerate(BAD_SEEDS[1:], start=1):
        asked = {"seed": seed, **{key: _bad(kind, w, variant) for key, (kind, w) in knobs.items()}}
        at = _run(page, asked)
        _check(at, asked)


def test_a_good_link_value_is_kept_and_says_nothing():
    at = _run("pages/1_Mechanisms_101.py", {"seed": "7", "eps": "3.5"})
    assert not [w for w in at.warning if w.value.startswith("The link asks for ")]
    assert at.session_state["seed"] == 7 and at.query_params["seed"] == "7"
