"""The decision figure: a colour field, the lines f = 0 and f = ±1 traced through the model's grid values,
the points, and a payload that stays under budget however wiggly f is."""

import json

import numpy as np
import plotly.io as pio
import pytest

import figures
from figures.boundary import (BOUNDARY, CLASS_COLORS, FRAMES_BYTES, LINE_TRACES, MARGINS, MAX_LINE_POINTS, OWN_POINTS,
                              boundary_frames, decision_figure, first_overlay)
from pageutil import decode

X = np.array([[0.5, 0.5], [-0.5, -0.5], [1.5, 0.0], [0.0, -1.5]])
y = np.array([-1.0, -1.0, 1.0, 1.0])
XS = YS = np.linspace(-2.0, 2.0, 100)


def sent(fig):
    """The figure's traces as the browser receives them, typed arrays decoded."""
    spec = json.loads(fig.to_json())
    for trace in spec["data"]:
        for k, v in list(trace.items()):
            if isinstance(v, dict) and "bdata" in v:
                trace[k] = decode(v)
    return spec


def lines(spec, name):
    """All points (NaN breaks dropped) of the traces with this name."""
    pts = [np.column_stack([np.asarray(t["x"], float), np.asarray(t["y"], float)]) for t in spec["data"]
           if t.get("name") == name]
    pts = np.vstack(pts)
    return pts[np.isfinite(pts).all(axis=1)]


def test_boundary_and_margins_follow_the_level_sets_of_the_grid():
    # f = r² − 2: boundary r = √2, margins r = 1 (f = −1) and r = √3 (f = +1)
    Z = XS[None, :] ** 2 + YS[:, None] ** 2 - 2.0
    spec = sent(decision_figure(XS, YS, Z, X, y))
    r0 = np.hypot(*lines(spec, BOUNDARY).T)
    rm = np.hypot(*lines(spec, MARGINS).T)
    cell = XS[1] - XS[0]
    np.testing.assert_allclose(r0, np.sqrt(2), atol=cell ** 2)
    assert np.allclose(rm[rm < 1.2], 1.0, atol=cell ** 2) and np.allclose(rm[rm > 1.2], np.sqrt(3), atol=cell ** 2)
    assert (rm < 1.2).any() and (rm > 1.2).any()
    # one legend entry per kind of line; the field is the grid itself
    assert sum(t.get("name") == MARGINS and t.get("showlegend", True) for t in spec["data"]) == 1
    field = spec["data"][0]
    assert field["type"] == "heatmap" and np.array_equal(np.asarray(field["z"]).reshape(Z.shape), Z.astype(np.float32))


def test_a_wiggly_function_keeps_the_figure_under_its_payload_budget():
    Z = np.random.default_rng(0).normal(size=(100, 100))   # crosses 0 and ±1 in most cells
    fig = decision_figure(XS, YS, Z, X, y)
    assert len(fig.to_json()) <= 150_000
    spec = sent(fig)
    points = sum(np.asarray(t["x"]).size for t in spec["data"] if t.get("name") in (BOUNDARY, MARGINS))
    assert points <= MAX_LINE_POINTS   # the points and NaN breaks of the three lines
    # thinned lines still span the window
    b = lines(spec, BOUNDARY)
    assert b[:, 0].min() <= XS[0] + 0.05 and b[:, 0].max() >= XS[-1] - 0.05


def test_the_figure_uses_the_lab_template_and_has_no_click_layer():
    spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y))
    assert spec["layout"]["template"] == json.loads(figures.TEMPLATE.to_json())
    # clicks are read from the plot area by the chart element: no invisible markers, no point selection
    assert all(t.get("marker", {}).get("color") != "rgba(0,0,0,0)" for t in spec["data"])
    assert "clickmode" not in spec["layout"]
    assert not any(t["type"] == "contour" for t in spec["data"])
    assert OWN_POINTS not in [t.get("name") for t in spec["data"]]


def test_own_points_are_drawn_as_diamonds_with_their_list_index():
    own = [(0.25, -1.0, 1), (1.5, 1.75, -1), (-2.0, 0.5, 1)]
    spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y, own=own))
    (mine,) = [t for t in spec["data"] if t.get("name") == OWN_POINTS]
    assert mine["marker"]["symbol"] == ["diamond-cross", "diamond", "diamond-cross"]
    np.testing.assert_allclose(np.column_stack([mine["x"], mine["y"]]), np.array(own)[:, :2], atol=1e-6)
    assert list(mine["customdata"]) == [0, 1, 2]
    assert mine["marker"]["color"] == [CLASS_COLORS[1], CLASS_COLORS[-1], CLASS_COLORS[1]]
    # generated points keep their class's shape, never a diamond
    assert {t["name"]: t["marker"]["symbol"] for t in spec["data"] if t["name"].startswith("y =")} == {
        "y = −1": "circle", "y = +1": "cross"}


def test_support_vector_rings_and_overlays_are_drawn_above_the_own_points():
    # a ring of 16 px drawn under a 13 px diamond (whose tips reach further than its size) was hidden by it
    own = [(1.5, 0.0, 1)]
    ring = dict(type="scatter", x=[1.5], y=[0.0], mode="markers", name="an overlay ring")
    spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y, own=own, free_sv=np.array([2]),
                                bounded_sv=np.array([0]), overlays=[ring]))
    names = [t.get("name") for t in spec["data"]]
    assert names.index(OWN_POINTS) < names.index("free SV (0 < α < C)") < names.index("an overlay ring")
    assert names.index(OWN_POINTS) < names.index("bounded SV (α = C)")
    assert first_overlay(np.array([2]), np.array([0]), own) == names.index("an overlay ring")
    # a group given empty still has its trace, so the overlays start after it
    spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y, own=(), bounded_sv=np.array([], dtype=int),
                                overlays=[ring]))
    names = [t.get("name") for t in spec["data"]]
    assert first_overlay(None, np.array([], dtype=int), ()) == names.index("an overlay ring")
    assert names.index("an overlay ring") == 1 + len(LINE_TRACES) + 4
    assert first_overlay(None, None, None) == 1 + len(LINE_TRACES) + 2


def test_the_legend_keeps_its_entries_as_points_are_added_and_support_vectors_come_and_go():
    # a new legend entry can add a row above the plot and move the plot under the pointer that just clicked it
    def legend(own, free_sv, bounded_sv):
        spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y, own=own, free_sv=free_sv,
                                    bounded_sv=bounded_sv))
        return spec, [t.get("name") for t in spec["data"] if t.get("showlegend", True)]

    none = np.array([], dtype=int)
    empty, names = legend((), none, none)
    assert names == legend([(1.5, 0.0, 1)], np.array([2]), np.array([0]))[1]
    assert {OWN_POINTS, "free SV (0 < α < C)", "bounded SV (α = C)"} <= set(names)
    # the stand-ins draw nothing and are no points to a screen reader
    for trace in empty["data"]:
        if trace.get("name") in (OWN_POINTS, "free SV (0 < α < C)", "bounded SV (α = C)"):
            assert np.isnan(np.asarray(trace["x"], dtype=float)).all()
            assert "customdata" not in trace
    label = figures.describe(empty)
    assert f"{OWN_POINTS} (0 points)" in label and "bounded SV (α = C) (0 points)" in label
    # not given (None): no trace, no entry
    assert OWN_POINTS not in legend(None, None, None)[1]


def circle(radius):
    """f = r² − radius²: the boundary is the circle of that radius."""
    return XS[None, :] ** 2 + YS[:, None] ** 2 - radius ** 2


def test_frames_replace_only_the_three_lines_and_follow_each_grid():
    radii = np.linspace(0.5, 1.5, 30)
    frames = boundary_frames(XS, YS, [circle(r) for r in radii], [f"t = {k}" for k in range(30)])
    assert [f["name"] for f in frames] == [f"t = {k}" for k in range(30)]
    spec = sent(decision_figure(XS, YS, circle(1.5), X, y))
    # the traces they replace are the figure's lines f = 0, f = −1, f = +1
    assert [spec["data"][i]["name"] for i in LINE_TRACES] == [BOUNDARY, MARGINS, MARGINS]
    assert all(f["traces"] == list(LINE_TRACES) and len(f["data"]) == 3 for f in frames)
    for f, r in zip(frames, radii):
        # f = 0 on r² = radius², f = −1 on r² = radius² − 1 (when there is such a circle), f = +1 on radius² + 1
        for line, r2 in zip(f["data"], (r ** 2, r ** 2 - 1, r ** 2 + 1)):
            pts = np.column_stack([line["x"], line["y"]]).astype(float)
            pts = pts[np.isfinite(pts).all(axis=1)]
            if r2 > 0.05:
                np.testing.assert_allclose(np.hypot(*pts.T), np.sqrt(r2), atol=0.05)


def test_thirty_frames_stay_within_the_payload_budget_of_a_page_figure():
    # a page's grid (GRID_POINTS = 80) and a boundary that wiggles as it trains
    xs = ys = np.linspace(-2.0, 2.0, 80)
    gx, gy = np.meshgrid(xs, ys)
    grids = [np.sin(3 * gx + k / 5) * np.cos(2 * gy) + 0.3 * gx * gy for k in range(30)]
    fig = decision_figure(xs, ys, grids[-1], X, y)
    with_frames = figures.figure(fig.to_dict()["data"], fig.to_dict()["layout"], frames=boundary_frames(xs, ys, grids))
    assert len(with_frames.to_dict()["frames"]) == 30
    # the frames' arrays travel as base64 typed arrays, like the traces', not as lists of numbers
    assert all(isinstance(line[axis], dict) and "bdata" in line[axis]
               for frame in with_frames.to_dict()["frames"] for line in frame["data"] for axis in "xy")
    assert len(pio.to_json(with_frames.to_dict(), validate=False)) <= 150_000


def test_frames_of_a_wiggly_function_share_their_byte_budget():
    grids = [np.random.default_rng(k).normal(size=(100, 100)) for k in range(30)]
    frames = boundary_frames(XS, YS, grids)
    # the coordinates (base64 float32), plus ~60 bytes of JSON per line
    assert len(pio.to_json({"frames": frames}, validate=False)) <= FRAMES_BYTES + 30 * 3 * 60


def test_labels_must_match_the_grids():
    with pytest.raises(ValueError, match="one label per grid"):
        boundary_frames(XS, YS, [circle(1.0)] * 3, ["a", "b"])


def test_a_figure_goes_to_the_browser_without_building_a_plotly_figure_object(monkeypatch):
    # a go.Figure costs ~5 ms even unvalidated, five sixths of making a decision plot, and the app sends only the dict
    from lab.live_chart import figure_json
    built = []
    monkeypatch.setattr(figures.go, "Figure", lambda *args, **kwargs: built.append(1) or pytest.fail("go.Figure"))
    fig = decision_figure(XS, YS, np.add.outer(YS, XS), X, y, own=[(1.5, 0.0, 1)], free_sv=np.array([2]),
                          frames=lambda: boundary_frames(XS, YS, [np.add.outer(YS, XS)] * 2))
    text, alternative = figure_json(fig)
    assert json.loads(text)["data"][0]["type"] == "heatmap" and OWN_POINTS in alternative["label"]
    assert json.loads(figure_json(fig, frames=True)[0])["frames"]
    assert json.loads(fig.to_json()) == json.loads(text) and not built
    # anything else a caller reads is the go.Figure's, made then
    monkeypatch.undo()
    assert fig.data[0].type == "heatmap" and fig.layout.xaxis.title.text == "x₁"
