"""The fixture lesson's controls in the URL schema."""

from lab.state import GAMMA_VALUES, choice

FIELDS = (choice("fx_gamma", "fixture", GAMMA_VALUES, 1.0),)
