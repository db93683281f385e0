"""No import cycle in dpcore/ (issue 33 item 4), function-level (lazy) imports included.

The graph is built from the source by AST: every ``import`` / ``from ... import`` at any depth of a file (inside
functions, ``if TYPE_CHECKING:`` blocks, ``try:``) is an edge, relative imports resolved against the file's
package; ``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``. An import of
a module's own parent package is not an edge (importing a submodule runs its package first anyway).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module_names(root: Path, package: str) -> dict[str, Path]:
    base = root / package
    out = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (anywhere in the file)."""
    modules = _module_names(root, package)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        is_pkg = path.name == "__init__.py"
        here = mod.split(".") if is_pkg else mod.split(".")[:-1]  # the package relative imports start from
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base_parts = here[: len(here) - (node.level - 1)]
                    base = ".".join(base_parts + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.add(sub if sub in modules else base)
        for t in targets:
            # the longest module of the package that t names (``import a.b.c`` imports a.b.c)
            while t and t not in modules:
                t = t.rpartition(".")[0]
            if not t or t == mod:
                continue
            if mod.startswith(t + "."):  # the module's own parent package: not an edge
                continue
            graph[mod].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as [a, b, ..., a], or None (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1 = on the stack, 2 = done
    for start in sorted(graph):
        if state.get(start):
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
    return None


def test_dpcore_has_no_import_cycle():
    graph = import_graph(ROOT, "dpcore")
    assert len(graph) > 80 and graph["dpcore.bayesian.release"] >= {"dpcore.bayesian.statistics"}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in dpcore (function-level imports count): " + " -> ".join(cycle or [])


def test_the_known_lazy_edges_are_seen():
    """Function-level imports are edges: the two cycles issue 33 found were made of them."""
    graph = import_graph(ROOT, "dpcore")
    assert "dpcore.text.synthetic_model" in graph["dpcore.text.synthetic"]
    assert "dpcore.text.real_corpus" in graph["dpcore.text.synthetic_model"]
    assert "dpcore.text.synthetic" in graph["dpcore.text.samples"]
    assert "dpcore.bayesian.prepared" in graph["dpcore.bayesian.statistics"]
    assert "dpcore.text.samples" in graph["dpcore.specs.base"]  # a function-level import in a method


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_planted_cycle_is_caught(tmp_path):
    """Two tiny modules that import each other, one of them only inside a function, by a relative import."""
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .a import f\n",
            "pkg/a.py": "from . import b\n\ndef f():\n    return b.g()\n",
            "pkg/b.py": "def g():\n    from .a import f\n    return f\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    cycle = find_cycle(graph)
    assert cycle is not None and set(cycle) == {"pkg.a", "pkg.b"} and cycle[0] == cycle[-1]


def test_a_deep_absolute_cycle_is_caught_and_a_parent_import_is_not_one(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "from .sub.x import X\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/x.py": "import pkg\nX = 1\n\ndef h():\n    import pkg.y\n",
            "pkg/y.py": "if True:\n    try:\n        from pkg.sub import x\n    except ImportError:\n        pass\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert "pkg" not in graph["pkg.sub.x"]  # its own parent package: not an edge
    assert graph["pkg.y"] == {"pkg.sub.x"} and graph["pkg.sub.x"] == {"pkg.y"}
    assert set(find_cycle(graph) or []) == {"pkg.sub.x", "pkg.y"}
    _write(tmp_path, {"pkg/y.py": "Y = 2\n"})
    assert find_cycle(import_graph(tmp_path, "pkg")) is None
