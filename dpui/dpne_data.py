"""Cached loaders of the DP n-gram extraction page (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

The token ids and the per-user n-gram sets do not depend on the noise: ``st.cache_resource`` keyed by
the corpus hash. The DPSU baselines and the sweeps are noisy: the seed is an argument (so it is in the
cache key) and the draws come from ``rng_for(seed, salt…)``. All maths lives in dpcore.
"""

from __future__ import annotations

import streamlit as st

from dpcore import build_ngram_index, dpne_extract, dpsu_all, dpsu_even, dpsu_single, prepare_dpne
from dpcore.text import dpne_vs_dpsu_reason, encode_users, reason_length, text_profile
from dpcore.dpne import kanonymity_coverage, pruning_chain

from .state import rng_for

PAGE_DEFAULTS = {"eps": 4.0, "delta": 1e-6}
"""The page's own starting ε and δ (``shared_sidebar(defaults=...)``): Table 4's ε = 4 with δ = 1e-6, where DPNE's
lead over DPSU-single shows on the real chat's 920 people; at the global ε = 1 both release a handful of n-grams
there. Used until the session sets ε or δ on purpose; never carried to the other pages."""
ETA_OPTIONS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
"""η values of the page's slider and of the spurious-share sweep (003 Table 3)."""
MAX_T = 10
LAZY_USERS = 20_000
"""Above this many users (the paper-size sample: 100,000) the DPSU baselines and the k-anonymity coverage wait for
a button: each costs minutes there (README, "Sample corpora"), and a slider move must not rerun them. (The η sweep
does not wait: from the cached plan it is ~0.7 s per η there, and it leaves every η of the slider in the cache.)"""
"""Longest n-gram length the page offers (the per-user sets are built up to it once)."""


# ------------------------------------------------------------------------------ noise-free
@st.cache_resource(show_spinner="Encoding the corpus as token ids …", max_entries=4)
def token_corpus(corpus_hash: str, _corpus):
    tc = encode_users(_corpus.user_sentences())
    _ = tc.unigram_pairs  # computed once here, reused by every DPNE run (an assignment: no st magic)
    return tc


@st.cache_resource(show_spinner="Building the per-user n-gram sets …", max_entries=4)
def ngram_index(corpus_hash: str, _corpus):
    return build_ngram_index(token_corpus(corpus_hash, _corpus), MAX_T)


# ------------------------------------------------------------------------------ seed in the key
def dpne_salt(knobs: tuple) -> tuple:
    """The salt of the page's DPNE draws: every parameter of :func:`plan_knobs` (ε and δ included; issue 21
    item 5). η is not in it: dpcore adds η to the keys of the lengths whose histograms depend on it
    (:func:`dpcore.dpne.dpne_level_seed`). The page exports this tuple as it is."""
    kw = dict(knobs)
    return ("dpne", kw["epsilon"], kw["delta"], kw["max_length"], kw["contribution_limit"], kw["noise_decay"],
            kw["pruning"], kw["selection"], kw["policy"])


@st.cache_resource(show_spinner="Preparing DPNE (what does not depend on η) …", max_entries=3)
def dpne_plan(corpus_hash, knobs: tuple, seed, _corpus):
    """dpcore.prepare_dpne at the page's knobs except η (``knobs``: sorted (name, value) pairs), with the page's
    draws ``rng_for(seed, *dpne_salt(knobs))``: S_1 and the length-2 histogram with its noise, ~90 % of a run on
    the paper-size corpus. Length 1 and the weighted length-2 histogram do not depend on η, so thresholding that
    one noisy histogram at several ρ_2(η) is post-processing of one Gaussian release (its zero-weight k-grams
    too: dpcore draws them nested across η); from length 3 on dpcore draws with η in the key. cache_resource:
    the plan holds the cached token corpus (never copied); a few hundred MB at paper size, hence few entries."""
    kw = dict(knobs)
    tc = token_corpus(corpus_hash, _corpus)
    return prepare_dpne(tc, **kw, rng=rng_for(seed, *dpne_salt(knobs)))


@st.cache_resource(show_spinner="Running DPNE …", max_entries=16)
def dpne_run(corpus_hash, knobs: tuple, eta, seed, _corpus):
    """DPNE at η from the cached plan: a widget that is not a DPNE knob (log scale, K, a tab) redraws without
    rerunning it, and a setting seen before (here or in the η sweep) comes back at once."""
    return dpne_plan(corpus_hash, knobs, seed, _corpus).run(eta)


def plan_knobs(epsilon, delta, T, delta0, decay, pruning, selection, policy) -> tuple:
    """The key of :func:`dpne_plan`: prepare_dpne's keywords as sorted (name, value) pairs."""
    return tuple(sorted(dict(epsilon=epsilon, delta=delta, max_length=T, contribution_limit=delta0, noise_decay=decay,
                             pruning=pruning, selection=selection, policy=policy).items()))


def baseline_salt(epsilon, delta, T, delta0, selection, policy) -> tuple:
    """The salt of :func:`baseline_sizes`' draws (exported as it is)."""
    return ("dpne-baselines", epsilon, delta, T, delta0, selection, policy)


@st.cache_data(show_spinner=False, max_entries=64)
def coverage(corpus_hash, knobs: tuple, eta, seed, ks: tuple, _corpus):
    """dpcore.dpne.kanonymity_coverage of the page's DPNE run (evaluation only), cached with the run's key and the K."""
    release, _ = dpne_run(corpus_hash, knobs, eta, seed, _corpus)
    return kanonymity_coverage(ngram_index(corpus_hash, _corpus), release, ks=list(ks), max_length=dict(knobs)["max_length"])


def chat_epsilon_sentence() -> str | None:
    """What ε DPNE needs on the real chat (dpcore.lab.paper_results.dpne_epsilon_sweep, measured by scripts/paper_compare.py
    into the results file, mean over seeds), or None when the file has no such entry."""
    from .paper_vs_here import load_results

    entry = load_results().get("comparisons", {}).get("table4_chat") or {}
    return (entry.get("epsilon_sweep") or {}).get("sentence")


WHY_K = 10
"""The popularity threshold of the measured reason (k-grams used by at least this many users: on 920 people, 100 is
reached by no 4-gram)."""


@st.cache_data(show_spinner="Measuring why DPNE and DPSU-single differ here …", max_entries=32)
def why_dpne(corpus_hash, knobs: tuple, eta, seed, _corpus) -> str | None:
    """dpcore.text.dpne_vs_dpsu_reason for the page's DPNE run: dpcore.dpne.pruning_chain at K = WHY_K and the corpus's text
    profile (evaluation only). None when the run does not use the random selection and the weighted policy (the
    chain's expected weights assume both)."""
    kw = dict(knobs)
    if kw["selection"] != "random" or kw["policy"] != "weighted":
        return None
    index = ngram_index(corpus_hash, _corpus)
    release, _ = dpne_run(corpus_hash, knobs, eta, seed, _corpus)
    profile = text_profile(index, max_k=min(9, MAX_T), ks=(WHY_K,))
    k = reason_length(release.thresholds, profile, K=WHY_K)
    chain = pruning_chain(index, release, K=WHY_K, lengths=() if k is None else (k,)).rows
    reason = dpne_vs_dpsu_reason(chain, profile, K=WHY_K, contribution_limit=kw["contribution_limit"], k=k) if k else \
        dpne_vs_dpsu_reason([], profile, K=WHY_K, contribution_limit=kw["contribution_limit"])
    return "**Why, measured on this run (evaluation only):** " + reason


@st.cache_data(show_spinner="Running the DPSU baselines …", max_entries=64)
def baseline_sizes(corpus_hash, epsilon, delta, T, delta0, selection, policy, seed, _corpus):
    """|S_k| of DPSU-all, DPSU-even and DPSU-single, by name."""
    index = ngram_index(corpus_hash, _corpus)
    rng = rng_for(seed, *baseline_salt(epsilon, delta, T, delta0, selection, policy))
    kw = dict(epsilon=epsilon, delta=delta, max_length=T, contribution_limit=delta0, selection=selection,
              policy=policy, rng=rng)
    return {rel.name: rel.sizes for rel in (dpsu_all(index, **kw), dpsu_even(index, **kw), dpsu_single(index, **kw))}


@st.cache_data(show_spinner="Running DPNE for each η …", max_entries=64)
def eta_sweep(corpus_hash, epsilon, delta, T, delta0, decay, pruning, selection, policy, seed, _corpus):
    """DPNE at every η of the slider from one plan (the page's own draws): released and spurious k-grams per
    length (evaluation only). Each run goes through :func:`dpne_run`'s cache, so afterwards moving η redraws
    without running DPNE."""
    knobs = plan_knobs(epsilon, delta, T, delta0, decay, pruning, selection, policy)
    rows = []
    for eta in ETA_OPTIONS:
        _, res = dpne_run(corpus_hash, knobs, eta, seed, _corpus)
        for d in res.levels:
            rows.append({"eta": eta, "k": d.k, "released": d.released, "spurious": d.spurious})
    return rows


@st.cache_data(show_spinner="Sweeping …", max_entries=32)
def knob_sweep(corpus_hash, knob, values, base, seed, _corpus):
    """003 Figs. 2–4: one DPNE run per value of one knob, the others at ``base``; |S_k| per length."""
    tc = token_corpus(corpus_hash, _corpus)
    rows = []
    for v in values:
        p = dict(base)
        p[knob] = v
        res = dpne_extract(tc, epsilon=p["epsilon"], delta=p["delta"], max_length=p["max_length"],
                   contribution_limit=p["contribution_limit"], eta=p["eta"], noise_decay=p["noise_decay"],
                   pruning=p["pruning"], selection=p["selection"], policy=p["policy"],
                   rng=rng_for(seed, "dpne-sweep", knob, v, tuple(sorted(p.items()))))  # every parameter of the run
        for k, n in res.sizes.items():
            rows.append({"value": v, "k": k, "released": n})
    return rows


# what is computed from an upload is given back with it (issue 25)
from . import uploads as _uploads  # noqa: E402 (at the end: the functions above are what dpui.uploads registers)

_uploads.track_caches(globals())
