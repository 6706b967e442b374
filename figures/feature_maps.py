"""Figures for lesson 1: the cost of explicit features and the Gaussian's truncated Taylor map.

Pure functions (arrays, options) -> figures.Figure; curves go out as float32, the short series of
counts and errors as float64 (float32 would round counts above 2²⁴).
"""

import numpy as np

from figures import figure, log_ticks
from figures.palette import EMPHASIS, EXACT, GREYS, OKABE_ITO

EXPLICIT_COLOR = OKABE_ITO["reddish purple"]
KERNEL_COLOR = OKABE_ITO["bluish green"]
DIM_COLOR = GREYS["mid"]
EXACT_COLOR = EXACT
APPROX_COLOR = EMPHASIS
HEIGHT = 400


def _vline(x):
    """The dotted line at x as fig.add_vline draws it."""
    return dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain",
                line=dict(color=GREYS["light"], dash="dot", width=1.5))


def _figure(traces, *, xtitle, ytitle, uirevision, ytype="linear", height=HEIGHT, shapes=(), annotations=(),
            yrange=None):
    # the title kept clear of the widest tick label (10⁻¹⁰, drawn with a superscript, touched it)
    yaxis = dict(title=dict(text=ytitle, standoff=12), type=ytype, exponentformat="power", range=yrange)
    if ytype == "log":
        yaxis.update(log_ticks(traces))
    # traces and layout in one go: add_vline and update_layout afterwards cost several times as much
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), shapes=list(shapes), annotations=list(annotations),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0), uirevision=uirevision,
        xaxis=dict(title=xtitle), yaxis=yaxis,
    ))


def cost_figure(degrees, feature_dims, explicit_ops, kernel_ops, *, current=None, n_features=None):
    """Feature dimension C(d+p, p) and operations per K(x, z), explicit vs kernel, against p (log y)."""
    p = np.asarray(degrees, dtype=np.float64)
    series = (("operations, explicit φ(x)·φ(z)", explicit_ops, EXPLICIT_COLOR, "solid"),
              ("dim φ = C(d+p, p)", feature_dims, DIM_COLOR, "dot"),
              ("operations, kernel (1 + x·z)^p", kernel_ops, KERNEL_COLOR, "solid"))
    traces = [dict(type="scatter", x=p, y=np.asarray(values, dtype=np.float64), mode="lines+markers", name=name,
                         line=dict(color=color, width=2.5, dash=dash), marker=dict(size=6),
                         hovertemplate="p=%{x}<br>%{y:,.0f}<extra>" + name + "</extra>")
              for name, values, color, dash in series]
    # short enough for a phone's width
    xtitle = "p (polynomial degree)" + ("" if n_features is None else f", d = {n_features}")
    return _figure(traces, xtitle=xtitle, ytitle="count (log scale)", uirevision="cost", ytype="log",
                   shapes=[] if current is None else [_vline(float(current))])


def taylor_figure(x, exact, approx, z, n_terms):
    """exp(−γ(x − z)²) and its m-term Taylor feature approximation φ_m(x)·φ_m(z), as functions of x."""
    x = np.asarray(x, dtype=np.float32)
    traces = [
        dict(type="scatter", x=x, y=np.asarray(exact, dtype=np.float32), mode="lines",
                   name="exact K(x, z) = exp(−γ(x − z)²)", line=dict(color=EXACT_COLOR, width=4),
                   opacity=0.6, hovertemplate="x=%{x:.2f}<br>K=%{y:.5g}<extra>exact</extra>"),
        dict(type="scatter", x=x, y=np.asarray(approx, dtype=np.float32), mode="lines",
                   name=f"φ(x)·φ(z) with m = {n_terms} terms",
                   line=dict(color=APPROX_COLOR, width=2.5, dash="dash"),
                   hovertemplate="x=%{x:.2f}<br>φ·φ=%{y:.5g}<extra>truncated</extra>"),
    ]
    # the label of z as add_vline(annotation_position="bottom right") places it
    label = dict(text=f"z = {z:g}", showarrow=False, x=float(z), xanchor="left", xref="x", y=0, yanchor="bottom",
                 yref="y domain")
    # |φ(x)·φ(z)| ≤ ‖φ(x)‖‖φ(z)‖ ≤ 1 for every m, so this range always holds both curves
    return _figure(traces, xtitle="x", ytitle="kernel value", uirevision="taylor", shapes=[_vline(float(z))],
                   annotations=[label], yrange=[-1.05, 1.15])


def taylor_error_figure(n_terms, errors, *, current=None):
    """max_x |φ_m(x)·φ_m(z) − K(x, z)| against the number of terms m (log y)."""
    trace = dict(type="scatter",
        x=np.asarray(n_terms, dtype=np.float32), y=np.asarray(errors, dtype=np.float64), mode="lines+markers",
        name="max error over the plotted x", line=dict(color=APPROX_COLOR, width=2.5), marker=dict(size=5),
        hovertemplate="m=%{x}<br>error=%{y:.3g}<extra></extra>",
    )
    return _figure([trace], xtitle="m (number of Taylor terms)", ytitle="max |φ·φ − K| (log scale)",
                   uirevision="taylor_error", ytype="log", shapes=[] if current is None else [_vline(float(current))])
