"""The lab's chart element: a Plotly figure that the browser updates in place.

`st.plotly_chart` (Streamlit 1.67) hashes the whole figure into its element id, so a changed figure is
unmounted and drawn anew: a rotated 3-D camera, a zoom or a pan is lost on every slider move. This element is
a components-v2 component mounted under a stable key: the browser keeps one div per chart and redraws it with
`Plotly.react` (lessons/live_chart_web/live_chart.js), and `layout.uirevision` keeps what the student changed
until they press "Reset view".

Serving. plotly.js (4.8 MB) and the element's own script are files the app serves itself with Streamlit's
static serving ([server] enableStaticServing, ./static → /app/static/), loaded once per page and cached by the
browser; never a CDN. They are copied into ./static when this module is imported — plotly.js from the
installed plotly package, so it always matches the Python side and nothing but requirements.txt is needed on
Streamlit Community Cloud — under names that carry plotly.js's version or the script's content hash, so a
cached copy is never stale. What each message carries besides the figure is a ~0.4 KB loader (a component's
inline script travels with every message; only an installed package's asset directory avoids that).

Message: bytes — one line of JSON options ({"mode": "plain" | "boundary", "height": ..., "present": true}), a newline, then
the figure's JSON from plotly.io.to_json, where numpy arrays are base64 typed arrays ({dtype, bdata, shape})
that plotly.js decodes: no array travels as a list of numbers.

Events (decision plots): the trigger "event" is {"op": "add", "x", "y", "shift"}, {"op": "move", "i", "x",
"y"} or {"op": "remove", "i"}, in data coordinates; `parse_event` turns it into a ChartEvent.
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
from figures.boundary import OWN_POINTS

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
        STATIC.mkdir(exist_ok=True)
        tmp = target.with_name(f".{name}.{os.getpid()}.tmp")
        shutil.copyfile(source, tmp)
        os.utime(tmp, (PUBLISHED_MTIME, PUBLISHED_MTIME))
        os.replace(tmp, target)
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
_component = st.components.v2.component("kernel_lab.live_chart", js=LOADER, isolate_styles=False)


def _figure_json(fig):
    """The figure as JSON text, made once per figure object (pages memoize their figures)."""
    text = getattr(fig, "_live_chart_json", None)
    if text is None:
        text = pio.to_json(fig.to_dict(), validate=False)
        fig._live_chart_json = text
    return text


def message(figure_json, **options):
    """One message: a line of JSON options, then the figure's JSON."""
    return (json.dumps(options, separators=(",", ":")) + "\n" + figure_json).encode()


def _look(present):
    """Options of the figure's look: presenter mode (large, high-contrast text; a taller figure) is applied by the
    element to the same figure JSON, so switching it, or moving a control while it is on, rebuilds no figure."""
    return {"present": True} if present else {}


def chart(fig, *, key, height=None, present=False):
    """Draw `fig` (a go.Figure, e.g. from figures.figure) and redraw it in place on later reruns."""
    _component(key=key, data=message(_figure_json(fig), mode="plain", height=height, **_look(present)))


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
    adds a point of the class other than `new_class`."""
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
        label = -new_class if raw.get("shift") is True else new_class
        return ChartEvent("add", x, y, label=label)
    if op == "move":
        return ChartEvent("move", x, y, index=index)
    return None


def _on_event(key, n_own, new_class, handle):
    event = parse_event(st.session_state[key].get("event"), n_own=n_own, new_class=new_class)
    if event is not None:
        handle(event)


def boundary_chart(fig, *, key, own, new_class, on_event, present=False):
    """Draw a decision plot (a go.Figure that draws the student's points as its OWN_POINTS trace) in place;
    clicks, drags and double-clicks on it become ChartEvents. `own`: the student's points (their count bounds
    the indices); `new_class`: the class a click adds (+1 or −1; shift-click adds the other). `on_event(event)` runs as a widget callback, before the
    script reruns, so everything drawn in that rerun already shows the change. Returns the event or None."""
    result = _component(key=key, data=message(_figure_json(fig), mode="boundary", own=OWN_POINTS, **_look(present)),
                        on_event_change=functools.partial(_on_event, key, len(own), new_class, on_event))
    return parse_event(result.event, n_own=len(own), new_class=new_class)
