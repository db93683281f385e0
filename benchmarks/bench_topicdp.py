"""Benchmarks for TopicDP (SPEC §5) on the shipped sample corpus. Prints every number it measures.

    python benchmarks/bench_topicdp.py                 # all quick parts (speed-up on 40 pairs)
    python benchmarks/bench_topicdp.py --full-sampler  # also re-run all 285 pairs (γ = 0.1) from scratch, 2 workers then 1
    python benchmarks/bench_topicdp.py --parts l1 page # only some parts

Parts:
  engines  the LDA engines on the same documents (90 % of the users to fit, 10 % held out): CPU and wall
           time of one full-corpus fit, held-out document-completion perplexity, and Δ_i (10 × 10) of the
           first sampler pairs at N = corpus size — how far apart neighbouring fits land.
  sampler  the shipped sampler run at γ = 0.1 (h = 285 pairs): Δ_s and the recorded wall time, and the
           parallel speed-up: the same P pairs fitted with 1 and with 2 worker processes (fresh caches).
  l1       mean (and 10–90 %) L1 / RMSE / Kendall distance of TopicDP, MVG and Laplace at ε = 3,
           γ = 0.1, 10 × 10, δ = 1e-5 (the page's default δ), 200 draws, on the release and before clipping.
  curves   (optional) mean L1 of the three mechanisms vs ε, γ and matrix size, 20 draws per point.
  page     median rerun time of pages/4_TopicDP.py after moving ε (AppTest, 20 runs, cached sensitivity).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore
from dpcore import topicdp as tdp


def _setup():
    corpus = dpcore.load_sample_corpus("private")
    lda, sampler = dpcore.LdaSettings(), dpcore.topicdp.SamplerSettings()
    data = dpcore.topicdp.document_term_data(corpus, settings=lda)
    return corpus, lda, sampler, data


def _completion_split(counts, rng):
    """Document completion (Wallach et al. 2009): each held-out document's tokens split at random in
    halves A (to estimate θ_d) and B (to score)."""
    counts = counts.tocsr()
    a_rows, b_rows = [], []
    for i in range(counts.shape[0]):
        s, e = counts.indptr[i], counts.indptr[i + 1]
        toks = np.repeat(counts.indices[s:e], counts.data[s:e].astype(int))
        if toks.size < 4:
            continue
        rng.shuffle(toks)
        h = toks.size // 2
        a_rows.append(np.bincount(toks[:h], minlength=counts.shape[1]))
        b_rows.append(np.bincount(toks[h:], minlength=counts.shape[1]))
    return np.array(a_rows, float), np.array(b_rows, float)


def completion_perplexity(topic_word, a, b, alpha, iters=100) -> float:
    """exp(−log p(B | A, φ) / |B|) with θ_d fitted to half A by EM (MAP with a Dirichlet(α + 1) prior)."""
    theta = np.full((a.shape[0], topic_word.shape[0]), 1.0 / topic_word.shape[0])
    for _ in range(iters):
        p = theta @ topic_word
        r = np.divide(a, p, out=np.zeros_like(a), where=a > 0)
        theta = theta * (r @ topic_word.T) + alpha
        theta /= theta.sum(axis=1, keepdims=True)
    ll = (b * np.log(np.maximum(theta @ topic_word, 1e-300))).sum()
    return float(np.exp(-ll / b.sum()))


def bench_engines(pairs: int) -> None:
    from dpcore.topicdp import fit_topic_word, tomotopy_available

    corpus = dpcore.load_sample_corpus("private")
    base = dpcore.LdaSettings()
    data = dpcore.topicdp.document_term_data(corpus, settings=base)
    rng = np.random.default_rng(20261122)
    users = rng.permutation(data.n_users)
    held = users[: data.n_users // 10]
    train = data.counts[data.rows_of(np.sort(users[data.n_users // 10 :]))]
    a, b = _completion_split(data.counts[data.rows_of(np.sort(held))], np.random.default_rng(1))
    print(
        f"corpus {corpus!r}; vocabulary {len(data.words)} words; fit on {train.shape[0]} documents "
        f"({int(train.sum())} tokens), held out {a.shape[0]} documents; load average {os.getloadavg()}"
    )
    # "vb" has two paths fitting the same model: numpy, and the compiled E-step when numba is installed
    configs = [("sklearn", {}, ""), ("vb", {}, "numpy"), ("vb", {}, "numba"), ("vb", {"max_iter": 5}, "")]
    if tomotopy_available():
        configs += [("tomotopy", {"gibbs_iter": g}, "") for g in (20, 30, 50, 100)]
    sk_cpu = None
    for engine, kw, kernel in configs:
        os.environ["DPCORE_VB_KERNEL"] = kernel
        if engine == "vb":
            fit_topic_word(train[:20], dpcore.LdaSettings(engine="vb"))  # numba compiles (or loads its cache) here
        lda = dpcore.LdaSettings(engine=engine, **kw)
        cpu, wall = time.process_time(), time.perf_counter()
        tw, _ = fit_topic_word(train, lda)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        sk_cpu = cpu if engine == "sklearn" else sk_cpu
        ppl = completion_perplexity(tw, a, b, alpha=1.0 / lda.n_topics)
        sampler = dpcore.topicdp.SamplerSettings()
        t = time.process_time()
        deltas = [tdp.pair_deltas(data, i, lda=lda, sampler=sampler)[-1, -1] for i in range(pairs)]
        pair_cpu = (time.process_time() - t) / pairs
        print(
            f"  {engine:8s} {kernel or ''} {kw or ''}: fit CPU {cpu:.2f} s (wall {wall:.2f} s, ×{sk_cpu / cpu:.1f} vs sklearn); "
            f"held-out completion perplexity {ppl:.1f}; Δ_i (10×10, N = {data.n_users}) of pairs 0..{pairs - 1}: "
            + " ".join(f"{d:.3f}" for d in deltas)
            + f"; CPU per pair {pair_cpu:.2f} s",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()}")


def bench_sampler(pairs: int, full: bool) -> None:
    corpus, lda, sampler, data = _setup()
    size = dpcore.topicdp.sensitivity_sampler_size(gamma=0.1)
    draws = dpcore.topicdp.load_sensitivity_draws(corpus.content_hash, lda=lda, sampler=sampler)
    print(f"corpus {corpus!r}")
    print(
        f"sampler settings: N = {sampler.sample_users} users per sampled dataset, seed {sampler.seed}; "
        f"LDA {lda.as_dict()}"
    )
    print(
        f"shipped draws: {draws.n_pairs} pairs, recorded wall time {draws.seconds:.1f} s "
        f"({draws.seconds / max(draws.n_pairs, 1):.2f} s per pair, 2 workers, shared machine)"
    )
    if draws.covers(0.1):
        for m in (2, 5, 10):
            r = draws.sensitivity(gamma=0.1, m=m, n=m)
            d = r.draws
            print(
                f"  γ = 0.1, {m}×{m}: Δ_s = {r.delta_s:.4f} (k = {r.k} of h = {r.h}); Δ_i median "
                f"{np.median(d):.4f}, 90th pct {np.percentile(d, 90):.4f}, share of Δ_i > 0.1: {np.mean(d > 0.1):.2f}"
            )
    if full:
        full_times = {}
        for workers in (2, 1):
            with tempfile.TemporaryDirectory() as tmp:
                load = os.getloadavg()[0]
                t = time.perf_counter()
                fresh = dpcore.topicdp.extend_sensitivity_draws(
                    data, n_pairs=size.h, lda=lda, sampler=sampler, cache_dir=tmp, workers=workers
                )
                full_times[workers] = time.perf_counter() - t
            same = (
                np.allclose(fresh.deltas, draws.deltas[: size.h], rtol=1e-4, atol=1e-6) if draws.covers(0.1) else None
            )
            print(
                f"full sampler γ = 0.1 ({size.h} pairs, {2 * size.h} LDA fits), {workers} worker(s): "
                f"{full_times[workers]:.1f} s (load average at start {load:.1f}); identical to shipped draws: {same}",
                flush=True,
            )
        print(f"full-run speed-up from 2 workers: {full_times[1] / full_times[2]:.2f}×", flush=True)
    timings, cpu_per_pair = {}, None
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            load = os.getloadavg()[0]
            t, c = time.perf_counter(), time.process_time()
            dpcore.topicdp.extend_sensitivity_draws(
                data, n_pairs=pairs, lda=lda, sampler=sampler, cache_dir=tmp, workers=workers
            )
            timings[workers] = time.perf_counter() - t
            if workers == 1:
                cpu_per_pair = (time.process_time() - c) / pairs
        print(
            f"{pairs} pairs with {workers} worker(s): wall {timings[workers]:.1f} s "
            f"({timings[workers] / pairs:.2f} s per pair; load average at start {load:.1f})"
            + (f"; CPU {cpu_per_pair:.2f} s per pair = {cpu_per_pair / 2:.2f} s per LDA fit" if workers == 1 else "")
        )
    print(
        f"speed-up from 2 workers: {timings[1] / timings[2]:.2f}× (load average now {os.getloadavg()[0]:.1f}; "
        f"the machine's 2 cores are shared, so this is a lower bound on an idle machine)"
    )
    for gamma in (0.1, 0.05, 0.02):
        h = dpcore.topicdp.sensitivity_sampler_size(gamma=gamma).h
        print(
            f"projected γ = {gamma:g} ({h} pairs) on 2 idle cores: {h * cpu_per_pair / 2 / 60:.1f} min "
            f"(CPU per pair × h / 2); measured rate with 2 workers here: {timings[2] / pairs * h / 60:.1f} min"
        )


def bench_l1(reps: int, cache_dir=None) -> None:
    """The thesis' settings (004 Figs. 5.2a and 5.6: ε = 3, γ = 0.1, m = n = 10, δ = 1e-4)."""
    corpus, lda, sampler, _ = _setup()
    eps, delta = 3.0, 1e-4
    model = dpcore.topicdp.load_topic_model(corpus.content_hash, lda=lda, cache_dir=cache_dir)
    if model is None:
        raise SystemExit("no stored topic model: run scripts/topicdp_ship.py (or the page) first")
    draws = dpcore.topicdp.load_sensitivity_draws(corpus.content_hash, lda=lda, sampler=sampler, cache_dir=cache_dir)
    sens = draws.sensitivity(gamma=0.1, m=10, n=10)
    w = dpcore.topic_keyword_matrix(model, m=10, n=10)
    print(
        f"ε = {eps:g}, γ = 0.1, δ = {delta:g}, 10 × 10, N = {sampler.dataset_size(corpus.n_users)}, "
        f"engine {lda.engine}: Δ_s = {sens.delta_s:.4f} (k = {sens.k} of h = {sens.h}); "
        f"TopicDP σ = {tdp.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=sens.delta_s, m=10, n=10):.4g}, "
        f"MVG σ = {tdp.mvg_sigma(epsilon=eps, delta=delta, m=10, n=10, gamma_f=10**0.5, s2=sens.delta_s):.4g}, "
        f"Laplace b = {tdp.matrix_laplace_scale(epsilon=eps, m=10):.4g}"
    )
    print("keywords:", ", ".join(w.words))
    print(tdp.summarise_draws(draws, gamma=0.1, m=10, n=10, delta=delta).sentence)
    print(tdp.compare_noise(delta_s=sens.delta_s, epsilons=(1, 3, 5, 10), delta=delta, m=10, n=10).sentence)
    for stage in ("released", "noisy"):
        errs = tdp.release_errors(
            w.matrix,
            epsilon=eps,
            delta=delta,
            sensitivity=sens.delta_s,
            repetitions=reps,
            rng=np.random.default_rng(20261121),
            stage=stage,
        )
        print(
            f"  {stage} ({reps} draws): "
            + "; ".join(
                f"{mech}: L1 {errs[mech]['l1'].mean():.4g} [{np.percentile(errs[mech]['l1'], 10):.4g}, "
                f"{np.percentile(errs[mech]['l1'], 90):.4g}], RMSE {errs[mech]['rmse'].mean():.4g}, "
                f"Kendall {errs[mech]['kendall'].mean():.3f}"
                for mech in tdp.TOPIC_MECHANISMS
            )
        )
    # What Δ_s would have to be for TopicDP to beat the baselines (for the report; nothing is tuned).
    for target in (1e-2, 1e-3, 1e-4):
        errs = tdp.release_errors(
            w.matrix,
            epsilon=eps,
            delta=delta,
            sensitivity=target,
            repetitions=50,
            rng=np.random.default_rng(1),
            stage="released",
        )
        print(
            f"  what-if Δ_s = {target:g}: TopicDP L1 {errs['TopicDP']['l1'].mean():.4g}, "
            f"MVG L1 {errs['MVG']['l1'].mean():.4g}, Laplace L1 {errs['Laplace']['l1'].mean():.4g}"
        )


def bench_curves(reps: int) -> None:
    corpus, lda, sampler, _ = _setup()
    model = dpcore.topicdp.load_topic_model(corpus.content_hash, lda=lda)
    draws = dpcore.topicdp.load_sensitivity_draws(corpus.content_hash, lda=lda, sampler=sampler)
    grids = {"epsilon": (1, 2, 3, 5, 10), "gamma": (0.02, 0.07, 0.12, 0.17, 0.22), "size": (2, 4, 6, 8, 10)}
    for parameter, values in grids.items():
        for stage in ("released", "noisy"):
            c = tdp.error_curve(
                model,
                draws,
                parameter=parameter,
                values=values,
                epsilon=3,
                delta=1e-5,
                gamma=0.1,
                m=10,
                n=10,
                repetitions=reps,
                rng=np.random.default_rng(5),
                stage=stage,
            )
            line = "; ".join(
                f"{mech} " + " ".join(f"{v:.3g}" for v in c.stats["l1"][mech][0]) for mech in tdp.TOPIC_MECHANISMS
            )
            print(
                f"mean L1 vs {parameter} {values} ({stage}): {line}; Δ_s per point "
                + " ".join(f"{s:.3g}" for s in c.sensitivities)
            )
            if stage == "released" and parameter == "epsilon":
                print(
                    "  Kendall vs ε: "
                    + "; ".join(
                        f"{mech} " + " ".join(f"{v:.3f}" for v in c.stats["kendall"][mech][0])
                        for mech in tdp.TOPIC_MECHANISMS
                    )
                )


def bench_page(runs: int) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "4_TopicDP.py"), default_timeout=300)
    t = time.perf_counter()
    at.run()
    first = time.perf_counter() - t
    assert not at.exception, [e.message for e in at.exception]
    assert not [b for b in at.button if b.key == "topicdp_run"], "no cached sensitivity for the default settings"
    times = []
    for i in range(runs):
        at.select_slider(key="eps").set_value(3.0 if i % 2 == 0 else 3.5)
        t = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t)
        assert not at.exception
    print(
        f"page first run {first * 1000:.0f} ms; rerun after an ε move: median {statistics.median(times) * 1000:.0f} ms "
        f"over {runs} runs (min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}); "
        f"load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--parts",
        nargs="*",
        default=["engines", "sampler", "l1", "page"],
        choices=["engines", "sampler", "l1", "page", "curves"],
    )
    ap.add_argument("--pairs", type=int, default=40, help="pairs for the speed-up measurement (default 40)")
    ap.add_argument("--full-sampler", action="store_true", help="re-run all 285 pairs from scratch (slow)")
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument(
        "--cache",
        default=None,
        help="read the model and draws from this folder (default: the user cache, then the shipped files)",
    )
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    if "engines" in args.parts:
        bench_engines(min(args.pairs, 5))
    if "l1" in args.parts:
        bench_l1(args.reps, args.cache)
    if "curves" in args.parts:
        bench_curves(20)
    if "page" in args.parts:
        bench_page(args.runs)
    if "sampler" in args.parts:
        bench_sampler(args.pairs, args.full_sampler)


if __name__ == "__main__":
    main()
