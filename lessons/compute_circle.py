"""Lesson 2's core calls and figure builders, memoized once per process (common.memo) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect

import numpy as np

from figures.lift import back_figure as _back_figure, lift_figure as _lift_figure
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.svm import PrimalSVM
from lessons import common

# φ's constant 1 already is the offset (b = w₀), so the circle lift needs no separate intercept
FIT_INTERCEPT = {"circle": False, "paraboloid": True}
# a point with y f(x) below 1 + this is drawn as on (or inside) the margin
MARGIN_TOL = 1e-6
PRIMAL_SOURCE = inspect.getsource(PrimalSVM.fit)

# each figure is built once per distinct input (see common.memo): the 3-D one keeps its bytes,
# so its camera stays where the student turned it
lift_figure, back_figure = map(common.memo(), (_lift_figure, _back_figure))


@common.memo(max_entries=32)
def fit_lift(X, y, lift, C):
    """Lift by φ, fit the max-margin plane in the primal, evaluate both planes on the data and a grid."""
    fm = FEATURE_MAPS[lift]
    phi = fm.phi(X)
    model = PrimalSVM(C=C, fit_intercept=FIT_INTERCEPT[lift]).fit(phi, y)
    grid = make_grid(X, n=common.GRID_POINTS)
    f = model.decision_function(phi)
    # the notes' rule sign(x₁² + x₂² − 1), the same function in both lifts
    f_notes = X[:, 0] ** 2 + X[:, 1] ** 2 - 1.0
    w, b = model.coef_, float(model.intercept_)
    return {
        "phi": phi, "w": w, "b": b, "slack": model.slack_, "objective": float(model.primal_objective_),
        "margin": 1.0 / float(np.linalg.norm(w)),
        "errors": int(np.count_nonzero(y * f <= 0)), "errors_notes": int(np.count_nonzero(y * f_notes <= 0)),
        "on_margin": np.flatnonzero(y * f <= 1.0 + MARGIN_TOL),
        "xs": grid.x, "ys": grid.y,
        "Z": model.decision_function(fm.phi(grid.points)).reshape(grid.y.size, grid.x.size),
        "curve": curve_latex(lift, w, b),
    }


def curve_latex(lift, w, b):
    """The max-margin plane mapped back to the plane: an ellipse (circle lift) or a circle (paraboloid)."""
    if lift == "circle":
        c = w[0] + b
        if w[1] * c < 0 and w[2] * c < 0:
            a1, a2 = np.sqrt(-c / w[1]), np.sqrt(-c / w[2])
            return rf"\frac{{x_1^2}}{{{a1:.3f}^2}} + \frac{{x_2^2}}{{{a2:.3f}^2}} = 1 \quad\text{{(an ellipse)}}"
    elif w[2] != 0:
        c1, c2 = -w[0] / (2 * w[2]), -w[1] / (2 * w[2])
        r2 = c1**2 + c2**2 - b / w[2]
        if r2 > 0:
            return rf"(x_1 {-c1:+.3f})^2 + (x_2 {-c2:+.3f})^2 = {np.sqrt(r2):.3f}^2 \quad\text{{(a circle)}}"
    return r"\text{not a closed curve: the plane does not cut the lifted data into inside and outside}"
