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
problems of one C are solved side by side (_fit_batch): a numpy call costs about as much for 85 problems of 80
points as for one, and a step of SMO in numpy is almost nothing but such calls. Each C runs SMO's rule (WSS 2,
as kernel_core.smo) on the whole batch to a loose gap, then the active-set polish of kernel_core.dual on the whole
batch (every problem's face system solved at once), and hands the few problems still above the tolerance to
fit_dual, which is DualSVM's solver (SMO's rounds and polish). Every cell is thus an optimum to the same
tolerance as DualSVM's. (For a kernel that is not PSD, the sigmoid, the dual has several KKT points, and a warm
start may end on another one than a cold start does.)
"""

from dataclasses import dataclass

import numpy as np

from . import dual
from .kernels import checked_gram, make_kernel
from .smo import TAU
from .svm import _intercept
from .validation import check_array, check_int, check_positive, check_X_y

CV_TOL = 1e-6             # the KKT violation each fit stops at (DualSVM's tol)
CV_MAX_ITER = 20_000      # SMO steps per fit; a fit that needs more is reported as not converged, not shown
MAX_FOLDS = 20
MAX_GRID_CELLS = 2_000
BATCH_BYTES = 64 << 20    # Gram blocks of the (fold, γ) problems solved side by side
BATCH_TARGET = 1e-2       # the gap the batched SMO runs to before the batched polish (dual.POLISH_FROM)
BATCH_STEPS = 100         # at most this many batched SMO passes per C,
BATCH_MIN = 16            # and only while more problems than this are still going: a pass costs as much for 1
# (these three measured on the lesson's grids, circles, moons and xor: 1.0 s → 0.29 s per heatmap with RBF)


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
    """Accuracy of sign(f) (f = 0 goes to −1, as scikit-learn's SVC predicts), per row of f and y."""
    return np.mean(np.where(f > 0, 1.0, -1.0) == y, axis=-1)


def _gradient(K, y, alpha):
    """v = y - K (alpha y) for a batch: K (P, m, m), y and alpha (P, m)."""
    return y - np.einsum("pij,pj->pi", K, alpha * y)


def _objective(alpha, y, v):
    """The dual objective of each problem of a batch (kernel_core.dual.objective)."""
    return alpha.sum(axis=1) - 0.5 * (alpha.sum(axis=1) - np.einsum("pi,pi->p", alpha * y, v))


def _gaps(alpha, y, v, C, fit_intercept):
    """kernel_core.dual.kkt_gap of each problem of a batch."""
    if fit_intercept:
        pos = y > 0
        up = np.where(pos, alpha < C, alpha > 0)
        low = np.where(pos, alpha > 0, alpha < C)
        return np.where(up, v, -np.inf).max(axis=1) - np.where(low, v, np.inf).min(axis=1)
    g = -y * v
    return np.where(g < 0, -g * (alpha < C), g * (alpha > 0)).max(axis=1)


def _smo_batch(K, y, C, alpha, v, tol, max_steps, fit_intercept, min_active=0):
    """SMO (kernel_core.smo._smo: WSS 2, TAU for a curvature <= 0, steps that land exactly on a bound), or
    coordinate descent without the offset (smo._coordinate_descent), on P problems at once: every pass takes one
    step of each problem whose gap is still above tol, in one set of numpy calls, so that numpy's per-call cost is
    shared by the batch (a lone step costs ~14 µs of it). alpha and v (P, m) advance in place; runs at most
    max_steps passes. Returns the steps each problem took."""
    P, m = y.shape
    pos = y > 0
    diag = np.einsum("pii->pi", K)
    steps = np.zeros(P, dtype=int)
    active = np.arange(P)
    for _ in range(max_steps):
        al, vv, yy, pp, dd = alpha[active], v[active], y[active], pos[active], diag[active]
        r = np.arange(active.size)
        if fit_intercept:
            vu = np.where(np.where(pp, al < C, al > 0), vv, -np.inf)
            vl = np.where(np.where(pp, al > 0, al < C), vv, np.inf)
            i = m - 1 - vu[:, ::-1].argmax(axis=1)          # the last maximum, as LIBSVM's >= scan
            top = vu[r, i]
            gap = top - vl.min(axis=1)
        else:
            g = -yy * vv
            violation = np.where(g < 0, -g * (al < C), g * (al > 0))
            gap = violation.max(axis=1)
        going = gap > tol                                    # NaN stops too: the caller sees it
        if not going.all():
            active, al, vv, yy, pp, dd, r = active[going], al[going], vv[going], yy[going], pp[going], dd[going], \
                r[:going.sum()]
            if fit_intercept:
                i, top, vl = i[going], top[going], vl[going]
            else:
                g, violation = g[going], violation[going]
        if active.size <= min_active:
            break
        steps[active] += 1
        if not fit_intercept:
            curvature = np.where(dd > 0, dd, TAU)
            t = m - 1 - (violation * violation / curvature)[:, ::-1].argmax(axis=1)
            k_t = dd[r, t]
            new = np.clip(al[r, t] - g[r, t] / np.where(k_t > 0, k_t, TAU), 0.0, C)
            v[active] -= ((new - al[r, t]) * yy[r, t])[:, None] * K[active, t]
            alpha[active, t] = new
            continue
        Ki = K[active, i]
        gain = np.maximum(top[:, None] - vl, 0.0)
        a = dd - 2.0 * Ki + dd[r, i][:, None]
        j = m - 1 - (gain * gain / np.where(a > 0, a, TAU))[:, ::-1].argmax(axis=1)
        a_ij = a[r, j]
        a_i, a_j, p_i, p_j = al[r, i], al[r, j], pp[r, i], pp[r, j]
        cap_i = np.where(p_i, C - a_i, a_i)
        cap_j = np.where(p_j, a_j, C - a_j)
        delta = np.minimum(np.minimum(gain[r, j] / np.where(a_ij > 0, a_ij, TAU), cap_i), cap_j)
        alpha[active, i] = np.where(delta == cap_i, np.where(p_i, C, 0.0), a_i + yy[r, i] * delta)
        alpha[active, j] = np.where(delta == cap_j, np.where(p_j, 0.0, C), a_j - yy[r, j] * delta)
        v[active] -= delta[:, None] * (Ki - K[active, j])
    return steps


def _intercepts(alpha, y, v, C):
    """kernel_core.svm._intercept of each problem of a batch: the mean of v over the free SVs, or LIBSVM's midpoint."""
    free = (alpha > 0) & (alpha < C)
    count = free.sum(axis=1)
    pos = y > 0
    up = np.where(pos, alpha < C, alpha > 0)
    low = np.where(pos, alpha > 0, alpha < C)
    middle = 0.5 * (np.where(up, v, -np.inf).max(axis=1) + np.where(low, v, np.inf).min(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, np.where(free, v, 0.0).sum(axis=1) / count, middle)


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


def _polish_batch(K, y, C, alpha, v, fit_intercept=True):
    """kernel_core.dual.polish on a batch: active-set steps from alpha (P, m), each solving every problem's face
    system at once (the faces padded to the largest with identity rows; without the offset, b's row too). alpha and v advance in
    place. Returns a mask of the problems it kept exact: one whose face system was singular or solved inaccurately,
    or whose Σ αᵢyᵢ drifted, is marked False and left where it was (fit_dual's own polish handles those)."""
    P, m = y.shape
    good = np.ones(P, dtype=bool)
    going = np.ones(P, dtype=bool)
    released = np.full(P, -1)
    for _ in range(dual.POLISH_STEPS):
        idx = np.flatnonzero(going & good)
        if idx.size == 0:
            break
        al, yy, rel = alpha[idx], y[idx], released[idx]
        free = (al > 0) & (al < C)
        has = rel >= 0
        free[np.flatnonzero(has), rel[has]] = True
        count = free.sum(axis=1)
        if (count == 0).any():
            going[idx[count == 0]] = False
            continue
        s = int(count.max())
        F = np.argsort(~free, axis=1, kind="stable")[:, :s]          # the free indices first, padded after them
        valid = np.arange(s) < count[:, None]
        yF = np.where(valid, np.take_along_axis(yy, F, axis=1), 0.0)
        rows_F = K[idx[:, None], F]                                  # (p, s, m) the rows K[F, :]
        A = np.zeros((idx.size, s + 1, s + 1))
        A[:, :s, :s] = yF[:, :, None] * np.take_along_axis(rows_F, F[:, None, :], axis=2) * yF[:, None, :]
        if fit_intercept:
            A[:, :s, s] = A[:, s, :s] = yF
        else:
            A[:, s, s] = 1.0                                         # b = 0
        pad = np.flatnonzero(~valid.ravel())
        A[pad // s, pad % s, pad % s] = 1.0
        r = np.zeros((idx.size, s + 1))
        r[:, :s] = yF * np.take_along_axis(v[idx], F, axis=1)       # -(G alpha - 1)_F = y_F v_F
        try:
            x = np.linalg.solve(A, r[..., None])[..., 0]
        except np.linalg.LinAlgError:
            x = np.full_like(r, np.nan)
        exact = np.isfinite(x).all(axis=1) & (np.abs(np.einsum("pij,pj->pi", A, x) - r).max(axis=1)
                                              <= 1e-8 * (1.0 + np.abs(r).max(axis=1)))
        if not exact.all():
            good[idx[~exact]] = False
            continue                          # the exact ones step on the next pass
        d, b = np.where(valid, x[:, :s], 0.0), x[:, s]
        a_F = np.take_along_axis(al, F, axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            room = np.where(d < 0, -a_F / d, np.where(d > 0, (C - a_F) / d, np.inf))
        j = room.argmin(axis=1)
        rows = np.arange(idx.size)
        theta = np.minimum(1.0, room[rows, j])
        stuck = ~(theta > 0.0)
        going[idx[stuck]] = False
        step = theta[:, None] * d * ~stuck[:, None]
        np.put_along_axis(al, F, np.where(valid, a_F + step, np.take_along_axis(al, F, axis=1)), axis=1)
        v[idx] -= np.einsum("ps,psm->pm", step * yF, rows_F)
        blocked = (theta < 1.0) & ~stuck
        al[rows[blocked], F[rows[blocked], j[blocked]]] = np.where(d[rows[blocked], j[blocked]] < 0, 0.0, C)
        rel[:] = -1
        # at a face's optimum v_F = b: a bounded α_j with y_j (v_j - b) > 0 at 0, or < 0 at C, should move
        at_optimum = np.flatnonzero(~blocked & ~stuck)
        push = yy[at_optimum] * (v[idx[at_optimum]] - b[at_optimum, None]) * np.where(al[at_optimum] > 0, -1.0, 1.0)
        np.put_along_axis(push, F[at_optimum], 0.0, axis=1)
        best = push.argmax(axis=1)
        done = ~(push[np.arange(at_optimum.size), best] > 0.0)
        going[idx[at_optimum[done]]] = False
        rel[at_optimum[~done]] = best[~done]
        alpha[idx], released[idx] = np.clip(al, 0.0, C), rel
    if fit_intercept:
        good &= np.abs(np.einsum("pi,pi->p", alpha, y)) <= 1e-12 * (1.0 + alpha.sum(axis=1))
    return good


def _fit_batch(batch, C, alpha0, fit_intercept, polish):
    """Every problem of the batch at this C, to CV_TOL: from alpha0 (P, m) (each row feasible for C, or zero), or
    from the better in the dual objective of alpha0 and alpha0 · C / max alpha0 (as fit_dual starts); batched SMO
    to BATCH_TARGET (at most BATCH_STEPS passes, while more than BATCH_MIN problems are going), then one batched
    active-set polish, kept where it did not lower the dual objective; then fit_dual (SMO's rounds and
    polish) for the problems whose KKT gap is still above CV_TOL.
    Returns (alpha, b, converged, steps); a row's alpha is zero where it did not converge."""
    y, K = batch.y, batch.K
    alpha = np.zeros_like(y) if alpha0 is None else alpha0.copy()
    v = _gradient(K, y, alpha)
    top = alpha.max(axis=1)
    scale = np.where((top > 0) & (top < C), C / np.where(top > 0, top, 1.0), 1.0)
    if (scale != 1.0).any():
        scaled = alpha * scale[:, None]
        v_scaled = _gradient(K, y, scaled)
        better = _objective(scaled, y, v_scaled) > _objective(alpha, y, v)
        alpha[better], v[better] = scaled[better], v_scaled[better]
    with np.errstate(over="ignore", invalid="ignore"):
        steps = _smo_batch(K, y, C, alpha, v, max(CV_TOL, BATCH_TARGET), BATCH_STEPS, fit_intercept, BATCH_MIN)
        v = _gradient(K, y, alpha)                           # exact, as dual.solve leaves it after a round
        gap = _gaps(alpha, y, v, C, fit_intercept)
        rest = np.flatnonzero(gap > CV_TOL)
        if rest.size:
            polished, v_polished = alpha[rest], v[rest]
            good = _polish_batch(K[rest], y[rest], C, polished, v_polished, fit_intercept)
            v_polished = _gradient(K[rest], y[rest], polished)
            before = _objective(alpha[rest], y[rest], v[rest])
            good &= _objective(polished, y[rest], v_polished) >= before - 1e-12 * (1.0 + np.abs(before))
            alpha[rest[good]], v[rest[good]] = polished[good], v_polished[good]
            gap = _gaps(alpha, y, v, C, fit_intercept)
        converged = gap <= CV_TOL
    b = _intercepts(alpha, y, v, C) if fit_intercept else np.zeros(len(y))
    for p in np.flatnonzero(~converged):                     # the long tail: SMO's rounds and the polish
        alpha[p], b[p], converged[p], t = fit_dual(K[p], y[p], C, fit_intercept=fit_intercept, alpha0=alpha[p],
                                                   max_iter=CV_MAX_ITER - steps[p], polish=polish)
        steps[p] += t
    converged &= np.isfinite(alpha).all(axis=1)
    alpha[~converged] = 0.0
    return alpha, b, converged, int(steps.sum())


def cv_grid(X, y, kernel="rbf", *, Cs, gammas, k=5, seed=0, degree=3, coef0=1.0, fit_intercept=True,
            warm_start=True, polish=False):
    """k-fold cross-validated accuracy of the kernel SVM (DualSVM's dual) at every (C, γ) of the grid.

    kernel: a registry name that takes γ ("rbf", "poly", "laplacian", "exponential", "sigmoid"); degree and
    coef0 as in kernel_core.kernels. Folds: fold_indices(y, k, seed). The (fold, γ) problems are solved side by
    side (_fit_batch), C ascending; warm_start: each fit starts from the previous C's α on the same fold and γ.
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
            alpha, b, ok, t = _fit_batch(batch, Cs[c], alpha if warm_start else None, fit_intercept, polish)
            fits, steps = fits + ok.size, steps + t
            coef = alpha * batch.y
            f, g = batch.f[ok], batch.g[ok]
            val[f, g, c] = _accuracy(np.einsum("pij,pj->pi", batch.K_va, coef) + b[:, None], batch.y_va)[ok]
            train[f, g, c] = _accuracy(np.einsum("pij,pj->pi", batch.K, coef) + b[:, None], batch.y)[ok]
            n_sv[f, g, c] = np.count_nonzero(alpha, axis=1)[ok]
    return CVGrid(Cs=Cs, gammas=gammas, validation=val.mean(axis=0), train=train.mean(axis=0),
                  n_sv=n_sv.mean(axis=0), fold_validation=val, k=len(folds), seed=int(seed), fits=fits, steps=steps)

