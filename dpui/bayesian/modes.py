"""BayesianDP's two modes side by side (SPEC §3b; issue 9 item 1): "strict (DP)" and "local (as in the paper)".

strict: every user keeps at most L distinct n-grams (a seeded random choice after the C clamp) and the
corpus has at most N_max users (a public cap); σ uses γ_strict, a data-independent bound — (ε, δ)-DP.
local: σ uses γ measured on this corpus by brute force, as the paper does — not DP (red label).

The page draws :func:`mode_knobs` in its sidebar, builds both prepared mechanisms (cached loaders below)
and calls :func:`modes_panel`, which shows both σ and both KLs with their badges. All maths is dpcore's.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import streamlit as st

from dpcore.metrics import kl_divergence
from dpcore.specs import BayesianSpec, derive_rng
from dpcore.specs.bayesian import MODE_CAPTIONS, N_MAX_OPTIONS
from dpcore.specs.knobs import knob_of

from dpui.common.knobs import draw_knob

MODES = MODE_CAPTIONS  # the modes and their captions (declared with BayesianSpec's knob ``mode``)
__all__ = ["N_MAX_OPTIONS", "MODES", "DEFAULT_L", "DEFAULT_N_MAX", "ModeKnobs", "mode_knobs", "modes_panel"]
DEFAULT_L = knob_of(BayesianSpec, "max_items").default
DEFAULT_N_MAX = knob_of(BayesianSpec, "max_users").default
_SIZE_KEY = "_bayes_nmax_size"  # session state: the data choice N_max's default was last drawn for


def default_n_max(data: str) -> int:
    """N_max's default for a data choice (dpui.common.corpus_panel.DATA_CHOICES): the smallest offered cap at or above
    its stated number of private users, at least 10,000 (public numbers: dpcore.text.synthetic.SIZES and
    corpus_panel.REAL_PEOPLE; 10,000 for the chat's 920 people and the classroom's 3,000 users, 100,000 for the
    paper size's 100,000; an upload gets 10,000 and a larger one is refused with a message naming max_users),
    so the default page is not refused for too many users."""
    from dpcore.text.synthetic import SIZES
    from dpui.common.corpus_panel import REAL_PEOPLE

    stated = {"chat": REAL_PEOPLE["private"], "upload": 0, **{k: v["private"] for k, v in SIZES.items()}}[data]
    return max(DEFAULT_N_MAX, min(n for n in N_MAX_OPTIONS if n >= stated))


@dataclass(frozen=True)
class ModeKnobs:
    """The mode and strict mode's caps: L (distinct n-grams kept per user) and N_max (public user cap)."""

    mode: str
    L: int
    N_max: int

    def as_dict(self) -> dict:
        return {"mode": self.mode, "L": self.L, "N_max": self.N_max}


def mode_knobs(size: str = "chat") -> ModeKnobs:
    """Draw the mode switch and the caps in the sidebar (URL keys bayes_mode, bayes_L, bayes_Nmax); N_max's
    default follows the data choice ``size`` (:func:`default_n_max`)."""
    previous = st.session_state.get(_SIZE_KEY)
    if previous not in (None, size) and st.session_state.get("bayes_Nmax") == default_n_max(previous):
        st.session_state["bayes_Nmax"] = default_n_max(size)  # untouched default: follow the new size
    st.session_state[_SIZE_KEY] = size
    with st.sidebar:  # the knobs declared on BayesianSpec's fields (dpcore.specs.bayesian)
        st.markdown("### Guarantee")
        mode = draw_knob(BayesianSpec, "mode")
        L = draw_knob(BayesianSpec, "max_items")
        N_max = draw_knob(BayesianSpec, "max_users", default=default_n_max(size))
    return ModeKnobs(mode, int(L), int(N_max))


def _rng(seed: int, *salt) -> np.random.Generator:
    return derive_rng(seed, *salt)  # the one seed derivation (dpcore.specs; issue 22)


@st.cache_resource(show_spinner="Capping users at L n-grams …", max_entries=16)
def strict_statistics_for(
    private_hash: str, public_hash: str, n: int, C: int, L: int, seed: int, _user_counts, _public_counts
):
    """Clamped and L-capped statistics; the seed is in the key (the item choice is random): BayesianSpec's
    strict_statistics, drawn from its item-cap salt (dpcore.specs.bayesian)."""
    spec = BayesianSpec(seed=seed, n=n, C=C, max_items=L)
    return spec.strict_statistics(SimpleNamespace(user_counts=_user_counts, public_counts=_public_counts))


def strict_prepared_for(private_hash, public_hash, n, C, S, rho, L, N_max, seed, _user_counts, _public_counts):
    """The strict prepared mechanism (γ_strict); raises ValueError naming max_users if the corpus is larger."""
    stats = strict_statistics_for(private_hash, public_hash, n, C, L, seed, _user_counts, _public_counts)
    return BayesianSpec(seed=seed, n=n, C=C, S=S, rho=rho, max_items=L, max_users=N_max).prepare(stats, "strict")


def modes_panel(*, strict, local, p, epsilon: float, delta: float, calibration: str, rng_strict, rng_local):
    """Both modes side by side: γ, σ_ps and the KL of one release each, with each release's badge (local
    is red: its noise is scaled to a sensitivity measured on the private data — not DP). Returns the two
    releases (strict, local)."""
    from dpui.common.charts import guarantee_badge
    from dpui.common.exercises import spoiler

    rel_s = strict.release(epsilon=epsilon, delta=delta, calibration=calibration, rng=rng_strict)
    rel_l = local.release(epsilon=epsilon, delta=delta, calibration=calibration, rng=rng_local)
    st.header("Strict (DP) and local (as in the paper), side by side")
    cols = st.columns(2)
    for col, name, rel, prep in (
        (cols[0], "strict (DP)", rel_s, strict),
        (cols[1], "local (as in the paper)", rel_l, local),
    ):
        with col:
            guarantee_badge(rel.guarantee, name=f"BayesianDP {name}")
            m = st.columns(3)
            m[0].metric(f"γ ({name.split()[0]})", f"{prep.sensitivity:.4g}")
            m[1].metric(f"σ_ps ({rel.calibration})", f"{rel.sigma:.4g}")
            m[2].metric("KL to private", f"{kl_divergence(p, rel.theta):.4g}", help="KL(private ‖ θ); lower is better.")
    ratio = rel_s.sigma / rel_l.sigma if rel_l.sigma > 0 else float("inf")
    shown = spoiler("bayes_strict_local_ratio", f"{ratio:.3g}")  # an exercise's answer: hidden while it is open
    st.caption(
        f"The strict σ is {shown} × the local one: that is what the paper's local γ buys — and why it is "
        "not allowed: the local γ is measured on the private data, so it promises nothing for a corpus that "
        "differs from this one, and σ itself depends on who is in the data."
    )
    return rel_s, rel_l


# what is computed from an upload is given back with it (issue 25)
from dpui.common import uploads as _uploads  # noqa: E402

_uploads.track_caches(globals())
