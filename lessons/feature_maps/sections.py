"""Lesson 1's live sections (lab/section.py): the cost of the explicit map against the kernel, and the Gaussian's
truncated Taylor map."""

from lab.section import Section, no_data
from lessons.feature_maps.compute import cost_figures, taylor_figures

COST = Section("feature-maps.cost", ("fm_d", "fm_p"), setup=lambda v: (v["fm_d"], v["fm_p"]), data=no_data,
               figures=lambda setup, data, charts: cost_figures(*setup), live=("fm_d", "fm_p"))
TAYLOR = Section("feature-maps.taylor", ("fm_m", "fm_gamma", "fm_z"),
                 setup=lambda v: (v["fm_gamma"], v["fm_z"], v["fm_m"]), data=no_data,
                 figures=lambda setup, data, charts: taylor_figures(*setup), live=("fm_m", "fm_gamma", "fm_z"))
SECTIONS = (COST, TAYLOR)
