"""dpcore.specs (issue 22): the one seed derivation, validation on construction, record ↔ spec, replay."""

from __future__ import annotations

import dataclasses
import json
import zlib

import numpy as np
import pytest

import dpcore
from dpcore.specs import Spec, derive_rng, replay, spec_kinds
from dpcore.validation import check_epsilon


def _old_rng_for(seed, *salt):
    """dpui.state.rng_for and dpui.bayesian_modes._rng as they were before issue 22 (copied, brute force)."""
    return np.random.default_rng(np.random.SeedSequence([seed] + [zlib.crc32(repr(s).encode()) for s in salt]))


@pytest.mark.parametrize("seed, salt", [(0, ()), (0, ("dpne", 4.0, 1e-06, 6, 50, 1.0, "both", "random", "weighted")),
                                        (42, ("bayes-item-cap", 3, 5, 20)), (2**31 - 1, ("m101-sample", "Laplace", 1000)),
                                        (7, ("dpne-baselines", 1.0, 1e-5, 4, 10, "random", "policy"))])
def test_derive_rng_is_the_old_stream(seed, salt):
    old = _old_rng_for(seed, *salt)
    new = derive_rng(seed, *salt)
    assert np.array_equal(old.standard_normal(64), new.standard_normal(64))
    assert np.array_equal(old.integers(0, 2**63, size=8), new.integers(0, 2**63, size=8))


def test_dpui_rng_helpers_call_dpcore():
    from dpui.bayesian_modes import _rng
    from dpui.state import rng_for

    for f in (rng_for, _rng):
        assert np.array_equal(f(3, "x", 1.0).random(16), _old_rng_for(3, "x", 1.0).random(16))
    # a salt part's repr is what is hashed: 1 and 1.0 are different streams
    assert not np.array_equal(derive_rng(3, 1).random(4), derive_rng(3, 1.0).random(4))


@dataclasses.dataclass(frozen=True, kw_only=True)
class _ToySpec(Spec):
    """A registered spec with one knob, for the base's own tests."""

    KIND = "test-toy"
    epsilon: float = 1.0
    sizes: tuple = (1, 2)

    def _validated(self):
        return {"epsilon": check_epsilon(self.epsilon)}

    def run(self, corpus=None):
        return self.rng("toy", self.epsilon, self.sizes).laplace(scale=1 / self.epsilon, size=3)

    def numbers(self, result):
        return {"draws": [float(x) for x in result]}


def test_validation_names_parameter_rule_and_value():
    with pytest.raises(ValueError, match=r"epsilon must be > 0, got epsilon=-1"):
        _ToySpec(epsilon=-1)
    with pytest.raises(ValueError, match=r"seed must be >= 0, got seed=-3"):
        _ToySpec(seed=-3)
    with pytest.raises(ValueError, match=r"corpus must be one of .*got corpus='nope'"):
        _ToySpec(corpus="nope")
    with pytest.raises(TypeError):
        _ToySpec(0.5)  # keyword-only
    spec = _ToySpec(epsilon=2)
    assert spec.epsilon == 2.0 and isinstance(spec.epsilon, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.epsilon = 3.0


def test_record_round_trip_and_replay():
    spec = _ToySpec(epsilon=0.5, seed=11, corpus="classroom", corpus_hash="abc", sizes=(3, 4))
    rec = spec.record()
    assert rec == {"spec": "test-toy", "version": 1, "seed": 11, "corpus": "classroom", "corpus_hash": "abc",
                   "epsilon": 0.5, "sizes": [3, 4]}
    back = Spec.from_record(json.loads(json.dumps(rec)))
    assert back == spec and back.key() == spec.key() and type(back) is _ToySpec
    assert _ToySpec.from_record(rec) == spec
    assert spec_kinds()["test-toy"] is _ToySpec

    class _Fake:
        content_hash = "abc"

    assert np.array_equal(replay(rec, _Fake()), spec.run())
    assert np.array_equal(dpcore.replay(rec, _Fake()), spec.run())
    _Fake.content_hash = "other"
    with pytest.raises(ValueError, match="corpus must be the corpus the record was made on"):
        replay(rec, _Fake())
    with pytest.raises(ValueError, match=r"record\['version'\] must be 1"):
        Spec.from_record({**rec, "version": 2})
    with pytest.raises(ValueError, match="does not know"):
        Spec.from_record({**rec, "eta": 1})
    with pytest.raises(ValueError, match=r"record\['spec'\] must be one of"):
        Spec.from_record({**rec, "spec": "nope"})
    # every field changes the key
    assert len({spec.key(), spec.replace(seed=12).key(), spec.replace(epsilon=0.6).key(),
                spec.replace(sizes=(3, 5)).key()}) == 4
