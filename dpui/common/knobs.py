"""Draw a spec field's knob (dpcore.specs.knobs, issue 33 item 2): one generic drawer per widget kind.

A spec field declares its widget (``knob(default, key=..., label=..., kind=..., ...)``); :func:`draw_knob` draws it
with that key bound to the URL (``**IN_URL``), so a shared link keeps working, and returns the field's value.
:func:`spec_widgets` is a page's field → widget key table, derived from its specs' declarations.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import streamlit as st

from dpcore.specs.knobs import Knob, knob_of, widget_keys

from dpui.common.exercise_keys import SHARED_WIDGET_KEYS
from dpui.common.state import IN_URL

SHARED_WIDGETS = {f: SHARED_WIDGET_KEYS[f] for f in ("corpus", "seed", "epsilon", "delta")}
"""The shared sidebar's settings: the same widget (and URL key) on every page."""
_FORMATS = {"number": lambda v: f"{v:g}"}  # as dpui.common.sidebar.format_number: 3.5, 0.01, 1e-05


def spec_widgets(spec_classes: Iterable[type]) -> dict[str, str]:
    """``{field: widget key}`` of a page: the shared sidebar's and every keyed knob of its specs."""
    return {**SHARED_WIDGETS, **widget_keys(spec_classes)}


def widget_values(spec, fields: Iterable[str], widgets: dict[str, str]) -> dict:
    """``{widget key: value}`` that put a page's widgets (``widgets``: its :func:`spec_widgets`) at ``spec``'s
    ``fields`` (validated by the spec; a None shown as its knob's :attr:`Knob.none_as`)."""
    return {widgets[f]: knob_of(spec, f).widget_value(getattr(spec, f)) for f in fields}


def _slider(where, k: Knob, value):
    step = {} if k.step is None else {"step": k.step}
    return where.slider(k.label, k.low, k.high, value, key=k.key, help=k.help or None, **step, **IN_URL)


def _select(where, k: Knob, value):
    fmt = {"format_func": _FORMATS[k.format]} if k.format else {}
    return where.select_slider(k.label, k.options, value=value, key=k.key, help=k.help or None, **fmt, **IN_URL)


def _radio(where, k: Knob, value):
    return where.radio(
        k.label,
        k.options,
        index=k.options.index(value),
        horizontal=k.horizontal,
        captions=k.captions or None,
        key=k.key,
        help=k.help or None,
        **IN_URL,
    )


def _selectbox(where, k: Knob, value):
    return where.selectbox(k.label, k.options, index=k.options.index(value), key=k.key, help=k.help or None, **IN_URL)


def _number(where, k: Knob, value):
    step = {} if k.step is None else {"step": k.step}
    return where.number_input(k.label, k.low, k.high, value, key=k.key, help=k.help or None, **step, **IN_URL)


def _toggle(where, k: Knob, value):
    return where.toggle(k.label, value=value, key=k.key, help=k.help or None, **IN_URL)


DRAWERS = {
    "slider": _slider,
    "select": _select,
    "radio": _radio,
    "selectbox": _selectbox,
    "number": _number,
    "toggle": _toggle,
}
"""One drawer per widget kind (dpcore.specs.knobs.KINDS)."""


def draw_knob(spec_class: type, field: str, where: Any = None, *, default: Any = None, **changes) -> Any:
    """Draw ``field``'s knob of ``spec_class`` in ``where`` (default: the main area; ``st.sidebar`` or a column) and
    return the field's value (its :attr:`Knob.none_as` turned back into None). ``default``: the widget's default in
    place of the field's (e.g. N_max's follows the data); ``changes``: other knob attributes for this drawing (e.g.
    ``high`` where the data offers fewer)."""
    k = knob_of(spec_class, field)
    if k.key is None or k.kind is None:
        raise ValueError(f"field must declare a widget to be drawn, got {spec_class.__name__}.{field} without one")
    if changes:
        import dataclasses

        k = dataclasses.replace(k, **changes)
    value = DRAWERS[k.kind](
        st if where is None else where, k, k.widget_value(k.default if default is None else default)
    )
    return None if k.none_as is not None and value == k.none_as else value
