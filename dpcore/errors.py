"""dpcore's exception for a value that a person gave (issue 34).

Every check of dpcore that refuses a value someone chose or sent — a parameter (``epsilon must be > 0, got
epsilon=-1``), an uploaded file (:class:`dpcore.CorpusError`), an input file of the command line
(:class:`dpcore.text.InputError`), a spec or its record, a request the data cannot answer (a corpus too
small for a statistic) — raises :class:`UserError` (or a subclass), with a message written for that
person: it names the parameter, the rule and the value.

It is a ``ValueError``, so ``except ValueError`` and ``pytest.raises(ValueError)`` keep working. The app
shows only these messages as the user's mistake (:func:`dpui.common.errors.user_errors`): any other exception,
``ValueError`` included (a ``UnicodeDecodeError`` from a damaged file, a numpy error), is a fault of the
app, shown as an internal error with a short reference and logged.
"""

from __future__ import annotations

__all__ = ["UserError"]


class UserError(ValueError):
    """A value a person gave that dpcore refuses; the message is for them (parameter, rule and value)."""
