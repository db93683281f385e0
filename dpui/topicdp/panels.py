"""Panels of the TopicDP page: the noise of every variant side by side, the guarantees, and "can a reader still
tell what people talked about?" (issue 21 items 3–4, issue 20 item 3). Numbers come from dpcore; no maths here.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from dpcore.lab.review import review_release
from dpcore.topicdp.prompts import MATCH_RULE
from dpui.common.charts import guarantee_badge
from dpui.common.exercises import spoiler
from dpui.common.texts import text
from dpui.topicdp.vips import NAME as VIPS_NAME

BADGE_NAMES = {"TopicDP": "TopicDP (as in the thesis)", "MVG": "MVG with sampled s₂"}


def sigma_metrics(story, releases) -> None:
    """Δ_s, then the noise of each mechanism: the thesis's σ (with its true ε), the corrected σ, strict TopicDP's
    σ, MVG's σ and Laplace's scale b. ``story`` None (the sampler has not run, issue 31 item 7): strict TopicDP's σ
    and Laplace's b only, the two releases that need no Δ_s."""
    if story is None:
        strict, laplace = releases["TopicDP strict"].noise_scale, releases["Laplace"].noise_scale
        c = st.columns(3)
        c[0].metric("TopicDP strict σ", f"{strict:,.4g}", help="Analytic Gaussian on the global bound √(2m): no γ")
        c[1].metric("Laplace scale b", f"{laplace:,.4g}", help="b = 2m/ε (worst-case ℓ1 sensitivity 2m)")
        return
    c = st.columns(3) + st.columns(3)  # two rows: six metrics side by side would cut their labels
    c[0].metric(
        "Sampled sensitivity Δₛ",
        f"{story.delta_s:.4g}",
        help="k-th smallest of the h sampled ‖f(D) − f(D′)‖_F, the tables compared as released",
    )
    c[1].metric(
        "TopicDP σ, as in the thesis",
        f"{story.thesis_sigma:,.4g}",
        delta=f"true ε = {story.thesis_true_epsilon:.2g}",
        delta_color="off",
        help=f"Δ_s·√(2 ln(1.25/δ))/ε′ with ε′ = ε/(m·n) (004 Alg. 2). For a change of Δ_s this σ gives "
        f"ε = {story.thesis_true_epsilon:.2g}, not the ε = {story.epsilon:g} asked for: the split of ε "
        "over the m·n entries is an error of the thesis.",
    )
    c[2].metric(
        "TopicDP σ, corrected",
        f"{story.corrected_sigma:,.4g}",
        help="The same Δ_s without the split of ε: Δ_s·√(2 ln(1.25/δ))/ε below ε = 1, the analytic σ "
        "(Balle & Wang) from ε = 1. Still random DP: Δ_s is sampled.",
    )
    c[3].metric(
        "TopicDP strict σ",
        f"{story.strict_sigma:,.4g}",
        help=f"Analytic Gaussian on the global bound √(2m) = {story.bound:.4g}: no sampling, no γ.",
    )
    c[4].metric("MVG σ per entry", f"{releases['MVG'].noise_scale:,.4g}", help="i.i.d. MVG with s₂ = Δ_s, γ_F = √m")
    c[5].metric(
        "Laplace scale b", f"{releases['Laplace'].noise_scale:,.4g}", help="b = 2m/ε (worst-case ℓ1 sensitivity 2m)"
    )


def guarantee_badges(releases) -> None:
    """One badge per release, in the page's mechanism order, one per line (side by side they cut the qualifier)."""
    for mech, rel in releases.items():
        guarantee_badge(rel.guarantee, name=BADGE_NAMES.get(mech, mech))


def guarantees(releases) -> dict:
    """Badge name → guarantee of each release, in the badges' order (for dpui.common.risk.attacker_view)."""
    return {BADGE_NAMES.get(mech, mech): rel.guarantee for mech, rel in releases.items()}


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
