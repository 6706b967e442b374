"""Lesson 1's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import functools
import inspect

import numpy as np

from figures.feature_maps import cost_figure, taylor_error_figure, taylor_figure
from figures.regression import history_figure, two_fits_figure
from kernel_core.feature_maps import (
    FEATURE_MAPS,
    gaussian_taylor_error,
    gaussian_taylor_features,
    gaussian_taylor_kernel,
    operation_counts,
)
from kernel_core.grid import make_grid_1d
from kernel_core.kernels import rbf_kernel
from kernel_core.regression import LMS, KernelLMS, max_stable_eta
from lessons import common

P_MAX = 12
M_MAX = 40
TAYLOR_X = np.linspace(-3.0, 3.0, 241)
FIT_GRID = 200
CUBIC = FEATURE_MAPS["cubic_1d"]
# the code shown on the page, read once
TAYLOR_SOURCE = inspect.getsource(gaussian_taylor_features)
KLMS_SOURCE = inspect.getsource(KernelLMS.fit)


@functools.cache
def map_source(name):
    """The code of feature map `name`'s φ and of its kernel (read once per map)."""
    fm = FEATURE_MAPS[name]
    return inspect.getsource(fm.phi) + "\n\n" + inspect.getsource(fm.kernel)


cost_fig = common.memo()(cost_figure)
taylor_fig = common.memo()(taylor_figure)
taylor_error_fig = common.memo()(taylor_error_figure)
fits_fig = common.memo()(two_fits_figure)
loss_fig = common.memo()(history_figure)


# ---------------------------------------------------------------- cached core calls

@common.memo(max_entries=32)
def kernel_check(name, x, z):
    """φ(x), φ(z), their inner product computed in feature space, and K(x, z) from the kernel formula."""
    fm = FEATURE_MAPS[name]
    X, Z = np.array([x]), np.array([z])
    phi_x, phi_z = fm.phi(X)[0], fm.phi(Z)[0]
    dot = float(fm.explicit_kernel(X, Z)[0, 0])
    K = float(fm.kernel(X, Z)[0, 0])
    return {"phi_x": phi_x, "phi_z": phi_z, "terms": phi_x * phi_z, "dot": dot, "K": K, "diff": dot - K}


@common.memo(max_entries=32)
def costs(d):
    """Operation counts of (1 + x·z)^p, explicit and kernel, for p = 1..P_MAX in d dimensions."""
    counts = [operation_counts(d, p) for p in range(1, P_MAX + 1)]
    fields = ("feature_dim", "explicit_mults", "explicit_adds", "explicit_total", "kernel_mults", "kernel_adds",
              "kernel_total")
    return {"p": np.arange(1, P_MAX + 1),
            **{f: np.array([getattr(c, f) for c in counts], dtype=np.int64) for f in fields}}


@common.memo(max_entries=32)
def taylor(gamma, z, m):
    """Exact Gaussian and its m-term Taylor approximation along x, and the error for every m."""
    zz = np.array([z])
    return {
        "exact": rbf_kernel(TAYLOR_X[:, None], zz[:, None], gamma=gamma)[:, 0],
        "approx": gaussian_taylor_kernel(TAYLOR_X, zz, gamma=gamma, n_terms=m)[:, 0],
        "m": np.arange(1, M_MAX + 1),
        "errors": np.array([gaussian_taylor_error(TAYLOR_X, zz, gamma=gamma, n_terms=k)
                            for k in range(1, M_MAX + 1)]),
    }


@common.memo(max_entries=32)
def cubic_fit(x, y, eta_ratio, T, stochastic, seed):
    """GD on θ with φ = (1, x, x², x³) and on β with the matching kernel, same η, T and sample order."""
    K = CUBIC.kernel(x)
    eta_max = max_stable_eta(K, stochastic=stochastic)
    eta = eta_ratio * eta_max
    grid = make_grid_1d(x, n=FIT_GRID)
    lms = LMS(eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(CUBIC.phi(x), y)
    klms = KernelLMS(CUBIC.kernel, eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(x, y)
    f_theta = lms.predict(CUBIC.phi(grid.points))
    f_beta = klms.predict(grid.points)
    return {
        "eta": eta, "eta_max": eta_max, "grid": grid.x, "f_theta": f_theta, "f_beta": f_beta,
        "max_diff": float(np.max(np.abs(f_theta - f_beta))),
        "t": lms.history_["t"], "loss_theta": lms.history_["loss"], "loss_beta": klms.history_["loss"],
        "theta": lms.theta_, "beta": klms.beta_,
    }


