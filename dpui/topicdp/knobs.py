"""The TopicDP page's LDA and sensitivity-sampler settings (the "Advanced" expander).

Keys are the URL's parameter names (``topicdp_k``, ``topicdp_N`` …); values persist for the session.
Changing any of them needs a new sampler run (the sampled sensitivities are stored per setting).
"""

from __future__ import annotations

import streamlit as st

from dpcore import LdaSettings
from dpcore.specs import TopicDpSpec
from dpcore.topicdp import SamplerSettings

from dpui.common.errors import user_errors
from dpui.common.exercise_keys import PAGE_SPECS as _ALL_PAGE_SPECS
from dpui.common.knobs import draw_knob, spec_widgets
from dpui.common.knobs import widget_values as _widget_values
from dpui.common.state import IN_URL


PAGE_SPECS = _ALL_PAGE_SPECS["4_TopicDP"]
SPEC_WIDGETS = spec_widgets(PAGE_SPECS)
"""The widget (URL) key of each field of the page's specs (dpcore.specs.topicdp), derived from their knobs."""


def widget_values(spec, fields) -> dict:
    """``{widget key: value}`` that put the page's widgets at ``spec``'s ``fields`` (validated by the spec)."""
    return _widget_values(spec, fields, SPEC_WIDGETS)


def lda_and_sampler_knobs() -> tuple[LdaSettings, SamplerSettings, int]:
    """Draw the expander; return the LDA settings, the sampler settings and the number of worker processes."""
    with st.expander("Advanced: LDA and sampler settings (changing them needs a new sampler run)"):
        a1, a2, a3, a4 = st.columns(4)  # the knobs declared on TopicDpSpec's fields (dpcore.specs.topicdp)
        n_topics = draw_knob(TopicDpSpec, "n_topics", a1)
        max_iter = draw_knob(TopicDpSpec, "max_iter", a2)
        method = draw_knob(TopicDpSpec, "learning_method", a3)
        doc_iter = draw_knob(TopicDpSpec, "max_doc_update_iter", a4)
        b1, b2, b3, b4 = st.columns(4)
        max_features = draw_knob(TopicDpSpec, "max_features", b1)
        sample_users = draw_knob(TopicDpSpec, "sample_users", b2)  # None: the corpus' size (the widget's 0)
        sampler_seed = draw_knob(TopicDpSpec, "sampler_seed", b3)
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
        sampler = SamplerSettings(
            sample_users=None if sample_users is None else int(sample_users), seed=int(sampler_seed)
        )
    return lda, sampler, int(workers)


def table_size_knobs(left, right, *, n_topics: int, n_words: int) -> tuple[int, int]:
    """The sliders m (topics) and n (keywords) of the table, in the columns ``left`` and ``right``, offering only
    what the fitted model has: m ≤ min(10, K), n ≤ min(10, its vocabulary) — on a small upload the vocabulary can be
    under 10 words, and a slider must never offer a value the data refuses (issue 31 item 7). A range of one value
    is shown as that value (a slider needs two)."""
    return _table_size(left, "m", "topics", min(10, n_topics)), _table_size(right, "n", "keywords", min(10, n_words))


def _table_size(col, name: str, what: str, most: int) -> int:
    if most < 2:
        raise ValueError(f"{name} must be ≥ 2, but the model has only {most} {what}")
    if most == 2:
        col.caption(f"{name} ({what} in the table): 2, all this model has")
        return 2
    if name == "m":  # the knobs declared on TopicDpSpec's fields, offering at most `most`
        return draw_knob(TopicDpSpec, "m", col, default=most, high=most)
    return draw_knob(TopicDpSpec, "n", col, default=most, high=most)
