"""TopicDpSpec: the TopicDP page's release (thesis 004; SPEC §5; issues 21 and 23) as one frozen spec.

What it describes: the LDA fit of the private corpus (``lda_*`` fields, :class:`dpcore.LdaSettings`), its m × n
topic–keyword table, the sampled sensitivity Δ_s at confidence γ (the sampler's N = ``sample_users`` and seed,
:class:`dpcore.topicdp.SamplerSettings`), one release of the table by each of TopicDP (as in the thesis), TopicDP corrected,
TopicDP strict, MVG and Laplace (:func:`dpcore.topicdp.release_all`), and VIPS-LDA (noise on the model's counts inside
training, clip norm B = ``clip_norm``, J = ``iterations``) with its public-only fit, both read on the same table
(:mod:`dpcore.topicdp.vips_comparison`); the errors of each against the table.

The sampled sensitivities are never computed here (2h LDA fits): :meth:`TopicDpSpec.run` reads the stored draws
(:func:`dpcore.topicdp.load_sensitivity_draws`) and raises ValueError naming the sampler when they do not cover γ.
A spec with ``sampled=False`` (issue 31 item 7: the page before the sampler ran, e.g. on an upload) releases only
the mechanisms that need no Δ_s (:data:`dpcore.topicdp.SAMPLER_FREE_MECHANISMS`: strict TopicDP and Laplace) and
reads no draws; its record says so, so a replay never pretends to hold a sampled release that was not made.

Draws (bit-identical to the page before issue 22):

* the five matrix mechanisms: one generator ``rng("topicdp", "release", ε, δ, m, n, γ, Δ_s)``, drawn in
  :data:`dpcore.topicdp.TOPIC_MECHANISMS` order (Δ_s is read off the stored draws, so it is known before the noise);
* ``sampled=False``: strict TopicDP then Laplace from ``rng("topicdp", "release-sampler-free", ε, δ, m, n)`` (neither
  depends on γ or Δ_s; once the sampler ran, the page's spec is ``sampled=True``: a new release, drawn as above);
* VIPS-LDA: ``rng("topicdp", "vips", ε, δ, K, B, J)`` (:func:`vips_salt`; the vocabulary and the start come from
  the public corpus, fixed).

:class:`TopicDpCurveSpec` (the error curves) draws from ``rng("topicdp-curve", parameter, ε, δ, γ, m, n,
repetitions, stage, stored pairs)``. Before issue 22 the page seeded them with a derivation of its own
(``SeedSequence([seed, crc32("topicdp-curve-<parameter>")] + …)``, a third one beside ``rng_for``); they now use
the one derivation, so the curves' draws (not what they measure) changed once.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..errors import UserError
from ..topicdp.experiments import release_all, release_error_table, release_without_sampler
from ..topicdp.fitting import fit_topic_model, topic_keyword_matrix
from ..topicdp.model import LDA_ENGINES, LdaSettings, default_lda_engine, document_term_data
from ..topicdp.model_cache import load_topic_model, save_topic_model
from ..topicdp.sampler import (
    SamplerSettings,
    load_sensitivity_draws,
    sensitivity_sampler_size,
)
from ..topicdp.vips import DEFAULT_CLIP_NORM, DEFAULT_ITERATIONS
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real
from .base import Spec, public_corpus_of
from .knobs import Salt, knob

if TYPE_CHECKING:  # annotations only (the outcome's fields): no import at run time
    from ..topicdp.model import TopicKeywordMatrix, TopicModel
    from ..topicdp.sampler import SensitivityDraws, SensitivityResult
    from ..topicdp.vips_comparison import VipsComparison

__all__ = [
    "TopicDpSpec",
    "TopicDpCurveSpec",
    "TopicDpOutcome",
    "vips_salt",
    "VIPS_NAME",
    "PUBLIC_ONLY_NAME",
    "CURVE_VALUES",
]

VIPS_NAME, PUBLIC_ONLY_NAME = "VIPS-LDA", "Public-only fit"  # as dpcore.topicdp.vips_comparison names them
CLIP_OPTIONS = (0.5, 1.0, 2.0, 5.0, 10.0, 20.0)
"""VIPS-LDA's clip norms B the page offers."""
_N_TOPICS: dict[str, Any] = dict(key="topicdp_k", label="LDA topics K", kind="number", low=3, high=20)


def vips_salt(*, epsilon: float, delta: float, n_topics: int, clip: float, iterations: int) -> list:
    """VIPS-LDA's salt: every parameter that changes its release (the vocabulary and the start are the public
    corpus's). The page and :class:`TopicDpSpec` both draw with it (and export it)."""
    return ["topicdp", "vips", epsilon, delta, n_topics, clip, iterations]


class TopicDpOutcome(NamedTuple):
    """:meth:`TopicDpSpec.run`: the model, the m × n table, the stored draws, the sensitivity result (Δ_s, h, k;
    both None with ``sampled=False``), the five matrix releases by name (strict TopicDP's and Laplace's only with
    ``sampled=False``), VIPS-LDA's and the public-only fit's comparisons on the table (``None``
    when ``with_vips`` is False), and the errors ``{mechanism: {l1, rmse, kendall, noise_scale}}`` of all shown."""

    model: TopicModel
    table: TopicKeywordMatrix
    draws: SensitivityDraws | None
    sensitivity: SensitivityResult | None
    releases: dict
    vips: VipsComparison | None
    public_only: VipsComparison | None
    errors: dict

    @property
    def shown(self) -> dict:
        """Every mechanism the page shows → its object with ``.matrix`` and ``.noise_scale``."""
        extra = {} if self.vips is None else {VIPS_NAME: self.vips, PUBLIC_ONLY_NAME: self.public_only}
        return {**self.releases, **extra}


@dataclasses.dataclass(frozen=True, kw_only=True)
class _TopicTable(Spec):
    """What every TopicDP computation shares: the public corpus's hash, ε, δ, γ, the table's m × n, the LDA and the
    sampler settings (the model, the table and the stored draws)."""

    public_hash: str | None = None
    epsilon: float = knob(1.0, salts=True)  # ε and δ: the shared sidebar's
    delta: float = knob(1e-5, salts=True)
    gamma: float = knob(
        0.1,
        key="topicdp_gamma",
        label="γ (share of neighbours not covered)",
        kind="slider",
        low=0.01,
        high=0.30,
        step=0.01,
        help="Confidence of random DP: the guarantee holds for at least a 1 − γ share of neighbouring datasets. "
        "Smaller γ needs more sampled pairs (h grows like 1/γ²).",
        salts=True,
    )
    m: int = knob(10, key="topicdp_m", label="m (topics in the table)", kind="slider", low=2, high=10, salts=True)
    n: int = knob(10, key="topicdp_n", label="n (keywords in the table)", kind="slider", low=2, high=10, salts=True)
    lda_engine: str | None = None
    # the LDA and sampler settings: no salt (they move the table and the sampled Δ_s, which is in the release's salt);
    # K salts VIPS-LDA's release (its model has K topics)
    n_topics: int = knob(10, **_N_TOPICS, salts=True)
    max_iter: int = knob(10, key="topicdp_max_iter", label="LDA max_iter", kind="number", low=1, high=100, salts=False)
    learning_method: str = knob(
        "batch",
        key="topicdp_method",
        label="learning_method",
        kind="selectbox",
        options=("batch", "online"),
        salts=False,
    )
    max_doc_update_iter: int = knob(
        10, key="topicdp_doc_iter", label="max_doc_update_iter", kind="number", low=1, high=200, salts=False
    )
    max_features: int = knob(
        1000,
        key="topicdp_vocab",
        label="vocabulary size (max_features)",
        kind="number",
        low=50,
        high=5000,
        step=50,
        salts=False,
    )
    sample_users: int | None = knob(
        None,
        key="topicdp_N",
        label="sampled dataset size N (users; 0 = the corpus' size, as the thesis)",
        kind="number",
        low=0,
        high=5000,
        none_as=0,
        help="Each sampled neighbouring pair has N users drawn uniformly with replacement from the corpus (the "
        "distribution P). 0 means N = the corpus' number of users (004 Algorithm 1); a smaller N is faster but moves "
        "the topics more per user.",
        salts=False,
    )  # the sampler's settings: no salt (they move the sampled Δ_s, which is in the release's salt)
    sampler_seed: int = knob(
        0, key="topicdp_sampler_seed", label="sampler seed", kind="number", low=0, high=2**31 - 1, salts=False
    )

    def _validated(self) -> dict:
        if self.public_hash is not None and not isinstance(self.public_hash, str):
            raise TypeError(f"public_hash must be a string (Corpus.content_hash), got public_hash={self.public_hash!r}")
        engine = (
            default_lda_engine()
            if self.lda_engine is None
            else check_choice("lda_engine", self.lda_engine, LDA_ENGINES)
        )
        gamma = check_real("gamma", self.gamma, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        sensitivity_sampler_size(gamma=gamma)  # γ the sampler can serve (its own checks)
        n_topics = check_int("n_topics", self.n_topics, low=2, high=50)
        out = dict(
            epsilon=check_epsilon(epsilon=self.epsilon),
            delta=check_delta(delta=self.delta),
            gamma=gamma,
            m=check_int("m", self.m, low=1, high=n_topics),
            n=check_int("n", self.n, low=2, high=10),
            lda_engine=engine,
            n_topics=n_topics,
            max_iter=check_int("max_iter", self.max_iter, low=1),
            max_doc_update_iter=check_int("max_doc_update_iter", self.max_doc_update_iter, low=1),
            max_features=check_int("max_features", self.max_features, low=10),
            sample_users=None if self.sample_users is None else check_int("sample_users", self.sample_users, low=2),
            sampler_seed=check_int("sampler_seed", self.sampler_seed, low=0),
        )
        self.lda_settings(**out)  # LdaSettings' own checks (learning_method, the engine installed)
        return out

    def lda_settings(self, **override) -> LdaSettings:
        """The :class:`dpcore.LdaSettings` of the fit (the page's knobs; the rest at LdaSettings' defaults)."""
        f = {
            k: override.get(k, getattr(self, k))
            for k in ("lda_engine", "n_topics", "max_iter", "learning_method", "max_doc_update_iter", "max_features")
        }
        return LdaSettings(engine=f.pop("lda_engine"), **f)

    def sampler_settings(self) -> SamplerSettings:
        return SamplerSettings(sample_users=self.sample_users, seed=self.sampler_seed)

    def model(self, corpus, *, cache_dir=None, save: bool = True):
        """The LDA model of the whole private corpus: from the disk cache when stored, else fitted (and saved when
        ``save``: the page saves the sample corpora's fits, never an upload's)."""
        lda = self.lda_settings()
        model = load_topic_model(corpus.content_hash, lda=lda, cache_dir=cache_dir) if save else None
        if model is None:
            model = fit_topic_model(document_term_data(corpus, settings=lda), settings=lda)
            if save:
                try:
                    save_topic_model(model, cache_dir=cache_dir)
                except OSError:  # a read-only cache: keep it in memory
                    pass
        return model

    def table(self, model):
        return topic_keyword_matrix(model, m=self.m, n=self.n)

    def draws(self, corpus, *, cache_dir=None):
        """The stored sampled sensitivities for the spec's LDA and sampler settings; ValueError when they do not
        cover γ (the sampler is run by the page's button, or dpcore.topicdp.extend_sensitivity_draws)."""
        draws = load_sensitivity_draws(
            corpus.content_hash, lda=self.lda_settings(), sampler=self.sampler_settings(), cache_dir=cache_dir
        )
        if not draws.covers(self.gamma):
            raise UserError(
                f"gamma={self.gamma:g} needs h = {sensitivity_sampler_size(gamma=self.gamma).h:,} sampled pairs, "
                f"{draws.n_pairs:,} are stored for this corpus and these LDA and sampler settings: run the "
                "sampler (the TopicDP page's button, or dpcore.topicdp.extend_sensitivity_draws)"
            )
        return draws


@dataclasses.dataclass(frozen=True, kw_only=True)
class TopicDpSpec(_TopicTable):
    """The TopicDP page's release: ε, δ, γ, the table's m × n, the LDA and sampler settings, VIPS-LDA's B and J."""

    KIND = "topicdp"
    NOISE_FREE = ("delta_s", "h", "keywords", "before_noise", "noise_scales")  # the sampled Δ_s, the LDA fit, σ
    NOTEBOOK_FIGURE = """
names = list(result.errors)
fig = go.Figure([go.Bar(x=names, y=[result.errors[name][metric] for name in names], name=label)
                 for metric, label in (("l1", "L1 distance"), ("rmse", "RMSE"), ("kendall", "Kendall's tau distance"))])
fig.update_layout(barmode="group", yaxis_type="log", yaxis_title="error against the table (lower is better, log scale)",
                  title=f"This draw's errors at ε = {spec.epsilon:g}, δ = {spec.delta:g}, γ = {spec.gamma:g}, {spec.m} × {spec.n} "
                        + (f"(Δ_s = {result.sensitivity.delta_s:.4g})" if spec.sampled else "(sampler not run)"))
"""

    SALTS = {  # the matrix mechanisms' salts end with the sampled Δ_s (salt()); `sampled` picks the stream
        "release": Salt(
            ("topicdp", "release"),
            ("epsilon", "delta", "m", "n", "gamma"),
            without=("n_topics", "clip_norm", "iterations", "sampled"),  # VIPS-LDA's; the stream's choice
        ),
        "sampler-free": Salt(  # strict TopicDP and Laplace depend on neither γ nor Δ_s
            ("topicdp", "release-sampler-free"),
            ("epsilon", "delta", "m", "n"),
            without=("gamma", "n_topics", "clip_norm", "iterations", "sampled"),
        ),
        "vips": Salt(  # the vocabulary and the start are the public corpus's; the table is read after
            ("topicdp", "vips"),
            ("epsilon", "delta", "n_topics", "clip_norm", "iterations"),
            without=("gamma", "m", "n", "sampled"),
        ),
    }

    clip_norm: float = knob(
        DEFAULT_CLIP_NORM,
        key="topicdp_vips_B",
        label="clip norm B (ℓ2 bound of one person's expected counts per iteration)",
        kind="select",
        options=CLIP_OPTIONS,
        help="Each person's K × V expected topic–word counts are scaled down to ℓ2 norm B before the noise: the "
        "sensitivity of one iteration, however much they wrote. σ grows with B.",
        salts=True,
    )
    iterations: int = knob(
        DEFAULT_ITERATIONS,
        key="topicdp_vips_J",
        label="iterations J (each one a Gaussian mechanism)",
        kind="number",
        low=1,
        high=5,
        help="Every iteration costs √J in σ (the PLD accountant composes them); from the public start one private "
        "iteration was best when tuned on the chat's public people (scripts/vips_tune_public.py). With J > 1 every "
        "release runs J − 1 more E-steps over the private documents: on a large corpus the charts then draw fewer "
        "releases per point.",
        salts=True,
    )
    with_vips: bool = knob(True, salts=False)  # whether VIPS-LDA is computed: its draws, when it is, are the same
    sampled: bool = knob(True, salts=True)
    """False: the sampler has not run (no draws cover γ): only strict TopicDP and Laplace are released (records made
    before this field had it True: they replay as before)."""

    def _validated(self) -> dict:
        for name in ("with_vips", "sampled"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be a bool, got {name}={getattr(self, name)!r}")
        return {
            **super()._validated(),
            "clip_norm": check_real("clip_norm", self.clip_norm, low=0.0, low_inclusive=False),
            "iterations": check_int("iterations", self.iterations, low=1),
            "with_vips": bool(self.with_vips),
            "sampled": bool(self.sampled),
        }

    # -------------------------------------------------------------- settings objects and salts
    def salt(self, delta_s: float | None) -> tuple:
        """The five matrix mechanisms' salt (every parameter of their release; Δ_s from the stored draws); with
        ``sampled=False`` (``delta_s`` None) the salt of strict TopicDP and Laplace alone (ε, δ, m, n)."""
        if not self.sampled:
            if delta_s is not None:
                raise UserError(f"delta_s must be None when sampled=False (no sampler ran), got delta_s={delta_s!r}")
            return self.salt_of("sampler-free")
        if delta_s is None:
            raise UserError("delta_s must be the sampled sensitivity when sampled=True, got delta_s=None")
        return (*self.salt_of("release"), delta_s)

    def vips_salt(self) -> list:
        return list(self.salt_of("vips"))

    def noise_salts(self) -> dict[str, tuple]:
        """The matrix mechanisms' salt (at a stand-in Δ_s = 1: the stored draws give the real one) and VIPS-LDA's."""
        matrix = self.salt(1.0) if self.sampled else self.salt(None)
        return {"matrix": matrix, "vips": tuple(self.vips_salt())}

    # -------------------------------------------------------------- the parts (the page caches each)
    def release(self, table, sensitivity) -> dict:
        """The five matrix releases of ``table`` (``sensitivity``: the draws' SensitivityResult at γ, m, n); with
        ``sampled=False`` (``sensitivity`` None) strict TopicDP's and Laplace's only."""
        if not self.sampled:
            return release_without_sampler(
                table.matrix, epsilon=self.epsilon, delta=self.delta, rng=self.rng(*self.salt(None))
            )
        if sensitivity is None:
            raise UserError("sensitivity must be the draws' SensitivityResult when sampled=True, got None")
        return release_all(
            table.matrix,
            epsilon=self.epsilon,
            delta=self.delta,
            sensitivity=sensitivity,
            rng=self.rng(*self.salt(sensitivity.delta_s)),
        )

    def vips_setup(self, corpus, public, *, public_name: str | None = None, twin: bool = False, save: bool = True):
        from ..topicdp.vips_setup import vips_page_setup

        return vips_page_setup(
            corpus, public, n_topics=self.n_topics, public_name=public_name, twin=twin, save_private=save
        )

    def vips_release(self, setup):
        """VIPS-LDA's release at (ε, δ, B, J) on the setup, drawn from ``rng(*vips_salt())``."""
        from ..topicdp.vips_comparison import setup_release

        return setup_release(
            setup,
            epsilon=self.epsilon,
            delta=self.delta,
            clip_norm=self.clip_norm,
            iterations=self.iterations,
            rng=self.rng(*self.vips_salt()),
        )

    def public_corpus(self, public=None):
        """The public corpus (VIPS-LDA's vocabulary and start): ``public``, else the one ``corpus`` names; its hash
        checked against ``public_hash``."""
        return public_corpus_of(self, public)

    def curve_spec(self, **fields) -> "TopicDpCurveSpec":
        """The error curves' spec at this spec's shared settings (``fields``: parameter, repetitions, stage)."""
        shared = {f.name: getattr(self, f.name) for f in dataclasses.fields(_TopicTable)}
        return TopicDpCurveSpec(**shared, **fields)

    # -------------------------------------------------------------- the whole computation
    def run(self, corpus=None, public=None) -> TopicDpOutcome:
        from ..topicdp.vips_comparison import compare_release
        from ..topicdp.vips_setup import public_only_release

        if corpus is None:
            raise UserError("corpus must be a Corpus (TopicDpSpec runs on the private corpus), got corpus=None")
        model = self.model(corpus, save=self.corpus != "upload")  # nothing derived from an upload on disk
        table = self.table(model)
        draws = self.draws(corpus) if self.sampled else None
        sens = None if draws is None else draws.sensitivity(gamma=self.gamma, m=self.m, n=self.n)
        releases = self.release(table, sens)
        vips = public_only = None
        if self.with_vips:
            setup = self.vips_setup(corpus, self.public_corpus(public), save=self.corpus != "upload")
            vips = compare_release(self.vips_release(setup), model=model, table=table, mechanism=VIPS_NAME)
            public_only = compare_release(
                public_only_release(setup), model=model, table=table, mechanism=PUBLIC_ONLY_NAME
            )
        shown = {**releases, **({} if vips is None else {VIPS_NAME: vips, PUBLIC_ONLY_NAME: public_only})}
        return TopicDpOutcome(
            model, table, draws, sens, releases, vips, public_only, release_error_table(table.matrix, shown)
        )

    def numbers(self, result: TopicDpOutcome) -> dict:
        return {
            "delta_s": None if result.sensitivity is None else float(result.sensitivity.delta_s),
            "h": None if result.sensitivity is None else int(result.sensitivity.h),
            "keywords": list(result.table.words),
            "before_noise": np.asarray(result.table.matrix).ravel().tolist(),
            "after": {name: np.asarray(r.matrix).ravel().tolist() for name, r in result.shown.items()},
            "noise_scales": {name: float(r.noise_scale) for name, r in result.shown.items()},
            "errors": {name: {k: float(v) for k, v in e.items()} for name, e in result.errors.items()},
        }


CURVE_VALUES = {
    "epsilon": tuple(float(x) for x in np.arange(1.0, 10.01, 0.5)),
    "gamma": (0.02, 0.07, 0.12, 0.17, 0.22),
    "size": tuple(float(x) for x in range(2, 11)),
}
"""The x values of the error curves: ε from 1 to 10, γ from 0.02 to 0.22, the matrix size m = n from 2 to 10."""
STAGES = ("released", "noisy")


@dataclasses.dataclass(frozen=True, kw_only=True)
class TopicDpCurveSpec(_TopicTable):
    """The TopicDP page's error curves: L1 / RMSE / Kendall of the five matrix mechanisms against ε, γ or the size
    m = n (the others at the spec's values), mean and 10–90 % band over ``repetitions`` releases per point, measured
    on the release (``stage="released"``: clipped, rows renormalised) or on the noisy matrix (``"noisy"``)."""

    KIND = "topicdp-curve"
    NOISE_FREE = ("values",)
    NOTEBOOK_FIGURE = """
fig = go.Figure([go.Scatter(x=result.values, y=result.stats["l1"][mech][0], mode="lines+markers", name=mech)
                 for mech in result.stats["l1"]])
fig.update_layout(xaxis_title=spec.parameter, yaxis_type="log", yaxis_title="L1 distance (lower is better, log scale)",
                  title=f"Error against {spec.parameter} ({spec.repetitions} releases per point, {spec.stage})")
"""

    SALTS = {  # the swept fields are None in it (salt()); then the number of stored pairs
        "curve": Salt(
            ("topicdp-curve",),
            ("parameter", "epsilon", "delta", "gamma", "m", "n", "repetitions", "stage"),
        )
    }

    n_topics: int = knob(
        10, **_N_TOPICS, salts=False
    )  # salts VIPS-LDA's release only: the curves are the matrix mechanisms'

    parameter: str = knob(
        "epsilon",
        key="topicdp_curve_param",
        label="Vary",
        kind="radio",
        options=tuple(CURVE_VALUES),
        captions=("ε from 1 to 10", "γ from 0.02 to 0.22", "matrix size m = n from 2 to 10"),
        salts=True,
    )
    repetitions: int = knob(
        20, key="topicdp_reps", label="repetitions", kind="slider", low=5, high=100, step=5, salts=True
    )
    stage: str = knob(
        "released",
        key="topicdp_stage",
        label="Measured on",
        kind="radio",
        options=STAGES,
        captions=("release (clipped, rows renormalised)", "noisy matrix before clipping"),
        salts=True,
    )

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "parameter": check_choice("parameter", self.parameter, tuple(CURVE_VALUES)),
            "repetitions": check_int("repetitions", self.repetitions, low=1),
            "stage": check_choice("stage", self.stage, STAGES),
        }

    SWEPT = {"epsilon": ("epsilon",), "gamma": ("gamma",), "size": ("m", "n")}
    """The fields a curve replaces by its x values: the curve does not depend on them (an ε move leaves the curve
    against ε as it is)."""

    def swept(self) -> tuple[str, ...]:
        return self.SWEPT[self.parameter]

    def salt(self, n_pairs: int) -> tuple:
        """Every parameter the curve depends on (the swept one is None), and the number of stored pairs (more
        pairs: other Δ_s, new draws)."""
        return (*self.salt_of("curve", **dict.fromkeys(self.swept())), int(n_pairs))

    def noise_salts(self) -> dict[str, tuple]:
        return {"curve": self.salt(0)}

    def curve(self, model, draws):
        from ..topicdp.experiments import error_curve

        return error_curve(
            model,
            draws,
            parameter=self.parameter,
            values=CURVE_VALUES[self.parameter],
            epsilon=self.epsilon,
            delta=self.delta,
            gamma=self.gamma,
            m=self.m,
            n=self.n,
            repetitions=self.repetitions,
            rng=self.rng(*self.salt(draws.n_pairs)),
            stage=self.stage,
        )

    def run(self, corpus=None):
        if corpus is None:
            raise UserError("corpus must be a Corpus (TopicDpCurveSpec runs on the private corpus), got corpus=None")
        return self.curve(self.model(corpus, save=self.corpus != "upload"), self.draws(corpus))

    def numbers(self, result) -> dict:
        def clean(a):
            return [None if not np.isfinite(x) else float(x) for x in np.asarray(a, dtype=float)]

        return {
            "values": list(result.values),
            "sensitivities": clean(result.sensitivities),
            "stats": {
                metric: {mech: [clean(a) for a in band] for mech, band in by_mech.items()}
                for metric, by_mech in result.stats.items()
            },
        }
