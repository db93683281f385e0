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


import pytest  # noqa: E402 (after the environment is set: the imports read it)
from replay_env import downloads  # noqa: E402, F401  (the replay and notebook tests' download fixture, issue 22)


@pytest.fixture(scope="session")
def _tiny_topicdp_dirs(tmp_path_factory):
    from topicdp_env import build

    return build(tmp_path_factory.mktemp("tiny-topicdp"))


@pytest.fixture()
def tiny_topicdp(_tiny_topicdp_dirs, monkeypatch):
    """Point the app at a 40-user corpus whose TopicDP draws (γ = 0.1) were computed in this session
    (tests/topicdp_env.py); open pages with ``topicdp_env.TINY_QUERY`` in the URL. Streamlit's
    process-wide caches are cleared around the test."""
    import streamlit as st

    data, cache = _tiny_topicdp_dirs
    monkeypatch.setenv("DPCORE_SAMPLE_DATA", str(data))
    monkeypatch.setenv("DPCORE_TOPICDP_CACHE", str(cache))
    st.cache_resource.clear()
    st.cache_data.clear()
    yield data, cache
    st.cache_resource.clear()
    st.cache_data.clear()


from paper_env import PAPER_STAND_IN_USERS  # noqa: E402 (after the environment is set: the imports read it)


@pytest.fixture()
def small_paper_size(monkeypatch):
    """``size=paper`` in fast AppTests without generating the 100,000-user corpus: the app's paper size
    loads the first 300 private / 200 public users of the classroom sample instead (the sidebar caption
    then says 300 users). Yields the list of loads as (which, size, with a progress callback?). Streamlit's
    process-wide caches are cleared around the test."""
    import streamlit as st

    from dpui.common import corpus_panel

    real = corpus_panel.load_sample_corpus
    loads = []

    def stand_in(which, *, size="classroom", max_users=None, progress=None):
        loads.append((which, size, progress is not None))  # (which, size, drawn with a progress bar?)
        if size == "paper":
            return real(which, max_users=PAPER_STAND_IN_USERS[which], progress=progress)
        return real(which, size=size, max_users=max_users, progress=progress)

    monkeypatch.setattr(corpus_panel, "load_sample_corpus", stand_in)
    monkeypatch.setattr(corpus_panel, "_READY", set())
    st.cache_resource.clear()
    st.cache_data.clear()
    yield loads
    st.cache_resource.clear()
    st.cache_data.clear()
