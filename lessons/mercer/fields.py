"""Lesson 5's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from kernel_core.formula import MAX_LENGTH as FORMULA_MAX_LENGTH
from lab.state import C_VALUES, GAMMA_VALUES, Field, choice, kernel_fields, number

PAGE = "mercer"

# the base kernels as the closure rules once showed them: older links stored these labels
BASE_LEGACY = {"x·z": "linear", "(x·z + 1)²": "poly", "exp(−‖x − z‖²)": "rbf", "exp(−‖x − z‖₁)": "laplacian"}



def _fields():
    page = PAGE
    yield from kernel_fields("mc", page)
    yield choice("mc_rule", page, ("sum", "product", "scale", "polynomial", "exp", "warp"), "sum",
                 {"K1(x, z) + K2(x, z)": "sum", "K1(x, z) K2(x, z)": "product", "c K(x, z), c > 0": "scale",
                  "g(K(x, z)), g with coefficients ≥ 0": "polynomial", "exp(K(x, z))": "exp",
                  "f(x) K(x, z) f(z)": "warp"})
    yield choice("mc_k1", page, ("linear", "poly", "rbf", "laplacian"), "rbf",
                 BASE_LEGACY)
    yield choice("mc_k2", page, ("linear", "poly", "rbf", "laplacian"), "linear",
                 BASE_LEGACY)
    yield number("mc_c", page, -3.0, 3.0, 2.0)
    for p, default in enumerate((1.0, 1.0, 0.5)):
        yield number(f"mc_a{p}", page, -3.0, 3.0, default)
    yield choice("mc_warp", page, ("bump", "first", "affine"), "bump",
                 {"f(x) = exp(−‖x‖²)": "bump", "f(x) = x₁": "first", "f(x) = 1 + x₂": "affine"})
    yield choice("mc_invalid", page, ("negative squared distance", "distance", "flipped Gaussian", "shifted linear",
                                      "sigmoid (γ = 0.5, coef0 = 1)"), "negative squared distance")
    yield Field("mc_formula", page, "text", "exp(-g * norm(x - z)**2)", hi=FORMULA_MAX_LENGTH)
    yield choice("mc_g", page, GAMMA_VALUES, 1.0)
    yield number("mc_r", page, -2.0, 2.0, 1.0)
    yield number("mc_d", page, 1, 10, 2, "int")
    yield choice("mc_C", page, C_VALUES, 1.0)


FIELDS = tuple(_fields())
