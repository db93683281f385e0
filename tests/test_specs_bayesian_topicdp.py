"""The Bayesian and TopicDP specs (issue 22): validation on construction, record ↔ spec, complete records, the
draws of the pages before issue 22 (each salt rebuilt by brute force from the old code's literal tuples)."""

from __future__ import annotations

import dataclasses
import json
import zlib

import numpy as np
import pytest

import dpcore
from dpcore.specs import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianKlEpsilonSpec,
    BayesianPerplexitySpec,
    BayesianSpec,
    Spec,
    TopicDpCurveSpec,
    TopicDpSpec,
    replay,
    spec_kinds,
)
from dpcore.specs.bayesian import SWEEP_EPS

SPECS = (
    BayesianSpec,
    BayesianKlEpsilonSpec,
    BayesianDataSweepSpec,
    BayesianPerplexitySpec,
    BayesianAttackSpec,
    BayesianEndToEndSpec,
    TopicDpSpec,
    TopicDpCurveSpec,
)


def _old_rng(seed, *salt):
    """dpui.common.state.rng_for before issue 22 (copied)."""
    return np.random.default_rng(np.random.SeedSequence([seed] + [zlib.crc32(repr(s).encode()) for s in salt]))


def _same_stream(a, b) -> bool:
    return np.array_equal(a.standard_normal(32), b.standard_normal(32))


@pytest.mark.parametrize("cls", SPECS)
def test_registered_and_record_round_trips_through_json(cls):
    spec = cls(seed=3, corpus="classroom", corpus_hash="p" * 64, public_hash="q" * 64)
    assert spec_kinds()[cls.KIND] is cls
    rec = spec.record()
    back = Spec.from_record(json.loads(json.dumps(rec)))
    assert back == spec and type(back) is cls and back.key() == spec.key()
    # the record names every field of the spec (nothing a run reads is left out)
    assert set(rec) == {"spec", "version"} | {f.name for f in dataclasses.fields(cls)}
    # every field changes the cache key
    keys = {spec.key()}
    for f in dataclasses.fields(cls):
        value = getattr(spec, f.name)
        other = {bool: lambda v: not v, int: lambda v: v + 1, float: lambda v: v / 2}
        if f.name in ("corpus", "corpus_hash", "public_hash"):
            changed = spec.replace(**{f.name: {"corpus": "chat"}.get(f.name, "r" * 64)})
        elif f.name == "epsilons":
            changed = spec.replace(epsilons=(0.5, 1.0))
        elif cls in (TopicDpSpec, TopicDpCurveSpec) and f.name in ("m", "n"):  # at their largest (10) by default
            changed = spec.replace(**{f.name: value - 1})
        elif f.name == "sample_users":
            changed = spec.replace(sample_users=50)
        elif isinstance(value, str):
            alternatives = {
                "calibration": "classic",
                "mode": "local",
                "sweep": "vocabulary",
                "learning_method": "online",
                "lda_engine": "sklearn",
                "parameter": "gamma",
                "stage": "noisy",
            }
            changed = spec.replace(**{f.name: alternatives[f.name]})
        else:
            changed = spec.replace(**{f.name: other[type(value)](value)})
        keys.add(changed.key())
    assert len(keys) == len(dataclasses.fields(cls)) + 1


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: BayesianSpec(epsilon=-1), r"epsilon must be > 0, got epsilon=-1"),
        (lambda: BayesianSpec(delta=1.5), r"delta"),
        (lambda: BayesianSpec(mode="loose"), r"mode must be one of .*got mode='loose'"),
        (lambda: BayesianSpec(max_items=0), r"max_items must be >= 1, got max_items=0"),
        (lambda: BayesianSpec(max_users=10**13), r"max_users must be <= "),
        (lambda: BayesianSpec(rho=0), r"rho"),
        (lambda: BayesianSpec(C=0), r"C must be >= 1, got C=0"),
        (lambda: BayesianSpec(calibration="exact"), r"calibration must be one of"),
        (lambda: BayesianKlEpsilonSpec(W=0), r"W must be >= 1, got W=0"),
        (lambda: BayesianKlEpsilonSpec(epsilons=(1.0, -2.0)), r"epsilon must be > 0"),
        (lambda: BayesianDataSweepSpec(sweep="people"), r"sweep must be one of"),
        (lambda: BayesianAttackSpec(trials=9), r"trials must be >= 10, got trials=9"),
        (lambda: TopicDpSpec(gamma=0), r"gamma must be > 0"),
        (lambda: TopicDpSpec(m=11), r"m must be <= 10, got m=11"),
        (lambda: TopicDpSpec(learning_method="fast"), r"learning_method must be one of"),
        (lambda: TopicDpSpec(sample_users=1), r"sample_users must be >= 2"),
        (lambda: TopicDpSpec(clip_norm=0), r"clip_norm must be > 0"),
    ],
)
def test_validation_names_parameter_and_value(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_keyword_only_frozen_and_normalised():
    with pytest.raises(TypeError):
        BayesianSpec(1.0)
    spec = BayesianSpec(epsilon=2, max_items=7.0)
    assert (
        spec.epsilon == 2.0
        and isinstance(spec.epsilon, float)
        and spec.max_items == 7
        and isinstance(spec.max_items, int)
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.max_items = 3
    assert TopicDpSpec().lda_engine in dpcore.topicdp.LDA_ENGINES  # the engine that really fits, recorded


def test_salts_are_the_pages_before_issue_22():
    """The literal salt tuples of pages/2_Bayesian_ngram_DP.py, dpui/bayesian/data.py, dpui/bayesian/modes.py,
    pages/4_TopicDP.py and dpui/topicdp/vips.py before issue 22: the same streams, so today's numbers are unchanged."""
    s = BayesianSpec(
        seed=5,
        epsilon=0.5,
        delta=1e-6,
        n=2,
        S=0.01,
        rho=0.4,
        C=2,
        calibration="classic",
        mode="local",
        max_items=20,
        max_users=2400,
    )
    old = ("bayes-release", 0.5, 1e-6, 2, 0.01, 2, 0.4, "classic", "local", 20, 2400)
    assert s.salt() == old and _same_stream(s.rng(*s.salt()), _old_rng(5, *old))
    assert _same_stream(s.rng(*s.salt("strict")), _old_rng(5, *old[:8], "strict", 20, 2400))
    assert _same_stream(s.rng(*s.item_cap_salt()), _old_rng(5, "bayes-item-cap", 2, 2, 20))
    k = BayesianKlEpsilonSpec(
        seed=5,
        delta=1e-6,
        n=2,
        S=0.01,
        rho=0.4,
        C=2,
        W=3,
        calibration="classic",
        with_end_to_end=True,
        max_items=20,
        max_users=2400,
    )
    assert _same_stream(
        k.rng(*k.salt()), _old_rng(5, "bayes-eps-sweep", 1e-6, 2, 0.01, 2, 0.4, 3, "classic", True, 20, 2400)
    )
    assert k.replace(epsilons=(1.0, 2.0)).salt()[-1] == (1.0, 2.0)  # another ε grid: other draws
    d = BayesianDataSweepSpec(
        seed=5,
        sweep="vocabulary",
        epsilon=0.5,
        delta=1e-6,
        n=2,
        S=0.01,
        rho=0.4,
        C=2,
        W=3,
        calibration="classic",
        max_items=20,
        max_users=2400,
    )
    assert _same_stream(
        d.rng(*d.salt()), _old_rng(5, "bayes", "vocabulary", 2, 0.5, 1e-6, 0.01, 2, 0.4, 3, "classic", 20, 2400)
    )
    p = BayesianPerplexitySpec(seed=5, epsilon=0.5, delta=1e-6, S=0.01, rho=0.4, C=2, W=3, K=20, calibration="classic")
    assert _same_stream(p.rng(*p.salt()), _old_rng(5, "bayes-perplexity", 0.5, 1e-6, 0.01, 2, 0.4, 3, 20, "classic"))
    assert _same_stream(p.rng(*p.split_salt()), _old_rng(5, "bayes-perplexity-split"))
    a = BayesianAttackSpec(seed=5, n=2, delta=1e-6, S=0.01, rho=0.4, C=2, W=3, trials=200, calibration="classic")
    assert _same_stream(a.rng(*a.salt()), _old_rng(5, "bayes-attack", 2, 1e-6, 0.01, 2, 0.4, 3, 200, "classic"))
    e = BayesianEndToEndSpec(seed=5, n=2, C=2, epsilon=0.5, delta=1e-6, calibration="classic")
    assert _same_stream(e.rng(*e.salt()), _old_rng(5, "bayes-e2e", 0.5, 1e-6, 2, 2, "classic"))
    assert _same_stream(e.rng(*e.split_salt()), _old_rng(5, "bayes-e2e-split", 2, 2))
    t = TopicDpSpec(seed=5, epsilon=2.0, delta=1e-6, gamma=0.2, m=4, n=6, n_topics=8, clip_norm=5.0, iterations=2)
    assert _same_stream(t.rng(*t.salt(1.25)), _old_rng(5, "topicdp", "release", 2.0, 1e-6, 4, 6, 0.2, 1.25))
    assert _same_stream(t.rng(*t.vips_salt()), _old_rng(5, "topicdp", "vips", 2.0, 1e-6, 8, 5.0, 2))
    from dpui.topicdp.vips import salt as page_vips_salt

    c = t.curve_spec(parameter="gamma", repetitions=10, stage="noisy")
    assert isinstance(c, TopicDpCurveSpec) and (c.m, c.n, c.n_topics, c.epsilon) == (4, 6, 8, 2.0)
    # the one derivation now (issue 22; before, the page seeded the curves with crc32 of "topicdp-curve-gamma");
    # the swept γ is not in it (None): the curve against γ does not depend on the sidebar's γ
    assert _same_stream(
        c.rng(*c.salt(300)), _old_rng(5, "topicdp-curve", "gamma", 2.0, 1e-6, None, 4, 6, 10, "noisy", 300)
    )

    assert page_vips_salt(2.0, 1e-6, 8, 5.0, 2) == t.vips_salt()


@pytest.fixture(scope="module")
def classroom():
    try:
        return dpcore.load_sample_corpus("private"), dpcore.load_sample_corpus("public")
    except dpcore.CorpusError:
        pytest.skip("sample corpus not generated yet")


def test_bayesian_release_is_the_old_page_path_and_replays(classroom):
    """BayesianSpec.run = the page's calls before issue 22 (counts → statistics with the seeded item cap → strict
    prepare → release), and a replay of its record (public corpus loaded by id) gives the same θ."""
    from dpcore.specs.base import derive_rng

    priv, pub = classroom
    spec = BayesianSpec(
        seed=1,
        corpus="classroom",
        corpus_hash=priv.content_hash,
        public_hash=pub.content_hash,
        epsilon=0.5,
        max_items=12,
        max_users=5000,
    )
    out = spec.run(priv, pub)
    c = dpcore.ngram_counts(priv, pub, n=1)
    stats = dpcore.bayesian.bayesian_statistics(
        c.user_counts, c.public_counts, C=1, max_items=12, rng=derive_rng(1, "bayes-item-cap", 1, 1, 12)
    )
    prep = stats.prepare(S=1e-3, rho=0.3, sensitivity="strict", max_users=5000)
    rel = prep.release(
        epsilon=0.5,
        delta=1e-5,
        calibration="auto",
        rng=derive_rng(1, "bayes-release", 0.5, 1e-5, 1, 1e-3, 1, 0.3, "auto", "strict", 12, 5000),
    )
    assert np.array_equal(out.release.theta, rel.theta) and out.release.sigma == rel.sigma
    again = replay(json.loads(json.dumps(spec.record())), priv)
    assert np.array_equal(again.release.theta, out.release.theta)
    assert spec.numbers(again) == spec.numbers(out)
    with pytest.raises(ValueError, match="public must be the public corpus the spec was made on"):
        spec.replace(public_hash="0" * 64).run(priv, pub)
    with pytest.raises(ValueError, match="max_users"):  # more users than the public cap N_max
        spec.replace(max_users=100).run(priv, pub)


def test_kl_epsilon_record_carries_L_and_N_max(classroom):
    """Issue 22 found the KL-vs-ε export without L and N_max, which its sweep uses: the strict curve depends on both,
    so a record without them (the defaults) replays other numbers, and the complete record replays the same."""
    priv, pub = classroom
    spec = BayesianKlEpsilonSpec(
        seed=0,
        corpus="classroom",
        corpus_hash=priv.content_hash,
        public_hash=pub.content_hash,
        repetitions=2,
        epsilons=(0.5, 1.0),
        max_items=5,
        max_users=5000,
    )
    out = spec.run(priv, pub)
    rec = spec.record()
    assert (rec["max_items"], rec["max_users"]) == (5, 5000)  # L and N_max
    assert spec.numbers(replay(rec, priv)) == spec.numbers(out)
    for missing in ("max_items", "max_users"):
        partial = {k: v for k, v in rec.items() if k != missing}
        other = replay(partial, priv).summary[dpcore.bayesian.BAYESIAN_STRICT]
        assert not np.array_equal(other.mean, out.summary[dpcore.bayesian.BAYESIAN_STRICT].mean), missing
    assert spec.rows(out)[-1]["mechanism"] == "k-anonymity, K = 10 (not DP)"
    assert SWEEP_EPS == BayesianKlEpsilonSpec().epsilons


def _small_specs(priv, pub):
    """One spec of every kind the page's tabs offer that the replay test does not run as a script, at small sizes."""
    common = dict(corpus="classroom", corpus_hash=priv.content_hash, public_hash=pub.content_hash, seed=2)
    return [
        BayesianDataSweepSpec(**common, sweep="users", repetitions=2),
        BayesianPerplexitySpec(**common, epsilon=2.0),
        BayesianAttackSpec(**common, trials=10),
        BayesianEndToEndSpec(**common, epsilon=0.5),
        TopicDpCurveSpec(**common, parameter="size", repetitions=2, stage="noisy"),
    ]


def test_generated_scripts_of_the_other_kinds_print_their_specs_numbers(classroom, tmp_path, monkeypatch, capsys):
    """ "Reproduce in Python" for the data sweeps, perplexity, the attack, EndToEndDP and the error curves: the
    generated script (run in this process: dpcore only, corpus by id) prints exactly the numbers of ``spec.run``
    (twice the same numbers: every draw comes from the spec's seed), and its figure code runs."""
    import runpy

    from dpcore.specs import script

    priv, pub = classroom
    monkeypatch.chdir(tmp_path)
    for spec in _small_specs(priv, pub):
        expected = json.loads(json.dumps(spec.numbers(spec.run(priv))))
        path = tmp_path / f"{spec.KIND}.py"
        path.write_text(script(spec), encoding="utf-8")
        runpy.run_path(str(path), run_name="__main__")
        out = capsys.readouterr().out
        assert "WARNING" not in out, out
        line = next(x for x in out.splitlines() if x.startswith("NUMBERS "))
        assert json.loads(line[len("NUMBERS ") :]) == expected, spec.KIND
        if spec.NOTEBOOK_FIGURE:
            assert (tmp_path / f"{spec.KIND}_figure.html").stat().st_size > 1000, spec.KIND


def test_an_error_curve_does_not_depend_on_the_field_it_sweeps():
    """The curve against ε replaces ε by its x values: an ε move keeps its draws and cache key (the page's ε slider
    no longer recomputes it); the curves against γ and the size do depend on ε, and ignore γ or m, n in turn."""
    base = TopicDpSpec(epsilon=1.0).curve_spec(parameter="epsilon", repetitions=5, stage="released")
    moved = base.replace(epsilon=4.0)
    assert base.salt(100) == moved.salt(100) and base.key(without=base.swept()) == moved.key(without=moved.swept())
    assert base.key() != moved.key()  # the record still says which ε the page showed
    assert base.salt(100) != base.replace(delta=1e-6).salt(100)
    by_gamma = base.replace(parameter="gamma")
    assert by_gamma.salt(100) != by_gamma.replace(epsilon=4.0).salt(100)
    assert by_gamma.salt(100) == by_gamma.replace(gamma=0.05).salt(100)
    by_size = base.replace(parameter="size")
    assert by_size.salt(100) == by_size.replace(m=5, n=5).salt(100) != by_size.replace(epsilon=4.0).salt(100)
