"""Helpers shared by the page tests: open a lesson under Streamlit's AppTest through app.py's navigation, and
read back what it drew (Plotly specs, metrics, tables) and the data it drew it from.

Pages draw figures with the lab's chart element (lab/live_chart.py, a components-v2 component). AppTest
has no class of its own for it: each chart is an element of type "bidi_component" (an UnknownElement) whose
proto carries the component's name, an id ending in "-<key>", and the message bytes: a line of JSON options,
a newline, then the figure's JSON."""

import asyncio
import base64
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

import datasets
from lab.section import LIVE
from lessons import registry

ROOT = Path(__file__).resolve().parent.parent
registry.sections()   # every lesson's sections made: lab.section.LIVE knows every live slider before a page runs


def lesson_pages():
    """The page script of every lesson in the registry, in lesson order."""
    return [lesson.script for lesson in registry.LESSONS]


# every page's expander with the numbers and the code, open: what it holds is built only while it is open
# (lab/page.py, code)
NUMBERS_OPEN = {key: True for key in ("fm_map_code", "fm_taylor_code", "fm_cubic_numbers", "cl_numbers", "pd_numbers",
                                      "pg_numbers", "mc_gram_numbers", "mc_rule_code", "rg_ridge_numbers",
                                      "rgl_numbers")}


def open_page(page, *, sidebar=None, state=None, widgets=None, numbers=True):
    """The lesson `page` opened through app.py, with no exception raised.

    sidebar: sidebar widget values set before switching to the page (one run for all);
    state: session-state values set after it, then one rerun (e.g. a tab held in session state);
    widgets: page widget values set in turn, one rerun each (some widgets appear only after another; a live slider
    by `move`);
    numbers: with the expanders of numbers and code open, as a student opens them (NUMBERS_OPEN)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if numbers:
        for key, value in NUMBERS_OPEN.items():
            at.session_state[key] = value
    at.run()
    for key, value in (sidebar or {}).items():
        at.sidebar.get_by_key(key).set_value(value)
    at.switch_page(page)
    at.run()
    if state:
        for key, value in state.items():
            at.session_state[key] = value
        at.run()
    for key, value in (widgets or {}).items():
        set_control(at, key, value)
    assert not at.exception, at.exception
    return at


CHART_COMPONENT = "kernel_lab.live_chart"


def until_drawn(at, key, timeout=120.0):
    """at, rerun (as the page's waiting box does every second in a browser) until the chart `key` is drawn: a result
    computed in the background process (lab/background.py) reaches the page on a later run."""
    deadline = time.monotonic() + timeout
    while not any(e.proto.id.endswith(f"-{key}") for e in chart_elements(at)):
        assert not at.exception, at.exception
        assert time.monotonic() < deadline, f"the chart {key} was not drawn within {timeout:.0f} s"
        time.sleep(0.1)
        at.run()
    return at


def replays(*keys):
    """Session state in which the student has asked for the frames of the charts `keys` (pressed Play): the
    figures of those charts then carry the replay's frames (lab/live_chart.py)."""
    from lab.live_chart import frames_key

    return {frames_key(key): True for key in keys}


def _elements(at):
    return [e for e in at.get("bidi_component") if e.proto.component_name == CHART_COMPONENT]


def chart_elements(at):
    """Every chart element on the page, in page order."""
    return [e for e in _elements(at) if chart_options(e).get("mode") != "control"]


def live_controls(at):
    """key → options (lab/live_control.py) of every live slider on the page, in page order."""
    return {options["key"]: options for options in map(chart_options, _elements(at)) if options["mode"] == "control"}


def live_values(key, options):
    """The values live slider `key` offers (lab/live_control.py's positions), in order."""
    from lab.live_control import Positions
    from lab.state import FIELDS

    positions = Positions(FIELDS[key], options.get("step", 1))
    return [positions.value(k) for k in range(positions.count)]


def set_control(at, key, value):
    """Control `key` set to `value`, then the run it starts: a live slider by `move`, any other by AppTest."""
    if key in LIVE:
        return move(at, key, value)
    return at.get_by_key(key).set_value(value).run()


def move(at, key, value):
    """The live slider `key` moved to `value`, as its trigger does (lab/live_control.py): the session's value set,
    then the run it starts (AppTest cannot send a component's trigger)."""
    at.session_state[key] = value
    return at.run()


def chart_options(element):
    """The options line of a chart element's message (mode, height...)."""
    return json.loads(element.proto.bytes.split(b"\n", 1)[0])


def _figure_text(element):
    return element.proto.bytes.split(b"\n", 1)[1].decode()


def figures(at):
    """The JSON text of every chart's figure on the page, in page order."""
    return [_figure_text(e) for e in chart_elements(at)]


def figure(at, key):
    """The JSON text of the one chart drawn with `key` (Streamlit ends the element id with the user key)."""
    found = [_figure_text(e) for e in chart_elements(at) if e.proto.id.endswith(f"-{key}")]
    assert len(found) == 1, [e.proto.id for e in chart_elements(at)]
    return found[0]


def chart(at, key):
    """The spec of the one chart drawn with `key`, parsed from its JSON."""
    return json.loads(figure(at, key))


def decode(values):
    """A figure array as numpy: Plotly ships numpy arrays as base64 typed arrays ({"dtype", "bdata", "shape"})."""
    if isinstance(values, dict):
        a = np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"]))
        return a.reshape([int(s) for s in str(values.get("shape", a.size)).split(",")])
    return np.asarray(values)


def table(at, column):
    """The one dataframe on the page that has `column`."""
    found = [d.value for d in at.dataframe if column in d.value.columns]
    assert len(found) == 1, [list(d.value.columns) for d in at.dataframe]
    return found[0]


def metrics(at):
    """Every st.metric on the page, label → shown value."""
    return {m.label: m.value for m in at.metric}


def page_data(at):
    """The sidebar's dataset, regenerated from the session state the page drew it from."""
    s = at.session_state
    return datasets.DATASETS[s["dataset"]](s["n"], noise=s["noise"], random_state=s["seed"])


def default_data():
    """The sidebar's dataset at its defaults: circles, n = 100, noise 0.1, seed 0."""
    return datasets.DATASETS["circles"](100, noise=0.1, random_state=0)


def assert_extremes_change_the_page(at, key, low, high):
    """Set widget `key` to low, then high: no exception, and the figures or the metrics differ."""
    seen = []
    for value in (low, high):
        set_control(at, key, value)
        assert not at.exception, f"{key}={value}: {at.exception}"
        seen.append((figures(at), [m.value for m in at.metric]))
    assert seen[0] != seen[1], f"moving {key} changed nothing"


def frame_data(spec, k):
    """The figure's traces as frame k of its animation shows them: the frame's traces merged into the figure's,
    as the chart element does (lab/live_chart_web/live_chart.js, figureAt)."""
    data = [dict(trace) for trace in spec["data"]]
    frame = spec["frames"][k]
    for index, trace in zip(frame["traces"], frame["data"]):
        data[index].update(trace)
    return data


def farthest(a, b):
    """The largest distance from a point of the line a to the nearest point of the line b (traces with x and y;
    NaN breaks skipped): 0 when a's points are all b's."""
    pa, pb = (np.column_stack([decode(t["x"]), decode(t["y"])]).astype(np.float64) for t in (a, b))
    pa, pb = pa[np.isfinite(pa).all(axis=1)], pb[np.isfinite(pb).all(axis=1)]
    return float(np.sqrt(((pa[:, None, :] - pb[None, :, :]) ** 2).sum(axis=2)).min(axis=1).max())


def run_async(coro):
    """The result of a coroutine run to its end in a thread of its own: in a process that runs the browser tests too,
    Playwright keeps an event loop running in this thread, and asyncio.run refuses to start a second one there."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
