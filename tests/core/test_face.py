"""The polish's face system kept from step to step (kernel_core.face): its bordered and downdated inverse solves
every face as a fresh solve does, it notices when it cannot be trusted, and fits polished with it are the fits
polished with a fresh LU per step."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_breast_cancer
from sklearn.svm import SVC

from datasets import make_dataset
from kernel_core import dual, face
from kernel_core.kernels import make_kernel
from kernel_core.svm import DualSVM


def fresh_system(K, y, F, offset):
    """The face system of F as polish builds it, in F's order: [[G_FF, y_F], [y_Fᵀ, 0]] (G_FF without the offset)."""
    yF = y[F]
    m = F.size
    A = np.zeros((m + offset, m + offset))
    A[:m, :m] = yF[:, None] * K[np.ix_(F, F)] * yF
    if offset:
        A[:m, m] = A[m, :m] = yF
    return A


def points(n, seed, gamma=0.5):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, 3))
    y = np.where(rng.standard_normal(n) > 0, 1.0, -1.0)
    k = make_kernel("rbf", gamma=gamma)
    return X, y, k, k(X, X)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), offset=st.booleans(),
       changes=st.lists(st.integers(1, 3), min_size=5, max_size=40))
def test_an_updated_face_system_solves_every_face_as_a_fresh_solve_does(seed, offset, changes):
    # a walk over faces changing by one to three indices, as active-set steps change them: at every step the kept
    # system is the fresh one of the same F, and its solve is the fresh solve's (a drifting inverse fails this)
    n = 60
    X, y, k, K = points(n, seed)
    rng = np.random.default_rng(seed + 1)
    free = np.zeros(n, dtype=bool)
    free[rng.choice(n, 8, replace=False)] = True
    system = face.FaceSystem(dual.KernelRows(k, X), y, offset)
    updated = 0
    for size in changes:
        flip = rng.choice(n, size, replace=False)
        free[flip] = ~free[flip]
        if not free.any():
            free[flip[0]] = True
        was = system.inverse
        F = system.face(free, np.flatnonzero(free))
        assert sorted(F) == list(np.flatnonzero(free))
        A = fresh_system(K, y, F, offset)
        # (K's rows may differ from its columns in the last bit)
        np.testing.assert_allclose(system.matrix(), A, rtol=0, atol=1e-15)
        np.testing.assert_allclose(system.rows_F(), K[F], rtol=0, atol=1e-15)
        m = A.shape[0]
        if system.inverse:                          # the updated inverse, before a solve could set it aside
            np.testing.assert_allclose(system.P[:m, :m] @ A, np.eye(m), rtol=0, atol=1e-8)
        r = np.append(y[F] * rng.standard_normal(F.size), 0.0) if offset else y[F] * rng.standard_normal(F.size)
        x, rest, _ = system.solve(r)
        assert x is not None
        np.testing.assert_allclose(x, np.linalg.solve(A, r), rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(rest, r - A @ x, rtol=0, atol=1e-12)
        updated += was and system.inverse
    assert updated > 0 or len(changes) < 3


@pytest.mark.parametrize("offset", [True, False])
def test_a_face_system_whose_inverse_drifted_solves_afresh(offset):
    X, y, k, K = points(40, 0)
    free = np.zeros(40, dtype=bool)
    free[:12] = True
    system = face.FaceSystem(dual.KernelRows(k, X), y, offset)
    r = np.append(y[:12], 0.0) if offset else y[:12].copy()
    for _ in range(2):                              # the second solve of a polish forms the inverse
        system.face(free, np.flatnonzero(free))
        system.solve(r)
    assert system.inverse
    system.P[:3, :3] += 1e-3                        # an inverse that no longer is A's
    x, rest, _ = system.solve(r)
    A = fresh_system(K, y, system.F, offset)
    np.testing.assert_allclose(x, np.linalg.solve(A, r), rtol=1e-10, atol=1e-10)
    assert not system.inverse and system.hopeless


@pytest.mark.parametrize("offset", [True, False])
def test_a_singular_face_is_left_to_least_squares_not_to_an_inverse(offset):
    # duplicate points make G_FF singular: no inverse is kept, and solve says it found no exact x (polish then
    # solves by least squares, as it always did)
    X, y, k, _ = points(20, 1)
    X = np.vstack([X, X[:4]])
    y = np.append(y, y[:4])
    free = np.zeros(24, dtype=bool)
    free[[0, 1, 2, 3, 20, 21, 22, 23, 5]] = True
    system = face.FaceSystem(dual.KernelRows(k, X), y, offset)
    r = np.append(y[free], 0.0) + 1.0 if offset else y[free] + 1.0
    for _ in range(3):
        system.face(free, np.flatnonzero(free))
        x, rest, _ = system.solve(r)
        assert not system.inverse
        assert x is None or np.abs(rest).max() <= face.EXACT * (1.0 + np.abs(r).max())


def breast_cancer():
    cancer = load_breast_cancer()
    return (cancer.data - cancer.data.mean(axis=0)) / cancer.data.std(axis=0), 2.0 * cancer.target - 1.0


@pytest.mark.parametrize("data, kernel, gamma, C, offset", [
    ("breast_cancer", "rbf", None, 1000.0, True),      # faces of ~75 free alphas
    ("breast_cancer", "poly", None, 100.0, True),
    ("spirals", "rbf", 10.0, 1000.0, True),
    ("spirals", "rbf", 10.0, 100.0, False),
])
def test_a_fit_polished_with_the_kept_system_is_the_fit_polished_with_a_fresh_lu_per_step(data, kernel, gamma, C,
                                                                                           offset, monkeypatch):
    X, y = breast_cancer() if data == "breast_cancer" else make_dataset(data, 300, noise=0.3, random_state=0)
    gamma = gamma or 1.0 / (X.shape[1] * X.var())
    params = dict(C=C, gamma=gamma, degree=3, coef0=1.0, fit_intercept=offset, tol=1e-9)
    updates = []
    for name in ("_append", "_drop"):
        def counted(self, i, update=getattr(face.FaceSystem, name)):
            updates.append(self.inverse)
            update(self, i)
        monkeypatch.setattr(face.FaceSystem, name, counted)
    kept = DualSVM(kernel, **params).fit(X, y)
    assert sum(updates) >= 3                        # the inverse was updated, not formed afresh each step
    monkeypatch.setattr(face, "COND_MAX", 0.0)     # no inverse is ever trusted: a fresh LU per step
    fresh = DualSVM(kernel, **params).fit(X, y)
    assert kept.converged_ and fresh.converged_
    K = make_kernel(kernel, gamma=gamma, degree=3, coef0=1.0)(X, X)
    for model in (kept, fresh):
        v = y - K @ (model.alpha_ * y)
        assert dual.kkt_gap(model.alpha_, y, v, C, offset) <= 2e-9
    assert kept.dual_objective_ == pytest.approx(fresh.dual_objective_, rel=1e-12)
    np.testing.assert_allclose(kept.alpha_, fresh.alpha_, rtol=0, atol=1e-6 * C)
    if offset:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            svc = SVC(kernel=kernel, C=C, gamma=gamma, degree=3, coef0=1.0, tol=1e-6).fit(X, y)
        alpha = np.zeros(len(y))
        alpha[svc.support_] = np.abs(svc.dual_coef_[0])
        svc_objective = alpha.sum() - 0.5 * (alpha * y) @ K @ (alpha * y)
        assert kept.dual_objective_ >= svc_objective - 1e-6 * abs(svc_objective)
