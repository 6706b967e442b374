"""Lesson 2: the circle data lifted to 3-D, where a plane separates what no line in the plane can."""

import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lab import data, page, widgets
from lessons.circle import reproduce
from lessons.circle.compute import NOTES_PLANE, PRIMAL_SOURCE, fit_lift
from lessons.circle.presets import PRESETS
from lessons.circle.sections import LIFT

LIFT_LABELS = {"circle": "φ(x) = (1, x₁², x₂²)  (Lecture 8)", "paraboloid": "φ(x) = (x₁, x₂, x₁² + x₂²)"}
INTERCEPT_TEXT = {
    "circle": "For φ = (1, x₁², x₂²) it runs without a separate intercept (fit_intercept=False): the constant "
              "coordinate 1 already gives the plane its offset b = w₀, so the plane passes through the origin, as "
              "the notes' plane does (w₀ is then part of ‖w‖ too).",
    "paraboloid": "φ = (x₁, x₂, x₁² + x₂²) has no constant coordinate, so the plane gets its own intercept b "
                  "(fit_intercept=True).",
}


DATA_LABELS = {"notes": "the notes' rule sign(x₁² + x₂² − 1)", "sidebar": "the sidebar's dataset"}


def controls():
    widgets.segmented("Data", "cl_data", format_func=DATA_LABELS.get,
                      help="The notes' rule is drawn with the sidebar's n, noise and seed.")
    left, right = st.columns([2, 3], vertical_alignment="bottom")
    with left:
        widgets.segmented("Feature map φ (the lift)", "cl_lift", format_func=LIFT_LABELS.get)
    with right:
        widgets.c_control("cl")


page.header(
    "The circle, lifted to 3-D",
    "No straight line separates points inside the unit circle from points outside it. Map each point "
    "to three numbers, though, and the two classes land on opposite sides of a **plane**: a linear classifier "
    "in the lifted space is a circle back in the plane. The page opens on the notes' own example; switch the data to "
    "the sidebar's to lift any other dataset.",
    r"y = \operatorname{sign}(x_1^2 + x_2^2 - 1), \qquad \phi(x) = (1,\ x_1^2,\ x_2^2), \qquad "
    r"w = (-1,\ 1,\ 1):\ w\cdot\phi(x) = x_1^2 + x_2^2 - 1")
page.presets_row(PRESETS)


@page.fragment
def lesson():
    controls()
    data.third_class_notice()
    setup, train, _ = page.run(LIFT)
    X, y, lift, C = train[0], train[1], setup.lift, setup.C
    try:
        fit = fit_lift(X, y, lift, C)
    except ValueError as exc:
        page.stop(exc)

    st.caption("The max-margin plane solves min ½‖w‖² + CΣξᵢ in the lifted coordinates (PrimalSVM). "
               + INTERCEPT_TEXT[lift])
    charts = LIFT.figures(setup, train, None)
    left, right = st.columns(2)
    with left:
        page.chart(charts["cl_lift3d"], key="cl_lift3d")
    with right:
        page.boundary_chart(charts["cl_back"], key="cl_back", section=LIFT)

    if lift == "circle":
        st.caption("Every lifted point has φ₀ = 1, so the data is a flat sheet at height 1; each plane w·φ = 0 "
                   "passes through the origin and cuts the sheet along a line (drawn bold on the sheet): the classes "
                   "fall on its two sides.")
    page.metrics({
        "training errors, notes' plane": f"{fit.errors_notes} / {y.size}",
        "training errors, max-margin plane": f"{fit.errors} / {y.size}",
        "margin 1/‖w‖ (lifted space)": f"{fit.margin:.4f}" if fit.margin is not None else "none: w = 0",
        "Σξᵢ (total slack)": f"{fit.xi.sum():.4f}",
    })
    st.latex(r"\text{max-margin curve: } " + fit.curve)

    w_notes, b_notes = NOTES_PLANE[lift]
    page.code("cl_numbers", "The numbers and the code", PRIMAL_SOURCE, text=(
        f"Coordinates of φ: ({', '.join(FEATURE_MAPS[lift].feature_labels)})  \n"
        f"notes' plane: w = {w_notes}, b = {b_notes:g}  \n"
        f"max-margin plane: w = ({', '.join(f'{v:.6f}' for v in fit.w)}), b = {fit.b:.6f}  \n"
        f"primal objective ½‖w‖² + CΣξᵢ = {fit.objective:.6f}  \n"
        f"points on or inside the margin: {fit.on_margin.size}"))
    page.reproduce("cl_reproduce", "the lift", reproduce.circle_lift, X, y, lift, C)


lesson()
