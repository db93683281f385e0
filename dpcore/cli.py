"""Command line for big corpora: ``python -m dpcore dpne|dpsu|kanon-coverage INPUT ... --out DIR``.

Issue 12. INPUT is a CSV/JSONL(.gz) file or a folder of them with a user and a text column
(:mod:`dpcore.text.stream`). ``dpne`` and ``dpsu`` write the released sets only — never counts — as one
sorted text file per length, ``ngrams-<k>.txt`` (one n-gram a line, tokens separated by one space),
and ``report.json`` with every setting, σ, σ_k, ρ_k, |V_k|, the number released per length (the size
of a released set is a function of the release) and the guarantee
(:meth:`dpcore.Guarantee.to_dict`). ``kanon-coverage`` compares a release folder with the
corpus' K-anonymous n-grams (evaluation only: it reads the private corpus; written to
``coverage.json``).

Output is written to a temporary folder beside ``--out`` and renamed at the end, so a failed run
leaves nothing half-written. Bad files and bad parameters print one line ``error: …`` and exit with
code 2 (argparse's own usage errors do the same). A progress line is drawn on stderr only when stderr
is a terminal.

Engines: ``local`` (numpy, one machine; :func:`dpcore.dpne` on the streamed corpus) and ``spark``
(:mod:`dpcore.dpne.spark_engine`, needs the ``[spark]`` extra and Java 17). For one int ``--seed`` both
release the same sets (keyed draws, :mod:`dpcore.mechanisms.keyed`). Without ``--seed`` a fresh seed is drawn
from the operating system.

The seed is never written to the output: the noise is a function of (seed, n-gram), so whoever knows
the seed can subtract it, and the guarantee holds only while the seed stays secret. report.json says
whether a seed was given; a fixed ``--seed`` is for tests and for checking that two engines agree.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

__all__ = ["main", "build_parser", "release_summary", "write_release"]

ENGINES = ("local", "spark")
DEFAULT_MAX_LENGTH = 6
"""T, as on the DP n-gram extraction page (tests/test_cli.py checks that the page's defaults agree)."""
DEFAULT_CONTRIBUTION_LIMIT = 50
"""Δ0, as on the DP n-gram extraction page."""
DEFAULT_ETA = 0.01
"""η, as on the DP n-gram extraction page."""


class _Progress:
    """One self-overwriting status line on stderr, drawn only when stderr is a terminal."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.perf_counter()
        self.total_bytes = 0

    def status(self, text: str) -> None:
        if self.enabled:
            self.stream.write(f"\r\x1b[K[{time.perf_counter() - self.t0:6.1f} s] {text}")
            self.stream.flush()

    def reading(self, records: int, done_bytes: int) -> None:
        if not self.total_bytes:
            self.status(f"reading: {records:,} records")
            return
        frac = min(done_bytes / self.total_bytes, 1.0)
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        self.status(f"reading [{bar}] {frac:4.0%}  {records:,} records")

    def done(self) -> None:
        if self.enabled:
            self.stream.write(f"\r\x1b[K[{time.perf_counter() - self.t0:6.1f} s] done\n")
            self.stream.flush()


def _positive_float(name):
    def parse(text):
        try:
            return float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None

    return parse


def _int(name):
    def parse(text):
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None

    return parse


def _common(p: argparse.ArgumentParser, *, release: bool = True) -> None:
    p.add_argument("input", metavar="INPUT", help="a CSV/JSONL(.gz) file or a folder of them")
    p.add_argument("--user-column", default="user", help="column/field with the user id (default: user)")
    p.add_argument("--text-column", default="text", help="column/field with the text (default: text)")
    p.add_argument(
        "--out", required=True, metavar="DIR", help="output folder (created; must not exist unless --overwrite)"
    )
    p.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    if release:
        p.add_argument("--epsilon", required=True, type=_positive_float("epsilon"), help="ε > 0")
        p.add_argument("--delta", required=True, type=_positive_float("delta"), help="δ in (0, 1)")
        p.add_argument(
            "--contribution-limit",
            type=_int("contribution_limit"),
            default=DEFAULT_CONTRIBUTION_LIMIT,
            metavar="Δ0",
            help=f"most items a user contributes per length (default {DEFAULT_CONTRIBUTION_LIMIT}, as in the app)",
        )
        p.add_argument(
            "--selection",
            choices=("random", "most-frequent"),
            default="random",
            help="which items a user over the limit keeps (default random)",
        )
        p.add_argument(
            "--seed",
            type=_int("seed"),
            default=None,
            help="int seed ≥ 0 of the keyed draws (default: a fresh one). Keep it secret: it is never "
            "written to the output, and publishing it voids the guarantee",
        )
        p.add_argument("--engine", choices=ENGINES, default="local", help="local (numpy) or spark (default local)")
        p.add_argument("--spark-master", default="local[*]", help="Spark master URL (engine spark; default local[*])")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m dpcore",
        description="Differentially private n-gram extraction (DPNE, DPSU; paper 003) on big corpora, as a batch job.",
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    p = sub.add_parser("dpne", help="release n-grams of length 1..T with DPNE (003 Algorithm 1)")
    _common(p)
    p.add_argument(
        "--max-length",
        type=_int("max_length"),
        default=DEFAULT_MAX_LENGTH,
        metavar="T",
        help=f"longest length (default {DEFAULT_MAX_LENGTH}, as in the app)",
    )
    p.add_argument(
        "--eta",
        type=_positive_float("eta"),
        default=DEFAULT_ETA,
        metavar="η",
        help=f"tolerated share of spurious k-grams, in (0, 1) (default {DEFAULT_ETA:g})",
    )
    p.add_argument(
        "--noise-decay",
        type=_positive_float("noise_decay"),
        default=1.0,
        metavar="c",
        help="σ_k = σ_1·c^(k−1) (default 1)",
    )
    p.add_argument("--pruning", choices=("both", "single"), default="both", help="valid k-grams rule (default both)")
    p = sub.add_parser("dpsu", help="release single tokens (1-grams) with DPSU, the weighted Gaussian policy")
    _common(p)
    p = sub.add_parser(
        "kanon-coverage",
        help="share of the n-grams used by at least K users that a release holds "
        "(evaluation only, not DP: it reads the private corpus)",
    )
    _common(p, release=False)
    p.add_argument("--release", required=True, metavar="DIR", help="a folder written by the dpne or dpsu command")
    p.add_argument("--ks", default="10,20,50,100", help="comma-separated K values (default 10,20,50,100)")
    return ap


class CliError(Exception):
    """A problem to report as one line and exit code 2."""


def _run_release(args, progress: _Progress):
    """Run dpne/dpsu on the chosen engine. Returns (BatchRelease, settings dict)."""
    from .dpne.batch import run_dpne_local

    seed = args.seed if args.seed is not None else secrets.randbelow(2**63)
    if seed < 0:
        raise CliError(f"seed must be >= 0, got seed={seed}")
    if args.command == "dpsu":
        T, eta, c, pruning = 1, 0.5, 1.0, "both"  # η, c and the pruning rule do not act at T = 1
    else:
        T, eta, c, pruning = args.max_length, args.eta, args.noise_decay, args.pruning
    params = dict(
        epsilon=args.epsilon,
        delta=args.delta,
        max_length=T,
        contribution_limit=args.contribution_limit,
        eta=eta,
        noise_decay=c,
        pruning=pruning,
        selection=args.selection,
    )
    _validate(params)
    if args.engine == "spark":
        from .dpne.spark_engine import run_dpne_spark

        progress.status("Spark: starting")
        rel = run_dpne_spark(
            args.input,
            seed=seed,
            user_column=args.user_column,
            text_column=args.text_column,
            master=args.spark_master,
            progress=progress.status,
            **params,
        )
    else:
        rel = run_dpne_local(
            args.input,
            seed=seed,
            user_column=args.user_column,
            text_column=args.text_column,
            progress=progress,
            **params,
        )
    settings = {
        "command": args.command,
        "engine": args.engine,
        "seed": "given (not recorded)" if args.seed is not None else "fresh (not recorded)",
        "input": str(args.input),
        "user_column": args.user_column,
        "text_column": args.text_column,
        **params,
    }
    if args.command == "dpsu":
        for key in ("eta", "noise_decay", "pruning", "max_length"):
            settings.pop(key)
    if args.engine == "spark":
        settings["spark_master"] = args.spark_master
    return rel, settings


def _validate(params: dict) -> None:
    """The library's own checks (one message naming parameter, rule and value), before reading any data."""
    from .dpne.accounting import dpne_noise_scales, spurious_threshold
    from .validation import check_choice, check_int

    dpne_noise_scales(
        epsilon=params["epsilon"],
        delta=params["delta"],
        max_length=params["max_length"],
        noise_decay=params["noise_decay"],
    )
    check_int("contribution_limit", params["contribution_limit"], low=1)
    spurious_threshold(1.0, params["eta"], 1, 1)
    check_choice("pruning", params["pruning"], ("both", "single"))


def write_release(out_dir: Path, rel, settings: dict, *, overwrite: bool = False) -> None:
    """Write ``ngrams-<k>.txt`` per length and ``report.json`` into a temporary folder, then rename it."""
    report = {
        "settings": settings,
        "released_per_length": {str(k): len(v) for k, v in sorted(rel.sets.items())},
        "sigma": rel.sigma,
        "sigma_k": {str(k): v for k, v in sorted(rel.sigmas.items())},
        "rho_k": {str(k): (float(v) if np.isfinite(v) else None) for k, v in sorted(rel.thresholds.items())},
        "valid_count_k": {str(k): v for k, v in sorted(rel.valid_counts.items())},
        "guarantee": rel.guarantee.to_dict(),
        "files": [f"ngrams-{k}.txt" for k in sorted(rel.sets)],
        "note": "The files hold the released sets only, never counts. |V_1| is not defined (unbounded vocabulary); "
        "ρ_k and |V_k| are given for the lengths reached before the first empty set; ρ_k is null where "
        "|V_k| = 0 (nothing can be released).",
    }
    _atomic_dir(out_dir, overwrite, lambda tmp: _write_files(tmp, rel.sets, report))


def release_summary(out_dir: Path, rel, settings: dict) -> str:
    """What a run released, for the terminal: the count per length (a function of the release), the settings,
    σ and ρ_k, the guarantee and where the files are. Nothing else computed from the corpus (no number of
    users, no counts of an n-gram)."""
    what = "single tokens" if settings["command"] == "dpsu" else "n-grams"
    total = sum(len(v) for v in rel.sets.values())
    lines = [f"{settings['command'].upper()} released {total:,} {what} (the sets only, never counts) into {out_dir}:"]
    for k, grams in sorted(rel.sets.items()):
        lines.append(f"  length {k}: {len(grams):>9,}  ngrams-{k}.txt")
    knobs = [f"ε = {settings['epsilon']:g}", f"δ = {settings['delta']:g}"]
    if "max_length" in settings:
        knobs.append(f"T = {settings['max_length']}")
    knobs.append(f"Δ0 = {settings['contribution_limit']}")
    if "eta" in settings:
        knobs += [f"η = {settings['eta']:g}", f"c = {settings['noise_decay']:g}", f"pruning {settings['pruning']}"]
    knobs += [f"selection {settings['selection']}", f"engine {settings['engine']}", f"seed {settings['seed']}"]
    lines.append("Settings: " + ", ".join(knobs))
    rho = ", ".join(f"ρ_{k} = {v:.4g}" for k, v in sorted(rel.thresholds.items()) if np.isfinite(v))
    sigmas = sorted(rel.sigmas.items())
    sig = (
        f"σ_k = {sigmas[0][1]:.4g} at every length"
        if len({f"{v:.4g}" for _, v in sigmas}) == 1
        else ", ".join(f"σ_{k} = {v:.4g}" for k, v in sigmas)
    )
    lines.append(f"Noise: σ = {rel.sigma:.4g} ({sig}); thresholds {rho}")
    lines.append(f"Guarantee: {rel.guarantee.label}")
    lines.append(f"Report (every setting, σ_k, ρ_k, |V_k|): {out_dir / 'report.json'}")
    return "\n".join(lines)


def _write_files(tmp: Path, sets: dict, report: dict) -> None:
    for k, grams in sorted(sets.items()):
        with open(tmp / f"ngrams-{k}.txt", "w", encoding="utf-8", newline="\n") as fh:
            for g in sorted(grams):
                fh.write(g + "\n")
    with open(tmp / "report.json", "w", encoding="utf-8") as fh:
        json.dump(report, fh, indent=2, ensure_ascii=False, allow_nan=False, default=_json_default)
        fh.write("\n")


def _json_default(v):
    if isinstance(v, np.generic):
        return v.item()
    raise TypeError(f"not JSON serialisable: {type(v).__name__}")


def _check_out(out_dir: Path, overwrite: bool) -> None:
    if out_dir.exists() and not overwrite:
        raise CliError(f"--out {str(out_dir)!r} exists; choose another folder or pass --overwrite")
    if out_dir.exists() and not out_dir.is_dir():
        raise CliError(f"--out {str(out_dir)!r} exists and is not a folder")
    parent = out_dir.parent if str(out_dir.parent) else Path(".")
    if not parent.is_dir():
        raise CliError(f"--out {str(out_dir)!r}: its parent folder {str(parent)!r} does not exist")


def _atomic_dir(out_dir: Path, overwrite: bool, fill) -> None:
    _check_out(out_dir, overwrite)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.tmp-", dir=out_dir.parent))
    try:
        fill(tmp)
        if out_dir.exists():  # --overwrite: move the old folder aside, put the new one in, drop the old
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
            os.rename(out_dir, old / "x")
            os.rename(tmp, out_dir)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _read_release_dir(path: Path) -> dict[int, list[tuple[str, ...]]]:
    if not path.is_dir():
        raise CliError(f"--release {str(path)!r} is not a folder written by the dpne or dpsu command")
    out = {}
    for f in sorted(path.glob("ngrams-*.txt")):
        try:
            k = int(f.stem.split("-", 1)[1])
        except ValueError:
            continue
        with open(f, encoding="utf-8") as fh:
            grams = [tuple(line.split()) for line in fh if line.strip()]
        bad = next((g for g in grams if len(g) != k), None)
        if bad is not None:
            raise CliError(f"{f}: holds {' '.join(bad)!r}, which is not a {k}-gram")
        out[k] = grams
    if not out:
        raise CliError(f"--release {str(path)!r} holds no ngrams-<k>.txt file")
    return out


def _run_coverage(args, progress: _Progress) -> None:
    from .dpne.accounting import EVALUATION_ONLY, KANONYMITY_LABEL
    from .dpne.evaluation import kanonymity_coverage
    from .text.ngrams import build_ngram_index
    from .text.stream import read_token_corpus

    try:
        ks = tuple(int(x) for x in args.ks.split(",") if x.strip())
    except ValueError:
        raise CliError(f"ks must be comma-separated integers, got ks={args.ks!r}") from None
    if not ks or min(ks) < 1:
        raise CliError(f"ks must hold integers >= 1, got ks={args.ks!r}")
    released = _read_release_dir(Path(args.release))
    _check_out(Path(args.out), args.overwrite)
    progress.total_bytes = _input_bytes(args.input)
    tc = read_token_corpus(
        args.input, user_column=args.user_column, text_column=args.text_column, progress=progress.reading
    )
    T = max(released)
    progress.status(f"indexing n-grams of length 1..{T}")
    index = build_ngram_index(tc, T)
    ids = {k: tc.encode_rows(grams, k) for k, grams in released.items()}
    cov = kanonymity_coverage(index, ids, ks=ks, max_length=T)
    from .guarantees import k_anonymity

    report = {
        "label": EVALUATION_ONLY,
        "reference": KANONYMITY_LABEL,
        "reference_guarantee": k_anonymity(min(ks)).to_dict(),
        "settings": {
            "command": "kanon-coverage",
            "input": str(args.input),
            "release": str(args.release),
            "ks": list(ks),
            "user_column": args.user_column,
            "text_column": args.text_column,
        },
        "rows": [{**r, "share": None if r["share"] != r["share"] else r["share"]} for r in cov.rows],
    }

    def fill(tmp):
        with open(tmp / "coverage.json", "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=2, ensure_ascii=False, default=_json_default)
            fh.write("\n")

    _atomic_dir(Path(args.out), args.overwrite, fill)


def _input_bytes(path) -> int:
    from .text.stream import input_files

    return sum(os.path.getsize(f) for f in input_files(path))


def main(argv=None) -> int:
    """Entry point of ``python -m dpcore``. Returns the exit code (0 ok, 2 bad input or parameters)."""
    from .dpne.spark_engine import EngineUnavailable  # numpy only; pyspark is imported when the engine runs
    from .text.stream import InputError

    parser = build_parser()
    args = parser.parse_args(argv)  # exits with code 2 on a usage error
    progress = _Progress()
    summary = str(Path(args.out))
    try:
        if args.command == "kanon-coverage":
            _run_coverage(args, progress)
        else:
            _check_out(Path(args.out), args.overwrite)
            progress.total_bytes = _input_bytes(args.input)
            rel, settings = _run_release(args, progress)
            progress.status("writing")
            write_release(Path(args.out), rel, settings, overwrite=args.overwrite)
            summary = release_summary(Path(args.out), rel, settings)
    except (CliError, InputError, ValueError, TypeError) as exc:
        if progress.enabled:
            sys.stderr.write("\n")
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except EngineUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    progress.done()
    print(summary)
    return 0
