"""The decision-boundary figure shared by every classification lesson.

The decision function f is drawn as a diverging colour field centred at f = 0 (white), with the
boundary f = 0 and the margins f = ±1 as labelled contour lines of the same grid values the model
produced. Classes keep the same colours on every page; support vectors are ringed, free and
bounded ones told apart.
"""

import numpy as np
import plotly.graph_objects as go

from figures import plot_values

# dark class colours on a light field, so a point stays visible on its own side of the boundary
CLASS_COLORS = {-1: "#08519c", 1: "#b2182b"}
CLASS_LABELS = {-1: "y = −1", 1: "y = +1"}
# blue for f < 0 (class −1), white at f = 0, red for f > 0 (class +1)
DIVERGING = [[0.0, "#8fbfe0"], [0.25, "#cfe3f2"], [0.5, "#ffffff"], [0.75, "#f9d2c4"], [1.0, "#ee9a80"]]
F_RANGE = 2.0
CLICK_LAYER = "click to add a point"
CLICK_CELLS = 30


def class_traces(X, y, *, size=8):
    """One scatter trace per class, in the project's class colours."""
    traces = []
    for label in (-1, 1):
        mask = y == label
        traces.append(go.Scatter(
            x=X[mask, 0], y=X[mask, 1], mode="markers", name=CLASS_LABELS[label],
            marker=dict(color=CLASS_COLORS[label], size=size, line=dict(color="white", width=1)),
            hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<extra>" + CLASS_LABELS[label] + "</extra>",
        ))
    return traces


def click_layer(xs, ys, cells=CLICK_CELLS):
    """An invisible grid of markers: Plotly reports clicks on points, not on empty space."""
    gx, gy = np.meshgrid(np.linspace(xs[0], xs[-1], cells), np.linspace(ys[0], ys[-1], cells))
    return go.Scatter(
        x=gx.ravel().astype(np.float32), y=gy.ravel().astype(np.float32), mode="markers", name=CLICK_LAYER,
        marker=dict(size=14, color="rgba(0,0,0,0)"), hoverinfo="none", showlegend=False,
    )


def decision_figure(xs, ys, Z, X, y, *, free_sv=None, bounded_sv=None, title=None, clickable=True,
                    height=460):
    """Decision function Z (len(ys), len(xs)) over the grid axes xs, ys with the training points.

    free_sv / bounded_sv: index arrays into X of free (0 < α < C) and bounded (α = C) support vectors.
    """
    Z = plot_values(Z)
    xs = np.asarray(xs, dtype=np.float32)
    ys = np.asarray(ys, dtype=np.float32)
    # one trace carries the colour field and the three level lines, so the grid is sent once
    traces = [go.Contour(
        x=xs, y=ys, z=Z, zmin=-F_RANGE, zmax=F_RANGE, colorscale=DIVERGING, name="f(x)",
        contours=dict(coloring="heatmap", start=-1, end=1, size=1, showlabels=True,
                      labelfont=dict(size=12, color="black")),
        line=dict(color="black", width=2),
        # under the plot: beside an equal-aspect plot a vertical bar floats far to its right
        colorbar=dict(title=dict(text="f(x)", side="top"), orientation="h", thickness=10, len=0.6,
                      x=0.5, xanchor="center", y=-0.2, yanchor="top"),
        hovertemplate="x₁=%{x:.2f}, x₂=%{y:.2f}<br>f=%{z:.3f}<extra></extra>",
    )]
    traces += class_traces(X, y)
    rings = [(free_sv, "free SV (0 < α < C)", "black", "solid"),
             (bounded_sv, "bounded SV (α = C)", "#7b3294", "dot")]
    for idx, name, color, dash in rings:
        if idx is not None and len(idx):
            traces.append(go.Scatter(
                x=X[idx, 0], y=X[idx, 1], mode="markers", name=name, hoverinfo="skip",
                marker=dict(symbol="circle-open", size=16, color=color, line=dict(width=2.5, color=color)),
            ))
    if clickable:
        traces.append(click_layer(xs, ys))
    # the layout goes in with the traces: update_layout afterwards costs several times as much
    return go.Figure(traces, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=70),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        xaxis=dict(title="x₁", range=[float(xs[0]), float(xs[-1])], constrain="domain"),
        yaxis=dict(title="x₂", range=[float(ys[0]), float(ys[-1])], scaleanchor="x", scaleratio=1),
        uirevision="boundary", clickmode="event+select", dragmode="pan",
    ))
