"""Lesson 4's live section (lab/section.py): Pegasos' replayed decision plot, its objective and coefficients, and the
kernel perceptron beside it."""

from kernel_core.kernels import KernelSpec
from lab.section import SIDEBAR_KEYS, Section, training
from lessons.pegasos.compute import FIGURE_KEYS, Setup, figures

CONTROLS = ("pg_kernel", "pg_gamma", "pg_degree", "pg_coef0", "pg_lam", "pg_T", "pg_seed", "pg_epochs", "pg_replay",
            "pg_iterate")


def setup(values):
    """(the run's Setup, the replay's progress in % of T, which iterate the replay draws)."""
    kernel = KernelSpec(values["pg_kernel"], values["pg_gamma"], values["pg_degree"], values["pg_coef0"])
    return (Setup(kernel, values["pg_lam"], values["pg_T"], int(values["pg_seed"]), values["pg_epochs"]),
            values["pg_replay"], values["pg_iterate"])


def made(setup, d, charts):
    s, progress, iterate = setup
    return figures(d.X, d.y, s, progress, iterate, d.own,
                   keys=[k for k in FIGURE_KEYS if charts is None or k in charts])


RUN = Section("pegasos", SIDEBAR_KEYS + CONTROLS, setup=setup, data=lambda s, values: training(values), figures=made,
              live=("pg_gamma", "pg_degree", "pg_coef0", "pg_lam", "pg_T", "pg_epochs", "pg_replay"))
SECTIONS = (RUN,)
