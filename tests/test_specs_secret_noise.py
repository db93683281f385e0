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
    TopicDpSpec,
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
        pytest.param(
            lambda c: TopicDpSpec(corpus="classroom", corpus_hash=c.content_hash),
            marks=pytest.mark.slow,  # an LDA fit (~40 s)
        ),
    ],
    ids=["m101-laplace", "m101-exponential", "m101-cities", "bayesian-strict", "bayesian-local", "dpne", "topicdp"],
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


def test_every_cache_of_noisy_work_is_bounded_and_keyed_by_the_seed():
    """Private mode keys noisy caches by the session's secret (dpui.common.noise): another session cannot hit such an entry
    (it needs the same 128-bit secret), and memory stays bounded only if every cache a seed or a spec key reaches has
    ``max_entries`` — and only if no cache key leaves the seed out (``spec.key(without=...)``)."""
    import ast
    from pathlib import Path

    from dpcore.specs import TopicDpCurveSpec

    root = Path(__file__).resolve().parent.parent / "dpui"
    noisy = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "key":
                for kw in node.keywords:  # spec.key(without=...) never leaves the seed out
                    assert kw.arg != "without" or "seed" not in ast.unparse(kw.value), (path.name, ast.unparse(node))
            if not isinstance(node, ast.FunctionDef):
                continue
            cached = [ast.unparse(d) for d in node.decorator_list if "cache_" in ast.unparse(d)]
            names = [a.arg for a in node.args.args + node.args.kwonlyargs]
            if cached and any(n == "seed" or n.endswith("key") or n == "_spec" for n in names):
                noisy.append(f"{path.name}:{node.name}")
                assert "max_entries" in cached[0], f"{path.name}:{node.name} caches noise without max_entries"
                if "_spec" in names:  # the spec is left out of the hash: its key (or its seed) must be an argument
                    assert any(n.endswith("key") or n == "seed" for n in names), f"{path.name}:{node.name}"
    assert len(noisy) > 20  # the scan found the pages' noisy caches (bayesian, dpne, topicdp, vips, reproduce)
    excluded = DpneSpec.PLAN_INDEPENDENT + DpneSpec.BASELINE_INDEPENDENT
    excluded += tuple(f for fields in TopicDpCurveSpec.SWEPT.values() for f in fields)
    assert "seed" not in excluded
