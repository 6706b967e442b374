"""k-fold cross-validation of the kernel SVM over a C × γ grid.

Notation (n samples, k folds, grid of len(Cs) × len(gammas))
    X, y          training points and labels (y in {-1, +1})
    folds         k (train, validation) index pairs; every point is validated exactly once
    K_γ  (n, n)   the Gram matrix of the whole training set at one γ, computed once and shared by its folds
    alpha, b      one fold's dual solution, as DualSVM finds it (SMO, kernel_core.dual)

What makes a grid cheap. Per γ the Gram matrix of all n points is computed once; a fold's solver reads the rows
of its block K_γ[train, train], and its validation points' decision values are K_γ[val, train] (α∘y) + b: no
kernel call per fit. Along C (ascending) each fit starts from the α of the fit at the C before it (a warm start:
that α is feasible for the larger box, and the support changes little from one C to the next). And the k × len(γ)
problems of one C are solved side by side by kernel_core.batch, with DualSVM's step rule and polish, each to the
same tolerance as DualSVM's. (For a kernel that is not PSD, the sigmoid, the dual has several KKT points, and a
warm start may end on another one than a cold start does.)
"""

from dataclasses import dataclass

import numpy as np

from .batch import CV_MAX_ITER, CV_TOL, fit_batch, gradient
from .kernels import checked_gram, make_kernel
from .validation import check_array, check_int, check_positive, check_X_y

MAX_FOLDS = 20
MAX_GRID_CELLS = 2_000
BATCH_BYTES = 64 << 20    # Gram blocks of the (fold, γ) problems solved side by side


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
    """Accuracy of sign(f) (f = 0 goes to −1, as scikit-learn's SVC predicts), per row of f and y."""
    return np.mean(np.where(f > 0, 1.0, -1.0) == y, axis=-1)


@dataclass
class _Batch:
    """(fold, γ) problems with training sets of one size: their Gram blocks stacked."""

    f: np.ndarray          # (P,) fold of each problem
    g: np.ndarray          # (P,) index of its γ
    K: np.ndarray          # (P, m, m) K_γ[train, train]
    K_va: np.ndarray       # (P, m_va, m) K_γ[validation, train]
    y: np.ndarray          # (P, m) training labels
    y_va: np.ndarray       # (P, m_va) validation labels


def _batches(grams, y, folds):
    """The (fold, γ) problems in _Batch'es of one training-set size, each within BATCH_BYTES of Gram blocks. Skipped:
    a γ whose kernel overflowed (gram None) and a fold whose training part has one class."""
    problems = {}
    for g, K in enumerate(grams):
        for f, (tr, _) in enumerate(folds):
            if K is not None and np.unique(y[tr]).size == 2:
                problems.setdefault(tr.size, []).append((f, g))
    for m, pairs in problems.items():
        per = max(1, BATCH_BYTES // (8 * m * m))
        for s in range(0, len(pairs), per):
            f, g = (np.array(c) for c in zip(*pairs[s:s + per]))
            tr = [folds[i][0] for i in f]
            va = [folds[i][1] for i in f]
            yield _Batch(f, g, np.array([grams[gi][np.ix_(t, t)] for gi, t in zip(g, tr)]),
                         np.array([grams[gi][np.ix_(u, t)] for gi, t, u in zip(g, tr, va)]),
                         np.array([y[t] for t in tr]), np.array([y[u] for u in va]))


def cv_grid(X, y, kernel="rbf", *, Cs, gammas, k=5, seed=0, degree=3, coef0=1.0, fit_intercept=True,
            warm_start=True, polish=False):
    """k-fold cross-validated accuracy of the kernel SVM (DualSVM's dual) at every (C, γ) of the grid.

    kernel: a registry name that takes γ ("rbf", "poly", "laplacian", "exponential", "sigmoid"); degree and
    coef0 as in kernel_core.kernels. Folds: fold_indices(y, k, seed). The (fold, γ) problems are solved side by
    side (kernel_core.batch.fit_batch), C ascending; warm_start: each fit starts from the previous C's α on the same
    fold and γ.
    Returns a CVGrid.
    """
    X, y = check_X_y(X, y)
    Cs = np.array([check_positive(c, "C") for c in Cs], dtype=float)
    gammas = np.array([check_positive(g, "gamma") for g in gammas], dtype=float)
    if Cs.size * gammas.size == 0 or Cs.size * gammas.size > MAX_GRID_CELLS:
        raise ValueError(f"The grid has {Cs.size} × {gammas.size} cells; give between 1 and {MAX_GRID_CELLS}.")
    folds = fold_indices(y, k, seed)
    grams = []
    for gamma in gammas:
        try:
            grams.append(checked_gram(make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0), X, X))
        except ValueError:
            grams.append(None)      # the kernel overflows at this γ: its row stays NaN
    val, train, n_sv = (np.full((len(folds), gammas.size, Cs.size), np.nan) for _ in range(3))
    fits = steps = 0
    for batch in _batches(grams, y, folds):
        alpha = None
        for c in np.argsort(Cs):
            alpha, b, ok, t = fit_batch(batch.K, batch.y, Cs[c], alpha if warm_start else None, fit_intercept,
                                        CV_TOL, CV_MAX_ITER, polish)
            fits, steps = fits + ok.size, steps + t
            coef = alpha * batch.y
            f, g = batch.f[ok], batch.g[ok]
            val[f, g, c] = _accuracy(np.matmul(batch.K_va, coef[..., None])[..., 0] + b[:, None], batch.y_va)[ok]
            train[f, g, c] = _accuracy(batch.y - gradient(batch.K, batch.y, alpha) + b[:, None], batch.y)[ok]
            n_sv[f, g, c] = np.count_nonzero(alpha, axis=1)[ok]
    return CVGrid(Cs=Cs, gammas=gammas, validation=val.mean(axis=0), train=train.mean(axis=0),
                  n_sv=n_sv.mean(axis=0), fold_validation=val, k=len(folds), seed=int(seed), fits=fits, steps=steps)

