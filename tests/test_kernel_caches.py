"""Every cache the app writes is checked before use (issue 34).

1. One loader for every compiled kernel: each module of dpcore that defines a numba function with a disk
   cache is reached only through :func:`dpcore._kernels.optional_kernel` (found by reading the source, so a
   new kernel is covered without editing this test), and once loaded every cached function it holds (its
   own and those it imports from another kernel) reads a checked cache.
2. Today (VIPS): 200 bytes flipped at 60 % of ``_vips_kernel.person_word_statistics-*.nbi`` replaced the
   TopicDP page by "'utf-8' codec can't decode byte …". Now every file the app writes into a cache (the data
   caches, every numba kernel's index and data) is damaged and the pages rebuild it with no message.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _cached_numba_modules() -> set[str]:
    """dpcore modules with a decorator or call ``…jit(…, cache=True, …)`` (njit, jit, numba.njit …)."""
    found = set()
    for path in (ROOT / "dpcore").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name.endswith("jit") and any(
                    k.arg == "cache" and isinstance(k.value, ast.Constant) and k.value.value for k in node.keywords
                ):
                    found.add(_module_name(path))
    return found


def _imports(path: Path) -> set[str]:
    """Absolute names of the modules (and module.attribute) that ``path`` imports."""
    pkg = _module_name(path).split(".")
    if path.name != "__init__.py":
        pkg = pkg[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = pkg[: len(pkg) - node.level + 1] if node.level else []
            mod = ".".join([*base, *([node.module] if node.module else [])])
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def _loader_calls() -> set[str]:
    """The module names passed to ``optional_kernel("…", …)`` anywhere in dpcore."""
    names = set()
    for path in (ROOT / "dpcore").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", getattr(node.func, "attr", "")) == "optional_kernel"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names.add(node.args[0].value)
    return names


KERNELS = sorted(_cached_numba_modules())


def test_the_source_scan_finds_the_three_kernels():
    """The scan is not empty (else the tests below would check nothing)."""
    assert {"dpcore.dpne._dpne_kernel", "dpcore.topicdp._vb_kernel", "dpcore.topicdp._vips_kernel"} <= set(KERNELS)


def test_every_module_with_a_cached_numba_function_is_reached_only_through_the_loader():
    """A new kernel module must be loaded by optional_kernel (which checks its caches) and imported by no
    other module of the project except another kernel (whose loading checks the imported functions too)."""
    kernels = set(KERNELS)
    missing = kernels - _loader_calls()
    assert not missing, f"kernel modules not loaded through dpcore._kernels.optional_kernel: {sorted(missing)}"
    direct = []
    for folder in ("dpcore", "dpui", "pages", "tests", "benchmarks", "deploy", "scripts"):
        for path in (ROOT / folder).rglob("*.py"):
            if _module_name(path) in kernels or path.name == Path(__file__).name:
                continue
            hit = {k for k in kernels for name in _imports(path) if name == k or name.startswith(k + ".")}
            if hit:
                direct.append((str(path.relative_to(ROOT)), sorted(hit)))
    assert not direct, f"modules importing a kernel around the loader (its caches unchecked): {direct}"


def test_a_module_importing_a_kernel_is_caught_by_the_scan():
    """The import scan sees the three spellings of importing a kernel (so the test above can fail)."""
    fake = ROOT / "dpcore" / "topicdp" / "_scan_probe.py"
    names = []
    for src in (
        "from . import _vips_kernel\n",
        "from ._vips_kernel import person_word_statistics\n",
        "import dpcore.topicdp._vips_kernel\n",
    ):
        try:
            fake.write_text(src)
            names.append(_imports(fake))
        finally:
            fake.unlink()
    assert all(
        any(n == "dpcore.topicdp._vips_kernel" or n.startswith("dpcore.topicdp._vips_kernel.") for n in s)
        for s in names
    ), names


LOADED_SCRIPT = textwrap.dedent("""
    import importlib, json, sys
    from dpcore._kernels import optional_kernel
    from dpcore._numba_cache import CheckedFunctionCache, cached_functions
    mod = optional_kernel(sys.argv[1], env="DPCORE_TEST_NO_SUCH_SWITCH")
    homes = {mod.__name__} | {f.py_func.__module__ for f in cached_functions(vars(mod))}
    out = {}
    for name in sorted(homes):
        for f in cached_functions(vars(importlib.import_module(name))):
            out[f"{name}.{f.py_func.__name__}"] = isinstance(f._cache, CheckedFunctionCache)
    print(json.dumps(out))
""")


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_kernel_loaded_first_in_a_fresh_process_has_every_cache_checked(kernel):
    """Loaded alone (the VIPS kernel before the VB kernel it imports from): every cached function of the
    kernel and of the kernel modules it draws on reads a checked cache."""
    pytest.importorskip("numba")
    out = subprocess.run(
        [sys.executable, "-c", LOADED_SCRIPT, kernel],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.returncode == 0, out.stderr[-2000:]
    checked = json.loads(out.stdout.strip().splitlines()[-1])
    assert checked and all(checked.values()), checked
    if kernel.endswith("_vips_kernel"):
        assert any(k.startswith("dpcore.topicdp._vb_kernel.") for k in checked)  # _psi, … from the VB kernel


# ------------------------------------------------------------------------------ 2. damage every cache file
PAGES_SCRIPT = textwrap.dedent("""
    import json, sys
    from streamlit.testing.v1 import AppTest
    out = {}
    for page, query in json.loads(sys.argv[1]):
        at = AppTest.from_file(page, default_timeout=900)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        out[page + str(query)] = {
            "exception": [str(e.value) for e in at.exception],
            "error": [str(e.value) for e in at.error],
            "warning": [str(e.value) for e in at.warning],
            "metrics": [(m.label, m.value) for m in at.metric],
            "markdown": [m.value for m in at.markdown][:80],
        }
    print(json.dumps(out))
""")
PAGES = [
    ("pages/3_DP_ngram_extraction.py", {}),
    ("pages/4_TopicDP.py", {}),
    ("pages/4_TopicDP.py", {"corpus": "chat"}),
]


def _flip_200(path: Path) -> None:
    """The issue's damage: 200 bytes flipped from 60 % of the file (all of it when shorter)."""
    b = bytearray(path.read_bytes())
    at = int(len(b) * 0.6) if len(b) > 200 else 0
    for i in range(at, min(at + 200, len(b))):
        b[i] ^= 0x9C
    path.write_bytes(bytes(b))


@pytest.mark.slow
def test_every_cache_file_the_pages_write_is_rebuilt_when_damaged_with_no_message(tmp_path):
    pytest.importorskip("numba")
    dirs = {name: tmp_path / name for name in ("numba", "data", "topicdp", "xdg")}
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(dirs["numba"]),
        "DPCORE_DATA_CACHE": str(dirs["data"]),
        "DPCORE_TOPICDP_CACHE": str(dirs["topicdp"]),
        "XDG_CACHE_HOME": str(dirs["xdg"]),
    }
    env.pop("DPCORE_VB_KERNEL", None)
    env.pop("DPCORE_DPNE_KERNEL", None)

    def run():
        out = subprocess.run(
            [sys.executable, "-c", PAGES_SCRIPT, json.dumps(PAGES)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=3000,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        return json.loads(out.stdout.strip().splitlines()[-1])

    def files():
        return sorted(p for d in dirs.values() for p in d.rglob("*") if p.is_file())

    first = run()
    for page, shown in first.items():
        assert not shown["exception"] and not shown["error"], (page, shown)
    written = files()
    # every kernel wrote its caches (a new kernel the pages do not reach would make this fail, not pass unseen)
    for kernel in KERNELS:
        stem = kernel.rsplit(".", 1)[1]
        assert any(p.name.startswith(stem + ".") and p.suffix == ".nbi" for p in written), (kernel, written)
        assert any(p.name.startswith(stem + ".") and p.suffix == ".nbc" for p in written), (kernel, written)
    data_files = [p for p in written if dirs["numba"] not in p.parents]
    assert data_files, written  # the TopicDP model and the chat corpus's arrays at least
    for damage in ("flip", "truncate"):
        before = {}
        for p in files():
            if damage == "flip":
                _flip_200(p)
            else:
                p.write_bytes(p.read_bytes()[: p.stat().st_size // 3])
            before[p] = p.read_bytes()
        again = run()
        assert again == first, damage  # the same pages, no message, the same numbers
        for p, damaged in before.items():  # each damaged file was rebuilt (or dropped), none left as it was
            assert not p.exists() or p.read_bytes() != damaged, (damage, p)
