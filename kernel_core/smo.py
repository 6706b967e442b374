"""The one step rule of the SVM dual: SMO with the offset, coordinate descent without, on P problems at once.

Notation (P problems of n samples each; a single fit is the batch of one, P = 1)
    K       (P, n, n)  Gram matrices K_ij = k(x_i, x_j); a step reads only rows(p, i) = K[p, i, :]
    y       (P, n)     labels in {-1, +1}
    alpha   (P, n)     dual variables, 0 <= alpha_i <= C (C = np.inf: hard margin)
    v       (P, n)     v_t = y_t - sum_s alpha_s y_s K_ts = -y_t (G alpha - 1)_t, the gradient SMO follows
    diag    (P, n)     K_ii
    p       (q,)       the problems a call steps (indices into the leading axis)
    a_ij    (q,)       K_ii + K_jj - 2 K_ij, the curvature of the dual along a pair step (<= 0: K not PSD)

Lecture 4 (seed 001): max Σ alpha_i - ½ Σ alpha_i alpha_j y_i y_j K_ij s.t. 0 <= alpha_i <= C and,
with an offset, Σ alpha_i y_i = 0.

Each call takes one step on every problem of p whose KKT gap is above tol, in one set of numpy calls: a step
of SMO in numpy is almost nothing but the calls' own cost, which a batch shares. Each returns
(gap, moved, working_set, curvature, gain): the gap of every problem of p before the step, the problems that
stepped, the indices that moved (i, j) or (i,), the curvature of the step and how much it raised the dual.
"""

import numpy as np

TAU = 1e-12   # LIBSVM's stand-in for a curvature a_ij <= 0 (Fan, Chen & Lin 2005, §4)


def last_argmax(a):
    """Index of the last maximum of each row: LIBSVM's `>=` scans keep the last of equal candidates."""
    return a.shape[-1] - 1 - a[..., ::-1].argmax(axis=-1)


def kkt_gap(alpha, y, v, C, fit_intercept):
    """The stopping measure of the steps (over the last axis): m(alpha) - M(alpha) = max_{I_up} v - min_{I_low} v
    with the offset, else the largest projected gradient."""
    if fit_intercept:
        pos = y > 0
        up = np.where(np.where(pos, alpha < C, alpha > 0), v, -np.inf)
        low = np.where(np.where(pos, alpha > 0, alpha < C), v, np.inf)
        return up.max(axis=-1) - low.min(axis=-1)
    g = -y * v
    return np.where(g < 0, -g * (alpha < C), g * (alpha > 0)).max(axis=-1)


def pair_step(alpha, v, y, C, diag, rows, p, tol):
    """One SMO step with the offset (Σ alpha_i y_i = 0) on each problem of p whose gap is above tol.

    Working set: the second-order rule WSS 2 of Fan, Chen & Lin (2005), "Working set selection
    using second order information for training support vector machines", JMLR 6, as in LIBSVM:
    i = argmax_{t in I_up} v_t, then j = argmax_{t in I_low, v_t < v_i} (v_i - v_t)² / a_it, with
    a_it <= 0 (a kernel that is not PSD) replaced by TAU both here and in the step. The gap is
    m(alpha) - M(alpha) = max_{I_up} v - min_{I_low} v (NaN stops too: the caller reports it).
    """
    a, vp, yp, pos = alpha[p], v[p], y[p], y[p] > 0
    # I_up: alpha_t may move so that y_t alpha_t grows; I_low: so that it shrinks
    vu = np.where(np.where(pos, a < C, a > 0), vp, -np.inf)
    vl = np.where(np.where(pos, a > 0, a < C), vp, np.inf)
    i = last_argmax(vu)
    r = np.arange(p.size)
    m = vu[r, i]
    gap = m - vl.min(axis=1)
    go = gap > tol
    if not go.all():
        r, i, m, vl, a, yp, pos = r[:go.sum()], i[go], m[go], vl[go], a[go], yp[go], pos[go]
    moved = p[go]
    Ki = rows(moved, i)
    gain = np.maximum(m[:, None] - vl, 0.0)          # > 0 exactly for the candidates j
    d = diag[moved]
    curve = d - 2.0 * Ki + d[r, i][:, None]
    j = last_argmax(gain * gain / np.where(curve > 0, curve, TAU))
    a_ij, gain_j = curve[r, j], gain[r, j]
    # the step alpha_i += y_i delta, alpha_j -= y_j delta keeps Σ alpha y and raises the dual
    # objective by gain·delta - ½ a_ij delta²; it stops where alpha_i or alpha_j reaches 0 or C
    a_i, a_j, pos_i, pos_j = a[r, i], a[r, j], pos[r, i], pos[r, j]
    cap_i = np.where(pos_i, C - a_i, a_i)
    cap_j = np.where(pos_j, a_j, C - a_j)
    delta = np.minimum(np.minimum(gain_j / np.where(a_ij > 0, a_ij, TAU), cap_i), cap_j)
    # land exactly on a bound that stops the step, so that the status (0 < alpha < C) is exact
    alpha[moved, i] = np.where(delta == cap_i, np.where(pos_i, C, 0.0), a_i + yp[r, i] * delta)
    alpha[moved, j] = np.where(delta == cap_j, np.where(pos_j, 0.0, C), a_j - yp[r, j] * delta)
    v[moved] -= delta[:, None] * (Ki - rows(moved, j))
    return gap, moved, (i, j), a_ij, delta * (gain_j - 0.5 * a_ij * delta)


def coordinate_step(alpha, v, y, C, diag, rows, p, tol):
    """Without offset the dual is a box QP: one exact one-variable step (the pair step's one-variable case) on
    each problem of p whose gap is above tol.

    The gradient of ½ alphaᵀG alpha - Σ alpha is g = -y v; its projected size at t is |g_t| unless
    alpha_t sits on the bound that g_t pushes against. Greedy second-order choice, as WSS 2 in SMO:
    t = argmax of (projected size)² / K_tt, the gain of an unclipped step; step:
    alpha_t <- clip(alpha_t - g_t / K_tt, 0, C), with K_tt <= 0 (not PSD) replaced by TAU as in SMO.
    The gap is the largest projected size.
    """
    a, yp = alpha[p], y[p]
    g = -yp * v[p]
    violation = np.where(g < 0, -g * (a < C), g * (a > 0))
    gap = violation.max(axis=1)
    go = gap > tol
    moved = p[go]
    r = np.arange(moved.size)
    d = diag[moved]
    t = last_argmax(violation[go] ** 2 / np.where(d > 0, d, TAU))
    k_t, g_t, a_t = d[r, t], g[go][r, t], a[go][r, t]
    new = np.clip(a_t - g_t / np.where(k_t > 0, k_t, TAU), 0.0, C)
    change = new - a_t
    v[moved] -= (change * yp[go][r, t])[:, None] * rows(moved, t)
    alpha[moved, t] = new
    return gap, moved, (t,), k_t, -change * (g_t + 0.5 * k_t * change)
