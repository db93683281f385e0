"""Benchmark of the batch path (issue 12): streaming reader + DPNE, local engine and Spark engine.

    python benchmarks/bench_cli.py --users 100000            # local engine
    python benchmarks/bench_cli.py --users 1000000           # local engine, 1 M users
    python benchmarks/bench_cli.py --users 100000 --spark    # also the Spark engine on local[2]

The input is a seeded JSONL.gz corpus written by this script (cached under --data, default /tmp):
a Zipf vocabulary of 20,000 words, a bank of 5,000 shared phrases (so long n-grams recur across
users), 3–8 sentences per user (heavy-tailed) of one or two phrases plus Zipf words — about 35 tokens
per user, like the generator behind benchmarks/bench_dpne.py. Every measured run is a fresh child
process; reported: wall time and CPU time per phase, peak RSS of the child (ru_maxrss), the peak of
the RSS summed over its process tree (for Spark: driver + JVM + Python workers; sampled every 0.5 s)
with the tree's CPU seconds, and the load average before and after.

Parameters as bench_dpne.py: ε = 4, δ = 1e-7, T = 10, Δ0 = 50, η = 0.01, seed 0.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
PARAMS = dict(epsilon=4.0, delta=1e-7, max_length=10, contribution_limit=50, eta=0.01)


def write_corpus(path: Path, n_users: int, seed: int = 1) -> None:
    """Seeded synthetic corpus, one JSON line per document {"user", "text"}; 1–3 documents per user."""
    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(20_000)], dtype=object)
    zipf_p = 1.0 / np.arange(1, vocab.size + 1) ** 1.07
    zipf_p /= zipf_p.sum()
    phrase_len = rng.integers(2, 7, size=5_000)
    phrases = [" ".join(vocab[rng.choice(vocab.size, size=n, p=zipf_p)]) for n in phrase_len]
    phrase_p = 1.0 / np.arange(1, len(phrases) + 1) ** 0.9
    phrase_p /= phrase_p.sum()
    tmp = path.with_suffix(".part")
    block = 20_000
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=3) as fh:
        for start in range(0, n_users, block):
            n = min(block, n_users - start)
            n_sent = 3 + np.minimum(rng.geometric(0.45, size=n) - 1, 5)
            total = int(n_sent.sum())
            ph1 = rng.choice(len(phrases), size=total, p=phrase_p)
            two = rng.random(total) < 0.4
            ph2 = rng.choice(len(phrases), size=total, p=phrase_p)
            n_words = rng.integers(0, 4, size=total)
            words = vocab[rng.choice(vocab.size, size=int(n_words.sum()), p=zipf_p)]
            w_at = np.concatenate([[0], np.cumsum(n_words)])
            s = 0
            for i in range(n):
                sents = []
                for j in range(s, s + int(n_sent[i])):
                    parts = [phrases[ph1[j]]]
                    if n_words[j]:
                        parts.append(" ".join(words[w_at[j] : w_at[j + 1]]))
                    if two[j]:
                        parts.append(phrases[ph2[j]])
                    sents.append(" ".join(parts))
                s += int(n_sent[i])
                uid = f"user{start + i}"
                cut = len(sents) // 2 if len(sents) > 4 else len(sents)  # some users write two documents
                fh.write(json.dumps({"user": uid, "text": ". ".join(sents[:cut]) + "."}) + "\n")
                if cut < len(sents):
                    fh.write(json.dumps({"user": uid, "text": ". ".join(sents[cut:]) + "."}) + "\n")
    os.replace(tmp, path)


def child(engine: str, path: str, master: str) -> None:
    sys.path.insert(0, str(ROOT))
    out = {"engine": engine}
    t0, c0 = time.perf_counter(), time.process_time()
    if engine == "local":
        from dpcore import dpne_extract
        from dpcore.text.stream import read_token_corpus

        tc = read_token_corpus(path)
        t1, c1 = time.perf_counter(), time.process_time()
        rel = dpne_extract(tc, rng=0, **PARAMS)
        t2, c2 = time.perf_counter(), time.process_time()
        out.update(
            users=tc.n_users,
            tokens=tc.n_tokens,
            read_wall=t1 - t0,
            read_cpu=c1 - c0,
            dpne_wall=t2 - t1,
            dpne_cpu=c2 - c1,
            released=rel.sizes,
        )
    else:
        from dpcore.dpne.spark_engine import run_dpne_spark

        rel = run_dpne_spark(path, seed=0, master=master, driver_memory="2g", **PARAMS)
        t2, c2 = time.perf_counter(), time.process_time()
        out.update(released={k: len(v) for k, v in rel.sets.items()}, driver_cpu=c2 - c0)
    out["total_wall"] = time.perf_counter() - t0
    out["peak_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    print("RESULT " + json.dumps(out))


def _tree(root: int) -> dict:
    """{pid: (rss bytes, cpu seconds)} of ``root`` and all its descendants, from /proc."""
    procs = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/stat") as fh:
                    f = fh.read().rsplit(")", 1)[1].split()
                procs[int(d)] = (
                    int(f[1]),
                    int(f[21]) * os.sysconf("SC_PAGE_SIZE"),
                    (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK"),
                )
            except (OSError, IndexError, ValueError):
                pass
    out, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if pid in procs:
            out[pid] = procs[pid][1:]
            todo.extend(c for c, v in procs.items() if v[0] == pid)
    return out


def run(engine: str, path: Path, master: str) -> dict:
    """Run one child; sample the RSS (sum over the process tree: Python, JVM, Python workers) every 0.5 s."""
    load0 = open("/proc/loadavg").read().split()[:3]
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", engine, str(path), "--master", master],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    peak, cpu = 0, {}
    import threading

    def sample():
        nonlocal peak
        while proc.poll() is None:
            t = _tree(proc.pid)
            peak = max(peak, sum(v[0] for v in t.values()))
            cpu.update({pid: v[1] for pid, v in t.items()})
            time.sleep(0.5)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    stdout, stderr = proc.communicate()
    th.join()
    p = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    line = next((ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit(f"child failed:\n{p.stderr[-3000:]}")
    res = json.loads(line[7:])
    res["load_before"], res["load_after"] = load0, open("/proc/loadavg").read().split()[:3]
    res["tree_peak_rss_gb"] = peak / 1024**3  # sampled every 0.5 s, summed over the process tree
    res["tree_cpu_s"] = sum(cpu.values())  # last sampled CPU time of every process of the tree
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--users", type=int, default=100_000)
    ap.add_argument("--spark", action="store_true", help="also the Spark engine")
    ap.add_argument("--no-local", action="store_true", help="skip the local engine")
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--data", default="/tmp", help="folder of the generated input (cached)")
    ap.add_argument("--child", nargs=2, metavar=("ENGINE", "PATH"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.master)
        return
    path = Path(args.data) / f"bench_cli_{args.users}.jsonl.gz"
    if not path.exists():
        t0 = time.perf_counter()
        write_corpus(path, args.users)
        print(f"wrote {path} ({path.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t0:.0f} s")
    print(f"python {sys.version.split()[0]}, cpus {os.cpu_count()}, params {PARAMS}")
    engines = ([] if args.no_local else ["local"]) + (["spark"] if args.spark else [])
    for engine in engines:
        r = run(engine, path, args.master)
        print(json.dumps(r, indent=None))


if __name__ == "__main__":
    main()
