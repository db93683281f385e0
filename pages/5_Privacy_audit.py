"""Privacy audit — measure ε from the outside (issue 10).

Runs a mechanism many times on two neighbouring datasets, reduces each output to a score, and shows
the lower bound on ε that the two output distributions prove, beside the claimed ε. The audit and
the scenarios are dpcore.audit; the views are dpui.audit_views.
"""

import pandas as pd
import streamlit as st

from dpui import export_view, shared_sidebar, show_figure, user_errors
from dpui.audit_data import (
    CONFIDENCE_OPTIONS,
    SCENARIO_LABELS,
    TRIAL_OPTIONS,
    run_with_progress,
    scenario_text,
    variant_explanation,
    variants_of,
)
from dpui.audit_figures import bound_figure, claim_text, export_records, probability_rows, score_histogram, verdict

st.set_page_config(page_title="Privacy audit", page_icon="🔍", layout="wide")
settings = shared_sidebar()

st.title("Privacy audit")
st.caption("Test a privacy claim from the outside: run the mechanism on two neighbouring datasets many "
           "times and see what the outputs prove about ε. Each mechanism comes with its own worst-case pair "
           "and its own claimed ε and δ (the sidebar's ε and δ are not used here); the sidebar's seed fixes "
           "the noise.")

c1, c2, c3, c4 = st.columns([2, 1, 2, 1])
label = c1.selectbox("Mechanism", tuple(SCENARIO_LABELS), index=0, key="audit_mechanism",
                     bind="query-params", persist_state="session")
has_correct, has_broken = variants_of(label)
broken = c2.toggle("Break it", value=False, key="audit_broken", bind="query-params", persist_state="session",
                   disabled=not (has_correct and has_broken),
                   help="Run the deliberately BROKEN variant of the mechanism instead of the correct one.")
if not has_correct:
    c2.caption("Only a broken variant: this mechanism is not DP.")
broken = (broken and has_broken) or not has_correct
trials = c3.select_slider("Trials per dataset", TRIAL_OPTIONS, value=10_000, key="audit_trials",
                          format_func=lambda n: f"{n:,}", bind="query-params", persist_state="session",
                          help="Half of them choose the event, the other half measure it.")
confidence = c4.select_slider("Confidence", CONFIDENCE_OPTIONS, value=0.95, key="audit_confidence",
                              format_func=lambda c: f"{c:.0%}", bind="query-params", persist_state="session")

text = scenario_text(label)
st.subheader(text["title"])
st.markdown(f"**The pair.** {text['pair']}. {text['why']}  \n**The score** of one output: {text['score']}.")
if text["note"]:
    st.caption(text["note"])
if trials < text["suggested_trials"]:
    st.caption(f"Suggested for this pair: {text['suggested_trials']:,} trials per dataset or more.")

with user_errors():
    run = run_with_progress(label, broken, trials, confidence, settings.seed)

if run.broken:
    explanation = variant_explanation(label, True)
    st.warning(explanation if explanation.startswith("BROKEN") else f"BROKEN (not DP): {explanation}", icon="🛠️")
else:
    st.caption(f"Correct variant: {variant_explanation(label, False)}")
kind, sentence = verdict(run)
(st.warning if kind == "caught" else st.success)(sentence, icon="🔍" if kind == "caught" else "✅")

r = run.result
m1, m2, m3, m4 = st.columns(4)
m1.metric("ε lower bound", f"{r.epsilon_lower:.3f}")
m2.metric("claimed ε", "none" if r.epsilon_claimed is None else f"{r.epsilon_claimed:g}",
          help=f"claimed δ = {r.delta:g}")
m3.metric("share of runs in the event, D", f"{r.p_hat_d:.4f}")
m4.metric("share of runs in the event, D'", f"{r.p_hat_d_prime:.4f}")
st.markdown(f"**The claim:** {claim_text(run)}.  \n**Chosen event** (on the first half of the runs): {r.event.describe()}. "
            f"Measured on the other {r.n_eval:,} runs per dataset; took {run.seconds:.2f} s "
            f"({run.cpu_seconds:.2f} s CPU).")

fig, alt = bound_figure(run)
show_figure(fig, alt=alt, key="audit_bound_chart")
fig, alt = score_histogram(run)
show_figure(fig, alt=alt, key="audit_hist_chart")
st.dataframe(pd.DataFrame(probability_rows(run)), hide_index=True)

with st.expander("What this bound means, and what it does not"):
    st.markdown(
        "- A mechanism that keeps its claim makes every event at most e^ε times more likely on one dataset "
        "than on its neighbour (plus δ). The audit looks for an event that breaks this and measures it on "
        "fresh runs, with exact binomial confidence bounds, so the bound is conservative.\n"
        "- **Above the claim**: evidence, at the stated confidence, that the claim is false for this pair.\n"
        "- **Below the claim**: no proof of privacy. Only this pair, this score and threshold events were "
        "tried; the bound can never exceed what the number of trials can show.\n"
        "- The event is chosen on half of the runs and measured on the other half, so trying many events "
        "does not inflate the bound.")

export_view("Audit result", export_records(run, label), key="audit_export",
            settings={"mechanism": label, "broken": run.broken, "trials": trials, "confidence": confidence,
                      "seed": settings.seed, "epsilon_claimed": r.epsilon_claimed, "delta": r.delta})
