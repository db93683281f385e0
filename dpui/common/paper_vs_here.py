"""“Paper vs here”: the paper's reported numbers beside ours at the same settings, and a preset (issue 8 item 3).

One call per paper page, after ``shared_sidebar()`` and before the page's own widgets::

    paper_vs_here("3_DP_ngram_extraction", settings)

It draws an expander with

* a **"Use the paper's settings"** button whose ``on_click`` callback writes the paper's settings into
  ``st.session_state`` under the widgets' keys (the page's knobs and the shared sidebar's ε, δ and data).
  A callback runs before the script, so before any widget is drawn: the only moment Streamlit lets
  a keyed widget's value be set. Pages compared on the real chat too (issue 20) get two: the paper's
  settings on the real chat, and on the synthetic paper-size corpus;
* a table: quantity, the paper's number and its table/figure, ours at the same settings (on the real chat's
  920 people and on the synthetic paper-size corpus, side by side, where both were measured), and the
  one-line verdicts (reproduced or not, with the measured reason) of :mod:`dpcore.lab.paper_results`.

Ours are **not** computed here: at paper scale 003's Table 4 alone runs DPNE and three DPSU variants five
times on 100,000 users. ``scripts/paper_compare.py`` runs the ``dpcore.lab.paper_results.compare_*`` functions
and writes ``sample_data/paper_comparisons.json``; this module reads it, says when and on which corpus
(content hash) it was measured, and flags the numbers as stale when the corpus they were measured on is
loaded here with another content hash. The paper's numbers in the file are the ones the compare functions
took from :mod:`dpcore.lab.paper_results` (tests/test_paper_vs_here.py checks they still match). No maths here.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from dpcore.bayesian import kl_vs_epsilon
from dpcore.dpne import dpne_extract
from dpcore.lab import paper_results as pr
from dpui.common import corpus_panel
from dpui.common.state import explicitly_set, set_before_sidebar
from dpui.common.lazy import lazy_expander

RESULTS_PATH = Path(__file__).resolve().parents[2] / "sample_data" / "paper_comparisons.json"
SCRIPT = "scripts/paper_compare.py"
PRESET_KEY = "paper_preset"  # button key prefix: paper_preset_<page>
APPLIED_KEY = "_paper_preset_applied"  # session state: the page whose preset was applied last
OPEN_KEY = "paper_vs_here_open"  # widget key prefix of the lazy expander: paper_vs_here_open_<page>


@dataclass(frozen=True)
class PaperSection:
    """What one page compares: the entry of the results file, its title and how the preset is built."""

    entry: str
    title: str
    intro: str
    live: object = None  # a compare function cheap enough to run on every render (no results file)
    real: str | None = None  # the entry of the same comparison on the real chat (issue 20), shown beside


SECTIONS = {
    "1_Mechanisms_101": PaperSection(
        "lecture_001",
        "001: the lecture's worked numbers",
        "Habernal's lecture 4 works its examples out by hand. Ours: the same numbers recomputed by the functions "
        "this page draws with (dpcore.lab.lecture, dpcore.mechanisms.laplace_scale), on the lecture's own data.",
        live=pr.compare_lecture_001,
    ),
    "2_Bayesian_ngram_DP": PaperSection(
        "bayesian_fig1",
        "000 Fig. 1: KL of BayesianDP vs Laplace at ε = 0.1",
        f"000 reports up to {pr.FIG1_BAYES.values['reduction']:.0%} lower KL divergence than the Laplace mechanism "
        f"at ε = {pr.FIG1_SETTINGS['epsilon']:g} (unigrams of Reddit, {pr.FIG1_BAYES.settings['users']:,} users). "
        "Ours: the same mechanisms (BayesianDP as in the paper, γ measured on the corpus; Laplace with a per-user "
        "cap W) on unigrams of the real chat (private: 920 people; public data: the other 395 people of the same "
        "chat, a fixed seeded split of people), with our strict (DP) variant beside, and of the synthetic paper-size "
        "sample corpus (100,000 users), mean over seeds.",
        real="bayesian_fig1_chat",
    ),
    "3_DP_ngram_extraction": PaperSection(
        "table4",
        "003 Table 4 and Fig. 4: k-grams extracted by DPNE and the DPSU baselines",
        "003 extracts k-grams from Reddit (1.2 M users) at ε = {epsilon:g}, δ = {delta:g}, Δ0 = {contribution_limit}, "
        "η = {eta:g}, T = {max_length}. Ours: the same algorithms and settings on real text, the chat's 920 private "
        "people, and on the synthetic paper-size sample corpus (100,000 users), mean over seeds.".format(
            **pr.TABLE4_SETTINGS
        ),
        real="table4_chat",
    ),
    "4_TopicDP": PaperSection(
        "topicdp_fig52",
        "004 Figs. 5.2 and 5.6: L1 error of the released 10 × 10 topic–keyword matrix",
        "004 releases Enron's LDA topic–keyword matrix at ε = {epsilon:g}, γ = {gamma:g}, δ = {delta:g}. Ours: the "
        "thesis's TopicDP and its two baselines — and, beside them, TopicDP with the corrected σ and strict TopicDP — "
        "on our LDA models with our sampled sensitivities Δ_s (the real chat corpus and a synthetic one), mean over "
        "seeds.".format(**pr.TOPICDP_SETTINGS),
    ),
}


# ------------------------------------------------------------------------------ the shipped measurements
@lru_cache(maxsize=4)
def _read(path: str, mtime: float) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def load_results(path: Path | None = None) -> dict:
    """The file scripts/paper_compare.py wrote (``{"comparisons": {}}`` when it is missing)."""
    path = Path(path) if path is not None else RESULTS_PATH
    if not path.exists():
        return {"comparisons": {}}
    return _read(str(path), path.stat().st_mtime)


def _defaults(fn) -> dict:
    return {
        k: p.default for k, p in inspect.signature(fn).parameters.items() if p.default is not inspect.Parameter.empty
    }


def preset(page: str, entry: dict | None = None, *, data: str | None = None) -> dict:
    """The widget values (key → value) that put ``page`` at the paper's settings, from dpcore.lab.paper_results
    (and, for what the paper leaves open, the defaults of the compare function that measured ours).

    ``data``: the data choice (``corpus``); by default the real chat on a page compared on it (``real``), else the
    one the shipped measurement ran on (the paper size, except TopicDP when no sampled sensitivities exist for the
    paper corpus)."""
    entry = entry or {}
    if data is None:
        data = "chat" if SECTIONS.get(page) and SECTIONS[page].real else entry.get("corpus", {}).get("size", "paper")
    if page == "1_Mechanisms_101":  # no corpus: the shared corpus settings are left alone
        return {"eps": pr.LECTURE_SETTINGS["epsilon"], "m101_scale_mode": "from ε"}
    if page == "3_DP_ngram_extraction":  # a spec at the paper's settings (validated), written into the widgets
        from dpcore.specs import DpneSpec

        from dpui.dpne.knobs import widget_values as dpne_widgets

        s, dp = pr.TABLE4_SETTINGS, _defaults(dpne_extract)
        fields = dict(
            corpus=data,
            epsilon=s["epsilon"],
            delta=s["delta"],
            contribution_limit=s["contribution_limit"],
            eta=s["eta"],
            max_length=s["max_length"],
            noise_decay=dp["noise_decay"],
            pruning=dp["pruning"],
            selection=dp["selection"],
            policy=dp["policy"],
        )
        return dpne_widgets(DpneSpec(**fields), fields)
    if page == "2_Bayesian_ngram_DP":  # a spec at the paper's settings (validated), written into the widgets
        from dpcore.specs import BayesianKlEpsilonSpec, BayesianSpec
        from dpui.bayesian.knobs import widget_values

        s, kl, cmp = pr.FIG1_SETTINGS, _defaults(kl_vs_epsilon), _defaults(pr.compare_bayesian_fig1)
        common = dict(
            corpus=data,
            delta=cmp["delta"],
            n=s["n"],
            S=kl["S"],
            rho=kl["rho"],
            C=kl["C"],
            calibration=kl["calibration"],
        )
        release = BayesianSpec(**common, epsilon=s["epsilon"], mode="local")
        sweep = BayesianKlEpsilonSpec(**common, W=kl["W"], repetitions=cmp["repetitions"])
        return {
            **widget_values(release, ("corpus", "epsilon", "delta", "n", "S", "rho", "C", "calibration", "mode")),
            **widget_values(sweep, ("W", "repetitions")),
        }
    if page == "4_TopicDP":
        from dpcore.specs import TopicDpSpec
        from dpui.topicdp.knobs import widget_values

        s = pr.TOPICDP_SETTINGS
        fields = dict(corpus=data, epsilon=s["epsilon"], delta=s["delta"], gamma=s["gamma"], m=s["m"], n=s["n"])
        draws = entry.get("draws")
        if draws:  # the LDA and sampler settings ours were measured with
            lda, sampler = draws["lda"], draws["sampler"]
            fields.update(
                n_topics=lda["n_topics"],
                max_iter=lda["max_iter"],
                learning_method=lda["learning_method"],
                max_doc_update_iter=lda["max_doc_update_iter"],
                max_features=lda["max_features"],
                sample_users=sampler["sample_users"],
                sampler_seed=sampler["seed"],
            )
        return widget_values(TopicDpSpec(**fields), [f for f in fields])
    raise ValueError(f"page must be one of {sorted(SECTIONS)}, got page={page!r}")


def _apply(page: str, values: dict) -> None:
    """on_click: write the values before the widgets are drawn (a bound widget's URL value would win on a
    first load, so a clashing query parameter is dropped first when Streamlit allows it)."""
    for key, value in values.items():
        if key in st.query_params:
            try:
                del st.query_params[key]
            except StreamlitAPIException:  # bound this run: the session-state write below syncs the URL
                pass
        st.session_state[key] = value
        explicitly_set().add(key)
    set_before_sidebar(values)
    st.session_state[APPLIED_KEY] = page


# ------------------------------------------------------------------------------ formatting (no maths)
def fmt(x) -> str:
    """A number as the table shows it: counts with thousands separators, others with 3 significant digits."""
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return " … ".join(fmt(v) for v in x) if all(isinstance(v, (int, float)) for v in x) else " ".join(map(str, x))
    if isinstance(x, float) and (x.is_integer() and abs(x) >= 10):
        return f"{int(x):,}"
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float) and abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def fmt_paper(x) -> str:
    """A transcribed number as the paper prints it (all its digits): 16,173; 0.8954; 77.1487."""
    if x is None:
        return "—"
    if isinstance(x, str):
        return x
    if isinstance(x, float) and not x.is_integer():
        return f"{x:,.2f}" if abs(x) >= 1000 else f"{x:g}"
    return f"{int(x):,}"


REAL_COLUMN = "here: real chat"
SYNTHETIC_COLUMN = "here: synthetic, paper size"


def _synthetic_size(entry: dict) -> str:
    """The synthetic corpus an entry was measured on: "paper", or "classroom" where the paper size has no inputs
    yet (TopicDP's sampled sensitivities)."""
    size = entry.get("corpus", {}).get("size", "paper")
    return size if size in ("classroom", "paper") else "paper"


def synthetic_column(entry: dict) -> str:
    return SYNTHETIC_COLUMN.replace("paper size", f"{_synthetic_size(entry)} size")


def synthetic_label(entry: dict) -> str:
    return SYNTHETIC_LABEL.replace("paper size", f"{_synthetic_size(entry)} size")


def table_rows(entry: dict, real: dict | None = None) -> list[dict]:
    """The comparison as display rows: quantity, the paper's number, where the paper reports it, ours. With ``real``
    (the same comparison on the real chat) ours come in two columns, the real chat's first; a quantity measured on
    one corpus only shows "—" in the other."""
    source = getattr(pr, entry["reported"]).source
    if real is None:
        return [
            {
                "quantity": r["quantity"],
                "paper": fmt_paper(r["paper"]),
                "paper source": source if r["paper"] is not None else "— (not reported)",
                "here": fmt(r["here"]),
            }
            for r in entry["rows"]
        ]
    synthetic = {r["quantity"]: r for r in entry["rows"]}
    order = [r["quantity"] for r in real["rows"]] + [
        q for q in synthetic if q not in {r["quantity"] for r in real["rows"]}
    ]
    mine = {r["quantity"]: r for r in real["rows"]}
    out = []
    for q in order:
        paper = (mine.get(q) or synthetic[q])["paper"]
        out.append(
            {
                "quantity": q,
                "paper": fmt_paper(paper),
                "paper source": source if paper is not None else "— (not reported)",
                REAL_COLUMN: fmt(mine[q]["here"]) if q in mine else "—",
                synthetic_column(entry): fmt(synthetic[q]["here"]) if q in synthetic else "—",
            }
        )
    return out


def table2_text(entry: dict, real: dict | None = None) -> str | None:
    """For 003: distinct k-grams per user, ours beside Reddit's (003 Table 2), set against the contribution limit."""
    t2 = entry.get("table2")
    if not t2:
        return None
    rows, limit = t2["rows"], entry["settings"].get("contribution_limit")
    here = ", ".join(fmt(r["here"]) for r in rows[:5])
    paper = ", ".join(fmt_paper(r["paper"]) for r in rows[:5])
    chat = ""
    if real and real.get("table2"):
        chat = "a person of the real chat " + ", ".join(fmt(r["here"]) for r in real["table2"]["rows"][:5]) + " …, "
    return (
        f"**The data beside Reddit's:** {chat}a generated user holds on average {here} … distinct k-grams for "
        f"k = 1…5, a Reddit user {paper} … ({getattr(pr, t2['reported']).source}; all lengths below), "
        f"against the contribution limit Δ0 = {limit} per length."
    )


def reason_sections(entry: dict, reason: dict | None, real: dict | None = None) -> list[str]:
    """For 003 Table 4: what ε the real chat needs, then the measured reasons on the synthetic text (all numbers read
    from the results file)."""
    out = []
    if real and real.get("epsilon_sweep"):
        out.append("**What ε it takes on the real chat:** " + real["epsilon_sweep"]["sentence"])
    if reason:
        out.append(
            "**Why the synthetic text differs, measured (one DPNE run at Table 4's settings, "
            "`dpcore.dpne.pruning_chain`):** " + reason["chain_reason"]
        )
        sc = reason["at_paper_users"]
        users = "**Is it the number of users?** " + (
            real["users_reason"] + " " if real and real.get("users_reason") else ""
        )
        out.append(
            users + "On the synthetic text: " + sc["verdict"] + " Every user "
            f"written {sc['settings']['paper_users'] / sc['settings']['n_users']:.3g} times gives the same "
            "release as this smaller noise: a test of scale, not a privacy setting."
        )
        out.append("**Is it the k-grams per user?** On the synthetic text: " + reason["small_limit"]["text"])
    t2 = table2_text(entry, real)
    if t2:
        out.append(t2)
    return out


def scaled_rows(reason: dict) -> list[dict]:
    """k-grams per length at the noise of the paper's number of users, beside the paper's Table 4."""
    sc = reason["at_paper_users"]
    here = {r["quantity"]: r for r in sc["rows"]}
    T = sc["settings"]["max_length"]
    return [
        {
            "k": k,
            **{f"{name} (ours)": fmt(here[f"{name}, k = {k}"]["here"]) for name in pr.TABLE4.values},
            "DPNE (paper)": fmt_paper(pr.TABLE4.values["DPNE"][k - 1]),
            "DPSU-single (paper)": fmt_paper(pr.TABLE4.values["DPSU-single"][k - 1]),
        }
        for k in range(1, T + 1)
    ]


def _current_hash(corpus_info: dict, settings) -> str | None:
    """The content hash of the corpus the entry was measured on, when it is loaded in this server (never
    generates the paper corpus just to check)."""
    size = corpus_info.get("size")
    if size in ("chat", "real"):  # checked when the page shows the chat (never loaded just for this)
        return settings.private.content_hash if settings is not None and settings.data == "chat" else None
    if size == "classroom" or ("private", size) in corpus_panel._READY:
        return corpus_panel.sample_corpus("private", size).content_hash
    return None


def verdict(entry: dict) -> str:
    """The compare function's one-line verdict, followed by the measured reason when the script stored one."""
    return entry["verdict"] + (" " + entry["reason"] if entry.get("reason") else "")


def live_entry(section: PaperSection) -> dict:
    """A cheap comparison computed now, in the results file's shape."""
    c = section.live()
    return {
        "reported": next(k for k, v in vars(pr).items() if v is c.reported),
        "rows": c.rows,
        "reproduced": c.reproduced,
        "verdict": c.verdict,
        "seeds": c.seeds,
        "settings": c.settings,
        "live": f"dpcore.lab.paper_results.{section.live.__name__}",
    }


STAMP = ("date", "commit", "dpcore_version", "wall_seconds", "cpu_seconds", "loadavg")
"""What every measured entry records of how it was measured (scripts/paper_compare.py)."""


def provenance(entry: dict, settings=None) -> tuple[str, bool | None]:
    """("measured by … on <hash>, <date> …", stale?) — stale is None when the corpus is not loaded here."""
    if entry.get("live"):
        return f"Computed now by `{entry['live']}()` (no corpus, no noise).", False
    c = entry["corpus"]
    where = "the real chat's private part" if c["size"] in ("chat", "real") else f"the {c['size']}-size sample corpus"
    text = (
        f"Measured by `{SCRIPT}` on {where} {c['content_hash'][:12]} "
        f"({c['n_users']:,} users), {entry['date']}; dpcore {entry['dpcore_version']} ({entry['commit']}), "
        f"{entry['seeds']} seeds, {entry['wall_seconds']:.0f} s."
    )
    current = _current_hash(c, settings)
    return text, None if current is None else current != c["content_hash"]


# ------------------------------------------------------------------------------ the section
def paper_vs_here(page: str, settings=None, *, path: Path | None = None) -> None:
    """Draw the "Paper vs here" expander of ``page`` (a key of ``SECTIONS``)."""
    section = SECTIONS[page]
    applied = st.session_state.get(APPLIED_KEY) == page
    box = lazy_expander(f"📄 Paper vs here — {section.title}", key=f"{OPEN_KEY}_{page}", expanded=applied)
    if box is None:  # lazy (issue 29 item 4): the comparison is read and drawn only while the section is open
        return
    results = load_results(path).get("comparisons", {})
    entry = live_entry(section) if section.live else results.get(section.entry)
    real = results.get(section.real) if section.real else None
    values = preset(page, entry)
    with box:
        b1, b2, b3 = st.columns([1, 1, 2]) if section.real else (*st.columns([1, 3]), None)
        b1.button(
            "Paper's settings on the real chat" if section.real else "Use the paper's settings",
            key=f"{PRESET_KEY}_{page}",
            on_click=_apply,
            args=(page, values),
            type="primary" if not applied else "secondary",
            help="Sets this page's knobs and the sidebar's ε, δ and data to the paper's settings.",
        )
        if section.real:
            synthetic = preset(page, entry, data="paper")
            b2.button(
                "… on the synthetic paper size",
                key=f"{PRESET_KEY}_{page}_paper",
                on_click=_apply,
                args=(page, synthetic),
                help="The same, on the 100,000-user synthetic corpus (slow the first time).",
            )
        (b3 or b2).caption(
            "Sets: "
            + ", ".join(f"{k} = {v:g}" if isinstance(v, float) else f"{k} = {v}" for k, v in values.items())
            + (". The paper-size corpus takes a while the first time." if values.get("corpus") == "paper" else ".")
        )
        st.markdown(section.intro)
        if entry is None:
            st.info(f"Not measured yet: run `nice -n 10 python {SCRIPT}` to fill this table.", icon="ℹ️")
            return
        if entry.get("corpus", {}).get("size", "paper") not in ("paper", "chat"):
            st.warning(
                f"Ours here are on the **{entry['corpus']['size']}-size** corpus "
                f"({entry['corpus']['n_users']:,} users), not the paper-size one: no LDA model and sampled "
                "sensitivities exist for the paper-size corpus yet (the sampler fits LDA twice per sampled "
                "pair).",
                icon="⚠️",
            )
        if real is None and entry.get("real"):  # TopicDP keeps its real-chat comparison inside its entry, stamped once
            real = {**{k: entry[k] for k in STAMP if k in entry}, **entry["real"]}
        st.dataframe(pd.DataFrame(table_rows(entry, real)), hide_index=True, width="stretch")
        shown = ((REAL_LABEL, real), (synthetic_label(entry), entry)) if real else (("", entry),)
        for label, e in shown:
            (st.success if e["reproduced"] else st.warning)(label + verdict(e), icon="✅" if e["reproduced"] else "❌")
        for label, e in (("here", real), ("here", entry), ("contrast", entry.get("contrast"))):
            if e and e.get("context"):
                where = _where(e["corpus"])
                if label == "contrast":
                    st.markdown(f"**The same comparison {where}:** {e['verdict']}")
                st.markdown(
                    f"What sets the noise {where} (ours; the paper states none of these): "
                    + "; ".join(f"{r['quantity']}: **{fmt(r['here'])}**" for r in e["context"])
                    + "."
                )
        reason = results.get(section.entry + "_reason")
        for paragraph in reason_sections(entry, reason, real):
            st.markdown(paragraph)
        if reason:
            st.caption(
                f"Synthetic text at the noise of {reason['at_paper_users']['settings']['paper_users']:,} users "
                f"(ε = {reason['at_paper_users']['settings']['epsilon']:.3g} on ours), k-grams released per "
                "length:"
            )
            st.dataframe(pd.DataFrame(scaled_rows(reason)), hide_index=True, width="stretch")
        if entry.get("table2"):
            chat = {i: r for i, r in enumerate(real["table2"]["rows"])} if real and real.get("table2") else {}
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            "k": i + 1,
                            "Reddit (003 Table 2)": fmt_paper(r["paper"]),
                            **({"real chat": fmt(chat[i]["here"])} if chat else {}),
                            ("synthetic, paper size" if chat else "here"): fmt(r["here"]),
                        }
                        for i, r in enumerate(entry["table2"]["rows"])
                    ]
                ),
                hide_index=True,
                width="stretch",
            )
        for e in (real, entry):
            if e is None:
                continue
            text, stale = provenance(e, settings)
            st.caption(
                text
                + (
                    ""
                    if e.get("live")
                    else {
                        None: " (Not checked against this server's corpus: it is not loaded.)",
                        False: " The corpus here has the same content hash.",
                        True: "",
                    }[stale]
                )
            )
            if stale:
                st.warning(
                    f"These numbers are **stale**: {_where(e['corpus'])} here no longer has the content hash "
                    f"they were measured on. Rerun `nice -n 10 python {SCRIPT}`.",
                    icon="⚠️",
                )


REAL_LABEL = "**Real chat:** "
SYNTHETIC_LABEL = "**Synthetic, paper size:** "


def _where(corpus: dict) -> str:
    if corpus["size"] == "chat":
        return f"on the real chat ({corpus['n_users']:,} people)"
    return f"on the {corpus['size']}-size corpus ({corpus['n_users']:,} users)"
