"""The session budget in the sidebar (issue 21 item 5): the releases this person has looked at on this corpus,
and what they promise together.

Every view of a page is a fresh release — moving ε draws new noise — so the views add up. The shared sidebar
calls :func:`session_budget` once (it draws the panel and remembers where); the reviewer's panel, which every
page with a release calls at its end, hands each release it lists to :func:`record_reviews`; a page may add
another with :func:`record_release` (e.g. from a tab's button). What is counted: each page's main releases.
The experiments (sweeps over ε, the DPSU baselines, the η chart) draw further releases that the panel says it
does not count — counting every curve point would make every total meaningless at once. The list is kept per corpus (its content
hash) for the session; "Reset" empties it. The maths — one entry per release and their composition (exact for
Gaussians, dp_accounting's PLD for the rest) — is :mod:`dpcore.lab.budget`.

An entry is the release's identity (issue 30 item 2): its key hashes the mechanism and its spec record (seed, every
parameter, the corpus hash), so two seeds are two releases even when their outputs coincide, and the same release
seen again is one. Every caller passes the release's spec (``review_release(..., identity=spec)``,
``record_release(release, identity=spec)``); an entry without a key is refused (ValueError), never merged or
dropped. The total is drawn in the badges' vocabulary (:func:`dpui.common.charts.guarantee_badge` of the total's
Guarantee; issue 31 item 4): green only when every release is proven DP.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import streamlit as st

from dpcore.lab.budget import BudgetEntry, budget_entry, compose_releases
from dpui.common.risk import session_line

__all__ = ["session_budget", "record_reviews", "record_release", "budget_entries"]

_STORE = "_session_budget"  # session state: {corpus hash: [BudgetEntry, ...]}
_VIEW = "_session_budget_view"  # session state: (corpus hash, the panel's placeholder) of this run, or None
RESET_KEY = "session_budget_reset"


def budget_entries(corpus_hash: str) -> list[BudgetEntry]:
    """The releases recorded on this corpus in this session, in the order they were first seen."""
    return st.session_state.setdefault(_STORE, {}).setdefault(corpus_hash, [])


def _line(i: int, e: BudgetEntry) -> str:
    return f"{i}. **{e.mechanism}** — {e.promise}; released: {e.released}"


_SAY = {"green": st.caption, "orange": st.warning, "red": st.warning}
"""How the total's sentence is drawn at each level (its badge above carries the colour; st.error stays for a user's
mistake)."""


def _render(slot, entries: list[BudgetEntry]) -> None:
    from dpui.common.charts import guarantee_badge

    total = compose_releases(entries)
    with slot.container():
        st.markdown(
            f"**Session budget** — {len(entries)} release{'' if len(entries) == 1 else 's'} seen on this corpus"
        )
        if total.guarantee is not None:
            guarantee_badge(total.guarantee, name="session total")
        _SAY[total.colour](total.text)
        st.caption(session_line(len(entries), total))  # the total in the attacker's words (issue 32)
        if entries:
            with st.expander("The releases", expanded=False):
                st.markdown("\n".join(_line(i, e) for i, e in enumerate(entries, 1)))
                st.caption(
                    "Each view is a fresh release: its noise is drawn from every parameter, so moving a "
                    "slider releases again. Listed: each page's main releases (those its reviewer's panel "
                    "covers, and EndToEndDP when tuned); the experiments' curves — sweeps, the DPSU "
                    "baselines, the η chart — draw further releases on top and are not counted here. "
                    + (total.method and f"Composition: {total.method}.")
                )


def _reset(corpus_hash: str) -> None:
    st.session_state.setdefault(_STORE, {})[corpus_hash] = []


def session_budget(corpus) -> None:
    """Draw the session budget in the sidebar for ``corpus`` (the page's private corpus; None on a page that
    uses none: then nothing is drawn and nothing is recorded). Called once, by the shared sidebar."""
    if corpus is None:
        st.session_state[_VIEW] = None
        return
    h = corpus.content_hash
    with st.sidebar:
        slot = st.empty()
        st.button(
            "Reset the session budget",
            key=RESET_KEY,
            on_click=_reset,
            args=(h,),
            help="Forget the releases listed above (this session, this corpus). Resetting changes nothing "
            "about what was already seen — it only starts a new count.",
        )
    st.session_state[_VIEW] = (h, slot)
    _render(slot, budget_entries(h))


def _add(items: Iterable[tuple[str, BudgetEntry | None]], *, render: bool) -> None:
    view = st.session_state.get(_VIEW)
    if not view:
        return
    h, slot = view
    entries = budget_entries(h)
    seen = {e.key for e in entries}
    added = False
    for name, entry in items:
        if entry is not None and entry.key is None:
            raise ValueError(
                f"a session-budget entry needs the release's identity, got none for {name or entry.mechanism!r}: "
                "pass identity=<its spec> to review_release or record_release (issue 30 item 2)"
            )
        if entry is None or entry.key in seen:  # the same release seen again (a rerun, a slider moved back)
            continue
        entries.append(replace(entry, mechanism=name) if name else entry)
        seen.add(entry.key)
        added = True
    if added and render:
        _render(slot, entries)


def record_reviews(items: Iterable[tuple[str, object]]) -> None:
    """Record the releases of the reviewer's panel: ``(name, dpcore.lab.review.Review)`` pairs (a Review built from
    a release carries its :class:`~dpcore.lab.budget.BudgetEntry`; a custom review of a lecture example has none)."""
    _add(((name, getattr(rev, "session_entry", None)) for name, rev in items), render=True)


def record_release(release, *, identity, name: str = "", render: bool = False) -> None:
    """Record one more release shown on the page (e.g. EndToEndDP's, from its tab); ``identity`` is its spec (or
    :func:`dpcore.lab.release_identity` of it): the entry's key. Safe inside a fragment: the entry is kept and the
    panel shows it from the next full run (``render=True``: redrawn at once; not inside a fragment)."""
    _add([(name, budget_entry(release, identity=identity))], render=render)
