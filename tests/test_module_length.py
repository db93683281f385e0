"""The shape of dpcore's files: no module over 600 lines (docs/ARCHITECTURE.md: split by concept, not by size alone).

Counted as ``ruff format`` leaves them (CI runs ``ruff format --check``), so the budget holds for formatted code.
The pages' budget (200 lines) is checked in tests/test_page_structure.py.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted((ROOT / "dpcore").rglob("*.py"))
MAX_LINES = 600


def test_the_modules_are_found():
    assert len(MODULES) > 80 and ROOT / "dpcore" / "lab" / "paper_results.py" in MODULES


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_dpcore_module_over_600_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, (
        f"{path.relative_to(ROOT)} has {n} lines; split it by concept into sibling modules and keep its public names "
        "importable from it (docs/ARCHITECTURE.md)"
    )
