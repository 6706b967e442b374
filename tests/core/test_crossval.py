"""kernel_core.crossval: the validation grid against scikit-learn's cross_val_score with SVC on the same folds,
warm starts against cold fits, and one-vs-rest against OneVsRestClassifier(SVC)."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import cross_val_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC

import datasets
from kernel_core.batch import fit_dual
from kernel_core.crossval import cv_grid, fold_indices
from kernel_core.kernels import rbf_kernel
from kernel_core.multiclass import OneVsRest
from kernel_core.svm import DualSVM
from lab.state import C_VALUES, GAMMA_VALUES

# every cell of the default grid is compared where a few are cheap; these are spread over the grid
CELLS = [(0.1, 0.1), (1.0, 1.0), (10.0, 3.16), (100.0, 0.316), (1000.0, 31.6), (0.01, 100.0)]


@pytest.fixture(scope="module")
def moons():
    return datasets.DATASETS["moons"](90, noise=0.25, random_state=3)


def test_folds_are_stratified_cover_every_point_once_and_follow_the_seed(moons):
    _, y = moons
    folds = fold_indices(y, 5, seed=7)
    validated = np.concatenate([va for _, va in folds])
    np.testing.assert_array_equal(np.sort(validated), np.arange(y.size))
    for tr, va in folds:
        assert np.intersect1d(tr, va).size == 0 and tr.size + va.size == y.size
        assert abs(np.mean(y[va] > 0) - np.mean(y > 0)) < 0.1
    assert max(va.size for _, va in folds) - min(va.size for _, va in folds) <= 1
    again = fold_indices(y, 5, seed=7)
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(folds, again))
    other = fold_indices(y, 5, seed=8)
    assert not all(np.array_equal(a[1], b[1]) for a, b in zip(folds, other))


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_grid_accuracies_equal_sklearn_cross_val_score_on_the_same_folds(moons, kernel):
    X, y = moons
    Cs = sorted({c for c, _ in CELLS})
    gammas = sorted({g for _, g in CELLS})
    grid = cv_grid(X, y, kernel, Cs=Cs, gammas=gammas, k=5, seed=11, degree=3, coef0=1.0)
    folds = list(fold_indices(y, 5, seed=11))
    for C, gamma in CELLS:
        if kernel == "poly" and gamma > 3.2:
            continue   # (31.6 x·z + 1)³ on moons: libsvm and SMO both need minutes to 1e-9 there
        svc = SVC(kernel=kernel, C=C, gamma=gamma, degree=3, coef0=1.0, tol=1e-9, max_iter=10_000_000)
        expected = cross_val_score(svc, X, y, cv=folds, scoring="accuracy")
        i, j = Cs.index(C), gammas.index(gamma)
        np.testing.assert_allclose(grid.fold_validation[:, j, i], expected, atol=1e-12, err_msg=f"C={C}, γ={gamma}")
        assert grid.validation[j, i] == pytest.approx(expected.mean(), abs=1e-12)


def test_every_cell_of_the_lessons_grid_is_the_cold_fit_of_dualsvm(moons):
    """Warm starts change the path, never the answer: every cell of the slider grids equals a cold fit."""
    X, y = moons
    warm = cv_grid(X, y, "rbf", Cs=C_VALUES, gammas=GAMMA_VALUES, k=3, seed=0)
    cold = cv_grid(X, y, "rbf", Cs=C_VALUES, gammas=GAMMA_VALUES, k=3, seed=0, warm_start=False)
    assert not np.isnan(warm.validation).any()
    np.testing.assert_array_equal(warm.fold_validation, cold.fold_validation)
    # a degenerate dual has many optima: a point may end at α = 0 on one path and at α = 1e-9 on the other
    np.testing.assert_allclose(warm.n_sv, cold.n_sv, atol=1.0)
    assert warm.steps < cold.steps
    # and a cell against DualSVM on the fold's points themselves (kernel evaluated by the model)
    tr, va = fold_indices(y, 3, seed=0)[1]
    model = DualSVM("rbf", C=C_VALUES[12], gamma=GAMMA_VALUES[8], tol=1e-6).fit(X[tr], y[tr])
    f = model.decision_function(X[va])
    assert warm.fold_validation[1, 8, 12] == np.mean(np.where(f > 0, 1.0, -1.0) == y[va])


def test_fit_dual_on_a_gram_matrix_is_dualsvm(moons):
    X, y = moons
    K = rbf_kernel(X, gamma=2.0)
    alpha, b, ok, _ = fit_dual(K, y, 3.0, tol=1e-9)
    model = DualSVM("rbf", gamma=2.0, C=3.0, tol=1e-9).fit(X, y)
    assert ok
    np.testing.assert_allclose(alpha, model.alpha_, atol=1e-7)
    assert b == pytest.approx(model.intercept_, abs=1e-7)


def test_grid_rejects_bad_input_with_a_message(moons):
    X, y = moons
    with pytest.raises(ValueError, match="at least 5 points"):
        fold_indices(y[:3], 5)
    with pytest.raises(ValueError, match="C must be"):
        cv_grid(X, y, Cs=[-1.0], gammas=[1.0])
    with pytest.raises(ValueError, match="cells"):
        cv_grid(X, y, Cs=[], gammas=[1.0])


def three_blobs():
    return datasets.DATASETS["blobs3"](120, noise=0.6, random_state=5)


@pytest.mark.parametrize("kernel, C, gamma", [("rbf", 1.0, 1.0), ("rbf", 100.0, 3.16), ("poly", 0.3, 0.5)])
def test_one_vs_rest_predicts_as_sklearn_one_vs_rest_svc(kernel, C, gamma):
    X, y = three_blobs()
    assert set(np.unique(y)) == {-1.0, 1.0, 2.0}
    ours = OneVsRest(DualSVM(kernel, C=C, gamma=gamma, tol=1e-9)).fit(X, y)
    theirs = OneVsRestClassifier(SVC(kernel=kernel, C=C, gamma=gamma, coef0=1.0, tol=1e-9)).fit(X, y)
    rng = np.random.default_rng(0)
    P = np.vstack([X, rng.uniform(-4, 4, size=(400, 2))])
    np.testing.assert_allclose(ours.decision_function(P), theirs.decision_function(P), atol=1e-6)
    np.testing.assert_array_equal(ours.predict(P), theirs.predict(P))
    np.testing.assert_array_equal(ours.classes_, theirs.classes_)


def _dualsvm_fold_accuracies(X, y, kernel, C, gamma, folds, fit_intercept, margin=None):
    """Each fold's validation accuracy of a cold DualSVM fit to 1e-9 on the fold's own points; margin: a list that
    receives the smallest |f| of the validation points."""
    out = []
    for tr, va in folds:
        model = DualSVM(kernel, C=C, gamma=gamma, degree=3, coef0=1.0, fit_intercept=fit_intercept,
                        tol=1e-9).fit(X[tr], y[tr])
        f = model.decision_function(X[va])
        out.append(np.mean(np.where(f > 0, 1.0, -1.0) == y[va]))
        if margin is not None:
            margin.append(np.abs(f).min())
    return np.array(out)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_the_batched_fits_are_dualsvms_cold_fits_cell_by_cell(moons, fit_intercept):
    """The (fold, γ) problems solved side by side, warm along C: every fold of every cell as a cold DualSVM fit."""
    X, y = moons
    Cs, gammas = [0.1, 3.16, 100.0], [0.316, 3.16]
    grid = cv_grid(X, y, "rbf", Cs=Cs, gammas=gammas, k=4, seed=2, fit_intercept=fit_intercept)
    folds = fold_indices(y, 4, seed=2)
    for i, C in enumerate(Cs):
        for j, gamma in enumerate(gammas):
            expected = _dualsvm_fold_accuracies(X, y, "rbf", C, gamma, folds, fit_intercept)
            np.testing.assert_array_equal(grid.fold_validation[:, j, i], expected, err_msg=f"C={C}, γ={gamma}")


@settings(max_examples=15, deadline=None)
# a polished alpha one ulp below C counted as free, and b was read off it instead of LIBSVM's midpoint
@example(seed=0, n=12, noise=0.5, kernel="rbf", Cs=[0.01, 0.178], gamma=0.01)
@given(seed=st.integers(0, 10_000), n=st.integers(12, 40), noise=st.floats(0.05, 0.6),
       kernel=st.sampled_from(["rbf", "poly", "laplacian"]),
       Cs=st.lists(st.sampled_from(list(C_VALUES)), min_size=1, max_size=3, unique=True),
       gamma=st.sampled_from(list(GAMMA_VALUES[:12])))
def test_any_grid_is_dualsvms_cold_fits(seed, n, noise, kernel, Cs, gamma):
    X, y = datasets.DATASETS["moons"](n, noise=noise, random_state=seed)
    grid = cv_grid(X, y, kernel, Cs=Cs, gammas=[gamma, 2 * gamma], k=3, seed=seed)
    folds = fold_indices(y, 3, seed=seed)
    for i, C in enumerate(sorted(Cs)):
        column = grid.fold_validation[:, 0, list(grid.Cs).index(C)]
        if np.isnan(column).any():
            continue        # a fit that did not converge is blank, not a number to compare
        margin = []
        expected = _dualsvm_fold_accuracies(X, y, kernel, C, gamma, folds, True, margin)
        if min(margin) < 1e-4:
            continue        # a validation point on the boundary, where a fit to tol 1e-6 may put it either side
        np.testing.assert_array_equal(column, expected, err_msg=f"C={C}")


def test_one_vs_rest_stores_its_estimator_and_fits_one_copy_of_it_per_class():
    X, y = three_blobs()
    svm = DualSVM("poly", C=2.0, gamma=0.5, degree=2, coef0=0.5, fit_intercept=False, tol=1e-6, max_iter=5_000)
    model = OneVsRest(svm)
    assert model.estimator is svm and not hasattr(model, "params")
    assert model.fit(X, y) is model
    assert not hasattr(svm, "alpha_")                  # the estimator given stays unfitted: copies are fitted
    np.testing.assert_array_equal(model.classes_, [-1.0, 1.0, 2.0])
    assert len(model.estimators_) == 3
    for c, estimator in zip(model.classes_, model.estimators_):
        assert (estimator.kernel, estimator.C, estimator.degree, estimator.fit_intercept) == ("poly", 2.0, 2, False)
        np.testing.assert_array_equal(estimator.predict(X) > 0, estimator.decision_function(X) >= 0)
    assert model.decision_function(X).shape == (y.size, 3)
