"""Lesson 5's core calls and figure builders, memoized once per process (lab/memo.py) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import functools
import inspect
from dataclasses import dataclass

import numpy as np

from figures import boundary, mercer
from figures.boundary import GRID_POINTS
from kernel_core.formula import parse_kernel
from kernel_core.grid import make_grid
from kernel_core.kernels import KernelSpec
from kernel_core.mercer import CLOSURE_RULES, INVALID_KERNELS, check_psd
from kernel_core.svm import DualSVM
from lab.caught import caught_warnings
from lab.memo import memo

# the Gram matrix of at most this many points is checked and drawn (150² float32 ≈ 120 KB of heatmap)
MAX_POINTS = 150
# base kernels for the closure rules: valid kernels with fixed parameters, so the rule is the only variable
BASE_KERNELS = {
    "linear": ("x·z", KernelSpec("linear")),
    "poly": ("(x·z + 1)²", KernelSpec("poly", gamma=1.0, degree=2, coef0=1.0)),
    "rbf": ("exp(−‖x − z‖²)", KernelSpec("rbf", gamma=1.0)),
    "laplacian": ("exp(−‖x − z‖₁)", KernelSpec("laplacian", gamma=1.0)),
}
BASE_LABELS = {name: label for name, (label, _) in BASE_KERNELS.items()}
# the formula box's example buttons, in kernel_core.formula's language
EXAMPLES = {
    "Gaussian": "exp(-g * norm(x - z)**2)",
    "polynomial": "(dot(x, z) + r)**d",
    "Laplacian-like": "exp(-g * norm(x - z))",
    "sigmoid": "tanh(g * dot(x, z) + r)",
    "−‖x − z‖²": "-norm(x - z)**2",
}
# the page's longer explanations
FORMULA_HELP = ("Use x, z, numbers, the parameters g, r, d, + − * / ** and dot, norm, exp, tanh, sqrt, abs. "
                "Nothing you type is run as Python: the formula is parsed and only these pieces are allowed.")
RULES_TEXT = ("Valid kernels combine into valid kernels. Each rule below comes with the feature map that proves it; "
              "build a kernel with one and check it on your points. The rules only ask for non-negative numbers, and "
              "the core refuses anything else with an error, as it must: see what a negative scale would do.")
NO_CERTIFICATE_TEXT = ("No certificate: no eigenvalue is below the rounding level, so no c with cᵀKc < 0 exists for "
                       "these points.")
PASSES_HERE_TEXT = ("On these points it happens to pass; Mercer's condition asks for every set of points. Change the "
                    "dataset, n or the seed in the sidebar.")
NO_SVM_TEXT = ("No SVM for this formula: with a Gram matrix that is not PSD the dual is not a concave problem, so its "
               "maximum may not exist and SMO's answer would mean nothing.")
CERTIFICATE_TEXT = (
    "**Reading the certificate.** c is the eigenvector of the smallest eigenvalue. If K were φ(x)·φ(z), "
    "then cᵀKc would be ‖Σᵢ cᵢ φ(xᵢ)‖², a squared length, never below 0. check_psd recomputes cᵀKc from K "
    "itself and finds it negative, so no feature map φ can produce this K: the big markers are the points "
    "that carry the contradiction."
)


def _f_bump(X):
    return np.exp(-np.sum(X**2, axis=1))


def _f_first(X):
    return X[:, 0]


def _f_affine(X):
    return 1.0 + X[:, 1]


WARPS = {"bump": ("f(x) = exp(−‖x‖²)", _f_bump), "first": ("f(x) = x₁", _f_first),
         "affine": ("f(x) = 1 + x₂", _f_affine)}
CHECK_PSD_SOURCE = inspect.getsource(check_psd)

# each figure is built once per distinct input (see lab/memo.py)
decision_figure, certificate_figure, gram_heatmap, spectrum_figure = map(
    memo(), (boundary.decision_figure, mercer.certificate_figure, mercer.gram_heatmap, mercer.spectrum_figure))


@functools.cache
def rule_source(name):
    """The code of closure rule `name`'s build (read once per rule)."""
    return inspect.getsource(CLOSURE_RULES[name].build)


@dataclass(frozen=True)
class Rule:
    """A kernel built by closure rule `name` from the base kernel k1 and what else the rule takes: a second base
    kernel k2 (sum, product), the scale c, the coefficients a₀, a₁, a₂ of g (polynomial) or the warp f."""

    name: str
    k1: str
    k2: str | None = None
    c: float | None = None
    coefs: tuple | None = None
    warp: str | None = None


@dataclass(frozen=True)
class Gram:
    """check_psd's verdict on one Gram matrix K, and K itself for the heatmap."""

    K: np.ndarray
    is_psd: bool
    eigenvalues: np.ndarray        # ascending
    min_eigenvalue: float          # λ_min
    max_eigenvalue: float          # λ_max
    threshold: float               # rtol·max|λ|: below −threshold an eigenvalue is negative, not rounding
    n_negative: int
    certificate: np.ndarray | None  # c with cᵀKc < 0, when K fails
    quadratic_form: float | None    # cᵀKc
    reason: str


@dataclass(frozen=True)
class FormulaSVM:
    """DualSVM with the student's formula as its kernel: f on the grid and its numbers."""

    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray
    free_sv: np.ndarray
    bounded_sv: np.ndarray
    n_sv: int
    b: float
    objective: float               # Σα − ½αᵀGα
    train_error: float
    warnings: tuple


@memo(max_entries=32)
def gram_points(X, y):
    """At most MAX_POINTS of the points (a fixed random subset), class −1 first: the heatmap shows two blocks."""
    idx = np.arange(X.shape[0])
    if idx.size > MAX_POINTS:
        idx = np.sort(np.random.default_rng(0).choice(idx, MAX_POINTS, replace=False))
    idx = idx[np.argsort(y[idx], kind="stable")]
    return X[idx], y[idx]


def _gram(K):
    check = check_psd(K)
    return Gram(K=K, is_psd=check.is_psd, eigenvalues=check.eigenvalues, min_eigenvalue=check.min_eigenvalue,
                max_eigenvalue=float(check.eigenvalues[-1]), threshold=check.threshold, n_negative=check.n_negative,
                certificate=check.certificate, quadratic_form=check.quadratic_form, reason=check.reason)


@memo(max_entries=32)
def analyze_kernel(Xs, kernel):
    """check_psd on the Gram matrix of a registry kernel (a KernelSpec)."""
    return _gram(kernel.function()(Xs))


def _base(name):
    return BASE_KERNELS[name][1].function()


@memo(max_entries=32)
def analyze_rule(Xs, rule):
    """Build a kernel with one closure rule from the base kernels and check its Gram matrix."""
    if rule.name in ("sum", "product"):
        more = (_base(rule.k2),)
    elif rule.name == "warp":
        more = (WARPS[rule.warp][1],)
    else:
        more = {"scale": (rule.c,), "polynomial": (rule.coefs,), "exp": ()}[rule.name]
    return _gram(CLOSURE_RULES[rule.name].build(_base(rule.k1), *more)(Xs))


@memo(max_entries=32)
def analyze_scaled(Xs, k1, c):
    """check_psd of c·K₁ itself, to show why the scale rule must refuse c ≤ 0."""
    return _gram(c * _base(k1)(Xs))


@memo(max_entries=32)
def analyze_invalid(Xs, name):
    return _gram(INVALID_KERNELS[name].kernel(Xs))


@memo(max_entries=32)
def analyze_formula(Xs, expr, params):
    """Parse the formula (never eval'd) and check its Gram matrix on the points."""
    return _gram(parse_kernel(expr, **dict(params))(Xs))


@memo(max_entries=32)
def fit_formula_svm(X, y, expr, params, C):
    """DualSVM with the parsed formula as its kernel, and f on the grid."""
    k = parse_kernel(expr, **dict(params))
    with caught_warnings() as messages:
        svm = DualSVM(k, C=C).fit(X, y)
    grid = make_grid(X, n=GRID_POINTS)
    status = svm.kkt_.status
    return FormulaSVM(xs=grid.x, ys=grid.y, Z=svm.decision_function(grid.points).reshape(grid.y.size, grid.x.size),
                      free_sv=np.flatnonzero(status == "free SV"), bounded_sv=np.flatnonzero(status == "bounded SV"),
                      n_sv=int(svm.support_.size), b=float(svm.intercept_), objective=float(svm.dual_objective_),
                      train_error=float(np.mean(svm.predict(X) != y)), warnings=tuple(messages))


def gram_figures(Xs, ys, report):
    """The Gram tab's charts by key (the certificate only where check_psd found one): what the page draws and what
    its live route answers for a move of a kernel parameter (lab/live.py)."""
    charts = {"mc_gram": gram_heatmap(report.K, ys),
              "mc_spectrum": spectrum_figure(report.eigenvalues, report.threshold)}
    if report.certificate is not None:
        charts["mc_certificate"] = certificate_figure(Xs, ys, report.certificate, report.quadratic_form)
    return charts
