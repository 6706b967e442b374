"""Lesson 2: the circle data lifted to 3-D, where a plane separates what no line in the plane can."""

import inspect

import numpy as np
import streamlit as st

from figures.lift import NOTES_COLOR, back_figure, lift_box, lift_figure
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.grid import make_grid
from kernel_core.svm import PrimalSVM
from lessons import common

# each figure is built once per distinct input (see common.cached_figure): the 3-D one keeps its bytes,
# so its camera stays where the student turned it
lift_figure, back_figure = map(common.cached_figure, (lift_figure, back_figure))

LIFTS = ("circle", "paraboloid")
LIFT_LABELS = {"circle": "φ(x) = (1, x₁², x₂²)  (Lecture 8)", "paraboloid": "φ(x) = (x₁, x₂, x₁² + x₂²)"}
# φ's constant 1 already is the offset (b = w₀), so the circle lift needs no separate intercept
FIT_INTERCEPT = {"circle": False, "paraboloid": True}
# the notes' plane in each lift's coordinates; both are the circle x₁² + x₂² − 1 = 0
NOTES_PLANE = {"circle": ((-1.0, 1.0, 1.0), 0.0), "paraboloid": ((0.0, 0.0, 1.0), -1.0)}
# plot order of φ's coordinates: the circle lift's constant goes up, so the data is a flat sheet at height 1
AXES = {"circle": (1, 2, 0), "paraboloid": (0, 1, 2)}
AXIS_TITLES = {"circle": ("x₁²", "x₂²", "1 (constant)"), "paraboloid": ("x₁", "x₂", "x₁² + x₂²")}
# the circle lift is seen from above the origin corner, so its planes show as full triangles
CAMERA = {"circle": (-1.25, -1.25, 1.45), "paraboloid": (1.5, -1.6, 0.9)}
C_DEFAULT = 100.0
MAX_MARGIN_COLOR = "#444444"
# a point with y f(x) below 1 + this is drawn as on (or inside) the margin
MARGIN_TOL = 1e-6


def controls():
    c1, c2, c3 = st.columns([2, 1, 2], vertical_alignment="bottom")
    lift = c1.segmented_control("Feature map φ (the lift)", LIFTS, format_func=LIFT_LABELS.get, default="circle",
                                key="cl_lift", bind="query-params", required=True)
    hard = c2.toggle("hard margin (C = ∞)", key="cl_hard", bind="query-params",
                     help="Demand y·f(x) ≥ 1 for every point; fails when no plane separates the lifted data.")
    with c3:
        C = np.inf if hard else common.log_slider("C (box constraint; slack penalty)", "cl_C", common.C_VALUES,
                                                  C_DEFAULT)
    return lift, float(C)


@st.cache_data(max_entries=32, show_spinner=False)
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


def lift_fig(y, lift, result):
    order = list(AXES[lift])
    Zl = result["phi"][:, order]
    w_notes, b_notes = NOTES_PLANE[lift]
    planes = [(np.asarray(w_notes)[order], b_notes, "notes' plane", NOTES_COLOR),
              (result["w"][order], result["b"], "max-margin plane", MAX_MARGIN_COLOR)]
    box = lift_box(Zl)
    if lift == "circle":
        # from the origin, where the planes w·φ = 0 pass, up to the data's sheet φ₀ = 1 on top
        box = [(0.0, box[0][1]), (0.0, box[1][1]), (0.0, 1.0)]
    return lift_figure(Zl, y, axis_titles=AXIS_TITLES[lift], planes=planes, margin_idx=result["on_margin"],
                       box=box, eye=CAMERA[lift])


st.title("The circle, lifted to 3-D")
st.markdown(
    "No straight line separates points inside the unit circle from points outside it. Map each point "
    "to three numbers, though, and the two classes land on opposite sides of a **plane**: a linear classifier "
    "in the lifted space is a circle back in the plane. Try the sidebar's *Circle rule* dataset, the notes' "
    "exact example."
)
st.latex(r"y = \operatorname{sign}(x_1^2 + x_2^2 - 1), \qquad \phi(x) = (1,\ x_1^2,\ x_2^2), \qquad "
         r"w = (-1,\ 1,\ 1):\ w\cdot\phi(x) = x_1^2 + x_2^2 - 1")

lift, C = controls()
X, y = common.training_data()
try:
    result = fit_lift(X, y, lift, C)
except ValueError as exc:
    common.show_error(exc)

st.caption(
    "The max-margin plane solves min ½‖w‖² + CΣξᵢ in the lifted coordinates (PrimalSVM). "
    + ("For φ = (1, x₁², x₂²) it runs without a separate intercept (fit_intercept=False): the constant "
       "coordinate 1 already gives the plane its offset b = w₀, so the plane passes through the origin, as the "
       "notes' plane does (w₀ is then part of ‖w‖ too)."
       if lift == "circle" else
       "φ = (x₁, x₂, x₁² + x₂²) has no constant coordinate, so the plane gets its own intercept b "
       "(fit_intercept=True).")
)
left, right = st.columns(2)
with left:
    st.plotly_chart(lift_fig(y, lift, result), key="cl_lift3d", config={"displaylogo": False})
with right:
    common.boundary_chart(back_figure(result["xs"], result["ys"], result["Z"], X, y), key="cl_back")

m1, m2, m3, m4 = st.columns(4)
m1.metric("training errors, notes' plane", f"{result['errors_notes']} / {y.size}")
m2.metric("training errors, max-margin plane", f"{result['errors']} / {y.size}")
m3.metric("margin 1/‖w‖ (lifted space)", f"{result['margin']:.4f}")
m4.metric("Σξᵢ (total slack)", f"{result['slack'].sum():.4f}")
st.latex(r"\text{max-margin curve: } " + result["curve"])

with st.expander("The numbers and the code"):
    labels = FEATURE_MAPS[lift].feature_labels
    st.markdown(
        f"Coordinates of φ: ({', '.join(labels)})  \n"
        f"notes' plane: w = {NOTES_PLANE[lift][0]}, b = {NOTES_PLANE[lift][1]:g}  \n"
        f"max-margin plane: w = ({', '.join(f'{v:.6f}' for v in result['w'])}), b = {result['b']:.6f}  \n"
        f"primal objective ½‖w‖² + CΣξᵢ = {result['objective']:.6f}  \n"
        f"points on or inside the margin: {result['on_margin'].size}"
    )
    st.code(inspect.getsource(PrimalSVM.fit), language="python")
