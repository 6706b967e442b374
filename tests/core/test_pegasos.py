"""KernelPegasos against a literal Algorithm 1, direct objectives and the exact SVM optimum."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics.pairwise import linear_kernel as sk_linear
from sklearn.metrics.pairwise import polynomial_kernel as sk_poly
from sklearn.metrics.pairwise import rbf_kernel as sk_rbf

from datasets import circles, moons
from kernel_core.pegasos import HISTORY_POINTS, KernelPegasos


def algorithm_1(K, y, lam, T, seed):
    """Lecture 8, Algorithm 1 line by line; returns β^1..β^{T+1} and α^1..α^T."""
    rng = np.random.default_rng(seed)
    n = len(y)
    betas = [np.zeros(n)]
    alphas = []
    for t in range(1, T + 1):
        alpha = betas[-1] / (lam * t)
        alphas.append(alpha)
        i = rng.integers(n)
        beta = betas[-1].copy()
        if y[i] * sum(alpha[j] * K[j, i] for j in range(n)) < 1:
            beta[i] = beta[i] + y[i]
        betas.append(beta)
    return np.array(betas), np.array(alphas)


def objective(alpha, K, y, lam):
    """λ/2 αᵀKα + (1/n) Σ max(0, 1 − y_i (Kα)_i), recomputed from scratch."""
    return 0.5 * lam * alpha @ K @ alpha + np.mean(np.maximum(0.0, 1.0 - y * (K @ alpha)))


def test_fit_reproduces_literal_algorithm_1_step_by_step():
    X, y = moons(40, noise=0.2, random_state=3)
    lam, T, seed = 0.013, HISTORY_POINTS, 11
    model = KernelPegasos("rbf", lam=lam, n_iter=T, gamma=0.7, random_state=seed).fit(X, y)
    betas, alphas = algorithm_1(sk_rbf(X, gamma=0.7), y, lam, T, seed)

    np.testing.assert_array_equal(model.beta_, betas[-1])
    np.testing.assert_allclose(model.alpha_, alphas.mean(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(model.alpha_last_, alphas[-1], rtol=1e-12, atol=1e-12)
    assert model.n_iter_ == T
    # T ≤ HISTORY_POINTS, so every step is recorded: replay the sampled indices and the update flags
    h = model.history_
    np.testing.assert_array_equal(h["t"], np.arange(1, T + 1))
    rng = np.random.default_rng(seed)
    np.testing.assert_array_equal(h["i"], [rng.integers(len(y)) for _ in range(T)])
    np.testing.assert_array_equal(h["updated"], np.any(np.diff(betas, axis=0) != 0, axis=1))


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(2, 12),
    lam=st.floats(1e-3, 1.0),
    T=st.integers(1, 700),
    seed=st.integers(0, 2**16),
    kernel=st.sampled_from(["linear", "rbf", "poly"]),
)
def test_incremental_objectives_equal_direct_recomputation(n, lam, T, seed, kernel):
    X, y = circles(n, noise=0.2, random_state=seed)
    oracle = {"linear": sk_linear(X), "rbf": sk_rbf(X, gamma=0.5), "poly": sk_poly(X, degree=3, gamma=0.5, coef0=1.0)}
    K = oracle[kernel]
    model = KernelPegasos(kernel, lam=lam, n_iter=T, gamma=0.5, random_state=seed).fit(X, y)
    _, alphas = algorithm_1(K, y, lam, T, seed)
    h = model.history_
    assert 1 <= len(h["t"]) <= HISTORY_POINTS and h["t"][0] == 1 and h["t"][-1] == T
    for k, t in enumerate(h["t"]):
        a_last, a_avg = alphas[t - 1], alphas[:t].mean(axis=0)
        np.testing.assert_allclose(h["objective_last"][k], objective(a_last, K, y, lam), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(h["objective_avg"][k], objective(a_avg, K, y, lam), rtol=1e-9, atol=1e-12)
        assert h["violations"][k] == np.count_nonzero(y * (K @ a_last) < 1)
    for k, t in enumerate(h["snapshot_t"]):
        np.testing.assert_allclose(h["alpha"][k], alphas[t - 1], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(h["alpha_avg"][k], alphas[:t].mean(axis=0), rtol=1e-12, atol=1e-12)


def test_history_stays_bounded_for_the_largest_T():
    X, y = circles(10, random_state=0)
    h = KernelPegasos(lam=0.1, n_iter=200_000, random_state=0).fit(X, y).history_
    assert len(h["t"]) <= HISTORY_POINTS and len(h["snapshot_t"]) <= 100
    # spaced evenly in log t: the first 20 steps are all there, and the gaps grow
    assert np.array_equal(h["t"][:20], np.arange(1, 21)) and np.all(np.diff(np.diff(np.log(h["t"][50:]))) < 1e-2)
    assert h["t"][0] == 1 and h["t"][-1] == 200_000 and np.all(np.diff(h["t"]) > 0)
    assert h["alpha"].shape == h["alpha_avg"].shape == (len(h["snapshot_t"]), 10)


def test_averaged_objective_approaches_the_svm_optimum():
    from kernel_core.svm import DualSVM

    X, y = circles(80, noise=0.1, random_state=0)
    lam, gamma = 0.02, 1.0
    n = len(y)
    # λ/2‖w‖² + (1/n)Σ max(0, 1 − y_i f(x_i)) = λ (½‖w‖² + C Σ ξ_i) with C = 1/(λn) and
    # ξ_i the hinge, so its minimum is λ times the SVM (no offset) optimum, which strong
    # duality equates with the dual optimum Σα − ½αᵀGα.
    ref = DualSVM("rbf", C=1.0 / (lam * n), gamma=gamma, fit_intercept=False, tol=1e-8).fit(X, y)
    optimum = lam * ref.dual_objective_

    short = KernelPegasos("rbf", lam=lam, n_iter=500, gamma=gamma, random_state=0).fit(X, y)
    long = KernelPegasos("rbf", lam=lam, n_iter=20_000, gamma=gamma, random_state=0).fit(X, y)
    gap_short = short.history_["objective_avg"][-1] - optimum
    gap_long = long.history_["objective_avg"][-1] - optimum
    assert gap_long < gap_short
    assert gap_long < 0.01 * optimum

    # every α gives a feasible w, so no objective can fall below the optimum
    for model in (short, long):
        for key in ("objective_last", "objective_avg"):
            assert np.all(model.history_[key] >= optimum - 1e-7 * optimum)

    # λ-strong convexity: ‖ŵ − w*‖² ≤ 2 gap / λ, and |f(x) − f*(x)| ≤ ‖ŵ − w*‖ since K(x, x) = 1
    bound = np.sqrt(2.0 * gap_long / lam)
    diff = long.decision_function(X) - ref.decision_function(X)
    assert np.max(np.abs(diff)) <= bound + 1e-6

    # the signed Pegasos α̂ line up with y_j α_j of the SVM dual as T grows
    corr = [np.corrcoef(m.alpha_, y * ref.alpha_)[0, 1] for m in (short, long)]
    assert corr[0] < corr[1] and corr[1] > 0.95


def test_decision_function_is_sum_of_alpha_hat_times_kernel():
    X, y = moons(30, random_state=1)
    Z = np.random.default_rng(0).normal(size=(7, 2))
    model = KernelPegasos("rbf", lam=0.05, n_iter=300, gamma=2.0, random_state=4).fit(X, y)
    np.testing.assert_allclose(model.decision_function(Z), sk_rbf(Z, X, gamma=2.0) @ model.alpha_,
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.predict(Z), np.where(sk_rbf(Z, X, gamma=2.0) @ model.alpha_ >= 0, 1.0, -1.0))


def test_same_random_state_gives_the_same_fit_and_another_differs():
    X, y = moons(50, random_state=2)
    a = KernelPegasos(lam=0.01, n_iter=500, random_state=7).fit(X, y)
    b = KernelPegasos(lam=0.01, n_iter=500, random_state=7).fit(X, y)
    c = KernelPegasos(lam=0.01, n_iter=500, random_state=8).fit(X, y)
    np.testing.assert_array_equal(a.alpha_, b.alpha_)
    np.testing.assert_array_equal(a.history_["objective_avg"], b.history_["objective_avg"])
    assert not np.array_equal(a.beta_, c.beta_)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"lam": 0.0}, "lam must be > 0"),
        ({"lam": -1.0}, "lam must be > 0"),
        ({"lam": np.nan}, "lam must be a finite"),
        ({"n_iter": 0}, "n_iter must be between 1 and 200000"),
        ({"n_iter": 200_001}, "n_iter must be between 1 and 200000"),
        ({"n_iter": 2.5}, "n_iter must be a whole number"),
        ({"kernel": "cubic"}, "Unknown kernel"),
    ],
)
def test_bad_parameters_raise_value_error(params, match):
    X, y = moons(20, random_state=0)
    with pytest.raises(ValueError, match=match):
        KernelPegasos(**params).fit(X, y)


def test_bad_data_raise_value_error():
    X, y = moons(20, random_state=0)
    with pytest.raises(ValueError, match="y = 2\\*y - 1"):
        KernelPegasos().fit(X, (y + 1) / 2)
    with pytest.raises(ValueError, match="one label per sample"):
        KernelPegasos().fit(X, y[:-1])
    with pytest.raises(ValueError, match="NaN"):
        KernelPegasos().fit(np.where(np.arange(40).reshape(20, 2) == 3, np.nan, X), y)
    with pytest.raises(ValueError, match="not fitted"):
        KernelPegasos().decision_function(X)
    model = KernelPegasos(n_iter=10).fit(X, y)
    with pytest.raises(ValueError, match="same number of columns"):
        model.decision_function(np.ones((3, 3)))


def test_decision_function_of_a_history_snapshot_is_k_times_that_snapshot():
    X, y = circles(40, noise=0.1, random_state=3)
    model = KernelPegasos("rbf", lam=0.05, n_iter=300, gamma=1.0, random_state=0).fit(X, y)
    Z = np.random.default_rng(1).normal(size=(7, 2))
    snapshot = model.history_["alpha"][len(model.history_["alpha"]) // 2]
    np.testing.assert_allclose(model.decision_function(Z, alpha=snapshot), sk_rbf(Z, X, gamma=1.0) @ snapshot,
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(model.decision_function(Z), model.decision_function(Z, alpha=model.alpha_))
    with pytest.raises(ValueError, match="one coefficient per training point"):
        model.decision_function(Z, alpha=snapshot[:-1])


def test_a_given_cross_gram_gives_the_same_f_and_a_wrong_shape_is_refused():
    X, y = circles(40, noise=0.1, random_state=3)
    model = KernelPegasos("rbf", lam=0.05, n_iter=300, gamma=1.0, random_state=0).fit(X, y)
    Z = np.random.default_rng(1).normal(size=(7, 2))
    gram = sk_rbf(Z, X, gamma=1.0)   # scikit-learn's K(Z, X), not the model's own
    snapshot = model.history_["alpha"][3]
    np.testing.assert_allclose(model.decision_function(Z, alpha=snapshot, gram=gram),
                               model.decision_function(Z, alpha=snapshot), rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match=r"gram must be K\(X, X_fit\) of shape \(7, 40\)"):
        model.decision_function(Z, gram=gram.T)


# --- the ValueError contract -----------------------------------------------------------------------------

def test_pegasos_rejects_a_callable_kernel_of_the_wrong_shape_and_huge_ints():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]])
    y = np.array([-1.0, 1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="must return the Gram matrix"):
        KernelPegasos(lambda A, B: A @ B.T[:, :1]).fit(X, y)
    with pytest.raises(ValueError, match="n_iter is too large for float64"):
        KernelPegasos(n_iter=10**400).fit(X, y)
    with pytest.raises(ValueError, match="call fit first"):
        KernelPegasos().predict(X)
