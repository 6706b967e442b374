"""Lesson 3's core calls: the primal (interior point on explicit features) and the dual (SMO) solved
independently, memoized once per process and shared by every session (lab/memo.py)."""

import inspect
from dataclasses import dataclass

import numpy as np

from figures.boundary import GRID_POINTS
from figures.multiclass import ovr_figure as _ovr_figure
from figures.svm import alpha_bars as _alpha_bars, primal_dual_figure
from figures.validation import cv_curves, cv_heatmap
from kernel_core import crossval, smo, svm
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.kernels import KernelSpec
from kernel_core.mercer import fails_mercer
from lab import background
from lab.caught import caught_warnings
from lab.memo import memo
from lab.reproduce import SKLEARN_HARD_C
from lab.state import C_VALUES, GAMMA_VALUES

# SMO stops at a KKT violation of DUAL_TOL: w and b then agree with the primal in every printed digit
DUAL_TOL = 1e-9
# a duality gap this small against max(1, |primal objective|) is zero within the solvers' tolerances (both stop
# at about 1e-9): round-off may leave it slightly negative, which weak duality forbids of the exact optima
GAP_TOL = 1e-8
# libsvm has no step limit of its own: C = 1000 with a degree-10 polynomial ran for minutes
SKLEARN_MAX_ITER = 500_000
# the dual solver's code shown on the page, by "with offset b": SMO, else coordinate descent
SOLVER_SOURCE = {True: inspect.getsource(smo._smo), False: inspect.getsource(smo._coordinate_descent)}

alpha_bars, ovr_figure = map(memo(), (_alpha_bars, _ovr_figure))
# the validation heatmap: k stratified folds, shuffled with the sidebar's seed, over the C and γ slider grids
CV_FOLDS = 5
CV_SOURCE = inspect.getsource(crossval.cv_grid)


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


@dataclass(frozen=True)
class Libsvm:
    """scikit-learn's SVC on the same problem, for comparison."""

    objective: float
    b: float
    n_sv: int
    alpha: np.ndarray
    warnings: tuple


def _features(setup):
    """φ applied to points: the explicit map, the identity (φ(x) = x), or None (kernel space: no φ is built)."""
    if setup.space == "kernel":
        return None
    return FEATURE_MAPS[setup.fmap].phi if setup.space == "explicit" else np.asarray


@memo(max_entries=32)
def solve(X, y, test, setup):
    """Primal and dual fitted independently on (X, y), f of both on a grid, accuracy on test = (X_test, y_test)."""
    grid = make_grid(X, n=GRID_POINTS)
    shape = (grid.y.size, grid.x.size)
    phi = _features(setup)
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
    phi = _features(setup)
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
                              bounded_sv=np.flatnonzero(d.status == "bounded SV"),
                              replay=lambda: _replay(X, y, test, setup), last_working_set=d.working_set[-1], own=own)


def figures(X, y, test, setup, own):
    """The lesson's two charts by key, the decision plot and the α bars: what the page draws and what its live route
    answers for a move of C (lab/live.py), made by this one function so that both are the same figures."""
    d = solve(X, y, test, setup).dual
    return {"pd_boundary": dual_figure(X, y, test, setup, own),
            "pd_alpha": alpha_bars(d.alpha, y, setup.C, height=460, snapshots=d.snapshot_alpha,
                                   labels=snapshot_labels(d))}


@memo(max_entries=32)
def libsvm(X, y, setup):
    """scikit-learn's SVC (libsvm) on the same data and kernel, for comparison only."""
    from sklearn.svm import SVC

    phi = _features(setup)
    F, k = (X, setup.kernel.function()) if phi is None else (phi(X), "linear")
    with caught_warnings() as messages:
        svc = SVC(kernel=k, C=min(setup.C, SKLEARN_HARD_C), tol=DUAL_TOL, max_iter=SKLEARN_MAX_ITER).fit(F, y)
    coef = svc.dual_coef_[0]                      # yᵢαᵢ on the support vectors
    b = float(svc.intercept_[0])
    # αᵀGα = Σ yᵢαᵢ (f(xᵢ) − b) over the support vectors, from libsvm's own decision function
    f_sv = svc.decision_function(F[svc.support_])   # support_vectors_ stays empty for a callable kernel
    alpha = np.zeros(y.size)
    alpha[svc.support_] = np.abs(coef)
    return Libsvm(objective=float(np.abs(coef).sum() - 0.5 * np.sum(coef * (f_sv - b))), b=b,
                  n_sv=int(svc.support_.size), alpha=alpha, warnings=tuple(messages))


def vec(v):
    """A vector to six decimals."""
    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"


def comparison(s):
    """The primal and the dual side by side, as the page's table columns."""
    p, d = s.primal, s.dual
    rows = {"w": (vec(p.w) if p else "—", vec(d.w) if d.w is not None else "Σ αᵢyᵢφ(xᵢ), φ not built"),
            "b": (f"{p.b:.6f}" if p else "—", f"{d.b:.6f}"),
            "objective": (f"{p.objective:.8f}" if p else "—", f"{d.objective:.8f}"),
            "‖w‖": (f"{p.norm_w:.6f}" if p else "—", f"{d.norm_w:.6f}" if not d.psd_violated
                    else f"none: K is not PSD (αᵀGα = {d.norm_w_squared:.4g})"),
            "training accuracy": (f"{p.accuracy:.4f}" if p else "—", f"{d.accuracy:.4f}"),
            "iterations": (f"{p.n_iter} (interior point)" if p else "—", f"{d.n_iter} (SMO)")}
    return {"quantity": list(rows), "primal: min ½‖w‖² + CΣξᵢ": [v[0] for v in rows.values()],
            "dual: max Σαᵢ − ½αᵀGα": [v[1] for v in rows.values()]}


def margin(d):
    """1/‖w‖ where the margin exists: K PSD on these points and w ≠ 0."""
    return f"{1.0 / d.norm_w:.4f}" if d.norm_w > 0 and not d.psd_violated else "—"


def _cv_options(degree, coef0, offset, seed):
    """crossval.cv_grid's options for the lesson's grid: the sliders' C and γ values, CV_FOLDS folds."""
    return dict(Cs=C_VALUES, gammas=GAMMA_VALUES, k=CV_FOLDS, seed=seed, degree=degree, coef0=coef0,
                fit_intercept=offset)


@memo(max_entries=16)
def _cv_grid(X, y, kernel_name, degree, coef0, offset, seed):
    return crossval.cv_grid(X, y, kernel_name, **_cv_options(degree, coef0, offset, seed))


def validation_grid(X, y, kernel, offset, seed, *, owner=None):
    """k-fold cross-validated accuracy over the whole C × γ grid of the sliders (kernel_core.crossval.cv_grid),
    memoized by what it depends on: the data, the kernel without its γ, the offset and the folds' seed. The
    current C and γ are not part of the key, so moving either slider reuses the grid.

    owner: the asking session (lab/background.Owner). The grid is then computed in the background process
    (lab/background.py) unless it is remembered, and this returns None until it is there (background.Busy when
    too many grids already wait)."""
    args = (X, y, kernel.name, kernel.degree, kernel.coef0, offset, seed)
    if owner is None:
        return _cv_grid(*args)
    grid = _cv_grid.peek(*args)
    if grid is None:
        grid = background.result(_cv_grid.key(*args), owner, crossval.cv_grid, X, y, kernel.name,
                                 **_cv_options(kernel.degree, kernel.coef0, offset, seed))
        if grid is not None:
            grid = _cv_grid.remember(grid, *args)
    return grid


@memo(max_entries=32)
def validation_figures(X, y, kernel, offset, seed, C):
    """(heatmap, curves) of the validation grid with the current (C, kernel.gamma) marked."""
    grid = validation_grid(X, y, kernel, offset, seed)
    return cv_heatmap(grid, C, kernel.gamma), cv_curves(grid, C, kernel.gamma)


@dataclass(frozen=True)
class OneVsRestResult:
    """One binary SVM per class (class c: y = +1, the rest: y = −1), combined by argmax of the decision values."""

    classes: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray            # (classes, len(ys), len(xs)) each SVM's f on the grid
    n_sv: tuple              # support vectors per SVM
    converged: tuple
    accuracy: float
    test_accuracy: float | None
    warnings: tuple


@memo(max_entries=16)
def one_vs_rest(X, y, test, kernel, C, offset):
    """kernel_core.crossval.OneVsRest fitted on (X, y), its f_c on the plot grid and its accuracies."""
    grid = make_grid(X, n=GRID_POINTS)
    with caught_warnings() as messages:
        model = crossval.OneVsRest(**kernel.params(), C=C, fit_intercept=offset, tol=DUAL_TOL).fit(X, y)
    F = model.decision_function(grid.points)
    return OneVsRestResult(
        classes=model.classes_, xs=grid.x, ys=grid.y, Z=F.T.reshape(len(model.classes_), grid.y.size, grid.x.size),
        n_sv=tuple(int(e.support_.size) for e in model.estimators_),
        converged=tuple(bool(e.converged_) for e in model.estimators_),
        accuracy=float(np.mean(model.predict(X) == y)),
        test_accuracy=float(np.mean(model.predict(test[0]) == test[1])) if test else None, warnings=tuple(messages))


def ovr_figures(X, y, test, setup, own):
    """The one-vs-rest view's chart by key (three classes, or labels other than ±1, in kernel mode): what the page
    draws and what its live route answers (lab/live.py). test: the multiclass held-out sample."""
    r = one_vs_rest(X, y, test, setup.kernel, setup.C, setup.offset)
    return {"pd_ovr": ovr_figure(r.xs, r.ys, r.Z, X, y, r.classes, own=own)}
