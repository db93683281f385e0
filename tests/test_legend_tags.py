"""Issue 31 item 3: every series on a chart names its guarantee — the tag function and the legend tagging.

The AppTest over every page and tab is tests/test_app_charts.py::test_every_series_names_its_guarantee.
"""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from dpcore.bayesian import LAPLACE_PUBLIC, PUBLIC_BASELINE_GUARANTEE, laplace_guarantee
from dpcore.bayesian.release import bayesian_guarantee
from dpcore.dpne import dpne_guarantee
from dpcore.guarantees import (
    approximate_dp,
    k_anonymity,
    local_sensitivity,
    no_private_data,
    no_protection,
    pure_dp,
    random_dp,
)
from dpui.common.charts import (
    NEUTRAL_TAGS,
    NO_NOISE,
    REFERENCE_TAG,
    TAG_LEVELS,
    band_figure,
    figure_records,
    legend_tag,
    split_tag,
    tag_legend,
    tag_vega_series,
    tagged,
)

EVERY_KIND = {  # one guarantee of every kind and level, with the tag it must carry
    "pure": (pure_dp(epsilon=1.0), "DP"),
    "approximate": (approximate_dp(epsilon=1.0, delta=1e-5), "DP"),
    "public data only (0-DP)": (no_private_data(), "DP"),
    "pure, given a non-private choice": (
        pure_dp(epsilon=1.0, conditional_on="a non-private choice of keywords"),
        "DP for part",
    ),
    "approximate, given": (approximate_dp(epsilon=1.0, delta=1e-5, conditional_on="the topics"), "DP for part"),
    "random": (random_dp(epsilon=1.0, delta=1e-5, gamma=0.1), "random DP"),
    "local sensitivity": (local_sensitivity(epsilon=1.0, delta=1e-5), "not DP"),
    "k-anonymity": (k_anonymity(10), "not DP"),
    "none": (no_protection(), "not DP"),
}


@pytest.mark.parametrize("case", list(EVERY_KIND))
def test_the_tag_says_the_strength_of_every_kind(case):
    g, tag = EVERY_KIND[case]
    assert g.tag == tag == legend_tag(g)
    assert TAG_LEVELS[g.tag] == g.colour  # the tag never says more (or less) than the badge's colour
    assert not any(ch.isdigit() for ch in g.tag)  # no parameters: a curve over ε keeps one tag


def test_the_tag_comes_from_the_release_not_from_the_name():
    """The same name means different guarantees: Laplace with a per-user cap is ε-DP, Laplace + public measures
    its sensitivity (not DP), BayesianDP is DP in strict mode and not DP in the paper's local mode."""
    assert laplace_guarantee("Laplace", epsilon=1.0, W=2).tag == "DP"
    assert laplace_guarantee(LAPLACE_PUBLIC, epsilon=1.0, W=2).tag == "not DP"
    strict = bayesian_guarantee(epsilon=1.0, delta=1e-5, sensitivity_method="strict", max_items=5, max_users=100)
    assert strict.tag == "DP"
    assert bayesian_guarantee(epsilon=1.0, delta=1e-5, sensitivity_method="brute-force").tag == "not DP"
    assert dpne_guarantee(epsilon=1.0, delta=1e-5).tag == "DP"
    assert PUBLIC_BASELINE_GUARANTEE.tag == "DP"
    on_a_matrix = pure_dp(epsilon=1.0, conditional_on="a non-private choice of topics and keywords")
    assert tagged("Laplace", on_a_matrix) == "Laplace · DP for part"


def test_neutral_tags_only_for_what_is_not_a_release():
    assert legend_tag(NO_NOISE) == "no noise" and legend_tag(REFERENCE_TAG) == "reference"
    assert set(NEUTRAL_TAGS).isdisjoint(TAG_LEVELS)
    with pytest.raises(ValueError, match="must be a Guarantee or one of"):
        legend_tag("DP")  # a page never types a guarantee's tag
    with pytest.raises(TypeError, match="never a text label"):
        legend_tag(object())


def test_split_tag_reads_a_legend_name_back():
    assert split_tag("Laplace + public · not DP") == ("Laplace + public", "not DP")
    assert split_tag("claimed ε (y = ε) · reference") == ("claimed ε (y = ε)", "reference")
    assert split_tag("Laplace") == ("Laplace", None)
    assert split_tag("a · b") == ("a · b", None)  # only the known tags


def _figure():
    fig = band_figure(
        [1, 2],
        {"BayesianDP": ([0.5, 0.25], [0.4, 0.2], [0.6, 0.3]), "Laplace": ([1, 2], None, None)},
        title="t",
        x_title="ε",
        y_title="KL",
    )
    fig.add_trace(go.Scatter(x=[1, 2], y=[1, 2], name="y = ε"))
    fig.add_trace(go.Scatter(x=[1, 2], y=[3, 4], name="hidden twin", showlegend=False))
    return fig


def test_tag_legend_tags_every_legend_series_and_leaves_bands():
    fig = _figure()
    local = bayesian_guarantee(epsilon=1.0, delta=1e-5, sensitivity_method="brute-force")
    tag_legend(fig, {"BayesianDP": local, "Laplace": pure_dp(epsilon=1.0), "y = ε": REFERENCE_TAG})
    names = [t.name for t in fig.data]
    assert names == ["BayesianDP band", "BayesianDP · not DP", "Laplace · DP", "y = ε · reference", "hidden twin"]
    tag_legend(
        fig, {"BayesianDP": local, "Laplace": pure_dp(epsilon=1.0), "y = ε": REFERENCE_TAG}
    )  # a cached figure, again
    assert [t.name for t in fig.data] == names  # tagged once
    assert {r["series"] for r in figure_records(fig)} >= {"BayesianDP · not DP", "Laplace · DP"}


def test_a_series_without_a_guarantee_is_an_error_not_an_untagged_line():
    with pytest.raises(ValueError, match="series 'y = ε' names no guarantee"):
        tag_legend(_figure(), {"BayesianDP": pure_dp(epsilon=1.0), "Laplace": pure_dp(epsilon=1.0)})


def test_one_guarantee_tags_every_series():
    fig = tag_legend(_figure(), dpne_guarantee(epsilon=1.0, delta=1e-5))
    assert [split_tag(t.name)[1] for t in fig.data if "band" not in t.name] == ["DP"] * 4


def test_the_page_test_reads_the_same_vocabulary():
    """tests/test_app_charts.py reads legends with its own table (so it fails on a page without tags, not on an
    import); it must say what dpui.common.charts says."""
    from test_app_charts import SAYS

    assert {tag: level for tag, level in SAYS.items() if tag in TAG_LEVELS} == TAG_LEVELS
    assert {tag for tag in SAYS if tag not in TAG_LEVELS} == set(NEUTRAL_TAGS)


def test_a_vega_lite_chart_tags_its_rows_and_every_list_of_series_names():
    """The Bayesian release's bars are one Vega-Lite chart: its rows, colour domain and sort order carry the tags."""
    local = bayesian_guarantee(epsilon=1.0, delta=1e-5, sensitivity_method="brute-force")
    rows = [{"series": s, "p": 0.1} for s in ("private (true)", "BayesianDP release θ")]
    names = ["private (true)", "BayesianDP release θ"]
    spec = {"encoding": {"color": {"field": "series", "scale": {"domain": names}}, "xOffset": {"sort": names}}}
    plotted, tagged_spec = tag_vega_series(rows, spec, {"private (true)": NO_NOISE, "BayesianDP release θ": local})
    want = ["private (true) · no noise", "BayesianDP release θ · not DP"]
    assert [r["series"] for r in plotted] == want
    assert tagged_spec["encoding"]["color"]["scale"]["domain"] == want == tagged_spec["encoding"]["xOffset"]["sort"]
    assert rows[0]["series"] == "private (true)" and spec["encoding"]["xOffset"]["sort"] == names  # inputs untouched
    with pytest.raises(ValueError, match="series 'BayesianDP release θ' names no guarantee"):
        tag_vega_series(rows, spec, {"private (true)": NO_NOISE})
