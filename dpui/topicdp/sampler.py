"""The TopicDP page's sensitivity sampler: run it on a button, with a progress bar, when the stored
sampled sensitivities do not cover the chosen γ (thesis 004, ch. 4; the sampler of Rubinstein & Aldà). Until then the
page shows the releases that need no sampled sensitivity (issue 31 item 7).
"""

from __future__ import annotations

import streamlit as st

from dpcore import topicdp as tdp
from dpui.common import uploads
from dpui.common.errors import user_errors
from dpui.topicdp.data import data_for, draws_for

ON_DEMAND = tuple(tdp.matrix_mechanism(name).label for name in tdp.SAMPLED_MECHANISMS)
"""The mechanisms that need the sampled sensitivity Δ_s: offered on demand when no draws cover γ (issue 31 item 7)."""
ROUGH_SECONDS_PER_PAIR = 0.28
"""A stated rough estimate of one sampled pair (two LDA fits, one worker) before anything was measured on a corpus:
the shipped classroom sample's sampler took 0.28 s per pair (358.95 s for 1,305 pairs, its draws' file)."""


def time_estimate(draws, size) -> str:
    """The sampler's time for the pairs γ still needs: pairs × the seconds per pair measured on this corpus's stored
    draws, or × :data:`ROUGH_SECONDS_PER_PAIR` when none were measured yet (the sentence says which)."""
    todo = size.h - draws.n_pairs
    if draws.n_pairs and draws.seconds > 0:
        per_pair, how = draws.seconds / draws.n_pairs, "measured on this corpus's stored pairs"
    else:
        per_pair = ROUGH_SECONDS_PER_PAIR  # measured on a 20-user upload: 0.04 s per pair (issue 31 item 7)
        how = "a rough estimate: what a pair took on the 3,000-user classroom sample; nothing measured on this corpus "
        how += "yet, and a smaller corpus takes less"
    total = per_pair * todo
    when = f"{total / 60:.1f} minutes" if total >= 60 else f"{max(total, 1):.0f} seconds"
    return f"Estimated time: about {when} ({todo:,} pairs × {per_pair:.2f} s per pair, {how})."


def sampled_draws(corpus, lda, sampler, size, gamma: float, workers: int):
    """The stored draws when they cover γ; else (issue 31 item 7) a line saying which mechanisms need the sampler,
    its time estimate and a button that samples the missing pairs. ``None`` until it is pressed: the page then shows
    what needs no Δ_s (the table, strict TopicDP, Laplace, VIPS-LDA) and nothing that needs it."""
    draws = draws_for(corpus.content_hash, lda, sampler)
    if draws.covers(gamma):
        return draws
    slot = st.empty()  # the offer goes once the sampler ran (this run then shows the sampled releases)
    offer = slot.container()
    offer.warning(
        f"{', '.join(ON_DEMAND[:-1])} and {ON_DEMAND[-1]} need the sampled sensitivity Δₛ, which the sensitivity "
        f"sampler has not computed for these settings: γ = {gamma:g} needs h = {size.h:,} sampled neighbouring pairs "
        f"({2 * size.h:,} LDA fits on datasets of N = {sampler.dataset_size(corpus.n_users)} users); "
        f"{draws.n_pairs:,} are stored for this corpus and these settings. Shown until then: the table before noise, "
        "strict TopicDP, Laplace and VIPS-LDA, which need no sampler.",
        icon="⏳",
    )
    offer.caption(time_estimate(draws, size))
    if not offer.button(
        f"Run the sensitivity sampler ({size.h - draws.n_pairs:,} new pairs)", key="topicdp_run", type="primary"
    ):
        return None
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
    slot.empty()
    return draws_for(corpus.content_hash, lda, sampler)
