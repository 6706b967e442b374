"""DualSVM (SMO) and PrimalSVM (interior point) against scikit-learn, scipy, the notes and each other."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import linprog, minimize
from sklearn.metrics.pairwise import pairwise_kernels
from sklearn.svm import SVC

from datasets import DATASETS
from kernel_core import dual, svm
from kernel_core.svm import F32_MIN_POINTS, DualSVM, PrimalSVM

# Learning From Data, Lecture 25 (seed 004): the 4-point toy example
LFD_X = np.array([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [3.0, 0.0]])
LFD_Y = np.array([-1.0, -1.0, 1.0, 1.0])

KERNEL_PARAMS = {
    "linear": {},
    "poly": {"degree": 3, "gamma": 0.5, "coef0": 1.0},
    "rbf": {"gamma": 0.5},
    # small gamma and coef0 = 0 keep tanh close to a scaled linear kernel, nearly PSD
    "sigmoid": {"gamma": 0.05, "coef0": 0.0},
}


def noisy_problem(seed, kernel):
    """n in 20..80 points in 2-D; a linear rule for linear/sigmoid, a circle for poly/rbf, label noise."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 81))
    X = rng.normal(size=(n, 2))
    score = X @ np.array([1.0, -0.5]) + 0.2 if kernel in ("linear", "sigmoid") else (X ** 2).sum(axis=1) - 1.2
    y = np.where(score + 0.3 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


def separable_problem(seed, n=40, d=2, gap=0.5, fit_intercept=True):
    """Linearly separable points: each pushed gap away from a random hyperplane on its side."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    b = rng.uniform(-0.5, 0.5) * np.linalg.norm(w) if fit_intercept else 0.0
    y = np.where(X @ w + b > 0, 1.0, -1.0)
    assert len(np.unique(y)) == 2
    X += np.outer(y * gap, w / np.linalg.norm(w))
    return X, y


def dual_objective(alpha, y, K):
    ay = alpha * y
    return alpha.sum() - 0.5 * ay @ K @ ay


def sklearn_alpha(svc, n):
    alpha = np.zeros(n)
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])    # dual_coef_ holds y_i alpha_i
    return alpha


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args)


# --- the notes' worked example -------------------------------------------------------------

def test_lfd_toy_alpha_is_half_half_one_zero():
    model = DualSVM("linear", C=np.inf, tol=1e-10).fit(LFD_X, LFD_Y)
    np.testing.assert_allclose(model.alpha_, [0.5, 0.5, 1.0, 0.0], atol=1e-8)
    np.testing.assert_array_equal(model.support_, [0, 1, 2])


def test_lfd_toy_dual_gives_w_one_minus_one_b_minus_one_margin_one_over_root_two():
    model = DualSVM("linear", C=np.inf, tol=1e-10).fit(LFD_X, LFD_Y)
    np.testing.assert_allclose(model.coef_, [1.0, -1.0], atol=1e-8)
    np.testing.assert_allclose(model.intercept_, -1.0, atol=1e-8)
    np.testing.assert_allclose(1.0 / np.linalg.norm(model.coef_), 1.0 / np.sqrt(2.0), atol=1e-8)
    np.testing.assert_allclose(model.dual_objective_, 1.0, atol=1e-8)    # ½‖w‖² at the optimum
    np.testing.assert_allclose(model.norm_w_, np.sqrt(2.0), atol=1e-8)


@pytest.mark.parametrize("kernel, params", [("linear", {}), ("rbf", {"gamma": 0.7}),
                                            ("poly", {"degree": 3, "gamma": 0.5})])
def test_norm_w_is_root_of_alpha_y_k_alpha_y_with_sklearns_kernel(kernel, params):
    X = np.random.default_rng(4).normal(size=(30, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * np.sin(5 * X[:, 1]) > 0, 1.0, -1.0)   # w far from 0
    model = DualSVM(kernel, C=2.0, coef0=1.0, tol=1e-10, **params).fit(X, y)
    sk = pairwise_kernels(X, metric=kernel, **({"coef0": 1.0} if kernel == "poly" else {}), **params)
    ay = model.alpha_ * y
    np.testing.assert_allclose(model.norm_w_, np.sqrt(ay @ sk @ ay), rtol=1e-10)
    if kernel == "linear":
        np.testing.assert_allclose(model.norm_w_, np.linalg.norm(model.coef_), rtol=1e-10)


def test_lfd_toy_primal_gives_w_one_minus_one_b_minus_one_and_the_dual_alphas():
    model = quiet(PrimalSVM(C=np.inf).fit, LFD_X, LFD_Y)
    np.testing.assert_allclose(model.coef_, [1.0, -1.0], atol=1e-8)
    np.testing.assert_allclose(model.intercept_, -1.0, atol=1e-8)
    np.testing.assert_allclose(model.primal_objective_, 1.0, atol=1e-8)
    np.testing.assert_allclose(model.dual_alpha_, [0.5, 0.5, 1.0, 0.0], atol=1e-8)
    np.testing.assert_allclose(model.slack_, 0.0, atol=1e-8)
    np.testing.assert_array_equal(model.predict(LFD_X), LFD_Y)


# --- DualSVM against scikit-learn's SVC (LIBSVM) ---------------------------------------------

@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("kernel", sorted(KERNEL_PARAMS))
def test_dual_svm_matches_sklearn_svc(kernel, C, seed):
    X, y = noisy_problem(seed, kernel)
    params = KERNEL_PARAMS[kernel]
    ours = quiet(DualSVM(kernel, C=C, tol=1e-8, **params).fit, X, y)
    ref = SVC(kernel=kernel, C=C, tol=1e-8, **params).fit(X, y)
    alpha_ref = sklearn_alpha(ref, len(y))
    K = pairwise_kernels(X, metric=kernel, **params)
    np.testing.assert_allclose(ours.dual_objective_, dual_objective(alpha_ref, y, K), rtol=1e-6)
    np.testing.assert_allclose(ours.dual_objective_, dual_objective(ours.alpha_, y, K), rtol=1e-10)
    # the same support set, up to alphas too small to tell apart at this tolerance
    np.testing.assert_array_equal(ours.alpha_ > 1e-6 * C, alpha_ref > 1e-6 * C)
    np.testing.assert_allclose(ours.alpha_, alpha_ref, atol=1e-3 * C)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_[0], atol=1e-4)
    Z = np.random.default_rng(seed + 100).normal(size=(50, 2))
    np.testing.assert_allclose(ours.decision_function(Z), ref.decision_function(Z), atol=1e-3)
    np.testing.assert_array_equal(ours.predict(X), ref.predict(X))
    if kernel == "linear":
        np.testing.assert_allclose(ours.coef_, ref.coef_[0], atol=1e-4)
    else:
        assert ours.coef_ is None


def test_intercept_without_free_support_vectors_is_libsvm_midpoint():
    # balanced classes, heavy overlap and a tiny C: every point violates its margin, so every
    # alpha sits at C (which Σ alpha_i y_i = 0 allows because the classes have the same size)
    rng = np.random.default_rng(4)
    X = rng.normal(size=(60, 2))
    y = rng.permutation(np.repeat([1.0, -1.0], 30))
    ours = DualSVM("rbf", C=0.01, gamma=0.5, tol=1e-10).fit(X, y)
    assert not np.any(ours.kkt_.status == "free SV")
    assert np.any(ours.kkt_.status == "bounded SV")
    # LIBSVM's shrinking takes the midpoint over the active set only; without it, over all points
    ref = SVC(kernel="rbf", C=0.01, gamma=0.5, tol=1e-10, shrinking=False).fit(X, y)
    np.testing.assert_allclose(ours.alpha_, sklearn_alpha(ref, 60), atol=1e-12)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_[0], atol=1e-9)
    # the midpoint is inside the interval that the KKT conditions allow
    assert ours.kkt_.max_violation <= 1e-10


def test_hard_margin_rbf_equals_sklearn_with_huge_c():
    X, y = noisy_problem(0, "rbf")
    y = np.where((X ** 2).sum(axis=1) > 1.2, 1.0, -1.0)     # separable by a circle
    ours = quiet(DualSVM("rbf", C=np.inf, gamma=1.0, tol=1e-9).fit, X, y)
    ref = SVC(kernel="rbf", C=1e8, gamma=1.0, tol=1e-9).fit(X, y)
    alpha_ref = sklearn_alpha(ref, len(y))
    assert alpha_ref.max() < 1e7, "the reference must not touch its box"
    np.testing.assert_allclose(ours.dual_objective_,
                               dual_objective(alpha_ref, y, pairwise_kernels(X, metric="rbf", gamma=1.0)), rtol=1e-6)
    np.testing.assert_allclose(ours.kkt_.margin[ours.support_], 1.0, atol=1e-6)
    assert np.all(ours.kkt_.margin >= 1.0 - 1e-6)
    assert not np.any(ours.kkt_.status == "bounded SV")


# --- primal = dual -------------------------------------------------------------------------

def phi_quadratic(X):
    """The notes' degree-2 map (x1², √2 x1x2, x2²), with φ(x)·φ(z) = (x·z)²."""
    return np.column_stack([X[:, 0] ** 2, np.sqrt(2.0) * X[:, 0] * X[:, 1], X[:, 1] ** 2])


def squared_dot_kernel(X, Y):
    return (X @ Y.T) ** 2


def assert_primal_equals_dual(primal, dual, Phi, y, *, rtol):
    w_dual = (dual.alpha_ * y) @ Phi
    np.testing.assert_allclose(primal.coef_, w_dual, rtol=rtol, atol=rtol)
    gap = primal.primal_objective_ - dual.dual_objective_
    assert abs(gap) <= rtol * abs(primal.primal_objective_), f"duality gap {gap}"
    if np.any(dual.kkt_.status == "free SV"):         # b is unique only with a free SV
        np.testing.assert_allclose(primal.intercept_, dual.intercept_, atol=1e-6)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0, np.inf])
def test_primal_equals_dual_on_linear_problems(C, fit_intercept):
    X, y = separable_problem(1, fit_intercept=fit_intercept) if C == np.inf else noisy_problem(1, "linear")
    primal = quiet(PrimalSVM(C=C, fit_intercept=fit_intercept).fit, X, y)
    dual = quiet(DualSVM("linear", C=C, fit_intercept=fit_intercept, tol=1e-10).fit, X, y)
    assert_primal_equals_dual(primal, dual, X, y, rtol=1e-6)
    np.testing.assert_allclose(dual.coef_, primal.coef_, atol=1e-6)


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("C", [1.0, np.inf])
def test_primal_on_quadratic_features_equals_dual_with_squared_dot_kernel(C, fit_intercept):
    rng = np.random.default_rng(2)
    X = rng.uniform(-2, 2, size=(60, 2))
    if fit_intercept:
        r2 = (X ** 2).sum(axis=1)
        keep = np.abs(r2 - 1.5) > 0.3               # a ring-free band: separable by a circle
        X, y = X[keep], np.where(r2[keep] > 1.5, 1.0, -1.0)
    else:
        prod = X[:, 0] * X[:, 1]
        keep = np.abs(prod) > 0.2                   # separable by the cone x1 x2 = 0, through the origin
        X, y = X[keep], np.where(prod[keep] > 0, 1.0, -1.0)
    if C < np.inf:
        y[:3] *= -1                                 # a few errors for the soft margin to absorb
    Phi = phi_quadratic(X)
    primal = quiet(PrimalSVM(C=C, fit_intercept=fit_intercept).fit, Phi, y)
    dual = quiet(DualSVM(squared_dot_kernel, C=C, fit_intercept=fit_intercept, tol=1e-10).fit, X, y)
    assert_primal_equals_dual(primal, dual, Phi, y, rtol=1e-6)
    np.testing.assert_allclose(dual.decision_function(X), primal.decision_function(Phi), atol=1e-6)


def test_primal_multipliers_are_the_dual_alphas():
    X, y = noisy_problem(3, "rbf")
    Phi = phi_quadratic(X)
    primal = quiet(PrimalSVM(C=1.0).fit, Phi, y)
    dual = quiet(DualSVM(squared_dot_kernel, C=1.0, tol=1e-10).fit, X, y)
    np.testing.assert_allclose(primal.dual_alpha_, dual.alpha_, atol=1e-5)


# --- properties ------------------------------------------------------------------------------

@st.composite
def datasets(draw, max_n=20, max_d=3):
    """Points on a grid of step ½ in [-3, 3]^d, so duplicates are exact and a separable set has a
    margin bounded away from 0 (two points 1e-9 apart would make any solver's tolerances moot)."""
    n = draw(st.integers(4, max_n))
    d = draw(st.integers(1, max_d))
    X = draw(arrays(np.float64, (n, d), elements=st.integers(-6, 6).map(lambda k: k / 2)))
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    assume(len(np.unique(y)) == 2)
    return X, y


@settings(max_examples=25, deadline=None)
@given(data=datasets(), C=st.sampled_from([0.1, 1.0, 10.0]), fit_intercept=st.booleans())
def test_every_smo_iterate_is_below_the_primal_optimum_and_the_gap_closes(data, C, fit_intercept):
    X, y = data
    dual = quiet(DualSVM("linear", C=C, fit_intercept=fit_intercept, tol=1e-9).fit, X, y)
    primal = quiet(PrimalSVM(C=C, fit_intercept=fit_intercept).fit, X, y)
    P = primal.primal_objective_
    assert np.all(np.asarray(dual.history_["objective"]) <= P + 1e-9 * (1 + P))
    assert P - dual.dual_objective_ <= 1e-6 * (1 + P)


@settings(max_examples=25, deadline=None)
@given(data=datasets(), C=st.sampled_from([0.1, 1.0, 10.0]), seed=st.integers(0, 2 ** 32 - 1))
def test_duality_gap_is_nonnegative_for_any_feasible_pair(data, C, seed):
    X, y = data
    rng = np.random.default_rng(seed)
    # a random feasible alpha: in the box, then one class scaled down so that Σ alpha_i y_i = 0
    alpha = rng.uniform(0, C, size=len(y))
    s_pos, s_neg = alpha[y > 0].sum(), alpha[y < 0].sum()
    alpha[y > 0] *= min(1.0, s_neg / s_pos)
    alpha[y < 0] *= min(1.0, s_pos / s_neg)
    D = dual_objective(alpha, y, X @ X.T)
    primal = quiet(PrimalSVM(C=C).fit, X, y)
    assert D <= primal.primal_objective_ + 1e-9 * (1 + primal.primal_objective_)
    # and against any (w, b) with its hinge slacks
    w, b = rng.normal(size=X.shape[1]), rng.normal()
    P = 0.5 * w @ w + C * np.maximum(0, 1 - y * (X @ w + b)).sum()
    assert D <= P + 1e-12 * (1 + P)


@settings(max_examples=25, deadline=None)
@given(data=datasets(), C=st.sampled_from([0.1, 1.0, 10.0]), gamma=st.sampled_from([0.1, 1.0]),
       fit_intercept=st.booleans())
def test_kkt_conditions_hold_at_the_returned_optimum(data, C, gamma, fit_intercept):
    X, y = data
    tol = 1e-6
    model = quiet(DualSVM("rbf", C=C, gamma=gamma, fit_intercept=fit_intercept, tol=tol).fit, X, y)
    kkt = model.kkt_
    assert kkt.max_violation <= tol
    np.testing.assert_allclose(kkt.margin, y * model.decision_function(X), atol=1e-9)
    alpha = model.alpha_
    assert np.all((alpha >= 0) & (alpha <= C))
    if fit_intercept:
        assert abs(alpha @ y) <= 1e-9 * max(1.0, alpha.sum())
    np.testing.assert_array_equal(kkt.status == "non-SV", alpha == 0)
    np.testing.assert_array_equal(kkt.status == "bounded SV", alpha == C)
    np.testing.assert_array_equal(model.support_, np.flatnonzero(alpha > 0))


def box_suboptimality(G, alpha, C):
    """Certified bound on f(alpha) - min f for f = ½ alphaᵀG alpha - Σ alpha over [0, C]^n.

    By convexity f(alpha) - f* <= ∇f·(alpha - alpha*); a coordinate held at a bound by its
    gradient contributes <= 0, any other at most C |∇f_i|.
    """
    g = G @ alpha - 1.0
    free = np.where(g < 0, alpha < C, alpha > 0)
    return C * np.abs(g[free]).sum()


@settings(max_examples=25, deadline=None)
@given(data=datasets(max_n=25), C=st.sampled_from([0.1, 1.0, 10.0]), gamma=st.sampled_from([0.3, 1.0]))
def test_no_offset_dual_matches_scipy_on_the_box_qp(data, C, gamma):
    # without offset the dual is min ½ alphaᵀ G alpha - Σ alpha over the box [0, C]^n only, which
    # scipy's L-BFGS-B (exact gradient, bounds) solves independently; two near-optimal points
    # differ in objective by at most the certified suboptimality of each
    X, y = data
    G = np.outer(y, y) * pairwise_kernels(X, metric="rbf", gamma=gamma)
    ref = minimize(lambda a: (0.5 * a @ G @ a - a.sum(), G @ a - 1.0), np.zeros(len(y)), jac=True,
                   method="L-BFGS-B", bounds=[(0.0, C)] * len(y),
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 10_000})
    # coordinate descent converges linearly at a rate set by the conditioning of G: on 1-D grids
    # with repeated points an RBF Gram matrix needs ~1e5 steps for tol 1e-8 (measured: 85 188
    # steps at n = 24), so the tolerance and the step budget are set for that worst case
    model = quiet(DualSVM("rbf", C=C, gamma=gamma, fit_intercept=False, tol=1e-8, max_iter=1_000_000).fit, X, y)
    assert model.intercept_ == 0.0
    ours, theirs = model.dual_objective_, -ref.fun
    assert box_suboptimality(G, model.alpha_, C) <= 1e-8 * C * len(y)
    assert ours - theirs <= box_suboptimality(G, ref.x, C) + 1e-12 * (1 + ours)
    assert theirs - ours <= box_suboptimality(G, model.alpha_, C) + 1e-12 * (1 + ours)


@settings(max_examples=20, deadline=None)
@given(data=datasets(), C=st.sampled_from([1.0, 10.0]))
def test_smo_never_lowers_the_dual_objective(data, C):
    X, y = data
    model = quiet(DualSVM("rbf", C=C, gamma=1.0, tol=1e-8).fit, X, y)
    h = np.asarray(model.history_["objective"])
    assert np.all(np.diff(h) >= -1e-12 * (1 + np.abs(h[1:])))
    assert model.history_["iteration"][-1] == model.n_iter_
    np.testing.assert_allclose(h[-1], model.dual_objective_, rtol=1e-10)


def lp_separable(X, y, fit_intercept):
    """Independent oracle: is {(w, b): y_i (w·x_i + b) >= 1} non-empty? (HiGHS LP)."""
    A = y[:, None] * (np.column_stack([X, np.ones(len(y))]) if fit_intercept else X)
    res = linprog(np.zeros(A.shape[1]), A_ub=-A, b_ub=-np.ones(len(y)), bounds=[(None, None)] * A.shape[1],
                  method="highs")
    return res.status == 0


@settings(max_examples=40, deadline=None)
@given(data=datasets(max_n=30), fit_intercept=st.booleans())
def test_hard_margin_primal_raises_exactly_when_the_lp_says_not_separable(data, fit_intercept):
    X, y = data
    if lp_separable(X, y, fit_intercept):
        model = quiet(PrimalSVM(C=np.inf, fit_intercept=fit_intercept).fit, X, y)
        assert np.all(y * model.decision_function(X) >= 1 - 1e-7)
    else:
        with pytest.raises(ValueError, match="not linearly separable"):
            PrimalSVM(C=np.inf, fit_intercept=fit_intercept).fit(X, y)


# --- hard margin on data that is not separable ------------------------------------------------

XOR_X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
XOR_Y = np.array([-1.0, -1.0, 1.0, 1.0])


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_hard_margin_primal_on_xor_raises_not_separable(fit_intercept):
    with pytest.raises(ValueError, match="not linearly separable.*finite C"):
        PrimalSVM(C=np.inf, fit_intercept=fit_intercept).fit(XOR_X, XOR_Y)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_hard_margin_dual_on_xor_with_linear_kernel_raises_not_separable(fit_intercept):
    with pytest.raises(ValueError, match="not separable.*finite C"):
        DualSVM("linear", C=np.inf, fit_intercept=fit_intercept).fit(XOR_X, XOR_Y)


def test_hard_margin_dual_with_rbf_separates_xor_but_not_a_point_with_both_labels():
    model = quiet(DualSVM("rbf", C=np.inf, gamma=1.0, tol=1e-8).fit, XOR_X, XOR_Y)
    np.testing.assert_array_equal(model.predict(XOR_X), XOR_Y)
    X = np.vstack([XOR_X, XOR_X[:1]])
    y = np.append(XOR_Y, 1.0)                        # (0, 0) is now labelled both -1 and +1
    with pytest.raises(ValueError, match="not separable"):
        DualSVM("rbf", C=np.inf, gamma=1.0).fit(X, y)


def test_hard_margin_dual_through_origin_raises_when_a_point_sits_at_the_origin():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]])
    y = np.array([1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="not separable"):
        DualSVM("linear", C=np.inf, fit_intercept=False).fit(X, y)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_hard_margin_with_a_kernel_that_is_not_psd_raises(fit_intercept):
    # tanh(x·z) has negative eigenvalues on these points and SMO diverges along one of them:
    # without the box the dual is unbounded
    X, y = noisy_problem(0, "linear")
    with pytest.raises(ValueError, match="positive semi-definite.*eigenvalue -.*finite C"):
        DualSVM("sigmoid", C=np.inf, gamma=1.0, coef0=0.0, fit_intercept=fit_intercept).fit(X, y)
    quiet(DualSVM("sigmoid", C=1.0, gamma=1.0, coef0=0.0, fit_intercept=fit_intercept).fit, X, y)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_hard_margin_proven_separable_after_a_slow_start_gives_the_same_solution(monkeypatch, fit_intercept):
    X, y = separable_problem(3, fit_intercept=fit_intercept)
    fast = quiet(DualSVM("linear", C=np.inf, fit_intercept=fit_intercept, tol=1e-9).fit, X, y)
    monkeypatch.setattr(svm, "_probe_steps", lambda n: 1)     # force the feasibility proof
    slow = quiet(DualSVM("linear", C=np.inf, fit_intercept=fit_intercept, tol=1e-9).fit, X, y)
    np.testing.assert_array_equal(slow.alpha_, fast.alpha_)
    assert fast.n_iter_ > 1


def test_hard_margin_with_every_point_at_the_origin_of_feature_space_raises():
    with pytest.raises(ValueError, match="not separable"):
        DualSVM("linear", C=np.inf).fit(np.zeros((4, 2)), [1, -1, 1, -1])


# --- input checks ------------------------------------------------------------------------------

def bad_inputs():
    X, y = LFD_X, LFD_Y
    X_nan = X.copy()
    X_nan[1, 0] = np.nan
    X_inf = X.copy()
    X_inf[2, 1] = np.inf
    return [
        ("nan", X_nan, y, "NaN or infinite"),
        ("inf", X_inf, y, "NaN or infinite"),
        ("one class", X, np.ones(4), "only the class"),
        ("labels 0/1", X, (y + 1) / 2, r"only -1 and \+1.*2\*y - 1"),
        ("shape mismatch", X, y[:3], "3 labels"),
        ("empty", np.empty((0, 2)), np.empty(0), "empty"),
    ]


@pytest.mark.parametrize(("case", "X", "y", "message"), bad_inputs(), ids=[c[0] for c in bad_inputs()])
@pytest.mark.parametrize("make", [lambda: DualSVM("rbf"), lambda: PrimalSVM()], ids=["dual", "primal"])
def test_bad_training_data_raises_value_error_saying_what_and_how(make, case, X, y, message):
    with pytest.raises(ValueError, match=message):
        make().fit(X, y)


@pytest.mark.parametrize("C", [0.0, -1.0, np.nan, -np.inf, "big"])
@pytest.mark.parametrize("make", [lambda C: DualSVM("rbf", C=C), lambda C: PrimalSVM(C=C)], ids=["dual", "primal"])
def test_c_must_be_positive(make, C):
    with pytest.raises(ValueError, match="C must be"):
        make(C).fit(LFD_X, LFD_Y)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_negative_gamma_raises(kernel):
    with pytest.raises(ValueError, match="gamma must be >= 0"):
        DualSVM(kernel, gamma=-0.5).fit(LFD_X, LFD_Y)


def test_unknown_kernel_name_raises_with_the_choices():
    with pytest.raises(ValueError, match="Unknown kernel 'gauss'.*rbf"):
        DualSVM("gauss").fit(LFD_X, LFD_Y)


@pytest.mark.parametrize(("param", "value", "message"), [("tol", 0.0, "tol must be > 0"),
                                                         ("max_iter", 0, "max_iter must be >= 1"),
                                                         ("max_iter", 2.5, "max_iter must be a whole number")])
@pytest.mark.parametrize("cls", [DualSVM, PrimalSVM])
def test_solver_knobs_are_checked(cls, param, value, message):
    with pytest.raises(ValueError, match=message):
        cls(**{param: value}).fit(LFD_X, LFD_Y)


@pytest.mark.parametrize("model", [DualSVM("rbf"), PrimalSVM()], ids=["dual", "primal"])
def test_decision_function_checks_its_points(model):
    model.fit(LFD_X, LFD_Y)
    with pytest.raises(ValueError, match="3 feature"):
        model.decision_function(np.ones((2, 3)))
    with pytest.raises(ValueError, match="NaN or infinite"):
        model.decision_function([[np.nan, 0.0]])
    with pytest.raises(ValueError, match="empty"):
        model.decision_function(np.empty((0, 2)))


# --- stopping early ------------------------------------------------------------------------------

@pytest.mark.parametrize("fit_intercept", [True, False])
def test_dual_hitting_max_iter_warns_and_keeps_a_feasible_iterate(fit_intercept):
    X, y = noisy_problem(0, "rbf")
    with pytest.warns(UserWarning, match="max_iter=5.*tol"):
        model = DualSVM("rbf", C=1.0, gamma=0.5, fit_intercept=fit_intercept, max_iter=5).fit(X, y)
    assert model.n_iter_ == 5
    assert 0 < np.count_nonzero(model.alpha_) <= 10
    assert np.all((model.alpha_ >= 0) & (model.alpha_ <= 1.0))
    if fit_intercept:
        assert abs(model.alpha_ @ y) <= 1e-12
    assert model.history_["iteration"] == [0, 1, 2, 3, 4, 5]
    full = DualSVM("rbf", C=1.0, gamma=0.5, fit_intercept=fit_intercept).fit(X, y)
    assert model.history_["violation"][-1] > full.tol
    assert model.dual_objective_ < full.dual_objective_


def test_primal_hitting_max_iter_warns_and_keeps_the_iterate():
    X, y = noisy_problem(0, "linear")
    with pytest.warns(UserWarning, match="max_iter=3.*tol"):
        model = PrimalSVM(C=1.0, max_iter=3).fit(X, y)
    assert model.n_iter_ == 3
    assert np.all(np.isfinite(model.coef_)) and model.slack_.shape == (len(y),)


# --- evaluation -----------------------------------------------------------------------------------

def test_decision_function_is_the_support_vector_expansion():
    X, y = noisy_problem(5, "rbf")
    model = DualSVM("rbf", C=1.0, gamma=0.5).fit(X, y)
    Z = np.random.default_rng(6).normal(size=(30, 2))
    expected = pairwise_kernels(Z, X, metric="rbf", gamma=0.5) @ (model.alpha_ * y) + model.intercept_
    np.testing.assert_allclose(model.decision_function(Z), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.predict(Z), np.where(expected >= 0, 1.0, -1.0))


def test_large_rbf_grid_in_float32_agrees_with_float64_beyond_max_samples():
    X, y = noisy_problem(7, "rbf")
    model = DualSVM("rbf", C=10.0, gamma=2.0).fit(X, y)
    xx, yy = np.meshgrid(np.linspace(-4, 4, 201), np.linspace(-4, 4, 201))
    grid = np.column_stack([xx.ravel(), yy.ravel()])      # 40 401 points, more than MAX_SAMPLES
    assert len(grid) >= F32_MIN_POINTS
    f = model.decision_function(grid)
    assert f.dtype == np.float64 and f.shape == (len(grid),)
    exact = pairwise_kernels(grid, model.support_vectors_, metric="rbf", gamma=2.0) @ (model.alpha_ * y)[
        model.support_] + model.intercept_
    np.testing.assert_allclose(f, exact, atol=1e-4)


def test_large_grid_stays_float64_when_float32_would_not_be_exact_enough():
    X, y = noisy_problem(7, "rbf")
    model = DualSVM("rbf", C=10.0, gamma=300.0).fit(X, y)     # narrow bumps over wide data
    grid = np.random.default_rng(8).uniform(-3, 3, size=(F32_MIN_POINTS, 2))
    exact = pairwise_kernels(grid, X, metric="rbf", gamma=300.0) @ (model.alpha_ * y) + model.intercept_
    np.testing.assert_allclose(model.decision_function(grid), exact, rtol=1e-12, atol=1e-12)


def test_evicting_kernel_rows_from_a_small_cache_gives_the_same_solution(monkeypatch):
    X, y = noisy_problem(9, "rbf")
    full = DualSVM("rbf", C=1.0, gamma=0.5, tol=1e-8).fit(X, y)
    monkeypatch.setattr(dual, "CACHE_BYTES", 8 * len(y) * 3)   # room for 3 rows
    small = DualSVM("rbf", C=1.0, gamma=0.5, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(small.alpha_, full.alpha_, rtol=0, atol=0)
    assert small.n_iter_ == full.n_iter_


# --- large C on separable data: the primal converges and says so ----------------------------------------

def scipy_hard_margin(X, y, fit_intercept):
    """Independent oracle: min ½‖w‖² s.t. y_i (w·x_i + b) >= 1 by SciPy's SLSQP."""
    d = X.shape[1]
    A = y[:, None] * (np.column_stack([X, np.ones(len(y))]) if fit_intercept else X)
    q = A.shape[1]
    res = minimize(lambda z: 0.5 * z[:d] @ z[:d], np.zeros(q), jac=lambda z: np.append(z[:d], [0.0] * (q - d)),
                   constraints=[{"type": "ineq", "fun": lambda z: A @ z - 1.0, "jac": lambda z: A}],
                   method="SLSQP", options={"ftol": 1e-15, "maxiter": 1000})
    return res.x[:d], (res.x[d] if fit_intercept else 0.0)


@pytest.mark.parametrize("C", [1e6, 1e8, 1e10])
@pytest.mark.parametrize("fit_intercept", [True, False])
def test_primal_at_large_c_on_separable_data_converges_to_the_hard_margin_qp(C, fit_intercept):
    # before the audit: "did not converge" from C = 1e8 on, although w agreed with the QP to 4e-11
    X, y = separable_problem(5, fit_intercept=fit_intercept)
    model = quiet(PrimalSVM(C=C, fit_intercept=fit_intercept).fit, X, y)
    w, b = scipy_hard_margin(X, y, fit_intercept)
    assert model.converged_
    np.testing.assert_allclose(model.coef_, w, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(model.intercept_, b, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(model.slack_, 0.0, atol=1e-9)


def test_primal_at_large_c_gives_the_lfd_toy_closed_form():
    # α* = (½, ½, 1, 0) <= C, so every C >= 1 gives the hard margin w = (1, -1), b = -1
    for C in (1e6, 1e10):
        model = quiet(PrimalSVM(C=C).fit, LFD_X, LFD_Y)
        np.testing.assert_allclose(model.coef_, [1.0, -1.0], rtol=0, atol=1e-9)
        np.testing.assert_allclose(model.intercept_, -1.0, rtol=0, atol=1e-9)


# --- the ValueError contract -----------------------------------------------------------------------------

@pytest.mark.parametrize("model", [DualSVM(), PrimalSVM()])
@pytest.mark.parametrize("method", ["decision_function", "predict"])
def test_predicting_before_fit_is_a_value_error(model, method):
    with pytest.raises(ValueError, match="not fitted yet; call fit first"):
        getattr(model, method)(np.zeros((2, 2)))


@pytest.mark.parametrize("make", [lambda: DualSVM(C=10**400), lambda: DualSVM(max_iter=10**400),
                                  lambda: DualSVM(gamma=10**400), lambda: DualSVM("poly", degree=10**400),
                                  lambda: DualSVM("sigmoid", coef0=10**400), lambda: PrimalSVM(C=10**400),
                                  lambda: PrimalSVM(max_iter=10**400)])
def test_python_ints_beyond_float_range_are_value_errors_naming_the_setting(make):
    X, y = noisy_problem(0, "rbf")
    with pytest.raises(ValueError, match="too large for float64"):
        make().fit(X, y)


def test_a_callable_kernel_of_the_wrong_shape_is_a_value_error():
    X, y = noisy_problem(0, "rbf")
    with pytest.raises(ValueError, match="must return the Gram matrix"):
        DualSVM(lambda A, B: (A @ B.T)[0]).fit(X, y)


def test_rounding_in_alpha_g_alpha_is_neither_a_margin_nor_proof_that_k_is_not_psd():
    # ten noiseless circle points, φ(x) = x, no offset, small C: w = Σ αᵢyᵢxᵢ is 0 up to rounding and αᵀGα
    # came out as −2.8e-17 (C = 0.01) or 3.9e-17 (C = 0.562): once shown as "K not PSD" or a margin of 3.4e7
    X, y = DATASETS["circles"](10, noise=0.0, random_state=0)
    for C in (0.01, 0.562):
        model = DualSVM("linear", C=C, fit_intercept=False, tol=1e-9).fit(X, y)
        assert abs(model.norm_w_squared_) < 1e-12
        assert not model.psd_violated_ and model.norm_w_ == 0.0
