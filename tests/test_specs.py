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
    """dpui.common.state.rng_for and dpui.bayesian.modes._rng as they were before issue 22 (copied, brute force)."""
    return np.random.default_rng(np.random.SeedSequence([seed] + [zlib.crc32(repr(s).encode()) for s in salt]))


@pytest.mark.parametrize(
    "seed, salt",
    [
        (0, ()),
        (0, ("dpne", 4.0, 1e-06, 6, 50, 1.0, "both", "random", "weighted")),
        (42, ("bayes-item-cap", 3, 5, 20)),
        (2**31 - 1, ("m101-sample", "Laplace", 1000)),
        (7, ("dpne-baselines", 1.0, 1e-5, 4, 10, "random", "policy")),
    ],
)
def test_derive_rng_is_the_old_stream(seed, salt):
    old = _old_rng_for(seed, *salt)
    new = derive_rng(seed, *salt)
    assert np.array_equal(old.standard_normal(64), new.standard_normal(64))
    assert np.array_equal(old.integers(0, 2**63, size=8), new.integers(0, 2**63, size=8))


def test_dpui_rng_helpers_call_dpcore():
    from dpui.bayesian.modes import _rng
    from dpui.common.state import rng_for

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
        return {"epsilon": check_epsilon(epsilon=self.epsilon)}

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
    assert rec == {
        "spec": "test-toy",
        "version": 1,
        "seed": 11,
        "corpus": "classroom",
        "corpus_hash": "abc",
        "epsilon": 0.5,
        "sizes": [3, 4],
    }
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
    assert (
        len(
            {spec.key(), spec.replace(seed=12).key(), spec.replace(epsilon=0.6).key(), spec.replace(sizes=(3, 5)).key()}
        )
        == 4
    )


# ------------------------------------------------------------------------------ the pages' specs
from dpcore.specs import AuditSpec, DpneSpec, M101CitiesSpec, M101Spec  # noqa: E402


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: DpneSpec(epsilon=-1), r"epsilon must be > 0, got epsilon=-1"),
        (lambda: DpneSpec(delta=1), r"delta must be .*got delta=1"),
        (lambda: DpneSpec(eta=1.0), r"eta must be .*got eta=1"),
        (lambda: DpneSpec(max_length=11), r"max_length must be <= 10, got max_length=11"),
        (lambda: DpneSpec(contribution_limit=0), r"contribution_limit must be >= 1, got contribution_limit=0"),
        (lambda: DpneSpec(pruning="left"), r"pruning must be one of 'both', 'single', got pruning='left'"),
        (lambda: DpneSpec(eta_grid=(0.01, 2.0)), r"eta_grid must be .*got eta_grid=2"),
        (
            lambda: M101Spec(mechanism="gauss"),
            r"mechanism must be one of 'exponential', 'Laplace', got mechanism='gauss'",
        ),
        (lambda: M101Spec(draws=0), r"draws must be >= 1, got draws=0"),
        (lambda: M101CitiesSpec(sensitivity_factor=0), r"sensitivity_factor must be > 0, got sensitivity_factor=0"),
        (lambda: AuditSpec(scenario="nope"), r"scenario must be one of .*got scenario='nope'"),
        (lambda: AuditSpec(scenario="kanonymity", broken=False), r"broken must name a variant .*got broken=False"),
        (lambda: AuditSpec(trials=5), r"trials must be >= 10, got trials=5"),
        (lambda: AuditSpec(confidence=1.0), r"confidence must be .*got confidence=1"),
        (lambda: M101Spec(corpus="classroom"), r"M101Spec uses no corpus"),
    ],
)
def test_page_specs_validate(make, message):
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize(
    "spec",
    [
        DpneSpec(
            seed=3,
            corpus="chat",
            corpus_hash="f" * 64,
            epsilon=2,
            delta=1e-5,
            max_length=4,
            contribution_limit=10,
            eta=0.05,
            noise_decay=0.9,
            pruning="single",
            selection="most-frequent",
            policy="policy",
        ),
        M101Spec(seed=9, epsilon=0.5, mechanism="Laplace", draws=100_000),
        M101CitiesSpec(epsilon=2, sensitivity_factor=0.2),
        AuditSpec(seed=1, scenario="kanonymity", broken=True, trials=2000, confidence=0.99),
    ],
)
def test_page_specs_record_round_trip(spec):
    rec = json.loads(json.dumps(spec.record()))  # JSON-able
    assert Spec.from_record(rec) == spec and Spec.from_record(rec).key() == spec.key()
    assert set(rec) == {"spec", "version"} | {f.name for f in dataclasses.fields(spec)}


def test_dpne_spec_draws_as_the_page_did_before():
    """A version-1 DpneSpec record (an export made before issue 29) replays the page's former draws: dpui.dpne.data
    drew DPNE from rng_for(seed, "dpne", ε, δ, T, Δ0, c, pruning, selection, policy) with the selection keyed like
    the noise, and the baselines from rng_for(seed, "dpne-baselines", ε, δ, T, Δ0, selection, policy) (the salts
    copied from before issue 22). Version 2 draws the baselines' selection apart from their noise."""
    corpus = dpcore.load_sample_corpus("private", size="classroom")
    spec = DpneSpec(
        seed=5,
        corpus="classroom",
        corpus_hash=corpus.content_hash,
        epsilon=2.0,
        delta=1e-6,
        max_length=4,
        contribution_limit=20,
        eta=0.05,
    )
    assert spec.record()["version"] == 2
    v1 = {**spec.record(), "version": 1}
    assert Spec.from_record(v1).version == 1 and Spec.from_record(v1).record() == v1
    out = dpcore.replay(v1, corpus)
    tc = dpcore.text.encode_users(corpus.user_sentences())
    old = dpcore.dpne_extract(
        tc,
        epsilon=2.0,
        delta=1e-6,
        max_length=4,
        contribution_limit=20,
        eta=0.05,
        noise_decay=1.0,
        pruning="both",
        selection="random",
        policy="weighted",
        rng=_old_rng_for(5, "dpne", 2.0, 1e-6, 4, 20, 1.0, "both", "random", "weighted"),
        selection_key="release",
    )
    assert out.release.ngrams == old.ngrams and out.release.sizes == old.sizes
    index = dpcore.build_ngram_index(tc, 10)
    rng = _old_rng_for(5, "dpne-baselines", 2.0, 1e-6, 4, 20, "random", "weighted")
    kw = dict(
        epsilon=2.0, delta=1e-6, max_length=4, contribution_limit=20, selection="random", policy="weighted", rng=rng
    )
    assert out.baselines == {
        r.name: r.sizes
        for r in (dpcore.dpsu_all(index, **kw), dpcore.dpsu_even(index, **kw), dpcore.dpsu_single(index, **kw))
    }
    # the spurious rows at the spec's η are the release's own
    assert [r["released"] for r in out.spurious if r["eta"] == 0.05] == [out.release.sizes[k] for k in range(1, 5)]
    # version 2: the selection keyed apart (DPNE) and the baselines from their plans and per-(ε, δ) noise
    new = dpcore.replay(spec.record(), corpus)
    assert new.release.ngrams == spec.prepare(tc).run(0.05).release.ngrams
    assert new.release.ngrams != out.release.ngrams
    assert new.baselines == {n: r.sizes for n, r in spec.dpsu_releases(spec.dpsu_plans(index)).items()}
    with pytest.raises(ValueError, match=r"record\['version'\] must be one of \[1, 2\]"):
        Spec.from_record({**spec.record(), "version": 3})


def test_dpne_unigram_cache_key_tells_the_policies_apart_and_each_plan_takes_its_own():
    """Issue 42 item 7: the page caches ``spec.unigram`` under ``spec.key(without=UNIGRAM_INDEPENDENT)``. Two specs
    with one key must be able to share the cached value; the weighted run's histogram is refused by a Policy
    Gaussian run (it depends on ε there), so the two policies must have two keys — moving from one to the other on
    the page raised "unigram needs policy='weighted'"."""
    corpus = dpcore.load_sample_corpus("private", size="classroom")
    tc = DpneSpec.token_corpus(corpus)
    base = dict(seed=3, corpus="classroom", corpus_hash=corpus.content_hash, epsilon=4.0, delta=1e-6, max_length=3)
    weighted, policy = DpneSpec(**base, policy="weighted"), DpneSpec(**base, policy="policy")
    without = DpneSpec.UNIGRAM_INDEPENDENT
    assert weighted.key(without=without) != policy.key(without=without)
    cached = weighted.unigram(tc)
    assert cached is not None and policy.unigram(tc) is None
    with pytest.raises(dpcore.UserError, match="unigram needs policy='weighted'"):
        policy.prepare(tc, unigram=cached)  # what a shared key handed it
    assert policy.prepare(tc, unigram=policy.unigram(tc)).run(policy.eta).release.total >= 0
    # a key that leaves out only what the value does not depend on: another ε or T shares the weighted histogram
    other = DpneSpec(**{**base, "epsilon": 1.0, "max_length": 4}, policy="weighted")
    assert other.key(without=without) == weighted.key(without=without)
    assert (
        other.prepare(tc, unigram=cached).run(other.eta).release.sizes == other.prepare(tc).run(other.eta).release.sizes
    )
