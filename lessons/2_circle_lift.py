"""Lesson 2: the circle data lifted to 3-D, where a plane separates what no line in the plane can."""

import numpy as np
import streamlit as st

from figures.lift import NOTES_COLOR, lift_box
from kernel_core.feature_maps import FEATURE_MAPS
from lessons import common
from lessons.compute_circle import PRIMAL_SOURCE, back_figure, fit_lift, lift_figure

LIFTS = ("circle", "paraboloid")
LIFT_LABELS = {"circle": "φ(x) = (1, x₁², x₂²)  (Lecture 8)", "paraboloid": "φ(x) = (x₁, x₂, x₁² + x₂²)"}
# the notes' plane in each lift's coordinates; both are the circle x₁² + x₂² − 1 = 0
NOTES_PLANE = {"circle": ((-1.0, 1.0, 1.0), 0.0), "paraboloid": ((0.0, 0.0, 1.0), -1.0)}
# plot order of φ's coordinates: the circle lift's constant goes up, so the data is a flat sheet at height 1
AXES = {"circle": (1, 2, 0), "paraboloid": (0, 1, 2)}
AXIS_TITLES = {"circle": ("x₁²", "x₂²", "1 (constant)"), "paraboloid": ("x₁", "x₂", "x₁² + x₂²")}
# the circle lift is seen from above the origin corner, so its planes show as full triangles
CAMERA = {"circle": (-1.25, -1.25, 1.45), "paraboloid": (1.5, -1.6, 0.9)}
C_DEFAULT = 100.0
MAX_MARGIN_COLOR = "#444444"


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


@st.fragment
def lesson():
    """Controls, figures and numbers: a slider move reruns only this, not the sidebar."""
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
        common.chart(lift_fig(y, lift, result), key="cl_lift3d")
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
        st.code(PRIMAL_SOURCE, language="python")


lesson()
