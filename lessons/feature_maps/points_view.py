"""Lesson 1's two points x and z for the kernel check: typed in, or picked by index from the current data."""

import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lab import data, page, widgets

POINT_SOURCES = {"typed": "type x and z", "data": "two of the current data points"}
# typed: x's coordinates, then z's, by the map's input dimension; data: the indices of x and z
POINT_INPUTS = {1: (("x", "fm_x1"), ("z", "fm_z1")),
                2: (("x₁", "fm_x1"), ("x₂", "fm_x2"), ("z₁", "fm_z1"), ("z₂", "fm_z2"))}
INDEX_INPUTS = (("i (x = point number i)", "fm_i"), ("j (z = point number j)", "fm_j"))

# each section's fixed prose, written outside its fragment (page.section)


def point_inputs(name, source):
    """x and z typed in, or picked by index from the current data (1-D maps: the house prices)."""
    dim = FEATURE_MAPS[name].input_dim
    typed = source == "typed"
    inputs = POINT_INPUTS[dim] if typed else INDEX_INPUTS
    values = []
    for column, (label, key) in zip(st.columns(len(inputs)), inputs):
        with column:
            values.append(widgets.number_input(label, key, step=0.1 if typed else 1))
    if typed:
        return tuple(values[:dim]), tuple(values[dim:])
    # the points alone (labels unused): every class, the third included
    try:
        X = data.training_data(multiclass=True)[0] if dim == 2 else data.house_prices()[0]
    except ValueError as exc:
        page.stop(exc)
    i, j = (k % len(X) for k in values)
    st.caption(f"{len(X)} points ({'sidebar data' if dim == 2 else 'house prices'}); "
               f"indices wrap around. x = point {i}, z = point {j}.")
    return tuple(map(float, X[i])), tuple(map(float, X[j]))
