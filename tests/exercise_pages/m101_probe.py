"""A tiny stand-in page for the exercise-mode tests: the shared sidebar and Mechanisms 101's widgets."""

import streamlit as st

from dpui import shared_sidebar
from dpui.common.exercises import exercise_mode

st.set_page_config(page_title="probe")
exercise_mode("1_Mechanisms_101")
settings = shared_sidebar()
mode = st.radio(
    "Laplace scale b",
    ["from ε", "by hand"],
    horizontal=True,
    key="m101_scale_mode",
    bind="query-params",
    persist_state="session",
)
b = st.slider("b (scale)", 0.1, 20.0, 1.0, 0.1, key="m101_b", bind="query-params", persist_state="session")
rule = st.radio(
    "Scale the Laplace noise by",
    ["largest debt", "cap"],
    key="m101_debt_rule",
    horizontal=True,
    bind="query-params",
    persist_state="session",
)
factor = st.select_slider(
    "Δu factor",
    options=[0.1, 0.2, 0.5, 1.0, 2.0],
    value=1.0,
    key="m101_sens_factor",
    bind="query-params",
    persist_state="session",
)
st.write(f"eps={settings.epsilon} mode={mode} b={b} rule={rule} factor={factor}")
