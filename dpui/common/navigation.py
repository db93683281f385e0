"""The list of pages, in one place: the home page's cards and the sidebar navigation both read it.

A new page is one ``Page(...)`` line here. A page whose file does not exist in this build (e.g. one
another branch adds) is left out of the navigation and shown as "not available" on the home page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

ROOT = Path(__file__).resolve().parents[2]
"""The folder holding app.py and pages/ (page paths below are relative to it)."""
HOME_PATH = "app.py"


@dataclass(frozen=True)
class Page:
    """One page: its script (relative to the app's folder), title, icon, what it shows and what it promises."""

    path: str
    title: str
    icon: str
    summary: str = ""
    guarantee: str = ""
    line: str = ""
    """What the page shows, in one line (the Home page's map)."""

    @property
    def exists(self) -> bool:
        return (ROOT / self.path).exists()

    @property
    def url_path(self) -> str:
        """The page's address in Streamlit's pages/ mode: "/" for the home page, "/Mechanisms_101" …"""
        return "/" if self.path == HOME_PATH else "/" + Path(self.path).stem.split("_", 1)[1]


HOME = Page(HOME_PATH, "Home", "🏠")

SOURCE_PAGE_TITLES: Mapping[str, str] = {
    "001": "Mechanisms 101",
    "000": "Bayesian n-gram DP",
    "003": "DP n-gram extraction",
    "004": "TopicDP",
}
"""The page of each source paper (dpcore names a mechanism's source, e.g. in dpcore.lab.review.mechanism_guarantees)."""

PAGES: tuple[Page, ...] = (
    Page(
        "pages/1_Mechanisms_101.py",
        "Mechanisms 101",
        "🎓",
        "The lecture demos: two Laplace densities and the privacy loss L(y) against ε; global sensitivity "
        "(the bank-debt cap); the exponential mechanism choosing a meeting city; sampling many times.",
        "Laplace with a global Δ: ε-DP (pure). Noise scaled from the data (bank debt by the largest value, the "
        "city example's Δu over D's neighbours): not DP.",
        line="the lecture's Laplace and exponential mechanisms, sensitivity and privacy loss, with sliders.",
    ),
    Page(
        "pages/2_Bayesian_ngram_DP.py",
        "Bayesian n-gram DP",
        "📊",
        "BayesianDP uses public data as a prior and adds Gaussian noise to a word-weighted posterior mean; "
        "KL divergence vs ε against Laplace baselines, k-anonymity and public/private baselines; users, "
        "vocabulary, public-data quality, perplexity and a membership-inference attack.",
        "BayesianDP strict: (ε, δ)-DP per user. BayesianDP and EndToEndDP as in the paper: not DP, no (ε, δ) at "
        "all (sensitivity measured on the corpus). Laplace with a per-user cap: ε-DP. Laplace + public: not DP, "
        "no ε. k-anonymity: not DP.",
        line="BayesianDP's noisy n-gram model against Laplace, k-anonymity and public/private baselines (KL vs ε).",
    ),
    Page(
        "pages/3_DP_ngram_extraction.py",
        "DP n-gram extraction",
        "🧩",
        "DPNE releases a *set* of n-grams by growing lengths, pruning candidates by shorter released n-grams; "
        "DPSU baselines; how many n-grams used by ≥ K users survive; spurious share vs η.",
        "DPNE and DPSU: (ε, δ)-DP per user (DPSU-single: per length); the released sets only, never counts.",
        line="DPNE's released set of n-grams by length against DPSU, and how many frequent n-grams survive.",
    ),
    Page(
        "pages/4_TopicDP.py",
        "TopicDP",
        "🗂️",
        "Noise on an LDA topic–keyword matrix with a *sampled* sensitivity, beside Laplace and MVG baselines.",
        "TopicDP and MVG as used here: (ε, δ, γ)-random DP — weaker than (ε, δ)-DP. Laplace: ε-DP for the values, "
        "given a non-private choice of topics and keywords.",
        line="noise on an LDA topic–keyword matrix (TopicDP, MVG, Laplace, VIPS-LDA) and what it does to the topics.",
    ),
    Page(
        "pages/5_Privacy_audit.py",
        "Privacy audit",
        "🕵️",
        "Measure ε from the outside: run a mechanism on neighbouring datasets many times and bound its privacy "
        "loss from the observed outputs.",
        "An audit gives an empirical lower bound on ε; it proves no guarantee.",
        line="measure ε from the outside: a lower bound from a mechanism's outputs on neighbouring datasets.",
    ),
)
"""Every page the app knows, in navigation order."""


def available_pages() -> list[Page]:
    """The pages whose files exist in this build."""
    return [p for p in PAGES if p.exists]


def sidebar_navigation(query_params: Mapping[str, str]) -> None:
    """The navigation at the top of the sidebar: Home, then every available page, by title and icon.

    Each link carries ``query_params`` (the shared settings that differ from their defaults): a page
    link would otherwise clear the address bar, and a value set here would not reach a page that reads
    it from the link. Streamlit's own page list (named after the files: "app", "Bayesian ngram DP" …) is
    hidden by ``client.showSidebarNavigation = false`` in .streamlit/config.toml.
    """
    for page in (HOME, *available_pages()):
        try:
            st.page_link(str(ROOT / page.path), label=page.title, icon=page.icon, query_params=dict(query_params))
        except StreamlitPageNotFoundError:
            # A page script run on its own (AppTest.from_file("pages/…")) knows no other page:
            # a plain link to the same address instead.
            query = "?" + urlencode(query_params) if query_params else ""
            st.markdown(f"{page.icon} [{page.title}]({page.url_path}{query})")
