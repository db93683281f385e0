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
import sys
from collections.abc import Iterable
from typing import SupportsInt, cast

import numpy as np

from .errors import UserError

__all__ = [
    "check_real",
    "check_epsilon",
    "check_delta",
    "check_sensitivity",
    "check_int",
    "check_probability",
    "check_choice",
    "check_rng",
    "check_noise_scale",
    "check_draw_scale",
    "as_float_array",
    "check_sequence",
]


def _short_repr(value, limit: int = 60) -> str:
    """repr() cut to ``limit`` characters (a 400-digit int or a long list stays readable)."""
    if isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_)) and abs(int(value)) >= 10**limit:
        return f"<an integer with {len(str(abs(int(value))))} digits>"
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 1] + "…"


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
        raise TypeError(f"{name} must be a real number, got {name}={_short_repr(value)} ({type(value).__name__})")
    try:
        v = float(value)
    except OverflowError:  # an int beyond ±1.8e308
        raise UserError(f"{name} must be finite, got {name}={_short_repr(value)} (too large for a float)") from None
    if math.isnan(v):
        raise UserError(f"{name} must be a number, got {name}=nan")
    if math.isinf(v):
        raise UserError(f"{name} must be finite, got {name}={v}")
    if low is not None:
        if low_inclusive and v < low:
            raise UserError(f"{name} must be >= {low:g}, got {name}={_fmt(value)}")
        if not low_inclusive and v <= low:
            raise UserError(f"{name} must be > {low:g}, got {name}={_fmt(value)}")
    if high is not None:
        if high_inclusive and v > high:
            raise UserError(f"{name} must be <= {high:g}, got {name}={_fmt(value)}")
        if not high_inclusive and v >= high:
            raise UserError(f"{name} must be < {high:g}, got {name}={_fmt(value)}")
    return v


def check_epsilon(*, epsilon, name: str = "epsilon") -> float:
    """ε must be a finite real > 0 (ε = 0 would need infinite noise)."""
    return check_real(name, epsilon, low=0.0)


def check_delta(*, delta, name: str = "delta", allow_zero: bool = False) -> float:
    """δ must lie in (0, 1) — or [0, 1) with ``allow_zero`` — since δ ≥ 1 promises nothing."""
    return check_real(name, delta, low=0.0, low_inclusive=allow_zero, high=1.0, high_inclusive=False)


SMALLEST_NORMAL = sys.float_info.min
"""2.2e-308: below it a float is subnormal and keeps only a few significant bits."""


def check_sensitivity(*, sensitivity, name: str = "sensitivity") -> float:
    """A sensitivity (or a noise scale given by the caller) must be a finite real > 0 and a normal float.

    A subnormal value (below 2.2e-308) has too few significant bits for σ = Δ·c/ε to be computed to the
    precision the guarantee needs (5e-324 × 3.73 rounds to 4 × 5e-324), so it is refused by name.
    """
    v = check_real(name, sensitivity, low=0.0)
    if v < SMALLEST_NORMAL:
        raise UserError(
            f"{name} must be at least the smallest normal float {SMALLEST_NORMAL:.3g} (a subnormal "
            f"{name} keeps too few significant digits), got {name}={_fmt(sensitivity)}"
        )
    return v


def check_probability(value, name: str, *, allow_zero: bool = True, allow_one: bool = True) -> float:
    """A probability-like parameter in [0, 1] (ends configurable)."""
    return check_real(name, value, low=0.0, low_inclusive=allow_zero, high=1.0, high_inclusive=allow_one)


def check_int(name: str, value, *, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int within [low, high], or raise.

    Floats are accepted only when they are whole numbers (``3.0``), so a slider that returns a float
    still works, but ``2.5`` users is an error.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be an integer, got {name}={_short_repr(value)} ({type(value).__name__})")
    if not isinstance(value, numbers.Integral):
        v = float(value)
        if math.isnan(v) or math.isinf(v) or not v.is_integer():
            raise UserError(f"{name} must be a whole number, got {name}={value}")
    v = int(cast(SupportsInt, value))  # a numbers.Real: int() truncates it (whole, checked above)
    if low is not None and v < low:
        raise UserError(f"{name} must be >= {low}, got {name}={_short_repr(v)}")
    if high is not None and v > high:
        raise UserError(f"{name} must be <= {high}, got {name}={_short_repr(v)}")
    return v


def check_noise_scale(name: str, value: float, **parameters) -> float:
    """A noise scale computed from the parameters must be a finite float > 0.

    A tiny ε (or a huge sensitivity) can push σ = Δ·c/ε past the largest float (1.8e308); the noise
    is then infinite and every release is NaN. The message names the parameters that led there.
    """
    v = float(value)
    if math.isfinite(v) and v > 0:
        return v
    given = ", ".join(f"{k}={_short_repr(p)}" for k, p in parameters.items())
    what = "infinite (it overflows a float)" if not math.isnan(v) and v > 0 else f"{v}"
    raise UserError(f"the noise scale {name} is {what} for {given}: use a larger epsilon (or a smaller sensitivity)")


MAX_DRAW_SCALE = 1e300
"""The largest noise scale a mechanism multiplies standard draws by and then sums (rows of a matrix): above
it σ·Z or a row sum can overflow to ∞, and clipping and renormalising turn ∞/∞ into NaN."""


def check_draw_scale(name: str, value: float, **parameters) -> float:
    """:func:`check_noise_scale`, and at most :data:`MAX_DRAW_SCALE` (1e300) so that its draws stay finite."""
    v = check_noise_scale(name, value, **parameters)
    if v > MAX_DRAW_SCALE:
        given = ", ".join(f"{k}={_short_repr(p)}" for k, p in parameters.items())
        raise UserError(
            f"the noise scale {name} = {v:.3g} is too large to draw (above {MAX_DRAW_SCALE:g}: the noisy "
            f"entries and their sums overflow a float) for {given}: use a larger epsilon"
        )
    return v


def check_sequence(name: str, value) -> list:
    """``value`` as a list; a TypeError naming ``name`` when it is None, a string, a mapping or not iterable."""
    if value is None or isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be a sequence, got {name}={_short_repr(value)} ({type(value).__name__})")
    return list(value)


def as_float_array(name: str, value) -> np.ndarray:
    """``value`` (a number or a nested sequence of numbers) as a float array, or a TypeError/ValueError
    naming ``name`` (None, strings, ragged lists and integers beyond the float range are refused)."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a number or an array of numbers, got {name}={_short_repr(value)} ({type(value).__name__})"
        )
    try:
        return np.asarray(value, dtype=float)
    except OverflowError:
        raise UserError(f"{name} must be finite, got an integer too large for a float in {name}") from None
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"{name} must be a number or an array of numbers, got {name}={_short_repr(value)} ({exc})"
        ) from None


def check_choice(name: str, value, choices) -> str:
    """``value`` must be one of ``choices``."""
    try:
        ok = value in choices
    except TypeError:  # an unhashable value against a set/dict of choices
        ok = False
    if not ok:
        allowed = ", ".join(repr(c) for c in choices)
        raise UserError(f"{name} must be one of {allowed}, got {name}={value!r}")
    return value


def check_rng(rng) -> np.random.Generator:
    """Accept a ``numpy.random.Generator`` or an int seed; never fall back to global state."""
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, (bool, np.bool_)):
        if rng < 0:
            raise UserError(f"rng seed must be >= 0, got rng={rng}")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"rng must be a numpy.random.Generator or an int seed, got rng={rng!r} ({type(rng).__name__}); "
        "use numpy.random.default_rng(seed)"
    )
