"""Explicit feature maps φ next to the kernels K(x, z) = φ(x)·φ(z) they define.

Notation
    X      (n, d)   points x_i (a 1-D array is one feature per point)
    Y      (m, d)   second set of points z_j (Y=None means Y = X)
    phi    (n, p)   Φ, row i is φ(x_i); p is the feature dimension
    K      (n, m)   K[i, j] = K(x_i, z_j) = φ(x_i)·φ(z_j)
    gamma  float    γ, scale of x·z (polynomial) or of (x − z)² (Gaussian)
    degree int      p in (coef0 + γ x·z)^p
    coef0  float    c ≥ 0, the additive constant

The maps of the notes (FEATURE_MAPS) are written out by hand; the general polynomial map
(polynomial_features) and the Gaussian's truncated Taylor map (gaussian_taylor_features)
show how the feature dimension grows while the kernel stays cheap (operation_counts).
"""

import itertools
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .kernels import rbf_kernel
from .validation import check_array, check_int, check_pair, check_positive

MAX_TAYLOR_TERMS = 100
MAX_EXPLICIT_ENTRIES = 5_000_000   # n × p numbers an explicit Φ may hold
MAX_DEGREE = 50
MAX_COUNT_FEATURES = 100_000       # d for the operation-count table (no array is built)


def _points(X, dim, name="X"):
    X = check_array(X, name)
    if X.shape[1] != dim:
        raise ValueError(f"{name} must have {dim} column(s) for this feature map; got {X.shape[1]}.")
    return X


def _pair(X, Y, dim):
    X, Y = check_pair(X, Y)
    return _points(X, dim), _points(Y, dim, "Y")


@dataclass(frozen=True)
class FeatureMap:
    """A feature map φ: R^d → R^p and its kernel K(x, z) = φ(x)·φ(z) in closed form."""

    name: str
    label_latex: str              # φ(x) = ...
    kernel_latex: str             # K(x, z) = ...
    feature_labels: tuple         # one plain-text label per coordinate of φ (axis titles)
    input_dim: int
    phi: Callable                 # phi(X) -> (n, p)
    kernel: Callable              # kernel(X, Y=None) -> (n, m), without building φ
    source: str                   # where the notes use it

    @property
    def output_dim(self):
        return len(self.feature_labels)

    def explicit_kernel(self, X, Y=None):
        """φ(X) φ(Y)ᵀ, the inner products computed in feature space (to compare with kernel)."""
        phi_X = self.phi(X)
        return phi_X @ (phi_X if Y is None else self.phi(Y)).T


def _circle_phi(X):
    X = _points(X, 2)
    return np.column_stack([np.ones(X.shape[0]), X[:, 0] ** 2, X[:, 1] ** 2])


def _circle_kernel(X, Y=None):
    X, Y = _pair(X, Y, 2)
    return 1.0 + (X ** 2) @ (Y ** 2).T


def _paraboloid_phi(X):
    X = _points(X, 2)
    return np.column_stack([X, np.einsum("ij,ij->i", X, X)])


def _paraboloid_kernel(X, Y=None):
    X, Y = _pair(X, Y, 2)
    return X @ Y.T + np.outer(np.einsum("ij,ij->i", X, X), np.einsum("ij,ij->i", Y, Y))


def _poly2_phi(X):
    X = _points(X, 2)
    # the √2 makes the cross term count twice, as in (x·z)² = x1²z1² + 2 x1x2z1z2 + x2²z2²
    return np.column_stack([X[:, 0] ** 2, math.sqrt(2.0) * X[:, 0] * X[:, 1], X[:, 1] ** 2])


def _poly2_kernel(X, Y=None):
    X, Y = _pair(X, Y, 2)
    return (X @ Y.T) ** 2


def _poly2_full_phi(X):
    return np.column_stack([_points(X, 2), _poly2_phi(X)])


def _poly2_full_kernel(X, Y=None):
    X, Y = _pair(X, Y, 2)
    s = X @ Y.T
    # (½ + s)² − ¼ (LFD Lecture 25) equals s(1 + s); this form avoids cancelling the ¼ for small s
    return s * (1.0 + s)


def _cubic_phi(X):
    x = _points(X, 1)[:, 0]
    return np.column_stack([np.ones_like(x), x, x ** 2, x ** 3])


def _cubic_kernel(X, Y=None):
    X, Y = _pair(X, Y, 1)
    s = X @ Y.T
    return 1.0 + s + s ** 2 + s ** 3


FEATURE_MAPS = {
    fm.name: fm
    for fm in (
        FeatureMap("circle", r"\phi(x) = (1,\ x_1^2,\ x_2^2)",
                   r"K(x, z) = 1 + x_1^2 z_1^2 + x_2^2 z_2^2",
                   ("1", "x₁²", "x₂²"), 2, _circle_phi, _circle_kernel,
                   "Lecture 8 §1: the plane w = (−1, 1, 1) separates the circle data"),
        FeatureMap("paraboloid", r"\phi(x) = (x_1,\ x_2,\ x_1^2 + x_2^2)",
                   r"K(x, z) = x \cdot z + \|x\|^2 \|z\|^2",
                   ("x₁", "x₂", "x₁² + x₂²"), 2, _paraboloid_phi, _paraboloid_kernel,
                   "ECE 5984 Kernel Methods, feature transformation"),
        FeatureMap("poly2_homogeneous", r"\phi(x) = (x_1^2,\ \sqrt{2}\,x_1 x_2,\ x_2^2)",
                   r"K(x, z) = (x \cdot z)^2",
                   ("x₁²", "√2·x₁x₂", "x₂²"), 2, _poly2_phi, _poly2_kernel,
                   "ECE 5984 Kernel Methods, kernel example (1)"),
        FeatureMap("poly2_full", r"\phi(x) = (x_1,\ x_2,\ x_1^2,\ \sqrt{2}\,x_1 x_2,\ x_2^2)",
                   r"K(x, z) = \left(\tfrac12 + x \cdot z\right)^2 - \tfrac14",
                   ("x₁", "x₂", "x₁²", "√2·x₁x₂", "x₂²"), 2, _poly2_full_phi, _poly2_full_kernel,
                   "Learning From Data, Lecture 25, slide 15"),
        FeatureMap("cubic_1d", r"\phi(x) = (1,\ x,\ x^2,\ x^3)",
                   r"K(x, z) = 1 + xz + (xz)^2 + (xz)^3",
                   ("1", "x", "x²", "x³"), 1, _cubic_phi, _cubic_kernel,
                   "CS229 kernel methods: cubic fit of house prices"),
    )
}


def gaussian_taylor_features(x, *, gamma=1.0, n_terms=10):
    """φ_k(x) = e^{−γx²} √((2γ)^k / k!) x^k, k = 0..n_terms−1, for 1-D points x.

    The series Σ_k φ_k(x)φ_k(z) = e^{−γx² − γz²} e^{2γxz} = exp(−γ(x − z)²) (ECE 5984,
    RBF kernel slide; LFD Lecture 25 slide 16 with γ = 1), so n_terms → ∞ gives the RBF.
    """
    x = _points(x, 1, "x")[:, 0]
    gamma = check_positive(gamma, "gamma")
    m = check_int(n_terms, "n_terms", low=1, high=MAX_TAYLOR_TERMS)
    phi = np.empty((x.shape[0], m))
    phi[:, 0] = np.exp(-gamma * x * x)
    # φ_k = φ_{k−1} · x √(2γ/k); every φ_k has |φ_k| ≤ 1 (Σ φ_k² = K(x, x) = 1), so no overflow
    for k in range(1, m):
        phi[:, k] = phi[:, k - 1] * x * math.sqrt(2.0 * gamma / k)
    return phi


def gaussian_taylor_kernel(x, z=None, *, gamma=1.0, n_terms=10):
    """φ(x)·φ(z) for the truncated Taylor map: the first n_terms terms of the RBF series."""
    phi_x = gaussian_taylor_features(x, gamma=gamma, n_terms=n_terms)
    phi_z = phi_x if z is None else gaussian_taylor_features(z, gamma=gamma, n_terms=n_terms)
    return phi_x @ phi_z.T


def gaussian_taylor_error(x, z=None, *, gamma=1.0, n_terms=10):
    """max over pairs |φ(x)·φ(z) − exp(−γ(x − z)²)| for the truncated map with n_terms terms."""
    approx = gaussian_taylor_kernel(x, z, gamma=gamma, n_terms=n_terms)
    exact = rbf_kernel(np.reshape(x, (-1, 1)), None if z is None else np.reshape(z, (-1, 1)), gamma=gamma)
    return float(np.max(np.abs(approx - exact)))


def polynomial_feature_dim(n_features, degree, *, coef0=1.0):
    """p = C(d + degree, degree) monomials of degree ≤ degree (only C(d + degree − 1, degree) if coef0 = 0)."""
    d = check_int(n_features, "n_features", low=1, high=MAX_COUNT_FEATURES)
    p = check_int(degree, "degree", low=0, high=MAX_DEGREE)
    if check_positive(coef0, "coef0", allow_zero=True) == 0.0:
        return math.comb(d + p - 1, p)
    return math.comb(d + p, p)


def polynomial_features(X, *, degree=2, gamma=1.0, coef0=1.0):
    """Explicit φ with φ(x)·φ(z) = (γ x·z + coef0)^degree, the map polynomial_kernel hides.

    By the multinomial theorem (c + Σ_i u_i)^p = Σ p!/(a_0! a_1!…a_d!) c^{a_0} Π u_i^{a_i}
    with u_i = γ x_i z_i, so each monomial x^a (|a| = k ≤ p) gets the coefficient
    √(p!/((p−k)! a_1!…a_d!) · c^{p−k} · γ^k). Columns go by degree, then in the order of
    itertools.combinations_with_replacement; coef0 = 0 keeps only degree-p monomials (the
    others would be zero columns).
    """
    X = check_array(X)
    p = check_int(degree, "degree", low=0, high=MAX_DEGREE)
    gamma = check_positive(gamma, "gamma")
    c = check_positive(coef0, "coef0", allow_zero=True)
    n, d = X.shape
    dim = polynomial_feature_dim(d, p, coef0=c)
    if n * dim > MAX_EXPLICIT_ENTRIES:
        raise ValueError(
            f"The explicit map of (γ x·z + {c:g})^{p} in {d} dimensions has {dim} features, "
            f"{n * dim} numbers for {n} points; that is too many to build. Lower the degree or "
            "use polynomial_kernel, which needs only x·z."
        )
    columns = []
    for k in range(0 if c > 0 else p, p + 1):
        for combo in itertools.combinations_with_replacement(range(d), k):
            multinomial = math.factorial(p) // math.factorial(p - k)
            for count in _counts(combo):
                multinomial //= math.factorial(count)
            scale = math.sqrt(multinomial * c ** (p - k) * gamma ** k)
            columns.append(scale * np.prod(X[:, list(combo)], axis=1))
    return np.column_stack(columns)


def _counts(combo):
    return [len(list(group)) for _, group in itertools.groupby(combo)]


@dataclass(frozen=True)
class OperationCounts:
    """Arithmetic to evaluate K(x, z) = (coef0 + x·z)^degree for one pair, both ways."""

    feature_dim: int
    explicit_mults: int
    explicit_adds: int
    kernel_mults: int
    kernel_adds: int

    @property
    def explicit_total(self):
        return self.explicit_mults + self.explicit_adds

    @property
    def kernel_total(self):
        return self.kernel_mults + self.kernel_adds


def operation_counts(n_features, degree, *, coef0=1.0):
    """Count multiplications and additions for φ(x)·φ(z) built explicitly versus the kernel.

    Explicit: build φ(x) and φ(z) (each monomial of degree ≥ 2 is a lower one times one
    x_i, one multiplication; every non-constant feature is then scaled by its √coefficient,
    one more), then the dot product: p multiplications and p − 1 additions.
    Kernel (notes: "O(d) for ⟨x, z⟩, then a constant number of operations"): d
    multiplications and d − 1 additions for x·z, one addition for coef0 (if nonzero), and
    the power by repeated squaring: ⌊log2 degree⌋ + popcount(degree) − 1 multiplications.
    """
    d = check_int(n_features, "n_features", low=1, high=MAX_COUNT_FEATURES)
    p = check_int(degree, "degree", low=1, high=MAX_DEGREE)
    c = check_positive(coef0, "coef0", allow_zero=True)
    dim = polynomial_feature_dim(d, p, coef0=c)
    monomial_mults = sum(math.comb(d + k - 1, k) for k in range(2, p + 1))
    scaling_mults = dim - (1 if c > 0 else 0)           # the constant feature needs none
    build = monomial_mults + scaling_mults
    power_mults = p.bit_length() - 1 + bin(p).count("1") - 1
    return OperationCounts(
        feature_dim=dim,
        explicit_mults=2 * build + dim,
        explicit_adds=dim - 1,
        kernel_mults=d + power_mults,
        kernel_adds=d - 1 + (1 if c > 0 else 0),
    )
