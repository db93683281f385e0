"""dpui: the guarantee badge (derived from the Guarantee only) and the reviewer's panel (AppTest)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore import guarantees as G
from dpui.common.charts import badge_help, badge_text, chip_label
from dpui.common.review import PANEL_KEY


@pytest.mark.parametrize(
    "g, words",
    [
        (G.pure_dp(epsilon=1.0), "DP"),
        (G.approximate_dp(epsilon=1.0, delta=1e-5), "DP"),
        (G.random_dp(epsilon=1.0, delta=1e-5, gamma=0.1), "weaker than DP"),
        (G.local_sensitivity(epsilon=1.0, delta=1e-5), "not DP"),
        (G.k_anonymity(5), "not DP"),
        (G.no_protection(), "no protection"),
        (
            G.pure_dp(epsilon=1.0, conditional_on="a non-private choice of topics and keywords"),
            "DP for part of the release only",
        ),
    ],
)
def test_badge_text_carries_words_and_label(g, words):
    # issue 24 item 7: the chip holds the short label (it was the whole label, cut with "…" in narrow columns);
    # the full label, with every qualifier, and the promise are its tooltip
    t = badge_text(g, name="M")
    assert t == f"Guarantee: M — {words}: {chip_label(g)}"
    assert badge_help(g) == f"**{words}: {g.label}.** {g.promise}"
    assert len(chip_label(g)) <= 60


def test_badge_refuses_text():
    with pytest.raises(TypeError, match="Guarantee"):
        badge_text("(ε, δ)-DP per user")


def _panel_script():
    import numpy as np
    import scipy.sparse as sp

    import dpcore
    from dpui.common.review import reviewer_panel

    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.integers(0, 3, size=(30, 10)))
    rel = dpcore.bayesian_dp(
        X, rng.integers(1, 5, 10), epsilon=12, delta=0.5, S=1, C=1, rho=0.5, rng=0, calibration="classic"
    )
    lap = dpcore.bayesian.laplace_counts_dp(X, epsilon=1, W=3, rng=0)
    reviewer_panel(
        [("BayesianDP", dpcore.review_release(rel, n_users=30)), ("Laplace", dpcore.review_release(lap, n_users=30))]
    )


def test_panel_collapsed_by_default_and_shows_everything():
    at = AppTest.from_function(_panel_script, default_timeout=30).run()
    assert not at.exception
    exp = at.expander[0]
    assert exp.proto.expanded is False
    assert not at.markdown and not at.warning  # lazy (issue 29 item 4): nothing is built or sent while closed
    at.session_state[PANEL_KEY] = True  # the user opens it
    at.run()
    assert at.expander[0].proto.expanded is True
    text = " ".join(m.value for m in at.markdown)
    assert "Noise in units" in text and "comes back as 100 ±" in text
    assert "Budget" in text
    warns = " ".join(w.value for w in at.warning)
    for rule in ("delta-vs-users", "epsilon-large", "classic-gaussian", "few-users"):
        assert dpcore.lab.REVIEW_RULES[rule] in warns
    assert "Fix:" in warns
    assert ":red-badge[" in text and ":green-badge[" in text  # BayesianDP local is red (not DP), Laplace green


def test_panel_opens_with_review_1():
    at = AppTest.from_function(_panel_script, default_timeout=30)
    at.query_params["review"] = "1"
    at.run()
    assert at.expander[0].proto.expanded is True


def _calibration_script():
    import streamlit as st

    import dpcore
    from dpui.common.calibration import calibration_note, calibration_radio

    eps = float(st.query_params.get("eps", "0.5"))
    choice = calibration_radio(key="cal")
    used = calibration_note(
        choice=choice,
        epsilon=eps,
        delta=1e-5,
        # shown beside the analytic σ: the bare formula (gaussian_sigma refuses "classic" at ε = 10, issue 30 item 9)
        sigma_classic=dpcore.mechanisms.gaussian_noise_scale(epsilon=eps, delta=1e-5, method="classic"),
        sigma_analytic=dpcore.gaussian_sigma(epsilon=eps, delta=1e-5, method="analytic"),
    )
    st.text(f"used={used}")


@pytest.mark.parametrize(
    "eps, choice, used, warns",
    [
        ("0.5", None, "classic", False),
        ("10", None, "analytic", False),
        ("10", "classic", "classic", True),
        ("10", "analytic", "analytic", False),
    ],
)
def test_calibration_defaults_to_auto_and_shows_true_delta(eps, choice, used, warns):
    at = AppTest.from_function(_calibration_script, default_timeout=30)
    at.query_params["eps"] = eps
    if choice:
        at.query_params["cal"] = choice
    at.run()
    assert not at.exception
    assert at.radio[0].value == (choice or "auto")
    assert at.text[0].value == f"used={used}"
    shown = " ".join([c.value for c in at.caption] + [w.value for w in at.warning])
    assert "true δ" in shown
    if eps == "10":
        assert "2.27 × the stated" in shown
    assert bool(at.warning) == warns


def _modes_script():
    import numpy as np
    import scipy.sparse as sp
    import streamlit as st

    import dpcore
    from dpui.bayesian.modes import mode_knobs, modes_panel, strict_prepared_for

    k = mode_knobs()
    rng = np.random.default_rng(0)
    X = sp.csr_matrix(rng.integers(0, 3, size=(150, 30)) * (rng.random((150, 30)) < 0.3))
    alpha = rng.integers(1, 9, 30)
    local = dpcore.bayesian.release.prepare_bayesian(X, alpha, S=0.1, C=1, rho=0.5)
    strict = strict_prepared_for("h", "q", 1, 1, 0.1, 0.5, k.L, k.N_max, 0, X, alpha)
    rel_s, rel_l = modes_panel(
        strict=strict,
        local=local,
        p=dpcore.bayesian.private_baseline(X),
        epsilon=1.0,
        delta=1e-5,
        calibration="auto",
        rng_strict=1,
        rng_local=2,
    )
    st.text(f"mode={k.mode} strict_sigma={rel_s.sigma:.6g} local_sigma={rel_l.sigma:.6g}")


def test_modes_panel_defaults_to_strict_and_labels_local_red():
    at = AppTest.from_function(_modes_script, default_timeout=30).run()
    assert not at.exception
    assert at.radio[0].value == "strict"
    text = " ".join(m.value for m in at.markdown)
    assert ":green-badge[🔒 Guarantee: BayesianDP strict (DP) — DP:" in text
    assert ":red-badge[⛔ Guarantee: BayesianDP local (as in the paper) — not DP:" in text
    labels = [m.label for m in at.metric]
    assert labels.count("KL to private") == 2 and "γ (strict)" in labels and "γ (local)" in labels
    g = dpcore.bayesian.strict_sensitivity(S=0.1, C=1, max_items=50, max_users=10_000)
    assert any(m.value == f"{g:.4g}" for m in at.metric)


def test_modes_panel_refuses_a_corpus_above_n_max():
    at = AppTest.from_function(_modes_script, default_timeout=30)
    at.query_params["bayes_Nmax"] = "100"  # the test corpus has 150 users
    at.run()
    assert at.exception and "max_users" in at.exception[0].message
