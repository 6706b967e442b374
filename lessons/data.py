"""The data a lesson trains on, drawn from the sidebar's settings in this session: the chosen dataset plus the
student's own points, a held-out sample for test accuracy, and the notes' 1-D house prices."""

import numpy as np
import streamlit as st

import datasets
from kernel_core.validation import check_X_y
from lessons.memo import memo
from lessons.page import show_error

# held-out points come from the same generator and settings with this seed offset
TEST_SEED_OFFSET = 10_000


@memo(max_entries=64)
def load(name, n, noise, seed, points, only_mine):
    """(X, y) of dataset `name` plus `points` (or the points alone), labels in {−1, +1}."""
    if only_mine:
        if not points:
            raise ValueError("'Use only my points' is on but you have not added any points yet; "
                             "click a plot or type coordinates in the sidebar.")
        X = np.array([p[:2] for p in points], dtype=np.float64)
        y = np.array([p[2] for p in points], dtype=np.float64)
    else:
        X, y = datasets.DATASETS[name](n, noise=noise, random_state=seed)
        if points:
            X = np.vstack([X, np.array([p[:2] for p in points], dtype=np.float64)])
            y = np.concatenate([y, np.array([p[2] for p in points], dtype=np.float64)])
    return check_X_y(X, y)


def own_points():
    """The student's own points [(x1, x2, label)], as decision plots draw them."""
    return st.session_state.get("user_points", ())


def training_data(dataset=None):
    """(X, y) from the sidebar: its dataset (or `dataset`, drawn with the sidebar's n, noise and seed) plus the
    student's points; stops the page with the message when there is nothing to train on."""
    s = st.session_state
    try:
        return load(dataset or s["dataset"], s["n"], s["noise"], s["seed"], own_points(),
                    s.get("only_mine", False))
    except ValueError as exc:
        show_error(exc)


def test_data():
    """A fresh sample from the sidebar's generator (same n and noise, another seed) to measure test
    accuracy; None when there is nothing to draw from (a fixed example, or only the student's points)."""
    s = st.session_state
    if s.get("only_mine") or not datasets.DATASET_INFO[s["dataset"]].uses_n:
        return None
    return load(s["dataset"], s["n"], s["noise"], s["seed"] + TEST_SEED_OFFSET, (), False)


def house_prices(n=None):
    """The notes' 1-D house prices (x (n, 1), y (n,)) drawn with the sidebar's seed; n and noise
    default to DATASET_INFO's."""
    return datasets.make_dataset("house_prices", n, random_state=int(st.session_state["seed"]))
