"""Page-wide style fixes that Streamlit's own options do not reach (theme options live in
.streamlit/config.toml); each one is here because axe-core or a browser test reported it.
"""

from __future__ import annotations

import streamlit as st

STYLE = """
<style>
/* KaTeX's display formulas are scroll containers (overflow: auto) that overflow by a pixel or two of
   rounding, so axe-core reports a "scrollable region without keyboard access" (serious). The formulas
   are one per line and short; let them overflow visibly instead of scrolling. */
.katex-display { overflow: visible !important; }
/* Guarantee chips (st.badge) are cut with "…" where they are wider than their column, which is where the
   qualifier is (issue 24): they wrap instead. */
/* A metric's value is cut with "…" where it is wider than its column: the exercise placeholder "🙈 hidden until you
   answer" read "🙈 hidden until yo…" (issue 31): metric values wrap instead. */
[data-testid="stMetricValue"], [data-testid="stMetricValue"] * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; }
.stMarkdownBadge { white-space: normal !important; overflow: visible !important; text-overflow: clip !important;
                   height: auto !important; }
/* A phone (issue 31 item 11; the same width as dpui.common.presenter's phone ε): Plotly's toolbar shows on a touch and
   covers the chart's title, and there is no pointer to zoom with — hidden; display formulas are drawn at the
   text's size instead of 1.21 × so that a line of maths fits the column. */
@media (max-width: 640px) {
  .modebar-container { display: none !important; }
  .katex-display > .katex { font-size: 1em !important; }
}
</style>
"""


def page_style() -> None:
    """Add the style fixes to the page (drawn by the shared sidebar on every page)."""
    st.html(STYLE)
