"""“What this text looks like” (issue 20 item 4): the selected corpus beside the real chat one, on the DP n-gram
extraction and Bayesian pages. No maths here: :func:`dpcore.text.profile` computes, this module caches and draws.

The comparison is made at the same number of people where the corpora differ in size (a corpus with more users
shares more k-grams): the real chat's private part (920 people) beside the selected corpus's first 920 users, and
the selected corpus in full when it is another one. On the real chat itself the contrast is the synthetic classroom
corpus's first 920 users. Profiles are cached by corpus hash (``st.cache_resource``, shared by the pages); the two
reference profiles (the chat, the classroom's first 920 users) ship in ``sample_data/text_profiles.json``
(scripts/text_profiles.py; tests recompute them), so another corpus's page does not load and index the chat.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dpcore.lab.paper_results import TABLE2_REDDIT
from dpcore.text import TextProfile, text_profile
from dpui.common.charts import NO_NOISE, series_style, show_figure
from dpui.common.corpus_panel import REAL_PEOPLE, real_corpus, sample_corpus
from dpui.common.texts import text
from dpui.common.lazy import lazy_expander

MAX_K = 9
KS = (10, 100)
LAZY_USERS = 20_000
"""Above this many users (the paper-size sample) the full profile waits for a button: it builds the per-user
k-gram sets of every length (about a minute at 100,000 users); the profile at the chat's number of people does not."""


@st.cache_resource(show_spinner="Profiling the text (distinct k-grams per person) …", max_entries=12)
def profile_for(corpus_hash: str, max_users: int | None, _corpus) -> TextProfile:
    """dpcore.text.text_profile of the corpus (its first ``max_users`` users when given), k = 1…9, K = 10 and 100."""
    return text_profile(_corpus, max_k=MAX_K, ks=KS, max_users=max_users)


@st.cache_resource(show_spinner=False, max_entries=4)
def profile_from_index(corpus_hash: str, _index) -> TextProfile:
    """The same profile from a per-user k-gram index the page already built (max_length ≥ 9): no second pass."""
    return text_profile(_index, max_k=MAX_K, ks=KS)


SHIPPED = Path(__file__).resolve().parents[2] / "sample_data" / "text_profiles.json"
CHAT_KEY, CLASSROOM_KEY = "chat-private", f"classroom-private-first-{REAL_PEOPLE['private']}"


@functools.lru_cache(maxsize=1)
def _shipped() -> dict:
    """scripts/text_profiles.py's reference profiles (empty when the file is missing)."""
    return json.loads(SHIPPED.read_text(encoding="utf-8"))["profiles"] if SHIPPED.exists() else {}


def _chat_is_pinned() -> bool:
    """The installed chat corpus is the one the shipped profile was computed on (chitchat-dataset 0.9.0, the fixed
    split seed; tests/test_real_corpus.py pins the content hashes of exactly that)."""
    from importlib import metadata

    from dpcore.text.real_corpus import SPLIT_SEED

    try:
        return metadata.version("chitchat-dataset") == "0.9.0" and SPLIT_SEED == 20180502
    except metadata.PackageNotFoundError:
        return False


def reference(key: str, corpus=None) -> TextProfile | None:
    """A shipped reference profile, if it matches: the chat's by its pinned package, the classroom's by content hash."""
    entry = _shipped().get(key)
    if entry is None or (entry["max_k"], tuple(entry["ks"])) != (MAX_K, KS):
        return None
    if (corpus is None and not _chat_is_pinned()) or (
        corpus is not None and corpus.content_hash != entry["content_hash"]
    ):
        return None
    return TextProfile.from_dict(entry["profile"])


def _chat_profile() -> TextProfile:
    found = reference(CHAT_KEY)
    if found is not None:
        return found
    chat = real_corpus("private")
    return profile_for(chat.content_hash, None, chat)


def _is_chat(corpus) -> bool:
    """The corpus is the real chat's private part (by content hash; the chat is loaded only when nothing ships)."""
    shipped = (_shipped().get(CHAT_KEY) or {}).get("content_hash")
    return corpus.content_hash == (shipped or real_corpus("private").content_hash)


def _columns(label: str, corpus, *, index=None, lazy: bool) -> list[tuple[str, TextProfile]]:
    """(name, profile) of the corpora to show: the selected one, then at the chat's number of people, then the chat."""
    n_chat = REAL_PEOPLE["private"]
    out = []
    if _is_chat(corpus):
        out.append(
            (
                f"real chat ({corpus.n_users:,} people)",
                profile_from_index(corpus.content_hash, index)
                if index is not None and index.max_length >= MAX_K
                else _chat_profile(),
            )
        )
        classroom = sample_corpus("private", "classroom")
        out.append(
            (
                f"synthetic classroom, first {n_chat:,} users",
                reference(CLASSROOM_KEY, classroom) or profile_for(classroom.content_hash, n_chat, classroom),
            )
        )
        return out
    if index is not None and index.max_length >= MAX_K:
        out.append((f"{label} ({corpus.n_users:,} users)", profile_from_index(corpus.content_hash, index)))
    elif not lazy:
        out.append((f"{label} ({corpus.n_users:,} users)", profile_for(corpus.content_hash, None, corpus)))
    if corpus.n_users > n_chat:
        out.append((f"{label}, first {n_chat:,} users", profile_for(corpus.content_hash, n_chat, corpus)))
    out.append((f"real chat ({n_chat:,} people)", _chat_profile()))
    return out


def shared_figure(columns: list[tuple[str, TextProfile]]) -> tuple[go.Figure, str, list[dict]]:
    """k-grams used by at least K users against k, one line per corpus and K (log scale)."""
    fig, rows, alt = go.Figure(), [], []
    for i, (name, p) in enumerate(columns):
        style = series_style(i)
        for j, K in enumerate(KS):
            y = list(p.shared[K])
            fig.add_trace(
                go.Scatter(
                    x=list(p.lengths),
                    y=[v if v > 0 else None for v in y],
                    name=f"{name}, ≥ {K}",
                    mode="lines+markers",
                    line=style.line(dash=("solid", "dot")[j]),
                    marker=style.marker(),
                )
            )
            rows += [{"corpus": name, "K": K, "k": k, "k-grams used by ≥ K users": v} for k, v in zip(p.lengths, y)]
        alt.append(f"{name}: " + ", ".join(f"k={k} {v:,}" for k, v in zip(p.lengths, p.shared[KS[0]])))
    fig.update_layout(
        title="k-grams used by at least K people (solid: K = 10, dotted: K = 100)",
        xaxis_title="n-gram length k (tokens)",
        yaxis_title="number of distinct k-grams (log scale; more = more shared phrases)",
        yaxis_type="log",
    )
    fig.update_xaxes(dtick=1)
    return (
        fig,
        f"Lines of the number of k-grams used by at least {KS[0]} people against k, per corpus: "
        + "; ".join(alt)
        + ". Dotted lines: at least 100 people.",
        rows,
    )


def activity_figure(columns: list[tuple[str, TextProfile]]) -> tuple[go.Figure, str, list[dict]]:
    """Share of people with at least x sentences (log–log): the activity's heavy tail."""
    fig, rows, alt = go.Figure(), [], []
    for i, (name, p) in enumerate(columns):
        s = np.sort(p.sentences[p.sentences > 0])
        if not s.size:
            continue
        xs = np.unique(np.round(np.geomspace(1, s[-1], 40)).astype(int))
        share = [float(np.mean(p.sentences >= x)) for x in xs]
        style = series_style(i)
        fig.add_trace(
            go.Scatter(
                x=xs.tolist(), y=share, name=name, mode="lines+markers", line=style.line(), marker=style.marker()
            )
        )
        rows += [{"corpus": name, "at least x sentences": int(x), "share of people": v} for x, v in zip(xs, share)]
        act = p.activity()
        alt.append(
            f"{name}: median {act['q50']:.0f} sentences per person, mean {act['mean']:.0f}, maximum "
            f"{act['max']:,}, the 10 most active wrote {act['top10_share']:.0%}"
        )
    fig.update_layout(
        title="Activity: share of people who wrote at least x sentences",
        xaxis_title="sentences per person, x (log scale)",
        yaxis_title="share of people with at least x (log scale)",
        xaxis_type="log",
        yaxis_type="log",
    )
    return fig, "Lines, log–log, of the share of people with at least x sentences: " + "; ".join(alt) + ".", rows


def distinct_table(columns: list[tuple[str, TextProfile]]) -> list[dict]:
    """Per k: mean (median) distinct k-grams per person of each corpus (003 Table 2's statistic)."""
    return [
        {
            "k": k,
            **{
                f"{name}: mean (median)": f"{p.distinct_mean[i]:,.0f} ({p.distinct_median[i]:,.0f})"
                for name, p in columns
            },
        }
        for i, k in enumerate(columns[0][1].lengths)
    ]


def text_profile_panel(
    page: str,
    settings,
    *,
    index=None,
    lazy: bool | None = None,
    reason=None,
    note=None,
    key: str | None = None,
    on_demand: bool = False,
) -> dict[str, TextProfile] | None:
    """The expander: two charts, the per-person table, and the page's sentences (``reason``: Markdown, or a function
    returning it, called only when the panel is drawn; ``note``: a function of the first column's name and profile
    returning Markdown).

    ``key``: the expander is then a lazy one (its open state in the URL under that key): its content is computed
    and sent only while it is open (issue 29 item 4); it returns None while closed.

    ``index``: a per-user k-gram index of the private corpus the page already built (max_length ≥ 9; reused).
    ``lazy``: profile only the first 920 users of the private corpus, not all (default: above ``LAZY_USERS`` users).
    ``on_demand``: lazy under the key ``<page>_profile_open`` (issue 29 item 4: its two charts and the table are
    ε-free, yet were built and sent on every ε move).
    Returns the profiles shown, by column name.
    """
    corpus = settings.private
    lazy = corpus.n_users > LAZY_USERS if lazy is None else lazy
    label = "🔎 What this text looks like — why DPNE and DPSU differ on real and synthetic text"
    if on_demand and key is None:
        key = f"{page}_profile_open"
    if key is None:
        box = st.expander(label, expanded=False)
    else:
        box = lazy_expander(label, key=key, bind="query-params")
        if box is None:
            return None
    with box:
        st.markdown(text("text_profile", "intro", public=settings.public_label))
        if index is None and not lazy and not _is_chat(corpus):  # the DPNE page's cached index, built once for both
            from dpui.dpne.data import ngram_index  # pages (the chat's own profile ships: no index for it)

            index = ngram_index(corpus.content_hash, corpus)
        columns = _columns(settings.corpus_label, corpus, index=index, lazy=lazy and index is None)
        if lazy and index is None:
            st.caption(
                f"The whole {corpus.n_users:,}-user corpus is profiled once its per-user k-gram sets are built "
                "(on the DP n-gram extraction page, with the coverage); shown here: its first "
                f"{REAL_PEOPLE['private']:,} users beside the real chat."
            )
        fig, alt, rows = shared_figure(columns)
        show_figure(fig, alt=alt, key=f"{page}_profile_shared", records=rows, guarantees=as_is(fig))
        reddit = TABLE2_REDDIT.values["Reddit"]
        st.markdown(
            f"**Distinct k-grams per person** (003 Table 2's statistic; Reddit's users: {reddit[0]:g} words, "
            f"{reddit[1]:g} bigrams … {reddit[-1]:g} 9-grams on average, {TABLE2_REDDIT.source}):"
        )
        st.dataframe(distinct_table(columns), hide_index=True, width="stretch")
        fig, alt, rows = activity_figure(columns)
        show_figure(fig, alt=alt, key=f"{page}_profile_activity", records=rows, guarantees=as_is(fig))
        reason = reason() if callable(reason) else reason
        if reason:
            st.markdown(reason)
        if note is not None:
            st.markdown(note(*columns[0]))
        st.caption(text("text_profile", "caption"))
    return dict(columns)


def as_is(fig) -> dict:
    """Every series of a profile chart → "no noise": the texts' statistics as they are, not a release (issue 31)."""
    return {t.name: NO_NOISE for t in fig.data}
