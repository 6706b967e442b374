"""Lesson 3's one-vs-rest figure: the combined decision (the class of the largest decision value, argmax_c f_c) as
a field in light class colours, each binary SVM's boundary f_c = 0 ("c against the rest") as a line in its class's
colour, the training points by class and the student's points (OWN_POINTS, so the chart element can move them)."""

import numpy as np

from figures import figure

from .boundary import CLASS_COLORS, CLASS_LABELS, level_sets, line_trace, own_points_trace
from .palette import GREYS, tint

# the combined decision's field: each class's colour, lightened
LIGHT = {label: tint(color, 0.3) for label, color in CLASS_COLORS.items()}
COMBINED = "argmax_c f_c (combined decision)"


def ovr_figure(xs, ys, Z, X, y, classes, *, own=None, height=460):
    """Z: (number of classes, len(ys), len(xs)) each class's f_c on the grid, in `classes` order."""
    xs = np.asarray(xs, dtype=np.float32)
    ys = np.asarray(ys, dtype=np.float32)
    Z = np.asarray(Z, dtype=np.float64)
    k = len(classes)
    winner = np.argmax(Z, axis=0).astype(np.float32)
    # a discrete colour scale: class index i fills [i / k, (i + 1) / k]
    scale = []
    for i, label in enumerate(classes):
        color = LIGHT.get(int(label), GREYS["grid"])
        scale += [[i / k, color], [(i + 1) / k, color]]
    names = np.array([CLASS_LABELS.get(int(c), f"y = {c:g}") for c in classes])
    traces = [dict(type="heatmap", x=xs, y=ys, z=winner, zmin=-0.5, zmax=k - 0.5, colorscale=scale, showscale=False,
                   name=COMBINED, zsmooth=False, customdata=names[winner.astype(int)],
                   hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<br>predicted %{customdata}<extra></extra>")]
    for c, label in enumerate(classes):
        (zero,) = level_sets(xs, ys, Z[c], (0.0,))
        name = f"f = 0 of {CLASS_LABELS.get(int(label), label)} vs rest"
        if not zero[0].size:
            # plotly.js drops the legend entry of a trace with no points: one NaN point keeps it, saying why
            zero = (np.array([np.nan], dtype=np.float32),) * 2
            name += " (f is never 0 on this plot)"
        traces.append(line_trace(zero, name=name, color=CLASS_COLORS.get(int(label), "black"), width=2.5,
                                 dash="dash"))
    for label in classes:
        mask = y == label
        name = CLASS_LABELS.get(int(label), f"y = {label:g}")
        traces.append(dict(type="scatter", x=X[mask, 0], y=X[mask, 1], mode="markers", name=name,
                           marker=dict(color=CLASS_COLORS.get(int(label), "black"), size=8,
                                       line=dict(color="white", width=1)),
                           hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<extra>" + name + "</extra>"))
    if own is not None:
        traces.append(own_points_trace(own))
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        xaxis=dict(title="x₁", range=[float(xs[0]), float(xs[-1])], constrain="domain"),
        yaxis=dict(title="x₂", range=[float(ys[0]), float(ys[-1])], scaleanchor="x", scaleratio=1),
        uirevision="boundary", dragmode="pan"))
