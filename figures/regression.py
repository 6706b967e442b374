"""Figures for 1-D regression (lessons 1 and 6): fitted curves, the representer bumps, histories.

Pure functions (arrays, options) -> figures.Figure; arrays go out as float32.
"""

import numpy as np

from figures import figure, log_ticks, plot_values
from figures.palette import BLUE, EMPHASIS, EXACT, GREYS, PRIMAL, VERMILLION, tint

DATA_COLOR = GREYS["dark"]
THETA_COLOR = PRIMAL
BETA_COLOR = EMPHASIS
SUM_COLOR = EXACT
# bumps with β_j > 0 and β_j < 0, told apart so the cancellations are visible
BUMP_COLORS = {1: tint(VERMILLION, 0.7), -1: tint(BLUE, 0.7)}
HEIGHT = 420
# the thin bump lines share at most this many points; beyond it every k-th grid point is drawn
# (the sum keeps the full grid), so the figure stays under its 150 KB payload budget for any n
BUMP_POINTS = 6_000


def _f32(a):
    return np.asarray(a, dtype=np.float32)


def _figure(traces, *, title, xtitle, ytitle, uirevision, height=HEIGHT, ytype="linear", yrange=None, frames=None):
    # traces and layout in one go: add_trace and update_layout afterwards cost several times as much
    yaxis = dict(title=ytitle, type=ytype, exponentformat="power")
    if ytype == "log":
        yaxis.update(log_ticks(traces))
    if yrange is not None:
        yaxis["range"] = list(yrange)
    return figure(traces, frames=frames, layout=dict(
        title=title or {}, height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), uirevision=uirevision,
        xaxis=dict(title=xtitle), yaxis=yaxis,
    ))


def _data_window(y, *curves):
    """A y range that keeps the data in view when a curve leaves it far behind (a diverged run), else None
    (autorange): the data's span, widened by that span on each side."""
    lo, hi = float(np.min(y)), float(np.max(y))
    pad = max(hi - lo, 1e-12)
    window = (lo - pad, hi + pad)
    inside = all(np.all((np.asarray(c) >= window[0]) & (np.asarray(c) <= window[1])) for c in curves)
    return None if inside else window


def data_trace(x, y, *, name="training data (xᵢ, yᵢ)"):
    return dict(type="scatter", x=_f32(x), y=_f32(y), mode="markers", name=name,
                      marker=dict(color=DATA_COLOR, size=7, line=dict(color="white", width=1)),
                      hovertemplate="x=%{x:.3f}<br>y=%{y:.3f}<extra>data</extra>")


def two_fits_figure(x, y, grid_x, f_theta, f_beta, *, theta_name, beta_name, title=None,
                    xtitle="x", ytitle="y", uirevision="fits", beta_frames=None):
    """Two predictions over grid_x that should coincide: f_theta solid and wide, f_beta dashed on top.

    beta_frames: (labels, curves (S, len(grid_x))) f_beta during training, the last being f_beta's: frames
    that replace only the f_beta curve's y (the chart element plays them).
    """
    traces = [
        data_trace(x, y),
        dict(type="scatter", x=_f32(grid_x), y=plot_values(f_theta), mode="lines", name=theta_name,
                   line=dict(color=THETA_COLOR, width=6), opacity=0.55,
                   hovertemplate="x=%{x:.3f}<br>f=%{y:.5g}<extra>θ</extra>"),
        dict(type="scatter", x=_f32(grid_x), y=plot_values(f_beta), mode="lines", name=beta_name,
                   line=dict(color=BETA_COLOR, width=2.5, dash="dash"),
                   hovertemplate="x=%{x:.3f}<br>f=%{y:.5g}<extra>β</extra>"),
    ]
    frames = None
    if beta_frames is not None:
        labels, curves = beta_frames
        frames = [dict(name=str(label), traces=[2], data=[dict(type="scatter", y=plot_values(curve))])
                  for label, curve in zip(labels, curves)]
    return _figure(traces, title=title, xtitle=xtitle, ytitle=ytitle, uirevision=uirevision,
                   yrange=_data_window(y, f_theta, f_beta), frames=frames)


def bumps_figure(x, y, grid_x, beta, bumps, total, *, title=None, xtitle="x", ytitle="y", uirevision="bumps"):
    """The representer theorem: each term β_j K(x_j, ·) as a thin line, their sum f as a thick one.

    beta: (n,) coefficients; bumps: (n, m) with bumps[j] = β_j K(x_j, grid_x); total: (m,) = Σ_j bumps[j].
    Bumps of one sign share a trace (lines separated by NaN), which keeps the legend small; past
    BUMP_POINTS values the bumps are drawn on every k-th grid point only.
    """
    stride = -(-np.size(bumps) // BUMP_POINTS)
    bumps = _f32(bumps)[:, ::stride]
    bump_x = _f32(grid_x)[::stride]
    grid_x = _f32(grid_x)
    sign = np.where(np.asarray(beta) >= 0, 1, -1)
    traces = []
    for s, label in ((1, "βⱼ K(xⱼ, x) with βⱼ > 0"), (-1, "βⱼ K(xⱼ, x) with βⱼ < 0")):
        rows = bumps[sign == s]
        if not rows.shape[0]:
            continue
        gap = np.full((rows.shape[0], 1), np.nan, dtype=np.float32)
        traces.append(dict(type="scatter",
            x=np.hstack([np.broadcast_to(bump_x, rows.shape), gap]).ravel(),
            y=np.hstack([rows, gap]).ravel(), mode="lines", name=label, connectgaps=False,
            line=dict(color=BUMP_COLORS[s], width=1), opacity=0.7,
            hovertemplate="x=%{x:.3f}<br>bump=%{y:.4g}<extra></extra>",
        ))
    traces.append(data_trace(x, y))
    traces.append(dict(type="scatter", x=grid_x, y=_f32(total), mode="lines", name="f(x) = Σⱼ βⱼ K(xⱼ, x)",
                             line=dict(color=SUM_COLOR, width=3.5),
                             hovertemplate="x=%{x:.3f}<br>f=%{y:.5g}<extra>sum</extra>"))
    return _figure(traces, title=title, xtitle=xtitle, ytitle=ytitle, uirevision=uirevision)


def history_figure(t, curves, *, ytitle, title=None, log_y=True, uirevision="history", height=HEIGHT):
    """Objective against the step t; curves maps a legend name to (values, dash).

    Solid curves are drawn wide and dashed ones thin on top, so two identical runs read as one.
    """
    traces = []
    t = _f32(t)
    for k, (name, (values, dash)) in enumerate(curves.items()):
        color = (THETA_COLOR, BETA_COLOR, SUM_COLOR)[k % 3]
        traces.append(dict(type="scatter",
            x=t, y=plot_values(values), mode="lines", name=name,
            line=dict(color=color, width=2.5 if dash else 5, dash=dash), opacity=1.0 if dash else 0.55,
            hovertemplate="t=%{x:.0f}<br>%{y:.6g}<extra></extra>",
        ))
    return _figure(traces, title=title, xtitle="t (step)", ytitle=ytitle, uirevision=uirevision, height=height,
                   ytype="log" if log_y else "linear")
