"""Mechanisms 101 — the lecture demos (Habernal, lecture 4; SPEC §1).

(a) Laplace densities of neighbouring counting queries and the privacy loss L(y) against ε;
(b) global sensitivity with the bank-debt cap; (c) the exponential mechanism on the secret-society
city example; (d) sampling many times and comparing the empirical ratio with e^ε.
Only the open tab runs (issue 24; it is in the URL as ``m101_tab``). Each tab's view below its knobs:
dpui.m101.views; figures: dpui.m101.figures; texts: dpui/common/page_texts/m101.md.
"""

import pandas as pd
import streamlit as st

from dpcore.guarantees import pure_dp
from dpcore.lab.lecture import BANK_DEBTS, DEBT_CAP
from dpcore.specs import M101CitiesSpec, M101DebtSpec, M101LossSpec, M101Spec
from dpui import exercise_mode, guarantee_badge, reviewer_panel, shared_sidebar, user_errors
from dpui.common.paper_vs_here import paper_vs_here
from dpui.common.presenter import presenter_stage
from dpui.common.reproduce import run_spec
from dpui.common.risk import attacker_view
from dpui.common.sidebar import SharedSettings
from dpui.common.state import IN_URL
from dpui.common.texts import explain, latex, tex_int, text
from dpui.m101 import views

st.set_page_config(page_title="Mechanisms 101", page_icon="🎓", layout="wide")
exercise_mode("1_Mechanisms_101")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "seed"), epsilon_fragment=True)  # ε drawn by the body below

st.title("Mechanisms 101: Laplace and exponential")
stage = presenter_stage()  # presenter mode: the open tab's main chart here, ε beside it (issue 31)
st.caption("After Habernal, *Pure Differential Privacy Mechanisms* (lecture 4). ε comes from the sidebar.")
paper_vs_here("1_Mechanisms_101", settings)  # the lecture's worked numbers beside ours, a preset to ε = 1


def lecture(settings: SharedSettings) -> None:
    """The open tab at the sidebar's ε: an st.fragment, so an ε move reruns only this
    (SharedSettings.with_epsilon)."""
    eps = settings.epsilon
    top_badge = st.empty()  # the open tab's guarantee, filled once its release is known (issue 31 item 6)
    reviews = []  # (name, dpcore Review) of the open tab's release, for the reviewer's panel at the end
    badges = []  # (guarantee, name) of the open tab's release for the badge above the tabs

    views.open_linked_tab()  # an exercise or the preset opens the tab of the knobs it sets
    tab_loss, tab_sens, tab_exp, tab_sample = st.tabs(views.TABS, key=views.TAB_KEY, bind="query-params")

    if tab_loss.open:
        with tab_loss:
            explain("m101", "loss_intro")
            latex("m101", "loss_latex")
            mode = st.radio(
                "Laplace scale b",
                ["from ε", "by hand"],
                captions=["b = Δ/ε", "choose b yourself"],
                horizontal=True,
                key="m101_scale_mode",
                **IN_URL,
            )
            b = st.slider("b (scale)", 0.05, 20.0, 1.0, 0.05, key="m101_b", **IN_URL) if mode == "by hand" else None
            with user_errors():  # one spec: the densities, the export and the notebook
                loss_spec = M101LossSpec(epsilon=eps, scale=b)
                name, review, badge = views.loss_view(eps, loss_spec, run_spec(loss_spec), stage=stage)
                reviews.append((name, review))
                badges.append(badge)

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
            with user_errors():
                debt_spec = M101DebtSpec(epsilon=eps, rule=rule)
                debt = run_spec(debt_spec)
            st.latex(rf"b=\frac{{{tex_int(debt.sensitivity)}}}{{\varepsilon}}={tex_int(debt.scale)}\ \text{{€}}")
            name, review, badge = views.sensitivity_view(eps, debt_spec, debt, stage=stage)
            reviews.append((name, review))
            badges.append(badge)

    if tab_exp.open:
        with tab_exp:
            st.markdown("Pick a meeting city near the members' mean position without revealing who the members are.")
            latex("m101", "city_latex")
            du_rule = st.radio(
                "Δu",
                views.EXP_RULES,
                captions=["the lecture's example: not DP", "utilities clipped to [0, B]: ε-DP"],
                horizontal=True,
                key="m101_exp_rule",
                **IN_URL,
                help=text("m101", "exp_rule_help"),
            )
            factor, bound = 1.0, None
            if du_rule == views.EXP_RULES[0]:
                factor = st.select_slider(
                    "Δu plugged into the mechanism, as a multiple of the computed Δu",
                    options=[0.1, 0.2, 0.5, 1.0, 2.0],
                    value=1.0,
                    key="m101_sens_factor",
                    **IN_URL,
                    help="1 is the computed one. Below 1 the noise is too small and even the ratio check breaks.",
                )
            else:
                bound = st.select_slider(
                    "public bound B on the utility 1/distance (chosen without looking at the members)",
                    options=views.EXP_BOUNDS,
                    value=0.5,
                    key="m101_exp_bound",
                    **IN_URL,
                    help=text("m101", "bound_public_help"),
                )
            with user_errors():
                cities_spec = M101CitiesSpec(epsilon=eps, sensitivity_factor=factor, utility_bound=bound)
                ex = run_spec(cities_spec)
            name, review, badge = views.cities_view(eps, cities_spec, ex, stage=stage)
            reviews.append((name, review))
            badges.append(badge)

    if tab_sample.open:
        with tab_sample:
            explain("m101", "sample_intro")
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
            with (
                user_errors()
            ):  # one spec: the draws (salted with every parameter, ε included), the export, the notebook
                sample_spec = M101Spec(seed=settings.seed, epsilon=eps, mechanism=which, draws=n)
                sample = run_spec(sample_spec)
            sampled = pure_dp(epsilon=eps) if which == "Laplace" else run_spec(M101CitiesSpec(epsilon=eps)).guarantee
            # its legend names the sampled mechanism's guarantee
            views.sampling_view(sample_spec, sample, seed=settings.seed, guarantee=sampled, stage=stage)
            badges.append((sampled, f"(d) the sampled {which} mechanism"))

    with top_badge.container():  # what the open tab releases, in the colour of its own guarantee
        for g, name in filter(None, badges):
            guarantee_badge(g, name=name)
        if any(badges):  # what ε means for one person, for the open tab's release
            attacker_view({name: g for g, name in filter(None, badges)}, key="m101_risk_curve")

    reviewer_panel(reviews, extra_warnings=())


settings.with_epsilon(lecture)
