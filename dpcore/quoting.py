"""How a message quotes data that came from a user (a file name, a column name, a cell, a header).

One helper, :func:`quote`, used by every message that echoes user data: a ``repr()`` (so control
characters, NUL bytes, line breaks and invisible or bidirectional Unicode are shown as escapes, never
acted on) cut to ``limit`` characters *before* it is built, so a 40 MB header costs a 60-character
message and no 160 MB ``repr``. The result is plain text; a user interface that renders Markdown must
still escape it (``dpui.common.errors.plain_text``).
"""

from __future__ import annotations

import reprlib

__all__ = ["quote", "QUOTE_LIMIT"]

QUOTE_LIMIT = 60
"""Default length of a quoted value, in characters (the ellipsis included)."""

_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxtuple = _REPR.maxlist = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = _REPR.maxdeque = 4


def quote(value, limit: int = QUOTE_LIMIT, *, bare: bool = False) -> str:
    """``repr(value)`` for a message, at most ``limit`` characters (a cut one ends with "…").

    Strings and bytes are cut before ``repr`` is taken, and containers are shortened element by element
    (:mod:`reprlib`), so the cost is bounded by ``limit`` whatever the size of the value. ``bare=True``
    leaves out a string's quotes (a file name in a label: ``quote("my file.csv", bare=True)`` is
    ``my file.csv``), its escapes stay.

    >>> quote("user")
    "'user'"
    >>> quote("a" * 100, limit=10)
    "'aaaaaaaa…"
    >>> quote("\\x00" * 10**6, limit=20)
    "'\\\\x00\\\\x00\\\\x00\\\\x00\\\\x…"
    """
    limit = max(int(limit), 4)
    if isinstance(value, (str, bytes, bytearray)):
        r = repr(value[:limit] if not isinstance(value, bytearray) else bytes(value[:limit]))
        if bare and isinstance(value, str):
            r = r[1:-1]
        cut = len(value) > limit
    else:
        _REPR.maxstring = _REPR.maxother = max(limit, 8)
        r = _REPR.repr(value)
        cut = False
    if len(r) > limit or cut:
        r = r[: limit - 1] + "…"
    return r
