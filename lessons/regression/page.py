"""Lesson 6: kernel regression — kernel ridge and the representer bumps, gradient descent on θ versus
on β, and kernel logistic regression on the sidebar's 2-D data."""

import numpy as np
import streamlit as st

from lab import data, page, widgets
from lessons.regression import reproduce
from lessons.regression.compute import GAP, LOGISTIC_SOURCE, RIDGE_SOURCE, fit_descent, fit_logistic, fit_ridge
from lessons.regression.presets import PRESETS
from lessons.regression.sections import HOUSE, LOGISTIC
# the fixed prose of the descent and the logistic sections, written outside their fragments (page.section)
DESCENT_TEXT = ("The same least-squares loss $\\tfrac12\\sum_i (y_i - f(x_i))^2$ (no λ), minimized step by step. "
                "Where the kernel has a finite feature map, LMS on $\\theta$ runs next to the $\\beta$ update with "
                "the same η, T and order of points; the dashed curve lies on the solid one.")
LOGISTIC_TEXT = ("Swap squared error for the logistic loss and the same trick classifies: "
                 "$f(x) = \\sum_j \\beta_j K(x_j, x)$ is the **logit**, $P(y = +1 \\mid x) = \\sigma(f(x))$. "
                 "The solid line ($f = 0$) is where both classes "
                 "are equally likely; the dashed lines ($f = \\pm 1$) are where $P(y = +1 \\mid x) = \\sigma(\\pm1) "
                 "\\approx 0.73$ and $0.27$ — lines of equal confidence, not an SVM margin.")
LOGISTIC_LATEX = (r"J(\beta) = \sum_{i=1}^n \log\!\big(1 + e^{-y_i f(x_i)}\big) "
                  r"+ \frac{\lambda}{2}\,\beta^\top K\beta, "
                  r"\qquad \beta \leftarrow (1 - \eta\lambda)\,\beta + \eta\; y \circ \sigma(-y \circ K\beta)")

page.header(
    "Kernel regression",
    "Gradient descent on least squares, started at $\\theta = 0$, only ever adds multiples of the $\\phi(x_i)$ to "
    "$\\theta$. So the answer is a combination $\\theta = \\sum_j \\beta_j\\phi(x_j)$ and the prediction is a **sum "
    "of bumps**, one kernel per training point — the representer theorem. Kernel ridge regression finds the best "
    "such $\\beta$ in one linear solve; gradient descent walks to it.",
    r"f(x) = \theta^\top\phi(x) = \sum_{j=1}^n \beta_j\, K(x_j, x), \qquad \text{ridge: } (K + \lambda I)\,\beta = y,"
    r" \qquad \text{LMS: } \beta \leftarrow \beta + \eta\,(y - K\beta)")
page.presets_row(PRESETS)


def ridge_section(x, y, spec, lam, left, right):
    try:
        r = fit_ridge(x, y, spec, lam)
    except ValueError as exc:
        with right:
            page.show_error(exc)
        return
    with right:
        page.warnings(r.warnings)
        st.markdown("Each thin line is one term $\\beta_j K(x_j, x)$, a bump centred on a training point; "
                    "the thick line, their sum, is the fitted curve.")
        page.chart(HOUSE.figures(*page.run(HOUSE)[:2], {"rg_bumps"})["rg_bumps"], key="rg_bumps",
                   name="Kernel ridge: the bumps βⱼK(xⱼ, x) and their sum")
        page.metrics({"training RMSE": f"{r.rmse:.4g}", "largest |βⱼ|": f"{np.max(np.abs(r.beta)):.4g}",
                      "Σⱼ βⱼ": f"{np.sum(r.beta):.4g}"})
    page.code("rg_ridge_numbers",
              "The numbers: β and the ridge prediction f(xⱼ) at each training point, and the solver",
              RIDGE_SOURCE,
              columns={"j": np.arange(y.size), "xⱼ": x[:, 0], "yⱼ": y, "βⱼ": r.beta, "f(xⱼ)": r.f_train},
              height=240, table_key="rg_ridge_table")
    page.reproduce("rg_ridge_reproduce", "kernel ridge", reproduce.ridge, x, y, spec, lam)


@page.fragment
def descent_section(x, y, spec):
    """Its own controls (η, T, order): a move there reruns only this section."""
    ratio, T, stochastic = widgets.descent_controls("rg")
    try:
        r = fit_descent(x, y, spec, ratio, T, stochastic, int(st.session_state["seed"]))
    except ValueError as exc:
        page.show_error(exc)
        return
    page.warnings(r.warnings)
    charts = HOUSE.figures(*page.run(HOUSE)[:2], {"rg_fits", "rg_loss"})
    left, right = st.columns([1.3, 1], gap="medium")
    with left:
        page.chart(charts["rg_fits"], key="rg_fits", name="Gradient descent: LMS on θ and kernel LMS on β")
        st.caption("▶ Play replays kernel LMS: the dashed β curve at the recorded steps t, up to T.")
    with right:
        page.chart(charts["rg_loss"], key="rg_loss")
    if not r.explicit:
        st.info(r.phi_note, icon=":material/info:")
    page.metrics({**({GAP: f"{r.max_diff:.3e}"} if r.explicit else {}), "η used": f"{r.eta:.4g}",
                  "loss after T steps": f"{r.loss_beta[-1]:.6g}"}, help={"η used": f"η_max = {r.eta_max:.6g}"})
    if r.explicit:
        st.caption(f"θ route: {r.phi_note}.")
    page.reproduce("rg_descent_reproduce", "gradient descent", reproduce.descent, x, y, spec, ratio, T, stochastic,
                   int(st.session_state["seed"]), r.explicit)


@page.fragment
def logistic_section():
    """Its own controls, figures and numbers: a slider move here reruns only this section."""
    a, b, c = st.columns(3, gap="medium")
    with a:
        spec = widgets.kernel_controls("rgl", of="logistic regression")
    with b:
        lam = widgets.log_slider("λ (regularization strength)", "rgl_lam")
        T = widgets.slider("T (number of gradient steps)", "rgl_T")
    data.third_class_notice()
    run = page.run(LOGISTIC, section_only=True)
    if run is None:
        return
    setup, train, _ = run
    X, y = train.X, train.y
    try:
        r = fit_logistic(X, y, spec, lam, T)
    except ValueError as exc:
        page.show_error(exc)
        return
    page.warnings(r.warnings)
    with c:
        page.metrics({"training accuracy": f"{r.accuracy:.1%}", "J(β) after T steps": f"{r.objective[-1]:.6g}"},
                     help={"J(β) after T steps": f"η = {r.eta:.4g}, the core's safe step 1/(λ_max(K)/4 + λ)"})
    charts = LOGISTIC.figures(setup, train, None)
    left, right = st.columns([1.25, 1], gap="medium")
    with left:
        st.caption("Colour: the logit f(x). Solid line: f = 0, P = ½. "
                   "Dashed lines: f = ±1, P(y = +1 | x) ≈ 0.73 and 0.27.")
        page.boundary_chart(charts["rgl_boundary"], key="rgl_boundary", section=LOGISTIC)
    with right:
        st.caption("Gradient descent on β lowers J(β) at every step.")
        page.chart(charts["rgl_objective"], key="rgl_objective")
    page.code("rgl_numbers", "The numbers: β and P(y = +1 | x) per point, and the code of the update", LOGISTIC_SOURCE,
              columns={"j": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int), "βⱼ": r.beta,
                       "P(y = +1 | xⱼ)": r.proba}, height=240, table_key="rgl_table")
    page.reproduce("rgl_reproduce", "logistic regression", reproduce.logistic, X, y, spec, lam, T)


@page.fragment
def house_price_sections():
    """Kernel ridge and gradient descent on the same house prices: a slider move in either reruns only these
    two sections, not the sidebar or the logistic section."""
    left, right = st.columns([1, 2], gap="large")
    with left:
        x, y = data.house_prices(widgets.slider("n (house-price points)", "rg_n"))
        spec = widgets.kernel_controls("rg", of="house prices")
        lam = widgets.log_slider("λ (ridge penalty; larger = smoother)", "rg_lam")
    ridge_section(x, y, spec, lam, left, right)
    with page.section("Gradient descent on θ and on β: one run, two bookkeepings", DESCENT_TEXT, key="descent",
                      examples=PRESETS, divider=True):
        descent_section(x, y, spec)


with page.section("Kernel ridge regression: the representer theorem in a picture", key="ridge"):
    house_price_sections()
with page.section("Kernel logistic regression on the sidebar's data", LOGISTIC_TEXT, LOGISTIC_LATEX, key="logistic",
                  divider=True):
    logistic_section()
