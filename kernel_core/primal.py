"""The primal SVM on explicit features by an interior-point method, its polishing, and the proof that a
hard margin has no solution (Farkas' lemma).

Notation (n samples, p explicit features)
    Phi     (n, p)  explicit features phi(x_i)        y   (n,)  labels in {-1, +1}
    A       (n, q)  rows y_i (phi_i, 1) (q = p + 1), or y_i phi_i without offset
    z       (q,)    (w, b), or w
    xi      (n,)    slacks (soft margin only)          s   (n,)  margin slacks A z + xi - 1 >= 0
    lam     (n,)    multipliers of A z + xi >= 1       mu  (n,)  multipliers of xi >= 0
    C       float   slack penalty; np.inf is the hard margin

Lecture 4 (seed 001): min ½‖w‖² + C Σ xi_i s.t. y_i (w·phi_i + b) >= 1 - xi_i, xi >= 0.
"""

from dataclasses import dataclass

import numpy as np

FARKAS_TOL = 1e-6         # relative size of a Farkas certificate that proves non-separability
PSD_TOL = 1e-10           # eigenvalues below -PSD_TOL × the largest make a Gram matrix not PSD
STALL_SLACK = 1e3         # an interior-point iterate stuck at breakdown may miss tol by this factor

def require_separable(K, y, fit_intercept):
    """Raise unless the kernel is PSD on the points and they are separable in its feature space.

    Without the box, a direction of negative curvature of a kernel that is not PSD makes the
    dual unbounded. For a PSD kernel, K = U diag(lam) Uᵀ gives exact features Phi = U sqrt(lam)
    of the training points (Phi Phiᵀ = K), so separability in feature space is linear
    separability of Phi's rows, which the primal interior-point method decides (see primal_ipm).
    """
    lam, U = np.linalg.eigh(0.5 * (K + K.T))
    if lam[0] < -PSD_TOL * max(lam[-1], 0.0):
        raise ValueError(f"The hard margin (C=np.inf) needs a positive semi-definite kernel, but the Gram "
                         f"matrix of these points has the eigenvalue {lam[0]:.3g}. Use a finite C or a valid kernel.")
    keep = lam > max(lam[-1], 0.0) * 1e-13
    Phi = U[:, keep] * np.sqrt(lam[keep])
    # K = 0 maps every point to the origin of feature space, where no hyperplane separates them
    if not keep.any() or primal_ipm(Phi, y, np.inf, fit_intercept, 1e-9, 200, None).status == "infeasible":
        raise ValueError("The data is not separable in the kernel's feature space, so the hard-margin "
                         "dual (C=np.inf) is unbounded. Use a finite C (soft margin).")


@dataclass
class _IPMResult:
    z: np.ndarray        # (w, b) or w
    lam: np.ndarray      # multipliers of y_i (w·phi_i + b) + xi_i >= 1
    n_iter: int
    status: str          # "optimal", "infeasible", "max_iter" or "stalled"
    s: np.ndarray        # margin slacks A z + xi - 1
    xi: np.ndarray
    mu: np.ndarray       # multipliers of xi >= 0


def _design(Phi, y, fit_intercept):
    """A with rows y_i (phi_i, 1) (or y_i phi_i without offset) and H = diag(1, ..., 1, 0) of ½ zᵀH z."""
    if not fit_intercept:
        return y[:, None] * Phi, np.ones(Phi.shape[1])
    return y[:, None] * np.column_stack([Phi, np.ones(len(y))]), np.append(np.ones(Phi.shape[1]), 0.0)


def _max_step(d, x):
    """Largest theta <= 1/0.99 with x + theta d >= 0 (x > 0)."""
    neg = d < 0
    return min(1.0 / 0.99, float(np.min(-x[neg] / d[neg], initial=np.inf)))


def primal_ipm(Phi, y, C, fit_intercept, tol, max_iter, history):
    """Mehrotra's predictor-corrector interior-point method on the primal QP itself.

    Variables z = (w, b), xi (soft margin only) and the margin slack s = A z + xi - 1 >= 0, where
    A = [y_i phi_i, y_i]; multipliers lam >= 0 (of A z + xi >= 1) and mu >= 0 (of xi >= 0).
    Optimality: w = Aᵀ lam restricted to w, Σ lam_i y_i = 0, lam + mu = C, lam s = mu xi = 0.
    Eliminating s, xi, lam, mu from each Newton system leaves a (p+1) × (p+1) positive definite
    system (H + Aᵀ E A) dz = rhs with H = diag(1, ..., 1, 0) and E diagonal, solved by
    np.linalg.solve. The linear equations are kept exact by recovering ds and dmu from them.

    Infeasibility of the hard margin (C = inf): by Farkas' lemma {z : A z >= 1} is empty iff some
    lam >= 0 has Aᵀ lam = 0 and Σ lam > 0 (lam then puts weights on the two classes whose
    feature-space averages coincide). On such data the iterates' lam grow without bound along
    such a ray, so each iteration tests lam / Σ lam as a certificate: |Σ lam_i y_i phi_i| <=
    FARKAS_TOL · max|phi_i| and |Σ lam_i y_i| <= FARKAS_TOL. Any (w, b) with A z >= 1 would give
    1 <= (lam/Σlam)·A z <= FARKAS_TOL (‖w‖ max|phi_i| + |b|), so a certificate proves that the
    data is not separable, or only with a margin below FARKAS_TOL times its radius.
    """
    n, p = Phi.shape
    soft = C < np.inf
    A, H = _design(Phi, y, fit_intercept)
    absA = np.abs(A)
    radius = max(float(np.sqrt((Phi * Phi).sum(axis=1).max())), 1e-300)
    z = np.zeros(A.shape[1])
    s = np.ones(n)
    # a start with lam + mu = C leaves only the margin constraints infeasible
    lam = np.full(n, 0.5 * C if soft else 1.0)
    xi, mu = (np.ones(n), np.full(n, 0.5 * C)) if soft else (np.zeros(n), np.zeros(n))
    m = 2 * n if soft else n
    moved = np.inf
    it = 0
    while True:
        r_d = H * z - A.T @ lam
        r_p = A @ z + xi - s - 1.0
        r_x = C - lam - mu if soft else np.zeros(n)
        gap = lam @ s + mu @ xi
        objective = 0.5 * (H * z) @ z + (C * xi.sum() if soft else 0.0)
        if history is not None and history.due(it):
            history.add(it, objective, gap)
        # converged when residuals and gap are small relative to their terms and the last Newton
        # step moved w by at most tol, an estimate of its remaining error (b may be non-unique)
        rest = max(np.abs(r_p).max() / (1.0 + (absA @ np.abs(z)).max()),
                   np.abs(r_d).max() / (1.0 + (absA.T @ lam).max()),
                   np.abs(r_x).max() / (1.0 + (C if soft else 0.0)),
                   moved / (1.0 + np.abs(z[:p]).max(initial=0.0)))
        error = max(rest, gap / (1.0 + abs(objective)))
        if error <= tol:
            return _IPMResult(z, lam, it, "optimal", s, xi, mu)
        if rest <= np.sqrt(tol):
            # nearly converged: try the exact KKT check of polish. With a large C (1e10) the gap mu·xi and
            # the residual of w = Aᵀlam stall at about C·eps (lam + mu = C is resolved only to C·eps), so
            # the tests above may never pass although the active sets, and so the optimum, are found
            result = _IPMResult(z, lam, it, "optimal", s, xi, mu)
            polished = polish(Phi, y, fit_intercept, C, result, tol)
            if polished is not None:
                result.z, result.lam = polished
                return result
        if not soft:
            cert = A.T @ (lam / lam.sum())
            if np.linalg.norm(cert[:p]) <= FARKAS_TOL * radius and np.all(np.abs(cert[p:]) <= FARKAS_TOL):
                return _IPMResult(z, lam, it, "infeasible", s, xi, mu)
        if it == max_iter:
            return _IPMResult(z, lam, it, "max_iter", s, xi, mu)
        # near the end E spans many orders of magnitude and may overflow: a failed step is caught below
        with np.errstate(all="ignore"):
            E = lam * mu / (lam * xi + s * mu) if soft else lam / s
            M = np.diag(H) + (A.T * E) @ A
            scale = 1.0 / np.sqrt(np.diag(M))      # Jacobi scaling of the reduced system

            def newton(r_ls, r_mx):
                # complementarity rows: lam s -> r_ls, mu xi -> r_mx (targets folded into them)
                g = r_x + r_mx / xi if soft else np.zeros(n)
                h = -r_p - (r_ls + s * g) / lam
                dz = scale * np.linalg.solve(scale[:, None] * M * scale, scale * (-r_d + A.T @ (g + E * h)))
                q = A @ dz
                dlam = g + E * (h - q)
                dxi = (h - q) * (lam * xi) / (lam * xi + s * mu) if soft else np.zeros(n)
                return dz, dlam, q + dxi + r_p, dxi, r_x - dlam

            def longest(d):
                # the longest step along d that keeps s, lam (and xi, mu) nonnegative
                _, dlam, ds, dxi, dmu = d
                theta = min(_max_step(ds, s), _max_step(dlam, lam))
                return min(theta, _max_step(dxi, xi), _max_step(dmu, mu)) if soft else theta

            # predictor (affine) step, then Mehrotra's centring sigma = (gap_aff / gap)³ and corrector
            try:
                aff = newton(lam * s, mu * xi)
                theta = min(1.0, longest(aff))
                _, dlam, ds, dxi, dmu = aff
                gap_aff = (lam + theta * dlam) @ (s + theta * ds) + (
                    (mu + theta * dmu) @ (xi + theta * dxi) if soft else 0.0)
                sigma_mu = (gap_aff / gap) ** 3 * gap / m
                dz, dlam, ds, dxi, dmu = d = newton(lam * s + ds * dlam - sigma_mu, mu * xi + dxi * dmu - sigma_mu)
                theta = min(1.0, 0.99 * longest(d))
            except np.linalg.LinAlgError:
                d = None
        if d is None or not all(np.all(np.isfinite(part)) for part in d):
            # the Newton system is singular at working precision, as happens on degenerate problems
            # (a point on the margin with multiplier 0) where w converges only linearly: the last
            # digits are lost, so accept the iterate if it is within STALL_SLACK × tol
            return _IPMResult(z, lam, it, "optimal" if error <= STALL_SLACK * tol else "stalled", s, xi, mu)
        z += theta * dz
        moved = theta * np.abs(dz[:p]).max(initial=0.0)
        lam += theta * dlam
        s += theta * ds
        if soft:
            xi += theta * dxi
            mu += theta * dmu
        it += 1


def polish(Phi, y, fit_intercept, C, result, tol):
    """Exact (w, b) from the active sets the interior point has found, or None if they fail KKT.

    Near a degenerate optimum (a point on its margin with multiplier 0) the iterates converge
    only like the square root of the gap, but the sets are plain long before: margin points S
    (s_i = 0) and bounded points B (xi_i > 0, lam_i = C). With them fixed, min ½‖w‖² + C Σ_B xi_i
    s.t. A_S z = 1, xi_B = 1 - A_B z is one linear (KKT) system
        [[H, -A_Sᵀ], [A_S, 0]] [z, lam_S] = [C Σ_B A_iᵀ, 1].
    Its solution is optimal if the other points keep A_i z >= 1, B keeps xi_i >= 0 and
    0 <= lam_S <= C (all to tol): then every KKT condition holds.
    """
    A, H = _design(Phi, y, fit_intercept)
    soft = C < np.inf
    bounded = result.xi * C > result.mu if soft else np.zeros(len(result.lam), bool)
    # on the margin: s_i / max s <= lam_i / max lam (s -> 0 there while lam stays; the reverse elsewhere)
    scale = result.lam.max() / max(result.s.max(), 1e-300)
    margin = ~bounded & (result.s * scale <= result.lam)
    A_S, q = A[margin], A.shape[1]
    k = A_S.shape[0]
    kkt = np.block([[np.diag(H), -A_S.T], [A_S, np.zeros((k, k))]])
    rhs = np.concatenate([C * A[bounded].sum(axis=0) if soft else np.zeros(q), np.ones(k)])
    solution = np.linalg.lstsq(kkt, rhs, rcond=None)[0]
    z, lam_S = solution[:q], solution[q:]
    f = A @ z
    if (np.all(f[~margin & ~bounded] >= 1 - tol) and np.all(f[bounded] <= 1 + tol)
            and np.all(np.abs(f[margin] - 1) <= tol) and np.all(lam_S >= -tol * result.lam.max())
            and (not soft or np.all(lam_S <= C * (1 + tol)))):
        lam = np.where(bounded, C, 0.0)
        lam[margin] = np.clip(lam_S, 0.0, C)
        return z, lam
    return None
