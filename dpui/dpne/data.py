"""Cached loaders of the DP n-gram extraction page (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

The token ids and the per-user n-gram sets do not depend on the noise: ``st.cache_resource`` keyed by
the corpus hash. The DPSU baselines and the sweeps are noisy: the seed is an argument (so it is in the
cache key) and the draws come from the page's :class:`dpcore.specs.DpneSpec` (its ``rng``, salts and parts); each
loader is keyed by the spec's key (minus the fields that part does not depend on). All maths lives in dpcore.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from dpcore.dpne import kanonymity_coverage, pruning_chain
from dpcore.dpne.evaluation import kanonymity_reference
from dpcore.dpne.results import DpneRun
from dpcore.specs import DpneSpec
from dpcore.specs.dpne import BASELINES, ETA_GRID, INDEX_LENGTH  # noqa: F401 (BASELINES: for the page)
from dpcore.text import dpne_vs_dpsu_reason, reason_length, text_profile
from dpui.common.disk_cache import disk_shared, shareable

PAGE_DEFAULTS = {"eps": 4.0, "delta": 1e-6}
"""The page's own starting ε and δ (``shared_sidebar(defaults=...)``): Table 4's ε = 4 with δ = 1e-6, where DPNE's
lead over DPSU-single shows on the real chat's 920 people; at the global ε = 1 both release a handful of n-grams
there. Used until the session sets ε or δ on purpose; never carried to the other pages."""
ETA_OPTIONS = ETA_GRID
"""η values of the page's slider and of the spurious-share sweep (003 Table 3; dpcore.specs.dpne.ETA_GRID)."""
MAX_T = INDEX_LENGTH
"""Longest n-gram length the page offers (the per-user sets are built up to it once)."""
LAZY_USERS = 20_000
"""Above this many users (the paper-size sample: 100,000) the DPSU baselines and the k-anonymity coverage wait for
a button: each costs minutes there (README, "Sample corpora"), and a slider move must not rerun them. (The η
comparison waits for its own button on every corpus: its 7 runs are releases the session budget counts.)"""


# ------------------------------------------------------------------------------ noise-free
@st.cache_resource(show_spinner="Encoding the corpus as token ids …", max_entries=4)
def token_corpus(corpus_hash: str, _corpus):
    return DpneSpec.token_corpus(_corpus)


@st.cache_resource(show_spinner="Building the per-user n-gram sets …", max_entries=4)
def ngram_index(corpus_hash: str, _corpus):
    return DpneSpec.ngram_index(token_corpus(corpus_hash, _corpus))


# ------------------------------------------------------------------------------ keyed by the spec (seed included)
@st.cache_resource(show_spinner="Preparing DPNE (what does not depend on η) …", max_entries=3)
def dpne_plan(corpus_hash, plan_key: str, _spec: DpneSpec, _corpus):
    """``spec.prepare``: DPNE at every parameter but η (``plan_key`` = the spec's key without η), drawn from
    ``spec.rng(*spec.dpne_salt())``: S_1 and the length-2 histogram with its noise, ~90 % of a run on the
    paper-size corpus. Thresholding that one noisy histogram at several ρ_2(η) is post-processing of one Gaussian
    release (its zero-weight k-grams too: dpcore draws them nested across η); from length 3 on dpcore draws with η
    in the key (dpcore.specs.dpne). cache_resource: the plan holds the cached token corpus (never copied); a few
    hundred MB at paper size, hence few entries."""
    tc = token_corpus(corpus_hash, _corpus)
    return _spec.prepare(
        tc, unigram=_dpne_unigram(corpus_hash, _spec.key(without=DpneSpec.UNIGRAM_INDEPENDENT), _spec, _corpus)
    )


@st.cache_resource(show_spinner=False, max_entries=4)
def _dpne_unigram(corpus_hash, unigram_key: str, _spec: DpneSpec, _corpus):
    """``spec.unigram``: DPNE's length-1 histogram before noise (each user's kept Δ0 tokens), keyed by what it
    depends on (the corpus, the seed, Δ0, the rule): a new ε draws only its noise. None where it depends on ε."""
    return _spec.unigram(token_corpus(corpus_hash, _corpus))


@st.cache_resource(show_spinner="Running DPNE …", max_entries=16)
def _dpne_run(corpus_hash, run_key: str, _spec: DpneSpec, _corpus):
    """The default seed's runs on a shipped corpus are also kept on disk (dpui.common.disk_cache: shared by the processes
    of deploy/serve_class.py; never private-mode noise), without the token corpus their evaluation holds (25 MB on
    the chat; the cached one is put back on reading)."""

    def run():
        return dpne_plan(corpus_hash, _spec.key(without=DpneSpec.PLAN_INDEPENDENT), _spec, _corpus).run(_spec.eta)

    if not shareable(_spec.seed, _spec.corpus):
        return run()
    # ε-free, held in memory even when the run is read from disk: else the first ε not on disk draws it (and loads the
    # ranking kernel) inside a slider move, 0.6-2.3 s in the server (issue 29); a memory hit after this process's first
    _dpne_unigram(corpus_hash, _spec.key(without=DpneSpec.UNIGRAM_INDEPENDENT), _spec, _corpus)

    def without_corpus():
        release, evaluation = run()
        return DpneRun(release, dataclasses.replace(evaluation, corpus=None))

    release, evaluation = disk_shared("dpne_run", f"{corpus_hash}|{run_key}", without_corpus, share=True)
    return DpneRun(release, dataclasses.replace(evaluation, corpus=token_corpus(corpus_hash, _corpus)))


def dpne_run(spec: DpneSpec, corpus):
    """DPNE at the spec's η from the cached plan: a widget that is not a DPNE knob (log scale, K, a tab) redraws
    without rerunning it, and a setting seen before (here or in the η sweep) comes back at once."""
    return _dpne_run(corpus.content_hash, spec.key(without=("eta_grid",)), spec, corpus)


@st.cache_data(show_spinner=False, max_entries=64)
def _coverage(corpus_hash, run_key, ks: tuple, _spec, _corpus):
    release, evaluation = dpne_run(_spec, _corpus)
    index = ngram_index(corpus_hash, _corpus)
    # the release's token-id rows when the run and the index share the cached TokenCorpus: no string lookup
    released = evaluation.ids if evaluation.corpus is index.corpus else release
    ref = _kanonymity_reference(corpus_hash, min(ks), _corpus)  # ε-free: matched against, not rebuilt per ε
    return kanonymity_coverage(index, released, ks=list(ks), max_length=_spec.max_length, reference=ref)


@st.cache_resource(show_spinner=False, max_entries=4)
def _kanonymity_reference(corpus_hash, min_K: int, _corpus):
    """The k-grams used by at least ``min_K`` users up to MAX_T (noise-free: keyed by the corpus and K only)."""
    return kanonymity_reference(ngram_index(corpus_hash, _corpus), min_K=min_K, max_length=MAX_T)


def coverage(spec: DpneSpec, ks: tuple, corpus):
    """dpcore.dpne.kanonymity_coverage of the page's DPNE run (evaluation only), cached with the run's key and the K."""
    return _coverage(corpus.content_hash, spec.key(without=("eta_grid",)), tuple(ks), spec, corpus)


def chat_epsilon_sentence() -> str | None:
    """What ε DPNE needs on the real chat (dpcore.lab.paper_results.dpne_epsilon_sweep, measured by scripts/paper_compare.py
    into the results file, mean over seeds), or None when the file has no such entry."""
    from dpui.common.paper_vs_here import load_results

    entry = load_results().get("comparisons", {}).get("table4_chat") or {}
    return (entry.get("epsilon_sweep") or {}).get("sentence")


WHY_K = 10
"""The popularity threshold of the measured reason (k-grams used by at least this many users: on 920 people, 100 is
reached by no 4-gram)."""


@st.cache_resource(show_spinner=False, max_entries=4)
def _why_profile(corpus_hash, _corpus):
    """The corpus's text profile at K = WHY_K (noise-free: keyed by the corpus alone, not by ε)."""
    return text_profile(ngram_index(corpus_hash, _corpus), max_k=min(9, MAX_T), ks=(WHY_K,))


@st.cache_data(show_spinner="Measuring why DPNE and DPSU-single differ here …", max_entries=32)
def _why_dpne(corpus_hash, run_key, _spec, _corpus) -> str | None:
    if _spec.selection != "random" or _spec.policy != "weighted":
        return None
    index = ngram_index(corpus_hash, _corpus)
    release, _ = dpne_run(_spec, _corpus)
    profile = _why_profile(corpus_hash, _corpus)
    k = reason_length(release.thresholds, profile, K=WHY_K)
    chain = pruning_chain(index, release, K=WHY_K, lengths=() if k is None else (k,)).rows
    limit = _spec.contribution_limit
    reason = (
        dpne_vs_dpsu_reason(chain, profile, K=WHY_K, contribution_limit=limit, k=k)
        if k
        else dpne_vs_dpsu_reason([], profile, K=WHY_K, contribution_limit=limit)
    )
    return "**Why, measured on this run (evaluation only):** " + reason


def why_dpne(spec: DpneSpec, corpus) -> str | None:
    """dpcore.text.dpne_vs_dpsu_reason for the page's DPNE run: dpcore.dpne.pruning_chain at K = WHY_K and the corpus's text
    profile (evaluation only). None when the run does not use the random selection and the weighted policy (the
    chain's expected weights assume both)."""
    return _why_dpne(corpus.content_hash, spec.key(without=("eta_grid",)), spec, corpus)


@st.cache_resource(show_spinner="Drawing the DPSU baselines' selections …", max_entries=3)
def _dpsu_plans(corpus_hash, selection_key, _spec, _corpus):
    """``spec.dpsu_plans``: each baseline's per-user Δ0-item selection and weighted histogram (no noise), keyed by
    what they depend on (the corpus, the seed, T, Δ0, the rule, the policy; not ε, δ, η). cache_resource: private
    weighted counts, never copied; ~195 MB (pickled) per seed on the real chat, hence 3 entries: a class server's
    process holds about three people with their own seed on this page (30 on two processes, five pages), and with 2
    entries their ε moves evicted each other's selections (issue 29: 32 of 72 staggered moves over 0.7 s)."""
    return _spec.dpsu_plans(ngram_index(corpus_hash, _corpus))


@st.cache_data(show_spinner="Running the DPSU baselines …", max_entries=64)
def _baseline_sizes(corpus_hash, baseline_key, _spec, _corpus):
    if _spec.version == 1:
        return _spec.dpsu_baselines(ngram_index(corpus_hash, _corpus))

    # the ε-free selections first, even when the sizes are read from disk (as DPNE's length 1 in _dpne_run): a later ε
    # that is not on disk then draws only its noise instead of the selections inside a slider move
    plans = _dpsu_plans(corpus_hash, _spec.key(without=DpneSpec.SELECTION_INDEPENDENT), _spec, _corpus)

    def compute():
        return _spec.dpsu_baselines(None, plans)

    share = shareable(_spec.seed, _spec.corpus)  # on disk for the default seed (dpui.common.disk_cache)
    return disk_shared("dpsu_baselines", f"{corpus_hash}|{baseline_key}", compute, share=share)


def baseline_sizes(spec: DpneSpec, corpus) -> dict:
    """|S_k| of DPSU-all, DPSU-even and DPSU-single, by name (``spec.dpsu_baselines``; cached by the fields they
    depend on, so an η move does not rerun them). A new ε draws only the noise: the selections are cached apart."""
    return _baseline_sizes(corpus.content_hash, spec.key(without=DpneSpec.BASELINE_INDEPENDENT), spec, corpus)


@st.cache_data(show_spinner="Running DPNE for each η …", max_entries=64)
def _eta_sweep(corpus_hash, sweep_key, _spec, _corpus):
    return DpneSpec.spurious_rows({e: dpne_run(_spec.replace(eta=e), _corpus).evaluation for e in _spec.eta_grid})


def eta_sweep(spec: DpneSpec, corpus) -> list[dict]:
    """DPNE at every η of ``spec.eta_grid`` from one plan (the page's own draws): released and spurious k-grams per
    length (evaluation only). Each run goes through :func:`dpne_run`'s cache, so afterwards moving η redraws
    without running DPNE."""
    return _eta_sweep(corpus.content_hash, spec.key(without=("eta",)), spec, corpus)


def eta_releases(spec: DpneSpec, corpus) -> dict:
    """The DPNE releases of the η comparison besides the page's own (``{η: release}``, from :func:`dpne_run`'s
    cache): what the session budget must count when the comparison is shown (issue 30 item 3)."""
    return {e: dpne_run(spec.replace(eta=e), corpus)[0] for e in spec.eta_grid if e != spec.eta}


@st.cache_data(show_spinner="Sweeping …", max_entries=32)
def _knob_sweep(corpus_hash, knob, values, spec_key, _spec, _corpus):
    return _spec.knob_sweep(token_corpus(corpus_hash, _corpus), knob, values, run=lambda s: dpne_run(s, _corpus)[0])


def knob_sweep(spec: DpneSpec, knob: str, values: tuple, corpus) -> list[dict]:
    """003 Figs. 2–4: ``spec.knob_sweep`` (one DPNE run per value of one knob, the others at the spec). Each value is
    the release the page shows at that setting (through :func:`dpne_run`'s cache): the page's own value is the main
    chart's release."""
    return _knob_sweep(corpus.content_hash, knob, tuple(values), spec.key(without=("eta_grid",)), spec, corpus)


def sweep_releases(spec: DpneSpec, knob: str, values: tuple, corpus) -> dict:
    """The releases the sweep shows, by value (``{value: release}``; version 2, from :func:`dpne_run`'s cache):
    what the session budget counts when the sweep is drawn."""
    return {v: dpne_run(spec.replace(**{knob: v}), corpus)[0] for v in values}


# what is computed from an upload is given back with it (issue 25)
from dpui.common import uploads as _uploads  # noqa: E402

_uploads.track_caches(globals())
