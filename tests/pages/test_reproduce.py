"""Reproduce in Python (lab/reproduce.py): each lesson's page, opened at a few settings (defaults, others, the
student's own points), offers a script; the script's *text*, as the page shows it, runs in a fresh Python
process and prints the numbers the page shows: the same strings where it runs the lab's kernel_core, the same
values within the solvers' tolerance where it runs scikit-learn."""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from lessons.regression.compute import GAP
from pageutil import ROOT, metrics, open_page, table

OWN = ((0.5, 0.25, 1), (-1.5, 1.75, -1), (2.0, -0.5, 1), (0.0, 0.0, -1))


def script(at):
    """The one reproduce script shown on the page."""
    found = [c.value for c in at.code if c.value.startswith("# Kernel Lab")]
    assert len(found) == 1, len(found)
    return found[0]


def run(code):
    """label → printed value of the script as a student runs it: saved to a file outside the checkout and run as
    `python file.py` from the checkout's root, in a fresh interpreter with no PYTHONPATH."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    with tempfile.TemporaryDirectory() as folder:
        saved = Path(folder) / "reproduce.py"
        saved.write_text(code, encoding="utf-8")
        done = subprocess.run([sys.executable, str(saved)], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = dict(line.split(": ", 1) for line in done.stdout.splitlines())
    assert out, done.stdout
    return out


def number(text):
    return float(re.sub(r"[%×,]", "", text.split(" / ")[0]))


def same_shown(shown, printed, labels):
    """The page's metric strings, printed identically (both computed by kernel_core)."""
    for label in labels:
        assert printed[label] == shown[label], (label, printed[label], shown[label])


def vector(text):
    return np.array([float(v) for v in text.strip("()").split(",")])


def test_circle_lift_script_prints_the_page_numbers_at_defaults_and_with_sklearn():
    at = open_page("lessons/circle/page.py", state={"cl_reproduce": True})
    printed = run(script(at))
    same_shown(metrics(at), printed, ["training errors, notes' plane", "training errors, max-margin plane",
                                      "margin 1/‖w‖ (lifted space)", "Σξᵢ (total slack)"])
    numbers = " ".join(m.value for m in at.markdown)
    assert f"max-margin plane: w = {printed['w']}, b = {printed['b']}" in numbers
    assert f"½‖w‖² + CΣξᵢ = {printed['primal objective ½‖w‖² + CΣξᵢ']}" in numbers
    assert f"points on or inside the margin: {printed['points on or inside the margin']}" in numbers
    # scikit-learn's LinearSVC (hinge, no intercept) solves the same problem
    np.testing.assert_allclose(vector(printed["w (scikit-learn)"]), vector(printed["w"]), atol=2e-6)


@pytest.mark.parametrize("widgets", [{"cl_lift": "paraboloid", "cl_C": 1000.0}, {"cl_data": "sidebar", "cl_C": 0.1}])
def test_circle_lift_script_follows_other_settings_and_own_points(widgets):
    at = open_page("lessons/circle/page.py", sidebar={"dataset": "moons", "n": 60},
                   state={"cl_reproduce": True, "user_points": OWN}, widgets=widgets)
    code = script(at)
    assert repr(-1.5) in code and repr(1.75) in code   # the student's own points travel in the script
    printed = run(code)
    same_shown(metrics(at), printed, ["training errors, notes' plane", "training errors, max-margin plane",
                                      "margin 1/‖w‖ (lifted space)", "Σξᵢ (total slack)"])
    assert abs(number(printed["margin 1/‖w‖ (scikit-learn)"]) - number(metrics(at)["margin 1/‖w‖ (lifted space)"])) \
        <= 2e-4
    assert abs(number(printed["b (scikit-learn)"]) - number(printed["b"])) <= 1e-3


def shown_markdown_number(at, prefix):
    """The number in backticks after `prefix` in the page's markdown (lesson 1's check)."""
    text = " ".join(m.value for m in at.markdown)
    return float(re.search(re.escape(prefix) + r"[^`]*`([^`]+)`", text)[1])


@pytest.mark.parametrize("widgets", [{}, {"fm_map": "poly2_full", "fm_x1": -2.5, "fm_z2": 3.0},
                                     {"fm_map": "circle"}, {"fm_map": "paraboloid"}, {"fm_map": "cubic_1d"}])
def test_feature_check_script_prints_the_same_inner_products(widgets):
    at = open_page("lessons/feature_maps/page.py", state={"fm_check_reproduce": True}, widgets=widgets)
    printed = run(script(at))
    for label, prefix in (("φ(x)·φ(z)", "φ(x)·φ(z), the sum"), ("K(x, z)", "K(x, z), the kernel formula")):
        np.testing.assert_allclose(float(printed[label]), shown_markdown_number(at, prefix), rtol=1e-12)


@pytest.mark.parametrize("widgets", [{}, {"fm_m": 12, "fm_gamma": 3.16, "fm_z": -1.5}])
def test_taylor_script_prints_the_shown_error_with_sklearn_rbf(widgets):
    at = open_page("lessons/feature_maps/page.py", state={"fm_taylor_reproduce": True}, widgets=widgets)
    printed = run(script(at))
    (label, value), = ((k, v) for k, v in metrics(at).items() if k.startswith("max error over x"))
    assert float(printed[label]) == pytest.approx(float(value), rel=6e-3)


@pytest.mark.parametrize("sidebar,widgets", [({}, {}), ({"seed": 7}, {"fm_eta": 0.2, "fm_T": 700,
                                                                      "fm_mode": "stochastic"})])
def test_cubic_script_prints_the_page_numbers(sidebar, widgets):
    at = open_page("lessons/feature_maps/page.py", sidebar=sidebar, state={"fm_cubic_reproduce": True}, widgets=widgets)
    printed = run(script(at))
    same_shown(metrics(at), printed, ["η used", "loss after T steps",
                                      "max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"])


def primal_dual_rows(at):
    rows = table(at, "quantity")
    return {q: (p, d) for q, p, d in zip(*(rows[c] for c in rows.columns))}


@pytest.mark.parametrize("sidebar,widgets", [
    ({}, {}),
    ({"dataset": "moons", "n": 60, "seed": 3}, {"pd_space": "kernel", "pd_C": 10.0}),
    ({"dataset": "xor", "n": 40}, {"pd_space": "linear", "pd_offset": False}),
    ({"dataset": "lfd_toy"}, {"pd_space": "linear", "pd_hard": True}),
])
def test_primal_dual_script_prints_the_page_numbers(sidebar, widgets):
    at = open_page("lessons/primal_dual/page.py", sidebar=sidebar, state={"pd_reproduce": True, "user_points": OWN[:2]},
                   widgets=widgets)
    printed = run(script(at))
    shown = metrics(at)
    same_shown(shown, printed, ["support vectors", "E_cv ≤ #SV/N", "train / test accuracy", "duality gap"])
    numbers = " ".join(m.value for m in at.markdown)
    assert f"Largest KKT violation of the dual: {printed['largest KKT violation of the dual']} " in numbers
    if "total slack Σξᵢ of the primal" in printed:
        assert f"Total slack Σξᵢ of the primal: {printed['total slack Σξᵢ of the primal']}." in numbers
    if shown["margin 1/‖w‖"] != "—":
        assert printed["margin 1/‖w‖"] == shown["margin 1/‖w‖"]
    # the KKT table's α, point by point (shown to six decimals)
    np.testing.assert_allclose(vector(printed["α (dual)"]), table(at, "KKT violation")["α"], atol=1e-6)
    rows = primal_dual_rows(at)
    assert printed["b (dual)"] == rows["b"][1] and printed["objective (dual)"] == rows["objective"][1]
    if "w (primal)" in printed:
        assert (printed["w (primal)"], printed["b (primal)"], printed["objective (primal)"]) == \
            (rows["w"][0], rows["b"][0], rows["objective"][0])
        assert printed["w (dual)"] == rows["w"][1]
    if "b (scikit-learn)" in printed:   # libsvm on the same problem (with the offset only)
        assert abs(number(printed["b (scikit-learn)"]) - number(rows["b"][1])) <= 1e-4
        assert number(printed["objective (scikit-learn)"]) == pytest.approx(number(rows["objective"][1]), rel=1e-5)
        scale = max(1.0, float(np.max(vector(printed["α (dual)"]))))
        np.testing.assert_allclose(vector(printed["α (scikit-learn)"]), vector(printed["α (dual)"]), atol=1e-4 * scale)


PEGASOS_LABELS = ["objective at α̂ (t = T)", "objective at αᵀ", "exact optimum (SVM dual)", "α̂ above the optimum by",
                  "training error of α̂", "total mistakes Σ αᵢ", "training error"]


@pytest.mark.parametrize("sidebar,widgets", [({}, {}), ({"dataset": "moons", "n": 50},
                                                        {"pg_kernel": "poly", "pg_lam": 0.1, "pg_T": 700,
                                                         "pg_seed": 5, "pg_epochs": 7}),
                                             ({"dataset": "xor", "n": 30}, {"pg_kernel": "sigmoid"})])
def test_pegasos_script_prints_the_page_numbers(sidebar, widgets):
    at = open_page("lessons/pegasos/page.py", sidebar=sidebar, state={"pg_reproduce": True, "user_points": OWN},
                   widgets=widgets)
    printed = run(script(at))
    shown = {k: str(v) for k, v in metrics(at).items()}
    # where K is not PSD the page shows no optimum ("—"); the script says so in a comment and prints the dual's
    same_shown(shown, printed, [label for label in PEGASOS_LABELS if shown[label] != "—"])
    assert len([label for label in PEGASOS_LABELS if shown[label] != "—"]) >= 5


@pytest.mark.parametrize("widgets", [{}, {"mc_kernel": "sigmoid", "mc_gamma": 3.16}, {"mc_kernel": "exponential"}])
def test_mercer_gram_script_prints_the_spectrum(widgets):
    at = open_page("lessons/mercer/page.py", state={"mc_gram_reproduce": True}, widgets=widgets)
    assert_same_spectrum(metrics(at), run(script(at)))


def test_mercer_formula_script_parses_the_text_and_fits_sklearn():
    at = open_page("lessons/mercer/page.py", state={"mc_tab": "Your formula", "mc_formula_reproduce": True,
                                                 "mc_formula": "(dot(x, z) + r)**d"}, widgets={"mc_C": 10.0})
    code = script(at)
    assert "parse_kernel('(dot(x, z) + r)**d', d=2.0, g=1.0, r=1.0)" in code
    printed = run(code)
    shown = metrics(at)
    assert_same_spectrum(shown, printed)
    assert abs(int(printed["support vectors (scikit-learn)"]) - int(shown["support vectors"])) <= 2
    assert number(printed["b (intercept) (scikit-learn)"]) == pytest.approx(number(shown["b (intercept)"]), abs=1e-3)
    # libsvm stops at its own tolerance: the script says to expect about five significant digits
    assert number(printed["dual objective Σα − ½αᵀGα (scikit-learn)"]) == \
        pytest.approx(number(shown["dual objective Σα − ½αᵀGα"]), rel=1e-4)


@pytest.mark.parametrize("widgets", [{}, {"rg_kernel": "laplacian", "rg_lam": 0.001, "rg_n": 25}])
def test_ridge_script_matches_sklearn_kernel_ridge(widgets):
    at = open_page("lessons/regression/page.py", state={"rg_ridge_reproduce": True}, widgets=widgets)
    printed = run(script(at))
    shown = metrics(at)
    for label in ("training RMSE", "largest |βⱼ|", "Σⱼ βⱼ"):
        assert number(printed[label]) == pytest.approx(number(shown[label]), rel=1e-3, abs=1e-4)


@pytest.mark.parametrize("widgets", [{}, {"rg_kernel": "poly", "rg_eta": 0.2, "rg_T": 900, "rg_mode": "stochastic"}])
def test_descent_script_prints_the_page_numbers(widgets):
    at = open_page("lessons/regression/page.py", state={"rg_descent_reproduce": True}, widgets=widgets)
    printed = run(script(at))
    shown = metrics(at)
    assert GAP in shown   # both settings have a finite φ: the page compares the θ and β routes
    same_shown(shown, printed, ["η used", "loss after T steps", GAP])


@pytest.mark.parametrize("sidebar,widgets", [({}, {}), ({"dataset": "xor", "n": 80},
                                                        {"rgl_kernel": "laplacian", "rgl_lam": 0.1, "rgl_T": 120})])
def test_logistic_script_prints_the_page_numbers(sidebar, widgets):
    at = open_page("lessons/regression/page.py", sidebar=sidebar, state={"rgl_reproduce": True, "user_points": OWN},
                   widgets=widgets)
    printed = run(script(at))
    same_shown(metrics(at), printed, ["training accuracy", "J(β) after T steps"])


@pytest.mark.parametrize("widgets", [{}, {"fm_d": 7, "fm_p": 9}])
def test_cost_script_prints_the_dimension_and_the_ratio(widgets):
    at = open_page("lessons/feature_maps/page.py", state={"fm_cost_reproduce": True}, widgets=widgets)
    same_shown(metrics(at), run(script(at)), ["dim φ = C(d+p, p)", "explicit / kernel"])


def assert_same_spectrum(shown, printed):
    assert printed["negative eigenvalues"] == str(shown["negative eigenvalues"])
    top = abs(number(shown["λ_max"]))
    assert number(printed["λ_max"]) == pytest.approx(number(shown["λ_max"]), rel=1e-5)
    assert abs(number(printed["λ_min"]) - number(shown["λ_min"])) <= 1e-5 * max(abs(number(shown["λ_min"])), 1e-4 * top)


@pytest.mark.parametrize("widgets", [{}, {"mc_rule": "product", "mc_k1": "poly", "mc_k2": "laplacian"},
                                     {"mc_rule": "polynomial", "mc_a0": 0.5, "mc_a2": 2.0},
                                     {"mc_rule": "warp", "mc_warp": "first"}, {"mc_rule": "scale", "mc_c": 2.5},
                                     {"mc_rule": "exp", "mc_k1": "rbf"}])
def test_closure_rule_script_prints_the_spectrum(widgets):
    at = open_page("lessons/mercer/page.py", state={"mc_tab": "Closure rules", "mc_rule_reproduce": True},
                   widgets=widgets)
    assert_same_spectrum(metrics(at), run(script(at)))


@pytest.mark.parametrize("name", ["negative squared distance", "flipped Gaussian", "sigmoid (γ = 0.5, coef0 = 1)"])
def test_invalid_kernel_script_prints_the_spectrum(name):
    at = open_page("lessons/mercer/page.py", state={"mc_tab": "Kernels that fail", "mc_invalid_reproduce": True},
                   widgets={"mc_invalid": name})
    assert_same_spectrum(metrics(at), run(script(at)))


def test_a_typed_formula_travels_as_one_string_literal_never_as_code():
    import ast

    import datasets
    from lessons.mercer import reproduce

    X, y = datasets.DATASETS["lfd_toy"](4)
    hostile = "x')\nimport os; os.system('echo pwned')  # \"\"\" '''"
    code = reproduce.mercer_formula("", X, y, X, y, hostile, (("d", 2.0), ("g", 1.0), ("r", 1.0)), 1.0)
    tree = ast.parse(code)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "parse_kernel"]
    assert len(calls) == 1 and isinstance(calls[0].args[0], ast.Constant) and calls[0].args[0].value == hostile
    # the script's own `import os` (for the checkout's path) is its only one, and nothing calls os.system
    assert len([n for n in ast.walk(tree) if isinstance(n, ast.Import) and n.names[0].name == "os"]) == 1
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "os.system"]
