"""AppTest for issue 32: each page says, beside its badge, what its release's guarantee means for one person; a
release with no DP guarantee says why there is none; the curve is drawn only on demand; the sidebar's session
total says the same in the same words and grows as releases are viewed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpcore.lab import risk
from dpui.common.charts import plain_values
from dpui.common.risk import ICON

ROOT = Path(__file__).resolve().parent.parent


def _open(page: str, **query) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / page), default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def _risk_lines(at: AppTest) -> list[str]:
    """The lines beside the badge(s): one per (ε, δ) sentence or per reason for no bound."""
    return [line for c in at.main.caption if c.value.startswith(ICON) for line in c.value.split("  \n")]


def _sidebar_line(at: AppTest) -> str:
    return next(c.value for c in at.sidebar.caption if c.value.startswith(ICON))


def _curve_charts(at: AppTest) -> list[dict]:
    out = []
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if "What an attacker can tell" in str(spec["layout"].get("title", {}).get("text", "")).replace("<br>", " "):
            out.append(spec)
    return out


def test_mechanisms_101_states_the_sentence_for_its_epsilon():
    at = _open("1_Mechanisms_101.py", eps="2")
    want = risk.attacker_limits(epsilon=2.0).sentence
    assert any(want in line for line in _risk_lines(at)), _risk_lines(at)
    assert at.toggle(key="m101_risk_curve").value is False
    assert not _curve_charts(at)  # collapsed: no curve computed or drawn
    at.toggle(key="m101_risk_curve").set_value(True).run()
    (spec,) = _curve_charts(at)
    bound = next(t for t in spec["data"] if t["name"].startswith("bound at ε = 2"))
    assert plain_values(bound["y"])[20] == pytest.approx(risk.tradeoff(0.1, epsilon=2.0))  # FPR_GRID[20] = 0.1


def test_bayesian_strict_states_the_sentence_and_local_says_why_not():
    at = _open("2_Bayesian_ngram_DP.py", eps="1.0", delta="1e-05")
    want = risk.attacker_limits(epsilon=1.0, delta=1e-5).sentence
    assert any(want in line for line in _risk_lines(at)), _risk_lines(at)
    local = _open("2_Bayesian_ngram_DP.py", eps="1.0", delta="1e-05", bayes_mode="local")
    lines = _risk_lines(local)
    assert lines and not any("could become at most" in line for line in lines)  # no sentence
    assert any("promises no bound" in line and "sensitivity measured on the private data" in line for line in lines)
    assert not [t for t in local.toggle if t.key == "bayes_risk_curve"]  # and no curve to open


def test_dpne_states_the_sentence_at_its_opening_settings():
    at = _open("3_DP_ngram_extraction.py")
    eps, delta = float(at.session_state["eps"]), float(at.session_state["delta"])
    want = risk.attacker_limits(epsilon=eps, delta=delta).sentence
    assert any(want in line for line in _risk_lines(at)), _risk_lines(at)


def test_topicdp_states_the_sentence_for_vips_only_and_why_not_for_the_others(tiny_topicdp):
    from topicdp_env import TINY_QUERY

    at = _open("4_TopicDP.py", **TINY_QUERY)
    eps, delta = float(at.session_state["eps"]), float(at.session_state["delta"])
    lines = _risk_lines(at)
    text = "\n".join(lines)
    assert f"**VIPS-LDA.** {risk.attacker_limits(epsilon=eps, delta=delta).sentence}" in text
    assert text.count("could become at most") == 1  # only VIPS-LDA is DP for the whole release
    thesis = next(line for line in lines if "**TopicDP (as in the thesis)**" in line)
    assert (
        "promise no bound" in thesis and "random DP covers most neighbouring datasets" in thesis
    )  # with the other random-DP releases
    strict = next(line for line in lines if "**TopicDP strict**" in line)
    assert "promise no bound" in strict and "proof covers the values, not" in strict and "random DP" not in strict
    import re

    assert all(len(re.findall(r"\w+", line)) <= RISK_LINE_MAX for line in lines), lines  # one short sentence each


def test_audit_draws_the_measured_attack_above_the_claims_bound_when_broken():
    at = _open("5_Privacy_audit.py", audit_mechanism="Laplace count", audit_broken="true", audit_trials="10000")
    want = "The claim says: " + risk.attacker_limits(epsilon=1.0).sentence
    assert any(want in line for line in _risk_lines(at)), _risk_lines(at)
    at.toggle(key="audit_risk_curve").set_value(True).run()
    (spec,) = _curve_charts(at)
    corner = next(t for t in spec["data"] if "what the runs prove" in t["name"])
    fpr_upper, tpr_lower = plain_values(corner["x"])[0], plain_values(corner["y"])[0]
    assert risk.above_bound(fpr_upper, tpr_lower, epsilon=1.0)  # the broken variant crosses the curve


def test_audit_without_a_claim_says_there_is_no_bound():
    at = _open("5_Privacy_audit.py", audit_mechanism="k-anonymity", audit_trials="1000")
    lines = _risk_lines(at)
    assert any("promises no bound" in line for line in lines) and not any("could become" in line for line in lines)


def test_sidebar_total_in_the_same_words_grows_with_each_release():
    # the Bayesian page counts its strict release and the paper's local one beside it (issue 31 item 4): the total
    # is not DP, so the line claims no bound, and it counts every release viewed
    at = _open("2_Bayesian_ngram_DP.py", eps="1.0", delta="1e-05")
    first = _sidebar_line(at)
    assert first.startswith(f"{ICON} After the 2 releases you viewed: no bound"), first
    at.select_slider(key="eps").set_value(2.0).run()  # a new view: fresh releases
    second = _sidebar_line(at)
    assert second.startswith(f"{ICON} After the 4 releases you viewed: no bound"), second
    # a DP total gives a percentage that grows with each release (the line's words, from dpui.common.risk.session_line)
    from types import SimpleNamespace

    from dpui.common.risk import session_line

    one = session_line(1, SimpleNamespace(epsilon=1.0, delta=1e-5, colour="green"))
    two = session_line(2, SimpleNamespace(epsilon=2.0, delta=2e-5, colour="green"))
    pct = [float(s.split("at most ")[1].split(" %")[0]) for s in (one, two)]
    assert pct[1] > pct[0]


def test_bayesian_membership_attack_is_drawn_on_the_bounds_axes():
    at = _open("2_Bayesian_ngram_DP.py", eps="1.0", delta="1e-05", bayes_tab="Membership inference")
    at.select_slider(key="bayes_trials").set_value(50).run()
    at.button(key="bayes_run_mia").click().run()
    assert not at.exception, [e.message for e in at.exception]
    (spec,) = _curve_charts(at)
    names = [t["name"] for t in spec["data"]]
    assert "bound at ε = 1, δ = 1e-05: no attacker above" in names
    for mech in ("BayesianDP", "Laplace"):
        assert {f"{mech}: every threshold", f"{mech}: the chosen test"} <= set(names), names
    assert any("The attack beside the bound" in m.value for m in at.markdown)


RISK_LINE_MAX = 60
"""Words (as tests/test_app_say_less.py counts them) of one line beside a badge: one sentence, never an essay."""


@pytest.mark.parametrize(
    "page, query",
    [
        ("1_Mechanisms_101.py", {"eps": "4"}),
        ("2_Bayesian_ngram_DP.py", {"bayes_mode": "local"}),
        ("3_DP_ngram_extraction.py", {}),
        ("5_Privacy_audit.py", {"audit_mechanism": "k-anonymity", "audit_trials": "1000"}),
    ],
)
def test_each_line_beside_a_badge_is_one_short_sentence(page, query):
    import re

    lines = _risk_lines(_open(page, **query))
    assert lines
    for line in lines:
        assert line.startswith(ICON) and len(re.findall(r"\w+", line)) <= RISK_LINE_MAX, line
        assert ". " not in line and line.endswith("."), line  # one sentence


def test_the_sentence_says_the_seed_is_public_in_reproducible_mode_and_not_in_private_mode():
    """Issue 42 item 5: the badge's "protects no one" chip is said in the sentence too, before the bound."""
    from dpui.common.risk import PUBLIC_SEED_CAVEAT

    want = risk.attacker_limits(epsilon=2.0).sentence
    public = _risk_lines(_open("1_Mechanisms_101.py", eps="2"))
    assert any(PUBLIC_SEED_CAVEAT in line for line in public), public
    assert any(want in line for line in public)
    private = _risk_lines(_open("1_Mechanisms_101.py", eps="2", noise="private"))
    assert not any(PUBLIC_SEED_CAVEAT in line for line in private), private
    assert any(want in line for line in private)
