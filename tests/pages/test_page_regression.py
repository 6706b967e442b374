"""Lesson 6 (kernel regression): the page under AppTest against kernel_core and scikit-learn computed
directly, and the figure builders of figures/regression.py without Streamlit."""

import json

import numpy as np
import pytest
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge

import datasets
from figures.boundary import GRID_POINTS
from figures.regression import bumps_figure, history_figure, two_fits_figure
from kernel_core.feature_maps import MAX_TAYLOR_TERMS, gaussian_taylor_features, polynomial_features
from kernel_core.grid import make_grid, make_grid_1d
from kernel_core.kernels import KernelSpec, make_kernel
from kernel_core.descent import LMS, KernelLMS, eta_from_ratio, max_stable_eta
from kernel_core.logistic import KernelLogisticRegression
from kernel_core.ridge import KernelRidge
from lessons.regression.compute import REPLAY_FRAMES, fit_descent
from pageutil import chart, decode, figure, figures, metrics, open_page, page_data, table

PAGE = "lessons/regression/page.py"
GAP_LABEL = "max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"


def kernel_params(at, prefix):
    s = at.session_state
    kernel = s[f"{prefix}_kernel"]
    return dict(kernel=kernel, gamma=None if kernel == "linear" else s[f"{prefix}_gamma"],
                degree=s[f"{prefix}_degree"] if kernel == "poly" else 3,
                coef0=s[f"{prefix}_coef0"] if kernel in ("poly", "sigmoid") else 1.0)


def house(at):
    s = at.session_state
    return datasets.make_dataset("house_prices", s["rg_n"], random_state=s["seed"])


def core_ridge(at):
    x, y = house(at)
    kp = kernel_params(at, "rg")
    return x, y, KernelRidge(kp.pop("kernel"), lam=at.session_state["rg_lam"], **kp).fit(x, y)


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_default_page_renders_all_figures_without_error(default_page):
    at = default_page
    assert not at.error, [e.value for e in at.error]
    assert len(figures(at)) == 5
    assert all(len(spec) < 150_000 for spec in figures(at))


# ---------------------------------------------------------------- kernel ridge and the bumps

def test_ridge_table_is_kernel_ridge_of_the_core_and_of_scikit_learn(default_page):
    at = default_page
    x, y, model = core_ridge(at)
    df = table(at, "xⱼ")
    np.testing.assert_array_equal(df["xⱼ"], x[:, 0])
    np.testing.assert_allclose(df["βⱼ"], model.beta_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(df["f(xⱼ)"], model.predict(x), rtol=1e-12)
    s = at.session_state
    sk = SkKernelRidge(alpha=s["rg_lam"], kernel="rbf", gamma=s["rg_gamma"]).fit(x, y)
    np.testing.assert_allclose(df["βⱼ"], sk.dual_coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(df["f(xⱼ)"], sk.predict(x), rtol=1e-10)
    assert metrics(at)["training RMSE"] == f"{np.sqrt(np.mean((y - model.predict(x)) ** 2)):.4g}"


def test_thick_line_is_the_ridge_prediction_and_the_thin_bumps_add_up_to_it(default_page):
    at = default_page
    x, _, model = core_ridge(at)
    grid = make_grid_1d(x, n=200)
    traces = json.loads(figure(at, "rg_bumps"))["data"]
    total = decode(next(t for t in traces if t["name"].startswith("f(x) = "))["y"])
    np.testing.assert_allclose(total, model.predict(grid.points), rtol=1e-6, atol=1e-6)
    bumps = [t for t in traces if t["name"].startswith("βⱼ K(xⱼ, x)")]
    segments = np.concatenate([decode(t["y"]).reshape(-1, grid.x.size + 1)[:, :-1] for t in bumps])
    assert segments.shape[0] == x.shape[0]
    np.testing.assert_allclose(segments.sum(axis=0), model.predict(grid.points), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kernel", ["linear", "poly", "laplacian", "exponential", "sigmoid"])
def test_every_kernel_fits_ridge_without_exception(kernel):
    at = open_page(PAGE, widgets={"rg_kernel": kernel})
    _, _, model = core_ridge(at)
    np.testing.assert_allclose(table(at, "xⱼ")["βⱼ"], model.beta_, rtol=1e-10, atol=1e-12)


def test_ridge_sliders_at_their_extremes_redraw_the_bumps():
    for key, low, high in (("rg_lam", 1e-4, 1.0), ("rg_gamma", 0.01, 100.0), ("rg_n", 4, 60)):
        a, b = open_page(PAGE, widgets={key: low}), open_page(PAGE, widgets={key: high})
        assert not a.error and not b.error
        assert figure(a, "rg_bumps") != figure(b, "rg_bumps")
        assert all(len(spec) < 150_000 for spec in figures(b))
    smooth = abs(table(open_page(PAGE, widgets={"rg_lam": 1.0}), "xⱼ")["βⱼ"]).max()
    rough = abs(table(open_page(PAGE, widgets={"rg_lam": 1e-4}), "xⱼ")["βⱼ"]).max()
    assert smooth < rough


# ---------------------------------------------------------------- LMS on θ vs kernel LMS on β

def core_descent(at, phi):
    s = at.session_state
    x, y = house(at)
    kp = kernel_params(at, "rg")
    stochastic = s["rg_mode"] == "stochastic"
    K = make_kernel(kp["kernel"], gamma=kp["gamma"], degree=kp["degree"], coef0=kp["coef0"])(x)
    eta = s["rg_eta"] * max_stable_eta(K, stochastic=stochastic)
    grid = make_grid_1d(x, n=200)
    klms = KernelLMS(kp.pop("kernel"), eta=eta, n_iter=s["rg_T"], stochastic=stochastic, random_state=s["seed"],
                     **kp).fit(x, y)
    lms = LMS(eta=eta, n_iter=s["rg_T"], stochastic=stochastic, random_state=s["seed"]).fit(phi(x), y)
    return lms, klms, np.max(np.abs(lms.predict(phi(grid.points)) - klms.predict(grid.points)))


def taylor_map(kp):
    return lambda X: gaussian_taylor_features(X, gamma=kp["gamma"], n_terms=MAX_TAYLOR_TERMS)


def poly_map(kp):
    return lambda X: polynomial_features(X, degree=kp["degree"], gamma=kp["gamma"], coef0=kp["coef0"])


@pytest.mark.parametrize("widgets, make_phi", [
    ({}, taylor_map),
    ({"rg_mode": "stochastic"}, taylor_map),
    ({"rg_kernel": "poly"}, poly_map),
    ({"rg_kernel": "linear"}, lambda kp: (lambda X: X)),
])
def test_printed_gap_between_lms_and_kernel_lms_is_the_cores_and_tiny(widgets, make_phi):
    at = open_page(PAGE, widgets=widgets)
    lms, klms, gap = core_descent(at, make_phi(kernel_params(at, "rg")))
    printed = metrics(at)[GAP_LABEL]
    # the gap is round-off: its last bits depend on memory alignment in BLAS, hence the atol
    np.testing.assert_allclose(float(printed), gap, rtol=1e-3, atol=1e-13)
    assert float(printed) < 1e-10
    assert metrics(at)["loss after T steps"] == f"{klms.history_['loss'][-1]:.6g}"
    np.testing.assert_allclose(lms.history_["loss"], klms.history_["loss"], rtol=1e-9)


def test_kernels_without_a_finite_map_run_only_the_beta_update():
    at = open_page(PAGE, widgets={"rg_kernel": "laplacian"})
    assert GAP_LABEL not in metrics(at)
    assert any("only the β update" in i.value for i in at.info)
    narrow = open_page(PAGE, widgets={"rg_gamma": 100.0})
    assert GAP_LABEL not in metrics(narrow)
    assert any("Taylor features miss K" in i.value for i in narrow.info)


def test_descent_result_carries_the_theta_route_only_where_a_finite_map_exists():
    x, y = datasets.make_dataset("house_prices", 15, random_state=0)
    poly = fit_descent(x, y, KernelSpec("poly", 1.0, 3, 1.0), 0.5, 50, False, 0)
    laplacian = fit_descent(x, y, KernelSpec("laplacian", 1.0), 0.5, 50, False, 0)
    assert poly.explicit and poly.max_diff < 1e-10 and poly.loss_theta.shape == poly.loss_beta.shape
    assert not laplacian.explicit
    assert (laplacian.f_theta, laplacian.loss_theta, laplacian.max_diff) == (None, None, None)


def test_a_step_above_the_stable_limit_and_only_such_a_step_carries_a_warning():
    K = make_kernel("rbf", gamma=1.0)(np.linspace(-1, 1, 10)[:, None])
    for ratio, warned in ((0.95, False), (1.0, False), (1.05, True)):
        eta, eta_max, warnings = eta_from_ratio(K, ratio)
        np.testing.assert_allclose([eta, eta_max], [ratio * max_stable_eta(K), max_stable_eta(K)], rtol=1e-15)
        assert bool(warnings) == warned and all("above the stable limit" in w for w in warnings)


@pytest.mark.parametrize("ratio", [1.05, 10.0])
def test_a_step_above_the_stable_limit_shows_the_loss_growing_until_the_run_stops(ratio):
    at = open_page(PAGE, widgets={"rg_eta": ratio, "rg_T": 5000})
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("diverged" in w.value and "stopped there" in w.value for w in at.warning)
    loss = decode(chart(at, "rg_loss")["data"][-1]["y"])
    assert np.all(np.isfinite(loss)) and loss[-1] > 1e3 * loss[0]


def test_descent_sliders_at_their_extremes_redraw():
    low = open_page(PAGE, widgets={"rg_T": 1, "rg_eta": 0.01})
    high = open_page(PAGE, widgets={"rg_T": 5000, "rg_eta": 0.95})
    assert not low.error and not high.error
    assert figure(low, "rg_fits") != figure(high, "rg_fits")
    assert figure(low, "rg_loss") != figure(high, "rg_loss")


# ---------------------------------------------------------------- kernel logistic regression

def core_logistic(at):
    s = at.session_state
    X, y = page_data(at)
    kp = kernel_params(at, "rgl")
    return X, y, KernelLogisticRegression(kp.pop("kernel"), lam=s["rgl_lam"], n_iter=s["rgl_T"], **kp).fit(X, y)


def test_logistic_numbers_and_field_are_the_cores(default_page):
    at = default_page
    X, y, model = core_logistic(at)
    shown = metrics(at)
    assert shown["training accuracy"] == f"{np.mean(model.predict(X) == y):.1%}"
    assert shown["J(β) after T steps"] == f"{model.history_['objective'][-1]:.6g}"
    df = table(at, "x₁")
    np.testing.assert_allclose(df["βⱼ"], model.beta_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(df["P(y = +1 | xⱼ)"], model.predict_proba(X)[:, 1], rtol=1e-12)
    grid = make_grid(X, n=GRID_POINTS)
    field = json.loads(figure(at, "rgl_boundary"))["data"][0]
    np.testing.assert_allclose(decode(field["z"]).ravel(), model.decision_function(grid.points), rtol=1e-6,
                               atol=1e-6)


def test_logistic_lines_are_named_as_probabilities_not_margins(default_page):
    from figures.boundary import MARGINS
    names = {t.get("name") for t in json.loads(figure(default_page, "rgl_boundary"))["data"]}
    assert {"f = 0 (P = ½)", "f = ±1 (P ≈ 0.73 or 0.27)"} <= names and MARGINS not in names


def test_logistic_sliders_at_their_extremes_redraw():
    for key, low, high in (("rgl_lam", 1e-4, 1.0), ("rgl_T", 1, 3000), ("rgl_gamma", 0.01, 100.0)):
        a, b = open_page(PAGE, widgets={key: low}), open_page(PAGE, widgets={key: high})
        assert not a.error and not b.error
        assert figure(a, "rgl_boundary") != figure(b, "rgl_boundary")
        assert figure(a, "rgl_objective") != figure(b, "rgl_objective")


# ---------------------------------------------------------------- figure builders

def test_bumps_figure_thins_only_the_bumps_and_stays_under_budget_for_many_points():
    rng = np.random.default_rng(0)
    n, m = 60, 200
    bumps = rng.standard_normal((n, m))
    beta = rng.standard_normal(n)
    fig = bumps_figure(rng.uniform(-1, 1, n), rng.standard_normal(n), np.linspace(-1, 1, m), beta, bumps,
                       bumps.sum(axis=0))
    assert len(fig.to_json()) < 150_000
    assert len(fig.data[-1].y) == m
    drawn = sum(np.count_nonzero(~np.isnan(np.asarray(t.y, dtype=float))) for t in fig.data[:2])
    assert drawn < n * m


def test_identical_inputs_build_identical_figures():
    x = np.linspace(-1, 1, 50)
    a = two_fits_figure(x, x**2, x, x**2, x**2, theta_name="θ", beta_name="β").to_json()
    b = two_fits_figure(x, x**2, x, x**2, x**2, theta_name="θ", beta_name="β").to_json()
    assert a == b
    h = history_figure(np.arange(5), {"J": (np.arange(1, 6.0), None)}, ytitle="J")
    assert h.layout.yaxis.type == "log"


def test_kernel_lms_plot_replays_the_beta_curve_at_the_history_steps_ending_on_the_drawn_curve(default_page):
    at = default_page
    x, y = house(at)
    kp = kernel_params(at, "rg")
    s = at.session_state
    spec = chart(at, "rg_fits")
    beta_trace = 2
    assert spec["data"][beta_trace]["name"].startswith("Σⱼ βⱼ K(xⱼ, x)")
    frames = spec["frames"]
    assert 2 <= len(frames) <= REPLAY_FRAMES
    assert frames[0]["name"] == "t = 0" and frames[-1]["name"] == f"t = {s['rg_T']}"
    assert all(f["traces"] == [beta_trace] and set(f["data"][0]) == {"type", "y"} for f in frames)
    # t = 0 is β = 0: the flat curve f = 0; the last frame is the curve the figure draws
    np.testing.assert_array_equal(decode(frames[0]["data"][0]["y"]), 0.0)
    np.testing.assert_allclose(decode(frames[-1]["data"][0]["y"]), decode(spec["data"][beta_trace]["y"]),
                               rtol=1e-5, atol=1e-6)
    # each frame is Σⱼ βⱼ K(xⱼ, ·) at that step of the core's history
    stochastic = s["rg_mode"] == "stochastic"
    kernel = kp.pop("kernel")
    eta = fit_descent(x, y, KernelSpec(kernel, **kp), s["rg_eta"], s["rg_T"], stochastic, int(s["seed"])).eta
    klms = KernelLMS(kernel, eta=eta, n_iter=s["rg_T"], stochastic=stochastic, random_state=int(s["seed"]),
                     **kp).fit(x, y)
    grid = make_grid_1d(x, n=200)
    k = int(frames[len(frames) // 2]["name"].removeprefix("t = "))
    row = int(np.flatnonzero(klms.history_["t"] == k)[0])
    np.testing.assert_allclose(decode(frames[len(frames) // 2]["data"][0]["y"]),
                               klms.history_["beta"][row] @ make_kernel(kernel, **kp)(x, grid.points),
                               rtol=1e-5, atol=1e-6)
    assert len(figure(at, "rg_fits")) <= 150_000


def test_two_fits_figure_frames_replace_only_the_beta_curve():
    grid = np.linspace(0.0, 1.0, 200)
    curves = np.outer(np.linspace(0.0, 1.0, 50), np.sin(grid))
    fig = two_fits_figure([0.5], [0.5], grid, curves[-1], curves[-1], theta_name="θ", beta_name="β",
                          beta_frames=([f"t = {t}" for t in range(50)], curves))
    spec = json.loads(fig.to_json())
    assert [f["traces"] for f in spec["frames"]] == [[2]] * 50
    np.testing.assert_array_equal(decode(spec["frames"][7]["data"][0]["y"]), curves[7].astype(np.float32))
    assert len(fig.to_json()) <= 150_000


def test_numbers_expander_sends_its_table_and_code_only_while_it_is_open():
    closed = open_page(PAGE, numbers=False)
    box = next(e for e in closed.main.expander if e.label.startswith("The numbers: β and the ridge"))
    assert not box.dataframe and not box.code and not box.markdown
    assert not any("βⱼ" in d.value.columns for d in closed.dataframe)
    opened = open_page(PAGE, numbers=False, state={"rg_ridge_numbers": True})
    _, _, model = core_ridge(opened)
    np.testing.assert_allclose(table(opened, "xⱼ")["βⱼ"], model.beta_, rtol=1e-10, atol=1e-12)
