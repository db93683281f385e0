"""Benchmarks for VIPS-LDA (dpcore.topicdp.vips, issue 23) on the real chat corpus. Prints every number it measures.

    python benchmarks/bench_vips.py                    # speed, the ε table, the keywords
    python benchmarks/bench_vips.py --parts sweep      # also the B × J sweep (a few minutes)

Setting (the page's): private split (920 people) trained on; vocabulary (1,000 words) and start from the
public split (395 other people); K = 10, δ = 1e-5; errors against the non-private fit of the same model
(same vocabulary, start, E- and M-steps; no clip, no noise; 50 passes) on its 10 × 10 topic–keyword table
(dpcore.topic_keyword_matrix), the release's topics aligned with dpcore.topicdp.align_topics.

Parts:
  speed     wall and CPU seconds of each step, cold (first call: numba compile, σ calibration) and warm.
  table     mean (min–max) L1 / RMSE / Kendall over seeds at ε = 0.5, 1, 2, 5, 10 at the defaults, beside:
            the public start alone (reads no private data: 0-DP), the clipped fit without noise (the
            clip's bias alone), a seeded random start (J = 10), and on the same reference table the
            Laplace matrix mechanism (b = 2m/ε) and the strict Gaussian (analytic σ for Δ = √(2m)).
  keywords  the top words of the 10 most prevalent topics: reference, and the release at ε = 1 and 5.
  sweep     mean L1 for B in (0.5, 1, 2, 5, 20) × J in (1, 2, 3, 5) at ε = 1, 2, 5 (public start).
  page      the TopicDP page's comparison (dpcore.topicdp.vips_comparison, issue 23 item 6): every mechanism's mean L1 to the
            page's one reference table (the standard LDA fit the five matrix mechanisms perturb) at ε = 0.5, 1, 2,
            5, 10, VIPS's own table's topics matched to a distinct prompt, the public-only fit and the twin, the ε
            TopicDP (thesis) needs for VIPS's L1; and the page's VIPS timings (setup cold / from the files, a
            release at a new ε).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore
from dpcore.metrics import kendall_tau_distance, l1_distance, rmse
from dpcore.topicdp import vips, vips_evaluation, vips_inputs

EPSILONS = (0.5, 1.0, 2.0, 5.0, 10.0)
DELTA = 1e-5
M = N = 10


def _timed(label, fn, *args, **kwargs):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    print(f"  {label:<44s} {time.perf_counter() - t0:7.2f} s wall {time.process_time() - c0:7.2f} s CPU", flush=True)
    return out


def _setup(verbose: bool):
    run = _timed if verbose else (lambda label, fn, *a, **k: fn(*a, **k))
    public = run(
        "load_real_corpus public + private",
        lambda: (dpcore.load_real_corpus("chat", which="public"), dpcore.load_real_corpus("chat", which="private")),
    )
    public, private = public
    vocab = run("public_vocabulary (public split)", vips_inputs.public_vocabulary, public)
    start = run("public_start (30 passes over the public split)", vips.public_start, public, vocabulary=vocab)
    counts = run("person_counts (private split)", vips_inputs.person_counts, private, vocab)
    ref = run(
        "vips_reference_fit (50 passes, non-private)", vips.vips_reference_fit, counts, vocabulary=vocab, start=start
    )
    return public, private, vocab, start, counts, ref


def part_speed():
    print("speed (2 cores shared; cold = first call in the process)")
    _, private, vocab, start, counts, _ = _setup(verbose=True)
    for i in range(2):
        _timed(
            f"vips_lda at the defaults, ε = 1 ({'cold' if i == 0 else 'warm'})",
            vips.vips_lda,
            counts,
            epsilon=1.0,
            delta=DELTA,
            rng=i,
            vocabulary=vocab,
            start=start,
        )
    _timed(
        "vips_lda at ε = 3.7 (new σ calibration)",
        vips.vips_lda,
        counts,
        epsilon=3.7,
        delta=DELTA,
        rng=0,
        vocabulary=vocab,
        start=start,
    )
    _timed(
        "vips_lda from the Corpus (counts included)",
        vips.vips_lda,
        private,
        epsilon=1.0,
        delta=DELTA,
        rng=0,
        vocabulary=vocab,
        start=start,
    )
    _timed(
        "vips_lda, J = 10",
        vips.vips_lda,
        counts,
        epsilon=1.0,
        delta=DELTA,
        iterations=10,
        rng=0,
        vocabulary=vocab,
        start=start,
    )


def _as_release(lam, like):
    p = lam.sum(axis=1)
    return vips.VipsRelease(
        topic_word=lam / p[:, None],
        prevalence=p,
        words=like.words,
        sigma=0.0,
        clip_norm=None,
        iterations=1,
        n_topics=lam.shape[0],
        epsilon=None,
        delta=None,
        accountant="",
        vocabulary_source="",
        start_source="",
        guarantee=dpcore.guarantees.no_protection(),
    )


def _matrix_errors(w, noisy):
    y = np.maximum(noisy, 0.0)
    rows = y.sum(axis=1, keepdims=True)
    y = np.where(rows > 0, y / np.where(rows > 0, rows, 1.0), 1.0 / w.shape[1])
    return l1_distance(w, y), rmse(w, y), kendall_tau_distance(w, y)


def _fmt(values):
    a = np.asarray(values)
    return f"{a.mean():6.2f} ({a.min():5.2f}–{a.max():5.2f})"


def part_table(seeds: int):
    _, _, vocab, start, counts, ref = _setup(verbose=False)
    w = dpcore.topic_keyword_matrix(ref.topic_model(), m=M, n=N).matrix
    public_only = vips_evaluation.vips_errors(_as_release(start.lam, ref), ref)
    clip_only = vips_evaluation.vips_errors(
        _as_release(
            vips._fit(
                counts,
                start.lam,
                iterations=vips.DEFAULT_ITERATIONS,
                clip_norm=vips.DEFAULT_CLIP_NORM,
                sigma=0.0,
                rng=None,
            ),
            ref,
        ),
        ref,
    )
    print(
        f"errors on the reference's {M} × {N} table (L1 ≤ {2 * M}); B = {vips.DEFAULT_CLIP_NORM:g}, "
        f"J = {vips.DEFAULT_ITERATIONS}, {seeds} seeds; mean (min–max)"
    )
    print(
        f"  public start alone (0-DP):   L1 {public_only.l1:6.2f}  RMSE {public_only.rmse:.4f}  "
        f"Kendall {public_only.kendall:.3f}"
    )
    print(
        f"  clipped, no noise (not DP):  L1 {clip_only.l1:6.2f}  RMSE {clip_only.rmse:.4f}  "
        f"Kendall {clip_only.kendall:.3f}"
    )
    print(
        "     ε      σ   VIPS L1                 RMSE    Kendall   seeded start J=10 L1   Laplace L1  strict-Gauss L1"
    )
    seeded = vips.seeded_start(vocab)
    for eps in EPSILONS:
        errs = [
            vips_evaluation.vips_errors(
                vips.vips_lda(counts, epsilon=eps, delta=DELTA, rng=s, vocabulary=vocab, start=start), ref
            )
            for s in range(seeds)
        ]
        rnd = [
            vips_evaluation.vips_errors(
                vips.vips_lda(
                    counts,
                    epsilon=eps,
                    delta=DELTA,
                    rng=s,
                    vocabulary=vocab,
                    iterations=10,
                    clip_norm=20.0,
                    start=seeded,
                ),
                ref,
            ).l1
            for s in range(min(seeds, 3))
        ]
        rng = np.random.default_rng(0)
        lap = [_matrix_errors(w, w + rng.laplace(0.0, 2 * M / eps, w.shape))[0] for _ in range(200)]
        sg = dpcore.mechanisms.analytic_gaussian_sigma(epsilon=eps, delta=DELTA, sensitivity=np.sqrt(2 * M))
        gau = [_matrix_errors(w, w + sg * rng.standard_normal(w.shape))[0] for _ in range(200)]
        sigma = vips.vips_sigma(
            epsilon=eps, delta=DELTA, iterations=vips.DEFAULT_ITERATIONS, clip_norm=vips.DEFAULT_CLIP_NORM
        )
        print(
            f"  {eps:5g} {sigma:7.3f}  {_fmt([e.l1 for e in errs])}  {np.mean([e.rmse for e in errs]):.4f}  "
            f"{np.mean([e.kendall for e in errs]):.3f}     {_fmt(rnd)}   {np.mean(lap):6.2f}      "
            f"{np.mean(gau):6.2f}",
            flush=True,
        )


def part_keywords():
    _, _, vocab, start, counts, ref = _setup(verbose=False)
    table = dpcore.topic_keyword_matrix(ref.topic_model(), m=M, n=N)
    print("top words of the reference's 10 most prevalent topics, and of the aligned released topics")
    rels = {
        eps: vips.vips_lda(counts, epsilon=eps, delta=DELTA, rng=0, vocabulary=vocab, start=start) for eps in (1.0, 5.0)
    }
    perms = {eps: dpcore.topicdp.align_topics(ref.topic_word, r.topic_word) for eps, r in rels.items()}
    for t in table.topics:
        print(f"  ref    {', '.join(ref.keywords(t, 7))}")
        for eps, r in rels.items():
            print(f"  ε={eps:<4g} {', '.join(r.keywords(int(perms[eps][t]), 7))}")


def part_sweep(seeds: int):
    _, _, vocab, start, counts, ref = _setup(verbose=False)
    print("mean L1 (10 × 10) for B × J, public start")
    for iterations in (1, 2, 3, 5):
        for clip in (0.5, 1.0, 2.0, 5.0, 20.0):
            row = []
            for eps in (1.0, 2.0, 5.0):
                l1 = [
                    vips_evaluation.vips_errors(
                        vips.vips_lda(
                            counts,
                            epsilon=eps,
                            delta=DELTA,
                            rng=s,
                            vocabulary=vocab,
                            start=start,
                            clip_norm=clip,
                            iterations=iterations,
                        ),
                        ref,
                    ).l1
                    for s in range(seeds)
                ]
                row.append(f"ε={eps:g}: {np.mean(l1):5.2f}")
            print(f"  J={iterations} B={clip:<4g} " + "  ".join(row), flush=True)


def part_page(seeds: int):
    from dpcore import topicdp as tdp
    from dpcore.topicdp import vips_comparison as tv
    from dpcore.topicdp.prompts import match_topics_to_prompts, prompt_documents

    public = dpcore.load_real_corpus("chat", which="public")
    private = dpcore.load_real_corpus("chat", which="private")
    print("the page's VIPS timings (2 cores shared)")
    import tempfile

    with tempfile.TemporaryDirectory() as empty:
        setup = _timed(
            "vips_page_setup, nothing on disk (vocabulary, start, counts, twin)",
            tv.vips_page_setup,
            private,
            public,
            n_topics=10,
            cache_dir=empty,
        )
        _timed(
            "vips_page_setup, start and twin from their files",
            tv.vips_page_setup,
            private,
            public,
            n_topics=10,
            cache_dir=empty,
        )
    _timed(
        "vips_lda at the defaults, ε = 1 (first E-step computed)",
        vips.vips_lda,
        setup.counts,
        epsilon=1.0,
        delta=DELTA,
        rng=0,
        vocabulary=setup.vocabulary,
        start=setup.start,
    )
    _timed(
        "vips_lda at ε = 3.7 (new σ calibration, cached E-step)",
        vips.vips_lda,
        setup.counts,
        epsilon=3.7,
        delta=DELTA,
        rng=0,
        vocabulary=setup.vocabulary,
        start=setup.start,
    )
    _timed(
        "vips_lda at ε = 3.7 again (σ cached)",
        vips.vips_lda,
        setup.counts,
        epsilon=3.7,
        delta=DELTA,
        rng=1,
        vocabulary=setup.vocabulary,
        start=setup.start,
    )
    model = dpcore.topicdp.load_topic_model(private.content_hash)
    table = dpcore.topic_keyword_matrix(model, m=M, n=N)
    ds = dpcore.topicdp.load_sensitivity_draws(private.content_hash).sensitivity(gamma=0.1, m=M, n=N).delta_s
    docs = prompt_documents(private, setup.vocabulary.words)
    before = match_topics_to_prompts(table.matrix, table.words, prompt_documents(private, model.words)).matched
    pub = tv.compare_release(tv.public_only_release(setup), model=model, table=table, docs=docs)
    twin = tv.compare_release(setup.twin, model=model, table=table, docs=docs)
    print(
        f"\nL1 to the page's {M} × {N} table (L1 ≤ {2 * M}), δ = {DELTA:g}, Δ_s(γ = 0.1) = {ds:.4g}; mean of {seeds} "
        f"releases per mechanism and ε (VIPS: B = {vips.DEFAULT_CLIP_NORM:g}, J = {vips.DEFAULT_ITERATIONS})"
    )
    print(f"  before noise: the table matches {before} of {M} topics to a distinct prompt")
    print(f"  public-only fit (0-DP): L1 {pub.errors['l1']:.2f}, its own table matches {pub.match.matched}")
    print(f"  VIPS's twin (no clip, no noise, not private): L1 {twin.errors['l1']:.2f}, matches {twin.match.matched}")
    names = [*tdp.TOPIC_MECHANISMS, tv.VIPS_NAME]
    print("     ε  " + "  ".join(f"{n:>17s}" for n in names) + "   VIPS matched (min–max)   thesis ε for VIPS's L1")
    for eps in EPSILONS:
        means = tv.mean_l1_at(
            setup,
            model=model,
            table=table,
            epsilon=eps,
            delta=DELTA,
            delta_s=ds,
            repetitions=seeds,
            rng=np.random.default_rng([7, int(eps * 10)]),
        )
        sweep = tv.vips_sweep(
            setup, model=model, table=table, docs=docs, epsilons=(eps,), delta=DELTA, draws=seeds, seed=0
        )
        rels = [
            tv.compare_release(
                vips.vips_lda(
                    setup.counts, epsilon=eps, delta=DELTA, rng=s, vocabulary=setup.vocabulary, start=setup.start
                ),
                model=model,
                table=table,
                docs=docs,
            ).match.matched
            for s in range(seeds)
        ]
        thesis = tv.thesis_epsilon_for_l1(table.matrix, means[tv.VIPS_NAME], delta=DELTA, delta_s=ds)
        print(
            f"  {eps:5g}  "
            + "  ".join(f"{means[n]:17.2f}" for n in names)
            + f"   {sweep.matched[0]:4.1f} ({min(rels)}–{max(rels)})"
            + f"   {thesis:,.0f}",
            flush=True,
        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--parts",
        nargs="+",
        default=["speed", "table", "keywords"],
        choices=["speed", "table", "keywords", "sweep", "page"],
    )
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args(argv)
    for part in args.parts:
        {
            "speed": part_speed,
            "table": lambda: part_table(args.seeds),
            "keywords": part_keywords,
            "sweep": lambda: part_sweep(max(2, args.seeds // 2)),
            "page": lambda: part_page(args.seeds),
        }[part]()
        print()


if __name__ == "__main__":
    main()
