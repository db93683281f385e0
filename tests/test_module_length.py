"""The shape of dpcore's files: no module over 600 lines (docs/ARCHITECTURE.md: split by concept, not by size alone),
no function over 80 lines (issue 33 item 4).

Counted as ``ruff format`` leaves them (CI runs ``ruff format --check``), so the budget holds for formatted code.
The pages' budget (200 lines) is checked in tests/test_page_structure.py.
"""

import ast
from pathlib import Path
from typing import cast

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


MAX_FUNCTION_LINES = 80


def _function_lengths(path: Path) -> list[tuple[str, int]]:
    """(qualified name, lines from its ``def`` to its last line, docstring included) of every function of a file,
    methods and nested functions included."""
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    out.append((name, cast(int, child.end_lineno) - child.lineno + 1))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), "")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_dpcore_function_over_80_lines(path):
    rel = path.relative_to(ROOT).as_posix()
    long = {name: n for name, n in _function_lengths(path) if n > MAX_FUNCTION_LINES}
    assert not long, (
        f"{rel}: functions over {MAX_FUNCTION_LINES} lines (def to end, docstring included): {long}; split each into "
        "well-named helpers"
    )


def test_the_function_count_sees_methods_and_nested_functions(tmp_path):
    f = tmp_path / "m.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    f.write_text(
        f"class A:\n    def m(self):\n    {body.replace(chr(10), chr(10) + '    ')}\n\n\ndef g():\n    def h():\n        pass\n"
    )
    assert dict(_function_lengths(f)) == {"A.m": 81, "g": 3, "g.h": 2}
