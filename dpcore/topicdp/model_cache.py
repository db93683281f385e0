"""The full-corpus topic model's disk cache, so that the TopicDP page opens without a 15-second LDA fit.

Written next to the sensitivity sampler's draws (:func:`dpcore.topicdp.sensitivity_cache_dir`) and read from
there first, then from the shipped folder (:func:`dpcore.topicdp.shipped_cache_dir`), as the draws are.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

from .. import _cache_files
from .model import LdaSettings, TopicModel
from .sampler import _read_candidates, _shipped, sensitivity_cache_dir

__all__ = ["load_topic_model", "save_topic_model"]


def _model_path(corpus_hash: str, lda: LdaSettings, cache_dir) -> Path:
    d = Path(cache_dir) if cache_dir is not None else sensitivity_cache_dir()
    key = hashlib.sha256(
        json.dumps({"corpus": corpus_hash, "lda": lda.as_dict(), "format": 2}, sort_keys=True).encode()
    ).hexdigest()
    return d / f"model_{key[:20]}.json"


def save_topic_model(model: TopicModel, *, cache_dir: str | os.PathLike | None = None) -> Path:
    """Write a fitted full-corpus model as JSON next to the sampler results."""
    path = _model_path(model.corpus_hash, model.settings, cache_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "corpus_hash": model.corpus_hash,
        "lda": model.settings.as_dict(),
        "words": list(model.words),
        "prevalence": [float(f"{v:.8g}") for v in model.prevalence],
        "topic_word": [[float(f"{v:.6g}") for v in row] for row in model.topic_word],
    }
    return _cache_files.write_json(path, payload)  # with its checksum, atomically


def load_topic_model(
    corpus_hash: str, *, lda: LdaSettings = LdaSettings(), cache_dir: str | os.PathLike | None = None
) -> TopicModel | None:
    """The stored full-corpus model for these settings, or None (a damaged or unchecked file of the writable
    cache is not used, and the shipped copy is read instead when there is one)."""
    for path in _read_candidates(_model_path(corpus_hash, lda, cache_dir), cache_dir):
        p = _cache_files.read_json(path, trusted=_shipped(path))  # None: missing, damaged (deleted) or unchecked
        if p is not None and p.get("corpus_hash") == corpus_hash and p.get("lda") == lda.as_dict():
            try:
                return _model_from_payload(p, corpus_hash, lda)
            except (KeyError, TypeError, ValueError):
                if not _shipped(path):
                    _cache_files.discard(path)
    return None


def _model_from_payload(p: dict, corpus_hash: str, lda: LdaSettings) -> TopicModel:
    tw = np.asarray(p["topic_word"], dtype=float)
    if tw.ndim != 2 or len(p["words"]) != tw.shape[1] or not np.all(np.isfinite(tw)) or (tw < 0).any():
        raise ValueError("not a topic-word matrix")
    return TopicModel(
        topic_word=tw / tw.sum(axis=1, keepdims=True),
        prevalence=np.asarray(p["prevalence"]),
        words=tuple(p["words"]),
        settings=lda,
        corpus_hash=corpus_hash,
    )
