"""Lesson 2's live section (lab/section.py): the lift in 3-D and the curve it maps back to, at the student's C."""

import math
from dataclasses import dataclass

from lab import data
from lab.section import POINTS, SIDEBAR_KEYS, Section
from lessons.circle.compute import figures


@dataclass(frozen=True)
class Setup:
    """source: "notes" (the circle rule, drawn with the sidebar's n, noise and seed) or "sidebar" (its dataset);
    lift: the feature map; C: the slack penalty, ∞ for the hard margin."""

    source: str
    lift: str
    C: float


def setup(values):
    return Setup(values["cl_data"], values["cl_lift"], math.inf if values["cl_hard"] else float(values["cl_C"]))


def training_data(s, values):
    """(X, y, the student's points): the sidebar's data, or the notes' rule drawn with its settings."""
    sidebar = {**values, "dataset": "circle_rule"} if s.source == "notes" else values
    return (*data.train_set(sidebar, values[POINTS]), values[POINTS])


LIFT = Section("circle", SIDEBAR_KEYS + ("cl_data", "cl_lift", "cl_hard", "cl_C"), setup=setup, data=training_data,
               figures=lambda s, d, charts: figures(d[0], d[1], s.lift, s.C, d[2]), live=("cl_hard", "cl_C"))
SECTIONS = (LIFT,)
