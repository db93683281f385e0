"""The Gaussian calibration choice every Gaussian page offers (SPEC §2; issue 15 item 3).

Options (also the URL values): ``auto`` (default: classic below ε = 1, analytic from 1), ``classic`` (as in
the paper; proven for ε < 1) and ``analytic`` (Balle & Wang 2018, tight). Beside the choice the page shows
both σ and the *true* δ of the classic σ (dpcore.mechanisms.classic_true_delta), so a student sees what the classic
σ promises at ε ≥ 1.
"""

from __future__ import annotations

import streamlit as st

from dpcore.specs.bayesian import CALIBRATION_CAPTIONS, CALIBRATION_HELP

CALIBRATION_LABELS = CALIBRATION_CAPTIONS  # declared with the Bayesian specs' knob ``calibration``


def calibration_radio(*, key: str, label: str = "Gaussian calibration") -> str:
    """The calibration radio, bound to the URL under ``key``; returns the option chosen ("auto" by default).
    Resolve it with :func:`dpcore.mechanisms.resolve_calibration` (ε decides what "auto" means)."""
    # options are the short URL values; the words go in captions (a format_func would put the words in the URL)
    return st.radio(
        label,
        tuple(CALIBRATION_LABELS),
        captions=tuple(CALIBRATION_CAPTIONS.values()),
        key=key,
        bind="query-params",
        persist_state="session",
        help=CALIBRATION_HELP,
    )


def calibration_note(
    *, choice: str, epsilon: float, delta: float, sigma_classic: float, sigma_analytic: float, unit: str = "σ"
) -> str:
    """Show which calibration is used, both σ and the classic σ's true δ; returns the resolved method."""
    import dpcore

    used = dpcore.mechanisms.resolve_calibration(choice, epsilon=epsilon)
    true_delta = dpcore.mechanisms.classic_true_delta(epsilon=epsilon, delta=delta)
    ratio = true_delta / delta
    text = (
        f"Calibration used: **{used}**{' (auto)' if choice == 'auto' else ''}. "
        f"{unit} classic = {sigma_classic:.4g} (its true δ = {true_delta:.3g}, {ratio:.3g} × the stated "
        f"δ = {delta:g}); {unit} analytic = {sigma_analytic:.4g} (δ exact)."
    )
    if used == "classic" and epsilon >= 1:
        st.warning(f"ε = {epsilon:g} ≥ 1: the classic σ is **outside its proof**. " + text, icon="⚠️")
    else:
        st.caption(text)
    return used
