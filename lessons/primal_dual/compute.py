"""Lesson 3's core calls: the primal (interior point on explicit features) and the dual (SMO) solved
independently, memoized once per process and shared by every session (lab/memo.py)."""

import inspect
from dataclasses import dataclass

import numpy as np

from figures.boundary import GRID_POINTS
from figures.svm import alpha_bars as _alpha_bars, primal_dual_figure
from kernel_core import smo, svm
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.kernels import KernelSpec
from kernel_core.mercer import fails_mercer
from lab.caught import caught_warnings
from lab.memo import memo

# SMO stops at a KKT violation of DUAL_TOL: w and b then agree with the primal in every printed digit
DUAL_TOL = 1e-9
# a duality gap this small against max(1, |primal objective|) is zero within the solvers' tolerances (both stop
# at about 1e-9): round-off may leave it slightly negative, which weak duality forbids of the exact optima
GAP_TOL = 1e-8
# the dual solver's code shown on the page, by "with offset b": SMO, else coordinate descent
SOLVER_SOURCE = {True: inspect.getsource(smo.pair_step),
                 False: inspect.getsource(smo.coordinate_step) + "\n\n" + inspect.getsource(smo.coordinate_move)}

alpha_bars = memo()(_alpha_bars)


@dataclass(frozen=True)
class Setup:
    """What the student chose: the feature space ("linear": φ(x) = x, "explicit": φ = FEATURE_MAPS[fmap],
    "kernel": the dual alone with `kernel`), the offset b or none, and C (np.inf: the hard margin)."""

    space: str = "explicit"
    fmap: str | None = "poly2_full"
    kernel: KernelSpec = KernelSpec("linear")
    offset: bool = True
    C: float = 1.0


@dataclass(frozen=True)
class Primal:
    """min ½‖w‖² + CΣξᵢ over (w, b, ξ)."""

    w: np.ndarray
    b: float
    objective: float
    norm_w: float
    accuracy: float
    xi: np.ndarray
    n_iter: int
    converged: bool
    Z: np.ndarray          # f on the grid


@dataclass(frozen=True)
class Dual:
    """max Σαᵢ − ½αᵀGα over 0 ≤ α ≤ C (and Σαᵢyᵢ = 0 with an offset)."""

    alpha: np.ndarray
    w: np.ndarray | None   # Σ αᵢyᵢφ(xᵢ) where φ is built
    b: float
    objective: float
    norm_w_squared: float  # αᵀGα: negative only when K is not PSD
    norm_w: float
    accuracy: float
    test_accuracy: float | None
    n_sv: int
    status: np.ndarray     # "non-SV", "free SV" or "bounded SV" per point
    yf: np.ndarray         # yᵢf(xᵢ)
    violation: np.ndarray  # KKT violation per point
    max_violation: float
    n_iter: int
    converged: bool
    psd_violated: bool     # the fit met proof that K is not PSD on these points
    Z: np.ndarray
    snapshot_t: np.ndarray       # SMO's step at each snapshot of its run (DualSVM.history_), the last = alpha
    snapshot_alpha: np.ndarray   # (S, n) α at those steps
    snapshot_b: np.ndarray       # (S,) b at those steps
    working_set: tuple           # the pair (i, j) each step moved, (i,) without offset, () for none
    active_set: np.ndarray       # (S,) True where an active-set step moved many α at once


@dataclass(frozen=True)
class Solution:
    xs: np.ndarray
    ys: np.ndarray
    primal: Primal | None
    dual: Dual
    warnings: tuple

    @property
    def gap(self):
        """Primal minus dual objective, None without a primal; 0.0 when within GAP_TOL."""
        if self.primal is None:
            return None
        gap = self.primal.objective - self.dual.objective
        return 0.0 if abs(gap) <= GAP_TOL * max(1.0, abs(self.primal.objective)) else gap


def features(setup):
    """φ applied to points: the explicit map, the identity (φ(x) = x), or None (kernel space: no φ is built)."""
    if setup.space == "kernel":
        return None
    return FEATURE_MAPS[setup.fmap].phi if setup.space == "explicit" else np.asarray


@memo(max_entries=32)
def solve(X, y, test, setup):
    """Primal and dual fitted independently on (X, y), f of both on a grid, accuracy on test = (X_test, y_test)."""
    grid = make_grid(X, n=GRID_POINTS)
    shape = (grid.y.size, grid.x.size)
    phi = features(setup)
    primal = None
    with caught_warnings() as messages:
        if phi is None:
            dual = svm.DualSVM(**setup.kernel.params(), C=setup.C, fit_intercept=setup.offset, tol=DUAL_TOL).fit(X, y)
            F, F_grid, F_test = X, grid.points, (test[0] if test else None)
        else:
            F, F_grid, F_test = phi(X), phi(grid.points), (phi(test[0]) if test else None)
            model = svm.PrimalSVM(C=setup.C, fit_intercept=setup.offset).fit(F, y)
            # linear kernel on Φ: the dual sees only the Gram matrix ΦΦᵀ = K, yet reports w = Σ αᵢyᵢφ(xᵢ)
            dual = svm.DualSVM("linear", C=setup.C, fit_intercept=setup.offset, tol=DUAL_TOL).fit(F, y)
            primal = Primal(w=model.coef_, b=float(model.intercept_), objective=float(model.primal_objective_),
                            norm_w=float(np.linalg.norm(model.coef_)), accuracy=float(np.mean(model.predict(F) == y)),
                            xi=model.slack_,
                            n_iter=int(model.n_iter_), converged=bool(model.converged_),
                            Z=model.decision_function(F_grid).reshape(shape))
    kkt = dual.kkt_
    return Solution(grid.x, grid.y, primal, Dual(
        alpha=dual.alpha_, w=dual.coef_, b=float(dual.intercept_), objective=float(dual.dual_objective_),
        norm_w_squared=float(dual.norm_w_squared_), norm_w=float(dual.norm_w_),
        accuracy=float(np.mean(dual.predict(F) == y)),
        test_accuracy=float(np.mean(dual.predict(F_test) == test[1])) if test else None,
        n_sv=int(dual.support_.size), status=kkt.status, yf=kkt.margin, violation=kkt.violation,
        max_violation=float(kkt.max_violation), n_iter=int(dual.n_iter_), converged=bool(dual.converged_),
        psd_violated=bool(dual.psd_violated_) or (phi is None and fails_mercer(setup.kernel, X)),
        Z=dual.decision_function(F_grid).reshape(shape),
        snapshot_t=dual.history_["snapshot_t"], snapshot_alpha=dual.history_["alpha"], snapshot_b=dual.history_["b"],
        working_set=tuple(dual.history_["working_set"]), active_set=dual.history_["active_set"]), tuple(messages))


def frame_label(t, working_set, active_set):
    """What a snapshot of SMO's run shows: its step and the α it moved."""
    if active_set:
        return f"active-set step after step {t}"
    if not working_set:
        return "start"
    if len(working_set) == 1:
        return f"step {t}: α{working_set[0]} moved"
    return f"step {t}: pair (i, j) = ({working_set[0]}, {working_set[1]})"


def snapshot_labels(d):
    """What each of SMO's snapshots (d: a Dual) shows, as the replay names its frames."""
    return tuple(frame_label(t, w, a) for t, w, a in zip(d.snapshot_t, d.working_set, d.active_set))


def _replay(X, y, test, setup):
    """SMO's run as f on the plot grid at each snapshot: with φ built, w = Σ αᵢyᵢφ(xᵢ) per snapshot and f = φ·w;
    else K(grid, X) once (only the points some snapshot uses), then one product per snapshot. Returns Z
    (S, len(ys), len(xs)) float32, the labels and the working sets."""
    d = solve(X, y, test, setup).dual
    grid = make_grid(X, n=GRID_POINTS)
    phi = features(setup)
    coef = d.snapshot_alpha * y
    if phi is None:
        used = np.flatnonzero(np.any(coef != 0, axis=0))
        Z = coef[:, used] @ setup.kernel.function()(grid.points, X[used]).T
    else:
        Z = (coef @ phi(X)) @ phi(grid.points).T
    Z = Z + d.snapshot_b[:, None]
    return Z.astype(np.float32).reshape(-1, grid.y.size, grid.x.size), snapshot_labels(d), d.working_set


@memo(max_entries=32)
def dual_figure(X, y, test, setup, own):
    """The dual's decision plot with the primal's boundary (explicit φ), SMO's replay made only when a student
    asks for it (figures.figure), and the student's points `own`."""
    s = solve(X, y, test, setup)
    d = s.dual
    return primal_dual_figure(s.xs, s.ys, d.Z, X, y, Z_primal=s.primal.Z if s.primal else None,
                              free_sv=np.flatnonzero(d.status == "free SV"),
                              # no box under the hard margin, so no bounded SV to name in the legend
                              bounded_sv=None if np.isinf(setup.C) else np.flatnonzero(d.status == "bounded SV"),
                              replay=lambda: _replay(X, y, test, setup), last_working_set=d.working_set[-1], own=own)


def figures(X, y, test, setup, own):
    """The lesson's two charts by key, the decision plot and the α bars: what the page draws and what its live route
    answers for a move of C (lab/live.py), made by this one function so that both are the same figures."""
    d = solve(X, y, test, setup).dual
    return {"pd_boundary": dual_figure(X, y, test, setup, own),
            "pd_alpha": alpha_bars(d.alpha, y, setup.C, height=460, snapshots=d.snapshot_alpha,
                                   labels=snapshot_labels(d))}
