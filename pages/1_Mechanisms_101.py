"""Mechanisms 101 — the lecture demos (Habernal, lecture 4; SPEC §1).

(a) Laplace densities of neighbouring counting queries and the privacy loss L(y) against ε;
(b) global sensitivity with the bank-debt cap; (c) the exponential mechanism on the secret-society
city example; (d) sampling many times and comparing the empirical ratio with e^ε.
Only the open tab runs (issue 24; it is in the URL as ``m101_tab``). Each tab's view below its knobs:
dpui.m101_views; figures: dpui.m101_figures; texts: dpui/page_texts/m101.md.
"""

import pandas as pd
import streamlit as st

from dpcore.guarantees import pure_dp
from dpcore.lab.lecture import BANK_DEBTS, DEBT_CAP
from dpcore.mechanisms import laplace_scale
from dpcore.specs import M101CitiesSpec, M101Spec
from dpui import exercise_mode, guarantee_badge, paper_vs_here, reviewer_panel, shared_sidebar, user_errors
from dpui.risk import attacker_view
from dpui import m101_views as views
from dpui.reproduce import run_spec
from dpui.state import IN_URL
from dpui.texts import latex, tex_int, text

st.set_page_config(page_title="Mechanisms 101", page_icon="🎓", layout="wide")
exercise_mode("1_Mechanisms_101")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "seed"))
eps = settings.epsilon

st.title("Mechanisms 101: Laplace and exponential")
st.caption("After Habernal, *Pure Differential Privacy Mechanisms* (lecture 4). ε comes from the sidebar.")
paper_vs_here("1_Mechanisms_101", settings)  # the lecture's worked numbers beside ours, a preset to ε = 1
guarantee_badge(pure_dp(eps), name="Laplace mechanism with b = Δ/ε and a global Δ")
attacker_view(pure_dp(eps), key="m101_risk_curve")  # what ε means for one person; the curve on a toggle
reviews = []  # (name, dpcore Review) of the open tab's release, for the reviewer's panel at the end

views.open_linked_tab()  # an exercise or the preset opens the tab of the knobs it sets
tab_loss, tab_sens, tab_exp, tab_sample = st.tabs(views.TABS, key=views.TAB_KEY, bind="query-params")

if tab_loss.open:
    with tab_loss:
        st.markdown(text("m101", "loss_intro"))
        latex("m101", "loss_latex")
        mode = st.radio(
            "Laplace scale b",
            ["from ε", "by hand"],
            captions=["b = Δ/ε", "choose b yourself"],
            horizontal=True,
            key="m101_scale_mode",
            **IN_URL,
        )
        if mode == "by hand":
            b = st.slider("b (scale)", 0.05, 20.0, 1.0, 0.05, key="m101_b", **IN_URL)
        else:
            b = laplace_scale(epsilon=eps, sensitivity=1.0)
        reviews.append(views.loss_view(eps, b, by_hand=mode == "by hand"))

if tab_sens.open:
    with tab_sens:
        st.markdown(
            f"Query: **total debt** of the bank's customers. The bank lends at most **{DEBT_CAP:,.0f} €** per person."
        )
        debts = pd.DataFrame({"name": list(BANK_DEBTS), "debt (€)": list(BANK_DEBTS.values())})
        st.dataframe(debts, hide_index=True, width="content")
        rule = st.radio(
            "Scale the Laplace noise by",
            ["largest debt", "cap"],
            captions=["the data's largest value (wrong)", "the cap = the global sensitivity (right)"],
            key="m101_debt_rule",
            horizontal=True,
            **IN_URL,
        )
        sens = max(BANK_DEBTS.values()) if rule == "largest debt" else DEBT_CAP
        b = laplace_scale(epsilon=eps, sensitivity=sens)
        st.latex(rf"b=\frac{{{tex_int(sens)}}}{{\varepsilon}}={tex_int(b)}\ \text{{€}}")
        reviews.append(views.sensitivity_view(eps, sens, b))

if tab_exp.open:
    with tab_exp:
        st.markdown("Pick a meeting city near the members' mean position without revealing who the members are.")
        latex("m101", "city_latex")
        factor = st.select_slider(
            "Δu plugged into the mechanism, as a multiple of the computed Δu",
            options=[0.1, 0.2, 0.5, 1.0, 2.0],
            value=1.0,
            key="m101_sens_factor",
            **IN_URL,
            help="1 is correct. Below 1 the noise is too small and the guarantee breaks.",
        )
        with user_errors():
            cities_spec = M101CitiesSpec(epsilon=eps, sensitivity_factor=factor)
            ex = run_spec(cities_spec)
        reviews.append(views.cities_view(eps, cities_spec, ex))

if tab_sample.open:
    with tab_sample:
        st.markdown(text("m101", "sample_intro"))
        which = st.radio(
            "mechanism",
            ["exponential", "Laplace"],
            captions=["cities", "counts 50 vs 51"],
            horizontal=True,
            key="m101_sample_mech",
            **IN_URL,
        )
        n = st.select_slider(
            "number of draws per dataset",
            options=[10, 100, 1000, 10_000, 100_000],
            value=1000,
            key="m101_draws",
            **IN_URL,
        )
        with user_errors():  # one spec: the draws (salted with every parameter, ε included), the export, the notebook
            sample_spec = M101Spec(seed=settings.seed, epsilon=eps, mechanism=which, draws=n)
            sample = run_spec(sample_spec)
        views.sampling_view(sample_spec, sample, seed=settings.seed)

reviewer_panel(reviews, extra_warnings=())
