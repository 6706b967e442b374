"""Evaluation grids over the data, in the layout Plotly's heatmap and contour expect.

Notation
    X       (n, 2) or (n,)  the data the window must cover
    x, y    (m,)            grid axes, increasing
    points  (m*m, 2)        every (x[j], y[i]); row i*m + j, so f(points).reshape(m, m)
                            is z with z[i, j] at (x[j], y[i]): rows follow y, columns x

Axes are float64 arrays whose values are exactly representable in float32: the figure
can ship them as float32 (half the payload) and still label exactly the points the
model was evaluated on.
"""

from typing import NamedTuple

import numpy as np

from .validation import check_array, check_int, check_positive

MAX_GRID_2D = 1_000
MAX_GRID_1D = 100_000
# a window narrower than this many float32 steps per cell would repeat axis values
_ULPS_PER_CELL = 4


class Grid(NamedTuple):
    x: np.ndarray       # (m,) columns of z
    y: np.ndarray       # (m,) rows of z
    points: np.ndarray  # (m*m, 2) in row-major order of z


class Grid1D(NamedTuple):
    x: np.ndarray       # (m,)
    points: np.ndarray  # (m, 1), ready for predict


def _min_span(lo, hi, n):
    return _ULPS_PER_CELL * n * np.finfo(np.float32).eps * max(1.0, abs(lo), abs(hi))


def _axis(lo, hi, n, pad, fallback):
    """n float32-exact values over [lo, hi] widened by pad × span on each side."""
    span = hi - lo
    if span < _min_span(lo, hi, n):
        # identical coordinates: centre a window of the fallback width on them
        span = max(fallback, _min_span(lo, hi, n))
        lo = 0.5 * (lo + hi) - 0.5 * span
        hi = lo + span
    start, stop = lo - pad * span, hi + pad * span
    axis = np.linspace(start, stop, n).astype(np.float32)
    # round the ends outward so float32 rounding never cuts off a data point at the edge
    if axis[0] > start:
        axis[0] = np.nextafter(axis[0], np.float32(-np.inf))
    if axis[-1] < stop:
        axis[-1] = np.nextafter(axis[-1], np.float32(np.inf))
    return axis.astype(np.float64)


def _check_n_pad(n, pad, high):
    return check_int(n, "n", low=2, high=high), check_positive(pad, "pad", allow_zero=True)


def make_grid(X, *, n=100, pad=0.1):
    """An n × n grid over the bounding box of X, padded by pad × range on every side.

    A degenerate axis (all points share that coordinate) borrows the other axis's range,
    or a width of 2 when every point is the same, so the window is never empty.
    """
    X = check_array(X)
    if X.shape[1] != 2:
        raise ValueError(f"make_grid needs 2-D points (n, 2); got {X.shape[1]} column(s). "
                         "Use make_grid_1d for 1-D data.")
    n, pad = _check_n_pad(n, pad, MAX_GRID_2D)
    lo, hi = X.min(axis=0), X.max(axis=0)
    spans = [s if s >= _min_span(a, b, n) else 0.0 for a, b, s in zip(lo, hi, hi - lo)]
    fallback = max(spans) if max(spans) > 0 else 2.0
    x = _axis(lo[0], hi[0], n, pad, fallback)
    y = _axis(lo[1], hi[1], n, pad, fallback)
    xx, yy = np.meshgrid(x, y)          # "xy" indexing: xx[i, j] = x[j], yy[i, j] = y[i]
    return Grid(x, y, np.column_stack([xx.ravel(), yy.ravel()]))


def make_grid_1d(x, *, n=200, pad=0.1):
    """n points over the range of 1-D data x, padded by pad × range (width 2 if x is constant)."""
    x = check_array(x, "x")
    if x.shape[1] != 1:
        raise ValueError(f"make_grid_1d needs 1-D data; got {x.shape[1]} columns. Use make_grid for 2-D.")
    n, pad = _check_n_pad(n, pad, MAX_GRID_1D)
    axis = _axis(x.min(), x.max(), n, pad, 2.0)
    return Grid1D(axis, axis[:, None])


def level_lines(x, y, z, level=0.0):
    """The level set {z = level} of a grid function as polylines: marching squares, linear along edges.

    z (len(y), len(x)) holds z[i, j] at (x[j], y[i]), as make_grid lays it out. Each crossing point lies on
    a grid edge whose two ends are on opposite sides (z > level versus not), where the straight line
    between the two end values passes through level. A cell crossed on all four edges (a saddle) is split
    the way the mean of its corners says. Cells with a non-finite corner are left out.

    Returns (xs, ys): float64 arrays of the polylines' points, polylines separated by NaN (Plotly draws
    them as one trace with breaks); a closed curve repeats its first point at the end.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    z = np.asarray(z, dtype=np.float64)
    if x.ndim != 1 or y.ndim != 1 or z.shape != (len(y), len(x)) or len(x) < 2 or len(y) < 2:
        raise ValueError(f"level_lines needs axes x (m,), y (k,) with m, k >= 2 and z of shape (k, m); got x "
                         f"{x.shape}, y {y.shape}, z {z.shape}.")
    level = float(level)
    ny, nx = z.shape
    above = z > level
    finite = np.isfinite(z)
    with np.errstate(invalid="ignore", divide="ignore"):
        # crossings on horizontal edges (i, j)-(i, j+1) and vertical edges (i, j)-(i+1, j)
        h_cross = (above[:, :-1] != above[:, 1:]) & finite[:, :-1] & finite[:, 1:]
        v_cross = (above[:-1, :] != above[1:, :]) & finite[:-1, :] & finite[1:, :]
        th = (level - z[:, :-1]) / (z[:, 1:] - z[:, :-1])
        tv = (level - z[:-1, :]) / (z[1:, :] - z[:-1, :])
    # the crossing point of every edge, horizontal edges first (id i*(nx-1) + j), then vertical ones
    edge_x = np.concatenate([(x[:-1][None, :] + th * np.diff(x)[None, :]).ravel(), np.tile(x, ny - 1)])
    edge_y = np.concatenate([np.repeat(y, nx - 1), (y[:-1][:, None] + tv * np.diff(y)[:, None]).ravel()])
    n_h = ny * (nx - 1)

    # each cell's crossed edges: bottom (i, j), right (i, j+1), top (i+1, j), left (i, j)
    cell_ok = finite[:-1, :-1] & finite[:-1, 1:] & finite[1:, :-1] & finite[1:, 1:]
    bottom, top = h_cross[:-1, :], h_cross[1:, :]
    left, right = v_cross[:, :-1], v_cross[:, 1:]
    count = bottom.astype(int) + top + left + right
    neighbours = {}

    def link(a, b):
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)

    for i, j in zip(*np.nonzero(cell_ok & (count > 0))):
        b_id, t_id = i * (nx - 1) + j, (i + 1) * (nx - 1) + j
        l_id, r_id = n_h + i * nx + j, n_h + i * nx + j + 1
        if count[i, j] == 4:
            centre = (z[i, j] + z[i, j + 1] + z[i + 1, j] + z[i + 1, j + 1]) / 4 > level
            if centre == above[i, j]:   # the lower-left corner joins the centre: cut off lower-right, upper-left
                link(b_id, r_id)
                link(t_id, l_id)
            else:                       # cut off lower-left and upper-right
                link(l_id, b_id)
                link(r_id, t_id)
        else:
            ends = [e for e, crossed in ((b_id, bottom[i, j]), (r_id, right[i, j]), (t_id, top[i, j]),
                                         (l_id, left[i, j])) if crossed]
            link(*ends)

    # chain the segments: open lines from their ends (one neighbour) first, then the closed loops
    order, seen = [], set()   # edge ids along the lines, -1 between two lines
    starts = [e for e, nb in neighbours.items() if len(nb) == 1] + list(neighbours)
    for start in starts:
        if start in seen:
            continue
        path, previous, current = [start], None, start
        seen.add(start)
        while True:
            ahead = [e for e in neighbours[current] if e != previous]
            if not ahead:
                break
            following = ahead[0]
            if following in seen:
                if following == start and len(path) > 2:
                    path.append(start)  # closed
                break
            seen.add(following)
            path.append(following)
            previous, current = current, following
        order += [*path, -1]
    ids = np.array(order[:-1], dtype=np.intp)
    breaks = ids < 0
    xs, ys = edge_x[ids], edge_y[ids]
    xs[breaks] = ys[breaks] = np.nan
    return xs, ys
