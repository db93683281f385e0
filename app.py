"""Home page of the DP text-statistics dashboard (run: streamlit run app.py)."""

from pathlib import Path

import streamlit as st

from dpui import shared_sidebar

st.set_page_config(page_title="DP for text statistics", page_icon="🔒", layout="wide")
settings = shared_sidebar()

st.title("What does differential privacy do to text statistics?")
st.markdown(
    """
An interactive companion to four published systems and one lecture. Every page puts a private
mechanism beside its baselines, with sliders for its parameters; the numbers come from the
`dpcore` library (usable on its own from a notebook) and every mechanism is tested against its
paper. **Neighbouring datasets always differ by one user** — all of that user's text.

Settings in the sidebar (ε, δ, seed, corpus) are shared by all pages and carried in the address
bar: copy the link to share exactly what you see.
"""
)

PAGES = [
    ("Mechanisms 101", "pages/1_Mechanisms_101.py",
     "The lecture demos: two Laplace densities and the privacy loss L(y) against ε; global sensitivity "
     "(the bank-debt cap); the exponential mechanism choosing a meeting city; sampling many times.",
     "Laplace and exponential mechanisms: ε-DP (pure)."),
    ("Bayesian n-gram DP", "pages/2_Bayesian_ngram_DP.py",
     "BayesianDP uses public data as a prior and adds Gaussian noise to a word-weighted posterior mean; "
     "KL divergence vs ε against Laplace baselines, k-anonymity and public/private baselines; users, "
     "vocabulary, public-data quality, perplexity and a membership-inference attack.",
     "BayesianDP and EndToEndDP: (ε, δ)-DP per user, with the sensitivity measured on the corpus as in the paper "
     "(see the page). Laplace with a per-user cap: ε-DP per user. k-anonymity: not DP."),
    ("DP n-gram extraction", "pages/3_DP_ngram_extraction.py",
     "DPNE releases a *set* of n-grams by growing lengths, pruning candidates by shorter released n-grams; "
     "DPSU baselines; how many n-grams used by ≥ K users survive; spurious share vs η.",
     "DPNE and DPSU: (ε, δ)-DP per user; the released sets only, never counts."),
    ("TopicDP", "pages/4_TopicDP.py",
     "Noise on an LDA topic–keyword matrix with a *sampled* sensitivity, beside Laplace and MVG baselines.",
     "TopicDP and MVG as used here: (ε, δ, γ)-random DP — weaker than (ε, δ)-DP. Laplace: ε-DP."),
]

HERE = Path(__file__).resolve().parent
for title, path, what, guarantee in PAGES:
    with st.container(border=True):
        if (HERE / path).exists():
            st.page_link(path, label=f"**{title}**", icon="➡️")
        else:
            st.markdown(f"**{title}** (not available in this build)")
        st.markdown(what)
        st.caption(f"Guarantee — {guarantee}")

st.subheader("Guarantees, in words")
st.markdown(
    """
- **ε-DP (pure)**: for any two datasets that differ by one user, every output is at most e^ε times
  more likely under one than under the other.
- **(ε, δ)-DP**: the same, except with probability at most δ. Keep δ well below 1/(number of users).
- **(ε, δ, γ)-random DP**: the (ε, δ) promise holds only for a 1−γ share of neighbouring pairs drawn
  from a data distribution; for the other γ share there is no promise. **Weaker** than (ε, δ)-DP.
- **k-anonymity**: release only what at least K users share. **Not differential privacy**: it gives
  no bound on what one user's presence changes, and it fails under composition and side information.
"""
)

st.subheader("Sources")
st.markdown(
    """
- Habernal, *Pure Differential Privacy Mechanisms*, lecture 4 of Privacy-Preserving NLP.
- Ramadan, Withers, Orr, *N-grams Bayesian Differential Privacy*.
- Kim, Gopi, Kulkarni, Yekhanin, *Differentially Private n-gram Extraction*, NeurIPS 2021.
- Sharma, *TopicDP — Ensuring Differential Privacy for Topic Mining*, MS thesis, 2021.
"""
)
st.caption(f"Current settings: ε = {settings.epsilon:g}, δ = {settings.delta:g}, seed = {settings.seed}, data = {settings.corpus_label}.")
