"""Every parameter that changes a release goes into its draws, and the session budget counts the views
(issue 21 item 5).

Before: the Bayesian, TopicDP and DPNE pages salted their draws without ε (and δ), so releases at ε = 0.5 and
ε = 1 shared their standard normals z and two views gave the noiseless μ_ps away, μ = (σ₂z₁ − σ₁z₂)/(σ₂ − σ₁).
Here, from what the pages show and export: moving ε changes the standard normals, not only their scale; each
export's recorded salt rebuilds exactly the page's release (issue 22 found `rng_salt_dpne` drifted); moving ε
twice adds two releases to the sidebar's session budget, composed as dpcore.lab.budget (dp_accounting) says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

import dpcore
from dpcore.lab.budget import compose_releases
from dpcore.mechanisms.keyed import fold_keys, keyed_normal, token_keys
from dpui.common.state import rng_for

ROOT = Path(__file__).resolve().parent.parent
BAYES = str(ROOT / "pages" / "2_Bayesian_ngram_DP.py")
DPNE = str(ROOT / "pages" / "3_DP_ngram_extraction.py")
TOPIC = str(ROOT / "pages" / "4_TopicDP.py")

try:
    dpcore.load_sample_corpus("private", max_users=1)
    HAVE_SAMPLE = True
except dpcore.CorpusError:
    HAVE_SAMPLE = False

pytestmark = pytest.mark.skipif(not HAVE_SAMPLE, reason="sample corpus not generated yet")


@pytest.fixture
def media(monkeypatch):
    """One media storage kept across AppTest runs, so the download buttons' payloads can be read back."""
    storage = MemoryMediaFileStorage("/mock/media")
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", lambda prefix: storage)

    def export(at: AppTest, key: str) -> dict:
        button = next(b for b in at.get("download_button") if b.proto.id.endswith(key))
        return json.loads(storage.get_file(button.proto.url.rsplit("/", 1)[1]).content.decode("utf-8"))

    return export


def clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []


def opened(page: str, **query) -> AppTest:
    at = AppTest.from_file(page, default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    clean(at)
    return at


def move(at: AppTest, kind: str, key: str, value) -> None:
    getattr(at, kind)(key=key).set_value(value).run()
    clean(at)


def budget_lines(at: AppTest) -> tuple[int, list[str], str]:
    head = next(m.value for m in at.sidebar.markdown if m.value.startswith("**Session budget**"))
    n = int(re.search(r"— (\d+) release", head).group(1))
    lines = [line for m in at.sidebar.markdown for line in m.value.splitlines() if re.match(r"\d+\. \*\*", line)]
    said = list(at.sidebar.caption) + list(at.sidebar.warning) + list(at.sidebar.error)
    total = next(e.value for e in said if e.value.startswith("Compos"))
    return n, lines, total


def page_corpus(corpus_hash: str):
    """The private corpus a page ran on, found by its content hash among the app's corpora."""
    candidates = [lambda: dpcore.load_sample_corpus("private"), lambda: dpcore.load_real_corpus(which="private")]
    for load in candidates:
        try:
            c = load()
        except (dpcore.CorpusError, ValueError):
            continue
        if c.content_hash == corpus_hash:
            return c
    raise AssertionError(f"no corpus of the app has the hash {corpus_hash}")


# ------------------------------------------------------------------------------ Bayesian


def test_bayesian_epsilon_moves_draw_new_standard_normals_and_the_budget_counts_them(media):
    at = opened(BAYES, bayes_top="50", exports="1")
    # the audit's "page's own pair" scenarios use these defaults (dpcore.audit.scenarios_bayesian.PAGE_DEFAULTS)
    from dpcore.audit.scenarios_bayesian import PAGE_DEFAULTS as P

    assert (
        at.select_slider(key="bayes_S").value,
        at.slider(key="bayes_rho").value,
        at.slider(key="bayes_C").value,
        at.radio(key="bayes_n").value,
        at.slider(key="bayes_W").value,
    ) == (P["S"], P["rho"], P["C"], P["n"], P["W"])
    assert (at.select_slider(key="eps").value, at.select_slider(key="delta").value) == (P["epsilon"], P["delta"])
    views = {}
    for eps in (1.0, 0.5, 2.0):
        if eps != 1.0:
            move(at, "select_slider", "eps", eps)
        data = media(at, "bayes_export_release_json")
        s = data["settings"]
        assert s["epsilon"] == eps and s["rng_salt"][:3] == ["bayes-release", eps, s["delta"]]
        views[eps] = (s, data["rows"])
    # the same top n-grams in every view; d = log θ_i − log θ_0 = (μ_i − μ_0) + σ·(z_i − z_0)
    names = [r["ngram"] for r in views[1.0][1]]
    assert all([r["ngram"] for r in rows] == names for _, rows in views.values())
    d = {e: np.log([r["released_probability"] for r in rows]) for e, (_, rows) in views.items()}
    d = {e: v[1:] - v[0] for e, v in d.items()}
    sig = {e: s["sigma_ps"] for e, (s, _) in views.items()}
    # with one z for every ε, (d(ε) − d(1))/(σ(ε) − σ(1)) = z_i − z_0 for both moves; with fresh z it is not
    slope_half = (d[0.5] - d[1.0]) / (sig[0.5] - sig[1.0])
    slope_two = (d[2.0] - d[1.0]) / (sig[2.0] - sig[1.0])
    assert np.corrcoef(slope_half, slope_two)[0, 1] < 0.9
    assert np.max(np.abs(slope_half - slope_two)) > 1.0
    # the standard normals of the exported salts differ, not only their scale
    z = {e: rng_for(s["seed"], *s["rng_salt"]).standard_normal(8) for e, (s, _) in views.items()}
    assert not np.allclose(z[0.5], z[1.0]) and not np.allclose(z[2.0], z[1.0])

    # the session budget: two releases per view (the page's strict one and the local one shown beside it), each
    # with its own (ε, δ), composed as dpcore.lab.budget says; the local one is not DP, so the total is not DP
    n, lines, total = budget_lines(at)
    assert n == 6 and len(lines) == 6
    assert [re.search(r"ε = ([\d.]+)", line).group(1) for line in lines] == ["1", "1", "0.5", "0.5", "2", "2"]
    strict, local = lines[0::2], lines[1::2]
    assert all("**BayesianDP strict** — DP: (ε, δ)-DP per user" in line for line in strict)
    assert all("**BayesianDP local (side by side)** — not DP: sensitivity measured" in line for line in local)
    entries = next(iter(at.session_state["_session_budget"].values()))
    composed = compose_releases(entries)
    assert composed.text == total and total.startswith("Composed guarantee: not DP") and composed.epsilon is None
    only_strict = compose_releases(entries[0::2])
    assert 2.0 < only_strict.epsilon < only_strict.basic_epsilon == pytest.approx(3.5)
    assert composed.counted_epsilon == only_strict.epsilon
    # a move back to ε = 1 is the first view's releases again: nothing is added
    move(at, "select_slider", "eps", 1.0)
    assert budget_lines(at)[0] == 6
    # the page in local mode at ε = 1 shows the same two releases (its own spec names the mode): nothing is added
    move(at, "radio", "bayes_mode", "local")
    assert budget_lines(at)[0] == 6
    at.button(key="session_budget_reset").click().run()
    clean(at)
    n, lines, _ = budget_lines(at)  # emptied; the view on screen is seen again in this run
    assert n == 2 and "**BayesianDP local** — not DP: sensitivity measured" in lines[0]


# ------------------------------------------------------------------------------ DPNE


def _rebuild_dpne(settings: dict, corpus):
    return dpcore.dpne_extract(
        dpcore.text.encode_users(corpus.user_sentences()),
        epsilon=settings["epsilon"],
        delta=settings["delta"],
        max_length=settings["T"],
        contribution_limit=settings["delta0"],
        eta=settings["eta"],
        noise_decay=settings["c"],
        pruning=settings["pruning"],
        selection=settings["selection"],
        policy=settings["policy"],
        rng=rng_for(settings["seed"], *settings["rng_salt_dpne"]),
        selection_rng=rng_for(settings["seed"], *settings["rng_salt_dpne_selection"]),
    )


def _shown_sample(at: AppTest) -> tuple[int, list[str]]:
    text = next(m.value for m in at.markdown if m.value.startswith("Some released "))
    return int(re.match(r"Some released (\d+)-grams", text).group(1)), re.findall(r"`([^`]+)`", text)


def test_dpne_export_rebuilds_the_pages_release_and_epsilon_draws_new_noise(media):
    # the classroom corpus: enough words released at ε = 1 to compare their noise (the chat's 920 people give ~1);
    # ε in the link, as the page itself opens at ε = 4
    at = opened(DPNE, dpne_T="4", eps="1", corpus="classroom", exports="1", dpne_step_open="true")  # step view: lazy
    corpus, seen = None, {}
    for _step, (kind, key, value) in enumerate(
        [
            (None, None, None),
            ("select_slider", "dpne_eta", 0.05),
            ("select_slider", "eps", 2.0),
            ("select_slider", "dpne_eta", 0.01),
        ]
    ):
        if kind:
            move(at, kind, key, value)
        data = media(at, "dpne_export_sizes_json")
        s = data["settings"]
        corpus = corpus or page_corpus(s["corpus_hash"])
        # the recorded salt is the one drawn with: ε and δ in it, η not (dpcore keys η from length 3)
        assert s["rng_salt_dpne"] == [
            "dpne",
            s["epsilon"],
            s["delta"],
            s["T"],
            s["delta0"],
            s["c"],
            s["pruning"],
            s["selection"],
            s["policy"],
        ]
        # the selection's salt: what the selection depends on (Δ0, the rule), never ε (issue 29)
        assert s["rng_salt_dpne_selection"] == ["dpne-selection", s["delta0"], s["selection"]]
        assert all(s["epsilon"] not in salt for salt in s["rng_salt_dpsu_selection"].values())
        assert all(salt[2:4] == [s["epsilon"], s["delta"]] for salt in s["rng_salt_dpsu_noise"].values())
        rebuilt = _rebuild_dpne(s, corpus)
        assert [rebuilt.sizes.get(r["k"], 0) for r in data["rows"]] == [r["DPNE |Sₖ|"] for r in data["rows"]]
        k, shown = _shown_sample(at)
        assert shown == sorted(" ".join(g) for g in rebuilt.ngrams[k])[:15]
        seen[(s["epsilon"], s["eta"])] = (s, rebuilt)
    # ε moved: the keyed standard normals of the same items differ (the key holds ε), not only σ
    (s1, r1), (s2, _r2) = seen[(1.0, 0.05)], seen[(2.0, 0.05)]
    items = fold_keys(None, token_keys(sorted(g[0] for g in r1.ngrams[1])))
    from dpcore.dpne import dpne_release_seed
    from dpcore.dpne.selection import _keyed_seed

    def base(s):
        return dpne_release_seed(
            _keyed_seed(rng_for(s["seed"], *s["rng_salt_dpne"])),
            epsilon=s["epsilon"],
            delta=s["delta"],
            max_length=s["T"],
            contribution_limit=s["delta0"],
            noise_decay=s["c"],
            pruning=s["pruning"],
            selection=s["selection"],
            policy=s["policy"],
        )

    z1, z2 = keyed_normal(base(s1), items, k=1), keyed_normal(base(s2), items, k=1)
    assert abs(np.corrcoef(z1, z2)[0, 1]) < 0.5
    # η moved: length 1 is the same release (η does not enter it)
    assert seen[(1.0, 0.01)][1].ngrams[1] == r1.ngrams[1]
    # the budget lists one DPNE release per view: (ε, η) = (1, 0.01), (1, 0.05), (2, 0.05), (2, 0.01)
    n, lines, total = budget_lines(at)
    assert n == 4 and all("**DPNE** — DP: (ε, δ)-DP per user (ε = " in line for line in lines)
    assert [re.search(r"ε = ([\d.]+)", line).group(1) for line in lines] == ["1", "1", "2", "2"]
    assert total.startswith("Composed over 4 releases")


# ------------------------------------------------------------------------------ TopicDP


@pytest.mark.slow
def test_topicdp_export_rebuilds_the_release_and_epsilon_draws_new_noise(media, tiny_topicdp):
    from topicdp_env import TINY_QUERY  # a corpus with draws computed in this session (tests/topicdp_env.py)

    at = opened(TOPIC, **TINY_QUERY, topicdp_m="3", topicdp_n="4", exports="1")
    views = {}
    for eps in (1.0, 2.0):
        if eps != 1.0:
            move(at, "select_slider", "eps", eps)
        data = media(at, "topicdp_export_keywords_json")
        s, rows = data["settings"], data["rows"]
        assert s["epsilon"] == eps and s["rng_salt"][2:4] == [eps, s["delta"]]
        m, n = s["m"], s["n"]
        w = np.array([r["before_noise"] for r in rows]).reshape(m, n)
        rebuilt = dpcore.topicdp.release_all(
            w,
            epsilon=eps,
            delta=s["delta"],
            sensitivity=s["sampled_sensitivity_delta_s"],
            gamma=s["gamma"],
            rng=rng_for(s["seed"], *s["rng_salt"]),
        )
        for mech, rel in rebuilt.items():
            assert np.allclose(rel.matrix.ravel(), [r[f"after_{mech}"] for r in rows], rtol=0, atol=1e-12), mech
        _rebuild_vips(s, rows)
        views[eps] = s
    z = {e: rng_for(s["seed"], *s["rng_salt"]).standard_normal(12) for e, s in views.items()}
    assert not np.allclose(z[1.0], z[2.0])
    z = {e: rng_for(s["seed"], *s["vips"]["rng_salt"]).standard_normal(12) for e, s in views.items()}
    assert not np.allclose(z[1.0], z[2.0])
    # the session budget lists each VIPS-LDA release with its own (ε, δ): J Gaussians composed exactly
    n, lines, _ = budget_lines(at)
    vips = [line for line in lines if "**VIPS-LDA** — DP: (ε, δ)-DP per user" in line]
    assert len(vips) == 2 and "(ε = 1, δ = 1e-05)" in vips[0] and "(ε = 2, δ = 1e-05)" in vips[1]


def _rebuild_vips(s, rows):
    """Issue 23: the export carries VIPS-LDA's settings and its seed salt (every parameter that changes its release:
    ε, δ, K, B, J); they rebuild the release, and its view on the table is the exported column."""
    from dpcore.topicdp import LdaSettings
    from dpcore.topicdp import vips_comparison as tv

    v = s["vips"]
    k, clip, iterations = v["n_topics_K"], v["clip_norm_B"], v["iterations_J"]
    assert v["rng_salt"] == ["topicdp", "vips", s["epsilon"], s["delta"], k, clip, iterations]
    assert v["guarantee"]["kind"] == "approximate DP" and v["guarantee"]["epsilon"] == s["epsilon"]
    private, public = dpcore.load_sample_corpus("private"), dpcore.load_sample_corpus("public")
    setup = tv.vips_page_setup(private, public, n_topics=k, twin=False)
    rel = dpcore.vips_lda(
        setup.counts,
        n_topics=k,
        epsilon=s["epsilon"],
        delta=s["delta"],
        clip_norm=clip,
        iterations=iterations,
        vocabulary=setup.vocabulary,
        start=setup.start,
        rng=rng_for(s["seed"], *v["rng_salt"]),
    )
    assert rel.sigma == pytest.approx(v["sigma"], rel=1e-12)
    lda = LdaSettings(
        **{f: s["lda"][f] for f in ("n_topics", "max_iter", "learning_method", "max_doc_update_iter", "max_features")}
    )
    model = dpcore.fit_topic_model(dpcore.topicdp.document_term_data(private, settings=lda), settings=lda)
    table = dpcore.topic_keyword_matrix(model, m=s["m"], n=s["n"])
    view = tv.compare_release(rel, model=model, table=table).matrix
    assert np.allclose(view.ravel(), [r["after_VIPS-LDA"] for r in rows], rtol=0, atol=1e-12)
