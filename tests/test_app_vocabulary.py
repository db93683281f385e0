"""One vocabulary, one truth (issue 31 items 4 and 5): the badge, the session budget and the reviewer's panel say the
same thing about every release, derived from its Guarantee's kind (dpcore.guarantees), and not DP is red.

- the mapping itself (unit): every kind's colour, strength and words, and how it enters a budget;
- Bayesian (AppTest): the page shows the local, not-DP variant's σ and KL beside the strict release; the budget said
  "(ε = 1, δ = 1e-5)-DP". It now lists both, in the badges' words, and the total is not DP;
- TopicDP (AppTest): the badges say "DP for part of the release only" / "weaker than DP"; the budget said those
  releases "promise nothing". It now lists them in the badges' words and composes them, orange.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpcore import guarantees as G
from dpcore.lab.budget import BudgetEntry, compose_releases

ROOT = Path(__file__).resolve().parent.parent
BADGE = re.compile(r":(\w+)-badge\[(\S+) Guarantee: (?:(.+?) — )?(.*)\]$", re.S)
LINE = re.compile(r"^\d+\. \*\*(.+?)\*\* — (.*); released: ")

SAMPLES = {
    G.PURE_DP: G.pure_dp(epsilon=0.5),
    G.APPROXIMATE_DP: G.approximate_dp(epsilon=1.0, delta=1e-5),
    "DP given a non-private part": G.approximate_dp(epsilon=1.0, delta=1e-5, conditional_on="a non-private choice"),
    G.RANDOM_DP: G.random_dp(epsilon=1.0, delta=1e-5, gamma=0.1),
    G.LOCAL_SENSITIVITY: G.local_sensitivity(epsilon=1.0, delta=1e-5),
    G.K_ANONYMITY: G.k_anonymity(10),
    G.NO_PROTECTION: G.no_protection(),
}
EXPECTED = {  # colour, strength, budget standing
    G.PURE_DP: ("green", "DP", "counted"),
    G.APPROXIMATE_DP: ("green", "DP", "counted"),
    "DP given a non-private part": ("orange", "DP for part of the release only", "counted for part of the release"),
    G.RANDOM_DP: ("orange", "weaker than DP", "counted for a share of the pairs"),
    G.LOCAL_SENSITIVITY: ("red", "not DP", "not counted"),
    G.K_ANONYMITY: ("red", "not DP", "not counted"),
    G.NO_PROTECTION: ("red", "no protection", "not counted"),
}


@pytest.mark.parametrize("kind", list(SAMPLES))
def test_each_kind_has_one_colour_one_strength_and_one_standing(kind):
    """Green only for proven DP; orange for random DP and DP given a non-private part; red for everything not DP —
    local sensitivity included (issue 31 item 5: it was orange, beside random DP's "weaker than DP")."""
    g = SAMPLES[kind]
    assert (g.colour, g.strength, g.budget_standing) == EXPECTED[kind]
    assert g.words == f"{g.strength}: {g.short_label}"
    assert (g.colour == "green") == g.is_dp


@pytest.mark.parametrize("kind", list(SAMPLES))
def test_badge_budget_line_and_single_release_total_say_the_same(kind):
    """The chip's words are the Guarantee's words; the budget line of a release with that guarantee starts with the
    same words; a total over that one release has the release's colour and strength."""
    from dpui.common.charts import badge_text, guarantee_icon

    g = SAMPLES[kind]
    assert badge_text(g, name="M") == f"Guarantee: M — {g.words}"
    assert guarantee_icon(g) == {"green": "🔒", "orange": "⚠️", "red": "⛔"}[g.colour]
    event = None if g.budget_standing == "not counted" else ("approximate", g.epsilon, g.delta or 0.0, 1)
    share = (g.gamma, 0.3) if g.gamma is not None else None
    entry = BudgetEntry("M", "x", g, event, "k", share)
    assert entry.promise.startswith(g.words) and entry.colour == g.colour
    total = compose_releases([entry])
    assert (total.colour, total.strength) == (g.colour, g.strength)
    assert total.guarantee.colour == g.colour and total.guarantee.strength == g.strength
    assert (total.epsilon is None) == (g.budget_standing == "not counted")


def test_the_reviewers_budget_line_begins_with_the_strength():
    from dpcore.lab.review_budget import qualified_budget, single_budget

    base = single_budget(epsilon=1.0, delta=1e-5, name="M")
    for kind, g in SAMPLES.items():
        if g.budget_standing == "not counted" and kind != G.LOCAL_SENSITIVITY:
            continue
        text = qualified_budget(base, g).text
        if kind == G.LOCAL_SENSITIVITY:
            assert text.startswith("No privacy budget: not DP")
        else:
            assert text.startswith(f"{g.strength}: Total ε = 1"), text
    assert "share 90% of neighbouring pairs only" in qualified_budget(base, SAMPLES[G.RANDOM_DP]).text
    assert "given a non-private choice" in qualified_budget(base, SAMPLES["DP given a non-private part"]).text


# ------------------------------------------------------------------------------ the pages


def _badges(at) -> dict[str, tuple[str, str]]:
    out = {}
    for m in list(at.markdown) + list(at.sidebar.markdown):
        hit = BADGE.match(m.value.strip())
        if hit:
            colour, _, name, words = hit.groups()
            out[name or ""] = (colour, words)
    return out


def _budget(at) -> tuple[list[tuple[str, str]], str]:
    lines = [
        LINE.match(line).groups() for m in at.sidebar.markdown for line in m.value.splitlines() if LINE.match(line)
    ]
    said = list(at.sidebar.caption) + list(at.sidebar.warning)
    total = next(e.value for e in said if e.value.startswith("Compos"))
    return lines, total


def _panel_budget_lines(at) -> list[str]:
    panel = next(e for e in at.expander if "Reviewer's panel" in e.label)
    return [md.value for md in panel.markdown if md.value.startswith("- *Budget:*")]


def test_bayesian_badges_budget_and_panel_agree():
    """Issue 31 item 4 on the Bayesian page: the local, not-DP release beside the strict one is on screen (its badge,
    its σ and KL), so the budget lists it in its badge's words and the total is not DP (red), never the strict
    release's "(ε = 1, δ = 1e-5)-DP" alone; the reviewer's panel reviews both, each budget line in the same words."""
    at = AppTest.from_file(str(ROOT / "pages" / "2_Bayesian_ngram_DP.py"), default_timeout=300)
    at.query_params["review"] = "1"  # the reviewer's panel is lazy (issue 29 item 4): the link opens it
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    badges = _badges(at)
    assert badges["BayesianDP strict"][0] == "green" and badges["BayesianDP local (as in the paper)"][0] == "red"
    lines, total = _budget(at)
    assert [name for name, _ in lines] == ["BayesianDP strict", "BayesianDP local (side by side)"]
    strict_words, local_words = badges["BayesianDP strict"][1], badges["BayesianDP local (as in the paper)"][1]
    assert lines[0][1] == strict_words == "DP: (ε, δ)-DP per user (ε = 1, δ = 1e-05)"
    assert lines[1][1].startswith(local_words) and local_words.startswith("not DP: ")
    assert badges["session total"][0] == "red" and badges["session total"][1].startswith("not DP")
    assert total.startswith("Composed guarantee: not DP") and "BayesianDP local (side by side)" in total
    panel = _panel_budget_lines(at)
    assert len(panel) == 2 and panel[0].startswith("- *Budget:* DP: Total ε = 1")
    assert panel[1].startswith("- *Budget:* No privacy budget: not DP")


@pytest.mark.slow
def test_topicdp_badges_budget_and_panel_agree(tiny_topicdp):
    """Issue 31 item 4 on TopicDP: each release's budget line carries its badge's words ("DP for part of the release
    only", "weaker than DP", "DP"), none "promises nothing", and the total composes them: orange, since the matrix
    releases are DP only given the non-private choice of topics (and random DP on a sampled bound)."""
    from topicdp_env import TINY_QUERY

    at = AppTest.from_file(str(ROOT / "pages" / "4_TopicDP.py"), default_timeout=300)
    for k, v in {**TINY_QUERY, "review": "1"}.items():  # review=1: the lazy reviewer's panel open
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    badges = _badges(at)
    lines, total = _budget(at)
    assert len(lines) == 6
    badge_words = {words for name, (_, words) in badges.items() if name != "session total"}
    for name, promise in lines:
        assert promise in badge_words, (name, promise, badge_words)
    strengths = {promise.split(":")[0] for _, promise in lines}
    assert strengths == {"DP", "DP for part of the release only", "weaker than DP"}
    assert badges["session total"] == ("orange", badges["session total"][1])
    assert badges["session total"][1].startswith("weaker than DP: random DP per user")
    assert total.startswith("Composed over 6 releases: weaker than DP — (ε = ") and "nothing" not in total
    panel = _panel_budget_lines(at)
    assert len(panel) == 6 and all(p.split("*Budget:* ")[1].split(":")[0] in strengths for p in panel)
