"""AppTest of the Privacy audit page: a small audit end to end, the broken toggle, the export."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
PAGE = str(ROOT / "pages" / "5_Privacy_audit.py")


def _open():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["exports"] = "1"  # the export box is lazy (issue 29 item 4): the link opens it
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []
    return at


def _metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def test_default_audit_runs_and_passes():
    at = _open()
    assert at.selectbox(key="audit_mechanism").value == "Laplace count"
    assert len(at.get("plotly_chart")) == 2
    assert float(_metric(at, "ε lower bound")) <= 1.0 and _metric(at, "claimed ε") == "1"
    assert any("Passed" in s.value and "not a proof" in s.value for s in at.success)


def test_break_it_is_labelled_broken_and_caught():
    at = _open()
    at.select_slider(key="audit_trials").set_value(20_000)
    at.toggle(key="audit_broken").set_value(True).run()
    assert not at.exception and [e.value for e in at.error] == []
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("BROKEN") for w in warnings)
    assert any(w.startswith("Caught") for w in warnings)
    assert float(_metric(at, "ε lower bound")) > 1.2


@pytest.mark.parametrize(
    "label",
    ["Exponential (cities)", "DPSU", "DPNE", "BayesianDP", "TopicDP", "TopicDP strict", "VIPS-LDA", "k-anonymity"],
)
def test_every_mechanism_opens(label):
    at = _open()
    at.select_slider(key="audit_trials").set_value(1_000)
    at.selectbox(key="audit_mechanism").set_value(label).run()
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []
    assert len(at.get("plotly_chart")) == 2


def test_export_holds_counts_and_settings():
    at = _open()
    ids = [b.proto.id for b in at.get("download_button")]
    assert any(i.endswith("audit_export_csv") for i in ids) and any(i.endswith("audit_export_json") for i in ids)
    from dpcore.audit import run_scenario
    from dpui.audit.figures import export_records

    run = run_scenario("laplace_count", trials=100, rng=0)
    row = export_records(run, "Laplace count")[0]
    r = run.result
    assert (row["count_d"], row["count_d_prime"], row["n_eval"], row["trials"]) == (r.count_d, r.count_d_prime, 50, 100)
    assert row["epsilon_lower"] == r.epsilon_lower and row["epsilon_claimed"] == 1.0 and row["delta"] == 0.0
    assert row["mechanism"] == "Laplace count" and row["broken"] is False
    assert "scores_d" not in row
    json.dumps(row)


def test_trials_default_is_the_suggested_count_per_mechanism():
    """Issue 24 item 6: the page suggested 100,000 trials for the Laplace pair but defaulted to 10,000. Each
    mechanism's default is its suggestion (no "Suggested …" caption at the defaults); switching mechanism moves
    trials left at the old suggestion to the new one's (DPSU suggests 2,000: 10,000 took seconds), while a
    count the user chose stays."""
    from dpui.audit.data import SCENARIO_LABELS, suggested_trials

    at = _open()
    assert at.select_slider(key="audit_trials").value == suggested_trials("Laplace count") == 100_000
    assert not any(c.value.startswith("Suggested for this pair") for c in at.caption)
    for label in SCENARIO_LABELS:
        at.selectbox(key="audit_mechanism").set_value(label).run()
        assert not at.exception, [e.message for e in at.exception]
        assert at.select_slider(key="audit_trials").value == suggested_trials(label), label
        assert not any(c.value.startswith("Suggested for this pair") for c in at.caption), label
    at.selectbox(key="audit_mechanism").set_value("DPSU").run()
    at.select_slider(key="audit_trials").set_value(5_000).run()
    at.selectbox(key="audit_mechanism").set_value("Laplace count").run()
    assert at.select_slider(key="audit_trials").value == 5_000  # the user's choice is kept, with the suggestion
    assert any(c.value.startswith("Suggested for this pair: 100,000") for c in at.caption)
    linked = AppTest.from_file(PAGE, default_timeout=120)  # a link naming the mechanism only: its suggestion
    linked.query_params["audit_mechanism"] = "DPSU"
    linked.run()
    assert linked.select_slider(key="audit_trials").value == suggested_trials("DPSU") == 2_000


def test_reviewer_audits_at_an_epsilon_of_their_choice():
    """Issue 31 item 12: the sidebar had a "Privacy budget" heading over a Seed box alone, and each scenario fixed
    its own ε. The page's "ε claimed and run at" knob (in the URL) runs and claims the chosen ε; the export and its
    spec carry it; the sidebar's heading over the seed says what it is."""
    at = _open()
    assert at.select_slider(key="audit_epsilon").value == "scenario's own"
    headings = [m.value for m in at.sidebar.markdown if m.value.startswith("### ")]
    # the seed sits under "Noise" with the noise mode (issue 30 item 1); no "Privacy budget" heading over it
    assert "### Privacy budget" not in headings and headings == ["### Noise"]
    assert at.sidebar.number_input(key="seed") is not None
    at.select_slider(key="audit_epsilon").set_value("2").run()
    assert not at.exception and [e.value for e in at.error] == []
    assert _metric(at, "claimed ε") == "2" and 1.5 < float(_metric(at, "ε lower bound")) <= 2.0
    at.toggle(key="audit_broken").set_value(True).run()
    assert float(_metric(at, "ε lower bound")) > 2.0  # caught at the chosen ε (its true ε is 4)
    assert any("the true ε of this pair is 4" in w.value for w in at.warning)
    at.selectbox(key="audit_mechanism").set_value("k-anonymity").run()  # claims no ε: the knob is off
    assert at.select_slider(key="audit_epsilon").disabled and _metric(at, "claimed ε") == "none"


def test_chosen_epsilon_travels_in_the_link_and_the_export(downloads):
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["audit_epsilon"] = "0.5"
    at.query_params["audit_mechanism"] = "DPNE"
    at.run()
    assert not at.exception and _metric(at, "claimed ε") == "0.5"
    from replay_env import export_json

    data = export_json(downloads, at, "audit_export")
    assert data["spec"]["epsilon"] == 0.5 and data["settings"]["epsilon_chosen"] == 0.5


def test_a_confidence_move_bounds_the_same_runs_again(monkeypatch):
    """Issue 29: the mechanism's outputs do not depend on the confidence, so moving it must not run the mechanism
    again (DPSU: 2 × 2,000 runs, 1.2 s) — and must show exactly what a fresh audit at that confidence shows."""
    from dpcore.specs import AuditSpec

    runs = []
    original = AuditSpec.run

    def counted(self, *a, **kw):
        runs.append(self.confidence)
        return original(self, *a, **kw)

    monkeypatch.setattr(AuditSpec, "run", counted)
    at = _open()
    assert runs == [0.95]
    at.select_slider(key="audit_confidence").set_value(0.99).run()
    assert not at.exception, [e.message for e in at.exception]
    assert runs == [0.95]  # bounded again, not run again
    fresh = original(AuditSpec(seed=at.number_input(key="seed").value, scenario="laplace_count", confidence=0.99))
    assert _metric(at, "ε lower bound") == f"{fresh.result.epsilon_lower:.3f}"
    assert _metric(at, "share of runs in the event, D") == f"{fresh.result.p_hat_d:.4f}"
