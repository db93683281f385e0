"""Lecture exercises: checked, shareable exercises for every page (issue 13).

Each exercise is a declarative :class:`Exercise` record — the page it belongs to, the widget settings it
opens with, a question, hints and a worked solution — whose answer is *computed* by the dpcore functions
the page itself calls (``Exercise.answer()``), never written down. One module per page family:
:mod:`.mechanisms` (lecture 001), :mod:`.bayesian` (000), :mod:`.ngrams` (003), :mod:`.topics` (004), :mod:`.audit`
(the privacy audit) and :mod:`.risk` (what ε means for one person, beside every badge: issue 32).
:mod:`dpui.common.exercise_sheets` turns them into printable Markdown/HTML sheets (student and lecturer versions).

:func:`all_exercises` returns every exercise (the package itself is a plain module, not callable)::

    import dpcore
    for ex in dpcore.lab.exercises.all_exercises():
        print(ex.id, ex.page, dict(ex.settings), ex.answer())
"""

from __future__ import annotations

from ._base import CHOICE, EXERCISE_KINDS, NUMBER, Exercise, Solution
from . import audit, bayesian, mechanisms, ngrams, risk, topics
from ...errors import UserError

__all__ = [
    "Exercise",
    "Solution",
    "NUMBER",
    "CHOICE",
    "EXERCISE_KINDS",
    "all_exercises",
    "exercise",
    "exercises_for_page",
    "next_exercise",
    "pages",
    "data_version",
]

_MODULES = (mechanisms, bayesian, ngrams, topics, audit, risk)


def _collect() -> tuple[Exercise, ...]:
    out = tuple(ex for module in _MODULES for ex in module.EXERCISES)
    ids = [ex.id for ex in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"exercise ids must be unique, got duplicates {dupes}")
    return out


_ALL = _collect()


def all_exercises() -> tuple[Exercise, ...]:
    """Every exercise, grouped by page in page order (the order of the sheets and of "next")."""
    return tuple(sorted(_ALL, key=lambda ex: ex.page))  # stable: keeps each module's order


def pages() -> tuple[str, ...]:
    """The pages that have exercises, in order."""
    return tuple(dict.fromkeys(ex.page for ex in all_exercises()))


def exercise(exercise_id: str) -> Exercise:
    """The exercise with this id (ValueError naming the known ids otherwise)."""
    for ex in _ALL:
        if ex.id == exercise_id:
            return ex
    raise UserError(
        f"exercise must be one of the known ids ({', '.join(e.id for e in _ALL)}), got exercise={exercise_id!r}"
    )


def exercises_for_page(page: str) -> tuple[Exercise, ...]:
    """The exercises of one page (its file name without .py), in order."""
    return tuple(ex for ex in all_exercises() if ex.page == page)


def next_exercise(exercise_id: str) -> Exercise | None:
    """The exercise after this one (on the same page first, then the next page's first); None at the end."""
    order = all_exercises()
    ids = [ex.id for ex in order]
    i = ids.index(exercise(exercise_id).id)
    return order[i + 1] if i + 1 < len(order) else None


def data_version() -> str:
    """A cheap key that changes when the shipped data behind the answers changes (for an app's cache).

    Built from the names, sizes and modification times of the sample corpora files and the version of the
    package holding the real chat corpus, so it costs no corpus load on a page that does not need one.
    """
    import hashlib
    from importlib import metadata

    from ...text.corpus import sample_data_dir
    from ...text.real_corpus import SPLIT_SEED

    parts = []
    for path in sorted(sample_data_dir().glob("*.jsonl.gz")):
        st = path.stat()
        parts.append(f"{path.name}:{st.st_size}:{st.st_mtime_ns}")
    try:
        parts.append(f"chitchat-dataset:{metadata.version('chitchat-dataset')}:{SPLIT_SEED}")
    except metadata.PackageNotFoundError:
        parts.append("chitchat-dataset:missing")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]
