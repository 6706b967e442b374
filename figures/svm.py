"""Figures of lesson 3: the dual variables α against the box 0 ≤ α ≤ C, and the dual's decision figure
with the primal's boundary f = 0 drawn over it."""

import numpy as np
import plotly.graph_objects as go

from .boundary import CLASS_COLORS, CLASS_LABELS, decision_figure

PRIMAL_COLOR = "#1b7837"
C_LINE_COLOR = "#7b3294"
# the primal's boundary is drawn from every 3rd grid line: a smooth (at most quadratic) curve needs no
# more, and the full grid would push the figure past its payload budget
PRIMAL_STRIDE = 3


def alpha_bars(alpha, y, C, *, title=None, height=300):
    """α_i per training point i as bars in the class colours, with the upper bound C as a line.

    alpha is the dual solution itself (α ≥ 0), never y·α; C = inf (hard margin) draws no line.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    index = np.arange(alpha.shape[0])
    traces = [go.Bar(x=index[y == label], y=alpha[y == label].astype(np.float32), name=CLASS_LABELS[label],
                     marker=dict(color=CLASS_COLORS[label]),
                     hovertemplate="point %{x}<br>α=%{y:.4g}<extra>" + CLASS_LABELS[label] + "</extra>")
              for label in (-1, 1)]
    # the line y = C and its label as add_hline(annotation_position="top right") draws them, passed with the
    # layout in one go: add_hline and update_layout afterwards cost several times as much
    shapes, annotations = [], []
    if np.isfinite(C):
        shapes.append(dict(type="line", x0=0, x1=1, xref="x domain", y0=C, y1=C, yref="y",
                           line=dict(color=C_LINE_COLOR, width=2, dash="dash")))
        annotations.append(dict(text=f"C = {C:g}", showarrow=False, x=1, xanchor="right", xref="x domain", y=C,
                                yanchor="bottom", yref="y"))
    top = max(float(alpha.max()), C if np.isfinite(C) else 0.0)
    return go.Figure(traces, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10), barmode="overlay",
        bargap=0.1, legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), shapes=shapes,
        annotations=annotations,
        xaxis=dict(title="training point i", range=[-0.6, alpha.shape[0] - 0.4]),
        yaxis=dict(title="αᵢ", range=[0.0, 1.1 * top if top > 0 else 1.0]),
        uirevision="alpha",
    ))


def zero_contour(xs, ys, Z, *, name, color=PRIMAL_COLOR, dash="dot", stride=PRIMAL_STRIDE):
    """The level set Z = 0 of a decision function on the grid (xs, ys), from every stride-th grid line."""
    keep_x = np.unique(np.r_[np.arange(0, len(xs), stride), len(xs) - 1])
    keep_y = np.unique(np.r_[np.arange(0, len(ys), stride), len(ys) - 1])
    return go.Contour(
        x=np.asarray(xs, dtype=np.float32)[keep_x], y=np.asarray(ys, dtype=np.float32)[keep_y],
        z=np.asarray(Z, dtype=np.float32)[np.ix_(keep_y, keep_x)], showscale=False, name=name, showlegend=True,
        hoverinfo="skip", contours=dict(coloring="none", start=0, end=0, size=1),
        line=dict(color=color, width=3, dash=dash),
    )


def primal_dual_figure(xs, ys, Z_dual, X, y, *, Z_primal=None, free_sv=None, bounded_sv=None, title=None):
    """The dual's decision figure (field, f = 0, ±1, ringed support vectors) with the primal's f = 0 on top."""
    fig = decision_figure(xs, ys, Z_dual, X, y, free_sv=free_sv, bounded_sv=bounded_sv, title=title)
    if Z_primal is not None:
        fig.add_trace(zero_contour(xs, ys, Z_primal, name="primal f = 0"))
    return fig
