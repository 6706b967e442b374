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
DualSVM solves the dual (kernel_core.smo, driven by kernel_core.dual), PrimalSVM the primal
(kernel_core.primal); at the optimum their objectives meet. Neither is ever computed from the other.
"""

import warnings
from dataclasses import dataclass

import numpy as np

from . import dual
from .feature_maps import polynomial_feature_dim, polynomial_features
from .history import Trace
from .kernels import checked_gram, make_kernel, squared_distances
from .primal import polish, primal_ipm, require_separable
from .validation import MAX_PREDICT_SAMPLES, check_array, check_int, check_positive, check_X_y

# rows of X per kernel call in decision_function: small enough that OpenBLAS runs the product
# X Yᵀ on one thread (threads stall on a busy machine) and the block stays in cache
_CHUNK = 1024
# inputs this large (plotting grids) may use float32 for the RBF kernel, see DualSVM.decision_function
F32_MIN_POINTS = 10_000
F32_MAX_REL_ERROR = 1e-5


def _probe_steps(n):
    """SMO steps a hard margin gets before its feasibility must be proven (separable data need O(n)); the proof
    (an eigendecomposition and an interior point) costs about as much as a few hundred steps."""
    return 2 * n + 200


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
        and the data separable in its feature space (O(n³), see primal.require_separable), else ValueError.
    gamma, degree, coef0 : kernel parameters, as in kernel_core.kernels (gamma=None: 1/d).
    fit_intercept : with the offset b (constraint Σ alpha_i y_i = 0, solved by SMO with the WSS 2
        rule of Fan, Chen & Lin 2005, kernel_core.smo.pair_step); without it the dual is a box QP, solved
        by greedy one-variable coordinate descent (kernel_core.smo.coordinate_step).
    tol : stop when the largest KKT violation (LIBSVM's m(alpha) - M(alpha)) is <= tol. Below 1e-2
        the solver also polishes the face it has found (kernel_core.dual), so 1e-9 is reached fast.
    max_iter : most SMO steps; hitting it warns and keeps the current alpha.

    Attributes
    ----------
    alpha_ : (n,) the dual variables alpha_i >= 0 (not y_i alpha_i).
    intercept_ : b (0.0 without offset).
    support_ : indices with alpha_i > 0; support_vectors_ : X[support_].
    dual_objective_ : Σ alpha - ½ alphaᵀG alpha.
    norm_w_squared_ : alphaᵀG alpha = ‖w‖², G_ij = y_i y_j K(x_i, x_j); negative only if K is not PSD
        (then there is no w and no margin).
    norm_w_ : ‖w‖ = √(alphaᵀG alpha), 0 when that is not above float64's rounding of it (w = 0 then, up to
        rounding, and there is no margin): known even when φ is infinite-dimensional (the margin is 1/‖w‖).
    min_curvature_ : the smallest curvature a_ij = K_ii + K_jj - 2 K_ij of the SMO steps taken (K_tt
        without offset), inf if none was taken. Negative means K is not PSD; those steps used LIBSVM's
        stand-in TAU = 1e-12 (Fan, Chen & Lin 2005).
    psd_violated_ : True if the fit met proof that K is not PSD on these points (min_curvature_ < 0, a K_ii < 0
        or norm_w_squared_ < 0, each beyond float64's rounding). False is no proof of the opposite: use
        mercer.check_psd.
    converged_ : True if the KKT violation reached tol.
    coef_ : w = Σ alpha_i y_i x_i for kernel="linear", else None.
    n_iter_ : SMO steps taken.
    history_ : dict of lists "iteration", "objective" (dual objective), "violation" (largest
        KKT violation), sampled evenly over the run (every step for short runs); and at most 30
        snapshots of the iterate, about log-spaced in the step, for a replay (kernel_core.dual.snapshots):
        "snapshot_t" (S,) the step, "alpha" (S, n), "b" (S,), "working_set" (S tuples: the pair (i, j)
        that SMO step moved, (i,) without offset, () for the start and active-set steps) and
        "active_set" (S,) True where a polish moved many alphas at once. The last is alpha_, intercept_.
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

    def fit(self, X, y, alpha0=None):
        """Solve the dual on (X, y). alpha0: optional start (a warm start, e.g. the alpha_ of a fit at a
        neighbouring C), projected onto the feasible set {0 <= alpha <= C, Σ alpha_i y_i = 0}."""
        X, y, C, tol, max_iter = _check_fit(self, X, y)
        if self.gamma is not None:
            check_positive(self.gamma, "gamma", allow_zero=True)
        k = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        rows = dual.KernelRows(k, X)
        rows.factor = _low_rank_factor(self, X)
        diag = rows.diagonal()
        history = Trace("objective", "violation")
        run = dual.start(rows, y, C, self.fit_intercept, alpha0)
        if C < np.inf:
            with np.errstate(over="ignore", invalid="ignore"):    # a non-finite run is reported below
                gap = dual.solve(rows, diag, y, C, tol, max_iter, self.fit_intercept, history, run)
        else:
            # the hard-margin dual is unbounded on data that is not separable: SMO would run to
            # max_iter. Only if it has not converged within _probe_steps is the (O(n³)) proof run,
            # before SMO gets its whole budget.
            with np.errstate(all="ignore"):     # a diverging run may overflow; it is discarded
                gap = dual.solve(rows, diag, y, C, tol, min(max_iter, _probe_steps(len(y))), self.fit_intercept,
                                 history, run)
            if not gap <= tol:
                require_separable(rows.block(slice(None)), y, self.fit_intercept)
                history = Trace("objective", "violation")
                run = dual.start(rows, y, C, self.fit_intercept, alpha0)
                gap = dual.solve(rows, diag, y, C, tol, max_iter, self.fit_intercept, history, run)
        if np.isnan(gap):
            raise ValueError(f"SMO's iterate became NaN or infinite: the Gram matrix reaches {np.abs(diag).max():.3g}, "
                             "too large for float64 arithmetic. Lower γ or the degree (or coef0), or scale X down "
                             "(or lower C).")
        self.converged_ = bool(gap <= tol)
        if not self.converged_ and (gap <= run.floor or run.stalled or run.floor > tol):
            why = ("" if gap <= run.floor else ", and SMO's gap grew instead of closing" if run.stalled
                   else f", and SMO stopped at max_iter={max_iter}")
            warnings.warn(f"SMO stopped at KKT violation {gap:.3g} > tol={tol:g}: rounding in float64 alone moves "
                          f"the gradient by up to {run.floor:.2g} with Gram entries up to {np.abs(diag).max():.3g}"
                          f"{why} (the dual is too ill-conditioned for float64 here). Lower γ or "
                          "the degree (or coef0, or C), or raise tol. Keeping the current alpha.", stacklevel=2)
        elif not self.converged_:
            warnings.warn(f"SMO stopped at max_iter={max_iter} with KKT violation {gap:.3g} > "
                          f"tol={tol:g}; raise max_iter or tol. Keeping the current alpha.", stacklevel=2)
        alpha, v = run.alpha, run.v
        b = float(dual.intercept(alpha, y, v, C)) if self.fit_intercept else 0.0
        self.alpha_, self.intercept_ = alpha, b
        self.n_iter_ = run.t
        self.support_ = np.flatnonzero(alpha > 0)
        self.support_vectors_ = X[self.support_]
        self._sv_coef = (alpha * y)[self.support_]
        self.dual_objective_ = float(dual.objective(alpha, y, v))
        self.norm_w_squared_ = float(dual.quadratic(alpha, y, v))
        # float64 rounding of αᵀGα and of a curvature K_ii + K_jj − 2K_ij: below these, zero is as good as
        # the number, so neither is proof that K is not PSD (|K_ij| ≤ max K_ii for a PSD K)
        k_max = max(float(np.max(np.abs(diag))), np.finfo(float).tiny)
        q_tol = 8 * y.size * np.finfo(float).eps * float(np.sum(alpha)) ** 2 * k_max
        self.norm_w_ = float(np.sqrt(self.norm_w_squared_)) if self.norm_w_squared_ > q_tol else 0.0
        self.min_curvature_ = float(run.min_curvature)
        self.psd_violated_ = bool(run.min_curvature < -16 * np.finfo(float).eps * k_max or diag.min() < 0
                                  or self.norm_w_squared_ < -q_tol)
        self.history_ = {**history.close(self.n_iter_, self.dual_objective_, gap),
                         **dual.snapshots(run, lambda a, v: dual.intercept(a, y, v, C) if self.fit_intercept
                                          else np.zeros(len(a)))}
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
        blocks = _check_points(self, "alpha_", X, lambda: self.support_vectors_.shape[1])
        if self.support_.size == 0:
            return np.full(sum(len(B) for B in blocks), self.intercept_)
        # einsum's own loop, not BLAS gemv, for the same reason as _CHUNK
        if self._rbf32 is not None and sum(len(B) for B in blocks) >= F32_MIN_POINTS:
            centre, S, coef, minus_gamma = self._rbf32
            f = [np.einsum("ij,j->i", np.exp(minus_gamma * squared_distances((B - centre).astype(S.dtype), S)), coef)
                 for B in blocks]
        else:
            f = [np.einsum("ij,j->i", checked_gram(self._k, B, self.support_vectors_), self._sv_coef) for B in blocks]
        return _finite(np.concatenate(f).astype(float) + self.intercept_)

    def predict(self, X):
        """Labels in {-1, +1}: the sign of f (f = 0 goes to +1)."""
        return np.where(self.decision_function(X) >= 0, 1.0, -1.0)


def _low_rank_factor(model, X):
    """Z with K = Z Zᵀ for a kernel whose explicit map is short next to n (fewer than n / 4 features): X for the
    linear kernel, polynomial_features for poly with coef0 >= 0; else None. The polish then solves a face of many
    free alphas (singular when there are more than the rank) in the map's dimensions (dual._solve_low_rank)."""
    n, d = X.shape
    if model.kernel == "linear":
        return X if d < n / 4 else None
    if model.kernel in ("poly", "polynomial") and model.coef0 >= 0 and model.degree >= 1:
        gamma = 1.0 / d if model.gamma is None else float(model.gamma)
        if gamma > 0 and polynomial_feature_dim(d, model.degree, coef0=model.coef0) < n / 4:
            return polynomial_features(X, degree=model.degree, gamma=gamma, coef0=model.coef0)
    return None


def _check_fit(model, X, y):
    """The checks both fits share: training set, C (np.inf allowed), tol and max_iter."""
    X, y = check_X_y(X, y)
    C = check_positive(model.C, "C", allow_inf=True)
    return X, y, C, check_positive(model.tol, "tol"), check_int(model.max_iter, "max_iter", low=1)


def _check_points(model, fitted, X, features):
    """Points to evaluate with a fitted model (it has the attribute `fitted`; features() gives the
    number of training features), validated once and split into row blocks of _CHUNK."""
    if not hasattr(model, fitted):
        raise ValueError(f"This {type(model).__name__} is not fitted yet; call fit first.")
    X = check_array(X, max_samples=MAX_PREDICT_SAMPLES)
    d = features()
    if X.shape[1] != d:
        raise ValueError(f"X has {X.shape[1]} feature(s) but the model was fitted on {d}; "
                         "pass points with the training features.")
    return [X[s:s + _CHUNK] for s in range(0, len(X), _CHUNK)]


def _finite(f):
    if not np.all(np.isfinite(f)):
        raise ValueError(f"The decision values are NaN or infinite at {int(np.count_nonzero(~np.isfinite(f)))} "
                         "point(s): the kernel overflows there. Lower γ or the degree (or coef0), or evaluate "
                         "points nearer the training data.")
    return f

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
    converged_ : True if the optimum was reached (to tol, or certified by the exact KKT check).
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
        history = Trace("objective", "gap")
        result = primal_ipm(Phi, y, C, self.fit_intercept, tol, max_iter, history)
        if result.status in ("optimal", "stalled"):
            polished = polish(Phi, y, self.fit_intercept, C, result, tol)
            if polished is not None:
                result.z, result.lam = polished
                result.status = "optimal"
        if result.status == "infeasible":
            raise ValueError("The data is not linearly separable in these features, so the hard-margin "
                             "primal (C=np.inf) has no solution. Use a finite C (soft margin).")
        self.converged_ = result.status == "optimal"
        if not self.converged_:
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
        blocks = _check_points(self, "coef_", Phi, lambda: self.coef_.shape[0])
        return _finite(np.concatenate([B @ self.coef_ for B in blocks]) + self.intercept_)

    def predict(self, Phi):
        """Labels in {-1, +1}: the sign of f (f = 0 goes to +1)."""
        return np.where(self.decision_function(Phi) >= 0, 1.0, -1.0)
