"""Lesson 5 (Mercer) under AppTest: the verdict and numbers on the page are check_psd's on the same Gram
matrix, the closure rules hold or are refused, hostile formulas are refused without an exception, and a
valid formula trains an SVM that agrees with scikit-learn's."""

import json

import numpy as np
import pytest
from sklearn.svm import SVC

from figures.boundary import GRID_POINTS
from kernel_core.formula import parse_kernel
from kernel_core.grid import make_grid
from kernel_core.kernels import rbf_kernel, sigmoid_kernel
from kernel_core.mercer import CLOSURE_RULES, INVALID_KERNELS, check_psd, kernel_polynomial, kernel_scale
from lessons.mercer.compute import Rule, analyze_rule
from pageutil import (assert_extremes_change_the_page, chart, chart_elements, decode, default_data, figures, metrics,
                      open_page)

PAGE = "lessons/mercer/page.py"
HOSTILE = "__import__('os').system('echo hi')"


def points():
    """The sidebar's default circles (n=100 ≤ 150, so no subsample), class −1 first as the page orders them."""
    X, y = default_data()
    order = np.argsort(y, kind="stable")
    return X, y, X[order], y[order]


def assert_numbers_are(at, check):
    m = metrics(at)
    assert m["λ_min"] == f"{check.min_eigenvalue:.6g}"
    assert m["λ_max"] == f"{check.eigenvalues[-1]:.6g}"
    assert m["negative eigenvalues"] == str(check.n_negative)
    expected_q = "—" if check.quadratic_form is None else f"{check.quadratic_form:.6g}"
    assert m["cᵀKc"] == expected_q


def test_rbf_gram_passes_and_the_page_shows_check_psds_numbers():
    at = open_page(PAGE)
    assert not at.error, [e.value for e in at.error]
    _, _, Xs, _ = points()
    check = check_psd(rbf_kernel(Xs, gamma=1.0))
    assert check.is_psd
    assert_numbers_are(at, check)
    assert any("passes on these points" in s.value for s in at.success)
    np.testing.assert_allclose(decode(chart(at, "mc_gram")["data"][0]["z"]), rbf_kernel(Xs, gamma=1.0), rtol=1e-6)


def test_sigmoid_gram_fails_with_a_certificate_whose_quadratic_form_is_negative():
    at = open_page(PAGE)
    at.selectbox(key="mc_kernel").set_value("sigmoid").run()
    assert not at.exception
    _, _, Xs, _ = points()
    K = sigmoid_kernel(Xs, gamma=1.0, coef0=1.0)
    check = check_psd(K)
    assert not check.is_psd and check.quadratic_form < 0
    assert_numbers_are(at, check)
    # an independent oracle for the smallest eigenvalue
    np.testing.assert_allclose(float(metrics(at)["λ_min"]), np.linalg.eigvalsh(K)[0], rtol=1e-5)
    assert any("is not a kernel" in w.value for w in at.warning)
    assert len([c for c in chart_elements(at) if "mc_certificate" in c.proto.id]) == 1


def test_gram_payload_stays_under_150kb_with_the_largest_dataset():
    at = open_page(PAGE)
    at.session_state["n"] = 500  # the sidebar's n slider, at its maximum
    at.run()
    assert not at.exception
    spec = chart(at, "mc_gram")
    assert decode(spec["data"][0]["z"]).shape == (150, 150)
    assert len(json.dumps(spec)) <= 150_000


@pytest.mark.parametrize("rule", list(CLOSURE_RULES))
def test_every_closure_rule_gives_a_psd_gram_matrix_on_the_points(rule):
    at = open_page(PAGE, state={"mc_tab": "Closure rules"})
    at.selectbox(key="mc_rule").set_value(rule).run()
    assert not at.exception
    assert not at.error, [e.value for e in at.error]
    assert any("passes on these points" in s.value for s in at.success)
    assert metrics(at)["cᵀKc"] == "—"


def test_positive_scale_shows_the_numbers_of_c_times_K():
    at = open_page(PAGE, state={"mc_tab": "Closure rules"})
    at.selectbox(key="mc_rule").set_value("scale").run()
    at.slider(key="mc_c").set_value(3.0).run()
    _, _, Xs, _ = points()
    assert_numbers_are(at, check_psd(3.0 * rbf_kernel(Xs, gamma=1.0)))


def test_negative_scale_is_refused_with_the_cores_message_and_shown_failing():
    at = open_page(PAGE, state={"mc_tab": "Closure rules"})
    at.selectbox(key="mc_rule").set_value("scale").run()
    at.slider(key="mc_c").set_value(-2.0).run()
    assert not at.exception
    with pytest.raises(ValueError) as refused:
        kernel_scale("rbf", -2.0)
    assert [e.value for e in at.error] == [str(refused.value)]
    _, _, Xs, _ = points()
    check = check_psd(-2.0 * rbf_kernel(Xs, gamma=1.0))
    assert check.quadratic_form < 0
    assert_numbers_are(at, check)


def test_negative_polynomial_coefficient_is_refused_with_the_cores_message():
    at = open_page(PAGE, state={"mc_tab": "Closure rules"})
    at.selectbox(key="mc_rule").set_value("polynomial").run()
    at.number_input(key="mc_a1").set_value(-1.0).run()
    assert not at.exception
    with pytest.raises(ValueError) as refused:
        kernel_polynomial("rbf", (1.0, -1.0, 0.5))
    assert [e.value for e in at.error] == [str(refused.value)]


@pytest.mark.parametrize("name", list(INVALID_KERNELS))
def test_each_invalid_kernel_shows_check_psds_verdict_and_numbers(name):
    at = open_page(PAGE, state={"mc_tab": "Kernels that fail"})
    at.selectbox(key="mc_invalid").set_value(name).run()
    assert not at.exception
    _, _, Xs, _ = points()
    check = check_psd(INVALID_KERNELS[name].kernel(Xs))
    assert_numbers_are(at, check)
    assert any("is not a kernel" in w.value for w in at.warning) == (not check.is_psd)


def test_try_button_moves_an_invalid_formula_into_the_formula_box():
    at = open_page(PAGE, state={"mc_tab": "Kernels that fail"})
    at.button(key="mc_try").click().run()
    assert not at.exception
    assert at.text_input(key="mc_formula").value == INVALID_KERNELS["negative squared distance"].formula
    assert any("is not a kernel" in w.value for w in at.warning)
    assert any("No SVM for this formula" in i.value for i in at.info)


def test_hostile_formula_shows_the_parsers_error_and_no_exception():
    at = open_page(PAGE, state={"mc_tab": "Your formula"})
    at.text_input(key="mc_formula").set_value(HOSTILE).run()
    assert not at.exception
    with pytest.raises(ValueError) as refused:
        parse_kernel(HOSTILE, d=2.0, g=1.0, r=1.0)
    assert [e.value for e in at.error] == [str(refused.value)]
    assert not figures(at)


def test_gaussian_formula_trains_an_svm_that_agrees_with_scikit_learn():
    at = open_page(PAGE, state={"mc_tab": "Your formula"})
    assert not at.error, [e.value for e in at.error]
    X, y, Xs, _ = points()
    assert_numbers_are(at, check_psd(parse_kernel("exp(-g * norm(x - z)**2)", g=1.0)(Xs)))
    oracle = SVC(kernel="rbf", gamma=1.0, C=1.0).fit(X, y)
    assert metrics(at)["support vectors"] == str(int(oracle.n_support_.sum()))
    grid = make_grid(X, n=GRID_POINTS)
    Z = decode(chart(at, "mc_svm")["data"][0]["z"]).ravel()
    np.testing.assert_allclose(Z, oracle.decision_function(grid.points), atol=1e-2)


def test_example_button_fills_the_box_and_the_polynomial_kernel_passes():
    at = open_page(PAGE, state={"mc_tab": "Your formula"})
    at.button(key="mc_example_polynomial").click().run()
    assert not at.exception
    assert at.text_input(key="mc_formula").value == "(dot(x, z) + r)**d"
    _, _, Xs, _ = points()
    assert_numbers_are(at, check_psd((Xs @ Xs.T + 1.0) ** 2))


@pytest.mark.parametrize(("key", "low", "high"), [
    ("mc_g", 0.01, 100.0), ("mc_r", -2.0, 2.0), ("mc_d", 1, 10), ("mc_C", 0.01, 1000.0),
])
def test_formula_controls_at_both_extremes_redraw_without_exception(key, low, high):
    at = open_page(PAGE, state={"mc_tab": "Your formula"})
    if key in ("mc_r", "mc_d"):
        at.text_input(key="mc_formula").set_value("(dot(x, z) + r)**d").run()
    assert_extremes_change_the_page(at, key, low, high)


def test_scale_rule_result_is_c_times_the_base_gram_with_check_psds_numbers():
    _, _, Xs, _ = points()
    gram = analyze_rule(Xs, Rule("scale", "rbf", c=3.0))
    np.testing.assert_allclose(gram.K, 3.0 * rbf_kernel(Xs, gamma=1.0), rtol=1e-12)
    check = check_psd(gram.K)
    assert gram.is_psd and gram.certificate is None
    assert (gram.min_eigenvalue, gram.max_eigenvalue) == (check.min_eigenvalue, check.eigenvalues[-1])


def test_try_it_in_the_formula_box_puts_the_formula_and_its_tab_in_the_link():
    at = open_page(PAGE, state={"mc_tab": "Kernels that fail"})
    at.button(key="mc_try").click().run()
    assert not at.exception, at.exception
    assert at.query_params["mc_tab"] == "Your formula"
    assert at.query_params["mc_formula"] == at.text_input(key="mc_formula").value == "-norm(x - z)**2"
