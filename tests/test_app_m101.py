"""AppTest checks of Mechanisms 101's exponential mechanism (issue 24 item 3): what its numbers claim."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
GREEN, RED = 1, 0  # streamlit.proto.Metric_pb2.Metric.MetricColor


def run(**params) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "1_Mechanisms_101.py"), default_timeout=120)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_ratio_metric_makes_no_dp_claim_beside_a_not_dp_badge():
    """At the defaults the badge says "not DP" (Δu computed from D is a local sensitivity); the metric beside it
    was a green "ratio within e^ε". It says what it checks — D's own neighbours — in grey, never green."""
    at = run()
    badge = next(m.value for m in at.markdown if "(c) exponential mechanism" in m.value)
    assert badge.startswith(":orange-badge") and "not DP" in badge
    ratio = next(m for m in at.metric if m.label.startswith("worst ratio over D's"))
    assert ratio.label == "worst ratio over D's 4 neighbours" and "proves no DP" in ratio.proto.help
    bound = next(m for m in at.metric if m.label == "e^ε")
    assert bound.proto.color != GREEN and "not a DP proof" in bound.value + bound.delta
    assert "Δu is computed from D" in bound.proto.help

    broken = run(m101_sens_factor="0.1")  # Δu too small: the ratio exceeds e^ε, shown red
    bound = next(m for m in broken.metric if m.label == "e^ε")
    assert bound.proto.color == RED and "EXCEEDS" in bound.delta


def test_city_legend_names_what_it_draws():
    """The legend said "vermillion diamond = a member lives there" over square markers, in one entry too long for
    its column. Each kind of city is its own short legend entry, which shows its marker."""
    at = run()
    spec = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
                if json.loads(c.proto.spec)["layout"]["title"]["text"].startswith("Candidate cities"))
    names = [t["name"] for t in spec["data"]]
    assert names == ["a member lives here", "no member lives here", "members' mean"]
    members = spec["data"][0]
    assert set(members["text"]) == {"Los Angeles", "New York", "Washington", "Toronto"}
    for shape in ("diamond", "square", "circle", "vermillion"):
        assert not any(shape in n for n in names)
    lo, hi = spec["layout"]["xaxis"]["range"]  # room for the outermost names (Los Angeles at −118°)
    xs = [x for t in spec["data"] for x in t["x"]]
    assert lo <= min(xs) - 10 and hi >= max(xs) + 10
