"""Kernelized Pegasos: SGD for the kernel SVM, Algorithm 1 of Lecture 8 (§1.4).

Notation (n samples, T steps)
    K       (n, n)  Gram matrix K[i, j] = K(x_i, x_j)
    y       (n,)    labels in {-1, +1}
    lam     float   λ > 0, regularization strength
    t       int     step, 1..T
    beta    (n,)    β^t: sum of y_i over the steps that updated i (β^1 = 0)
    alpha   (n,)    α^t = β^t / (λ t), signed: f_t(x) = Σ_j α^t_j K(x_j, x)
    alpha_  (n,)    α̂ = (1/T) Σ_t α^t, the averaged output of Algorithm 1

Objective. The notes write (1) as λ‖w‖² + (1/n) Σ hinge, but the step 1/(λt) is the
Pegasos step for λ/2 ‖w‖² + (1/n) Σ_i max(0, 1 − y_i f(x_i)), so that is the objective
reported here, with ‖w‖² = αᵀKα. Since the objective is λ times ½‖w‖² + C Σ ξ_i with
C = 1/(λn), its minimum is λ times the optimal value of the SVM without offset.

Unlike the SVM dual's α (≥ 0, multiplied by y_i in f), these α already carry the sign y_i.
"""

import numpy as np

from .history import even_steps, log_steps
from .kernels import checked_gram, cross_gram, make_kernel
from .validation import check_array, check_int, check_positive, check_predict_input, check_X_y

MAX_ITER = 200_000
# the objective is plotted against log t: steps spaced evenly in log t show its fast start and its slow
# end alike, and 200 of them cost a third of 500 evenly spaced ones (each record is O(n))
HISTORY_POINTS = 200
SNAPSHOTS = 100


class KernelPegasos:
    """Kernel SVM trained by Algorithm 1 (SGD with step 1/(λt)), output α̂.

    Parameters
    ----------
    kernel : registry name ("rbf", "poly", "linear", ...) or callable (X, Y) -> Gram.
    lam : λ > 0; larger λ means a smoother f and a wider margin.
    n_iter : T, the number of SGD steps (one sampled example each), at most 200 000.
    gamma, degree, coef0 : kernel parameters, as in kernel_core.kernels.
    random_state : seed of np.random.default_rng that draws i ~ Unif[n] each step.

    Attributes
    ----------
    alpha_ : (n,) α̂ = (1/T) Σ_{t=1}^T α^t; f(x) = Σ_j α̂_j K(x_j, x), no offset.
    alpha_last_ : (n,) α^T = β^T / (λT), the last iterate Algorithm 1 computes (the one
        tested at step T and included in α̂); it excludes step T's own update.
    beta_ : (n,) β^{T+1}, the counts after the last step (includes step T's update).
    n_iter_ : T.
    history_ : dict of arrays. At every step "t" if T ≤ 200, else at up to 200 steps evenly spaced in
        log t (1 and T included):
        "i" sampled index, "margin" y_i Σ_j α^t_j K(x_j, x_i), "updated" (margin < 1),
        "objective_last" and "objective_avg" (the objective at α^t and at
        α̂_t = (1/t) Σ_{s≤t} α^s), "violations" (#j with y_j f_t(x_j) < 1 under α^t).
        At up to 100 evenly spaced steps "snapshot_t": "alpha" (α^t) and "alpha_avg" (α̂_t),
        shape (len(snapshot_t), n).
    """

    def __init__(self, kernel="rbf", *, lam=0.01, n_iter=1000, gamma=None, degree=3, coef0=1.0,
                 random_state=None):
        self.kernel = kernel
        self.lam = lam
        self.n_iter = n_iter
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.random_state = random_state

    def fit(self, X, y):
        X, y = check_X_y(X, y)
        lam = check_positive(self.lam, "lam")
        T = check_int(self.n_iter, "n_iter", low=1, high=MAX_ITER)
        self._k = make_kernel(self.kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0)
        K = checked_gram(self._k, X, X)
        n = X.shape[0]
        # batch draws equal T successive rng.integers(n) calls, i.e. one i ~ Unif[n] per step
        idx = np.random.default_rng(self.random_state).integers(0, n, size=T)

        record = set(log_steps(T, HISTORY_POINTS).tolist())
        snap = even_steps(1, T, SNAPSHOTS)
        snapped = set(snap.tolist())
        rows, kept, alphas, alphas_avg = [], [], [], []

        beta = np.zeros(n)
        Kbeta = np.zeros(n)        # Kβ^t, kept current with one row of K per update (K is symmetric)
        bKb = 0.0                  # β^tᵀKβ^t, kept current in O(1) per update
        # Σ_{s≤t} α^s = P_t β^t − c with P_t = Σ_{s≤t} 1/(λs): an update β_i += y_i at step u adds y_i to every
        # later β^s, so it adds y_i (P_t − P_u) to the sum, and c_i collects the y_i P_u: O(1) per update, and
        # Σ_s Kα^s = P_t Kβ^t − Kc only where it is read
        c = np.zeros(n)
        scales = 1.0 / (lam * np.arange(1, T + 1))   # 1/(λt), as a step computes it
        # the loop is Python, one step at a time (each step reads the last update): per step only list reads and
        # scalar arithmetic, and per update one in-place row add (y_i = ±1: Kβ ± K_i, exactly y_i K_i added)
        ys, steps, K_diag, rows_K = y.tolist(), idx.tolist(), np.diag(K).tolist(), list(K)
        P = 0.0
        for t, scale in enumerate(scales.tolist(), start=1):
            i = steps[t - 1]                          # α^t = β^t / (λt) = scale β^t
            P += scale
            yi = ys[i]
            Kb_i = Kbeta.item(i)
            margin = yi * Kb_i * scale               # y_i Σ_j α^t_j K(x_j, x_i), condition (6)
            if t in record:
                # the state at step t; the objectives are computed from it for all records at once, below
                rows.append((t, i, margin, margin < 1.0, P, bKb))
                kept.append((Kbeta.copy(), beta.copy(), c.copy()))
            if t in snapped:
                alphas.append(scale * beta)
                alphas_avg.append((P * beta - c) / t)
            if margin < 1.0:
                # (β + y_i e_i)ᵀK(β + y_i e_i) = βᵀKβ + 2 y_i (Kβ)_i + K_ii
                bKb += 2.0 * yi * Kb_i + K_diag[i]
                if yi > 0.0:
                    Kbeta += rows_K[i]
                else:
                    Kbeta -= rows_K[i]
                beta[i] += yi
                c[i] += yi * P

        self.X_fit_ = X
        self.alpha_ = (P * beta - c) / T
        self.alpha_last_ = alphas[-1]  # step T is always snapshotted, before its update
        self.beta_ = beta
        self.n_iter_ = T
        t_rec, i_rec, margins, updates, P_rec, bKb_rec = (np.array(col) for col in zip(*rows))
        Kbeta_rec, beta_rec, c_rec = (np.array(col) for col in zip(*kept))
        scale_rec = scales[t_rec - 1]
        f_last = scale_rec[:, None] * Kbeta_rec                            # f of α^t at the training points
        f_avg = (P_rec[:, None] * Kbeta_rec - c_rec @ K) / t_rec[:, None]   # f of α̂_t (K symmetric: cK = Kc)
        alpha_sum = P_rec[:, None] * beta_rec - c_rec
        self.history_ = {
            "t": t_rec,
            "i": i_rec,
            "margin": margins,
            "updated": updates.astype(bool),
            "objective_last": (0.5 * lam * scale_rec * scale_rec * bKb_rec
                               + np.maximum(0.0, 1.0 - y * f_last).mean(axis=1)),
            "objective_avg": (0.5 * lam * np.einsum("ij,ij->i", alpha_sum, f_avg) / t_rec
                              + np.maximum(0.0, 1.0 - y * f_avg).mean(axis=1)),
            "violations": np.count_nonzero(y * f_last < 1.0, axis=1),
            "snapshot_t": snap,
            "alpha": np.array(alphas),
            "alpha_avg": np.array(alphas_avg),
        }
        return self

    def decision_function(self, X, alpha=None, *, gram=None):
        """f(x) = Σ_j α_j K(x_j, x) for each row x of X, with α = α̂ (alpha_) unless another
        coefficient vector over the training points is given, e.g. a snapshot from history_.
        gram: K(X, X_fit) with this model's kernel, if already computed (it is checked for shape)."""
        X = check_predict_input(self, X, "alpha_", getattr(self, "X_fit_", None))
        alpha = self.alpha_ if alpha is None else check_array(alpha, "alpha", ndim=1)
        if alpha.shape != self.alpha_.shape:
            raise ValueError(f"alpha must have one coefficient per training point ({self.alpha_.size}); "
                             f"got shape {alpha.shape}.")
        return cross_gram(self._k, X, self.X_fit_, gram) @ alpha

    def predict(self, X):
        """sign(f(x)) in {-1, +1} (f = 0 goes to +1)."""
        return np.where(self.decision_function(X) >= 0.0, 1.0, -1.0)
