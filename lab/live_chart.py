"""The lab's chart element: a Plotly figure that the browser updates in place.

`st.plotly_chart` (Streamlit 1.67) hashes the whole figure into its element id, so a changed figure is
unmounted and drawn anew: a rotated 3-D camera, a zoom or a pan is lost on every slider move. This element is
a components-v2 component mounted under a stable key: the browser keeps one div per chart and redraws it with
`Plotly.react` (lab/live_chart_web/live_chart.js), and `layout.uirevision` keeps what the student changed
until they press "Reset view".

Serving. plotly.js (megabytes) and the element's own script are files the app serves itself with Streamlit's
static serving ([server] enableStaticServing, ./static → /app/static/), loaded once per page and cached by the
browser; never a CDN. They are copied into ./static when this module is imported — plotly.js from the
installed plotly package, so it always matches the Python side and nothing but requirements.txt is needed on
Streamlit Community Cloud — under names that carry plotly.js's version or the script's content hash, so a
cached copy is never stale. What each message carries besides the figure is a small loader (a component's
inline script travels with every message; only an installed package's asset directory avoids that).

Message: bytes — one line of JSON options ({"mode": "plain" | "boundary" | "cells", "live": {"route": the route of
the decision plot's section (lab/live.py)}, "height": ..., "name": the
chart's short name, "label": its text alternative, both made from the figure by figures.describe, "file": the chart's
key, which names its PNG/SVG downloads, "replay": whether it has frames made on demand, "follow": the key of the
chart whose player shows this chart's frames, "present": true in presenter mode}), a newline, then
the figure's JSON from plotly.io.to_json, where numpy arrays are base64 typed arrays ({dtype, bdata, shape})
that plotly.js decodes: no array travels as a list of numbers.

Events (decision plots): the trigger "event" is {"op": "add", "x", "y", "shift"}, {"op": "move", "i", "x",
"y"} or {"op": "remove", "i"}, in data coordinates; `parse_event` turns it into a ChartEvent. Cell plots
(mode "cells", `cell_chart`): {"op": "cell", "x", "y"}, rounded to a cell by `parse_cell`. A decision plot of a
section with a route (live=...) asks the route for the section's figures with the student's points as the event
leaves them, draws them, and only then sends the event (options "pts": the points as the link holds them,
"classes": the class a click and a shift-click add, "decimals": their rounding).

Replays whose frames are made on demand (figures.figure(frames=<function>)): the message says {"replay": true}
and carries no frames until the student presses Play or Step; the trigger {"op": "frames"} then marks the chart
in the session (frames_key), the rerun sends the figure with its frames and the browser plays them. From then on
that chart's figures come with their frames for this student.
"""

import functools
import hashlib
import json
import math
import os
import shutil
from pathlib import Path
from typing import NamedTuple

import plotly
import plotly.io as pio
import streamlit as st
from plotly.offline import get_plotlyjs_version

from datasets.upload import DECIMALS
from figures import FOLLOWS, REPLAYED, chart_name, deferred_frames, describe, has_deferred_frames
from figures.boundary import OWN_POINTS
from lab import points

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"  # Streamlit serves the folder next to the main script at /app/static/
WEB = Path(__file__).resolve().parent / "live_chart_web"
# Streamlit's static route sends no Cache-Control, so browsers cache by the Last-Modified heuristic (a tenth of
# the file's age): copies are dated long ago, which is safe because their names change with their content
PUBLISHED_MTIME = 946_684_800  # 2000-01-01


def _publish(source, name):
    """Copy `source` to STATIC/name unless it is there (atomically: workers may start side by side);
    returns its path under /app/static/."""
    target = STATIC / name
    if not target.exists():
        try:
            STATIC.mkdir(exist_ok=True)
            tmp = target.with_name(f".{name}.{os.getpid()}.tmp")
            shutil.copyfile(source, tmp)
            os.utime(tmp, (PUBLISHED_MTIME, PUBLISHED_MTIME))
            os.replace(tmp, target)
        except OSError as exc:
            raise RuntimeError(
                f"Kernel Lab serves {name} from {STATIC}, which is missing it and cannot be written ({exc}). Where "
                "the app's folder is read-only, make static/ when the image is built: python -c 'import lab.live_chart'"
            ) from exc
    return f"app/static/{name}"


def _published_script():
    source = WEB / "live_chart.js"
    digest = hashlib.blake2b(source.read_bytes(), digest_size=6).hexdigest()
    for old in STATIC.glob("live_chart.*.js"):  # earlier versions of the script
        if old.name != f"live_chart.{digest}.js":
            old.unlink(missing_ok=True)
    return _publish(source, f"live_chart.{digest}.js")


PLOTLY_JS = _publish(Path(plotly.__file__).parent / "package_data" / "plotly.min.js",
                     f"plotly-{get_plotlyjs_version()}.min.js")
SCRIPT_JS = _published_script()

# The inline loader (sent with every message): resolve both files against the URL Streamlit's own bundle was
# loaded from, so the app also works under a base URL path or a hosting prefix
LOADER = f"""
const index = document.querySelector('script[type="module"][src*="/static/js/index."]');
const base = index ? new URL("../../", index.src) : new URL("./", document.baseURI);
const chart = import(new URL({json.dumps(SCRIPT_JS)}, base).href);
export default async function (component) {{
  return (await chart).mount(component, new URL({json.dumps(PLOTLY_JS)}, base).href);
}}
"""

# isolate_styles=False: Plotly styles its modebar and hover labels through the document's stylesheets,
# which do not reach into a shadow root
# (the live sliders of lab/live_control.py are drawn by the same element: one script, one set of charts to draw into)
component = st.components.v2.component("kernel_lab.live_chart", js=LOADER, isolate_styles=False)


def figure_json(fig, frames=False):
    """The figure as JSON text and its text alternative (name, description: figures.describe), made once per figure
    object (pages memoize their figures); with frames: with the frames figures.figure deferred."""
    attribute = "_live_chart_json_frames" if frames else "_live_chart_json"
    made = getattr(fig, attribute, None)
    if made is None:
        spec = fig.to_dict()
        alternative = {"name": chart_name(spec), "label": describe(spec)}
        made = pio.to_json({**spec, "frames": deferred_frames(fig)} if frames else spec, validate=False), alternative
        setattr(fig, attribute, made)
    return made


def message(figure, **options):
    """One message: a line of JSON options (with the figure's name and text alternative), then the figure's JSON;
    figure: what figure_json made."""
    text, alternative = figure
    return (json.dumps({**options, **alternative}, separators=(",", ":")) + "\n" + text).encode()


def _named(figure, name):
    """The figure's JSON and text alternative, under `name` when a page gives one (two charts with the same axes)."""
    if name is None:
        return figure
    text, alternative = figure
    return text, {"name": name, "label": f"{name}: {alternative['label']}"}


def frames_key(key):
    """The session-state key that says the student asked for the frames of chart `key`."""
    return f"{key}:frames"


def _look(present):
    """Options of the figure's look: presenter mode (large, high-contrast text; a taller figure) is applied by the
    element to the same figure JSON, so switching it, or moving a control while it is on, rebuilds no figure."""
    return {"present": True} if present else {}


def _following(fig, figure, follow):
    """figure (figure_json of `fig`): its JSON and text alternative, which says that another chart's player replays
    its frames where `follow` names that chart (the chart has no Play, Step or Reset of its own)."""
    n = len(fig.to_dict().get("frames") or ())
    if not (follow and n):
        return figure
    text, alternative = figure
    return text, {**alternative, "label": alternative["label"].replace(REPLAYED.format(n), FOLLOWS.format(n))}


def _message(fig, key, name, present, mode, follow=None, **options):
    deferred = has_deferred_frames(fig)
    frames = deferred and bool(st.session_state.get(frames_key(key)))
    figure = _named(_following(fig, figure_json(fig, frames), follow), name)
    return message(figure, mode=mode, replay=deferred, file=key, **({"follow": follow} if follow else {}),
                   **_look(present), **options)


def _wants_frames(key, raw):
    if isinstance(raw, dict) and raw.get("op") == "frames":
        st.session_state[frames_key(key)] = True
        return True
    return False


def chart(fig, *, key, height=None, name=None, present=False, follow=None):
    """Draw `fig` (a figures.figure, or any go.Figure) and redraw it in place on later reruns. name: what a
    screen reader calls it, when its title or axes do not tell it from another chart on the page; present:
    presenter mode; follow: the key of a chart with a replay whose player also steps this chart's frames (it has no
    player of its own)."""
    component(key=key, data=_message(fig, key, name, present, "plain", follow, height=height),
               on_event_change=lambda: _wants_frames(key, st.session_state[key].get("event")))


# the class a shift-click adds, by the class a click adds: the other of ±1; the third class (2) pairs with +1
OTHER_CLASS = {1: -1, -1: 1, 2: 1}


class ChartEvent(NamedTuple):
    """What the student did on a decision plot: op "add" (a point of class `label` at x, y), "move" (their
    point `index` to x, y) or "remove" (their point `index`). Coordinates rounded to DECIMALS, as in the URL."""
    op: str
    x: float | None = None
    y: float | None = None
    label: int | None = None
    index: int | None = None


def _coordinate(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(float(value), DECIMALS) + 0.0  # + 0.0: no "-0.0" in the URL


def parse_event(raw, *, n_own, new_class):
    """A ChartEvent from the browser's trigger value, or None when it is not one (the browser is not trusted:
    anything malformed, non-finite or naming a point the student does not have is dropped). A shift-click
    adds a point of the class OTHER_CLASS[new_class]: the other of ±1 (class 2's is +1)."""
    if not isinstance(raw, dict):
        return None
    op = raw.get("op")
    index = raw.get("i")
    if op in ("move", "remove") and not (type(index) is int and 0 <= index < n_own):
        return None
    if op == "remove":
        return ChartEvent("remove", index=index)
    x, y = _coordinate(raw.get("x")), _coordinate(raw.get("y"))
    if x is None or y is None:
        return None
    if op == "add":
        label = OTHER_CLASS[new_class] if raw.get("shift") is True else new_class
        return ChartEvent("add", x, y, label=label)
    if op == "move":
        return ChartEvent("move", x, y, index=index)
    return None


def _on_event(key, n_own, new_class, handle):
    raw = st.session_state[key].get("event")
    if _wants_frames(key, raw):
        return
    event = parse_event(raw, n_own=n_own, new_class=new_class)
    if event is not None:
        handle(event)


def parse_cell(raw, *, shape):
    """The (row, column) of the cell a click on a cell plot landed in, from the browser's trigger value: its data
    coordinates rounded to the nearest cell (cells sit at 0, 1, ... on both axes); None when it is not a click,
    not finite or outside the shape (rows, columns)."""
    if not isinstance(raw, dict) or raw.get("op") != "cell":
        return None
    x, y = (raw.get(k) for k in ("x", "y"))
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in (x, y)):
        return None
    row, column = int(round(y)), int(round(x))
    return (row, column) if 0 <= row < shape[0] and 0 <= column < shape[1] else None


def _on_cell(key, shape, handle):
    cell = parse_cell(st.session_state[key].get("event"), shape=shape)
    if cell is not None:
        handle(*cell)


def cell_chart(fig, *, key, shape, on_cell, height=None, name=None, present=False):
    """Draw a heatmap whose cells are choices (x and y are the cells' column and row indices): a click on a cell
    runs `on_cell(row, column)` as a widget callback, before the script reruns."""
    component(key=key, data=_message(fig, key, name, present, "cells", height=height),
               on_event_change=functools.partial(_on_cell, key, tuple(shape), on_cell))


def boundary_chart(fig, *, key, own, new_class, on_event, name=None, present=False, route=None):
    """Draw a decision plot (a figure that draws the student's points as its OWN_POINTS trace) in place;
    clicks, drags and double-clicks on it become ChartEvents. `own`: the student's points (their count bounds
    the indices); `new_class`: the class a click adds (+1, −1 or 2; shift-click adds OTHER_CLASS[new_class]).
    `on_event(event)` runs as a widget callback, before the script reruns, so everything drawn in that rerun
    already shows the change. route: that of the plot's section (lab/live.py), which draws the student's clicks,
    drags and deletes before the event reaches the server. Returns the event or None."""
    # with a route, the element asks it for the figures with the points as a click leaves them, so it needs the
    # points as the link holds them and the class a click adds
    live = {"live": {"route": route}, "pts": points.encode(own), "classes": [new_class, OTHER_CLASS[new_class]],
            "decimals": DECIMALS} if route else {}
    result = component(key=key, data=_message(fig, key, name, present, "boundary", own=OWN_POINTS, **live),
                        on_event_change=functools.partial(_on_event, key, len(own), new_class, on_event))
    return parse_event(result.event, n_own=len(own), new_class=new_class)
