"""The SVM dual by SMO (with the offset) or coordinate descent (without), as lesson 3 shows them.

Notation (n samples)
    K       (n, n)  Gram matrix K_ij = k(x_i, x_j); only the rows a step touches are computed
    y       (n,)    labels in {-1, +1}
    alpha   (n,)    dual variables, 0 <= alpha_i <= C (C = np.inf: hard margin)
    v       (n,)    v_t = y_t - sum_s alpha_s y_s K_ts = -y_t (G alpha - 1)_t, the gradient SMO follows
    a_ij    float   K_ii + K_jj - 2 K_ij, the curvature of the dual along a pair step (<= 0: K not PSD)

Lecture 4 (seed 001): max Σ alpha_i - ½ Σ alpha_i alpha_j y_i y_j K_ij s.t. 0 <= alpha_i <= C and,
with an offset, Σ alpha_i y_i = 0.
"""

import numpy as np

TAU = 1e-12   # LIBSVM's stand-in for a curvature a_ij <= 0 (Fan, Chen & Lin 2005, §4)


def _last_argmax(a):
    """Index of the last maximum: LIBSVM's `>=` scans keep the last of equal candidates."""
    return a.size - 1 - int(a[::-1].argmax())


def _smo(rows, diag, y, C, tol, max_iter, history, run):
    """SMO with the offset (Σ alpha_i y_i = 0): LIBSVM's solver, from run.alpha until the KKT gap <= tol.

    Working set: the second-order rule WSS 2 of Fan, Chen & Lin (2005), "Working set selection
    using second order information for training support vector machines", JMLR 6, as in LIBSVM:
    i = argmax_{t in I_up} v_t, then j = argmax_{t in I_low, v_t < v_i} (v_i - v_t)² / a_it, with
    a_it <= 0 (a kernel that is not PSD) replaced by TAU both here and in the step. Stop when
    m(alpha) - M(alpha) = max_{I_up} v - min_{I_low} v <= tol. Returns that gap.
    Records the iterate (run.record) at the steps run.next_record and at the last step.
    """
    alpha, v = run.alpha, run.v
    pos = y > 0
    # I_up (alpha_t may move so that y_t alpha_t grows) and I_low (shrinks) as additive masks:
    # 0 inside the set, -inf / +inf outside, so that argmax / argmin skip the outsiders
    out_up = np.where(np.where(pos, alpha < C, alpha > 0), 0.0, -np.inf)
    out_low = np.where(np.where(pos, alpha > 0, alpha < C), 0.0, np.inf)
    while True:
        vu = v + out_up
        i = _last_argmax(vu)
        vl = v + out_low
        m, M = vu[i], vl.min()
        if history.due(run.t):
            history.add(run.t, run.objective, m - M)
        if not m - M > tol or run.t >= max_iter:      # NaN stops too: the caller reports it
            if run.t > run.records[-1][0]:
                run.record(last)
            return m - M
        Ki = rows(i)
        gain = np.maximum(m - vl, 0.0)               # > 0 exactly for the candidates j
        a = diag - 2.0 * Ki + diag[i]
        j = _last_argmax(gain * gain / np.where(a > 0, a, TAU))
        a_ij = a[j]
        run.min_curvature = min(run.min_curvature, a_ij)
        # the step alpha_i += y_i delta, alpha_j -= y_j delta keeps Σ alpha y and raises the dual
        # objective by gain·delta - ½ a_ij delta²; it stops where alpha_i or alpha_j reaches 0 or C
        cap_i = C - alpha[i] if pos[i] else alpha[i]
        cap_j = alpha[j] if pos[j] else C - alpha[j]
        delta = min(gain[j] / (a_ij if a_ij > 0 else TAU), cap_i, cap_j)
        run.objective += delta * (gain[j] - 0.5 * a_ij * delta)
        # land exactly on a bound that stops the step, so that the status (0 < alpha < C) is exact
        alpha[i] = (C if pos[i] else 0.0) if delta == cap_i else alpha[i] + y[i] * delta
        alpha[j] = (0.0 if pos[j] else C) if delta == cap_j else alpha[j] - y[j] * delta
        for s in (i, j):
            out_up[s] = 0.0 if (alpha[s] < C if pos[s] else alpha[s] > 0) else -np.inf
            out_low[s] = 0.0 if (alpha[s] > 0 if pos[s] else alpha[s] < C) else np.inf
        v -= delta * (Ki - rows(j))
        run.t += 1
        last = i, j
        if run.t >= run.next_record:
            run.record(last)


def _coordinate_descent(rows, diag, y, C, tol, max_iter, history, run):
    """Without offset the dual is a box QP: exact one-variable steps on the most violating alpha_t.

    The gradient of ½ alphaᵀG alpha - Σ alpha is g = -y v; its projected size at t is |g_t| unless
    alpha_t sits on the bound that g_t pushes against. Greedy second-order choice, as WSS 2 in SMO:
    t = argmax of (projected size)² / K_tt, the gain of an unclipped step; step:
    alpha_t <- clip(alpha_t - g_t / K_tt, 0, C), with K_tt <= 0 (not PSD) replaced by TAU as in SMO.
    Stop when the largest projected size is <= tol; returns it. Records the iterate as _smo does.
    """
    alpha, v = run.alpha, run.v
    curvature = np.where(diag > 0, diag, TAU)
    while True:
        g = -y * v
        violation = np.where(g < 0, -g * (alpha < C), g * (alpha > 0))
        worst = violation.max()
        if history.due(run.t):
            history.add(run.t, run.objective, worst)
        if not worst > tol or run.t >= max_iter:
            if run.t > run.records[-1][0]:
                run.record((i,))
            return worst
        i = _last_argmax(violation * violation / curvature)
        run.min_curvature = min(run.min_curvature, diag[i])
        new = min(max(alpha[i] - g[i] / (diag[i] if diag[i] > 0 else TAU), 0.0), C)
        d = new - alpha[i]
        run.objective -= d * (g[i] + 0.5 * diag[i] * d)
        v -= d * y[i] * rows(i)
        alpha[i] = new
        run.t += 1
        if run.t >= run.next_record:
            run.record((i,))
