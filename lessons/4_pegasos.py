"""Lesson 4: Pegasos, kernelized SGD exactly as Algorithm 1 of Lecture 8, and the kernel perceptron."""

import numpy as np
import streamlit as st

from lessons import common
from lessons.compute_pegasos import (
    PEGASOS_SOURCE,
    alpha_animation,
    decision_figure,
    exact_optimum,
    fit_pegasos,
    fit_perceptron,
    mistakes_figure,
    objective_figure,
    pegasos_surface,
    perceptron_figure,
)

T_MIN, T_MAX, T_DEFAULT, T_STEP = 100, 20_000, 2_000, 100
LAM_DEFAULT = 0.01
EPOCHS_MAX, EPOCHS_DEFAULT = 200, 50
ITERATES = {"avg": "average α̂_t (the output)", "last": "last iterate α^t"}


# ---------------------------------------------------------------- page

def intro():
    st.title("Pegasos: stochastic gradient descent for the kernel SVM")
    st.markdown(
        "Pegasos never solves the SVM's quadratic program. Each step it picks one training point at random; "
        "if that point sits inside the margin, it nudges the coefficient of that point by its label, and the "
        "step size $1/(\\lambda t)$ shrinks everything else. The classifier it returns is the **average** of "
        "all iterates, which settles much more calmly than the last one. Below it, the kernel perceptron "
        "learns on the same points by counting mistakes."
    )


def algorithm():
    """The objective and Algorithm 1 on the left; returns the right column, for the controls."""
    left, right = st.columns([1.05, 1], gap="large")
    with left:
        st.markdown("**Objective** (the notes write $\\lambda\\|w\\|^2$; the step $1/(\\lambda t)$ belongs to "
                    "$\\tfrac{\\lambda}{2}\\|w\\|^2$), with $w = \\sum_j \\alpha_j \\phi(x_j)$:")
        st.latex(r"\min_{\alpha}\ \frac{\lambda}{2}\,\alpha^\top K \alpha"
                 r" + \frac{1}{n}\sum_{i=1}^{n}\max\{0,\ 1 - y_i (K\alpha)_i\}")
        st.markdown(
            "**Algorithm 1** — input $\\lambda > 0$, start from $\\beta^1 = 0$; for $t = 1, \\dots, T$:\n"
            "1. $\\alpha^t = \\beta^t / (\\lambda t)$\n"
            "2. sample $i \\sim \\mathrm{Unif}[n]$\n"
            "3. if $y_i \\sum_j \\alpha^t_j K(x_j, x_i) < 1$ then $\\beta^{t+1}_i = \\beta^t_i + y_i$ "
            "(every other $\\beta_j$ stays)\n\n"
            "Output $\\hat\\alpha = \\frac{1}{T}\\sum_{t=1}^T \\alpha^t$ and predict "
            "$\\operatorname{sign}\\big(\\sum_j \\hat\\alpha_j K(x_j, x)\\big)$. "
            "These $\\alpha$ are **signed**: the label $y_j$ is already inside them, unlike the SVM dual's "
            "$\\alpha_j \\ge 0$, so $\\hat\\alpha_j \\to \\alpha^*_j y_j$."
        )
    return right


def controls(column):
    with column:
        kernel = common.kernel_controls("pg")
        a, b = st.columns(2)
        with a:
            lam = common.log_slider("λ (regularization strength)", "pg_lam", common.LAM_VALUES, LAM_DEFAULT,
                                    help="Larger λ: smaller ‖w‖, a smoother f, bigger steps early on.")
            seed = st.number_input("seed of the sampler i ~ Unif[n]", 0, 9999, 0, key="pg_seed",
                                   bind="query-params")
        with b:
            T = st.slider("T (number of SGD steps)", T_MIN, T_MAX, T_DEFAULT, T_STEP, key="pg_T",
                          bind="query-params")
            max_epochs = st.slider("perceptron: max epochs (passes over the data)", 1, EPOCHS_MAX, EPOCHS_DEFAULT,
                                   key="pg_epochs", bind="query-params")
    return {**kernel, "lam": lam, "T": T, "seed": int(seed), "max_epochs": max_epochs}


def replay_controls():
    a, b = st.columns([1, 2], vertical_alignment="bottom")
    iterate = a.segmented_control("Decision function of", list(ITERATES), format_func=ITERATES.get,
                                  default="avg", key="pg_iterate", bind="query-params", required=True)
    progress = b.slider("replay: t as % of T (100 % = the end of the run)", 1, 100, 100, key="pg_replay",
                        bind="query-params")
    return iterate, progress


@st.fragment
def lesson():
    """Everything below the title: a control moved here reruns this (and not the sidebar); a replay step
    reruns only the replay fragment inside it."""
    p = controls(algorithm())
    X, y = common.training_data()
    kp = (p["kernel"], p["gamma"], p["degree"], p["coef0"])
    try:
        # the exact optimum depends on the kernel and λ only: a new T or seed does not solve the SVM again
        result = {**fit_pegasos(X, y, *kp, p["lam"], p["T"], p["seed"]), **exact_optimum(X, y, *kp, p["lam"])}
        perceptron = fit_perceptron(X, y, *kp, p["max_epochs"])
    except ValueError as exc:
        common.show_error(exc)
    for message in result["warnings"]:
        st.warning(f"Exact optimum: {message}", icon=":material/warning:")

    st.subheader("Replay the run")
    replay(X, y, kp, p, result)
    gap = result["objective_avg"][-1] - result["optimum"]
    m = st.columns(5)
    m[0].metric("objective at α̂ (t = T)", f"{result['objective_avg'][-1]:.6g}")
    m[1].metric("objective at α^T", f"{result['objective_last'][-1]:.6g}")
    m[2].metric("exact optimum (SVM dual)", f"{result['optimum']:.6g}")
    m[3].metric("α̂ above the optimum by", f"{gap:.3g}")
    m[4].metric("training error of α̂", f"{result['train_error']:.1%}")

    st.markdown("**The coefficients over time.** Press ▶ to watch β grow into α: each bar is $\\alpha^t_j$, "
                "the green dots are the running average $\\hat\\alpha_{t,j}$, the black ticks the exact SVM's "
                "$\\alpha^*_j y_j$. (Played in your browser from the recorded snapshots.)")
    common.chart(alpha_animation(result["snapshot_t"], result["alpha_snapshots"],
                                    result["alpha_avg_snapshots"], y, result["alpha_star_y"]),
                    key="pg_alpha")

    perceptron_section(X, y, p, perceptron)
    numbers(X, y, p["T"], result, perceptron)


@st.fragment
def replay(X, y, kp, p, result):
    """The replay controls and the two figures they move: a replay step reruns only this."""
    iterate, progress = replay_controls()
    snapshot_t = result["snapshot_t"]
    k = int(round((progress - 1) / 99 * (snapshot_t.size - 1)))
    t = int(snapshot_t[k])
    surface = pegasos_surface(X, y, *kp, p["lam"], p["T"], p["seed"], k, iterate)
    symbol = "α̂_t" if iterate == "avg" else "α^t"
    left, right = st.columns(2, gap="medium")
    with left:
        st.markdown(f"**f(x) = Σⱼ {symbol}ⱼ K(xⱼ, x) at t = {t} of {p['T']}**")
        fig = decision_figure(surface["xs"], surface["ys"], surface["Z"], X, y)
        common.boundary_chart(fig, key="pg_boundary")
    with right:
        st.markdown("**Objective vs t, and the exact optimum**")
        common.chart(objective_figure(result["t"], result["objective_last"], result["objective_avg"],
                                         result["optimum"], t_mark=t),
                        key="pg_objective")


def perceptron_section(X, y, p, perceptron):
    st.subheader("The kernel perceptron on the same points")
    st.markdown(
        "The perceptron sweeps the points in order and, whenever $y_t \\sum_i \\alpha_i y_i K(x_i, x_t) \\le 0$, "
        "adds one to $\\alpha_t$: here $\\alpha_i \\in \\{0, 1, \\dots\\}$ counts **mistakes** and the label is "
        "outside, $f(x) = \\sum_i \\alpha_i y_i K(x_i, x)$, with no offset and no margin."
    )
    left, right = st.columns([1.2, 1], gap="medium")
    with left:
        st.markdown("**The perceptron's f(x); rings grow with the mistake count αᵢ**")
        fig = perceptron_figure(perceptron["xs"], perceptron["ys"], perceptron["Z"], X, y, perceptron["alpha"])
        common.boundary_chart(fig, key="pg_perceptron")
    with right:
        if perceptron["converged"]:
            st.success(f"Converged: epoch {perceptron['n_epochs']} made no mistake, so every training point is "
                       "classified correctly with this kernel.", icon=":material/check_circle:")
        else:
            st.warning(f"Did not converge in {perceptron['n_epochs']} epochs: the data is not separable through "
                       "the origin with this kernel (or it needs more epochs). A more local kernel (RBF with a "
                       "larger γ) separates more, and more epochs give it more passes.", icon=":material/warning:")
        a, b = st.columns(2)
        a.metric("total mistakes Σ αᵢ", perceptron["n_mistakes"])
        b.metric("training error", f"{perceptron['train_error']:.1%}")
        common.chart(mistakes_figure(perceptron["mistakes"]), key="pg_mistakes")


def numbers(X, y, T, result, perceptron):
    with st.expander("The numbers: β, α per point, and the source of Algorithm 1"):
        st.markdown(f"{result['n_updates']} of the T = {T} steps found their point inside the margin and "
                    "updated β (|βᵢ| counts the updates of point i, the sign is yᵢ); α^T = β^T/(λT); "
                    "α̂ averages every α^t.")
        common.table({
            "j": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int),
            "β^(T+1) (after step T)": result["beta"].astype(int), "α^T (last)": result["alpha_last"],
            "α̂ (average)": result["alpha"], "α*ᵢyᵢ (exact SVM)": result["alpha_star_y"],
            "perceptron αᵢ (mistakes)": perceptron["alpha"],
        }, height=260)
        st.code(PEGASOS_SOURCE, language="python")


intro()
lesson()
