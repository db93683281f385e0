import numpy as np
import pytest

from dpcore.validation import check_choice, check_delta, check_epsilon, check_int, check_real, check_rng


@pytest.mark.parametrize(
    "bad, kind, text",
    [
        (-1, ValueError, "epsilon must be > 0, got epsilon=-1"),
        (0, ValueError, "epsilon must be > 0, got epsilon=0"),
        (float("nan"), ValueError, "epsilon must be a number, got epsilon=nan"),
        (float("inf"), ValueError, "epsilon must be finite, got epsilon=inf"),
        ("1", TypeError, "epsilon must be a real number, got epsilon='1'"),
        (None, TypeError, "epsilon must be a real number, got epsilon=None"),
        (True, TypeError, "epsilon must be a real number, got epsilon=True"),
    ],
)
def test_epsilon_messages_name_parameter_rule_and_value(bad, kind, text):
    with pytest.raises(kind) as err:
        check_epsilon(epsilon=bad)
    assert str(err.value).startswith(text)


@pytest.mark.parametrize("bad", [0, 1, 1.5, -1e-9])
def test_delta_outside_open_unit_interval_is_rejected(bad):
    with pytest.raises(ValueError, match=r"delta must be"):
        check_delta(delta=bad)


def test_delta_message_for_one():
    with pytest.raises(ValueError) as err:
        check_delta(delta=1)
    assert str(err.value) == "delta must be < 1, got delta=1"


def test_delta_zero_allowed_only_when_asked():
    assert check_delta(delta=0.0, allow_zero=True) == 0.0


def test_good_values_pass_through_as_float():
    assert check_epsilon(epsilon=np.float32(0.5)) == pytest.approx(0.5)
    assert isinstance(check_epsilon(epsilon=2), float)
    assert check_real("x", 3, low=3, low_inclusive=True) == 3.0


def test_int_rules():
    assert check_int("n", 3.0, low=1) == 3
    with pytest.raises(ValueError, match=r"n must be a whole number, got n=2.5"):
        check_int("n", 2.5)
    with pytest.raises(ValueError, match=r"n must be >= 1, got n=0"):
        check_int("n", 0, low=1)
    with pytest.raises(TypeError):
        check_int("n", "3")


def test_choice_lists_allowed_values():
    with pytest.raises(ValueError, match=r"method must be one of 'a', 'b', got method='c'"):
        check_choice("method", "c", ("a", "b"))


def test_rng_accepts_generator_or_seed_only():
    g = np.random.default_rng(1)
    assert check_rng(g) is g
    assert check_rng(5).integers(1 << 30) == np.random.default_rng(5).integers(1 << 30)
    with pytest.raises(TypeError, match="numpy.random.Generator"):
        check_rng(None)
    with pytest.raises(TypeError):
        check_rng(np.random.RandomState(1))
    with pytest.raises(ValueError):
        check_rng(-3)
