"""One-vs-rest: more than two classes from binary kernel SVMs.

Notation (n samples, c classes, m query points)
    y        (n,)    labels, any values (c >= 2 distinct ones)
    classes_ (c,)    the sorted distinct labels
    f        (m, c)  f_c(x), the decision value of the SVM of class c against the rest
"""

import numpy as np

from .svm import DualSVM
from .validation import check_array


class OneVsRest:
    """One binary kernel SVM (DualSVM, ±1 labels) per class: class c against all the others. The combined
    decision is the class whose SVM gives the largest decision value (argmax), as scikit-learn's
    OneVsRestClassifier predicts. Parameters as DualSVM's, stored under the same names.

    Attributes: classes_ (sorted labels), estimators_ (one fitted DualSVM per class, in classes_ order).
    """

    def __init__(self, kernel="rbf", *, C=1.0, gamma=None, degree=3, coef0=1.0, fit_intercept=True, tol=1e-3,
                 max_iter=100_000):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter

    def fit(self, X, y):
        X = check_array(X, "X")
        y = check_array(y, "y", ndim=1)
        if y.size != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} samples but y has {y.size} labels; give one label per sample.")
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"y contains only the class {self.classes_[0]:g}; one-vs-rest needs two or more.")
        self.estimators_ = [DualSVM(self.kernel, C=self.C, gamma=self.gamma, degree=self.degree, coef0=self.coef0,
                                    fit_intercept=self.fit_intercept, tol=self.tol, max_iter=self.max_iter)
                            .fit(X, np.where(y == c, 1.0, -1.0)) for c in self.classes_]
        return self

    def decision_function(self, X):
        """(m, number of classes): each class's SVM's f(x)."""
        if not hasattr(self, "estimators_"):
            raise ValueError("This OneVsRest is not fitted yet; call fit first.")
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def predict(self, X):
        """The class with the largest decision value."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
