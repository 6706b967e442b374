"""The SVM two ways: the dual by SMO (kernels) and the primal by an interior-point method (features).

Notation (n samples, p explicit features)
    X       (n, d)  training points x_i           Phi  (n, p)  explicit features phi(x_i)
    y       (n,)    labels in {-1, +1}
    K       (n, n)  Gram matrix K_ij = k(x_i, x_j); SMO computes only the rows it touches
    G       (n, n)  signed Gram G_ij = y_i y_j K_ij
    alpha   (n,)    dual variables, 0 <= alpha_i <= C (C = np.inf: hard margin)
    v       (n,)    v_t = y_t - sum_s alpha_s y_s K_ts = -y_t * (G alpha - 1)_t, SMO's gradient
    w       (p,)    weights; w = sum_i alpha_i y_i phi(x_i) at the optimum
    b       float   intercept (offset), 0 without offset
    xi      (n,)    slacks xi_i = max(0, 1 - y_i f(x_i))
    f(x) = sum_i alpha_i y_i k(x_i, x) + b = w . phi(x) + b

Lecture 4 (seed 001) writes the primal min ½‖w‖² + C Σ xi_i s.t. y_i (w·phi_i + b) >= 1 - xi_i,
xi >= 0, and its dual max Σ alpha_i - ½ Σ alpha_i alpha_j y_i y_j K_ij s.t. 0 <= alpha_i <= C and,
with an offset, Σ alpha_i y_i = 0; without offset ("through origin") that equality is absent.
DualSVM solves the dual, PrimalSVM the primal; at the optimum their objectives meet.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from .kernels import make_kernel, squared_distances
from .validation import MAX_PREDICT_SAMPLES, check_array, check_int, check_positive, check_X_y

TAU = 1e-12               # LIBSVM's floor on the curvature a_ij of a pair step
HISTORY_POINTS = 1_000    # history_ keeps between 1 000 and 2 000 evenly spaced samples
CACHE_BYTES = 256 << 20   # memory for cached kernel rows
FARKAS_TOL = 1e-6         # relative size of a Farkas certificate that proves non-separability
PSD_TOL = 1e-10           # eigenvalues below -PSD_TOL × the largest make a Gram matrix not PSD
STALL_SLACK = 1e3         # an interior-point iterate stuck at breakdown may miss tol by this factor
# rows of X per kernel call in decision_function: small enough that OpenBLAS runs the product
# X Yᵀ on one thread (threads stall on a busy machine) and the block stays in cache
_CHUNK = 1024
# inputs this large (plotting grids) may use float32 for the RBF kernel, see DualSVM.decision_function
F32_MIN_POINTS = 10_000
F32_MAX_REL_ERROR = 1e-5


class _KernelRows:
    """Rows K[i, :] computed on demand and kept (first in, first out) within CACHE_BYTES."""

    def __init__(self, k, X):
        self.k, self.X = k, X
        self.rows = {}
        self.capacity = max(2, CACHE_BYTES // (8 * X.shape[0]))

    def __call__(self, i):
        row = self.rows.get(i)
        if row is None:
            if len(self.rows) >= self.capacity:
                del self.rows[next(iter(self.rows))]
            row = self.rows[i] = np.asarray(self.k(self.X[i:i + 1], self.X), dtype=float)[0]
        return row

    def diagonal(self, block=64):
        """K_ii from small diagonal blocks: one kernel call per block, works for any callable."""
        n = self.X.shape[0]
        return np.concatenate([np.diag(np.asarray(self.k(self.X[s:s + block], self.X[s:s + block]), dtype=float))
                               for s in range(0, n, block)])


class _History:
    """Evenly spaced samples of a run: every `stride` steps, stride doubling to bound memory."""

    def __init__(self, *keys):
        self.stride = 1
        self.data = {key: [] for key in ("iteration", *keys)}

    def due(self, t):
        return t % self.stride == 0

    def add(self, t, *values):
        for key, value in zip(self.data, (t, *values)):
            self.data[key].append(float(value) if key != "iteration" else t)
        if len(self.data["iteration"]) >= 2 * HISTORY_POINTS:
            self.data = {key: values[::2] for key, values in self.data.items()}
            self.stride *= 2

    def close(self, t, *values):
        if self.data["iteration"][-1] != t:
            self.add(t, *values)
        return {key: list(values) for key, values in self.data.items()}


def _probe_steps(n):
    """SMO steps a hard margin gets before its feasibility must be proven (separable data need O(n))."""
    return 10 * n + 1_000


def _quadratic(alpha, y, v):
    # αᵀGα = Σα − (αy)·v, since v = y − K(αy)
    return alpha.sum() - (alpha * y) @ v


def _objective(alpha, y, v):
    # Σα − ½αᵀGα
    return alpha.sum() - 0.5 * _quadratic(alpha, y, v)


def _smo(rows, diag, y, C, tol, max_iter, history):
    """SMO with the offset (Σ alpha_i y_i = 0), LIBSVM's solver.

    Working set: the second-order rule WSS 2 of Fan, Chen & Lin (2005), "Working set selection
    using second order information for training support vector machines", JMLR 6, as in LIBSVM:
    i = argmax_{t in I_up} v_t, then j = argmax_{t in I_low, v_t < v_i} (v_i - v_t)² / a_it with
    a_it = K_ii + K_tt - 2 K_it. Stop when m(alpha) - M(alpha) = max_{I_up} v - min_{I_low} v <= tol.
    """
    n = y.size
    alpha = np.zeros(n)
    v = y.copy()
    pos = y > 0
    # I_up (alpha_t may move so that y_t alpha_t grows) and I_low (shrinks) as additive masks:
    # 0 inside the set, -inf / +inf outside, so that argmax / argmin skip the outsiders
    out_up = np.where(pos, 0.0, -np.inf)
    out_low = np.where(pos, np.inf, 0.0)
    objective = 0.0
    t = 0
    while True:
        vu = v + out_up
        i = int(vu.argmax())
        vl = v + out_low
        m, M = vu[i], vl.min()
        if history.due(t):
            history.add(t, objective, m - M)
        if m - M <= tol or t == max_iter:
            return alpha, v, t, m - M
        Ki = rows(i)
        gain = np.maximum(m - vl, 0.0)               # > 0 exactly for the candidates j
        a = np.maximum(diag - 2.0 * Ki + diag[i], TAU)
        j = int((gain * gain / a).argmax())
        a_ij = diag[i] + diag[j] - 2.0 * Ki[j]
        # the step alpha_i += y_i delta, alpha_j -= y_j delta keeps Σ alpha y and raises the dual
        # objective by gain·delta - ½ a_ij delta²; it stops where alpha_i or alpha_j reaches 0 or C
        cap_i = C - alpha[i] if pos[i] else alpha[i]
        cap_j = alpha[j] if pos[j] else C - alpha[j]
        delta = min(gain[j] / max(a_ij, TAU), cap_i, cap_j)
        objective += delta * (gain[j] - 0.5 * a_ij * delta)
        # land exactly on a bound that stops the step, so that the status (0 < alpha < C) is exact
        alpha[i] = (C if pos[i] else 0.0) if delta == cap_i else alpha[i] + y[i] * delta
        alpha[j] = (0.0 if pos[j] else C) if delta == cap_j else alpha[j] - y[j] * delta
        for s in (i, j):
            out_up[s] = 0.0 if (alpha[s] < C if pos[s] else alpha[s] > 0) else -np.inf
            out_low[s] = 0.0 if (alpha[s] > 0 if pos[s] else alpha[s] < C) else np.inf
        v -= delta * (Ki - rows(j))
        t += 1


def _coordinate_descent(rows, diag, y, C, tol, max_iter, history):
    """Without offset the dual is a box QP: exact one-variable steps on the most violating alpha_t.

    The gradient of ½ alphaᵀG alpha - Σ alpha is g = -y v. Greedy choice: t = argmax of the
    projected-gradient size (|g_t| unless alpha_t sits on the bound that g_t pushes against);
    step: alpha_t <- clip(alpha_t - g_t / K_tt, 0, C). Stop when that size is <= tol.
    """
    n = y.size
    alpha = np.zeros(n)
    v = y.copy()
    objective = 0.0
    t = 0
    while True:
        g = -y * v
        violation = np.where(g < 0, -g * (alpha < C), g * (alpha > 0))
        i = int(violation.argmax())
        if history.due(t):
            history.add(t, objective, violation[i])
        if violation[i] <= tol or t == max_iter:
            return alpha, v, t, violation[i]
        if diag[i] > 0:
            new = min(max(alpha[i] - g[i] / diag[i], 0.0), C)
        else:
            # no curvature, or negative (a kernel that is not PSD; C is finite then, see
            # _require_separable): the best point of [0, C] is an end
            ends = np.array([0.0, C]) - alpha[i]
            new = alpha[i] + ends[np.argmin(g[i] * ends + 0.5 * diag[i] * ends * ends)]
        d = new - alpha[i]
        objective -= d * (g[i] + 0.5 * diag[i] * d)
        v -= d * y[i] * rows(i)
        alpha[i] = new
        t += 1


def _intercept(alpha, y, v, C):
    """b = mean of v_i = y_i - Σ_j alpha_j y_j K_ij over free SVs (0 < alpha_i < C).

    With no free SV, LIBSVM's rule: the midpoint of the interval of b allowed by the KKT
    conditions of the bounded and zero alphas, (max_{I_up} v + min_{I_low} v) / 2.
    """
    free = (alpha > 0) & (alpha < C)
    if free.any():
        return float(v[free].mean())
    pos = y > 0
    up = np.where(pos, alpha < C, alpha > 0)
    low = np.where(pos, alpha > 0, alpha < C)
    return float(0.5 * (v[up].max() + v[low].min()))


@dataclass(frozen=True)
class KKTReport:
    """KKT conditions at the returned alpha, per point.

    status: "non-SV" (alpha = 0, needs y f >= 1), "free SV" (0 < alpha < C, needs y f = 1),
    "bounded SV" (alpha = C, needs y f <= 1). margin: y_i f(x_i). violation: how far each point
    is from its condition (0 when it holds). max_violation: the largest.
    """

    status: np.ndarray
    margin: np.ndarray
    violation: np.ndarray
    max_violation: float


def _kkt(alpha, y, v, b, C):
    margin = 1.0 - y * v + y * b          # y_i f(x_i) = y_i (y_i - v_i + b)
    bounded = alpha == C
    free = (alpha > 0) & ~bounded
    status = np.where(bounded, "bounded SV", np.where(free, "free SV", "non-SV"))
    violation = np.where(bounded, np.maximum(margin - 1.0, 0.0),
                         np.where(free, np.abs(margin - 1.0), np.maximum(1.0 - margin, 0.0)))
    return KKTReport(status, margin, violation, float(violation.max()))


class DualSVM:
    """Kernel SVM from its dual (Lecture 4), solved by SMO; C = np.inf is the hard margin.

    Parameters
    ----------
    kernel : registry name ("rbf", "linear", "poly", "sigmoid", ...) or callable (X, Y) -> Gram.
    C : box constraint 0 <= alpha_i <= C; larger C punishes margin violations more. np.inf: hard
        margin; if SMO has not converged after 10 n + 1000 steps, the kernel is checked to be PSD
        and the data separable in its feature space (O(n³), see _require_separable), else ValueError.
    gamma, degree, coef0 : kernel parameters, as in kernel_core.kernels (gamma=None: 1/d).
    fit_intercept : with the offset b (constraint Σ alpha_i y_i = 0, solved by SMO with the WSS 2
        rule of Fan, Chen & Lin 2005); without it the dual is a box QP, solved by greedy
        one-variable coordinate descent.
    tol : stop when the largest KKT violation (LIBSVM's m(alpha) - M(alpha)) is <= tol.
    max_iter : most SMO steps; hitting it warns and keeps the current alpha.

    Attributes
    ----------
    alpha_ : (n,) the dual variables alpha_i >= 0 (not y_i alpha_i).
    intercept_ : b (0.0 without offset).
    support_ : indices with alpha_i > 0; support_vectors_ : X[support_].
    dual_objective_ : Σ alpha - ½ alphaᵀG alpha.
    norm_w_ : ‖w‖ = √(alphaᵀG alpha), G_ij = y_i y_j K(x_i, x_j): known even when φ is infinite-dimensional
        (the margin is 1/‖w‖).
    coef_ : w = Σ alpha_i y_i x_i for kernel="linear", else None.
    n_iter_ : SMO steps taken.
    history_ : dict of lists "iteration", "objective" (dual objective), "violation" (largest
        KKT violation), sampled evenly over the run (every step for short runs).
    kkt_ : KKTReport (status, margin y_i f(x_i), violation, max_violation).
    """

    def __init__(self, kernel="rbf", *, C=1.0, gamma=None, degree=3, coef0=1.0, fit_intercept=True,
                 tol=1e-3, max_iter=100_000):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        X, y, C, tol, max_iter = _check_fit(self, X, y)
        if self.gamma is not None:
            check_positive(self.gamma, "gamma", allow_zero=True)
        k = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        rows = _KernelRows(k, X)
        diag = rows.diagonal()
        solve = _smo if self.fit_intercept else _coordinate_descent
        history = _History("objective", "violation")
        if C < np.inf:
            alpha, v, self.n_iter_, violation = solve(rows, diag, y, C, tol, max_iter, history)
        else:
            # the hard-margin dual is unbounded on data that is not separable: SMO would run to
            # max_iter. Only if it has not converged within _probe_steps is the (O(n³)) proof run,
            # before SMO gets its whole budget.
            with np.errstate(all="ignore"):     # a diverging run may overflow; it is discarded
                alpha, v, self.n_iter_, violation = solve(rows, diag, y, C, tol,
                                                          min(max_iter, _probe_steps(len(y))), history)
            if not violation <= tol:
                _require_separable(k(X, X), y, self.fit_intercept)
                history = _History("objective", "violation")
                alpha, v, self.n_iter_, violation = solve(rows, diag, y, C, tol, max_iter, history)
        if violation > tol:
            warnings.warn(f"SMO stopped at max_iter={max_iter} with KKT violation {violation:.3g} > "
                          f"tol={tol:g}; raise max_iter or tol. Keeping the current alpha.", stacklevel=2)
        b = _intercept(alpha, y, v, C) if self.fit_intercept else 0.0
        self.alpha_, self.intercept_ = alpha, b
        self.support_ = np.flatnonzero(alpha > 0)
        self.support_vectors_ = X[self.support_]
        self._sv_coef = (alpha * y)[self.support_]
        self.dual_objective_ = float(_objective(alpha, y, v))
        self.norm_w_ = float(np.sqrt(max(_quadratic(alpha, y, v), 0.0)))
        self.history_ = history.close(self.n_iter_, self.dual_objective_, violation)
        self.kkt_ = _kkt(alpha, y, v, b, C)
        self.coef_ = (alpha * y) @ X if self.kernel == "linear" else None
        self._k = k
        self._rbf32 = self._float32_rbf(X.shape[1])
        return self

    def _float32_rbf(self, d):
        """(centre, support vectors, coefficients, -gamma) in float32 if that is exact enough, else None.

        Distances are expanded as ‖x‖² - 2x·s + ‖s‖² around the centre of the support vectors; in
        float32 that errs by about 4 eps (‖x‖² + ‖s‖²) and k = exp(-gamma D) then by gamma k times
        that, at most 8 eps (1 + gamma (R + 1/sqrt(gamma))²) relative to each term for support
        vectors within R of the centre, since k decays outside. So |error of f(x)| <= that bound
        times Σ_i |alpha_i y_i| k(x_i, x).
        """
        if self.kernel != "rbf" or self.support_.size == 0:
            return None
        gamma = 1.0 / d if self.gamma is None else float(self.gamma)
        centre = self.support_vectors_.mean(axis=0)
        R = np.sqrt(((self.support_vectors_ - centre) ** 2).sum(axis=1).max())
        if gamma == 0 or 8 * np.finfo(np.float32).eps * (1 + gamma * (R + gamma ** -0.5) ** 2) > F32_MAX_REL_ERROR:
            return None
        as32 = np.float32
        return centre, (self.support_vectors_ - centre).astype(as32), self._sv_coef.astype(as32), as32(-gamma)

    def decision_function(self, X):
        """f(x) = Σ_{i in support_} alpha_i y_i k(x_i, x) + b, in chunks of rows.

        Inputs of at least F32_MIN_POINTS points (plotting grids) with the RBF kernel are computed
        in float32, two to three times faster, when each term's relative error is provably below
        F32_MAX_REL_ERROR (see _float32_rbf); everything else in float64.
        """
        blocks = _check_points(X, self.support_vectors_.shape[1])
        if self.support_.size == 0:
            return np.full(sum(len(B) for B in blocks), self.intercept_)
        # einsum's own loop, not BLAS gemv, for the same reason as _CHUNK
        if self._rbf32 is not None and sum(len(B) for B in blocks) >= F32_MIN_POINTS:
            centre, S, coef, minus_gamma = self._rbf32
            f = [np.einsum("ij,j->i", np.exp(minus_gamma * squared_distances((B - centre).astype(S.dtype), S)), coef)
                 for B in blocks]
        else:
            f = [np.einsum("ij,j->i", self._k(B, self.support_vectors_), self._sv_coef) for B in blocks]
        return np.concatenate(f).astype(float) + self.intercept_

    def predict(self, X):
        """Labels in {-1, +1}: the sign of f (f = 0 goes to +1)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)


def _check_fit(model, X, y):
    """The checks both fits share: training set, C (np.inf allowed), tol and max_iter."""
    X, y = check_X_y(X, y)
    C = check_positive(model.C, "C", allow_inf=True)
    return X, y, C, check_positive(model.tol, "tol"), check_int(model.max_iter, "max_iter", low=1)


def _check_points(X, d):
    """Points to evaluate, validated once and split into row blocks of _CHUNK."""
    X = check_array(X, max_samples=MAX_PREDICT_SAMPLES)
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} feature(s) but the model was fitted on {d}; "
                         "pass points with the training features.")
    return [X[s:s + _CHUNK] for s in range(0, len(X), _CHUNK)]


def _require_separable(K, y, fit_intercept):
    """Raise unless the kernel is PSD on the points and they are separable in its feature space.

    Without the box, a direction of negative curvature of a kernel that is not PSD makes the
    dual unbounded. For a PSD kernel, K = U diag(lam) Uᵀ gives exact features Phi = U sqrt(lam)
    of the training points (Phi Phiᵀ = K), so separability in feature space is linear
    separability of Phi's rows, which the primal interior-point method decides (see _primal_ipm).
    """
    lam, U = np.linalg.eigh(0.5 * (K + K.T))
    if lam[0] < -PSD_TOL * max(lam[-1], 0.0):
        raise ValueError(f"The hard margin (C=np.inf) needs a positive semi-definite kernel, but the Gram "
                         f"matrix of these points has the eigenvalue {lam[0]:.3g}. Use a finite C or a valid kernel.")
    keep = lam > max(lam[-1], 0.0) * 1e-13
    Phi = U[:, keep] * np.sqrt(lam[keep])
    # K = 0 maps every point to the origin of feature space, where no hyperplane separates them
    if not keep.any() or _primal_ipm(Phi, y, np.inf, fit_intercept, 1e-9, 200, None).status == "infeasible":
        raise ValueError("The data is not separable in the kernel's feature space, so the hard-margin "
                         "dual (C=np.inf) is unbounded. Use a finite C (soft margin).")


@dataclass
class _IPMResult:
    z: np.ndarray        # (w, b) or w
    lam: np.ndarray      # multipliers of y_i (w·phi_i + b) + xi_i >= 1
    n_iter: int
    status: str          # "optimal", "infeasible", "max_iter" or "stalled"
    s: np.ndarray        # margin slacks A z + xi - 1
    xi: np.ndarray
    mu: np.ndarray       # multipliers of xi >= 0


def _design(Phi, y, fit_intercept):
    """A with rows y_i (phi_i, 1) (or y_i phi_i without offset) and H = diag(1, ..., 1, 0) of ½ zᵀH z."""
    if not fit_intercept:
        return y[:, None] * Phi, np.ones(Phi.shape[1])
    return y[:, None] * np.column_stack([Phi, np.ones(len(y))]), np.append(np.ones(Phi.shape[1]), 0.0)


def _max_step(d, x):
    """Largest theta <= 1/0.99 with x + theta d >= 0 (x > 0)."""
    neg = d < 0
    return min(1.0 / 0.99, float(np.min(-x[neg] / d[neg], initial=np.inf)))


def _primal_ipm(Phi, y, C, fit_intercept, tol, max_iter, history):
    """Mehrotra's predictor-corrector interior-point method on the primal QP itself.

    Variables z = (w, b), xi (soft margin only) and the margin slack s = A z + xi - 1 >= 0, where
    A = [y_i phi_i, y_i]; multipliers lam >= 0 (of A z + xi >= 1) and mu >= 0 (of xi >= 0).
    Optimality: w = Aᵀ lam restricted to w, Σ lam_i y_i = 0, lam + mu = C, lam s = mu xi = 0.
    Eliminating s, xi, lam, mu from each Newton system leaves a (p+1) × (p+1) positive definite
    system (H + Aᵀ E A) dz = rhs with H = diag(1, ..., 1, 0) and E diagonal, solved by
    np.linalg.solve. The linear equations are kept exact by recovering ds and dmu from them.

    Infeasibility of the hard margin (C = inf): by Farkas' lemma {z : A z >= 1} is empty iff some
    lam >= 0 has Aᵀ lam = 0 and Σ lam > 0 (lam then puts weights on the two classes whose
    feature-space averages coincide). On such data the iterates' lam grow without bound along
    such a ray, so each iteration tests lam / Σ lam as a certificate: |Σ lam_i y_i phi_i| <=
    FARKAS_TOL · max|phi_i| and |Σ lam_i y_i| <= FARKAS_TOL. Any (w, b) with A z >= 1 would give
    1 <= (lam/Σlam)·A z <= FARKAS_TOL (‖w‖ max|phi_i| + |b|), so a certificate proves that the
    data is not separable, or only with a margin below FARKAS_TOL times its radius.
    """
    n, p = Phi.shape
    soft = C < np.inf
    A, H = _design(Phi, y, fit_intercept)
    absA = np.abs(A)
    radius = max(float(np.sqrt((Phi * Phi).sum(axis=1).max())), 1e-300)
    z = np.zeros(A.shape[1])
    s = np.ones(n)
    # a start with lam + mu = C leaves only the margin constraints infeasible
    lam = np.full(n, 0.5 * C if soft else 1.0)
    xi, mu = (np.ones(n), np.full(n, 0.5 * C)) if soft else (np.zeros(n), np.zeros(n))
    m = 2 * n if soft else n
    moved = np.inf
    it = 0
    while True:
        r_d = H * z - A.T @ lam
        r_p = A @ z + xi - s - 1.0
        r_x = C - lam - mu if soft else np.zeros(n)
        gap = lam @ s + mu @ xi
        objective = 0.5 * (H * z) @ z + (C * xi.sum() if soft else 0.0)
        if history is not None and history.due(it):
            history.add(it, objective, gap)
        # converged when residuals and gap are small relative to their terms and the last Newton
        # step moved w by at most tol, an estimate of its remaining error (b may be non-unique)
        error = max(np.abs(r_p).max() / (1.0 + (absA @ np.abs(z)).max()),
                    np.abs(r_d).max() / (1.0 + (absA.T @ lam).max()),
                    np.abs(r_x).max() / (1.0 + (C if soft else 0.0)),
                    gap / (1.0 + abs(objective)),
                    moved / (1.0 + np.abs(z[:p]).max(initial=0.0)))
        if error <= tol:
            return _IPMResult(z, lam, it, "optimal", s, xi, mu)
        if not soft:
            cert = A.T @ (lam / lam.sum())
            if np.linalg.norm(cert[:p]) <= FARKAS_TOL * radius and np.all(np.abs(cert[p:]) <= FARKAS_TOL):
                return _IPMResult(z, lam, it, "infeasible", s, xi, mu)
        if it == max_iter:
            return _IPMResult(z, lam, it, "max_iter", s, xi, mu)
        # near the end E spans many orders of magnitude and may overflow: a failed step is caught below
        with np.errstate(all="ignore"):
            E = lam * mu / (lam * xi + s * mu) if soft else lam / s
            M = np.diag(H) + (A.T * E) @ A
            scale = 1.0 / np.sqrt(np.diag(M))      # Jacobi scaling of the reduced system

            def newton(r_ls, r_mx):
                # complementarity rows: lam s -> r_ls, mu xi -> r_mx (targets folded into them)
                g = r_x + r_mx / xi if soft else np.zeros(n)
                h = -r_p - (r_ls + s * g) / lam
                dz = scale * np.linalg.solve(scale[:, None] * M * scale, scale * (-r_d + A.T @ (g + E * h)))
                q = A @ dz
                dlam = g + E * (h - q)
                dxi = (h - q) * (lam * xi) / (lam * xi + s * mu) if soft else np.zeros(n)
                return dz, dlam, q + dxi + r_p, dxi, r_x - dlam

            def longest(d):
                # the longest step along d that keeps s, lam (and xi, mu) nonnegative
                _, dlam, ds, dxi, dmu = d
                theta = min(_max_step(ds, s), _max_step(dlam, lam))
                return min(theta, _max_step(dxi, xi), _max_step(dmu, mu)) if soft else theta

            # predictor (affine) step, then Mehrotra's centring sigma = (gap_aff / gap)³ and corrector
            try:
                aff = newton(lam * s, mu * xi)
                theta = min(1.0, longest(aff))
                _, dlam, ds, dxi, dmu = aff
                gap_aff = (lam + theta * dlam) @ (s + theta * ds) + ((mu + theta * dmu) @ (xi + theta * dxi) if soft else 0.0)
                sigma_mu = (gap_aff / gap) ** 3 * gap / m
                dz, dlam, ds, dxi, dmu = d = newton(lam * s + ds * dlam - sigma_mu, mu * xi + dxi * dmu - sigma_mu)
                theta = min(1.0, 0.99 * longest(d))
            except np.linalg.LinAlgError:
                d = None
        if d is None or not all(np.all(np.isfinite(part)) for part in d):
            # the Newton system is singular at working precision, as happens on degenerate problems
            # (a point on the margin with multiplier 0) where w converges only linearly: the last
            # digits are lost, so accept the iterate if it is within STALL_SLACK × tol
            return _IPMResult(z, lam, it, "optimal" if error <= STALL_SLACK * tol else "stalled", s, xi, mu)
        z += theta * dz
        moved = theta * np.abs(dz[:p]).max(initial=0.0)
        lam += theta * dlam
        s += theta * ds
        if soft:
            xi += theta * dxi
            mu += theta * dmu
        it += 1


def _polish(Phi, y, fit_intercept, C, result, tol):
    """Exact (w, b) from the active sets the interior point has found, or None if they fail KKT.

    Near a degenerate optimum (a point on its margin with multiplier 0) the iterates converge
    only like the square root of the gap, but the sets are plain long before: margin points S
    (s_i = 0) and bounded points B (xi_i > 0, lam_i = C). With them fixed, min ½‖w‖² + C Σ_B xi_i
    s.t. A_S z = 1, xi_B = 1 - A_B z is one linear (KKT) system
        [[H, -A_Sᵀ], [A_S, 0]] [z, lam_S] = [C Σ_B A_iᵀ, 1].
    Its solution is optimal if the other points keep A_i z >= 1, B keeps xi_i >= 0 and
    0 <= lam_S <= C (all to tol): then every KKT condition holds.
    """
    A, H = _design(Phi, y, fit_intercept)
    soft = C < np.inf
    scale = C if soft else result.lam.max()
    bounded = result.xi * C > result.mu if soft else np.zeros(len(result.lam), bool)
    margin = ~bounded & (result.s * scale <= result.lam)
    A_S, q = A[margin], A.shape[1]
    k = A_S.shape[0]
    kkt = np.block([[np.diag(H), -A_S.T], [A_S, np.zeros((k, k))]])
    rhs = np.concatenate([C * A[bounded].sum(axis=0) if soft else np.zeros(q), np.ones(k)])
    solution = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
    z, lam_S = solution[:q], solution[q:]
    f = A @ z
    if (np.all(f[~margin & ~bounded] >= 1 - tol) and np.all(f[bounded] <= 1 + tol)
            and np.all(np.abs(f[margin] - 1) <= tol) and np.all(lam_S >= -tol * scale)
            and (not soft or np.all(lam_S <= C * (1 + tol)))):
        lam = np.where(bounded, C, 0.0)
        lam[margin] = np.clip(lam_S, 0.0, C)
        return z, lam
    return None


class PrimalSVM:
    """Linear SVM on explicit features, solved as the primal QP over (w, b, xi) (Lecture 4).

    Parameters
    ----------
    C : slack penalty; np.inf is the hard margin (no xi), which raises ValueError on data that
        is not linearly separable.
    fit_intercept : with the offset b, or through the origin (b = 0).
    tol : the interior-point method stops when its relative residuals, duality gap and last step
        in w are all <= tol; (w, b) is then solved exactly on the active set it found, kept if it
        passes every KKT condition to tol (so degenerate problems are exact too).
    max_iter : most interior-point iterations (usually 10-30 are needed); hitting it warns.

    Attributes
    ----------
    coef_ : (p,) w.  intercept_ : b.  slack_ : (n,) xi_i = max(0, 1 - y_i f(x_i)).
    primal_objective_ : ½‖w‖² + C Σ xi (½‖w‖² for the hard margin).
    dual_alpha_ : (n,) the method's multipliers lam (the dual alpha at the optimum).
    n_iter_ : iterations.  history_ : dict of lists "iteration", "objective", "gap"
        (the complementarity gap lamᵀs + muᵀxi; iterates are infeasible until the end).
    """

    def __init__(self, *, C=1.0, fit_intercept=True, tol=1e-9, max_iter=200):
        self.C = C
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, Phi, y):
        Phi, y, C, tol, max_iter = _check_fit(self, Phi, y)
        history = _History("objective", "gap")
        result = _primal_ipm(Phi, y, C, self.fit_intercept, tol, max_iter, history)
        if result.status in ("optimal", "stalled"):
            polished = _polish(Phi, y, self.fit_intercept, C, result, tol)
            if polished is not None:
                result.z, result.lam = polished
                result.status = "optimal"
        if result.status == "infeasible":
            raise ValueError("The data is not linearly separable in these features, so the hard-margin "
                             "primal (C=np.inf) has no solution. Use a finite C (soft margin).")
        if result.status != "optimal":
            warnings.warn(f"The interior-point method stopped after {result.n_iter} iterations (max_iter="
                          f"{max_iter}) before reaching tol={tol:g}; raise max_iter or tol. Keeping the "
                          "current iterate.", stacklevel=2)
        p = Phi.shape[1]
        self.coef_ = result.z[:p].copy()
        self.intercept_ = float(result.z[p]) if self.fit_intercept else 0.0
        self.slack_ = np.maximum(0.0, 1.0 - y * (Phi @ self.coef_ + self.intercept_))
        penalty = C * self.slack_.sum() if C < np.inf else 0.0
        self.primal_objective_ = float(0.5 * self.coef_ @ self.coef_ + penalty)
        self.dual_alpha_ = result.lam
        self.n_iter_ = result.n_iter
        self.history_ = {key: list(values) for key, values in history.data.items()}
        return self

    def decision_function(self, Phi):
        """f = Phi w + b."""
        blocks = _check_points(Phi, self.coef_.shape[0])
        return np.concatenate([B @ self.coef_ for B in blocks]) + self.intercept_

    def predict(self, Phi):
        """Labels in {-1, +1}: the sign of f (f = 0 goes to +1)."""
        return np.where(self.decision_function(Phi) >= 0, 1.0, -1.0)
