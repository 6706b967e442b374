"""Lesson 5's live section (lab/section.py): the Gram tab's heatmap, spectrum and certificate."""

from kernel_core.kernels import KernelSpec
from lab import data
from lab.section import POINTS, SIDEBAR_KEYS, Section
from lessons.mercer.compute import analyze_kernel, gram_figures, gram_points


def gram_data(kernel, values):
    """(the points checked: at most MAX_POINTS of the data, class −1 first; their labels; how many the data has)."""
    X, y = data.train_set(values, values[POINTS])
    return (*gram_points(X, y), X.shape[0])


GRAM = Section("mercer", SIDEBAR_KEYS + ("mc_kernel", "mc_gamma", "mc_degree", "mc_coef0"),
               setup=lambda v: KernelSpec(v["mc_kernel"], v["mc_gamma"], v["mc_degree"], v["mc_coef0"]),
               data=gram_data, figures=lambda kernel, d, charts: gram_figures(d[0], d[1], analyze_kernel(d[0], kernel)),
               live=("mc_gamma", "mc_degree", "mc_coef0"))
SECTIONS = (GRAM,)
