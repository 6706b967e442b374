"""The decision figure: a colour field, the lines f = 0 and f = ±1 traced through the model's grid values,
the points, and a payload that stays under budget however wiggly f is."""

import json

import numpy as np

import figures
from figures.boundary import BOUNDARY, CLICK_LAYER, MARGINS, MAX_LINE_POINTS, decision_figure
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


def test_the_figure_uses_the_lab_template_and_keeps_its_click_layer_on_top():
    spec = sent(decision_figure(XS, YS, np.add.outer(YS, XS), X, y))
    assert spec["layout"]["template"] == json.loads(figures.TEMPLATE.to_json())
    assert spec["data"][-1]["name"] == CLICK_LAYER
    assert not any(t["type"] == "contour" for t in spec["data"])
