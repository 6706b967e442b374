"""The SVM dual of many problems at once, each on a Gram matrix in memory: the validation grid's solver.

Notation (P problems of m training points; as in kernel_core.smo and kernel_core.dual)
    K       (P, m, m)  Gram matrices, one per problem
    y       (P, m)     labels in {-1, +1}
    alpha   (P, m)     dual variables; v (P, m) their gradients y - K (alpha y)
    b       (P,)       intercepts

Why a batch. A numpy call costs about as much for 85 problems of 80 points as for one, and a step of SMO in numpy
is almost nothing but such calls. So the step rule of kernel_core.smo and the polish of kernel_core.dual take
a leading axis of problems, and fit_batch runs them on the whole batch: the step rule to a loose gap (at most
BATCH_STEPS steps, while more than BATCH_MIN problems are going: a step costs as much for 1 as for them), then
the polish of every problem at once, and hands the few problems still above tol to fit_dual, which is DualSVM's
solver (SMO's rounds and the polish, kernel_core.dual.solve) on one problem. Every problem thus ends at an
optimum to the same tolerance as DualSVM's.
"""

import numpy as np

from . import dual
from .smo import Batch, coordinate_step, kkt_gap, pair_step

CV_TOL = 1e-6             # the KKT violation each of the grid's fits stops at (DualSVM's tol)
CV_MAX_ITER = 20_000      # SMO steps per fit; a fit that needs more is reported as not converged, not shown
BATCH_TARGET = 1e-2       # the gap the batched steps run to before the batched polish (dual.POLISH_FROM)
BATCH_STEPS = 100         # at most this many batched steps per fit,
BATCH_MIN = 16            # and only while more problems than this are still going
POLISH_ROUNDS = 2         # the batched polish of a problem costs at most this many rounds of SMO (a round and a
                          # polish sized like one, as dual.solve alternates them)


def in_memory(K, problems=None):
    """The rows reader of kernel_core.smo and kernel_core.dual for Gram matrices K (P, m, m) in memory; problems:
    the indices into K of the problems solved (None: all of K's), read in place instead of copied."""
    def rows(p, idx):
        return K[(p if problems is None else problems[p]).reshape(-1, *(1,) * (idx.ndim - 1)), idx]
    return rows


class _GramRows:
    """What kernel_core.dual.solve reads of one problem's kernel (its rows, blocks, diagonal), from K in memory."""

    def __init__(self, K):
        self.K = K

    def __call__(self, p, idx):
        return self.K[idx]

    def row(self, i):
        return self.K[i]

    def block(self, idx):
        return self.K[idx]

    def diagonal(self):
        return np.diag(self.K).copy()

    def times(self, c):
        return self.K @ c


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
    diag = rows.diagonal()
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
            polished, _, feasible = dual.polish(rows, diag, y, C, run.alpha, run.v, fit_intercept)
            candidate = _run(rows, y, polished)
            # kept only where it stayed feasible: from a start that is no SMO iterate (a scaled one, all support
            # vectors bounded), ray steps on a nearly singular face can break Σ αᵢyᵢ = 0
            if feasible and candidate.objective >= run.objective:
                run = candidate
    with np.errstate(over="ignore", invalid="ignore"):
        gap = dual.solve(rows, diag, y, C, tol, max_iter, fit_intercept, _NoTrace(), run)
    converged = bool(gap <= tol) and bool(np.all(np.isfinite(run.alpha)))
    b = float(dual.intercept(run.alpha, y, run.v, C)) if fit_intercept and converged else 0.0
    return run.alpha, b, converged, run.t


def gradient(K, y, alpha, problems=None):
    """v = y - K (alpha y) for each problem (problems: as in_memory's), one matrix-vector product (BLAS) each."""
    c = alpha * y
    return y - np.array([K[p] @ c_p for p, c_p in zip(range(len(K)) if problems is None else problems, c)])


def steps(K, y, C, alpha, v, tol, max_steps, fit_intercept, min_active=0):
    """Steps of kernel_core.smo (pair_step, or coordinate_step without the offset) on every problem whose gap is
    above tol, all at once, until at most min_active are left or after max_steps. alpha and v advance in place.
    Returns the steps each problem took."""
    step = pair_step if fit_intercept else coordinate_step
    going = Batch(alpha, v, y, C, np.einsum("pii->pi", K), in_memory(K), np.arange(len(y)))
    taken = np.zeros(len(y), dtype=int)
    for _ in range(max_steps):
        if not going.advance(step, tol):
            break
        taken[going.p] += 1
        if going.p.size <= min_active:
            break
    going.store()
    return taken


def _polish_by_size(K, problems, diag, y, C, alpha, v, fit_intercept):
    """dual.polish of the problems K[problems] (diag, y, alpha, v: one row each), in batches of problems whose free
    sets have about the same size (within a factor of two): a batch's face systems are padded to its largest face,
    and one large face would make every small one pay for it. Each problem's polish costs at most what fit_dual's
    first round and polish would: a face it cannot finish within that (one of a rank-deficient K takes a
    least-squares solve per bound it meets) goes on in fit_dual, whose round of SMO shrinks it first. Returns
    (polished alpha, feasible)."""
    polished, feasible = alpha.copy(), np.zeros(len(y), dtype=bool)
    size = np.floor(np.log2(1 + np.count_nonzero((alpha > 0) & (alpha < C), axis=1)))
    for s in np.unique(size):
        q = np.flatnonzero(size == s)
        polished[q], _, feasible[q] = dual.polish(in_memory(K, problems[q]), diag[q], y[q], C, alpha[q], v[q],
                                                  fit_intercept, POLISH_ROUNDS * dual.ROUND_STEPS * dual.STEP_WORK
                                                  * y.shape[1])
    return polished, feasible


def fit_batch(K, y, C, alpha0, fit_intercept, tol, max_iter, polish):
    """Every problem at this C, to tol: from alpha0 (P, m) (each row feasible for C, or None for zero), or from the
    better in the dual objective of alpha0 and alpha0 · C / max alpha0 (as fit_dual starts); batched steps to
    BATCH_TARGET, then one batched polish (each problem's within POLISH_ROUNDS of SMO), kept where it improved
    the iterate (dual.improved); then fit_dual for the problems whose KKT gap is still above tol (polish: its
    option).
    Returns (alpha, b, converged, steps); a row's alpha is zero where it did not converge within max_iter."""
    alpha = np.zeros_like(y) if alpha0 is None else alpha0.copy()
    v = gradient(K, y, alpha)
    top = alpha.max(axis=1)
    scale = np.where((top > 0) & (top < C), C / np.where(top > 0, top, 1.0), 1.0)
    if (scale != 1.0).any():
        scaled = alpha * scale[:, None]
        v_scaled = gradient(K, y, scaled)
        better = dual.objective(scaled, y, v_scaled) > dual.objective(alpha, y, v)
        alpha[better], v[better] = scaled[better], v_scaled[better]
    with np.errstate(over="ignore", invalid="ignore"):
        taken = steps(K, y, C, alpha, v, max(tol, BATCH_TARGET), BATCH_STEPS, fit_intercept, BATCH_MIN)
        v = gradient(K, y, alpha)                           # exact, as dual.solve leaves it after a round
        gap = kkt_gap(alpha, y, v, C, fit_intercept)
        rest = np.flatnonzero(gap > tol)
        if rest.size:
            y_r = y[rest]
            polished, feasible = _polish_by_size(K, rest, np.einsum("pii->pi", K)[rest], y_r, C, alpha[rest],
                                                 v[rest], fit_intercept)
            v_polished = gradient(K, y_r, polished, rest)
            keep = feasible & dual.improved((dual.objective(alpha[rest], y_r, v[rest]), gap[rest]),
                                            (dual.objective(polished, y_r, v_polished),
                                             kkt_gap(polished, y_r, v_polished, C, fit_intercept)))
            alpha[rest[keep]], v[rest[keep]] = polished[keep], v_polished[keep]
            gap = kkt_gap(alpha, y, v, C, fit_intercept)
        converged = gap <= tol
    b = dual.intercept(alpha, y, v, C) if fit_intercept else np.zeros(len(y))
    for p in np.flatnonzero(~converged):                     # the long tail: SMO's rounds and the polish
        alpha[p], b[p], converged[p], t = fit_dual(K[p], y[p], C, fit_intercept=fit_intercept, tol=tol,
                                                   alpha0=alpha[p], max_iter=max_iter - taken[p], polish=polish)
        taken[p] += t
    converged &= np.isfinite(alpha).all(axis=1)
    alpha[~converged] = 0.0
    return alpha, b, converged, int(taken.sum())
