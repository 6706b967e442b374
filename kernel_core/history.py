"""Which steps of an iterative solver its history_ records; shared by every solver in kernel_core.

Solvers that know their number of steps T in advance (Pegasos, the regression models) record at
`even_steps` or `log_steps`; solvers that stop when they converge (SMO, the interior point) keep a
`Trace`, which samples every stride-th step and doubles the stride to bound its memory.

Notation
    t       int     step
    T       int     last step
    m       int     most steps recorded
"""

import numpy as np


def even_steps(first, T, m):
    """Up to m evenly spaced steps in first..T, first and T included."""
    return np.unique(np.rint(np.linspace(first, T, min(T - first + 1, m))).astype(int))


def log_steps(T, m):
    """Every step in 1..T if there are at most m, else up to m steps evenly spaced in log t (1 and T included)."""
    if T <= m:
        return np.arange(1, T + 1)
    return np.unique(np.rint(np.geomspace(1, T, m)).astype(int))


class Trace:
    """Samples of a run of unknown length: between m and 2m evenly spaced steps (every step for short runs)."""

    def __init__(self, *keys, m=1_000):
        self.m = m
        self.stride = 1
        self.data = {key: [] for key in ("iteration", *keys)}

    def due(self, t):
        return t % self.stride == 0

    def add(self, t, *values):
        for key, value in zip(self.data, (t, *values)):
            self.data[key].append(float(value) if key != "iteration" else t)
        if len(self.data["iteration"]) >= 2 * self.m:
            self.data = {key: values[::2] for key, values in self.data.items()}
            self.stride *= 2

    def close(self, t, *values):
        """The samples as lists, with step t recorded last with these values (a solver may refine its
        last iterate after the step, e.g. the dual's polish)."""
        if self.data["iteration"] and self.data["iteration"][-1] == t:
            for key in self.data:
                self.data[key].pop()
        self.add(t, *values)
        return {key: list(values) for key, values in self.data.items()}
