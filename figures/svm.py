"""Figures of lesson 3: the dual variables α against the box 0 ≤ α ≤ C, and the dual's decision figure
with the primal's boundary f = 0 drawn over it."""

import numpy as np

from figures import figure

from .boundary import CLASS_COLORS, CLASS_LABELS, decision_figure, level_sets, line_trace

PRIMAL_COLOR = "#1b7837"
C_LINE_COLOR = "#7b3294"


def alpha_bars(alpha, y, C, *, title=None, height=300):
    """α_i per training point i as bars in the class colours, with the upper bound C as a line.

    alpha is the dual solution itself (α ≥ 0), never y·α; C = inf (hard margin) draws no line.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    index = np.arange(alpha.shape[0])
    traces = [dict(type="bar", x=index[y == label], y=alpha[y == label].astype(np.float32), name=CLASS_LABELS[label],
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
    return figure(traces, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10), barmode="overlay",
        bargap=0.1, legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), shapes=shapes,
        annotations=annotations,
        xaxis=dict(title="training point i", range=[-0.6, alpha.shape[0] - 0.4]),
        yaxis=dict(title="αᵢ", range=[0.0, 1.1 * top if top > 0 else 1.0]),
        uirevision="alpha",
    ))


def primal_dual_figure(xs, ys, Z_dual, X, y, *, Z_primal=None, free_sv=None, bounded_sv=None, title=None):
    """The dual's decision figure (field, f = 0, ±1, ringed support vectors) with the primal's f = 0 on top."""
    overlays = []
    if Z_primal is not None:
        (zero,) = level_sets(xs, ys, Z_primal, (0.0,))
        overlays.append(line_trace(zero, name="primal f = 0", color=PRIMAL_COLOR, width=3, dash="dot"))
    return decision_figure(xs, ys, Z_dual, X, y, free_sv=free_sv, bounded_sv=bounded_sv, title=title,
                           overlays=overlays)
