"""Write sample_data/topicdp_sensitivity/vips_noise_multipliers.json: VIPS-LDA's noise multiplier z(ε, δ, J) for the
app's ε and δ grids (dpui.common.sidebar) and J = 1…5, by dpcore's own calibration (~2 min CPU). Run after changing the
accountant, its discretisation or the grids; tests/test_vips_noise_table.py checks the file against them."""

import importlib.metadata
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpcore.topicdp import vips  # noqa: E402  (after the repo root is on the path, as in the other scripts)
from dpui.common.sidebar import DELTA_OPTIONS, EPSILON_OPTIONS  # noqa: E402

ITERATIONS = (1, 2, 3, 4, 5)  # the page's "iterations J" input


def main() -> None:
    rows = [
        [e, d, j, vips._calibrate_noise_multiplier(e, d, j)]
        for j in ITERATIONS
        for d in DELTA_OPTIONS
        for e in EPSILON_OPTIONS
    ]
    out = {
        "what": "VIPS-LDA's noise multiplier z(ε, δ, J) (dpcore.topicdp.vips._noise_multiplier) for the app's ε "
        "and δ grids and J = 1…5 (scripts/vips_noise_table.py)",
        "dp_accounting": importlib.metadata.version("dp-accounting"),
        "pld_discretisation": vips._PLD_DISCRETISATION,
        "entries": rows,
    }
    path = ROOT / "sample_data" / "topicdp_sensitivity" / vips.NOISE_TABLE
    path.write_text(json.dumps(out, indent=0))
    print(f"wrote {path} ({len(rows)} entries)")


if __name__ == "__main__":
    main()
