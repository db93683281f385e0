"""Every chart on every page: a table of its numbers, Okabe–Ito colours only, series told apart without colour."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from dpui.common.charts import NEUTRAL, OKABE_ITO, REFERENCE, figure_records, plain_values, rgba
from dpui.dpne.views import SECTIONS as DPNE_SECTIONS

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {c.lower() for c in OKABE_ITO.values()} | {NEUTRAL.lower(), REFERENCE.lower()}
ALLOWED |= {rgba(c, 0.18).lower() for c in OKABE_ITO.values()}

# Each page, and the clicks that make its button-run charts appear, so every chart is seen once.
VIEWS = {
    "app.py": [],
    "pages/1_Mechanisms_101.py": [],
    "pages/1_Mechanisms_101.py:laplace": [
        ("tab", "m101_tab", "(d) Sample many times"),
        ("radio", "m101_sample_mech", "Laplace"),
    ],
    "pages/1_Mechanisms_101.py:cities": [("tab", "m101_tab", "(c) Exponential mechanism")],
    "pages/1_Mechanisms_101.py:debt": [("tab", "m101_tab", "(b) Global sensitivity")],
    "pages/1_Mechanisms_101.py:sample": [("tab", "m101_tab", "(d) Sample many times")],
    "pages/2_Bayesian_ngram_DP.py": [],
    # its tabs are lazy (issue 24): one view per tab with a chart, the tab opened, then its button pressed
    "pages/2_Bayesian_ngram_DP.py:kl": [("slider", "bayes_reps", 2), ("tab", "bayes_tab", "KL vs ε")],
    "pages/2_Bayesian_ngram_DP.py:kanon": [("slider", "bayes_reps", 2), ("tab", "bayes_tab", "k-anonymity vs ε")],
    **{
        f"pages/2_Bayesian_ngram_DP.py:{k}": [("slider", "bayes_reps", 2), ("tab", "bayes_tab", tab)]
        + ([("select_slider", "bayes_trials", 50)] if k == "mia" else [])
        + [("click", f"bayes_run_{k}", None)]
        for k, tab in (
            ("users", "Users"),
            ("vocabulary", "Vocabulary"),
            ("public", "Public quality"),
            ("mia", "Membership inference"),
            ("e2e", "Private tuning"),
        )
    },
    # the sections below the bars are lazy expanders (issue 29): opened through the URL, as a link or a click does
    "pages/3_DP_ngram_extraction.py": [("open", k, True) for k in DPNE_SECTIONS] + [("slider", "dpne_T", 4)],
    "pages/3_DP_ngram_extraction.py:sweep": [
        ("tab", "dpne_tab", "Sweep one knob (Figs. 2–4)"),
        ("slider", "dpne_T", 4),
        ("click", "dpne_sweep_run", None),
    ],
    "pages/4_TopicDP.py": [],
    # issue 32: the attacker's trade-off curve, drawn once its toggle is on (the audit's with its measured attack)
    "pages/1_Mechanisms_101.py:risk": [("toggle", "m101_risk_curve", True)],
    "pages/5_Privacy_audit.py:risk": [("toggle", "audit_broken", True), ("toggle", "audit_risk_curve", True)],
    **{  # the tabs are lazy (issue 24): each tab's charts are drawn once it is open
        f"pages/4_TopicDP.py:{name}": [("tab", "topicdp_tab", label)]
        for name, label in (
            ("curves", "Error curves"),
            ("sensitivities", "Sampled sensitivities"),
            ("prompts", "Prompts after noise"),
            ("vips", "VIPS-LDA against ε"),
        )
    },
}
VIEWS.update(
    {
        str(p.relative_to(ROOT)): []
        for p in sorted((ROOT / "pages").glob("*.py"))
        if str(p.relative_to(ROOT)) not in VIEWS
    }
)  # a new page is checked as it opens


def open_view(view: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / view.split(":")[0]), default_timeout=300)
    at.run()
    for kind, key, value in VIEWS[view]:
        if kind in ("tab", "open"):  # a lazy tab or expander (only what is open runs): opened through the URL
            at.query_params[key] = "true" if value is True else value
            at.session_state[key] = value
            at.run()
            continue
        (at.button(key=key).click() if kind == "click" else getattr(at, kind)(key=key).set_value(value)).run()
    assert not at.exception, [e.message for e in at.exception]
    return open_numbers(at)


def open_numbers(at: AppTest) -> AppTest:
    """Open every lazy "Numbers" expander (issue 29: their tables are built only while open), as a click does."""
    closed = [e for e in numbers_expanders(at) if not e.dataframe]
    assert all(not e.proto.expanded for e in closed)
    for e in closed:
        at.session_state[e.proto.id.split("-", 2)[2]] = True
    if closed:
        at.run()
        assert not at.exception, [e.message for e in at.exception]
    return at


CHART_TYPES = ("plotly_chart", "vega_lite_chart")
"""The chart elements the pages draw: Plotly figures, and Vega-Lite charts (TopicDP's keyword facets, issue 29)."""


def charts_in_order(at: AppTest) -> list:
    """Every chart of the page, Plotly and Vega-Lite, in the order they are drawn (as their Numbers tables are)."""
    out: list = []

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", "") in CHART_TYPES:
                out.append(child)
            walk(child)

    walk(at._tree)
    return out


def chart_title(chart) -> str:
    spec = json.loads(chart.proto.spec)
    title = spec["layout"].get("title", {}) if chart.type == "plotly_chart" else spec.get("title", {})
    text = (title.get("text", "") if isinstance(title, dict) else str(title)) or ""
    return " ".join(text) if isinstance(text, list) else text  # a Vega-Lite title may be given as lines


def vega_views(spec: dict) -> list[dict]:
    """The single views of a Vega-Lite spec that encode data: the spec itself, a facet's inner spec, the views of a
    layer or of a (v/h)concat (M101's loss chart: two panels sharing an axis, issue 29)."""
    out = []
    for key in ("layer", "vconcat", "hconcat", "concat"):
        for child in spec.get(key, []):
            out += vega_views(child)
    if "spec" in spec:
        out += vega_views(spec["spec"])
    if "encoding" in spec:
        out.append(spec)
    return out


def plotted_values(chart) -> list[list]:
    """Each series' plotted numbers (bands left out): a Plotly trace's y (a histogram's x); a Vega-Lite chart's
    quantitative fields in its data (AppTest keeps them as Arrow bytes)."""
    spec = json.loads(chart.proto.spec)
    if chart.type == "vega_lite_chart":
        import pyarrow as pa

        frame = pa.ipc.open_stream(chart.proto.data.data).read_pandas()
        fields = {  # a tooltip may be a list of fields: it plots nothing
            e["field"]: None
            for view in vega_views(spec)
            for e in view["encoding"].values()
            if isinstance(e, dict) and e.get("type") == "quantitative" and "field" in e
        }
        return [list(frame[f]) for f in fields]
    return [
        plain_values(trace.get("y") if trace.get("type") != "histogram" else trace.get("x"))
        for trace in spec["data"]
        if trace.get("fill") != "toself" and trace.get("hoverinfo") != "skip"
    ]


def numbers_expanders(at: AppTest) -> list:
    return [e for e in at.expander if e.label.startswith("Numbers — ")]


@pytest.fixture(scope="module", params=list(VIEWS))
def view(request):
    return request.param, open_view(request.param)


def test_numbers_tables_are_built_only_when_opened():
    """Issue 29 item 4: a collapsed "Numbers" table is neither computed nor sent on a slider move (Mechanisms 101
    sent 92 KB per ε move); opening it shows the table, and it stays open across an ε move."""
    at = AppTest.from_file(str(ROOT / "pages" / "1_Mechanisms_101.py"), default_timeout=120).run()
    (closed,) = numbers_expanders(at)
    assert not closed.dataframe and not closed.proto.expanded
    at = open_numbers(at)
    assert len(numbers_expanders(at)[0].dataframe[0].value) > 100
    at.select_slider(key="eps").set_value(2.0).run()
    (still,) = numbers_expanders(at)
    assert still.dataframe and "b = 0.5" in still.label


def test_every_chart_has_its_numbers_table(view):
    name, at = view
    charts = charts_in_order(at)
    tables = numbers_expanders(at)
    assert len(tables) == len(charts), f"{name}: {len(charts)} charts but {len(tables)} numbers tables"
    titles = [chart_title(c) for c in charts]
    for chart_title_, expander in zip(titles, tables):
        frames = expander.dataframe
        assert len(frames) == 1 and len(frames[0].value) > 0, f"{name}: empty numbers table under {chart_title_!r}"
        if chart_title_:  # the table names its chart (for screen readers moving through the page)
            assert expander.label.split("Numbers — ", 1)[1][:20] in chart_title_.replace("<b>", "").replace("</b>", "")
    for chart, expander in zip(charts, tables):  # the table holds the plotted numbers
        cells = np.array(
            [
                v
                for v in expander.dataframe[0].value.to_numpy().ravel()
                if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
            ],
            dtype=float,
        )
        for plotted in plotted_values(chart):
            values = [
                float(v)
                for v in (plotted if plotted is not None else [])
                if isinstance(v, (int, float, np.number)) and np.isfinite(v)
            ][:3]
            for v in values:
                assert np.isclose(cells, v, rtol=1e-9, atol=0).any(), (
                    f"{name}: {chart_title(chart)!r} plots {v} but its numbers table does not hold it"
                )


def _colours(node, path=""):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "template":
                continue
            if k.endswith("color") and isinstance(v, str):
                yield f"{path}.{k}", v
            elif k.endswith("color") and isinstance(v, list):
                yield from ((f"{path}.{k}", c) for c in v if isinstance(c, str))
            else:
                yield from _colours(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _colours(v, f"{path}[{i}]")


def test_charts_use_the_okabe_ito_palette_only(view):
    name, at = view
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        for where, colour in _colours({"data": spec["data"], "layout": spec["layout"]}):
            assert colour.lower().replace(" ", "") in ALLOWED, f"{name}: {where} = {colour}"
    for chart in at.get("vega_lite_chart"):  # a Vega-Lite chart's colours: each view's colour scale's range
        for view_ in vega_views(json.loads(chart.proto.spec)):
            colour = view_["encoding"].get("color", {})
            assert "scale" in colour and "range" in colour["scale"], f"{name}: a Vega-Lite chart in Vega's own colours"
            for c in colour["scale"]["range"]:
                assert c.lower() in ALLOWED, f"{name}: Vega-Lite colour {c}"


def _look(trace: dict) -> tuple:
    """How a trace looks apart from its colour."""
    marker, line = trace.get("marker") or {}, trace.get("line") or {}
    return (
        trace.get("type", "scatter"),
        trace.get("mode"),
        line.get("dash"),
        line.get("width"),
        json.dumps(marker.get("symbol")),
        json.dumps((marker.get("pattern") or {}).get("shape")),
    )


def test_series_differ_without_colour(view):
    """Within one panel, two differently named series never look the same once colour is removed."""
    name, at = view
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        panels: dict = {}
        for trace in spec["data"]:
            if trace.get("fill") == "toself" or trace.get("hoverinfo") == "skip":
                continue  # a band belongs to its line
            panels.setdefault(trace.get("xaxis", "x"), {}).setdefault(trace.get("name"), _look(trace))
        for _axis, looks in panels.items():
            seen = {}
            for series, look in looks.items():
                assert look not in seen, (
                    f"{name}, chart {spec['layout'].get('title', {}).get('text')!r}: "
                    f"{series!r} and {seen.get(look)!r} differ by colour only"
                )
                seen[look] = series


# ------------------------------------------------------------------------------ issue 31 item 3: legends name guarantees
BADGE = re.compile(r":(\w+)-badge\[(\S+) Guarantee: (?:(.+?) — )?([^:]+): (.*)\]$", re.S)
"""A guarantee chip as AppTest sees it (dpui.common.charts.badge_text; as in tests/test_app_guarantees.py)."""
UNTAGGED_CHARTS = ("_risk_curve_chart", "bayes_mia_bound", "audit_bound_chart", "audit_hist_chart")
"""Chart keys that draw no release and no data: an attacker's trade-off against a guarantee's bound (dpui.common.risk: a coin,
the bound, the measured attack) and the audit's experiment on its constructed pair (whose claim is what it tests)."""
SAYS = {"DP": "green", "DP for part": "orange", "random DP": "orange", "not DP": "red"}
SAYS |= {"no noise": "no noise", "reference": "reference"}
"""A legend tag ("<series> · <tag>") → the level it says (a badge's colour), or the neutral tag of what is no release."""
LEVELS = ("green", "orange", "red")
BADGE_OF = {  # a series → the badge of the same release, where the chart names it otherwise
    "BayesianDP": "BayesianDP local (as in the paper)",
    "BayesianDP as in the paper (local γ)": "BayesianDP local (as in the paper)",
    "BayesianDP release θ": "BayesianDP strict",  # the page's own release (strict mode by default)
    "BayesianDP strict": "BayesianDP strict (DP)",
    "k-anonymity, K = 10": "k-anonymity",
    "TopicDP": "TopicDP (as in the thesis)",
    "MVG": "MVG with sampled s₂",
}
BAYES_SWEEP = {"BayesianDP": "red", "BayesianDP strict (DP)": "green", "Laplace": "green", "Laplace + public": "red"}
TOPIC_MATRIX = {m: "orange" for m in ("TopicDP", "TopicDP corrected", "TopicDP strict", "MVG", "Laplace")}
EXPECTED_TAGS = {  # view → series → the level its tag must say (or "no noise" / "reference"); fails on today's main
    "pages/1_Mechanisms_101.py": {
        "p(y | D), true answer 50": "green",
        "L(y)": "green",
        "±ε (the promise)": "reference",
    },
    "pages/1_Mechanisms_101.py:debt": {"p(y | D), true answer 1e+07": "red", "±ε (the promise)": "reference"},
    "pages/1_Mechanisms_101.py:cities": {"D": "red", "a member lives here": "no noise", "members' mean": "no noise"},
    "pages/1_Mechanisms_101.py:sample": {"D": "red", "e^ε": "reference"},
    "pages/1_Mechanisms_101.py:laplace": {"D": "green", "e^ε": "reference"},
    "pages/2_Bayesian_ngram_DP.py": {
        "BayesianDP release θ": "green",
        "private (true)": "no noise",
        "public prior": "green",
    },
    "pages/2_Bayesian_ngram_DP.py:kl": {**BAYES_SWEEP, "Public baseline": "green", "k-anonymity, K = 10": "red"},
    "pages/2_Bayesian_ngram_DP.py:kanon": {
        "k-anonymity": "red",
        "BayesianDP strict": "green",
        "BayesianDP as in the paper (local γ)": "red",
    },
    **{f"pages/2_Bayesian_ngram_DP.py:{k}": BAYES_SWEEP for k in ("users", "vocabulary")},
    "pages/2_Bayesian_ngram_DP.py:public": {
        "BayesianDP": "red",
        "BayesianDP strict (DP)": "green",
        "Public baseline": "green",
    },
    "pages/2_Bayesian_ngram_DP.py:mia": {"BayesianDP": "red", "Laplace": "green", "claimed ε (y = ε)": "reference"},
    "pages/3_DP_ngram_extraction.py": {"DPNE": "green", "DPSU-single": "green", "y = η (the target)": "reference"},
    "pages/3_DP_ngram_extraction.py:sweep": {"Δ0 = 5": "green", "Δ0 = 200": "green"},
    "pages/4_TopicDP.py": {**TOPIC_MATRIX, "VIPS-LDA": "green"},
    "pages/4_TopicDP.py:curves": {**TOPIC_MATRIX, "VIPS-LDA": "green", "Public-only fit": "green"},
    "pages/4_TopicDP.py:prompts": TOPIC_MATRIX,
    "pages/4_TopicDP.py:vips": {"TopicDP": "orange", "VIPS-LDA": "green"},
}


def legend_series(chart) -> list[str]:
    """What a chart's legend (or a faceted chart's panel titles) names: a Plotly figure's legend-visible traces (bands
    belong to their line), a Vega-Lite chart's facet values or else its colour field's values."""
    spec = json.loads(chart.proto.spec)
    if chart.type == "vega_lite_chart":
        import pyarrow as pa

        frame = pa.ipc.open_stream(chart.proto.data.data).read_pandas()
        if "facet" in spec:
            return list(dict.fromkeys(frame[spec["facet"]["field"]]))
        colours = [v["encoding"].get("color", {}) for v in vega_views(spec)]  # a legend of series (Bayesian bars)
        fields = list(dict.fromkeys(c["field"] for c in colours if "field" in c))
        return [s for f in fields for s in dict.fromkeys(frame[f])]
    return [
        t["name"]
        for t in spec["data"]
        if t.get("name")
        and t.get("showlegend") is not False
        and t.get("fill") != "toself"
        and t.get("hoverinfo") != "skip"
    ]


def test_every_series_names_its_guarantee(view):
    """Issue 31 item 3: on every chart that draws a release, every series says what it is — the release's guarantee
    ("Laplace + public · not DP", "BayesianDP strict (DP) · DP") or "no noise" / "reference" — and the level it says
    is the one the page's badge for that release shows (never green beside a red badge)."""
    name, at = view
    badges = {}
    for m in at.markdown:
        hit = BADGE.match(m.value.strip())
        if hit:
            badges.setdefault(hit.group(3) or "", set()).add(hit.group(1))
    seen: dict[str, str] = {}
    for chart in charts_in_order(at):
        if chart.proto.id.endswith(UNTAGGED_CHARTS):
            continue
        for series in legend_series(chart):
            base, _, tag = series.rpartition(" · ")
            assert tag in SAYS, f"{name}, {chart_title(chart)!r}: {series!r} does not name its guarantee"
            said = SAYS[tag]
            seen.setdefault(base, said)
            badge = badges.get(BADGE_OF.get(base, base))
            if badge is not None and said in LEVELS:
                assert badge == {said}, f"{name}: {series!r} says {said} but its badge is {badge}"
            if said in LEVELS and badges:  # no chart claims a level no badge on the page shows
                assert said in set().union(*badges.values()), f"{name}: {series!r} ({said}); badges {badges}"
    for series, level in EXPECTED_TAGS.get(name, {}).items():
        assert seen.get(series) == level, f"{name}: {series!r} should say {level}, the legend has {seen.get(series)}"


def _axes(spec: dict) -> dict:
    """Axis layout name → (axis spec, name of the axis it shares a scale with)."""
    layout = spec["layout"]
    out = {}
    for name, axis in layout.items():
        if re.fullmatch(r"[xy]axis\d*", name):
            match = axis.get("matches")
            out[name] = (axis, f"{name[0]}axis{match[1:]}" if match else name)
    return out


def _plotted(spec: dict) -> dict:
    """Axis layout name → every number plotted against it (bands included)."""
    values: dict = {}
    for trace in spec["data"]:
        for letter in ("x", "y"):
            data = plain_values(trace.get(letter))
            if data is None:
                continue
            ref = trace.get(f"{letter}axis") or letter
            values.setdefault(f"{letter}axis{ref[1:]}", []).extend(
                float(v)
                for v in np.asarray(data, dtype=object).ravel()
                if isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
            )
    return values


def test_panels_that_share_an_axis_share_its_scale(view):
    """Issue 24 item 1: the "Same y-scale" k-anonymity figure's right panel matched the left's log axis but was
    linear (plotly ignores ``matches`` between axes of different types): every matched axis has its type."""
    name, at = view
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        axes = _axes(spec)
        for axis_name, (axis, root) in axes.items():
            if root != axis_name:
                assert axis.get("type", "-") == axes[root][0].get("type", "-"), (
                    f"{name}, {spec['layout'].get('title', {}).get('text')!r}: {axis_name} shares {root}'s scale "
                    f"but is {axis.get('type', 'auto')}, not {axes[root][0].get('type', 'auto')}"
                )


def _is_step(v: float, mantissas) -> bool:
    k = np.floor(np.log10(v) + 1e-9)
    return any(np.isclose(v, m * 10**k, rtol=1e-9) for m in mantissas)


def test_log_axes_label_decades_only(view):
    """Issue 24 item 7: a log axis whose data cross two or more powers of ten is labelled at the powers of ten
    only (plotly's default labels every minor step, "2 3 4 5 … 100 2 …"); within a decade, at 1-2-5 steps."""
    name, at = view
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        axes, values = _axes(spec), _plotted(spec)
        title = spec["layout"].get("title", {}).get("text")
        for axis_name, (axis, root) in axes.items():
            if axis.get("type") != "log":
                continue
            group = [n for n, (_, r) in axes.items() if r == root]
            data = np.array([v for n in group for v in values.get(n, [])], dtype=float)
            data = data[np.isfinite(data) & (data > 0)]
            if data.size == 0:
                continue
            ticks = [float(t) for t in plain_values(axis.get("tickvals")) or []]
            decades = [10.0**k for k in range(-30, 30) if data.min() * (1 - 1e-9) <= 10.0**k <= data.max() * (1 + 1e-9)]
            if len(decades) >= 2:
                assert ticks and all(_is_step(t, (1,)) for t in ticks), (
                    f"{name}, {title!r}: {axis_name} spans {data.min():.3g}…{data.max():.3g} but is labelled {ticks or 'by plotly'}"
                )
                assert set(decades) <= {float(f"{t:.12g}") for t in ticks}
            elif ticks:
                assert all(_is_step(t, (1, 2, 5)) for t in ticks), f"{name}, {title!r}: {axis_name} ticks {ticks}"
            assert len(axis.get("ticktext") or []) == len(ticks)


def test_log_tick_labels_read_on_a_projector():
    from dpui.common.charts import log_ticks, tick_label

    assert log_ticks(1e-4, 3) == [10.0**k for k in range(-5, 3)]
    assert [tick_label(t) for t in log_ticks(1e-4, 3)] == ["10⁻⁵", "10⁻⁴", "0.001", "0.01", "0.1", "1", "10", "100"]
    assert [tick_label(t) for t in log_ticks(3e4, 2e6)] == ["1,000", "10,000", "100,000", "10⁶", "10⁷", "10⁸"]
    assert [t for t in log_ticks(0.5, 3) if 0.5 <= t <= 3] == [0.5, 1, 2]  # within a decade: 1-2-5
    assert tick_label(2e-5) == "2·10⁻⁵"
    assert log_ticks(0.0123, 0.0125) == []  # not two ticks on the data even at 1-2-5 steps: plotly's own


PSEUDO_LATEX = re.compile(r"_\{|\^\{|(?<![A-Za-z])[A-Za-zΔδεγμρσθ]_[A-Za-z0-9](?![A-Za-z0-9])")
"""Sub- and superscripts typed as LaTeX (|S_{k−1}|, σ_k, V_k): a table shows them as typed."""


def test_tables_show_no_pseudo_latex(view):
    """Issue 24 item 7: tables (the DPNE step table, the Numbers tables, their column names) and metric labels
    write subscripts in Unicode (|Sₖ₋₁|, σₖ), never raw pseudo-LaTeX."""
    name, at = view
    found = set()
    for frame in [*at.dataframe, *at.table]:
        found |= {str(c) for c in frame.value.columns if PSEUDO_LATEX.search(str(c))}
        found |= {str(v) for v in frame.value.to_numpy().ravel() if isinstance(v, str) and PSEUDO_LATEX.search(v)}
    found |= {m.label for m in at.metric if PSEUDO_LATEX.search(m.label)}
    assert not found, f"{name}: {sorted(found)}"


def test_figure_records_reads_traces_bands_and_axis_titles():
    import plotly.graph_objects as go

    from dpui.common.charts import band_figure

    fig = band_figure(
        [1, 2],
        {"Laplace": ([0.5, 0.25], [0.4, 0.2], [0.6, 0.3])},
        title="t",
        x_title="ε (privacy loss, log)",
        y_title="KL (lower is better)",
    )
    fig.add_trace(go.Bar(x=["a"], y=[3], name="bars"))
    rows = figure_records(fig)
    assert rows[:2] == [
        {"series": "Laplace", "ε": 1.0, "KL": 0.5, "lower": 0.4, "upper": 0.6},
        {"series": "Laplace", "ε": 2.0, "KL": 0.25, "lower": 0.2, "upper": 0.3},
    ]
    assert rows[2] == {"series": "bars", "ε": "a", "KL": 3}
    assert len(rows) == 3  # the band's outline is not a row of its own
    arrays = go.Figure(go.Scatter(x=np.array([1.0, 2.0]), y=np.array([3.0, 4.0]), name="numpy"))
    arrays.update_layout(xaxis_title="a", yaxis_title="b")
    assert figure_records(arrays) == [{"series": "numpy", "a": 1.0, "b": 3.0}, {"series": "numpy", "a": 2.0, "b": 4.0}]
