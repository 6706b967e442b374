"""Level lines of a grid function, for the decision plots' boundary f = 0 and margins f = ±1.

Marching squares with linear interpolation along cell edges, by contourpy (matplotlib's C++ contouring):
per move the pages trace three levels on the decision grid and on every replay frame (lesson 4: 78 lines),
and a loop in Python over the crossed cells cost several times contourpy's time per frame.
The geometry is pinned by tests/figures/test_contours.py against a plain-loop oracle.
"""

import contourpy
import numpy as np

_EMPTY = np.empty(0)


def level_lines(x, y, z, level=0.0):
    """The level set {z = level} of a grid function as polylines.

    z (len(y), len(x)) holds z[i, j] at (x[j], y[i]), as kernel_core.grid.make_grid lays it out. Each crossing
    point lies on a grid edge whose two ends are on opposite sides (z > level versus not), where the straight
    line between the two end values passes through level. A cell crossed on all four edges (a saddle) is split
    the way the mean of its corners says. Cells with a non-finite corner are left out.

    Returns (xs, ys): float64 arrays of the polylines' points, polylines separated by NaN (Plotly draws them as
    one trace with breaks); a closed curve repeats its first point at the end.
    """
    (lines,) = level_sets(x, y, z, (level,))
    return lines


def level_sets(x, y, z, levels):
    """[level_lines(x, y, z, level) for level in levels], from one pass over the grid's setup."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    z = np.asarray(z, dtype=np.float64)
    if x.ndim != 1 or y.ndim != 1 or z.shape != (len(y), len(x)) or len(x) < 2 or len(y) < 2:
        raise ValueError(f"level_lines needs axes x (m,), y (k,) with m, k >= 2 and z of shape (k, m); got x "
                         f"{x.shape}, y {y.shape}, z {z.shape}.")
    finite = np.isfinite(z)
    if not finite.any():
        return [(_EMPTY.copy(), _EMPTY.copy()) for _ in levels]
    if not finite.all():
        z = np.ma.masked_array(z, mask=~finite)
    # "serial" splits saddles by the cell's mean; corner_mask=False drops every cell with a masked corner
    generator = contourpy.contour_generator(x, y, z, name="serial", corner_mask=False,
                                            line_type=contourpy.LineType.ChunkCombinedNan)
    out = []
    for level in levels:
        (points,) = generator.lines(float(level))[0]
        out.append((_EMPTY.copy(), _EMPTY.copy()) if points is None else (points[:, 0].copy(), points[:, 1].copy()))
    return out
