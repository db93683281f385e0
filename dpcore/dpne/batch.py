"""Batch DPNE for the command line: one result type for both engines, and the local engine.

:class:`BatchRelease` holds what may leave the machine — the released sets as text lines (tokens
separated by one space), the public accounting (σ, σ_k, ρ_k, |V_k|) and the guarantee — and nothing
computed from the private corpus beyond that. Both :func:`run_dpne_local` (numpy, :func:`dpcore.dpne`
on the streamed corpus) and :func:`dpcore.dpne.spark_engine.run_dpne_spark` return it; for one int seed
they return equal objects (tests/test_spark_engine.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..guarantees import Guarantee, approximate_dp

__all__ = ["BatchRelease", "MIN_USERS", "check_enough_users", "dpne_guarantee", "run_dpne_local"]

MIN_USERS = 2
"""Fewest users (with at least one word) a batch run accepts: as the app's upload
(:func:`dpcore.load_uploaded_corpus`, ``min_users=2``)."""


def check_enough_users(n_users: int) -> None:
    """Refuse an input with fewer than :data:`MIN_USERS` users with text, as the app does: DP protects one user
    among many, and one user's file released as "DP" is that user's text. Raises
    :class:`dpcore.text.InputError` (the command line's exit code 2)."""
    from ..text.stream import InputError

    if n_users < MIN_USERS:
        raise InputError(
            f"the input has {n_users} user(s) with text but at least {MIN_USERS} are needed: differential "
            "privacy protects one user among many, so the user column must identify who wrote each row"
        )


@dataclass(frozen=True)
class BatchRelease:
    """Released sets (k → set of "tok tok …" strings) and public accounting of a batch DPNE run."""

    sets: dict
    sigma: float
    sigmas: dict
    thresholds: dict
    valid_counts: dict
    guarantee: Guarantee


def dpne_guarantee(*, epsilon: float, delta: float, max_length: int) -> Guarantee:
    """(ε, δ)-DP per user for the sets S_1..S_T together (003 Thm 2.1)."""
    what = "single tokens" if max_length == 1 else f"n-grams of length 1..{max_length}"
    return approximate_dp(
        epsilon=epsilon, delta=delta, scope=f"for the released sets of {what} together (never counts)"
    )


def run_dpne_local(
    path,
    *,
    epsilon,
    delta,
    max_length,
    contribution_limit,
    eta,
    noise_decay=1.0,
    pruning="both",
    selection="random",
    seed: int,
    user_column="user",
    text_column="text",
    progress=None,
) -> BatchRelease:
    """Stream ``path`` into a :class:`dpcore.text.TokenCorpus` and run :func:`dpcore.dpne` with ``rng=seed``."""
    from ..text.stream import read_token_corpus
    from .release import dpne_extract

    tc = read_token_corpus(
        path, user_column=user_column, text_column=text_column, progress=None if progress is None else progress.reading
    )
    with_text = np.unique(tc.user_of[[0, -1]]).size if tc.user_of.size else 0  # rows are in user order
    check_enough_users(with_text)
    if progress is not None:
        progress.status(f"DPNE on {tc.n_users:,} users, T = {max_length}")
    rel = dpne_extract(
        tc,
        epsilon=epsilon,
        delta=delta,
        max_length=max_length,
        contribution_limit=contribution_limit,
        eta=eta,
        noise_decay=noise_decay,
        pruning=pruning,
        selection=selection,
        rng=int(seed),
    )
    sets = {k: {" ".join(g) for g in grams} for k, grams in rel.ngrams.items()}
    return BatchRelease(
        sets=sets,
        sigma=float(rel.sigma),
        sigmas=dict(rel.sigmas),
        thresholds=dict(rel.thresholds),
        valid_counts=dict(rel.valid_counts),
        guarantee=dpne_guarantee(epsilon=epsilon, delta=delta, max_length=max_length),
    )
