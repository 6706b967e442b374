"""Figures of lesson 2: the data lifted to 3-D by a feature map, with separating planes w·z + b = 0,
and the notes' circle x₁² + x₂² = 1 for the picture mapped back into the plane."""

import numpy as np

from figures import figure

from .boundary import CLASS_LABELS, decision_figure
from .palette import CLASS_COLORS, CLASS_SYMBOLS, PRIMAL

CIRCLE_POINTS = 181
NOTES_COLOR = PRIMAL


def lift_box(Z, *, pad=0.08):
    """Axis ranges [(lo, hi)] × 3 around the lifted points Z (n, 3), padded by pad × span (1 if flat)."""
    lo, hi = Z.min(axis=0), Z.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    return [(float(a), float(b)) for a, b in zip(lo - pad * span, hi + pad * span)]


def plane_polygon(w, b, box):
    """Corners (m, 3), in order around the polygon, of the plane w·z + b = 0 cut by the box; m = 0 when
    the plane misses it. The cut crosses the box's 12 edges at most 6 times."""
    w = np.asarray(w, dtype=np.float64)
    # corner c takes axis a's upper end when bit 2 − a of c is set; an edge flips one bit
    corners = np.array(np.meshgrid(*box, indexing="ij")).reshape(3, -1).T
    edges = [(c, c | (1 << (2 - a))) for c in range(8) for a in range(3) if not c & (1 << (2 - a))]
    P, Q = corners[[e[0] for e in edges]], corners[[e[1] for e in edges]]
    sp, sq = P @ w + b, Q @ w + b
    cross = (sp * sq <= 0) & (sp != sq)
    t = (sp[cross] / (sp[cross] - sq[cross]))[:, None]
    points = np.unique(np.round(P[cross] + t * (Q[cross] - P[cross]), 12), axis=0)
    if len(points) < 3:
        return np.empty((0, 3))
    # order by angle about the centroid, measured in an orthonormal basis (u, v) of the plane
    centre = points.mean(axis=0)
    n = w / np.linalg.norm(w)
    u = np.cross(n, np.eye(3)[int(np.argmin(np.abs(n)))])
    u /= np.linalg.norm(u)
    v = np.cross(n, u)
    d = points - centre
    return points[np.argsort(np.arctan2(d @ v, d @ u))]


def plane_traces(w, b, box, *, name, color, opacity=0.4):
    """The plane w·z + b = 0 inside box: a translucent polygon and its outline (one legend entry)."""
    poly = plane_polygon(w, b, box).astype(np.float32)
    if not len(poly):
        return []
    m = len(poly)
    closed = np.vstack([poly, poly[:1]])
    return [
        dict(type="mesh3d", x=poly[:, 0], y=poly[:, 1], z=poly[:, 2], i=np.zeros(m - 2, dtype=int),
                  j=np.arange(1, m - 1), k=np.arange(2, m), color=color, opacity=opacity, name=name,
                  legendgroup=name, showlegend=True, hoverinfo="name", flatshading=True),
        dict(type="scatter3d", x=closed[:, 0], y=closed[:, 1], z=closed[:, 2], mode="lines", name=name,
                     legendgroup=name, showlegend=False, hoverinfo="skip", line=dict(color=color, width=4)),
    ]


def lift_figure(Z, y, *, axis_titles, planes=(), margin_idx=None, box=None, eye=(1.5, -1.6, 0.9), title=None,
                height=480, lines=()):
    """Lifted points Z (n, 3), one colour per class, with planes [(w, b, name, colour)] in the same
    coordinates; margin_idx rings the points on or inside the margin of the max-margin plane; lines
    [(P (k, 3), plane name, colour)] are drawn bold, shown and hidden with their plane (where it meets the data)."""
    Z = np.asarray(Z, dtype=np.float64)
    box = lift_box(Z) if box is None else box
    traces = []
    for w, b, name, color in planes:
        traces += plane_traces(w, b, box, name=name, color=color)
    for P, plane, color in lines:
        if len(P):
            P = np.asarray(P, dtype=np.float32)
            traces.append(dict(type="scatter3d", x=P[:, 0], y=P[:, 1], z=P[:, 2], mode="lines",
                               name=f"{plane}, on the sheet", legendgroup=plane, showlegend=False,
                               line=dict(color=color, width=7), hoverinfo="skip"))
    for label in (-1, 1):
        P = Z[y == label].astype(np.float32)
        traces.append(dict(type="scatter3d",
            x=P[:, 0], y=P[:, 1], z=P[:, 2], mode="markers", name=CLASS_LABELS[label],
            marker=dict(color=CLASS_COLORS[label], symbol=CLASS_SYMBOLS[label], size=4,
                        line=dict(color="white", width=0.5)),
            hovertemplate=f"{axis_titles[0]}=%{{x:.2f}}<br>{axis_titles[1]}=%{{y:.2f}}<br>"
                          f"{axis_titles[2]}=%{{z:.2f}}<extra>{CLASS_LABELS[label]}</extra>",
        ))
    if margin_idx is not None and len(margin_idx):
        P = Z[margin_idx].astype(np.float32)
        traces.append(dict(type="scatter3d",
            x=P[:, 0], y=P[:, 1], z=P[:, 2], mode="markers", name="on or inside the margin",
            marker=dict(symbol="circle-open", size=8, color="black", line=dict(width=2)), hoverinfo="skip",
        ))
    axes = {name: dict(title=t, range=list(r)) for name, t, r in zip(("xaxis", "yaxis", "zaxis"), axis_titles, box)}
    # traces and layout in one go: add_trace and update_layout afterwards cost several times as much
    return figure(traces, layout=dict(
        title=title or {}, height=height, margin=dict(l=0, r=0, t=40 if title else 0, b=0),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        scene=dict(**axes, aspectmode="cube", camera=dict(eye=dict(zip("xyz", eye)))),
        uirevision="lift",
    ))


def notes_circle_trace():
    """The notes' boundary x₁² + x₂² = 1, the unit circle, as a dashed line for a 2-D figure."""
    t = np.linspace(0.0, 2.0 * np.pi, CIRCLE_POINTS)
    return dict(type="scatter",
        x=np.cos(t).astype(np.float32), y=np.sin(t).astype(np.float32), mode="lines",
        name="notes: x₁² + x₂² = 1", line=dict(color=NOTES_COLOR, width=3, dash="dot"), hoverinfo="name",
    )


def back_figure(xs, ys, Z, X, y, *, own=None):
    """The max-margin decision function Z over the plane (from the lifted coordinates) and the notes' circle;
    own: the student's points (decision_figure)."""
    return decision_figure(xs, ys, Z, X, y, overlays=[notes_circle_trace()], own=own)
