"""What README.md states about the code, checked against the code (issue 24 item 2: it said 26 exercises when
there were 27, and a 2,400-user sample corpus of 3,000 users)."""

from __future__ import annotations

import re
from pathlib import Path

import dpcore

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")


def test_readme_exercise_count_is_the_number_of_exercises():
    counts = re.findall(r"(\d+) in all", README)
    assert counts, "the README's exercise section no longer gives a count: drop this test with it"
    assert {int(c) for c in counts} == {len(dpcore.lab.exercises.all_exercises())}


def test_readme_sample_corpus_sizes_are_the_shipped_ones():
    line = next(ln for ln in README.splitlines() if 'load_sample_corpus("private")' in ln and "#" in ln)
    stated = int(re.search(r"#\s*([\d,]+) users", line).group(1).replace(",", ""))
    private, public = dpcore.load_sample_corpus("private"), dpcore.load_sample_corpus("public")
    assert stated == private.n_users
    assert f"{private.n_users:,} private / {public.n_users:,} public users" in README
    assert not re.search(r"\b2,400[- ]user", README)


def test_quick_start_makes_a_virtualenv_before_installing():
    # issue 31 item 13: run with a shared interpreter, the install command put 29 packages into it without a word
    quick = README[README.index("## Quick start") : README.index("## Pages")]
    assert quick.index("python3 -m venv .venv") < quick.index("python3 -m pip install")
    assert "externally managed" in quick
