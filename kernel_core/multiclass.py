"""One-vs-rest: more than two classes from binary kernel SVMs.

Notation (n samples, c classes, m query points)
    y        (n,)    labels, any values (c >= 2 distinct ones)
    classes_ (c,)    the sorted distinct labels
    f        (m, c)  f_c(x), the decision value of the SVM of class c against the rest
"""

import copy

import numpy as np

from .svm import DualSVM
from .validation import check_array


class OneVsRest:
    """One binary kernel SVM per class: class c against all the others, each a copy of `estimator` (an unfitted
    DualSVM) fitted with ±1 labels. The combined decision is the class whose SVM gives the largest decision value
    (argmax), as scikit-learn's OneVsRestClassifier(estimator) predicts.

    Attributes: classes_ (sorted labels), estimators_ (one fitted copy of the estimator per class, in classes_ order).
    """

    def __init__(self, estimator=None):
        self.estimator = estimator

    def fit(self, X, y):
        X = check_array(X, "X")
        y = check_array(y, "y", ndim=1)
        if y.size != X.shape[0]:
            raise ValueError(f"X has {X.shape[0]} samples but y has {y.size} labels; give one label per sample.")
        self.classes_ = np.unique(y)
        if self.classes_.size < 2:
            raise ValueError(f"y contains only the class {self.classes_[0]:g}; one-vs-rest needs two or more.")
        estimator = DualSVM() if self.estimator is None else self.estimator
        self.estimators_ = [copy.deepcopy(estimator).fit(X, np.where(y == c, 1.0, -1.0)) for c in self.classes_]
        return self

    def decision_function(self, X):
        """(m, number of classes): each class's SVM's f(x)."""
        if not hasattr(self, "estimators_"):
            raise ValueError("This OneVsRest is not fitted yet; call fit first.")
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def predict(self, X):
        """The class with the largest decision value."""
        return self.classes_[np.argmax(self.decision_function(X), axis=1)]
