"""Lesson 2's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import LECTURE_8, PARK, CIRCLE_DATA, Preset

PRESETS = (
    Preset("circle", "circle rule, w = (−1, 1, 1)", f"{LECTURE_8}, §1", "circle",
           CIRCLE_DATA + (("cl_data", "notes"), ("cl_lift", "circle"), ("cl_hard", False), ("cl_C", 100.0)),
           "φ(x) = (1, x₁², x₂²): the plane w = (−1, 1, 1) makes no training error."),
    Preset("paraboloid", "lift (x₁, x₂, x₁² + x₂²)", f"{PARK}, Feature Transformation", "circle",
           CIRCLE_DATA + (("cl_data", "notes"), ("cl_lift", "paraboloid"), ("cl_hard", False), ("cl_C", 100.0)),
           "The circle rule lifted onto a paraboloid: the plane x₁² + x₂² = 1 separates it."),
)
