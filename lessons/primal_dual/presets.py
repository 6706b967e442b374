"""Lesson 3's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import LFD, Preset

PRESETS = (
    Preset("lfd_toy", "4-point QP example", f"{LFD}, slide 9", "primal-dual",
           (("dataset", "lfd_toy"), ("only_mine", False), ("pd_space", "linear"), ("pd_offset", True),
            ("pd_hard", True)),
           "Hard margin with offset, φ(x) = x: α* = (½, ½, 1, 0), w = (1, −1), b = −1, margin 1/√2."),
)
