"""Lesson 1 (feature maps and the kernel trick): the page under AppTest against kernel_core and closed
forms computed directly, and the figure builders of figures/feature_maps.py without Streamlit."""

import json
import math
import re

import numpy as np
import pytest

import datasets
from figures.feature_maps import cost_figure, taylor_error_figure, taylor_figure
from kernel_core.feature_maps import FEATURE_MAPS, gaussian_taylor_error, operation_counts
from kernel_core.grid import make_grid_1d
from kernel_core.descent import LMS, KernelLMS, max_stable_eta
from pageutil import chart, decode, figure, figures, metrics, open_page, page_data, table

PAGE = "lessons/feature_maps/page.py"
CUBIC = FEATURE_MAPS["cubic_1d"]


def text(at):
    return " ".join(m.value for m in at.markdown)


def shown_numbers(at):
    """The numbers the page prints as `code` in its markdown, in order."""
    return [float(v) for v in re.findall(r"`([-+0-9.eE]+)`", text(at))]


def assert_printed(printed, value, *, atol=0.0):
    """A number shown with 3 or 4 significant digits equals the core's value up to that rounding
    (and atol for round-off-level values, whose last bits depend on memory alignment in BLAS)."""
    np.testing.assert_allclose(float(printed), value, rtol=1e-3, atol=atol)


def house(at):
    return datasets.make_dataset("house_prices", random_state=at.session_state["seed"])


@pytest.fixture(scope="module")
def default_page():
    return open_page(PAGE)


def test_default_page_renders_five_figures_without_error(default_page):
    at = default_page
    assert not at.error, [e.value for e in at.error]
    assert not at.warning, [w.value for w in at.warning]
    assert len(figures(at)) == 5


# ---------------------------------------------------------------- 1 · K(x, z) = φ(x)·φ(z)

@pytest.mark.parametrize("name", list(FEATURE_MAPS))
def test_printed_inner_product_and_kernel_are_the_cores_for_every_map(name):
    at = open_page(PAGE, widgets={"fm_map": name})
    fm = FEATURE_MAPS[name]
    dim = fm.input_dim
    s = at.session_state
    # a 1-D map draws only x₁ and z₁: x₂ and z₂ are not in the session then
    x = np.array([[s[k] for k in ("fm_x1", "fm_x2")[:dim]]])
    z = np.array([[s[k] for k in ("fm_z1", "fm_z2")[:dim]]])
    dot, K = fm.explicit_kernel(x, z)[0, 0], fm.kernel(x, z)[0, 0]
    shown_dot, shown_K, shown_diff = shown_numbers(at)
    np.testing.assert_allclose([shown_dot, shown_K], [dot, K], rtol=1e-15)
    assert_printed(shown_diff, dot - K, atol=1e-15 * max(1.0, abs(K)))
    assert abs(shown_diff) <= 1e-14 * max(1.0, abs(K))
    df = table(at, "φₖ")
    assert list(df["φₖ"]) == list(fm.feature_labels)
    np.testing.assert_array_equal(df["φₖ(x)"], fm.phi(x)[0])
    np.testing.assert_array_equal(df["φₖ(z)"], fm.phi(z)[0])


def test_homogeneous_degree_two_map_keeps_the_sqrt2_and_gives_dot_squared(default_page):
    at = default_page
    s = at.session_state
    x1, x2, z1, z2 = s["fm_x1"], s["fm_x2"], s["fm_z1"], s["fm_z2"]
    df = table(at, "φₖ")
    np.testing.assert_allclose(df["φₖ(x)"], [x1**2, math.sqrt(2) * x1 * x2, x2**2], rtol=1e-15)
    np.testing.assert_allclose(df["φₖ(x)·φₖ(z)"].sum(), (x1 * z1 + x2 * z2) ** 2, rtol=1e-14)


def test_two_data_points_are_picked_from_the_sidebar_data():
    at = open_page(PAGE, widgets={"fm_source": "data", "fm_i": 3, "fm_j": 107})
    X, _ = page_data(at)
    fm = FEATURE_MAPS[at.session_state["fm_map"]]
    x, z = X[[3]], X[[107 % len(X)]]
    np.testing.assert_array_equal(table(at, "φₖ")["φₖ(z)"], fm.phi(z)[0])
    np.testing.assert_allclose(shown_numbers(at)[0], fm.explicit_kernel(x, z)[0, 0], rtol=1e-15)


def test_one_dimensional_map_takes_its_data_points_from_the_house_prices():
    at = open_page(PAGE, widgets={"fm_map": "cubic_1d", "fm_source": "data", "fm_i": 2, "fm_j": 5})
    x, _ = house(at)
    np.testing.assert_array_equal(table(at, "φₖ")["φₖ(x)"], CUBIC.phi(x[[2]])[0])
    np.testing.assert_allclose(shown_numbers(at)[1], CUBIC.kernel(x[[2]], x[[5]])[0, 0], rtol=1e-15)


# ---------------------------------------------------------------- 2 · cost

@pytest.mark.parametrize("d, p", [(1, 1), (2, 3), (50, 12)])
def test_cost_table_is_the_cores_operation_count_and_dimension_is_the_binomial(d, p):
    at = open_page(PAGE, widgets={"fm_d": d, "fm_p": p})
    c = operation_counts(d, p)
    df = table(at, "per K(x, z)")
    assert list(df["explicit"]) == [c.explicit_mults, c.explicit_adds, c.explicit_total]
    assert list(df["kernel"]) == [c.kernel_mults, c.kernel_adds, c.kernel_total]
    assert metrics(at)["dim φ = C(d+p, p)"] == f"{math.comb(d + p, p):,}"


def test_cost_sliders_at_their_extremes_redraw_the_cost_figure():
    low = figure(open_page(PAGE, widgets={"fm_d": 1, "fm_p": 1}), "fm_cost")
    high = figure(open_page(PAGE, widgets={"fm_d": 50, "fm_p": 12}), "fm_cost")
    assert low != high
    explicit = decode(json.loads(high)["data"][0]["y"])
    assert int(explicit[-1]) == operation_counts(50, 12).explicit_total


# ---------------------------------------------------------------- 3 · the Gaussian's Taylor map

def test_taylor_error_shown_is_the_cores_and_many_terms_reach_round_off():
    few = open_page(PAGE, widgets={"fm_m": 1})
    many = open_page(PAGE, widgets={"fm_m": 40})
    for at in (few, many):
        s = at.session_state
        xs = np.linspace(-3.0, 3.0, 241)
        error = gaussian_taylor_error(xs, np.array([s["fm_z"]]), gamma=s["fm_gamma"], n_terms=s["fm_m"])
        (value,) = [v for k, v in metrics(at).items() if k.startswith("max error over x")]
        assert_printed(value, error, atol=1e-15)
    assert float(metrics(few)[next(k for k in metrics(few) if k.startswith("max error"))]) > 0.1
    assert float(metrics(many)[next(k for k in metrics(many) if k.startswith("max error"))]) < 1e-12
    assert figure(few, "fm_taylor") != figure(many, "fm_taylor")


def test_taylor_gamma_and_z_sliders_at_their_extremes_redraw():
    for key, low, high in (("fm_gamma", 0.01, 100.0), ("fm_z", -2.0, 2.0)):
        a, b = open_page(PAGE, widgets={key: low}), open_page(PAGE, widgets={key: high})
        assert not a.exception and not b.exception
        assert figure(a, "fm_taylor") != figure(b, "fm_taylor")


# ---------------------------------------------------------------- 4 · cubic fit on θ and on β

def core_cubic(at):
    s = at.session_state
    x, y = house(at)
    stochastic = s["fm_mode"] == "stochastic"
    eta = s["fm_eta"] * max_stable_eta(CUBIC.kernel(x), stochastic=stochastic)
    grid = make_grid_1d(x, n=200)
    lms = LMS(eta=eta, n_iter=s["fm_T"], stochastic=stochastic, random_state=s["seed"]).fit(CUBIC.phi(x), y)
    klms = KernelLMS(CUBIC.kernel, eta=eta, n_iter=s["fm_T"], stochastic=stochastic,
                     random_state=s["seed"]).fit(x, y)
    return lms, klms, np.max(np.abs(lms.predict(CUBIC.phi(grid.points)) - klms.predict(grid.points)))


@pytest.mark.parametrize("mode", ["batch", "stochastic"])
def test_printed_gap_between_theta_and_beta_runs_is_the_cores_and_tiny(mode):
    at = open_page(PAGE, widgets={"fm_mode": mode, "fm_T": 500})
    lms, klms, gap = core_cubic(at)
    printed = metrics(at)["max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"]
    assert_printed(printed, gap, atol=1e-13)
    assert float(printed) < 1e-10
    assert metrics(at)["loss after T steps"] == f"{lms.history_['loss'][-1]:.6g}"
    np.testing.assert_allclose(table(at, "xⱼ")["βⱼ"], klms.beta_, rtol=1e-12, atol=1e-14)


def test_cubic_fit_after_many_steps_matches_least_squares_on_the_features():
    at = open_page(PAGE, widgets={"fm_T": 2000})
    lms, _, _ = core_cubic(at)
    x, y = house(at)
    theta, *_ = np.linalg.lstsq(CUBIC.phi(x), y, rcond=None)
    np.testing.assert_allclose(lms.theta_, theta, rtol=1e-6)


@pytest.mark.parametrize("ratio", [1.05, 2.0, 10.0])
def test_a_step_above_the_stable_limit_shows_the_loss_growing_until_the_run_stops(ratio):
    at = open_page(PAGE, widgets={"fm_eta": ratio, "fm_T": 2000})
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("diverged" in w.value and "stopped there" in w.value for w in at.warning)
    for trace in chart(at, "fm_cubic_loss")["data"]:
        loss = decode(trace["y"])
        assert np.all(np.isfinite(loss)) and loss[-1] > 1e3 * loss[0]


def test_step_just_above_the_stable_limit_warns_before_the_run_blows_up():
    at = open_page(PAGE, widgets={"fm_eta": 1.05, "fm_T": 50})
    assert not at.error, [e.value for e in at.error]
    assert any("above the stable limit" in w.value for w in at.warning)
    lms, _, _ = core_cubic(at)
    assert lms.history_["loss"][-1] > lms.history_["loss"][0]


def test_cubic_sliders_at_their_extremes_redraw():
    low = open_page(PAGE, widgets={"fm_T": 1, "fm_eta": 0.01})
    high = open_page(PAGE, widgets={"fm_T": 2000, "fm_eta": 0.95})
    assert figure(low, "fm_cubic") != figure(high, "fm_cubic")
    assert figure(low, "fm_cubic_loss") != figure(high, "fm_cubic_loss")


# ---------------------------------------------------------------- figure builders

def test_cost_figure_keeps_large_counts_exact_on_a_log_axis():
    big = operation_counts(50, 12).explicit_total
    fig = cost_figure([1, 2], [51, 1326], [200, big], [100, 101], current=2, n_features=50)
    assert fig.layout.yaxis.type == "log"
    assert int(fig.data[0].y[-1]) == big


def test_taylor_figures_are_identical_for_identical_inputs_and_fit_the_budget():
    x = np.linspace(-3, 3, 241)
    a = taylor_figure(x, np.exp(-x**2), np.exp(-x**2) * 0.9, 1.0, 4).to_json()
    b = taylor_figure(x, np.exp(-x**2), np.exp(-x**2) * 0.9, 1.0, 4).to_json()
    assert a == b and len(a) < 150_000
    err = taylor_error_figure(np.arange(1, 41), np.logspace(0, -16, 40), current=4)
    assert err.layout.yaxis.type == "log"


def test_log_axes_label_at_most_eight_decades():
    from figures import MAX_LOG_TICKS
    from figures.feature_maps import cost_figure, taylor_error_figure
    wide = taylor_error_figure(np.arange(1, 41), np.logspace(0, -16, 40))       # 16 decades: every 2nd
    narrow = cost_figure(np.arange(1, 13), np.arange(1, 13), 10 * np.arange(1, 13), np.arange(1, 13))
    assert wide.layout.yaxis.dtick == 2 and narrow.layout.yaxis.dtick == 1
    assert 16 / wide.layout.yaxis.dtick <= MAX_LOG_TICKS


def test_a_log_axis_over_less_than_two_decades_labels_its_1s_2s_and_5s_as_numbers():
    from figures.regression import history_figure
    loss = history_figure(np.arange(100), {"loss": (np.linspace(60.0, 8.0, 100), None)}, ytitle="J")
    assert list(loss.layout.yaxis.tickvals) == [1, 2, 5, 10, 20, 50, 100, 200, 500]
    assert list(loss.layout.yaxis.ticktext) == ["1", "2", "5", "10", "20", "50", "100", "200", "500"]
