"""AppTest checks of Mechanisms 101's exponential mechanism (issue 24 item 3): what its numbers claim."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
GREEN, RED = 1, 0  # streamlit.proto.Metric_pb2.Metric.MetricColor
CITIES = {"m101_tab": "(c) Exponential mechanism"}  # the tab of the exponential mechanism (only the open tab runs)


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
    at = run(**CITIES)
    badge = next(m.value for m in at.markdown if "(c) exponential mechanism" in m.value)
    assert badge.startswith(":red-badge") and "not DP" in badge  # not DP is red (issue 31 item 5)
    ratio = next(m for m in at.metric if m.label.startswith("worst ratio over D's"))
    assert ratio.label == "worst ratio over D's 4 neighbours" and "proves no DP" in ratio.proto.help
    bound = next(m for m in at.metric if m.label == "e^ε")
    assert bound.proto.color != GREEN and "not a DP proof" in bound.value + bound.delta
    assert "Δu is computed from D" in bound.proto.help

    broken = run(m101_sens_factor="0.1", **CITIES)  # Δu too small: the ratio exceeds e^ε, shown red
    bound = next(m for m in broken.metric if m.label == "e^ε")
    assert bound.proto.color == RED and "EXCEEDS" in bound.delta


def test_city_legend_names_what_it_draws():
    """The legend said "vermillion diamond = a member lives there" over square markers, in one entry too long for
    its column. Each kind of city is its own short legend entry, which shows its marker."""
    at = run(**CITIES)
    spec = next(
        json.loads(c.proto.spec)
        for c in at.get("plotly_chart")
        if json.loads(c.proto.spec)["layout"]["title"]["text"].replace("<br>", " ").startswith("Candidate cities")
    )
    names = [t["name"] for t in spec["data"]]
    # where the members live is the private data as it is, not a release (issue 31 item 3: the legend says so)
    assert names == [f"{n} · no noise" for n in ("a member lives here", "no member lives here", "members' mean")]
    members = spec["data"][0]
    assert set(members["text"]) == {"Los Angeles", "New York", "Washington", "Toronto"}
    for shape in ("diamond", "square", "circle", "vermillion"):
        assert not any(shape in n for n in names)
    lo, hi = spec["layout"]["xaxis"]["range"]  # room for the outermost names (Los Angeles at −118°)
    xs = [x for t in spec["data"] for x in t["x"]]
    assert lo <= min(xs) - 10 and hi >= max(xs) + 10


TABS = ["(a) Privacy loss", "(b) Global sensitivity", "(c) Exponential mechanism", "(d) Sample many times"]
KNOB = {  # a widget only the tab draws
    TABS[0]: ("radio", "m101_scale_mode"),
    TABS[1]: ("radio", "m101_debt_rule"),
    TABS[2]: ("select_slider", "m101_sens_factor"),
    TABS[3]: ("radio", "m101_sample_mech"),
}


def drawn(at: AppTest) -> set[str]:
    return {k for label, (kind, k) in KNOB.items() if k in {w.key for w in getattr(at, kind)}}


def test_only_the_open_tab_runs_and_the_reviewer_lists_its_release():
    """Issue 24: the tabs are lazy and the open one is in the URL (``m101_tab``; the first by default). Only the open
    tab draws its widgets and charts, and the reviewer's panel lists the release of that tab alone."""
    at = run()
    assert [t.label for t in at.tabs] == TABS and at.session_state["m101_tab"] == TABS[0]
    assert drawn(at) == {"m101_scale_mode"} and len(at.get("vega_lite_chart")) == 1 and not at.get("plotly_chart")
    reviewed = {
        TABS[0]: ["(a) Laplace on a count"],
        TABS[1]: ["(b) Laplace on the total debt"],
        TABS[2]: ["(c) Exponential mechanism"],
        TABS[3]: [],
    }  # (d) has no release to review
    for label, (_, key) in KNOB.items():
        at = run(m101_tab=label, review="1")  # a shared link opens the same tab (and the lazy reviewer's panel)
        assert drawn(at) == {key}, label
        panel = next(e for e in at.expander if "Reviewer's panel" in e.label)
        assert [m.value.strip("*") for m in panel.markdown if m.value.startswith("**(")] == reviewed[label]


def test_exercises_and_the_preset_open_the_tab_of_their_knobs():
    """An exercise sets the knobs of one tab: its link opens that tab (over a tab named in the same link), once, so
    the student can move on. The lecture preset sets (a)'s scale mode: it opens (a)."""
    for ex_id, tab in (("m101-debt-which-pair", TABS[1]), ("m101-exp-small-du", TABS[2]), ("m101-loss-b2", TABS[0])):
        at = run(exercise=ex_id, m101_tab=TABS[3])
        assert at.session_state["m101_tab"] == tab and drawn(at) == {KNOB[tab][1]}, ex_id
    at.query_params["m101_tab"] = TABS[3]
    at.run()
    assert at.session_state["m101_tab"] == TABS[3] and drawn(at) == {"m101_sample_mech"}
    at = run(m101_tab=TABS[2])
    at.session_state["paper_vs_here_open_1_Mechanisms_101"] = True  # the section is lazy (issue 29): open it
    at.run()
    at.button(key="paper_preset_1_Mechanisms_101").click().run()
    assert at.session_state["m101_tab"] == TABS[0] and at.radio(key="m101_scale_mode").value == "from ε"


def test_the_debt_formula_keeps_its_thousands_together():
    # issue 31 item 11: st.latex rendered "2,800,798" as "2, 800, 798" (a bare comma is punctuation in TeX)
    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "pages" / "1_Mechanisms_101.py"))
    at.query_params["m101_tab"] = "(b) Global sensitivity"
    at.query_params["m101_debt_rule"] = "largest debt"
    at.run(timeout=120)
    formulas = [e.value for e in at.get("markdown") if "frac" in e.value] + [
        e.proto.body for e in at.get("latex") if hasattr(e, "proto")
    ]
    assert any("2{,}800{,}798" in f for f in formulas), formulas
    assert not any("2,800,798" in f for f in formulas)


def badge_names(at: AppTest) -> list[tuple[str, str]]:
    """(colour, chip) of every guarantee chip on the page outside the reviewer's panel (which repeats its release's)."""
    panel = {m.value for e in at.expander if "Reviewer's panel" in e.label for m in e.markdown}
    out = []
    for m in at.markdown:
        # the grey "demonstration" chip of the reproducible noise mode (dpui.common.noise) is not a guarantee chip
        if m.value.startswith(":") and "-badge[" in m.value and m.value not in panel and "Guarantee:" in m.value:
            colour = m.value[1 : m.value.index("-badge")]
            out.append((colour, m.value))
    return out


def test_the_badge_above_the_tabs_is_the_open_tabs_release():
    """Issue 31 item 6: a green "Laplace … DP" badge sat above the tabs while (b) and (c) showed orange "not DP".
    The page's badges are the open tab's release, in that release's colour: never a green one beside a not-DP tab."""
    expect = {
        TABS[0]: ("green", "(a) counting query"),
        TABS[1]: ("red", "(b) total debt"),  # b from the data's largest debt: a local sensitivity, not DP (red)
        TABS[2]: ("red", "(c) exponential mechanism"),  # Δu computed from D: not DP
        TABS[3]: ("red", "(d) the sampled exponential mechanism"),
    }
    for tab, (colour, name) in expect.items():
        found = badge_names(run(m101_tab=tab))
        assert len(found) == 1 and found[0][0] == colour and name in found[0][1], (tab, found)
    found = badge_names(run(m101_tab=TABS[1], m101_debt_rule="cap"))  # b = cap/ε: the global sensitivity, ε-DP
    assert [c for c, _ in found] == ["green"]
    found = badge_names(run(m101_tab=TABS[3], m101_sample_mech="Laplace"))
    assert [c for c, _ in found] == ["green"]


def test_a_public_utility_bound_makes_the_exponential_mechanism_dp():
    """Issue 31 item 6: tab (c) had no setting that makes it DP (Δu only scaled the Δu measured on D). With a public
    bound B the utilities are clipped to [0, B] and Δu = B: the badge is green ε-DP, the metric names B (not a Δu
    computed from D), and the factor knob, which only scales the measured Δu, is not drawn."""
    at = run(m101_exp_rule="public bound B", m101_exp_bound="0.2", eps="2", **CITIES)
    (badge,) = badge_names(at)
    assert badge[0] == "green" and "ε = 2" in badge[1] and "(c) exponential mechanism" in badge[1]
    assert next(m.value for m in at.metric if m.label == "public Δu = B") == "0.2"
    assert not any(m.label == "computed Δu" for m in at.metric)
    assert "m101_sens_factor" not in {w.key for w in at.select_slider}
    bound = next(m for m in at.metric if m.label == "e^ε")
    assert "as ε-DP promises" in bound.delta and "every society" in bound.proto.help


def test_clipped_exponential_mechanism_keeps_the_ratio_on_every_society():
    """The privacy claim of the public bound, brute force: over random societies of 1–6 members placed on the
    candidate cities or anywhere, and every remove-one neighbour, no city's probability ratio exceeds e^ε; the same
    Δu = B without the clip breaks it on some society (so the check can fail)."""
    import numpy as np

    from dpcore.lab.lecture import CANDIDATE_CITIES, city_utilities
    from dpcore.mechanisms.exponential import exponential_mechanism_probabilities

    cities = np.array(list(CANDIDATE_CITIES.values()))
    rng = np.random.default_rng(7)
    eps, B, worst_clipped, worst_unclipped = 0.7, 0.2, 0.0, 0.0
    for _ in range(400):
        members = rng.uniform(cities.min(0) - 5, cities.max(0) + 5, size=(int(rng.integers(2, 7)), 2))
        if rng.random() < 0.5:  # members living in the candidate cities (utility up to 1/min_distance)
            members[: len(members) // 2] = cities[rng.integers(0, len(cities), len(members) // 2)]
        u = city_utilities(members, cities)
        p = exponential_mechanism_probabilities(np.minimum(u, B), epsilon=eps, sensitivity=B)
        for j in range(len(members)):
            un = city_utilities(np.delete(members, j, axis=0), cities)
            q = exponential_mechanism_probabilities(np.minimum(un, B), epsilon=eps, sensitivity=B)
            worst_clipped = max(worst_clipped, float(np.max(np.maximum(p / q, q / p))))
            pu = exponential_mechanism_probabilities(u, epsilon=eps, sensitivity=B)  # Δu = B without the clip
            qu = exponential_mechanism_probabilities(un, epsilon=eps, sensitivity=B)
            with np.errstate(divide="ignore"):  # an unclipped utility of 1000 underflows a probability to 0: ratio ∞
                worst_unclipped = max(worst_unclipped, float(np.max(np.maximum(pu / qu, qu / pu))))
    assert worst_clipped <= np.exp(eps) * (1 + 1e-9)
    assert worst_unclipped > np.exp(eps)  # the clip is what makes B a bound: without it the check fails
