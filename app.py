"""Home page of the DP text-statistics dashboard (run: streamlit run app.py).

The list of pages lives in dpui.navigation; the texts in dpui/page_texts/home.md.
"""

import streamlit as st

from dpui import shared_sidebar
from dpui.navigation import available_pages
from dpui.texts import text

st.set_page_config(page_title="DP for text statistics", page_icon="🔒", layout="wide")
settings = shared_sidebar(uses=("eps", "delta", "seed", "corpus"))

st.title("What does differential privacy do to text statistics?")
st.markdown(text("home", "intro"))

for page in available_pages():  # a page another branch adds shows up once its file exists
    with st.container(border=True):
        st.page_link(page.path, label=f"**{page.title}**", icon="➡️")
        st.markdown(page.summary)
        st.caption(f"Guarantee — {page.guarantee}")

st.subheader("Guarantees, in words")
st.markdown(text("home", "guarantees"))
st.subheader("Sources")
st.markdown(text("home", "sources"))
st.caption(f"Current settings: ε = {settings.epsilon:g}, δ = {settings.delta:g}, seed = {settings.seed}, "
           f"data = {settings.corpus_label}.")
