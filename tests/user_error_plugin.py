"""A pytest plugin for tests/test_user_errors.py: ``pytest.raises(ValueError, …)`` expects dpcore's
:class:`~dpcore.errors.UserError` instead, so a run of the bad-input tests under it shows that every
ValueError they expect is one that the app shows as the user's mistake (issue 34)."""

import pytest

from dpcore.errors import UserError

_raises = pytest.raises


def _user_raises(expected, *args, **kwargs):
    if expected is ValueError:
        expected = UserError
    elif isinstance(expected, tuple):
        expected = tuple(UserError if e is ValueError else e for e in expected)
    return _raises(expected, *args, **kwargs)


pytest.raises = _user_raises
