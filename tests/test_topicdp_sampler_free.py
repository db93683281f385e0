"""Issue 31 item 7 in dpcore: what TopicDP releases before the sensitivity sampler ran.

``dpcore.topicdp.release_without_sampler`` releases strict TopicDP and Laplace (the two mechanisms that need no sampled
Δ_s) from one generator; ``TopicDpSpec(sampled=False)`` releases only those, reads no draws, draws from its own salt
and says so in its record; a record made before the field existed still replays as the sampled spec it was.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import dpcore
from dpcore.errors import UserError
from dpcore.specs import Spec, TopicDpSpec
from dpcore.specs.base import derive_rng
from dpcore.topicdp import (
    SAMPLER_FREE_MECHANISMS,
    TOPIC_MECHANISMS,
    release_all,
    release_without_sampler,
    strict_topicdp_sigma,
)

W = np.array([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])


def _clip_renormalise(noisy):
    """Clip at 0, renormalise each row; a row clipped to all zeros becomes uniform (1/n each)."""
    rows = []
    for row in np.clip(noisy, 0.0, None):
        rows.append(row / row.sum() if row.sum() > 0 else np.full(len(row), 1 / len(row)))
    return np.array(rows)


def test_the_sampler_free_mechanisms_are_the_ones_that_read_no_sensitivity():
    assert set(SAMPLER_FREE_MECHANISMS) < set(TOPIC_MECHANISMS)
    # release_all with two very different Δ_s: strict TopicDP's and Laplace's scales do not move, the others' do
    a = release_all(W, epsilon=1.0, delta=1e-5, sensitivity=0.01, gamma=0.1, rng=0)
    b = release_all(W, epsilon=1.0, delta=1e-5, sensitivity=10.0, gamma=0.1, rng=0)
    same = {mech for mech in TOPIC_MECHANISMS if a[mech].noise_scale == b[mech].noise_scale}
    assert same == set(SAMPLER_FREE_MECHANISMS)


def test_release_without_sampler_is_strict_then_laplace_from_one_generator():
    """Brute force: σ = analytic Gaussian on √(2m), then b = 2m/ε, the noise drawn in that order, clip, renormalise."""
    eps, delta = 2.0, 1e-5
    out = release_without_sampler(W, epsilon=eps, delta=delta, rng=np.random.default_rng(7))
    assert list(out) == list(SAMPLER_FREE_MECHANISMS)
    g = np.random.default_rng(7)
    sigma = strict_topicdp_sigma(epsilon=eps, delta=delta, m=2)
    strict = W + sigma * g.standard_normal(W.shape)
    laplace = W + g.laplace(0.0, 2 * 2 / eps, size=W.shape)
    assert out["TopicDP strict"].noise_scale == sigma and out["Laplace"].noise_scale == 4 / eps == 2.0
    np.testing.assert_array_equal(out["TopicDP strict"].noisy, strict)
    np.testing.assert_array_equal(out["Laplace"].noisy, laplace)
    np.testing.assert_allclose(out["TopicDP strict"].matrix, _clip_renormalise(strict))
    np.testing.assert_allclose(out["Laplace"].matrix, _clip_renormalise(laplace))
    # both are DP without γ: strict (ε, δ)-DP, Laplace ε-DP (for the values, given the non-private choice of topics)
    assert out["TopicDP strict"].guarantee.epsilon == eps and out["TopicDP strict"].guarantee.delta == delta
    assert out["Laplace"].guarantee.epsilon == eps and not out["Laplace"].guarantee.delta


class _Table:
    matrix = W


def test_a_sampler_free_spec_releases_only_those_from_its_own_salt_and_says_so():
    spec = TopicDpSpec(seed=3, epsilon=1.5, delta=1e-6, gamma=0.1, m=2, n=3, sampled=False)
    assert spec.salt(None) == ("topicdp", "release-sampler-free", 1.5, 1e-6, 2, 3)  # no γ, no Δ_s: neither changes it
    out = spec.release(_Table(), None)
    again = release_without_sampler(W, epsilon=1.5, delta=1e-6, rng=derive_rng(3, *spec.salt(None)))
    assert list(out) == list(SAMPLER_FREE_MECHANISMS)
    for mech in out:
        np.testing.assert_array_equal(out[mech].matrix, again[mech].matrix)
    assert spec.record()["sampled"] is False and Spec.from_record(spec.record()) == spec
    with pytest.raises(UserError, match="delta_s must be None when sampled=False"):
        spec.salt(0.3)
    sampled = spec.replace(sampled=True)
    with pytest.raises(UserError, match="delta_s must be the sampled sensitivity"):
        sampled.salt(None)
    with pytest.raises(UserError, match="sensitivity must be"):
        sampled.release(_Table(), None)
    with pytest.raises(TypeError, match="sampled must be a bool, got sampled='no'"):
        TopicDpSpec(sampled="no")


def test_a_record_made_before_the_field_replays_as_the_sampled_spec_it_was():
    record = TopicDpSpec(seed=1, m=3, n=4).record()
    old = {k: v for k, v in record.items() if k != "sampled"}
    spec = Spec.from_record(old)
    assert spec.sampled is True and spec.version == TopicDpSpec.VERSION and spec.record() == record
    assert spec.salt(0.25) == ("topicdp", "release", 1.0, 1e-5, 3, 4, 0.1, 0.25)  # as before issue 31


def test_a_sampler_free_spec_runs_on_a_corpus_without_draws(tmp_path, monkeypatch):
    """No draws stored: the sampled spec names the sampler, the sampler-free one runs and its numbers hold no Δ_s."""
    from test_app_topicdp_unsampled import twenty_users

    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(tmp_path))
    corpus = twenty_users()
    spec = TopicDpSpec(corpus_hash=corpus.content_hash, m=2, n=4, n_topics=3, with_vips=False, sampled=False)
    with pytest.raises(UserError, match="run the sampler"):
        dpcore.replay(spec.replace(sampled=True).record(), corpus)
    out = dpcore.replay(spec.record(), corpus)
    assert out.draws is None and out.sensitivity is None and list(out.releases) == list(SAMPLER_FREE_MECHANISMS)
    numbers = spec.numbers(out)
    assert numbers["delta_s"] is None and numbers["h"] is None and set(numbers["after"]) == set(SAMPLER_FREE_MECHANISMS)
    assert numbers["noise_scales"]["Laplace"] == 2 * 2 / 1.0
    assert math.isclose(numbers["noise_scales"]["TopicDP strict"], strict_topicdp_sigma(epsilon=1.0, delta=1e-5, m=2))
