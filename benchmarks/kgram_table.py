"""Average distinct k-grams per user (k = 1..9) of the sample corpora beside 003's Table 2 (Reddit).

Run by hand from the repo root:  python benchmarks/kgram_table.py [--sizes classroom paper]
Prints the README's markdown table: per size and corpus (private / public), the mean number of distinct
k-grams per user (003 Table 2's statistic) and the share of the distinct k-grams used by one user only,
computed by ``sample_data.generate.kgram_stats`` on the loaded corpus (the paper size is generated on
first use and cached, see ``dpcore.load_sample_corpus``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore  # noqa: E402
from dpcore.paper_results import TABLE2_REDDIT  # noqa: E402
from sample_data import generate as gen  # noqa: E402


def stats(which: str, size: str) -> tuple[dict, int]:
    corpus = dpcore.load_sample_corpus(which, size=size)
    if corpus.token_arrays is None:  # the shipped classroom file: the generator's arrays for it (same corpus,
        public = which == "public"  # tests/test_sample_data.py checks the file is exactly this)
        return gen.kgram_stats(gen.generate(corpus.n_users, seed=gen.PUBLIC_SEED if public else gen.PRIVATE_SEED,
                                            public=public), max_k=9), corpus.n_users
    a = corpus.token_arrays
    tc = gen.TokenCorpus(words=a["words"], tokens=a["tokens"], sent_off=a["sent_off"], doc_off=a["doc_off"],
                         doc_genre=np.zeros(len(a["doc_off"]) - 1, np.int8), doc_topic=np.zeros(0, np.int8),
                         user_off=a["user_off"])
    return gen.kgram_stats(tc, max_k=9), corpus.n_users


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", nargs="*", default=["classroom", "paper"])
    ap.add_argument("--which", nargs="*", default=["private", "public"])
    args = ap.parse_args()
    reddit = TABLE2_REDDIT.values["Reddit"]
    cols = [("003 Table 2: Reddit (1,217,516 users)", [f"{v:,.1f}" for v in reddit], None)]
    for size in args.sizes:
        for which in args.which:
            t0, c0 = time.perf_counter(), time.process_time()
            st, n = stats(which, size)
            print(f"# {size} {which}: {n:,} users, {time.perf_counter() - t0:.1f} s wall, "
                  f"{time.process_time() - c0:.1f} s CPU", file=sys.stderr)
            cols.append((f"{size} {which} ({n:,} users)", [f"{st[k]['per_user']:,.1f}" for k in range(1, 10)],
                         [f"{st[k]['one_user_share']:.1%}" for k in range(1, 10)]))
    print("| k | " + " | ".join(c[0] for c in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for k in range(9):
        cells = [c[1][k] if c[2] is None else f"{c[1][k]} ({c[2][k]})" for c in cols]
        print(f"| {k + 1} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
