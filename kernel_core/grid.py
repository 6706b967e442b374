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
