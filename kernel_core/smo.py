"""The one step rule of the SVM dual: SMO with the offset, coordinate descent without, on one problem or many.

Notation (n samples; a batch of q problems adds a leading axis of q)
    K       (n, n)    Gram matrix K_ij = k(x_i, x_j); a step reads only the rows K[i, :] it needs (`row`)
    y       (n,)      labels in {-1, +1}
    alpha   (n,)      dual variables, 0 <= alpha_i <= C (C = np.inf: hard margin)
    v       (n,)      v_t = y_t - sum_s alpha_s y_s K_ts = -y_t (G alpha - 1)_t, the gradient SMO follows
    diag    (n,)      K_ii
    up, low (n,)      I_up and I_low as additive masks: 0 inside the set, -inf / +inf outside
    i, j, t           the working set: an int for one problem, a column (q, 1) for a batch
    a_ij    float     K_ii + K_jj - 2 K_ij, the curvature of the dual along a pair step (<= 0: K not PSD)

Lecture 4 (seed 001): max Σ alpha_i - ½ Σ alpha_i alpha_j y_i y_j K_ij s.t. 0 <= alpha_i <= C and,
with an offset, Σ alpha_i y_i = 0.

The rule is written once, over the few operations of its state: One (a single fit, DualSVM's) or Batch (the
validation grid's problems, stepped in one set of numpy calls, whose cost a batch shares). A step reads over n
with numpy either way; what it reads and writes at the working set is a Python float of One, a column (q, 1)
of Batch that broadcasts over n. A step returns (gap, working_set, curvature, gain): the KKT gap before it, the
indices that moved ((i, j) or (t,); None when nothing moved: some problem's gap is <= tol), a_ij (or K_tt) and
how much the step raised the dual objective. The active-set polish (kernel_core.dual.polish) is written over the
same states: its face, a set F of indices per problem, is an index array (k,) of One, and of Batch an array
(q, s) padded after each problem's own indices up to the largest face.
"""

import operator

import numpy as np

TAU = 1e-12   # LIBSVM's stand-in for a curvature a_ij <= 0 (Fan, Chen & Lin 2005, §4)
PREFETCH = 8  # see One.likely


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


def _sets(pos, a, C):
    """The masks up and low at alpha = a: alpha_t may move so that y_t alpha_t grows (I_up), or shrinks (I_low)."""
    return (np.where(np.where(pos, a < C, a > 0), 0.0, -np.inf),
            np.where(np.where(pos, a > 0, a < C), 0.0, np.inf))


class _Problems:
    """What One and Batch share: the masks up and low, K_tt with K_tt <= 0 (not PSD) replaced by TAU, and the rows
    K[F, :] of a face (q, s, n), or (k, n) for One."""

    def cache(self):
        self.up, self.low = _sets(self.y > 0, self.alpha, self.C)   # a step updates them where it moves
        self.curvature = np.where(self.diag > 0, self.diag, TAU)
        self.vu, self.vl = np.empty_like(self.v), np.empty_like(self.v)     # v + up and v + low, reused by each step

    def block(self, F):
        return self.rows(self.p, F)


class One(_Problems):
    """One problem, advanced in place: alpha, v, y, diag (n,); rows reads K (kernel_core.dual.KernelRows: row(i) =
    K[i, :], rows(p, F) = K[F, :]). At the working set the rule computes with Python floats and builtins (a numpy
    call on one number costs far more than the arithmetic)."""

    where = staticmethod(lambda c, a, b: a if c else b)
    minimum, maximum, every, some = staticmethod(min), staticmethod(max), staticmethod(bool), staticmethod(bool)
    at, put, gather = staticmethod(np.ndarray.item), staticmethod(operator.setitem), staticmethod(operator.getitem)
    p = 0                  # its place where a caller keeps a value per problem

    def __init__(self, alpha, v, y, C, diag, rows):
        self.alpha, self.v, self.y, self.C, self.diag, self.rows, self.row = alpha, v, y, C, diag, rows, rows.row
        self.cache()
        self.free = int(np.count_nonzero((alpha > 0) & (alpha < C)))     # the free set's size, kept by move
        if hasattr(rows, "likely"):
            rows.likely = self.likely

    def likely(self, m=PREFETCH):
        """The m indices of largest v over I_up and the m of smallest v over I_low: the working sets of the next
        steps come from them (what kernel_core.dual.KernelRows computes with a missing row)."""
        vu, vl = self.v + self.up, self.v + self.low
        m = min(m, vu.size - 1)
        return np.concatenate([np.argpartition(vu, -m)[-m:], np.argpartition(vl, m)[:m]])

    @staticmethod
    def first(a):
        """Index of the last maximum: LIBSVM's `>=` scans keep the last of equal candidates."""
        return a.size - 1 - int(a[::-1].argmax())

    changes = 0            # steps that moved an alpha into or out of the free set (0 < alpha < C), see settled

    def move(self, t, new, pos):
        """alpha_t = new, and t in or out of I_up and I_low as _sets puts it (here with Python's conditionals: a
        call per comparison would cost more than the step's arithmetic)."""
        C = self.C
        was, now = 0.0 < self.alpha.item(t) < C, 0.0 < new < C
        if was != now:
            self.changes += 1
            self.free += 1 if now else -1
        self.alpha[t] = new
        self.up[t] = 0.0 if (new < C if pos else new > 0) else -np.inf
        self.low[t] = 0.0 if (new > 0 if pos else new < C) else np.inf

    @staticmethod
    def most(a):
        return int(a.argmax())

    @staticmethod
    def least(a):
        return int(a.argmin())

    @staticmethod
    def top(x):
        return np.maximum.reduce(x).item()

    @staticmethod
    def bottom(x):
        return np.minimum.reduce(x).item()

    @staticmethod
    def total(x):
        return np.add.reduce(x).item()

    count = staticmethod(np.count_nonzero)

    @staticmethod
    def face(free, count):
        """The indices F of the free set (the count is the face's size)."""
        return np.flatnonzero(free)

    @staticmethod
    def columns(K_F, F):
        return K_F[:, F]

    @staticmethod
    def clear(x, F):
        x[F] = 0.0

    pad = fill = staticmethod(lambda x: x)       # a face of one problem has no padding

    @staticmethod
    def keep(going, *values):
        """The values to go on with, if the problem goes on, else None."""
        return values if going else None

    def store(self):
        """Nothing to write back: One advances the caller's arrays themselves."""


class Batch(_Problems):
    """Problems p (q,) of the arrays alpha, v (P, n) (advanced by store) and y, diag (P, n); rows(p, idx) reads
    K[p, idx]. The rule reads copies (q, n) of theirs and, at the working set, columns (q, 1)."""

    where, minimum, maximum = staticmethod(np.where), staticmethod(np.minimum), staticmethod(np.maximum)
    every, some = staticmethod(np.ndarray.all), staticmethod(np.ndarray.any)

    def __init__(self, alpha, v, y, C, diag, rows, p):
        self.all, self.C, self.rows = (alpha, v, y, diag), C, rows
        self.take(p)

    def take(self, p):
        """Step the problems p (q,) from now on."""
        self.p, self.r = p, np.arange(p.size)[:, None]
        self.alpha, self.v, self.y, self.diag = (x[p] for x in self.all)
        self.cache()

    def store(self):
        """Write alpha and v of the problems stepped back into the caller's arrays."""
        self.all[0][self.p], self.all[1][self.p] = self.alpha, self.v

    def keep(self, going, *values):
        """Go on with the problems where the column going (q, 1) holds, the others stored and dropped: the rows of
        values (one per problem) that go on, or None if none does."""
        going = going[:, 0]
        if going.all():
            return values
        self.store()
        self.take(self.p[going])
        return tuple(x[going] for x in values) if self.p.size else None

    def advance(self, step, tol):
        """One step of every problem whose gap is above tol; the others are stored and dropped first (NaN is not
        above tol). Returns whether any problem stepped."""
        while self.p.size:
            gap, working_set = step(self, tol)[:2]
            if working_set is not None:
                return True
            self.store()
            self.take(self.p[gap[:, 0] > tol])
        return False

    def first(self, a):
        """Index of the last maximum of each row (as One.first), a column."""
        return a.shape[1] - 1 - a[:, ::-1].argmax(axis=1, keepdims=True)

    def move(self, t, new, pos):
        """alpha_t = new, and t in or out of I_up and I_low (_sets), for each problem."""
        self.put(self.alpha, t, new)
        up, low = _sets(pos, new, self.C)
        self.put(self.up, t, up)
        self.put(self.low, t, low)

    @staticmethod
    def most(a):
        return a.argmax(axis=1, keepdims=True)

    @staticmethod
    def least(a):
        return a.argmin(axis=1, keepdims=True)

    def at(self, x, i):
        return x[self.r, i]

    gather = at

    def put(self, x, i, value):
        x[self.r, i] = value

    def row(self, i):
        return self.rows(self.p, i[:, 0])

    @staticmethod
    def top(x):
        return np.maximum.reduce(x, axis=1, keepdims=True)

    @staticmethod
    def bottom(x):
        return np.minimum.reduce(x, axis=1, keepdims=True)

    @staticmethod
    def total(x):
        return np.add.reduce(x, axis=1, keepdims=True)

    @staticmethod
    def count(x):
        return np.count_nonzero(x, axis=1, keepdims=True)

    def face(self, free, count):
        """The indices F (q, s) of each problem's free set, padded after them up to the largest (count (q, 1))."""
        s = int(count.max())
        self.valid = np.arange(s) < count
        return np.argsort(~free, axis=1, kind="stable")[:, :s]

    def columns(self, K_F, F):
        """K[F, F] of each problem from its rows K_F (q, s, n)."""
        return K_F[self.r[:, :, None], np.arange(F.shape[1])[:, None], F[:, None, :]]

    def pad(self, x):
        """x (q, s) of the face, 0 on the padding."""
        return x * self.valid

    def fill(self, A):
        """A face's system (q, m, m) (m = s, or s + 1 with b's row) with identity rows on the padding."""
        s = self.valid.shape[1]
        padding = np.flatnonzero(~self.valid)
        A[padding // s, padding % s, padding % s] = 1.0

    def clear(self, x, F):
        """x = 0 on the face, not on the padding (indices that are no part of it)."""
        x[self.r, F] = np.where(self.valid, 0.0, x[self.r, F])


def pair_step(s, tol):
    """One SMO step with the offset (Σ alpha_i y_i = 0) on the problems of s (One or Batch), if every gap is
    above tol.

    Working set: the second-order rule WSS 2 of Fan, Chen & Lin (2005), "Working set selection
    using second order information for training support vector machines", JMLR 6, as in LIBSVM:
    i = argmax_{t in I_up} v_t, then j = argmax_{t in I_low, v_t < v_i} (v_i - v_t)² / a_it, with
    a_it <= 0 (a kernel that is not PSD) replaced by TAU both here and in the step. The gap is
    m(alpha) - M(alpha) = max_{I_up} v - min_{I_low} v (NaN stops too: the caller reports it).
    """
    vu, vl = np.add(s.v, s.up, out=s.vu), np.add(s.v, s.low, out=s.vl)
    i = s.first(vu)
    m = s.at(vu, i)
    gap = m - s.bottom(vl)
    if not s.every(gap > tol):
        return gap, None, None, None
    Ki = s.row(i)
    gain = np.maximum(np.subtract(m, vl, out=vl), 0.0, out=vl)      # > 0 exactly for the candidates j
    curve = s.diag - 2.0 * Ki
    curve += s.at(s.diag, i)
    score = gain * gain
    score /= np.where(curve > 0, curve, TAU)
    j = s.first(score)
    a_ij, gain_j, C, where = s.at(curve, j), s.at(gain, j), s.C, s.where
    # the step alpha_i += y_i delta, alpha_j -= y_j delta keeps Σ alpha y and raises the dual
    # objective by gain·delta - ½ a_ij delta²; it stops where alpha_i or alpha_j reaches 0 or C
    a_i, a_j, y_i, y_j = s.at(s.alpha, i), s.at(s.alpha, j), s.at(s.y, i), s.at(s.y, j)
    pos_i, pos_j = y_i > 0, y_j > 0
    cap_i = where(pos_i, C - a_i, a_i)
    cap_j = where(pos_j, a_j, C - a_j)
    delta = s.minimum(s.minimum(gain_j / where(a_ij > 0, a_ij, TAU), cap_i), cap_j)
    # land exactly on a bound that stops the step, so that the status (0 < alpha < C) is exact
    new_i = where(delta == cap_i, where(pos_i, C, 0.0), a_i + y_i * delta)
    new_j = where(delta == cap_j, where(pos_j, 0.0, C), a_j - y_j * delta)
    s.move(i, new_i, pos_i)
    s.move(j, new_j, pos_j)
    step = Ki - s.row(j)
    step *= delta
    s.v -= step
    return gap, (i, j), a_ij, delta * (gain_j - 0.5 * a_ij * delta)


def coordinate_step(s, tol):
    """Without offset the dual is a box QP: one exact one-variable step (the pair step's one-variable case) on the
    problems of s (One or Batch), if every gap is above tol.

    The gradient of ½ alphaᵀG alpha - Σ alpha is g = -y v; its projected size at t is |g_t| unless
    alpha_t sits on the bound that g_t pushes against. Greedy second-order choice, as WSS 2 in SMO:
    t = argmax of (projected size)² / K_tt, the gain of an unclipped step; step: coordinate_move.
    The gap is the largest projected size.
    """
    u = s.y * s.v                                                    # -g
    violation = np.maximum(u * (s.alpha < s.C), -u * (s.alpha > 0))   # one of the two is <= 0
    gap = s.top(violation)
    if not s.every(gap > tol):
        return gap, None, None, None
    score = violation * violation
    score /= s.curvature
    t = s.first(score)
    return (gap, (t,)) + coordinate_move(s, t, -s.at(u, t))


def coordinate_move(s, t, g_t):
    """The exact step on alpha_t alone, whose gradient is g_t: alpha_t <- clip(alpha_t - g_t / K_tt, 0, C), with
    K_tt <= 0 (not PSD) replaced by TAU as in SMO. Returns K_tt and how much it raised the dual objective."""
    k_t, a_t, where = s.at(s.diag, t), s.at(s.alpha, t), s.where
    new = s.minimum(s.maximum(a_t - g_t / where(k_t > 0, k_t, TAU), 0.0), s.C)
    change = new - a_t
    s.v -= change * s.at(s.y, t) * s.row(t)
    s.put(s.alpha, t, new)
    return k_t, -change * (g_t + 0.5 * k_t * change)
