"""Lesson 3's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from lab.state import C_VALUES, KERNEL_NAMES, MAP_LEGACY, choice, flag, kernel_fields

PAGE = "primal-dual"

def _fields():
    page = PAGE
    yield choice("pd_space", page, ("linear", "explicit", "kernel"), "explicit",
                 {"φ(x) = x": "linear", "explicit φ(x)": "explicit", "any kernel (dual only)": "kernel"})
    yield flag("pd_offset", page, True)
    yield flag("pd_hard", page)
    yield choice("pd_C", page, C_VALUES, 1.0)
    yield choice("pd_phi", page, ("poly2_full", "poly2_homogeneous", "paraboloid", "circle"), "poly2_full",
                 MAP_LEGACY)
    yield from kernel_fields("pd", page, kernels=KERNEL_NAMES[1:])
    yield flag("pd_sklearn", page)
    yield flag("pd_cv", page)


FIELDS = tuple(_fields())
