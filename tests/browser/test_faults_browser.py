"""Issue 25 in a real browser: Markdown in an uploaded file's name and in a JSON key is shown as text (no image
is fetched, no link drawn), and a page set to an upload the server does not hold says so."""

import pytest
from test_browser import wait_idle

pytestmark = pytest.mark.browser

KEY = "![](http://example.invalid/col.png)"
NAME = "[click](http://example.invalid/x) ![](http://example.invalid/f.png) :smile: www.example.invalid.jsonl"


def _requests_to_example(page) -> list[str]:
    seen = []
    page.on("request", lambda r: seen.append(r.url) if "example.invalid" in r.url else None)
    return seen


def _upload(page, app_url, name, data):
    page.goto(f"{app_url}/?corpus=upload")
    wait_idle(page)
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(
        files=[{"name": name, "mimeType": "text/plain", "buffer": data}]
    )
    wait_idle(page, settle=1.0)


def _no_markdown_from_the_upload(page, seen):
    assert seen == []  # the browser requested nothing from the payload's host
    assert page.locator('img[src*="example.invalid"]').count() == 0
    assert page.locator('a[href*="example.invalid"]').count() == 0  # not even a bare URL made a link
    assert "😄" not in page.locator('[data-testid="stApp"]').inner_text()  # :smile: stays text


def _text(page, where: str) -> str:
    """What a reader sees (the word joiners that keep Streamlit from linking URLs are invisible)."""
    return page.locator(f'[data-testid="{where}"]').inner_text().replace("\u2060", "")


def test_markdown_in_a_json_key_and_a_file_name_is_shown_as_text(page, app_url):
    """Today: the key made the browser fetch http://example.invalid/col.png; the name rendered a link and an image."""
    seen = _requests_to_example(page)
    data = ('{"user": "a", "text": "hi"}\n{"%s": 1, "user": "b"}\n' % KEY).encode()
    _upload(page, app_url, NAME, data)
    sidebar = _text(page, "stSidebar")
    assert "row 2 has no column 'text'" in sidebar and KEY in sidebar and NAME[:60] in sidebar
    _no_markdown_from_the_upload(page, seen)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_a_file_name_with_markdown_in_the_private_data_caption_is_text(page, app_url):
    seen = _requests_to_example(page)
    rows = "\n".join('{"user": "u%d", "text": "a cat sat on the mat. a dog ran."}' % (i % 4) for i in range(20))
    _upload(page, app_url, NAME, rows.encode())
    sidebar = _text(page, "stSidebar")
    assert f"Private data: uploaded: {NAME[:60]}" in sidebar and "4 users" in sidebar
    _no_markdown_from_the_upload(page, seen)


def test_a_page_set_to_an_upload_it_does_not_hold_says_so(page, app_url):
    """After a restart the session is new: the page says the upload is gone instead of using the sample."""
    page.goto(f"{app_url}/DP_ngram_extraction?corpus=upload")
    wait_idle(page)
    main = page.locator('[data-testid="stMain"]').inner_text()
    assert "holds none" in main and "Nothing is computed on another corpus" in main
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 0
