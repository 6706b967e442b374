"""Lesson 1's core calls and figure builders, memoized once per process and shared by every session
(lab/memo.py); in an imported module, so the memory outlives each rerun of the page script."""

import functools
import inspect
from dataclasses import dataclass

import numpy as np

from figures.feature_maps import cost_figure, taylor_error_figure, taylor_figure
from figures.regression import history_figure, two_fits_figure
from kernel_core.feature_maps import (FEATURE_MAPS, gaussian_taylor_error, gaussian_taylor_features,
                                      gaussian_taylor_kernel, operation_counts)
from kernel_core.grid import make_grid_1d
from kernel_core.kernels import rbf_kernel
from kernel_core.descent import LMS, KernelLMS, eta_from_ratio
from lab.caught import caught_warnings
from lab.memo import memo
from lessons.feature_maps.fields import M_MAX, P_MAX

# the cost curves run over p = 1..P_MAX and the Taylor error over m = 1..M_MAX (the fm_p and fm_m sliders' ranges)
TAYLOR_X = np.linspace(-3.0, 3.0, 241)
FIT_GRID = 200
CUBIC = FEATURE_MAPS["cubic_1d"]
# the code shown on the page, read once
TAYLOR_SOURCE = inspect.getsource(gaussian_taylor_features)
KLMS_SOURCE = inspect.getsource(KernelLMS.fit)

cost_fig, taylor_fig, taylor_error_fig, fits_fig, loss_fig = map(memo(), (
    cost_figure, taylor_figure, taylor_error_figure, two_fits_figure, history_figure))


@functools.cache
def map_source(name):
    """The code of feature map `name`'s φ and of its kernel (read once per map)."""
    fm = FEATURE_MAPS[name]
    return inspect.getsource(fm.phi) + "\n\n" + inspect.getsource(fm.kernel)


@dataclass(frozen=True)
class Check:
    """K(x, z) two ways: in feature space, φ(x)·φ(z) = Σₖ φₖ(x)φₖ(z), and by the kernel's formula."""

    phi_x: np.ndarray
    phi_z: np.ndarray
    terms: np.ndarray      # φₖ(x)φₖ(z)
    dot: float             # φ(x)·φ(z)
    K: float
    diff: float            # φ(x)·φ(z) − K(x, z)


@dataclass(frozen=True)
class Costs:
    """Operations per K(x, z) of (1 + x·z)^p for p = 1..P_MAX, built from φ (explicit) and by the kernel."""

    p: np.ndarray
    feature_dim: np.ndarray    # dim φ = C(d+p, p)
    explicit_mults: np.ndarray
    explicit_adds: np.ndarray
    explicit_total: np.ndarray
    kernel_mults: np.ndarray
    kernel_adds: np.ndarray
    kernel_total: np.ndarray


@dataclass(frozen=True)
class Taylor:
    """The 1-D Gaussian K(x, z) along x and its m-term Taylor approximation; the max error for every m."""

    exact: np.ndarray
    approx: np.ndarray
    m: np.ndarray          # 1..M_MAX
    errors: np.ndarray     # max over x of the error with m terms, per m
    error: float           # the one for the m kept


@dataclass(frozen=True)
class CubicFit:
    """LMS on θ with φ = (1, x, x², x³) and kernel LMS on β, same η, T and sample order, on a 1-D grid."""

    eta: float
    eta_max: float
    grid: np.ndarray
    f_theta: np.ndarray    # θᵀφ(x) on the grid
    f_beta: np.ndarray     # Σⱼ βⱼ K(xⱼ, x) on the grid
    max_diff: float
    t: np.ndarray
    loss_theta: np.ndarray
    loss_beta: np.ndarray
    theta: np.ndarray
    beta: np.ndarray
    warnings: tuple


@memo(max_entries=32)
def kernel_check(name, x, z):
    """φ(x), φ(z), their inner product computed in feature space, and K(x, z) from the kernel formula."""
    fm = FEATURE_MAPS[name]
    X, Z = np.array([x]), np.array([z])
    phi_x, phi_z = fm.phi(X)[0], fm.phi(Z)[0]
    dot = float(fm.explicit_kernel(X, Z)[0, 0])
    K = float(fm.kernel(X, Z)[0, 0])
    return Check(phi_x=phi_x, phi_z=phi_z, terms=phi_x * phi_z, dot=dot, K=K, diff=dot - K)


@memo(max_entries=32)
def costs(d):
    """Operation counts of (1 + x·z)^p, explicit and kernel, for p = 1..P_MAX in d dimensions."""
    counts = [operation_counts(d, p) for p in range(1, P_MAX + 1)]
    return Costs(p=np.arange(1, P_MAX + 1), **{
        f: np.array([getattr(c, f) for c in counts], dtype=np.int64)
        for f in ("feature_dim", "explicit_mults", "explicit_adds", "explicit_total", "kernel_mults", "kernel_adds",
                  "kernel_total")})


@memo(max_entries=32)
def taylor(gamma, z, m):
    """Exact Gaussian and its m-term Taylor approximation along x, and the error for every m."""
    zz = np.array([z])
    errors = np.array([gaussian_taylor_error(TAYLOR_X, zz, gamma=gamma, n_terms=k) for k in range(1, M_MAX + 1)])
    return Taylor(exact=rbf_kernel(TAYLOR_X[:, None], zz[:, None], gamma=gamma)[:, 0],
                  approx=gaussian_taylor_kernel(TAYLOR_X, zz, gamma=gamma, n_terms=m)[:, 0],
                  m=np.arange(1, M_MAX + 1), errors=errors, error=float(errors[m - 1]))


@memo(max_entries=32)
def cubic_fit(x, y, eta_ratio, T, stochastic, seed):
    """GD on θ with φ = (1, x, x², x³) and on β with the matching kernel, same η, T and sample order."""
    eta, eta_max, warnings = eta_from_ratio(CUBIC.kernel(x), eta_ratio, stochastic=stochastic)
    grid = make_grid_1d(x, n=FIT_GRID)
    with caught_warnings() as messages:
        lms = LMS(eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(CUBIC.phi(x), y)
        klms = KernelLMS(CUBIC.kernel, eta=eta, n_iter=T, stochastic=stochastic, random_state=seed).fit(x, y)
    f_theta = lms.predict(CUBIC.phi(grid.points))
    f_beta = klms.predict(grid.points)
    return CubicFit(eta=eta, eta_max=eta_max, grid=grid.x, f_theta=f_theta, f_beta=f_beta,
                    max_diff=float(np.max(np.abs(f_theta - f_beta))), t=lms.history_["t"],
                    loss_theta=lms.history_["loss"], loss_beta=klms.history_["loss"], theta=lms.theta_,
                    beta=klms.beta_, warnings=warnings + tuple(messages))


def cost_figures(d, p):
    """Section 2's chart by key, the cost of (1 + x·z)^p against p in d dimensions: what the page draws and what its
    live route answers for a move of d or p (lab/live.py)."""
    c = costs(d)
    return {"fm_cost": cost_fig(c.p, c.feature_dim, c.explicit_total, c.kernel_total, current=p, n_features=d)}


def taylor_figures(gamma, z, m):
    """Section 3's charts by key, the Gaussian against its m-term Taylor series and the error against m: what the
    page draws and what its live route answers for a move of m, γ or z (lab/live.py)."""
    t = taylor(gamma, z, m)
    return {"fm_taylor": taylor_fig(TAYLOR_X, t.exact, t.approx, z, m),
            "fm_taylor_error": taylor_error_fig(t.m, t.errors, current=m)}
