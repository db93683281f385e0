"""The README's "Sample corpora" tables: k-gram statistics of the sample corpora beside the real chat corpus.

Run by hand from the repo root:

    python benchmarks/kgram_table.py [--sizes classroom paper]   # 003 Table 2's statistic (k = 1..9)
    python benchmarks/kgram_table.py --calibration                # issue 20's calibration table (k = 1..6)

The first prints, per corpus, the mean number of distinct k-grams per user (003 Table 2's statistic) and the
share of the distinct k-grams used by one user only, beside 003's Reddit and the real chat corpus
(``dpcore.load_real_corpus("chat")``). The second prints the number of distinct k-grams used by >= 10 users
at the real corpus's number of users (1,315): the real corpus, the real corpus with every person cut at the
sample corpora's cap (``dpcore.text.synthetic.MAX_SENTENCES``), the generator with the real people's activity
(no cap; what tests/test_sample_data.py calibrates) and the first 1,315 users of the sample corpora (capped).
All statistics are ``dpcore.text.synthetic.kgram_stats`` / ``shared_kgrams``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore
from dpcore.lab.paper_results import TABLE2_REDDIT
from dpcore.text import Corpus, Document
from dpcore.text import synthetic as gen

# The generator before issue 20 (commit 7456c02, hand-written phrases and wordfreq words), first 1,315 users
# of its classroom corpus, measured with gen.shared_kgrams; it can no longer be recomputed from this tree.
BEFORE = (1601, 1368, 378, 237, 134, 65)


def truncated(corpus: Corpus, max_sentences: int) -> Corpus:
    """Every person's first ``max_sentences`` sentences (in document order), as the generator caps its users."""
    users = []
    for docs in corpus.users:
        kept, n = [], 0
        for d in docs:
            if n >= max_sentences:
                break
            s = d.sentences[: max_sentences - n]
            n += len(s)
            kept.append(Document(sentences=s, genre=d.genre))
        users.append(tuple(kept))
    return Corpus(user_ids=corpus.user_ids, users=tuple(users), name=f"{corpus.name}[<= {max_sentences}]")


def _timed(label: str, fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    print(f"# {label}: {time.perf_counter() - t0:.1f} s wall, {time.process_time() - c0:.1f} s CPU", file=sys.stderr)
    return out


def table2(sizes: list[str], which: list[str]) -> None:
    reddit = TABLE2_REDDIT.values["Reddit"]
    cols = [("003 Table 2: Reddit (1,217,516 users)", [f"{v:,.1f}" for v in reddit], None)]
    real = dpcore.load_real_corpus("chat")
    corpora = [(f"real chat ({real.n_users:,} people)", lambda: real)]
    for size in sizes:
        for w in which:
            corpora.append((f"{size}, {w}", lambda size=size, w=w: dpcore.load_sample_corpus(w, size=size)))
    for label, load in corpora:
        corpus = load()
        st = _timed(label, lambda: gen.kgram_stats(gen.token_corpus(corpus), max_k=9))
        if not label.startswith("real"):
            label = f"{label} ({corpus.n_users:,} users)"
        cols.append(
            (
                label,
                [f"{st[k]['per_user']:,.1f}" for k in range(1, 10)],
                [f"{st[k]['one_user_share']:.1%}" for k in range(1, 10)],
            )
        )
    print("| k | " + " | ".join(c[0] for c in cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for k in range(9):
        cells = [c[1][k] if c[2] is None else f"{c[1][k]} ({c[2][k]})" for c in cols]
        print(f"| {k + 1} | " + " | ".join(cells) + " |")


def calibration() -> None:
    real = dpcore.load_real_corpus("chat")
    n, cap = real.n_users, gen.MAX_SENTENCES
    target = gen.shared_kgrams(gen.token_corpus(real))
    cut = truncated(real, cap)
    cut_counts = gen.shared_kgrams(gen.token_corpus(cut))
    uncapped = _timed("uncapped", lambda: gen.generate(n, max_sentences=None))
    capped = _timed("capped", lambda: gen.generate(n))
    rows = [  # (label, counts, the counts they are compared with or None)
        (f"real chat ({n:,} people, {real.n_tokens / 1e6:.2f} M tokens)", target, None),
        (f"synthetic before (commit 7456c02, first {n:,} classroom users)", list(BEFORE), target),
        (
            f"synthetic now, real activity (`max_sentences=None`, {len(uncapped.tokens) / 1e6:.2f} M tokens)",
            gen.shared_kgrams(uncapped),
            target,
        ),
        (f"real chat, every person cut at {cap} sentences ({cut.n_tokens / 1e6:.2f} M tokens)", cut_counts, None),
        (
            f"synthetic now, sample corpora (cap {cap}; the first {n:,} users of classroom and paper, "
            f"{len(capped.tokens) / 1e6:.2f} M tokens)",
            gen.shared_kgrams(capped),
            cut_counts,
        ),
    ]
    print(
        f"| distinct k-grams used by ≥ 10 of {n:,} users (× the real row above) | "
        + " | ".join(f"k = {k}" for k in range(1, 7))
        + " |"
    )
    print("|---|" + "---:|" * 6)
    for label, counts, ref in rows:
        cells = [f"{c:,}" if ref is None else f"{c:,} ({c / r:.2f}×)" for c, r in zip(counts, ref or counts)]
        print(f"| {label} | " + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", nargs="*", default=["classroom", "paper"])
    ap.add_argument("--which", nargs="*", default=["private", "public"])
    ap.add_argument("--calibration", action="store_true", help="issue 20's calibration table instead")
    args = ap.parse_args()
    if args.calibration:
        calibration()
    else:
        table2(args.sizes, args.which)


if __name__ == "__main__":
    main()
