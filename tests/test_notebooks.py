""" "Reproduce in Python" (issue 22 item 3): the generated script and notebook of each page run with dpcore only, on the
classroom data, and print the page's numbers.

Each test opens a page in AppTest, downloads its ``.py`` and ``.ipynb``, runs the script with the system python3
(subprocess) and executes the notebook with nbclient, and checks the printed ``NUMBERS`` line against the page's
export (the same numbers tests/test_replay_pages.py checks against the page itself) and a number the page shows.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from replay_env import ROOT, export_json, opened, run_notebook, run_script

import dpcore
from dpcore.specs import Spec

pytestmark = pytest.mark.slow


def _generated(downloads, at, key: str) -> tuple[str, str]:
    return downloads(at, f"{key}_py").decode("utf-8"), downloads(at, f"{key}_ipynb").decode("utf-8")


def _both_print(downloads, at, key, record, tmp_path, corpus=None) -> dict:
    """Run the script and the notebook; both print exactly the numbers of replaying the record; return them."""
    script, notebook = _generated(downloads, at, key)
    assert "import streamlit" not in script and "dpui" not in script
    assert json.loads(notebook)["nbformat"] == 4
    expected = json.loads(json.dumps(Spec.from_record(record).numbers(dpcore.replay(record, corpus))))
    from_script = run_script(script, tmp_path)
    assert from_script == expected
    assert (tmp_path / f"{record['spec']}_figure.html").stat().st_size > 1000  # the plotly figure was written
    assert run_notebook(notebook, tmp_path) == expected
    return from_script


def test_dpne_script_and_notebook(downloads, tmp_path):
    at = opened("3_DP_ngram_extraction.py", corpus="classroom", dpne_eta="0.02")
    data = export_json(downloads, at, "dpne_export_sizes")
    corpus = dpcore.load_sample_corpus("private", size="classroom")
    nums = _both_print(downloads, at, "dpne_reproduce", data["spec"], tmp_path, corpus)
    assert nums["sizes"]["DPNE"] == [r["DPNE |Sₖ|"] for r in data["rows"]]
    assert nums["sizes"]["DPSU-single"] == [r["DPSU-single |Sₖ|"] for r in data["rows"]]
    assert f"{nums['total']:,}" == at.metric[2].value


def test_m101_scripts_and_notebooks(downloads, tmp_path):
    at = opened("1_Mechanisms_101.py", m101_sample_mech="Laplace", eps="0.5", m101_tab="(d) Sample many times")
    data = export_json(downloads, at, "m101_export_sample")
    nums = _both_print(downloads, at, "m101_reproduce_sample", data["spec"], tmp_path)
    assert [r["share under D"] for r in data["rows"]] == nums["share_d"]
    assert next(m.value for m in at.metric if m.label == "largest empirical ratio") == f"{nums['largest_ratio']:.3f}"
    at = opened("1_Mechanisms_101.py", eps="0.5", m101_tab="(c) Exponential mechanism")  # only the open tab runs
    data = export_json(downloads, at, "m101_export_cities")
    nums = _both_print(downloads, at, "m101_reproduce_cities", data["spec"], tmp_path)
    assert nums["worst_ratio"] == data["settings"]["worst_ratio"]
    at = opened("1_Mechanisms_101.py", eps="0.5", m101_scale_mode="by hand", m101_b="2.5")  # (a), issue 31 item 6
    data = export_json(downloads, at, "m101_export_loss")
    nums = _both_print(downloads, at, "m101_reproduce_loss", data["spec"], tmp_path)
    assert nums["worst_loss"] == data["settings"]["worst_loss"] == 0.4
    at = opened("1_Mechanisms_101.py", eps="0.5", m101_tab="(b) Global sensitivity")
    data = export_json(downloads, at, "m101_export_debt")
    nums = _both_print(downloads, at, "m101_reproduce_debt", data["spec"], tmp_path)
    assert nums["worst_loss"] == data["rows"][-1]["worst loss Δ/b"]


def test_audit_script_and_notebook(downloads, tmp_path):
    at = opened("5_Privacy_audit.py", audit_mechanism="Exponential (cities)", seed="2")
    data = export_json(downloads, at, "audit_export")
    nums = _both_print(downloads, at, "audit_reproduce", data["spec"], tmp_path)
    assert nums["epsilon_lower"] == data["rows"][0]["epsilon_lower"]
    assert next(m.value for m in at.metric if m.label == "ε lower bound") == f"{nums['epsilon_lower']:.3f}"


def test_upload_notebook_asks_for_the_file(tmp_path):
    """An upload's script names the file and columns to fill in, and says when the data differ (content hash)."""
    from dpcore.specs import DpneSpec, script

    source = script(DpneSpec(corpus="upload", corpus_hash="0" * 64))
    assert 'load_corpus("upload", path=PATH, user_column=USER_COLUMN, text_column=TEXT_COLUMN)' in source
    csv = tmp_path / "my_file.csv"
    csv.write_text("user,text\n" + "".join(f"u{i % 7},the cat sat on the mat number {i}\n" for i in range(60)))
    (tmp_path / "reproduce.py").write_text(source)
    out = subprocess.run(
        ["python3", "reproduce.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "WARNING: this corpus is not the one the app used" in out.stdout and "NUMBERS {" in out.stdout
