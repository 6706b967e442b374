"""Running the step rule of kernel_core.smo to tol in bounded time: kernel rows, warm starts, the active-set polish.

Notation (n samples; P problems where a function takes a batch; as in kernel_core.smo)
    K, y, alpha, v, C   as in kernel_core.smo
    F       free set, 0 < alpha_i < C          B   bounded set, alpha_i = C
    S       support, alpha_i > 0               G   signed Gram, G_ij = y_i y_j K_ij
    gap     the KKT violation: m(alpha) - M(alpha) with the offset, else the largest projected gradient

Why polishing. At C >= 100 on noisy data SMO needs 10^5 to 10^6 steps to bring the gap to 1e-9
(LIBSVM too: 671 460 steps on spirals n = 500, C = 1000, noise 0.3), and a step costs far more in
numpy than in LIBSVM's C. The sets F and B settle long before the gap is small; with
them fixed the optimum of the dual solves one linear system (the KKT conditions on the face)
    G_FF alpha_F + nu y_F = 1 - G_FB C,   y_Fᵀ alpha_F = -C Σ_B y_i   (the last row only with the offset).
So SMO runs in rounds (to a target gap, POLISH_FROM then ten times less each time, for a step
budget, or until the free set has settled), and after each round the gradient is recomputed from scratch
and `polish` takes active-set steps from SMO's iterate: each solves the face's system, stops at the first
bound it crosses, and frees the bounded alpha that violates its KKT condition most. Its result is kept if it raises the
dual objective, or lowers the gap without lowering the objective (`improved`). Nothing but the dual is used.
The polish is written over the step rule's states, as the rule is: DualSVM's fit polishes its one problem
(smo.One), the validation grid (kernel_core.batch) its many problems in one set of numpy calls (smo.Batch).

Where float64 cannot resolve tol (Gram entries of 1e10 and more: a high degree with a large γ), the
run stops once its gap is within rounding of zero, or grows instead of closing (`solve`); the fit
then warns naming that cause.

Snapshots for a replay. A Run records its iterate (t, alpha, v and the working set of step t) at steps
0, 1, 2, ... each about SNAPSHOT_RATIO times the one before (log-spaced: a run's early steps move alpha
most), at the end of each of SMO's rounds and after each kept polish ("active-set step": it moves many
alphas at once, so it has no working set); `snapshots` keeps SNAPSHOTS of them, the last being the
returned iterate. Only the sampled steps pay for it (two copies of n floats).
"""

from dataclasses import dataclass, field

import numpy as np

from .face import FaceSystem
from .kernels import checked_gram
from .smo import Batch, One, coordinate_move, coordinate_step, kkt_gap, pair_step
from .validation import check_array

CACHE_BYTES = 256 << 20   # memory for cached kernel rows
WHOLE_AT_ONCE = 1_000     # up to this many points, the first row asked for brings all of K in one kernel call;
WHOLE_GRAM_N = 4_000      # up to this many (128 MB), rows are kept in one (n, n) buffer (see KernelRows)
POLISH_FROM = 1e-2        # SMO's first target gap when tol is smaller
POLISH_STEP = 0.1         # each later target is this times the one before
POLISH_MAX_FREE = 2_000   # a face with more free alphas is not solved directly (O(|F|³))
POLISH_STEPS = 100        # most active-set steps of one polish before the iterate goes back to SMO,
POLISH_WORK = 1e9         # or fewer: the steps' Σ |F|³ stays below this
FLOOR_ULPS = 64           # see rounding_floor
BOUND_ULPS = 4            # a polished alpha this many ulps (of C, or of its value before) from a bound is on it
EPS = np.finfo(np.float64).eps
LSTSQ_WORK = 10           # a least-squares solve (SVD) costs about this many LU solves
DIVERGED = 100            # a gap this many times its best so far, with rounding above tol, ends the run
STEP_WORK = 128           # an SMO step costs about as much as STEP_WORK n flops of LU
ROUND_STEPS = 200         # SMO steps of a round, at least (and at least 2n): a small problem reaches its polish soon
SETTLE_STEPS = 20         # with the offset a round ends early when at most SETTLE_CHANGES alphas entered or left
SETTLE_CHANGES = 2        # the free set in the last SETTLE_STEPS steps (see _round)
SNAPSHOT_RATIO = 1.25     # a run records its iterate at steps growing by this factor (see the docstring)
SNAPSHOTS = 30            # most snapshots a fit keeps in history_


class KernelRows:
    """Rows K[i, :] computed on demand, in blocks.

    Up to WHOLE_AT_ONCE points the first row asked for brings all of K in one kernel call (one (n, n) call costs
    less than the ~n rows SMO asks for one at a time). Up to WHOLE_GRAM_N points the rows are kept as they are
    asked for, each missing row with up to 2 smo.PREFETCH others SMO is likely to ask for next (`likely`, set by the
    solver: the largest violators), in one kernel call: a fit that touches a few hundred rows computes only those.
    Above, rows are kept (first in, first out) within CACHE_BYTES."""

    likely = None          # () -> indices the solver expects to ask for soon (smo.One.likely)
    factor = None          # Z (n, ρ) with K = Z Zᵀ when the kernel's feature map is known and small (see polish)

    def __init__(self, k, X):
        self.k, self.X = k, X
        n = X.shape[0]
        self.rows = {}
        self.capacity = max(2, CACHE_BYTES // (8 * n))
        # kept rows: K[i] is store[slot[i]] (slot -1: not computed yet); store grows by doubling, so that memory
        # is touched only for the rows computed
        self.store = self.slot = None
        self.kept, self.whole_at = 0, -1     # whole_at: kept's value once store is all of K in its own order
        if n <= WHOLE_GRAM_N:
            self.store, self.slot = np.empty((0, n)), np.full(n, -1)

    def _fetch(self, idx):
        """Compute the rows idx (an index array) that are not kept yet, in one kernel call, and keep them."""
        n = self.X.shape[0]
        if n <= WHOLE_AT_ONCE and self.kept < n:
            idx = np.arange(n)
        missing = np.unique(idx[self.slot[idx] < 0])
        if missing.size:
            # all of K from (X, X) itself: a kernel may know then that it is symmetric with K_ii exact (rbf: 1)
            K = checked_gram(self.k, self.X if missing.size == n else self.X[missing], self.X)
            if self.kept == 0 and missing.size == n:
                self.store, self.whole_at = K, n
            else:
                if self.kept + missing.size > len(self.store):
                    grown = np.empty((min(n, max(2 * len(self.store), self.kept + missing.size)), n))
                    grown[:self.kept] = self.store[:self.kept]
                    self.store = grown
                self.store[self.kept:self.kept + missing.size] = K
            self.slot[missing] = np.arange(self.kept, self.kept + missing.size)
            self.kept += missing.size

    def block(self, idx):
        """K[idx, :], checked (kernels.checked_gram); kept up to WHOLE_GRAM_N points."""
        if self.store is None:
            return checked_gram(self.k, self.X[idx], self.X)
        idx = np.arange(self.X.shape[0])[idx]
        self._fetch(idx.reshape(-1))
        return self.store[self.slot[idx]]

    def times(self, c):
        """K c: X (Xᵀ c) when the factor is X itself (the linear kernel, whose K = X Xᵀ rounds as these products
        do; a polynomial map's factor has columns far larger than K's entries, and cancels), else from the rows of
        c's nonzeros."""
        if self.factor is self.X:
            return self.X @ (self.X.T @ c)
        S = np.flatnonzero(c)
        if S.size == 0:
            return np.zeros(self.X.shape[0])
        if self.store is not None and self.kept == self.X.shape[0]:
            return (self.store @ c)[self.slot]         # row slot[i] of the store is K[i]
        return c[S] @ self.block(S)

    def column_max(self):
        """max_i |K_ij| per column j, or a bound on it, computed once: with a factor K = Z Zᵀ, ‖z_j‖ max_i ‖z_i‖
        (Cauchy-Schwarz); else from K once every row is kept; else None."""
        if getattr(self, "_column_max", None) is None:
            if self.factor is not None:
                norms = np.sqrt(np.einsum("ij,ij->i", self.factor, self.factor))
                self._column_max = norms * norms.max()
            elif self.store is not None and self.kept == self.X.shape[0]:
                self._column_max = np.abs(self.store).max(axis=0)
        return getattr(self, "_column_max", None)

    def __call__(self, p, idx):
        """The rows K[idx] of the one problem (p, its place among problems, is not read), shaped idx.shape + (n,):
        what polish reads."""
        if self.store is not None:
            return self.block(idx)
        return np.array([self.row(i) for i in idx.ravel()]).reshape(*idx.shape, self.X.shape[0])

    def row(self, i):
        """K[i, :]: what a step of kernel_core.smo reads."""
        if self.kept == self.whole_at:
            return self.store[i]                        # all of K, in its own order
        if self.store is not None:
            if self.slot[i] < 0:
                self._fetch(np.append(self.likely(), i) if self.likely is not None else np.array([i]))
            return self.store[self.slot[i]]
        row = self.rows.get(i)
        if row is None:
            if len(self.rows) >= self.capacity:
                del self.rows[next(iter(self.rows))]
            row = self.rows[i] = self.block(slice(i, i + 1))[0]
        return row

    def diagonal(self, block=64):
        """K_ii from small diagonal blocks: one kernel call per block, works for any callable."""
        n = self.X.shape[0]
        if n <= WHOLE_AT_ONCE:
            return np.diag(self.block(slice(None))).copy()
        return np.concatenate([np.diag(checked_gram(self.k, self.X[s:s + block], self.X[s:s + block]))
                               for s in range(0, n, block)])


@dataclass
class Run:
    """The state of a dual solve; the solvers of kernel_core.smo advance it in place."""

    alpha: np.ndarray
    v: np.ndarray
    objective: float
    t: int = 0
    min_curvature: float = np.inf    # smallest a_ij (or K_tt) of the steps taken
    floor: float = 0.0               # the smallest KKT gap float64 can resolve, see rounding_floor
    stalled: bool = False            # stopped: the gap grew while rounding exceeds tol (see solve)
    # (t, alpha, v, working set) at log-spaced steps; working set () for the start and active-set steps
    records: list = field(default_factory=list)
    next_record: int = 0

    def record(self, working_set=(), active_set=False):
        """Keep a copy of the iterate after step t, and schedule the next record SNAPSHOT_RATIO times later."""
        self.records.append((self.t, self.alpha.copy(), self.v.copy(), tuple(working_set), active_set))
        self.next_record = max(self.t + 1, int(self.t * SNAPSHOT_RATIO))


def gradient(rows, y, alpha):
    """v = y - K (alpha y) from the rows of the support: exact, unlike SMO's running update
    (LIBSVM rebuilds its gradient the same way, reconstruct_gradient)."""
    return y - rows.times(alpha * y)


def rounding_floor(rows, alpha, above=None):
    """How far rounding alone may move a computed v_i: FLOOR_ULPS eps max_i Σ_j |K_ij| alpha_j. A KKT gap
    below about twice that cannot be told from zero in float64 (huge Gram entries: a large γ or degree).
    above: when the bound FLOOR_ULPS eps Σ_j alpha_j max_i |K_ij| (from rows.column_max, one pass over K per fit)
    is below this, the bound is returned instead: a caller that only asks whether the floor reaches `above`
    then needs no pass over the support's rows."""
    S = np.flatnonzero(alpha > 0)
    if S.size == 0:
        return 0.0
    column_max = getattr(rows, "column_max", lambda: None)()
    if above is not None and column_max is not None:
        bound = FLOOR_ULPS * EPS * float(alpha[S] @ column_max[S])
        if bound < above:
            return bound
    return FLOOR_ULPS * EPS * float((alpha[S] @ np.abs(rows.block(S))).max())


def objective(alpha, y, v):
    """Σ alpha - ½ alphaᵀG alpha (over the last axis), with alphaᵀG alpha = Σ alpha - (alpha y)·v since
    v = y - K(alpha y)."""
    return alpha.sum(axis=-1) - 0.5 * quadratic(alpha, y, v)


def quadratic(alpha, y, v):
    """alphaᵀG alpha = ‖w‖² over the last axis (negative only if K is not PSD)."""
    return alpha.sum(axis=-1) - (alpha * y * v).sum(axis=-1)


def intercept(alpha, y, v, C):
    """b over the last axis: the mean of v_i = y_i - Σ_j alpha_j y_j K_ij over the free SVs (0 < alpha_i < C).

    With no free SV, LIBSVM's rule: the midpoint of the interval of b allowed by the KKT
    conditions of the bounded and zero alphas, (max_{I_up} v + min_{I_low} v) / 2.
    """
    free = (alpha > 0) & (alpha < C)
    count = free.sum(axis=-1)
    b = np.where(free, v, 0.0).sum(axis=-1) / np.maximum(count, 1)
    if np.all(count > 0):
        return b
    pos = y > 0
    up = np.where(np.where(pos, alpha < C, alpha > 0), v, -np.inf)
    low = np.where(np.where(pos, alpha > 0, alpha < C), v, np.inf)
    return np.where(count > 0, b, 0.5 * (up.max(axis=-1) + low.min(axis=-1)))


def project(alpha0, y, C, fit_intercept):
    """The feasible point nearest alpha0 (Euclidean): clip to [0, C] and, with the offset, shift by
    mu y so that Σ alpha_i y_i = 0, mu found by bisection (Σ y clip(alpha0 - mu y) falls as mu grows)."""
    alpha0 = check_array(alpha0, "alpha0", ndim=1)
    if alpha0.shape != y.shape:
        raise ValueError(f"alpha0 must have one value per training point ({y.size}); got shape {alpha0.shape}. "
                         "Pass the alpha_ of a fit on the same points.")
    if not fit_intercept:
        return np.clip(alpha0, 0.0, C)

    def shifted(mu):
        return np.clip(alpha0 - mu * y, 0.0, C)

    lo = hi = np.abs(alpha0).max() + 1.0
    lo = -lo
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if y @ shifted(mid) > 0 else (lo, mid)
    alpha = shifted(hi)
    # on the last bracket the sum is linear in mu over the free alphas: solve it exactly there
    free = (alpha > 0) & (alpha < C)
    if free.any():
        alpha[free] -= y[free] * (y @ alpha) / free.sum()
        alpha = np.clip(alpha, 0.0, C)
    return alpha


def start(rows, y, C, fit_intercept, alpha0):
    """A Run from alpha = 0, or from alpha0 projected onto the feasible set (a warm start)."""
    if alpha0 is None:
        run = Run(np.zeros(y.size), y.copy(), 0.0)
    else:
        alpha = project(alpha0, y, C, fit_intercept)
        v = gradient(rows, y, alpha)
        run = Run(alpha, v, objective(alpha, y, v))
    run.record()
    return run


def snapshots(run, intercept, m=SNAPSHOTS):
    """At most m of run.records, evenly spaced among them (so about log-spaced in t), the first and the
    returned iterate (run.alpha, run.v) included, as history_ keys: "snapshot_t", "alpha" (S, n), "b" (S,)
    from intercept(alpha, v) of all S at once, "working_set" (the pair (i, j) of an SMO step, (i,) of a
    coordinate step, () for the start and active-set steps) and "active_set" (True for an active-set step)."""
    records = list(run.records)
    t, alpha, _, pair, active = records[-1]
    if np.array_equal(alpha, run.alpha):
        # with the returned v (recomputed exactly after a round), so that the last b is the model's
        records[-1] = (t, alpha, run.v, pair, active)
    else:
        records.append((run.t, run.alpha.copy(), run.v, (), False))
    keep = np.unique(np.rint(np.linspace(0, len(records) - 1, min(m, len(records)))).astype(int))
    kept = [records[k] for k in keep]
    alpha = np.array([r[1] for r in kept])
    return {"snapshot_t": np.array([r[0] for r in kept]), "alpha": alpha,
            "b": intercept(alpha, np.array([r[2] for r in kept])), "working_set": [r[3] for r in kept],
            "active_set": np.array([r[4] for r in kept])}


def _matvec(A, x):
    """A x for one problem, A (m, k) and x (k,), or for each of a batch, A (q, m, k) and x (q, k): one problem's as a
    matrix-vector product, cheaper than the product of matrices a batch's shape asks for."""
    return A @ x if x.ndim == 1 else (A @ x[..., None])[..., 0]


def _solve(s, A, r):
    """(x, work): A x = r for the face system of each problem of s (One: A (m, m); Batch: a stack (q, m, m)) by LU
    (work m³), or, for a system singular at working precision (as G_FF is for a linear kernel with more free alphas
    than features), by least squares (the smallest x; work LSTSQ_WORK m³)."""
    m = A.shape[-1]
    try:
        x = np.linalg.solve(A, r) if r.ndim == 1 else np.linalg.solve(A, r[..., None])[..., 0]
    except np.linalg.LinAlgError:
        x = np.full_like(r, np.nan)
    # a NaN or infinite x leaves a NaN or infinite residual, which fails the test
    exact = s.top(np.abs(_matvec(A, x) - r)) <= 1e-8 * (1.0 + s.top(np.abs(r)))
    if not s.every(exact):
        inexact = np.logical_not(exact).reshape(x.shape[:-1])
        x[inexact] = [np.linalg.lstsq(A_q, r_q, rcond=None)[0] for A_q, r_q in zip(A[inexact], r[inexact])]
    return x, s.where(exact, 1.0, 1.0 + LSTSQ_WORK) * float(m) ** 3


def _solve_low_rank(Z_F, yF, r, fit_intercept):
    """(x, work): the face system of polish, A x = r, for one problem whose kernel has a known factor K = Z Zᵀ of
    rank ρ < |F| - 1 (a linear kernel: Z = X), solved in ρ + 2 unknowns instead of |F| + 1 (work |F| ρ²).

    With W = Z_Fᵀ diag(y_F) (ρ, k), G_FF = Wᵀ W: both G_FF x and y_F lie in the range of M = [Wᵀ, y_F] (k, ρ + 1),
    and a solution may be sought as x = M c (a part of x orthogonal to that range changes no equation). Projected
    on it the system is [[(W M)ᵀ W M, Mᵀ y_F], [y_Fᵀ M, 0]] (c, b) = (Mᵀ r_F, 0), solved by least squares. Where
    r_F is outside the range (the face has no optimum), the caller's residual r - A x is then r_F's part orthogonal
    to it, which A maps to zero: polish's ray."""
    k, rank = Z_F.shape
    Wt = Z_F * yF[:, None]
    M = np.column_stack([Wt, yF]) if fit_intercept else Wt
    WM = Wt.T @ M
    m = M.shape[1]
    B = np.zeros((m + 1, m + 1) if fit_intercept else (m, m))
    B[:m, :m] = WM.T @ WM
    rhs = M.T @ r[:k]
    if fit_intercept:
        B[:m, m] = B[m, :m] = yF @ M
        rhs = np.append(rhs, 0.0)
    c = np.linalg.lstsq(B, rhs, rcond=None)[0]
    x = M @ c[:m]
    return (np.append(x, c[m]) if fit_intercept else x), float(k) * (rank + 2) ** 2


def _low_rank_product(Z_F, yF, x, fit_intercept):
    """A x for the face system of _solve_low_rank: G_FF x_F (+ b y_F) = D Z_F Z_Fᵀ D x_F (+ b y_F), and y_Fᵀ x_F."""
    k = yF.size
    Gx = yF * (Z_F @ (Z_F.T @ (yF * x[:k])))
    return np.append(Gx + x[k] * yF, yF @ x[:k]) if fit_intercept else Gx


def polish(rows, diag, y, C, alpha, v, fit_intercept, budget=POLISH_WORK):
    """Active-set steps from alpha with its exact gradient v, of one problem (n,) or of each of a batch (P, n) (at
    most POLISH_STEPS, each problem within the work budget), each solving the KKT system of the face (F free, the
    rest fixed at its bound) for its optimum:
    - if the optimum leaves the box, move as far as the first bound it crosses and fix that alpha there
      (likewise along a direction of constant curvature if the face has no optimum);
    - else move to it, and free the bounded alpha that violates its KKT condition most (if any).
    Written once over the operations of kernel_core.smo's states, as its step rule is: a single fit's problem is
    an smo.One, a batch an smo.Batch (its faces padded to the largest with identity rows). rows reads K:
    kernel_core.dual.KernelRows for one problem, rows(p, idx) = K[p, idx] for a batch. One problem keeps its face
    system from step to step (kernel_core.face: an inverse updated in O(|F|²) as one index enters or leaves F); a
    batch builds and solves each step's afresh.
    Returns the new alpha, always in the box, the work each problem spent (Σ |F|³ per fresh solve, a few |F|² per
    updated one), and whether its Σ alpha_i y_i stayed 0; with a PSD kernel the dual objective never falls on the
    way (it is concave along each step).
    A face with more than POLISH_MAX_FREE free alphas is left to SMO.
    """
    alpha, v = alpha.copy(), v.copy()
    s = One(alpha, v, y, C, diag, rows) if alpha.ndim == 1 else Batch(alpha, v, y, C, diag, rows,
                                                                       np.arange(len(alpha)))
    work = np.zeros(alpha.shape[:-1] + (1,))
    released = np.zeros(alpha.shape, dtype=bool)
    factor = getattr(rows, "factor", None)
    # one problem keeps its face system from step to step (kernel_core.face); a batch solves its padded faces afresh
    system = FaceSystem(rows, y, fit_intercept) if alpha.ndim == 1 else None
    going = True
    for _ in range(POLISH_STEPS):
        free = (s.alpha > 0) & (s.alpha < C)
        if fit_intercept:
            free |= released
        count = s.count(free)
        going = going & (count > 0) & (count <= POLISH_MAX_FREE) & (work[s.p] < budget)
        kept = s.keep(going, free, count, released)
        if kept is None:
            break
        free, count, released = kept
        F = s.face(free, count)
        k = F.shape[-1]
        # a face larger than the rank of a known factor K = Z Zᵀ is solved in the factor's dimensions, and reads
        # no kernel row
        Z_F = factor[F] if factor is not None and k > factor.shape[1] + 1 else None
        if Z_F is None and system is not None:
            F = system.face(free, F)                                # the same set, in the order the system keeps
        yF = s.pad(s.gather(s.y, F))
        r = yF * s.gather(s.v, F)                                   # -(G alpha - 1)_F = y_F v_F
        if fit_intercept:
            r = np.concatenate([r, np.zeros(F.shape[:-1] + (1,))], axis=-1)
        if Z_F is not None:
            x, cost = _solve_low_rank(Z_F, yF, r, fit_intercept)
            rest = r - _low_rank_product(Z_F, yF, x, fit_intercept)
        elif system is not None:
            x, rest, cost = system.solve(r)
            if x is None:
                A = system.matrix()
                x, more = _solve(s, A, r)
                rest, cost = r - A @ x, cost + more
            K_F = system.rows_F()
        else:
            K_F = s.block(F)                                        # the rows K[F, :]
            m = k + 1 if fit_intercept else k                       # with the offset, b's row and column
            A = np.zeros(F.shape[:-1] + (m, m))
            A[..., :k, :k] = yF[..., :, None] * s.columns(K_F, F) * yF[..., None, :]
            if fit_intercept:
                A[..., :k, k] = A[..., k, :k] = yF
            s.fill(A)
            x, cost = _solve(s, A, r)
            rest = r - _matvec(A, x)
        work[s.p] += cost
        # a singular face system without solution (a rank-deficient K): the face has no optimum, and its
        # objective rises along rest (zero curvature, slope ‖rest‖²) until the box stops it
        ray = s.total(rest * rest) ** 0.5 > 1e-8 * (1.0 + s.total(r * r) ** 0.5)
        d = s.pad(s.where(ray, rest, x)[..., :k])
        if fit_intercept:
            # keep y_Fᵀ d = 0 exact: on an ill-conditioned face (Gram entries of 1e7) the solve, or a ray's residual,
            # leaves y_Fᵀ d at 1e-9 |d|, and a long ray step would carry Σ alpha_i y_i far from 0
            d -= yF * (s.total(yF * d) / count)
        b = s.where(ray, 0.0, s.at(x, k)) if fit_intercept else 0.0
        a_F = s.gather(s.alpha, F)
        # how far alpha_F + theta d may go before some alpha_j leaves [0, C]
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            room = np.where(d < 0, -a_F / d, np.where(d > 0, (C - a_F) / d, np.inf))
        j = s.least(room)
        theta = s.at(room, j)
        theta = s.where(ray, theta, s.minimum(theta, 1.0))
        moving = (theta > 0.0) & (theta < np.inf)
        step = d * s.where(moving, theta, 0.0)                      # 0 on the padding, where d is
        a_F_new = a_F + step
        # within rounding of a bound is on it, as an SMO step lands on one: an alpha at C or 0 but for its last bits
        # would count as free, and b be read off it instead of LIBSVM's midpoint
        at_C = C - a_F_new <= BOUND_ULPS * EPS * C if C < np.inf else False
        s.put(s.alpha, F, np.where(at_C, C, np.where(a_F_new <= BOUND_ULPS * EPS * a_F, 0.0, a_F_new)))
        # K_Fᵀ (step y_F)
        s.v -= factor @ (Z_F.T @ (step * yF)) if Z_F is not None else _matvec(np.swapaxes(K_F, -1, -2), step * yF)
        blocked = moving & (ray | (theta < 1.0))
        optimum = moving ^ blocked
        at_bound = s.at(F, j)
        s.put(s.alpha, at_bound, s.where(blocked, s.where(s.at(d, j) < 0, 0.0, C), s.at(s.alpha, at_bound)))
        if fit_intercept:
            released[...] = False
        release = done = optimum
        if s.some(optimum):
            # at a face's optimum v_F = b: a bounded alpha_j with y_j (v_j - b) > 0 at 0, or < 0 at C, should move
            push = s.y * (s.v - b) * np.where(s.alpha > 0, -1.0, 1.0)
            s.clear(push, F)
            t = s.most(push)
            release = optimum & (s.at(push, t) > 0.0)
            done = optimum ^ release
            if fit_intercept:
                s.put(released, t, release)
            elif s.some(release):
                # the exact one-variable step (coordinate descent's) frees it for the next face: solved jointly, a
                # singular face (rank-deficient K) could send alpha_t back out of the box
                coordinate_move(s, t, s.where(release, -s.at(s.y, t) * s.at(s.v, t), 0.0))
        going = moving ^ done
    s.store()
    np.clip(alpha, 0.0, C, out=alpha)
    feasible = (np.abs((alpha * y).sum(axis=-1)) <= 1e-12 * (1.0 + alpha.sum(axis=-1)) if fit_intercept
                else np.ones(alpha.shape[:-1], dtype=bool))
    return alpha, work[..., 0], feasible


def improved(before, after):
    """Which problems a polish improved, from (objective, gap) before and after it: the dual objective did not fall
    (beyond rounding), and it rose or the gap closed."""
    (objective_0, gap_0), (objective_1, gap_1) = before, after
    return (objective_1 >= objective_0 - 1e-12 * (1.0 + np.abs(objective_0))) & ((gap_1 < gap_0)
                                                                                 | (objective_1 > objective_0))


def _round(rows, diag, y, C, tol, max_iter, history, run, fit_intercept, settle_from=None):
    """Steps of kernel_core.smo (pair_step with the offset, coordinate_step without) on run's one problem until
    its gap is <= tol or run.t reaches max_iter, or, from step settle_from on (None: never), until the free set has
    settled (it is not empty, and at most SETTLE_CHANGES alphas entered or left it in the last SETTLE_STEPS steps);
    returns that gap. Records the iterate (run.record)
    at the steps run.next_record and at the last step, and the objective and gap at the steps history.due."""
    step = pair_step if fit_intercept else coordinate_step
    one = One(run.alpha, run.v, y, C, diag, rows)
    last = ()
    settle_from = max_iter if settle_from is None else settle_from
    check, changes = run.t + SETTLE_STEPS, 0
    while True:
        if run.t >= check:
            if one.changes - changes <= SETTLE_CHANGES and one.free and run.t >= settle_from:
                max_iter = run.t
            check, changes = run.t + SETTLE_STEPS, one.changes
        gap, working_set, curvature, gain = step(one, tol if run.t < max_iter else np.inf)
        if history.due(run.t):
            history.add(run.t, run.objective, gap)
        if working_set is None:
            if run.t > run.records[-1][0]:
                run.record(last)
            return gap
        run.objective += gain
        run.min_curvature = min(run.min_curvature, curvature)
        run.t += 1
        last = working_set
        if run.t >= run.next_record:
            run.record(last)


def solve(rows, diag, y, C, tol, max_iter, fit_intercept, history, run):
    """Advance run until its KKT gap is <= tol or max_iter steps, or is within rounding (run.floor) of zero,
    or grows DIVERGED-fold while rounding exceeds tol (run.stalled); returns the gap (NaN if the iterate became
    non-finite). SMO runs in rounds: each ends when the gap reaches the round's target (POLISH_FROM, then ten times
    less each time, never below tol), after max(ROUND_STEPS, 2n) steps or, with the offset, as soon as the free
    set has settled (_round: the polish then solves the face SMO has found, however large the gap still is), and
    is followed by the exact gradient and a polish (see the module docstring), kept where it improved the iterate.
    After a polish that did not help, a round lasts at least as many steps as that polish cost, or twice as long as
    the one before, whichever is more."""
    target = max(tol, POLISH_FROM)
    budget = max(ROUND_STEPS, 2 * y.size)      # steps per round: about the cost of one polish
    least = wait = 0                           # steps before a settled free set ends a round
    best = np.inf
    while True:
        # without the offset, coordinate descent's free set settles late and its polish helps less: rounds of
        # the full budget were faster there
        gap = _round(rows, diag, y, C, target, min(max_iter, run.t + budget), history, run, fit_intercept,
                     run.t + least if fit_intercept else None)
        if not (np.isfinite(gap) and np.all(np.isfinite(run.v))):
            return np.nan
        if gap <= tol or run.t >= max_iter:
            return gap
        reached = gap <= target
        run.v = gradient(rows, y, run.alpha)
        run.objective = objective(run.alpha, y, run.v)
        gap = kkt_gap(run.alpha, y, run.v, C, fit_intercept)
        polished, work, feasible = polish(rows, diag, y, C, run.alpha, run.v, fit_intercept)
        # the next round gets as many steps as the polish cost (a step costs ~STEP_WORK n); after a polish that
        # helped, a settled free set may end it sooner
        least = int(work / (STEP_WORK * y.size))
        budget = max(ROUND_STEPS, 2 * y.size, least)
        v = gradient(rows, y, polished)
        new_gap, new_objective = kkt_gap(polished, y, v, C, fit_intercept), objective(polished, y, v)
        if feasible and improved((run.objective, gap), (new_objective, new_gap)):
            run.alpha, run.v, run.objective, gap = polished, v, new_objective, new_gap
            run.record(active_set=True)
            wait = least = 0
        else:
            # a polish that did not help: the next waits twice as long for a settled free set
            wait = max(2 * wait, SETTLE_STEPS)
            least = max(least, wait)
        if gap <= tol:
            return gap
        # exact only where it matters: where twice the floor could reach the gap or tol
        run.floor = 2.0 * rounding_floor(rows, run.alpha, above=0.5 * min(gap, tol))
        if gap <= run.floor:
            return gap
        # rounding above tol and a gap that grows: the dual is too ill-conditioned for float64 (LIBSVM's grows too)
        if run.floor > tol and gap > DIVERGED * best:
            run.stalled = True
            return gap
        best = min(best, gap)
        if reached:
            target = max(tol, target * POLISH_STEP)
