"""The TopicDP page's sensitivity sampler: run it on a button, with a progress bar, when the stored
sampled sensitivities do not cover the chosen γ (thesis 004, ch. 4; the sampler of Rubinstein & Aldà).
"""

from __future__ import annotations

import streamlit as st

from dpcore import topicdp as tdp

from . import uploads
from .errors import user_errors
from .topicdp_data import data_for, draws_for


def sampled_draws(corpus, lda, sampler, size, gamma: float, workers: int):
    """The stored draws when they cover γ; else a warning, a time estimate and a button that samples
    the missing pairs (the page stops here until it is pressed)."""
    draws = draws_for(corpus.content_hash, lda, sampler)
    if draws.covers(gamma):
        return draws
    st.warning(
        f"No sampled sensitivity for these settings yet: γ = {gamma:g} needs h = {size.h:,} sampled "
        f"neighbouring pairs ({2 * size.h:,} LDA fits on datasets of N = {sampler.dataset_size(corpus.n_users)} users); "
        f"{draws.n_pairs:,} are stored for this corpus and these settings.",
        icon="⏳",
    )
    per_pair = draws.seconds / draws.n_pairs if draws.n_pairs else None
    if per_pair:
        st.caption(
            f"Estimated time: about {per_pair * (size.h - draws.n_pairs) / 60:.1f} minutes "
            f"({per_pair:.2f} s per pair so far)."
        )
    if not st.button(
        f"Run the sensitivity sampler ({size.h - draws.n_pairs:,} new pairs)", key="topicdp_run", type="primary"
    ):
        st.stop()
    bar = st.progress(0.0, text="Sampling neighbouring datasets …")

    def report(done: int, total: int) -> None:
        bar.progress(done / total, text=f"Sampled pair {done:,} of {total:,} (two LDA fits each)")

    with user_errors():
        data = data_for(corpus.content_hash, lda, corpus)
        tdp.extend_sensitivity_draws(
            data,
            n_pairs=size.h,
            lda=lda,
            sampler=sampler,
            progress=report,
            workers=workers,
            cache_dir=uploads.scratch_dir(corpus.content_hash),
        )  # an upload's: deleted with it
    bar.progress(1.0, text="Done: the sampled sensitivities are saved on disk.")
    return draws_for(corpus.content_hash, lda, sampler)
