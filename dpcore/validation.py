"""One validation helper for every public boundary of dpcore.

Every public function checks its parameters here, once, so that a notebook user and the app get
the same messages. Messages name the parameter, the rule and the value, e.g.
``epsilon must be > 0, got epsilon=-1``. A wrong *kind* of value (a string, ``None``, a bool)
raises ``TypeError``; a value of the right kind that breaks the rule (NaN, inf, out of range)
raises ``ValueError``. NaN is rejected first, before any comparison can silently pass it.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_real",
    "check_epsilon",
    "check_delta",
    "check_sensitivity",
    "check_int",
    "check_probability",
    "check_choice",
    "check_rng",
]


def _fmt(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return repr(value)
    return repr(value) if isinstance(value, str) else f"{value}"


def check_real(
    name: str,
    value,
    *,
    low: float | None = None,
    high: float | None = None,
    low_inclusive: bool = False,
    high_inclusive: bool = True,
) -> float:
    """Return ``value`` as a finite float inside the given interval, or raise.

    Args:
      name: the parameter name used in the message.
      value: the value to check; ints, floats and numpy scalars are accepted.
      low, high: optional bounds.
      low_inclusive, high_inclusive: whether the bounds themselves are allowed.

    Raises:
      TypeError: ``value`` is not a real number (bools and strings are rejected).
      ValueError: ``value`` is NaN, infinite, or outside the interval.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {name}={value!r} ({type(value).__name__})")
    v = float(value)
    if math.isnan(v):
        raise ValueError(f"{name} must be a number, got {name}=nan")
    if math.isinf(v):
        raise ValueError(f"{name} must be finite, got {name}={v}")
    if low is not None:
        if low_inclusive and v < low:
            raise ValueError(f"{name} must be >= {low:g}, got {name}={_fmt(value)}")
        if not low_inclusive and v <= low:
            raise ValueError(f"{name} must be > {low:g}, got {name}={_fmt(value)}")
    if high is not None:
        if high_inclusive and v > high:
            raise ValueError(f"{name} must be <= {high:g}, got {name}={_fmt(value)}")
        if not high_inclusive and v >= high:
            raise ValueError(f"{name} must be < {high:g}, got {name}={_fmt(value)}")
    return v


def check_epsilon(epsilon, name: str = "epsilon") -> float:
    """ε must be a finite real > 0 (ε = 0 would need infinite noise)."""
    return check_real(name, epsilon, low=0.0)


def check_delta(delta, name: str = "delta", *, allow_zero: bool = False) -> float:
    """δ must lie in (0, 1) — or [0, 1) with ``allow_zero`` — since δ ≥ 1 promises nothing."""
    return check_real(name, delta, low=0.0, low_inclusive=allow_zero, high=1.0, high_inclusive=False)


def check_sensitivity(sensitivity, name: str = "sensitivity") -> float:
    """A sensitivity must be a finite real > 0."""
    return check_real(name, sensitivity, low=0.0)


def check_probability(value, name: str, *, allow_zero: bool = True, allow_one: bool = True) -> float:
    """A probability-like parameter in [0, 1] (ends configurable)."""
    return check_real(name, value, low=0.0, low_inclusive=allow_zero, high=1.0, high_inclusive=allow_one)


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int within [low, high], or raise.

    Floats are accepted only when they are whole numbers (``3.0``), so a slider that returns a float
    still works, but ``2.5`` users is an error.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an integer, got {name}={value!r} ({type(value).__name__})")
    if not isinstance(value, numbers.Integral):
        v = float(value)
        if math.isnan(v) or math.isinf(v) or not v.is_integer():
            raise ValueError(f"{name} must be a whole number, got {name}={value}")
    v = int(value)
    if low is not None and v < low:
        raise ValueError(f"{name} must be >= {low}, got {name}={v}")
    if high is not None and v > high:
        raise ValueError(f"{name} must be <= {high}, got {name}={v}")
    return v


def check_choice(name: str, value, choices) -> str:
    """``value`` must be one of ``choices``."""
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}, got {name}={value!r}")
    return value


def check_rng(rng) -> np.random.Generator:
    """Accept a ``numpy.random.Generator`` or an int seed; never fall back to global state."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            raise ValueError(f"rng seed must be >= 0, got rng={rng}")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be a numpy.random.Generator or an int seed, got rng={rng!r} ({type(rng).__name__}); "
        "use numpy.random.default_rng(seed)"
    )
