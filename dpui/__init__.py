"""Shared UI pieces every page calls: the sidebar, error handling and chart helpers (no maths)."""

from .charts import badge_text, band_figure, guarantee_badge, show_figure
from .errors import user_errors
from .exercises import exercise_mode
from .exports import export_view
from .paper_vs_here import paper_vs_here
from .review import review_requested, reviewer_panel
from .sidebar import DELTA_OPTIONS, EPSILON_OPTIONS, SharedSettings, shared_sidebar

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
