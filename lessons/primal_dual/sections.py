"""Lesson 3's live section (lab/section.py): the dual's decision plot and its α's, or one-vs-rest's plot where the
kernel mode has more than two classes, and the validation heatmap and curves with the current (C, γ) marked where
they are shown and their grid is already computed (the route never computes a grid: the background process does,
lessons/primal_dual/validation.py)."""

import math
from typing import NamedTuple

import numpy as np

from kernel_core.kernels import KernelSpec
from lab.section import SIDEBAR_KEYS, Section, training
from lessons.primal_dual.compute import Setup, figures, solve
from lessons.primal_dual.one_vs_rest import ovr_figures
from lessons.primal_dual.validation import remembered_grid, validation_figures

CONTROLS = ("pd_space", "pd_phi", "pd_offset", "pd_hard", "pd_C", "pd_kernel", "pd_gamma", "pd_degree", "pd_coef0",
            "pd_cv")
LIVE = ("pd_offset", "pd_hard", "pd_C", "pd_gamma", "pd_degree", "pd_coef0")
CV_KEYS = ("pd_cv_heatmap", "pd_cv_curves")


class Setting(NamedTuple):
    """The section's setup: the solvers' Setup, and the folds' seed where the validation heatmap is shown (its
    toggle on, kernel mode), else None."""
    solve: Setup
    cv_seed: int | None


def setup(values):
    space = values["pd_space"]
    kernel = KernelSpec(values["pd_kernel"], values["pd_gamma"], values["pd_degree"], values["pd_coef0"])
    return Setting(Setup(space, values["pd_phi"] if space == "explicit" else None,
                         kernel if space == "kernel" else KernelSpec("linear"), values["pd_offset"],
                         math.inf if values["pd_hard"] else float(values["pd_C"])),
                   int(values["seed"]) if space == "kernel" and values["pd_cv"] else None)


def one_vs_rest(s, d):
    """The kernel mode on labels other than ±1 (a third class): one binary SVM per class."""
    return s.space == "kernel" and not np.array_equal(np.unique(d.y), (-1.0, 1.0))


def status(setting, d):
    s = setting.solve
    if one_vs_rest(s, d):
        return None
    r = solve(d.X, d.y, d.test, s)
    if not r.dual.converged or (r.primal and not r.primal.converged):
        return "a solver stopped short of its tolerance"
    return None


def made(setting, d, charts):
    s = setting.solve
    if one_vs_rest(s, d):
        return ovr_figures(d.X, d.y, d.test, s, d.own)
    drawn = figures(d.X, d.y, d.test, s, d.own)
    if setting.cv_seed is not None and (charts is None or set(CV_KEYS) & charts) \
            and remembered_grid(d.X, d.y, s.kernel, s.offset, setting.cv_seed) is not None:
        drawn.update(zip(CV_KEYS, validation_figures(d.X, d.y, s.kernel, s.offset, setting.cv_seed, s.C)))
    return drawn


DUAL = Section("primal-dual", SIDEBAR_KEYS + CONTROLS, setup=setup,
               data=lambda setting, values: training(values, multiclass=setting.solve.space == "kernel"),
               figures=made, status=status, live=LIVE)
SECTIONS = (DUAL,)
