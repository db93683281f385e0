import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("STREAMLIT_BROWSER_GATHER_USAGE_STATS", "false")
# Sampler draws and LDA fits made during the tests go to a throw-away folder, never into the repo or ~/.cache.
os.environ.setdefault("DPCORE_TOPICDP_CACHE", tempfile.mkdtemp(prefix="dpcore-topicdp-test-"))
