"""A lesson's live section, declared once and run two ways: by its page with the session's values, and by its route
(lab/live.py) with a link's values. Both make the figures from the same declaration, so a move drawn from the
route before its rerun is the figure the rerun brings, and the two can never disagree.

values: schema key → value for each of the section's `keys` (the sidebar's among them where it trains on the
sidebar's data), plus POINTS → the student's own points [(x1, x2, label)]. No Streamlit here: the route runs it in a
thread of the server, outside any session.
"""

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from lab import data
from lab.state import FIELDS, decode

# the sidebar's data settings: what lab/data.train_set reads
SIDEBAR_KEYS = ("dataset", "n", "noise", "seed", "only_mine")
# values' key for the student's own points (in a link: ?pts=, lab/points.py)
POINTS = "pts"
# schema key → the section whose route answers that slider's moves (lab/live_control.py): filled as sections are made
LIVE = {}


def _drawn(setup, data):
    return None


@dataclass(frozen=True)
class Section:
    """name: its route, the page's slug or "<slug>.<part>" where a page has several; keys: the schema keys it
    reads; setup(values): a frozen setup, the one place a control's value becomes a solver's argument;
    data(setup, values): what it computes from, a ValueError (the core's message) where that is refused;
    status(setup, data): None where its figures are drawn, else why not (a solver that stopped short, another
    branch of the page); figures(setup, data, charts): chart key → figure, only `charts` where it is a set (the charts
    on the student's screen) and all where it is None; live: its sliders and toggles whose moves the route answers
    (drawn by lab/live_control.py wherever a page draws them with lab/widgets.py's slider, log_slider or toggle)."""

    name: str
    keys: tuple
    setup: Callable
    data: Callable
    figures: Callable
    status: Callable = _drawn
    live: tuple = ()

    def __post_init__(self):
        for key in self.live:   # (a section made again, as when its module is reloaded, takes its keys back)
            if LIVE.setdefault(key, self).name != self.name:
                raise ValueError(f"{key} is a live slider of two sections, {LIVE[key].name} and {self.name}")
            LIVE[key] = self

    def run(self, values):
        """(setup, data, status) at `values`; ValueError where the data is refused."""
        setup = self.setup(values)
        data = self.data(setup, values)
        return setup, data, self.status(setup, data)

    def link_values(self, params, points):
        """The values a link with query `params` (key → text) stands for, each field's default where it leaves one
        out, as a page reads a shared link; ValueError, saying why, for a value no field can hold."""
        values = {key: FIELDS[key].default if params.get(key) is None else decode(FIELDS[key], params[key])
                  for key in self.keys}
        return {**values, POINTS: tuple(points)}


class Training(NamedTuple):
    """What a section on the sidebar's data trains on: X, y, the held-out sample (X_test, y_test) or None, and the
    student's own points (its decision plots draw them)."""

    X: np.ndarray
    y: np.ndarray
    test: tuple | None
    own: tuple


def training(values, *, multiclass=False):
    """The sidebar's data at `values` with the student's points, as lab/data.train_set reads them; multiclass: every
    class kept (lesson 3's one-vs-rest), and then the held-out sample has them too."""
    X, y = data.train_set(values, values[POINTS], multiclass)
    binary = np.array_equal(np.unique(y), (-1.0, 1.0))
    return Training(X, y, data.test_set(values, multiclass=not binary), values[POINTS])


def no_data(setup, values):
    """`data` of a section that computes from its controls alone."""
    return None
