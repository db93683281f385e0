"""Privacy audit — measure ε from the outside (issue 10).

Runs a mechanism many times on two neighbouring datasets, reduces each output to a score, and shows
the lower bound on ε that the two output distributions prove, beside the claimed ε. The audit and
the scenarios are dpcore.audit; the loaders are dpui.audit.data, the figures dpui.audit.figures.
"""

import pandas as pd
import streamlit as st

from dpcore.specs import AuditSpec
from dpui import exercise_mode, export_view, shared_sidebar, show_figure, user_errors
from dpui.audit.data import (
    CONFIDENCE_OPTIONS,
    EPSILON_CHOICES,
    NO_EPSILON_LABELS,
    OWN_EPSILON,
    SCENARIO_LABELS,
    TRIAL_OPTIONS,
    audited_epsilon,
    remember_mechanism,
    run_with_progress,
    scenario_text,
    suggested_trials,
    trials_follow_mechanism,
    variant_explanation,
    variants_of,
)
from dpui.audit.figures import (
    bound_figure,
    claim_text,
    claimed_guarantee,
    export_records,
    measured_attacks,
    probability_rows,
    score_histogram,
    verdict,
)
from dpui.common.exports import export_box
from dpui.common.presenter import page_fragment, presenter_stage
from dpui.common.reproduce import reproduce_buttons
from dpui.common.risk import attacker_view
from dpui.common.state import IN_URL
from dpui.common.texts import explain, text

st.set_page_config(page_title="Privacy audit", page_icon="🔍", layout="wide")
exercise_mode("5_Privacy_audit")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("seed",))  # the audited ε is the page's own knob (each scenario has a default)

st.title("Privacy audit")
stage = presenter_stage()  # presenter mode: the bound's chart here, the mechanism and its ε beside it (issue 31)
explain("audit", "lead")


def audit() -> None:
    """The scenario's knobs and its audit: an st.fragment, so moving a knob reruns only this (page_fragment)."""
    c1, c2, c5, c3, c4 = st.columns([2, 1, 2, 2, 1])
    label = stage.knob(c1).selectbox(
        "Mechanism", tuple(SCENARIO_LABELS), index=0, key="audit_mechanism", **IN_URL, on_change=trials_follow_mechanism
    )  # trials at the old suggestion move to the new one's
    remember_mechanism(label)
    has_correct, has_broken = variants_of(label)
    broken = c2.toggle(
        "Break it",
        value=False,
        key="audit_broken",
        **IN_URL,
        disabled=not (has_correct and has_broken),
        help="Run the deliberately BROKEN variant of the mechanism instead of the correct one.",
    )
    if not has_correct:
        c2.caption(text("audit", "only_broken"))
    elif not has_broken:  # never a toggle that looks on while the correct variant runs (issue 24 item 6)
        c2.caption("No broken variant for this pair: the correct one runs.")
    broken = (broken and has_broken) or not has_correct
    eps_choice = stage.knob(c5).select_slider(  # issue 31 item 12: a reviewer audits at an ε of their choice
        "ε claimed and run at",
        EPSILON_CHOICES,
        value=OWN_EPSILON,
        key="audit_epsilon",
        **IN_URL,
        disabled=label in NO_EPSILON_LABELS,
        help="The ε the mechanism is run at and claims. The scenario's own: 1 (4 for DPNE, whose δ part needs a large ε "
        "to be measurable). The pair, the score and δ stay the scenario's.",
    )
    trials = c3.select_slider(
        "Trials per dataset",
        TRIAL_OPTIONS,
        value=suggested_trials(label),
        key="audit_trials",
        format_func=lambda n: f"{n:,}",
        **IN_URL,
        help="Half of them choose the event, the other half measure it.",
    )
    confidence = c4.select_slider(
        "Confidence", CONFIDENCE_OPTIONS, value=0.95, key="audit_confidence", format_func=lambda c: f"{c:.0%}", **IN_URL
    )

    audited = audited_epsilon(eps_choice, label)
    about = scenario_text(label, audited)
    st.header(about["title"])
    if trials < about["suggested_trials"]:
        st.caption(f"Suggested for this pair: {about['suggested_trials']:,} trials per dataset or more.")

    with user_errors():  # one spec: the run, its session cache key, the export record and the notebook (issue 22)
        spec = AuditSpec(
            seed=settings.seed,
            scenario=SCENARIO_LABELS[label],
            broken=bool(broken),
            trials=trials,
            confidence=confidence,
            epsilon=audited,
        )
        run = run_with_progress(spec)

    if run.broken:
        explanation = variant_explanation(label, True, audited)
        st.warning(explanation if explanation.startswith("BROKEN") else f"BROKEN (not DP): {explanation}", icon="🛠️")
    kind, sentence = verdict(run)
    (st.warning if kind == "caught" else st.success)(sentence, icon="🔍" if kind == "caught" else "✅")
    # the claim's bound in words, and on a toggle its curve with the attack measured here on the same axes
    attacker_view(
        claimed_guarantee(run), key="audit_risk_curve", claim="The claim says:", measured=lambda: measured_attacks(run)
    )

    r = run.result
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("ε lower bound", f"{r.epsilon_lower:.3f}")
    m2.metric(
        "claimed ε", "none" if r.epsilon_claimed is None else f"{r.epsilon_claimed:g}", help=f"claimed δ = {r.delta:g}"
    )
    m3.metric("share of runs in the event, D", f"{r.p_hat_d:.4f}")
    m4.metric("share of runs in the event, D'", f"{r.p_hat_d_prime:.4f}")

    fig, alt = bound_figure(run)
    with stage.chart():  # a measurement, not a release: its claim and verdict are in the chart and the lines above
        show_figure(fig, alt=alt, key="audit_bound_chart")
    fig, alt = score_histogram(run)
    show_figure(fig, alt=alt, key="audit_hist_chart")
    st.dataframe(pd.DataFrame(probability_rows(run)), hide_index=True)

    with st.expander("The pair, the score and the claim"):  # below the charts: what was run (issue 24 item 5)
        st.markdown(f"**The pair.** {about['pair']}. {about['why']}  \n**The score** of one output: {about['score']}.")
        if about["note"]:
            st.caption(about["note"])
        if not run.broken:
            st.caption(f"Correct variant: {variant_explanation(label, False, audited)}")
        st.markdown(
            f"**The claim:** {claim_text(run)}.  \n**Chosen event** (on the first half of the runs): "
            f"{r.event.describe()}. Measured on the other {r.n_eval:,} runs per dataset; took {run.seconds:.2f} s "
            f"({run.cpu_seconds:.2f} s CPU)."
        )
    with st.expander("What this bound means, and what it does not"):
        st.caption(text("audit", "intro"))
        st.markdown(text("audit", "meaning"))

    if box := export_box("audit"):  # built only while open (issue 29 item 4)
        with box:
            export_view(
                "Audit result",
                export_records(run, label),
                key="audit_export",
                settings={
                    "mechanism": label,
                    "broken": run.broken,
                    "trials": trials,
                    "confidence": confidence,
                    "seed": settings.seed,
                    "epsilon_claimed": r.epsilon_claimed,
                    "epsilon_chosen": spec.epsilon,
                    "delta": r.delta,
                },
                spec=spec,
            )
            reproduce_buttons(spec, title=f"the privacy audit of {label}", key="audit_reproduce")


page_fragment(audit)
