"""kernel_core.mercer: the PSD verdict and its certificate, the closure rules, invalid kernels."""

import dataclasses

import numpy as np
import pytest
import scipy.linalg
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.polynomial import polynomial as P
from sklearn.metrics import pairwise

from kernel_core import kernels, mercer
from kernel_core.formula import parse_kernel
from kernel_core.mercer import (
    CLOSURE_RULES,
    INVALID_KERNELS,
    PSD_RTOL,
    check_psd,
    kernel_exp,
    kernel_polynomial,
    kernel_product,
    kernel_scale,
    kernel_sum,
    kernel_warp,
)

HYPOTHESIS = settings(max_examples=60, deadline=None)


def points(seed=0, n=30, d=2):
    return np.random.default_rng(seed).uniform(-2, 2, (n, d))


def assert_certificate_proves_failure(result, K):
    c = result.certificate
    assert c is not None
    assert np.linalg.norm(c) == pytest.approx(1.0, rel=1e-12)
    q = float(np.einsum("i,ij,j->", c, K, c))
    assert q < 0
    assert result.quadratic_form == pytest.approx(q, rel=1e-9, abs=1e-12 * result.max_abs_eigenvalue)


# ---- check_psd on hand-checkable matrices -------------------------------------------------

def test_identity_is_psd_with_unit_eigenvalues():
    r = check_psd(np.eye(4))
    assert r.is_psd and r.is_symmetric and r.certificate is None and r.quadratic_form is None
    np.testing.assert_allclose(r.eigenvalues, np.ones(4), rtol=1e-14)
    assert "positive semi-definite" in r.reason


def test_swap_matrix_fails_with_certificate_along_one_minus_one():
    K = np.array([[0.0, 1.0], [1.0, 0.0]])
    r = check_psd(K)
    assert not r.is_psd and r.is_symmetric and r.n_negative == 1
    np.testing.assert_allclose(r.eigenvalues, [-1.0, 1.0], rtol=1e-14)
    np.testing.assert_allclose(np.abs(r.certificate), [2**-0.5, 2**-0.5], rtol=1e-12)
    assert r.certificate[0] * r.certificate[1] < 0
    assert r.quadratic_form == pytest.approx(-1.0, rel=1e-12)
    assert "cᵀKc" in r.reason
    assert_certificate_proves_failure(r, K)


def test_negative_identity_fails_and_min_eigenvalue_is_minus_one():
    r = check_psd(-np.eye(3))
    assert not r.is_psd and r.min_eigenvalue == pytest.approx(-1.0, rel=1e-14)
    assert r.n_negative == 3 and r.threshold == pytest.approx(PSD_RTOL, rel=1e-12)
    assert_certificate_proves_failure(r, -np.eye(3))


def test_negative_eigenvalue_a_millionth_of_the_largest_is_detected():
    Q = np.linalg.qr(np.random.default_rng(9).normal(size=(5, 5)))[0]
    K = Q @ np.diag([-1e-6, 0.0, 0.5, 2.0, 1.0]) @ Q.T
    r = check_psd((K + K.T) / 2)
    assert not r.is_psd and r.n_negative == 1
    assert r.min_eigenvalue == pytest.approx(-1e-6, rel=1e-6)


def test_rounding_level_negative_eigenvalue_passes():
    Q = np.linalg.qr(np.random.default_rng(9).normal(size=(5, 5)))[0]
    K = Q @ np.diag([-1e-14, 0.0, 0.5, 2.0, 1.0]) @ Q.T
    assert check_psd((K + K.T) / 2).is_psd


def test_sigmoid_with_small_gamma_fails_although_its_negative_eigenvalue_is_small():
    r = check_psd(kernels.sigmoid_kernel(points(0), gamma=0.01, coef0=0.0))
    assert not r.is_psd
    assert -1e-3 < r.min_eigenvalue / r.max_abs_eigenvalue < -1e-5


def test_zero_matrix_is_psd():
    assert check_psd(np.zeros((3, 3))).is_psd


def test_result_is_frozen():
    r = check_psd(np.eye(2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.is_psd = False


def test_eigenvalues_ascending_and_equal_scipy_of_symmetrized():
    A = np.random.default_rng(3).normal(size=(6, 6))
    r = check_psd(A)
    np.testing.assert_allclose(r.eigenvalues, scipy.linalg.eigvalsh((A + A.T) / 2), rtol=1e-10, atol=1e-12)
    assert np.all(np.diff(r.eigenvalues) >= 0)


# ---- singular but valid Gram matrices pass (Cholesky would reject them) -----------------------

def test_duplicated_points_give_singular_rbf_gram_that_passes():
    X = np.vstack([points(1, n=10), points(1, n=10)])
    K = kernels.rbf_kernel(X, gamma=1.0)
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(K)
    r = check_psd(K)
    assert r.is_psd and r.certificate is None


def test_linear_kernel_with_more_points_than_dimensions_passes():
    K = kernels.linear_kernel(points(2, n=40, d=2))
    assert np.linalg.matrix_rank(K) == 2
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.cholesky(K)
    assert check_psd(K).is_psd


@HYPOTHESIS
@given(
    n=st.integers(2, 25),
    r=st.integers(1, 4),
    scale=st.sampled_from([1e-6, 1.0, 1e6]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rank_deficient_x_xt_always_passes(n, r, scale, seed):
    X = scale * np.random.default_rng(seed).normal(size=(n, r))
    result = check_psd(X @ X.T)
    assert result.is_psd, result.reason
    # with no rounding allowance a "not PSD" verdict must still come with a verified proof
    strict = check_psd(X @ X.T, rtol=0.0)
    assert strict.is_psd or strict.quadratic_form < 0


# ---- non-symmetric matrices ---------------------------------------------------------------------

def test_non_symmetric_matrix_fails_with_reason_even_if_its_symmetric_part_is_psd():
    K = np.array([[1.0, 2.0], [0.0, 1.0]])  # (K + Kᵀ)/2 = [[1, 1], [1, 1]] is PSD
    r = check_psd(K)
    assert not r.is_psd and not r.is_symmetric and r.certificate is None
    assert "not symmetric" in r.reason


def test_non_symmetric_matrix_with_negative_direction_still_gets_a_certificate():
    K = np.array([[0.0, 3.0], [1.0, 0.0]])
    r = check_psd(K)
    assert not r.is_psd and not r.is_symmetric
    assert_certificate_proves_failure(r, K)


def test_rounding_level_asymmetry_is_accepted():
    K = kernels.rbf_kernel(points(4, n=8))
    K[0, 1] *= 1 + 1e-14
    assert check_psd(K).is_symmetric


# ---- input validation -------------------------------------------------------------------------

@pytest.mark.parametrize(
    "K, match",
    [
        (np.ones(3), "square 2-D"),
        (np.ones((2, 3)), "square 2-D"),
        (np.ones((2, 2, 2)), "square 2-D"),
        (np.ones((0, 0)), "square 2-D"),
        (np.array([[1.0, np.nan], [np.nan, 1.0]]), "NaN or infinite"),
        (np.array([[np.inf, 0.0], [0.0, 1.0]]), "NaN or infinite"),
        ([["a", "b"], ["c", "d"]], "numeric"),
    ],
)
def test_bad_gram_matrix_raises_value_error_with_fix(K, match):
    with pytest.raises(ValueError, match=match):
        check_psd(K)


def test_gram_matrix_above_size_limit_is_refused(monkeypatch):
    monkeypatch.setattr(mercer, "MAX_GRAM_SIZE", 5)
    with pytest.raises(ValueError, match="limit is 5"):
        check_psd(np.eye(6))


@pytest.mark.parametrize("rtol", [-1e-3, np.nan, "tight"])
def test_bad_rtol_raises(rtol):
    with pytest.raises(ValueError, match="rtol"):
        check_psd(np.eye(2), rtol=rtol)


# ---- properties against eigvalsh ground truth --------------------------------------------------

square_matrices = st.integers(1, 8).flatmap(
    lambda n: arrays(np.float64, (n, n), elements=st.floats(-10, 10, allow_subnormal=False))
)
# A + Aᵀ is usually indefinite, A Aᵀ always PSD: both sides of the verdict get exercised
symmetric_matrices = st.one_of(square_matrices.map(lambda A: A + A.T), square_matrices.map(lambda A: A @ A.T))


@HYPOTHESIS
@given(K=symmetric_matrices, scale=st.sampled_from([1e-8, 1.0, 1e8]))
def test_verdict_matches_scipy_eigvalsh_and_failure_always_has_a_certificate(K, scale):
    K = scale * K
    lam = scipy.linalg.eigvalsh(K)
    margin = PSD_RTOL * np.max(np.abs(lam))
    # the two eigen-solvers may round differently right at the threshold
    assume(abs(lam[0] + margin) > 1e-3 * margin + 1e-300)
    r = check_psd(K)
    assert r.is_psd == bool(lam[0] >= -margin)
    if not r.is_psd:
        assert_certificate_proves_failure(r, K)


@HYPOTHESIS
@given(K=symmetric_matrices, scale=st.floats(1e-6, 1e6))
def test_verdict_is_invariant_to_positive_scaling(K, scale):
    assume(np.any(K != 0))
    lam = scipy.linalg.eigvalsh(K)
    assume(lam[0] >= 0 or lam[0] < -1e-6 * np.max(np.abs(lam)))
    assert check_psd(K).is_psd == check_psd(scale * K).is_psd


# ---- closure rules: closed forms and PSD ------------------------------------------------------

X1, X2 = points(5, n=20), points(6, n=12)


def rbf1(X, Y=None):
    return kernels.rbf_kernel(X, Y, gamma=1.0)


def poly2(X, Y=None):
    return kernels.polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.0)


def bump(X):
    return np.exp(-np.sum(X**2, axis=1))


@pytest.mark.parametrize(
    "k, oracle",
    [
        (kernel_sum(rbf1, poly2), lambda X, Y: pairwise.rbf_kernel(X, Y, gamma=1.0)
         + pairwise.polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.0)),
        (kernel_product(rbf1, poly2), lambda X, Y: pairwise.rbf_kernel(X, Y, gamma=1.0)
         * pairwise.polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.0)),
        (kernel_scale(poly2, 2.5), lambda X, Y: 2.5 * pairwise.polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1)),
        (kernel_polynomial(rbf1, [1.0, 2.0, 0.5]), lambda X, Y: P.polyval(pairwise.rbf_kernel(X, Y, gamma=1.0),
                                                                          [1.0, 2.0, 0.5])),
        (kernel_exp("linear"), lambda X, Y: np.exp(X @ Y.T)),
        (kernel_warp(rbf1, bump), lambda X, Y: bump(X)[:, None] * pairwise.rbf_kernel(X, Y, gamma=1.0)
         * bump(Y)[None, :]),
    ],
    ids=["sum", "product", "scale", "polynomial", "exp", "warp"],
)
def test_closure_rule_gram_equals_closed_form_and_is_psd(k, oracle):
    np.testing.assert_allclose(k(X1, X2), oracle(X1, X2), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(k(X1), oracle(X1, X1), rtol=1e-12, atol=1e-14)
    r = check_psd(k(X1))
    assert r.is_psd, r.reason


def test_warped_exp_of_scaled_linear_kernel_is_the_gaussian_as_in_the_notes():
    # seed 003, Kernel Example (3): exp(-γx²) exp(2γ x·z) exp(-γz²) = exp(-γ‖x − z‖²)
    gamma = 0.7
    k = kernel_warp(kernel_exp(kernel_scale("linear", 2 * gamma)), lambda X: np.exp(-gamma * np.sum(X**2, axis=1)))
    np.testing.assert_allclose(k(X1, X2), pairwise.rbf_kernel(X1, X2, gamma=gamma), rtol=1e-12)


def test_closure_rules_accept_registry_names_with_default_parameters():
    np.testing.assert_allclose(
        kernel_sum("rbf", "linear")(X1, X2),
        pairwise.rbf_kernel(X1, X2) + pairwise.linear_kernel(X1, X2),
        rtol=1e-12,
    )


@pytest.mark.parametrize("c", [0.0, -1.0, np.nan, np.inf])
def test_scaling_by_non_positive_or_non_finite_c_raises(c):
    with pytest.raises(ValueError, match="c"):
        kernel_scale(rbf1, c)


@pytest.mark.parametrize("coefs, match", [([1.0, -0.5], ">= 0"), ([], "finite"), ([1.0, np.nan], "finite"),
                                          (["one"], "finite")])
def test_polynomial_with_negative_or_missing_coefficients_raises(coefs, match):
    with pytest.raises(ValueError, match=match):
        kernel_polynomial(rbf1, coefs)


def test_exp_of_a_huge_kernel_raises_instead_of_returning_inf():
    with pytest.raises(ValueError, match="overflows"):
        kernel_exp(kernel_scale("linear", 1000.0))(X1)


@pytest.mark.parametrize("f", [lambda X: X, lambda X: np.full(len(X), np.nan), "not callable"])
def test_warp_with_f_not_giving_one_finite_number_per_row_raises(f):
    with pytest.raises(ValueError, match="f must"):
        kernel_warp(rbf1, f)(X1)


def test_registry_lists_all_six_rules_of_the_notes():
    assert set(CLOSURE_RULES) == {"sum", "product", "scale", "polynomial", "exp", "warp"}
    assert {rule.build for rule in CLOSURE_RULES.values()} == {
        kernel_sum, kernel_product, kernel_scale, kernel_polynomial, kernel_exp, kernel_warp,
    }
    assert all(rule.formula and rule.why for rule in CLOSURE_RULES.values())


# ---- random valid kernels built by the closure rules are PSD --------------------------------

base_kernels = st.one_of(
    st.just(kernels.linear_kernel),
    st.floats(0.01, 10).map(lambda g: lambda X, Y=None: kernels.rbf_kernel(X, Y, gamma=g)),
    st.tuples(st.integers(1, 2), st.floats(0.1, 0.5), st.floats(0, 1)).map(
        lambda p: lambda X, Y=None: kernels.polynomial_kernel(X, Y, degree=p[0], gamma=p[1], coef0=p[2])
    ),
)
warps = st.sampled_from([bump, lambda X: X[:, 0], lambda X: 1 + np.sum(X**2, axis=1)])


def _extend(children):
    return st.one_of(
        st.tuples(children, children).map(lambda ks: kernel_sum(*ks)),
        st.tuples(children, children).map(lambda ks: kernel_product(*ks)),
        st.tuples(children, st.floats(0.1, 10)).map(lambda a: kernel_scale(*a)),
        st.tuples(children, st.lists(st.floats(0, 2), min_size=1, max_size=3)).map(lambda a: kernel_polynomial(*a)),
        st.tuples(children, warps).map(lambda a: kernel_warp(*a)),
    )


valid_kernels = st.recursive(st.one_of(base_kernels, base_kernels.map(kernel_exp)), _extend, max_leaves=4)


@HYPOTHESIS
@given(k=valid_kernels, n=st.integers(2, 30), d=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def test_kernels_built_by_closure_rules_give_psd_gram_matrices(k, n, d, seed):
    X = np.random.default_rng(seed).uniform(-2, 2, (n, d))
    r = check_psd(k(X))
    assert r.is_psd, r.reason


# ---- the catalogue of invalid kernels -------------------------------------------------------

@pytest.mark.parametrize("name", list(INVALID_KERNELS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_each_invalid_kernel_fails_on_thirty_points_with_a_certificate(name, seed):
    K = INVALID_KERNELS[name].kernel(points(seed))
    r = check_psd(K)
    assert r.is_symmetric and not r.is_psd
    assert r.min_eigenvalue < -1e-3 * r.max_abs_eigenvalue
    assert_certificate_proves_failure(r, K)


@pytest.mark.parametrize("name", list(INVALID_KERNELS))
def test_invalid_kernel_formula_text_parses_to_the_same_gram(name):
    entry = INVALID_KERNELS[name]
    X, Y = points(7, n=9), points(8, n=6)
    np.testing.assert_allclose(parse_kernel(entry.formula)(X, Y), entry.kernel(X, Y), rtol=1e-10, atol=1e-12)
    assert entry.why.strip()


def test_scikit_learn_default_sigmoid_in_two_dimensions_is_not_psd():
    r = check_psd(pairwise.sigmoid_kernel(points(0)))
    assert not r.is_psd
    assert r.certificate is not None


def test_positive_definite_gram_matrices_are_not_called_zero_up_to_rounding():
    # the 4-point example with the RBF and Laplacian kernels: λ_min 0.631 and 0.0157, far above rounding
    X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
    for K in (kernels.rbf_kernel(X, gamma=1.0), kernels.laplacian_kernel(X, gamma=1.0), kernels.linear_kernel(X)):
        check = mercer.check_psd(K)
        lam_min = np.linalg.eigvalsh(K)[0]
        assert check.is_psd
        if lam_min > check.threshold:
            assert "positive definite" in check.reason and "up to rounding" not in check.reason
        else:
            assert "0 up to rounding" in check.reason and "singular" in check.reason


def test_fails_mercer_checks_only_kernels_that_can_fail_and_agrees_with_eigvalsh():
    X = np.random.default_rng(3).normal(size=(40, 2))
    for spec in (kernels.KernelSpec("sigmoid", 3.16, coef0=-0.75), kernels.KernelSpec("sigmoid", 0.01, coef0=1.0),
                 kernels.KernelSpec("poly", 1.0, 3, -1.0)):
        lam_min = np.linalg.eigvalsh(spec.function()(X))[0]
        assert mercer.fails_mercer(spec, X) == (not mercer.check_psd(spec.function()(X)).is_psd)
        assert not mercer.fails_mercer(spec, X) or lam_min < 0
    assert not mercer.fails_mercer(kernels.KernelSpec("rbf", 1.0), X)
