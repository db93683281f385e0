"""Link values, one rule (issue 34): every value a link gives a setting goes through :func:`parse_number`
(or the widget's list of choices), and a value the page cannot show gets the same message and leaves the URL.

Before: ``?seed=-5`` and ``?seed=99999999999999999999`` silently showed seed 0 and dropped the value;
``?seed=٣`` (an Arabic-Indic 3) was accepted and kept (Python's ``int`` reads any Unicode digit);
``"²".isdigit()`` is True; an out-of-range ``dpne_*`` value was dropped without a word; only ε and δ said so.

Now every page knob bound to the URL (``**IN_URL``) and every shared setting is read by one rule:

* a number is ASCII: an optional ``-``, the digits 0–9, for a real number an optional ``.`` and exponent
  (:func:`parse_number`); no other digit, sign, space or separator;
* the widget must take it as it is: a value the widget would clamp (out of range), round or not offer is
  refused (never silently replaced by a neighbour);
* a refused value leaves the address bar (a clean URL), and the page says once, in the main area,
  "🔗 The link asks for key=value, which … ; showing key=shown instead." (:func:`link_message`).

How: Streamlit 1.67 seeds every ``bind="query-params"`` widget from the link in one method,
``SessionState._seed_widget_from_url``; :func:`install` wraps it (once per process) with this rule. If that
private method is ever renamed, the wrapper is not installed and Streamlit's own handling stays (the
tests of tests/test_app_link_values.py then fail and say so). Hidden shared settings (no widget on the page)
are read with the same parser by :mod:`dpui.common.sidebar`. Messages raised while the sidebar is drawn wait for
:func:`show` (called by ``shared_sidebar`` once its widgets are drawn); later ones (the page's knobs) go
straight into the box it opened.
"""

from __future__ import annotations

import math
import re
import threading

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpui.common.errors import user_value

__all__ = ["parse_number", "link_message", "report", "begin_run", "show", "install", "RULES"]

_INT = re.compile(r"-?[0-9]+")
_REAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_NUMERIC_TYPES = {"int_value": True, "double_value": False, "int_array_value": True, "double_array_value": False}
RULES: dict[str, str] = {}
"""A URL key's rule in words (the shared settings register theirs); other keys get one from their widget."""


def parse_number(raw: str, *, integer: bool, low: float | None = None, high: float | None = None):
    """The number a link value writes, or None: ASCII digits only (an optional leading ``-``; for a real
    number an optional decimal point and exponent), finite, within [low, high] when given."""
    if not isinstance(raw, str) or not (_INT if integer else _REAL).fullmatch(raw):
        return None
    v = int(raw) if integer else float(raw)
    if not integer and not math.isfinite(v):
        return None
    if (low is not None and v < low) or (high is not None and v > high):
        return None
    return v


def _shown_text(v) -> str:
    if isinstance(v, (list, tuple)) and len(v) == 1:
        v = v[0]
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def link_message(key: str, raw, shown, rule: str | None = None) -> str:
    """The one message for a link value that is not used (plain text; ``raw`` is quoted and escaped)."""
    rule = rule or RULES.get(key) or "not a value this setting takes"
    return (
        f"The link asks for {key}={user_value(raw, 40)}, which this page cannot show ({rule}); "
        f"showing {key}={user_value(_shown_text(shown), 40)} instead."
    )


# ------------------------------------------------------------------------------ where the messages go
_RUN = threading.local()  # per script thread: (the run's cursors, pending messages, the box once drawn)


def _this_run():
    ctx = get_script_run_ctx()
    cursors = getattr(ctx, "cursors", None)
    if getattr(_RUN, "cursors", None) is not cursors or cursors is None:
        _RUN.cursors, _RUN.pending, _RUN.box, _RUN.seen = cursors, [], None, set()
    return _RUN


def begin_run() -> None:
    """Start this run's list of messages (``shared_sidebar`` calls it first)."""
    _this_run()


def report(key: str, raw, shown, rule: str | None = None) -> None:
    """Say that the link's ``key=raw`` is not used and ``shown`` is (once per run and key)."""
    run = _this_run()
    if key in run.seen:
        return
    run.seen.add(key)
    message = link_message(key, raw, shown, rule)
    if run.box is not None:
        run.box.warning(message, icon="🔗")
    else:
        run.pending.append(message)


def show(extra: list[str] = ()) -> None:
    """Draw the messages so far (and ``extra`` ones, e.g. about a legacy link) in a box in the main area,
    which takes the later ones of this run too."""
    run = _this_run()
    run.box = st.container()
    for message in [*extra, *run.pending]:
        run.box.warning(message, icon="🔗")
    run.pending = []


# ------------------------------------------------------------------------------ the widgets' link values
def _wire(metadata, value):
    """A widget value as its link writes it (one element of a one-element list)."""
    try:
        s = metadata.serializer(value)
    except Exception:  # noqa: BLE001 — a serializer that cannot write the value: compare as text
        s = value
    if isinstance(s, (list, tuple)) and len(s) == 1:
        s = s[0]
    return s


def _same(a, b) -> bool:
    """Whether two wire values are equal (numbers by value, 0.10 = 0.1; true/false in any case; else as text)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return str(a).lower() == str(b).lower()
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def _ascii_numbers(raw, value_type: str) -> bool:
    """A numeric widget's link value follows :func:`parse_number`'s rule (an option's label is not checked
    here: a select_slider of labels matches them itself)."""
    if value_type not in _NUMERIC_TYPES:
        return True
    parts = raw if isinstance(raw, list) else [raw]
    integer = _NUMERIC_TYPES[value_type]
    for part in parts:
        looks_numeric = any(c.isdigit() or c.isnumeric() for c in part) or part.strip().startswith(("-", "+"))
        if looks_numeric and parse_number(part, integer=integer) is None:
            return False
    return True


def _rule_for(metadata) -> str:
    if metadata.value_type in ("int_value", "int_array_value"):
        return "a whole number written with the digits 0–9, within the setting's range"
    if metadata.value_type in ("double_value", "double_array_value") and metadata.formatted_options is None:
        return "a number written with the digits 0–9, within the setting's range"
    return "not one of this setting's choices"


def _checked_seed(original):
    def seed(self, metadata, user_key, widget_id, url_value):
        raw = url_value[-1] if isinstance(url_value, list) and len(url_value) == 1 else url_value
        text = raw if isinstance(raw, str) else ",".join(map(str, raw))
        default = metadata.deserializer(None)

        def refuse(seeded: bool):
            if seeded:  # Streamlit took a neighbour of the value: undo it
                self._new_widget_state.states.pop(widget_id, None)
                self._new_session_state.pop(user_key, None)
            self._clear_url_param(user_key)
            self.query_params._initial_query_params.pop(user_key, None)  # not again on this page
            shown = self._new_session_state.get(user_key, default)
            report(user_key, text, _wire(metadata, shown), RULES.get(user_key) or _rule_for(metadata))
            return False

        if not _ascii_numbers(raw, metadata.value_type):
            return refuse(False)
        if original(self, metadata, user_key, widget_id, url_value):
            taken = _wire(metadata, self._new_session_state[user_key])
            if isinstance(raw, str) and not _same(taken, raw):
                return refuse(True)  # clamped, rounded or normalised: not the value the link asks for
            return True
        if isinstance(raw, str) and (raw == "" or _same(_wire(metadata, default), raw)):
            return False  # the default written out, or nothing: Streamlit drops it from the URL (nothing to say)
        return refuse(False)

    seed.dpui_checked = True
    return seed


def install() -> bool:
    """Put the rule in front of Streamlit's seeding of URL-bound widgets (once per process); False when
    Streamlit has no such method (then its own handling stays)."""
    from streamlit.runtime.state.session_state import SessionState

    original = getattr(SessionState, "_seed_widget_from_url", None)
    if original is None:
        return False
    if not getattr(original, "dpui_checked", False):
        SessionState._seed_widget_from_url = _checked_seed(original)
    return True
