"""Chart helpers: one look for every figure, alt text and a table of the plotted numbers always,
mean-and-band curves, and one colour-blind-safe style per series.

Colours come from the Okabe–Ito palette (Okabe & Ito, *Color Universal Design*, 2008), which stays
distinguishable under the common colour-vision deficiencies; every series also gets its own dash,
marker symbol and bar pattern, so no chart tells mechanisms apart by colour alone. A mechanism keeps
its style on every chart (``mechanism_style``).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from dpcore.topicdp.mechanisms import MATRIX_MECHANISMS
from dpui.common.lazy import lazy_expander
from dpui.common.presenter import PRESENTER_FONT, presenting

if TYPE_CHECKING:
    from dpcore.guarantees import Guarantee

OKABE_ITO: dict[str, str] = {
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "bluish green": "#009E73",
    "orange": "#E69F00",
    "reddish purple": "#CC79A7",
    "sky blue": "#56B4E9",
    "black": "#000000",
    "yellow": "#F0E442",
}
"""The Okabe–Ito colours, in the order series take them (yellow last: weak on white)."""
PALETTE: tuple[str, ...] = tuple(OKABE_ITO.values())
NEUTRAL = "#767676"
"""Grey for reference marks (the data before noise, "current ε" lines): 4.5:1 contrast on white."""
REFERENCE = OKABE_ITO["black"]
"""Bounds and targets a result is compared with (±ε, e^ε, y = η)."""
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot", "solid", "dash")
SYMBOLS = ("circle", "square", "diamond", "triangle-up", "x", "triangle-down", "star", "cross")
PATTERNS = ("", "/", ".", "x", "\\", "+", "-", "|")

MECHANISM_INDEX: dict[str, int] = {
    # each page's own mechanism
    "BayesianDP": 0,
    "DPNE": 0,
    "Laplace": 1,
    "Laplace + public": 2,
    "DPSU-all": 2,
    "Public baseline": 3,
    "DPSU-even": 3,
    "EndToEndDP (tuned)": 4,
    "DPSU-single": 4,
    "k-anonymity": 5,
    "Private baseline": 6,
    "VIPS-LDA": 4,
    "Public-only fit": 5,  # (the TopicDP page: VIPS-LDA and its public-only baseline)
    # the TopicDP page's matrix mechanisms: each record's style (dpcore.topicdp.MATRIX_MECHANISMS)
    **{r.name: r.style for r in MATRIX_MECHANISMS if isinstance(r.style, int)},
}
"""The style index of every mechanism the pages draw, so it looks the same on every chart."""
STRICT_VARIANTS: dict[str, str] = {
    "BayesianDP strict (DP)": "BayesianDP",
    **{r.name: r.style for r in MATRIX_MECHANISMS if isinstance(r.style, str)},
}
"""Our strict (DP) variant of a paper's mechanism → that mechanism (same colour, other dash and marker)."""


@dataclass(frozen=True)
class SeriesStyle:
    """Colour, dash, marker symbol and bar pattern of one series."""

    colour: str
    dash: str
    symbol: str
    pattern: str

    def line(self, **extra) -> dict:
        """``line=`` of a scatter trace."""
        return {"color": self.colour, "dash": self.dash, **extra}

    def marker(self, **extra) -> dict:
        """``marker=`` of a scatter trace."""
        return {"color": self.colour, "symbol": self.symbol, **extra}

    def bar(self, **extra) -> dict:
        """``marker=`` of a bar trace: colour and fill pattern."""
        return {"color": self.colour, "pattern": {"shape": self.pattern}, **extra}


def series_style(i: int) -> SeriesStyle:
    """The i-th style: Okabe–Ito colour, dash, marker symbol and bar pattern (cycling)."""
    return SeriesStyle(
        PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)], SYMBOLS[i % len(SYMBOLS)], PATTERNS[i % len(PATTERNS)]
    )


def mechanism_style(name: str, fallback: int = 0) -> SeriesStyle:
    """The style of a mechanism by name (``MECHANISM_INDEX``; a name starting with a known one counts
    as it, e.g. "k-anonymity, K = 10"); ``fallback`` for a name it does not know. A strict variant
    keeps its mechanism's colour with its own dash, marker and pattern (``STRICT_VARIANTS``)."""
    if name in STRICT_VARIANTS:
        base = mechanism_style(STRICT_VARIANTS[name], fallback)
        return SeriesStyle(base.colour, "dot", "diamond-open", "x")
    for known, i in MECHANISM_INDEX.items():
        if name == known or name.startswith(known + ","):
            return series_style(i)
    return series_style(fallback)


def rgba(hex_colour: str, alpha: float) -> str:
    """A palette colour with transparency (band fills)."""
    h = hex_colour.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


# ------------------------------------------------------------------------------ legends name their guarantee
TAG_SEPARATOR = " · "
"""Between a series' name and its guarantee's tag in a legend: "Laplace + public · not DP"."""
NO_NOISE = "no noise"
"""The tag of a series that is not a release: data before noise (the private values, a noiseless score)."""
REFERENCE_TAG = "reference"
"""The tag of a reference line that holds nobody's data (y = ε, y = η, e^ε, a claimed bound)."""
NEUTRAL_TAGS = (NO_NOISE, REFERENCE_TAG)
TAG_LEVELS = {"DP": "green", "DP for part": "orange", "random DP": "orange", "not DP": "red"}
"""Each guarantee tag (dpcore.guarantees.Guarantee.tag) and the level (badge colour) it stands for."""


def legend_tag(what) -> str:
    """The tag of a series: a release's Guarantee gives its :attr:`~dpcore.guarantees.Guarantee.tag` ("DP", "DP for
    part", "random DP", "not DP"); a series that is not a release passes :data:`NO_NOISE` or :data:`REFERENCE_TAG`.
    Nothing else: a tag is never typed on a page (the same name is ε-DP on one page and DP given a non-private choice
    on another, so only the page's own release knows)."""
    if isinstance(what, str):
        if what not in NEUTRAL_TAGS:
            raise ValueError(f"a series' tag must be a Guarantee or one of {NEUTRAL_TAGS}, got {what!r}")
        return what
    return _check_guarantee(what).tag


def tagged(name: str, what) -> str:
    """``name`` with its tag: "Laplace · DP"."""
    return f"{name}{TAG_SEPARATOR}{legend_tag(what)}"


def split_tag(name: str) -> tuple[str, str | None]:
    """A legend name back into (series name, tag or None)."""
    base, sep, tag = (name or "").rpartition(TAG_SEPARATOR)
    return (base, tag) if sep and (tag in TAG_LEVELS or tag in NEUTRAL_TAGS) else (name, None)


def _is_band(trace) -> bool:
    """A band's outline (hover-skipped, filled): it belongs to its line and is in no legend."""
    return getattr(trace, "hoverinfo", None) == "skip" or getattr(trace, "fill", None) == "toself"


def tag_legend(fig: go.Figure, guarantees) -> go.Figure:
    """Append each series' guarantee tag to its name (issue 31 item 3), from ``guarantees`` (see
    :func:`show_figure`). Every legend-visible series must be named in it (a forgotten one is an error, not an
    untagged line); a hidden twin (a second panel's copy of a series) is tagged when its name is given. Bands
    (hover-skipped fills) belong to their line and keep their names."""
    from dpcore.guarantees import Guarantee

    whole = guarantees if isinstance(guarantees, Guarantee) else None
    for trace in fig.data:
        if _is_band(trace) or split_tag(trace.name)[1] is not None:  # a band, or tagged before (a cached figure)
            continue
        what = whole if whole is not None else guarantees.get(trace.name)
        if what is None:
            if trace.showlegend is not False:
                raise ValueError(
                    f"series {trace.name!r} names no guarantee: pass guarantees[{trace.name!r}] "
                    f"(the release's Guarantee, or one of {NEUTRAL_TAGS})"
                )
            continue
        trace.name = tagged(trace.name, what)
    return fig


def tag_vega_series(plotted, spec: dict, guarantees, field: str = "series") -> tuple[list[dict], dict]:
    """The rows and spec of a Vega-Lite chart with each series' guarantee tag appended to its name (the
    :func:`tag_legend` of a Vega-Lite chart): the ``field`` of every row and every list of series names in the
    spec's encodings (a colour scale's domain, a sort order). A series ``guarantees`` does not name is an error."""
    names = {row[field] for row in plotted}
    missing = sorted(n for n in names if n not in guarantees)
    if missing:
        raise ValueError(f"series {missing[0]!r} names no guarantee: pass guarantees[{missing[0]!r}]")
    new = {n: tagged(n, guarantees[n]) for n in guarantees}

    def rename(node):
        if isinstance(node, dict):
            return {k: rename(v) for k, v in node.items()}
        if isinstance(node, list) and node and all(isinstance(v, str) and v in new for v in node):
            return [new[v] for v in node]
        if isinstance(node, list):
            return [rename(v) for v in node]
        return node

    return [{**row, field: new[row[field]]} for row in plotted], rename(spec)  # a layered or concatenated spec too


# ------------------------------------------------------------------------------ drawing a figure
def show_figure(
    fig: go.Figure,
    *,
    alt: str,
    key: str | None = None,
    records: Sequence[Mapping[str, object]] | None = None,
    guarantees: Mapping[str, Guarantee | str] | Guarantee | None = None,
) -> None:
    """Draw a plotly figure full width with alt text (required: say what the chart shows), and below it
    a collapsed "Numbers" table of the plotted data, for screen readers and for reading exact values.

    ``records`` are the table's rows: pass the rows the page exports for this chart where there is an
    export; without them the rows are read off the figure's traces (``figure_records``).

    ``guarantees`` (issue 31 item 3): what each series is — series name → the release's own Guarantee (the one
    its badge shows), or :data:`NO_NOISE` / :data:`REFERENCE_TAG` for a series that is not a release; or one
    Guarantee when every series is a release of it. Every legend-visible series then carries its tag
    (:func:`tag_legend`: "Laplace · DP", "BayesianDP · not DP"). A table read off the figure carries the tags too
    (it is what the legend says); ``records`` (an export's rows) keep their names.
    """
    if not alt or not alt.strip():
        raise ValueError("alt must describe the chart for screen readers, got an empty string")
    if guarantees is not None:
        tag_legend(fig, guarantees)
    fit_narrow(fig, scale=PRESENTER_FONT / 12 if presenting() else 1.0)
    if presenting():  # a projector: larger type (dpui.common.presenter)
        fig.update_layout(font=dict(size=PRESENTER_FONT))
    decade_ticks(fig)
    st.plotly_chart(fig, width="stretch", alt=alt, key=key, config={"displaylogo": False})
    label = f"Numbers — {figure_title(fig) or 'the data behind this chart'}"
    box_key = numbers_key(key)
    box = lazy_expander(label, key=box_key)  # the label holds ε or b: a new label starts as the last one was left
    if box:  # lazy (issue 29 item 4): the table is built and sent only while its expander is open
        with box:
            st.dataframe(table(figure_records(fig) if records is None else records), hide_index=True, width="stretch")


# ------------------------------------------------------------------------------ a layout that survives a phone
TITLE_CHARS = 44
"""Characters of a chart title per line: what fits a 390 px phone (a 358 px chart) at the title's size (issue 31
item 11: longer titles were cut at the chart's right edge). Longer titles wrap onto more lines."""
AXIS_CHARS = 46
"""Characters of an x-axis title per line (an axis title is smaller than the chart title)."""
Y_AXIS_CHARS = 36
"""Characters of a y-axis title per line: it runs along the plot's height, not much more than 250 px on a phone."""
TITLE_SIZE, NOTE_SIZE = 16, 14
"""Font sizes (px) of a chart title and of a subplot title (plotly's base font is 12)."""
LINE = 1.3
"""Plotly's line height in em (a title or note with <br> takes this per line)."""


def wrap_label(text: str, width: int) -> str:
    """``text`` with ``<br>`` between words so that no line holds more than ``width`` visible characters (HTML tags
    such as <sub> do not count; an existing <br> is kept; a single longer word stays whole)."""
    if not text:
        return text
    lines = []
    for part in re.split(r"<br\s*/?>", text):
        line = ""
        for word in part.split(" "):
            candidate = f"{line} {word}" if line else word
            if line and len(re.sub(r"<[^>]+>", "", candidate)) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return "<br>".join(lines)


def _lines(text: str | None) -> int:
    return len(re.split(r"<br\s*/?>", text)) if text else 0


def _extent(domain) -> float:
    """The share of the chart an axis spans (1 for an axis without a domain)."""
    return float(domain[1] - domain[0]) if domain else 1.0


def fit_narrow(fig: go.Figure, *, scale: float = 1.0) -> go.Figure:
    """Lay out ``fig`` so that its title, subplot titles, axis titles and legend stay inside the chart and clear of
    each other on a 390 px phone as on a wide screen (issue 31 item 11). Plotly neither wraps text nor grows its
    top margin for a title, so: the title, x- and y-axis titles wrap (:func:`wrap_label`); the title sits at the top
    of the chart and the top margin holds its lines and, below them, the subplot titles of the top row
    (annotations placed on the plot's top edge, as :func:`grid_figure` writes them); the legend goes below the
    plot. ``scale`` is the font scale (presenter mode draws larger type: fewer characters fit a line).
    Plotly's toolbar (modebar) is hidden on a phone by dpui.common.page_style: on a touch screen it covers the title."""
    title = fig.layout.title.text if fig.layout.title is not None else None
    title = wrap_label(title, int(TITLE_CHARS / scale)) if title else None
    axes = [k for k in fig.layout.to_plotly_json() if re.fullmatch(r"[xy]axis\d*", k)]
    for name in axes:  # an axis title wraps to its own axis's length (a cell of a grid is a fraction of the chart)
        axis = fig.layout[name]
        if axis.title is not None and axis.title.text:
            width = (Y_AXIS_CHARS if name.startswith("y") else AXIS_CHARS) * _extent(axis.domain)
            axis.title.text = wrap_label(axis.title.text, max(12, int(width / scale)))
    x_domains = [tuple(fig.layout[n].domain or (0, 1)) for n in axes if n.startswith("x")] or [(0, 1)]
    for a in fig.layout.annotations:  # subplot titles (grid_figure, make_subplots): centred on a cell, above it
        if a.xref == "paper" and a.yref == "paper" and a.yanchor == "bottom" and a.xanchor == "center" and a.text:
            cell = min((d for d in x_domains if d[0] <= a.x <= d[1]), key=_extent, default=(0, 1))
            size = a.font.size or 12 * scale
            a.text = wrap_label(a.text, max(12, int(TITLE_CHARS * TITLE_SIZE / size * _extent(cell))))
    top_notes = [
        a
        for a in fig.layout.annotations
        if a.yref == "paper" and a.y is not None and a.y >= 1 - 1e-9 and a.yanchor == "bottom"
    ]
    note_px = max((_lines(a.text) * (a.font.size or 12 * scale) * LINE for a in top_notes), default=0)
    fig.update_layout(
        margin=dict(l=10, r=10, b=10, t=10),
        # below the plot at the chart's bottom edge, under the x-axis title (paper y = -0.2 fell on the title)
        legend=dict(orientation="h", yref="container", y=0, yanchor="bottom"),
    )
    if title:  # above the plot and above the top row's subplot titles; plotly grows the top margin to hold it
        fig.update_layout(
            title=dict(
                text=title,
                yref="paper",
                y=1,
                yanchor="bottom",
                automargin=True,
                pad=dict(b=round(note_px + 6 * scale)),
                font=dict(size=TITLE_SIZE * scale),
            )
        )
    elif note_px:
        fig.update_layout(margin=dict(t=round(note_px + 10 * scale)))
    return fig


def show_vega(
    plotted: Sequence[Mapping[str, object]],
    spec: dict,
    *,
    alt: str,
    key: str,
    records: Sequence[Mapping[str, object]] | None = None,
    guarantees: Mapping[str, Guarantee | str] | None = None,
    series_field: str = "series",
) -> None:
    """A Vega-Lite chart full width with alt text, and below it the collapsed, lazy "Numbers" table (as
    :func:`show_figure` for a Plotly figure; ``records`` default to the plotted rows). ``spec`` holds no data.

    ``guarantees`` (issue 31 item 3, as in :func:`show_figure`): series name → its Guarantee or neutral tag; every
    value of ``series_field`` in the plotted rows must be named, and the legend (the rows and the spec's lists of
    series names) then carries the tags."""
    if not alt or not alt.strip():
        raise ValueError("alt must describe the chart for screen readers, got an empty string")
    if guarantees is not None:
        plotted, spec = tag_vega_series(plotted, spec, guarantees, series_field)
    if presenting():  # a projector: larger type (dpui.common.presenter)
        size = PRESENTER_FONT
        spec = {
            **spec,
            "config": {"axis": {"labelFontSize": size, "titleFontSize": size}, "legend": {"labelFontSize": size}},
        }
    st.vega_lite_chart(pd.DataFrame(plotted), spec, alt=alt, key=key, width="stretch")
    title = spec.get("title", {})
    words = title.get("text") if isinstance(title, dict) else title
    words = " ".join(words) if isinstance(words, list) else words  # a title given as lines
    label = f"Numbers — {words or 'the data behind this chart'}"
    box_key = numbers_key(key)
    box = lazy_expander(label, key=box_key)  # lazy (issue 29 item 4): the table is built only while open
    if box:
        with box:
            st.dataframe(table(plotted if records is None else records), hide_index=True, width="stretch")


def numbers_key(chart_key: str | None = None) -> str:
    """The widget key of a chart's "Numbers" expander: from the chart's key, else its place among this run's
    Numbers expanders (not its title, which holds ε or b: the expander stays open across a slider move)."""
    ctx = get_script_run_ctx()
    keys = ctx.shared.widget_user_keys_this_run.snapshot() if ctx is not None else frozenset()
    used = [k for k in keys if k.startswith("numbers_")]
    return f"numbers_{chart_key}" if chart_key else f"numbers_{len(used) + 1}"


# ------------------------------------------------------------------------------ log axes: decades only
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def tick_label(v: float) -> str:
    """A log-axis tick as people read it on a projector: 0.001 … 500,000 written out, beyond that 10⁻⁵, 10⁶ (a
    decade) or 2·10⁻⁵ (a 1-2-5 step)."""
    if 1e-3 <= v < 1e6:
        return f"{v:,.3f}".rstrip("0").rstrip(".") if v < 1 else f"{v:,.0f}"
    exponent = int(np.floor(np.log10(v) + 1e-9))
    mantissa = round(v / 10.0**exponent)
    power = "10" + str(exponent).translate(_SUPERSCRIPT)
    return power if mantissa == 1 else f"{mantissa}·{power}"


def log_ticks(low: float, high: float) -> list[float]:
    """Tick values for a log axis whose data run from ``low`` to ``high`` (> 0): the powers of ten when the
    data cross at least two of them, else 1-2-5 steps (a range within one decade would otherwise show one
    label or none); none (plotly's own labels) when even those would label fewer than two points of the data.
    One step beyond each end is included (plotly pads the range; ticks outside it are not drawn)."""
    lo, hi = int(np.floor(np.log10(low) + 1e-9)), int(np.ceil(np.log10(high) - 1e-9))

    def within(t: float) -> bool:
        return low * (1 - 1e-9) <= t <= high * (1 + 1e-9)

    if sum(within(10.0**k) for k in range(lo, hi + 1)) >= 2:
        return [10.0**k for k in range(lo - 1, hi + 2)]
    steps = [float(f"{m * 10.0**k:.12g}") for k in range(lo - 1, hi + 1) for m in (1, 2, 5)] + [10.0 ** (hi + 1)]
    return steps if sum(map(within, steps)) >= 2 else []


def _axis_values(fig: go.Figure) -> dict[str, list[float]]:
    """Every plotted value per axis layout name ("xaxis", "yaxis2" …), bands included."""
    values: dict[str, list[float]] = {}
    for trace in fig.data:
        for letter in ("x", "y"):
            data = getattr(trace, letter, None)
            if data is None:
                continue
            ref = getattr(trace, f"{letter}axis", None) or letter
            arr = np.asarray(plain_values(data), dtype=object).ravel()
            nums = [float(v) for v in arr if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)]
            values.setdefault(f"{letter}axis{ref[1:]}", []).extend(nums)
    return values


def decade_ticks(fig: go.Figure) -> go.Figure:
    """Label every log axis of ``fig`` at the powers of ten only (issue 24: plotly's default labels every
    minor step, "2 3 4 5 … 100 2 …", unreadable on a projector); 1-2-5 steps where the data stay within one
    decade. Axes that share a scale (``matches``) get the same ticks from the values of all of them. Called
    by :func:`show_figure` on every chart; an axis whose ticks the figure sets itself is left alone."""
    layout = fig.layout.to_plotly_json()
    values = _axis_values(fig)
    axes = {name: spec for name, spec in layout.items() if re.fullmatch(r"[xy]axis\d*", name)}
    groups: dict[str, list[str]] = {}
    for name, spec in axes.items():
        match = spec.get("matches")
        root = f"{name[0]}axis{match[1:]}" if match else name
        groups.setdefault(root, []).append(name)
    for names in groups.values():
        if not any(axes[n].get("type") == "log" for n in names) or any("tickvals" in axes[n] for n in names):
            continue
        data = np.array([v for n in names for v in values.get(n, [])], dtype=float)
        data = data[np.isfinite(data) & (data > 0)]
        if data.size == 0:
            continue
        ticks = log_ticks(float(data.min()), float(data.max()))
        if not ticks:
            continue
        for n in names:
            fig.layout[n].update(type="log", tickmode="array", tickvals=ticks, ticktext=[tick_label(t) for t in ticks])
    return fig


def figure_title(fig: go.Figure) -> str:
    """The figure's title as plain text (HTML tags removed)."""
    title = fig.layout.title.text if fig.layout.title is not None else None
    return _plain(title or "")


def _plain(label: str) -> str:
    """A plotly label as plain text: a line break (``<br>``, from :func:`wrap_label`) is a space, tags go."""
    return re.sub(r"<[^>]+>", "", re.sub(r"<br\s*/?>", " ", label)).strip()


def _axis_title(layout, ref: str | None, letter: str) -> str:
    name = f"{letter}axis{(ref or letter)[1:]}"
    axis = layout.get(name) or {}
    title = (axis.get("title") or {}).get("text")
    if not title and axis.get("matches"):  # a shared axis shows its title once, on the axis it matches
        title = ((layout.get(f"{letter}axis{axis['matches'][1:]}") or {}).get("title") or {}).get("text")
    return _plain(title or letter).split(" (")[0].strip() or letter


def plain_values(v):
    """A trace's data as a plain sequence: plotly ≥ 6 writes numpy arrays as {"dtype", "bdata"} (base64)."""
    if isinstance(v, dict) and "bdata" in v and "dtype" in v:
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        return arr.reshape(v["shape"]) if "shape" in v and isinstance(v["shape"], (list, tuple)) else arr
    return v


def figure_records(fig: go.Figure) -> list[dict]:
    """The plotted points of every trace as rows: series name, x and y under their axis titles.

    Band outlines (filled, hover-skipped traces) are left out; a trace's ``meta`` dict of per-point
    lists (``band_figure`` puts the band's lower and upper ends there) becomes extra columns. A
    histogram gives one row per value it counts.
    """
    spec = fig.to_dict()
    layout = spec.get("layout", {})
    rows: list[dict] = []
    for trace in spec.get("data", []):
        if trace.get("hoverinfo") == "skip" or trace.get("fill") == "toself":
            continue
        x_name = _axis_title(layout, trace.get("xaxis"), "x")
        y_name = _axis_title(layout, trace.get("yaxis"), "y")
        series = trace.get("name") or trace.get("type", "series")
        xs, ys = plain_values(trace.get("x")), plain_values(trace.get("y"))
        if trace.get("type") == "histogram":
            rows += [{"series": series, x_name: v} for v in (xs if xs is not None else ys)]
            continue
        if xs is None or ys is None:
            continue
        meta = trace.get("meta") if isinstance(trace.get("meta"), dict) else {}
        meta = {k: plain_values(v) for k, v in meta.items()}
        for j, (xv, yv) in enumerate(zip(xs, ys)):
            row = {"series": series, x_name: xv, y_name: yv}
            row.update({k: v[j] for k, v in meta.items() if hasattr(v, "__len__") and j < len(v)})
            rows.append(row)
    return rows


def table(records) -> pd.DataFrame:
    """Rows as a DataFrame Streamlit can always draw: a column mixing kinds (text and numbers) is text."""
    df = pd.DataFrame(list(records))
    for col in df.columns:
        kinds = {type(v) for v in df[col] if v is not None and not (isinstance(v, float) and np.isnan(v))}
        if len(kinds) > 1 and str in kinds:
            df[col] = [None if v is None else str(v) for v in df[col]]
    return df


def band_figure(
    x: Sequence[float],
    series: Mapping[str, tuple[Sequence[float], Sequence[float] | None, Sequence[float] | None]],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    dash: Mapping[str, str] | None = None,
) -> go.Figure:
    """Lines for the mean of each series with a shaded band (lower, upper), e.g. over repetitions.

    ``series[name] = (mean, lower, upper)``; pass ``None`` for lower/upper to draw the line only. Each
    series takes its mechanism's style (colour, dash, marker symbol); ``dash`` overrides the dash.
    """
    fig = go.Figure()
    for i, (name, (mean, lo, hi)) in enumerate(series.items()):
        add_band(fig, name, x, mean, lo, hi, dash=(dash or {}).get(name), style=mechanism_style(name, i))
    fig.update_layout(title=title, xaxis_title=x_title, yaxis_title=y_title)
    if log_x:
        fig.update_xaxes(type="log")
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def add_band(fig: go.Figure, name: str, x, mean, lo=None, hi=None, *, dash: str | None = None, style=None) -> None:
    """One mean-and-band series (its line, and a shaded band from ``lo`` to ``hi`` unless they are None), in the
    mechanism's style (``style``: another one, e.g. by place); ``dash`` overrides the style's dash."""
    style = style or mechanism_style(name)
    xs, meta = [float(v) for v in x], None
    if lo is not None and hi is not None:
        fig.add_trace(
            go.Scatter(
                x=xs + xs[::-1],
                y=list(hi) + list(lo)[::-1],
                mode="lines",  # plotly's default for ≤ 20 points adds markers to the outline: unlabelled dots
                fill="toself",
                fillcolor=rgba(style.colour, 0.18),
                line=dict(width=0),
                hoverinfo="skip",
                showlegend=False,
                name=f"{name} band",
            )
        )
        meta = {"lower": [float(v) for v in lo], "upper": [float(v) for v in hi]}
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=list(mean),
            mode="lines+markers",
            name=name,
            meta=meta,
            line=style.line(dash=dash or style.dash),
            marker=style.marker(),
        )
    )


def _check_guarantee(guarantee):
    from dpcore.guarantees import Guarantee

    if not isinstance(guarantee, Guarantee):
        raise TypeError(
            f"guarantee must be a dpcore.guarantees.Guarantee, got {type(guarantee).__name__}; "
            "pass the release's .guarantee, never a text label"
        )
    return guarantee


def chip_label(guarantee) -> str:
    """The guarantee in a few words for its chip: the kind and its parameters, e.g. "(ε, δ)-DP per user (ε = 1,
    δ = 1e-05)", "sensitivity measured on the private data", "k-anonymity (K = 10)" — the Guarantee's own
    :attr:`~dpcore.guarantees.Guarantee.short_label`, the words the session budget and the reviewer's panel use too.
    The qualifiers (scope, what the proof does not cover) are in the full sentence, :func:`badge_help`."""
    return _check_guarantee(guarantee).short_label


def badge_text(guarantee, *, name: str = "") -> str:
    """The words of a guarantee chip: the strength in words, then the short label (so the chip never relies on
    colour alone, and is short enough never to be cut): "Guarantee: BayesianDP — not DP: sensitivity measured on the
    private data".
    The full sentence is the chip's tooltip (:func:`badge_help`) and the reviewer's panel."""
    g = _check_guarantee(guarantee)
    who = f"{name} — " if name else ""
    return f"Guarantee: {who}{g.words}"  # strength and short label: dpcore.guarantees' one vocabulary


def badge_help(guarantee) -> str:
    """The full sentence behind a chip (its tooltip): the whole label, with every qualifier, and the promise."""
    g = _check_guarantee(guarantee)
    return f"**{g.strength}: {g.label}.** {g.promise}"


GUARANTEE_ICONS = {"green": "🔒", "orange": "⚠️", "red": "⛔"}
"""The badge icon of each guarantee level (dpcore.guarantees.Guarantee.colour: green / orange / red)."""
BADGE_COLOURS = {"green": "green", "orange": "orange", "red": "red"}
"""The st.badge colour of each guarantee level."""


def guarantee_icon(guarantee) -> str:
    """The badge icon of a guarantee: 🔒 proven DP, ⚠️ weaker than DP or DP of part of the release, ⛔ not DP."""
    return GUARANTEE_ICONS[_check_guarantee(guarantee).colour]


def guarantee_badge(guarantee, *, name: str = "") -> None:
    """Show a release's guarantee: colour, icon and words all derived from the Guarantee's kind (never from
    text matching). Green only for a proven ε-DP / (ε, δ)-DP; orange for random DP or DP of part of the release;
    red for everything not DP (a sensitivity measured on the private data, k-anonymity, no protection). The chip holds
    the short label; hovering it shows the full sentence (and chips wrap rather than cut: dpui.common.page_style)."""
    from dpui.common.noise import (
        demonstration_chip,  # issue 30: in reproducible mode every badge says it protects no one
    )

    st.badge(
        badge_text(guarantee, name=name),
        icon=guarantee_icon(guarantee),
        color=BADGE_COLOURS[guarantee.colour],
        help=badge_help(guarantee),
    )
    demonstration_chip()


def grid_figure(
    rows: int,
    cols: int,
    *,
    titles: Sequence[str] = (),
    shared_x: bool = False,
    v_space: float = 0.12,
    h_space: float = 0.08,
) -> go.Figure:
    """A rows × cols grid of axes built directly as layout (plotly's make_subplots costs ~50 ms).

    Cell (r, c), 1-based, uses axes ``x{n}``/``y{n}`` with n = (r−1)·cols + c (n = 1 → "x"/"y");
    add traces with :func:`cell_axes` and set titles with :func:`cell_axis_names`.
    """
    layout: dict = {"annotations": []}
    height = (1 - v_space * (rows - 1)) / rows
    width = (1 - h_space * (cols - 1)) / cols
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            n = (r - 1) * cols + c
            xname, yname = cell_axis_names(n)
            x0 = (c - 1) * (width + h_space)
            y1 = 1 - (r - 1) * (height + v_space)
            layout[xname] = {"domain": [max(0.0, x0), min(1.0, x0 + width)], "anchor": yname.replace("axis", "")}
            layout[yname] = {"domain": [max(0.0, y1 - height), min(1.0, y1)], "anchor": xname.replace("axis", "")}
            if shared_x and r < rows:
                layout[xname]["matches"] = cell_axis_names(rows * cols - cols + c)[0].replace("axis", "")
                layout[xname]["showticklabels"] = False
            if n <= len(titles):  # (show_figure wraps it to the cell's width: fit_narrow)
                layout["annotations"].append(
                    {
                        "text": titles[n - 1],
                        "x": x0 + width / 2,
                        "y": y1,
                        "xref": "paper",
                        "yref": "paper",
                        "xanchor": "center",
                        "yanchor": "bottom",
                        "showarrow": False,
                        "font": {"size": NOTE_SIZE},
                    }
                )
    return go.Figure(layout=layout)


def cell_axis_names(n: int) -> tuple[str, str]:
    """Layout keys of cell n's axes: ("xaxis", "yaxis") for n = 1, else ("xaxis2", "yaxis2") …"""
    suffix = "" if n == 1 else str(n)
    return f"xaxis{suffix}", f"yaxis{suffix}"


def cell_axes(n: int) -> dict:
    """Trace keywords placing a trace in cell n: ``go.Scatter(..., **cell_axes(2))``."""
    suffix = "" if n == 1 else str(n)
    return {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
