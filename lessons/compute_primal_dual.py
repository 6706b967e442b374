"""Lesson 3's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect
import warnings

import numpy as np

from figures.svm import alpha_bars as _alpha_bars, primal_dual_figure as _primal_dual_figure
from kernel_core import svm
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.kernels import make_kernel
from lessons import common

# SMO stops at a KKT violation of DUAL_TOL: w and b then agree with the primal in every printed digit
DUAL_TOL = 1e-9
# scikit-learn's SVC has no C = ∞; this C stands in for the hard margin in the comparison
SKLEARN_HARD_C = 1e6
# libsvm has no step limit of its own: C = 1000 with a degree-10 polynomial ran for minutes
SKLEARN_MAX_ITER = 500_000
# the dual solver's code shown on the page, by "with offset b": SMO, else coordinate descent
SOLVER_SOURCE = {True: inspect.getsource(svm._smo), False: inspect.getsource(svm._coordinate_descent)}

# each figure is built once per distinct input (see common.memo)
alpha_bars, primal_dual_figure = map(common.memo(), (_alpha_bars, _primal_dual_figure))


@common.memo(max_entries=32)
def solve(X, y, test, space, fmap, kernel, gamma, degree, coef0, offset, C):
    """Primal (interior point on explicit features) and dual (SMO) fitted independently, plus a grid
    and the accuracy on the held-out sample test = (X_test, y_test) or None."""
    grid = make_grid(X, n=common.GRID_POINTS)
    shape = (grid.y.size, grid.x.size)
    out = {"xs": grid.x, "ys": grid.y, "primal": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if space == "kernel":
            dual = svm.DualSVM(kernel, C=C, gamma=gamma, degree=degree, coef0=coef0, fit_intercept=offset,
                               tol=DUAL_TOL).fit(X, y)
            F, F_grid = X, grid.points
            F_test = test[0] if test else None
        else:
            phi = FEATURE_MAPS[fmap].phi if space == "explicit" else np.asarray
            F, F_grid = phi(X), phi(grid.points)
            F_test = phi(test[0]) if test else None
            primal = svm.PrimalSVM(C=C, fit_intercept=offset).fit(F, y)
            # linear kernel on Φ: the dual sees only the Gram matrix ΦΦᵀ = K, yet reports w = Σ αᵢyᵢφ(xᵢ)
            dual = svm.DualSVM("linear", C=C, fit_intercept=offset, tol=DUAL_TOL).fit(F, y)
            f = primal.decision_function(F)
            out["primal"] = {
                "w": primal.coef_, "b": primal.intercept_, "objective": primal.primal_objective_,
                "norm_w": float(np.linalg.norm(primal.coef_)), "accuracy": float(np.mean(y * f > 0)),
                "slack": primal.slack_, "n_iter": primal.n_iter_,
                "Z": primal.decision_function(F_grid).reshape(shape),
            }
    out["dual"] = {
        "w": dual.coef_, "b": dual.intercept_, "objective": dual.dual_objective_, "alpha": dual.alpha_,
        "norm_w": dual.norm_w_, "accuracy": float(np.mean(dual.kkt_.margin > 0)), "n_sv": int(dual.support_.size),
        "status": dual.kkt_.status, "margin": dual.kkt_.margin, "violation": dual.kkt_.violation,
        "max_violation": dual.kkt_.max_violation, "n_iter": dual.n_iter_,
        "Z": dual.decision_function(F_grid).reshape(shape),
        "test_accuracy": float(np.mean(dual.predict(F_test) == test[1])) if test else None,
    }
    out["warnings"] = [str(w.message) for w in caught]
    return out


@common.memo(max_entries=32)
def sklearn_fit(X, y, space, fmap, kernel, gamma, degree, coef0, C):
    """scikit-learn's SVC (libsvm) on the same data and kernel, for comparison only."""
    from sklearn.svm import SVC

    if space == "kernel":
        F, k = X, make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
    else:
        F, k = (FEATURE_MAPS[fmap].phi(X) if space == "explicit" else X), "linear"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svc = SVC(kernel=k, C=min(C, SKLEARN_HARD_C), tol=DUAL_TOL, max_iter=SKLEARN_MAX_ITER).fit(F, y)
    coef = svc.dual_coef_[0]                      # yᵢαᵢ on the support vectors
    b = float(svc.intercept_[0])
    # αᵀGα = Σ yᵢαᵢ (f(xᵢ) − b) over the support vectors, from libsvm's own decision function
    f_sv = svc.decision_function(F[svc.support_])   # support_vectors_ stays empty for a callable kernel
    alpha = np.zeros(y.size)
    alpha[svc.support_] = np.abs(coef)
    return {"dual_objective": float(np.abs(coef).sum() - 0.5 * np.sum(coef * (f_sv - b))), "b": b,
            "n_sv": int(svc.support_.size), "alpha": alpha, "warnings": [str(w.message) for w in caught]}
