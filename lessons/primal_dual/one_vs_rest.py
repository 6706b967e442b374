"""Lesson 3 on more than two classes (kernel mode): one binary SVM per class, combined by the largest decision
value (kernel_core.multiclass.OneVsRest), on the plot grid."""

from dataclasses import dataclass

import numpy as np

from figures.boundary import GRID_POINTS
from figures.multiclass import ovr_figure as _ovr_figure
from kernel_core import multiclass
from kernel_core.grid import make_grid
from kernel_core.svm import DualSVM
from lab.caught import caught_warnings
from lab.memo import memo
from lessons.primal_dual.compute import DUAL_TOL

ovr_figure = memo()(_ovr_figure)


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
    n_points: tuple          # training points per class
    n_right: tuple           # of them, predicted as their class
    unseen: tuple            # classes predicted nowhere on the plot

    def negative_everywhere(self, c):
        """Whether class c's SVM (c against the rest) is below 0 on the whole plot: its line f_c = 0 never shows."""
        return bool(self.Z[list(self.classes).index(c)].max() < 0)


@memo(max_entries=16)
def one_vs_rest(X, y, test, kernel, C, offset):
    """kernel_core.multiclass.OneVsRest fitted on (X, y), its f_c on the plot grid and its accuracies."""
    grid = make_grid(X, n=GRID_POINTS)
    with caught_warnings() as messages:
        model = multiclass.OneVsRest(DualSVM(**kernel.params(), C=C, fit_intercept=offset, tol=DUAL_TOL)).fit(X, y)
    F = model.decision_function(grid.points)
    classes = model.classes_
    predicted = model.predict(X)
    shown = set(classes[np.argmax(F, axis=1)])
    return OneVsRestResult(
        classes=classes, xs=grid.x, ys=grid.y, Z=F.T.reshape(len(classes), grid.y.size, grid.x.size),
        n_sv=tuple(int(e.support_.size) for e in model.estimators_),
        converged=tuple(bool(e.converged_) for e in model.estimators_),
        accuracy=float(np.mean(predicted == y)),
        test_accuracy=float(np.mean(model.predict(test[0]) == test[1])) if test else None, warnings=tuple(messages),
        n_points=tuple(int(np.sum(y == c)) for c in classes),
        n_right=tuple(int(np.sum((y == c) & (predicted == c))) for c in classes),
        unseen=tuple(c for c in classes if c not in shown))


def ovr_figures(X, y, test, setup, own):
    """The one-vs-rest view's chart by key (three classes, or labels other than ±1, in kernel mode): what the page
    draws and what its live route answers (lab/live.py). test: the multiclass held-out sample."""
    r = one_vs_rest(X, y, test, setup.kernel, setup.C, setup.offset)
    return {"pd_ovr": ovr_figure(r.xs, r.ys, r.Z, X, y, r.classes, own=own)}
