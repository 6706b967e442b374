"""Lesson 6's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from lab.state import LAM_VALUES, choice, descent_fields, kernel_fields, number

PAGE = "regression"

def _fields():
    page = PAGE
    yield number("rg_n", page, 4, 60, 15, "int")
    yield from kernel_fields("rg", page, gamma=10.0)
    yield choice("rg_lam", page, LAM_VALUES, 0.1)
    yield from descent_fields("rg", page, T_max=5000, T_default=200)
    yield from kernel_fields("rgl", page)
    yield choice("rgl_lam", page, LAM_VALUES, 0.01)
    yield number("rgl_T", page, 1, 3000, 300, "int")


FIELDS = tuple(_fields())
