"""An ε move reruns only what depends on ε (issue 29): the page's body is an ``st.fragment`` that also draws the
sidebar's ε slider, the navigation links that carry ε and the session budget (``SharedSettings.with_epsilon``).

Read from the websocket itself: the browser's rerun request names the fragment, every element the server sends back
belongs to a fragment (the page's title, knobs and the rest of the sidebar are not resent), and what follows ε is
still right after the move — the address bar, the links to the other pages, the session budget's count, the release.
"""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from test_browser import CHARTS, EPS_INPUT, NAV_LINK, assert_no_error_text, eps_value, wait_idle

pytestmark = pytest.mark.browser

PAGES = [  # the classroom sample: the mechanics are the same on every corpus, and its pages open in ~1–2 s
    ("/Mechanisms_101", False),
    ("/Bayesian_ngram_DP?corpus=classroom", True),
    ("/DP_ngram_extraction?corpus=classroom", True),
    ("/TopicDP?corpus=classroom", True),  # TopicDP's draws ship for the classroom sample
]
BUDGET = re.compile(r"Session budget — (\d+) release")


def _budget_count(page) -> int:
    m = BUDGET.search(page.locator('[data-testid="stSidebar"]').inner_text())
    assert m, "the sidebar shows no session budget"
    return int(m.group(1))


def _listen(page) -> tuple[list, list]:
    """The BackMsgs the browser sends and the ForwardMsgs it receives, parsed (binary websocket frames)."""
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    sent, received = [], []

    def on_socket(ws):
        ws.on("framesent", lambda payload: isinstance(payload, bytes) and sent.append(BackMsg.FromString(payload)))
        ws.on(
            "framereceived",
            lambda payload: isinstance(payload, bytes) and received.append(ForwardMsg.FromString(payload)),
        )

    page.on("websocket", on_socket)
    return sent, received


@pytest.mark.parametrize(("path", "has_budget"), PAGES, ids=[p for p, _ in PAGES])
def test_an_epsilon_move_reruns_only_the_fragment(page, app_url, path, has_budget):
    sent, received = _listen(page)
    page.goto(app_url + path)
    page.wait_for_selector(CHARTS, timeout=180_000)
    wait_idle(page)
    before_eps = eps_value(page)
    before_count = _budget_count(page) if has_budget else None
    first_run = [m for m in received if m.WhichOneof("type") == "delta"]
    assert first_run and any(not m.delta.fragment_id for m in first_run), "the first render is a full run"
    sent.clear()
    received.clear()

    page.locator(EPS_INPUT).first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"[?&]eps="), timeout=60_000)
    wait_idle(page)

    new_eps = eps_value(page)
    assert float(new_eps) > float(before_eps)
    reruns = [m.rerun_script for m in sent if m.WhichOneof("type") == "rerun_script"]
    assert reruns and all(r.fragment_id for r in reruns), "the ε move asked for a full rerun"
    deltas = [m for m in received if m.WhichOneof("type") == "delta"]
    assert deltas, "the move redrew nothing"
    outside = [m.metadata.delta_path for m in deltas if not m.delta.fragment_id]
    assert not outside, f"the ε move resent {len(outside)} elements outside the fragment: {outside[:5]}"
    assert len(deltas) < len(first_run), (len(deltas), len(first_run))
    # what follows ε outside the page body is right after the move
    assert parse_qs(urlsplit(page.url).query)["eps"] == [new_eps], page.url
    hrefs = [a.get_attribute("href") for a in page.locator(NAV_LINK).all()]
    assert hrefs and all(f"eps={new_eps}" in h for h in hrefs), hrefs
    if has_budget:  # a new ε is a new release (or two, with the other mode's beside it): counted at once
        after_count = _budget_count(page)
        assert after_count > before_count
    assert page.locator(CHARTS).count() > 0
    assert_no_error_text(page, f"{path} after an ε move")

    received.clear()
    page.locator(EPS_INPUT).first.focus()
    page.keyboard.press("ArrowLeft")  # back to the ε seen first: the same releases, nothing new to count
    page.wait_for_url(lambda url: parse_qs(urlsplit(url).query).get("eps", [before_eps]) == [before_eps])
    wait_idle(page)
    assert eps_value(page) == before_eps
    deltas = [m for m in received if m.WhichOneof("type") == "delta"]
    assert deltas and all(m.delta.fragment_id for m in deltas)
    if has_budget:
        assert _budget_count(page) == after_count
    if path.startswith("/TopicDP"):  # γ is drawn by TopicDP's body too, into its column above
        _move_page_knob(page, sent, received, "topicdp_gamma")
        assert_no_error_text(page, "TopicDP after a γ move")


def _move_page_knob(page, sent, received, key):
    """One step of the body's slider ``key``: its rerun names the fragment and nothing outside it is resent."""
    slider = page.locator(f'[data-testid="stApp"] .st-key-{key} input[type="range"]').first
    before = slider.get_attribute("aria-valuetext")
    sent.clear()
    received.clear()
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(rf"[?&]{key}="), timeout=60_000)
    wait_idle(page)
    assert slider.get_attribute("aria-valuetext") != before
    reruns = [m.rerun_script for m in sent if m.WhichOneof("type") == "rerun_script"]
    assert reruns and all(r.fragment_id for r in reruns), f"the {key} move asked for a full rerun"
    deltas = [m for m in received if m.WhichOneof("type") == "delta"]
    assert deltas and all(m.delta.fragment_id for m in deltas), "the move resent elements outside the fragment"
    assert page.locator(CHARTS).count() > 0


def test_an_audit_knob_move_reruns_only_the_audit(page, app_url):
    """The audit's knobs and its audit are one fragment (dpui.common.presenter.page_fragment)."""
    sent, received = _listen(page)
    page.goto(app_url + "/Privacy_audit")
    page.wait_for_selector(CHARTS, timeout=180_000)
    wait_idle(page)
    _move_page_knob(page, sent, received, "audit_confidence")
    assert_no_error_text(page, "the privacy audit after a confidence move")
