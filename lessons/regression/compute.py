"""Lesson 6's core calls and figure builders, memoized once per process and shared by every session
(lab/memo.py); in an imported module, so the memory outlives each rerun of the page script."""

import inspect
from dataclasses import dataclass

import numpy as np

from figures.boundary import GRID_POINTS, decision_figure
from figures.regression import bumps_figure, history_figure, two_fits_figure
from kernel_core.feature_maps import (MAX_TAYLOR_TERMS, gaussian_taylor_error, gaussian_taylor_features,
                                      polynomial_features)
from kernel_core.grid import make_grid, make_grid_1d
from kernel_core.descent import LMS, KernelLMS, eta_from_ratio
from kernel_core.logistic import KernelLogisticRegression
from kernel_core.ridge import KernelRidge
from lab.caught import caught_warnings
from lab.memo import memo

FIT_GRID = 200
# the metric comparing the θ route with the β route, on the page and in its script
GAP = "max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot"
# frames of the kernel LMS replay: at most this many of the history's β snapshots (200 float32 values each)
REPLAY_FRAMES = 40
# the Gaussian's truncated Taylor map stands in for its φ only where it reproduces K this closely
TAYLOR_TOL = 1e-9
RIDGE_SOURCE = inspect.getsource(KernelRidge.fit)
LOGISTIC_SOURCE = inspect.getsource(KernelLogisticRegression.fit)

fits_fig, bumps_fig, history_fig, boundary_fig = map(memo(), (two_fits_figure, bumps_figure, history_figure,
                                                              decision_figure))


@dataclass(frozen=True)
class Ridge:
    """Kernel ridge on 1-D points: β from (K + λI)β = y, f on a grid and each representer term βⱼK(xⱼ, ·)."""

    beta: np.ndarray
    f_train: np.ndarray    # f(xⱼ) at the training points
    grid: np.ndarray
    f: np.ndarray          # f on the grid
    bumps: np.ndarray      # (n, grid) βⱼK(xⱼ, x)
    rmse: float
    warnings: tuple


@dataclass(frozen=True)
class Descent:
    """Kernel LMS on β and, where the kernel has a finite φ (phi_note says which, or why none), LMS on θ with the
    same η, T and sample order; the θ fields are None without one."""

    eta: float
    eta_max: float
    grid: np.ndarray
    f_beta: np.ndarray     # Σⱼ βⱼ K(xⱼ, x) on the grid
    frame_t: np.ndarray    # steps of the replay's frames (the last is T, or where a diverged run stopped)
    f_beta_frames: np.ndarray  # (len(frame_t), grid) Σⱼ βⱼ K(xⱼ, x) at those steps
    t: np.ndarray
    loss_beta: np.ndarray
    beta: np.ndarray
    phi_note: str
    f_theta: np.ndarray | None
    loss_theta: np.ndarray | None
    max_diff: float | None
    warnings: tuple

    @property
    def explicit(self):
        """Whether the θ route ran."""
        return self.f_theta is not None


@dataclass(frozen=True)
class Logistic:
    """Kernel logistic regression by gradient descent on β: the logit f on the grid, J(β) per recorded step."""

    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray          # f on the grid, (ys, xs)
    beta: np.ndarray
    eta: float
    t: np.ndarray
    objective: np.ndarray  # J(β_t)
    accuracy: float
    proba: np.ndarray      # P(y = +1 | xⱼ) at the training points
    warnings: tuple


@memo(max_entries=32)
def fit_ridge(x, y, spec, lam):
    """Kernel ridge: β from (K + λI)β = y, f on a 1-D grid and each representer term β_j K(x_j, ·)."""
    with caught_warnings() as messages:
        model = KernelRidge(**spec.params(), lam=lam).fit(x, y)
    grid = make_grid_1d(x, n=FIT_GRID)
    f_train = model.predict(x)
    return Ridge(beta=model.beta_, f_train=f_train, grid=grid.x, f=model.predict(grid.points),
                 bumps=model.bumps(grid.points), rmse=float(np.sqrt(np.mean((y - f_train) ** 2))),
                 warnings=tuple(messages))


def explicit_map(X, spec):
    """A finite φ with φ(x)·φ(z) = K(x, z) on the 1-D points X, with its description; (None, reason)
    where no such map is at hand. The Gaussian's is its first MAX_TAYLOR_TERMS Taylor features,
    used only where they reproduce K to TAYLOR_TOL."""
    kernel, gamma, degree, coef0 = spec.name, spec.gamma, spec.degree, spec.coef0
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
    return None, ("This kernel's feature map is infinite-dimensional, so only the β update can run — the point of "
                  "the trick.")


@memo(max_entries=32)
def fit_descent(x, y, spec, eta_ratio, T, stochastic, seed):
    """Kernel LMS (β ← β + η(y − Kβ)) and, where the kernel has a finite map, LMS on θ with the same
    η, T and sample order."""
    eta, eta_max, warnings = eta_from_ratio(spec.function()(x), eta_ratio, stochastic=stochastic)
    grid = make_grid_1d(x, n=FIT_GRID)
    phi, phi_note = explicit_map(grid.points, spec)
    f_theta = loss_theta = max_diff = None
    with caught_warnings() as messages:
        klms = KernelLMS(**spec.params(), eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(x, y)
        f_beta = klms.predict(grid.points)
        # the history's β snapshots on the grid: one product with K(x, grid) for all of them
        h = klms.history_
        at = np.unique(np.rint(np.linspace(0, h["t"].size - 1, min(h["t"].size, REPLAY_FRAMES))).astype(int))
        f_beta_frames = h["beta"][at] @ spec.function()(x, grid.points)
        if phi is not None:
            lms = LMS(eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(phi(x), y)
            f_theta, loss_theta = lms.predict(phi(grid.points)), lms.history_["loss"]
            max_diff = float(np.max(np.abs(f_theta - f_beta)))
    return Descent(eta=eta, eta_max=eta_max, grid=grid.x, f_beta=f_beta, frame_t=h["t"][at],
                   f_beta_frames=f_beta_frames, t=klms.history_["t"],
                   loss_beta=klms.history_["loss"], beta=klms.beta_, phi_note=phi_note, f_theta=f_theta,
                   loss_theta=loss_theta, max_diff=max_diff, warnings=warnings + tuple(messages))


@memo(max_entries=32)
def fit_logistic(X, y, spec, lam, T):
    """Kernel logistic regression by gradient descent on β; the logit f on the grid, J(β) per step."""
    with caught_warnings() as messages:
        model = KernelLogisticRegression(**spec.params(), lam=lam, n_iter=T).fit(X, y)
    grid = make_grid(X, n=GRID_POINTS)
    Z = model.decision_function(grid.points).reshape(grid.y.size, grid.x.size)
    return Logistic(xs=grid.x, ys=grid.y, Z=Z, beta=model.beta_, eta=model.eta_, t=model.history_["t"],
                    objective=model.history_["objective"], accuracy=float(np.mean(model.predict(X) == y)),
                    proba=model.predict_proba(X)[:, 1], warnings=tuple(messages))


# the house-price charts' axes
HOUSE_AXES = dict(xtitle="x (scaled living area)", ytitle="y (price, $100k)")


def ridge_figures(x, y, spec, lam):
    """The kernel-ridge chart by key: what the page draws and what its live route answers (lab/live.py)."""
    r = fit_ridge(x, y, spec, lam)
    return {"rg_bumps": bumps_fig(x[:, 0], y, r.grid, r.beta, r.bumps, r.f, **HOUSE_AXES)}


def descent_figures(x, y, spec, eta_ratio, T, stochastic, seed):
    """The gradient-descent charts by key, the fits (with kernel LMS's replay) and the losses: what the page draws and
    what its live route answers (lab/live.py)."""
    r = fit_descent(x, y, spec, eta_ratio, T, stochastic, seed)
    curves = {"loss of θ": (r.loss_theta, None)} if r.explicit else {}
    return {"rg_fits": fits_fig(x[:, 0], y, r.grid, r.f_theta if r.explicit else r.f_beta, r.f_beta,
                                theta_name="θᵀφ(x) (LMS on θ)" if r.explicit else "(no finite φ: β only)",
                                beta_name="Σⱼ βⱼ K(xⱼ, x) (kernel LMS on β)", uirevision="rg_fits", **HOUSE_AXES,
                                beta_frames=([f"t = {t}" for t in r.frame_t], r.f_beta_frames)),
            "rg_loss": history_fig(r.t, {**curves, "loss of β": (r.loss_beta, "dash")},
                                   ytitle="½ Σᵢ (yᵢ − f(xᵢ))² (log scale)", uirevision="rg_loss")}


# the logistic page's f is a logit: its lines are probabilities, not margins
LOGISTIC_LINES = ("f = 0 (P = ½)", "f = ±1 (P ≈ 0.73 or 0.27)")


def logistic_figures(X, y, spec, lam, T, own):
    """The logistic section's charts by key, the decision plot and J(β) against t: what the page draws and what its
    live route answers (lab/live.py)."""
    r = fit_logistic(X, y, spec, lam, T)
    return {"rgl_boundary": boundary_fig(r.xs, r.ys, r.Z, X, y, line_names=LOGISTIC_LINES, own=own),
            "rgl_objective": history_fig(r.t, {"J(β)": (r.objective, None)}, ytitle="J(β) (log scale)",
                                         uirevision="rgl_objective")}
