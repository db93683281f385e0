"""Mechanisms 101 — the lecture demos (Habernal, lecture 4; SPEC §1).

(a) Laplace densities of neighbouring counting queries and the privacy loss L(y) against ε;
(b) global sensitivity with the bank-debt cap; (c) the exponential mechanism on the secret-society
city example; (d) sampling many times and comparing the empirical ratio with e^ε.
Figures: dpui.m101_figures; texts: dpui/page_texts/m101.md.
"""

import numpy as np
import pandas as pd
import streamlit as st

from dpcore.lab.review import custom_review
from dpcore.lab import laplace_noise_in_units
from dpcore.mechanisms import laplace_scale
from dpcore.guarantees import pure_dp
from dpcore.lab.lecture import BANK_DEBTS, DEBT_CAP, bank_debt_guarantee, bank_debt_neighbours, bank_debt_worst_case
from dpcore.lab.review import single_budget
from dpcore.specs import M101CitiesSpec, M101Spec
from dpui import exercise_mode, export_view, guarantee_badge, paper_vs_here, reviewer_panel, shared_sidebar, show_figure, user_errors
from dpui.exercises import HIDDEN, answer_hidden, spoiler
from dpui.m101_figures import cities_figure, loss_figure, sampling_figure, selection_figure
from dpui.reproduce import reproduce_buttons, run_spec
from dpui.state import IN_URL
from dpui.texts import latex, text

st.set_page_config(page_title="Mechanisms 101", page_icon="🎓", layout="wide")
exercise_mode("1_Mechanisms_101")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar(uses=("eps", "seed"))
eps = settings.epsilon

st.title("Mechanisms 101: Laplace and exponential")
st.caption("After Habernal, *Pure Differential Privacy Mechanisms* (lecture 4). ε comes from the sidebar.")
paper_vs_here("1_Mechanisms_101", settings)  # the lecture's worked numbers beside ours, a preset to ε = 1
guarantee_badge(pure_dp(eps), name="Laplace mechanism with b = Δ/ε and a global Δ")
reviews = []  # (name, dpcore Review) for the reviewer's panel at the end

tab_loss, tab_sens, tab_exp, tab_sample = st.tabs(
    ["(a) Privacy loss", "(b) Global sensitivity", "(c) Exponential mechanism", "(d) Sample many times"]
)


with tab_loss:
    st.markdown(text("m101", "loss_intro"))
    latex("m101", "loss_latex")
    mode = st.radio("Laplace scale b", ["from ε", "by hand"], captions=["b = Δ/ε", "choose b yourself"],
                    horizontal=True, key="m101_scale_mode", **IN_URL)
    if mode == "by hand":
        b = st.slider("b (scale)", 0.05, 20.0, 1.0, 0.05, key="m101_b", **IN_URL)
    else:
        b = laplace_scale(epsilon=eps, sensitivity=1.0)
    a, a2 = 50.0, 51.0
    worst = abs(a - a2) / b
    y = np.linspace(a - 6 * b - 1, a2 + 6 * b + 1, 601)
    c1, c2, c3 = st.columns(3)
    b_text, worst_text = spoiler("m101_scale_b", f"{b:.3g}"), spoiler("m101_worst_loss", f"{worst:.3g}")
    c1.metric("scale b", b_text)
    c2.metric("worst |L(y)| = Δ/b", worst_text)
    c3.metric("ε (sidebar)", f"{eps:g}", delta="within ε" if worst <= eps * (1 + 1e-12) else "exceeds ε",
              delta_color="normal" if worst <= eps * (1 + 1e-12) else "inverse")
    g_loss = pure_dp(worst, scope="b chosen by hand: ε = Δ/b" if mode == "by hand" else "")
    if answer_hidden("m101_worst_loss"):  # its ε is the largest privacy loss the open exercise asks for
        st.caption(f"Guarantee of (a): {HIDDEN}.")
    else:
        guarantee_badge(g_loss, name="(a) counting query")
    reviews.append(("(a) Laplace on a count", custom_review(
        g_loss, noise=laplace_noise_in_units(a, scale=b), budget=single_budget(epsilon=worst, name="(a)"),
        epsilon=worst)))
    fig = loss_figure(y, a, a2, b, eps, f"Laplace densities for neighbouring counts 50 and 51, b = {b_text}")
    show_figure(fig, alt=f"Two Laplace densities centred at 50 and 51 with scale {b_text}, and the privacy loss "
                         f"L(y), which stays between −{worst_text} and {worst_text}; the dashed lines mark ±ε = ±{eps:g}.")
    st.caption(text("m101", "loss_caption"))

with tab_sens:
    st.markdown(f"Query: **total debt** of the bank's customers. The bank lends at most **{DEBT_CAP:,.0f} €** per person.")
    debts = pd.DataFrame({"name": list(BANK_DEBTS), "debt (€)": list(BANK_DEBTS.values())})
    st.dataframe(debts, hide_index=True, width="content")
    rule = st.radio("Scale the Laplace noise by", ["largest debt", "cap"],
                    captions=["the data's largest value (wrong)", "the cap = the global sensitivity (right)"],
                    key="m101_debt_rule", horizontal=True, **IN_URL)
    largest = max(BANK_DEBTS.values())
    sens = largest if rule == "largest debt" else DEBT_CAP
    b = laplace_scale(epsilon=eps, sensitivity=sens)
    st.latex(rf"b=\frac{{{sens:,.0f}}}{{\varepsilon}}={b:,.0f}\ \text{{€}}")
    with user_errors():
        rows = bank_debt_neighbours(BANK_DEBTS, epsilon=eps, scale=b)
        worst_case = bank_debt_worst_case(epsilon=eps, scale=b)
        g_debt = bank_debt_guarantee(epsilon=eps, scale=b)
    guarantee_badge(g_debt, name="(b) total debt")
    reviews.append(("(b) Laplace on the total debt", custom_review(
        g_debt, noise=laplace_noise_in_units(sum(BANK_DEBTS.values()), scale=b, quantity="a total debt (€)"),
        budget=single_budget(epsilon=eps, name="(b)"), epsilon=eps)))
    table = pd.DataFrame(
        [{"neighbour D'": f"D without {r.removed}", "true total": r.total, "neighbour total": r.neighbour_total,
          "difference": r.difference, "worst loss Δ/b": r.loss_bound, "≤ ε?": "yes" if not r.exceeds_epsilon else "NO"}
         for r in rows + [worst_case]]
    )
    table.loc[len(rows), "neighbour D'"] = "{0, 0, 0, 10,000,000} vs {0, 0, 0} (possible data)"
    hide_worst = answer_hidden("m101_debt_worst_case")  # the worst-case pair and its loss answer the open exercise
    st.dataframe(table.iloc[:len(rows)] if hide_worst else table, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.4g") for c in ("worst loss Δ/b",)})
    if hide_worst:
        st.caption(f"The worst possible pair of neighbours, its loss and its figure: {HIDDEN}.")
    elif worst_case.exceeds_epsilon:
        st.warning(text("m101", "debt_fails", loss=worst_case.loss_bound, eps=eps), icon="🚨")
    else:
        st.success(f"With b = cap/ε every neighbour pair the bank's rules allow has loss ≤ ε = {eps:g}.", icon="✅")
    if not hide_worst:
        yv = np.linspace(-2 * DEBT_CAP, 3 * DEBT_CAP, 801)
        show_figure(loss_figure(yv, DEBT_CAP, 0.0, b, eps, "Worst-case neighbours: total 10,000,000 € vs 0 €"),
                    alt=f"Laplace densities at 10 million and 0 euros with scale {b:,.0f}; the privacy loss reaches "
                        f"{worst_case.loss_bound:.3g} against the bound ε = {eps:g}.")

with tab_exp:
    st.markdown("Pick a meeting city near the members' mean position without revealing who the members are.")
    latex("m101", "city_latex")
    factor = st.select_slider("Δu plugged into the mechanism, as a multiple of the computed Δu",
                              options=[0.1, 0.2, 0.5, 1.0, 2.0], value=1.0, key="m101_sens_factor", **IN_URL,
                              help="1 is correct. Below 1 the noise is too small and the guarantee breaks.")
    with user_errors():
        cities_spec = M101CitiesSpec(epsilon=eps, sensitivity_factor=factor)
        ex = run_spec(cities_spec)
    guarantee_badge(ex.guarantee, name="(c) exponential mechanism")
    reviews.append(("(c) Exponential mechanism", custom_review(ex.guarantee, budget=single_budget(epsilon=eps, name="(c)"),
                                                               epsilon=eps)))
    city_rows = [{"dataset": nb, **{c: float(v) for c, v in zip(ex.cities, row)}}
                 for nb, row in zip(ex.neighbours, ex.probabilities)]
    left, right = st.columns([2, 3])
    with left:
        fig, alt = cities_figure(ex)
        show_figure(fig, alt=alt)
    with right:
        fig, alt = selection_figure(ex)
        show_figure(fig, alt=alt, records=city_rows)
    c1, c2, c3 = st.columns(3)
    c1.metric("computed Δu", f"{ex.sensitivity_true:.4f}")
    c2.metric(f"worst ratio over D's {len(ex.neighbours) - 1} neighbours", spoiler("m101_exp_ratio", f"{ex.worst_ratio:.4f}"),
              help=f"at {ex.worst_pair[1]}, {ex.worst_pair[0]} vs D (every city, both directions). Only D's own "
                   "neighbours: Δu is computed from D, so this checks these pairs and proves no DP.")
    c3.metric("e^ε", f"{ex.bound:.4f}", delta="within e^ε · not a DP proof" if not ex.violates else "ratio EXCEEDS e^ε",
              delta_color="off" if not ex.violates else "inverse", delta_arrow="off" if not ex.violates else "auto",
              help="The ratio stays within e^ε for D's own neighbours only: Δu is computed from D, so another society's "
                   "neighbours are not covered (the badge: not DP). ε-DP needs a Δu that holds for every society.")
    if ex.violates:
        st.warning(f"With Δu = {ex.sensitivity_used:.4f} (too small) the ratio "
                   f"{spoiler('m101_exp_ratio', f'{ex.worst_ratio:.3f}')} exceeds e^ε = "
                   f"{ex.bound:.3f}: the mechanism is no longer ε-DP.", icon="🚨")
    export_view("these probabilities", city_rows, settings={"page": "Mechanisms 101 (c)", "epsilon": eps, "sensitivity_used": ex.sensitivity_used,
                          "sensitivity_computed": ex.sensitivity_true, "worst_ratio": ex.worst_ratio},
                key="m101_export_cities", spec=cities_spec)
    reproduce_buttons(cities_spec, title="Mechanisms 101 (c): the exponential mechanism on the cities",
                      key="m101_reproduce_cities")
    st.caption(text("m101", "city_caption"))

with tab_sample:
    st.markdown(text("m101", "sample_intro"))
    which = st.radio("mechanism", ["exponential", "Laplace"], captions=["cities", "counts 50 vs 51"], horizontal=True,
                     key="m101_sample_mech", **IN_URL)
    n = st.select_slider("number of draws per dataset", options=[10, 100, 1000, 10_000, 100_000], value=1000,
                         key="m101_draws", **IN_URL)
    with user_errors():  # one spec: the draws (salted with every parameter, ε included), the export, the notebook
        sample_spec = M101Spec(seed=settings.seed, epsilon=eps, mechanism=which, draws=n)
        sample = run_spec(sample_spec)
    xs, fd, fn, emp, other, unit, bound = (sample.xs, sample.share_d, sample.share_other, sample.ratio, sample.other,
                                           sample.unit, sample.bound)
    sample_rows = [{unit: x, "share under D": a, f"share under {other}": c, "ratio": r, "e^ε": bound}
                   for x, a, c, r in zip(xs, fd, fn, emp)]
    fig, alt = sampling_figure(xs, fd, fn, emp, other=other, unit=unit, bound=bound, n=n, seed=settings.seed)
    show_figure(fig, alt=alt, records=sample_rows)
    worst_emp = float(np.nanmax(emp)) if np.any(np.isfinite(emp)) else float("nan")
    st.metric("largest empirical ratio", f"{worst_emp:.3f}", help="Few draws give noisy ratios that can exceed e^ε by "
              "chance; the true ratio cannot. Laplace bins with fewer than 30 draws are left out.")
    st.caption("The random draws depend only on the sidebar seed and on every parameter of the draws: the "
               "mechanism, the number of draws and ε.")
    export_view("these frequencies", sample_rows, settings={"page": "Mechanisms 101 (d)", "mechanism": which, "draws": n, "epsilon": eps,
                          "seed": settings.seed, "e^epsilon": bound, "rng_salt": list(sample_spec.sample_salt())},
                key="m101_export_sample", spec=sample_spec)
    reproduce_buttons(sample_spec, title="Mechanisms 101 (d): sampling a mechanism many times", key="m101_reproduce_sample")

reviewer_panel(reviews, extra_warnings=())
