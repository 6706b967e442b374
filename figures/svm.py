"""Figures of lesson 3: the dual variables α against the box 0 ≤ α ≤ C, and the dual's decision figure
with the primal's boundary f = 0 drawn over it. Both can replay SMO's run from its snapshots (DualSVM's
history_) as frames, played in the browser by the chart element (lab/live_chart.py)."""

import numpy as np

from figures import figure

from .palette import CLASS_COLORS, CLASS_PATTERNS, EMPHASIS, PRIMAL, SECONDARY
from .boundary import CLASS_LABELS, boundary_frames, decision_figure, first_overlay, level_sets, line_trace

PRIMAL_COLOR = PRIMAL
C_LINE_COLOR = SECONDARY
PAIR_COLOR = EMPHASIS
PAIR_NAME = "working set of the step"


def alpha_bars(alpha, y, C, *, title=None, height=300, snapshots=None, labels=None):
    """α_i per training point i as bars in the class colours, with the upper bound C as a line.

    alpha is the dual solution itself (α ≥ 0), never y·α; C = inf (hard margin) draws no line.
    snapshots: (S, n) α during the run (the last one alpha), replayed as frames named by labels.
    """
    alpha = np.asarray(alpha, dtype=np.float64)
    y = np.asarray(y)
    index = np.arange(alpha.shape[0])
    traces = [dict(type="bar", x=index[y == label], y=alpha[y == label].astype(np.float32), name=CLASS_LABELS[label],
                     marker=dict(color=CLASS_COLORS[label], pattern=dict(shape=CLASS_PATTERNS[label])),
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
    frames = None
    if snapshots is not None:
        snapshots = np.asarray(snapshots, dtype=np.float64)
        top = max(top, float(snapshots.max()))   # without C an early α may pass the last one
        frames = [dict(name=str(label), traces=[0, 1],
                       data=[dict(type="bar", y=a[y == label_y].astype(np.float32)) for label_y in (-1, 1)])
                  for a, label in zip(snapshots, labels)]
    return figure(traces, frames=frames, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10), barmode="overlay",
        bargap=0.1, legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), shapes=shapes,
        annotations=annotations,
        xaxis=dict(title="training point i", range=[-0.6, alpha.shape[0] - 0.4]),
        yaxis=dict(title="αᵢ", range=[0.0, 1.1 * top if top > 0 else 1.0]),
        uirevision="alpha",
    ))


def _pair_xy(X, working_set):
    """The points of a snapshot's working set as float32 x and y (one NaN point when it has none)."""
    idx = list(working_set)
    if not idx:
        return np.array([np.nan], dtype=np.float32), np.array([np.nan], dtype=np.float32)
    return X[idx, 0].astype(np.float32), X[idx, 1].astype(np.float32)


def primal_dual_figure(xs, ys, Z_dual, X, y, *, Z_primal=None, free_sv=None, bounded_sv=None, title=None,
                       replay=None, last_working_set=(), own=None):
    """The dual's decision figure (field, f = 0, ±1, ringed support vectors) with the primal's f = 0 on top.

    replay: a function returning (Z (S, len(ys), len(xs)), labels, working_sets) at SMO's snapshots, the last being
    Z_dual's iterate: frames of the lines f = 0, ±1 (figures.boundary.boundary_frames) with each snapshot's
    working set ringed (the pair (i, j) that step moved; none for the start and active-set steps), made when they
    are asked for (figures.figure). last_working_set: the pair of the last snapshot, ringed on the figure itself.
    """
    X = np.asarray(X)
    overlays, frames = [], None
    if replay is not None:
        x0, y0 = _pair_xy(X, last_working_set)
        overlays.append(dict(type="scatter", x=x0, y=y0, mode="markers", name=PAIR_NAME, hoverinfo="skip",
                             marker=dict(symbol="circle-open", size=22, color=PAIR_COLOR,
                                         line=dict(width=3, color=PAIR_COLOR))))
        pair_trace = first_overlay(free_sv, bounded_sv, own)

        def with_pairs():
            Z, labels, working_sets = replay()
            made = boundary_frames(xs, ys, list(Z), labels)
            for frame, working_set in zip(made, working_sets):
                px, py = _pair_xy(X, working_set)
                frame["traces"].append(pair_trace)
                frame["data"].append(dict(type="scatter", x=px, y=py))
            return made

        frames = with_pairs

    if Z_primal is not None:
        (zero,) = level_sets(xs, ys, Z_primal, (0.0,))
        overlays.append(line_trace(zero, name="primal f = 0", color=PRIMAL_COLOR, width=3, dash="dot"))
    return decision_figure(xs, ys, Z_dual, X, y, free_sv=free_sv, bounded_sv=bounded_sv, title=title,
                           overlays=overlays, frames=frames, own=own)
