"""The dual solver's audit: non-finite runs, LIBSVM's treatment of kernels that are not PSD, convergence at
the page's tolerance on its hardest settings, warm starts."""

import warnings

import numpy as np
import pytest
from sklearn.svm import SVC

from datasets import make_dataset
from kernel_core import dual
from kernel_core.kernels import make_kernel, rbf_kernel, sigmoid_kernel
from kernel_core.svm import DualSVM

PAGE_TOL = 1e-9   # lessons/primal_dual/compute.py DUAL_TOL


def exact_gap(model, X, y, kernel, C, fit_intercept, **params):
    """The KKT violation of alpha_ recomputed from the full Gram matrix."""
    K = make_kernel(kernel, **params)(X, X)
    v = y - K @ (model.alpha_ * y)
    return dual.kkt_gap(model.alpha_, y, v, C, fit_intercept)


def sklearn_dual_objective(svc, K, y):
    alpha = np.zeros(len(y))
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    return alpha.sum() - 0.5 * (alpha * y) @ K @ (alpha * y)


def sigmoid_problem(seed, n=150, d=5):
    """Points with a noisy linear rule, sorted +1 first: LIBSVM groups the classes, and its first class
    (scikit-learn's classes_[0] = -1, so fitting on -y) is its +1, so both solvers see one problem in one order."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)
    order = np.argsort(-y, kind="stable")
    return X[order], y[order]


# --- non-finite values are a ValueError naming the setting ------------------------------------------

def test_a_gram_matrix_that_overflows_raises_naming_gamma_and_degree():
    X = np.array([[30.0, 0.0], [-30.0, 1.0], [0.0, 30.0], [1.0, -30.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    with pytest.raises(ValueError, match="lower γ or the degree"):
        DualSVM("poly", C=1.0, gamma=1e4, degree=50).fit(X, y)     # (9e6)^50 > 1.8e308


def test_an_iterate_that_overflows_raises_instead_of_returning_nan():
    # finite Gram entries near float64's top: K_i - K_j overflows in the gradient update. Before the audit
    # the fit ran on NaN to max_iter, returned NaN alpha and b, and predicted -1 everywhere.
    X, y = sigmoid_problem(0, n=40)

    def huge(A, B):
        return 1e308 * np.tanh(A @ B.T)

    with pytest.raises(ValueError, match="NaN or infinite.*Lower γ or the degree"):
        DualSVM(huge, C=1.0, max_iter=1_000).fit(X, y)


def test_decision_values_that_overflow_raise_instead_of_answering_minus_one():
    X, y = make_dataset("circles", 40, noise=0.1, random_state=0)
    model = DualSVM("poly", C=1.0, gamma=1.0, degree=10).fit(X, y)
    with pytest.raises(ValueError, match="NaN or infinite"):
        model.decision_function(np.array([[1e40, 1e40]]))


@pytest.mark.parametrize("method", ["decision_function", "predict"])
def test_predicting_before_fit_is_a_value_error_saying_call_fit(method):
    with pytest.raises(ValueError, match="call fit first"):
        getattr(DualSVM(), method)(np.zeros((2, 2)))


# --- kernels that are not PSD: LIBSVM's rule, and the page's flag ----------------------------------

@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("C", [1.0, 100.0])
def test_sigmoid_dual_reaches_a_kkt_point_no_worse_than_libsvms(seed, C):
    """K is not PSD, so the dual is not concave and has several KKT points: which one a solver stops at depends on
    the last bits of its arithmetic (the same code stops at LIBSVM's on one machine and at a higher one on another).
    Ours is a KKT point whose objective is LIBSVM's or higher."""
    X, y = sigmoid_problem(seed)
    K = sigmoid_kernel(X, gamma=0.2, coef0=0.0)
    svc = SVC(kernel="precomputed", C=C, tol=1e-9, shrinking=False).fit(K, -y)
    model = DualSVM("sigmoid", C=C, gamma=0.2, coef0=0.0, tol=1e-9).fit(X, y)
    assert model.converged_ and model.kkt_.max_violation <= 1e-9
    libsvm = sklearn_dual_objective(svc, K, y)
    assert model.dual_objective_ >= libsvm - 1e-6 * abs(libsvm)


def test_a_precomputed_gram_that_is_not_psd_reaches_libsvms_kkt_point():
    X, y = sigmoid_problem(7, n=80)
    rng = np.random.default_rng(7)
    noise = rng.normal(scale=0.3, size=(80, 80))
    K = rbf_kernel(X, gamma=0.1) + 0.5 * (noise + noise.T)
    assert np.linalg.eigvalsh(K)[0] < 0
    index = np.arange(80, dtype=float)[:, None]

    def precomputed(A, B):
        return K[np.ix_(A[:, 0].astype(int), B[:, 0].astype(int))]

    svc = SVC(kernel="precomputed", C=10.0, tol=1e-9, shrinking=False).fit(K, -y)
    model = DualSVM(precomputed, C=10.0, tol=1e-9).fit(index, y)
    np.testing.assert_allclose(model.dual_objective_, sklearn_dual_objective(svc, K, y), rtol=1e-6)


def test_sigmoid_fit_reports_that_its_gram_matrix_is_not_psd():
    X, y = sigmoid_problem(0)
    model = DualSVM("sigmoid", C=100.0, gamma=0.2, coef0=0.0, tol=1e-9).fit(X, y)
    assert model.psd_violated_ and model.min_curvature_ < 0
    # here ‖w‖² = alphaᵀG alpha is itself negative: there is no w, so no margin
    assert model.norm_w_squared_ < 0 and model.norm_w_ == 0.0


def test_rbf_fit_reports_no_negative_curvature():
    X, y = make_dataset("moons", 100, noise=0.2, random_state=0)
    model = DualSVM("rbf", C=10.0, gamma=1.0, tol=1e-9).fit(X, y)
    assert not model.psd_violated_ and model.min_curvature_ > 0 and model.converged_
    np.testing.assert_allclose(model.norm_w_ ** 2, model.norm_w_squared_, rtol=1e-12)


# --- the page's tolerance on its hardest settings --------------------------------------------------

@pytest.mark.parametrize("name, n, C, kernel, params, offset", [
    ("spirals", 500, 1000.0, "rbf", {"gamma": 1.0}, True),         # 100 000 SMO steps were not enough
    ("moons", 500, 1000.0, "rbf", {"gamma": 1.0}, True),
    ("spirals", 199, 562.0, "linear", {}, False),                  # rank 2: coordinate descent crawls
    ("blobs", 531, 0.1, "poly", {"gamma": 1.78, "degree": 6, "coef0": 0.25}, False),
])
def test_dual_reaches_the_page_tolerance_on_hard_settings(name, n, C, kernel, params, offset):
    X, y = make_dataset(name, n, noise=0.3, random_state=0)
    model = DualSVM(kernel, C=C, fit_intercept=offset, tol=PAGE_TOL, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model.fit(X, y)
    assert model.converged_ and model.n_iter_ < 100_000
    assert exact_gap(model, X, y, kernel, C, offset, **params) <= 2 * PAGE_TOL


@pytest.mark.parametrize("gamma, C", [(31.6, 100.0), (100.0, 1000.0)])
def test_the_polish_of_an_ill_conditioned_rank_deficient_dual_keeps_sum_alpha_y_zero_and_converges(gamma, C):
    # (γ x·z + 1)³ in 2-D has rank 10 and Gram entries of 1e7: the face systems are singular (ray steps) and their
    # solves round y_Fᵀ d. A polish that let Σ αᵢyᵢ drift was either kept (α infeasible: Σ αᵢyᵢ reached -11) or
    # refused every round (SMO alone then ran to max_iter)
    X, y = make_dataset("moons", 90, noise=0.25, random_state=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = DualSVM("poly", C=C, gamma=gamma, degree=3, coef0=1.0, tol=1e-6, max_iter=20_000).fit(X, y)
    assert model.converged_ and model.n_iter_ <= 5_000
    assert abs(model.alpha_ @ y) <= 1e-12 * (1.0 + model.alpha_.sum())


def test_a_dual_too_ill_conditioned_for_float64_says_so_naming_the_cause():
    # K reaches 1e11: LIBSVM's gap grows instead of closing here (measured: 1.8e4 after 1e5 steps, 2e6 after 1e7)
    X, y = make_dataset("moons", 500, noise=0.3, random_state=0)
    with pytest.warns(UserWarning, match="rounding in float64.*too ill-conditioned.*Lower γ or the degree"):
        model = DualSVM("poly", C=10.0, gamma=56.2, degree=5, coef0=1.5, tol=PAGE_TOL, max_iter=20_000).fit(X, y)
    assert not model.converged_


# --- warm starts -------------------------------------------------------------------------------------

@pytest.mark.parametrize("offset", [True, False])
def test_warm_start_from_a_neighbouring_c_reaches_the_same_optimum_in_fewer_steps(offset):
    X, y = make_dataset("moons", 300, noise=0.3, random_state=1)
    previous = DualSVM("rbf", C=31.6, gamma=1.0, fit_intercept=offset, tol=PAGE_TOL).fit(X, y)
    cold = DualSVM("rbf", C=56.2, gamma=1.0, fit_intercept=offset, tol=PAGE_TOL).fit(X, y)
    warm = DualSVM("rbf", C=56.2, gamma=1.0, fit_intercept=offset, tol=PAGE_TOL).fit(X, y, alpha0=previous.alpha_)
    assert warm.converged_ and warm.n_iter_ < cold.n_iter_
    assert exact_gap(warm, X, y, "rbf", 56.2, offset, gamma=1.0) <= 2 * PAGE_TOL
    np.testing.assert_allclose(warm.dual_objective_, cold.dual_objective_, rtol=1e-10)


def test_a_warm_start_outside_the_feasible_set_is_projected_onto_it():
    y = np.array([1.0, 1.0, -1.0, -1.0, -1.0])
    alpha = dual.project(np.array([5.0, -1.0, 0.5, 0.2, 3.0]), y, 2.0, True)
    assert np.all((alpha >= 0) & (alpha <= 2.0))
    assert abs(alpha @ y) <= 1e-12
    # the projection is the nearest feasible point: clip(alpha0 - mu y, 0, C) for one mu
    mu = 5.0 - alpha[0] if alpha[0] < 2.0 else None
    if mu is not None:
        np.testing.assert_allclose(alpha, np.clip(np.array([5.0, -1.0, 0.5, 0.2, 3.0]) - mu * y, 0, 2.0), atol=1e-12)


def test_a_warm_start_of_the_wrong_length_is_a_value_error():
    X, y = make_dataset("moons", 20, noise=0.1, random_state=0)
    with pytest.raises(ValueError, match="alpha0 must have one value per training point"):
        DualSVM().fit(X, y, alpha0=np.zeros(3))


# --- snapshots of the run, for the replay on lesson 3 ------------------------------------------------

@pytest.mark.parametrize("fit_intercept, C", [(True, 1.0), (True, np.inf), (False, 1.0), (True, 1000.0)])
def test_snapshots_start_at_zero_end_at_the_fit_and_each_names_the_alphas_its_step_moved(fit_intercept, C):
    X, y = make_dataset("moons", 100, noise=0.2 if C < np.inf else 0.0, random_state=0)
    model = DualSVM("rbf", C=C, gamma=2.0, fit_intercept=fit_intercept, tol=PAGE_TOL).fit(X, y)
    h = model.history_
    t, alpha, b = h["snapshot_t"], h["alpha"], h["b"]
    assert 3 <= t.size <= dual.SNAPSHOTS and alpha.shape == (t.size, y.size) and b.shape == (t.size,)
    assert t[0] == 0 and not alpha[0].any() and h["working_set"][0] == ()
    assert t[-1] == model.n_iter_ and np.all(np.diff(t) >= 0)
    np.testing.assert_array_equal(alpha[-1], model.alpha_)
    assert b[-1] == model.intercept_
    if not fit_intercept:
        np.testing.assert_array_equal(b, 0.0)
    for k in range(1, t.size):
        assert np.all(alpha[k] >= 0) and np.all(alpha[k] <= C)
        if fit_intercept:
            assert abs(alpha[k] @ y) <= 1e-9 * (1 + alpha[k].sum())
        ws = h["working_set"][k]
        if h["active_set"][k]:
            assert ws == ()
        else:
            # an SMO step moves its pair (i, j), i ≠ j; coordinate descent its one α
            assert len(ws) == (2 if fit_intercept else 1) and len(set(ws)) == len(ws)
            assert all(0 <= i < y.size for i in ws)


def test_a_snapshot_taken_right_after_a_step_shows_the_pair_that_step_moved():
    X, y = make_dataset("circles", 60, noise=0.1, random_state=0)
    model = DualSVM("rbf", C=1.0, gamma=2.0, tol=PAGE_TOL).fit(X, y)
    h = model.history_
    # step 1 from α = 0: exactly the pair of the first snapshot after the start moved
    k = int(np.flatnonzero(h["snapshot_t"] == 1)[0])
    moved = np.flatnonzero(h["alpha"][k] != h["alpha"][0])
    assert sorted(moved) == sorted(h["working_set"][k])


def test_a_warm_start_snapshot_begins_at_the_projected_alpha0():
    X, y = make_dataset("moons", 80, noise=0.2, random_state=1)
    first = DualSVM("rbf", C=1.0, gamma=2.0).fit(X, y)
    warm = DualSVM("rbf", C=2.0, gamma=2.0).fit(X, y, alpha0=first.alpha_)
    np.testing.assert_array_equal(warm.history_["alpha"][0], dual.project(first.alpha_, y, 2.0, True))


def test_a_long_run_keeps_at_most_SNAPSHOTS_and_marks_its_active_set_steps():
    X, y = make_dataset("spirals", 300, noise=0.3, random_state=0)
    model = DualSVM("rbf", C=1000.0, gamma=1.0, tol=PAGE_TOL).fit(X, y)
    h = model.history_
    assert model.n_iter_ > 1_000
    t = h["snapshot_t"]
    assert t.size == dual.SNAPSHOTS
    # log-spaced: more snapshots in the first tenth of the run than in its last half
    assert np.sum(t <= t[-1] / 10) > np.sum(t > t[-1] / 2)
    assert h["active_set"].any()
    np.testing.assert_array_equal(h["alpha"][-1], model.alpha_)


# --- one step rule, one polish: the single fit and the batch run the same functions ------------------

@pytest.mark.parametrize("offset", [True, False])
def test_the_single_fit_and_the_batch_take_identical_steps_on_the_same_problem(offset):
    from kernel_core import batch

    X, y = make_dataset("moons", 80, noise=0.3, random_state=2)
    K = rbf_kernel(X, gamma=2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)      # max_iter stops both before their first polish
        single = DualSVM("rbf", C=10.0, gamma=2.0, fit_intercept=offset, tol=PAGE_TOL, max_iter=60).fit(X, y)
    other = rbf_kernel(X[::-1], gamma=2.0)
    Ks, ys = np.array([other, K, K]), np.array([y[::-1], y, y])
    alpha = np.zeros_like(ys)
    taken = batch.steps(Ks, ys, 10.0, alpha, ys.copy(), PAGE_TOL, 60, offset)
    np.testing.assert_array_equal(taken, 60)
    np.testing.assert_array_equal(alpha[1], single.alpha_)
    np.testing.assert_array_equal(alpha[2], single.alpha_)


@pytest.mark.parametrize("offset", [True, False])
def test_the_polish_of_one_problem_is_its_polish_in_a_batch(offset):
    X, y = make_dataset("moons", 60, noise=0.3, random_state=4)
    K = rbf_kernel(X, gamma=1.0)
    alpha = np.clip(np.random.default_rng(0).uniform(-1, 3, size=60), 0.0, 2.0)
    if offset:
        alpha = dual.project(alpha, y, 2.0, True)
    v = y - K @ (alpha * y)
    from kernel_core.batch import in_memory

    one = dual.polish(dual.KernelRows(make_kernel("rbf", gamma=1.0), X), np.diag(K), y, 2.0, alpha, v, offset)[0]
    Ks = np.array([rbf_kernel(X, gamma=3.0), K])
    two = dual.polish(in_memory(Ks), np.einsum("pii->pi", Ks), np.array([y, y]), 2.0, np.array([alpha, alpha]),
                      np.array([y - Ks[0] @ (alpha * y), v]), offset)[0]
    np.testing.assert_allclose(two[1], one, rtol=0, atol=1e-12)


def test_a_fit_reading_kernel_rows_on_demand_is_the_fit_on_the_whole_gram_matrix(monkeypatch):
    from kernel_core.batch import fit_dual

    monkeypatch.setattr(dual, "WHOLE_GRAM_N", 1_000)
    X, y = make_dataset("circles", 1_100, noise=0.1, random_state=0)     # > dual.WHOLE_GRAM_N: rows on demand
    model = DualSVM("rbf", C=1.0, gamma=2.0, tol=1e-6).fit(X, y)
    alpha, b, ok, _ = fit_dual(rbf_kernel(X, gamma=2.0), y, 1.0, tol=1e-6)
    assert ok and model.converged_
    np.testing.assert_allclose(model.alpha_, alpha, atol=1e-6)
    assert model.intercept_ == pytest.approx(b, abs=1e-6)


def _face_system(rng, offset, k=40, rank=3):
    """A random face of k free alphas on a kernel of rank `rank`, K_FF = Z_F Z_Fᵀ: (Z_F, y_F, A), A the system polish
    builds, G_FF with, with the offset, b's row and column."""
    Z_F, yF = rng.normal(size=(k, rank)), rng.choice([-1.0, 1.0], size=k)
    m = k + 1 if offset else k
    A = np.zeros((m, m))
    A[:k, :k] = yF[:, None] * (Z_F @ Z_F.T) * yF[None, :]
    if offset:
        A[:k, k] = A[k, :k] = yF
    return Z_F, yF, A


@pytest.mark.parametrize("offset", [True, False])
def test_a_low_rank_face_with_an_optimum_is_solved_in_the_factors_dimensions(offset):
    rng = np.random.default_rng(7)
    Z_F, yF, A = _face_system(rng, offset)
    x0 = rng.normal(size=A.shape[0])
    x0[:40] -= yF * (yF @ x0[:40]) / 40              # y_Fᵀ x = 0, as polish's last row asks
    r = A @ x0                                       # in A's range: the face has an optimum
    x, work = dual._solve_low_rank(Z_F, yF, r, offset)
    np.testing.assert_allclose(A @ x, r, atol=1e-10 * np.abs(r).max())
    np.testing.assert_allclose(dual._low_rank_product(Z_F, yF, x, offset), A @ x, atol=1e-12 * np.abs(r).max())
    assert work < 40 ** 3


@pytest.mark.parametrize("offset", [True, False])
def test_a_low_rank_face_without_an_optimum_leaves_a_residual_the_face_system_maps_to_zero(offset):
    rng = np.random.default_rng(8)
    Z_F, yF, A = _face_system(rng, offset)
    r = rng.normal(size=A.shape[0])
    if offset:
        r[-1] = 0.0
    x, _ = dual._solve_low_rank(Z_F, yF, r, offset)
    rest = r - A @ x
    assert np.linalg.norm(rest) > 1e-3 * np.linalg.norm(r)       # a ray: the face has no optimum
    np.testing.assert_allclose(A @ rest, 0.0, atol=1e-10 * np.linalg.norm(r))
    # the residual is the part of r outside A's range, as least squares on the whole system leaves it
    np.testing.assert_allclose(rest, r - A @ np.linalg.lstsq(A, r, rcond=None)[0], atol=1e-10)


@pytest.mark.parametrize("kernel, params", [("linear", {}), ("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0})])
def test_a_fit_whose_faces_outgrow_the_kernels_rank_polishes_in_its_factor_and_matches_svc(kernel, params, monkeypatch):
    X, y = make_dataset("moons", 300, noise=0.3, random_state=3)
    calls = []
    low_rank = dual._solve_low_rank
    monkeypatch.setattr(dual, "_solve_low_rank", lambda *a: calls.append(a[0].shape) or low_rank(*a))
    ours = DualSVM(kernel, C=100.0, tol=1e-6, **params).fit(X, y)
    assert ours.converged_ and calls
    ref = SVC(kernel=kernel, C=100.0, tol=1e-8, **params).fit(X, y)
    K = make_kernel(kernel, **params)(X, X)
    np.testing.assert_allclose(ours.dual_objective_, sklearn_dual_objective(ref, K, y), rtol=1e-6)
    assert exact_gap(ours, X, y, kernel, 100.0, True, **params) <= 1e-6


def test_circles_n2000_linear_kernel_at_c1000_converges():
    X, y = make_dataset("circles", 2000, random_state=0)
    model = DualSVM("linear", C=1000.0, tol=1e-3).fit(X, y)
    assert model.converged_
    assert exact_gap(model, X, y, "linear", 1000.0, True) <= 1e-3


def test_kernel_rows_with_a_factor_give_k_times_c_and_bound_each_column():
    X, y = make_dataset("moons", 200, noise=0.3, random_state=5)
    K = make_kernel("linear")(X, X)
    rows = dual.KernelRows(make_kernel("linear"), X)
    rows.factor = X
    c = np.random.default_rng(6).normal(size=200) * (np.arange(200) % 3 == 0)
    np.testing.assert_allclose(rows.times(c), K @ c, rtol=1e-12, atol=1e-12 * np.abs(K).max())
    assert np.all(rows.column_max() >= np.abs(K).max(axis=0) * (1 - 1e-12))
