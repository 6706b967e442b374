"""The decision-boundary figure shared by every classification lesson.

The decision function f is drawn as a diverging colour field centred at f = 0 (white), with the
boundary f = 0 (solid) and the margins f = ±1 (dashed) as lines traced on the server through the same
grid values the model produced (kernel_core.grid.level_lines). Classes keep the same colours on every
page; support vectors are ringed, free and bounded ones told apart.

Drawing cost in the browser decided the shape (headless Chromium, Plotly.react of the Pegasos figure,
medians): a labelled contour trace 75–80 ms, the same without labels 38 ms, a heatmap with the three
lines as scatter traces 28–31 ms; an invisible click layer of 30 × 30 markers added ~25 ms, 20 × 20 ~8 ms.
"""

import numpy as np

from figures import figure, plot_values
from kernel_core.grid import level_lines

# dark class colours on a light field, so a point stays visible on its own side of the boundary
CLASS_COLORS = {-1: "#08519c", 1: "#b2182b"}
CLASS_LABELS = {-1: "y = −1", 1: "y = +1"}
# blue for f < 0 (class −1), white at f = 0, red for f > 0 (class +1)
DIVERGING = [[0.0, "#8fbfe0"], [0.25, "#cfe3f2"], [0.5, "#ffffff"], [0.75, "#f9d2c4"], [1.0, "#ee9a80"]]
F_RANGE = 2.0
# 80 × 80 cells of about 5 px on a decision plot: no finer than the eye, and 64 % of 100 × 100's work (the
# model on the grid, the level lines, the payload, the browser's image)
GRID_POINTS = 80
CLICK_LAYER = "click to add a point"
CLICK_CELLS = 20
# lines of a very wiggly f (a narrow RBF with a hard margin) are traced on every 2nd, 4th... grid line,
# so that the three lines stay under this many points and breaks (~64 KB as float32 base64) and the
# figure under its payload budget
MAX_LINE_POINTS = 6000
BOUNDARY = "f = 0 (decision boundary)"
MARGINS = "f = ±1 (margins)"


def class_traces(X, y, *, size=8):
    """One scatter trace per class, in the project's class colours."""
    traces = []
    for label in (-1, 1):
        mask = y == label
        traces.append(dict(type="scatter",
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=CLASS_LABELS[label],
            marker=dict(color=CLASS_COLORS[label], size=size, line=dict(color="white", width=1)),
            hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<extra>" + CLASS_LABELS[label] + "</extra>",
        ))
    return traces


def click_layer(xs, ys, cells=CLICK_CELLS):
    """An invisible grid of markers: Plotly reports clicks on points, not on empty space."""
    gx, gy = np.meshgrid(np.linspace(xs[0], xs[-1], cells), np.linspace(ys[0], ys[-1], cells))
    return dict(type="scatter",
        x=gx.ravel().astype(np.float32), y=gy.ravel().astype(np.float32), mode="markers", name=CLICK_LAYER,
        marker=dict(size=26, color="rgba(0,0,0,0)"), hoverinfo="none", showlegend=False,
    )


def _thinned(n, stride):
    """Every stride-th index of range(n), always with the last one, so the window stays covered."""
    return np.unique(np.r_[0:n:stride, n - 1])


def level_sets(xs, ys, Z, levels):
    """[(x, y)] of the lines Z = level for each level, as float32 with NaN breaks (kernel_core's level_lines).

    A very wiggly Z is traced on every 2nd, 4th... grid line (always with the last), so that all the lines
    together stay under MAX_LINE_POINTS points and breaks: a line has one point per crossed cell edge, and
    a piece of line crosses at least two edges, so points and breaks are at most 1.5 × the crossings.
    """
    Z = np.asarray(Z, dtype=np.float64)
    stride = 1
    while True:
        rows, cols = _thinned(len(ys), stride), _thinned(len(xs), stride)
        sub = Z[np.ix_(rows, cols)]
        # one point per crossed cell edge (plus breaks): cheap to count before tracing
        crossings = sum(int(np.count_nonzero(np.diff(sub > level, axis=a))) for level in levels for a in (0, 1))
        if 1.5 * crossings <= MAX_LINE_POINTS or min(len(rows), len(cols)) <= 3:
            break
        stride *= 2
    lines = (level_lines(np.asarray(xs)[cols], np.asarray(ys)[rows], sub, level) for level in levels)
    return [(lx.astype(np.float32), ly.astype(np.float32)) for lx, ly in lines]


def line_trace(xy, *, name, color="black", width=2.0, dash="solid", showlegend=True):
    """A level set from level_sets as one scatter trace (legend entries of the same name are grouped)."""
    return dict(type="scatter", x=xy[0], y=xy[1], mode="lines", name=name, legendgroup=name, showlegend=showlegend,
                      line=dict(color=color, width=width, dash=dash), hoverinfo="skip")


def decision_figure(xs, ys, Z, X, y, *, free_sv=None, bounded_sv=None, title=None, clickable=True,
                    height=460, overlays=(), line_names=(BOUNDARY, MARGINS)):
    """Decision function Z (len(ys), len(xs)) over the grid axes xs, ys with the training points.

    free_sv / bounded_sv: index arrays into X of free (0 < α < C) and bounded (α = C) support vectors.
    overlays: more traces, drawn over the lines and points (under the click layer).
    line_names: legend names of the line f = 0 and of the lines f = ±1.
    """
    Z = plot_values(Z)
    xs = np.asarray(xs, dtype=np.float32)
    ys = np.asarray(ys, dtype=np.float32)
    traces = [dict(type="heatmap",
        x=xs, y=ys, z=Z, zmin=-F_RANGE, zmax=F_RANGE, colorscale=DIVERGING, name="f(x)", zsmooth="fast",
        # under the plot: beside an equal-aspect plot a vertical bar floats far to its right
        colorbar=dict(title=dict(text="f(x)", side="right"), orientation="h", thickness=10, len=0.6,
                      x=0.5, xanchor="center", y=-0.22, yanchor="top"),
        hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<br>f=%{z:.3f}<extra></extra>",
    )]
    zero, minus, plus = level_sets(xs, ys, Z, (0.0, -1.0, 1.0))
    traces += [line_trace(zero, name=line_names[0], width=2.5),
               line_trace(minus, name=line_names[1], width=1.5, dash="dash"),
               line_trace(plus, name=line_names[1], width=1.5, dash="dash", showlegend=False)]
    traces += class_traces(X, y)
    rings = [(free_sv, "free SV (0 < α < C)", "black", "solid"),
             (bounded_sv, "bounded SV (α = C)", "#7b3294", "dot")]
    for idx, name, color, dash in rings:
        if idx is not None and len(idx):
            traces.append(dict(type="scatter",
                x=X[idx, 0], y=X[idx, 1], mode="markers", name=name, hoverinfo="skip",
                marker=dict(symbol="circle-open", size=16, color=color, line=dict(width=2.5, color=color)),
            ))
    traces += list(overlays)
    if clickable:
        traces.append(click_layer(xs, ys))
    # the layout goes in with the traces: update_layout afterwards costs several times as much
    return figure(traces, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=70),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        xaxis=dict(title="x₁", range=[float(xs[0]), float(xs[-1])], constrain="domain"),
        yaxis=dict(title="x₂", range=[float(ys[0]), float(ys[-1])], scaleanchor="x", scaleratio=1),
        uirevision="boundary", clickmode="event+select", dragmode="pan",
    ))
