"""Panels of the TopicDP page: the noise of every variant side by side, the guarantees, and "can a reader still
tell what people talked about?" (issue 21 items 3–4, issue 20 item 3). Numbers come from dpcore; no maths here.
"""

from __future__ import annotations

import math
from dataclasses import replace

import streamlit as st

from dpcore.lab.review import review_release
from dpcore.topicdp.mechanisms import MATRIX_MECHANISMS, matrix_mechanism
from dpcore.topicdp.prompts import MATCH_RULE
from dpui.common.charts import guarantee_badge
from dpui.common.exercises import spoiler
from dpui.common.texts import text
from dpui.topicdp.vips import NAME as VIPS_NAME

MATRIX_NAMES = frozenset(r.name for r in MATRIX_MECHANISMS)


def _help(record, release) -> str:
    """The record's help for its metric, naming the global bound √(2m) of the release's m rows."""
    return record.metric_help.format(bound=math.sqrt(2 * release.matrix.shape[0]))


def sigma_metrics(story, releases) -> None:
    """Δ_s, then the noise of each released mechanism in the page's order, by its record (its ``metric_label`` and
    ``metric_help``; :data:`dpcore.topicdp.MATRIX_MECHANISMS`): the thesis's σ with its true ε, the corrected σ,
    strict TopicDP's σ, MVG's σ and Laplace's scale b. ``story`` None (the sampler has not run, issue 31 item 7):
    the releases that need no Δ_s only (strict TopicDP's σ and Laplace's b)."""
    shown = [(matrix_mechanism(name), rel) for name, rel in releases.items()]
    if story is None:
        c = st.columns(3)
        for col, (record, rel) in zip(c, shown):
            col.metric(record.metric_label, f"{rel.noise_scale:,.4g}", help=_help(record, rel))
        return
    rows = -(-(len(shown) + 1) // 3)  # rows of three: six metrics side by side would cut their labels
    c = [col for _ in range(rows) for col in st.columns(3)]
    c[0].metric(
        "Sampled sensitivity Δₛ",
        f"{story.delta_s:.4g}",
        help="k-th smallest of the h sampled ‖f(D) − f(D′)‖_F, the tables compared as released",
    )
    for col, (record, rel) in zip(c[1:], shown):
        if record.name == "TopicDP":  # the thesis's σ: its true ε beside it (the story of the split, SPEC §5)
            col.metric(
                record.metric_label,
                f"{rel.noise_scale:,.4g}",
                delta=f"true ε = {story.thesis_true_epsilon:.2g}",
                delta_color="off",
                help=f"{record.metric_help} For a change of Δ_s this σ gives ε = {story.thesis_true_epsilon:.2g}, "
                f"not the ε = {story.epsilon:g} asked for: the split of ε over the m·n entries is an error of the thesis.",
            )
        else:
            col.metric(record.metric_label, f"{rel.noise_scale:,.4g}", help=_help(record, rel))


def _badge_name(mech: str) -> str:
    """A matrix mechanism's badge name from its record; another release (VIPS-LDA) by its own name."""
    return matrix_mechanism(mech).badge_name if mech in MATRIX_NAMES else mech


def guarantee_badges(releases) -> None:
    """One badge per release, in the page's mechanism order, one per line (side by side they cut the qualifier)."""
    for mech, rel in releases.items():
        guarantee_badge(rel.guarantee, name=_badge_name(mech))


def guarantees(releases) -> dict:
    """Badge name → guarantee of each release, in the badges' order (for dpui.common.risk.attacker_view)."""
    return {_badge_name(mech): rel.guarantee for mech, rel in releases.items()}


def story(story, *, gamma: float) -> None:
    """What changes the thesis's story, in numbers (dpui/common/page_texts/topicdp.md, section "story")."""
    st.markdown(
        text(
            "topicdp",
            "story",
            eps=story.epsilon,
            m=story.m,
            n=story.n,
            thesis=story.thesis_sigma,
            true_eps=story.thesis_true_epsilon,
            ds=story.delta_s,
            corrected=story.corrected_sigma,
            strict=story.strict_sigma,
            bound=story.bound,
            ratio=spoiler("topicdp_story_ratio", f"{story.strict_vs_thesis:,.3g}"),  # an exercise's answer
            gain=story.sampling_gain,
            gamma=gamma,
        )
    )


def prompt_line(survival, *, eps: float) -> None:
    """One line: topics matched to a prompt before noise, and kept after each mechanism's noise at ε."""
    st.markdown(text("topicdp", "prompts", eps=eps, sentence=survival.sentence()))
    st.caption("Matching rule: " + MATCH_RULE)


def matched_rows(table, match, model) -> list[dict]:
    """The table's topics before noise: top words, the prompt matched to it, lift and documents."""
    import numpy as np

    rows = []
    for i, t in enumerate(table.topics):
        top = ", ".join(model.words[j] for j in np.argsort(-model.topic_word[t])[:5])
        rows.append(
            {
                "topic": i + 1,
                "top 5 words": top,
                "prompt matched (before noise)": match.label(i) or "—",
                "lift": round(match.lift[i], 2),
                "conversations of that prompt": match.documents[i],
            }
        )
    return rows


VIPS_IDENTITY = ("spec", "version", "seed", "corpus", "corpus_hash", "public_hash", "epsilon", "delta")
VIPS_IDENTITY += ("n_topics", "clip_norm", "iterations")
"""The TopicDpSpec fields VIPS-LDA's release depends on (dpui.topicdp.vips.release_for's cache key): its identity."""
MATRIX_IGNORES = ("clip_norm", "iterations", "with_vips")
"""The TopicDpSpec fields the five matrix releases do not depend on (VIPS-LDA's)."""


def reviews(releases, vips, *, n_users: int, recorded, spec) -> list:
    """The reviewer's panel's ``(name, Review)`` pairs: the five matrix releases and VIPS-LDA's, each reviewed and
    identified by the page's ``spec`` record (without the fields it does not depend on: a VIPS knob is not a new
    matrix release, nor m, n or γ a new VIPS release). Only the releases named in ``recorded`` (those whose values
    the page shows in this run) keep their session-budget entry: the panel records the others nowhere
    (dpui.common.budget.record_reviews skips a Review without one)."""
    from dpcore.lab import release_identity

    record = spec.record()
    matrix_id = release_identity(record, without=MATRIX_IGNORES)
    vips_id = {k: v for k, v in record.items() if k in VIPS_IDENTITY}
    items = [(mech, review_release(rel, n_users=n_users, identity=matrix_id)) for mech, rel in releases.items()]
    vrel = vips.vips.release
    items.append((VIPS_NAME, review_release(vrel, n_users=n_users, user_items=vips.setup.user_norms, identity=vips_id)))
    return [(name, rev if name in recorded else replace(rev, session_entry=None)) for name, rev in items]
