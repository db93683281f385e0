"""Specs drive the knobs (issue 33 item 2): a spec field declares its widget and whether it salts the noise
(dpcore.specs.knobs); the salts, the pages' widget tables, the exercise keys and the presets are derived from it.

* The derived salts are the salts the pages had (worked examples written out by hand): exports and replays keep
  drawing bit for bit.
* Generic: for every spec and every field, moving a field declared ``salts=True`` to another valid value changes the
  spec's noise salts, and moving any other field leaves them as they are; a run draws only from declared salts.
* Every knob's key is unique across its page, drawn by the generic drawer, and bound to the URL.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from dpcore.specs import (
    BayesianAttackSpec,
    BayesianDataSweepSpec,
    BayesianEndToEndSpec,
    BayesianKlEpsilonSpec,
    BayesianPerplexitySpec,
    BayesianSpec,
    DpneSpec,
    M101Spec,
    Spec,
    TopicDpCurveSpec,
    TopicDpSpec,
    spec_kinds,
)
from dpcore.specs.knobs import Knob, Salt, knob, knob_of, knobs_of, stream_fields, widget_keys
from dpcore.errors import UserError

ROOT = Path(__file__).resolve().parent.parent
SALTED = sorted((cls for cls in spec_kinds().values() if cls.SALTS), key=lambda c: c.KIND)
NOT_MOVED = {"seed", "corpus", "corpus_hash", "public_hash", "lda_engine"}
"""Fields the generic test does not move: the seed is the stream itself, the corpus and its hashes are the data, and
the LDA engine is whichever is installed."""


# ------------------------------------------------------------------- the derived salts are the pages' salts
def test_derived_salts_are_the_salts_the_pages_had():
    """Worked examples: each salt as the spec modules wrote it by hand before the knobs were declared."""
    b = BayesianSpec(epsilon=2.0, delta=1e-6, n=2, S=0.5, C=3, rho=0.7, calibration="classic", max_items=7)
    assert b.salt() == ("bayes-release", 2.0, 1e-6, 2, 0.5, 3, 0.7, "classic", "strict", 7, 10_000)
    assert b.salt("local") == ("bayes-release", 2.0, 1e-6, 2, 0.5, 3, 0.7, "classic", "local", 7, 10_000)
    assert b.item_cap_salt() == ("bayes-item-cap", 2, 3, 7)
    kl = BayesianKlEpsilonSpec(W=5, K=3, repetitions=4, with_end_to_end=True)
    assert kl.salt() == ("bayes-eps-sweep", 1e-5, 1, 1e-3, 1, 0.3, 5, "auto", True, 50, 10_000)
    assert kl.replace(epsilons=(1.0, 2.0)).salt() == kl.salt() + ((1.0, 2.0),)
    sweep = BayesianDataSweepSpec(sweep="public", W=4, epsilon=3.0)
    assert sweep.salt() == ("bayes", "public", 1, 3.0, 1e-5, 1e-3, 1, 0.3, 4, "auto", 50, 10_000)
    ppl = BayesianPerplexitySpec(K=3, W=7)
    assert ppl.split_salt() == ("bayes-perplexity-split",)
    assert ppl.salt() == ("bayes-perplexity", 1.0, 1e-5, 1e-3, 1, 0.3, 7, 3, "auto")
    assert BayesianAttackSpec(trials=400).salt() == ("bayes-attack", 1, 1e-5, 1e-3, 1, 0.3, 2, 400, "auto")
    e2e = BayesianEndToEndSpec(n=2, C=4, S=0.1, rho=0.5)
    assert e2e.split_salt() == ("bayes-e2e-split", 2, 4)
    assert e2e.salt() == ("bayes-e2e", 1.0, 1e-5, 2, 4, "auto")
    d = DpneSpec(max_length=4, contribution_limit=10, noise_decay=0.9, pruning="single", policy="policy")
    assert d.dpne_salt() == ("dpne", 4.0, 1e-6, 4, 10, 0.9, "single", "random", "policy")
    assert d.dpne_selection_salt() == ("dpne-selection", 10, "random")
    assert d.baseline_salt() == ("dpne-baselines", 4.0, 1e-6, 4, 10, "random", "policy")
    assert d.baseline_selection_salt("DPSU-all") == ("dpsu-selection", "DPSU-all", 4, 10, "random", "policy")
    assert d.baseline_noise_salt("DPSU-even") == ("dpsu-noise", "DPSU-even", 4.0, 1e-6, 4, 10, "random", "policy")
    t = TopicDpSpec(epsilon=3.0, gamma=0.2, m=4, n=5, n_topics=6, clip_norm=5.0, iterations=2)
    assert t.salt(0.25) == ("topicdp", "release", 3.0, 1e-5, 4, 5, 0.2, 0.25)
    assert t.replace(sampled=False).salt(None) == ("topicdp", "release-sampler-free", 3.0, 1e-5, 4, 5)
    assert t.vips_salt() == ["topicdp", "vips", 3.0, 1e-5, 6, 5.0, 2]
    c = TopicDpCurveSpec(parameter="size", repetitions=5, stage="noisy", gamma=0.2)
    assert c.salt(17) == ("topicdp-curve", "size", 1.0, 1e-5, 0.2, None, None, 5, "noisy", 17)
    assert c.replace(parameter="gamma").salt(3) == ("topicdp-curve", "gamma", 1.0, 1e-5, None, 10, 10, 5, "noisy", 3)
    assert M101Spec(mechanism="Laplace", draws=10, epsilon=0.5).sample_salt() == ("m101-sample", "Laplace", 10, 0.5)


# ------------------------------------------------------------------- generic: every field of every spec
def _candidates(spec: Spec, name: str):
    """Other values for field ``name``: its knob's (options, or a slider's ends and middle), else by type."""
    k, value = knob_of(spec, name), getattr(spec, name)
    if k.options or k.kind:
        yield from k.values()
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield from (value + 1, value * 2, value - 1)
    elif isinstance(value, float):
        yield from (value * 2, value / 2, 0.5)
    elif isinstance(value, tuple):
        yield from (value[:-1], value[:1])
    elif value is None:
        yield from (100, 2.0)


def _moved(spec: Spec, name: str) -> Spec:
    """``spec`` with field ``name`` at another value its validation accepts."""
    for v in _candidates(spec, name):
        if v == getattr(spec, name) and type(v) is type(getattr(spec, name)):
            continue
        try:
            return spec.replace(**{name: v})
        except (UserError, ValueError, TypeError):
            continue
    raise AssertionError(f"{type(spec).__name__}.{name}: no other valid value found to move it to")


CASES = [
    (cls, f.name)
    for cls in SALTED
    for f in dataclasses.fields(cls)
    if f.name not in NOT_MOVED and not (cls is TopicDpCurveSpec and f.name in ("epsilon", "gamma", "m", "n"))
]


@pytest.mark.parametrize("cls, name", CASES, ids=[f"{c.KIND}.{n}" for c, n in CASES])
def test_a_salting_field_moves_the_noise_and_no_other_field_does(cls, name):
    spec = cls(seed=3)
    moved = _moved(spec, name)
    before, after = spec.noise_salts(), moved.noise_salts()
    if knob_of(cls, name).salts:
        assert before != after, f"{cls.__name__}.{name} is declared salts=True but no noise salt moves with it"
        rng = lambda salts: [spec.rng(*s).standard_normal(4).tolist() for s in salts.values()]  # noqa: E731
        assert rng(before) != rng(after)  # the draws themselves change
    else:
        assert before == after, f"{cls.__name__}.{name} is not declared salts=True but moves the noise salts"


def test_every_parameter_decides_whether_it_salts():
    """Every field of a spec with salts (but the data's, the seed and the engine) is declared with ``knob(...,
    salts=...)``, and ``knob`` has no default for ``salts``: a new field cannot leave the noise by forgetting."""
    for cls in SALTED:
        undeclared = [f.name for f in dataclasses.fields(cls) if f.name not in NOT_MOVED and "knob" not in f.metadata]
        assert not undeclared, f"{cls.__name__}: {undeclared} declare no knob(..., salts=True/False)"
    with pytest.raises(TypeError, match="salts"):
        knob(1.0, key="k", label="k", kind="slider", low=0.0, high=2.0)  # type: ignore[call-arg]


def test_the_curve_moves_with_the_fields_it_does_not_sweep():
    """TopicDpCurveSpec leaves the swept field out of its salt (None): it moves with every other one."""
    for parameter, fixed in (("epsilon", ("gamma", "m", "n")), ("gamma", ("epsilon", "m")), ("size", ("epsilon",))):
        spec = TopicDpCurveSpec(parameter=parameter, m=5, n=5)
        for name in fixed:
            assert _moved(spec, name).noise_salts() != spec.noise_salts(), (parameter, name)
        for name in spec.swept():
            assert _moved(spec, name).noise_salts() == spec.noise_salts(), (parameter, name)


def test_a_new_salting_field_is_in_the_noise_without_being_written_into_a_salt():
    """The newcomer's case: a field declared salts=True and named in no salt's order is appended to every noise
    stream (and to no stream that is not noise); a stream naming a field not declared salting is refused."""

    @dataclasses.dataclass(frozen=True, kw_only=True)
    class WithNewKnob(BayesianSpec):
        KIND = ""  # not registered
        new_knob: float = knob(0.5, salts=True, key="bayes_new", label="new", kind="slider", low=0.0, high=1.0)

    spec = WithNewKnob()
    assert spec.salt() == BayesianSpec().salt() + (0.5,)
    assert spec.item_cap_salt() == BayesianSpec().item_cap_salt()
    assert spec.replace(new_knob=0.25).salt() != spec.salt()
    bad = Salt(("x",), ("epsilon", "seed"))
    with pytest.raises(UserError, match=r"names \['seed'\], which are not declared salts=True"):
        stream_fields(BayesianSpec, bad)
    with pytest.raises(UserError, match="not a field"):
        stream_fields(BayesianSpec, Salt(("x",), ("no_such_field",)))


# ------------------------------------------------------------------- a run draws only from declared salts
def _tiny_corpus(seed: int):
    from dpcore.text.corpus import corpus_from_records

    rng = np.random.default_rng(seed)
    words = "the cat sat on a mat and then a dog ran far away".split()
    rows = [
        {"user": f"u{u}", "text": " ".join(rng.choice(words, size=6)) + ". " + " ".join(rng.choice(words, size=5))}
        for u in range(30)
        for _ in range(3)
    ]
    return corpus_from_records(rows, user_field="user", text_field="text")


def _recorded(monkeypatch, run) -> list[tuple]:
    seen: list[tuple] = []
    real = Spec.rng

    def rng(self, *salt):
        seen.append(salt)
        return real(self, *salt)

    monkeypatch.setattr(Spec, "rng", rng)
    run()
    return seen


def test_runs_draw_only_from_the_declared_salts(monkeypatch):
    """BayesianSpec, DpneSpec and M101Spec run on a tiny corpus: every generator they derive is one of their
    declared salts (the noise salts, and the streams that are not noise); so a field declared salting moves the
    draws of the run itself."""
    private, public = _tiny_corpus(1), _tiny_corpus(2)
    for mode in ("strict", "local"):
        spec = BayesianSpec(mode=mode, max_items=3, max_users=100)
        seen = _recorded(monkeypatch, lambda: spec.run(private, public))
        allowed = {spec.salt(), spec.item_cap_salt()}
        assert seen and set(seen) <= allowed, set(seen) - allowed
        assert spec.salt() in seen
    d = DpneSpec(max_length=3, contribution_limit=5, eta_grid=(0.01, 0.1))
    seen = _recorded(monkeypatch, lambda: d.run(private))
    names = ("DPSU-all", "DPSU-even", "DPSU-single")
    allowed = {*d.noise_salts().values(), d.dpne_selection_salt(), *(d.baseline_selection_salt(n) for n in names)}
    assert set(seen) <= allowed and set(d.noise_salts().values()) <= set(seen), set(seen) ^ allowed
    m = M101Spec(draws=20)
    assert _recorded(monkeypatch, lambda: m.run()) == [m.sample_salt()]


# ------------------------------------------------------------------- keys: unique, drawn, bound to the URL
def _pages():
    from dpui.common.exercise_keys import PAGE_SPECS

    return PAGE_SPECS


def test_every_knob_key_is_unique_across_its_page_and_kept():
    """One key per field and one field per key on a page (a link sets one thing), and the pages' tables hold the keys
    shared links carry (the strings the pages had before the knobs were declared)."""
    from dpui.bayesian.knobs import SPEC_WIDGETS as BAYES
    from dpui.dpne.knobs import SPEC_WIDGETS as DPNE
    from dpui.topicdp.knobs import SPEC_WIDGETS as TOPIC

    for page, specs in _pages().items():
        keys = widget_keys(specs)
        assert len(set(keys.values())) == len(keys), page
    shared = {"corpus": "corpus", "seed": "seed", "epsilon": "eps", "delta": "delta"}
    assert BAYES == {
        **shared,
        **dict(n="bayes_n", S="bayes_S", rho="bayes_rho", C="bayes_C", calibration="bayes_calibration"),
        **dict(mode="bayes_mode", max_items="bayes_L", max_users="bayes_Nmax", W="bayes_W", K="bayes_K"),
        **dict(repetitions="bayes_reps", trials="bayes_trials"),
    }
    assert DPNE == {
        **shared,
        **dict(max_length="dpne_T", contribution_limit="dpne_delta0", eta="dpne_eta", noise_decay="dpne_c"),
        **dict(pruning="dpne_pruning", selection="dpne_selection", policy="dpne_policy"),
    }
    assert TOPIC == {
        **shared,
        **dict(gamma="topicdp_gamma", m="topicdp_m", n="topicdp_n", n_topics="topicdp_k"),
        **dict(max_iter="topicdp_max_iter", learning_method="topicdp_method", max_doc_update_iter="topicdp_doc_iter"),
        **dict(max_features="topicdp_vocab", sample_users="topicdp_N", sampler_seed="topicdp_sampler_seed"),
        **dict(clip_norm="topicdp_vips_B", iterations="topicdp_vips_J", parameter="topicdp_curve_param"),
        **dict(repetitions="topicdp_reps", stage="topicdp_stage"),
    }
    with pytest.raises(UserError, match="two widget keys"):

        @dataclasses.dataclass(frozen=True, kw_only=True)
        class Clash(BayesianSpec):
            KIND = ""
            rho: float = knob(0.3, salts=True, key="bayes_rho2", label="ρ", kind="slider", low=0.0, high=1.0)

        widget_keys((BayesianSpec, Clash))


def test_every_knob_of_a_page_is_drawn_by_the_generic_drawer():
    """Each keyed knob of a page's specs is drawn somewhere (``draw_knob(<Spec>, "<field>")`` in dpui or the page, or
    the Bayesian sidebar's sections, which add any knob not drawn elsewhere)."""
    from dpui.bayesian import knobs as bayesian_knobs

    sources = [*sorted((ROOT / "dpui").rglob("*.py")), *sorted((ROOT / "pages").glob("*.py"))]
    drawn = {
        (cls, field)
        for f in sources
        for cls, field in re.findall(r'draw_knob\(\s*(\w+),\s*"(\w+)"', f.read_text(encoding="utf-8"))
    }
    drawn |= {("sidebar", f) for names in bayesian_knobs._sidebar_sections().values() for f in names}
    fields_drawn = {f for _, f in drawn}
    for page, specs in _pages().items():
        for spec in specs:
            for name, k in knobs_of(spec).items():
                if k.key:
                    assert name in fields_drawn, f"{page}: {spec.__name__}.{name} ({k.key}) is drawn nowhere"
    for cls, field in drawn - {d for d in drawn if d[0] == "sidebar"}:
        assert knob_of(getattr(__import__("dpcore.specs", fromlist=[cls]), cls), field).key, (cls, field)


class _Where:
    """A stand-in for a Streamlit container: records each widget call."""

    def __init__(self):
        self.calls: list[tuple[str, tuple, dict]] = []

    def __getattr__(self, kind):
        def widget(*args, **kwargs):
            self.calls.append((kind, args, kwargs))
            return kwargs.get("value", args[3] if len(args) > 3 else None)

        return widget


def test_the_generic_drawer_binds_every_knob_to_the_url_under_its_key():
    from dpui.common.knobs import DRAWERS, draw_knob

    kinds = set()
    for specs in _pages().values():
        for spec in specs:
            for name, k in knobs_of(spec).items():
                if not k.key:
                    continue
                where = _Where()
                draw_knob(spec, name, where)
                ((kind, args, kwargs),) = where.calls
                kinds.add(k.kind)
                assert kwargs["key"] == k.key and kwargs["bind"] == "query-params", (spec.__name__, name)
                assert kwargs["persist_state"] == "session" and args[0] == k.label
    assert kinds == set(DRAWERS) - {"toggle"}  # every kind the pages use has a drawer (no page toggle declared yet)


def test_a_knob_says_which_values_it_offers():
    rho = knob_of(BayesianSpec, "rho")
    assert rho.allows(0.3) and rho.allows(1.0) and not rho.allows(0.33) and not rho.allows(1.05)
    c = knob_of(BayesianSpec, "C")
    assert c.allows(20) and not c.allows(2.0) and not c.allows(21) and not c.allows(True)
    assert knob_of(BayesianSpec, "max_users").allows(2400) and not knob_of(BayesianSpec, "max_users").allows(2401)
    assert knob_of(DpneSpec, "contribution_limit").allows(50)  # a number input takes any value in its range
    n = knob_of(TopicDpSpec, "sample_users")
    assert n.widget_value(None) == 0 and n.widget_value(40) == 40
    with pytest.raises(UserError, match="kind must be one of"):
        Knob(key="k", kind="dial")
    with pytest.raises(UserError, match="needs options"):
        Knob(key="k", kind="radio")
    with pytest.raises(UserError, match="needs low and high"):
        Knob(key="k", kind="slider", low=0)
