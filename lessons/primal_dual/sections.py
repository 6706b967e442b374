"""Lesson 3's live section (lab/section.py): the dual's decision plot and its α's, or one-vs-rest's plot where the
kernel mode has more than two classes."""

import math

import numpy as np

from kernel_core.kernels import KernelSpec
from lab.section import SIDEBAR_KEYS, Section, training
from lessons.primal_dual.compute import Setup, figures, solve
from lessons.primal_dual.one_vs_rest import ovr_figures

CONTROLS = ("pd_space", "pd_phi", "pd_offset", "pd_hard", "pd_C", "pd_kernel", "pd_gamma", "pd_degree", "pd_coef0")
LIVE = ("pd_offset", "pd_hard", "pd_C", "pd_gamma", "pd_degree", "pd_coef0")


def setup(values):
    space = values["pd_space"]
    kernel = KernelSpec(values["pd_kernel"], values["pd_gamma"], values["pd_degree"], values["pd_coef0"])
    return Setup(space, values["pd_phi"] if space == "explicit" else None,
                 kernel if space == "kernel" else KernelSpec("linear"), values["pd_offset"],
                 math.inf if values["pd_hard"] else float(values["pd_C"]))


def one_vs_rest(s, d):
    """The kernel mode on labels other than ±1 (a third class): one binary SVM per class."""
    return s.space == "kernel" and not np.array_equal(np.unique(d.y), (-1.0, 1.0))


def status(s, d):
    if one_vs_rest(s, d):
        return None
    r = solve(d.X, d.y, d.test, s)
    if not r.dual.converged or (r.primal and not r.primal.converged):
        return "a solver stopped short of its tolerance"
    return None


def made(s, d, charts):
    if one_vs_rest(s, d):
        return ovr_figures(d.X, d.y, d.test, s, d.own)
    return figures(d.X, d.y, d.test, s, d.own)


DUAL = Section("primal-dual", SIDEBAR_KEYS + CONTROLS, setup=setup,
               data=lambda s, values: training(values, multiclass=s.space == "kernel"), figures=made, status=status,
               live=LIVE)
SECTIONS = (DUAL,)
