"""Every page under Streamlit's AppTest, driven through app.py's navigation: it renders without an
exception, and each of its sliders moved from one extreme to the other changes what the page draws."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import SelectSlider

from pageutil import figures, lesson_pages, live_controls, live_values, move, open_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = lesson_pages()


def drawn(at):
    """What the page shows: every figure's JSON, and the numbers and tables around them."""
    parts = figures(at)
    for kind in ("metric", "dataframe", "table", "markdown", "latex", "code"):
        parts.extend(str(e.proto) for e in at.main.get(kind))
    return parts


def option_value(widget, label):
    """The option whose formatted label is `label` (AppTest keeps only the labels of a select_slider)."""
    candidates = [label]
    try:
        candidates.append(float(label))
    except ValueError:
        candidates.append(float("inf"))
    for value in candidates:
        try:
            if widget.format_func(value) == label:
                return value
        except (TypeError, ValueError):
            continue
    raise AssertionError(f"cannot recover the value of option {label!r} of {widget.key}")


def extremes(widget):
    if isinstance(widget, SelectSlider):
        return option_value(widget, widget.options[0]), option_value(widget, widget.options[-1])
    return widget.min, widget.max


def sliders(at):
    """The keys of the page's enabled sliders: Streamlit's and the live sections' (lab/live_control.py)."""
    plain = [w.key for w in (*at.main.slider, *at.main.select_slider) if w.key is not None and not w.disabled]
    return plain + [key for key, options in live_controls(at).items() if not options["disabled"]]


def slider_extremes(at, key):
    """The lowest and the highest value of slider `key`."""
    options = live_controls(at).get(key)
    if options is not None:
        values = live_values(key, options)
        return values[0], values[-1]
    return extremes(at.get_by_key(key))


def set_slider(at, key, value):
    """Slider `key` set to `value`, then the run it starts."""
    if key in live_controls(at):
        return move(at, key, value)
    return at.get_by_key(key).set_value(value).run()


@pytest.mark.parametrize("page", PAGES)
def test_page_renders_a_figure_without_exception(page):
    at = open_page(page)
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert figures(at), "the page drew no figure"


@pytest.mark.parametrize("page", PAGES)
def test_each_slider_at_its_extremes_redraws_without_exception(page):
    at = open_page(page)
    keys = sliders(at)
    assert keys, "the page has no slider"
    for key in keys:
        at = open_page(page)
        low, high = slider_extremes(at, key)
        seen = []
        for value in (low, high):
            set_slider(at, key, value)
            assert not at.exception, f"{key}={value}: {at.exception}"
            seen.append((figures(at), drawn(at)))
        (fig_low, all_low), (fig_high, all_high) = seen
        assert fig_low != fig_high or all_low != all_high, f"moving {key} from {low} to {high} changed nothing"


def test_sidebar_controls_reach_the_page_and_keep_values_across_pages():
    at = open_page("lessons/primal_dual/page.py")
    before = figures(at)
    at.sidebar.slider(key="n").set_value(200).run()
    assert not at.exception
    assert figures(at) != before
    at.switch_page("lessons/mercer/page.py")
    at.run()
    assert at.sidebar.slider(key="n").value == 200


@pytest.mark.parametrize("page", ["lessons/pegasos/page.py", "lessons/mercer/page.py", "lessons/regression/page.py"])
def test_a_shared_link_as_the_first_request_runs_the_router_and_its_sidebar(page):
    # a fresh server whose first request is a lesson URL (file name = url_path) must still run app.py;
    # with a pages/ folder Streamlit would run the lesson alone, without the shared sidebar
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    assert at.sidebar.slider(key="n").value == 100
