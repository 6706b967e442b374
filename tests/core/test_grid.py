"""Plotting grids: layout Plotly expects, bounds, float32 exactness, degenerate data."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kernel_core.grid import make_grid, make_grid_1d


def _data():
    return np.array([[-1.0, 2.0], [3.0, 5.0], [0.5, 4.0]])


def test_grid_shapes_and_point_count():
    g = make_grid(_data(), n=7)
    assert g.x.shape == (7,) and g.y.shape == (7,) and g.points.shape == (49, 2)


def test_reshaped_values_put_row_i_at_y_and_column_j_at_x():
    g = make_grid(_data(), n=5)
    z = (10.0 * g.points[:, 0] + g.points[:, 1]).reshape(5, 5)   # any f that tells x from y
    for i in range(5):
        for j in range(5):
            assert z[i, j] == 10.0 * g.x[j] + g.y[i]


def test_points_round_trip_through_reshape_to_the_axes():
    g = make_grid(_data(), n=6)
    np.testing.assert_array_equal(g.points[:, 0].reshape(6, 6), np.tile(g.x, (6, 1)))
    np.testing.assert_array_equal(g.points[:, 1].reshape(6, 6), np.tile(g.y[:, None], (1, 6)))


def test_bounds_are_data_range_padded_by_the_fraction():
    g = make_grid(_data(), n=11, pad=0.25)
    np.testing.assert_allclose([g.x[0], g.x[-1]], [-1.0 - 1.0, 3.0 + 1.0], rtol=1e-7)
    np.testing.assert_allclose([g.y[0], g.y[-1]], [2.0 - 0.75, 5.0 + 0.75], rtol=1e-7)
    np.testing.assert_allclose(np.diff(g.x), 0.6, rtol=1e-6)


def test_axes_are_exact_in_float32():
    g = make_grid(np.random.default_rng(0).normal(size=(50, 2)), n=40)
    for axis in (g.x, g.y, g.points):
        np.testing.assert_array_equal(axis.astype(np.float32).astype(np.float64), axis)


@settings(max_examples=50, deadline=None)
@given(X=arrays(np.float64, st.tuples(st.integers(1, 8), st.just(2)),
                elements=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)),
       n=st.integers(2, 60), pad=st.floats(0.0, 1.0))
def test_grid_always_covers_the_data_with_strictly_increasing_axes(X, n, pad):
    g = make_grid(X, n=n, pad=pad)
    for axis, col in ((g.x, X[:, 0]), (g.y, X[:, 1])):
        assert np.all(np.diff(axis) > 0)
        assert axis[0] <= col.min() and axis[-1] >= col.max()


def test_single_point_gets_a_window_of_width_two_around_it():
    g = make_grid([[3.0, -1.0]], n=5, pad=0.0)
    np.testing.assert_allclose([g.x[0], g.x[-1], g.y[0], g.y[-1]], [2.0, 4.0, -2.0, 0.0], rtol=1e-7)
    assert g.x[2] == 3.0 and g.y[2] == -1.0


def test_identical_points_behave_like_one_point():
    a = make_grid(np.tile([[0.5, 0.5]], (10, 1)), n=9)
    b = make_grid([[0.5, 0.5]], n=9)
    np.testing.assert_array_equal(a.points, b.points)


def test_points_on_a_vertical_line_borrow_the_other_axis_range():
    X = np.array([[2.0, 0.0], [2.0, 4.0], [2.0, 1.0]])
    g = make_grid(X, n=9, pad=0.0)
    np.testing.assert_allclose([g.x[0], g.x[-1]], [0.0, 4.0], atol=1e-6)
    np.testing.assert_allclose([g.y[0], g.y[-1]], [0.0, 4.0], atol=1e-6)


def test_degenerate_window_far_from_origin_keeps_distinct_float32_values():
    g = make_grid([[1e6, -1e6]], n=200)
    assert np.all(np.diff(g.x) > 0) and np.all(np.diff(g.y) > 0)


def test_grid_1d_covers_padded_range_and_returns_column_points():
    g = make_grid_1d([0.0, 2.0, 10.0], n=21, pad=0.1)
    assert g.x.shape == (21,) and g.points.shape == (21, 1)
    np.testing.assert_allclose([g.x[0], g.x[-1]], [-1.0, 11.0], rtol=1e-7)
    np.testing.assert_array_equal(g.points[:, 0], g.x)
    np.testing.assert_array_equal(g.x.astype(np.float32).astype(np.float64), g.x)


def test_grid_1d_of_a_constant_is_a_window_of_width_two():
    g = make_grid_1d(np.full(5, -3.0), n=3, pad=0.0)
    np.testing.assert_allclose(g.x, [-4.0, -3.0, -2.0], rtol=1e-7)


@pytest.mark.parametrize("kwargs,match", [({"n": 1}, "n must"), ({"n": 2.5}, "whole"), ({"pad": -0.1}, "pad"),
                                          ({"n": 5000}, "n must")])
def test_grid_rejects_bad_size_and_pad(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_grid(_data(), **kwargs)


def test_grid_rejects_wrong_dimension_empty_and_nan():
    with pytest.raises(ValueError, match="make_grid_1d"):
        make_grid(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="make_grid for 2-D"):
        make_grid_1d(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="empty"):
        make_grid(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="NaN"):
        make_grid([[0.0, np.nan]])
