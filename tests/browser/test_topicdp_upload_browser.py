"""Issue 31 item 7 in a real browser: TopicDP on a 20-user CSV upload opens on what needs no sampler.

Before: the page showed a warning and the sampler's button and nothing else (at n = 9 the sampler needs 570 LDA
fits). Now it shows strict TopicDP, Laplace and VIPS-LDA at once, their badges and the keyword chart, and offers TopicDP
(as in the thesis), TopicDP corrected and MVG on demand: a line saying they need the sampler, its time estimate, and the
button; nothing that needs the sampled Δ_s is on screen.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from test_browser import NAV_LINK, _upload, assert_no_error_text, wait_idle
from topicdp_env import WORDS

pytestmark = pytest.mark.browser


def _twenty_user_csv() -> bytes:
    rng, names, lines = np.random.default_rng(0), list(WORDS), ["user,text"]
    for u in range(20):
        for _ in range(3):
            a, b = WORDS[names[u % 4]], WORDS[names[(u + 1) % 4]]
            lines.append(f"u{u:02d}," + " ".join([*rng.choice(a, 12), *rng.choice(b, 3)]) + ".")
    return ("\n".join(lines) + "\n").encode()


def test_topicdp_on_a_20_user_upload_shows_the_releases_that_need_no_sampler(page, app_url):
    sidebar = _upload(page, app_url, "twenty.csv", _twenty_user_csv())
    assert "uploaded: twenty.csv" in sidebar and "20 users" in sidebar
    page.locator(NAV_LINK, has_text="TopicDP").first.click()  # the same session: the upload is kept
    page.wait_for_selector('[data-testid="stVegaLiteChart"]', timeout=180_000)  # the keyword chart, at once
    wait_idle(page, settle=1.0)
    assert_no_error_text(page, "TopicDP on a 20-user upload")
    main = page.locator('[data-testid="stMain"]').inner_text()
    # the on-demand line, its estimate (rough: nothing measured on this upload yet) and the button
    assert "TopicDP (as in the thesis), TopicDP corrected and MVG need the sampled sensitivity" in main
    assert re.search(r"Estimated time: about [\d.]+ (minutes|seconds) \(285 pairs × 0\.28 s per pair, a rough", main)
    assert page.get_by_role("button", name=re.compile(r"Run the sensitivity sampler \(285 new pairs\)")).is_visible()
    # what needs no Δ_s: strict TopicDP's σ and Laplace's b, their badges and VIPS-LDA's
    labels = page.locator('[data-testid="stMetricLabel"]').all_inner_texts()
    assert [x.strip() for x in labels][:2] == ["TopicDP strict σ", "Laplace scale b"]
    for name in ("TopicDP strict", "Laplace", "VIPS-LDA"):
        assert f"Guarantee: {name} —" in main, name
    # nothing that needs Δ_s before the button is pressed
    for absent in ("Sampled sensitivity Δₛ", "Guarantee: TopicDP (as in the thesis)", "Guarantee: MVG", "Δₛ ="):
        assert absent not in main, absent
    badges = [line for line in main.splitlines() if "Guarantee:" in line]
    assert badges and not [b for b in badges if "random DP" in b or "corrected" in b], badges
    assert "how Δ_s would be sampled" in main  # the expander on random DP does not say Δ_s was sampled
    assert page.locator('[data-testid="stVegaLiteChart"]').count() == 1
