"""Secret noise in dpcore's specs (issue 30 item 1): the record an export carries in the app's private noise mode.

``secret_record`` drops the seed and marks ``"noise": "secret"``; rebuilding it draws a fresh seed from the operating
system's entropy and warns (``SecretNoiseWarning``). What a replay can reproduce is each spec's ``NOISE_FREE`` part
of its numbers — checked here by brute force: the declared noise-free numbers are equal at two different seeds (one a
128-bit seed, as the private mode draws), and some other number differs (the seed does drive the rest).
"""

from __future__ import annotations

import warnings

import pytest
from replay_env import run_script

import dpcore
from dpcore.specs import (
    SECRET_NOISE,
    BayesianSpec,
    DpneSpec,
    M101CitiesSpec,
    M101Spec,
    SecretNoiseWarning,
    Spec,
    script,
    secret_record,
)

BIG_SEED = 2**127 + 12345  # a private-mode seed: 128 bits


@pytest.fixture(scope="module")
def classroom():
    return dpcore.load_sample_corpus("private", size="classroom")


def test_secret_record_has_no_seed_and_rebuilds_with_fresh_noise_and_a_warning():
    spec = M101Spec(seed=3, epsilon=1.0, mechanism="Laplace", draws=200)
    rec = secret_record(spec.record())
    assert "seed" not in rec and rec["noise"] == SECRET_NOISE
    assert {k: v for k, v in rec.items() if k != "noise"} == {k: v for k, v in spec.record().items() if k != "seed"}
    with pytest.warns(SecretNoiseWarning, match=r"noise-free numbers reproduce the export \(sample_x, bound\)"):
        a = Spec.from_record(rec)
    with pytest.warns(SecretNoiseWarning):
        b = Spec.from_record(rec)
    assert a.seed != b.seed and a.seed != spec.seed  # fresh each time, from the operating system's entropy
    assert a.replace(seed=spec.seed) == spec  # every other field is the record's
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a reproducible record rebuilds silently, exactly
        assert Spec.from_record(spec.record()) == spec


def test_a_secret_record_with_a_seed_or_another_noise_value_is_refused():
    rec = secret_record(M101Spec(seed=3).record())
    with pytest.raises(ValueError, match="must carry no seed"):
        Spec.from_record({**rec, "seed": 3})
    with pytest.raises(ValueError, match=r"record\['noise'\] must be 'secret'.*got noise='public'"):
        Spec.from_record({**rec, "noise": "public"})


def _numbers(spec, corpus):
    return spec.numbers(spec.run(corpus) if spec.USES_CORPUS else spec.run())


@pytest.mark.parametrize(
    "make",
    [
        lambda c: M101Spec(epsilon=1.0, mechanism="Laplace", draws=500),
        lambda c: M101Spec(epsilon=0.5, mechanism="exponential", draws=500),
        lambda c: M101CitiesSpec(epsilon=1.0),
        lambda c: BayesianSpec(corpus="classroom", corpus_hash=c.content_hash, epsilon=1.0, delta=1e-5),
        lambda c: BayesianSpec(corpus="classroom", corpus_hash=c.content_hash, epsilon=1.0, delta=1e-5, mode="local"),
        lambda c: DpneSpec(corpus="classroom", corpus_hash=c.content_hash, epsilon=4.0, delta=1e-6),
    ],
    ids=["m101-laplace", "m101-exponential", "m101-cities", "bayesian-strict", "bayesian-local", "dpne"],
)
def test_the_declared_noise_free_numbers_do_not_depend_on_the_seed(make, classroom):
    spec = make(classroom)
    a, b = _numbers(spec.replace(seed=1), classroom), _numbers(spec.replace(seed=BIG_SEED), classroom)
    assert spec.noise_free(a) == spec.noise_free(b) and set(spec.noise_free(a)) == set(spec.NOISE_FREE)
    noisy = set(a) - set(spec.NOISE_FREE)
    if noisy:  # the seed drives everything else (the cities spec draws nothing: all of it is noise-free)
        assert any(a[k] != b[k] for k in noisy), noisy


def test_the_generated_script_of_a_secret_record_prints_the_noise_free_numbers_only(tmp_path):
    spec = M101Spec(seed=5, epsilon=1.0, mechanism="Laplace", draws=300)
    source = script(spec, secret_noise=True)
    assert "'seed'" not in source and "'noise': 'secret'" in source and "cannot be reproduced" in source
    printed = run_script(source, tmp_path)
    assert printed == spec.noise_free(spec.numbers(spec.run())) and set(printed) == {"sample_x", "bound"}
