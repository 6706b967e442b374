"""Kernel perceptron through the origin (Lecture 4, "Kernel perceptron").

Notation (n samples)
    K       (n, n)  Gram matrix K[i, j] = K(x_i, x_j)
    y       (n,)    labels in {-1, +1}
    alpha   (n,)    mistake counts α_i ∈ {0, 1, ...}
    t       int     index of the example visited, in order 0..n-1 within an epoch
    f       float   Σ_i α_i y_i K(x_i, x_t), the discriminant before the update

With an explicit feature map this is the perceptron on θ = Σ_i α_i y_i φ(x_i).
"""

import warnings

import numpy as np

from .kernels import checked_gram, cross_gram, make_kernel
from .validation import check_int, check_predict_input, check_X_y

MAX_EPOCHS = 1_000
MISTAKE_LOG = 5_000


class KernelPerceptron:
    """Mistake-driven kernel perceptron: on y_t f(x_t) ≤ 0 set α_t ← α_t + 1.

    Parameters
    ----------
    kernel : registry name ("linear", "poly", "rbf", ...) or callable (X, Y) -> Gram.
    max_epochs : passes over the data before giving up (at most 1000); the data may not be
        separable by this kernel.
    gamma, degree, coef0 : kernel parameters, as in kernel_core.kernels.

    Attributes
    ----------
    alpha_ : (n,) int mistake counts; f(x) = Σ_i α_i y_i K(x_i, x), no offset.
    converged_ : True if the last epoch made no mistake (the data are separated).
    n_epochs_ : epochs run, the final mistake-free one included.
    history_ : dict with "mistakes" (n_epochs_,) mistakes per epoch, "alpha"
        (n_epochs_, n) α at the end of each epoch, "mistake_log" (m, 2) the first
        5000 mistakes in order as (epoch starting at 1, sample index t) and
        "n_mistakes" the total number of mistakes, Σ α_i.
    """

    def __init__(self, kernel="linear", *, max_epochs=100, gamma=None, degree=3, coef0=1.0):
        self.kernel = kernel
        self.max_epochs = max_epochs
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y):
        X, y = check_X_y(X, y)
        max_epochs = check_int(self.max_epochs, "max_epochs", low=1, high=MAX_EPOCHS)
        self._k = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        K = checked_gram(self._k, X, X)
        n = X.shape[0]

        alpha = np.zeros(n, dtype=np.int64)
        # f_t = Σ_i α_i y_i K(x_i, x_t) for every t, kept current: a mistake on t adds y_t K(x_t, ·). Between two
        # mistakes f does not change, so the next mistake of the epoch is the first t ahead with y_t f_t <= 0: one
        # numpy search per mistake instead of a Python step per visit (the same mistakes, in the same order)
        # kept as m_t = y_t f_t (y = ±1, so a sign flip: exact): a mistake on t adds row t of M = (y yᵀ) ∘ K to m
        M = y[:, None] * K * y
        m = np.zeros(n)
        mistakes, snapshots, log = [], [], []
        converged = False
        for epoch in range(1, max_epochs + 1):
            count = t = 0
            while t < n:
                wrong = m[t:] <= 0.0                  # y_t f_t <= 0: a mistake, f taken before the update
                k = int(wrong.argmax())
                if not wrong[k]:
                    break
                t += k
                alpha[t] += 1
                m += M[t]                 # K symmetric: row t is y_t y_i K(x_t, x_i) for all i
                count += 1
                if len(log) < MISTAKE_LOG:
                    log.append((epoch, t))
                t += 1
            mistakes.append(count)
            snapshots.append(alpha.copy())
            if count == 0:
                converged = True
                break
        if not converged:
            warnings.warn(
                f"KernelPerceptron made mistakes in every one of max_epochs={max_epochs} epochs; "
                "the data may not be separable through the origin with this kernel. Increase "
                "max_epochs or choose a richer kernel (e.g. rbf or a higher polynomial degree).",
                RuntimeWarning,
                stacklevel=2,
            )

        self.X_fit_ = X
        self.y_fit_ = y
        self.alpha_ = alpha
        self.converged_ = converged
        self.n_epochs_ = len(mistakes)
        self.history_ = {
            "mistakes": np.array(mistakes),
            "alpha": np.array(snapshots),
            "mistake_log": np.array(log, dtype=np.int64).reshape(-1, 2),
            "n_mistakes": int(alpha.sum()),
        }
        return self

    def decision_function(self, X, *, gram=None):
        """f(x) = Σ_i α_i y_i K(x_i, x) for each row x of X.
        gram: K(X, X_fit) with this model's kernel, if already computed (it is checked for shape)."""
        X = check_predict_input(self, X, "alpha_", getattr(self, "X_fit_", None))
        return cross_gram(self._k, X, self.X_fit_, gram) @ (self.alpha_ * self.y_fit_)

    def predict(self, X):
        """sign(f(x)) in {-1, +1} (f = 0 goes to +1)."""
        return np.where(self.decision_function(X) >= 0.0, 1.0, -1.0)
