"""Kernel functions with scikit-learn's formulas, parameter names and defaults.

Notation
    X      (n, d)   first set of points x_i
    Y      (m, d)   second set of points z_j (Y=None means Y = X)
    K      (n, m)   Gram matrix, K[i, j] = k(x_i, z_j)
    gamma  float    scale; None means 1 / d as in scikit-learn
    degree int      polynomial degree
    coef0  float    additive constant of the polynomial and sigmoid kernels
"""

from dataclasses import dataclass

import numpy as np

from .validation import check_int, check_pair, check_positive


def _gamma(gamma, X):
    if gamma is None:
        return 1.0 / X.shape[1]
    return check_positive(gamma, "gamma", allow_zero=True)


def squared_distances(X, Y):
    """‖x_i − z_j‖² for all pairs, via ‖x‖² − 2x·z + ‖z‖²."""
    D = np.einsum("ij,ij->i", X, X)[:, None] - 2.0 * (X @ Y.T) + np.einsum("ij,ij->i", Y, Y)[None, :]
    # clip tiny negatives caused by cancellation in the expansion
    np.maximum(D, 0.0, out=D)
    if X is Y:
        np.fill_diagonal(D, 0.0)
    return D


def linear_kernel(X, Y=None):
    """k(x, z) = x·z."""
    X, Y = check_pair(X, Y)
    return X @ Y.T


def polynomial_kernel(X, Y=None, *, degree=3, gamma=None, coef0=1.0):
    """k(x, z) = (γ x·z + coef0)^degree."""
    X, Y = check_pair(X, Y)
    degree = check_int(degree, "degree", low=0, high=50)
    return (_gamma(gamma, X) * (X @ Y.T) + float(coef0)) ** degree


def rbf_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖²); the notes' σ is γ = 1/σ (Lecture 8) or 1/(2σ²)."""
    X, Y = check_pair(X, Y)
    return np.exp(-_gamma(gamma, X) * squared_distances(X, Y))


def laplacian_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖₁) (scikit-learn's Laplacian kernel uses the L1 norm)."""
    X, Y = check_pair(X, Y)
    L1 = np.abs(X[:, None, :] - Y[None, :, :]).sum(axis=2)
    return np.exp(-_gamma(gamma, X) * L1)


def exponential_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖₂), the Euclidean (not squared) distance."""
    X, Y = check_pair(X, Y)
    return np.exp(-_gamma(gamma, X) * np.sqrt(squared_distances(X, Y)))


def sigmoid_kernel(X, Y=None, *, gamma=None, coef0=1.0):
    """k(x, z) = tanh(γ x·z + coef0); not PSD for every γ, coef0."""
    X, Y = check_pair(X, Y)
    return np.tanh(_gamma(gamma, X) * (X @ Y.T) + float(coef0))


KERNELS = {
    "linear": linear_kernel,
    "poly": polynomial_kernel,
    "polynomial": polynomial_kernel,
    "rbf": rbf_kernel,
    "laplacian": laplacian_kernel,
    "exponential": exponential_kernel,
    "sigmoid": sigmoid_kernel,
}

_PARAMS = {
    linear_kernel: (),
    polynomial_kernel: ("degree", "gamma", "coef0"),
    rbf_kernel: ("gamma",),
    laplacian_kernel: ("gamma",),
    exponential_kernel: ("gamma",),
    sigmoid_kernel: ("gamma", "coef0"),
}


def make_kernel(kernel, *, gamma=None, degree=3, coef0=1.0):
    """Resolve a registry name or a callable into k(X, Y) -> Gram with the parameters bound.

    Estimators call this once in fit; a callable is used as given (its own parameters).
    """
    if callable(kernel):
        return kernel
    if kernel not in KERNELS:
        raise ValueError(f"Unknown kernel {kernel!r}; choose one of {sorted(KERNELS)} or pass a callable.")
    fn = KERNELS[kernel]
    given = {"gamma": gamma, "degree": degree, "coef0": coef0}
    params = {p: given[p] for p in _PARAMS[fn]}

    def k(X, Y=None):
        return fn(X, Y, **params)

    k.__name__ = f"{kernel}_kernel"
    return k


def cross_gram(kernel_fn, X, X_fit, gram=None):
    """K(X, X_fit) as float64: computed with kernel_fn, or `gram` checked when the caller already has it
    (a plot evaluates several models of one kernel on one grid)."""
    if gram is None:
        return np.asarray(kernel_fn(X, X_fit), dtype=np.float64)
    gram = np.asarray(gram, dtype=np.float64)
    if gram.shape != (X.shape[0], X_fit.shape[0]):
        raise ValueError(f"gram must be K(X, X_fit) of shape ({X.shape[0]}, {X_fit.shape[0]}) for these points; "
                         f"got shape {gram.shape}. Pass gram=None to have it computed.")
    return gram


@dataclass(frozen=True)
class KernelSpec:
    """A registry kernel and its parameters as one value, the one the pages pass, compare and cache on.

    Only the parameters the kernel reads are kept (the rest take their defaults), so two specs that
    give the same function are equal: moving the degree slider does not refit an RBF model.
    """

    name: str = "rbf"
    gamma: float | None = None
    degree: int = 3
    coef0: float = 1.0

    def __post_init__(self):
        if self.name not in KERNELS:
            raise ValueError(f"Unknown kernel {self.name!r}; choose one of {sorted(KERNELS)}.")
        used = _PARAMS[KERNELS[self.name]]
        for param, default in (("gamma", None), ("degree", 3), ("coef0", 1.0)):
            if param not in used:
                object.__setattr__(self, param, default)

    def params(self):
        """The keyword arguments of the estimators: kernel, gamma, degree, coef0."""
        return {"kernel": self.name, "gamma": self.gamma, "degree": self.degree, "coef0": self.coef0}

    def function(self):
        """k(X, Y) -> Gram with the parameters bound."""
        return make_kernel(self.name, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
