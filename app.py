"""Home page of the DP text-statistics dashboard (run: streamlit run app.py).

The list of pages lives in dpui.navigation; the texts in dpui/page_texts/home.md.
"""

import streamlit as st

from dpcore.lab.review import mechanism_guarantees
from dpui import guarantee_badge, shared_sidebar
from dpui.bayesian_knobs import guarantee_settings
from dpui.errors import plain_text
from dpui.navigation import SOURCE_PAGE_TITLES, available_pages
from dpui.texts import text

st.set_page_config(page_title="DP for text statistics", page_icon="🔒", layout="wide")
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"))

st.title("What does differential privacy do to text statistics?")
st.markdown(text("home", "intro"))

# every mechanism's guarantee, built by the functions its release type labels itself with (never typed here)
guarantees = [(SOURCE_PAGE_TITLES[source], mech, g)  # dpcore names the source paper; its page is dpui's
              for source, mech, g in mechanism_guarantees(epsilon=settings.epsilon, delta=settings.delta,
                                                          **guarantee_settings(settings.data))]  # the Bayesian caps
for page in available_pages():  # a page another branch adds shows up once its file exists
    with st.container(border=True):
        st.page_link(page.path, label=f"**{page.title}**", icon="➡️")
        st.markdown(page.summary)
        rows = [(mech, g) for title, mech, g in guarantees if title == page.title]
        for mech, g in rows:
            guarantee_badge(g, name=mech)
        if not rows:
            st.caption(f"Guarantee — {page.guarantee}")

st.header(f"Every mechanism's guarantee at ε = {settings.epsilon:g}, δ = {settings.delta:g}")
st.dataframe([{"page": title, "mechanism": mech, "strength": g.strength, "guarantee": g.label, "kind": g.kind}
              for title, mech, g in guarantees], hide_index=True, width="stretch")

st.header("Guarantees, in words")
st.markdown(text("home", "guarantees"))
st.header("Sources")
st.markdown(text("home", "sources"))
st.caption(f"Current settings: ε = {settings.epsilon:g}, δ = {settings.delta:g}, seed = {settings.seed}, "
           f"data = {plain_text(settings.corpus_label)}.")
