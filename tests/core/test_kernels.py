"""Every kernel against scikit-learn's pairwise kernels, and the registry's contract."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn.metrics import pairwise

from kernel_core import kernels
from kernel_core.mercer import check_psd

RNG = np.random.default_rng(0)
X = RNG.normal(size=(17, 3))
Y = RNG.normal(size=(11, 3))

CASES = [
    (kernels.linear_kernel, pairwise.linear_kernel, {}),
    (kernels.polynomial_kernel, pairwise.polynomial_kernel, {"degree": 3, "gamma": None, "coef0": 1.0}),
    (kernels.polynomial_kernel, pairwise.polynomial_kernel, {"degree": 2, "gamma": 0.7, "coef0": 0.0}),
    (kernels.rbf_kernel, pairwise.rbf_kernel, {"gamma": None}),
    (kernels.rbf_kernel, pairwise.rbf_kernel, {"gamma": 2.5}),
    (kernels.laplacian_kernel, pairwise.laplacian_kernel, {"gamma": None}),
    (kernels.laplacian_kernel, pairwise.laplacian_kernel, {"gamma": 0.3}),
    (kernels.sigmoid_kernel, pairwise.sigmoid_kernel, {"gamma": None, "coef0": 1.0}),
    (kernels.sigmoid_kernel, pairwise.sigmoid_kernel, {"gamma": 0.2, "coef0": -1.0}),
]


@pytest.mark.parametrize(("ours", "theirs", "params"), CASES)
def test_kernel_equals_sklearn_pairwise(ours, theirs, params):
    np.testing.assert_allclose(ours(X, Y, **params), theirs(X, Y, **params), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours(X, **params), theirs(X, **params), rtol=1e-12, atol=1e-12)


def test_exponential_kernel_uses_the_euclidean_norm():
    expected = np.exp(-0.5 * pairwise.euclidean_distances(X, Y))
    np.testing.assert_allclose(kernels.exponential_kernel(X, Y, gamma=0.5), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("d", [1, 2, kernels.DIRECT_DIMS, kernels.DIRECT_DIMS + 1, 30])
def test_distances_and_l1_are_those_of_exact_differences_in_few_and_many_dimensions(d):
    rng = np.random.default_rng(d)
    # far from the origin and close together, some pairs nearly equal: where an expansion loses digits
    A = 3000.0 + rng.normal(scale=1e-3, size=(30, d))
    B = np.vstack([A[:5] + 1e-9, 3000.0 + rng.normal(scale=1e-3, size=(20, d))])
    diff = A[:, None, :] - B[None, :, :]
    np.testing.assert_allclose(kernels.distances(A, B), np.sqrt((diff ** 2).sum(axis=2)), rtol=1e-9, atol=0)
    np.testing.assert_allclose(kernels.laplacian_kernel(A, B, gamma=100.0), np.exp(-100.0 * np.abs(diff).sum(axis=2)),
                               rtol=1e-12, atol=0)


def test_default_gamma_is_one_over_n_features():
    np.testing.assert_allclose(kernels.rbf_kernel(X, Y), kernels.rbf_kernel(X, Y, gamma=1 / 3), rtol=0, atol=0)


def test_squared_distances_never_negative_and_zero_on_the_diagonal():
    # points far from the origin and close together make the expansion cancel badly
    Z = 1e6 + RNG.normal(scale=1e-3, size=(40, 2))
    D = kernels.squared_distances(Z, Z)
    assert D.min() >= 0.0
    np.testing.assert_array_equal(np.diag(D), 0.0)
    assert np.all(kernels.rbf_kernel(Z, gamma=1.0) <= 1.0)


@pytest.mark.parametrize("name", sorted(kernels.KERNELS))
def test_registry_kernel_accepts_y_none_and_is_symmetric(name):
    k = kernels.make_kernel(name, gamma=0.5, degree=2, coef0=1.0)
    K = k(X)
    np.testing.assert_allclose(K, K.T, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(k(X, X), K, rtol=1e-12, atol=1e-12)


def test_make_kernel_passes_callables_through_and_rejects_unknown_names():
    def k(A, B=None):
        return kernels.linear_kernel(A, B)

    assert kernels.make_kernel(k) is k
    with pytest.raises(ValueError, match="Unknown kernel 'gauss'"):
        kernels.make_kernel("gauss")


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((np.array([[np.nan, 1.0]]),), {}, "NaN or infinite"),
        ((np.array([[np.inf, 1.0]]),), {}, "NaN or infinite"),
        ((np.empty((0, 2)),), {}, "empty"),
        ((X, np.ones((2, 4))), {}, "same number of features"),
        ((X,), {"gamma": -1.0}, "gamma must be >= 0"),
        ((X,), {"gamma": float("nan")}, "gamma must be a finite"),
        ((np.array([["a", "b"]]),), {}, "must be numeric"),
        ((np.zeros((8_000, 2)),), {}, "Gram matrix is over the limit"),
    ],
)
def test_bad_input_raises_value_error_with_the_fix(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        kernels.rbf_kernel(*args, **kwargs)


finite = st.floats(min_value=-5, max_value=5, allow_nan=False)


@settings(max_examples=40, deadline=None)
@given(
    points=arrays(np.float64, st.tuples(st.integers(1, 12), st.integers(1, 3)), elements=finite),
    gamma=st.floats(min_value=1e-3, max_value=10),
    name=st.sampled_from(["linear", "poly", "rbf", "laplacian", "exponential"]),
)
def test_valid_kernels_give_psd_gram_matrices(points, gamma, name):
    K = kernels.make_kernel(name, gamma=gamma, degree=2, coef0=1.0)(points)
    assert check_psd(K).is_psd


# --- translation invariance survives far from the origin ---------------------------------------------

@pytest.mark.parametrize("name", ["rbf", "exponential"])
def test_gram_matrices_far_from_the_origin_equal_those_at_the_origin(name):
    X = np.random.default_rng(0).normal(size=(60, 2))
    k = kernels.make_kernel(name, gamma=1.0)
    np.testing.assert_allclose(k(X + 3000.0), k(X), rtol=0, atol=1e-12)


def test_a_valid_rbf_gram_matrix_far_from_the_origin_passes_mercers_check():
    X = np.random.default_rng(1).normal(size=(200, 2)) + 3000.0
    assert check_psd(kernels.rbf_kernel(X, gamma=1.0)).is_psd


def test_exponential_kernel_gives_the_same_row_as_its_full_gram_matrix():
    # the solvers compute rows K[i:i+1, :]; near 0 the square root would turn rounding into 1e-8
    X = np.random.default_rng(2).normal(size=(50, 2))
    K = kernels.exponential_kernel(X, gamma=100.0)
    rows = np.vstack([kernels.exponential_kernel(X[i:i + 1], X, gamma=100.0) for i in range(50)])
    np.testing.assert_allclose(rows, K, rtol=0, atol=1e-13)
    np.testing.assert_array_equal(np.diag(K), 1.0)


# --- the ValueError contract ---------------------------------------------------------------------------

@pytest.mark.parametrize("param, value", [("gamma", 10**400), ("degree", 10**400), ("coef0", 10**400)])
def test_python_ints_beyond_float_range_are_value_errors(param, value):
    params = {"gamma": 1.0, "degree": 3, "coef0": 1.0, param: value}
    with pytest.raises(ValueError, match=param):
        kernels.make_kernel("poly", **params)


def test_data_beyond_float_range_is_a_value_error():
    with pytest.raises(ValueError, match="too large for float64"):
        kernels.rbf_kernel([[10**400, 0]])


def test_a_callable_kernel_of_the_wrong_shape_is_a_value_error_naming_the_shape():
    X = np.zeros((5, 2))
    with pytest.raises(ValueError, match=r"shape \(n, m\) = \(5, 5\).*returned shape \(5,\)"):
        kernels.checked_gram(lambda A, B: A[:, 0], X, X)


@pytest.mark.parametrize("degree", range(0, kernels.MAX_DEGREE + 1))
def test_polynomial_kernel_by_repeated_squaring_is_numpys_power_to_a_few_ulps(degree):
    rng = np.random.default_rng(degree)
    A, B = rng.normal(size=(40, 3)), rng.normal(size=(30, 3))
    expected = (0.7 * (A @ B.T) - 0.3) ** float(degree)
    np.testing.assert_allclose(kernels.polynomial_kernel(A, B, degree=degree, gamma=0.7, coef0=-0.3), expected,
                               rtol=4 * (degree + 1) * np.finfo(float).eps, atol=0)
