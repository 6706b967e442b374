"""The fixture lesson's worked example."""

from lab.presets import Preset

PRESETS = (Preset("fixture_ten", "γ = 10", "the tests", "fixture", (("fx_gamma", 10.0),), "the line y = 20x"),)
