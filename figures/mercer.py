"""Figures for lesson 5: the Gram matrix, its eigenvalue spectrum and the certificate c of a failure.

Pure functions (arrays, options) -> figures.Figure; arrays go out as float32 when they fit (figures.plot_values), else
float64.
"""

import numpy as np

from figures import figure, plot_values
from figures.boundary import CLASS_LABELS
from figures.palette import CERT_NEGATIVE, CERT_POSITIVE, CLASS_SYMBOLS, GRAM_SCALE, GREYS, NEGATIVE, POSITIVE

ROUNDING = GREYS["light"]


def gram_heatmap(K, y, *, height=420):
    """K[i, j] with the points ordered by class; the white lines split the class blocks."""
    K = plot_values(K)
    m = K.shape[0]
    split = int(np.count_nonzero(np.asarray(y) < 0)) - 0.5
    lines = (dict(x0=split, x1=split, y0=-0.5, y1=m - 0.5), dict(x0=-0.5, x1=m - 0.5, y0=split, y1=split))
    # trace and layout in one go: add_shape and update_layout afterwards cost several times as much
    return figure([dict(
        type="heatmap", z=K, colorscale=GRAM_SCALE, zmid=0.0,
        # the bar's title beside it, not above it, where it ran into the label of 1
        colorbar=dict(title=dict(text="K(xᵢ, xⱼ)", side="right"), thickness=12),
        hovertemplate="i=%{y}, j=%{x}<br>K=%{z:.4g}<extra></extra>",
    )], layout=dict(
        shapes=[dict(type="line", line=dict(color="black", width=1.5), **line) for line in lines],
        height=height, margin=dict(l=10, r=10, t=30, b=10), uirevision="gram",
        title=dict(text="Gram matrix K (class −1 first, then class +1)", font=dict(size=14)),
        xaxis=dict(title="column j", constrain="domain"),
        yaxis=dict(title="row i", autorange="reversed", scaleanchor="x", scaleratio=1),
    ))


def spectrum_figure(eigenvalues, threshold, *, height=420, title="Eigenvalues of K, largest first"):
    """|λ| on a log axis, coloured by sign: positive, within the rounding level, or truly negative.

    threshold is check_psd's rtol·max|λ|: any |λ| below it is float64 rounding, not a direction.
    """
    lam = np.asarray(eigenvalues, dtype=np.float64)[::-1]
    rank = np.arange(1, lam.size + 1, dtype=np.float32)
    # exact zeros have no logarithm; draw them on the floor of the axis
    floor = max(threshold * 1e-4, np.finfo(np.float64).tiny)
    size = np.maximum(np.abs(lam), floor)
    groups = [
        (lam > threshold, "λ > 0", POSITIVE),
        (np.abs(lam) <= threshold, "|λ| ≤ rounding level", ROUNDING),
        (lam < -threshold, "λ < 0 (fails Mercer)", NEGATIVE),
    ]
    traces = [dict(type="scatter", x=rank[mask], y=plot_values(size[mask]), customdata=plot_values(lam[mask]),
                         mode="markers", name=name, marker=dict(color=color, size=6),
                         hovertemplate="rank %{x}<br>λ = %{customdata:.4g}<extra></extra>")
              for mask, name, color in groups if mask.any()]
    level = float(max(threshold, floor))
    # the rounding level as add_hline draws it, and its label, passed with the layout in one go: add_hline,
    # add_annotation and update_layout afterwards cost several times as much
    return figure(traces, layout=dict(
        shapes=[dict(type="line", x0=0, x1=1, xref="x domain", y0=level, y1=level, yref="y",
                     line=dict(color=ROUNDING, dash="dot"))],
        # on a log axis an annotation's y is log10 of the value
        annotations=[dict(x=1, xref="paper", y=float(np.log10(level)), yref="y", text="rounding level rtol·max|λ|",
                          showarrow=False, xanchor="right", yanchor="bottom", font=dict(color=GREYS["mid"], size=11))],
        height=height, margin=dict(l=10, r=10, t=30, b=10), uirevision="spectrum",
        title=dict(text=title, font=dict(size=14)),
        # at the bottom of the figure, under the axis title (at a fraction of the plot's height below it, the
        # legend ran into the title)
        legend=dict(orientation="h", yref="container", yanchor="bottom", y=0, x=0),
        xaxis=dict(title="rank"), yaxis=dict(title="|λ| (log scale)", type="log", exponentformat="power"),
    ))


def certificate_figure(X, y, c, quadratic_form, *, height=420):
    """The points sized by |cᵢ| and coloured by the sign of cᵢ (each class in its marker shape):
    the combination Σ cᵢ φ(xᵢ) whose squared length cᵀKc would be negative."""
    c = np.asarray(c, dtype=np.float64)
    y = np.asarray(y)
    scale = float(np.max(np.abs(c))) or 1.0
    traces = []
    for sign, name, color in ((1, "cᵢ > 0", CERT_POSITIVE), (-1, "cᵢ < 0", CERT_NEGATIVE)):
        for label, symbol in CLASS_SYMBOLS.items():
            mask = (np.sign(c) == sign) & (y == label)
            if not mask.any():
                continue
            traces.append(dict(type="scatter",
                x=X[mask, 0].astype(np.float32), y=X[mask, 1].astype(np.float32), mode="markers",
                name=f"{name}, {CLASS_LABELS[label]}", customdata=c[mask].astype(np.float32),
                marker=dict(symbol=symbol, color=color, opacity=0.85, line=dict(color="white", width=1),
                            size=(5 + 22 * np.abs(c[mask]) / scale).astype(np.float32)),
                hovertemplate="cᵢ = %{customdata:.3g}<extra></extra>",
            ))
    return figure(traces, layout=dict(
        height=height, margin=dict(l=10, r=10, t=30, b=10), uirevision="certificate",
        title=dict(text=f"certificate c (size ∝ |cᵢ|): cᵀKc = {quadratic_form:.4g} < 0", font=dict(size=14)),
        legend=dict(orientation="h", yanchor="top", y=-0.12, x=0),
        xaxis=dict(title=dict(text="x₁"), constrain="domain"),
        yaxis=dict(title=dict(text="x₂"), scaleanchor="x", scaleratio=1),
    ))
