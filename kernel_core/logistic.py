"""Kernel logistic regression by gradient descent on the representer coefficients β.

Notation (n training points, m query points, T steps)
    K      (n, n)  Gram matrix K[i, j] = K(x_i, x_j)
    beta   (n,)    β, representer coefficients: f(x) = Σ_j β_j K(x_j, x)
    y      (n,)    labels in {-1, +1}
    eta    float   η > 0, the step
    lam    float   λ > 0, the regularization strength
    t      int     step, 0..T
"""

import numpy as np

from .descent import MAX_ITER, descend, resolve_eta
from .representer import KernelModel
from .validation import check_array, check_int, check_labels, check_positive


def _sigmoid(s):
    """σ(s) = 1/(1 + e^{−s}) without overflow for large |s|."""
    return np.exp(-np.logaddexp(0.0, -s))


class KernelLogisticRegression(KernelModel):
    """Kernel logistic regression by gradient descent on β.

    Objective, with labels y ∈ {−1, +1} and f = Kβ:
        J(β) = Σ_i log(1 + exp(−y_i f_i)) + (λ/2) βᵀKβ,
    the log-loss of P(y = +1 | x) = σ(f(x)) plus (λ/2)‖θ‖² for θ = Σ_j β_j φ(x_j). This is
    scikit-learn's LogisticRegression objective with C = 1/λ and no intercept, kernelized.

    Step: gradient descent on θ, written in β. ∇_θ J = Σ_i (λβ_i − y_i σ(−y_i f_i)) φ(x_i), so
        β ← (1 − ηλ) β + η y ∘ σ(−y ∘ Kβ).
    With y01 = (y + 1)/2 ∈ {0, 1}, y ∘ σ(−y ∘ f) = y01 − σ(f): at λ = 0 this is the notes'
    update β ← β + η (y − σ(Kβ)) (ECE 5984, "Kernel logistic regression"). The notes label
    the loss ½Σ(y − σ)², but the gradient they step along is that of the log-loss used here.
    J is (λ_max(K)/4 + λ)-smooth in θ, so it decreases at every step for η < 2/(λ_max/4 + λ).

    Parameters
    ----------
    kernel, gamma, degree, coef0 : as in KernelLMS.
    lam : λ > 0.
    eta : step η > 0; None picks 1/(λ_max(K)/4 + λ), half the limit.
    n_iter : the number of gradient steps (exactly that many are run).

    Attributes
    ----------
    beta_ : (n,) β after n_iter steps, from β = 0.
    eta_ : the step used.
    classes_ : array([-1., 1.]), the column order of predict_proba.
    history_ : dict of arrays at up to 101 evenly spaced steps "t" (0 and T included):
        "objective" J(β_t) and "beta" (len(t), n).
    """

    def __init__(self, kernel="rbf", *, lam=0.1, eta=None, n_iter=1000, gamma=None, degree=3,
                 coef0=1.0):
        self.kernel = kernel
        self.lam = lam
        self.eta = eta
        self.n_iter = n_iter
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y):
        X = check_array(X)
        y = check_labels(y, X.shape[0])
        lam = check_positive(self.lam, "lam")
        T = check_int(self.n_iter, "n_iter", low=1, high=MAX_ITER)
        K = self._gram(X)

        def limit():
            return 2.0 / (max(np.linalg.eigvalsh(K)[-1], 0.0) / 4.0 + lam)

        eta = resolve_eta(self.eta, limit)

        # the step below in place, with σ(s) = (1 + tanh(s/2))/2: one transcendental per point and no new arrays,
        # half the time of the plain expression (a step is ~10 numpy calls on n numbers)
        f = np.empty(X.shape[0])
        half_y, decay, half_eta_y = -0.5 * y, 1.0 - eta * lam, 0.5 * eta * y

        def step(beta, t):
            # β ← (1 − ηλ) β + η y ∘ σ(−y ∘ Kβ)
            np.dot(K, beta, out=f)
            np.multiply(f, half_y, out=f)
            np.tanh(f, out=f)
            np.add(f, 1.0, out=f)
            np.multiply(f, half_eta_y, out=f)
            np.multiply(beta, decay, out=beta)
            np.add(beta, f, out=beta)

        def objective(beta):
            f = K @ beta
            return np.sum(np.logaddexp(0.0, -y * f)) + 0.5 * lam * (beta @ f)

        steps, values, betas, self.diverged_ = descend(np.zeros(X.shape[0]), step, objective, T, eta, limit,
                                                        "Kernel logistic regression")
        self.beta_, self.eta_ = betas[-1], eta
        self.classes_ = np.array([-1.0, 1.0])
        self.history_ = {"t": steps, "objective": values, "beta": betas}
        return self

    def predict_proba(self, X):
        """(m, 2): columns P(y = −1 | x), P(y = +1 | x) = σ(f(x))."""
        p = _sigmoid(self.decision_function(X))
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """sign(f(x)) in {-1, +1} (f = 0 goes to +1)."""
        return np.where(self.decision_function(X) >= 0.0, 1.0, -1.0)
