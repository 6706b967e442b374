"""Lesson 4 (Pegasos and the kernel perceptron) under AppTest: the numbers on the page are the core's on
the same data, the replay shows the recorded iterates, every control redraws without an exception."""

import dataclasses
import json
import re

import numpy as np
import pytest

from figures.boundary import GRID_POINTS, LINE_TRACES
from figures.pegasos import MAX_FRAMES, alpha_animation
from kernel_core.grid import make_grid
from kernel_core.kernels import KernelSpec, rbf_kernel
from kernel_core.pegasos import KernelPegasos
from kernel_core.perceptron import KernelPerceptron
from kernel_core.svm import DualSVM
from lessons.pegasos.compute import REPLAY_FRAMES, fit_pegasos
from pageutil import (assert_extremes_change_the_page, chart, decode, default_data, farthest, figure, figures,
                      frame_data, metrics, move, open_page, replays, table)

PAGE = "lessons/pegasos/page.py"
# the page's defaults: the sidebar's circles (n=100, noise 0.1, seed 0), RBF γ=1, λ=0.01, T=2000, sampler seed 0
LAM, T, GAMMA = 0.01, 2000, 1.0


@pytest.fixture(scope="module")
def page():
    return open_page(PAGE, state=replays("pg_boundary", "pg_perceptron"))


@pytest.fixture(scope="module")
def model():
    X, y = default_data()
    return KernelPegasos("rbf", lam=LAM, n_iter=T, gamma=GAMMA, random_state=0).fit(X, y)


def test_page_renders_its_figures_without_exception_or_error(page):
    assert not page.error, [e.value for e in page.error]
    assert len(figures(page)) == 5


def test_objective_metrics_equal_the_core_and_the_svm_optimum_on_the_same_data(page, model):
    X, y = default_data()
    m = metrics(page)
    svm = DualSVM("rbf", C=1.0 / (LAM * X.shape[0]), gamma=GAMMA, fit_intercept=False).fit(X, y)
    assert m["objective at α̂ (t = T)"] == f"{model.history_['objective_avg'][-1]:.6g}"
    assert m["objective at αᵀ"] == f"{model.history_['objective_last'][-1]:.6g}"
    assert m["exact optimum (SVM dual)"] == f"{LAM * svm.dual_objective_:.6g}"
    assert m["training error of α̂"] == f"{np.mean(model.predict(X) != y):.1%}"


def test_averaged_objective_is_never_below_the_exact_optimum(page):
    m = metrics(page)
    assert float(m["objective at α̂ (t = T)"]) >= float(m["exact optimum (SVM dual)"])


def test_boundary_at_t_equal_T_is_the_averaged_alpha_hat_decision_function(page, model):
    X, _ = default_data()
    fig = chart(page, "pg_boundary")
    grid = make_grid(X, n=GRID_POINTS)
    expected = rbf_kernel(grid.points, X, gamma=GAMMA) @ model.alpha_
    np.testing.assert_allclose(decode(fig["data"][0]["z"]).ravel(), expected, rtol=1e-5, atol=1e-5)


def test_last_iterate_toggle_draws_alpha_T_not_alpha_hat(model):
    X, _ = default_data()
    at = open_page(PAGE)
    at.button_group(key="pg_iterate").set_value("last").run()
    assert not at.exception
    grid = make_grid(X, n=GRID_POINTS)
    expected = rbf_kernel(grid.points, X, gamma=GAMMA) @ model.alpha_last_
    np.testing.assert_allclose(decode(chart(at, "pg_boundary")["data"][0]["z"]).ravel(), expected,
                               rtol=1e-5, atol=1e-5)
    assert not np.allclose(model.alpha_last_, model.alpha_, atol=1e-3)


def test_replay_at_t_1_draws_f_identically_zero_because_beta_1_is_0():
    at = open_page(PAGE)
    move(at, "pg_replay", 1)
    assert not at.exception
    assert any("at t = 1 of 2000" in md.value for md in at.markdown)
    assert np.all(decode(chart(at, "pg_boundary")["data"][0]["z"]) == 0)


def test_perceptron_numbers_equal_the_core_and_it_converges_with_rbf(page):
    X, y = default_data()
    core = KernelPerceptron("rbf", max_epochs=50, gamma=GAMMA).fit(X, y)
    assert core.converged_
    assert metrics(page)["total mistakes Σ αᵢ"] == str(int(core.alpha_.sum()))
    assert any(f"epoch {core.n_epochs_} made no mistake" in s.value for s in page.success)
    mistakes = decode(chart(page, "pg_mistakes")["data"][0]["y"])
    np.testing.assert_array_equal(mistakes, core.history_["mistakes"])


def test_linear_perceptron_on_circles_is_reported_as_not_converged():
    at = open_page(PAGE)
    at.selectbox(key="pg_kernel").set_value("linear").run()
    assert not at.exception
    X, y = default_data()
    with pytest.warns(RuntimeWarning, match="max_epochs"):
        core = KernelPerceptron("linear", max_epochs=50).fit(X, y)
    assert not core.converged_
    assert any("Did not converge in 50 epochs" in w.value for w in at.warning)
    assert metrics(at)["total mistakes Σ αᵢ"] == str(int(core.alpha_.sum()))


@pytest.mark.parametrize(("key", "low", "high"), [
    ("pg_lam", 1e-4, 1.0), ("pg_T", 100, 20_000), ("pg_replay", 1, 100), ("pg_epochs", 1, 200),
    ("pg_gamma", 0.01, 100.0),
])
def test_each_control_at_both_extremes_redraws_without_exception(key, low, high):
    at = open_page(PAGE)
    assert_extremes_change_the_page(at, key, low, high)


def test_alpha_animation_ends_at_the_last_snapshot_with_few_frames_and_a_small_payload(model):
    X, y = default_data()
    h = model.history_
    fig = alpha_animation(h["snapshot_t"], h["alpha"], h["alpha_avg"], y, np.zeros_like(y))
    order = np.argsort(y, kind="stable")
    frames = json.loads(fig.to_json())["frames"]   # as sent
    assert len(frames) <= MAX_FRAMES
    assert frames[-1]["name"] == f"t = {T}"
    assert "updatemenus" not in fig.to_dict()["layout"]    # one player: the chart element's
    np.testing.assert_allclose(fig.data[0].y, model.alpha_last_[order].astype(np.float32))
    np.testing.assert_allclose(decode(frames[-1]["data"][1]["y"]), model.alpha_[order].astype(np.float32))
    assert len(fig.to_json()) <= 150_000


def test_alpha_animation_payload_stays_under_150kb_for_700_points():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(700) < 0.5, -1.0, 1.0)
    snaps = rng.normal(size=(100, 700))
    fig = alpha_animation(np.arange(1, 101), snaps, snaps, y, np.zeros(700))
    assert len(fig.to_json()) <= 150_000


def test_update_count_in_the_numbers_is_the_sum_of_abs_beta(page, model):
    assert any(f"{int(np.abs(model.beta_).sum())} of the T = {T} steps" in md.value for md in page.markdown)


def test_alpha_is_the_last_iterate_and_alpha_avg_the_output_in_the_result_and_the_table(page, model):
    # the core calls α̂ alpha_ and α^T alpha_last_; the lesson's result uses the notes' α^t and α̂
    X, y = default_data()
    run = fit_pegasos(X, y, KernelSpec("rbf", GAMMA), LAM, T, 0)
    np.testing.assert_array_equal(run.alpha, model.alpha_last_)
    np.testing.assert_array_equal(run.alpha_avg, model.alpha_)
    np.testing.assert_array_equal(run.beta, model.beta_)
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.alpha = model.alpha_
    np.testing.assert_allclose(table(page, "αᵀ (last)")["αᵀ (last)"], model.alpha_last_, rtol=1e-12)
    np.testing.assert_allclose(table(page, "α̂ (average)")["α̂ (average)"], model.alpha_, rtol=1e-12)


def test_when_pegasos_cannot_reach_the_optimum_within_T_the_page_says_why():
    at = open_page(PAGE, widgets={"pg_lam": 1e-4})
    notes = [i.value for i in at.info if "log T / (λT)" in i.value]
    assert notes, [i.value for i in at.info]
    at = open_page(PAGE)   # at the default λ it gets close: no such note
    assert not [i.value for i in at.info if "log T / (λT)" in i.value]


def test_the_perceptron_plot_does_not_call_its_level_lines_margins():
    names = {t.get("name") for t in chart(open_page(PAGE), "pg_perceptron")["data"]}
    assert "f = ±1 (level lines; no margin here)" in names and not any("margin" in (n or "") and "no margin" not in n
                                                                        for n in names)


def assert_last_frame_draws_the_figures_lines(spec):
    """Every point of the lines f = 0, ±1 of the last frame lies on the figure's own lines (within a cell or two
    of the grid: a frame's lines are traced on every 2nd grid line when the frames' shared budget asks for it,
    which may also skip a loop smaller than that)."""
    last = frame_data(spec, len(spec["frames"]) - 1)
    cell = float(np.diff(decode(spec["data"][0]["x"])[:2])[0])
    for index in LINE_TRACES:
        assert np.isfinite(decode(last[index]["x"])).sum() > 10
        assert farthest(last[index], spec["data"][index]) < 2.5 * cell


def test_decision_plot_replays_the_run_in_frames_ending_on_the_drawn_lines(page, model):
    spec = chart(page, "pg_boundary")
    k = np.unique(np.rint(np.linspace(0, model.history_["snapshot_t"].size - 1, REPLAY_FRAMES)).astype(int))
    assert [f["name"] for f in spec["frames"]] == [f"t = {t}" for t in model.history_["snapshot_t"][k]]
    assert spec["frames"][-1]["name"] == f"t = {T}"
    assert all(f["traces"] == list(LINE_TRACES) for f in spec["frames"])
    assert_last_frame_draws_the_figures_lines(spec)
    # the first frames differ from the last: the boundary moves during the run
    first = frame_data(spec, 1)
    assert farthest(first[1], spec["data"][1]) > 0.1
    assert len(figure(page, "pg_boundary")) <= 150_000


def test_replay_slider_ends_the_frames_at_its_t_and_on_the_last_iterate_if_asked():
    at = open_page(PAGE, widgets={"pg_iterate": "last", "pg_replay": 40}, state=replays("pg_boundary"))
    X, y = default_data()
    run = fit_pegasos(X, y, KernelSpec("rbf", gamma=GAMMA), LAM, T, 0)
    k = round(39 / 99 * (run.snapshot_t.size - 1))
    spec = chart(at, "pg_boundary")
    assert spec["frames"][-1]["name"] == f"t = {run.snapshot_t[k]}"
    assert len(spec["frames"]) == REPLAY_FRAMES
    assert_last_frame_draws_the_figures_lines(spec)
    grid = make_grid(X, n=GRID_POINTS)
    f = rbf_kernel(grid.points, X, gamma=GAMMA) @ run.alpha_snapshots[k]
    np.testing.assert_allclose(decode(spec["data"][0]["z"]).ravel(), f, rtol=1e-5, atol=1e-5)


def test_perceptron_plot_replays_each_epoch_ending_on_the_drawn_lines_and_rings(page):
    X, y = default_data()
    model = KernelPerceptron("rbf", gamma=GAMMA, max_epochs=100).fit(X, y)
    spec = chart(page, "pg_perceptron")
    assert [f["name"] for f in spec["frames"]] == [f"epoch {e}" for e in range(1, model.n_epochs_ + 1)]
    assert_last_frame_draws_the_figures_lines(spec)
    rings = next(i for i, t in enumerate(spec["data"]) if t.get("name") == "mistakes αᵢ (ring size)")
    hit = np.flatnonzero(model.alpha_ > 0)
    for k, frame in enumerate(spec["frames"]):
        shown = frame_data(spec, k)[rings]
        np.testing.assert_array_equal(decode(shown["customdata"]), model.history_["alpha"][k][hit])
        assert shown["marker"]["symbol"] == "circle-open"   # the whole marker travels with the frame
    np.testing.assert_array_equal(decode(frame_data(spec, len(spec["frames"]) - 1)[rings]["marker"]["size"]),
                                  decode(spec["data"][rings]["marker"]["size"]))
    assert len(figure(page, "pg_perceptron")) <= 150_000


def test_a_perceptron_on_a_kernel_that_fails_mercer_is_told_so_not_to_separate_more():
    # sigmoid on the default circles: K has negative eigenvalues, there is no feature space, and "not separable
    # through the origin: take RBF with a larger γ" blamed the data for what the kernel does
    at = open_page(PAGE, widgets={"pg_kernel": "sigmoid"})
    warnings = " ".join(w.value for w in at.warning)
    assert "not positive semi-definite" in warnings and "perceptron" in warnings
    assert "not separable through the origin" not in warnings


RAW_SCRIPT = re.compile(r"[αβ]\u0302?[_^]")   # α̂ₜ, αᵗ, βᵀ: a sub- or superscript written as its source


def test_labels_write_iterates_as_sub_and_superscripts_never_as_raw_underscore_or_caret():
    at = open_page(PAGE, widgets={"pg_iterate": "last"})
    prose = [re.sub(r"\$[^$]*\$", "", m.value) for m in at.markdown]
    labels = list(at.get_by_key("pg_iterate").options) + list(metrics(at)) + list(page_table_columns(at))
    traces = [str(t.get(k, "")) for key in ("pg_objective", "pg_alpha") for t in chart(at, key)["data"]
              for k in ("name", "hovertemplate")]
    raw = [text for text in prose + labels + traces if RAW_SCRIPT.search(text)]
    assert not raw, raw
    assert any("\\alpha^t_j" in m.value for m in at.markdown)   # the replayed f, as math


def page_table_columns(at):
    return [c for df in at.dataframe for c in df.value.columns]
