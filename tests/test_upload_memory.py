"""An upload's memory is given back whatever order tabs close (issue 34).

Today: tabs A and B each upload a 2 M-word file; closing them one at a time left RSS ~120 MB above the start,
and so did closing them at once here (benchmarks/bench_upload.py --tabs): the given-back Corpus stayed
reachable — Streamlit keeps the last script run's globals in ``sys.modules["__main__"]`` until the next run,
and a closed tab's session for 2 minutes — and ``_columns``, an ``st.cache_data`` shared across sessions,
kept the upload's header row. Now a given-back upload is emptied in place, and the column picker keeps its
columns in the session. (The RSS itself is measured by the benchmark, not here: see its docstring.)
"""

from __future__ import annotations

import gc
import importlib
import inspect
import json
import pkgutil

import pytest

import dpui

ROWS = b"".join(
    json.dumps({"user": f"u{i % 9}", "text": f"the cat {i} sat on the mat. a dog ran {i}"}).encode() + b"\n"
    for i in range(120)
)


@pytest.fixture()
def store(monkeypatch, tmp_path):
    from dpui.common import uploads

    monkeypatch.setattr(uploads, "_start_janitor", lambda: None)
    monkeypatch.setattr(uploads.tempfile, "gettempdir", lambda: str(tmp_path))
    for sid in uploads.held_sessions():
        uploads.evict(sid)
    yield uploads
    for sid in uploads.held_sessions():
        uploads.evict(sid)


def _documents() -> int:
    from dpcore.text import Document

    gc.collect()
    return sum(isinstance(o, Document) for o in gc.get_objects())


def test_a_given_back_upload_is_emptied_even_when_a_reference_outlives_its_session(store):
    before = _documents()
    corpus = store.parse(("k",), ROWS, "a.jsonl", "user", "text", sid="s1")
    h, n = corpus.content_hash, corpus.n_users
    assert n == 9 and corpus.n_tokens > 0 and _documents() - before == 120
    main_globals = {"corpus": corpus}  # what sys.modules["__main__"] keeps of the last run
    store.sweep(active=lambda sid: False)  # the tab closed
    gc.collect()
    kept = main_globals["corpus"]
    assert kept.users == () and kept.user_ids == () and kept.n_users == 0
    assert _documents() == before  # the documents themselves are freed
    assert kept.content_hash == h and not store.is_upload(h)


def test_two_sessions_closing_one_at_a_time_each_free_their_own_copy(store):
    a = store.parse(("k",), ROWS, "a.jsonl", "user", "text", sid="A")
    b = store.parse(("k",), ROWS, "a.jsonl", "user", "text", sid="B")
    assert a is not b and a.content_hash == b.content_hash
    store.sweep(active=lambda sid: sid != "A")  # A closes first; B still uses its copy
    assert a.n_users == 0 and b.n_users == 9 and store.lookup(("k",), sid="B") is b
    store.sweep(active=lambda sid: False)
    assert b.n_users == 0 and store.held_bytes() == 0


def test_a_corpus_handed_in_is_never_emptied(store):
    """keep() holds a corpus built elsewhere (the tests' own): given back, it is left whole."""
    import dpcore

    corpus = dpcore.corpus_from_records(
        [{"user": "a", "text": "x y"}, {"user": "b", "text": "y z"}], user_field="user", text_field="text"
    )
    store.keep(("set directly", corpus.content_hash), corpus, sid="s1")
    store.evict("s1")
    assert corpus.n_users == 2


UPLOAD_ARGS = {"data", "_data", "filename", "name", "raw", "upload", "file"}


def test_no_cache_shared_across_sessions_takes_an_uploaded_file():
    """Every st.cache_data / st.cache_resource function of dpui: none is keyed by (or holds) an uploaded file's
    bytes or name; what is computed from an upload is keyed by its content hash and cleared with it
    (dpui.common.uploads.track_caches). Today: corpus_panel._columns(digest, filename, _data) kept the header row."""
    from streamlit.runtime.caching.cache_utils import CachedFunc

    found, bad = 0, []
    for info in pkgutil.walk_packages(dpui.__path__, prefix="dpui."):
        mod = importlib.import_module(info.name)
        for name, obj in vars(mod).items():
            fn = getattr(obj, "cached", obj)  # a tracked cache wraps the CachedFunc
            if isinstance(fn, CachedFunc):
                found += 1
                params = set(inspect.signature(fn._info.func).parameters)
                if params & UPLOAD_ARGS:
                    bad.append(f"dpui.{info.name}.{name}{sorted(params & UPLOAD_ARGS)}")
    assert found > 10  # the scan sees the caches
    assert not bad, bad


def test_the_column_picker_keeps_the_columns_in_the_session():
    from streamlit.testing.v1 import AppTest

    def page():
        import streamlit as st

        from dpui.common import corpus_panel

        data = b"user,text\nu1,hello there\nu2,good day\n"
        st.write(corpus_panel._columns("d" * 64, "x.csv", data))

    at = AppTest.from_function(page, default_timeout=60)
    at.run()
    assert not at.exception
    assert at.session_state["_upload_columns"] == ("d" * 64, "x.csv", ("user", "text"))
