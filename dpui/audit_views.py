"""Views of the Privacy audit page: running an audit with a progress bar, its charts and its export.

No maths here: the audit, the bound and the scenarios live in :mod:`dpcore.audit`; this module only
runs them, remembers finished runs (keyed by every setting and the seed) and draws them.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from dpcore.audit import ScenarioRun, get_scenario, run_scenario

from .charts import PALETTE

SCENARIO_LABELS: dict[str, str] = {
    "Laplace count": "laplace_count",
    "Exponential (cities)": "exponential_city",
    "DPSU": "dpsu",
    "DPNE": "dpne_redraw",
    "BayesianDP": "bayesian",
    "TopicDP": "topicdp",
    "k-anonymity": "kanonymity",
}
"""Short names shown in the picker and the URL → scenario names of dpcore.audit."""

TRIAL_OPTIONS: tuple[int, ...] = (1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000)
CONFIDENCE_OPTIONS: tuple[float, ...] = (0.9, 0.95, 0.99)
_RUNS = "_audit_runs"


def variants_of(label: str) -> tuple[bool, bool]:
    """(has a correct variant, has a broken variant) for a picker label."""
    sc = get_scenario(SCENARIO_LABELS[label])
    return sc.correct is not None, sc.broken is not None


def variant_explanation(label: str, broken: bool) -> str:
    """The one-sentence description of a variant (BROKEN ones say what is broken)."""
    return get_scenario(SCENARIO_LABELS[label]).variant(broken).explanation


def scenario_text(label: str) -> dict:
    """The words the page shows about a scenario: title, pair, score, why it is the worst case, notes."""
    sc = get_scenario(SCENARIO_LABELS[label])
    return {"title": sc.title, "pair": sc.pair, "score": sc.score, "why": sc.explanation, "note": sc.note,
            "suggested_trials": sc.default_trials}


def run_with_progress(label: str, broken: bool, trials: int, confidence: float, seed: int) -> ScenarioRun:
    """Run (or recall) the audit of one scenario variant, showing a progress bar with the time left.

    Finished runs are kept in the session keyed by every setting and the seed, so a rerun caused by
    another widget does not redraw the noise.
    """
    key = (SCENARIO_LABELS[label], bool(broken), int(trials), float(confidence), int(seed))
    runs = st.session_state.setdefault(_RUNS, {})
    if key in runs:
        return runs[key]
    bar = st.progress(0.0, text=f"Running the mechanism {2 * trials:,} times…")
    start = time.perf_counter()

    def progress(done: int, total: int) -> None:
        elapsed = time.perf_counter() - start
        left = elapsed / done * (total - done) if done else float("nan")
        bar.progress(min(1.0, done / total), text=f"{done:,} of {total:,} runs — about {left:.1f} s left")

    run = run_scenario(key[0], broken=broken, trials=trials, confidence=confidence,
                       rng=np.random.default_rng([seed, 10]), progress=progress)
    bar.empty()
    if len(runs) > 20:
        runs.pop(next(iter(runs)))
    runs[key] = run
    return run


def score_histogram(run: ScenarioRun) -> go.Figure:
    """The two score distributions (all trials) and the chosen event's threshold."""
    r = run.result
    a, b = r.scores_d, r.scores_d_prime
    lo, hi = float(np.min([a.min(), b.min()])), float(np.max([a.max(), b.max()]))
    if np.isfinite(lo) and np.isfinite(hi) and np.unique(np.concatenate([a, b])).size <= 12:
        xbins = dict(start=lo - 0.5, end=hi + 0.5, size=max((hi - lo) / 10, 0.5) if hi > lo else 1.0)
    else:
        lo_q, hi_q = np.quantile(np.concatenate([a, b]), [0.001, 0.999])
        xbins = dict(start=float(lo_q), end=float(hi_q), size=float(hi_q - lo_q) / 60 or 1.0)
    fig = go.Figure()
    for name, s, colour in (("runs on D", a, PALETTE[0]), ("runs on D'", b, PALETTE[1])):
        fig.add_trace(go.Histogram(x=s, name=name, xbins=xbins, histnorm="probability", opacity=0.55,
                                   marker_color=colour))
    fig.add_vline(x=r.event.threshold, line_dash="dash", line_color="black",
                  annotation_text=f"event: score {r.event.direction} {r.event.threshold:.4g}")
    fig.update_layout(barmode="overlay", title="Scores of the two output distributions",
                      xaxis_title="score of one output", yaxis_title="share of runs", height=380)
    return fig


def bound_figure(run: ScenarioRun) -> go.Figure:
    """ε lower bound (with its one-sided direction) against the claimed ε on one axis."""
    r = run.result
    fig = go.Figure()
    fig.add_trace(go.Bar(y=["measured"], x=[r.epsilon_lower], orientation="h", name="ε lower bound (95 % one-sided)"
                         if r.confidence == 0.95 else f"ε lower bound ({r.confidence:.0%} one-sided)",
                         marker_color=PALETTE[3] if r.violates_claim else PALETTE[2],
                         text=[f"{r.epsilon_lower:.3f}"], textposition="outside"))
    top = max(r.epsilon_lower, r.epsilon_claimed or 0.0) * 1.3 + 0.2
    if r.epsilon_claimed is not None:
        fig.add_vline(x=r.epsilon_claimed, line_color="black", line_width=3,
                      annotation_text=f"claimed ε = {r.epsilon_claimed:g}")
    fig.update_layout(title="What the audit proves about ε, against the claim", height=230,
                      xaxis=dict(title="ε (nats); the true ε is at least the bar", range=[0, top]),
                      showlegend=False)
    return fig


def claim_text(run: ScenarioRun) -> str:
    """The claimed guarantee in words."""
    r = run.result
    if r.epsilon_claimed is None:
        return "none (not differentially private)"
    return f"ε = {r.epsilon_claimed:g}" + (f", δ = {r.delta:g}" if r.delta > 0 else " (pure DP, δ = 0)")


def probability_rows(run: ScenarioRun) -> list[dict]:
    """p̂ of the event on D and D' (evaluation half) with the Clopper–Pearson bounds, as table rows."""
    r = run.result
    return [{"dataset": name, "runs in the event": k, "evaluation runs": r.n_eval, "share": k / r.n_eval,
             f"lower bound ({r.bound_level:.1%})": iv[0], f"upper bound ({r.bound_level:.1%})": iv[1]}
            for name, k, iv in (("D", r.count_d, r.interval_d), ("D'", r.count_d_prime, r.interval_d_prime))]


def verdict(run: ScenarioRun) -> tuple[str, str]:
    """(kind, sentence): what the result means and what it does not. kind is "caught", "passed" or "none"."""
    r = run.result
    conf = f"{r.confidence:.0%}"
    if r.epsilon_claimed is None:
        return "caught", (f"This mechanism claims no ε; with {conf} confidence its true ε for this pair is at "
                          f"least {r.epsilon_lower:.2f}, and more trials would push the bound higher still.")
    if r.violates_claim:
        return "caught", (f"Caught: with {conf} confidence the true ε is at least {r.epsilon_lower:.2f}, above the "
                          f"claimed {r.epsilon_claimed:g} — the claim is false for this pair.")
    return "passed", (f"Passed: the audit could only show ε ≥ {r.epsilon_lower:.2f}, not above the claimed "
                      f"{r.epsilon_claimed:g}. A passed audit is not a proof of privacy: it tried one pair, one "
                      "score and the threshold events on it; another pair or score might show more.")


def export_records(run: ScenarioRun, label: str) -> list[dict]:
    """One row with the counts, intervals, event and bound of the run (no raw scores)."""
    row = {"mechanism": label, "variant": run.variant, "broken": run.broken, **run.result.as_dict(),
           "seconds": round(run.seconds, 3), "cpu_seconds": round(run.cpu_seconds, 3)}
    return [row]
