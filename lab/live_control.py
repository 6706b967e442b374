"""A live section's slider or toggle (lab/section.py `live`), drawn by the chart element's script (lab/live_chart_web),
which owns its value between two runs.

A move of it is drawn before Streamlit hears of it: the element asks the section's route (lab/live.py) for the
figures at the new value, draws them into the section's charts in place, and only then hands the value to the server
as its trigger "value" (the position's index), whose callback writes it into the session's state (the control's
schema key, as every other control keeps its value) and whose rerun brings the same figures, which draw nothing, then
the numbers. So nothing of Streamlit's is held or patched: the element's own message is sent when it is ready. Served
without the routes, the element hands each move over at once and the rerun draws it.

Message: one line of JSON options (no figure): {"mode": "control", "kind": "slider" or "toggle", "key", "label",
"help", "disabled", "value": the position shown, "text": the value shown, "route": the section's route, "accent": the
primary colour of the light and of the dark theme}, and the positions (Positions.options): the "texts" (shown) and
"link" (the link's text, what the route reads) of a choice's or a toggle's, or a numeric range's "lo", "step",
"count" and "digits".
"""

import functools
import json

import streamlit as st
from streamlit import config

from lab.live_chart import component
from lab.state import FIELDS, encode

# Streamlit's own default primary colour, where the app's theme sets none
ACCENT = "#ff4b4b"
TOGGLE = (False, True)


class Positions:
    """The values a control of `field` offers, by position 0, 1, ...: a choice's choices, a toggle's off and on, else
    lo, lo + step, ..., hi (step: of a numeric field)."""

    def __init__(self, field, step):
        self.field, self.step = field, step
        self.choices = TOGGLE if field.kind == "bool" else field.choices
        self.count = len(self.choices) if self.choices else int(round((field.hi - field.lo) / step)) + 1

    def value(self, raw):
        """The value at the browser's position `raw`, or None when it is no position (the browser is not trusted)."""
        if type(raw) is not int or not 0 <= raw < self.count:
            return None
        if self.choices:
            return self.choices[raw]
        value = self.field.lo + raw * self.step
        return int(round(value)) if self.field.kind == "int" else round(value, 12) + 0.0

    def at(self, value):
        """The position nearest to `value` (a link may set a number off the grid: it is shown as it is until moved)."""
        if self.choices:
            return self.choices.index(value)
        return min(self.count - 1, max(0, int(round((value - self.field.lo) / self.step))))

    def options(self, fmt):
        """What the element needs to show and link each position: the texts of a choice's positions (shown, and
        the link's), or a numeric range (lo, step, count, digits: the decimals a value is written with)."""
        field = self.field
        if self.choices:
            return {"texts": [fmt(v) for v in self.choices], "link": [encode(field, v) for v in self.choices]}
        digits = len(f"{self.step:g}".partition(".")[2])
        return {"lo": field.lo, "step": self.step, "count": self.count, "digits": digits}


def _moved(key, positions):
    value = positions.value(st.session_state[ckey(key)].get("value"))
    if value is not None:
        st.session_state[key] = value


def ckey(key):
    """The element's own key for the control `key` (its state is the element's; the value stays under `key`)."""
    return f"live_{key}"


def control(label, key, *, route, fmt=str, step=None, help=None, disabled=False):
    """Draw the control of schema key `key` (its value already in st.session_state[key]) for the section whose route
    path is `route`: a toggle for a bool field, else a slider; fmt: the text shown for a choice; step: of a numeric
    field (default 1). Returns the value."""
    field = FIELDS[key]
    current = st.session_state[key]
    positions = Positions(field, step or 1)
    options = {"mode": "control", "kind": "toggle" if field.kind == "bool" else "slider", "key": key, "label": label,
               "help": help, "disabled": disabled, **positions.options(fmt), "value": positions.at(current),
               "text": fmt(current) if positions.choices else encode(field, current), "route": route,
               "accent": {theme: config.get_option(f"theme.{theme}.primaryColor")
                          or config.get_option("theme.primaryColor") or ACCENT for theme in ("light", "dark")}}
    component(key=ckey(key), data=(json.dumps(options, separators=(",", ":")) + "\n").encode(),
              on_value_change=functools.partial(_moved, key, positions))
    return st.session_state[key]
