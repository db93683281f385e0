"""Home page of the DP text-statistics dashboard (run: streamlit run app.py): a map of the pages, one line each,
and ONE guarantee table (every mechanism's level and full sentence, built by dpcore; never typed here).

The list of pages lives in dpui.common.navigation; the texts in dpui/common/page_texts/home.md.
"""

import pandas as pd
import streamlit as st

from dpcore.lab.review import mechanism_guarantees
from dpui import shared_sidebar
from dpui.bayesian.knobs import guarantee_settings
from dpui.common.charts import guarantee_icon
from dpui.common.errors import plain_text
from dpui.common.navigation import SOURCE_PAGE_TITLES, available_pages
from dpui.common.texts import text

st.set_page_config(page_title="DP for text statistics", page_icon="🔒", layout="wide")
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"))

st.title("What does differential privacy do to text statistics?")
st.markdown(text("home", "intro"))
for page in available_pages():  # a page another branch adds shows up once its file exists
    st.page_link(page.path, label=f"**{page.title}** — {page.line or page.summary}", icon=page.icon)

# every mechanism's guarantee, built by the functions its release type labels itself with (never typed here)
guarantees = [
    (SOURCE_PAGE_TITLES[source], mech, g)  # dpcore names the source paper; its page is dpui's
    for source, mech, g in mechanism_guarantees(
        epsilon=settings.epsilon, delta=settings.delta, **guarantee_settings(settings.data)
    )
]  # the Bayesian caps
st.header(f"Guarantees at ε = {settings.epsilon:g}, δ = {settings.delta:g}")
rows = [
    {"page": title, "mechanism": mech, "level": f"{guarantee_icon(g)} {g.strength}", "guarantee": g.label}
    for title, mech, g in guarantees
]
COLOURS = {"green": "#d8f3dc", "orange": "#ffe8cc", "red": "#ffd6d6"}
shades = [COLOURS.get(g.colour, "") for _, _, g in guarantees]
table = pd.DataFrame(rows).style.apply(lambda col: [f"background-color: {c}" for c in shades], subset=["level"])
st.table(table, hide_index=True)  # a static table: every sentence wraps in full, none is cut

with st.expander("How to use this dashboard and which data it shows"):
    st.markdown(text("home", "how_to"))
with st.expander("Guarantees, in words"):
    st.markdown(text("home", "guarantees"))
with st.expander("Sources (the papers and the lecture)"):
    st.markdown(text("home", "sources"))
st.caption(
    f"Current settings: ε = {settings.epsilon:g}, δ = {settings.delta:g}, noise = {settings.noise}, seed = {settings.seed_text}, "
    f"data = {plain_text(settings.corpus_label)}."
)
