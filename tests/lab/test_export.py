"""Export: the student's points as the CSV the sidebar's upload reads back to the same points, and the scene as the
view's link (every non-default setting and the points), which reopens the same view."""

from urllib.parse import parse_qsl, urlsplit

from hypothesis import given, strategies as st
from streamlit.testing.v1 import AppTest

from datasets.upload import MAX_ABS_COORD, read_points_csv
from lab import points, share
from lab.state import FIELDS, MAX_USER_POINTS, decode
from pageutil import ROOT, move

coordinate = st.floats(-MAX_ABS_COORD, MAX_ABS_COORD, allow_nan=False)
# the third class (2, lesson 3's one-vs-rest) travels too
a_point = st.builds(points.point, coordinate, coordinate, st.sampled_from([-1, 1, 2]))


@given(st.lists(a_point, min_size=1, max_size=MAX_USER_POINTS))
def test_exported_csv_uploads_back_to_the_same_points(own):
    own = tuple(own)
    text = points.to_csv(own)
    back = read_points_csv(text.encode(), max_rows=MAX_USER_POINTS, max_bytes=2**20)
    assert back.points == own and back.header and not back.labels_01
    # and the same points travel in the link
    assert points.decode(points.encode(own)) == own


def test_exported_csv_is_the_upload_format_line_by_line():
    assert points.to_csv(((0.5, -1.25, 1), (-10.0, 0.0, -1))) == "x1,x2,y\n0.50,-1.25,1\n-10.00,0.00,-1\n"


def app_at(page, query):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(query)
    at.run()
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_scene_is_the_views_link_it_holds_the_settings_and_points_and_reopens_the_same_view():
    """The scene a student takes home is the link Share shows (lab/share.py): the page and its query."""
    at = app_at("lessons/primal_dual/page.py", {"pts": "0.50_0.25_1~-1.50_1.75_-1"})
    at.sidebar.get_by_key("dataset").set_value("moons").run()
    move(at, "pd_C", 10.0)
    at.get_by_key("pd_space").set_value("kernel").run()
    link = share.share_link("http://localhost:8501", "primal-dual", {k: at.query_params[k] for k in at.query_params})
    query = dict(parse_qsl(urlsplit(link).query))
    assert query["dataset"] == "moons" and query["pd_C"] == "10" and query["pd_space"] == "kernel"
    assert points.decode(query["pts"]) == ((0.5, 0.25, 1), (-1.5, 1.75, -1))
    # a fresh session opened from the link shows the same numbers
    again = app_at("lessons/primal_dual/page.py", query)
    for key, text in query.items():
        if key in FIELDS:
            assert again.session_state[key] == decode(FIELDS[key], text)
    assert again.session_state["user_points"] == at.session_state["user_points"]
    assert [m.value for m in again.metric] == [m.value for m in at.metric]


def test_points_download_is_offered_only_when_there_are_points():
    at = app_at("lessons/circle/page.py", {})
    button, = at.get("download_button")
    assert button.proto.label == "Download my points (CSV)" and button.proto.disabled
    at = app_at("lessons/circle/page.py", {"pts": "0.50_0.25_1"})
    button, = at.get("download_button")
    assert not button.proto.disabled and button.proto.deferred_file_id
