"""Privacy parameters are keyword-only in every public dpcore function (issue 33 item 5): a call cannot swap ε and δ
(or σ and the sensitivity) by position. An AST scan finds every public function — no leading underscore, and
listed in its module's ``__all__`` or imported by a package ``__init__`` — and fails naming any whose positional
parameters include a privacy parameter. Data (counts, a matrix, a corpus, an fpr) may stay positional before them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "dpcore"
PRIVACY_PARAMETERS = frozenset(
    {"epsilon", "delta", "eps", "sensitivity", "gamma", "sigma", "scale", "noise_multiplier", "rho", "delta_s"}
)
# "module:function" -> why it stays positional. Empty: every public function is keyword-only.
ALLOWED_POSITIONAL: dict[str, str] = {}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _parse_package(package: Path) -> dict[str, tuple[Path, ast.Module]]:
    return {
        _module_name(p, package.parent): (p, ast.parse(p.read_text(encoding="utf-8")))
        for p in sorted(package.rglob("*.py"))
    }


def _public_names(trees: dict[str, tuple[Path, ast.Module]]) -> set[tuple[str, str]]:
    """(module, name) pairs that are public: in the module's ``__all__`` or imported by a package ``__init__``."""
    public: set[tuple[str, str]] = set()
    for module, (path, tree) in trees.items():
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                public.update((module, name) for name in ast.literal_eval(node.value))  # type: ignore[union-attr]
        if path.name != "__init__.py":
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                package = module.split(".")[: len(module.split(".")) - (node.level - 1)]
                source = ".".join(package + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            public.update((source, alias.name) for alias in node.names)
    return public


def positional_privacy_parameters(package: Path = PACKAGE) -> list[str]:
    """``module:function(params)`` for each public function that takes a privacy parameter by position."""
    trees = _parse_package(package)
    public = _public_names(trees)
    found = []
    for module, (_, tree) in trees.items():
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
                continue
            if (module, node.name) not in public:
                continue
            positional = [a.arg for a in node.args.posonlyargs + node.args.args]
            bad = [a for a in positional if a in PRIVACY_PARAMETERS]
            if bad:
                found.append(f"{module}:{node.name}({', '.join(bad)})")
    return found


def test_no_public_function_takes_a_privacy_parameter_by_position():
    found = [f for f in positional_privacy_parameters() if f.split("(")[0] not in ALLOWED_POSITIONAL]
    assert not found, "privacy parameters must be keyword-only (put `*` before them): " + "; ".join(found)


def test_the_scan_finds_a_positional_privacy_parameter(tmp_path):
    """The scan can fail: a package with one public positional ε, one public keyword-only ε, one private
    positional ε and one positional ε not exported is reported for the first only."""
    package = tmp_path / "dpcore"
    package.mkdir()
    (package / "__init__.py").write_text("from .mech import noisy, safe, _hidden\n")
    (package / "mech.py").write_text(
        "def noisy(counts, epsilon, delta=1e-5): ...\n"
        "def safe(counts, *, epsilon): ...\n"
        "def _hidden(epsilon): ...\n"
        "def unexported(sigma): ...\n"
    )
    (package / "other.py").write_text("__all__ = ['listed']\ndef listed(x, sensitivity): ...\n")
    found = positional_privacy_parameters(package)
    assert found == ["dpcore.mech:noisy(epsilon, delta)", "dpcore.other:listed(sensitivity)"]


def test_allow_list_names_only_functions_that_exist_and_are_still_positional():
    still_positional = {f.split("(")[0] for f in positional_privacy_parameters()}
    assert set(ALLOWED_POSITIONAL) <= still_positional


def test_old_positional_calls_raise_a_clear_type_error():
    from dpcore import gaussian_sigma
    from dpcore.dpne.accounting import dpsu_threshold
    from dpcore.guarantees import approximate_dp
    from dpcore.validation import check_epsilon

    with pytest.raises(TypeError, match=r"gaussian_sigma\(\) takes 0 positional arguments but 2 were given"):
        gaussian_sigma(1.0, 1e-5)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"dpsu_threshold\(\) takes 0 positional arguments but 3 were given"):
        dpsu_threshold(1.0, 1e-5, 5)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"approximate_dp\(\) takes 0 positional arguments but 2 were given"):
        approximate_dp(1.0, 1e-5)  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"check_epsilon\(\) takes 0 positional arguments but 1 was given"):
        check_epsilon(1.0)  # type: ignore[misc]
    # the keyword call is the same function, same answer as before
    assert gaussian_sigma(epsilon=1.0, delta=1e-5) == pytest.approx(gaussian_sigma(delta=1e-5, epsilon=1.0))
