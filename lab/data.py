"""The data a lesson trains on, drawn from the sidebar's settings in this session: the chosen dataset plus the
student's own points, a held-out sample for test accuracy, and the notes' 1-D house prices."""

import numpy as np
import streamlit as st

import datasets
from kernel_core.validation import check_array, check_X_y
from lab.memo import memo

# held-out points come from the same generator and settings with this seed offset
TEST_SEED_OFFSET = 10_000


THIRD_CLASS = 2


@memo(max_entries=64)
def load(name, n, noise, seed, points, only_mine, multiclass=False):
    """(X, y) of dataset `name` plus `points` (or the points alone). Binary (multiclass=False): labels in {−1, +1};
    the student's points of the third class (2) are left out, and a dataset with three classes is refused with a
    ValueError that says why. multiclass=True: every class as it is (lesson 3's one-vs-rest)."""
    if not multiclass and not only_mine and datasets.DATASET_INFO[name].task == "multiclass":
        raise ValueError(f"'{datasets.DATASET_INFO[name].label}' has three classes, and this lesson is binary "
                         "(y = −1 or +1). Pick a two-class dataset in the sidebar, or open lesson 3 with 'any kernel', "
                         "which trains one SVM per class (one-vs-rest).")
    if not multiclass:
        points = tuple(p for p in points if p[2] != THIRD_CLASS)
    if only_mine:
        if not points:
            raise ValueError("'Use only my points' is on but you have not added any points yet; "
                             "click a plot or type coordinates in the sidebar." if multiclass else
                             "'Use only my points' is on but you have no points of class −1 or +1, and this lesson "
                             "is binary; click a plot or type coordinates in the sidebar.")
        X = np.array([p[:2] for p in points], dtype=np.float64)
        y = np.array([p[2] for p in points], dtype=np.float64)
    else:
        X, y = datasets.DATASETS[name](n, noise=noise, random_state=seed)
        if points:
            X = np.vstack([X, np.array([p[:2] for p in points], dtype=np.float64)])
            y = np.concatenate([y, np.array([p[2] for p in points], dtype=np.float64)])
    if multiclass:
        X, y = check_array(X, "X"), check_array(y, "y", ndim=1)
        if np.unique(y).size < 2:
            raise ValueError(f"All the points are of class {y[0]:g}; a classifier needs two classes or more.")
        return X, y
    return check_X_y(X, y)


def train_set(settings, points, multiclass=False):
    """(X, y) the sidebar's settings (a mapping with dataset, n, noise, seed and only_mine) give with the student's
    `points`: what training_data draws from the session, and lab/live.py from a link."""
    return load(settings["dataset"], settings["n"], settings["noise"], settings["seed"], tuple(points),
                settings.get("only_mine", False), multiclass)


def test_set(settings, multiclass=False):
    """The held-out sample of test_data, from the sidebar's settings (a mapping); None when there is none."""
    if settings.get("only_mine") or not datasets.DATASET_INFO[settings["dataset"]].uses_n:
        return None
    return load(settings["dataset"], settings["n"], settings["noise"], settings["seed"] + TEST_SEED_OFFSET, (), False,
                multiclass)


def own_points():
    """The student's own points [(x1, x2, label)], as decision plots draw them."""
    return st.session_state.get("user_points", ())


def training_data(multiclass=False):
    """(X, y) from the sidebar: its dataset plus the student's points; a ValueError, the core's message, when there
    is nothing to train on. Binary (the default): the student's points of the third class are left out, and the page
    says so; multiclass=True keeps them."""
    if not multiclass:
        third_class_notice()
    return train_set(st.session_state, own_points(), multiclass)


def third_class_notice():
    """On a binary lesson: say that the student's points of the third class are left out, if there are any."""
    third = sum(p[2] == THIRD_CLASS for p in own_points())
    if third:
        st.info(f"{third} of your points {'is' if third == 1 else 'are'} of class 2 (green), a third class. This "
                "lesson is binary (y = −1 or +1), so they are left out of its training data; lesson 3 with 'any "
                "kernel' trains on all three classes (one-vs-rest).", icon=":material/filter_alt:")


def house_prices(n=None):
    """The notes' 1-D house prices (x (n, 1), y (n,)) drawn with the sidebar's seed; n and noise
    default to DATASET_INFO's."""
    return house_price_set(n, int(st.session_state["seed"]))


@memo(max_entries=16)
def house_price_set(n, seed):
    """The house prices with n points (None: DATASET_INFO's) drawn with `seed`, once per (n, seed) rather than on every
    rerun: the same read-only arrays come back."""
    return datasets.make_dataset("house_prices", n, random_state=seed)
