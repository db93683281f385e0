"""Knobs: a spec field declares its widget and whether it salts the noise (issue 33 item 2).

A page's knob is declared once, on the spec field it sets::

    rho: float = knob(0.3, key="bayes_rho", label="ρ (weight of the private evidence)", kind="slider",
                      low=0.05, high=1.0, step=0.05, salts=True)

and everything else is derived from that declaration:

* the spec's salts (:class:`Salt`, :meth:`dpcore.specs.Spec.salt_of`): a *noise* stream holds every field declared
  ``salts=True`` — first the ones its ``order`` names (the order the salts had before these declarations, so every
  existing seed, export and replay draws bit for bit as before), then any other salting field in declaration order —
  except the fields its ``without`` names (each with its reason where the stream is declared). A new salting field
  is therefore in the noise without anyone writing it into a salt. A stream with ``noise=False`` (data-independent
  randomness that is not noise: which items a user keeps, a held-out split) holds exactly its ``order``;
* the page's widget table (field → widget/URL key, :func:`widget_keys`), the exercise keys, the presets' keys and
  the ranges the exercise test checks (:meth:`Knob.allows`);
* the widget itself: dpui draws one generic widget per :data:`KINDS` entry from the :class:`Knob` (dpcore never
  imports streamlit; a knob is data: label, kind, range or options, step, format, help).

A field without a widget on its page (``key=None``: set by the shared sidebar, a button or the page itself) may still
declare that it salts: ``knob(default, salts=True)``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from typing import Any

from ..errors import UserError

__all__ = ["Knob", "Salt", "KINDS", "knob", "knob_of", "knobs_of", "salting_fields", "stream_fields", "widget_keys"]

KINDS = ("slider", "select", "radio", "selectbox", "number", "toggle")
"""Widget kinds: a numeric slider (low, high, step), a select slider (options on a slider), radio buttons, a select box
(options), a number input (low, high, step) and a toggle (bool)."""

_META = "knob"
_NO_DEFAULT: Any = dataclasses.MISSING


@dataclasses.dataclass(frozen=True, kw_only=True)
class Knob:
    """A spec field's widget and noise declaration (module docstring).

    ``key``: the widget's key, which is also its URL parameter (None: no widget of its own on the page);
    ``kind``: one of :data:`KINDS`; ``low``/``high``/``step``: a slider's or number input's range; ``options``: a
    select slider's, radio's or select box's values (``captions``: a radio's words under them); ``format``:
    ``"number"`` shows options as ``f"{v:g}"``; ``salts``: the field changes the release's noise (module docstring).
    ``default`` is the field's default (set by :func:`knob`)."""

    key: str | None = None
    label: str = ""
    kind: str | None = None
    low: float | None = None
    high: float | None = None
    step: float | None = None
    options: tuple = ()
    captions: tuple[str, ...] = ()
    format: str | None = None
    help: str = ""
    horizontal: bool = False
    none_as: Any = None
    """The widget value that stands for the field's None (e.g. 0 = "the corpus' size"); None: the field is never None."""
    salts: bool = False
    default: Any = None

    def __post_init__(self):
        if self.key is None:
            if self.kind is not None:
                raise UserError(f"a knob drawn as a {self.kind} needs a key, got key=None ({self.label!r})")
            return
        if self.kind not in KINDS:
            raise UserError(f"kind must be one of {KINDS}, got kind={self.kind!r} (key {self.key!r})")
        if self.kind in ("select", "radio", "selectbox") and not self.options:
            raise UserError(f"a {self.kind} knob needs options, got options=() (key {self.key!r})")
        if self.kind in ("slider", "number") and (self.low is None or self.high is None):
            raise UserError(f"a {self.kind} knob needs low and high, got {self.low!r}, {self.high!r} ({self.key!r})")
        if self.captions and len(self.captions) != len(self.options):
            raise UserError(f"captions must match options one to one, got {len(self.captions)} ≠ {len(self.options)}")

    def widget_value(self, value):
        """The widget's value for the field's ``value`` (:attr:`none_as` for None)."""
        return self.none_as if value is None and self.none_as is not None else value

    def allows(self, value) -> bool:
        """Whether ``value`` is one the widget offers (its options, or its range on its step grid)."""
        if self.kind == "toggle":
            return isinstance(value, bool)
        if self.options:
            return any(value == o and isinstance(value, bool) == isinstance(o, bool) for o in self.options)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        assert self.low is not None and self.high is not None  # __post_init__: sliders and numbers have a range
        if not (self.low <= value <= self.high):
            return False
        if isinstance(self.low, int) and isinstance(self.step or 1, int) and not isinstance(value, int):
            return False  # an integer widget returns integers
        if self.step is None or self.kind == "number":  # a number input takes any value in its range
            return True
        k = (value - self.low) / self.step
        return math.isclose(k, round(k), abs_tol=1e-9)

    def values(self) -> tuple:
        """A few values the widget offers (its options; else its ends and a point on its grid): what a generic test
        moves a field to."""
        if self.kind == "toggle":
            return (False, True)
        if self.options:
            return tuple(self.options)
        assert self.low is not None and self.high is not None
        step = self.step if self.step is not None else (1 if isinstance(self.low, int) else (self.high - self.low) / 4)
        mid = self.low + step * round((self.high - self.low) / step / 2)
        return tuple(dict.fromkeys((self.low, mid, self.high)))


@dataclasses.dataclass(frozen=True)
class Salt:
    """One salt stream of a spec: ``tag`` (its first parts), ``order`` (the fields in the order the salt had before
    knobs were declared; a noise stream appends every other salting field), ``noise`` (False: a stream that is not
    noise holds exactly ``order``) and ``without`` (salting fields this stream leaves out, each for a stated
    reason where the stream is declared)."""

    tag: tuple
    order: tuple[str, ...] = ()
    noise: bool = True
    without: tuple[str, ...] = ()


def knob(default: Any = _NO_DEFAULT, *, salts: bool, **kw) -> Any:
    """A dataclass field with ``default`` that declares its :class:`Knob` (``kw``: the knob's other attributes).
    ``salts`` has no default: whether a field changes the noise is decided where it is declared, never forgotten."""
    if not isinstance(salts, bool):
        raise TypeError(f"salts must be True or False, got salts={salts!r}")
    return dataclasses.field(default=default, metadata={_META: Knob(**kw, salts=salts, default=default)})


def knob_of(cls_or_spec, name: str) -> Knob:
    """The knob field ``name`` declares (an empty, non-salting one when it declares none)."""
    for f in dataclasses.fields(cls_or_spec):
        if f.name == name:
            return f.metadata.get(_META) or Knob(default=f.default)
    raise UserError(f"field must be a field of {_name(cls_or_spec)}, got {name!r}")


def knobs_of(cls_or_spec) -> dict[str, Knob]:
    """``{field: Knob}`` of the fields that declare one, in declaration order."""
    return {f.name: f.metadata[_META] for f in dataclasses.fields(cls_or_spec) if _META in f.metadata}


def salting_fields(cls_or_spec) -> tuple[str, ...]:
    """The fields declared ``salts=True``, in declaration order."""
    return tuple(name for name, k in knobs_of(cls_or_spec).items() if k.salts)


def stream_fields(cls_or_spec, salt: Salt) -> tuple[str, ...]:
    """The fields a salt stream holds, in order (module docstring); UserError when the declarations disagree."""
    salting = salting_fields(cls_or_spec)
    names = {f.name for f in dataclasses.fields(cls_or_spec)}
    for name in (*salt.order, *salt.without):
        if name not in names:
            raise UserError(f"salt {salt.tag!r} of {_name(cls_or_spec)} names {name!r}, which is not a field")
    if not salt.noise:
        return salt.order
    bad = [n for n in (*salt.order, *salt.without) if n not in salting]
    if bad:
        raise UserError(
            f"salt {salt.tag!r} of {_name(cls_or_spec)} names {bad}, which are not declared salts=True: declare "
            "them with knob(..., salts=True)"
        )
    return salt.order + tuple(n for n in salting if n not in salt.order and n not in salt.without)


def widget_keys(spec_classes: Iterable[type]) -> dict[str, str]:
    """``{field: widget key}`` over the page's spec classes; UserError when one field has two keys or one key two
    fields (a link must set one thing)."""
    out: dict[str, str] = {}
    for cls in spec_classes:
        for name, k in knobs_of(cls).items():
            if k.key is None:
                continue
            if out.get(name, k.key) != k.key:
                raise UserError(f"field {name!r} has two widget keys on one page: {out[name]!r} and {k.key!r}")
            out[name] = k.key
    by_key: dict[str, str] = {}
    for name, key in out.items():
        if by_key.setdefault(key, name) != name:
            raise UserError(f"widget key {key!r} names two fields on one page: {by_key[key]!r} and {name!r}")
    return out


def _name(cls_or_spec) -> str:
    return cls_or_spec.__name__ if isinstance(cls_or_spec, type) else type(cls_or_spec).__name__
