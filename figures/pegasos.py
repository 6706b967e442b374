"""Figures for lesson 4: Pegasos (Algorithm 1 of Lecture 8) and the kernel perceptron.

Pure functions (arrays, options) -> figures.Figure. Arrays go out as float32 when they fit (figures.plot_values); the α
animation plays in the browser from Plotly frames, so scrubbing it never reruns the server.
"""

import base64

import numpy as np

from figures import figure, plot_values
from figures.palette import CLASS_COLORS, CLASS_PATTERNS, GREYS, PRIMAL, SECONDARY
from figures.boundary import boundary_frames, decision_figure, first_overlay

# bytes of frame data the α animation may carry (two float32 traces per frame, base64 in JSON),
# and at most this many frames: 25 steps play smoothly enough, and each frame is sent again with
# every change of the run (more frames made this figure's rerun the page's slowest)
FRAME_BUDGET = 90_000
MAX_FRAMES = 25
LAST_COLOR = SECONDARY
AVG_COLOR = PRIMAL


def _log_ticks(lo, hi):
    """1-2-5 tick values covering [lo, hi] on a log axis (Plotly's own minor labels read as bare digits)."""
    lo, hi = max(lo, 1e-300), max(hi, lo)
    decades = range(int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi))) + 1)
    ticks = [m * 10.0**e for e in decades for m in (1, 2, 5)]
    inside = [v for v in ticks if lo <= v <= hi]
    return inside if len(inside) >= 2 else ticks


def objective_figure(t, objective_last, objective_avg, optimum, *, t_mark=None, height=460):
    """λ/2‖w‖² + mean hinge at the last iterate α^t and at the average α̂_t, against the optimum (None: no line).

    Both axes are logarithmic: the early iterates of a small λ have objectives thousands of
    times the optimum, and SGD's O(log t / (λt)) decay reads as a line.
    """
    t = np.asarray(t, dtype=np.float32)
    traces = [
        dict(type="scatter", x=t, y=plot_values(objective_last), mode="lines", name="last iterate αᵗ",
                   line=dict(color=LAST_COLOR, width=1.5),
                   hovertemplate="t=%{x:.0f}<br>objective=%{y:.5g}<extra>αᵗ</extra>"),
        dict(type="scatter", x=t, y=plot_values(objective_avg), mode="lines", name="average α̂ₜ",
                   line=dict(color=AVG_COLOR, width=2.5),
                   hovertemplate="t=%{x:.0f}<br>objective=%{y:.5g}<extra>α̂ₜ</extra>"),
    ]
    # the optimum across the plot and t_mark down it, as add_hline / add_vline draw them; passed with the
    # layout in one go, which costs a fraction of those calls and update_layout
    shapes, annotations = [], []
    if optimum is not None:
        shapes.append(dict(type="line", x0=0, x1=1, xref="x domain", y0=float(optimum), y1=float(optimum), yref="y",
                           line=dict(color="black", dash="dash", width=1.5)))
        # on a log axis an annotation's y is log10 of the value
        annotations.append(dict(x=0, xref="paper", y=float(np.log10(max(optimum, 1e-300))), yref="y",
                                text=f"exact optimum {optimum:.5g}", showarrow=False, xanchor="left", yanchor="top"))
    if t_mark is not None:
        shapes.append(dict(type="line", x0=float(t_mark), x1=float(t_mark), xref="x", y0=0, y1=1, yref="y domain",
                           line=dict(color=GREYS["light"], dash="dot", width=1.5)))
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=30, b=10), uirevision="objective",
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), shapes=shapes,
        annotations=annotations,
        xaxis=dict(title="t (SGD step)", type="log", dtick=1),
        yaxis=dict(title="λ/2 ‖w‖² + (1/n) Σ hinge", type="log", tickvals=_log_ticks(
            min(float(np.min(objective_last)), float(np.min(objective_avg)),
                *([] if optimum is None else [float(optimum)])),
            max(float(np.max(objective_last)), float(np.max(objective_avg)))), tickformat=".3~g"),
    ))


def _f4(a):
    """A float32 typed array in Plotly's JSON form, encoded once here rather than on every redraw."""
    return {"dtype": "f4", "bdata": base64.b64encode(np.ascontiguousarray(a, dtype=np.float32).tobytes()).decode()}


def _frame_indices(n_snapshots, n_points, budget=FRAME_BUDGET):
    """Evenly spaced snapshots, as many as two float32 traces of n_points each fit in budget."""
    per_frame = 2 * n_points * 4 * 4 / 3 + 150  # base64 of two float32 arrays, plus the frame's keys
    m = int(max(2, min(n_snapshots, MAX_FRAMES, budget // per_frame)))
    return np.unique(np.rint(np.linspace(0, n_snapshots - 1, m)).astype(int))


def alpha_animation(snapshot_t, alpha, alpha_avg, y, alpha_star_y, *, height=420):
    """Bars of α^t (last iterate) and markers of α̂_t (average) per training point, played over t.

    alpha, alpha_avg: (S, n) snapshots; alpha_star_y: (n,) the exact SVM's α*_i y_i, the point the
    averages head for. Points are ordered by class so the signs read as two blocks. Early α^t are
    far larger than late ones (β^t/(λt) with small t), so each frame sets its own y range.
    """
    y = np.asarray(y)
    order = np.argsort(y, kind="stable")
    pos = np.arange(y.size, dtype=np.float32)
    alpha = np.asarray(alpha, dtype=np.float32)[:, order]
    alpha_avg = np.asarray(alpha_avg, dtype=np.float32)[:, order]
    star = np.asarray(alpha_star_y, dtype=np.float32)[order]
    frames_at = _frame_indices(len(snapshot_t), y.size)
    names = [f"t = {int(snapshot_t[k])}" for k in frames_at]

    def y_range(k):
        top = 1.1 * float(max(np.abs(alpha[k]).max(), np.abs(alpha_avg[k]).max(), np.abs(star).max(), 1e-12))
        return [-top, top]

    last = frames_at[-1]
    data = [
        dict(type="bar", x=pos, y=alpha[last], name="last iterate αᵗ",
               marker=dict(color=[CLASS_COLORS[int(v)] for v in y[order]], opacity=0.55,
                           pattern=dict(shape=[CLASS_PATTERNS[int(v)] for v in y[order]])),
               hovertemplate="point %{x}<br>αᵗ=%{y:.4g}<extra></extra>"),
        dict(type="scatter", x=pos, y=alpha_avg[last], mode="markers", name="average α̂ₜ",
                   marker=dict(color=AVG_COLOR, size=5),
                   hovertemplate="point %{x}<br>α̂ₜ=%{y:.4g}<extra></extra>"),
        dict(type="scatter", x=pos, y=star, mode="markers", name="exact SVM α*ᵢ yᵢ",
                   marker=dict(symbol="line-ew-open", size=9, color="black", line=dict(width=2)),
                   hovertemplate="point %{x}<br>α*ᵢ yᵢ=%{y:.4g}<extra></extra>"),
    ]
    # frames carry only the new heights and range: validating less is faster, and the rest stays
    frames = [dict(data=[dict(type="bar", y=_f4(alpha[k])), dict(type="scatter", y=_f4(alpha_avg[k]))],
                   traces=[0, 1], layout=dict(yaxis=dict(range=y_range(k))), name=name)
              for k, name in zip(frames_at, names)]
    # the chart element plays the frames (Play / Step / Reset); names are "t = …" as its player shows them
    # data, layout and frames in one go: update_layout and setting fig.frames afterwards cost several times more
    return figure(data, frames=frames, layout=dict(
        height=height, margin=dict(l=10, r=10, t=30, b=10), uirevision="alpha", bargap=0.1,
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
        xaxis=dict(title="training point (class −1, then class +1)", showticklabels=False),
        yaxis=dict(title="α (signed: yⱼ is inside)", range=y_range(last)),
    ))


def _rings(X, alpha, hit):
    """The points that caused mistakes ringed, ring size ∝ √α_i (no ring while α_i = 0)."""
    a = np.asarray(alpha)[hit]
    return dict(type="scatter",
        x=X[hit, 0].astype(np.float32), y=X[hit, 1].astype(np.float32), mode="markers",
        name="mistakes αᵢ (ring size)", customdata=a.astype(np.int32),
        marker=dict(symbol="circle-open", size=np.where(a > 0, 10 + 4 * np.sqrt(a), 0).astype(np.float32),
                    color="black", line=dict(width=1.5)),
        hovertemplate="αᵢ = %{customdata} mistakes<extra></extra>",
    )


def perceptron_figure(xs, ys, Z, X, y, alpha, *, title=None, height=440, replay=None, own=None):
    """The perceptron's f = Σ α_i y_i K(x_i, ·) with each point that caused mistakes ringed, ring size ∝ √α_i.

    replay: a function returning (Z (S, len(ys), len(xs)), labels, alphas (S, n)) at the end of some epochs, the
    last being Z's: frames of the lines f = 0, ±1 and of the rings, made when they are asked for (figures.figure).
    """
    hit = np.flatnonzero(np.asarray(alpha) > 0)
    rings_trace = first_overlay(None, None, own)

    def frames():
        Zs, labels, alphas = replay()
        made = boundary_frames(xs, ys, list(Zs), labels)
        for frame, a in zip(made, alphas):
            frame["traces"].append(rings_trace)
            # the whole marker: the chart element merges a frame's trace one level deep
            frame["data"].append({key: value for key, value in _rings(X, a, hit).items() if key in
                                  ("type", "customdata", "marker")})
        return made

    # the perceptron has no margin: f = ±1 are level lines of f, not margins
    return decision_figure(xs, ys, Z, X, y, title=title, height=height, overlays=[_rings(X, alpha, hit)],
                           line_names=("f = 0 (decision boundary)", "f = ±1 (level lines; no margin here)"),
                           frames=None if replay is None else frames, own=own)


def mistakes_figure(mistakes, *, height=220):
    """Mistakes per epoch; the last bar is 0 exactly when the perceptron converged."""
    epochs = np.arange(1, len(mistakes) + 1, dtype=np.int32)
    return figure([dict(type="bar", x=epochs, y=np.asarray(mistakes, dtype=np.int32), marker=dict(color=GREYS["dark"]),
                        hovertemplate="epoch %{x}: %{y} mistakes<extra></extra>")],
                  layout=dict(height=height, margin=dict(l=10, r=10, t=10, b=10), uirevision="mistakes",
                                 # whole epochs only (plotly.js put a label at 0.5, into the y axis' 0)
                                 xaxis=dict(title="epoch", tick0=1, dtick=max(1, -(-len(mistakes) // 10))),
                                 yaxis=dict(title="mistakes", rangemode="tozero")))
