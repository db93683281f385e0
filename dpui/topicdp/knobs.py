"""The TopicDP page's LDA and sensitivity-sampler settings (the "Advanced" expander).

Keys are the URL's parameter names (``topicdp_k``, ``topicdp_N`` …); values persist for the session.
Changing any of them needs a new sampler run (the sampled sensitivities are stored per setting).
"""

from __future__ import annotations

import streamlit as st

from dpcore import LdaSettings
from dpcore.topicdp import SamplerSettings
from dpui.common.errors import user_errors
from dpui.common.state import IN_URL

SPEC_WIDGETS = {
    "corpus": "corpus",
    "seed": "seed",
    "epsilon": "eps",
    "delta": "delta",
    "gamma": "topicdp_gamma",
    "m": "topicdp_m",
    "n": "topicdp_n",
    "n_topics": "topicdp_k",
    "max_iter": "topicdp_max_iter",
    "learning_method": "topicdp_method",
    "max_doc_update_iter": "topicdp_doc_iter",
    "max_features": "topicdp_vocab",
    "sample_users": "topicdp_N",
    "sampler_seed": "topicdp_sampler_seed",
    "clip_norm": "topicdp_vips_B",
    "iterations": "topicdp_vips_J",
    "parameter": "topicdp_curve_param",
    "repetitions": "topicdp_reps",
    "stage": "topicdp_stage",
}
"""The widget (URL) key of each field of the page's specs (dpcore.specs.topicdp)."""


def widget_values(spec, fields) -> dict:
    """``{widget key: value}`` that put the page's widgets at ``spec``'s ``fields`` (N: 0 for None, the corpus' size)."""
    return {
        SPEC_WIDGETS[f]: (0 if f == "sample_users" and getattr(spec, f) is None else getattr(spec, f)) for f in fields
    }


def lda_and_sampler_knobs() -> tuple[LdaSettings, SamplerSettings, int]:
    """Draw the expander; return the LDA settings, the sampler settings and the number of worker processes."""
    with st.expander("Advanced: LDA and sampler settings (changing them needs a new sampler run)"):
        a1, a2, a3, a4 = st.columns(4)
        n_topics = a1.number_input("LDA topics K", 3, 20, 10, key="topicdp_k", **IN_URL)
        max_iter = a2.number_input("LDA max_iter", 1, 100, 10, key="topicdp_max_iter", **IN_URL)
        method = a3.selectbox("learning_method", ("batch", "online"), key="topicdp_method", **IN_URL)
        doc_iter = a4.number_input("max_doc_update_iter", 1, 200, 10, key="topicdp_doc_iter", **IN_URL)
        b1, b2, b3, b4 = st.columns(4)
        max_features = b1.number_input(
            "vocabulary size (max_features)", 50, 5000, 1000, step=50, key="topicdp_vocab", **IN_URL
        )
        sample_users = b2.number_input(
            "sampled dataset size N (users; 0 = the corpus' size, as the thesis)",
            0,
            5000,
            0,
            key="topicdp_N",
            **IN_URL,
            help="Each sampled neighbouring pair has N users drawn uniformly with "
            "replacement from the corpus (the distribution P). 0 means N = the "
            "corpus' number of users (004 Algorithm 1); a smaller N is faster "
            "but moves the topics more per user.",
        )
        sampler_seed = b3.number_input("sampler seed", 0, 2**31 - 1, 0, key="topicdp_sampler_seed", **IN_URL)
        workers = b4.selectbox("worker processes", (2, 1), key="topicdp_workers", **IN_URL)
        st.caption(
            "Defaults are chosen for speed (the sampler fits LDA 2h times): 1,000 words, batch variational "
            "Bayes, 10 iterations, 10 document updates, mean_change_tol 0.01, random_state 0."
        )
    with user_errors():
        lda = LdaSettings(
            n_topics=int(n_topics),
            max_iter=int(max_iter),
            learning_method=method,
            max_doc_update_iter=int(doc_iter),
            max_features=int(max_features),
        )
        sampler = SamplerSettings(sample_users=int(sample_users) or None, seed=int(sampler_seed))
    return lda, sampler, int(workers)


def table_size_knobs(left, right, *, n_topics: int, n_words: int) -> tuple[int, int]:
    """The sliders m (topics) and n (keywords) of the table, in the columns ``left`` and ``right``, offering only
    what the fitted model has: m ≤ min(10, K), n ≤ min(10, its vocabulary) — on a small upload the vocabulary can be
    under 10 words, and a slider must never offer a value the data refuses (issue 31 item 7). A range of one value
    is shown as that value (a slider needs two)."""
    sizes = []
    for col, name, what, key, most in (
        (left, "m", "topics", "topicdp_m", min(10, n_topics)),
        (right, "n", "keywords", "topicdp_n", min(10, n_words)),
    ):
        if most < 2:
            raise ValueError(f"{name} must be ≥ 2, but the model has only {most} {what}")
        if most == 2:
            col.caption(f"{name} ({what} in the table): 2, all this model has")
            sizes.append(2)
        else:
            sizes.append(col.slider(f"{name} ({what} in the table)", 2, most, most, key=key, **IN_URL))
    return sizes[0], sizes[1]
