"""No combination of control values raises on any page: hypothesis draws a value for every control a page
shows (sliders anywhere in their range, a live section's slider at any of its positions, every option of a select
slider, selectbox or segmented control, both states of a toggle, formulas from a hostile list), plus a few of the
student's own points piled on top of each other; and every control at its minimum, or at its maximum, all together.

The controls are discovered from the page itself, round by round, since some appear only after another
is set (the polynomial degree after the kernel). Each option's value is its field's choice in the URL schema.
Page reruns are timed; the slowest are printed.
"""

import functools
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs
from streamlit.testing.v1 import AppTest

from lab.state import FIELDS
from pageutil import figures, lesson_pages, live_controls, live_values

ROOT = Path(__file__).resolve().parents[2]
PAGES = lesson_pages()
KINDS = ("slider", "select_slider", "selectbox", "button_group", "toggle", "checkbox", "number_input", "text_input")
# scratch inputs of a point not yet added; "Use only my points" is drawn with the points themselves
SKIP = {"new_x1", "new_x2", "only_mine"}
ROUNDS = 3
FORMULAS = ("exp(-g * norm(x - z)**2)", "(dot(x, z) + r)**d", "tanh(g * dot(x, z) + r)", "", "x", "dot(x, z)**10",
            "__import__('os').system('echo hi')", "x.__class__.__mro__", "(" * 40 + "1" + ")" * 40,
            "9**9**9", "exp(exp(exp(dot(x, z))))", "norm(x - z) / 0", "ｅｘｐ(dot(x, z))", "1" * 400)
# coordinates of the student's points: few values, so points land on top of each other
PILE = hs.lists(hs.tuples(hs.sampled_from([-1.0, 0.0, 0.5, 1.0]), hs.sampled_from([-1.0, 0.5]),
                          hs.sampled_from([-1, 1])), max_size=6)
TIMINGS = []


def option_values(widget):
    """The value behind each option of a select slider, selectbox or segmented control: its field's choices in the
    URL schema (lab/state.py), which the control shows in that order."""
    choices = FIELDS[widget.key].choices
    assert [str(widget.format_func(value)) for value in choices] == list(widget.options), widget.key
    return list(choices)


def number_range(widget):
    low = -1e6 if widget.min is None else widget.min
    high = 1e6 if widget.max is None else widget.max
    return (int(low), int(high)) if isinstance(widget.value, int) else (float(low), float(high))


def slider_values(widget):
    """(low, high, step) of a slider, in its own type."""
    if isinstance(widget.value, int):
        return int(widget.min), int(widget.max), int(widget.step)
    return float(widget.min), float(widget.max), float(widget.step)


class LiveSlider:
    """A live section's slider (lab/live_control.py) as a control here: its values are its positions', and it is set
    through the session's state, as its trigger sets it (AppTest cannot send a component's trigger)."""

    type = "live_slider"

    def __init__(self, at, key, options):
        self.at, self.key, self.values = at, key, live_values(key, options)
        self.disabled = options["disabled"]

    def set_value(self, value):
        self.at.session_state[self.key] = value


def strategy(widget):
    """Values a student could give this control."""
    kind = widget.type
    if kind == "live_slider":
        return hs.sampled_from(widget.values)
    if kind == "slider":
        low, high, step = slider_values(widget)
        steps = round((high - low) / step)
        return hs.integers(0, steps).map(lambda k: min(high, type(low)(round(low + k * step, 10))))
    if kind in ("select_slider", "selectbox", "button_group"):
        return hs.sampled_from(option_values(widget))
    if kind in ("toggle", "checkbox"):
        return hs.booleans()
    if kind == "number_input":
        low, high = number_range(widget)
        return hs.integers(low, high) if isinstance(low, int) else hs.floats(low, high, allow_nan=False)
    if kind == "text_input":
        return hs.sampled_from(FORMULAS)
    raise AssertionError(f"no strategy for {kind}")


def extreme(widget, which, hard):
    """The control at its minimum (which=0) or maximum (which=1): sliders at an end, options first or last,
    kernels polynomial (the slowest: SMO runs to max_iter), toggles off or on; hard-margin toggles on only
    if hard. None leaves the control as it is (text)."""
    kind = widget.type
    if kind == "live_slider":
        return widget.values[-1 if which else 0]
    if kind == "slider":
        return slider_values(widget)[which]
    if kind in ("select_slider", "selectbox", "button_group"):
        if kind == "selectbox" and widget.key.endswith("kernel"):
            return "poly"
        return option_values(widget)[-1 if which else 0]
    if kind == "number_input":
        return number_range(widget)[which] if widget.max is not None else None
    if kind in ("toggle", "checkbox"):
        return bool(which) and (hard or "hard" not in widget.key)
    return None


def controls(where):
    """Keyed, enabled controls in `where` (the app, or its sidebar) now, by key."""
    live = [LiveSlider(where, key, options) for key, options in live_controls(where).items()] \
        if isinstance(where, AppTest) else []
    return {w.key: w for w in [*(w for kind in KINDS for w in where.get(kind)), *live]
            if w.key is not None and w.key not in SKIP and not getattr(w, "disabled", False)}


def tab_keys(at):
    """Session-state keys that hold the open tab of a tab bar, with the tabs' labels."""
    labels = [t.label for t in at.tabs]
    return {key: labels for key in at.session_state if isinstance(at.session_state[key], str)
            and at.session_state[key] in labels}


def run(at, what):
    start = time.perf_counter()
    at.run()
    TIMINGS.append((time.perf_counter() - start, what))
    assert not at.exception, (what, [e.value for e in at.exception])


def settle(at, choose, done, what, where=None):
    """Set every control (in `where`, default everywhere) not set yet to choose(widget), rerun, and repeat
    for controls that appear."""
    for _ in range(ROUNDS):
        fresh = {key: w for key, w in controls(where or at).items() if key not in done}
        if not fresh:
            return
        for key, widget in fresh.items():
            done.add(key)
            value = choose(widget)
            if value is not None:
                widget.set_value(value)
        run(at, what)


def open_app(points=(), only_mine=False):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if points:
        at.query_params["pts"] = "~".join(f"{a:.2f}_{b:.2f}_{y}" for a, b, y in points)
    at.run()
    at.session_state["only_mine"] = only_mine
    return at


@pytest.fixture(scope="module", autouse=True)
def report_slowest():
    yield
    for seconds, what in sorted(TIMINGS, key=lambda t: t[0], reverse=True)[:5]:
        print(f"\nslowest rerun {seconds:.2f} s: {what}")


def visit_tabs(at, choose, done, label, require_figure=False):
    """Every tab of the page in turn (only the open one runs), with draws for the controls it shows;
    require_figure: each tab must draw a figure or an error message."""
    for key, labels in tab_keys(at).items():
        for tab in labels[1:]:
            at.session_state[key] = tab
            run(at, f"{label} tab {tab}")
            settle(at, choose, done, f"{label} tab {tab}")
            if require_figure:
                assert figures(at) or at.error, f"tab {tab} drew neither a figure nor a message"


@pytest.mark.parametrize("page", PAGES)
@settings(max_examples=8, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=hs.data(), points=PILE, only_mine=hs.sampled_from([False, False, True]))
def test_random_control_values_never_raise(page, data, points, only_mine):
    at = open_app(points, only_mine)
    drawn = {}

    def choose(widget):
        drawn[widget.key] = data.draw(strategy(widget), label=widget.key)
        return drawn[widget.key]

    done = set()
    settle(at, choose, done, f"{page} sidebar", at.sidebar)
    sidebar = set(done)
    at.switch_page(page)
    run(at, page)
    settle(at, choose, done, f"{page} {drawn}")
    visit_tabs(at, choose, done, f"{page} {drawn}")
    assert done - sidebar or at.error, "no control of the page was drawn"


SCENARIOS = {"min": (0, False), "max": (1, False), "max-hard": (1, True)}


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("page", PAGES)
def test_every_control_at_its_extreme_together_never_raises(page, scenario):
    # the maximum: n = 500 on noisy spirals, C = 1000 (or ∞), γ = 100, degree 10, T and epochs at most,
    # the scikit-learn comparison on; the minimum: n = 10 XOR points, C = 0.01, γ = 0.01, degree 1, T = 1
    which, hard = SCENARIOS[scenario]
    choose = functools.partial(extreme, which=which, hard=hard)
    at = open_app()
    at.sidebar.selectbox(key="dataset").set_value("spirals" if which else "xor")
    done = {"dataset"}
    settle(at, choose, done, f"{page} sidebar {scenario}", at.sidebar)
    at.switch_page(page)
    run(at, page)
    settle(at, choose, done, f"{page} {scenario}")
    visit_tabs(at, choose, done, f"{page} {scenario}", require_figure=True)
    assert figures(at) or at.error, "the page drew neither a figure nor a message"
