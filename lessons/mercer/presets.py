"""Lesson 5's worked examples from the notes, one click each (lab/presets.py)."""

from lab.presets import LFD, Preset

PRESETS = (
    Preset("mercer_lfd", "(½ + x·x′)² − ¼", f"{LFD}, slide 15", "mercer",
           (("mc_formula", "(0.5 + dot(x, z))**2 - 0.25"),),
           "The kernel of Φ(x) = (x₁, x₂, x₁², √2x₁x₂, x₂²): a Gram matrix with no negative eigenvalue and at most "
           "5 positive ones.", tab="Your formula"),
)
