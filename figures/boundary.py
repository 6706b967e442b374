"""The decision-boundary figure shared by every classification lesson.

The decision function f is drawn as a diverging colour field centred at f = 0 (white), with the
boundary f = 0 (solid) and the margins f = ±1 (dashed) as lines traced on the server through the same
grid values the model produced (figures.contours.level_lines). Classes keep the same colours on every
page; support vectors are ringed, free and bounded ones told apart.

Drawing cost in the browser decided the shape (Plotly.react in headless Chromium, docs/PERFORMANCE.md): a
heatmap with the three lines as scatter traces draws faster than a contour trace, labelled or not. Clicks are
read from the plot area by the chart element
(lab/live_chart.py), not from an invisible layer of markers, so a point lands where it is clicked.

The student's own points are drawn apart from the generated ones (a larger diamond with a black outline,
in a trace named OWN_POINTS whose customdata is each point's index in the student's list), so the chart
element can let them be dragged and removed. They are drawn under the rings: a diamond's tips reach past its
size, so a ring drawn beneath one was hidden.
"""

import numpy as np

from figures import figure, plot_values
from figures import contours
from figures.palette import CLASS_COLORS, CLASS_SYMBOLS, DIVERGING, GREYS, OWN_SYMBOLS, SECONDARY

CLASS_LABELS = {-1: "y = −1", 1: "y = +1", 2: "y = 2"}
F_RANGE = 2.0
# 80 × 80 cells of about 5 px on a decision plot: no finer than the eye, and 64 % of 100 × 100's work (the
# model on the grid, the level lines, the payload, the browser's image)
GRID_POINTS = 80
OWN_POINTS = "your points"
# the legend icon of "your points" while there are none (a point's icon takes its class colour)
OWN_EMPTY_COLOR = GREYS["light"]
# one point that nothing draws: a trace of it keeps its legend entry (own_points_trace, the rings)
EMPTY = np.array([np.nan], dtype=np.float32)
# the three line traces of decision_figure (f = 0, f = −1, f = +1), after the colour field
LINE_TRACES = (1, 2, 3)
# lines of a very wiggly f (a narrow RBF with a hard margin) are traced on every 2nd, 4th... grid line,
# so that the three lines stay under this many points and breaks (~64 KB as float32 base64) and the
# figure under its payload budget
MAX_LINE_POINTS = 6000
# all frames of an animation together (boundary_frames): its lines may take this much of the figure's 150 KB
FRAMES_BYTES = 90_000
BOUNDARY = "f = 0 (decision boundary)"
MARGINS = "f = ±1 (margins)"


def class_traces(X, y, *, size=8):
    """One scatter trace per class, in the class's colour and marker shape (figures/palette.py)."""
    traces = []
    for label in (-1, 1):
        mask = y == label
        traces.append(dict(type="scatter",
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=CLASS_LABELS[label],
            marker=dict(color=CLASS_COLORS[label], symbol=CLASS_SYMBOLS[label], size=size,
                        line=dict(color="white", width=1)),
            hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<extra>" + CLASS_LABELS[label] + "</extra>",
        ))
    return traces


def own_points_trace(points):
    """The student's points [(x1, x2, label)] as one trace: diamonds (OWN_SYMBOLS, one per class) in the class
    colours with a black outline, customdata = the index of each point in the student's list. With no points, one
    point at NaN, which nothing draws and no pointer hits, keeps its legend entry (plotly.js drops an empty trace's):
    the legend, above the plot, then keeps its rows, and the first click does not move the plot under the pointer."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if not len(points):
        return dict(type="scatter", x=EMPTY, y=EMPTY, mode="markers", name=OWN_POINTS, hoverinfo="skip",
                    marker=dict(symbol=OWN_SYMBOLS[1], size=13, color=OWN_EMPTY_COLOR,
                                line=dict(color="black", width=1.5)))
    return dict(type="scatter",
        x=points[:, 0].astype(np.float32), y=points[:, 1].astype(np.float32), mode="markers", name=OWN_POINTS,
        customdata=np.arange(len(points), dtype=np.int32),
        marker=dict(symbol=[OWN_SYMBOLS[int(v)] for v in points[:, 2]], size=13,
                    color=[CLASS_COLORS[int(v)] for v in points[:, 2]],
                    line=dict(color="black", width=1.5)),
        hovertemplate="your point %{customdata}: x₁=%{x:.2f}, x₂=%{y:.2f}<extra>drag to move, "
                      "double-click to remove</extra>",
    )


def _thinned(n, stride):
    """Every stride-th index of range(n), always with the last one, so the window stays covered."""
    index = np.arange(0, n, stride)
    return index if index[-1] == n - 1 else np.append(index, n - 1)


def level_sets(xs, ys, Z, levels, *, max_points=MAX_LINE_POINTS):
    """[(x, y)] of the lines Z = level for each level, as float32 with NaN breaks (figures.contours).

    A very wiggly Z is traced on every 2nd, 4th... grid line (always with the last), so that all the lines
    together stay under max_points points and breaks: a line has one point per crossed cell edge, and
    a piece of line crosses at least two edges, so points and breaks are at most 1.5 × the crossings.
    """
    Z = np.asarray(Z, dtype=np.float64)
    stride = 1
    while True:
        rows, cols = _thinned(len(ys), stride), _thinned(len(xs), stride)
        sub = Z[np.ix_(rows, cols)]
        # one point per crossed cell edge (plus breaks): cheap to count before tracing
        crossings = sum(int(np.count_nonzero(np.diff(sub > level, axis=a))) for level in levels for a in (0, 1))
        if 1.5 * crossings <= max_points or min(len(rows), len(cols)) <= 3:
            break
        stride *= 2
    lines = contours.level_sets(np.asarray(xs)[cols], np.asarray(ys)[rows], sub, levels)
    return [(lx.astype(np.float32), ly.astype(np.float32)) for lx, ly in lines]


def line_trace(xy, *, name, color="black", width=2.0, dash="solid", showlegend=True):
    """A level set from level_sets as one scatter trace (legend entries of the same name are grouped)."""
    return dict(type="scatter", x=xy[0], y=xy[1], mode="lines", name=name, legendgroup=name, showlegend=showlegend,
                      line=dict(color=color, width=width, dash=dash), hoverinfo="skip")


def _line_traces(lines, names):
    """The lines f = 0, −1, +1 from level_sets as the three traces at LINE_TRACES."""
    zero, minus, plus = lines
    return [line_trace(zero, name=names[0], width=2.5),
            line_trace(minus, name=names[1], width=1.5, dash="dash"),
            line_trace(plus, name=names[1], width=1.5, dash="dash", showlegend=False)]


def first_overlay(free_sv, bounded_sv, own):
    """Index of decision_figure's first overlay trace: after the field, the three lines, the two classes, the
    student's points and the rings, each counted where it is given (frames name the traces they replace by index)."""
    return 1 + len(LINE_TRACES) + 2 + sum(v is not None for v in (own, free_sv, bounded_sv))


def decision_figure(xs, ys, Z, X, y, *, free_sv=None, bounded_sv=None, title=None, own=None,
                    height=460, overlays=(), line_names=(BOUNDARY, MARGINS), frames=None):
    """Decision function Z (len(ys), len(xs)) over the grid axes xs, ys with the training points.

    free_sv / bounded_sv: index arrays into X of free (0 < α < C) and bounded (α = C) support vectors.
    own: the student's points [(x1, x2, label)] (also in X, y), drawn over the generated points as OWN_POINTS.
    Each of the three given, even empty, has its trace and its legend entry (None: neither), so that the legend keeps
    its rows, and the plot its place, as points are added and support vectors come and go.
    overlays: more traces, drawn over everything else, from index first_overlay(free_sv, bounded_sv, own).
    line_names: legend names of the line f = 0 and of the lines f = ±1.
    frames: an animation of the lines, e.g. boundary_frames(xs, ys, Z_list, labels).
    """
    Z = plot_values(Z)
    xs = np.asarray(xs, dtype=np.float32)
    ys = np.asarray(ys, dtype=np.float32)
    traces = [dict(type="heatmap",
        x=xs, y=ys, z=Z, zmin=-F_RANGE, zmax=F_RANGE, colorscale=DIVERGING, name="f(x)", zsmooth="fast",
        # under the plot: beside an equal-aspect plot a vertical bar floats far to its right; the title under the
        # bar's labels (beside the bar it ran into the label −2, above it into the axis title x₁)
        colorbar=dict(title=dict(text="f(x)", side="bottom"), orientation="h", thickness=10, len=0.6,
                      x=0.5, xanchor="center", y=-0.22, yanchor="top"),
        hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<br>f=%{z:.3f}<extra></extra>",
    )]
    traces += _line_traces(level_sets(xs, ys, Z, (0.0, -1.0, 1.0)), line_names)
    traces += class_traces(X, y)
    if own is not None:
        traces.append(own_points_trace(own))
    rings = [(free_sv, "free SV (0 < α < C)", "black", "solid"),
             (bounded_sv, "bounded SV (α = C)", SECONDARY, "dot")]
    for idx, name, color, dash in rings:
        if idx is not None:
            ring_x, ring_y = (X[idx, 0], X[idx, 1]) if len(idx) else (EMPTY, EMPTY)
            traces.append(dict(type="scatter",
                x=ring_x, y=ring_y, mode="markers", name=name, hoverinfo="skip",
                marker=dict(symbol="circle-open", size=16, color=color, line=dict(width=2.5, color=color)),
            ))
    traces += list(overlays)
    # the layout goes in with the traces: update_layout afterwards costs several times as much
    return figure(traces, frames=frames, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=70),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        xaxis=dict(title="x₁", range=[float(xs[0]), float(xs[-1])], constrain="domain"),
        yaxis=dict(title="x₂", range=[float(ys[0]), float(ys[-1])], scaleanchor="x", scaleratio=1),
        uirevision="boundary", dragmode="pan",
    ))


def boundary_frames(xs, ys, Z_list, labels=None):
    """Plotly frames replaying training on a decision_figure: one per decision grid in Z_list (one per
    snapshot), each replacing only the lines f = 0 and f = ±1 (LINE_TRACES); the colour field and the points
    stay. labels: a name per frame (shown by the chart element's player), default "1", "2", ...

    The lines of all frames share FRAMES_BYTES (float32 x and y, base64 in the JSON), so 25+ frames keep the
    figure within its payload budget; a frame's lines are thinned as level_sets does when they would not fit.
    Frames pass in a moment, so they are traced on every second grid line (the last one kept): a quarter of the
    server's tracing work per move; the figure's own lines keep the whole grid.
    """
    if labels is None:
        labels = [str(k + 1) for k in range(len(Z_list))]
    if len(labels) != len(Z_list):
        raise ValueError(f"labels has {len(labels)} entries for {len(Z_list)} grids; give one label per grid.")
    rows, cols = _thinned(len(ys), 2), _thinned(len(xs), 2)
    xs = np.asarray(xs, dtype=np.float32)[cols]
    ys = np.asarray(ys, dtype=np.float32)[rows]
    # 8 bytes per point (x and y as float32), 4/3 for base64
    max_points = max(64, int(FRAMES_BYTES / max(1, len(Z_list)) / (8 * 4 / 3)))
    # a frame's trace is merged into the figure's: only the coordinates travel, and a level f never reaches is
    # one NaN point (an empty array would leave the previous frame's line on the plot)
    nothing = np.array([np.nan], dtype=np.float32)
    return [dict(name=str(label), traces=list(LINE_TRACES),
                 data=[dict(type="scatter", x=lx if lx.size else nothing, y=ly if ly.size else nothing)
                       for lx, ly in level_sets(xs, ys, plot_values(np.asarray(Z)[np.ix_(rows, cols)]),
                                                (0.0, -1.0, 1.0), max_points=max_points)])
            for Z, label in zip(Z_list, labels)]
