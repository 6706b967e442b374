"""The chart element's Python side without a browser: what a message carries, and how the browser's events
are read (the browser is not trusted: anything malformed is dropped)."""

import json
import math

import numpy as np
import pytest

from figures import chart_name, describe
from figures.boundary import OWN_POINTS, decision_figure
from lab import live_chart
from lab.live_chart import ChartEvent, parse_event

X = np.array([[0.5, 0.5], [-0.5, -0.5]])
y = np.array([-1.0, 1.0])
XS = YS = np.linspace(-1.0, 1.0, 20)


def test_a_message_is_an_options_line_then_the_figure_with_base64_arrays():
    fig = decision_figure(XS, YS, np.add.outer(YS, XS), X, y)
    options, figure_text = live_chart.message(live_chart.figure_json(fig), mode="boundary", own=OWN_POINTS) \
        .decode().split("\n", 1)
    assert json.loads(options) == {"mode": "boundary", "own": OWN_POINTS, "name": chart_name(fig.to_dict()),
                                   "label": describe(fig.to_dict())}
    spec = json.loads(figure_text)
    heatmap = spec["data"][0]
    assert heatmap["z"]["dtype"] == "f4" and "bdata" in heatmap["z"]   # not a list of numbers
    assert "[" not in figure_text.split('"z":', 1)[1][:20]


def test_thefigure_json_is_made_once_per_figure():
    fig = decision_figure(XS, YS, np.add.outer(YS, XS), X, y)
    assert live_chart.figure_json(fig) is live_chart.figure_json(fig)


def test_plotly_js_and_the_script_are_published_under_names_that_change_with_their_content():
    assert live_chart.PLOTLY_JS.startswith("app/static/plotly-") and live_chart.PLOTLY_JS.endswith(".min.js")
    assert (live_chart.STATIC / live_chart.PLOTLY_JS.rsplit("/", 1)[1]).stat().st_size > 1_000_000
    script = live_chart.STATIC / live_chart.SCRIPT_JS.rsplit("/", 1)[1]
    assert script.read_bytes() == (live_chart.WEB / "live_chart.js").read_bytes()
    # the loader sent with every message is small: the script and plotly.js are fetched by URL
    assert len(live_chart.LOADER) < 600


def test_a_click_adds_a_point_of_the_chosen_class_rounded_as_the_link_keeps_it():
    event = parse_event({"op": "add", "x": 0.123456, "y": -1.98765, "shift": False}, n_own=0, new_class=1)
    assert event == ChartEvent("add", 0.12, -1.99, label=1)
    assert parse_event({"op": "add", "x": -0.001, "y": 2, "shift": False}, n_own=0, new_class=-1) \
        == ChartEvent("add", 0.0, 2.0, label=-1)
    assert math.copysign(1, parse_event({"op": "add", "x": -0.001, "y": 0}, n_own=0, new_class=1).x) == 1


def test_a_shift_click_adds_the_other_class():
    assert parse_event({"op": "add", "x": 1, "y": 1, "shift": True}, n_own=0, new_class=1).label == -1
    assert parse_event({"op": "add", "x": 1, "y": 1, "shift": True}, n_own=0, new_class=-1).label == 1


def test_move_and_remove_name_one_of_the_students_points():
    assert parse_event({"op": "move", "i": 2, "x": 0.5, "y": 0.25}, n_own=3, new_class=1) \
        == ChartEvent("move", 0.5, 0.25, index=2)
    assert parse_event({"op": "remove", "i": 0}, n_own=1, new_class=1) == ChartEvent("remove", index=0)


@pytest.mark.parametrize("raw", [
    None, "add", [], {}, {"op": "drop"}, {"op": "add", "x": "1", "y": 0}, {"op": "add", "x": float("nan"), "y": 0},
    {"op": "add", "x": float("inf"), "y": 0}, {"op": "add", "x": True, "y": 0}, {"op": "add", "x": 1},
    {"op": "move", "i": 3, "x": 0, "y": 0}, {"op": "move", "i": -1, "x": 0, "y": 0},
    {"op": "move", "i": 1.0, "x": 0, "y": 0}, {"op": "remove", "i": "0"}, {"op": "remove", "i": True},
    {"op": "remove"},
])
def test_anything_else_from_the_browser_is_dropped(raw):
    assert parse_event(raw, n_own=3, new_class=1) is None


def test_a_click_adds_the_sidebar_class_and_a_shift_click_the_other_of_plus_minus_one():
    from lab.live_chart import OTHER_CLASS, parse_event

    for new_class in (1, -1, 2):
        click = parse_event({"op": "add", "x": 0.5, "y": 1.0}, n_own=0, new_class=new_class)
        shift = parse_event({"op": "add", "x": 0.5, "y": 1.0, "shift": True}, n_own=0, new_class=new_class)
        assert click.label == new_class and shift.label == OTHER_CLASS[new_class]
    assert OTHER_CLASS == {1: -1, -1: 1, 2: 1}


def test_a_cell_click_rounds_to_the_cell_and_junk_is_dropped():
    from lab.live_chart import parse_cell

    assert parse_cell({"op": "cell", "x": 3.4, "y": 0.6}, shape=(17, 21)) == (1, 3)
    assert parse_cell({"op": "cell", "x": 20.49, "y": 16.4}, shape=(17, 21)) == (16, 20)
    for junk in ({"op": "cell", "x": -0.6, "y": 1}, {"op": "cell", "x": 21, "y": 1}, {"op": "cell", "x": float("nan"),
                 "y": 1}, {"op": "cell", "x": True, "y": 1}, {"op": "cell", "x": "1", "y": 1}, {"op": "add", "x": 1,
                 "y": 1}, None, [1, 2]):
        assert parse_cell(junk, shape=(17, 21)) is None
