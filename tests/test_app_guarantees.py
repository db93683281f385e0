"""AppTest over every page: each badge's kind matches its mechanism (no green for a sensitivity measured on
the private data), the reviewer's panel exists everywhere, and each reviewer warning fires on its settings.

Badges are st.badge elements, which AppTest sees as markdown ``:<colour>-badge[<icon> Guarantee: <name> —
<strength>: <label>]`` (dpui.common.charts.badge_text): colour, icon and words all derived from a Guarantee.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore import corpus_from_records

ROOT = Path(__file__).resolve().parent.parent
BADGE = re.compile(r":(\w+)-badge\[(\S+) Guarantee: (?:(.+?) — )?([^:]+): (.*)\]$", re.S)
PAGES = {
    "app.py": {
        "Laplace (cap W)": "green",
        "Laplace + public": "red",
        "BayesianDP local (as in the paper)": "red",
        "BayesianDP strict (L, N_max caps)": "green",
        "EndToEndDP": "red",
        "k-anonymity": "red",
        "DPNE": "green",
        "TopicDP": "orange",
        "TopicDP corrected": "orange",
        "TopicDP strict": "orange",
        "MVG": "orange",
        "Laplace on the matrix": "orange",
        "VIPS-LDA": "green",
        "Bank debt, b from the data": "red",
        "Private baseline": "red",
    },
    "pages/1_Mechanisms_101.py": {"(a) counting query": "green"},  # the badge above the tabs: the open tab's
    "pages/1_Mechanisms_101.py?m101_tab=(b) Global sensitivity": {"(b) total debt": "red"},  # b from the data: not DP
    "pages/1_Mechanisms_101.py?m101_tab=(b) Global sensitivity&m101_debt_rule=cap": {"(b) total debt": "green"},
    "pages/1_Mechanisms_101.py?m101_tab=(c) Exponential mechanism": {  # a lazy tab: opened through the URL
        "(c) exponential mechanism": "red",
    },
    "pages/1_Mechanisms_101.py?m101_tab=(c) Exponential mechanism&m101_exp_rule=public bound B": {
        "(c) exponential mechanism": "green",  # issue 31 item 6: a public Δu bound on clipped utilities is ε-DP
    },
    "pages/1_Mechanisms_101.py?m101_tab=(d) Sample many times": {"(d) the sampled exponential mechanism": "red"},
    "pages/2_Bayesian_ngram_DP.py": {
        "BayesianDP strict": "green",
        "BayesianDP strict (DP)": "green",
        "BayesianDP local (as in the paper)": "red",
        "k-anonymity": "red",
    },
    "pages/3_DP_ngram_extraction.py": {"DPNE": "green", "DPSU-single": "green"},
    "pages/4_TopicDP.py": {
        "TopicDP (as in the thesis)": "orange",
        "TopicDP corrected": "orange",
        "TopicDP strict": "orange",
        "MVG with sampled s₂": "orange",
        "Laplace": "orange",
        "VIPS-LDA": "green",
    },
}
OPEN_TAB = {"pages/2_Bayesian_ngram_DP.py": {"bayes_tab": "k-anonymity vs ε"}}
"""Lazy tabs (issue 24): the tab that shows a badge listed above (its other badges are outside the tabs)."""
LOCAL_WORDS = (
    "local sensitivity",
    "measured",
    "this corpus' neighbours",
    "not even for this corpus",
    "b set from the data",
)


def badges(at) -> list[tuple[str, str, str, str, str]]:
    out = []
    for m in at.markdown:
        hit = BADGE.match(m.value.strip())
        if hit:
            out.append(hit.groups())
    return out


ICON_COLOUR = {"🔒": "green", "⚠️": "orange", "⛔": "red"}


def home_rows(at) -> list[tuple[str, str, str, str, str]]:
    """The Home page's ONE guarantee table (issue 24 item 5: it replaced the Home page's chips), as badges():
    (colour, icon, mechanism, strength, full sentence); its "level" column is "<icon> <strength>"."""
    table = next(d for d in at.table if "guarantee" in d.value.columns).value
    out = []
    for mech, level, sentence in zip(table["mechanism"], table["level"], table["guarantee"]):
        icon, strength = level.split(" ", 1)
        out.append((ICON_COLOUR[icon], icon, mech, strength, sentence))
    return out


def run(path, **params):
    path, _, query = path.partition("?")  # "page?key=value": a view of the page, e.g. one of its tabs
    params = {**dict(kv.split("=", 1) for kv in query.split("&") if kv), **params}
    at = AppTest.from_file(str(ROOT / path), default_timeout=300)
    if "TopicDP" in path:  # sampled sensitivities ship for the synthetic classroom sample (not yet for the chat)
        params = {"corpus": "classroom", **params}
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


@pytest.mark.parametrize("path", list(PAGES))
def test_every_badge_matches_its_mechanism(path):
    at = run(path, **OPEN_TAB.get(path, {}))
    found = badges(at) if path != "app.py" else home_rows(at)  # the Home page: one table, no chips
    assert found, f"no guarantee badge on {path}"
    by_name = {}
    for colour, icon, name, words, label in found:
        by_name.setdefault(name, set()).add(colour)
        # colour, icon and words agree (all derived from one Guarantee kind)
        assert {"green": "🔒", "orange": "⚠️", "red": "⛔"}[colour] == icon
        if colour == "green" and path != "app.py":  # a chip's short label (the Home table holds full sentences)
            assert words == "DP" and ("ε-DP per user" in label or "(ε, δ)-DP per user" in label), label
        if colour == "green":
            assert not any(w in label for w in LOCAL_WORDS), f"green badge for a measured sensitivity: {label}"
        if any(w in label for w in ("local sensitivity", "measured sensitivity")):
            assert colour == "red" and words == "not DP"  # not DP is red (issue 31 item 5)
    for name, colour in PAGES[path].items():
        assert by_name.get(name) == {colour}, (name, by_name.get(name), sorted(by_name))


CHIP_MAX = 110
"""Longest chip text (the chips wrap in a narrow column instead of being cut; the browser test checks that)."""


@pytest.mark.parametrize("path", list(PAGES))
def test_every_chip_is_short_and_its_full_sentence_is_on_hover(path):
    """Issue 24 item 7: chips were cut with "…" where the qualifier is. A chip holds the short label; its tooltip
    holds the full label (every qualifier: scope, what the proof does not cover) and the promise."""
    from dpcore import guarantees as G

    at = run(path, **OPEN_TAB.get(path, {}))
    chips = [(m, BADGE.match(m.value.strip())) for m in at.markdown]
    chips = [(m, hit) for m, hit in chips if hit]
    if path == "app.py":  # issue 24 item 5: the Home page has no chips, its table holds every full sentence
        assert not chips, [m.value for m, _ in chips]
        sentences = " ".join(row[4] for row in home_rows(at))
        assert "not for all lengths together" in sentences and "non-private choice of topics and keywords" in sentences
        assert G.local_sensitivity(epsilon=1.0, delta=1e-5).label.split(";")[0] in sentences
        return
    assert chips, f"no guarantee chip on {path}"
    for m, hit in chips:
        assert len(m.value.split("[", 1)[1]) <= CHIP_MAX, m.value
        words = hit.group(4)
        tooltip = m.proto.help
        assert tooltip.startswith(f"**{words}: ") and tooltip.count("**") == 2, (m.value, tooltip)
        label = tooltip[len(f"**{words}: ") :].split(".**", 1)[0]
        assert hit.group(5).split(" (")[0] in label or hit.group(5) == "the private data as it is", (m.value, label)
        assert tooltip.split(".**", 1)[1].strip(), f"no promise behind {m.value}"


def _home_labels(at) -> dict:
    table = next(d for d in at.table if "guarantee" in d.value.columns)
    return dict(zip(table.value["mechanism"], table.value["guarantee"]))


def test_home_page_names_the_caps_the_bayesian_page_uses():
    """Issue 24 item 2: the home page said W = 10 and N_max = 2400 (hard-coded) where the Bayesian page uses W = 2
    and N_max = 10,000. Its labels name the values read off the page itself, at its defaults and after a change
    in the same session."""
    page = run("pages/2_Bayesian_ngram_DP.py")
    W, K = page.slider(key="bayes_W").value, page.select_slider(key="bayes_K").value
    L, N_max = page.slider(key="bayes_L").value, page.select_slider(key="bayes_Nmax").value
    labels = _home_labels(run("app.py"))
    assert f"W = {W} counts" in labels["Laplace (cap W)"], labels["Laplace (cap W)"]
    strict = labels["BayesianDP strict (L, N_max caps)"]
    assert f"L = {L} items" in strict and f"N_max = {N_max} users" in strict, strict
    assert f"K = {K}" in labels["k-anonymity"]

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("pages/2_Bayesian_ngram_DP.py").run()
    at.slider(key="bayes_W").set_value(5).run()
    at.select_slider(key="bayes_Nmax").set_value(20_000).run()
    at.switch_page("app.py").run()
    assert not at.exception, [e.message for e in at.exception]
    labels = _home_labels(at)
    assert "W = 5 counts" in labels["Laplace (cap W)"]
    assert "N_max = 20000 users" in labels["BayesianDP strict (L, N_max caps)"]


@pytest.mark.parametrize("path", [p for p in PAGES if p != "app.py"])
def test_reviewer_panel_on_every_page(path):
    at = run(path)
    panels = [e for e in at.expander if "Reviewer's panel" in e.label]
    assert len(panels) == 1 and panels[0].proto.expanded is False
    at = run(path, review="1")
    assert [e for e in at.expander if "Reviewer's panel" in e.label][0].proto.expanded is True


# ---------------------------------------------------------------------------------------------- warnings


WORDS = (
    "the cat sat on the mat and the dog ran in the park . a man saw the old house near the river . "
    "she said that the day was long and the night was cold ."
).split()


def _corpus(n_users: int, words_per_user: int = 6):
    records = []
    for u in range(n_users):
        w = [WORDS[(u * 7 + j * 3) % len(WORDS)] for j in range(words_per_user)]
        records.append({"user": f"u{u}", "text": " ".join(w) + "."})
    return corpus_from_records(records, user_field="user", text_field="text", name=f"{n_users} users")


def _with_corpus(path, corpus, **params):
    at = AppTest.from_file(str(ROOT / path), default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.query_params["review"] = "1"  # the reviewer's panel is lazy (issue 29 item 4): its warnings need it open
    for k, v in params.items():
        at.query_params[k] = v
    at.session_state["_uploaded_corpus"] = corpus
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def panel_warnings(at) -> str:
    return " ".join(w.value for w in at.warning)


def test_warning_delta_vs_users_and_cap_above_median():
    at = _with_corpus("pages/2_Bayesian_ngram_DP.py", _corpus(1200), delta="0.001")
    text = panel_warnings(at)
    assert dpcore.lab.REVIEW_RULES["delta-vs-users"] in text and "1/(number of users) = 1/1200" in text
    assert (
        dpcore.lab.REVIEW_RULES["cap-above-median"] in text and "item cap L 50 is larger than the median user's" in text
    )


def test_warning_few_users():
    at = _with_corpus("pages/2_Bayesian_ngram_DP.py", _corpus(30))
    text = panel_warnings(at)
    assert dpcore.lab.REVIEW_RULES["few-users"] in text and "The corpus has 30 users" in text


def test_warning_classic_gaussian():
    at = run("pages/2_Bayesian_ngram_DP.py", review="1", bayes_calibration="classic", eps="2")
    text = panel_warnings(at)
    assert dpcore.lab.REVIEW_RULES["classic-gaussian"] in text
    true = dpcore.mechanisms.classic_true_delta(epsilon=2.0, delta=1e-5)
    assert f"its true δ is {true:.3g}" in text
    at = run("pages/2_Bayesian_ngram_DP.py", review="1", eps="2")  # auto: analytic at ε ≥ 1, no warning
    assert dpcore.lab.REVIEW_RULES["classic-gaussian"] not in panel_warnings(at)


def test_warning_epsilon_large():
    at = run("pages/1_Mechanisms_101.py", review="1", m101_scale_mode="by hand", m101_b="0.05")
    text = panel_warnings(at)
    assert dpcore.lab.REVIEW_RULES["epsilon-large"] in text and "ε = 20" in text


def test_warning_gamma_large():
    at = run("pages/4_TopicDP.py", review="1", topicdp_gamma="0.2")
    text = panel_warnings(at)
    assert dpcore.lab.REVIEW_RULES["gamma-large"] in text and "γ = 0.2" in text


@pytest.mark.parametrize("corpus", ["classroom", "chat"])
def test_vips_is_the_only_green_badge_on_the_topicdp_page(corpus):
    """Issue 23: green on the TopicDP page only for VIPS-LDA, whose proof covers the whole release — the topic–word
    matrix and the topics and keywords chosen from it; the five matrix mechanisms choose them without noise."""
    at = run("pages/4_TopicDP.py", corpus=corpus)
    found = badges(at)
    green = {name for colour, _, name, _, _ in found if colour == "green"}
    assert green == {"VIPS-LDA"}, sorted((c, n) for c, _, n, _, _ in found)
    vips = [(m.value, m.proto.help) for m in at.markdown if BADGE.match(m.value.strip()) and "VIPS-LDA" in m.value]
    assert vips and all("(ε, δ)-DP per user (ε = 1, δ = 1e-05)" in chip for chip, _ in vips)
    assert all("whole topic–word matrix" in tip and "post-processing" in tip for _, tip in vips)
    assert not any("non-private choice" in tip for _, tip in vips)
