"""Lesson 2's core calls and figure builders, memoized once per process (lab/memo.py) and shared by
every session; in an imported module, so the memory outlives each rerun of the page script."""

import inspect
from dataclasses import dataclass

import numpy as np

from figures.boundary import GRID_POINTS
from figures.lift import NOTES_COLOR, back_figure as _back_figure, lift_box, lift_figure as _lift_figure
from figures.palette import GREYS
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.svm import PrimalSVM
from lab.memo import memo

# φ's constant 1 already is the offset (b = w₀), so the circle lift needs no separate intercept
FIT_INTERCEPT = {"circle": False, "paraboloid": True}
# the notes' plane (w, b) in each lift's coordinates; both are the circle x₁² + x₂² − 1 = 0
NOTES_PLANE = {"circle": ((-1.0, 1.0, 1.0), 0.0), "paraboloid": ((0.0, 0.0, 1.0), -1.0)}
# plot order of φ's coordinates: the circle lift's constant goes up, so the data is a flat sheet at height 1
AXES = {"circle": (1, 2, 0), "paraboloid": (0, 1, 2)}
AXIS_TITLES = {"circle": ("x₁²", "x₂²", "1 (constant)"), "paraboloid": ("x₁", "x₂", "x₁² + x₂²")}
# the circle lift is seen from above the origin corner, so its planes show as full triangles
CAMERA = {"circle": (-1.25, -1.25, 1.45), "paraboloid": (1.5, -1.6, 0.9)}
MAX_MARGIN_COLOR = GREYS["dark"]
# a point with y f(x) below 1 + this is drawn as on (or inside) the margin
MARGIN_TOL = 1e-6
PRIMAL_SOURCE = inspect.getsource(PrimalSVM.fit)

# each figure is built once per distinct input (see lab/memo.py): the 3-D one keeps its bytes,
# so its camera stays where the student turned it
lift_figure, back_figure = map(memo(), (_lift_figure, _back_figure))


@dataclass(frozen=True)
class Lift:
    """The max-margin plane min ½‖w‖² + CΣξᵢ in the lifted coordinates φ(x), and both planes judged on the data."""

    phi: np.ndarray          # (n, 3) the lifted points
    w: np.ndarray
    b: float
    xi: np.ndarray           # slack ξᵢ per point
    objective: float
    margin: float | None     # 1/‖w‖; None when w = 0 (the lifted classes give no direction at all)
    errors: int              # training errors of the max-margin plane
    errors_notes: int        # of the notes' plane
    on_margin: np.ndarray    # indices with yᵢf(xᵢ) ≤ 1
    xs: np.ndarray
    ys: np.ndarray
    Z: np.ndarray            # f on the grid
    curve: str               # the plane mapped back to the plane, as LaTeX


@memo(max_entries=32)
def fit_lift(X, y, lift, C):
    """Lift by φ, fit the max-margin plane in the primal, evaluate both planes on the data and a grid."""
    fm = FEATURE_MAPS[lift]
    phi = fm.phi(X)
    model = PrimalSVM(C=C, fit_intercept=FIT_INTERCEPT[lift]).fit(phi, y)
    grid = make_grid(X, n=GRID_POINTS)
    f = model.decision_function(phi)
    # the notes' rule sign(x₁² + x₂² − 1), the same function in both lifts
    f_notes = X[:, 0] ** 2 + X[:, 1] ** 2 - 1.0
    w, b = model.coef_, float(model.intercept_)
    norm_w = float(np.linalg.norm(w))
    return Lift(phi=phi, w=w, b=b, xi=model.slack_, objective=float(model.primal_objective_),
                margin=1.0 / norm_w if norm_w > 0 else None, errors=int(np.count_nonzero(y * f <= 0)),
                errors_notes=int(np.count_nonzero(y * f_notes <= 0)),
                on_margin=np.flatnonzero(y * f <= 1.0 + MARGIN_TOL), xs=grid.x, ys=grid.y,
                Z=model.decision_function(fm.phi(grid.points)).reshape(grid.y.size, grid.x.size),
                curve=curve_latex(lift, w, b))


def lift_3d(y, lift, fit):
    """The lifted points with the notes' plane and the max-margin plane, in the lift's plot order and camera."""
    order = list(AXES[lift])
    Zl = fit.phi[:, order]
    w_notes, b_notes = NOTES_PLANE[lift]
    planes = [(np.asarray(w_notes)[order], b_notes, "notes' plane", NOTES_COLOR),
              (fit.w[order], fit.b, "max-margin plane", MAX_MARGIN_COLOR)]
    box = lift_box(Zl)
    lines = ()
    if lift == "circle":
        # from the origin, where the planes w·φ = 0 pass, up to the data's sheet φ₀ = 1 on top
        box = [(0.0, box[0][1]), (0.0, box[1][1]), (0.0, 1.0)]
        lines = [(sheet_line(w, b, box), name, color) for w, b, name, color in planes]
    return lift_figure(Zl, y, axis_titles=AXIS_TITLES[lift], planes=planes, margin_idx=fit.on_margin,
                       box=box, eye=CAMERA[lift], lines=lines)


def sheet_line(w, b, box, n=60):
    """Where the plane w·(u, v, s) + b = 0 (plot order: u = x₁², v = x₂², s = 1) meets the data's sheet s = 1,
    inside the box: (k, 3) points, empty where it misses the box."""
    (u0, u1), (v0, v1), _ = box
    if abs(w[1]) >= abs(w[0]):
        u = np.linspace(u0, u1, n)
        v = -(w[0] * u + w[2] + b) / w[1] if w[1] else np.full(n, np.nan)
    else:
        v = np.linspace(v0, v1, n)
        u = -(w[1] * v + w[2] + b) / w[0]
    inside = (u >= u0) & (u <= u1) & (v >= v0) & (v <= v1)
    return np.column_stack([u[inside], v[inside], np.ones(int(inside.sum()))])


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


def figures(X, y, lift, C, own):
    """The lesson's two charts by key, the lift in 3-D and the curve back in the plane: what the page draws and what
    its live route answers for a move of C (lab/live.py). ValueError where fit_lift refuses the data."""
    fit = fit_lift(X, y, lift, C)
    return {"cl_lift3d": lift_3d(y, lift, fit), "cl_back": back_figure(fit.xs, fit.ys, fit.Z, X, y, own=own)}
