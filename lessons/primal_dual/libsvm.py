"""Lesson 3's comparison with scikit-learn's SVC (libsvm) on the same problem: its dual objective, b, support
vectors and α, for comparison only (the lesson's answers come from kernel_core)."""

from dataclasses import dataclass

import numpy as np

from lab.caught import caught_warnings
from lab.memo import memo
from lab.reproduce import SKLEARN_HARD_C
from lessons.primal_dual.compute import DUAL_TOL, features

# libsvm has no step limit of its own: C = 1000 with a degree-10 polynomial ran for minutes
SKLEARN_MAX_ITER = 500_000


@dataclass(frozen=True)
class Libsvm:
    """scikit-learn's SVC on the same problem, for comparison."""

    objective: float
    b: float
    n_sv: int
    alpha: np.ndarray
    warnings: tuple


@memo(max_entries=32)
def libsvm(X, y, setup):
    """scikit-learn's SVC (libsvm) on the same data and kernel, for comparison only."""
    from sklearn.svm import SVC

    phi = features(setup)
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
