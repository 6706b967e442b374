"""A third class (the blobs3 dataset, or the student's class-2 points) on every lesson: lesson 3's kernel mode trains
on it (one-vs-rest, tests/pages/test_page_primal_dual.py); the binary lessons refuse the dataset and leave the points
out, each saying so, never computing with a label that is not ±1."""

import pytest
from streamlit.testing.v1 import AppTest

from pageutil import ROOT, open_page

BINARY = ["lessons/circle/page.py", "lessons/primal_dual/page.py", "lessons/pegasos/page.py", "lessons/mercer/page.py",
          "lessons/regression/page.py"]


@pytest.mark.parametrize("page", BINARY)
def test_a_binary_lesson_refuses_the_three_class_dataset_with_a_message(page):
    state = {"cl_data": "sidebar"} if "circle" in page else None
    at = open_page(page, sidebar={"dataset": "blobs3"}, state=state)
    if "regression" in page and not at.error:
        pytest.skip("this view of lesson 6 trains on the house prices, not the sidebar's points")
    assert any("three classes" in e.value and "one-vs-rest" in e.value for e in at.error), [e.value for e in at.error]


@pytest.mark.parametrize("page", BINARY)
def test_a_binary_lesson_leaves_class_2_points_out_and_says_so(page):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["pts"] = "0.40_-0.30_2~0.50_0.50_1"
    at.run()
    at.switch_page(page)
    at.run()
    if "circle" in page:
        at.session_state["cl_data"] = "sidebar"
        at.run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    texts = [i.value for i in at.info]
    if "regression" in page and not any("class 2 (green)" in t for t in texts):
        pytest.skip("this view of lesson 6 trains on the house prices, not the sidebar's points")
    assert any("1 of your points is of class 2 (green)" in t for t in texts), texts


def test_lesson_1_takes_every_point_of_the_three_class_dataset():
    at = open_page("lessons/feature_maps/page.py", sidebar={"dataset": "blobs3"}, widgets={"fm_source": "data"})
    assert not at.error, [e.value for e in at.error]
