"""VIPS-LDA on the TopicDP page (issue 23): its knobs, cached loaders and panels. All maths is dpcore
(:mod:`dpcore.topicdp.vips`, :mod:`dpcore.topicdp.vips_comparison`); this module caches it and lays it out.

Caching by dependency: the one-time setup (public vocabulary and start, private counts, the non-private twin) per
corpus and K (``st.cache_resource``; the start and the twin are also on disk, dpcore.topicdp.vips_comparison); a release per
(corpus, K, B, J, seed, ε, δ) (``st.cache_data``: the seed is in the key). A J = 1 release at a new ε costs one σ
calibration and one draw of K·V normals (dpcore.topicdp.vips caches the first E-step per counts and start).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pandas as pd
import streamlit as st

from dpcore.topicdp import vips_comparison as tv
from dpcore.specs import TopicDpSpec
from dpcore.specs.topicdp import vips_salt
from dpcore.topicdp.prompts import prompt_documents
from dpcore.topicdp import VIPS_ACCOUNTANT, vips_epsilon, vocabulary_coverage
from dpcore.lab.review_rules import EVALUATION_ONLY

from dpui.common import uploads
from dpui.common.exercises import spoiler
from dpui.common.knobs import draw_knob
from dpui.common.state import rng_for
from dpui.common.texts import text

NAME, PUBLIC = tv.VIPS_NAME, tv.PUBLIC_ONLY_NAME
TWIN_MAX_USERS = 20_000
"""The non-private twin (50 passes over the private data: 2 s on the chat, ~75 s at paper size) is fitted up to this
many people; above, the page says nothing about it."""
BIG_DOCUMENTS = 50_000
"""Above this many private documents a release with J > 1 costs a second or more (its later E-steps run on every
document), so the charts draw :data:`FEW_DRAWS` releases per point instead of the page's number."""
FEW_DRAWS = 3


def chart_draws(setup, iterations: int, wanted: int) -> int:
    """How many releases a chart point draws: ``wanted``, or :data:`FEW_DRAWS` when every release is expensive."""
    return wanted if iterations == 1 or setup.counts.counts.shape[0] <= BIG_DOCUMENTS else min(wanted, FEW_DRAWS)


def knobs() -> tuple[float, int]:
    """B and J (an expander; keys in the URL)."""
    with st.expander("VIPS-LDA settings: clip norm B and iterations J"):
        a, b = st.columns(2)  # the knobs declared on TopicDpSpec's fields (dpcore.specs.topicdp)
        clip = draw_knob(TopicDpSpec, "clip_norm", a)
        iterations = draw_knob(TopicDpSpec, "iterations", b)
    return float(clip), int(iterations)


# ------------------------------------------------------------------------------ cached loaders
@st.cache_resource(show_spinner="Preparing VIPS-LDA: public vocabulary and start, private counts …", max_entries=4)
def setup_for(private_hash: str, public_hash: str, n_topics: int, public_name: str, _private, _public):
    return tv.vips_page_setup(
        _private,
        _public,
        n_topics=n_topics,
        public_name=public_name,
        twin=_private.n_users <= TWIN_MAX_USERS,
        save_private=not uploads.is_upload(private_hash),
    )


@st.cache_resource(show_spinner=False, max_entries=4)
def docs_for(private_hash: str, public_hash: str, n_topics: int, _corpus, _setup):
    """The labelled conversations counted over VIPS's public vocabulary (evaluation only)."""
    return prompt_documents(_corpus, _setup.vocabulary.words)


@st.cache_resource(show_spinner=False, max_entries=4)
def coverage_for(private_hash: str, public_hash: str, n_topics: int, _corpus, _setup):
    """How much of the private corpus's words VIPS's public vocabulary holds (evaluation only; issue 30 item 10)."""
    return vocabulary_coverage(_corpus, _setup.vocabulary)


def salt(epsilon: float, delta: float, n_topics: int, clip: float, iterations: int) -> list:
    """Every parameter that changes VIPS's release (the vocabulary and the start are fixed by the public data):
    dpcore.specs.topicdp.vips_salt, the salt TopicDpSpec draws with."""
    return vips_salt(epsilon=epsilon, delta=delta, n_topics=n_topics, clip=clip, iterations=iterations)


@st.cache_data(show_spinner=False, max_entries=64)
def release_for(
    private_hash: str,
    public_hash: str,
    n_topics: int,
    clip: float,
    iterations: int,
    seed: int,
    epsilon: float,
    delta: float,
    public_name: str,
    _setup,
):
    return tv.setup_release(
        _setup,
        epsilon=epsilon,
        delta=delta,
        clip_norm=clip,
        iterations=iterations,
        rng=rng_for(seed, *salt(epsilon, delta, n_topics, clip, iterations)),
    )


@st.cache_data(show_spinner="VIPS-LDA against ε …", max_entries=16)
def sweep_for(
    private_hash: str,
    public_hash: str,
    lda,
    m: int,
    n: int,
    clip: float,
    iterations: int,
    delta: float,
    seed: int,
    public_name: str,
    _setup,
    _model,
    _table,
    _docs,
):
    return tv.vips_sweep(
        _setup,
        model=_model,
        table=_table,
        docs=_docs,
        delta=delta,
        clip_norm=clip,
        iterations=iterations,
        seed=seed,
        draws=chart_draws(_setup, iterations, 10),
    )


@st.cache_data(show_spinner=False, max_entries=32)
def curve_for(
    private_hash: str,
    public_hash: str,
    lda,
    parameter: str,
    values: tuple,
    epsilon,
    delta: float,
    m,
    n,
    clip: float,
    iterations: int,
    reps: int,
    seed: int,
    public_name: str,
    _setup,
    _model,
):
    rng = rng_for(
        seed, "topicdp", "vips-curve", parameter, epsilon, delta, m, n, clip, iterations, reps, _setup.n_topics
    )
    return tv.vips_error_curve(
        _setup,
        model=_model,
        parameter=parameter,
        values=values,
        epsilon=epsilon,
        delta=delta,
        m=m,
        n=n,
        clip_norm=clip,
        iterations=iterations,
        repetitions=chart_draws(_setup, iterations, reps),
        rng=rng,
    )


@st.cache_data(show_spinner=False, max_entries=16)
def public_curve_for(
    private_hash: str,
    public_hash: str,
    lda,
    parameter: str,
    values: tuple,
    m: int,
    n: int,
    public_name: str,
    _setup,
    _model,
):
    return tv.fixed_release_curve(
        tv.public_only_release(_setup), model=_model, parameter=parameter, values=values, m=m, n=n
    )


@st.cache_data(show_spinner=False, max_entries=64)
def means_for(
    private_hash: str,
    public_hash: str,
    lda,
    m: int,
    n: int,
    clip: float,
    iterations: int,
    epsilon: float,
    delta: float,
    delta_s: float,
    gamma: float,
    seed: int,
    public_name: str,
    _setup,
    _model,
    _table,
) -> dict:
    """Mean L1 of every mechanism at the page's ε on the page's table (dpcore.topicdp.vips_comparison.mean_l1_at)."""
    rng = rng_for(
        seed, "topicdp", "vips-means", epsilon, delta, m, n, gamma, delta_s, clip, iterations, _setup.n_topics
    )
    return tv.mean_l1_at(
        _setup,
        model=_model,
        table=_table,
        epsilon=epsilon,
        delta=delta,
        delta_s=delta_s,
        clip_norm=clip,
        iterations=iterations,
        repetitions=chart_draws(_setup, iterations, 20),
        rng=rng,
    )


@st.cache_data(show_spinner=False, max_entries=16)
def thesis_for(private_hash: str, lda, m: int, n: int, delta: float, delta_s: float, seed: int, _matrix):
    return tv.thesis_l1_curve(_matrix, delta=delta, delta_s=delta_s, seed=seed)


@st.cache_resource(show_spinner=False, max_entries=8)
def fixed_comparisons_for(
    private_hash: str,
    public_hash: str,
    n_topics: int,
    lda,
    m: int,
    n: int,
    public_name: str,
    _setup,
    _model,
    _table,
    _docs,
) -> tuple:
    """The public-only fit and the non-private twin (None above :data:`TWIN_MAX_USERS`) read on the page's table: no
    noise and no ε in either, so computed once per corpus, model and table size, not on every ε move (issue 29)."""
    compare = lambda r, name: tv.compare_release(r, model=_model, table=_table, docs=_docs, mechanism=name)
    public = compare(tv.public_only_release(_setup), PUBLIC)
    return public, None if _setup.twin is None else compare(_setup.twin, "twin")


@st.cache_resource(show_spinner=False, max_entries=16)
def comparison_for(
    private_hash: str,
    public_hash: str,
    lda,
    m: int,
    n: int,
    seed: int,
    release_salt: tuple,
    public_name: str,
    _release,
    _model,
    _table,
    _docs,
):
    """VIPS-LDA's release read on the page's table (evaluation only), keyed by what the release is drawn from (the
    seed and ``release_salt``, :func:`salt`: every parameter that changes it) and by the table (the LDA fit and its
    size): a move of a knob neither depends on (γ, the sampler's) reads nothing again (issue 29: ~3 ms per γ move in AppTest; py-spy sampled it at up to 30 % of a γ move's script in a busy server)."""
    return tv.compare_release(_release, model=_model, table=_table, docs=_docs, mechanism=NAME)


# ------------------------------------------------------------------------------ what the page uses
@dataclass(frozen=True, eq=False)
class VipsOnPage:
    """VIPS-LDA's release at the page's settings, the public-only fit and the twin, each read on the page's table."""

    setup: tv.VipsPageSetup
    vips: tv.VipsComparison
    public: tv.VipsComparison
    twin: tv.VipsComparison | None
    clip: float
    iterations: int
    salt: list
    docs: object
    sweep: tv.VipsSweep
    means_of: Callable[[], dict]
    keys: tuple
    coverage: object = None  # dpcore.topicdp.VocabularyCoverage of the private corpus (evaluation only)

    @property
    def means(self) -> dict:
        """Every mechanism's mean L1 at the page's ε (:func:`means_for`: 20 draws of each, ~70 ms at a new ε), computed
        when a panel that shows it is drawn (the summary's expander, the VIPS tab), not on every ε move (issue 29)."""
        return self.means_of()

    @property
    def shown(self) -> dict:
        """The page's mechanism → object with ``.matrix`` and ``.noise_scale`` for the error table and the export."""
        return {NAME: self.vips, PUBLIC: self.public}


def prepare(
    settings, corpus, lda, model, table, *, docs, clip: float, iterations: int, delta_s: float, gamma: float
) -> VipsOnPage:
    """The setup, the page's VIPS release (cached by corpus, K, B, J, seed, ε, δ), the comparisons on the page's
    table, VIPS against ε (:func:`sweep_for`, ε-free) and every mechanism's mean L1 at ε (:func:`means_for`, on
    demand: :attr:`VipsOnPage.means`). ``docs``: the page's labelled documents (None: no prompts on this corpus)."""
    public = settings.public
    k, m, n = int(lda.n_topics), table.shape[0], table.shape[1]
    keys = (corpus.content_hash, public.content_hash)
    setup = setup_for(*keys, k, settings.public_label, corpus, public)
    vdocs = None if docs is None else docs_for(*keys, k, corpus, setup)
    eps, delta, seed = settings.epsilon, settings.delta, settings.seed
    rel = release_for(*keys, k, clip, iterations, seed, eps, delta, settings.public_label, setup)
    drawn_with = tuple(salt(eps, delta, k, clip, iterations))
    compared = comparison_for(*keys, lda, m, n, seed, drawn_with, settings.public_label, rel, model, table, vdocs)
    fixed = fixed_comparisons_for(*keys, k, lda, m, n, settings.public_label, setup, model, table, vdocs)
    sweep = sweep_for(
        *keys, lda, m, n, clip, iterations, delta, seed, settings.public_label, setup, model, table, vdocs
    )
    means = partial(
        means_for,
        *keys,
        lda,
        m,
        n,
        clip,
        iterations,
        eps,
        delta,
        delta_s,
        gamma,
        seed,
        settings.public_label,
        setup,
        model,
        table,
    )
    return VipsOnPage(
        setup,
        compared,
        *fixed,
        clip,
        iterations,
        list(drawn_with),
        vdocs,
        sweep,
        means,
        keys + (settings.public_label,),
        coverage_for(*keys, k, corpus, setup),
    )


def curve_series(
    v: VipsOnPage,
    lda,
    model,
    *,
    parameter: str,
    metric: str,
    values,
    epsilon: float,
    delta: float,
    m: int,
    n: int,
    reps: int,
    seed: int,
) -> dict:
    """VIPS-LDA's and the public-only fit's ``metric`` for the page's error-curve chart (``{name: (x, (mean, lo,
    hi))}``): against ε at the VIPS grid points inside the chart's range; against γ or the size at its values."""
    x = (
        tuple(e for e in tv.VIPS_EPSILONS if min(values) <= e <= max(values))
        if parameter == "epsilon"
        else tuple(float(x) for x in values)
    )
    if parameter == "epsilon":  # the swept value is not a parameter of the curve (an ε move keeps it)
        epsilon = None
    elif parameter == "size":
        m = n = None
    curve = curve_for(
        *v.keys[:2],
        lda,
        parameter,
        x,
        epsilon,
        delta,
        m,
        n,
        v.clip,
        v.iterations,
        reps,
        seed,
        v.keys[2],
        v.setup,
        model,
    )
    fixed = public_curve_for(
        *v.keys[:2], lda, parameter, tuple(float(x) for x in values), m, n, v.keys[2], v.setup, model
    )
    return {NAME: (x, curve[metric]), PUBLIC: (tuple(values), (fixed[metric], None, None))}


def export_settings(v: VipsOnPage) -> dict:
    """VIPS's part of the page's export settings: everything that made the release, and its seed salt."""
    r = v.vips.release
    return {
        "clip_norm_B": v.clip,
        "iterations_J": v.iterations,
        "n_topics_K": r.n_topics,
        "sigma": r.sigma,
        "accountant": r.accountant,
        "vocabulary": {"source": r.vocabulary_source, "size": len(r.words)},
        "start": r.start_source,
        "guarantee": r.guarantee,
        "rng_salt": v.salt,
        "reference": "the page's m × n table (the LDA fit the five matrix mechanisms perturb); VIPS's topics "
        "aligned to it on the shared words, read at its keyword columns, rows renormalised",
        "columns_outside_vocabulary": list(v.vips.missing),
    }


def _first_below(sweep, level: float) -> float | None:
    return next((e for e, x in zip(sweep.epsilons, sweep.stats["l1"][0]) if x < level), None)


def verdict(*, vips: float, lo: float, hi: float, ahead, draws: int, people: int) -> dict:
    """The words of "where VIPS wins, and where it does not", from the numbers measured on the corpus shown (issue 30
    item 10: on another corpus VIPS-LDA may be above the matrix mechanisms, and never below the public-only fit).
    ``vips``, ``lo``–``hi``: mean L1 of VIPS-LDA and the five matrix mechanisms at ε; ``ahead``: the first ε of
    the chart where VIPS-LDA's mean L1 is below the public-only fit's (None: none)."""
    if vips < lo:
        vs_matrix = (
            f": below all five on this corpus — its noise sits on counts that grow with the {people:,} people, not "
            "on probabilities in [0, 1] whose sensitivity cannot shrink"
        )
    elif vips <= hi:
        vs_matrix = ": within their range on this corpus, not below it"
    else:
        vs_matrix = ": above all five on this corpus"
    if ahead is not None:
        vs_public = (
            f"VIPS-LDA gets closer than it from ε = {ahead:g} of the chart on (mean of {draws} releases per ε). "
            "Below that, what the private people's clipped counts add does not outweigh the noise on every entry."
        )
    else:
        vs_public = (
            "VIPS-LDA gets closer than it at no ε of the chart up to 10 on this corpus: there the public-only fit, "
            "which reads no private data, is the better release."
        )
    return {"vs_matrix": vs_matrix, "vs_public": vs_public}


def coverage_sentence(coverage, missing, *, n_columns: int) -> str:
    """What VIPS's public vocabulary sees of the corpus shown (issue 30 item 10), marked evaluation only."""
    cols = (
        f" {len(missing)} of the table's {n_columns} keyword columns are outside it and read 0." if len(missing) else ""
    )
    return (
        f"VIPS-LDA sees only its public vocabulary: it holds {coverage.token_share:.0%} of this corpus's word tokens "
        f"outside the stop words ({coverage.words_covered:,} of its {coverage.words:,} distinct words); every other "
        f"word is dropped.{cols} {EVALUATION_ONLY}"
    )


def summary(v: VipsOnPage, *, eps: float, delta: float, m: int, n: int) -> None:
    """σ and accountant, the reference, and the two sentences: where VIPS wins and where it does not (mean L1 of
    every mechanism at ε, :func:`means_for`; VIPS against ε, :func:`sweep_for`)."""
    means, sweep = v.means, v.sweep
    r = v.vips.release
    c = st.columns(4)
    c[0].metric(
        "VIPS-LDA σ per count entry",
        f"{r.sigma:.4g}",
        help=f"Per iteration, on every one of the K × V = "
        f"{r.n_topics} × {len(r.words):,} expected counts; accountant: {VIPS_ACCOUNTANT}",
    )
    spent = vips_epsilon(sigma=r.sigma, delta=delta, iterations=r.iterations, clip_norm=v.clip)
    c[1].metric(
        "accountant's ε for (σ, J)",
        f"{spent:.4g}",
        help=f"dp_accounting's PLD accountant on J = {r.iterations} Gaussian mechanisms with noise multiplier "
        f"σ/B = {r.sigma / v.clip:.4g}, at δ = {delta:g}: at most the ε asked for",
    )
    c[2].metric(
        f"L1 to the {m} × {n} table: VIPS-LDA",
        f"{v.vips.errors['l1']:.3g}",
        help="this release, on the page's one reference table (lower is better; at most 2m)",
    )
    c[3].metric(f"L1: {PUBLIC} (0-DP)", f"{v.public.errors['l1']:.3g}", help="reads no private data")
    others = [x for name, x in means.items() if name not in (NAME, PUBLIC)]
    ahead = _first_below(sweep, v.public.errors["l1"])
    words = verdict(
        vips=means[NAME],
        lo=min(others),
        hi=max(others),
        ahead=ahead,
        draws=sweep.draws,
        people=v.setup.counts.n_users,
    )
    st.markdown(
        text(
            "topicdp",
            "vips_summary",
            eps=eps,
            sigma=r.sigma,
            vips=means[NAME],
            lo=min(others),
            hi=max(others),
            public=v.public.errors["l1"],
            l1_max=2 * m,
            B=v.clip,
            J=r.iterations,
            people=v.setup.counts.n_users,
            **words,
            twin=("" if v.twin is None else text("topicdp", "vips_twin", twin=v.twin.errors["l1"])),
            public_data=v.setup.public_name,
            V=len(r.words),
        )
    )
    if v.coverage is not None:
        st.caption(coverage_sentence(v.coverage, v.vips.missing, n_columns=n))
    if v.vips.match is not None:
        st.markdown(
            text(
                "topicdp",
                "vips_prompts",
                eps=eps,
                m=m,
                vips=v.vips.match.matched,
                public=v.public.match.matched,
                twin="" if v.twin is None else f"; VIPS's non-private twin {v.twin.match.matched}",
            )
        )


# ------------------------------------------------------------------------------ the tab "VIPS-LDA against ε"
def own_topics_rows(v: VipsOnPage) -> list[dict]:
    """The release's own table (topics and keywords chosen from the release): top words and the prompt matched."""
    c = v.vips
    rel, match = c.release, c.match
    rows = []
    for i, t in enumerate(c.own_table.topics):
        row = {"released topic": i + 1, "top 5 words": ", ".join(rel.keywords(t, 5))}
        if match is not None:
            row.update(
                {
                    "prompt matched": match.label(i) or "—",
                    "lift": round(match.lift[i], 2),
                    "conversations of that prompt": match.documents[i],
                }
            )
        rows.append(row)
    return rows


def tab(
    v: VipsOnPage, lda, table, *, eps: float, delta: float, delta_s: float, seed: int, before_matched: int | None, shown
) -> None:
    """VIPS's own released topics, its prompts and L1 against ε, the ε TopicDP (thesis) needs for its L1 (``shown``)."""
    from dpui.common.charts import show_figure
    from dpui.topicdp import figures

    m, n = table.shape
    st.markdown(text("topicdp", "vips_tab", m=m, n=n, eps=eps, V=len(v.vips.release.words), draws=v.sweep.draws))
    st.dataframe(pd.DataFrame(own_topics_rows(v)), hide_index=True, width="stretch")
    if v.sweep.matched is not None:
        fig, alt = figures.vips_prompts_figure(v.sweep, before=before_matched, public=v.public.match.matched)
        show_figure(fig, alt=alt, key="topicdp_vips_prompts", guarantees=shown)
    if delta_s is None:  # no sampler run: TopicDP (as in the thesis) has no σ yet (issue 31 item 7)
        st.info(
            "TopicDP (as in the thesis) beside VIPS-LDA needs the sampled sensitivity Δₛ: run the sampler.", icon="⏳"
        )
        return _audit_link()
    thesis = thesis_for(v.keys[0], lda, m, n, delta, delta_s, seed, table.matrix)
    fig, alt = figures.vips_vs_thesis_figure(v.sweep, thesis, public=v.public.errors["l1"], m=m, n=n)
    show_figure(fig, alt=alt, key="topicdp_vips_thesis", guarantees=shown)
    mean = v.means[NAME]
    now = tv.thesis_epsilon_for_l1(table.matrix, mean, delta=delta, delta_s=delta_s)
    st.metric(
        f"TopicDP (as in the thesis) needs this ε for VIPS-LDA's mean L1 at ε = {eps:g}",
        spoiler("topicdp_vips_equivalent", "out of reach" if now is None else f"{now:,.4g}"),
        help=f"VIPS-LDA's mean L1 at ε = {eps:g} on the page's table is {mean:.3g}; the ε where TopicDP's mean L1 "
        "(the same draws at every ε, σ ∝ 1/ε) comes down to it: dpcore.topicdp.vips_comparison.thesis_epsilon_for_l1",
    )
    _audit_link()


def _audit_link() -> None:
    """A link to the Privacy audit's VIPS-LDA pair (the clipped mechanism passes, the unclipped one is caught)."""
    from urllib.parse import urlencode

    from streamlit.errors import StreamlitPageNotFoundError

    from dpui.common.navigation import PAGES, ROOT

    page = next(p for p in PAGES if p.path.endswith("5_Privacy_audit.py"))
    label, query = "Audit VIPS-LDA and its unclipped variant in the Privacy audit", {"audit_mechanism": NAME}
    try:
        st.page_link(str(ROOT / page.path), label=label, icon=page.icon, query_params=query)
    except StreamlitPageNotFoundError:  # the page run on its own (AppTest) knows no other page: a plain link
        st.markdown(f"{page.icon} [{label}]({page.url_path}?{urlencode(query)})")


uploads.track_caches(globals())  # what is computed from an upload is given back with it (issue 25)
