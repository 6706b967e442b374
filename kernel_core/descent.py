"""Gradient descent for least squares: LMS on features, kernel LMS on β, and the engine every descent model runs on.

Notation (n training points, p features, T steps)
    Phi    (n, p)  Φ, row i is φ(x_i)
    theta  (p,)    θ, weights in feature space; f(x) = θᵀφ(x)
    K      (n, n)  Gram matrix K[i, j] = K(x_i, x_j) = φ(x_i)·φ(x_j)
    beta   (n,)    β, representer coefficients: θ = Σ_j β_j φ(x_j), f(x) = Σ_j β_j K(x_j, x)
    y      (n,)    real targets
    eta    float   η > 0, the step (the notes call it α; here α belongs to the SVM duals)
    t      int     step, 0..T

The notes (CS229 kernel methods; ECE 5984 "Kernel linear regression") start from θ = 0,
so θ stays in the span of the φ(x_i) and every LMS step on θ is a step on β. The
iterative models run exactly n_iter steps, as the notes' loop does, and keep a history_
the pages replay. A run whose objective blows up (η above the stable limit) stops at that step with a
warning and diverged_ = True, keeping its history up to there, so a page can show the divergence; nothing it
keeps is NaN or infinite (see descend).
"""

import warnings

import numpy as np

from .history import even_steps
from .representer import KernelModel
from .validation import check_array, check_int, check_positive, check_targets

MAX_ITER = 1_000_000
HISTORY_POINTS = 101
# no stable run grows its objective this far above the value at θ = 0
_BLOWUP = 1e8


def _sample_order(n, T, random_state):
    """Sample indices for T stochastic steps: shuffled sweeps over the data, as in CS229's
    'for i = 1 to n' loop with the order drawn from np.random.default_rng(random_state)."""
    rng = np.random.default_rng(random_state)
    sweeps = -(-T // n)
    return np.concatenate([rng.permutation(n) for _ in range(sweeps)])[:T]


def _limit(top):
    return 2.0 / top if top > 0 else np.inf


def max_stable_eta(K, *, stochastic=False):
    """The largest step for which kernel LMS (or LMS on Φ with K = ΦΦᵀ) cannot diverge.

    Batch: the residual r = y − Kβ evolves as r ← (I − ηK) r, which never grows iff
    |1 − ημ| ≤ 1 for every eigenvalue μ of K, i.e. η ≤ 2/λ_max(K).
    Stochastic: the step on sample i scales its own residual by 1 − ηK_ii, which never grows
    for η ≤ 2/max_i K_ii. Unlike the batch bound this one is sufficient, not sharp: a somewhat
    larger η may still converge. Returns inf when K is zero (every step is then a no-op).
    """
    K = check_array(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be a square Gram matrix; got shape {K.shape}.")
    top = np.max(np.diag(K)) if stochastic else np.linalg.eigvalsh(K)[-1]
    return _limit(top)


def eta_from_ratio(K, eta_ratio, *, stochastic=False):
    """(η, η_max, warnings): η = eta_ratio · η_max, a step named as a fraction of its stable limit on the Gram matrix
    K, and a warning when the ratio is above 1: the run may still finish, but its loss can grow instead of shrink."""
    eta_max = max_stable_eta(K, stochastic=stochastic)
    eta = eta_ratio * eta_max
    warnings = () if eta_ratio <= 1 else (
        f"η = {eta:.4g} is above the stable limit η_max = {eta_max:.4g}: steps can overshoot and the loss can "
        "grow. Move η / η_max below 1.",)
    return eta, eta_max, warnings


def resolve_eta(eta, limit):
    """eta=None picks half the stable limit() (1/λ_max for batch), well inside the stable range."""
    if eta is None:
        bound = limit()
        return 0.5 * bound if np.isfinite(bound) else 1.0
    return check_positive(eta, "eta")


def affine_powers(A, b, k):
    """(A^k, (I + A + … + A^{k−1}) b): k steps of x ← A x + b taken at once, x_k = A^k x_0 + that vector.

    By binary doubling, log₂ k matrix products: a batch gradient step on a quadratic is such a map, and jumping
    from one recorded step to the next costs two of those products instead of one pass per step in Python.
    """
    n = A.shape[0]
    power, total = np.eye(n), np.zeros(n)           # the steps taken so far: A^m and (Σ_{j<m} A^j) b
    square, square_sum = A, b                        # A^(2^r) and (Σ_{j<2^r} A^j) b
    while k:
        if k & 1:
            power, total = square @ power, square @ total + square_sum
        k >>= 1
        if k:
            square_sum = square @ square_sum + square_sum
            square = square @ square
    return power, total


def descend(params, step, objective, T, eta, limit, what, affine=None):
    """Apply step(params, t) in place for t = 0..T−1, recording the objective and params; returns the recorded
    steps, objectives and params, and whether the run diverged.

    affine: (A, b) when every step is params ← A params + b (batch gradient descent on a quadratic): the run
    then goes from one recorded step to the next in one jump (affine_powers), equal to the steps up to
    rounding.

    A recorded objective above _BLOWUP times the start (or not finite) means the run diverged since the last
    record: that stretch is replayed step by step (step(params, t) depends on t alone, so it repeats exactly),
    each step recorded until the blow-up, and the run stops there with a warning that quotes limit(), the
    stable step bound. Every recorded objective and params is finite.
    """
    recorded = even_steps(0, T, HISTORY_POINTS)
    start = objective(params)
    steps, values, snapshots = [0], [start], [params.copy()]
    jumps = {}

    def keep(t):
        value = objective(params)
        if not (np.isfinite(value) and np.all(np.isfinite(params))):
            return False
        steps.append(t)
        values.append(value)
        snapshots.append(params.copy())
        return value <= _BLOWUP * start

    # overflow is caught through the objective, with a message instead of a numpy warning
    with np.errstate(over="ignore", invalid="ignore"):
        for before, t in zip(recorded[:-1], recorded[1:]):
            if affine is None:
                for u in range(before, t):
                    step(params, u)
            else:
                if t - before not in jumps:
                    jumps[t - before] = affine_powers(*affine, t - before)
                power, shift = jumps[t - before]
                params[:] = power @ params + shift
            value = objective(params)
            if np.isfinite(value) and value <= _BLOWUP * start and np.all(np.isfinite(params)):
                steps.append(int(t))
                values.append(value)
                snapshots.append(params.copy())
                continue
            params[:] = snapshots[-1]
            for u in range(steps[-1] + 1, t + 1):
                step(params, u - 1)
                if not keep(u):
                    break
            warnings.warn(
                f"{what} diverged: the objective went from {start:.4g} to {values[-1]:.4g} by step {steps[-1]} "
                f"with eta={eta:.4g}, and the run stopped there. Use a smaller eta; steps are stable below "
                f"{limit():.4g}.", RuntimeWarning, stacklevel=3)
            return np.array(steps), np.array(values), np.array(snapshots), True
    return np.array(steps), np.array(values), np.array(snapshots), False


class LMS:
    """Least mean squares on explicit features: gradient descent on L(θ) = ½ Σ_i (y_i − θᵀφ(x_i))².

    Batch (CS229 "LMS with features"): θ ← θ + η Σ_i (y_i − θᵀφ(x_i)) φ(x_i) = θ + η Φᵀ(y − Φθ).
    Stochastic: one sample i per step, θ ← θ + η (y_i − θᵀφ(x_i)) φ(x_i).

    Parameters
    ----------
    eta : step η > 0; None picks half the stable limit (1/λ_max(ΦΦᵀ), or 1/max‖φ_i‖²).
    n_iter : T, the number of steps (one pass over all samples, or one sample, per step).
    stochastic : one sample per step instead of the full sum.
    random_state : seed of np.random.default_rng for the sample order (shuffled sweeps).

    Attributes
    ----------
    theta_ : (p,) θ after T steps, from θ = 0.
    eta_ : the step used.
    history_ : dict of arrays at up to 101 evenly spaced steps "t" (0 and T included):
        "loss" L(θ_t) and "theta" (len(t), p).
    """

    def __init__(self, *, eta=None, n_iter=100, stochastic=False, random_state=None):
        self.eta = eta
        self.n_iter = n_iter
        self.stochastic = stochastic
        self.random_state = random_state

    def fit(self, Phi, y):
        Phi, y = check_targets(Phi, y)
        T = check_int(self.n_iter, "n_iter", low=1, high=MAX_ITER)
        n, p = Phi.shape

        def limit():
            # (ΦΦᵀ)_ii = ‖φ_i‖² and λ_max(ΦΦᵀ) = ‖Φ‖₂²: max_stable_eta without forming K
            if self.stochastic:
                return _limit(np.max(np.einsum("ij,ij->i", Phi, Phi)))
            return _limit(np.linalg.norm(Phi, 2) ** 2)

        eta = resolve_eta(self.eta, limit)

        if self.stochastic:
            order = _sample_order(n, T, self.random_state)

            def step(theta, t):
                i = order[t]
                theta += eta * (y[i] - Phi[i] @ theta) * Phi[i]
            affine = None
        else:
            def step(theta, t):
                theta += eta * (Phi.T @ (y - Phi @ theta))
            # θ ← (I − ηΦᵀΦ) θ + ηΦᵀy
            affine = (np.eye(p) - eta * (Phi.T @ Phi), eta * (Phi.T @ y))

        def loss(theta):
            r = y - Phi @ theta
            return 0.5 * (r @ r)

        steps, losses, thetas, self.diverged_ = descend(np.zeros(p), step, loss, T, eta, limit, "LMS", affine)
        self.theta_, self.eta_ = thetas[-1], eta
        self.history_ = {"t": steps, "loss": losses, "theta": thetas}
        return self

    def predict(self, Phi):
        """θᵀφ(x) for each row φ(x) of Phi."""
        if not hasattr(self, "theta_"):
            raise ValueError("This LMS is not fitted yet; call fit(Phi, y) first.")
        Phi = check_array(Phi, "Phi")
        if Phi.shape[1] != self.theta_.shape[0]:
            raise ValueError(f"Phi has {Phi.shape[1]} features but the model was fitted on "
                             f"{self.theta_.shape[0]}; use the same feature map.")
        return Phi @ self.theta_


class KernelLMS(KernelModel):
    """LMS in the representer coordinates β (CS229 "final algorithm with kernel").

    Batch: β ← β + η (y − Kβ). Stochastic: β_i ← β_i + η (y_i − Σ_j β_j K_ji) for one i per
    step. From β = 0 these are the LMS steps on θ = Σ_j β_j φ(x_j), so the predictions
    equal LMS on Φ whenever K = ΦΦᵀ (same η, n_iter and random_state).

    Parameters
    ----------
    kernel : registry name ("rbf", "poly", "linear", ...) or callable (X, Y) -> Gram.
    eta : step η > 0; None picks half of max_stable_eta(K).
    n_iter, stochastic, random_state : as in LMS.
    gamma, degree, coef0 : kernel parameters, as in kernel_core.kernels.

    Attributes
    ----------
    beta_ : (n,) β after T steps, from β = 0.
    eta_ : the step used.
    history_ : dict of arrays at up to 101 evenly spaced steps "t" (0 and T included):
        "loss" ½‖y − Kβ_t‖² and "beta" (len(t), n).
    """

    def __init__(self, kernel="rbf", *, eta=None, n_iter=100, gamma=None, degree=3, coef0=1.0,
                 stochastic=False, random_state=None):
        self.kernel = kernel
        self.eta = eta
        self.n_iter = n_iter
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.stochastic = stochastic
        self.random_state = random_state

    def fit(self, X, y):
        X, y = check_targets(X, y)
        T = check_int(self.n_iter, "n_iter", low=1, high=MAX_ITER)
        K = self._gram(X)

        def limit():
            return max_stable_eta(K, stochastic=self.stochastic)

        eta = resolve_eta(self.eta, limit)
        if self.stochastic:
            order = _sample_order(X.shape[0], T, self.random_state)

            def step(beta, t):
                i = order[t]
                beta[i] += eta * (y[i] - K[i] @ beta)   # K symmetric: K[i] @ β = Σ_j β_j K_ji
            affine = None
        else:
            def step(beta, t):
                beta += eta * (y - K @ beta)
            # β ← (I − ηK) β + ηy
            affine = (np.eye(K.shape[0]) - eta * K, eta * y)

        def loss(beta):
            r = y - K @ beta
            return 0.5 * (r @ r)

        steps, losses, betas, self.diverged_ = descend(np.zeros(X.shape[0]), step, loss, T, eta, limit, "Kernel LMS",
                                                        affine)
        self.beta_, self.eta_ = betas[-1], eta
        self.history_ = {"t": steps, "loss": losses, "beta": betas}
        return self

    def predict(self, X):
        return self.decision_function(X)
