"""Lesson 6's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect

import numpy as np

from figures.boundary import decision_figure
from figures.regression import bumps_figure, history_figure, two_fits_figure
from kernel_core.feature_maps import (
    MAX_TAYLOR_TERMS,
    gaussian_taylor_error,
    gaussian_taylor_features,
    polynomial_features,
)
from kernel_core.grid import make_grid, make_grid_1d
from kernel_core.kernels import make_kernel
from kernel_core.regression import LMS, KernelLMS, KernelLogisticRegression, KernelRidge, max_stable_eta
from lessons import common

FIT_GRID = 200
# the Gaussian's truncated Taylor map stands in for its φ only where it reproduces K this closely
TAYLOR_TOL = 1e-9
RIDGE_SOURCE = inspect.getsource(KernelRidge.fit)
LOGISTIC_SOURCE = inspect.getsource(KernelLogisticRegression.fit)

# each figure is built once per distinct input (see common.memo)
fits_fig = common.memo()(two_fits_figure)
bumps_fig = common.memo()(bumps_figure)
history_fig = common.memo()(history_figure)
boundary_fig = common.memo()(decision_figure)


# ---------------------------------------------------------------- cached core calls

@common.memo(max_entries=32)
def fit_ridge(x, y, kernel, gamma, degree, coef0, lam):
    """Kernel ridge: β from (K + λI)β = y, f on a 1-D grid and each representer term β_j K(x_j, ·)."""
    model = KernelRidge(kernel, lam=lam, gamma=gamma, degree=degree, coef0=coef0).fit(x, y)
    grid = make_grid_1d(x, n=FIT_GRID)
    f_train = model.predict(x)
    return {
        "beta": model.beta_, "f_train": f_train, "grid": grid.x, "f": model.predict(grid.points),
        "bumps": model.bumps(grid.points), "rmse": float(np.sqrt(np.mean((y - f_train) ** 2))),
    }


def explicit_map(X, kernel, gamma, degree, coef0):
    """A finite φ with φ(x)·φ(z) = K(x, z) on the 1-D points X, with its description; (None, reason)
    where no such map is at hand. The Gaussian's is its first MAX_TAYLOR_TERMS Taylor features,
    used only where they reproduce K to TAYLOR_TOL."""
    if kernel == "linear":
        return (lambda Z: polynomial_features(Z, degree=1, gamma=1.0, coef0=0.0)), "φ(x) = x"
    if kernel == "poly" and coef0 >= 0:
        return ((lambda Z: polynomial_features(Z, degree=degree, gamma=gamma, coef0=coef0)),
                f"φ(x) = the {degree + 1 if coef0 > 0 else 1} scaled powers of x that expand (γxz + r)^{degree}")
    if kernel == "rbf":
        error = gaussian_taylor_error(X, gamma=gamma, n_terms=MAX_TAYLOR_TERMS)
        if error > TAYLOR_TOL:
            return None, (f"The Gaussian's φ is infinite; its first {MAX_TAYLOR_TERMS} Taylor features miss K by "
                          f"up to {error:.2g} at γ = {gamma:g}, too far to compare. Lower γ to see the θ route.")
        return ((lambda Z: gaussian_taylor_features(Z, gamma=gamma, n_terms=MAX_TAYLOR_TERMS)),
                f"φ(x) = the Gaussian's first {MAX_TAYLOR_TERMS} Taylor features (lesson 1), which match K "
                f"to {error:.1e} here")
    if kernel == "poly":
        return None, "With r < 0, (γxz + r)^d has no real feature map here, so only the β update can run."
    return None, "This kernel's feature map is infinite-dimensional, so only the β update can run — the point of the trick."


@common.memo(max_entries=32)
def fit_descent(x, y, kernel, gamma, degree, coef0, eta_ratio, T, stochastic, seed):
    """Kernel LMS (β ← β + η(y − Kβ)) and, where the kernel has a finite map, LMS on θ with the same
    η, T and sample order."""
    K = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)(x)
    eta_max = max_stable_eta(K, stochastic=stochastic)
    eta = eta_ratio * eta_max
    grid = make_grid_1d(x, n=FIT_GRID)
    klms = KernelLMS(kernel, eta=eta, n_iter=T, gamma=gamma, degree=degree, coef0=coef0, stochastic=stochastic,
                     random_state=seed).fit(x, y)
    out = {"eta": eta, "eta_max": eta_max, "grid": grid.x, "f_beta": klms.predict(grid.points),
           "t": klms.history_["t"], "loss_beta": klms.history_["loss"], "beta": klms.beta_}
    phi, out["phi_note"] = explicit_map(grid.points, kernel, gamma, degree, coef0)
    out["explicit"] = phi is not None
    if phi is not None:
        lms = LMS(eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(phi(x), y)
        f_theta = lms.predict(phi(grid.points))
        out.update(f_theta=f_theta, loss_theta=lms.history_["loss"],
                   max_diff=float(np.max(np.abs(f_theta - out["f_beta"]))))
    return out


@common.memo(max_entries=32)
def fit_logistic(X, y, kernel, gamma, degree, coef0, lam, T):
    """Kernel logistic regression by gradient descent on β; the logit f on the grid, J(β) per step."""
    model = KernelLogisticRegression(kernel, lam=lam, n_iter=T, gamma=gamma, degree=degree, coef0=coef0).fit(X, y)
    grid = make_grid(X, n=common.GRID_POINTS)
    Z = model.decision_function(grid.points).reshape(grid.y.size, grid.x.size)
    return {
        "xs": grid.x, "ys": grid.y, "Z": Z, "beta": model.beta_, "eta": model.eta_,
        "t": model.history_["t"], "objective": model.history_["objective"],
        "accuracy": float(np.mean(model.predict(X) == y)), "proba": model.predict_proba(X)[:, 1],
    }
