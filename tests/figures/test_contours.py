"""Level lines (figures.contours): the geometry the decision plots draw, against a plain-loop oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from figures.contours import level_lines


def crossing_points(x, y, z, level):
    """The point where z crosses level on each crossed grid edge of a cell with four finite corners, by a
    plain loop (the oracle). Two edges give the same point when the level passes through the node between them."""
    ok = np.isfinite(z)
    finite_cell = ok[:-1, :-1] & ok[:-1, 1:] & ok[1:, :-1] & ok[1:, 1:]
    points = []
    for i in range(len(y)):
        for j in range(len(x)):
            for di, dj in ((0, 1), (1, 0)):
                k, m = i + di, j + dj
                if k >= len(y) or m >= len(x) or (z[i, j] > level) == (z[k, m] > level):
                    continue
                # the cells on either side of the edge
                sides = [(i - dj, j - di), (i, j)]
                if not any(0 <= a < len(y) - 1 and 0 <= b < len(x) - 1 and finite_cell[a, b] for a, b in sides):
                    continue
                t = (level - z[i, j]) / (z[k, m] - z[i, j])
                points.append((round(x[j] + t * (x[m] - x[j]), 9), round(y[i] + t * (y[k] - y[i]), 9)))
    return points


def polylines(xs, ys):
    breaks = np.flatnonzero(np.isnan(xs))
    assert np.array_equal(breaks, np.flatnonzero(np.isnan(ys)))
    pieces = [np.column_stack(p) for p in zip(np.split(xs, breaks), np.split(ys, breaks))]
    return [p[1:] if k else p for k, p in enumerate(pieces)]  # each piece after the first starts at its NaN


def test_a_circle_is_one_closed_line_on_the_circle():
    x = y = np.linspace(-2, 2, 81)
    z = x[None, :] ** 2 + y[:, None] ** 2 - 1
    xs, ys = level_lines(x, y, z, 0.0)
    (line,) = polylines(xs, ys)
    np.testing.assert_array_equal(line[0], line[-1])
    # linear interpolation of r² − 1 along a cell edge of width 0.05 is off by at most 0.05²/4
    np.testing.assert_allclose(np.hypot(*line.T), 1.0, atol=0.05 ** 2 / 4)


def test_two_circles_give_two_lines_and_levels_move_them():
    x = np.linspace(-3, 3, 121)
    y = np.linspace(-1.5, 1.5, 61)
    z = np.minimum((x[None, :] - 1.5) ** 2 + y[:, None] ** 2, (x[None, :] + 1.5) ** 2 + y[:, None] ** 2)
    assert len(polylines(*level_lines(x, y, z, 1.0))) == 2
    inner = polylines(*level_lines(x, y, z, 0.25))
    assert len(inner) == 2 and all(np.hypot(np.abs(p[:, 0]) - 1.5, p[:, 1]).max() < 0.51 for p in inner)


def test_a_line_leaving_the_window_is_open_and_ends_on_the_border():
    x = y = np.linspace(0, 1, 11)
    z = np.add.outer(y, x) - 1.0          # x + y = 1, from (0, 1) to (1, 0)
    (line,) = polylines(*level_lines(x, y, z, 0.0))
    assert {tuple(np.round(line[0], 9)), tuple(np.round(line[-1], 9))} == {(0.0, 1.0), (1.0, 0.0)}
    np.testing.assert_allclose(line.sum(axis=1), 1.0, atol=1e-12)


def test_no_crossing_gives_empty_arrays():
    xs, ys = level_lines([0, 1], [0, 1], np.ones((2, 2)), 0.0)
    assert xs.shape == ys.shape == (0,)


def test_a_saddle_cell_is_split_by_its_centre_value():
    x = y = np.array([0.0, 1.0])
    # corners +1 at lower left and upper right; centre mean 0.5 > 0: the positive corners join
    lines = polylines(*level_lines(x, y, np.array([[1.0, -1.0], [-1.0, 2.0]]), 0.0))
    assert len(lines) == 2
    cut = {frozenset(map(tuple, np.round(p, 9))) for p in lines}
    # the negative corners are cut off: (1, 0) by the bottom and right edges, (0, 1) by the top and left
    third = round(1 / 3, 9)
    assert cut == {frozenset({(0.5, 0.0), (1.0, third)}), frozenset({(third, 1.0), (0.0, 0.5)})}


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(2, 9), st.integers(2, 9)),
              elements=st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.25, 1.0, 3.0, np.nan])),
       st.sampled_from([-1.0, 0.0, 0.5]))
def test_the_lines_pass_through_each_crossed_edge_once_and_step_within_a_cell(z, level):
    x = np.linspace(-1.0, 2.0, z.shape[1])
    y = np.linspace(0.0, 1.0, z.shape[0]) ** 2 + np.arange(z.shape[0])   # uneven rows
    xs, ys = level_lines(x, y, z, level)
    expected = crossing_points(x, y, z, level)
    lines = polylines(xs, ys) if xs.size else []
    seen = []
    for line in lines:
        seen += [tuple(np.round(p, 9)) for p in line]
        step = np.abs(np.diff(line, axis=0))
        assert (step[:, 0] <= np.diff(x).max() + 1e-9).all() and (step[:, 1] <= np.diff(y).max() + 1e-9).all()
    # every crossed edge once; a closed line repeats its first point
    assert set(seen) == set(expected) and len(expected) <= len(seen) <= len(expected) + len(lines)


def test_level_lines_rejects_mismatched_shapes():
    with pytest.raises(ValueError, match="z of shape"):
        level_lines([0, 1, 2], [0, 1], np.zeros((3, 2)))
