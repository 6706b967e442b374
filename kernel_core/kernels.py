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

from .validation import check_int, check_pair, check_positive, check_real

MAX_DEGREE = 50
NEAR_RATIO = 1e-6    # see distances
DIRECT_DIMS = 8      # distances from exact differences, one pass per coordinate, up to this many dimensions
_PAIR_CHUNK = 1 << 16


def _gamma(gamma, X):
    if gamma is None:
        return 1.0 / X.shape[1]
    return check_positive(gamma, "gamma", allow_zero=True)


def squared_distances(X, Y):
    """‖x_i − z_j‖² for all pairs, via ‖x‖² − 2x·z + ‖z‖² after shifting both sets by the mean c of Y.

    The distances do not change under the shift, but the expansion's rounding error does: it is
    about eps (‖x − c‖² + ‖z − c‖²), so without the shift points far from the origin (at 3000,
    say) lose every digit of their small distances and a valid RBF Gram matrix fails Mercer's test.
    """
    c = Y.mean(axis=0)
    same = X is Y
    X = X - c
    Y = X if same else Y - c
    # in place on the product: an (n, m) temporary per operation costs as much as the product itself
    D = X @ Y.T
    D *= -2.0
    D += np.einsum("ij,ij->i", X, X)[:, None]
    D += np.einsum("ij,ij->i", Y, Y)[None, :]
    # clip tiny negatives caused by cancellation in the expansion
    np.maximum(D, 0.0, out=D)
    if same:
        np.fill_diagonal(D, 0.0)
    return D


def _coordinate_sums(X, Y, f):
    """Σ_k f(x_ik − z_jk) for all pairs, one (m, n) pass per coordinate on exact differences: in few dimensions
    as fast as the expansion and without its rounding, and without a (m, n, d) array in between."""
    D = np.zeros((X.shape[0], Y.shape[0]))
    for k in range(X.shape[1]):
        d = np.subtract.outer(X[:, k], Y[:, k])
        f(d, out=d)
        D += d
    return D


def distances(X, Y):
    """‖x_i − z_j‖ for all pairs. In up to DIRECT_DIMS dimensions from exact differences; above, by
    squared_distances with the pairs nearer than NEAR_RATIO of their scale recomputed from exact differences,
    because the square root turns the expansion's absolute error eps·s near 0 into √(eps·s) (1e-8: an
    exponential kernel with γ = 100 would be off by 1e-6)."""
    if X.shape[1] <= DIRECT_DIMS:
        return np.sqrt(_coordinate_sums(X, Y, np.square))
    c = Y.mean(axis=0)
    scale = np.einsum("ij,ij->i", X - c, X - c)[:, None] + np.einsum("ij,ij->i", Y - c, Y - c)[None, :]
    D = squared_distances(X, Y)
    i, j = np.nonzero(D <= NEAR_RATIO * scale)
    for s in range(0, i.size, _PAIR_CHUNK):
        a, b = i[s:s + _PAIR_CHUNK], j[s:s + _PAIR_CHUNK]
        D[a, b] = np.einsum("ij,ij->i", X[a] - Y[b], X[a] - Y[b])
    return np.sqrt(D)


def linear_kernel(X, Y=None):
    """k(x, z) = x·z."""
    X, Y = check_pair(X, Y)
    return X @ Y.T


def _integer_power(base, d):
    """base ** d for a whole d >= 0 by repeated squaring (numpy's float power calls pow() per entry above d = 2),
    within d ulps of it."""
    if d <= 2:
        return base ** d
    out, square = None, base
    while d:
        if d & 1:
            out = square.copy() if out is None else np.multiply(out, square, out=out)
        d >>= 1
        if d:
            square = square * square
    return out


def polynomial_kernel(X, Y=None, *, degree=3, gamma=None, coef0=1.0):
    """k(x, z) = (γ x·z + coef0)^degree."""
    X, Y = check_pair(X, Y)
    degree = check_int(degree, "degree", low=0, high=MAX_DEGREE)
    return _integer_power(_gamma(gamma, X) * (X @ Y.T) + check_real(coef0, "coef0"), degree)


def rbf_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖²); the notes' σ is γ = 1/σ (Lecture 8) or 1/(2σ²)."""
    X, Y = check_pair(X, Y)
    D = squared_distances(X, Y)
    D *= -_gamma(gamma, X)
    return np.exp(D, out=D)


def laplacian_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖₁) (scikit-learn's Laplacian kernel uses the L1 norm)."""
    X, Y = check_pair(X, Y)
    return np.exp(-_gamma(gamma, X) * _coordinate_sums(X, Y, np.abs))


def exponential_kernel(X, Y=None, *, gamma=None):
    """k(x, z) = exp(−γ‖x − z‖₂), the Euclidean (not squared) distance."""
    X, Y = check_pair(X, Y)
    return np.exp(-_gamma(gamma, X) * distances(X, Y))


def sigmoid_kernel(X, Y=None, *, gamma=None, coef0=1.0):
    """k(x, z) = tanh(γ x·z + coef0); not PSD for every γ, coef0."""
    X, Y = check_pair(X, Y)
    return np.tanh(_gamma(gamma, X) * (X @ Y.T) + check_real(coef0, "coef0"))


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


def checked_gram(k, X, Y):
    """K = k(X, Y) as float64, checked: a callable kernel must give an (n, m) matrix of finite values."""
    with np.errstate(over="ignore", invalid="ignore"):   # reported below, with the fix
        K = np.asarray(k(X, Y), dtype=np.float64)
    if K.shape != (X.shape[0], Y.shape[0]):
        raise ValueError(f"The kernel must return the Gram matrix k(X, Y) of shape (n, m) = ({X.shape[0]}, "
                         f"{Y.shape[0]}) for X of {X.shape[0]} and Y of {Y.shape[0]} points; it returned shape "
                         f"{K.shape}. Make it compute k(x_i, z_j) for every pair, e.g. X @ Y.T.")
    # a sum is finite when every entry is (one pass, no (n, m) mask); only an overflowing sum needs the entries
    if not np.isfinite(K.sum()) and not np.all(np.isfinite(K)):
        raise ValueError("The kernel gave NaN or infinite values on these points; lower γ or the degree "
                         "(or coef0), or scale X down, so that its values stay within float64.")
    return K


def make_kernel(kernel, *, gamma=None, degree=3, coef0=1.0):
    """Resolve a registry name or a callable into k(X, Y) -> Gram with the parameters bound.

    Estimators call this once in fit; a callable is used as given (its own parameters). The
    parameters a registry kernel uses are checked here, so that a bad one fails before any work.
    """
    if callable(kernel):
        return kernel
    if not isinstance(kernel, str) or kernel not in KERNELS:
        raise ValueError(f"Unknown kernel {kernel!r}; choose one of {sorted(KERNELS)} or pass a callable.")
    fn = KERNELS[kernel]
    given = {"gamma": gamma, "degree": degree, "coef0": coef0}
    params = {p: given[p] for p in _PARAMS[fn]}
    if params.get("gamma") is not None:
        check_positive(params["gamma"], "gamma", allow_zero=True)
    if "degree" in params:
        check_int(params["degree"], "degree", low=0, high=MAX_DEGREE)
    if "coef0" in params:
        params["coef0"] = check_real(params["coef0"], "coef0")

    def k(X, Y=None):
        return fn(X, Y, **params)

    k.__name__ = f"{kernel}_kernel"
    return k


def cross_gram(kernel_fn, X, X_fit, gram=None):
    """K(X, X_fit) as float64: computed with kernel_fn, or `gram` checked when the caller already has it
    (a plot evaluates several models of one kernel on one grid)."""
    if gram is None:
        return checked_gram(kernel_fn, X, X_fit)
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
