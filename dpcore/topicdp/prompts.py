"""Can a reader still tell what people talked about? Released topics matched to conversation prompts.

Beyond the thesis (issue 20 item 3). In the real chat corpus every document (one person's messages in
one conversation) carries its conversation's prompt ("What's your favorite smell?") as a label for
*evaluation only*: no mechanism reads it and no release contains it. The prompts are ground truth for
what a topic is about, so a released topic–keyword table — before noise, and after each mechanism's
noise — can be scored by how many of its topics a reader can still match to a prompt.

**The matching rule** (:data:`MATCH_RULE`, also on the page):

1. *Sort the conversations with the table.* Every labelled document that uses at least one of the
   table's n keywords goes to the topic (row) t maximising Σ_w n_dw·W_tw — the table's keyword
   probabilities weighted by how often the document uses each keyword (ties: the first row). A reader
   needs nothing but the released table to do this.
2. *Lift.* For topic t and prompt p, lift(t, p) = (share of p among t's documents) / (share of p among
   all sorted documents): how much more common that prompt's conversations are in the topic than overall.
3. *Distinct prompts.* Topics and prompts are paired one to one by the Hungarian algorithm
   (``scipy.optimize.linear_sum_assignment``) maximising the summed lift.
4. *Matched* when its pair has lift ≥ :data:`MIN_LIFT` (2) and at least :data:`MIN_DOCUMENTS` (10) of the
   topic's documents come from that prompt's conversations (so a lift is never read off two or three
   documents).

After noise the same rule runs on the released (noisy, clipped, renormalised) table, and a topic *keeps*
its prompt when it is matched to the same prompt as before noise. Matching *some* prompt is no evidence
after noise: the column words are released without noise, so even a table of random rows sorts the
"smell" conversations into whichever row puts most weight on "smell" and matches about as many prompts
as the noiseless table — on the wrong rows. What the noise destroys is *which row* is about what, so
:class:`PromptSurvival` counts kept topics and gives the chance level (rows replaced by uniformly random
probability vectors over the same words).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.sparse import csr_matrix

from ..errors import UserError
from ..text.corpus import Corpus
from ..validation import check_int, check_rng

__all__ = [
    "MIN_LIFT",
    "MIN_DOCUMENTS",
    "MATCH_RULE",
    "PromptDocuments",
    "PromptMatch",
    "PromptSurvival",
    "prompt_documents",
    "match_topics_to_prompts",
    "prompt_survival",
    "SurvivalCurve",
    "prompt_survival_curve",
    "SURVIVAL_EPSILONS",
]

MIN_LIFT = 2.0
MIN_DOCUMENTS = 10
MATCH_RULE = (
    "Each conversation (one person's messages in one chat) that uses at least one of the table's keywords is "
    "sorted into the topic whose keyword probabilities, weighted by how often it uses each keyword, sum highest. "
    "Topics and prompts are then paired one to one (Hungarian algorithm, maximising the summed lift: a prompt's "
    "share among a topic's conversations divided by its share among all sorted ones); a topic matches its prompt "
    f"when the lift is at least {MIN_LIFT:g} and at least {MIN_DOCUMENTS} of its conversations come from that prompt. "
    "The prompts are labels for this evaluation only: no mechanism reads them."
)


@dataclass(frozen=True, eq=False)
class PromptDocuments:
    """The labelled documents a table is scored on: word counts over the model's vocabulary and each
    document's prompt (index into ``prompts``; −1 for a document without one)."""

    counts: csr_matrix
    prompt: np.ndarray
    prompts: tuple[str, ...]
    words: tuple[str, ...]
    corpus_hash: str

    @property
    def n_prompts(self) -> int:
        return len(self.prompts)


def prompt_documents(corpus: Corpus, words) -> PromptDocuments:
    """Count ``corpus``'s documents over ``words`` (the topic model's vocabulary, same token rule as
    :func:`dpcore.topicdp.document_term_data`), with each document's ``genre`` (its prompt) as the label."""
    from sklearn.feature_extraction.text import CountVectorizer

    from .model import TOKEN_PATTERN

    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    words = tuple(str(w) for w in words)
    if not words:
        raise UserError("words must not be empty")
    labels = [doc.genre for docs in corpus.users for doc in docs]
    prompts = tuple(sorted({g for g in labels if g}))
    index = {p: i for i, p in enumerate(prompts)}
    vec = CountVectorizer(vocabulary=list(words), token_pattern=TOKEN_PATTERN)
    counts = vec.transform(corpus.document_texts()).tocsr()
    return PromptDocuments(
        counts=counts,
        prompt=np.array([index.get(g, -1) if g else -1 for g in labels]),
        prompts=prompts,
        words=words,
        corpus_hash=corpus.content_hash,
    )


@dataclass(frozen=True)
class PromptMatch:
    """How a table's topics match prompts (:data:`MATCH_RULE`).

    ``prompt_of[t]`` is the prompt index matched to row t, or None; ``lift[t]`` and ``documents[t]`` the
    lift and the number of that prompt's documents in topic t for the pair the assignment chose (matched
    or not); ``sorted_documents`` how many labelled documents used at least one keyword.
    """

    prompt_of: tuple[int | None, ...]
    lift: tuple[float, ...]
    documents: tuple[int, ...]
    sorted_documents: int
    prompts: tuple[str, ...]

    @property
    def matched(self) -> int:
        """Topics matched to a distinct prompt."""
        return sum(p is not None for p in self.prompt_of)

    def label(self, t: int) -> str | None:
        p = self.prompt_of[t]
        return None if p is None else self.prompts[p]


def _columns(words, docs: PromptDocuments) -> np.ndarray:
    index = {w: i for i, w in enumerate(docs.words)}
    missing = [w for w in words if w not in index]
    if missing:
        raise UserError(f"words must be in the documents' vocabulary, got {missing[:3]} outside it")
    return np.array([index[w] for w in words], dtype=int)


def _sortable(words, docs: "PromptDocuments") -> tuple[np.ndarray, np.ndarray]:
    """The labelled documents that use at least one of ``words``: their counts of the words, their prompts."""
    x = docs.counts[:, _columns(words, docs)].toarray()
    has = (x.sum(axis=1) > 0) & (docs.prompt >= 0)
    return x[has], docs.prompt[has]


def _match(w: np.ndarray, x: np.ndarray, prompt: np.ndarray, n_prompts: int) -> tuple:
    """Step 1–4 of the rule on the sortable documents ``x`` (each uses a keyword) with labels ``prompt``."""
    topic = np.argmax(x @ w.T, axis=1)  # documents × m → the row each document is sorted into
    m = w.shape[0]
    c = np.bincount(topic * n_prompts + prompt, minlength=m * n_prompts).reshape(m, n_prompts).astype(float)
    total = c.sum()
    if total == 0:
        return (None,) * m, (0.0,) * m, (0,) * m, 0
    base = c.sum(axis=0) / total
    per_topic = c.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        lift = np.where(
            (per_topic > 0) & (base > 0),
            c / np.where(per_topic > 0, per_topic, 1.0) / np.where(base > 0, base, 1.0),
            0.0,
        )
    rows, cols = linear_sum_assignment(-lift)
    prompt_of: list[int | None] = [None] * m
    lifts, counts = [0.0] * m, [0] * m
    for t, p in zip(rows, cols):
        lifts[t], counts[t] = float(lift[t, p]), int(c[t, p])
        if lift[t, p] >= MIN_LIFT and c[t, p] >= MIN_DOCUMENTS:
            prompt_of[t] = int(p)
    return tuple(prompt_of), tuple(lifts), tuple(counts), int(total)


def match_topics_to_prompts(matrix, words, docs: PromptDocuments) -> PromptMatch:
    """Match the rows of a released m × n table (columns = ``words``) to distinct prompts (:data:`MATCH_RULE`).

    Raises:
      ValueError: the matrix is not 2-D with one column per word, is not finite, or a word is not in
        ``docs.words``.
    """
    if not isinstance(docs, PromptDocuments):
        raise TypeError(f"docs must be PromptDocuments (see prompt_documents), got docs={type(docs).__name__}")
    w = np.asarray(matrix, dtype=float)
    words = tuple(words)
    if w.ndim != 2 or w.shape[1] != len(words):
        raise UserError(f"matrix must be 2-D with one column per word, got shape {w.shape} for {len(words)} words")
    if not np.all(np.isfinite(w)):
        raise UserError("matrix must be finite, got a NaN or infinite entry")
    x, prompt = _sortable(words, docs)
    prompt_of, lifts, counts, n_sorted = _match(w, x, prompt, docs.n_prompts)
    return PromptMatch(prompt_of, lifts, counts, n_sorted, docs.prompts)


@dataclass(frozen=True)
class PromptSurvival:
    """Before noise and after each mechanism's noise (mean over ``draws`` releases).

    ``before``: the noiseless table's :class:`PromptMatch`. ``kept[mechanism]``: mean number of topics
    matched after noise to the *same* prompt as before; ``matched[mechanism]``: mean number matched to any
    distinct prompt after noise (not evidence: see the module docstring); ``chance``: mean number kept
    when every row is replaced by a uniformly random probability vector over the same words.
    """

    before: PromptMatch
    kept: Mapping[str, float]
    matched: Mapping[str, float]
    chance: float
    draws: int

    def sentence(self) -> str:
        m = len(self.before.prompt_of)
        after = ", ".join(f"{k} {v:.2g}" for k, v in self.kept.items())
        return (
            f"Before noise {self.before.matched} of the {m} topics match a distinct prompt. After noise a "
            f"reader still matches this many of them to the same prompt (mean of {self.draws} draws): {after}; "
            f"random rows over the same keywords keep {self.chance:.2g} by chance."
        )


def prompt_survival(table, docs: PromptDocuments, releases: Mapping, *, draws: int = 20, rng) -> PromptSurvival:
    """:func:`match_topics_to_prompts` on the noiseless table and on ``draws`` fresh releases per mechanism.

    Args:
      table: a :class:`dpcore.topicdp.TopicKeywordMatrix` (its ``matrix`` and ``words``).
      docs: the labelled documents (:func:`prompt_documents`).
      releases: ``{mechanism: MatrixRelease}`` of ``table.matrix`` (e.g. :func:`dpcore.topicdp.release_all`): each
        mechanism is redrawn ``draws`` times at its noise scale (:func:`dpcore.topicdp.redraw_releases`).
      draws: releases per mechanism.
      rng: generator or seed of the noise.
    """
    from .experiments import redraw_releases

    draws = check_int("draws", draws, low=1, high=10_000)
    rng = check_rng(rng)
    before = match_topics_to_prompts(table.matrix, table.words, docs)
    x, prompt = _sortable(table.words, docs)
    w = np.asarray(table.matrix, dtype=float)

    def same(after) -> int:
        return sum(a is not None and a == b for a, b in zip(after, before.prompt_of))

    kept, matched = {}, {}
    for mech, rel in releases.items():
        afters = [_match(r, x, prompt, docs.n_prompts)[0] for r in redraw_releases(rel, w, draws, rng)]
        kept[mech] = float(np.mean([same(a) for a in afters]))
        matched[mech] = float(np.mean([sum(p is not None for p in a) for a in afters]))
    chance = float(
        np.mean(
            [
                same(_match(rng.dirichlet(np.ones(w.shape[1]), size=w.shape[0]), x, prompt, docs.n_prompts)[0])
                for _ in range(draws)
            ]
        )
    )
    return PromptSurvival(before, kept, matched, chance, draws)


SURVIVAL_EPSILONS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0)
"""The ε grid of :func:`prompt_survival_curve` (far beyond the page's slider: that is where topics survive)."""


@dataclass(frozen=True)
class SurvivalCurve:
    """Mean topics kept (same prompt as before noise) per mechanism at each ε of ``epsilons``."""

    epsilons: tuple[float, ...]
    kept: Mapping[str, tuple[float, ...]]
    before: PromptMatch
    chance: float
    draws: int

    def first_epsilon(self, mechanism: str, share: float = 0.5) -> float | None:
        """The smallest ε of the grid at which ``mechanism`` keeps at least ``share`` of the topics matched
        before noise (mean over the draws), or None when no ε of the grid does."""
        need = share * self.before.matched
        for e, k in zip(self.epsilons, self.kept[mechanism]):
            if k >= need:
                return e
        return None


def prompt_survival_curve(
    table,
    docs: PromptDocuments,
    *,
    sensitivity,
    delta,
    gamma=None,
    epsilons=SURVIVAL_EPSILONS,
    draws: int = 10,
    seed: int = 0,
) -> SurvivalCurve:
    """:func:`prompt_survival` of every mechanism of :func:`dpcore.topicdp.release_all` at each ε of ``epsilons``.

    The noise comes from ``np.random.default_rng([seed, 4, i])`` at the i-th ε, so the page and an
    exercise that pass the same seed see the same curve. ``sensitivity`` is Δ_s (number or
    :class:`dpcore.topicdp.SensitivityResult`)."""
    from .experiments import release_all

    seed = check_int("seed", seed, low=0)
    eps = tuple(float(e) for e in epsilons)
    if not eps:
        raise UserError("epsilons must not be empty")
    kept: dict[str, list[float]] = {}
    chance = []
    before = None
    for i, e in enumerate(eps):
        rng = np.random.default_rng([seed, 4, i])
        releases = release_all(table.matrix, epsilon=e, delta=delta, sensitivity=sensitivity, rng=rng, gamma=gamma)
        s = prompt_survival(table, docs, releases, draws=draws, rng=rng)
        before = s.before
        chance.append(s.chance)
        for mech, k in s.kept.items():
            kept.setdefault(mech, []).append(k)
    before = cast(PromptMatch, before)  # set at the first ε (eps is not empty)
    return SurvivalCurve(eps, {k: tuple(v) for k, v in kept.items()}, before, float(np.mean(chance)), draws)
