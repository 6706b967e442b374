"""Lesson 6's live sections (lab/section.py): kernel ridge and gradient descent on the house prices, and kernel
logistic regression on the sidebar's data."""

from dataclasses import dataclass

from kernel_core.kernels import KernelSpec
from lab import data
from lab.section import SIDEBAR_KEYS, Section, training
from lessons.regression.compute import descent_figures, logistic_figures, ridge_figures


@dataclass(frozen=True)
class House:
    """The house-price sections' settings: n points drawn with the sidebar's seed, the kernel, the ridge's λ, and
    gradient descent's η / η_max, T and batch or stochastic steps."""

    n: int
    seed: int
    kernel: KernelSpec
    lam: float
    eta_ratio: float
    T: int
    stochastic: bool


def house(values):
    return House(values["rg_n"], values["seed"],
                 KernelSpec(values["rg_kernel"], values["rg_gamma"], values["rg_degree"], values["rg_coef0"]),
                 values["rg_lam"], values["rg_eta"], values["rg_T"], values["rg_mode"] == "stochastic")


def house_prices(s, values):
    """The notes' 1-D house prices: x (n, 1), y (n,)."""
    return data.house_price_set(s.n, s.seed)


def house_figures(s, d, charts):
    """Kernel ridge's chart and gradient descent's two, those of them in `charts` (all where it is None)."""
    x, y = d
    wanted = set(charts or ("rg_bumps", "rg_fits", "rg_loss"))
    return {**(ridge_figures(x, y, s.kernel, s.lam) if "rg_bumps" in wanted else {}),
            **(descent_figures(x, y, s.kernel, s.eta_ratio, s.T, s.stochastic, s.seed)
               if wanted & {"rg_fits", "rg_loss"} else {})}


HOUSE = Section("regression.house", ("seed", "rg_n", "rg_kernel", "rg_gamma", "rg_degree", "rg_coef0", "rg_lam",
                                     "rg_eta", "rg_T", "rg_mode"),
                setup=house, data=house_prices, figures=house_figures,
                live=("rg_n", "rg_gamma", "rg_degree", "rg_coef0", "rg_lam", "rg_eta", "rg_T"))
LOGISTIC = Section("regression.logistic", SIDEBAR_KEYS + ("rgl_kernel", "rgl_gamma", "rgl_degree", "rgl_coef0",
                                                          "rgl_lam", "rgl_T"),
                   setup=lambda v: (KernelSpec(v["rgl_kernel"], v["rgl_gamma"], v["rgl_degree"], v["rgl_coef0"]),
                                    v["rgl_lam"], v["rgl_T"]),
                   data=lambda s, values: training(values),
                   figures=lambda s, d, charts: logistic_figures(d.X, d.y, *s, d.own),
                   live=("rgl_gamma", "rgl_degree", "rgl_coef0", "rgl_lam", "rgl_T"))
SECTIONS = (HOUSE, LOGISTIC)
