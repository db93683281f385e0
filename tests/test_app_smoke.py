"""Open every page with AppTest: no exception, no error message, at least one chart (pages)."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ["app.py"] + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_page_opens_without_error(script, request):
    at = AppTest.from_file(str(ROOT / script), default_timeout=300)
    if "TopicDP" in script:  # charts need sensitivity draws: a corpus with draws computed in this session
        from topicdp_env import TINY_QUERY

        request.getfixturevalue("tiny_topicdp")
        for k, v in TINY_QUERY.items():
            at.query_params[k] = v
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert [e.value for e in at.error] == []
    assert at.number_input(key="seed").value == 0  # the shared sidebar is there (every page uses the seed)
    if script.startswith("pages/"):
        charts = at.get("plotly_chart") + at.get("vega_lite_chart")  # (TopicDP's keyword chart is Vega-Lite)
        assert len(charts) >= 1, f"{script} draws no chart"
