"""VIPS-LDA's errors against a non-private reference fit (evaluation only)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..metrics import kendall_tau_distance, l1_distance, rmse
from .fitting import align_topics, topic_keyword_matrix
from .vips import VipsRelease

__all__ = [
    "VipsErrors",
    "vips_errors",
]


# --------------------------------------------------------------------------------------------------
# Errors against the non-private fit, on the table TopicDP releases
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VipsErrors:
    """Distances between a release and the reference fit.

    ``l1``, ``rmse`` and ``kendall`` are on the m × n table of the *reference* (its m most prevalent
    topics × n keyword columns, :func:`dpcore.topic_keyword_matrix`) against the release's aligned topics
    at the same cells, rows renormalised — the cells TopicDP and its baselines perturb, so the numbers
    compare (L1 ≤ 2m). ``rmse_full`` is over the whole aligned K × V matrices.
    """

    l1: float
    rmse: float
    kendall: float
    rmse_full: float
    m: int
    n: int


def vips_errors(release: VipsRelease, reference: VipsRelease, *, m: int = 10, n: int = 10) -> VipsErrors:
    """L1 / RMSE / Kendall's tau distance of ``release`` to ``reference`` after aligning their topics
    (:func:`dpcore.topicdp.align_topics` on the K × V rows), on the reference's m × n topic–keyword table."""
    if release.words != reference.words or release.topic_word.shape != reference.topic_word.shape:
        raise UserError("release and reference must share the vocabulary and the number of topics")
    table = topic_keyword_matrix(reference.topic_model(), m=m, n=n)
    cols = np.array([reference.words.index(w) for w in table.words])
    aligned = release.topic_word[align_topics(reference.topic_word, release.topic_word)]
    cells = aligned[np.ix_(np.array(table.topics), cols)]
    cells = cells / cells.sum(axis=1, keepdims=True)
    return VipsErrors(
        l1=l1_distance(table.matrix, cells),
        rmse=rmse(table.matrix, cells),
        kendall=kendall_tau_distance(table.matrix, cells),
        rmse_full=rmse(reference.topic_word, aligned),
        m=table.shape[0],
        n=table.shape[1],
    )
