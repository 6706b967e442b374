"""Mercer's condition checked on a Gram matrix, the closure rules, and kernels that fail.

Mercer's theorem (notes, seed 003, "Mercer's Theorem"): k is a valid kernel iff every Gram
matrix K[i, j] = k(x_i, x_j) is symmetric positive semi-definite. ``check_psd`` tests one
Gram matrix and, when it fails, returns the proof: a unit vector c with cᵀKc < 0.

Notation
    K          (n, n)   Gram matrix
    lam        (n,)     eigenvalues of (K + Kᵀ)/2, ascending
    c          (n,)     certificate, a unit vector with cᵀKc < 0
    k, k1, k2  callable kernels k(X, Y=None) -> Gram
    f          callable f(X) -> (n,) real weights, one per row of X

The verdict is relative to the spectrum's scale, as scikit-learn's
``_check_psd_eigenvalues`` does: λ_min < −rtol·max|λ| is a real negative direction,
anything smaller is rounding. A singular Gram matrix (duplicated points, a linear kernel
with n > d) is valid and passes; Cholesky is never used because it would reject it.
"""

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .kernels import distances, make_kernel, sigmoid_kernel, squared_distances
from .validation import check_pair, check_positive

# λ_min below −PSD_RTOL·max|λ| is a negative eigenvalue, not rounding. For rbf, Laplacian,
# polynomial and linear Gram matrices (n ≤ 800, duplicated points, γ up to 100) rounding left
# λ_min/max|λ| above −3e-15; kernels that truly fail reach −1e-4 and below.
PSD_RTOL = 1e-10
# max|K − Kᵀ| above SYMMETRY_RTOL·max|K| means k(x, z) ≠ k(z, x), not rounding.
SYMMETRY_RTOL = 1e-10
# eigvalsh is O(n³); a page never needs more points than this.
MAX_GRAM_SIZE = 3_000


@dataclass(frozen=True)
class PSDCheck:
    """The verdict of ``check_psd`` with every number a page needs to explain it."""

    is_psd: bool
    is_symmetric: bool
    eigenvalues: np.ndarray
    min_eigenvalue: float
    max_abs_eigenvalue: float
    threshold: float
    n_negative: int
    certificate: np.ndarray | None
    quadratic_form: float | None
    reason: str


def _check_gram(K):
    try:
        K = np.asarray(K, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"K must be a numeric matrix; could not convert it to numbers ({exc}).") from None
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        raise ValueError(
            f"K must be a non-empty square 2-D Gram matrix; got shape {K.shape}. "
            "Build it with K = k(X) for n points X."
        )
    if K.shape[0] > MAX_GRAM_SIZE:
        raise ValueError(f"K is {K.shape[0]}×{K.shape[0]}; the limit is {MAX_GRAM_SIZE}. Use fewer points.")
    if not np.all(np.isfinite(K)):
        bad = int(np.count_nonzero(~np.isfinite(K)))
        raise ValueError(f"K contains {bad} NaN or infinite value(s); fix the kernel or its parameters.")
    return K


def check_psd(K, *, rtol=PSD_RTOL, symmetry_rtol=SYMMETRY_RTOL):
    """Is the Gram matrix K symmetric positive semi-definite (Mercer's condition on these points)?

    Returns a ``PSDCheck``. When K fails because of a negative direction, ``certificate`` is
    the unit eigenvector c of λ_min and ``quadratic_form`` is cᵀKc, recomputed in float64
    from K itself and guaranteed < 0.
    """
    K = _check_gram(K)
    rtol = check_positive(rtol, "rtol", allow_zero=True)
    symmetry_rtol = check_positive(symmetry_rtol, "symmetry_rtol", allow_zero=True)

    asymmetry = float(np.max(np.abs(K - K.T)))
    is_symmetric = asymmetry <= symmetry_rtol * float(np.max(np.abs(K)))
    S = 0.5 * (K + K.T)
    lam = np.linalg.eigvalsh(S)
    lam_min = float(lam[0])
    scale = float(np.max(np.abs(lam)))
    threshold = rtol * scale
    n_negative = int(np.count_nonzero(lam < -threshold))

    certificate = quadratic_form = None
    if n_negative:
        # eigenvectors cost twice the eigenvalues, so they are computed only on failure
        v = np.linalg.eigh(S)[1][:, 0]
        c = v / np.linalg.norm(v)
        q = float(c @ K @ c)
        # the verdict "not PSD" is only given with a proof that survives float64 rounding
        if q < 0:
            certificate, quadratic_form = c, q
        else:
            n_negative = 0

    if not is_symmetric:
        reason = (
            f"K is not symmetric: max |K_ij − K_ji| = {asymmetry:.3g}; a kernel needs k(x, z) = k(z, x)."
        )
    elif certificate is not None:
        reason = (
            f"λ_min = {lam_min:.3g} < −{threshold:.3g} (rtol·max|λ|): its eigenvector c gives "
            f"cᵀKc = {quadratic_form:.3g} < 0, so K is not positive semi-definite."
        )
    elif lam_min > threshold:
        reason = (
            f"Symmetric, and every eigenvalue is positive (λ_min = {lam_min:.3g}): positive definite, "
            "so positive semi-definite."
        )
    elif lam_min >= -threshold:
        reason = (
            f"Symmetric, and λ_min = {lam_min:.3g} is 0 up to rounding (|λ_min| ≤ rtol·max|λ| = {threshold:.3g}): "
            "positive semi-definite and singular."
        )
    else:
        reason = (
            f"Symmetric; λ_min = {lam_min:.3g} is below −{threshold:.3g} (rtol·max|λ|), but cᵀKc computed from K "
            "itself is not negative, so that direction is rounding, not proof: positive semi-definite up to rounding."
        )
    return PSDCheck(
        is_psd=bool(is_symmetric and certificate is None),
        is_symmetric=bool(is_symmetric),
        eigenvalues=lam,
        min_eigenvalue=lam_min,
        max_abs_eigenvalue=scale,
        threshold=threshold,
        n_negative=n_negative,
        certificate=certificate,
        quadratic_form=quadratic_form,
        reason=reason,
    )


def fails_mercer(spec, X):
    """True when check_psd proves that the Gram matrix of the registry kernel `spec` (a KernelSpec) on the points X
    is not PSD. Only the kernels that can fail Mercer's condition are checked, sigmoid and a polynomial with a
    negative constant r: the others are PSD by construction, and an eigendecomposition is not free."""
    if spec.name == "sigmoid" or (spec.name in ("poly", "polynomial") and spec.coef0 < 0):
        return not check_psd(spec.function()(X)).is_psd
    return False


# ---- closure rules (notes, seed 003, "Well-defined Kernels", rules 2-7) -------------------

def kernel_sum(k1, k2):
    """Rule 3: K1 + K2 is a kernel; its feature map is the concatenation (φ1, φ2)."""
    k1, k2 = make_kernel(k1), make_kernel(k2)

    def k(X, Y=None):
        return k1(X, Y) + k2(X, Y)

    return k


def kernel_product(k1, k2):
    """Rule 5: K1·K2 (elementwise) is a kernel; its feature map is φ1 ⊗ φ2 (Schur product)."""
    k1, k2 = make_kernel(k1), make_kernel(k2)

    def k(X, Y=None):
        return k1(X, Y) * k2(X, Y)

    return k


def kernel_scale(k1, c):
    """Rule 2: c·K is a kernel for c > 0; its feature map is √c·φ."""
    k1 = make_kernel(k1)
    c = check_positive(c, "c (the scale of c·K)")

    def k(X, Y=None):
        return c * k1(X, Y)

    return k


def kernel_polynomial(k1, coefs):
    """Rule 4: g(K) = Σ_p coefs[p]·K^p with every coefs[p] ≥ 0 is a kernel (sums of products).

    ``coefs`` are in ascending order of power: (a0, a1, a2) means a0 + a1·K + a2·K².
    """
    k1 = make_kernel(k1)
    try:
        a = np.asarray(coefs, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        a = np.array([np.nan])
    if a.size == 0 or not np.all(np.isfinite(a)):
        raise ValueError(f"coefs must be finite numbers, lowest power first; got {coefs!r}.")
    if np.any(a < 0):
        raise ValueError(
            f"coefs must all be >= 0 for g(K) to stay a kernel; got {a.tolist()}. "
            "Drop or flip the negative coefficients."
        )

    def k(X, Y=None):
        K = k1(X, Y)
        G = np.full_like(K, a[-1])
        # Horner's scheme, highest power first
        for a_p in a[-2::-1]:
            G = G * K + a_p
        return G

    return k


def kernel_exp(k1):
    """Rule 7: exp(K) is a kernel, the limit of rule 4 with coefficients 1/p! > 0."""
    k1 = make_kernel(k1)

    def k(X, Y=None):
        K = k1(X, Y)
        with np.errstate(over="ignore"):
            E = np.exp(K)
        if not np.all(np.isfinite(E)):
            raise ValueError(
                f"exp(K) overflows: K reaches {float(np.max(K)):.3g} (exp overflows above ~709). "
                "Scale the inner kernel down."
            )
        return E

    return k


def kernel_warp(k1, f):
    """Rule 6: f(x)·K(x, z)·f(z) is a kernel for any f: R^d -> R; K' = diag(f) K diag(f).

    ``f`` maps an (n, d) array to its n values, one per row.
    """
    k1 = make_kernel(k1)
    if not callable(f):
        raise ValueError(f"f must be a function of the rows of X; got {type(f).__name__}.")

    def values(A):
        v = np.asarray(f(A), dtype=np.float64)
        if v.shape != (A.shape[0],) or not np.all(np.isfinite(v)):
            raise ValueError(
                f"f must return one finite number per row, shape ({A.shape[0]},); got shape {v.shape}. "
                "Write it vectorized over rows, e.g. f = lambda X: np.exp(-(X**2).sum(axis=1))."
            )
        return v

    def k(X, Y=None):
        X, Y = check_pair(X, Y)
        return values(X)[:, None] * k1(X, Y) * values(Y)[None, :]

    return k


class ClosureRule(NamedTuple):
    build: Callable
    formula: str
    why: str


CLOSURE_RULES = {
    "sum": ClosureRule(kernel_sum, "K1(x, z) + K2(x, z)", "the feature maps are stacked: φ = (φ1, φ2)."),
    "product": ClosureRule(
        kernel_product, "K1(x, z) K2(x, z)", "the feature map is all products φ1_i·φ2_j (Schur product)."
    ),
    "scale": ClosureRule(kernel_scale, "c K(x, z), c > 0", "the feature map is √c·φ."),
    "polynomial": ClosureRule(
        kernel_polynomial, "g(K(x, z)), g with coefficients ≥ 0", "sums of scaled products of kernels."
    ),
    "exp": ClosureRule(kernel_exp, "exp(K(x, z))", "the Taylor series of exp has coefficients 1/p! > 0."),
    "warp": ClosureRule(
        kernel_warp, "f(x) K(x, z) f(z)", "the feature map is f(x)·φ(x); K' = diag(f) K diag(f)."
    ),
}


# ---- well-known kernels that are NOT valid --------------------------------------------------

def _negative_squared_distance(X, Y=None):
    X, Y = check_pair(X, Y)
    return -squared_distances(X, Y)


def _distance(X, Y=None):
    X, Y = check_pair(X, Y)
    return distances(X, Y)


def _flipped_gaussian(X, Y=None):
    X, Y = check_pair(X, Y)
    return np.exp(0.1 * squared_distances(X, Y))


def _shifted_linear(X, Y=None):
    X, Y = check_pair(X, Y)
    return X @ Y.T - 1.0


def _sigmoid(X, Y=None):
    return sigmoid_kernel(X, Y, gamma=0.5, coef0=1.0)


class InvalidKernel(NamedTuple):
    kernel: Callable
    formula: str
    why: str


# ``formula`` is written in the language of kernel_core.formula.parse_kernel.
INVALID_KERNELS = {
    "negative squared distance": InvalidKernel(
        _negative_squared_distance,
        "-norm(x - z)**2",
        "Its diagonal is 0, so its eigenvalues sum to 0 and, K not being 0, one of them is negative.",
    ),
    "distance": InvalidKernel(
        _distance,
        "norm(x - z)",
        "Zero diagonal, positive elsewhere: two points at distance d give [[0, d], [d, 0]], eigenvalue −d.",
    ),
    "flipped Gaussian": InvalidKernel(
        _flipped_gaussian,
        "exp(0.1 * norm(x - z)**2)",
        "Off-diagonal entries exceed the diagonal 1, so [[1, a], [a, 1]] with a > 1 has eigenvalue 1 − a < 0.",
    ),
    "shifted linear": InvalidKernel(
        _shifted_linear,
        "dot(x, z) - 1",
        "k(x, x) = ‖x‖² − 1 is negative for points inside the unit circle, and k(x, x) = ‖φ(x)‖² cannot be.",
    ),
    "sigmoid (γ = 0.5, coef0 = 1)": InvalidKernel(
        _sigmoid,
        "tanh(0.5 * dot(x, z) + 1)",
        "tanh's Taylor series has negative coefficients, so tanh(γ x·z + coef0) fails for most γ and coef0, "
        "scikit-learn's defaults for 2-D points included.",
    ),
}
