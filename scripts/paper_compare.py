"""Measure "paper vs here" on the real chat and the paper-scale sample corpus; write sample_data/paper_comparisons.json.

The pages' "Paper vs here" sections (dpui/common/paper_vs_here.py) read this file instead of recomputing: at
paper scale the DPNE comparison alone runs DPNE and three DPSU variants five times on 100,000 users.
Run from the repository root (heavy: use nice)::

    nice -n 10 python scripts/paper_compare.py                  # every comparison
    nice -n 10 python scripts/paper_compare.py --only bayesian_fig1 topicdp_fig52

``--only`` recomputes the named comparisons and keeps the others from the existing file. Each entry
records the corpus it ran on (size, content hash, users), the seeds, the settings, the dpcore version and
commit, the date, wall and CPU seconds. Comparisons (all in dpcore.lab.paper_results; no maths here):

* ``table4``: 003 Table 4 and Fig. 4 (:func:`dpcore.lab.paper_results.compare_table4`) on the paper corpus,
  plus 003 Table 2's statistic (distinct k-grams per user, the measured reason when the shape differs).
* ``table4_reason``: why Table 4's shape differs here, measured on the same index: one DPNE run at Table 4's
  settings through :func:`dpcore.dpne.pruning_chain` (which popular k-grams are candidates, thresholds, expected
  counts), the whole comparison at the noise of Reddit's 1.2 M users
  (:func:`dpcore.lab.paper_results.compare_table4_at_paper_users`, one seed) and DPNE vs DPSU-single at Δ0 = 25
  (our users then hold about as many k-grams per Δ0 as Reddit's at Δ0 = 100: the per-user-volume hypothesis).
* ``bayesian_fig1``: 000 Fig. 1 at ε = 0.1 on unigrams of the paper corpora, with what sets the noise
  (``context``: γ, σ_ps …), seed 0 alone (``seed0``) and the same comparison on the classroom corpora
  (``contrast``).
* ``table4_chat``: 003 Table 4 and Fig. 4 on the real chat's 920 private people (issue 20), coverage at K = 10 and
  100, 003 Table 2's statistic (``dpcore.text.profile``), what ε DPNE needs there
  (:func:`dpcore.lab.paper_results.dpne_epsilon_sweep`, at the DPNE page's settings), and the number-of-users hypothesis
  tested against the synthetic paper-size entry (:func:`dpcore.lab.paper_results.users_hypothesis_reason`, with both
  texts profiled at the chat's number of people). Minutes, not hours.
* ``bayesian_fig1_chat``: 000 Fig. 1 at ε = 0.1 on unigrams of the real chat (private 920 people, public 395), with
  our strict variant (L = 50, N_max = 10,000, the page's defaults) and the public baseline beside.
* ``topicdp_fig52``: 004 Figs. 5.2/5.6 on the LDA model and sampled sensitivities of the paper corpus when
  they exist on disk for γ = 0.1, else on the shipped classroom ones (the entry says which), and (``real``)
  on the real chat corpus's private split with its shipped fit and draws;
  tests/test_paper_scale_pages.py recomputes it, so the shipped numbers cannot drift silently.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import inspect
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np

import dpcore
from dpcore.bayesian import (
    bayesian_statistics,
    kl_vs_epsilon,
)
from dpcore.lab import paper_results as pr
from dpcore.metrics import kl_divergence

OUT = ROOT / "sample_data" / "paper_comparisons.json"
NAMES = ("table4", "table4_reason", "table4_chat", "bayesian_fig1", "bayesian_fig1_chat", "topicdp_fig52")
STRICT = (50, 10_000)  # the Bayesian page's default L and N_max (dpui.bayesian.modes) for the chat's strict row
REPORTED_NAME = {id(r): name for name, r in vars(pr).items() if isinstance(r, pr.Reported)}


def commit() -> str:
    try:
        rev = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "-C",
                str(ROOT),
                "status",
                "--porcelain",
                "--",
                "dpcore",
                "sample_data",
                "scripts",
                f":!{OUT.relative_to(ROOT)}",
            ],  # the results file itself does not count
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return rev + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def corpus_info(corpus, size: str) -> dict:
    return {"size": size, "content_hash": corpus.content_hash, "n_users": corpus.n_users, "n_tokens": corpus.n_tokens}


def as_json(c: pr.Comparison) -> dict:
    """A Comparison as plain JSON (the paper's numbers stay where they are: ``reported`` names them)."""

    def plain(v):
        if isinstance(v, (np.floating, np.integer)):
            return v.item()
        if isinstance(v, tuple):
            return list(v)
        return v

    return {
        "reported": REPORTED_NAME[id(c.reported)],
        "source": c.reported.source,
        "rows": [{k: plain(v) for k, v in r.items()} for r in c.rows],
        "reproduced": bool(c.reproduced),
        "verdict": c.verdict,
        "seeds": c.seeds,
        "settings": {k: plain(v) for k, v in c.settings.items()},
    }


def timed(f):
    t0, c0 = time.time(), time.process_time()
    out = f()
    out["wall_seconds"] = round(time.time() - t0, 1)
    out["cpu_seconds"] = round(time.process_time() - c0, 1)
    out["loadavg"] = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else None
    return out


def table2_rows(corpus) -> list[dict]:
    """003 Table 2's statistic on our corpus (dpcore.text.synthetic.kgram_stats), beside Reddit's."""
    from dpcore.text import synthetic as gen

    a = corpus.token_arrays
    tc = gen.TokenCorpus(
        words=a["words"],
        tokens=a["tokens"],
        sent_off=a["sent_off"],
        doc_off=a["doc_off"],
        doc_genre=np.zeros(len(a["doc_off"]) - 1, np.int8),
        doc_topic=np.zeros(0, np.int8),
        user_off=a["user_off"],
    )
    stats = gen.kgram_stats(tc, max_k=9)
    return [
        {
            "quantity": f"distinct {k}-grams per user",
            "paper": pr.TABLE2_REDDIT.values["Reddit"][k - 1],
            "here": float(stats[k]["per_user"]),
        }
        for k in range(1, 10)
    ]


def run_table4(seeds: int) -> dict:
    priv = dpcore.load_sample_corpus("private", size="paper")
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(priv), pr.TABLE4_SETTINGS["max_length"])
    out = as_json(pr.compare_table4(index, seeds=seeds))
    del index
    out["table2"] = {"reported": "TABLE2_REDDIT", "source": pr.TABLE2_REDDIT.source, "rows": table2_rows(priv)}
    out["corpus"] = corpus_info(priv, "paper")
    return out


def _profile(p) -> dict:
    """The parts of a dpcore.text.TextProfile the reasons quote (JSON: K as text)."""
    return {
        "n_users": p.n_users,
        "shared": {str(K): list(v) for K, v in p.shared.items()},
        "distinct_mean": list(p.distinct_mean),
        "distinct_median": list(p.distinct_median),
        "activity": p.activity(),
    }


def run_table4_chat(seeds: int) -> dict:
    """Table 4 at its own settings on the real chat's private people, what ε DPNE needs there, and the
    number-of-users hypothesis against the synthetic paper-size entry of the results file."""
    priv = dpcore.load_real_corpus("chat", which="private")
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(priv), pr.TABLE4_SETTINGS["max_length"])
    out = as_json(pr.compare_table4(index, seeds=seeds, Ks=(10,)))
    prof = dpcore.text.text_profile(index, max_k=9, ks=(10, 100))
    out["table2"] = {
        "reported": "TABLE2_REDDIT",
        "source": pr.TABLE2_REDDIT.source,
        "rows": [
            {
                "quantity": f"distinct {k}-grams per user",
                "paper": pr.TABLE2_REDDIT.values["Reddit"][k - 1],
                "here": prof.distinct_mean[k - 1],
            }
            for k in range(1, 10)
        ],
    }
    out["corpus"] = corpus_info(priv, "chat")
    sweep = pr.dpne_epsilon_sweep(index, seeds=3)
    out["epsilon_sweep"] = {
        "rows": sweep.rows,
        "sentence": sweep.sentence,
        "seeds": sweep.seeds,
        "settings": sweep.settings,
    }
    synthetic = json.loads(OUT.read_text()).get("comparisons", {}).get("table4") if OUT.exists() else None
    if synthetic is not None:
        paper = dpcore.load_sample_corpus("private", size="paper")
        assert paper.content_hash == synthetic["corpus"]["content_hash"], "rerun --only table4 first"
        same = dpcore.text.text_profile(paper, max_k=9, ks=(10, 100), max_users=priv.n_users)
        out["profiles"] = {"real": _profile(prof), "synthetic_same_people": _profile(same)}
        out["users_reason"] = pr.users_hypothesis_reason(
            out["rows"],
            synthetic["rows"],
            n_real=priv.n_users,
            n_synthetic=synthetic["corpus"]["n_users"],
            real_profile=out["profiles"]["real"],
            synthetic_profile=out["profiles"]["synthetic_same_people"],
        )
    return out


def run_bayesian_chat(seeds: int) -> dict:
    """000 Fig. 1 at ε = 0.1 on the real chat, the strict variant and the public baseline beside."""
    priv, pub = (dpcore.load_real_corpus("chat", which=w) for w in ("private", "public"))
    counts = dpcore.text.ngram_counts(priv, pub, n=pr.FIG1_SETTINGS["n"])
    out = as_json(pr.compare_bayesian_fig1(counts, seeds=seeds, strict=STRICT))
    out["corpus"] = corpus_info(priv, "chat")
    out["public_corpus"] = corpus_info(pub, "chat")
    out["context"] = bayesian_context(counts)
    out["calibration"] = "classic"
    out["mode"] = "local (as in the paper): γ measured on the corpus by brute force; strict beside it"
    return out


def run_table4_reason(seeds: int) -> dict:
    """One seed (0) each: the chain diagnostics, the users-equivalent noise, and Δ0 = 25."""
    priv = dpcore.load_sample_corpus("private", size="paper")
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(priv), pr.TABLE4_SETTINGS["max_length"])
    s = pr.TABLE4_SETTINGS
    rel = dpcore.dpne_extract(
        index,
        epsilon=s["epsilon"],
        delta=s["delta"],
        max_length=s["max_length"],
        contribution_limit=s["contribution_limit"],
        eta=s["eta"],
        rng=0,
    )
    chain = dpcore.dpne.pruning_chain(index, rel, K=100).rows
    scaled = as_json(pr.compare_table4_at_paper_users(index, seeds=1))
    small_limit = 25
    sizes, _ = pr.table4_sizes(index, 1, {**s, "contribution_limit": small_limit})
    per_user = {r["quantity"]: r["here"] for r in table2_rows(priv)}["distinct 6-grams per user"]
    rows = [
        {"k": k, "DPNE": float(sizes["DPNE"][k - 1]), "DPSU-single": float(sizes["DPSU-single"][k - 1])}
        for k in range(1, 10)
    ]
    return {
        "chain": chain,
        "chain_reason": pr.table4_chain_reason(chain, K=100),
        "at_paper_users": scaled,
        "small_limit": {
            "contribution_limit": small_limit,
            "rows": rows,
            "per_user_6grams": per_user,
            "text": pr.table4_volume_reason(rows, per_user_6grams=per_user, contribution_limit=small_limit),
        },
        "verdict": scaled["verdict"],
        "seeds": 1,
        "corpus": corpus_info(priv, "paper"),
    }


def _bayesian(size: str, seeds: int, *, seed0: bool) -> dict:
    priv = dpcore.load_sample_corpus("private", size=size)
    pub = dpcore.load_sample_corpus("public", size=size)
    counts = dpcore.text.ngram_counts(priv, pub, n=pr.FIG1_SETTINGS["n"])
    out = as_json(pr.compare_bayesian_fig1(counts, seeds=seeds))
    if seed0:
        out["seed0"] = as_json(pr.compare_bayesian_fig1(counts, seeds=1))["rows"]
    out["corpus"] = corpus_info(priv, size)
    out["public_corpus"] = corpus_info(pub, size)
    out["context"] = bayesian_context(counts)
    return out


def bayesian_context(counts) -> list[dict]:
    """What sets the noise (the same prepared mechanism compare_bayesian_fig1 draws from, kl_vs_epsilon's defaults)."""
    kw = {k: v.default for k, v in inspect.signature(kl_vs_epsilon).parameters.items() if k in ("S", "C", "rho", "W")}
    eps, delta = pr.FIG1_SETTINGS["epsilon"], inspect.signature(pr.compare_bayesian_fig1).parameters["delta"].default
    prep = bayesian_statistics(counts.user_counts, counts.public_counts, C=kw["C"]).prepare(S=kw["S"], rho=kw["rho"])
    return [
        {"quantity": "private users", "here": counts.n_users},
        {"quantity": "vocabulary |V| (public unigrams)", "here": prep.vocabulary_size},
        {
            "quantity": "BayesianDP sensitivity γ (brute force on this corpus, as in the paper)",
            "here": prep.sensitivity,
        },
        {
            "quantity": f"BayesianDP σ_ps at ε = {eps:g}, δ = {delta:g} (classic)",
            "here": prep.sigma(epsilon=eps, delta=delta, calibration="classic"),
        },
        {"quantity": "share of words down-weighted towards the public prior (w < 1)", "here": prep.share_downweighted},
        {"quantity": f"Laplace: counts per user capped at W = {kw['W']}, noise scale W/ε", "here": kw["W"] / eps},
        {
            "quantity": "KL of BayesianDP's noiseless posterior mean softmax(μ_ps)",
            "here": float(kl_divergence(counts.private_distribution(), prep.mean_theta())),
        },
    ]


def bayesian_reason(paper: dict, classroom: dict) -> str:
    """The measured reason, from the numbers of both sizes (nothing typed)."""

    def ctx(e, start):
        return next(r["here"] for r in e["context"] if r["quantity"].startswith(start))

    def kl(e, name):
        return next(r["here"] for r in e["rows"] if r["quantity"] == f"KL, {name}")

    c, p = classroom, paper
    return (
        f"Measured reason: BayesianDP's log-space noise σ_ps = ρ·γ·σ(ε, δ) does not shrink with more users "
        f"(γ = {ctx(c, 'BayesianDP sensitivity'):.3g} on {c['corpus']['n_users']:,} users, "
        f"{ctx(p, 'BayesianDP sensitivity'):.3g} on {p['corpus']['n_users']:,}; σ_ps {ctx(c, 'BayesianDP σ_ps'):.3g} → "
        f"{ctx(p, 'BayesianDP σ_ps'):.3g}), so its KL stays {kl(c, 'BayesianDP'):.3g} → {kl(p, 'BayesianDP'):.3g}; "
        f"Laplace's per-count noise (scale W/ε = {ctx(p, 'Laplace'):g}) is fixed while the counts grow with the "
        f"users, so its KL falls {kl(c, 'Laplace'):.3g} → {kl(p, 'Laplace'):.3g}. Without noise BayesianDP's "
        f"posterior mean has KL {ctx(p, 'KL of BayesianDP'):.3g}: the loss is the noise."
    )


def run_bayesian(seeds: int) -> dict:
    """On the paper corpus, with the classroom corpus as a contrast (same settings and seeds)."""
    out = _bayesian("paper", seeds, seed0=True)
    out["contrast"] = _bayesian("classroom", seeds, seed0=False)
    if not out["reproduced"]:
        out["reason"] = bayesian_reason(out, out["contrast"])
    out["calibration"] = "classic"
    out["mode"] = "local (as in the paper): γ measured on the corpus by brute force"
    return out


def topicdp_inputs():
    """(size, corpus, model, draws) for γ = 0.1: the paper corpus's when stored on disk, else the classroom's."""
    gamma = pr.TOPICDP_SETTINGS["gamma"]
    for size in ("paper", "classroom"):
        corpus = dpcore.load_sample_corpus("private", size=size)
        draws = dpcore.topicdp.load_sensitivity_draws(corpus.content_hash)
        model = dpcore.topicdp.load_topic_model(corpus.content_hash, lda=draws.lda)
        if model is not None and draws.covers(gamma):
            return size, corpus, model, draws
    raise SystemExit(
        "no stored LDA model and sampled sensitivities cover γ = 0.1 (not even the shipped classroom ones)"
    )


def _topicdp_on(corpus, model, draws, seeds: int, size: str) -> dict:
    s = pr.TOPICDP_SETTINGS
    sens = draws.sensitivity(gamma=s["gamma"], m=s["m"], n=s["n"])
    table = dpcore.topic_keyword_matrix(model, m=s["m"], n=s["n"])
    out = as_json(pr.compare_topicdp_fig52(table.matrix, delta_s=sens.delta_s, seeds=seeds))
    out["corpus"] = corpus_info(corpus, size)
    if not out["reproduced"]:
        out["reason"] = (
            "Behind Δ_s: "
            + dpcore.topicdp.summarise_draws(draws, gamma=s["gamma"], m=s["m"], n=s["n"], delta=s["delta"]).sentence
        )
    out["draws"] = {
        "key": draws.key,
        "pairs_stored": draws.n_pairs,
        "h": sens.h,
        "k": sens.k,
        "lda": draws.lda.as_dict(),
        "sampler": draws.sampler.as_dict(),
    }
    return out


def run_topicdp(seeds: int) -> dict:
    """On the synthetic corpus (paper size when its draws exist, else classroom) and, as ``real``, on the real
    chat corpus's private split (920 people; issue 20 item 5), each with its own LDA fit and sampled Δ_s."""
    size, corpus, model, draws = topicdp_inputs()
    out = _topicdp_on(corpus, model, draws, seeds, size)
    real = dpcore.load_real_corpus("chat", which="private")
    real_draws = dpcore.topicdp.load_sensitivity_draws(real.content_hash)
    real_model = dpcore.topicdp.load_topic_model(real.content_hash, lda=real_draws.lda)
    if real_model is not None and real_draws.covers(pr.TOPICDP_SETTINGS["gamma"]):
        out["real"] = _topicdp_on(real, real_model, real_draws, seeds, "real")
        out["real"]["corpus"]["name"] = "real chat, private split"
    return out


RUNS = {
    "table4": run_table4,
    "table4_reason": run_table4_reason,
    "table4_chat": run_table4_chat,
    "bayesian_fig1": run_bayesian,
    "bayesian_fig1_chat": run_bayesian_chat,
    "topicdp_fig52": run_topicdp,
}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", choices=NAMES, default=list(NAMES))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    doc = json.loads(args.out.read_text()) if args.out.exists() else {"comparisons": {}}
    code = commit()  # the code that runs (taken before: the worktree may change during a long run)
    for name in args.only:
        print(f"{name} …", flush=True)
        entry = timed(lambda: RUNS[name](args.seeds))
        entry.update(
            date=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            dpcore_version=dpcore.__version__,
            commit=code,
        )
        doc["comparisons"][name] = entry
        print(f"  {entry['verdict']}\n  wall {entry['wall_seconds']} s, cpu {entry['cpu_seconds']} s", flush=True)
        doc["generated_by"] = "scripts/paper_compare.py"
        args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
