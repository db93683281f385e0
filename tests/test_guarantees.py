import math

import pytest

from dpcore import guarantees as g


def test_colour_follows_kind_only():
    assert g.pure_dp(epsilon=1.0).colour == "green" and g.pure_dp(epsilon=1.0).is_dp
    assert (
        g.approximate_dp(epsilon=1.0, delta=1e-5).colour == "green" and g.approximate_dp(epsilon=1.0, delta=1e-5).is_dp
    )
    assert (
        g.random_dp(epsilon=1.0, delta=1e-5, gamma=0.1).colour == "orange"
        and not g.random_dp(epsilon=1.0, delta=1e-5, gamma=0.1).is_dp
    )
    assert (
        g.local_sensitivity(epsilon=1.0, delta=1e-5).colour == "red"
        and not g.local_sensitivity(epsilon=1.0, delta=1e-5).is_dp
    )
    assert g.k_anonymity(10).colour == "red" and not g.k_anonymity(10).is_dp
    assert g.no_protection().colour == "red"


def test_conditional_dp_is_not_green():
    cond = g.pure_dp(epsilon=1.0, conditional_on="a non-private choice of topics and keywords")
    assert cond.colour == "orange" and not cond.is_dp
    assert "given a non-private choice" in cond.label


def test_labels_say_strength_in_words():
    assert "not DP" in g.local_sensitivity().label
    assert "not DP" in g.k_anonymity(5).label and "K = 5" in g.k_anonymity(5).label
    assert "weaker than DP" in g.random_dp(epsilon=3.0, delta=1e-4, gamma=0.1).label
    assert "δ = 1e-05" in g.approximate_dp(epsilon=1.0, delta=1e-5).label
    assert g.local_sensitivity().strength == "not DP"


def test_promise_mentions_factor():
    assert f"{math.exp(1):.3g}" in g.pure_dp(epsilon=1.0).promise
    assert "90%" in g.random_dp(epsilon=1.0, delta=1e-5, gamma=0.1).promise


@pytest.mark.parametrize(
    "kw",
    [
        dict(kind="strong DP", promise="x"),
        dict(kind=g.PURE_DP, promise=""),
        dict(kind=g.PURE_DP, promise="x"),  # no epsilon
        dict(kind=g.APPROXIMATE_DP, promise="x", epsilon=1.0),  # no delta
        dict(kind=g.RANDOM_DP, promise="x", epsilon=1.0),  # no gamma
        dict(kind=g.PURE_DP, promise="x", epsilon=-1.0),
        dict(kind=g.APPROXIMATE_DP, promise="x", epsilon=1.0, delta=1.0),
        dict(kind=g.K_ANONYMITY, promise="x"),
        dict(kind=g.PURE_DP, promise="x", epsilon=float("nan")),
    ],
)
def test_invalid_guarantees_rejected(kw):
    with pytest.raises(ValueError):
        g.Guarantee(**kw)


def test_to_dict_and_with_parameters():
    a = g.approximate_dp(epsilon=1.0, delta=1e-5)
    d = a.to_dict()
    assert d["kind"] == g.APPROXIMATE_DP and d["colour"] == "green" and d["epsilon"] == 1.0 and d["is_dp"] is True
    b = a.with_parameters(epsilon=2.0)
    assert b.epsilon == 2.0 and a.epsilon == 1.0
    with pytest.raises(ValueError):
        a.with_parameters(epsilon=0.0)
