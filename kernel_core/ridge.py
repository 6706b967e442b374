"""Kernel ridge regression: β solves (K + λI) β = y, by Cholesky where K is PSD.

Notation (n training points, m query points)
    K      (n, n)  Gram matrix K[i, j] = K(x_i, x_j) = φ(x_i)·φ(x_j)
    beta   (n,)    β, representer coefficients: f(x) = Σ_j β_j K(x_j, x)
    y      (n,)    real targets
    lam    float   λ > 0, the regularization strength
    L      (n, n)  lower-triangular Cholesky factor, L Lᵀ = K + λI
"""

import numpy as np

from .representer import KernelModel
from .validation import check_positive, check_targets


SOLVE_BLOCK = 64     # rows per diagonal block of the triangular solves


def solve_lower(L, b, *, transposed=False):
    """x with L x = b (or Lᵀ x = b) for a lower-triangular L, by blocks: numpy has no triangular solver (and
    kernel_core depends on numpy alone), and its general solver would factor L anew (O(n³)). Each diagonal block
    (SOLVE_BLOCK²) is solved directly and the rest of b updated with one product, O(n²) in all."""
    n = L.shape[0]
    x = np.array(b, dtype=float)
    starts = range(0, n, SOLVE_BLOCK)
    for s in (reversed(starts) if transposed else starts):
        e = min(s + SOLVE_BLOCK, n)
        if transposed:
            # Lᵀ is upper triangular: the block rows of x after e are known, those before s wait
            x[s:e] = np.linalg.solve(L[s:e, s:e].T, x[s:e] - L[e:, s:e].T @ x[e:])
        else:
            x[s:e] = np.linalg.solve(L[s:e, s:e], x[s:e])
            x[e:] -= L[e:, s:e] @ x[s:e]
    return x


def solve_regularized(K, lam, y, *, overwrite=False):
    """β with (K + λI) β = y, never inverting: for a PSD K, K + λI is positive definite, so Cholesky (L Lᵀ) and
    two triangular solves (solve_lower); a kernel that is not PSD (sigmoid) may make Cholesky fail, and then LU
    solves it. overwrite: K is the caller's to discard, and K + λI is formed in it (else in a copy: K may be a
    callable kernel's, even read-only)."""
    A = K if overwrite else np.array(K, dtype=float)
    A.flat[::A.shape[0] + 1] += lam
    try:
        L = np.linalg.cholesky(A)
    except np.linalg.LinAlgError:
        return np.linalg.solve(A, y)
    return solve_lower(L, solve_lower(L, y), transposed=True)


class KernelRidge(KernelModel):
    """Kernel ridge regression: β solves (K + λI) β = y; f(x) = Σ_j β_j K(x_j, x).

    In feature space it minimizes ½ Σ_i (y_i − θᵀφ(x_i))² + (λ/2)‖θ‖², whose minimizer is
    θ = Σ_j β_j φ(x_j) with this β (scikit-learn's KernelRidge with alpha = λ).
    The system is solved by Cholesky where K + λI is positive definite, else by LU (indefinite
    kernels such as sigmoid), never by inverting (solve_regularized).

    Attributes: beta_ (n,), X_fit_ (n, d).
    """

    def __init__(self, kernel="rbf", *, lam=1.0, gamma=None, degree=3, coef0=1.0):
        self.kernel = kernel
        self.lam = lam
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0

    def fit(self, X, y):
        X, y = check_targets(X, y)
        lam = check_positive(self.lam, "lam")
        K = self._gram(X)
        try:
            # a registry kernel's Gram matrix is a new array, ours to overwrite; a callable's may be its own
            self.beta_ = solve_regularized(K, lam, y, overwrite=isinstance(self.kernel, str))
        except np.linalg.LinAlgError:
            raise ValueError(
                f"K + λI is singular for lam={lam:g} (the kernel is not positive semidefinite "
                "here); increase lam or choose a valid kernel."
            ) from None
        return self

    def predict(self, X):
        return self.decision_function(X)
