"""Plotly figure builders: pure functions (arrays, options) -> figures.Figure; numpy and plotly only.

Builders write traces and layouts as plain dicts and make the figure with `figure`, which skips Plotly's
property validation: validating was most of a slider move's server time on the Pegasos page (5 figures). The
tests validate every figure the pages draw instead (tests/pages/test_figures_valid.py).

Every figure names TEMPLATE in its layout (not via pio.templates.default: Streamlit sets its own default
when it loads). Pages draw with theme=None, so the browser applies no theme of its own on every redraw
(the Streamlit theme slowed each redraw of a heatmap figure), and the template travels in each figure's JSON:
it is kept to the few layout keys the lab's look needs (Plotly's and Streamlit's default templates weigh many
times more per figure). Measurements: docs/PERFORMANCE.md.
"""

import base64
import functools

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from figures.palette import COLORWAY, GREYS

F32_MAX = float(np.finfo(np.float32).max)

_AXIS = dict(gridcolor=GREYS["grid"], zerolinecolor=GREYS["zero"], linecolor=GREYS["axis"], automargin=True)
TEMPLATE = go.layout.Template(layout=dict(
    font=dict(family="Source Sans Pro, sans-serif", size=13, color=GREYS["ink"]),
    paper_bgcolor="white", plot_bgcolor="white",
    colorway=COLORWAY,
    xaxis=_AXIS, yaxis=_AXIS, hoverlabel=dict(font=dict(size=13)),
))
TEMPLATE_SPEC = TEMPLATE.to_plotly_json()


def _titles(spec):
    """spec with every title="text" written as title={"text": "text"}: validation used to do that, and
    Plotly.js 3 reads only the second form."""
    if isinstance(spec, dict):
        return {k: {"text": v} if k == "title" and isinstance(v, str) else _titles(v) for k, v in spec.items()}
    if isinstance(spec, list) and spec and isinstance(spec[0], dict):
        return [_titles(v) for v in spec]
    return spec


class Figure:
    """What `figure` returns: the figure's dict, ready to send (`to_dict`, `to_json`), and for anything else (`data`,
    `layout`, ...) the go.Figure of the same traces and layout, unvalidated, built the first time it is read. Building
    a go.Figure costs ~5 ms even unvalidated (plotly makes an object per trace and per property), about five sixths
    of a decision plot's making, and the app only ever sends the dict: a page making its figures on a cache-missing
    move built one for nothing per chart."""

    def __init__(self, data, layout, spec):
        self._data, self._layout, self._spec = data, layout, spec

    def to_dict(self):
        return self._spec

    def to_json(self, **kwargs):
        return pio.to_json(self._spec, validate=False, **kwargs)

    def __getattr__(self, name):
        # only for names the object lacks: a private one (figure_json's and deferred_frames' own marks) is absent
        if name.startswith("_"):
            raise AttributeError(name)
        made = self.__dict__.get("_go")
        if made is None:
            made = self._go = go.Figure(data=self._data, layout=self._layout, _validate=False)
        return getattr(made, name)


def figure(data, layout, frames=None):
    """A Figure of trace dicts and a layout dict, not validated, in the lab's template.

    Its dict (what the chart element sends) is made once, here: to_dict returns it from then on, so a
    cached figure is not converted again on every draw. Frames (JSON-ready dicts) go into that dict
    only, not into go.Frame objects (costly to build even unvalidated); their numpy arrays become
    base64 typed arrays there, as the traces' do in to_dict (the JSON encoder would write lists of numbers).

    frames may also be a function that makes them: a replay of training on a decision plot (its f on the grid
    and its level lines at every frame) costs more than the rest of the figure, and most slider moves are never
    replayed. Then to_dict has no frames, and `deferred_frames(fig)` makes them (once) when the chart element
    asks for them (lab/live_chart.py: a student pressed Play).
    """
    data, layout = _titles(list(data)), {"template": TEMPLATE_SPEC, **_titles(layout)}
    fig = Figure(data, layout, {"data": typed_arrays(data), "layout": typed_arrays(layout)})
    if callable(frames):
        fig._make_frames = functools.cache(lambda: typed_arrays(_titles(list(frames()))))
    elif frames:
        fig._spec["frames"] = typed_arrays(_titles(list(frames)))
    return fig


def deferred_frames(fig):
    """The frames of a figure made with frames=<function>, as to_dict would hold them; None for any other figure."""
    make = getattr(fig, "_make_frames", None)
    return None if make is None else make()


def has_deferred_frames(fig):
    return getattr(fig, "_make_frames", None) is not None


# how a text alternative ends for a figure with frames (describe), and for one whose frames another chart's player
# replays (lab/live_chart.py: follow)
REPLAYED = "Animated in {} frames: Play, Step and Reset replay them."
FOLLOWS = "Animated in {} frames, replayed in step with the Play, Step and Reset of the chart beside it."

MAX_LOG_TICKS = 8


def log_ticks(traces):
    """The labels of a log y axis over the traces' positive y, as axis settings to update its own with: a label at
    every k-th power of ten, at most MAX_LOG_TICKS of them (the Taylor error spans 16 decades); on less than two decades
    at the 1s, 2s and 5s, as plain numbers in the axis' font (plotly.js's own choice there labels every digit, small,
    and the digits ran into each other)."""
    y = np.concatenate([np.asarray(t["y"], dtype=np.float64).ravel() for t in traces])
    y = y[np.isfinite(y) & (y > 0)]
    decades = np.log10(y.max() / y.min()) if y.size else 0.0
    if not y.size or decades >= 2:
        return {"dtick": max(1, int(np.ceil(decades / MAX_LOG_TICKS)))}
    powers = 10.0 ** np.arange(np.floor(np.log10(y.min())), np.ceil(np.log10(y.max())) + 1)
    values = (powers[:, None] * (1.0, 2.0, 5.0)).ravel().tolist()
    return {"tickvals": values, "ticktext": [f"{v:g}" for v in values]}


# plotly.js's names of the dtypes it decodes from base64 (plotly.py's _plotly_utils.utils.plotlyjsShortTypes), by
# numpy's one-letter code (dtype.char: a C attribute; str(dtype) costs a good part of a small array's encoding)
_TYPED = {"b": "i1", "B": "u1", "h": "i2", "H": "u2", "i": "i4", "I": "u4", "f": "f4", "d": "f8"}
_NARROW = [np.int8, np.int16, np.int32]
_NOT_TYPED = {"geojson", "layer", "layers", "range"}  # keys plotly.js reads as plain lists


def _typed_array(a):
    """A numpy array as plotly.js's typed-array spec {dtype, bdata, shape}, as plotly.py's to_dict writes it
    (int64 narrowed to the smallest int type that holds it); other arrays become lists."""
    if a.size and a.dtype.kind == "i" and a.dtype.itemsize == 8:
        low, high = a.min(), a.max()
        a = next((a.astype(t) for t in _NARROW if np.iinfo(t).min <= low and high <= np.iinfo(t).max), a)
    code = _TYPED.get(a.dtype.char) if a.dtype.isnative else None
    if code is None or a.size == 0:
        return a.tolist()
    spec = {"dtype": code, "bdata": base64.b64encode(np.ascontiguousarray(a)).decode("ascii")}
    if a.ndim > 1:
        spec["shape"] = str(a.shape)[1:-1]
    return spec


def typed_arrays(spec):
    """A copy of a figure's dicts and lists with every numpy array written as a typed array: what plotly.py's
    to_dict does, without its per-array checks for dataframe libraries (paid per array, and a replayed decision
    plot has hundreds of arrays)."""
    if isinstance(spec, dict):
        return {k: v if k in _NOT_TYPED else typed_arrays(v) for k, v in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [typed_arrays(v) for v in spec]
    if isinstance(spec, np.ndarray):
        return _typed_array(spec)
    return spec


def plot_values(a):
    """Values for the browser: float32 (half the bytes) when every finite value fits, else float64.

    Extreme settings (a degree-10 polynomial with γ = 100 on points near |x| = 10) give kernel values
    near 1e43; cast to float32 they would turn into inf and draw a wrong picture without a word.
    """
    a = np.asarray(a, dtype=np.float64)
    finite = a[np.isfinite(a)]
    return a.astype(np.float32) if finite.size == 0 or np.abs(finite).max() <= F32_MAX else a


_KINDS = {"heatmap": "colour map", "contour": "contour map", "bar": "bars", "mesh3d": "surface",
          "surface": "surface"}


def _text(title):
    return (title.get("text") if isinstance(title, dict) else title) or ""


def _count(values):
    """How many finite values a trace array holds (a NaN point keeps a legend entry and draws nothing): a list, an
    array, or a base64 typed array {"dtype", "bdata", "shape"}."""
    if values is None:
        return 0
    if isinstance(values, dict):
        values = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    values = np.asarray(values)
    return int(np.count_nonzero(np.isfinite(values))) if values.dtype.kind in "fc" else len(values)


def _kind(trace):
    kind = trace.get("type", "scatter")
    if kind in _KINDS:
        return _KINDS[kind]
    mode = trace.get("mode", "lines+markers")
    what = "points" if "markers" in mode and "lines" not in mode else "line"
    return ("3-D " if kind == "scatter3d" else "") + what


def chart_name(spec):
    """A short name of a figure dict: its title, else what its axes show."""
    layout = spec.get("layout", {})
    title = _text(layout.get("title"))
    if title:
        return title
    scene = layout.get("scene")
    if scene:
        return "3-D view of " + ", ".join(_text(scene.get(a, {}).get("title")) for a in ("xaxis", "yaxis", "zaxis"))
    x, y = (_text(layout.get(a, {}).get("title")) for a in ("xaxis", "yaxis"))
    return f"{y} against {x}" if x and y else (x or y or "chart")


def describe(spec):
    """A figure dict in words, its text alternative for a screen reader: its name, its axes, and what each named
    trace draws (how many points, or a line, a colour map...), and how many frames an animation has."""
    layout = spec.get("layout", {})
    parts = [chart_name(spec) + "."]
    x, y = (_text(layout.get(a, {}).get("title")) for a in ("xaxis", "yaxis"))
    if x and y and not layout.get("scene"):
        parts.append(f"Horizontal axis {x}, vertical axis {y}.")
    drawn = {}
    for trace in spec.get("data", []):
        kind = _kind(trace)
        name = trace.get("name") or kind
        if name in drawn:
            continue
        if kind.endswith("points"):
            n = _count(trace.get("x"))
            kind = f"{n} {kind[:-1] if n == 1 else kind}"
        drawn[name] = kind if name == _kind(trace) else f"{name} ({kind})"
    if drawn:
        parts.append("Drawn: " + "; ".join(drawn.values()) + ".")
    if spec.get("frames"):
        parts.append(REPLAYED.format(len(spec["frames"])))
    return " ".join(parts)
