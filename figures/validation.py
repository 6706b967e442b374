"""Figures of lesson 3's validation: the k-fold cross-validated accuracy over the C × γ grid as a heatmap (the
current (C, γ) marked; a click on a cell is read by the chart element in mode "cells"), and the accuracies and
the number of support vectors along C and along γ through the current point (kernel_core.crossval.CVGrid)."""

import numpy as np

from figures import figure
from figures.palette import EMPHASIS, GREYS, SECONDARY, VIRIDIS

CURRENT = "current (C, γ)"
TRAIN_COLOR = EMPHASIS
VALIDATION_COLOR = SECONDARY
SV_COLOR = GREYS["mid"]


def _labels(values):
    return [f"{v:.3g}" for v in values]


def _index(values, value):
    """The index of `value` in the grid, or None when it is not on it (C = ∞, a γ off the grid)."""
    hits = np.flatnonzero(np.isclose(values, value, rtol=1e-9, atol=0.0)) if np.isfinite(value) else []
    return int(hits[0]) if len(hits) else None


def cv_heatmap(grid, C, gamma, *, height=380):
    """Validation accuracy (mean over the folds) per cell: x = C, y = γ, both by their index on the slider grids
    (ticks labelled with the values), so a click's data coordinates round to the cell. Cells without a value
    (a fit that did not converge) are left blank. The current (C, γ), when it is on the grid, is ringed."""
    nC, nG = grid.Cs.size, grid.gammas.size
    z = np.where(np.isfinite(grid.validation), grid.validation, np.nan).astype(np.float32)
    text = np.array([[f"C = {c:.3g}, γ = {g:.3g}<br>validation {v:.1%}<br>train {t:.1%}<br>#SV {s:.1f}"
                      if np.isfinite(v) else f"C = {c:.3g}, γ = {g:.3g}<br>not converged"
                      for c, v, t, s in zip(grid.Cs, vr, tr, sr)]
                     for g, vr, tr, sr in zip(grid.gammas, grid.validation, grid.train, grid.n_sv)])
    traces = [dict(type="heatmap", x=np.arange(nC, dtype=np.int32), y=np.arange(nG, dtype=np.int32), z=z,
                   zmin=float(np.nanmin(z)) if np.isfinite(z).any() else 0.0, zmax=1.0, colorscale=VIRIDIS,
                   colorbar=dict(title=dict(text="validation<br>accuracy", side="top"), tickformat=".0%"),
                   text=text, hovertemplate="%{text}<extra>click to set C and γ</extra>", name="validation accuracy")]
    i, j = _index(grid.Cs, C), _index(grid.gammas, gamma)
    at = ([i], [j]) if i is not None and j is not None else ([None], [None])
    traces.append(dict(type="scatter", x=at[0], y=at[1], mode="markers", name=CURRENT, hoverinfo="skip",
                       marker=dict(symbol="square-open", size=16, color="white", line=dict(width=3, color="white"))))
    ticks = lambda values, step: dict(tickmode="array", tickvals=list(range(0, values.size, step)),  # noqa: E731
                                      ticktext=_labels(values[::step]))
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=10, b=10), showlegend=False,
        xaxis=dict(title="C", range=[-0.5, nC - 0.5], showgrid=False, zeroline=False, **ticks(grid.Cs, 2)),
        yaxis=dict(title="γ", range=[-0.5, nG - 0.5], showgrid=False, zeroline=False, **ticks(grid.gammas, 2)),
        uirevision="cv"))


def cv_curves(grid, C, gamma, *, height=380):
    """Two panels through the current point: accuracy against C at the current γ, and against γ at the current
    C; train (solid) and validation (dashed) accuracy on the left axis, the number of support vectors (mean
    over the folds, grey) on the right one. A panel whose line is not on the grid (C = ∞) is left empty."""
    i, j = _index(grid.Cs, C), _index(grid.gammas, gamma)
    traces = []
    panels = (("x", "y", "y3", grid.Cs, None if j is None else (grid.train[j], grid.validation[j], grid.n_sv[j]), C),
              ("x2", "y2", "y4", grid.gammas,
               None if i is None else (grid.train[:, i], grid.validation[:, i], grid.n_sv[:, i]), gamma))
    for k, (xa, ya, sa, values, lines, current) in enumerate(panels):
        if lines is None:
            continue
        train, val, sv = (np.asarray(a, dtype=np.float32) for a in lines)
        x = values.astype(np.float32)
        traces += [dict(type="scatter", x=x, y=train, xaxis=xa, yaxis=ya, mode="lines+markers", name="train",
                        line=dict(color=TRAIN_COLOR), showlegend=k == 0, legendgroup="train"),
                   dict(type="scatter", x=x, y=val, xaxis=xa, yaxis=ya, mode="lines+markers", name="validation",
                        line=dict(color=VALIDATION_COLOR, dash="dash"), showlegend=k == 0, legendgroup="val"),
                   dict(type="scatter", x=x, y=sv, xaxis=xa, yaxis=sa, mode="lines", name="# support vectors",
                        line=dict(color=SV_COLOR, width=1.5), showlegend=k == 0, legendgroup="sv")]
    shapes = [dict(type="line", xref=xa, yref="paper", x0=value, x1=value, y0=0, y1=1,
                   line=dict(color="black", width=1, dash="dot"))
              for xa, value in (("x", C), ("x2", gamma)) if np.isfinite(value)]
    acc = dict(range=[0, 1.02], tickformat=".0%", zeroline=False)
    sv = dict(showgrid=False, zeroline=False, rangemode="tozero")
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=30, b=10), shapes=shapes,
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0),
        xaxis=dict(title=f"C (γ = {gamma:.3g})", type="log", domain=[0.0, 0.36]),
        xaxis2=dict(title="γ" + (f" (C = {C:.3g})" if np.isfinite(C) else ""), type="log", domain=[0.6, 0.94]),
        yaxis=dict(title="accuracy", anchor="x", **acc),
        yaxis2=dict(anchor="x2", **acc),
        yaxis3=dict(title="# SV", overlaying="y", side="right", anchor="x", **sv),
        yaxis4=dict(title="# SV", overlaying="y2", side="right", anchor="x2", **sv),
        uirevision="cv-curves"))
