"""Command line (python -m dpcore): files, report, errors with exit code 2, atomic output."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dpcore import cli, dpne_extract
from dpcore.dpne import kanonymity_coverage
from dpcore.text.ngrams import build_ngram_index
from dpcore.text.stream import read_token_corpus

ROOT = Path(__file__).resolve().parent.parent


def _write_corpus(path: Path, n_users=150, seed=0):
    rng = np.random.default_rng(seed)
    words = ["the", "cat", "sat", "on", "mat", "dog", "ran", "far", "away", "home", "it's"]
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for u in range(n_users):
            for _ in range(2):
                text = ". ".join(" ".join(rng.choice(words, size=int(rng.integers(2, 8)))) for _ in range(3))
                fh.write(json.dumps({"uid": f"user{u}", "body": text}) + "\n")
    return path


@pytest.fixture()
def corpus(tmp_path):
    return _write_corpus(tmp_path / "c.jsonl.gz")


def _leftovers(parent: Path):
    return [p.name for p in parent.iterdir() if p.name.startswith(".")]


def test_dpne_writes_sorted_sets_and_full_report(corpus, tmp_path):
    out = tmp_path / "rel"
    args = [
        str(corpus),
        "--user-column",
        "uid",
        "--text-column",
        "body",
        "--epsilon",
        "4",
        "--delta",
        "1e-6",
        "--max-length",
        "5",
        "--contribution-limit",
        "6",
        "--eta",
        "0.2",
        "--seed",
        "9",
        "--out",
        str(out),
    ]
    assert cli.main(["dpne", *args]) == 0
    report = json.loads((out / "report.json").read_text())
    tc = read_token_corpus(corpus, user_column="uid", text_column="body")
    ref = dpne_extract(tc, epsilon=4, delta=1e-6, max_length=5, contribution_limit=6, eta=0.2, rng=9)
    assert sorted(p.name for p in out.iterdir()) == [f"ngrams-{k}.txt" for k in range(1, 6)] + ["report.json"]
    for k in range(1, 6):
        lines = (out / f"ngrams-{k}.txt").read_text().splitlines()
        assert lines == sorted(lines) and len(set(lines)) == len(lines)
        assert all(len(line.split(" ")) == k for line in lines)  # n-grams only, no counts
        assert {tuple(line.split(" ")) for line in lines} == ref.ngrams[k]
        assert report["released_per_length"][str(k)] == len(lines)
    assert sum(report["released_per_length"].values()) > 20
    s = report["settings"]
    assert (s["epsilon"], s["delta"], s["max_length"], s["contribution_limit"], s["eta"], s["engine"]) == (
        4.0,
        1e-6,
        5,
        6,
        0.2,
        "local",
    )
    # the seed is never written out: the noise is a function of it, so it must stay secret
    assert s["seed"] == "given (not recorded)"
    assert all("9" not in line for line in (out / "report.json").read_text().splitlines() if "seed" in line)
    assert report["sigma_k"] == {str(k): v for k, v in ref.sigmas.items()}
    assert report["rho_k"] == {str(k): (v if np.isfinite(v) else None) for k, v in ref.thresholds.items()}
    assert report["valid_count_k"] == {str(k): v for k, v in ref.valid_counts.items()}
    g = report["guarantee"]
    assert (g["kind"], g["epsilon"], g["delta"], g["colour"]) == ("approximate DP", 4.0, 1e-6, "green")
    assert _leftovers(tmp_path) == []


def test_dpsu_releases_tokens_only(corpus, tmp_path):
    out = tmp_path / "su"
    assert (
        cli.main(
            [
                "dpsu",
                str(corpus),
                "--user-column",
                "uid",
                "--text-column",
                "body",
                "--epsilon",
                "3",
                "--delta",
                "1e-5",
                "--seed",
                "1",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads((out / "report.json").read_text())
    assert sorted(p.name for p in out.iterdir()) == ["ngrams-1.txt", "report.json"]
    assert "eta" not in report["settings"] and list(report["sigma_k"]) == ["1"]
    from dpcore.dpne import dpsu_threshold

    sigma, rho = dpsu_threshold(
        epsilon=3, delta=1e-5, contribution_limit=cli.DEFAULT_CONTRIBUTION_LIMIT
    )  # Δ0 = 50 by default, as in the app
    assert report["sigma_k"]["1"] == pytest.approx(sigma) and report["rho_k"]["1"] == pytest.approx(rho)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--epsilon", "-1", "--delta", "1e-6"], "epsilon must be > 0"),
        (["--epsilon", "1", "--delta", "2"], "delta"),
        (["--epsilon", "1", "--delta", "1e-6", "--eta", "1.5"], "eta"),
        (["--epsilon", "1", "--delta", "1e-6", "--max-length", "0"], "max_length"),
        (["--epsilon", "1", "--delta", "1e-6", "--contribution-limit", "0"], "contribution_limit"),
        (["--epsilon", "1", "--delta", "1e-6", "--seed", "-4"], "seed must be >= 0"),
        (["--epsilon", "1", "--delta", "1e-6", "--user-column", "who"], "no field 'who'"),
    ],
)
def test_bad_parameters_exit_2_with_a_clear_message(corpus, tmp_path, capsys, extra, message):
    out = tmp_path / "o"
    assert (
        cli.main(["dpne", str(corpus), "--user-column", "uid", "--text-column", "body", *extra, "--out", str(out)]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err
    assert not out.exists() and _leftovers(tmp_path) == []


def test_bad_files_and_existing_out_exit_2(tmp_path, capsys, corpus):
    bad = tmp_path / "bad.csv.gz"
    bad.write_bytes(b"plain text, not gzip")
    base = ["--epsilon", "1", "--delta", "1e-6", "--out"]
    assert cli.main(["dpne", str(bad), *base, str(tmp_path / "o")]) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert cli.main(["dpne", str(tmp_path / "missing.csv"), *base, str(tmp_path / "o")]) == 2
    assert "not found" in capsys.readouterr().err
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "keep.txt").write_text("mine")
    assert (
        cli.main(["dpne", str(corpus), "--user-column", "uid", "--text-column", "body", *base, str(tmp_path / "taken")])
        == 2
    )
    assert "exists" in capsys.readouterr().err and (tmp_path / "taken" / "keep.txt").exists()
    # --overwrite replaces the whole folder
    assert (
        cli.main(
            [
                "dpne",
                str(corpus),
                "--user-column",
                "uid",
                "--text-column",
                "body",
                "--seed",
                "1",
                *base,
                str(tmp_path / "taken"),
                "--overwrite",
            ]
        )
        == 0
    )
    assert not (tmp_path / "taken" / "keep.txt").exists() and (tmp_path / "taken" / "report.json").exists()
    assert _leftovers(tmp_path) == []


def test_failure_while_writing_leaves_nothing(corpus, tmp_path, monkeypatch):
    def broken(tmp, sets, report):
        (tmp / "ngrams-1.txt").write_text("half")
        raise OSError("disk full")

    monkeypatch.setattr(cli, "_write_files", broken)
    with pytest.raises(OSError, match="disk full"):
        cli.main(
            [
                "dpne",
                str(corpus),
                "--user-column",
                "uid",
                "--text-column",
                "body",
                "--epsilon",
                "1",
                "--delta",
                "1e-6",
                "--out",
                str(tmp_path / "o"),
            ]
        )
    assert not (tmp_path / "o").exists() and _leftovers(tmp_path) == []


def test_kanon_coverage_matches_library(corpus, tmp_path):
    rel = tmp_path / "rel"
    common = [str(corpus), "--user-column", "uid", "--text-column", "body"]
    assert (
        cli.main(
            [
                "dpne",
                *common,
                "--epsilon",
                "5",
                "--delta",
                "1e-6",
                "--max-length",
                "3",
                "--seed",
                "2",
                "--out",
                str(rel),
            ]
        )
        == 0
    )
    assert (
        cli.main(["kanon-coverage", *common, "--release", str(rel), "--ks", "5,20", "--out", str(tmp_path / "cov")])
        == 0
    )
    got = json.loads((tmp_path / "cov" / "coverage.json").read_text())
    tc = read_token_corpus(corpus, user_column="uid", text_column="body")
    ref = dpne_extract(
        tc, epsilon=5, delta=1e-6, max_length=3, contribution_limit=cli.DEFAULT_CONTRIBUTION_LIMIT, eta=0.01, rng=2
    )
    expected = kanonymity_coverage(build_ngram_index(tc, 3), ref, ks=(5, 20), max_length=3).rows
    assert [(r["k"], r["K"], r["frequent"], r["covered"]) for r in got["rows"]] == [
        (r["k"], r["K"], r["frequent"], r["covered"]) for r in expected
    ]
    assert any(r["covered"] > 0 for r in got["rows"])
    assert "not DP" in got["reference"] and got["reference_guarantee"]["colour"] == "red"


def test_progress_only_on_a_terminal():
    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        p = cli._Progress(stream)
        p.total_bytes = 100
        p.reading(10, 50)
        p.done()
    assert "50%" in tty.getvalue() and "done" in tty.getvalue()
    assert pipe.getvalue() == ""


def test_python_m_dpcore_runs_and_reports_usage_errors(corpus, tmp_path):
    run = lambda *a: subprocess.run(
        [sys.executable, "-m", "dpcore", *a], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    ok = run(
        "dpne",
        str(corpus),
        "--user-column",
        "uid",
        "--text-column",
        "body",
        "--epsilon",
        "2",
        "--delta",
        "1e-6",
        "--max-length",
        "2",
        "--out",
        str(tmp_path / "o"),
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr == ""  # no progress line when stderr is not a terminal
    assert json.loads((tmp_path / "o" / "report.json").read_text())["settings"]["seed"] == "fresh (not recorded)"
    usage = run("dpne", str(corpus), "--epsilon", "2")
    assert usage.returncode == 2 and "--delta" in usage.stderr


def test_cli_prints_a_summary_of_what_was_released(corpus, tmp_path, capsys):
    """Issue 24 item 9: the terminal says what was released (per length, the settings, σ/ρ, the guarantee),
    not only the folder."""
    out = tmp_path / "rel"
    assert (
        cli.main(
            [
                "dpne",
                str(corpus),
                "--user-column",
                "uid",
                "--text-column",
                "body",
                "--epsilon",
                "4",
                "--delta",
                "1e-6",
                "--eta",
                "0.2",
                "--seed",
                "9",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    assert f"released {sum(report['released_per_length'].values()):,} n-grams" in printed
    for k, n in report["released_per_length"].items():
        assert len((out / f"ngrams-{k}.txt").read_text().splitlines()) == n
        assert f"length {k}: {n:>9,}  ngrams-{k}.txt" in printed
    assert "ε = 4, δ = 1e-06, T = 6, Δ0 = 50, η = 0.2" in printed  # the app's T and Δ0 when not given
    assert f"Guarantee: {report['guarantee']['label']}" in printed and "(ε, δ)-DP per user" in printed
    assert f"ρ_1 = {report['rho_k']['1']:.4g}" in printed and str(out / "report.json") in printed
    assert "seed given (not recorded)" in printed and "9" not in printed.split("Settings:")[1].split("\n")[0][-30:]


def test_cli_defaults_are_the_dpne_pages():
    """Issue 24 item 9: the command line's defaults (T, Δ0, η, c, pruning, selection) are the DP n-gram extraction
    page's, read off the page itself."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "3_DP_ngram_extraction.py"), default_timeout=300)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    page = {
        "max_length": at.slider(key="dpne_T").value,
        "contribution_limit": at.number_input(key="dpne_delta0").value,
        "eta": at.select_slider(key="dpne_eta").value,
        "noise_decay": at.select_slider(key="dpne_c").value,
        "pruning": at.radio(key="dpne_pruning").value,
        "selection": at.radio(key="dpne_selection").value,
    }
    args = cli.build_parser().parse_args(["dpne", "in.csv", "--epsilon", "1", "--delta", "1e-6", "--out", "o"])
    assert {k: getattr(args, k) for k in page} == page
    assert (args.max_length, args.contribution_limit) == (6, 50)


def _rows_file(path: Path, rows) -> Path:
    path.write_text("".join(json.dumps({"uid": u, "body": t}) + "\n" for u, t in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "rows",
    [
        [("alice", "the cat sat on the mat. the dog ran far away.")] * 3,
        [("alice", "the cat sat on the mat."), ("bob", "  "), ("", "the dog ran far away.")],  # bob: no words; no id
        [("alice", "the cat sat on the mat."), (None, "the dog ran far away.")],  # JSON null: no user either
    ],
)
def test_cli_refuses_a_one_user_input_as_the_app_does(tmp_path, capsys, rows):
    """Issue 24 item 9: one user's text released "with DP" is that user's text; the app's upload refuses it, so
    does the command line (exit 2, one line, nothing written), with the same rule: users with at least one word."""
    from dpcore.text import CorpusError, load_uploaded_corpus

    f = _rows_file(tmp_path / "one.jsonl", rows)
    with pytest.raises(CorpusError, match="at least 2"):
        load_uploaded_corpus(f.read_bytes(), f.name, user_column="uid", text_column="body")
    for command in ("dpne", "dpsu"):
        assert (
            cli.main(
                [
                    command,
                    str(f),
                    "--user-column",
                    "uid",
                    "--text-column",
                    "body",
                    "--epsilon",
                    "1",
                    "--delta",
                    "1e-6",
                    "--out",
                    str(tmp_path / "o"),
                ]
            )
            == 2
        )
        err = capsys.readouterr().err
        assert err.startswith("error: the input has 1 user(s) with text but at least 2 are needed"), err
        assert not (tmp_path / "o").exists() and _leftovers(tmp_path) == []
    two = _rows_file(tmp_path / "two.jsonl", [*rows, ("bob", "the cat ran home.")])
    assert load_uploaded_corpus(two.read_bytes(), two.name, user_column="uid", text_column="body").n_users == 2
    assert (
        cli.main(
            [
                "dpne",
                str(two),
                "--user-column",
                "uid",
                "--text-column",
                "body",
                "--epsilon",
                "1",
                "--delta",
                "1e-6",
                "--out",
                str(tmp_path / "o"),
            ]
        )
        == 0
    )
