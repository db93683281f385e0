"""Mechanisms 101 — the lecture demos (Habernal, lecture 4; SPEC §1).

(a) Laplace densities of neighbouring counting queries and the privacy loss L(y) against ε;
(b) global sensitivity with the bank-debt cap; (c) the exponential mechanism on the secret-society
city example; (d) sampling many times and comparing the empirical ratio with e^ε.
"""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dpcore import exponential_mechanism, laplace_mechanism, laplace_pdf, laplace_privacy_loss, laplace_scale
from dpcore.lecture import (
    BANK_DEBTS,
    CANDIDATE_CITIES,
    DEBT_CAP,
    SOCIETY_MEMBERS,
    bank_debt_neighbours,
    bank_debt_worst_case,
    city_example,
    empirical_density_ratios,
    empirical_selection_ratios,
)
from dpui import exercise_mode, export_view, guarantee_badge, shared_sidebar, show_figure, user_errors
from dpui.charts import cell_axes, grid_figure

st.set_page_config(page_title="Mechanisms 101", page_icon="🎓", layout="wide")
exercise_mode("1_Mechanisms_101")  # lecture exercises: ?exercise=<id> links, checked answers, sheets
settings = shared_sidebar()
eps = settings.epsilon

st.title("Mechanisms 101: Laplace and exponential")
st.caption("After Habernal, *Pure Differential Privacy Mechanisms* (lecture 4). ε comes from the sidebar.")
guarantee_badge("ε-DP (pure) — for the Laplace mechanism with b = Δ/ε and the exponential mechanism with the true Δu")

tab_loss, tab_sens, tab_exp, tab_sample = st.tabs(
    ["(a) Privacy loss", "(b) Global sensitivity", "(c) Exponential mechanism", "(d) Sample many times"]
)


def loss_figure(y, a, a2, b, bound, title):
    """Two densities on top, the privacy loss L(y) with ±ε below."""
    fig = grid_figure(2, 1, titles=("Output densities", "Privacy loss L(y) = ln p(y|D)/p(y|D')"), shared_x=True)
    fig.add_trace(go.Scatter(x=y, y=laplace_pdf(y, loc=a, scale=b), name=f"p(y | D), true answer {a:,g}", **cell_axes(1)))
    fig.add_trace(go.Scatter(x=y, y=laplace_pdf(y, loc=a2, scale=b), name=f"p(y | D'), true answer {a2:,g}", **cell_axes(1)))
    loss = laplace_privacy_loss(y, true_answer=a, neighbour_answer=a2, scale=b)
    fig.add_trace(go.Scatter(x=y, y=loss, name="L(y)", line=dict(color="black"), **cell_axes(2)))
    for s in (1, -1):
        fig.add_trace(go.Scatter(x=[y[0], y[-1]], y=[s * bound] * 2, mode="lines", line=dict(dash="dash", color="green"),
                                 name="±ε (the promise)", showlegend=s == 1, **cell_axes(2)))
    fig.update_layout(title=title, height=560, yaxis_title="density", yaxis2_title="L(y) (nats)",
                      xaxis2_title="released value y")
    return fig


with tab_loss:
    st.markdown("A counting query (how many people have the disease?) answers 50 on D and 51 on the "
                "neighbour D' with one more person: the global sensitivity is Δ = 1.")
    st.latex(r"L(y)=\ln\frac{p(y\mid D)}{p(y\mid D')}=\frac{|y-a'|-|y-a|}{b}\in\Big[-\tfrac{\Delta}{b},\tfrac{\Delta}{b}\Big],"
             r"\qquad b=\frac{\Delta}{\varepsilon}\;\Rightarrow\;|L(y)|\le\varepsilon")
    mode = st.radio("Laplace scale b", ["from ε", "by hand"], captions=["b = Δ/ε", "choose b yourself"],
                    horizontal=True, key="m101_scale_mode", bind="query-params", persist_state="session")
    if mode == "by hand":
        b = st.slider("b (scale)", 0.1, 20.0, 1.0, 0.1, key="m101_b", bind="query-params", persist_state="session")
    else:
        b = laplace_scale(epsilon=eps, sensitivity=1.0)
    a, a2 = 50.0, 51.0
    worst = abs(a - a2) / b
    y = np.linspace(a - 6 * b - 1, a2 + 6 * b + 1, 601)
    c1, c2, c3 = st.columns(3)
    c1.metric("scale b", f"{b:.3g}")
    c2.metric("worst |L(y)| = Δ/b", f"{worst:.3g}")
    c3.metric("ε (sidebar)", f"{eps:g}", delta="within ε" if worst <= eps * (1 + 1e-12) else "exceeds ε",
              delta_color="normal" if worst <= eps * (1 + 1e-12) else "inverse")
    fig = loss_figure(y, a, a2, b, eps, f"Laplace densities for neighbouring counts 50 and 51, b = {b:.3g}")
    show_figure(fig, alt=f"Two Laplace densities centred at 50 and 51 with scale {b:.3g}, and the privacy loss "
                         f"L(y), which stays between −{worst:.3g} and {worst:.3g}; the dashed lines mark ±ε = ±{eps:g}.")
    st.caption("Outside [50, 51] the loss is flat at ±Δ/b: that plateau is the worst case the mechanism must bound.")

with tab_sens:
    st.markdown(f"Query: **total debt** of the bank's customers. The bank lends at most **{DEBT_CAP:,.0f} €** per person.")
    debts = pd.DataFrame({"name": list(BANK_DEBTS), "debt (€)": list(BANK_DEBTS.values())})
    st.dataframe(debts, hide_index=True, width="content")
    rule = st.radio("Scale the Laplace noise by", ["largest debt", "cap"],
                    captions=["the data's largest value (wrong)", "the cap = the global sensitivity (right)"],
                    key="m101_debt_rule", horizontal=True, bind="query-params", persist_state="session")
    largest = max(BANK_DEBTS.values())
    sens = largest if rule == "largest debt" else DEBT_CAP
    b = laplace_scale(epsilon=eps, sensitivity=sens)
    st.latex(rf"b=\frac{{{sens:,.0f}}}{{\varepsilon}}={b:,.0f}\ \text{{€}}")
    with user_errors():
        rows = bank_debt_neighbours(BANK_DEBTS, epsilon=eps, scale=b)
        worst_case = bank_debt_worst_case(epsilon=eps, scale=b)
    table = pd.DataFrame(
        [{"neighbour D'": f"D without {r.removed}", "true total": r.total, "neighbour total": r.neighbour_total,
          "difference": r.difference, "worst loss Δ/b": r.loss_bound, "≤ ε?": "yes" if not r.exceeds_epsilon else "NO"}
         for r in rows + [worst_case]]
    )
    table.loc[len(rows), "neighbour D'"] = "{0, 0, 0, 10,000,000} vs {0, 0, 0} (possible data)"
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.4g") for c in ("worst loss Δ/b",)})
    if worst_case.exceeds_epsilon:
        st.warning(f"With b from the data's largest debt, the possible neighbour pair D = {{0, 0, 0, 10,000,000}}, "
                 f"D' = {{0, 0, 0}} has worst privacy loss {worst_case.loss_bound:.3g} > ε = {eps:g}: "
                 "the guarantee fails for a customer who is an outlier. Sensitivity must come from the domain (the cap), "
                 "not from the data at hand.", icon="🚨")
    else:
        st.success(f"With b = cap/ε every neighbour pair the bank's rules allow has loss ≤ ε = {eps:g}.", icon="✅")
    yv = np.linspace(-2 * DEBT_CAP, 3 * DEBT_CAP, 801)
    show_figure(loss_figure(yv, DEBT_CAP, 0.0, b, eps, "Worst-case neighbours: total 10,000,000 € vs 0 €"),
                alt=f"Laplace densities at 10 million and 0 euros with scale {b:,.0f}; the privacy loss reaches "
                    f"{worst_case.loss_bound:.3g} against the bound ε = {eps:g}.")

with tab_exp:
    st.markdown("Pick a meeting city near the members' mean position without revealing who the members are.")
    st.latex(r"u(D,c)=\frac{1}{d(\bar{x}_D,c)},\qquad \Pr[\mathcal M(D)=c]=\frac{\exp(\varepsilon\,u(D,c)/(2\Delta u))}"
             r"{\sum_{c'}\exp(\varepsilon\,u(D,c')/(2\Delta u))},\qquad \Delta u=\max_{D',c}|u(D,c)-u(D',c)|")
    factor = st.select_slider("Δu plugged into the mechanism, as a multiple of the computed Δu",
                              options=[0.1, 0.2, 0.5, 1.0, 2.0], value=1.0, key="m101_sens_factor", bind="query-params", persist_state="session",
                              help="1 is correct. Below 1 the noise is too small and the guarantee breaks.")
    with user_errors():
        base = city_example(epsilon=eps)
        ex = city_example(epsilon=eps, sensitivity=base.sensitivity_true * factor) if factor != 1.0 else base
    left, right = st.columns([2, 3])
    with left:
        names = list(CANDIDATE_CITIES)
        lat = [CANDIDATE_CITIES[c][0] for c in names]
        lon = [CANDIDATE_CITIES[c][1] for c in names]
        member_cities = set(SOCIETY_MEMBERS.values())
        mean = ex.centre
        fig = go.Figure()
        fig.add_trace(go.Scatter(x=lon, y=lat, mode="markers+text", text=names, textposition="top center",
                                 marker=dict(size=[10 + 60 * p for p in ex.probabilities[0]],
                                             color=["#d62728" if c in member_cities else "#1f77b4" for c in names]),
                                 name="cities (size = Pr under D; red = a member lives there)"))
        fig.add_trace(go.Scatter(x=[mean[1]], y=[mean[0]], mode="markers", marker=dict(symbol="x", size=14, color="black"),
                                 name="members' mean"))
        fig.update_layout(title="Candidate cities", xaxis_title="longitude (°)", yaxis_title="latitude (°)", height=430)
        show_figure(fig, alt="Scatter of the seven candidate cities by longitude and latitude; marker size shows the "
                             "probability of being chosen under D; a cross marks the members' mean near Memphis.")
    with right:
        long = pd.DataFrame(ex.probabilities, index=ex.neighbours, columns=ex.cities)
        fig = go.Figure()
        for i, nb in enumerate(ex.neighbours):
            fig.add_trace(go.Bar(x=list(ex.cities), y=ex.probabilities[i], name=nb))
        fig.update_layout(barmode="group", title="Selection probabilities under D and each neighbour",
                          yaxis_title="Pr[M = city]", xaxis_title="city", height=430)
        show_figure(fig, alt="Grouped bars: for each city, its selection probability under D and under each of the four "
                             "neighbours that lack one member.")
    c1, c2, c3 = st.columns(3)
    c1.metric("computed Δu", f"{ex.sensitivity_true:.4f}")
    c2.metric("worst ratio over neighbours and cities", f"{ex.worst_ratio:.4f}",
              help=f"at {ex.worst_pair[1]}, {ex.worst_pair[0]} vs D (both directions checked)")
    c3.metric("e^ε", f"{ex.bound:.4f}", delta="ratio within e^ε" if not ex.violates else "ratio EXCEEDS e^ε",
              delta_color="normal" if not ex.violates else "inverse")
    if ex.violates:
        st.warning(f"With Δu = {ex.sensitivity_used:.4f} (too small) the ratio {ex.worst_ratio:.3f} exceeds e^ε = "
                 f"{ex.bound:.3f}: the mechanism is no longer ε-DP.", icon="🚨")
    export_view("these probabilities", [{"dataset": nb, **{c: float(v) for c, v in zip(ex.cities, row)}}
                                         for nb, row in zip(ex.neighbours, ex.probabilities)],
                settings={"page": "Mechanisms 101 (c)", "epsilon": eps, "sensitivity_used": ex.sensitivity_used,
                          "sensitivity_computed": ex.sensitivity_true, "worst_ratio": ex.worst_ratio},
                key="m101_export_cities")
    st.caption("Δu here is taken over D's four remove-one neighbours, which is what the ratio check needs for these "
               "pairs; a global Δu would also range over every other possible membership.")

with tab_sample:
    st.markdown("Run a mechanism many times on D and on a neighbour D'; the histograms build up and the "
                "empirical ratio of frequencies approaches the true ratio, which ε-DP keeps under e^ε.")
    which = st.radio("mechanism", ["exponential", "Laplace"], captions=["cities", "counts 50 vs 51"], horizontal=True,
                     key="m101_sample_mech", bind="query-params", persist_state="session")
    n = st.select_slider("number of draws per dataset", options=[10, 100, 1000, 10_000, 100_000], value=1000,
                         key="m101_draws", bind="query-params", persist_state="session")
    rng = settings.rng("m101-sample", which, n)
    with user_errors():
        if which == "exponential":
            ex = city_example(epsilon=eps)
            j = ex.neighbours.index(ex.worst_pair[0])
            draws_d = exponential_mechanism(ex.utilities[0], epsilon=eps, sensitivity=ex.sensitivity_used, rng=rng, size=n)
            draws_n = exponential_mechanism(ex.utilities[j], epsilon=eps, sensitivity=ex.sensitivity_used, rng=rng, size=n)
            fd, fn, ratio = empirical_selection_ratios(draws_d, draws_n, len(ex.cities))
            xs, other, unit = list(ex.cities), ex.worst_pair[0], "city"
        else:
            b = laplace_scale(epsilon=eps, sensitivity=1.0)
            draws_d = laplace_mechanism(np.full(n, 50.0), epsilon=eps, sensitivity=1.0, rng=rng)
            draws_n = laplace_mechanism(np.full(n, 51.0), epsilon=eps, sensitivity=1.0, rng=rng)
            edges = np.linspace(50.5 - 5 * b, 50.5 + 5 * b, 41)
            fd, fn, ratio = empirical_density_ratios(draws_d, draws_n, edges)
            xs, other, unit = list((edges[:-1] + edges[1:]) / 2), "D' (answer 51)", "released value y (bin centre)"
    bound = float(np.exp(eps))
    fig = grid_figure(1, 2, titles=("Empirical frequencies", "Empirical ratio vs e^ε"))
    fig.add_trace(go.Bar(x=xs, y=fd, name="D", **cell_axes(1)))
    fig.add_trace(go.Bar(x=xs, y=fn, name=other, **cell_axes(1)))
    emp = np.maximum(ratio, 1 / ratio)
    fig.add_trace(go.Bar(x=xs, y=emp, name="max(f_D/f_D', f_D'/f_D)", **cell_axes(2)))
    fig.add_trace(go.Scatter(x=[xs[0], xs[-1]] if unit != "city" else xs, y=[bound] * (2 if unit != "city" else len(xs)),
                             mode="lines", line=dict(dash="dash", color="green"), name="e^ε", **cell_axes(2)))
    fig.update_layout(barmode="group", height=420, title=f"{n:,} draws from M(D) and M(D') (seed {settings.seed})",
                      yaxis_title="share of draws", yaxis2_title="frequency ratio", xaxis_title=unit, xaxis2_title=unit)
    show_figure(fig, alt=f"Left: frequencies over {n} draws under D and under {other}. Right: the ratio of the two "
                         f"frequencies per {unit} against the dashed line e^ε = {bound:.3f}.")
    worst_emp = float(np.nanmax(emp)) if np.any(np.isfinite(emp)) else float("nan")
    st.metric("largest empirical ratio", f"{worst_emp:.3f}", help="Few draws give noisy ratios that can exceed e^ε by "
              "chance; the true ratio cannot. Laplace bins with fewer than 30 draws are left out.")
    st.caption("The random draws depend only on the sidebar seed, the mechanism and the number of draws.")
    export_view("these frequencies", [{unit: x, "share under D": a, f"share under {other}": c, "ratio": r}
                                      for x, a, c, r in zip(xs, fd, fn, emp)],
                settings={"page": "Mechanisms 101 (d)", "mechanism": which, "draws": n, "epsilon": eps,
                          "seed": settings.seed, "e^epsilon": bound}, key="m101_export_sample")
