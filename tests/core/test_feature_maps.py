"""Feature maps against their kernels, scikit-learn's kernels and hand counts."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics.pairwise import linear_kernel as sk_linear
from sklearn.metrics.pairwise import polynomial_kernel as sk_poly

from kernel_core import kernels
from kernel_core.feature_maps import (
    FEATURE_MAPS,
    gaussian_taylor_error,
    gaussian_taylor_features,
    gaussian_taylor_kernel,
    operation_counts,
    polynomial_feature_dim,
    polynomial_features,
)


def _points(dim, n, seed):
    return np.random.default_rng(seed).normal(size=(n, dim))


@pytest.mark.parametrize("name", sorted(FEATURE_MAPS))
def test_every_map_inner_products_equal_its_kernel(name):
    fm = FEATURE_MAPS[name]
    X, Y = _points(fm.input_dim, 30, 0), _points(fm.input_dim, 20, 1)
    np.testing.assert_allclose(fm.phi(X) @ fm.phi(Y).T, fm.kernel(X, Y), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fm.explicit_kernel(X), fm.kernel(X), rtol=1e-12, atol=1e-12)
    assert fm.phi(X).shape == (30, fm.output_dim)


@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(sorted(FEATURE_MAPS)), seed=st.integers(0, 2**32 - 1),
       scale=st.floats(1e-3, 1e2))
def test_map_kernel_identity_holds_at_any_scale(name, seed, scale):
    fm = FEATURE_MAPS[name]
    X = scale * _points(fm.input_dim, 6, seed)
    K = fm.kernel(X)
    np.testing.assert_allclose(fm.explicit_kernel(X), K, rtol=1e-10, atol=1e-12 * np.abs(K).max())


def test_circle_kernel_is_one_plus_linear_kernel_of_squares():
    X, Y = _points(2, 15, 2), _points(2, 10, 3)
    np.testing.assert_allclose(FEATURE_MAPS["circle"].kernel(X, Y), 1.0 + sk_linear(X ** 2, Y ** 2),
                               rtol=1e-12)


def test_circle_plane_of_lecture_8_separates_the_unit_circle():
    # w = (−1, 1, 1): w·φ(x) = x1² + x2² − 1, positive outside the unit circle
    X = np.array([[0.5, 0.0], [0.0, -0.3], [1.5, 0.2], [-1.0, 1.0]])
    scores = FEATURE_MAPS["circle"].phi(X) @ np.array([-1.0, 1.0, 1.0])
    np.testing.assert_allclose(scores, (X ** 2).sum(axis=1) - 1.0, rtol=1e-12)


def test_paraboloid_kernel_is_linear_plus_product_of_squared_norms():
    X, Y = _points(2, 15, 4), _points(2, 10, 5)
    expected = sk_linear(X, Y) + np.outer((X ** 2).sum(1), (Y ** 2).sum(1))
    np.testing.assert_allclose(FEATURE_MAPS["paraboloid"].kernel(X, Y), expected, rtol=1e-12)


def test_homogeneous_degree_two_is_sklearn_polynomial_with_coef0_zero():
    X, Y = _points(2, 15, 6), _points(2, 10, 7)
    expected = sk_poly(X, Y, degree=2, gamma=1.0, coef0=0.0)
    np.testing.assert_allclose(FEATURE_MAPS["poly2_homogeneous"].kernel(X, Y), expected, rtol=1e-12)
    np.testing.assert_allclose(kernels.polynomial_kernel(X, Y, degree=2, gamma=1.0, coef0=0.0), expected,
                               rtol=1e-12)


def test_homogeneous_map_keeps_the_square_root_of_two():
    phi = FEATURE_MAPS["poly2_homogeneous"].phi(np.array([[1.0, 1.0]]))
    np.testing.assert_allclose(phi, [[1.0, math.sqrt(2.0), 1.0]], rtol=1e-15)


def test_full_degree_two_is_polynomial_with_coef0_half_minus_a_quarter():
    X, Y = _points(2, 15, 8), _points(2, 10, 9)
    expected = sk_poly(X, Y, degree=2, gamma=1.0, coef0=0.5) - 0.25
    np.testing.assert_allclose(FEATURE_MAPS["poly2_full"].kernel(X, Y), expected, rtol=1e-12, atol=1e-12)


def test_cubic_kernel_is_sum_of_homogeneous_polynomials_of_degree_zero_to_three():
    x, z = _points(1, 12, 10), _points(1, 8, 11)
    expected = 1.0 + sum(sk_poly(x, z, degree=k, gamma=1.0, coef0=0.0) for k in range(1, 4))
    np.testing.assert_allclose(FEATURE_MAPS["cubic_1d"].kernel(x, z), expected, rtol=1e-12)


def test_cubic_map_accepts_a_flat_vector_of_1d_points():
    np.testing.assert_allclose(FEATURE_MAPS["cubic_1d"].phi([2.0, -1.0]),
                               [[1, 2, 4, 8], [1, -1, 1, -1]], rtol=0)


@pytest.mark.parametrize("name", sorted(FEATURE_MAPS))
def test_map_rejects_wrong_dimension_and_nan(name):
    fm = FEATURE_MAPS[name]
    with pytest.raises(ValueError, match="column"):
        fm.phi(np.zeros((3, fm.input_dim + 1)))
    with pytest.raises(ValueError, match="column"):
        fm.kernel(np.zeros((3, fm.input_dim + 1)))
    bad = np.zeros((3, fm.input_dim))
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        fm.phi(bad)


def test_gaussian_taylor_matches_the_seed_formula_term_by_term():
    x = np.array([-1.5, 0.0, 0.7, 2.0])
    gamma = 0.8
    phi = gaussian_taylor_features(x, gamma=gamma, n_terms=6)
    expected = np.column_stack([np.exp(-gamma * x ** 2) * np.sqrt((2 * gamma) ** k / math.factorial(k)) * x ** k
                                for k in range(6)])
    np.testing.assert_allclose(phi, expected, rtol=1e-13, atol=1e-300)


@pytest.mark.parametrize("gamma", [0.1, 1.0, 3.0])
def test_gaussian_taylor_converges_to_rbf_kernel(gamma):
    x = np.linspace(-2.0, 2.0, 41)
    exact = kernels.rbf_kernel(x[:, None], gamma=gamma)
    approx = gaussian_taylor_kernel(x, gamma=gamma, n_terms=80)
    np.testing.assert_allclose(approx, exact, rtol=0, atol=1e-12)
    # and the helper's error is measured against the same exact kernel
    assert gaussian_taylor_error(x, gamma=gamma, n_terms=80) < 1e-12


def test_gaussian_taylor_error_shrinks_as_terms_are_added():
    x = np.linspace(-2.0, 2.0, 41)   # symmetric, so the worst pair has x·z ≥ 0
    errors = [gaussian_taylor_error(x, gamma=1.0, n_terms=m) for m in range(1, 40)]
    assert all(b <= a for a, b in zip(errors, errors[1:]))
    assert errors[0] > 0.5 and errors[-1] < 1e-12
    # error(x, z) = e^{−γ(x²+z²)} Σ_{k≥m} (2γxz)^k/k! ≤ P(Poisson(2γxz) ≥ m), largest at x = z = 2
    x_max = 2.0
    tail = sum((2 * x_max * x_max) ** k / math.factorial(k) for k in range(10, 150)) * np.exp(-2 * x_max ** 2)
    assert gaussian_taylor_error(x, gamma=1.0, n_terms=10) == pytest.approx(tail, rel=1e-9)


def test_gaussian_taylor_error_between_two_sets_uses_rbf_of_the_pairs():
    x, z = np.array([0.0, 1.0]), np.array([0.5, -1.0, 2.0])
    approx = gaussian_taylor_kernel(x, z, gamma=0.5, n_terms=3)
    exact = np.exp(-0.5 * (x[:, None] - z[None, :]) ** 2)
    assert gaussian_taylor_error(x, z, gamma=0.5, n_terms=3) == pytest.approx(np.abs(approx - exact).max(),
                                                                              rel=1e-12)


def test_gaussian_taylor_features_stay_finite_far_from_the_origin():
    phi = gaussian_taylor_features(np.array([40.0, -1e3]), gamma=2.0, n_terms=100)
    assert np.all(np.isfinite(phi)) and np.all(np.abs(phi) <= 1.0)


def test_gaussian_taylor_rejects_bad_arguments():
    with pytest.raises(ValueError, match="n_terms"):
        gaussian_taylor_features([0.0], n_terms=0)
    with pytest.raises(ValueError, match="gamma"):
        gaussian_taylor_features([0.0], gamma=-1.0)
    with pytest.raises(ValueError, match="column"):
        gaussian_taylor_features(np.zeros((2, 2)))


@pytest.mark.parametrize("d,p,c", [(1, 3, 1.0), (2, 2, 0.5), (2, 2, 0.0), (3, 3, 1.0), (3, 4, 2.5), (4, 2, 0.0),
                                   (5, 3, 0.3), (2, 6, 1.0)])
def test_polynomial_features_reproduce_polynomial_kernel_exactly(d, p, c):
    X, Y = _points(d, 12, d * 10 + p), _points(d, 7, 99)
    Phi_X, Phi_Y = polynomial_features(X, degree=p, coef0=c), polynomial_features(Y, degree=p, coef0=c)
    assert Phi_X.shape == (12, polynomial_feature_dim(d, p, coef0=c))
    expected = sk_poly(X, Y, degree=p, gamma=1.0, coef0=c)
    np.testing.assert_allclose(Phi_X @ Phi_Y.T, expected, rtol=1e-12, atol=1e-12 * np.abs(expected).max())
    np.testing.assert_allclose(Phi_X @ Phi_Y.T, kernels.polynomial_kernel(X, Y, degree=p, gamma=1.0, coef0=c),
                               rtol=1e-12, atol=1e-12 * np.abs(expected).max())


@settings(max_examples=30, deadline=None)
@given(d=st.integers(1, 4), p=st.integers(1, 4), c=st.floats(0.0, 3.0), gamma=st.floats(0.1, 2.0),
       seed=st.integers(0, 2**32 - 1))
def test_polynomial_features_with_gamma_match_sklearn(d, p, c, gamma, seed):
    X = _points(d, 5, seed)
    Phi = polynomial_features(X, degree=p, gamma=gamma, coef0=c)
    expected = sk_poly(X, degree=p, gamma=gamma, coef0=c)
    np.testing.assert_allclose(Phi @ Phi.T, expected, rtol=1e-10, atol=1e-12 * max(1.0, np.abs(expected).max()))


def test_polynomial_features_contain_the_seed_maps():
    X = _points(2, 9, 12)
    np.testing.assert_allclose(polynomial_features(X, degree=2, coef0=0.0),
                               FEATURE_MAPS["poly2_homogeneous"].phi(X), rtol=1e-15)
    # (½ + x·z)² has the extra constant feature ½ on top of the LFD map
    full = polynomial_features(X, degree=2, coef0=0.5)
    np.testing.assert_allclose(full[:, 0], 0.5, rtol=0)
    np.testing.assert_allclose(full[:, 1:], FEATURE_MAPS["poly2_full"].phi(X), rtol=1e-15)
    x = _points(1, 9, 13)
    cubic = polynomial_features(x, degree=3, coef0=1.0)   # (1 + xz)³: 1, √3x, √3x², x³
    np.testing.assert_allclose(cubic, FEATURE_MAPS["cubic_1d"].phi(x) * [1, math.sqrt(3), math.sqrt(3), 1],
                               rtol=1e-15)


@pytest.mark.parametrize("d,p", [(1, 1), (2, 2), (2, 5), (3, 3), (5, 4), (10, 3)])
def test_feature_dim_is_binomial_and_counts_the_monomials(d, p):
    monomials = sum(1 for k in range(p + 1) for _ in itertools.combinations_with_replacement(range(d), k))
    assert polynomial_feature_dim(d, p) == math.comb(d + p, p) == monomials
    assert polynomial_feature_dim(d, p, coef0=0.0) == math.comb(d + p - 1, p)


def test_polynomial_features_refuse_an_explosive_map():
    with pytest.raises(ValueError, match="polynomial_kernel"):
        polynomial_features(np.zeros((100, 50)), degree=6)
    with pytest.raises(ValueError, match="coef0"):
        polynomial_features(np.zeros((2, 2)), degree=2, coef0=-1.0)


def test_operation_counts_for_the_lfd_map_by_hand():
    # d=2, p=2, c=½: φ = (½, x1, x2, x1², √2x1x2, x2²). Building one φ: 3 degree-2 products and
    # 5 scalings; two φ's plus a 6-term dot product → 2·8 + 6 mults, 5 adds.
    # Kernel: 2 mults + 1 add for x·z, 1 add for ½, 1 squaring.
    counts = operation_counts(2, 2, coef0=0.5)
    assert (counts.feature_dim, counts.explicit_mults, counts.explicit_adds) == (6, 22, 5)
    assert (counts.kernel_mults, counts.kernel_adds) == (3, 2)
    assert counts.explicit_total == 27 and counts.kernel_total == 5


@pytest.mark.parametrize("p,power_mults", [(1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (10, 4), (15, 6)])
def test_kernel_power_uses_repeated_squaring(p, power_mults):
    counts = operation_counts(3, p, coef0=0.0)
    assert counts.kernel_mults == 3 + power_mults
    assert counts.kernel_adds == 2


def test_explicit_cost_grows_like_the_feature_dimension_and_kernel_cost_stays_small():
    for d in (2, 5, 20):
        rows = [operation_counts(d, p) for p in range(1, 11)]
        dims = [r.feature_dim for r in rows]
        assert dims == [math.comb(d + p, p) for p in range(1, 11)]
        assert all(r.explicit_mults >= r.feature_dim for r in rows)
        assert all(r.kernel_total <= 2 * d + 2 * math.log2(10) + 1 for r in rows)
        assert all(b.explicit_total > a.explicit_total for a, b in zip(rows, rows[1:]))
    assert operation_counts(20, 10).explicit_total > 10_000 * operation_counts(20, 10).kernel_total


@pytest.mark.parametrize("c", [0.0, 2.0])
def test_polynomial_degree_zero_is_the_constant_one_feature(c):
    X = _points(3, 4, 14)
    np.testing.assert_array_equal(polynomial_features(X, degree=0, coef0=c), np.ones((4, 1)))
    np.testing.assert_array_equal(kernels.polynomial_kernel(X, degree=0, coef0=c), np.ones((4, 4)))
