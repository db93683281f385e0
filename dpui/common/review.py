"""The reviewer's panel (issue 9 item 3): one expander per page with the full guarantee, the noise in the
answer's units, the warnings (rule and fix) and the total budget. All numbers come from dpcore.lab.review; this
module only lays them out.

Collapsed by default and lazy (its content is built only while open); open when the address has ``review=1``
(share a link that opens it).
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from dpui.common.lazy import lazy_expander

REVIEW_PARAM = "review"
PANEL_KEY = "reviewer_panel_open"
"""The panel's open state (session state); ``review=1`` in the URL opens it."""


def review_requested() -> bool:
    """True when the URL carries ``review=1``."""
    return str(st.query_params.get(REVIEW_PARAM, "")).strip().lower() in ("1", "true", "yes")


def _items(reviews) -> list[tuple[str, object]]:
    from dpcore.lab.review import Review

    if isinstance(reviews, Review):
        return [("", reviews)]
    out = []
    for item in reviews:
        if isinstance(item, Review):
            out.append(("", item))
        else:
            name, rev = item
            if not isinstance(rev, Review):
                raise TypeError(f"reviews must hold dpcore.lab.review.Review objects, got {type(rev).__name__}")
            out.append((str(name), rev))
    return out


def reviewer_panel(reviews, *, budget=None, extra_warnings: Sequence = (), title: str = "Reviewer's panel") -> None:
    """Show the reviewer's panel.

    Args:
      reviews: a :class:`dpcore.lab.review.Review` or a list of ``(mechanism name, Review)`` pairs (one per
        release the page shows), built with :func:`dpcore.lab.review_release`.
      budget: the page's total budget (:class:`dpcore.lab.review.BudgetStatement`) when it differs from the
        releases' own (e.g. several releases composed); default: each release's budget.
      extra_warnings: page-level :class:`dpcore.lab.review.ReviewWarning` records (e.g. from
        :func:`dpcore.lab.review.review_warnings` for settings not carried by a release).
    """
    from dpui.common.charts import guarantee_badge
    from dpui.common.exercises import HIDDEN, answer_hidden

    if answer_hidden("reviewer_panel"):  # it states the open exercise's answer (issue 24 item 5)
        with st.expander(f"🔎 {title} — {HIDDEN}", expanded=False):
            st.caption(
                "The panel states the open exercise's answer; it comes back once you have answered or asked "
                "for the solution."
            )
        return
    items = _items(reviews)
    from dpui.common.budget import record_reviews

    record_reviews(items)  # the session budget lists every release a reviewer's panel shows (issue 21 item 5)
    seen: set[tuple[str, str]] = set()
    label = f"🔎 {title} — guarantee, noise in units, warnings, budget"
    box = lazy_expander(label, key=PANEL_KEY, expanded=review_requested())
    if box is None:  # lazy (issue 29 item 4): drawn only while open; the budget above counts the releases anyway
        return
    with box:
        for name, rev in items:
            g = rev.guarantee
            if name:
                st.markdown(f"**{name}**")
            guarantee_badge(g, name=name)
            st.markdown(f"*Promise:* {g.promise}")
            details = [f"kind: {g.kind}"]
            if g.scope:
                details.append(f"scope: {g.scope}")
            if g.conditional_on:
                details.append(f"not covered: {g.conditional_on}")
            details.append(f"neighbouring datasets differ by one {g.unit}")
            st.caption(" · ".join(details))
            for n in rev.noise:
                st.markdown(f"- *Noise in units:* {n.text}")
            if budget is None and rev.budget is not None:
                st.markdown(f"- *Budget:* {rev.budget.text}")
        warnings = [w for _, rev in items for w in rev.warnings] + list(extra_warnings)
        if budget is not None:
            st.markdown(f"**Total budget of this page:** {budget.text}")
        if not warnings:
            st.success("No reviewer warnings for these settings.", icon="✅")
        for w in warnings:
            key = (w.rule, w.message)
            if key in seen:
                continue
            seen.add(key)
            st.warning(f"**{w.rule_text}.** {w.message}  \n*Fix:* {w.fix}", icon="⚠️")
