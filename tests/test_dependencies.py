"""Project rule: ``dpcore`` depends on numpy, scipy and scikit-learn only — never on the app's stack.

Checked in a fresh interpreter so that modules loaded by other tests (pandas, streamlit, plotly via
the pages and ``dpui``) cannot hide or fake a dependency.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("pandas", "streamlit", "plotly")

# A meta-path hook records which dpcore line first asks for a forbidden package (for the message);
# it never resolves anything itself.
SCRIPT = f"""
import importlib, json, os, pkgutil, sys
FORBIDDEN = {FORBIDDEN!r}
culprits = {{}}

class Spy:
    @staticmethod
    def find_spec(name, path=None, target=None):
        top = name.split(".")[0]
        if top in FORBIDDEN and top not in culprits:
            f = sys._getframe(1)
            while f is not None and os.sep + "dpcore" + os.sep not in f.f_code.co_filename:
                f = f.f_back
            culprits[top] = f"{{f.f_code.co_filename}}:{{f.f_lineno}}" if f else "?"
        return None

sys.meta_path.insert(0, Spy)
import dpcore
modules = sorted(m.name for m in pkgutil.walk_packages(dpcore.__path__, "dpcore."))  # every module, subpackages too
for name in modules:
    importlib.import_module(name)
present = sorted({{m.split(".")[0] for m in sys.modules}} & set(FORBIDDEN))
print(json.dumps({{"modules": modules, "present": present, "culprits": culprits}}))
"""


def test_dpcore_imports_no_pandas_streamlit_or_plotly():
    out = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert {"dpcore.text.ngrams", "dpcore.dpne", "dpcore.bayesian.experiments"} <= set(result["modules"]), result[
        "modules"
    ]
    assert result["present"] == [], (
        f"dpcore must use numpy/scipy/scikit-learn only, but importing dpcore and its "
        f"{len(result['modules'])} modules loaded {result['present']}; first requested at {result['culprits']}"
    )
