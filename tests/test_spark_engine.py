"""Spark engine (dpcore.dpne.spark_engine): the same released sets as the local engine for one seed.

One SparkSession (master local[2], small JVM) for the whole test session. Skipped only when pyspark
or Java is missing AND the CI variable is unset; in CI a missing engine fails the test.
"""

from __future__ import annotations

import csv
import gzip
import json
import os
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from dpcore import cli
from dpcore.dpne import dpne_with_evaluation
from dpcore.dpne.batch import run_dpne_local
from dpcore.text.stream import read_token_corpus

ROOT = Path(__file__).resolve().parent.parent


def _engine_missing() -> str | None:
    try:
        import pyspark  # noqa: F401 (imported only to see whether the optional package is installed)
    except ImportError:
        return "pyspark is not installed (pip install -e '.[spark]')"
    if shutil.which("java") is None:
        return "java is not installed (apt-get install openjdk-17-jre-headless)"
    return None


@pytest.fixture(scope="session")
def spark():
    missing = _engine_missing()
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"the Spark engine must run in CI, but {missing}")
        pytest.skip(missing)
    from dpcore.dpne.spark_engine import spark_session

    session = spark_session(
        "local[2]", driver_memory="768m", conf={"spark.sql.shuffle.partitions": "4", "spark.executor.memory": "512m"}
    )
    yield session
    session.stop()


def _write_corpus(folder, n_users=160, seed=0):
    """Two files (CSV and JSONL.gz), users' records interleaved, a few heavy users over the limit."""
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(14)] + ["don't", "über"]
    phrases = [" ".join(rng.choice(words, size=int(rng.integers(2, 7)))) for _ in range(40)]
    recs = []
    for u in range(n_users):
        n_docs = 6 if u % 25 == 0 else int(rng.integers(1, 3))
        for _ in range(n_docs):
            recs.append((f"u-{u}", ". ".join(rng.choice(phrases, size=int(rng.integers(1, 5)))) + "!"))
    recs = [recs[i] for i in rng.permutation(len(recs))]
    half = len(recs) // 2
    folder.mkdir()
    with open(folder / "a.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["author", "body"])
        w.writerows(recs[:half])
    with gzip.open(folder / "b.jsonl.gz", "wt", encoding="utf-8") as fh:
        for u, t in recs[half:]:
            fh.write(json.dumps({"author": u, "body": t}) + "\n")
    return folder


COLS = dict(user_column="author", text_column="body")


@pytest.mark.slow
@pytest.mark.parametrize("pruning, selection", [("both", "random"), ("single", "most-frequent")])
def test_spark_and_local_release_the_same_sets(spark, tmp_path, pruning, selection):
    from dpcore.dpne.spark_engine import run_dpne_spark

    folder = _write_corpus(tmp_path / "in")
    kw = dict(
        epsilon=5, delta=1e-6, max_length=5, contribution_limit=6, eta=0.3, pruning=pruning, selection=selection, seed=4
    )
    local = run_dpne_local(folder, **COLS, **kw)
    remote = run_dpne_spark(folder, spark=spark, **COLS, **kw)
    assert remote.sets == local.sets
    assert remote.valid_counts == local.valid_counts and remote.thresholds == local.thresholds
    assert remote.sigmas == local.sigmas and remote.guarantee == local.guarantee
    # the check covers every random choice: long n-grams, users over the limit, zero-weight draws
    assert len(local.sets[3]) > 0
    tc = read_token_corpus(folder, **COLS)
    _, ev = dpne_with_evaluation(
        tc,
        epsilon=5,
        delta=1e-6,
        max_length=5,
        contribution_limit=6,
        eta=0.3,
        pruning=pruning,
        selection=selection,
        rng=4,
    )
    assert sum(d.sampled_zero_weight for d in ev.levels) > 0
    assert np.bincount(tc.unigram_pairs[0]).max() > 6
    # another seed gives another release (the seed is used, not ignored)
    assert run_dpne_spark(folder, spark=spark, **COLS, **{**kw, "seed": 5}).sets != remote.sets


@pytest.mark.slow
def test_cli_spark_engine_writes_the_local_files(spark, tmp_path):
    folder = _write_corpus(tmp_path / "in", n_users=60, seed=1)
    base = [
        "dpne",
        str(folder),
        "--user-column",
        "author",
        "--text-column",
        "body",
        "--epsilon",
        "4",
        "--delta",
        "1e-6",
        "--max-length",
        "3",
        "--eta",
        "0.2",
        "--seed",
        "8",
        "--contribution-limit",
        "10",
    ]
    assert cli.main([*base, "--engine", "local", "--out", str(tmp_path / "local")]) == 0
    assert cli.main([*base, "--engine", "spark", "--spark-master", "local[2]", "--out", str(tmp_path / "spark")]) == 0
    for k in (1, 2, 3):
        assert (tmp_path / "spark" / f"ngrams-{k}.txt").read_text() == (
            tmp_path / "local" / f"ngrams-{k}.txt"
        ).read_text()
    a = json.loads((tmp_path / "local" / "report.json").read_text())
    b = json.loads((tmp_path / "spark" / "report.json").read_text())
    assert b["settings"]["engine"] == "spark" and b["settings"]["spark_master"] == "local[2]"
    for key in ("sigma_k", "rho_k", "valid_count_k", "released_per_length", "guarantee"):
        assert a[key] == b[key]


def test_missing_pyspark_is_a_clear_error(tmp_path, monkeypatch, capsys):
    folder = _write_corpus(tmp_path / "in", n_users=5)
    monkeypatch.setitem(sys.modules, "pyspark", None)  # import pyspark → ImportError
    code = cli.main(
        [
            "dpne",
            str(folder),
            "--user-column",
            "author",
            "--text-column",
            "body",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--engine",
            "spark",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "needs pyspark" in err and "[spark]" in err and not (tmp_path / "o").exists()


def test_worker_python_is_this_interpreter_unless_the_user_set_one(monkeypatch):
    """Issue 24 item 9: pyspark starts its workers with PYSPARK_PYTHON, else `python3` from PATH."""
    from dpcore.dpne.spark_engine import PYTHON_VARIABLES, worker_python

    for name in PYTHON_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert worker_python() == sys.executable
    assert all(os.environ[name] == sys.executable for name in PYTHON_VARIABLES)
    monkeypatch.setenv("PYSPARK_PYTHON", "/opt/cluster/bin/python")  # the user's choice stays
    monkeypatch.setenv("PYSPARK_DRIVER_PYTHON", "")  # empty counts as unset
    assert worker_python() == "/opt/cluster/bin/python"
    assert os.environ["PYSPARK_DRIVER_PYTHON"] == sys.executable


@pytest.mark.slow
def test_spark_engine_runs_when_python3_on_path_is_another_interpreter(tmp_path):
    """Issue 24 item 9: run from an interpreter that is not the `python3` first on PATH (a virtualenv not
    activated), the Spark workers used to start that other `python3` and crash (No module named 'pyarrow').
    Here PATH's `python3` is a stand-in that only fails; the run must succeed and release the local sets."""
    import subprocess

    if _engine_missing():
        pytest.skip(_engine_missing())
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text("#!/bin/sh\necho 'wrong interpreter: python3 from PATH' >&2\nexit 3\n")
    (fake / "python3").chmod(0o755)
    folder = _write_corpus(tmp_path / "in", n_users=80, seed=1)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env["PATH"] = f"{fake}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    assert shutil.which("python3", path=env["PATH"]) == str(fake / "python3")
    base = [
        sys.executable,
        "-m",
        "dpcore",
        "dpne",
        str(folder),
        "--user-column",
        "author",
        "--text-column",
        "body",
        "--epsilon",
        "5",
        "--delta",
        "1e-6",
        "--max-length",
        "3",
        "--eta",
        "0.2",
        "--seed",
        "8",
        "--contribution-limit",
        "6",
    ]
    spark = subprocess.run(
        [*base, "--engine", "spark", "--spark-master", "local[1]", "--out", str(tmp_path / "spark")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert spark.returncode == 0, spark.stderr[-3000:]
    assert "wrong interpreter" not in spark.stderr
    assert cli.main([*base[3:], "--engine", "local", "--out", str(tmp_path / "local")]) == 0
    for k in (1, 2, 3):
        assert (tmp_path / "spark" / f"ngrams-{k}.txt").read_text() == (
            tmp_path / "local" / f"ngrams-{k}.txt"
        ).read_text()
    assert all((tmp_path / "local" / f"ngrams-{k}.txt").read_text() for k in (1, 2))  # a release, not nothing


@pytest.mark.slow
def test_spark_engine_refuses_a_one_user_input(spark, tmp_path):
    from dpcore.dpne.spark_engine import run_dpne_spark
    from dpcore.text.stream import InputError

    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "a.jsonl").write_text(
        "".join(
            json.dumps({"author": a, "body": b}) + "\n"
            for a, b in (
                ("alice", "the cat sat on the mat."),
                ("bob", " "),
                ("", "the dog ran."),
                ("alice", "a dog sat."),
            )
        )
    )
    with pytest.raises(InputError, match="1 user"):
        run_dpne_spark(
            folder, spark=spark, **COLS, epsilon=1, delta=1e-6, max_length=2, contribution_limit=5, eta=0.1, seed=1
        )
