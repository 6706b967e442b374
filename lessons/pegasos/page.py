"""Lesson 4: Pegasos, kernelized SGD exactly as Algorithm 1 of Lecture 8, and the kernel perceptron."""

import numpy as np
import streamlit as st

from lab import data, page, widgets
from lessons.pegasos import reproduce
from lessons.pegasos.compute import PEGASOS_SOURCE, exact_optimum, fit_pegasos, fit_perceptron, replay_step
from lessons.pegasos.fields import T_MAX
from lessons.pegasos.perceptron_view import PERCEPTRON_TEXT, perceptron_section
from lessons.pegasos.presets import PRESETS
from lessons.pegasos.sections import RUN

ITERATES = {"avg": "average α̂ₜ (the output)", "last": "last iterate αᵗ"}


def algorithm():
    """The objective and Algorithm 1, side by side (fixed text: outside the fragment)."""
    left, right = st.columns([1.05, 1], gap="large")
    with left:
        st.markdown("**Objective** (the notes write $\\lambda\\|w\\|^2$; the step $1/(\\lambda t)$ belongs to "
                    "$\\tfrac{\\lambda}{2}\\|w\\|^2$), with $w = \\sum_j \\alpha_j \\phi(x_j)$:")
        st.latex(r"\min_{\alpha}\ \frac{\lambda}{2}\,\alpha^\top K \alpha"
                 r" + \frac{1}{n}\sum_{i=1}^{n}\max\{0,\ 1 - y_i (K\alpha)_i\}")
    with right:
        st.markdown(
            "**Algorithm 1** — input $\\lambda > 0$, start from $\\beta^1 = 0$; for $t = 1, \\dots, T$:\n"
            "1. $\\alpha^t = \\beta^t / (\\lambda t)$\n"
            "2. sample $i \\sim \\mathrm{Unif}[n]$\n"
            "3. if $y_i \\sum_j \\alpha^t_j K(x_j, x_i) < 1$ then $\\beta^{t+1}_i = \\beta^t_i + y_i$ "
            "(every other $\\beta_j$ stays)\n\n"
            "Output $\\hat\\alpha = \\frac{1}{T}\\sum_{t=1}^T \\alpha^t$ and predict "
            "$\\operatorname{sign}\\big(\\sum_j \\hat\\alpha_j K(x_j, x)\\big)$. "
            "These $\\alpha$ are **signed**: the label $y_j$ is already inside them, unlike the SVM dual's "
            "$\\alpha_j \\ge 0$, so $\\hat\\alpha_j \\to \\alpha^*_j y_j$.")


def controls():
    kernel_column, a, b = st.columns([1.05, 0.5, 0.5], gap="large")
    with kernel_column:
        widgets.kernel_controls("pg")
    with a:
        widgets.log_slider("λ (regularization strength)", "pg_lam",
                           help="Larger λ: smaller ‖w‖, a smoother f, bigger steps early on.")
        widgets.number_input("seed of the sampler i ~ Unif[n]", "pg_seed")
    with b:
        widgets.slider("T (number of SGD steps)", "pg_T", step=100)
        widgets.slider("perceptron: max epochs (passes over the data)", "pg_epochs")


page.header(
    "Pegasos: stochastic gradient descent for the kernel SVM",
    "Pegasos never solves the SVM's quadratic program. Each step it picks one training point at random; "
    "if that point sits inside the margin, it nudges the coefficient of that point by its label, and the "
    "step size $1/(\\lambda t)$ shrinks everything else. The classifier it returns is the **average** of "
    "all iterates, which settles much more calmly than the last one. Below it, the kernel perceptron "
    "learns on the same points by counting mistakes.")
page.presets_row(PRESETS)
algorithm()


@page.fragment
def lesson():
    """A control moved here reruns this (and not the sidebar); a replay step reruns only `replay`."""
    controls()
    data.third_class_notice()
    setup, train, _ = page.run(RUN)
    s, (X, y) = setup[0], train[:2]
    try:
        run = fit_pegasos(X, y, s.kernel, s.lam, s.T, s.seed)
        # the exact optimum depends on the kernel and λ only: a new T or seed does not solve the SVM again
        optimum = exact_optimum(X, y, s.kernel, s.lam)
        perceptron = fit_perceptron(X, y, s.kernel, s.max_epochs)
    except ValueError as exc:
        page.stop(exc)
    page.warnings(optimum.warnings, "Exact optimum: ")

    # the charts the replay controls do not move (the replay fragment draws the other two)
    drawn = RUN.figures(setup, train, {"pg_alpha", "pg_perceptron", "pg_mistakes"})
    with page.section("Replay the run", key="replay", examples=PRESETS):
        replay(s, run)
        page.metrics({
            "objective at α̂ (t = T)": f"{run.objective_avg[-1]:.6g}",
            "objective at αᵀ": f"{run.objective[-1]:.6g}",
            "exact optimum (SVM dual)": "—" if optimum.objective is None else f"{optimum.objective:.6g}",
            "α̂ above the optimum by": ("—" if optimum.objective is None
                                       else f"{run.objective_avg[-1] - optimum.objective:.3g}"),
            "training error of α̂": f"{run.train_error:.1%}",
        })
        if optimum.objective is None:
            st.info(f"No exact optimum: {optimum.why_none}.", icon=":material/info:")
        elif run.objective_avg[-1] - optimum.objective > 0.1 * optimum.objective:
            st.info(f"Still far from the optimum: the gap of α̂ shrinks only about like log T / (λT) (Shalev-Shwartz "
                    f"et al., 2011), and λT = {s.lam * s.T:.3g} here, so twice the steps roughly halve it. T stops at "
                    f"{T_MAX:,} so that every move stays quick for a whole class; a larger λ converges within it.",
                    icon=":material/info:")
        st.markdown("**The coefficients over time.** Press ▶ to watch β grow into α: each bar is $\\alpha^t_j$, "
                    "the green dots are the running average $\\hat\\alpha_{t,j}$, the black ticks the exact SVM's "
                    "$\\alpha^*_j y_j$. (Played in your browser from the recorded snapshots.)")
        page.chart(drawn["pg_alpha"], key="pg_alpha")
    with page.section("The kernel perceptron on the same points", PERCEPTRON_TEXT, key="perceptron", examples=PRESETS):
        perceptron_section(perceptron, drawn)
    page.code("pg_numbers", "The numbers: β, α per point, and the source of Algorithm 1", PEGASOS_SOURCE,
              text=f"{run.n_updates} of the T = {s.T} steps found their point inside the margin and updated β "
                   "(|βᵢ| counts the updates of point i, the sign is yᵢ); αᵀ = βᵀ/(λT); α̂ averages every αᵗ.",
              columns={"j": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int),
                       "βᵀ⁺¹ (after step T)": run.beta.astype(int), "αᵀ (last)": run.alpha,
                       "α̂ (average)": run.alpha_avg, "α*ᵢyᵢ (exact SVM)": optimum.alpha_y,
                       "perceptron αᵢ (mistakes)": perceptron.alpha}, height=260)
    page.reproduce("pg_reproduce", "Pegasos and the perceptron", reproduce.pegasos,
                   X, y, s.kernel, s.lam, s.T, s.seed, s.max_epochs)


@page.fragment
def replay(s, run):
    """The replay controls and the two figures they move: a replay step reruns only this."""
    a, b = st.columns([1, 2], vertical_alignment="bottom")
    with a:
        iterate = widgets.segmented("Decision function of", "pg_iterate", format_func=ITERATES.get)
    with b:
        progress = widgets.slider("replay: t as % of T (100 % = the end of the run)", "pg_replay")
    _, t = replay_step(run, progress)
    drawn = RUN.figures(*page.run(RUN)[:2], {"pg_boundary", "pg_objective"})
    symbol = r"\hat\alpha_{t,j}" if iterate == "avg" else r"\alpha^t_j"
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**$f(x) = \\sum_j {symbol} K(x_j, x)$ at t = {t} of {s.T}**; ▶ Play replays the run up to t")
        page.boundary_chart(drawn["pg_boundary"], key="pg_boundary", name="Pegasos: f(x) over the plane",
                            section=RUN)
    with right:
        st.markdown("**Objective vs t, and the exact optimum**")
        page.chart(drawn["pg_objective"], key="pg_objective")


lesson()
