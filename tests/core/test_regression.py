"""LMS, kernel LMS, kernel ridge and kernel logistic regression against oracles."""

import warnings

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.linear_model import LogisticRegression, Ridge

from kernel_core.descent import LMS, KernelLMS, affine_powers, max_stable_eta
from kernel_core.feature_maps import FEATURE_MAPS, polynomial_features
from kernel_core.kernels import rbf_kernel
from kernel_core.logistic import KernelLogisticRegression
from kernel_core.ridge import SOLVE_BLOCK, KernelRidge, solve_lower, solve_regularized

CUBIC = FEATURE_MAPS["cubic_1d"]


def _house_prices(n=25, seed=0):
    """1-D regression data shaped like the notes' cubic house-price fit."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-1.0, 1.0, n))
    return x, 0.5 + x - 2.0 * x ** 3 + 0.1 * rng.normal(size=n)


def _classes(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.5 * rng.normal(size=n) > 0, 1.0, -1.0)
    return X, y


# --- LMS with explicit features -------------------------------------------------------------

def test_first_batch_step_from_zero_is_eta_phi_transpose_y():
    x, y = _house_prices()
    Phi = CUBIC.phi(x)
    model = LMS(eta=0.01, n_iter=1).fit(Phi, y)
    np.testing.assert_allclose(model.theta_, 0.01 * Phi.T @ y, rtol=1e-14)


def test_batch_lms_converges_to_least_squares():
    x, y = _house_prices()
    Phi = CUBIC.phi(x)
    model = LMS(n_iter=20_000).fit(Phi, y)
    theta_ls = np.linalg.lstsq(Phi, y, rcond=None)[0]
    np.testing.assert_allclose(model.theta_, theta_ls, rtol=1e-6)
    np.testing.assert_allclose(model.history_["theta"][-1], model.theta_, rtol=0)


def test_batch_lms_loss_never_increases_below_the_stable_step():
    x, y = _house_prices()
    Phi = CUBIC.phi(x)
    eta = 0.99 * max_stable_eta(Phi @ Phi.T)
    loss = LMS(eta=eta, n_iter=3000).fit(Phi, y).history_["loss"]
    assert np.all(np.diff(loss) <= 1e-12 * loss[0])
    assert loss[-1] < 0.05 * loss[0]


def test_history_samples_steps_zero_to_n_iter():
    x, y = _house_prices()
    h = LMS(eta=0.01, n_iter=1000).fit(CUBIC.phi(x), y).history_
    assert h["t"][0] == 0 and h["t"][-1] == 1000 and len(h["t"]) == 101
    assert h["theta"].shape == (101, 4) and np.all(h["theta"][0] == 0)
    assert h["loss"][0] == pytest.approx(0.5 * y @ y, rel=1e-14)


def test_stochastic_lms_visits_samples_in_sweeps_shuffled_by_the_seed():
    x, y = _house_prices(n=10)
    Phi = CUBIC.phi(x)
    eta, T = 0.05, 23
    rng = np.random.default_rng(7)
    order = np.concatenate([rng.permutation(10) for _ in range(3)])[:T]
    theta = np.zeros(4)
    for i in order:
        theta = theta + eta * (y[i] - theta @ Phi[i]) * Phi[i]
    model = LMS(eta=eta, n_iter=T, stochastic=True, random_state=7).fit(Phi, y)
    np.testing.assert_allclose(model.theta_, theta, rtol=1e-13)
    other = LMS(eta=eta, n_iter=T, stochastic=True, random_state=8).fit(Phi, y)
    assert not np.allclose(other.theta_, theta)


# --- kernel LMS equals LMS when K = ΦΦᵀ -------------------------------------------------------

def _explicit_and_kernel_cases():
    x, y = _house_prices()
    X2, _ = _classes(30, seed=3)
    y2 = np.sin(X2[:, 0]) + X2[:, 1] ** 2
    fm2 = FEATURE_MAPS["poly2_full"]
    return [
        ("cubic_1d", CUBIC.phi(x), x, y, {"kernel": CUBIC.kernel}),
        ("poly2_full", fm2.phi(X2), X2, y2, {"kernel": fm2.kernel}),
        ("registry poly", polynomial_features(X2, degree=3, gamma=0.5, coef0=1.0), X2, y2,
         {"kernel": "poly", "degree": 3, "gamma": 0.5, "coef0": 1.0}),
    ]


@pytest.mark.parametrize("stochastic", [False, True])
@pytest.mark.parametrize("case", range(3))
def test_kernel_lms_predicts_exactly_like_explicit_lms(case, stochastic):
    _, Phi, X, y, kernel_kw = _explicit_and_kernel_cases()[case]
    kw = {"n_iter": 3000, "stochastic": stochastic, "random_state": 42}
    explicit = LMS(**kw).fit(Phi, y)
    kernel = KernelLMS(**kernel_kw, **kw).fit(X, y)
    assert kernel.eta_ == pytest.approx(explicit.eta_, rel=1e-10)
    # θ_t = Φᵀβ_t at every recorded step, hence equal predictions everywhere
    np.testing.assert_allclose(kernel.history_["beta"] @ Phi, explicit.history_["theta"], rtol=1e-10,
                               atol=1e-10 * np.abs(explicit.theta_).max())
    np.testing.assert_allclose(kernel.predict(X), explicit.predict(Phi), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(kernel.history_["loss"], explicit.history_["loss"], rtol=1e-9)


def test_kernel_lms_on_new_points_uses_only_the_kernel():
    x, y = _house_prices()
    x_new = np.linspace(-1.2, 1.2, 17)
    explicit = LMS(n_iter=500).fit(CUBIC.phi(x), y)
    kernel = KernelLMS(CUBIC.kernel, n_iter=500).fit(x, y)
    np.testing.assert_allclose(kernel.predict(x_new), explicit.predict(CUBIC.phi(x_new)), rtol=1e-10, atol=1e-10)


def test_stochastic_kernel_step_updates_one_coefficient():
    x, y = _house_prices(n=8)
    model = KernelLMS("rbf", eta=0.5, n_iter=1, stochastic=True, random_state=0).fit(x, y)
    i = np.random.default_rng(0).permutation(8)[0]
    expected = np.zeros(8)
    expected[i] = 0.5 * y[i]
    np.testing.assert_array_equal(model.beta_, expected)


def test_max_stable_eta_is_two_over_the_largest_eigenvalue_and_diagonal():
    X, _ = _classes(20)
    K = rbf_kernel(X, gamma=0.5)
    assert max_stable_eta(K) == pytest.approx(2.0 / np.linalg.eigvalsh(K).max(), rel=1e-12)
    assert max_stable_eta(K, stochastic=True) == pytest.approx(2.0, rel=1e-12)   # K_ii = 1
    assert max_stable_eta(np.zeros((3, 3))) == np.inf
    with pytest.raises(ValueError, match="square"):
        max_stable_eta(np.zeros((3, 2)))


def test_default_eta_is_half_the_stable_limit():
    X, _ = _classes(20)
    y = X[:, 0]
    K = rbf_kernel(X)
    assert KernelLMS(n_iter=1).fit(X, y).eta_ == pytest.approx(0.5 * max_stable_eta(K), rel=1e-12)
    assert KernelLMS(n_iter=1, stochastic=True).fit(X, y).eta_ == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("make", [
    lambda eta: (KernelLMS("rbf", eta=eta, n_iter=2000), "K"),
    lambda eta: (LMS(eta=eta, n_iter=2000), "Phi"),
    lambda eta: (KernelLMS("rbf", eta=eta, n_iter=2000, stochastic=True, random_state=0), "Ks"),
    lambda eta: (LMS(eta=eta, n_iter=2000, stochastic=True, random_state=0), "Phis"),
])
def test_too_large_eta_stops_where_it_diverged_with_a_clear_warning_and_no_nan(make):
    x, y = _house_prices()
    K = rbf_kernel(x[:, None])
    Phi = CUBIC.phi(x)
    limits = {"K": max_stable_eta(K), "Ks": max_stable_eta(K, stochastic=True),
              "Phi": max_stable_eta(Phi @ Phi.T), "Phis": max_stable_eta(Phi @ Phi.T, stochastic=True)}
    model, kind = make(None)
    # the batch limit is sharp; the stochastic one only guarantees that no single step expands
    model.eta = (1.5 if kind in ("K", "Phi") else 4.0) * limits[kind]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(Phi if kind.startswith("Phi") else x, y)
    # one warning, ours (no overflow RuntimeWarning leaks), quoting the stable limit
    assert [str(w.message) for w in caught if "smaller eta" in str(w.message)] == [str(w.message) for w in caught]
    assert len(caught) == 1 and f"{limits[kind]:.4g}" in str(caught[0].message)
    loss = model.history_["loss"]
    assert model.diverged_ and np.all(np.isfinite(loss)) and loss.size == model.history_["t"].size
    assert loss[-1] > 1e3 * loss[0]      # the divergence is in the history, for the page to draw
    assert model.history_["t"][-1] < 2000


def test_eta_just_below_the_batch_limit_does_not_raise():
    x, y = _house_prices()
    eta = 0.999 * max_stable_eta(rbf_kernel(x[:, None]))
    loss = KernelLMS("rbf", eta=eta, n_iter=2000).fit(x, y).history_["loss"]
    assert np.all(np.isfinite(loss)) and loss[-1] < loss[0]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 7, 8, 50, 257])
def test_affine_powers_take_k_steps_of_x_to_ax_plus_b_at_once(k):
    rng = np.random.default_rng(k)
    A = 0.3 * rng.normal(size=(5, 5))
    b, x = rng.normal(size=5), rng.normal(size=5)
    looped = x.copy()
    for _ in range(k):
        looped = A @ looped + b
    power, shift = affine_powers(A, b, k)
    np.testing.assert_allclose(power @ x + shift, looped, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("T", [1, 99, 200, 1234])
def test_batch_runs_record_the_iterates_of_a_literal_step_loop(T):
    """Batch LMS and kernel LMS jump between recorded steps (affine_powers); the record must be the loop's."""
    x, y = _house_prices()
    K, Phi = rbf_kernel(x[:, None], gamma=5.0), CUBIC.phi(x)
    kernel_model = KernelLMS("rbf", gamma=5.0, n_iter=T).fit(x, y)
    lms = LMS(n_iter=T).fit(Phi, y)
    for model, params, update in ((kernel_model, "beta", lambda b: b + kernel_model.eta_ * (y - K @ b)),
                                  (lms, "theta", lambda th: th + lms.eta_ * (Phi.T @ (y - Phi @ th)))):
        current, seen = np.zeros(model.history_[params].shape[1]), {0: None}
        recorded = dict(zip(model.history_["t"].tolist(), model.history_[params]))
        for t in range(1, T + 1):
            current = update(current)
            if t in recorded:
                np.testing.assert_allclose(recorded[t], current, rtol=1e-9, atol=1e-12)
                seen[t] = None
        assert set(seen) == set(recorded) and T in recorded


# --- kernel ridge -----------------------------------------------------------------------------

KERNEL_CASES = [
    ("linear", {}),
    ("poly", {"degree": 2, "gamma": 1.0, "coef0": 0.0}),
    ("poly", {"degree": 3, "gamma": 0.5, "coef0": 1.0}),
    ("rbf", {}),
    ("rbf", {"gamma": 2.0}),
    ("laplacian", {"gamma": 0.3}),
    ("sigmoid", {"gamma": 0.1, "coef0": 0.5}),
]


@pytest.mark.parametrize("lam", [1e-3, 0.1, 10.0])
@pytest.mark.parametrize("kernel,kw", KERNEL_CASES)
def test_kernel_ridge_matches_sklearn(kernel, kw, lam):
    rng = np.random.default_rng(1)
    X, y, X_new = rng.normal(size=(30, 3)), rng.normal(size=30), rng.normal(size=(12, 3))
    ours = KernelRidge(kernel, lam=lam, **kw).fit(X, y)
    with warnings.catch_warnings():
        # sklearn's Cholesky refuses the indefinite sigmoid Gram and falls back to lstsq
        warnings.simplefilter("ignore", UserWarning)
        ref = SkKernelRidge(alpha=lam, kernel=kernel, **kw).fit(X, y)
    np.testing.assert_allclose(ours.beta_, ref.dual_coef_, rtol=1e-8, atol=1e-10 * np.abs(ref.dual_coef_).max())
    np.testing.assert_allclose(ours.predict(X_new), ref.predict(X_new), rtol=1e-8, atol=1e-10)


def test_linear_kernel_ridge_is_ridge_regression_without_intercept():
    rng = np.random.default_rng(2)
    X, y, X_new = rng.normal(size=(25, 4)), rng.normal(size=25), rng.normal(size=(9, 4))
    ours = KernelRidge("linear", lam=0.7).fit(X, y)
    ref = Ridge(alpha=0.7, fit_intercept=False).fit(X, y)
    np.testing.assert_allclose(ours.predict(X_new), ref.predict(X_new), rtol=1e-10)


def test_kernel_ridge_residual_solves_the_regularized_system():
    x, y = _house_prices()
    model = KernelRidge("rbf", lam=0.05, gamma=3.0).fit(x, y)
    K = rbf_kernel(x[:, None], gamma=3.0)
    np.testing.assert_allclose(K @ model.beta_ + 0.05 * model.beta_, y, rtol=1e-10, atol=1e-12)


def test_kernel_ridge_with_a_feature_map_kernel_is_ridge_on_its_features():
    x, y = _house_prices()
    ours = KernelRidge(CUBIC.kernel, lam=0.3).fit(x, y)
    ref = Ridge(alpha=0.3, fit_intercept=False).fit(CUBIC.phi(x), y)
    x_new = np.linspace(-1, 1, 7)
    np.testing.assert_allclose(ours.predict(x_new), ref.predict(CUBIC.phi(x_new)), rtol=1e-10, atol=1e-12)


def test_ridge_system_is_solved_by_cholesky_where_psd_and_by_lu_where_not(monkeypatch):
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(20, 2)), rng.normal(size=20)
    K = rbf_kernel(X, gamma=0.5)
    calls = []
    cholesky = np.linalg.cholesky
    monkeypatch.setattr(np.linalg, "cholesky", lambda A: calls.append(A.shape) or cholesky(A))
    beta = solve_regularized(K, 0.1, y)
    assert calls == [(20, 20)]
    ref = SkKernelRidge(alpha=0.1, kernel="precomputed").fit(K, y)
    np.testing.assert_allclose(beta, ref.dual_coef_, rtol=1e-10)
    indefinite = -3.0 * np.eye(20)          # K + λI = -2.9 I: Cholesky refuses it, LU solves it
    np.testing.assert_allclose(solve_regularized(indefinite, 0.1, y), y / -2.9, rtol=1e-12)


@pytest.mark.parametrize("transposed", [False, True])
def test_blocked_triangular_solve_matches_a_dense_solve(transposed):
    rng = np.random.default_rng(5)
    n = 3 * SOLVE_BLOCK + 17                 # several blocks and a short last one
    L = np.tril(rng.normal(size=(n, n))) + n * np.eye(n)
    b = rng.normal(size=n)
    x = solve_lower(L, b, transposed=transposed)
    np.testing.assert_allclose(x, np.linalg.solve(L.T if transposed else L, b), rtol=1e-12, atol=1e-14)


def test_kernel_ridge_over_many_solve_blocks_matches_sklearn():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(4 * SOLVE_BLOCK + 9, 2)), rng.normal(size=4 * SOLVE_BLOCK + 9)
    ours = KernelRidge("rbf", lam=0.05, gamma=0.5).fit(X, y)
    ref = SkKernelRidge(alpha=0.05, kernel="rbf", gamma=0.5).fit(X, y)
    np.testing.assert_allclose(ours.beta_, ref.dual_coef_, rtol=1e-8, atol=1e-10 * np.abs(ref.dual_coef_).max())


def test_kernel_ridge_leaves_a_callable_kernels_gram_untouched():
    rng = np.random.default_rng(4)
    X, y = rng.normal(size=(12, 2)), rng.normal(size=12)
    K = rbf_kernel(X, gamma=0.5)
    kept = K.copy()
    KernelRidge(lambda A, B: K, lam=0.1).fit(X, y)
    np.testing.assert_array_equal(K, kept)


@pytest.mark.parametrize("lam", [0.0, -1.0, np.nan, np.inf])
def test_kernel_ridge_rejects_nonpositive_lambda(lam):
    x, y = _house_prices()
    with pytest.raises(ValueError, match="lam"):
        KernelRidge(lam=lam).fit(x, y)


# --- kernel logistic regression ---------------------------------------------------------------

def _objective(beta, K, y, lam):
    f = K @ beta
    return np.sum(np.logaddexp(0.0, -y * f)) + 0.5 * lam * beta @ f


@pytest.mark.parametrize("lam", [0.1, 1.0])
def test_linear_kernel_logistic_regression_matches_sklearn_optimum(lam):
    X, y = _classes()
    ours = KernelLogisticRegression("linear", lam=lam, n_iter=3000).fit(X, y)
    ref = LogisticRegression(C=1.0 / lam, fit_intercept=False, tol=1e-12, max_iter=10_000).fit(X, y)
    X_new = np.random.default_rng(5).normal(size=(15, 2))
    np.testing.assert_allclose(ours.decision_function(X_new), ref.decision_function(X_new), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X_new), ref.predict_proba(X_new), rtol=1e-6, atol=1e-7)
    np.testing.assert_array_equal(ours.predict(X_new), ref.predict(X_new))


def test_rbf_kernel_logistic_regression_equals_logistic_regression_on_gram_features():
    # any Φ with ΦΦᵀ = K (here Φ = V√μ from K = V diag(μ) Vᵀ) turns the kernel problem into a
    # linear one in θ, well conditioned for sklearn and for scipy alike
    X, y = _classes(30, seed=4)
    lam = 0.5
    K = rbf_kernel(X, gamma=0.5)
    mu, V = np.linalg.eigh(K)
    Phi = V * np.sqrt(np.clip(mu, 0.0, None))
    ours = KernelLogisticRegression("rbf", lam=lam, gamma=0.5, n_iter=3000).fit(X, y)
    ref = LogisticRegression(C=1.0 / lam, fit_intercept=False, tol=1e-12, max_iter=10_000).fit(Phi, y)
    np.testing.assert_allclose(K @ ours.beta_, Phi @ ref.coef_[0], rtol=1e-6, atol=1e-7)

    def objective_theta(theta):
        return np.sum(np.logaddexp(0.0, -y * (Phi @ theta))) + 0.5 * lam * theta @ theta

    opt = minimize(objective_theta, np.zeros(30), method="BFGS", options={"gtol": 1e-10})
    np.testing.assert_allclose(_objective(ours.beta_, K, y, lam), opt.fun, rtol=1e-10)
    assert ours.history_["objective"][-1] == pytest.approx(_objective(ours.beta_, K, y, lam), rel=1e-12)


@pytest.mark.parametrize("kernel,kw", [("rbf", {"gamma": 1.0}), ("poly", {"degree": 2}), ("linear", {})])
def test_logistic_objective_decreases_at_every_step_with_the_default_eta(kernel, kw):
    X, y = _classes(seed=6)
    h = KernelLogisticRegression(kernel, lam=0.05, n_iter=400, **kw).fit(X, y).history_
    obj = h["objective"]
    assert obj[0] == pytest.approx(len(y) * np.log(2.0), rel=1e-14)
    assert np.all(np.diff(obj) <= 1e-12 * obj[0]) and obj[-1] < 0.8 * obj[0]


def test_logistic_step_is_the_notes_update_plus_weight_decay():
    X, y = _classes(12, seed=7)
    eta, lam = 0.05, 0.3
    K = rbf_kernel(X)
    y01 = (y + 1) / 2
    sigma = lambda s: 1.0 / (1.0 + np.exp(-s))  # noqa: E731
    beta = np.zeros(12)
    for _ in range(2):
        # the notes: β ← β + η(y − σ(Kβ)) with y ∈ {0, 1}; the ½‖θ‖² term adds −ηλβ
        beta = beta + eta * (y01 - sigma(K @ beta)) - eta * lam * beta
    model = KernelLogisticRegression("rbf", lam=lam, eta=eta, n_iter=2).fit(X, y)
    np.testing.assert_allclose(model.beta_, beta, rtol=1e-13)


def test_logistic_probabilities_are_sigmoid_of_f_in_class_order():
    X, y = _classes()
    model = KernelLogisticRegression("rbf", lam=0.1, n_iter=200).fit(X, y)
    f = model.decision_function(X)
    P = model.predict_proba(X)
    np.testing.assert_array_equal(model.classes_, [-1.0, 1.0])
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(P[:, 1], 1.0 / (1.0 + np.exp(-f)), rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X), np.where(f >= 0, 1.0, -1.0))
    assert np.mean(model.predict(X) == y) > 0.8


def test_logistic_too_large_eta_stops_with_a_warning():
    X, y = _classes()
    with pytest.warns(RuntimeWarning, match="smaller eta"):
        model = KernelLogisticRegression("rbf", lam=1.0, eta=5.0, n_iter=500).fit(X, y)
    assert model.diverged_ and np.all(np.isfinite(model.beta_))


def test_logistic_rejects_zero_one_labels_with_the_fix():
    X, y = _classes()
    with pytest.raises(ValueError, match="2\\*y - 1"):
        KernelLogisticRegression().fit(X, (y + 1) / 2)


# --- representer bumps ------------------------------------------------------------------------

@pytest.mark.parametrize("model", [KernelRidge("rbf", lam=0.1, gamma=5.0), KernelLMS("rbf", n_iter=300, gamma=5.0)])
def test_bumps_sum_to_the_regression_prediction(model):
    x, y = _house_prices()
    grid = np.linspace(-1.2, 1.2, 50)
    bumps = model.fit(x, y).bumps(grid)
    assert bumps.shape == (len(x), 50)
    np.testing.assert_allclose(bumps.sum(axis=0), model.predict(grid), rtol=1e-12, atol=1e-12)
    # each bump is β_j times a Gaussian centred at x_j
    j = 3
    np.testing.assert_allclose(bumps[j], model.beta_[j] * np.exp(-5.0 * (grid - x[j]) ** 2), rtol=1e-12)


def test_bumps_sum_to_the_logistic_decision_function():
    X, y = _classes()
    model = KernelLogisticRegression("rbf", n_iter=100).fit(X, y)
    X_new = np.random.default_rng(9).normal(size=(6, 2))
    np.testing.assert_allclose(model.bumps(X_new).sum(axis=0), model.decision_function(X_new), rtol=1e-12,
                               atol=1e-12)


# --- input validation -------------------------------------------------------------------------

MODELS = [
    lambda **kw: LMS(**kw),
    lambda **kw: KernelLMS("rbf", **kw),
    lambda **kw: KernelRidge("rbf", **kw),
]


@pytest.mark.parametrize("make", MODELS)
def test_regressors_reject_nan_inf_empty_and_mismatched_targets(make):
    X, y = np.ones((5, 2)), np.arange(5.0)
    for bad_X, bad_y, match in [
        (np.where(np.eye(5, 2) > 0, np.nan, 1.0), y, "NaN"),
        (X, np.array([0, 1, np.inf, 3, 4.0]), "NaN or infinite"),
        (np.ones((0, 2)), np.ones(0), "empty"),
        (X, np.arange(4.0), "one per sample"),
        (X, np.ones((5, 2)), "1-D"),
    ]:
        with pytest.raises(ValueError, match=match):
            make().fit(bad_X, bad_y)


@pytest.mark.parametrize("make", MODELS[:2] + [lambda **kw: KernelLogisticRegression(**kw)])
@pytest.mark.parametrize("kw,match", [({"eta": 0.0}, "eta"), ({"eta": -1.0}, "eta"), ({"n_iter": 0}, "n_iter"),
                                      ({"n_iter": 2.5}, "n_iter")])
def test_iterative_models_reject_bad_eta_and_n_iter(make, kw, match):
    X, _ = _classes(10)
    with pytest.raises(ValueError, match=match):
        make(**kw).fit(X, np.where(X[:, 0] > 0, 1.0, -1.0))


def test_kernel_overflow_is_reported_before_training():
    X = np.array([[1e3], [2e3], [3e3]])
    with pytest.raises(ValueError, match="infinite values on these points; lower γ or the degree"):
        KernelRidge("poly", degree=50, gamma=1.0).fit(X, np.arange(3.0))


def test_logistic_rejects_nonpositive_lambda():
    X, y = _classes(10)
    with pytest.raises(ValueError, match="lam"):
        KernelLogisticRegression(lam=0.0).fit(X, y)


@pytest.mark.parametrize("model", [LMS(), KernelLMS(), KernelRidge(), KernelLogisticRegression()])
def test_predict_before_fit_and_with_wrong_width_is_a_value_error(model):
    with pytest.raises(ValueError, match="not fitted"):
        model.predict(np.ones((2, 2)))
    X, y = _classes(10)
    model.fit(X, y)
    with pytest.raises(ValueError, match="features"):
        model.predict(np.ones((2, 3)))


# --- never write into the caller's Gram matrix -------------------------------------------------------

def test_kernel_ridge_leaves_the_callers_gram_matrix_untouched():
    X = np.linspace(-1, 1, 12)[:, None]
    y = np.sin(3 * X[:, 0])
    K = rbf_kernel(X, gamma=2.0)
    before = K.copy()

    def given(A, B):
        return K if A is B or (A.shape == B.shape and np.array_equal(A, B)) else rbf_kernel(A, B, gamma=2.0)

    model = KernelRidge(given, lam=0.1).fit(X, y)
    np.testing.assert_array_equal(K, before)
    np.testing.assert_allclose(model.beta_, np.linalg.solve(before + 0.1 * np.eye(12), y), rtol=1e-12)


def test_kernel_ridge_fits_with_a_read_only_gram_matrix():
    X = np.linspace(-1, 1, 12)[:, None]
    y = np.sin(3 * X[:, 0])

    def frozen(A, B):
        K = rbf_kernel(A, B, gamma=2.0)
        K.flags.writeable = False      # as a formula kernel's or a page's memoized Gram matrix
        return K

    model = KernelRidge(frozen, lam=0.1).fit(X, y)
    sk = SkKernelRidge(alpha=0.1, kernel="rbf", gamma=2.0).fit(X, y)
    np.testing.assert_allclose(model.predict(X), sk.predict(X), rtol=1e-10, atol=1e-12)
