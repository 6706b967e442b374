"""Lesson 2 (the circle lifted to 3-D): the page under AppTest against kernel_core computed directly,
and the 3-D figure builders of figures/lift.py without Streamlit."""

import dataclasses
import json

import numpy as np
import pytest

import datasets
from figures.lift import lift_box, lift_figure, plane_polygon
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.svm import PrimalSVM
from lessons.circle.compute import fit_lift
from lab.state import C_VALUES
from pageutil import decode, figures, metrics, move, open_page, page_data

PAGE = "lessons/circle/page.py"
FIT_INTERCEPT = {"circle": False, "paraboloid": True}


def core_fit(X, y, lift, C):
    phi = FEATURE_MAPS[lift].phi(X)
    return phi, PrimalSVM(C=C, fit_intercept=FIT_INTERCEPT[lift]).fit(phi, y)


def lesson_data(at):
    """The data the page lifted: the notes' rule drawn with the sidebar's n, noise and seed, or the sidebar's
    dataset."""
    if at.get_by_key("cl_data").value == "notes":
        s = at.session_state
        return datasets.DATASETS["circle_rule"](s["n"], noise=s["noise"], random_state=s["seed"])
    return page_data(at)


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_default_page_draws_the_lift_and_the_plane_without_error(default_page):
    at = default_page
    assert not at.error, [e.value for e in at.error]
    lift3d, back = (json.loads(s) for s in figures(at))
    names = {t.get("name") for t in lift3d["data"]}
    assert {"notes' plane", "max-margin plane", "y = −1", "y = +1"} <= names
    assert "notes: x₁² + x₂² = 1" in {t.get("name") for t in back["data"]}


def test_printed_numbers_are_the_primal_svm_on_the_lifted_data(default_page):
    at = default_page
    X, y = lesson_data(at)
    C = float(at.session_state["cl_C"])
    phi, model = core_fit(X, y, "circle", C)
    f = model.decision_function(phi)
    shown = metrics(at)
    assert shown["training errors, max-margin plane"] == f"{np.count_nonzero(y * f <= 0)} / {y.size}"
    assert shown["training errors, notes' plane"] == f"{np.count_nonzero(y * (phi @ [-1, 1, 1]) <= 0)} / {y.size}"
    assert shown["margin 1/‖w‖ (lifted space)"] == f"{1 / np.linalg.norm(model.coef_):.4f}"
    assert shown["Σξᵢ (total slack)"] == f"{model.slack_.sum():.4f}"
    numbers = " ".join(m.value for m in at.markdown)
    assert f"w = ({', '.join(f'{v:.6f}' for v in model.coef_)}), b = 0.000000" in numbers
    assert f"½‖w‖² + CΣξᵢ = {model.primal_objective_:.6f}" in numbers


def test_notes_circle_rule_data_is_separated_by_both_planes_with_hard_margin():
    at = open_page(PAGE, sidebar={"dataset": "circle_rule"})
    move(at, "cl_hard", True)
    assert not at.exception and not at.error
    shown = metrics(at)
    n = at.session_state["n"]
    assert shown["training errors, notes' plane"] == f"0 / {n}"
    assert shown["training errors, max-margin plane"] == f"0 / {n}"
    assert shown["Σξᵢ (total slack)"] == "0.0000"
    X, y = lesson_data(at)
    phi, model = core_fit(X, y, "circle", np.inf)
    # no plane through the origin has a wider margin than the max-margin one, the notes' plane included
    w_notes = np.array([-1.0, 1.0, 1.0])
    notes_margin = np.min(y * (phi @ w_notes)) / np.linalg.norm(w_notes)
    assert 1 / np.linalg.norm(model.coef_) >= notes_margin * (1 - 1e-9)
    assert metrics(at)["margin 1/‖w‖ (lifted space)"] == f"{1 / np.linalg.norm(model.coef_):.4f}"
    assert "ellipse" in " ".join(e.value for e in at.latex)


def test_paraboloid_lift_fits_an_intercept_and_maps_back_to_a_circle(default_page):
    at = default_page
    at.get_by_key("cl_lift").set_value("paraboloid").run()
    assert not at.exception and not at.error
    X, y = lesson_data(at)
    _, model = core_fit(X, y, "paraboloid", float(at.session_state["cl_C"]))
    assert model.intercept_ != 0.0
    numbers = " ".join(m.value for m in at.markdown)
    assert f"b = {model.intercept_:.6f}" in numbers
    assert metrics(at)["margin 1/‖w‖ (lifted space)"] == f"{1 / np.linalg.norm(model.coef_):.4f}"
    assert "(a circle)" in " ".join(e.value for e in at.latex)
    at.get_by_key("cl_lift").set_value("circle").run()


@pytest.mark.parametrize("end", [0, -1])
def test_C_slider_at_each_extreme_redraws_the_max_margin_plane(end):
    at = open_page(PAGE)
    before = figures(at)
    move(at, "cl_C", C_VALUES[end])
    assert not at.exception and not at.error
    assert figures(at)[0] != before[0]


def test_hard_margin_on_data_no_plane_separates_shows_an_error_not_a_traceback():
    at = open_page(PAGE, sidebar={"dataset": "xor"}, widgets={"cl_data": "sidebar"})
    move(at, "cl_hard", True)
    assert not at.exception
    assert at.error and "finite C" in at.error[0].value


def test_unrelated_control_leaves_the_3d_figure_byte_identical(default_page):
    at = default_page
    before = figures(at)[0]
    at.sidebar.get_by_key("new_class").set_value(-1).run()
    at.sidebar.get_by_key("new_x1").set_value(0.5).run()
    assert figures(at)[0] == before
    at.get_by_key("cl_lift").set_value("paraboloid").run()
    layouts = [json.loads(before)["layout"], json.loads(figures(at)[0])["layout"]]
    assert layouts[0]["uirevision"] == layouts[1]["uirevision"]
    at.get_by_key("cl_lift").set_value("circle").run()


def test_fit_lift_is_a_frozen_result_holding_the_primal_svms_plane_and_slack():
    X, y = datasets.circle_rule(60, random_state=1)
    fit = fit_lift(X, y, "paraboloid", 10.0)
    _, model = core_fit(X, y, "paraboloid", 10.0)
    np.testing.assert_allclose(fit.w, model.coef_, rtol=1e-12)
    np.testing.assert_allclose(fit.xi, model.slack_, rtol=1e-12, atol=1e-15)
    assert fit.b == float(model.intercept_) and fit.margin == 1 / np.linalg.norm(model.coef_)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.b = 0.0


# ---------------------------------------------------------------- figures/lift.py without Streamlit

BOX = [(0.0, 4.0), (0.0, 4.0), (0.0, 1.0)]


@pytest.mark.parametrize("w, b", [((1.0, 1.0, -1.0), 0.0), ((0.0, 0.0, 1.0), -0.5), ((0.3, -2.0, 0.7), 1.1),
                                  ((1.0, 0.0, 0.0), -2.0)])
def test_plane_polygon_corners_lie_on_the_plane_and_in_the_box(w, b):
    poly = plane_polygon(w, b, BOX)
    assert 3 <= len(poly) <= 6
    np.testing.assert_allclose(poly @ np.array(w) + b, 0.0, atol=1e-12)
    lo, hi = np.array(BOX).T
    assert np.all(poly >= lo - 1e-12) and np.all(poly <= hi + 1e-12)
    # consecutive corners go around the polygon: every edge keeps the others on one side
    n = np.asarray(w) / np.linalg.norm(w)
    edges = np.roll(poly, -1, axis=0) - poly
    turns = np.cross(edges, np.roll(edges, -1, axis=0)) @ n
    assert np.all(turns > 0) or np.all(turns < 0)


def test_notes_plane_cuts_the_sheet_phi0_equal_1_along_the_unit_circle_line():
    # in (x₁², x₂², 1) the notes' plane −φ₀ + φ₁ + φ₂ = 0 meets the top face φ₀ = 1 where x₁² + x₂² = 1
    poly = plane_polygon((1.0, 1.0, -1.0), 0.0, BOX)
    top = poly[np.isclose(poly[:, 2], 1.0)]
    np.testing.assert_allclose(sorted(map(tuple, top)), [(0.0, 1.0, 1.0), (1.0, 0.0, 1.0)], atol=1e-12)


def test_plane_outside_the_box_draws_nothing():
    assert plane_polygon((0.0, 0.0, 1.0), -5.0, BOX).shape == (0, 3)
    fig = lift_figure(np.array([[0.5, 0.5, 1.0], [3.0, 3.0, 1.0]]), np.array([-1.0, 1.0]),
                      axis_titles=("a", "b", "c"), planes=[((0.0, 0.0, 1.0), -5.0, "far", "#000")], box=BOX)
    assert "far" not in {t.name for t in fig.data}


def test_lift_figure_is_rebuilt_byte_identical_and_small():
    X, y = datasets.circle_rule(200, random_state=3)
    Z = FEATURE_MAPS["paraboloid"].phi(X)
    args = dict(axis_titles=("x₁", "x₂", "x₁² + x₂²"), planes=[((0.0, 0.0, 1.0), -1.0, "notes", "#1b7837")])
    first, second = lift_figure(Z, y, **args).to_json(), lift_figure(Z, y, **args).to_json()
    assert first == second
    assert len(first) < 150_000


def test_lift_box_pads_each_axis_and_gives_a_flat_axis_a_unit_span():
    Z = np.array([[1.0, 2.0, 1.0], [2.0, 4.0, 1.0]])
    box = lift_box(Z, pad=0.1)
    np.testing.assert_allclose(box, [(0.9, 2.1), (1.8, 4.2), (0.9, 1.1)], atol=1e-12)


def test_the_page_opens_on_the_notes_example_where_the_notes_plane_separates():
    at = open_page(PAGE)
    X, y = lesson_data(at)
    errors = int(np.count_nonzero(y * (X[:, 0] ** 2 + X[:, 1] ** 2 - 1) <= 0))
    assert metrics(at)["training errors, notes' plane"] == f"{errors} / {y.size}"
    assert errors <= 0.05 * y.size      # the sidebar's default circles gave 23 / 100


def test_each_plane_is_drawn_where_it_cuts_the_sheet_of_lifted_points():
    lift3d = json.loads(figures(open_page(PAGE))[0])
    lines = [t for t in lift3d["data"] if t["type"] == "scatter3d" and t["name"].endswith("on the sheet")]
    assert {t["name"] for t in lines} == {"notes' plane, on the sheet", "max-margin plane, on the sheet"}
    notes = next(t for t in lines if t["name"].startswith("notes' plane"))
    u, v, s = (decode(notes[k]).astype(float) for k in "xyz")
    np.testing.assert_allclose(s, 1.0)
    np.testing.assert_allclose(-1 + u + v, 0.0, atol=1e-6)    # w = (−1, 1, 1): x₁² + x₂² = 1 on the sheet


def test_lifted_classes_that_coincide_give_w_zero_and_no_margin_instead_of_an_error():
    """Two blobs mirrored through the origin (blobs, noise 0, seed 36) lift by (1, x₁², x₂²) onto the same points:
    then no plane tells the classes apart, the best is w = 0 (every point with ξ = 1), and 1/‖w‖ does not exist."""
    at = open_page(PAGE, sidebar={"dataset": "blobs", "n": 500, "noise": 0.0, "seed": 36},
                   widgets={"cl_data": "sidebar", "cl_C": 1.0})
    assert not at.exception
    X, y = page_data(at)
    lifted = FEATURE_MAPS["circle"].phi(X)
    # the classes' lifted points are the same set: the reason w = 0 is optimal
    np.testing.assert_allclose(np.sort(lifted[y < 0], axis=0), np.sort(lifted[y > 0], axis=0), atol=1e-12)
    assert metrics(at)["margin 1/‖w‖ (lifted space)"] == "none: w = 0"
