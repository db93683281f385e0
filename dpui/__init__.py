"""Shared UI pieces every page calls: the sidebar, error handling and chart helpers (no maths)."""

from dpui.common.charts import badge_text, band_figure, guarantee_badge, show_figure
from dpui.common.errors import user_errors
from dpui.common.exercises import exercise_mode
from dpui.common.exports import export_view
from dpui.common.paper_vs_here import paper_vs_here
from dpui.common.review import review_requested, reviewer_panel
from dpui.common.process import tune_process
from dpui.common.sidebar import DELTA_OPTIONS, EPSILON_OPTIONS, SharedSettings, shared_sidebar

tune_process()  # the server process's GIL switch interval and BLAS threads (dpui.common.process; issue 29)

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
