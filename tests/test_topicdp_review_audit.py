"""Issue 24 item 6: TopicDP's reviewer panel warns when the noise swamps the table ("0.1 comes back as
0.1 ± 2,100"), and the audit page's "Break it" catches TopicDP (a broken variant exists, and is caught).
Also strict TopicDP's audit scenario (issue 21 item 4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore.audit import get_scenario, run_scenario

ROOT = Path(__file__).resolve().parent.parent


def _releases(epsilon=1.0, delta_s=2.235):
    return dpcore.topicdp.release_all(
        np.full((10, 10), 0.1), epsilon=epsilon, delta=1e-5, sensitivity=delta_s, rng=0, gamma=0.1
    )


def test_review_warns_when_the_noise_is_wider_than_a_probability():
    rel = _releases()["TopicDP"]
    rev = dpcore.review_release(rel, n_users=920)
    assert rev.noise[0].text.startswith("a topic–word probability of 0.1 comes back as 0.1 ± 2,100")
    swamp = [w for w in rev.warnings if w.rule == "noise-swamps-answer"]
    assert len(swamp) == 1 and "± 2,100" in swamp[0].message and "whole range (1)" in swamp[0].message
    assert dpcore.lab.REVIEW_RULES["noise-swamps-answer"]
    # every mechanism at the defaults swamps a 10 × 10 table of probabilities; at a huge ε none does
    for mech, r in _releases().items():
        assert any(w.rule == "noise-swamps-answer" for w in dpcore.review_release(r, n_users=920).warnings), mech
    for mech, r in _releases(epsilon=1e5, delta_s=1e-3).items():
        assert not any(w.rule == "noise-swamps-answer" for w in dpcore.review_release(r, n_users=920).warnings), mech


def test_noise_rule_fires_on_the_half_width_against_the_range():
    ok = dpcore.lab.gaussian_noise_in_units(0.1, sigma=0.5 / 1.96 * 0.999)  # half-width just below 0.5
    assert dpcore.lab.review_warnings(noise=ok, answer_range=0.5) == ()
    wide = dpcore.lab.gaussian_noise_in_units(0.1, sigma=0.5 / 1.96 * 1.001)
    assert [w.rule for w in dpcore.lab.review_warnings(noise=[wide], answer_range=0.5)] == ["noise-swamps-answer"]
    assert dpcore.lab.review_warnings(noise=[wide]) == ()  # no range given: the rule cannot fire
    with pytest.raises(ValueError, match="answer_range must be > 0"):
        dpcore.lab.review_warnings(noise=[wide], answer_range=0)


def test_topicdp_page_panel_warns_instead_of_no_warnings(tiny_topicdp):
    """The page's reviewer panel prints the noise in units and, beside it, the warning (never "No reviewer
    warnings" while "0.1 comes back as 0.1 ± …" is wider than a probability)."""
    from topicdp_env import TINY_QUERY

    at = AppTest.from_file(str(ROOT / "pages" / "4_TopicDP.py"), default_timeout=300)
    for k, v in {**TINY_QUERY, "review": "1"}.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    noise = [m.value for m in at.markdown if "comes back as" in m.value]
    assert noise and any("± " in t for t in noise)
    warnings = " ".join(w.value for w in at.warning)
    assert dpcore.lab.REVIEW_RULES["noise-swamps-answer"] in warnings
    assert not any("No reviewer warnings" in s.value for s in at.success)


# ------------------------------------------------------------------------------ the audit


@pytest.mark.parametrize("name", ["topicdp", "topicdp_strict"])
def test_topicdp_scenarios_have_a_broken_variant_that_is_caught(name):
    sc = get_scenario(name)
    assert sc.correct is not None and sc.broken is not None and sc.broken.explanation.startswith("BROKEN")
    for seed in (0, 1, 2):
        broken = run_scenario(name, broken=True, trials=10_000, rng=seed).result
        assert broken.epsilon_lower > broken.epsilon_claimed, (name, seed, broken.epsilon_lower)
        correct = run_scenario(name, broken=False, trials=10_000, rng=seed).result
        assert not correct.violates_claim, (name, seed, correct.epsilon_lower)


def test_topicdp_broken_pair_swaps_prevalence_and_strict_pair_is_the_bound():
    d, dp = get_scenario("topicdp").datasets()
    assert np.argmax(d[1]) != np.argmax(dp[1])  # the two fits' prevalences swap
    assert np.linalg.norm(d[0] - dp[0]) < 0.1  # the same topics in component order
    a, b = get_scenario("topicdp_strict").datasets()
    assert np.linalg.norm(a - b) == pytest.approx(np.sqrt(2 * a.shape[0]))  # exactly √(2m)


def _audit_page(**params):
    at = AppTest.from_file(str(ROOT / "pages" / "5_Privacy_audit.py"), default_timeout=300)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.mark.parametrize("label", ["TopicDP", "TopicDP strict"])
def test_audit_page_break_it_catches_topicdp(label):
    """On main the toggle was disabled for TopicDP and the correct variant ran under a toggle that looked on:
    "Break it" passed silently. Now it runs the broken variant and the audit catches it."""
    at = _audit_page(audit_mechanism=label, audit_broken="true", audit_trials="10000")
    toggle = at.toggle(key="audit_broken")
    assert toggle.value is True and not toggle.proto.disabled
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("BROKEN") for w in warnings), warnings
    assert any(w.startswith("Caught") for w in warnings), warnings
