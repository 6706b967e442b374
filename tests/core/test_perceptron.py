"""KernelPerceptron against an explicit θ-perceptron, Novikoff's bound and XOR."""

import warnings

import numpy as np
import pytest
from sklearn.metrics.pairwise import polynomial_kernel as sk_poly
from sklearn.svm import SVC

from datasets import blobs, linear, xor
from kernel_core.perceptron import KernelPerceptron

XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1.0, 1.0, -1.0, -1.0])


def explicit_perceptron(X, y, max_epochs):
    """Perceptron on θ through the origin; returns θ and the mistakes of every epoch."""
    theta = np.zeros(X.shape[1])
    thetas, counts, log = [], [], []
    for epoch in range(1, max_epochs + 1):
        count = 0
        for t in range(len(y)):
            if y[t] * (theta @ X[t]) <= 0:
                theta = theta + y[t] * X[t]
                count += 1
                log.append((epoch, t))
        thetas.append(theta)
        counts.append(count)
        if count == 0:
            break
    return np.array(thetas), counts, log


def max_margin_through_origin(X, y):
    """γ = max over unit θ of min_i y_i θ·x_i, from a hard-margin SVC on {(x, y), (−x, −y)}.

    The mirrored set is symmetric, so if (w, b) is its max-margin separator so is (w, −b);
    the optimum is unique, hence b = 0 and the separator passes through the origin.
    """
    clf = SVC(kernel="linear", C=1e10, tol=1e-10).fit(np.vstack([X, -X]), np.concatenate([y, -y]))
    w, b = clf.coef_[0], clf.intercept_[0]
    assert abs(b) < 1e-6 * np.linalg.norm(w)
    return np.min(y * (X @ w)) / np.linalg.norm(w)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_kernel_alpha_gives_the_explicit_perceptron_theta_every_epoch(seed):
    # with this jitter seeds 0 and 2 are separable and seed 1 is not (it runs all 200 epochs)
    X, y = linear(60, noise=0.3, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        model = KernelPerceptron("linear", max_epochs=200).fit(X, y)
    thetas, counts, log = explicit_perceptron(X, y, 200)
    assert model.n_epochs_ == len(counts)
    assert model.converged_ == (counts[-1] == 0)
    np.testing.assert_array_equal(model.history_["mistakes"], counts)
    np.testing.assert_array_equal(model.history_["mistake_log"], np.array(log).reshape(-1, 2))
    # θ = Σ_i α_i y_i x_i after each epoch
    np.testing.assert_allclose(model.history_["alpha"] * y @ X, thetas, rtol=1e-10, atol=1e-10)
    assert model.history_["n_mistakes"] == model.alpha_.sum() == sum(counts)


@pytest.mark.parametrize("gap", [0.3, 0.05])
@pytest.mark.parametrize("seed", range(4))
def test_separable_data_converge_within_novikoff_bound(seed, gap):
    X, y = linear(150, noise=0.0, random_state=seed, gap=gap)
    R = np.max(np.linalg.norm(X, axis=1))
    gamma = max_margin_through_origin(X, y)
    assert gamma >= gap * (1 - 1e-6)  # the generator keeps |x₁ + x₂|/√2 ≥ gap
    model = KernelPerceptron("linear").fit(X, y)
    assert model.converged_ and model.history_["mistakes"][-1] == 0
    assert model.alpha_.sum() <= (R / gamma) ** 2
    assert np.all(y * model.decision_function(X) > 0)


@pytest.mark.parametrize("kernel,kw", [("rbf", {"gamma": 2.0}), ("poly", {"degree": 3, "coef0": 0.5}),
                                       ("laplacian", {"gamma": 0.5})])
def test_mistakes_are_those_of_the_literal_loop_with_f_recomputed_at_every_visit(kernel, kw):
    """The fit keeps f current instead of recomputing Σ αᵢyᵢK(xᵢ, x_t) at each visit: same mistakes, same order."""
    from sklearn.metrics.pairwise import pairwise_kernels

    X, y = xor(60, noise=0.3, random_state=4)
    model = KernelPerceptron(kernel, max_epochs=15, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        model.fit(X, y)
    K = pairwise_kernels(X, metric={"poly": "polynomial"}.get(kernel, kernel), **{"gamma": 0.5, **kw})
    alpha, log, per_epoch = np.zeros(len(y), dtype=int), [], []
    for epoch in range(1, 16):
        for t in range(len(y)):
            if y[t] * (K[t] @ (alpha * y)) <= 0:
                alpha[t] += 1
                log.append((epoch, t))
        per_epoch.append(alpha.copy())
        if log and log[-1][0] != epoch:
            break
    np.testing.assert_array_equal(model.alpha_, alpha)
    np.testing.assert_array_equal(model.history_["alpha"], per_epoch[:model.n_epochs_])
    np.testing.assert_array_equal(model.history_["mistake_log"], np.array(log[:len(model.history_["mistake_log"])]))


def test_xor_is_not_separable_linearly_and_warns_naming_max_epochs():
    with pytest.warns(RuntimeWarning, match="max_epochs=50"):
        model = KernelPerceptron("linear", max_epochs=50).fit(XOR_X, XOR_Y)
    assert not model.converged_
    assert model.n_epochs_ == 50 and np.all(model.history_["mistakes"] > 0)


def test_xor_is_separated_by_the_degree_two_polynomial_kernel():
    model = KernelPerceptron("poly", degree=2, gamma=1.0, coef0=1.0).fit(XOR_X, XOR_Y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(XOR_X), XOR_Y)

    X, y = xor(200, noise=0.0, random_state=0)
    model = KernelPerceptron("poly", degree=2, gamma=1.0, coef0=1.0, max_epochs=1000).fit(X, y)
    assert model.converged_
    np.testing.assert_array_equal(model.predict(X), y)


def test_alpha_are_nonnegative_integer_mistake_counts():
    X, y = blobs(80, noise=1.0, random_state=0)
    with pytest.warns(RuntimeWarning):
        model = KernelPerceptron("linear", max_epochs=5).fit(X, y)
    assert model.alpha_.dtype.kind == "i" and np.all(model.alpha_ >= 0)
    np.testing.assert_array_equal(model.history_["alpha"][-1], model.alpha_)
    np.testing.assert_array_equal(np.diff(model.history_["alpha"].sum(axis=1)), model.history_["mistakes"][1:])


def test_decision_function_is_sum_of_alpha_y_times_kernel():
    X, y = xor(40, noise=0.1, random_state=3)
    Z = np.random.default_rng(1).normal(size=(9, 2))
    model = KernelPerceptron("poly", degree=2, gamma=0.5, coef0=1.0, max_epochs=300).fit(X, y)
    expected = sk_poly(Z, X, degree=2, gamma=0.5, coef0=1.0) @ (model.alpha_ * y)
    np.testing.assert_allclose(model.decision_function(Z), expected, rtol=1e-12, atol=1e-12)
    # a K(Z, X) computed elsewhere (here by scikit-learn) gives the same f; a wrong shape is refused
    gram = sk_poly(Z, X, degree=2, gamma=0.5, coef0=1.0)
    np.testing.assert_allclose(model.decision_function(Z, gram=gram), expected, rtol=1e-12, atol=1e-12)
    with pytest.raises(ValueError, match="gram must be"):
        model.decision_function(Z, gram=gram[:, :-1])


@pytest.mark.parametrize(
    "params, match",
    [
        ({"max_epochs": 0}, "max_epochs must be between 1 and 1000"),
        ({"max_epochs": 1001}, "max_epochs must be between 1 and 1000"),
        ({"max_epochs": 2.5}, "max_epochs must be a whole number"),
        ({"kernel": "cubic"}, "Unknown kernel"),
    ],
)
def test_bad_parameters_raise_value_error(params, match):
    with pytest.raises(ValueError, match=match):
        KernelPerceptron(**params).fit(XOR_X, XOR_Y)


def test_bad_data_raise_value_error():
    with pytest.raises(ValueError, match="y = 2\\*y - 1"):
        KernelPerceptron().fit(XOR_X, (XOR_Y + 1) / 2)
    with pytest.raises(ValueError, match="both classes"):
        KernelPerceptron().fit(XOR_X, np.ones(4))
    with pytest.raises(ValueError, match="not fitted"):
        KernelPerceptron().predict(XOR_X)
    model = KernelPerceptron("poly", degree=2).fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="same number of columns"):
        model.decision_function(np.ones((2, 3)))


# --- the ValueError contract -----------------------------------------------------------------------------

def test_perceptron_rejects_a_callable_kernel_of_the_wrong_shape_and_huge_ints():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0], [0.0, 2.0]])
    y = np.array([-1.0, 1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="must return the Gram matrix"):
        KernelPerceptron(lambda A, B: np.ones(3)).fit(X, y)
    with pytest.raises(ValueError, match="max_epochs is too large for float64"):
        KernelPerceptron(max_epochs=10**400).fit(X, y)
    with pytest.raises(ValueError, match="call fit first"):
        KernelPerceptron().decision_function(X)
