"""Data of the Privacy audit page: the scenario picker's names and texts, and running an audit with a
progress bar and a time estimate (finished runs are kept in the session, keyed by every setting and the
seed). No maths here: the audit, the bound and the scenarios live in :mod:`dpcore.audit`.
"""

from __future__ import annotations

import time

import streamlit as st

from dpcore.audit import SCENARIO_LABELS, ScenarioRun, get_scenario
from dpcore.audit.scenarios import NO_EPSILON
from dpcore.specs import AuditSpec
from dpui.common.sidebar import EPSILON_OPTIONS

__all__ = [
    "SCENARIO_LABELS",
    "EPSILON_CHOICES",
    "OWN_EPSILON",
    "NO_EPSILON_LABELS",
    "audited_epsilon",
    "TRIAL_OPTIONS",
    "CONFIDENCE_OPTIONS",
    "variants_of",
    "variant_explanation",
    "scenario_text",
    "run_with_progress",
    "suggested_trials",
    "trials_follow_mechanism",
    "remember_mechanism",
]

OWN_EPSILON = "scenario's own"
EPSILON_CHOICES: tuple[str, ...] = (OWN_EPSILON,) + tuple(f"{e:g}" for e in EPSILON_OPTIONS)
"""The audit's ε picker (issue 31 item 12): the scenario's own claim, or any ε of the app's grid (as text: the URL
holds ``audit_epsilon=2``)."""
NO_EPSILON_LABELS = tuple(label for label, name in SCENARIO_LABELS.items() if name in NO_EPSILON)
"""Picker labels of mechanisms that claim no ε (k-anonymity): the ε picker is off for them."""


def audited_epsilon(choice: str, label: str) -> float | None:
    """The ε an :class:`AuditSpec` gets from the picker's ``choice``: None for the scenario's own (and for a
    mechanism that claims none)."""
    return None if choice == OWN_EPSILON or label in NO_EPSILON_LABELS else float(choice)


TRIAL_OPTIONS: tuple[int, ...] = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000)
CONFIDENCE_OPTIONS: tuple[float, ...] = (0.9, 0.95, 0.99)
_RUNS = "_audit_runs"
_DRAWN = "_audit_outputs"
"""Session state: the runs by their spec key without the confidence (what the mechanism's outputs depend on)."""


_LAST_LABEL = "_audit_last_mechanism"


def suggested_trials(label: str) -> int:
    """The trials per dataset a scenario suggests (its ``default_trials``), which is also the page's default for
    it (issue 24: the page suggested 100,000 and defaulted to 10,000). Measured on 2 shared CPUs at load ~8
    (one audit run): Laplace count 100,000 trials 0.05 s CPU, the cities 0.01 s, DPNE
    200,000 0.02 s, BayesianDP 2,000 0.01 s, TopicDP 20,000 < 0.1 s, DPSU 2,000 1.2 s (10,000: 4.4 s)."""
    return int(get_scenario(SCENARIO_LABELS[label]).default_trials)


def trials_follow_mechanism() -> None:
    """``on_change`` of the mechanism picker: trials left at the previous mechanism's suggestion move to the
    new one's (DPSU suggests 2,000, Laplace 100,000); a count the user chose stays. A link or an exercise sets
    both in session state and never calls this."""
    previous = st.session_state.get(_LAST_LABEL)
    label = st.session_state.get("audit_mechanism")
    if (
        previous in SCENARIO_LABELS
        and label in SCENARIO_LABELS
        and st.session_state.get("audit_trials") == suggested_trials(previous)
    ):
        st.session_state["audit_trials"] = suggested_trials(label)


def remember_mechanism(label: str) -> None:
    """Record the mechanism this run shows (for :func:`trials_follow_mechanism`)."""
    st.session_state[_LAST_LABEL] = label


def variants_of(label: str) -> tuple[bool, bool]:
    """(has a correct variant, has a broken variant) for a picker label."""
    sc = get_scenario(SCENARIO_LABELS[label])
    return sc.correct is not None, sc.broken is not None


def variant_explanation(label: str, broken: bool, epsilon: float | None = None) -> str:
    """The one-sentence description of a variant (BROKEN ones say what is broken) at the audited ``epsilon``."""
    return get_scenario(SCENARIO_LABELS[label], epsilon=epsilon).variant(broken).explanation


def scenario_text(label: str, epsilon: float | None = None) -> dict:
    """The words the page shows about a scenario at the audited ``epsilon``: title, pair, score, why it is the
    worst case, notes."""
    sc = get_scenario(SCENARIO_LABELS[label], epsilon=epsilon)
    return {
        "title": sc.title,
        "pair": sc.pair,
        "score": sc.score,
        "why": sc.explanation,
        "note": sc.note,
        "suggested_trials": sc.default_trials,
    }


def run_with_progress(spec: AuditSpec) -> ScenarioRun:
    """Run (or recall) the audit a :class:`dpcore.specs.AuditSpec` describes, showing a progress bar with the time
    left.

    Finished runs are kept in the session keyed by the spec (every setting and the seed), so a rerun caused by
    another widget does not redraw the noise. A new confidence is the same runs bounded again
    (:meth:`AuditSpec.rebound`, issue 29): the mechanism's outputs do not depend on it.
    """
    key, trials = spec.key(), spec.trials
    runs = st.session_state.setdefault(_RUNS, {})
    if key in runs:
        return runs[key]
    drawn = st.session_state.setdefault(_DRAWN, {})
    outputs_key = spec.key(without=("confidence",))
    if outputs_key in drawn:
        return _keep(runs, key, spec.rebound(drawn[outputs_key]))
    bar = st.progress(0.0, text=f"Running the mechanism {2 * trials:,} times…")
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        elapsed = time.perf_counter() - start
        left = elapsed / done * (total - done) if done else float("nan")
        bar.progress(min(1.0, done / total), text=f"{done:,} of {total:,} runs — about {left:.1f} s left")

    run = spec.run(progress=progress)
    bar.empty()
    _keep(drawn, outputs_key, run)
    return _keep(runs, key, run)


def _keep(store: dict, key: str, run: ScenarioRun) -> ScenarioRun:
    """``store[key] = run``, the oldest of more than 20 dropped (a session's memory stays bounded)."""
    if len(store) > 20:
        store.pop(next(iter(store)))
    store[key] = run
    return run
