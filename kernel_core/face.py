"""The face system of the active-set polish (kernel_core.dual.polish) for one problem, kept from step to step.

Notation (as in kernel_core.dual; m = |F|, h = 1 with the offset, else 0)
    F       (m,)            the free set, in the order the system keeps it (not sorted)
    A       (m+h, m+h)      the face system of polish: [[G_FF, y_F], [y_Fᵀ, 0]] with the offset (b's row and
                            column last), G_FF without; G_FF = diag(y_F) K_FF diag(y_F)
    P       (m+h, m+h)      A⁻¹, while it is known (`inverse`)
    K_F     (m, n)          the rows K[F, :], what polish moves v with
    c, d                    the column A gains with an index t, c = (y_t y_F K_Ft, y_t), and its diagonal K_tt

Between two active-set steps the free set changes by one index: the alpha a step stopped at a bound leaves it, or
the bounded alpha it frees enters it. So instead of a fresh LU of A per step (O(m³)), A⁻¹ is kept and bordered,
as Cauwenberghs & Poggio (2001), "Incremental and decremental support vector machine learning", NIPS 13, keep
the inverse of their bordered Jacobian: with u = P c and the Schur complement s = d - cᵀu, an index entering
gives [[P + u uᵀ / s, -u / s], [-uᵀ / s, 1 / s]] (b's row and column move on, to stay last); one leaving, at
position q once exchanged with the last free index, gives P_ij - P_iq P_qj / P_qq over the rest. Each is O(m²) in a
few numpy calls, and a solve is a product P r. (numpy has no triangular solve: an updated Cholesky factor would
still cost an O(m³) solve per step.)

Exactness. A solve from P is x = P r with one step of iterative refinement, kept if its residual |A x - r| is
within 1e-8 (1 + |r|), as kernel_core.dual._solve keeps an LU solve. P is used only while the estimate
κ = (m + h) max |A| max |P| of A's condition number is at most COND_MAX (an inverse's solve loses up to κ ulps, an
LU's far fewer), and an update only while its pivot (s, P_LL) is not negligible. Otherwise, and when more than
UPDATE_MAX indices changed, the system is built afresh as polish built it before each step (F sorted) and solved
by one LU, or by least squares where it is singular (polish's _solve).
"""

import numpy as np

COND_MAX = 1e6       # P is used while the condition estimate of A is at most this (see the docstring)
UPDATE_MAX = 4       # a free set that changed by more indices than this is factored afresh
PIVOT = 1e-10        # an update's pivot below PIVOT times its scale means A (or A') is nearly singular
EXACT = 1e-8         # a solve is kept when max |A x - r| <= EXACT (1 + max |r|), as kernel_core.dual._solve
UPDATE_WORK = 8      # work of an update and a solve, times m²: a handful of matrix-vector products
INVERSE_WORK = 3     # work of a fresh inverse, times m³: one LU and m right-hand sides


class FaceSystem:
    """A, its inverse P and the rows K[F, :] of one problem's face, updated as its free set changes (`face`) and
    solved (`solve`); rows reads K (kernel_core.dual.KernelRows). One polish keeps one."""

    def __init__(self, rows, y, fit_intercept):
        self.rows, self.y, self.h = rows, y, int(fit_intercept)
        self.F = np.empty(0, dtype=np.intp)
        self.A = self.P = self.K_F = None
        self.member = np.zeros(y.size, dtype=bool)     # the mask of F
        self.inverse = False     # whether P is A⁻¹ (and well-conditioned)
        self.solves = 0          # solves so far
        self.hopeless = False    # P failed on a face of this polish (ill-conditioned, nearly singular): LU from then on

    def face(self, free, F):
        """Make the system that of the free set `free` (a mask (n,)), F its indices sorted, and return F in the
        system's order: the indices that left are dropped and those that entered appended while P is known, else
        the system is built afresh for F."""
        left = np.flatnonzero(~free[self.F])
        entered = F[~self.member[F]]
        if not self.inverse or left.size + entered.size > UPDATE_MAX:
            self._build(F)
        else:
            for i in self.F[left]:
                self._drop(int(np.flatnonzero(self.F == i)[0]))
            for t in entered:
                self._append(int(t))
        return self.F

    def _build(self, F):
        """The system of F from its rows K[F, :], with no inverse yet."""
        m = F.size
        self._reserve(m)
        self.F = F.copy()
        self.member[:] = False
        self.member[F] = True
        K_F = self.K_F[:m]
        K_F[...] = self.rows.block(F)
        yF = self.y[F]
        A = self.A[:m + self.h, :m + self.h]
        A[:m, :m] = yF[:, None] * K_F[:, F] * yF
        self.a_max = np.abs(A[:m, :m]).max(initial=1.0)
        if self.h:
            A[m, m] = 0.0
            A[m, :m] = A[:m, m] = yF
        self.inverse = False

    def _reserve(self, m):
        """Buffers for at least m free indices (a quarter more, at most n), keeping what they hold."""
        if self.A is not None and self.A.shape[0] >= m + self.h:
            return
        size = min(self.y.size, max(16, m + m // 4))     # room for the appends of the next steps
        A, P, K_F = np.empty((size + self.h,) * 2), np.empty((size + self.h,) * 2), np.empty((size, self.y.size))
        if self.A is not None:
            k = self.F.size + self.h
            A[:k, :k], P[:k, :k], K_F[:self.F.size] = self.A[:k, :k], self.P[:k, :k], self.K_F[:self.F.size]
        self.A, self.P, self.K_F = A, P, K_F

    def _drop(self, p):
        """Remove the free index at position p: exchange it with the last free index, downdate P there, and move
        b's row and column (last) into its place."""
        m, k = self.F.size, self.F.size + self.h
        q = m - 1
        self.member[self.F[p]] = False
        if p != q:
            for X in (self.A, self.P):
                _exchange(X, p, q, k)
                _exchange(X.T, p, q, k)
            self.K_F[p] = self.K_F[q]
            self.F[p] = self.F[q]
        self.F = self.F[:q]
        P = self.P[:k, :k]
        pivot = P.item(q, q)
        if not abs(pivot) > PIVOT * self.p_max:
            self.inverse, self.hopeless = False, True
        else:
            column = P[:, q].copy()
            P -= column[:, None] * (P[q] / pivot)
            self._bound(np.abs(column).max() ** 2 / abs(pivot))
        if self.h:
            for X in (self.A, self.P):
                X[q, :k] = X[m, :k]
                X[:k, q] = X[:k, m]

    def _append(self, t):
        """Add the free index t after the others (b's row and column move one place on), bordering P."""
        m, h = self.F.size, self.h
        k = m + h
        self._reserve(m + 1)
        K_t = self.K_F[m]
        K_t[:] = self.rows.row(t)
        y_t = self.y[t]
        # the new column in the order of the new system (F, t, b), and its entry at t
        c = np.zeros(k + 1)
        c[:m] = y_t * self.y[self.F] * K_t[self.F]
        d = K_t.item(t)
        if h:
            c[k] = y_t
            for X in (self.A, self.P):
                X[k, :k] = X[m, :k]
                X[:k + 1, k] = X[:k + 1, m]
        A, P = self.A[:k + 1, :k + 1], self.P[:k + 1, :k + 1]
        A[m] = A[:, m] = c
        A[m, m] = d
        self.F = np.append(self.F, t)
        self.member[t] = True
        P[m] = P[:, m] = 0.0
        u = P @ c
        s = d - c @ u
        if not abs(s) > PIVOT * (abs(d) + abs(c @ u)):
            self.inverse, self.hopeless = False, True
            return
        u /= s
        P += (u * s)[:, None] * u
        P[m] = P[:, m] = -u
        P[m, m] = 1.0 / s
        self.a_max = max(self.a_max, np.abs(c).max(), abs(d))
        self._bound(max(np.abs(u).max() ** 2 * abs(s), 1.0 / abs(s), np.abs(u).max()))

    def _bound(self, grown):
        """Keep P only while the condition estimate κ = (m + h) max |A| max |P| is at most COND_MAX, max |P| bounded
        above by the growth of each update (recomputed when the bound passes COND_MAX)."""
        k = self.F.size + self.h
        self.p_max += grown
        if k * self.a_max * self.p_max > COND_MAX:
            self.p_max = np.abs(self.P[:k, :k]).max()
            if not k * self.a_max * self.p_max <= COND_MAX:
                self.inverse, self.hopeless = False, True

    def solve(self, r):
        """(x, rest, work): A x = r and its residual rest = r - A x, from P while it is known. Else the first solve
        of a polish is one LU (as polish solved every face before: a polish often ends after one step), and from
        the second on P is formed from one LU for the steps after, until it fails once (`hopeless`). x None: no
        exact x (A singular at working precision; the caller solves by least squares, from `matrix`)."""
        k = self.F.size + self.h
        A, P = self.A[:k, :k], self.P[:k, :k]
        self.solves += 1
        if self.inverse:
            x, rest, exact = _refined(A, P, r)
            if exact:
                return x, rest, UPDATE_WORK * float(k) ** 2
            self.inverse, self.hopeless = False, True
        if self.solves >= 2 and not self.hopeless:
            try:
                P[...] = np.linalg.solve(A, np.eye(k))
            except np.linalg.LinAlgError:
                self.hopeless = True
                return None, None, INVERSE_WORK * float(k) ** 3
            self.inverse, self.p_max = True, 0.0
            self._bound(np.abs(P).max())
            if self.inverse:
                x, rest, exact = _refined(A, P, r)
                self.inverse, self.hopeless = exact, not exact
                return (x if exact else None), rest, INVERSE_WORK * float(k) ** 3
        try:
            x = np.linalg.solve(A, r)
        except np.linalg.LinAlgError:
            return None, None, float(k) ** 3
        rest = r - A @ x
        return (x if _within(rest, r) else None), rest, float(k) ** 3

    def matrix(self):
        """A, for a solve by least squares."""
        k = self.F.size + self.h
        return self.A[:k, :k]

    def rows_F(self):
        """The rows K[F, :], F in the system's order."""
        return self.K_F[:self.F.size]


def _exchange(X, p, q, k):
    """Exchange rows p and q of X over its first k columns (slices: cheaper than fancy indexing)."""
    row = X[p, :k].copy()
    X[p, :k] = X[q, :k]
    X[q, :k] = row


def _within(rest, r):
    """Whether a residual is within EXACT (a NaN or infinite one is not)."""
    return bool(np.abs(rest).max(initial=0.0) <= EXACT * (1.0 + np.abs(r).max(initial=0.0)))


def _refined(A, P, r):
    """(x, rest, exact): x = P r improved once by its residual, its residual rest = r - A x, and whether that is
    within EXACT."""
    x = P @ r
    x += P @ (r - A @ x)
    rest = r - A @ x
    return x, rest, _within(rest, r)
