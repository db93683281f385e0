"""Refresh TopicDP's shipped results (sample_data/topicdp_sensitivity/).

    nice -n 10 python scripts/topicdp_ship.py --corpus real --gammas 0.1,0.05   # the real chat corpus's private split
    nice -n 10 python scripts/topicdp_ship.py                 # classroom corpus: γ = 0.1, then 0.05, then 0.02
    nice -n 10 python scripts/topicdp_ship.py --gammas 0.1    # only as far as γ = 0.1 (285 pairs)
    nice -n 10 python scripts/topicdp_ship.py --corpus paper --gammas 0.1   # the 100,000-user corpus (~20 s a pair)

Writes the full-corpus LDA model and the sampled Δ_i for the default settings (dpcore.LdaSettings(),
dpcore.topicdp.SamplerSettings(): N = the corpus' number of users). The draws file is extended in place every
10 pairs, so an interrupted run keeps its work and a rerun continues where it stopped; any γ uses the
first h(γ) draws. Nothing is deleted: files of an old corpus hash or format are dead (never read, their key
differs) and are removed by hand (git rm) when a corpus or the definition of Δ_i changes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore
from dpcore import topicdp as tdp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gammas", default="0.1,0.05,0.02")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--corpus",
        choices=("real",) + tuple(dpcore.text.SAMPLE_SIZES),
        default="classroom",
        help="real: load_real_corpus('chat', which='private'); else the sample corpus of that size",
    )
    args = ap.parse_args()
    out = tdp.shipped_cache_dir()
    corpus = (
        dpcore.load_real_corpus("chat", which="private")
        if args.corpus == "real"
        else dpcore.load_sample_corpus("private", size=args.corpus)
    )
    lda, sampler = dpcore.LdaSettings(), dpcore.topicdp.SamplerSettings()
    data = dpcore.topicdp.document_term_data(corpus, settings=lda)
    print(f"{corpus!r}\n{lda}\n{sampler} (N = {sampler.dataset_size(corpus.n_users)})", flush=True)
    model = dpcore.fit_topic_model(data, settings=lda)
    print(f"model: {tdp.save_topic_model(model, cache_dir=out).name}", flush=True)
    for gamma in (float(g) for g in args.gammas.split(",")):
        h = dpcore.topicdp.sensitivity_sampler_size(gamma=gamma).h
        t, c = time.perf_counter(), time.process_time()

        def report(done: int, total: int) -> None:
            if done % 25 == 0 or done == total:
                print(
                    f"{time.strftime('%H:%M:%S')} γ = {gamma:g}: {done}/{total} new pairs, "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )

        draws = tdp.extend_sensitivity_draws(
            data,
            n_pairs=h,
            lda=lda,
            sampler=sampler,
            cache_dir=out,
            workers=args.workers,
            save_every=10,
            progress=report,
        )
        r = draws.sensitivity(gamma=gamma, m=10, n=10)
        print(
            f"γ = {gamma:g}: h = {h}, wall {time.perf_counter() - t:.0f} s (this process' CPU "
            f"{time.process_time() - c:.0f} s), Δ_s(10 × 10) = {r.delta_s:.4g}, stored {draws.seconds:.0f} s of "
            f"fitting for {draws.n_pairs} pairs",
            flush=True,
        )


if __name__ == "__main__":
    main()
