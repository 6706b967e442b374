"""k-fold cross-validation of the kernel SVM over a C × γ grid, and one-vs-rest for more than two classes.

Notation (n samples, k folds, grid of len(Cs) × len(gammas))
    X, y          training points and labels (y in {-1, +1} for the binary SVM; any values for one-vs-rest)
    folds         k (train, validation) index pairs; every point is validated exactly once
    K_γ  (n, n)   the Gram matrix of the whole training set at one γ, computed once and shared by its folds
    alpha, b      one fold's dual solution, as DualSVM finds it (SMO, kernel_core.dual)

What makes a grid cheap. Per γ the Gram matrix of all n points is computed once; a fold's solver reads the rows
of its block K_γ[train, train], and its validation points' decision values are K_γ[val, train] (α∘y) + b: no
kernel call per fit. Along C (ascending) each fit starts from the α of the fit at the C before it (a warm start:
that α is feasible for the larger box, and the support changes little from one C to the next). The solver is the
one DualSVM uses (kernel_core.dual.start / solve: SMO with the WSS 2 rule, rounds and active-set polish), to the
same tolerance, so every cell is the optimum DualSVM would report. (For a kernel that is not PSD, the sigmoid,
the dual has several KKT points, and a warm start may end on another one than a cold start does.)
"""

from dataclasses import dataclass

import numpy as np

from . import dual
from .kernels import checked_gram, make_kernel
from .svm import _intercept
from .validation import check_array, check_int, check_positive, check_X_y

CV_TOL = 1e-6             # the KKT violation each fit stops at (DualSVM's tol)
CV_MAX_ITER = 20_000      # SMO steps per fit; a fit that needs more is reported as not converged, not shown
MAX_FOLDS = 20
MAX_GRID_CELLS = 2_000


def fold_indices(y, k=5, seed=0):
    """k stratified folds of range(n), shuffled with `seed`: each class's indices in a random order dealt to the
    folds in turn (continuing where the previous class stopped), so that fold sizes differ by at most one and
    every class is spread over the folds. Returns a tuple of k (train, validation) sorted index arrays."""
    y = check_array(y, "y", ndim=1)
    k = check_int(k, "k (folds)", low=2, high=MAX_FOLDS)
    seed = check_int(seed, "seed", low=0, high=2**32 - 1)
    if y.size < k:
        raise ValueError(f"{k}-fold cross-validation needs at least {k} points; there are {y.size}. "
                         "Add points or use fewer folds.")
    rng = np.random.default_rng(seed)
    fold = np.empty(y.size, dtype=int)
    start = 0
    for label in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == label))
        fold[members] = (start + np.arange(members.size)) % k
        start = (start + members.size) % k
    return tuple((np.flatnonzero(fold != f), np.flatnonzero(fold == f)) for f in range(k))


class _GramRows:
    """What kernel_core.dual reads of a kernel (rows, blocks, the diagonal), served from a Gram block in memory."""

    def __init__(self, K):
        self.K = K

    def __call__(self, i):
        return self.K[i]

    def block(self, idx):
        return self.K[idx]

    def diagonal(self):
        return np.diag(self.K).copy()


class _NoTrace:
    """A history that records nothing: a grid's fits keep no history_."""

    @staticmethod
    def due(t):
        return False


def _run(rows, y, alpha):
    """A dual.Run at a feasible alpha (no projection: the caller's alpha is feasible), its gradient exact."""
    v = dual.gradient(rows, y, alpha)
    run = dual.Run(alpha, v, dual.objective(alpha, y, v))
    run.record()
    return run


def fit_dual(K, y, C, *, fit_intercept=True, tol=CV_TOL, max_iter=CV_MAX_ITER, alpha0=None, polish=False):
    """The SVM dual on a precomputed Gram matrix K (n, n), solved as DualSVM.fit solves it (kernel_core.dual:
    SMO's rounds and active-set polish, to tol). Returns (alpha, b, converged, steps).

    alpha0: a warm start that must be feasible for this C (the α of a fit at a smaller C is: ascending C only
    widens the box). From it, the start is whichever is higher in the dual objective of alpha0 and alpha0 ·
    C / C0 where C0 = max alpha0 (exact when every support vector is bounded). polish=True adds one active-set
    polish of that start before SMO (off by default: on the lesson's grids it cut the steps fourfold but cost
    more time than it saved).
    """
    rows = _GramRows(K)
    if alpha0 is None:
        run = dual.start(rows, y, C, fit_intercept, None)
    else:
        run = _run(rows, y, np.array(alpha0, dtype=float))
        top = float(run.alpha.max(initial=0.0))
        if 0.0 < top < C < np.inf:
            scaled = _run(rows, y, run.alpha * (C / top))
            if scaled.objective > run.objective:
                run = scaled
        if polish:
            polished, _ = dual.polish(rows, y, C, run.alpha, fit_intercept)
            candidate = _run(rows, y, polished)
            # kept only where it is feasible: from a start that is no SMO iterate (a scaled one, all support
            # vectors bounded), polish's ray steps on a nearly singular face were seen to break Σ αᵢyᵢ = 0
            feasible = not fit_intercept or abs(polished @ y) <= 1e-12 * (1.0 + polished.sum())
            if feasible and candidate.objective >= run.objective:
                run = candidate
    with np.errstate(over="ignore", invalid="ignore"):
        gap = dual.solve(rows, rows.diagonal(), y, C, tol, max_iter, fit_intercept, _NoTrace(), run)
    converged = bool(gap <= tol) and bool(np.all(np.isfinite(run.alpha)))
    b = _intercept(run.alpha, y, run.v, C) if fit_intercept and converged else 0.0
    return run.alpha, b, converged, run.t


@dataclass(frozen=True)
class CVGrid:
    """Cross-validated accuracy over Cs × gammas; arrays of shape (len(gammas), len(Cs)), NaN where a fold's
    fit did not converge within CV_MAX_ITER steps (or the kernel overflowed at that γ)."""

    Cs: np.ndarray
    gammas: np.ndarray
    validation: np.ndarray      # mean over the folds of the accuracy on the fold left out
    train: np.ndarray           # mean over the folds of the accuracy on the folds trained on
    n_sv: np.ndarray            # mean over the folds of the number of support vectors (α > 0)
    fold_validation: np.ndarray  # (k, len(gammas), len(Cs)) each fold's validation accuracy
    k: int
    seed: int
    fits: int                   # SVM fits run
    steps: int                  # SMO steps taken by all of them


def _accuracy(f, y):
    """Accuracy of sign(f) (f = 0 goes to −1, as scikit-learn's SVC predicts)."""
    return float(np.mean(np.where(f > 0, 1.0, -1.0) == y))


def cv_grid(X, y, kernel="rbf", *, Cs, gammas, k=5, seed=0, degree=3, coef0=1.0, fit_intercept=True,
            warm_start=True, polish=False):
    """k-fold cross-validated accuracy of the kernel SVM (DualSVM's dual) at every (C, γ) of the grid.

    kernel: a registry name that takes γ ("rbf", "poly", "laplacian", "exponential", "sigmoid"); degree and
    coef0 as in kernel_core.kernels. Folds: fold_indices(y, k, seed). warm_start: each fit along C (ascending)
    starts from the previous C's α on the same fold and γ. Returns a CVGrid.
    """
    X, y = check_X_y(X, y)
    Cs = np.array([check_positive(c, "C") for c in Cs], dtype=float)
    gammas = np.array([check_positive(g, "gamma") for g in gammas], dtype=float)
    if Cs.size * gammas.size == 0 or Cs.size * gammas.size > MAX_GRID_CELLS:
        raise ValueError(f"The grid has {Cs.size} × {gammas.size} cells; give between 1 and {MAX_GRID_CELLS}.")
    order = np.argsort(Cs)
    folds = fold_indices(y, k, seed)
    shape = (gammas.size, Cs.size)
    val = np.full((len(folds), *shape), np.nan)
    train = np.full((len(folds), *shape), np.nan)
    n_sv = np.full((len(folds), *shape), np.nan)
    fits = steps = 0
    for g, gamma in enumerate(gammas):
        kernel_fn = make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)
        try:
            K = checked_gram(kernel_fn, X, X)
        except ValueError:
            continue        # the kernel overflows at this γ: its row stays NaN
        for f, (tr, va) in enumerate(folds):
            K_tr, K_va, y_tr = K[np.ix_(tr, tr)], K[np.ix_(va, tr)], y[tr]
            if np.unique(y_tr).size < 2:
                continue
            alpha = None
            for c in order:
                alpha, b, ok, t = fit_dual(K_tr, y_tr, Cs[c], fit_intercept=fit_intercept,
                                           alpha0=alpha if warm_start else None, polish=polish)
                fits, steps = fits + 1, steps + t
                if not ok:
                    alpha = None
                    continue
                coef = alpha * y_tr
                val[f, g, c] = _accuracy(K_va @ coef + b, y[va])
                train[f, g, c] = _accuracy(K_tr @ coef + b, y_tr)
                n_sv[f, g, c] = np.count_nonzero(alpha)
    return CVGrid(Cs=Cs, gammas=gammas, validation=val.mean(axis=0), train=train.mean(axis=0),
                  n_sv=n_sv.mean(axis=0), fold_validation=val, k=len(folds), seed=int(seed), fits=fits, steps=steps)


class OneVsRest:
    """One binary kernel SVM (DualSVM, ±1 labels) per class: class c against all the others. The combined
    decision is the class whose SVM gives the largest decision value (argmax), as scikit-learn's
    OneVsRestClassifier predicts. Parameters as DualSVM's.

    Attributes: classes_ (sorted labels), estimators_ (one fitted DualSVM per class, in classes_ order).
    """

    def __init__(self, kernel="rbf", *, C=1.0, gamma=None, degree=3, coef0=1.0, fit_intercept=True, tol=1e-3,
                 max_iter=100_000):
        self.params = dict(kernel=kernel, C=C, gamma=gamma, degree=degree, coef0=coef0, fit_intercept=fit_intercept,
                           tol=tol, max_iter=max_iter)

    def fit(self, X, y):
        from .svm import DualSVM

        X = check_array(X, "X")
        y = check_array(y, "y", ndim=1)
        if y.size != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} samples but y has {y.size} labels; give one label per sample.")
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"y contains only the class {self.classes_[0]:g}; one-vs-rest needs two or more.")
        self.estimators_ = [DualSVM(**self.params).fit(X, np.where(y == c, 1.0, -1.0)) for c in self.classes_]
        return self

    def decision_function(self, X):
        """(m, number of classes): each class's SVM's f(x)."""
        if not hasattr(self, "estimators_"):
            raise ValueError("This OneVsRest is not fitted yet; call fit first.")
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def predict(self, X):
        """The class with the largest decision value."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
