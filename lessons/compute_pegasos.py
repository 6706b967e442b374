"""Lesson 4's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect
import warnings

import numpy as np

from figures import boundary, pegasos
from kernel_core.grid import make_grid
from kernel_core.kernels import make_kernel
from kernel_core.pegasos import KernelPegasos
from kernel_core.perceptron import KernelPerceptron
from kernel_core.svm import DualSVM
from lessons import common

PEGASOS_SOURCE = inspect.getsource(KernelPegasos.fit)

# each figure is built once per distinct input (see common.memo)
decision_figure, objective_figure, alpha_animation, perceptron_figure, mistakes_figure = map(
    common.memo(), (boundary.decision_figure, pegasos.objective_figure, pegasos.alpha_animation,
                    pegasos.perceptron_figure, pegasos.mistakes_figure))


# ---------------------------------------------------------------- cached core calls

@common.memo(max_entries=32)
def _pegasos(X, y, kernel, gamma, degree, coef0, lam, T, seed):
    """The fitted model itself (shared by every session, never mutated)."""
    return KernelPegasos(kernel, lam=lam, n_iter=T, gamma=gamma, degree=degree, coef0=coef0,
                         random_state=seed).fit(X, y)


@common.memo(max_entries=32)
def fit_pegasos(X, y, kernel, gamma, degree, coef0, lam, T, seed):
    """Algorithm 1's output and history."""
    model = _pegasos(X, y, kernel, gamma, degree, coef0, lam, T, seed)
    h = model.history_
    return {
        "t": h["t"], "objective_last": h["objective_last"], "objective_avg": h["objective_avg"],
        "snapshot_t": h["snapshot_t"], "alpha_snapshots": h["alpha"], "alpha_avg_snapshots": h["alpha_avg"],
        "alpha": model.alpha_, "alpha_last": model.alpha_last_, "beta": model.beta_,
        # each update adds y_i to β_i, so |β_i| counts the updates of point i
        "n_updates": int(np.abs(model.beta_).sum()),
        "train_error": float(np.mean(model.predict(X) != y)),
    }


@common.memo(max_entries=32)
def exact_optimum(X, y, kernel, gamma, degree, coef0, lam):
    """The exact optimum of Pegasos' objective from the SVM dual (it does not depend on T or the seed)."""
    n = X.shape[0]
    # λ/2‖w‖² + (1/n)Σ hinge = λ(½‖w‖² + CΣξ) with C = 1/(λn): the SVM through the origin
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svm = DualSVM(kernel, C=1.0 / (lam * n), gamma=gamma, degree=degree, coef0=coef0,
                      fit_intercept=False).fit(X, y)
    return {"optimum": lam * svm.dual_objective_, "alpha_star_y": svm.alpha_ * y,
            "warnings": [str(w.message) for w in caught]}


@common.memo(max_entries=8)
def _grid_gram(X, kernel, gamma, degree, coef0):
    """The plot grid and K(grid, X), computed once for a kernel and data: every replay step and the
    perceptron's plot are then a matrix-vector product (read-only: shared by all sessions)."""
    grid = make_grid(X, n=common.GRID_POINTS)
    gram = np.asarray(make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)(grid.points, X), dtype=np.float64)
    return grid, gram


@common.memo(max_entries=64)
def pegasos_surface(X, y, kernel, gamma, degree, coef0, lam, T, seed, k, iterate):
    """f on the grid for snapshot k of α̂_t or α^t, through the core's decision_function."""
    model = _pegasos(X, y, kernel, gamma, degree, coef0, lam, T, seed)
    alpha = model.history_["alpha_avg" if iterate == "avg" else "alpha"][k]
    grid, gram = _grid_gram(X, kernel, gamma, degree, coef0)
    Z = model.decision_function(grid.points, alpha=alpha, gram=gram).reshape(grid.y.size, grid.x.size)
    return {"xs": grid.x, "ys": grid.y, "Z": Z}


@common.memo(max_entries=32)
def fit_perceptron(X, y, kernel, gamma, degree, coef0, max_epochs):
    """Mistake counts, convergence and mistakes per epoch, with f on the grid."""
    with warnings.catch_warnings():
        # non-convergence is reported on the page from converged_, not as a log warning
        warnings.simplefilter("ignore", RuntimeWarning)
        model = KernelPerceptron(kernel, max_epochs=max_epochs, gamma=gamma, degree=degree, coef0=coef0).fit(X, y)
    grid, gram = _grid_gram(X, kernel, gamma, degree, coef0)
    Z = model.decision_function(grid.points, gram=gram).reshape(grid.y.size, grid.x.size)
    return {
        "alpha": model.alpha_, "converged": bool(model.converged_), "n_epochs": int(model.n_epochs_),
        "mistakes": model.history_["mistakes"], "n_mistakes": int(model.history_["n_mistakes"]),
        "train_error": float(np.mean(model.predict(X) != y)),
        "xs": grid.x, "ys": grid.y, "Z": Z,
    }
