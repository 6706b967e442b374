"""The models of the representer theorem, f(x) = Σ_j β_j K(x_j, x): the parts kernel LMS, kernel ridge and kernel
logistic regression share (their Gram matrix, their decision function, its bumps).

Notation (n training points, m query points)
    K      (n, n)  Gram matrix of the training points; (n, m) against the query points
    beta   (n,)    β, representer coefficients
"""

from .kernels import checked_gram, make_kernel
from .validation import check_predict_input


class KernelModel:
    """Shared parts of the models f(x) = Σ_j β_j K(x_j, x)."""

    def _gram(self, X):
        self._k = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        self.X_fit_ = X
        return checked_gram(self._k, X, X)

    def _cross(self, X):
        X = check_predict_input(self, X, "beta_", getattr(self, "X_fit_", None))
        return checked_gram(self._k, self.X_fit_, X)

    def decision_function(self, X):
        """f(x) = Σ_j β_j K(x_j, x) for each row x of X."""
        K = self._cross(X)
        return self.beta_ @ K

    def bumps(self, X):
        """The representer theorem's terms β_j K(x_j, x), shape (n, m); they sum to f(x)."""
        K = self._cross(X)
        return self.beta_[:, None] * K
