"""Lesson 4's controls in the URL schema (lab/state.py): each key, its type, default and allowed values."""

from lab.state import LAM_VALUES, choice, kernel_fields, number

PAGE = "pegasos"
# the most SGD steps a move may ask for: every move stays quick for a whole class
T_MAX = 20_000

def _fields():
    page = PAGE
    yield from kernel_fields("pg", page)
    yield choice("pg_lam", page, LAM_VALUES, 0.01)
    yield number("pg_seed", page, 0, 9999, 0, "int")
    yield number("pg_T", page, 100, T_MAX, 2_000, "int")
    yield number("pg_epochs", page, 1, 200, 50, "int")
    yield choice("pg_iterate", page, ("avg", "last"), "avg",
                 {"average α̂_t (the output)": "avg", "last iterate α^t": "last"})
    yield number("pg_replay", page, 1, 100, 100, "int")


FIELDS = tuple(_fields())
