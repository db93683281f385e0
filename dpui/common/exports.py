"""Exports: the numbers behind a view, with the settings that produced them, as CSV and JSON."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

import numpy as np
import streamlit as st

from dpui.common.lazy import lazy_expander
from dpui.common.noise import check_no_secret, dumps, export_record, export_settings


def _plain(v):
    if v is None or type(v) in (int, float, str, bool):  # the common cells: no import, no checks (issue 29)
        return v
    from dpcore.guarantees import Guarantee
    from dpcore.lab.review import Review

    if isinstance(v, (Guarantee, Review)):  # exports carry the whole guarantee (kind, ε, δ, γ, label, promise)
        return v.to_dict()
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (np.floating, np.integer, np.bool_)):
        return v.item()
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, (tuple, set, frozenset)):
        return [_plain(x) for x in v]
    return v


def records_to_csv(records: Sequence[Mapping[str, object]]) -> str:
    """CSV text of a list of row dicts (columns in first-seen order)."""
    columns: dict[str, None] = {}
    for r in records:
        for k in r:
            columns.setdefault(str(k), None)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    writer.writeheader()
    for r in records:
        writer.writerow({str(k): _plain(v) for k, v in r.items()})
    return out.getvalue()


EXPORTS_PARAM = "exports"
"""``?exports=1`` opens every export box of the page (a link that shows the downloads at once)."""
EXPORTS_ALL_KEY = "_exports_all"
"""Session state: True opens every export box (what ``exports=1`` does, for a caller that cannot set the URL)."""
EXPORT_LABEL = "⬇ Export and reproduce — CSV, JSON, notebook, script"


def export_box(key: str, label: str = EXPORT_LABEL):
    """The collapsed "Export and reproduce" box of one view (issue 29 item 4): its container while open, else None.

    Its buttons (four per view: CSV, JSON, notebook, script) and their files are built only while it is open: an
    ε move no longer recomputes and resends them. Open it with ``?exports=1`` (every box of the page).
    """
    wanted = str(st.query_params.get(EXPORTS_PARAM, "")).strip().lower() in ("1", "true", "yes")
    return lazy_expander(label, key=f"{key}_box", expanded=wanted or bool(st.session_state.get(EXPORTS_ALL_KEY)))


def export_view(name: str, records, *, settings: Mapping[str, object], key: str, spec=None) -> None:
    """Two download buttons: the rows as CSV, and {settings, rows} as JSON (re-runnable record of the view).

    ``records`` is a list of row dicts or a pandas DataFrame; ``settings`` holds every parameter and the
    seed that produced them, so an exported file says how to reproduce itself. ``spec`` (a
    :class:`dpcore.specs.Spec`): the JSON also carries ``"spec": spec.record()``, which ``dpcore.replay(record,
    corpus)`` runs again (issue 22).

    The noise mode (dpui.common.noise, issue 30) is in the settings (``noise``, ``noise_seed``); in private mode the seed is
    left out of the settings and the spec record (``"noise": "secret"``), and the file is checked not to hold it.
    """
    if hasattr(records, "to_dict"):
        records = records.to_dict(orient="records")
    rows = [{str(k): _plain(v) for k, v in r.items()} for r in records]
    meta = {str(k): _plain(v) for k, v in export_settings(dict(settings)).items()}
    c1, c2 = st.columns(2)
    c1.download_button(
        f"⬇ {name} (CSV)",
        check_no_secret(records_to_csv(rows)),
        file_name=f"{key}.csv",
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )
    payload = (
        {"settings": meta, "rows": rows}
        if spec is None
        else {"settings": meta, "spec": export_record(spec), "rows": rows}
    )
    c2.download_button(
        f"⬇ {name} + settings (JSON)",
        dumps(payload),
        file_name=f"{key}.json",
        mime="application/json",
        key=f"{key}_json",
        on_click="ignore",
    )
