"""Tune VIPS-LDA's defaults (clip norm B, iterations J) on public people only (issue 30 item 5).

The defaults were first chosen by L1 against the 920 *private* people's non-private fit, and docs/SPEC_vips.md
published those people's norms. This script reproduces the choice from the chat corpus' public split alone
(395 people; the private split is never loaded — tests/test_vips_tuning.py checks that):

* a fixed, seeded split of the public people into two disjoint halves: **A** (198 people) plays the public data
  (vocabulary and start λ₀, as the page takes them from the public split) and **B** (197 people) plays the private
  data (trained on), so the setting is the page's, at a smaller scale;
* every (B, J) of the grid at ε = 1, 2, 5, δ = 1e-5, K = 10, ``--seeds`` releases each; L1 on the 10 × 10 table of
  the non-private fit of the same model on B (dpcore.topicdp.vips_evaluation.vips_errors);
* the choice: the (B, J) with the smallest mean L1 over the three ε; and the half-B people's norms ‖S_u‖_F under
  the start from A (what B bounds) — the numbers docs/SPEC_vips.md publishes.

    python scripts/vips_tune_public.py            # the full grid, 5 seeds (about 1 min CPU)
    python scripts/vips_tune_public.py --seeds 2  # quicker
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import dpcore  # noqa: E402  (after the repo root is on the path, as in the other scripts)
from dpcore.topicdp import vips, vips_evaluation, vips_inputs  # noqa: E402

CLIP_NORMS = (0.5, 1.0, 2.0, 5.0, 20.0)
ITERATIONS = (1, 2, 3)
EPSILONS = (1.0, 2.0, 5.0)
DELTA = 1e-5
N_TOPICS = 10
SPLIT_SEED = 30  # the halves of the public split (issue 30)


def public_halves():
    """(A, B): the public split's people in two disjoint halves by a seeded permutation (A the larger)."""
    public = dpcore.load_real_corpus("chat", which="public")
    order = np.random.default_rng(SPLIT_SEED).permutation(public.n_users)
    half = (public.n_users + 1) // 2
    a = public.subset(sorted(order[:half].tolist()), name="chat public, half A")
    b = public.subset(sorted(order[half:].tolist()), name="chat public, half B")
    return a, b


def setup():
    """Vocabulary and start from half A, counts and the non-private reference fit on half B."""
    a, b = public_halves()
    vocab = vips_inputs.public_vocabulary(a)
    start = vips.public_start(a, vocabulary=vocab, n_topics=N_TOPICS)
    counts = vips_inputs.person_counts(b, vocab)
    ref = vips.vips_reference_fit(counts, n_topics=N_TOPICS, vocabulary=vocab, start=start)
    norms = vips.contribution_norms(counts, start.lam)
    return dict(a=a, b=b, vocab=vocab, start=start, counts=counts, ref=ref, norms=norms)


def sweep(s, *, seeds: int, clip_norms=CLIP_NORMS, iterations=ITERATIONS, epsilons=EPSILONS) -> dict:
    """{(B, J): [mean L1 at each ε]} over ``seeds`` releases each."""
    out = {}
    for j in iterations:
        for clip in clip_norms:
            out[clip, j] = [
                float(
                    np.mean(
                        [
                            vips_evaluation.vips_errors(
                                vips.vips_lda(
                                    s["counts"],
                                    n_topics=N_TOPICS,
                                    epsilon=eps,
                                    delta=DELTA,
                                    rng=seed,
                                    vocabulary=s["vocab"],
                                    start=s["start"],
                                    clip_norm=clip,
                                    iterations=j,
                                ),
                                s["ref"],
                            ).l1
                            for seed in range(seeds)
                        ]
                    )
                )
                for eps in epsilons
            ]
    return out


def choose(table: dict) -> tuple[float, int]:
    """The (B, J) with the smallest mean L1 over the ε of the sweep (ties: the smaller B, then J)."""
    return min(table, key=lambda k: (round(float(np.mean(table[k])), 6), k[1], k[0]))


def norm_summary(norms) -> dict:
    n = np.asarray(norms, dtype=float)
    return {
        "people": int(n.size),
        "median": float(np.median(n)),
        "p90": float(np.quantile(n, 0.9)),
        "max": float(n.max()),
    }


def token_summary(counts) -> dict:
    """Each person's number of vocabulary tokens (what an unclipped contribution grows with): median and max."""
    per_user = np.zeros(counts.n_users)
    np.add.at(per_user, counts.pw_user[counts.entry_pw], counts.counts.data)  # every stored count → its user
    return {"median": float(np.median(per_user)), "max": int(per_user.max())}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args(argv)
    c0 = time.process_time()
    s = setup()
    ns = norm_summary(s["norms"])
    print(
        f"public split: half A {s['a'].n_users} people (vocabulary {len(s['vocab'].words)} words, start), "
        f"half B {s['b'].n_users} people (trained on)"
    )
    print(f"half B's ‖S_u‖_F under A's start: median {ns['median']:.2f}, 90 % {ns['p90']:.1f}, max {ns['max']:.1f}")
    tok = token_summary(s["counts"])
    print(f"half B's tokens over the vocabulary per person: median {tok['median']:.0f}, max {tok['max']:,}")
    for clip in CLIP_NORMS:
        print(f"  share of half B above B = {clip:g}: {np.mean(np.asarray(s['norms']) > clip):.0%}")
    table = sweep(s, seeds=args.seeds)
    print(f"mean L1 (10 × 10, {args.seeds} seeds) at ε = " + " / ".join(f"{e:g}" for e in EPSILONS))
    for (clip, j), row in table.items():
        print(f"  J={j} B={clip:<4g} " + " / ".join(f"{v:5.2f}" for v in row) + f"   mean {np.mean(row):5.2f}")
    clip, j = choose(table)
    print(f"chosen on public data: B = {clip:g}, J = {j}")
    print(f"shipped defaults: B = {vips.DEFAULT_CLIP_NORM:g}, J = {vips.DEFAULT_ITERATIONS}")
    print(f"CPU {time.process_time() - c0:.1f} s")


if __name__ == "__main__":
    main()
