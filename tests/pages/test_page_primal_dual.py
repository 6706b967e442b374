"""Lesson 3 (SVM primal versus dual): the page under AppTest against kernel_core computed directly, the
Learning-From-Data 4-point preset, and the figures of figures/svm.py without Streamlit."""

import json

import numpy as np
import pytest
from sklearn.svm import SVC

import datasets
from figures.boundary import LINE_TRACES
from figures.svm import PAIR_NAME, alpha_bars, primal_dual_figure
from kernel_core import dual
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.svm import DualSVM, PrimalSVM
from lab.state import C_VALUES, GAMMA_VALUES
from pageutil import (chart, chart_elements, chart_options, decode, farthest, figures, frame_data, metrics, move,
                      open_page, page_data, replays, table, until_drawn)

PAGE = "lessons/primal_dual/page.py"
DUAL_TOL = 1e-9   # the page's SMO tolerance


def comparison(at):
    df = table(at, "quantity")
    return {row["quantity"]: (row.iloc[1], row.iloc[2]) for _, row in df.iterrows()}


def vec(v):
    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_default_page_draws_the_boundary_and_the_alphas_without_error(default_page):
    at = default_page
    assert not at.error, [e.value for e in at.error]
    boundary, bars = (json.loads(s) for s in figures(at))
    assert "primal f = 0" in {t.get("name") for t in boundary["data"]}
    assert bars["layout"]["yaxis"]["title"]["text"] == "αᵢ"


def test_primal_and_dual_numbers_on_the_page_are_the_cores(default_page):
    at = default_page
    X, y = page_data(at)
    C = float(at.session_state["pd_C"])
    fmap = at.get_by_key("pd_phi").value
    phi = FEATURE_MAPS[fmap].phi(X)
    primal = PrimalSVM(C=C).fit(phi, y)
    dual = DualSVM("linear", C=C, tol=DUAL_TOL).fit(phi, y)
    rows = comparison(at)
    assert rows["w"] == (vec(primal.coef_), vec(dual.coef_))
    assert rows["b"] == (f"{primal.intercept_:.6f}", f"{dual.intercept_:.6f}")
    assert rows["objective"] == (f"{primal.primal_objective_:.8f}", f"{dual.dual_objective_:.8f}")
    # solved independently, the two sides print the same w and b digit for digit
    assert rows["w"][0] == rows["w"][1]
    assert rows["b"][0] == rows["b"][1]
    shown = metrics(at)
    gap = primal.primal_objective_ - dual.dual_objective_
    assert abs(gap) <= 1e-8 * max(1.0, primal.primal_objective_)
    assert shown["duality gap"] == "0 within tolerance"
    assert shown["support vectors"] == f"{dual.support_.size} / {y.size}"
    assert shown["E_cv ≤ #SV/N"] == f"{dual.support_.size / y.size:.3f}"
    s = at.session_state
    X_test, y_test = datasets.DATASETS[s["dataset"]](s["n"], noise=s["noise"], random_state=s["seed"] + 10_000)
    test_accuracy = np.mean(dual.predict(FEATURE_MAPS[fmap].phi(X_test)) == y_test)
    assert shown["train / test accuracy"] == f"{np.mean(dual.predict(phi) == y):.0%} / {test_accuracy:.0%}"
    kkt = table(at, "status")
    np.testing.assert_array_equal(kkt["α"].to_numpy(), dual.alpha_)
    np.testing.assert_array_equal(kkt["status"].to_numpy(), dual.kkt_.status)


def test_duality_gap_shown_is_zero_to_solver_tolerance(default_page):
    assert metrics(default_page)["duality gap"] == "0 within tolerance"


@pytest.mark.parametrize("dataset, setting", [
    (dataset, setting) for dataset in ("circles", "linear")
    for setting in ({"pd_space": "linear", "pd_C": 1000.0}, {"pd_C": 1000.0}, {"pd_C": 0.01})
] + [("linear", {"pd_space": "linear", "pd_hard": True})])
def test_a_negative_duality_gap_is_never_shown(dataset, setting):
    # weak duality: primal ≥ dual at the optima; round-off below the solvers' tolerance reads as zero
    # (the page once showed −8.29e-10 with φ(x) = x and C = 1000)
    shown = metrics(open_page(PAGE, sidebar={"dataset": dataset}, widgets=setting))["duality gap"]
    assert shown == "0 within tolerance" or float(shown) > 0, shown


def test_lfd_dataset_from_the_sidebar_with_hard_margin_gives_the_same_answer():
    at = open_page(PAGE, sidebar={"dataset": "lfd_toy"})
    at.get_by_key("pd_space").set_value("linear")
    move(at, "pd_hard", True)
    assert not at.exception and not at.error
    assert comparison(at)["w"][1] == "(1.000000, -1.000000)"
    assert metrics(at)["margin 1/‖w‖"] == "0.7071"


def test_hard_margin_on_non_separable_data_shows_an_error_not_a_traceback():
    at = open_page(PAGE)
    at.get_by_key("pd_space").set_value("linear")
    move(at, "pd_hard", True)
    assert not at.exception
    assert at.error and "finite C" in at.error[0].value


@pytest.mark.parametrize("end", [0, -1])
def test_C_slider_at_each_extreme_redraws(default_page, end):
    at = default_page
    before = figures(at)
    move(at, "pd_C", C_VALUES[end])
    assert not at.exception and not at.error
    assert figures(at)[0] != before[0] and figures(at)[1] != before[1]
    move(at, "pd_C", 1.0)


def test_any_kernel_solves_only_the_dual_and_matches_the_core():
    at = open_page(PAGE)
    at.get_by_key("pd_space").set_value("kernel").run()
    assert not at.exception and not at.error
    assert at.info, "the page should say why the primal is missing"
    X, y = page_data(at)
    gamma = float(at.session_state["pd_gamma"])
    dual = DualSVM("rbf", C=1.0, gamma=gamma, tol=DUAL_TOL).fit(X, y)
    rows = comparison(at)
    assert rows["objective"] == ("—", f"{dual.dual_objective_:.8f}")
    # ‖w‖² = αᵀGα = 2(Σα − dual objective)
    assert rows["‖w‖"][1] == f"{np.sqrt(2 * (dual.alpha_.sum() - dual.dual_objective_)):.6f}"
    before = figures(at)
    for end in (0, -1):
        move(at, "pd_gamma", GAMMA_VALUES[end])
        assert not at.exception and not at.error
        assert figures(at) != before
    at.get_by_key("pd_kernel").set_value("poly").run()
    for value in (1, 10):
        move(at, "pd_degree", value)
        assert not at.exception and not at.error


def test_without_offset_b_is_zero_both_ways():
    at = open_page(PAGE)
    move(at, "pd_offset", False)
    assert not at.exception and not at.error
    X, y = page_data(at)
    phi = FEATURE_MAPS[at.get_by_key("pd_phi").value].phi(X)
    dual = DualSVM("linear", C=1.0, fit_intercept=False, tol=DUAL_TOL).fit(phi, y)
    rows = comparison(at)
    assert rows["b"] == ("0.000000", "0.000000")
    assert rows["objective"][1] == f"{dual.dual_objective_:.8f}"


def test_scikit_learn_comparison_agrees_with_our_dual():
    at = open_page(PAGE)
    at.get_by_key("pd_sklearn").check().run()
    assert not at.exception and not at.error
    sk = table(at, "scikit-learn (libsvm)")
    ours, theirs = sk["Kernel Lab (SMO)"], sk["scikit-learn (libsvm)"]
    np.testing.assert_allclose(float(theirs[0]), float(ours[0]), rtol=1e-5)
    np.testing.assert_allclose(float(theirs[1]), float(ours[1]), atol=1e-3)
    assert theirs[2] == ours[2]
    X, y = page_data(at)
    phi = FEATURE_MAPS[at.get_by_key("pd_phi").value].phi(X)
    assert int(theirs[2]) == SVC(kernel="linear", C=1.0, tol=DUAL_TOL).fit(phi, y).support_.size
    # a kernel scikit-learn only gets as a callable (its support_vectors_ then stay empty)
    at.get_by_key("pd_space").set_value("kernel").run()
    at.get_by_key("pd_kernel").set_value("laplacian").run()
    assert not at.exception and not at.error
    sk = table(at, "scikit-learn (libsvm)")
    np.testing.assert_allclose(float(sk["scikit-learn (libsvm)"][0]), float(sk["Kernel Lab (SMO)"][0]), rtol=1e-5)


# ---------------------------------------------------------------- figures/svm.py without Streamlit

def test_alpha_bars_draw_alpha_itself_and_the_C_line_only_for_a_finite_C():
    alpha = np.array([0.5, 0.5, 1.0, 0.0])
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    fig = alpha_bars(alpha, y, 1.0)
    heights = np.concatenate([np.asarray(t.y, dtype=float) for t in fig.data])
    np.testing.assert_array_equal(np.sort(heights), np.sort(alpha))
    assert [s.y0 for s in fig.layout.shapes] == [1.0]
    assert not alpha_bars(alpha, y, np.inf).layout.shapes


def test_the_primal_boundary_is_traced_through_the_primal_grid_over_the_whole_window():
    X, y = datasets.lfd_toy()
    xs, ys = np.linspace(-1, 1, 100), np.linspace(-2, 2, 100)
    Z_dual = np.add.outer(ys, xs) - 0.5
    fig = primal_dual_figure(xs, ys, Z_dual, X, y, Z_primal=np.add.outer(ys, xs))   # primal f = x₁ + x₂
    (primal,) = [t for t in fig.data if t.name == "primal f = 0"]
    px, py = np.asarray(primal.x, dtype=float), np.asarray(primal.y, dtype=float)
    np.testing.assert_allclose(px + py, 0.0, atol=1e-6)    # on the primal's line, not the dual's
    assert {float(px.min()), float(px.max())} == {-1.0, 1.0}


def test_primal_dual_figure_stays_under_the_payload_budget_for_the_overlay():
    X, y = datasets.lfd_toy()
    grid = make_grid(X, n=100)
    Z = grid.points @ [1.0, -1.0] - 1.0
    Z = Z.reshape(100, 100)
    plain = primal_dual_figure(grid.x, grid.y, Z, X, y)
    overlaid = primal_dual_figure(grid.x, grid.y, Z, X, y, Z_primal=Z)
    assert len(overlaid.to_json()) - len(plain.to_json()) < 10_000


def test_a_gram_matrix_that_is_not_psd_is_named_and_shows_no_margin():
    # sigmoid, γ = 0.01, C = 1000 on the default circles: αᵀGα ≈ −2.3e4, once shown as ‖w‖ = 0 and margin ∞
    at = open_page(PAGE, widgets={"pd_space": "kernel", "pd_kernel": "sigmoid", "pd_gamma": 0.01, "pd_C": 1000.0})
    assert not at.exception and not at.error
    assert any(w.value.startswith("K is not positive semi-definite") for w in at.warning)
    assert metrics(at)["margin 1/‖w‖"] == "—"
    rows = dict(zip(*(table(at, "quantity")[c].to_list() for c in ("quantity", "dual: max Σαᵢ − ½αᵀGα"))))
    assert rows["‖w‖"].startswith("none: K is not PSD (αᵀGα = -")


@pytest.mark.parametrize("widgets", [{}, {"pd_space": "kernel", "pd_offset": False}, {"pd_space": "kernel"}],
                         ids=["explicit", "kernel-no-offset", "kernel"])
def test_boundary_and_alphas_replay_smo_from_its_snapshots_ending_on_the_drawn_fit(widgets):
    at = open_page(PAGE, widgets=widgets, state=replays("pd_boundary"))
    X, y = page_data(at)
    boundary, bars = (json.loads(s) for s in figures(at))
    assert all(len(s) <= 150_000 for s in figures(at))
    frames = boundary["frames"]
    names = [f["name"] for f in frames]
    assert 3 <= len(frames) <= dual.SNAPSHOTS and names[0] == "start"
    assert names == [f["name"] for f in bars["frames"]]
    assert any(n.startswith("step ") for n in names)
    pair = next(k for k, t in enumerate(boundary["data"]) if t.get("name") == PAIR_NAME)
    last = frame_data(boundary, len(frames) - 1)
    cell = float(np.diff(decode(boundary["data"][0]["x"])[:2])[0])
    for index in LINE_TRACES:
        assert np.isfinite(decode(last[index]["x"])).sum() > 10
        assert farthest(last[index], boundary["data"][index]) < 2.5 * cell
    for k, name in enumerate(names):
        shown = frame_data(boundary, k)[pair]
        xy = np.column_stack([decode(shown["x"]), decode(shown["y"])])
        if name.startswith("step "):
            # the ringed points are the ones the label names
            moved = [int(i) for i in name.split("(")[-1].rstrip(")").split(", ")] if "pair" in name else \
                [int(name.split("α")[1].split(" ")[0])]
            np.testing.assert_array_equal(xy, X[moved].astype(np.float32))
        else:
            assert np.isnan(xy).all()   # the start and an active-set step have no working pair
    # the α bars: α = 0 at the start, the fitted α (as drawn) in the last frame
    for trace in (0, 1):
        np.testing.assert_array_equal(decode(frame_data(bars, 0)[trace]["y"]), 0.0)
        np.testing.assert_array_equal(decode(frame_data(bars, len(frames) - 1)[trace]["y"]),
                                      decode(bars["data"][trace]["y"]))


@pytest.mark.parametrize("page, key", [(PAGE, "pd_boundary"), ("lessons/circle/page.py", "cl_back"),
                                       ("lessons/pegasos/page.py", "pg_boundary"),
                                       ("lessons/pegasos/page.py", "pg_perceptron"),
                                       ("lessons/regression/page.py", "rgl_boundary")])
def test_decision_plots_draw_the_students_points_as_their_own_trace(page, key):
    own = ((0.25, 0.5, 1), (-0.5, 0.75, -1))
    traces = [t for t in chart(open_page(page, state={"user_points": own}), key)["data"]
              if t.get("name") == "your points"]
    assert len(traces) == 1
    np.testing.assert_allclose(np.c_[decode(traces[0]["x"]), decode(traces[0]["y"])], [p[:2] for p in own])


def test_the_replay_travels_only_once_the_student_asks_for_it():
    """Most moves are never replayed: the decision plot says it has a replay but sends its frames (f on the grid
    at every snapshot, traced three times) only after Play asked for them in this session."""
    at = open_page(PAGE)
    boundary = next(e for e in chart_elements(at) if e.proto.id.endswith("-pd_boundary"))
    assert chart_options(boundary)["replay"] is True
    assert "frames" not in chart(at, "pd_boundary")
    without = len(boundary.proto.bytes)
    asked = open_page(PAGE, state=replays("pd_boundary"))
    spec = chart(asked, "pd_boundary")
    assert len(spec["frames"]) >= 3
    # the same figure otherwise
    assert spec["data"] == chart(at, "pd_boundary")["data"] and spec["layout"] == chart(at, "pd_boundary")["layout"]
    assert without < len(next(e for e in chart_elements(asked) if e.proto.id.endswith("-pd_boundary")).proto.bytes)


def test_the_alpha_bars_are_replayed_by_the_decision_plots_player():
    """One player for the section: the α bars follow the decision plot's frames (lab/live_chart.py's follow)."""
    options = {e.proto.id.rsplit("-", 1)[-1]: chart_options(e) for e in chart_elements(open_page(PAGE))}
    assert options["pd_alpha"]["follow"] == "pd_boundary" and "follow" not in options["pd_boundary"]


# ---------------------------------------------------------------- the validation heatmap (kernel mode, pd_cv)

def cv_page():
    return until_drawn(open_page(PAGE, widgets={"pd_space": "kernel", "pd_cv": True}), "pd_cv_heatmap")


def test_validation_heatmap_is_the_cores_grid_and_a_cell_click_sets_both_sliders_and_the_link(monkeypatch):
    from kernel_core.crossval import cv_grid
    from lessons.primal_dual import cv_view
    from lab.state import C_VALUES, GAMMA_VALUES

    at = cv_page()
    assert not at.error, [e.value for e in at.error]
    X, y = page_data(at)
    heat = chart(at, "pd_cv_heatmap")
    grid = cv_grid(X, y, "rbf", Cs=C_VALUES, gammas=GAMMA_VALUES, k=5, seed=at.session_state["seed"])
    np.testing.assert_allclose(decode(heat["data"][0]["z"]), grid.validation.astype(np.float32))
    marked = heat["data"][1]
    assert (marked["x"], marked["y"]) == ([C_VALUES.index(1.0)], [GAMMA_VALUES.index(1.0)])
    # the click's path on the server: the chart element's trigger value, parsed to a cell (live_chart.parse_cell),
    # handed to the page's callback (cv_view.set_cell), which writes the session state the sliders read
    from lab import live_chart

    assert live_chart.parse_cell({"op": "cell", "x": 99, "y": 2}, shape=grid.validation.shape) is None
    assert live_chart.parse_cell({"op": "add", "x": 1, "y": 2}, shape=grid.validation.shape) is None
    state = {"pd_cv_heatmap": {"event": {"op": "cell", "x": 15.3, "y": 2.8}}}
    monkeypatch.setattr(live_chart.st, "session_state", state)
    live_chart._on_cell("pd_cv_heatmap", grid.validation.shape, lambda r, c: cv_view.set_cell(r, c, state))
    monkeypatch.undo()
    row, column = 3, 15
    assert (state["pd_gamma"], state["pd_C"], state["pd_hard"]) == (GAMMA_VALUES[row], C_VALUES[column], False)
    at.session_state["pd_hard"] = True   # the click also leaves the hard margin
    at.run()
    for key in ("pd_gamma", "pd_C", "pd_hard"):
        at.session_state[key] = state[key]
    at.run()
    assert not at.exception and not at.error
    assert at.session_state["pd_C"] == C_VALUES[column] and at.session_state["pd_gamma"] == GAMMA_VALUES[row]
    link = {k: at.query_params[k] for k in ("pd_C", "pd_gamma", "pd_cv")}
    assert link == {"pd_C": f"{C_VALUES[column]:g}", "pd_gamma": f"{GAMMA_VALUES[row]:g}", "pd_cv": "true"}
    marked = chart(at, "pd_cv_heatmap")["data"][1]
    assert (marked["x"], marked["y"]) == ([column], [row])


def test_moving_c_or_gamma_reuses_the_validation_grid():
    from lessons.primal_dual import validation as cpd

    at = cv_page()
    before = len(cpd._cv_grid.memory)
    keys = list(cpd._cv_grid.memory)
    move(at, "pd_C", 10.0)
    move(at, "pd_gamma", 3.16)
    assert not at.exception
    assert list(cpd._cv_grid.memory) == keys and len(cpd._cv_grid.memory) == before


def test_the_heatmap_is_not_computed_while_its_toggle_is_off():
    from lessons.primal_dual import validation as cpd

    cpd._cv_grid.memory.clear()
    at = open_page(PAGE, widgets={"pd_space": "kernel"})
    assert not cpd._cv_grid.memory
    assert "pd_cv_heatmap" not in " ".join(e.proto.id for e in at.get("bidi_component"))


@pytest.mark.parametrize("leave", [("pd_cv", False), ("pd_space", "linear")], ids=["toggle off", "linear space"])
def test_switching_the_heatmap_off_drops_its_queued_fits(leave):
    import os
    import time

    from lab import background
    from lessons.primal_dual import validation as cpd

    cpd._cv_grid.memory.clear()
    # the one background process is taken for a few seconds: longer than the page takes to open and rerun on a
    # loaded machine (with one second, the queued job sometimes started before the toggle went off)
    taken = ("busy", "heatmap off"), background.Owner({}, "busy"), os.system, "sleep 5"
    assert background.result(*taken) is None
    at = open_page(PAGE, widgets={"pd_space": "kernel", "pd_cv": True})
    key = at.session_state[background.KEY]
    queued = background._jobs[key]
    assert not queued.running() and not queued.done()
    at.get_by_key(leave[0]).set_value(leave[1]).run()
    assert queued.cancelled() and key not in background._jobs and background.KEY not in at.session_state
    assert not cpd._cv_grid.memory
    while background.result(*taken) is None:   # collected, so that nothing is left pending
        time.sleep(0.05)


# ---------------------------------------------------------------- one-vs-rest (kernel mode, three classes)

def test_three_classes_in_kernel_mode_are_one_vs_rest_as_sklearn_predicts():
    from sklearn.multiclass import OneVsRestClassifier

    from kernel_core.grid import make_grid as grid_of
    from kernel_core.kernels import KernelSpec
    from lessons.primal_dual.one_vs_rest import one_vs_rest

    own = "0.40_-0.30_2~-1.20_1.10_1~1.00_1.50_-1"
    at = AppTest_with_points(own, sidebar={"dataset": "blobs3", "noise": 0.8}, widgets={"pd_space": "kernel"})
    assert not at.error, [e.value for e in at.error]
    X, y = page_data(at)
    own_X = np.array([[0.4, -0.3], [-1.2, 1.1], [1.0, 1.5]])
    X, y = np.vstack([X, own_X]), np.concatenate([y, [2.0, 1.0, -1.0]])
    C, gamma = at.session_state["pd_C"], at.session_state["pd_gamma"]
    svc = OneVsRestClassifier(SVC(kernel="rbf", C=C, gamma=gamma, tol=1e-9)).fit(X, y)
    grid = grid_of(X, n=80)
    r = one_vs_rest(X, y, None, KernelSpec("rbf", gamma), C, True)
    predicted = r.classes[np.argmax(r.Z.reshape(len(r.classes), -1), axis=0)]
    np.testing.assert_array_equal(predicted, svc.predict(grid.points))
    shown = metrics(at)
    assert shown["classes"] == "3"
    assert shown["train / test accuracy"].startswith(f"{np.mean(svc.predict(X) == y):.0%} / ")
    fig = chart(at, "pd_ovr")
    names = [t.get("name") for t in fig["data"]]
    assert sum(n.startswith("f = 0 of") for n in names) == 3 and "your points" in names
    # the combined field drawn is the argmax of the three SVMs' decision values
    field = decode(fig["data"][0]["z"])
    np.testing.assert_array_equal(field.ravel(), np.searchsorted(r.classes, svc.predict(grid.points)))


def AppTest_with_points(pts, *, sidebar=None, widgets=None):
    from streamlit.testing.v1 import AppTest

    from pageutil import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["pts"] = pts
    at.run()
    for key, value in (sidebar or {}).items():
        at.sidebar.get_by_key(key).set_value(value)
    at.switch_page(PAGE)
    at.run()
    for key, value in (widgets or {}).items():
        at.get_by_key(key).set_value(value).run()
    assert not at.exception, at.exception
    return at


def test_binary_modes_leave_a_third_class_point_out_and_say_so():
    with_third = AppTest_with_points("0.40_-0.30_2")
    plain = open_page(PAGE)
    assert any("of class 2 (green)" in i.value for i in with_third.info)
    assert comparison(with_third) == comparison(plain)
    assert metrics(with_third) == metrics(plain)


def test_binary_modes_refuse_the_three_class_dataset_with_a_message():
    at = open_page(PAGE, sidebar={"dataset": "blobs3"})
    assert len(at.error) == 1 and "three classes" in at.error[0].value and "one-vs-rest" in at.error[0].value


def test_one_vs_rest_says_which_class_gets_no_region_and_what_to_try():
    # three class-2 points inside the moons: at C = 1, γ = 1 its SVM is negative on the whole plot, so the class
    # has no region, its line f = 0 never appears and its three points are all wrong
    own = "0.00_0.50_2~0.50_0.25_2~1.00_0.50_2"
    at = AppTest_with_points(own, sidebar={"dataset": "moons"}, widgets={"pd_space": "kernel"})
    assert not at.error, [e.value for e in at.error]
    (said,) = [w.value for w in at.warning if "y = 2" in w.value]
    assert "negative everywhere" in said and "0 of its 3 points" in said
    assert "more points" in said and "larger γ" in said and "larger C" in said
    # its line keeps a legend entry that says why nothing is drawn
    (line,) = [t for t in chart(at, "pd_ovr")["data"] if t.get("name", "").startswith("f = 0 of y = 2")]
    assert "never 0" in line["name"] and len(decode(line["x"])) >= 1
