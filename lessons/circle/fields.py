"""Lesson 2's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from lab.state import C_VALUES, choice, flag

PAGE = "circle"

def _fields():
    page = PAGE
    yield choice("cl_data", page, ("notes", "sidebar"), "notes")
    yield choice("cl_lift", page, ("circle", "paraboloid"), "circle",
                 {"φ(x) = (1, x₁², x₂²)  (Lecture 8)": "circle", "φ(x) = (x₁, x₂, x₁² + x₂²)": "paraboloid"})
    yield flag("cl_hard", page)
    yield choice("cl_C", page, C_VALUES, 100.0)


FIELDS = tuple(_fields())
