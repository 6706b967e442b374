"""Lesson 5's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import functools
import inspect
import warnings

import numpy as np

from figures import boundary, mercer
from kernel_core.formula import parse_kernel
from kernel_core.grid import make_grid
from kernel_core.kernels import make_kernel
from kernel_core.mercer import CLOSURE_RULES, INVALID_KERNELS, check_psd
from kernel_core.svm import DualSVM
from lessons import common

# the Gram matrix of at most this many points is checked and drawn (150² float32 ≈ 120 KB of heatmap)
MAX_POINTS = 150
# base kernels for the closure rules: valid kernels with fixed parameters, so the rule is the only variable
BASE_KERNELS = {
    "linear": ("x·z", dict(kernel="linear")),
    "poly": ("(x·z + 1)²", dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)),
    "rbf": ("exp(−‖x − z‖²)", dict(kernel="rbf", gamma=1.0)),
    "laplacian": ("exp(−‖x − z‖₁)", dict(kernel="laplacian", gamma=1.0)),
}


def _f_bump(X):
    return np.exp(-np.sum(X**2, axis=1))


def _f_first(X):
    return X[:, 0]


def _f_affine(X):
    return 1.0 + X[:, 1]


WARPS = {"bump": ("f(x) = exp(−‖x‖²)", _f_bump), "first": ("f(x) = x₁", _f_first),
         "affine": ("f(x) = 1 + x₂", _f_affine)}
CHECK_PSD_SOURCE = inspect.getsource(check_psd)

# each figure is built once per distinct input (see common.memo)
decision_figure, certificate_figure, gram_heatmap, spectrum_figure = map(
    common.memo(), (boundary.decision_figure, mercer.certificate_figure, mercer.gram_heatmap,
                    mercer.spectrum_figure))


@functools.cache
def rule_source(name):
    """The code of closure rule `name`'s build (read once per rule)."""
    return inspect.getsource(CLOSURE_RULES[name].build)


# ---------------------------------------------------------------- cached core calls

@common.memo(max_entries=32)
def gram_points(X, y):
    """At most MAX_POINTS of the points (a fixed random subset), class −1 first: the heatmap shows two blocks."""
    idx = np.arange(X.shape[0])
    if idx.size > MAX_POINTS:
        idx = np.sort(np.random.default_rng(0).choice(idx, MAX_POINTS, replace=False))
    idx = idx[np.argsort(y[idx], kind="stable")]
    return X[idx], y[idx]


def _report(K):
    check = check_psd(K)
    return {
        "K": K, "is_psd": check.is_psd, "is_symmetric": check.is_symmetric, "eigenvalues": check.eigenvalues,
        "min_eigenvalue": check.min_eigenvalue, "max_eigenvalue": float(check.eigenvalues[-1]),
        "threshold": check.threshold, "n_negative": check.n_negative, "certificate": check.certificate,
        "quadratic_form": check.quadratic_form, "reason": check.reason,
    }


@common.memo(max_entries=32)
def analyze_kernel(Xs, kernel, gamma, degree, coef0):
    """check_psd on the Gram matrix of a registry kernel."""
    return _report(make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)(Xs))


@common.memo(max_entries=32)
def analyze_rule(Xs, rule, k1, k2, c, coefs, warp):
    """Build a kernel with one closure rule from the base kernels and check its Gram matrix."""
    base1, base2 = make_kernel(**BASE_KERNELS[k1][1]), make_kernel(**BASE_KERNELS[k2][1])
    arguments = {"sum": (base1, base2), "product": (base1, base2), "scale": (base1, c),
                 "polynomial": (base1, coefs), "exp": (base1,), "warp": (base1, WARPS[warp][1])}[rule]
    return _report(CLOSURE_RULES[rule].build(*arguments)(Xs))


@common.memo(max_entries=32)
def analyze_scaled(Xs, k1, c):
    """check_psd of c·K₁ itself, to show why the scale rule must refuse c ≤ 0."""
    return _report(c * make_kernel(**BASE_KERNELS[k1][1])(Xs))


@common.memo(max_entries=32)
def analyze_invalid(Xs, name):
    return _report(INVALID_KERNELS[name].kernel(Xs))


@common.memo(max_entries=32)
def analyze_formula(Xs, expr, params):
    """Parse the formula (never eval'd) and check its Gram matrix on the points."""
    return _report(parse_kernel(expr, **dict(params))(Xs))


@common.memo(max_entries=32)
def fit_formula_svm(X, y, expr, params, C):
    """DualSVM with the parsed formula as its kernel, and f on the grid."""
    k = parse_kernel(expr, **dict(params))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svm = DualSVM(k, C=C).fit(X, y)
    grid = make_grid(X, n=common.GRID_POINTS)
    Z = svm.decision_function(grid.points).reshape(grid.y.size, grid.x.size)
    status = svm.kkt_.status
    return {
        "xs": grid.x, "ys": grid.y, "Z": Z,
        "free_sv": np.flatnonzero(status == "free SV"), "bounded_sv": np.flatnonzero(status == "bounded SV"),
        "n_support": int(svm.support_.size), "intercept": float(svm.intercept_),
        "dual_objective": float(svm.dual_objective_), "train_error": float(np.mean(svm.predict(X) != y)),
        "warnings": [str(w.message) for w in caught],
    }
