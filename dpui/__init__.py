"""Shared UI pieces every page calls: the sidebar, error handling and chart helpers (no maths)."""

import sys

SWITCH_INTERVAL = 0.001
"""Seconds a Python thread may hold the GIL while another waits (the interpreter's default is 0.005). A Streamlit
server runs each session's script in its own thread beside the event loop that sends the pages' messages; a script
doing many short numpy calls gives the GIL back at each and then waits up to the interval to get it again (the
"convoy effect"). Measured (issue 29): the session budget's convolution took 10 ms alone, 100 ms beside one busy
Python thread at 0.005 s, 35 ms at 0.001 s, and 110-360 ms inside a real server during a TopicDP ε move. Set once,
for the whole server process, when the app's pages import dpui."""
if sys.getswitchinterval() > SWITCH_INTERVAL:
    sys.setswitchinterval(SWITCH_INTERVAL)

from dpui.common.charts import badge_text, band_figure, guarantee_badge, show_figure
from dpui.common.errors import user_errors
from dpui.common.exercises import exercise_mode
from dpui.common.exports import export_view
from dpui.common.paper_vs_here import paper_vs_here
from dpui.common.review import review_requested, reviewer_panel
from dpui.common.sidebar import DELTA_OPTIONS, EPSILON_OPTIONS, SharedSettings, shared_sidebar

__all__ = [
    "shared_sidebar",
    "SharedSettings",
    "EPSILON_OPTIONS",
    "DELTA_OPTIONS",
    "user_errors",
    "export_view",
    "exercise_mode",
    "paper_vs_here",
    "show_figure",
    "band_figure",
    "guarantee_badge",
    "badge_text",
    "reviewer_panel",
    "review_requested",
]
