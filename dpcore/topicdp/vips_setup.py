"""VIPS-LDA on the TopicDP page: the one-time setup per corpus that every release reuses, and its disk cache.

:func:`vips_page_setup` builds, once per (private corpus, public corpus, K): the public vocabulary and the start
λ₀ (:func:`dpcore.topicdp.public_vocabulary`, :func:`dpcore.topicdp.public_start`; public data only), the private
counts over them, every user's norm under λ₀, and the non-private twin (the same model without clip and noise,
how far the model itself is from the page's reference; :mod:`dpcore.topicdp.vips_comparison` says why).

**The public-only fit** (:func:`public_only_release`): VIPS's start λ₀, the same model fitted on the public
split alone — it reads no private data (0-DP) and is the baseline VIPS must beat.

**Disk cache** (:func:`vips_page_setup`): the vocabulary and λ₀ (public data only) and the twin (private data)
are written next to the TopicDP page's models (``dpcore.topicdp.sensitivity_cache_dir()``, checked ``.npz``
files) and read from ``sample_data/topicdp_sensitivity`` when shipped; an upload's twin is never written.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import _cache_files
from ..guarantees import no_private_data
from ..text.corpus import Corpus
from ..validation import check_int
from . import vips as _vips
from . import vips_estep as _vips_estep
from . import vips_inputs as _vips_inputs
from .model import TOKEN_PATTERN

__all__ = ["VipsPageSetup", "vips_page_setup", "public_only_release"]

_FORMAT = 1
"""Version of the ``vips_start_*`` / ``vips_twin_*`` files: change it when their meaning changes."""


@dataclass(frozen=True, eq=False)
class VipsPageSetup:
    """What every VIPS release on the page reuses (``counts`` and ``twin`` are private: never released).

    Attributes:
      vocabulary, start: from the public corpus (:func:`dpcore.topicdp.public_vocabulary`, :func:`dpcore.topicdp.public_start`).
      counts: the private corpus over the vocabulary, grouped by user (:func:`dpcore.topicdp.person_counts`).
      user_norms: every user's ‖S_u‖_F under λ₀ before the clip (what B bounds; for the reviewer's cap rule).
      twin: the same model without clip and noise (:func:`dpcore.topicdp.vips_reference_fit`), not private: how far the
        model itself is from the page's reference, or None when not computed.
      public_name: how the page names the public data.
    """

    vocabulary: _vips.VipsVocabulary
    start: _vips.VipsStart
    counts: _vips.PersonCounts
    user_norms: np.ndarray
    twin: _vips.VipsRelease | None
    public_name: str

    @property
    def n_topics(self) -> int:
        return self.start.n_topics


def _start_key(public: Corpus, n_topics: int) -> str:
    payload = {
        "public": public.content_hash,
        "stop_words": sorted(_vips_inputs.VIPS_STOP_WORDS),
        "token": TOKEN_PATTERN,
        "max_features": _vips_inputs.DEFAULT_VOCABULARY_SIZE,
        "min_df": 5,
        "max_df": 0.5,
        "n_topics": n_topics,
        "passes": _vips.PUBLIC_START_ITERATIONS,
        "init_seed": 0,
        "doc_iterations": _vips_estep.DOC_ITERATIONS,
        "doc_tolerance": _vips_estep.DOC_TOLERANCE,
        "gamma_start": _vips_estep.GAMMA_START,
        "format": _FORMAT,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _twin_key(private_hash: str, start_key: str) -> str:
    payload = {"private": private_hash, "start": start_key, "passes": _vips.REFERENCE_ITERATIONS, "format": _FORMAT}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _candidates(name: str, cache_dir) -> list[Path]:
    from .sampler import sensitivity_cache_dir, shipped_cache_dir

    if cache_dir is not None:
        return [Path(cache_dir) / name]
    return [sensitivity_cache_dir() / name, shipped_cache_dir() / name]


def _load(name: str, key: str, cache_dir) -> dict | None:
    for path in _candidates(name, cache_dir):
        arrays = _cache_files.read_npz(path, ("key", "lam", "words"))
        if arrays is not None and str(arrays["key"]) == key:
            return arrays
    return None


def _save(name: str, arrays: dict, cache_dir) -> None:
    _cache_files.write_npz(_candidates(name, cache_dir)[0], arrays)  # a read-only folder is not an error


def vips_page_setup(
    private: Corpus,
    public: Corpus,
    *,
    n_topics: int = 10,
    public_name: str | None = None,
    twin: bool = True,
    save_private: bool = True,
    cache_dir=None,
) -> VipsPageSetup:
    """The vocabulary and λ₀ of ``public`` (from the disk cache, else computed and saved), the counts of
    ``private`` over them, the users' norms under λ₀, and (``twin``) the non-private twin (from the disk cache,
    else fitted; saved only when ``save_private``: an upload's fit stays in memory).

    Raises:
      ValueError: no word of ``public`` survives the vocabulary limits, or n_topics outside [2, 50].
    """
    if not isinstance(private, Corpus) or not isinstance(public, Corpus):
        raise TypeError(
            "private and public must be dpcore Corpus objects, got "
            f"{type(private).__name__} and {type(public).__name__}"
        )
    n_topics = check_int("n_topics", n_topics, low=2, high=50)
    public_name = public_name or f"the public corpus '{public.name}' ({public.n_users:,} people)"
    key = _start_key(public, n_topics)
    name = f"vips_start_{key[:20]}.npz"
    stored = _load(name, key, cache_dir)
    if stored is not None:
        vocab = _vips.VipsVocabulary(
            words=tuple(str(w) for w in stored["words"]), source=public_name, source_hash=public.content_hash
        )
        start = _vips.VipsStart(
            lam=stored["lam"], words=vocab.words, source=f"a fit on {public_name}", source_hash=public.content_hash
        )
    else:
        vocab = _vips_inputs.public_vocabulary(public, source=public_name)
        fitted = _vips.public_start(public, vocabulary=vocab, n_topics=n_topics)
        start = _vips.VipsStart(
            lam=fitted.lam, words=vocab.words, source=f"a fit on {public_name}", source_hash=public.content_hash
        )
        _save(name, {"key": np.array(key), "lam": np.asarray(start.lam), "words": np.array(vocab.words)}, cache_dir)
    counts = _vips.person_counts(private, vocab)
    norms = _vips.contribution_norms(counts, start.lam)
    norms.setflags(write=False)
    reference = None
    if twin:
        tkey = _twin_key(private.content_hash, key)
        tname = f"vips_twin_{tkey[:20]}.npz"
        stored = _load(tname, tkey, cache_dir)
        if stored is not None and tuple(str(w) for w in stored["words"]) == vocab.words:
            reference = _vips._release(np.asarray(stored["lam"], dtype=float), **_twin_fields(vocab, start, n_topics))
        else:
            reference = _vips.vips_reference_fit(counts, n_topics=n_topics, vocabulary=vocab, start=start)
            if save_private:
                lam = reference.topic_word * reference.prevalence[:, None]
                _save(tname, {"key": np.array(tkey), "lam": lam, "words": np.array(vocab.words)}, cache_dir)
    return VipsPageSetup(
        vocabulary=vocab, start=start, counts=counts, user_norms=norms, twin=reference, public_name=public_name
    )


def _twin_fields(vocab, start, n_topics: int) -> dict:
    from ..guarantees import no_protection

    return dict(
        words=vocab.words,
        sigma=0.0,
        clip_norm=None,
        iterations=_vips.REFERENCE_ITERATIONS,
        n_topics=n_topics,
        epsilon=None,
        delta=None,
        accountant="none (not private)",
        vocabulary_source=vocab.source,
        start_source=start.source,
        guarantee=no_protection(
            promise="The non-private fit: the same model without clipping or noise, "
            "computed from the private data itself."
        ),
    )


def public_only_release(setup: VipsPageSetup) -> _vips.VipsRelease:
    """The public-only fit (VIPS's start λ₀) as a release: it reads no private data, so it is 0-DP
    (:func:`dpcore.guarantees.no_private_data`) — the baseline a private model must beat."""
    promise = (
        f"Fitted on {setup.public_name} only: adding or removing any private user changes nothing, so it "
        "reveals nothing about them (0-DP) — and learns nothing from them."
    )
    return _vips._release(
        np.array(setup.start.lam),
        words=setup.vocabulary.words,
        sigma=0.0,
        clip_norm=None,
        iterations=_vips.PUBLIC_START_ITERATIONS,
        n_topics=setup.n_topics,
        epsilon=0.0,
        delta=0.0,
        accountant="none (reads no private data)",
        vocabulary_source=setup.vocabulary.source,
        start_source=setup.start.source,
        guarantee=no_private_data(promise=promise),
    )
