"""lab/points.py: the student's points and their text in the link, without Streamlit."""

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from lab import points
from lab.state import MAX_USER_POINTS

COORD = hs.floats(-10, 10).map(lambda v: round(v, 2) + 0.0)
POINT = hs.tuples(COORD, COORD, hs.sampled_from([-1, 1]))


@given(hs.lists(POINT, max_size=MAX_USER_POINTS))
def test_points_survive_the_link(pts):
    assert points.decode(points.encode(tuple(pts))) == tuple(pts)


def test_junk_in_the_link_is_dropped():
    assert points.decode("0.5_1_1~x_y_z~1_2_0~١_2_1~-0.25_0.75_-1\n") == ((0.5, 1.0, 1),)
    assert points.decode("1_1_1~" * 500) == ((1.0, 1.0, 1),) * MAX_USER_POINTS


def test_add_move_remove_keep_the_link_rounding_and_the_class():
    pts = points.added((), -0.014, 0.2351, -1)
    assert pts == ((-0.01, 0.24, -1),)
    pts = points.added(pts, 10, -10, 1)
    assert points.moved(pts, 0, 1.005, 2.0) == ((1.0, 2.0, -1), (10.0, -10.0, 1))
    assert points.moved(pts, 5, 0, 0) == pts
    assert points.removed(pts, 0) == ((10.0, -10.0, 1),)
    assert points.removed(pts, -1) == pts
    for bad in ((30, 0), (0, -10.01), (float("nan"), 0)):    # outside the window the link and uploads allow
        with pytest.raises(ValueError, match="within ±10"):
            points.added(pts, *bad, 1)
        with pytest.raises(ValueError, match="within ±10"):
            points.moved(pts, 0, *bad)


def test_at_most_max_user_points():
    full = ((0.0, 0.0, 1),) * MAX_USER_POINTS
    try:
        points.added(full, 1, 1, 1)
    except ValueError as exc:
        assert str(MAX_USER_POINTS) in str(exc)
    else:
        raise AssertionError("a point beyond the limit was added")


def test_the_third_class_travels_in_the_link_and_nothing_else_does():
    from lab import points

    pts = ((0.5, -1.25, 2), (1.0, 1.0, -1), (-2.0, 0.0, 1))
    assert points.decode(points.encode(pts)) == pts
    assert points.decode("1_1_3~1_1_0~1_1_-2~2_2_2") == ((2.0, 2.0, 2),)


def test_link_points_outside_the_upload_window_are_refused_with_a_notice():
    kept, notice = points.read("1_1_1~500_2_1~-10.01_0_-1~10_-10_2")
    assert kept == ((1.0, 1.0, 1), (10.0, -10.0, 2))
    assert "2 point(s) outside ±10" in notice
    # what a link holds downloads as a file the upload reads back
    from datasets.upload import read_points_csv
    assert read_points_csv(points.to_csv(kept).encode(), max_rows=MAX_USER_POINTS, max_bytes=1 << 20).points == kept


def test_link_points_cut_or_dropped_are_named_in_the_notice():
    kept, notice = points.read("1_1_1~" * (MAX_USER_POINTS + 5))
    assert len(kept) == MAX_USER_POINTS and f"after the first {MAX_USER_POINTS}" in notice
    kept, notice = points.read("nan_1_1~1e308_2_1~1_1_1")
    assert kept == ((1.0, 1.0, 1),) and "2 part(s) that are not points" in notice
    assert points.read("1_1_1~" * MAX_USER_POINTS) == (((1.0, 1.0, 1),) * MAX_USER_POINTS, None)
    assert points.read("") == ((), None)
