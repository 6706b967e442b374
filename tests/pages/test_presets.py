"""The notes' worked examples as one-click presets (lab/presets.py, each lesson's presets.py): each button, clicked
under AppTest, puts its source's numbers on screen, checked against the notes' own numbers or an independent
re-implementation of the notes' algorithm; the preset's link opens the same view."""

import math
import re
from urllib.parse import parse_qsl

import numpy as np
import pytest
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel
from streamlit.testing.v1 import AppTest

import datasets

from lessons import registry
from lessons.feature_maps.compute import TAYLOR_X
from lessons.mercer.compute import gram_points
from lab.state import FIELDS, SIDEBAR, decode, encode
from pageutil import NUMBERS_OPEN, ROOT, chart, decode as decode_array, metrics, open_page, page_data, table

SCRIPTS = {lesson.slug: lesson.script for lesson in registry.LESSONS}
PRESETS = registry.presets()
BY_KEY = {p.key: p for p in PRESETS}


def applied(key):
    """The preset's page opened at its defaults, then the preset's button clicked."""
    preset = BY_KEY[key]
    at = open_page(SCRIPTS[preset.page])
    at.button(key=f"preset_{key}").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    for k, v in preset.values:
        assert at.session_state[k] == v, k
    return at


def markdown(at):
    return "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_every_preset_value_is_one_its_schema_field_allows_on_its_own_page(preset):
    assert preset.page in SCRIPTS
    for key, value in preset.values:
        field = FIELDS[key]
        assert field.page in (preset.page, SIDEBAR), key
        assert decode(field, encode(field, value)) == value, key


def test_every_page_shows_a_button_for_each_of_its_presets():
    for slug, script in SCRIPTS.items():
        at = open_page(script)
        shown = {b.key for b in at.button if b.key and b.key.startswith("preset_")}
        assert shown == {f"preset_{p.key}" for p in PRESETS if p.page == slug}, slug
    assert {p.page for p in PRESETS} == set(SCRIPTS)
    assert all(p.page == lesson.slug for lesson in registry.LESSONS for p in lesson.presets)


def test_gaussian_taylor_preset_shows_exp_minus_x_minus_z_squared_and_its_truncated_series_error():
    at = applied("taylor")
    spec = chart(at, "fm_taylor")
    exact = next(t for t in spec["data"] if t["name"].startswith("exact"))
    x = decode_array(exact["x"]).astype(np.float64)
    np.testing.assert_allclose(decode_array(exact["y"]), np.exp(-(x - 1.0) ** 2), rtol=1e-6, atol=1e-7)
    # LFD slide 16: e^{-(x-x')²} = e^{-x²} e^{-x'²} Σ_i (2xx')^i / i!, here the first m = 4 terms at x' = 1
    partial = np.exp(-TAYLOR_X**2 - 1.0) * sum((2 * TAYLOR_X) ** k / math.factorial(k) for k in range(4))
    error = np.abs(np.exp(-(TAYLOR_X - 1.0) ** 2) - partial).max()
    label = f"max error over x ∈ [{TAYLOR_X[0]:g}, {TAYLOR_X[-1]:g}] with m = 4"
    assert metrics(at)[label] == f"{error:.3e}"


def test_notes_cubic_preset_runs_gradient_descent_on_theta_to_the_curve_of_beta():
    at = applied("cubic_notes")
    x, y = datasets.make_dataset("house_prices", random_state=at.session_state["seed"])
    Phi = x ** np.arange(4)   # the notes' φ(x) = (1, x, x², x³)
    eta = 0.5 * 2.0 / np.linalg.eigvalsh(Phi @ Phi.T)[-1]   # K = ΦΦᵀ = 1 + xx′ + (xx′)² + (xx′)³
    theta = np.zeros(4)
    for _ in range(100):
        theta = theta + eta * Phi.T @ (y - Phi @ theta)
    assert f"θ after T steps: {', '.join(f'θ{s} = {v:.6g}' for s, v in zip('₀₁₂₃', theta))}" in markdown(at)
    shown = metrics(at)
    assert shown["loss after T steps"] == f"{0.5 * np.sum((y - Phi @ theta) ** 2):.6g}"
    assert float(shown["max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"]) < 1e-9


def test_circle_preset_shows_the_notes_plane_minus_one_one_one_with_zero_training_error():
    at = applied("circle")
    shown = metrics(at)
    assert shown["training errors, notes' plane"] == "0 / 100"
    assert "notes' plane: w = (-1.0, 1.0, 1.0), b = 0" in markdown(at)
    X, y = page_data(at)
    # Lecture 8: sign(w·φ(x)) with φ = (1, x₁², x₂²) and w = (−1, 1, 1) is the rule that labelled the data
    assert np.all(np.sign(-1 + X[:, 0] ** 2 + X[:, 1] ** 2) == y)


def test_paraboloid_preset_separates_the_circle_rule_with_the_plane_at_height_one():
    at = applied("paraboloid")
    shown = metrics(at)
    assert shown["training errors, notes' plane"] == "0 / 100"
    assert shown["training errors, max-margin plane"] == "0 / 100"
    assert "notes' plane: w = (0.0, 0.0, 1.0), b = -1" in markdown(at)
    assert "Coordinates of φ: (x₁, x₂, x₁² + x₂²)" in markdown(at)


def test_lfd_preset_shows_alpha_half_half_one_zero_w_one_minus_one_b_minus_one_margin_one_over_root_two():
    at = applied("lfd_toy")
    kkt = table(at, "status")
    assert [f"{a:.6f}" for a in kkt["α"]] == ["0.500000", "0.500000", "1.000000", "0.000000"]
    assert list(kkt["status"]) == ["free SV", "free SV", "free SV", "non-SV"]
    rows = {row["quantity"]: (row.iloc[1], row.iloc[2]) for _, row in table(at, "quantity").iterrows()}
    assert rows["w"] == ("(1.000000, -1.000000)", "(1.000000, -1.000000)")
    assert rows["b"] == ("-1.000000", "-1.000000")
    shown = metrics(at)
    assert shown["margin 1/‖w‖"] == f"{1 / math.sqrt(2):.4f}" == "0.7071"
    assert shown["support vectors"] == "3 / 4"


def algorithm_1(K, y, lam, T, seed):
    """Lecture 8's Algorithm 1 as printed: β¹ = 0; αᵗ = βᵗ/(λt); i ~ Unif[n]; βᵢ += yᵢ when yᵢ Σⱼ αᵗⱼ K(xⱼ, xᵢ) < 1.
    Returns α̂ = (1/T) Σₜ αᵗ, α^T and β^{T+1}. The draws are rng.integers(n), one per step."""
    rng = np.random.default_rng(seed)
    beta, total = np.zeros(y.size), np.zeros(y.size)
    for t in range(1, T + 1):
        alpha = beta / (lam * t)
        total += alpha
        i = rng.integers(y.size)
        if y[i] * (alpha @ K[:, i]) < 1:
            beta[i] += y[i]
    return total / T, alpha, beta


def test_pegasos_preset_shows_algorithm_1_of_lecture_8_step_for_step():
    at = applied("pegasos")
    X, y = page_data(at)
    avg, last, beta = algorithm_1(rbf_kernel(X, gamma=1.0), y, lam=0.1, T=2000, seed=0)
    shown = table(at, "α̂ (average)")
    np.testing.assert_array_equal(shown["βᵀ⁺¹ (after step T)"].to_numpy(), beta.astype(int))
    np.testing.assert_allclose(shown["αᵀ (last)"].to_numpy(), last, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(shown["α̂ (average)"].to_numpy(), avg, rtol=1e-9, atol=1e-12)


def test_perceptron_preset_shows_the_mistake_counts_of_the_slides_loop():
    at = applied("perceptron")
    X, y = page_data(at)
    K = rbf_kernel(X, gamma=1.0)   # the slide's exp(−‖x − x′‖²)
    alpha = np.zeros(y.size, dtype=int)
    for _ in range(50):
        mistakes = 0
        for t in range(y.size):
            if y[t] * np.sum(alpha * y * K[:, t]) <= 0:
                alpha[t] += 1
                mistakes += 1
        if mistakes == 0:
            break
    assert mistakes == 0
    np.testing.assert_array_equal(table(at, "perceptron αᵢ (mistakes)")["perceptron αᵢ (mistakes)"], alpha)
    assert metrics(at)["total mistakes Σ αᵢ"] == str(alpha.sum())
    assert any(s.value.startswith("Converged") for s in at.success)


def test_lfd_kernel_preset_shows_the_spectrum_of_the_second_order_transform():
    at = applied("mercer_lfd")
    X, y = page_data(at)
    Xs, _ = gram_points(X, y)
    # LFD slide 15: (½ + x·x′)² − ¼ = Φ(x)·Φ(x′) with Φ = (x₁, x₂, x₁², √2x₁x₂, x₂²)
    Phi = np.column_stack([Xs[:, 0], Xs[:, 1], Xs[:, 0] ** 2, math.sqrt(2) * Xs[:, 0] * Xs[:, 1], Xs[:, 1] ** 2])
    expected = np.linalg.eigvalsh(Phi @ Phi.T)[::-1]
    positive = next(t for t in chart(at, "mc_formula_spectrum")["data"] if t["name"] == "λ > 0")
    np.testing.assert_allclose(decode_array(positive["customdata"]), expected[:5], rtol=1e-6)
    shown = metrics(at)
    assert shown["negative eigenvalues"] == "0"
    assert shown["λ_max"] == f"{expected[0]:.6g}"
    assert any("passes on these points" in s.value for s in at.success)


def test_cubic_preset_runs_lms_on_theta_and_kernel_lms_on_beta_to_the_same_curve():
    at = applied("cubic")
    s = at.session_state
    x, y = datasets.make_dataset("house_prices", s["rg_n"], random_state=s["seed"])
    K = polynomial_kernel(x, degree=3, gamma=1.0, coef0=1.0)
    eta = 0.5 * 2.0 / np.linalg.eigvalsh(K)[-1]
    Phi = np.column_stack([np.ones(y.size), math.sqrt(3) * x[:, 0], math.sqrt(3) * x[:, 0] ** 2, x[:, 0] ** 3])
    theta = np.zeros(4)
    for _ in range(200):   # batch LMS with features, θ ← θ + η Σᵢ (yᵢ − θᵀφ(xᵢ)) φ(xᵢ)
        theta = theta + eta * Phi.T @ (y - Phi @ theta)
    shown = metrics(at)
    assert shown["loss after T steps"] == f"{0.5 * np.sum((y - Phi @ theta) ** 2):.6g}"
    assert float(shown["max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"]) < 1e-9


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_a_presets_link_opens_the_view_its_button_sets(preset):
    path, _, query = preset.link().partition("?")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(parse_qsl(query))
    for key, value in NUMBERS_OPEN.items():   # as applied() opens the page: with the numbers in view
        at.session_state[key] = value
    at.run()
    at.switch_page(SCRIPTS[path.lstrip("/")])
    at.run()
    assert not at.exception, at.exception
    for k, v in preset.values:
        assert at.session_state[k] == v, k
    clicked = applied(preset.key)
    assert metrics(at) == metrics(clicked)
    assert re.sub(r"\s+", " ", markdown(at)) == re.sub(r"\s+", " ", markdown(clicked))
