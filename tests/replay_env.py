"""Helpers of the replay and notebook tests (issue 22): open a page in AppTest, read its downloads, run the
generated script and notebook. Shared by every page's replay test (import from tests: ``from replay_env import …``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

from dpui.common.exports import EXPORTS_ALL_KEY

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "pages"


@pytest.fixture
def downloads(monkeypatch):
    """``downloads(at, key_suffix) -> bytes``: the payload of the download button whose key ends with the suffix
    (one media storage kept across AppTest runs)."""
    storage = MemoryMediaFileStorage("/mock/media")
    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", lambda prefix: storage)

    def payload(at: AppTest, key: str) -> bytes:
        buttons = [b for b in at.get("download_button") if b.proto.id.endswith(key)]
        if not buttons and not (EXPORTS_ALL_KEY in at.session_state and at.session_state[EXPORTS_ALL_KEY]):
            open_exports(at)  # the export boxes are lazy (issue 29 item 4): open them, as a user clicks one
            buttons = [b for b in at.get("download_button") if b.proto.id.endswith(key)]
        assert buttons, (
            f"no download button with a key ending in {key!r}: "
            f"{[b.proto.id.rsplit('-', 1)[-1] for b in at.get('download_button')]}"
        )
        return storage.get_file(buttons[0].proto.url.rsplit("/", 1)[1]).content

    return payload


def open_exports(at: AppTest) -> AppTest:
    """Open every export box of the page (they are lazy, issue 29 item 4: their buttons exist only while open) and
    run it again, as a user who clicks "Export and reproduce"."""
    at.session_state[EXPORTS_ALL_KEY] = True
    at.run()
    clean(at)
    return at


def clean(at: AppTest) -> None:
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []


def opened(page: str, **query) -> AppTest:
    """The page (file name in pages/) run once with ``query`` in its URL; no exception, no error."""
    at = AppTest.from_file(str(PAGES / page), default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    clean(at)
    return at


def export_json(downloads, at: AppTest, key: str) -> dict:
    """An export_view's JSON (``key`` = the export's key): {"settings", "spec", "rows"}."""
    return json.loads(downloads(at, f"{key}_json").decode("utf-8"))


def printed_numbers(stdout: str) -> dict:
    """The ``NUMBERS {json}`` line a generated script or notebook prints."""
    match = re.search(r"^NUMBERS (\{.*\})$", stdout, re.M)
    assert match, stdout[-2000:]
    return json.loads(match.group(1))


def run_script(source: str, tmp_path: Path) -> dict:
    """Run a generated ``.py`` with the system python3 (dpcore from this checkout); its printed numbers."""
    path = tmp_path / "reproduce.py"
    path.write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(["python3", str(path)], cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "WARNING" not in out.stdout, out.stdout
    return printed_numbers(out.stdout)


def run_notebook(source: str, tmp_path: Path) -> dict:
    """Execute a generated ``.ipynb`` with nbclient (validated with nbformat first); its printed numbers."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.reads(source, as_version=4)
    nbformat.validate(nb)
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(ROOT)  # the kernel imports this checkout's dpcore
    try:
        NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
        ).execute()
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    text = "".join(
        o.get("text", "")
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.get("output_type") == "stream"
    )
    assert not any(o.get("output_type") == "error" for c in nb.cells for o in c.get("outputs", []))
    assert "WARNING" not in text, text
    last = [c for c in nb.cells if c.cell_type == "code"][-1]
    if "".join(last.source).rstrip().endswith("fig"):  # the figure cell shows the plotly figure
        assert any("application/vnd.plotly.v1+json" in o.get("data", {}) for o in last.outputs), last.outputs
    return printed_numbers(text)
