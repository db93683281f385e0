"""The data choice in the sidebar and the URL (issue 20: the real chat by default; issue 8: the synthetic sizes),
old links, and "Paper vs here" (issue 8 item 3).

Fast: the paper size is a 300-user stand-in here (``small_paper_size`` in tests/conftest.py); the real
paper corpus is exercised by tests/test_paper_scale_pages.py (slow). The paper's numbers are never typed
in these tests: the expected values come from dpcore.lab.paper_results.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from paper_env import PAPER_STAND_IN_USERS, table4_shape, table4_verdict_start
from paper_env import run_page as run
from streamlit.testing.v1 import AppTest

from dpcore.lab import paper_results as pr

pvh = importlib.import_module(
    "dpui.common.paper_vs_here"
)  # the module (dpui.common.paper_vs_here is also the function's name)

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "1_Mechanisms_101": "pages/1_Mechanisms_101.py",
    "2_Bayesian_ngram_DP": "pages/2_Bayesian_ngram_DP.py",
    "3_DP_ngram_extraction": "pages/3_DP_ngram_extraction.py",
    "4_TopicDP": "pages/4_TopicDP.py",
}
RESULTS = json.loads(pvh.RESULTS_PATH.read_text(encoding="utf-8"))


def sidebar_text(at: AppTest) -> str:
    return " ".join(c.value for c in at.sidebar.caption)


def paper_tables(at: AppTest):
    return [d.value for d in at.dataframe if "paper source" in d.value.columns]


def paper_table(at: AppTest):
    """The table of the section's main entry: the only one, or (TopicDP) the synthetic one after the real chat's."""
    tables = paper_tables(at)
    assert len(tables) in (1, 2), f"expected one or two paper-vs-here tables, found {len(tables)}"
    return tables[-1]


def widget_value(at: AppTest, key: str):
    for kind in ("select_slider", "slider", "number_input", "radio", "selectbox", "toggle", "checkbox"):
        found = [w for w in at.get(kind) if getattr(w, "key", None) == key]
        if found:
            return found[0].value
    raise AssertionError(f"no widget with key {key!r} on the page")


# ------------------------------------------------------------------------------ the data choice
REAL = {"private": 920, "public": 395}  # the real chat's fixed split of its 1,315 people


def links(at: AppTest) -> list[dict]:
    return [parse_qs(link.proto.query_string) for link in at.sidebar.get("page_link")]


def test_default_data_is_the_real_chat():
    at = run("app.py")
    assert at.radio(key="corpus").value == "chat"
    assert at.radio(key="corpus").options == ["chat", "classroom", "paper", "upload"]
    text = sidebar_text(at)
    assert (
        f"Private data: real chat (BYU Chit-Chat 2018), private part: 920 of 1,315 people — {REAL['private']} users"
        in text
    )
    assert (
        f"Public data (prior / vocabulary): other people of the same chat: {REAL['public']} people, a fixed seeded "
        "30 % split of the 1,315 people"
    ) in text
    assert f"1/(number of users) = 1/{REAL['private']}" in text  # δ's caption follows the chosen data
    assert all("corpus" not in q for q in links(at))  # the default is left out of the links


def test_data_choice_from_the_url_loads_the_paper_corpus(small_paper_size):
    at = run("app.py", corpus="paper")
    assert at.radio(key="corpus").value == "paper"
    text = sidebar_text(at)
    assert f"Private data: generated sample corpus (paper size) — {PAPER_STAND_IN_USERS['private']:,} users" in text
    assert f"paper-size public sample, {PAPER_STAND_IN_USERS['public']:,} users" in text
    assert f"1/(number of users) = 1/{PAPER_STAND_IN_USERS['private']}" in text
    # the first paper-size load of the process reports to a progress bar (dpcore's progress callback)
    assert ("private", "paper", True) in small_paper_size and ("public", "paper", True) in small_paper_size
    assert all(q["corpus"] == ["paper"] for q in links(at))  # the navigation carries it on


def test_bad_corpus_in_a_link_warns_and_keeps_the_real_chat():
    at = run("app.py", corpus="huge")
    assert at.radio(key="corpus").value == "chat"
    assert any("corpus=huge" in w.value and "chat, classroom, paper or upload" in w.value for w in at.warning)


@pytest.mark.parametrize(
    "params, choice",
    [
        ({"corpus": "sample", "size": "classroom"}, "classroom"),
        ({"corpus": "sample", "size": "paper"}, "paper"),
        ({"size": "paper"}, "paper"),  # corpus=sample was the default then, so old links left it out
        ({"size": "classroom"}, "classroom"),
        ({"corpus": "sample"}, "classroom"),  # and so was size=classroom
        ({"corpus": "upload"}, "upload"),
        ({"corpus": "upload", "size": "paper"}, "upload"),
    ],
)
@pytest.mark.parametrize("script", ["app.py", "pages/1_Mechanisms_101.py"])
def test_old_links_open_the_data_they_opened_before(params, choice, script, small_paper_size):
    """Links from before the real chat became the default (corpus=sample|upload, size=classroom|paper) open the
    same data, shown or hidden, and the page's own links carry the new parameter only."""
    at = run(script, **params)
    if script != "pages/1_Mechanisms_101.py":  # shows the data choice
        assert at.radio(key="corpus").value == choice
        want = {
            "classroom": "shipped sample corpus (classroom size) — 3,000 users",
            "paper": f"generated sample corpus (paper size) — {PAPER_STAND_IN_USERS['private']:,} users",
            "upload": "no usable upload in this session; the page waits for a file",
        }[choice]  # issue 25
        assert f"Private data: {want}" in sidebar_text(at)
    hrefs = [m.value for m in at.sidebar.markdown if "](" in m.value] + [
        l.proto.query_string for l in at.sidebar.get("page_link")
    ]
    assert hrefs and all(f"corpus={choice}" in h and "size=" not in h for h in hrefs)
    # no warning about the link (the 📄 one says that an upload is missing, issue 25)
    assert not [w for w in at.warning if ("corpus=" in w.value or "size=" in w.value) and w.icon != "📄"]


def test_old_link_with_an_unknown_size_warns_and_opens_the_classroom_sample():
    at = run("app.py", size="huge")
    assert at.radio(key="corpus").value == "classroom"
    assert any("size=huge" in w.value and "classroom or paper" in w.value for w in at.warning)


def test_data_choice_persists_across_pages(small_paper_size):
    at = run("app.py")
    at.radio(key="corpus").set_value("paper").run()
    at.switch_page("pages/1_Mechanisms_101.py").run()  # shows no data: the choice is hidden, and kept
    assert not at.exception, [e.message for e in at.exception]
    assert "corpus" not in [r.key for r in at.sidebar.radio]
    assert all(q["corpus"] == ["paper"] for q in links(at))
    at.switch_page("pages/3_DP_ngram_extraction.py").run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.radio(key="corpus").value == "paper"
    assert f"(paper size) — {PAPER_STAND_IN_USERS['private']:,} users" in sidebar_text(at)


def test_upload_replaces_the_private_data_and_keeps_the_chats_public_part():
    from dpcore import corpus_from_records
    from dpui.common.corpus_panel import UPLOADED_KEY

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.run()  # no file yet: the page says it waits for one and computes nothing on other data (issue 25)
    assert "Private data: no usable upload in this session; the page waits for a file." in sidebar_text(at)
    assert any("Nothing is computed on another corpus" in w.value for w in at.warning)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.session_state[UPLOADED_KEY] = corpus_from_records(
        [{"user": f"u{i}", "text": "a cat sat. a dog ran."} for i in range(9)],
        user_field="user",
        text_field="text",
        name="mine",
    )
    at.run()
    assert not at.exception
    text = sidebar_text(at)
    assert "Private data: uploaded: mine — 9 users" in text
    assert f"the real chat's public part, {REAL['public']} people (a fixed seeded 30 % split" in text
    assert "1/(number of users) = 1/9" in text


# ------------------------------------------------------------------------------ the preset
def test_preset_values_come_from_dpcore_paper_results():
    t4 = pvh.preset("3_DP_ngram_extraction", RESULTS["comparisons"].get("table4"))
    s = pr.TABLE4_SETTINGS
    assert (t4["eps"], t4["delta"], t4["dpne_delta0"], t4["dpne_eta"], t4["dpne_T"]) == (
        s["epsilon"],
        s["delta"],
        s["contribution_limit"],
        s["eta"],
        s["max_length"],
    )
    assert t4["corpus"] == "chat" and "size" not in t4  # the real chat first (issue 20)
    assert pvh.preset("3_DP_ngram_extraction", RESULTS["comparisons"].get("table4"), data="paper")["corpus"] == "paper"
    b = pvh.preset("2_Bayesian_ngram_DP")
    assert (b["eps"], b["bayes_n"]) == (pr.FIG1_SETTINGS["epsilon"], pr.FIG1_SETTINGS["n"])
    assert b["bayes_mode"] == "local"  # the paper's γ, measured on the corpus (what compare_bayesian_fig1 runs)
    tp = pvh.preset("4_TopicDP", RESULTS["comparisons"].get("topicdp_fig52"))
    s = pr.TOPICDP_SETTINGS
    assert (tp["eps"], tp["topicdp_gamma"], tp["topicdp_m"], tp["topicdp_n"], tp["delta"]) == (
        s["epsilon"],
        s["gamma"],
        s["m"],
        s["n"],
        s["delta"],
    )
    assert pvh.preset("1_Mechanisms_101") == {"eps": pr.LECTURE_SETTINGS["epsilon"], "m101_scale_mode": "from ε"}
    with pytest.raises(ValueError, match="page must be one of"):
        pvh.preset("5_Privacy_audit")


@pytest.mark.parametrize("page", list(PAGES))
def test_preset_button_sets_every_stated_widget(page, small_paper_size):
    at = run(PAGES[page], eps="0.5", delta="1e-06", m101_scale_mode="by hand")
    wanted = pvh.preset(page, RESULTS["comparisons"].get(pvh.SECTIONS[page].entry))
    assert any(widget_value(at, k) != v for k, v in wanted.items())  # the test starts away from the preset
    at.button(key=f"{pvh.PRESET_KEY}_{page}").click().run()
    assert not at.exception, [e.message for e in at.exception]
    for key, value in wanted.items():
        assert widget_value(at, key) == value, key
    if pvh.SECTIONS[page].real:  # the real chat first; a second button for the synthetic paper size
        assert wanted["corpus"] == "chat"
        at.button(key=f"{pvh.PRESET_KEY}_{page}_paper").click().run()
        assert not at.exception, [e.message for e in at.exception]
        assert widget_value(at, "corpus") == "paper" and widget_value(at, "eps") == wanted["eps"]
    # the widgets stay movable after the preset (it is applied once, by the button's callback)
    at.select_slider(key="eps").set_value(1.0).run()
    assert widget_value(at, "eps") == 1.0


# ------------------------------------------------------------------------------ the table
def _expected_paper_cells(page: str) -> set[str]:
    if page == "3_DP_ngram_extraction":
        values = [v for vs in pr.TABLE4.values.values() for v in vs] + list(pr.FIG4_COVERAGE.values.values())
    elif page == "1_Mechanisms_101":
        values = list(pr.LECTURE_001.values.values())
    elif page == "2_Bayesian_ngram_DP":
        values = list(pr.FIG1_BAYES.values.values())
    else:
        values = [pr.FIG52_TOPICDP.values[m][1] for m in ("TopicDP", "MVG")]  # the 10 × 10 end of Fig. 5.2's range
    return {pvh.fmt_paper(v) for v in values}


@pytest.mark.parametrize("page", list(PAGES))
def test_table_shows_the_papers_numbers_from_paper_results(page, small_paper_size):
    section = pvh.SECTIONS[page]
    entry = pvh.live_entry(section) if section.live else RESULTS["comparisons"][section.entry]
    at = run(PAGES[page])
    table = paper_table(at)
    assert _expected_paper_cells(page) <= set(table["paper"])
    reported = getattr(pr, entry["reported"])
    assert set(table.loc[table["paper"] != "—", "paper source"]) == {reported.source}
    shown = [e.value for e in (*at.success, *at.warning)]
    real = (
        RESULTS["comparisons"][section.real] if section.real else (entry or {}).get("real")
    )  # TopicDP: inside its entry
    if real is None:
        assert list(table["here"]) == [pvh.fmt(r["here"]) for r in entry["rows"]]
        assert pvh.verdict(entry) in shown
    else:  # the real chat's numbers first, the synthetic corpus's beside them; "—" where one was not measured
        mine = {r["quantity"]: pvh.fmt(r["here"]) for r in real["rows"]}
        synthetic = {r["quantity"]: pvh.fmt(r["here"]) for r in entry["rows"]}
        assert list(table["quantity"])[: len(real["rows"])] == [r["quantity"] for r in real["rows"]]
        assert set(table["quantity"]) == set(mine) | set(synthetic)
        assert list(table[pvh.REAL_COLUMN]) == [mine.get(q, "—") for q in table["quantity"]]
        assert list(table[pvh.synthetic_column(entry)]) == [synthetic.get(q, "—") for q in table["quantity"]]
        assert pvh.REAL_LABEL + pvh.verdict(real) in shown and pvh.synthetic_label(entry) + pvh.verdict(entry) in shown
    if section.live:  # the lecture: computed on the page, from the lecture's own data
        assert any(
            f"Computed now by `dpcore.lab.paper_results.{section.live.__name__}()`" in c.value for c in at.caption
        )
        return
    assert any(
        f"Measured by `{pvh.SCRIPT}`" in c.value
        and entry["corpus"]["content_hash"][:12] in c.value
        and entry["date"] in c.value
        for c in at.caption
    )


def test_shipped_paper_column_is_dpcore_paper_results():
    """Every "paper" number in sample_data/paper_comparisons.json is the transcription in dpcore.lab.paper_results
    (the compare functions copied it there): a corrected transcription makes this fail until the script reruns."""
    c = RESULTS["comparisons"]
    t4 = {r["quantity"]: r["paper"] for r in c["table4"]["rows"]}
    for name, values in pr.TABLE4.values.items():
        assert [t4[f"{name}, k = {k}"] for k in range(1, 10)] == list(values)
    share = pr.FIG4_COVERAGE.values["k = 6, 7, 8"]
    assert [t4[f"DPNE coverage of {k}-grams used by ≥ 100 users"] for k in range(1, 10)] == [
        share if k in (6, 7, 8) else None for k in range(1, 10)
    ]
    assert [r["paper"] for r in c["table4"]["table2"]["rows"]] == list(pr.TABLE2_REDDIT.values["Reddit"])
    bayes = {r["quantity"]: r["paper"] for r in c["bayesian_fig1"]["rows"]}
    assert bayes["KL reduction vs Laplace"] == pr.FIG1_BAYES.values["reduction"]
    for e in (c["topicdp_fig52"], c["topicdp_fig52"]["real"]):
        tdp = {r["quantity"].rsplit(", ", 1)[1]: r["paper"] for r in e["rows"]}
        assert tdp == {
            "TopicDP": pr.FIG52_TOPICDP.values["TopicDP"][1],
            "MVG": pr.FIG52_TOPICDP.values["MVG"][1],
            "Laplace": None,
            "TopicDP corrected": None,
            "TopicDP strict": None,
        }
    for name, entry in ((n, e) for n, e in c.items() if not n.endswith("_reason")):  # reasons: their own test
        base = {"table4": "TABLE4_SETTINGS", "bayesian_fig1": "FIG1_SETTINGS", "topicdp_fig52": "TOPICDP_SETTINGS"}[
            name.removesuffix("_chat")
        ]
        extra = {k: entry["settings"][k] for k in ("delta_s", "L", "N_max") if k in entry["settings"]}
        assert entry["settings"] == {**getattr(pr, base), **extra}
        assert set(extra) == (
            {"delta_s"} if name == "topicdp_fig52" else {"L", "N_max"} if name == "bayesian_fig1_chat" else set()
        )
        assert entry["seeds"] >= 5 and entry["corpus"]["content_hash"] and entry["date"] and entry["commit"]
    # the real chat's Table 4 and Fig. 1 carry the same transcription
    chat = {r["quantity"]: r["paper"] for r in c["table4_chat"]["rows"]}
    assert all(chat[q] == p for q, p in t4.items())
    assert {r["quantity"]: r["paper"] for r in c["bayesian_fig1_chat"]["rows"]}[
        "KL reduction vs Laplace"
    ] == pr.FIG1_BAYES.values["reduction"]


def test_verdicts_in_the_file_follow_the_numbers():
    """The shipped verdicts are the compare functions' and agree with the numbers beside them."""
    c = RESULTS["comparisons"]
    for name in ("table4", "table4_chat"):
        shape = table4_shape(c[name]["rows"])
        assert c[name]["reproduced"] == shape
        assert c[name]["verdict"].startswith(table4_verdict_start(c[name]["rows"]) + ":")
    for name in ("bayesian_fig1", "bayesian_fig1_chat"):
        b = {r["quantity"]: r["here"] for r in c[name]["rows"]}
        assert c[name]["reproduced"] == (b["KL, BayesianDP"] < b["KL, Laplace"])
    strict = {r["quantity"]: r["here"] for r in c["bayesian_fig1_chat"]["rows"]}
    assert strict["KL reduction vs Laplace, strict"] == pytest.approx(
        1 - strict["KL, BayesianDP strict (DP)"] / strict["KL, Laplace"]
    )
    t = {r["quantity"].rsplit(", ", 1)[1]: r["here"] for r in c["topicdp_fig52"]["rows"]}
    assert c["topicdp_fig52"]["reproduced"] == (t["TopicDP"] < min(t["MVG"], t["Laplace"]))


def test_table4_reason_follows_its_stored_numbers():
    """The DPNE page's measured reason: the chain text is table4_chain_reason of the stored rows, the scaled
    comparison ran at users_equivalent_epsilon and its verdict follows its numbers, the paper column is the
    transcription."""
    r = RESULTS["comparisons"]["table4_reason"]
    assert r["chain_reason"] == pr.table4_chain_reason(r["chain"], K=100)
    assert [row["k"] for row in r["chain"]] == list(range(1, len(r["chain"]) + 1))
    sc = r["at_paper_users"]
    st_ = sc["settings"]
    assert st_["paper_users"] == pr.REDDIT_USERS and st_["n_users"] == r["corpus"]["n_users"]
    assert st_["epsilon"] == pytest.approx(
        pr.users_equivalent_epsilon(epsilon=4.0, delta=1e-7, n_users=st_["n_users"], paper_users=st_["paper_users"])
    )
    here = {row["quantity"]: row for row in sc["rows"]}
    for name, values in pr.TABLE4.values.items():
        assert [here[f"{name}, k = {k}"]["paper"] for k in range(1, 10)] == list(values)
    shape = table4_shape(sc["rows"])
    assert sc["reproduced"] == shape and ("shape reproduced" in sc["verdict"]) == shape
    assert r["verdict"] == sc["verdict"]
    small = r["small_limit"]
    assert small["contribution_limit"] < pr.TABLE4_SETTINGS["contribution_limit"] and len(small["rows"]) == 9
    six = next(
        x["here"] for x in RESULTS["comparisons"]["table4"]["table2"]["rows"] if x["quantity"].startswith("distinct 6")
    )
    assert small["per_user_6grams"] == pytest.approx(six)
    assert small["text"] == pr.table4_volume_reason(
        small["rows"], per_user_6grams=small["per_user_6grams"], contribution_limit=small["contribution_limit"]
    )


def test_table4_chat_entry_follows_its_stored_numbers():
    """The real chat's entry: 003 Table 2's statistic is dpcore.text.profile's, the ε sweep's sentence and the
    number-of-users reason are dpcore's of the stored rows and profiles (nothing typed)."""
    import dpcore

    e = RESULTS["comparisons"]["table4_chat"]
    chat = dpcore.load_real_corpus("chat", which="private")
    assert e["corpus"] == {"size": "chat", "content_hash": chat.content_hash, "n_users": 920, "n_tokens": chat.n_tokens}
    prof = e["profiles"]["real"]
    assert [r["here"] for r in e["table2"]["rows"]] == prof["distinct_mean"]
    assert prof["shared"]["10"][:6] == list(dpcore.text.text_profile(chat, max_k=6, ks=(10,)).shared[10])
    assert e["users_reason"] == pr.users_hypothesis_reason(
        e["rows"],
        RESULTS["comparisons"]["table4"]["rows"],
        n_real=920,
        n_synthetic=RESULTS["comparisons"]["table4"]["corpus"]["n_users"],
        real_profile=prof,
        synthetic_profile=e["profiles"]["synthetic_same_people"],
    )
    # the synthetic corpus's own Table 4 decides which sentence: refuted when DPSU-single keeps up there at some k
    synthetic_shape = RESULTS["comparisons"]["table4"]["reproduced"]
    assert e["users_reason"].startswith(
        "Not the number of users: " if synthetic_shape else "Not the number of users alone (refuted)"
    )
    sw = e["epsilon_sweep"]
    assert sw["settings"]["epsilons"][0] == 1.0 and "at ε = 1 DPNE releases" in sw["sentence"]
    at4 = {r["k"]: r for r in sw["rows"] if r["epsilon"] == 4.0}
    assert all(at4[k]["DPNE"] > at4[k]["DPSU-single"] for k in (2, 3, 4, 5))  # the page's default view, 3 seeds


def test_dpne_page_shows_the_measured_reason(small_paper_size):
    r = RESULTS["comparisons"]["table4_reason"]
    chat = RESULTS["comparisons"]["table4_chat"]
    at = run(PAGES["3_DP_ngram_extraction"])
    text = " ".join(m.value for m in at.markdown)
    assert r["chain_reason"] in text and r["at_paper_users"]["verdict"] in text
    assert r["small_limit"]["text"] in text
    assert chat["users_reason"] in text and chat["epsilon_sweep"]["sentence"] in text
    assert "So the gap is the number of users" not in text
    scaled = [d.value for d in at.dataframe if "DPNE (ours)" in d.value.columns]
    assert len(scaled) == 1 and list(scaled[0]["DPNE (ours)"]) == [
        pvh.fmt(x["here"]) for x in r["at_paper_users"]["rows"] if x["quantity"].startswith("DPNE, k =")
    ]


def test_stale_numbers_are_flagged(tmp_path, monkeypatch):
    doc = json.loads(json.dumps(RESULTS))
    # measured on the classroom corpus (loaded in every test) with another content hash than it has now
    doc["comparisons"]["topicdp_fig52"]["corpus"].update(content_hash="0" * 64, size="classroom")
    path = tmp_path / "paper_comparisons.json"
    path.write_text(json.dumps(doc))
    monkeypatch.setattr(pvh, "RESULTS_PATH", path)
    at = run(PAGES["4_TopicDP"], size="classroom")
    assert any("stale" in e.value and pvh.SCRIPT in e.value for e in at.warning)
    monkeypatch.setattr(pvh, "RESULTS_PATH", tmp_path / "missing.json")
    at = run(PAGES["4_TopicDP"])
    assert any("Not measured yet" in i.value for i in at.info)
    assert not [e for e in at.warning if "stale" in e.value]


def test_no_section_on_the_page_without_a_paper():
    at = run("pages/5_Privacy_audit.py")
    assert not [e for e in at.expander if "Paper vs here" in e.label]
    assert set(pvh.SECTIONS) == set(PAGES)


def test_bayesian_n_max_default_follows_the_data(small_paper_size):
    """Strict BayesianDP refuses a corpus with more users than N_max: its default follows the data choice (a public,
    stated number of users), and a value the user set is kept."""
    from dpcore.text.synthetic import SIZES
    from dpui.bayesian.modes import N_MAX_OPTIONS, default_n_max
    from dpui.common.corpus_panel import DATA_CHOICES, REAL_PEOPLE

    stated = {"chat": REAL_PEOPLE["private"], "upload": 0, **{k: v["private"] for k, v in SIZES.items()}}
    for choice in DATA_CHOICES:
        assert default_n_max(choice) >= stated[choice] and default_n_max(choice) in N_MAX_OPTIONS
    at = run(PAGES["2_Bayesian_ngram_DP"])
    assert at.select_slider(key="bayes_Nmax").value == default_n_max("chat")
    at.radio(key="corpus").set_value("paper").run()
    assert at.select_slider(key="bayes_Nmax").value == default_n_max("paper")
    assert not [e for e in at.error if "max_users" in e.value]
    at.select_slider(key="bayes_Nmax").set_value(5000).run()
    at.radio(key="corpus").set_value("classroom").run()
    assert at.select_slider(key="bayes_Nmax").value == 5000
    assert run(PAGES["2_Bayesian_ngram_DP"], corpus="paper").select_slider(key="bayes_Nmax").value == default_n_max(
        "paper"
    )


def test_bayesian_reason_is_computed_from_both_sizes():
    """The Bayesian entry's measured reason quotes the stored numbers of both corpora (none typed)."""
    e = RESULTS["comparisons"]["bayesian_fig1"]
    if e["reproduced"]:
        assert "reason" not in e
        return
    c = e["contrast"]
    gamma = [
        next(r["here"] for r in x["context"] if r["quantity"].startswith("BayesianDP sensitivity")) for x in (c, e)
    ]
    kl_lap = [next(r["here"] for r in x["rows"] if r["quantity"] == "KL, Laplace") for x in (c, e)]
    assert (
        f"γ = {gamma[0]:.3g} on {c['corpus']['n_users']:,} users, {gamma[1]:.3g} on {e['corpus']['n_users']:,}"
        in e["reason"]
    )
    assert f"its KL falls {kl_lap[0]:.3g} → {kl_lap[1]:.3g}" in e["reason"]


def test_an_exercise_opens_on_the_corpus_it_names(small_paper_size):
    """An exercise that depends on data names its corpus (dpcore.lab.exercises): opening it switches the data choice."""
    from dpcore.lab import exercises

    ex = next(e for e in exercises.exercises_for_page("2_Bayesian_ngram_DP") if "corpus" in e.settings)
    at = run(PAGES["2_Bayesian_ngram_DP"], corpus="paper", exercise=ex.id)
    assert at.radio(key="corpus").value == ex.settings["corpus"] == "classroom"
    assert "(classroom size)" in sidebar_text(at)


def test_topicdp_reason_is_the_shipped_draws_summary():
    """TopicDP's measured reason is dpcore.topicdp.summarise_draws of the shipped draws the entry names (none typed)."""
    import dpcore

    top = RESULTS["comparisons"]["topicdp_fig52"]
    assert top.get("real"), "the real chat corpus's numbers are missing (issue 20 item 5)"
    assert top["real"]["corpus"]["content_hash"] == dpcore.load_real_corpus("chat", which="private").content_hash
    for e in (top, top["real"]):  # synthetic and real chat, each with its own draws
        if e["reproduced"]:
            assert "reason" not in e
            continue
        draws = dpcore.topicdp.load_sensitivity_draws(e["corpus"]["content_hash"])
        assert draws is not None and draws.key == e["draws"]["key"]
        s = e["settings"]
        summary = dpcore.topicdp.summarise_draws(draws, gamma=s["gamma"], m=s["m"], n=s["n"], delta=s["delta"])
        assert summary.delta_s == pytest.approx(s["delta_s"])
        assert e["reason"] == "Behind Δ_s: " + summary.sentence
