"""Every page with an awkward uploaded corpus: a message at most, never a traceback.

The upload widget itself is exercised in the browser tests; here the parsed corpus is put where
the sidebar keeps it (session state) and the corpus choice is set through the URL, as after an upload.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dpcore import corpus_from_records

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted(str(p) for p in (ROOT / "pages").glob("*.py"))

CORPORA = {
    "one-word vocabulary": [{"user": f"u{i}", "text": "hello hello. hello!"} for i in range(12)],
    "two users": [
        {"user": "a", "text": "the cat sat on the mat. the dog ran."},
        {"user": "b", "text": "the cat ran on the mat. a dog sat."},
    ],
    "words outside the public vocabulary": [{"user": f"u{i}", "text": "zzqx vrrp. qqzt zzqx."} for i in range(20)],
}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("name", list(CORPORA))
def test_page_survives_awkward_corpus(page, name):
    corpus = corpus_from_records(CORPORA[name], user_field="user", text_field="text", name=name)
    at = AppTest.from_file(page, default_timeout=300)
    at.query_params["corpus"] = "upload"
    at.session_state["_uploaded_corpus"] = corpus
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    if "corpus" not in [r.key for r in at.sidebar.radio]:
        pytest.skip("this page does not use the corpus (the sidebar does not offer it)")
    sidebar_text = " ".join(c.value for c in at.sidebar.caption)
    assert f"uploaded: {name}" in sidebar_text  # the page really used the uploaded corpus
