"""Lesson 1's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from lab.state import GAMMA_VALUES, MAP_LEGACY, MAX_USER_POINTS, N_MAX, choice, descent_fields, number

PAGE = "feature-maps"
# the largest polynomial degree p of the cost table and the most Taylor terms m
P_MAX = 12
M_MAX = 40

def _fields():
    page = PAGE
    yield choice("fm_map", page, ("circle", "paraboloid", "poly2_homogeneous", "poly2_full", "cubic_1d"),
                 "poly2_homogeneous",
                 MAP_LEGACY)
    yield choice("fm_source", page, ("typed", "data"), "typed",
                 {"type x and z": "typed", "two of the current data points": "data"})
    yield number("fm_i", page, 0, N_MAX + MAX_USER_POINTS, 0, "int")
    yield number("fm_j", page, 0, N_MAX + MAX_USER_POINTS, 1, "int")
    for key, default in (("fm_x1", 0.7), ("fm_x2", -1.3), ("fm_z1", 1.1), ("fm_z2", 0.4)):
        yield number(key, page, -10.0, 10.0, default)
    yield number("fm_d", page, 1, 50, 2, "int")
    yield number("fm_p", page, 1, P_MAX, 3, "int")
    yield number("fm_m", page, 1, M_MAX, 4, "int")
    yield choice("fm_gamma", page, GAMMA_VALUES, 1.0)
    yield number("fm_z", page, -2.0, 2.0, 1.0)
    yield from descent_fields("fm", page, T_max=2000, T_default=100)


FIELDS = tuple(_fields())
