"""Lesson 6: kernel regression — kernel ridge and the representer bumps, gradient descent on θ versus
on β, and kernel logistic regression on the sidebar's 2-D data."""

import numpy as np
import streamlit as st

from lessons import common
from lessons.compute_regression import (
    LOGISTIC_SOURCE,
    RIDGE_SOURCE,
    boundary_fig,
    bumps_fig,
    fit_descent,
    fit_logistic,
    fit_ridge,
    fits_fig,
    history_fig,
)

N_MIN, N_MAX, N_DEFAULT = 4, 60, 15
# local bumps (γ = 10 on x ∈ [−1, 1]) and a mild penalty keep every βⱼ K(xⱼ, ·) readable next to the data
GAMMA_DEFAULT = 10.0
LAM_DEFAULT = 0.1
LOGIT_LAM_DEFAULT = 0.01
LOGIT_T_MAX, LOGIT_T_DEFAULT = 3000, 300
# the logistic page's f is a logit: its lines are probabilities, not margins
LOGISTIC_LINES = ("f = 0 (P = ½)", "f = ±1 (P ≈ 0.73 or 0.27)")

# ---------------------------------------------------------------- page

def intro():
    st.title("Kernel regression")
    st.markdown(
        "Gradient descent on least squares, started at $\\theta = 0$, only ever adds multiples of the "
        "$\\phi(x_i)$ to $\\theta$. So the answer is a combination $\\theta = \\sum_j \\beta_j\\phi(x_j)$ and the "
        "prediction is a **sum of bumps**, one kernel per training point — the representer theorem. "
        "Kernel ridge regression finds the best such $\\beta$ in one linear solve; gradient descent walks to it."
    )
    st.latex(r"f(x) = \theta^\top\phi(x) = \sum_{j=1}^n \beta_j\, K(x_j, x), \qquad "
             r"\text{ridge: } (K + \lambda I)\,\beta = y, \qquad \text{LMS: } \beta \leftarrow \beta + \eta\,(y - K\beta)")


def regression_controls():
    left, right = st.columns([1, 2], gap="large")
    with left:
        n = st.slider("n (house-price points)", N_MIN, N_MAX, N_DEFAULT, key="rg_n", bind="query-params")
        kernel = common.kernel_controls("rg", gamma_default=GAMMA_DEFAULT)
        lam = common.log_slider("λ (ridge penalty; larger = smoother)", "rg_lam", common.LAM_VALUES, LAM_DEFAULT)
    return right, n, kernel, lam


def ridge_section(column, x, y, kp, lam):
    try:
        r = fit_ridge(x, y, *kp, lam)
    except ValueError as exc:
        with column:
            common.show_error(exc, stop=False)
        return
    with column:
        st.markdown("Each thin line is one term $\\beta_j K(x_j, x)$, a bump centred on a training point; "
                    "the thick line, their sum, is the fitted curve.")
        common.chart(bumps_fig(x[:, 0], y, r["grid"], r["beta"], r["bumps"], r["f"],
                                  xtitle="x (scaled living area)", ytitle="y (price, $100k)"),
                        key="rg_bumps")
        a, b, c = st.columns(3)
        a.metric("training RMSE", f"{r['rmse']:.4g}")
        b.metric("largest |βⱼ|", f"{np.max(np.abs(r['beta'])):.4g}")
        c.metric("Σⱼ βⱼ", f"{np.sum(r['beta']):.4g}")
    with st.expander("The numbers: β and the ridge predictions at the training points, and the solver"):
        common.table({"j": np.arange(y.size), "xⱼ": x[:, 0], "yⱼ": y, "βⱼ": r["beta"], "f(xⱼ)": r["f_train"]},
                     height=240, key="rg_ridge_table")
        st.code(RIDGE_SOURCE, language="python")


@st.fragment
def descent_section(x, y, kp):
    """Its own controls (η, T, order): a move there reruns only this section."""
    st.subheader("Gradient descent on θ and on β: one run, two bookkeepings")
    st.markdown(
        "The same least-squares loss $\\tfrac12\\sum_i (y_i - f(x_i))^2$ (no λ), minimized step by step. "
        "Where the kernel has a finite feature map, LMS on $\\theta$ runs next to the $\\beta$ update with the "
        "same η, T and order of points; the dashed curve lies on the solid one."
    )
    ratio, T, stochastic = common.descent_controls("rg", T_max=5000, T_default=200)
    seed = int(st.session_state["seed"])
    try:
        r = fit_descent(x, y, *kp, ratio, T, stochastic, seed)
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    common.unstable_step_warning(ratio, r["eta"], r["eta_max"])
    explicit = r["explicit"]
    left, right = st.columns([1.3, 1], gap="medium")
    with left:
        f_theta = r["f_theta"] if explicit else r["f_beta"]
        common.chart(fits_fig(x[:, 0], y, r["grid"], f_theta, r["f_beta"],
                                 theta_name="θᵀφ(x) (LMS on θ)" if explicit else "(no finite φ: β only)",
                                 beta_name="Σⱼ βⱼ K(xⱼ, x) (kernel LMS on β)", xtitle="x (scaled living area)",
                                 ytitle="y (price, $100k)", uirevision="rg_fits"),
                        key="rg_fits")
    with right:
        curves = {"loss of β": (r["loss_beta"], "dash")}
        if explicit:
            curves = {"loss of θ": (r["loss_theta"], None), **curves}
        common.chart(history_fig(r["t"], curves, ytitle="½ Σᵢ (yᵢ − f(xᵢ))² (log scale)",
                                    uirevision="rg_loss"),
                        key="rg_loss")
    a, b, c = st.columns(3)
    if explicit:
        a.metric("max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot", f"{r['max_diff']:.3e}")
    else:
        a.info(r["phi_note"], icon=":material/info:")
    b.metric("η used", f"{r['eta']:.4g}", help=f"η_max = {r['eta_max']:.6g}")
    c.metric("loss after T steps", f"{r['loss_beta'][-1]:.6g}")
    if explicit:
        st.caption(f"θ route: {r['phi_note']}.")


@st.fragment
def logistic_section():
    """Its own controls, figures and numbers: a slider move here reruns only this section."""
    st.subheader("Kernel logistic regression on the sidebar's data")
    st.markdown(
        "Swap squared error for the logistic loss and the same trick classifies: $f(x) = \\sum_j \\beta_j K(x_j, x)$ "
        "is the **logit**, $P(y = +1 \\mid x) = \\sigma(f(x))$. The solid line ($f = 0$) is where both classes are "
        "equally likely; the dashed lines ($f = \\pm 1$) are where $P(y = +1 \\mid x) = \\sigma(\\pm1) "
        "\\approx 0.73$ and $0.27$ — lines of equal confidence, not an SVM margin."
    )
    st.latex(r"J(\beta) = \sum_{i=1}^n \log\!\big(1 + e^{-y_i f(x_i)}\big) + \frac{\lambda}{2}\,\beta^\top K\beta, "
             r"\qquad \beta \leftarrow (1 - \eta\lambda)\,\beta + \eta\; y \circ \sigma(-y \circ K\beta)")
    a, b, c = st.columns(3, gap="medium")
    with a:
        kp = common.kernel_controls("rgl")
    with b:
        lam = common.log_slider("λ (regularization strength)", "rgl_lam", common.LAM_VALUES, LOGIT_LAM_DEFAULT)
        T = st.slider("T (number of gradient steps)", 1, LOGIT_T_MAX, LOGIT_T_DEFAULT, key="rgl_T",
                      bind="query-params")
    X, y = common.training_data()
    try:
        r = fit_logistic(X, y, kp["kernel"], kp["gamma"], kp["degree"], kp["coef0"], lam, T)
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    with c:
        st.metric("training accuracy", f"{r['accuracy']:.1%}")
        st.metric("J(β) after T steps", f"{r['objective'][-1]:.6g}",
                  help=f"η = {r['eta']:.4g}, the core's safe step 1/(λ_max(K)/4 + λ)")
    left, right = st.columns([1.25, 1], gap="medium")
    with left:
        st.caption("Colour: the logit f(x). Solid line: f = 0, P = ½. "
                   "Dashed lines: f = ±1, P(y = +1 | x) ≈ 0.73 and 0.27.")
        common.boundary_chart(boundary_fig(r["xs"], r["ys"], r["Z"], X, y, line_names=LOGISTIC_LINES),
                              key="rgl_boundary")
    with right:
        st.caption("Gradient descent on β lowers J(β) at every step.")
        common.chart(history_fig(r["t"], {"J(β)": (r["objective"], None)}, ytitle="J(β) (log scale)",
                                    uirevision="rgl_objective"),
                        key="rgl_objective")
    with st.expander("The numbers: β and P(y = +1 | x) per point, and the code of the update"):
        common.table({"j": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int), "βⱼ": r["beta"],
                      "P(y = +1 | xⱼ)": r["proba"]}, height=240, key="rgl_table")
        st.code(LOGISTIC_SOURCE, language="python")


@st.fragment
def house_price_sections():
    """Kernel ridge and gradient descent on the same house prices: a slider move in either reruns only these
    two sections, not the sidebar or the logistic section."""
    st.subheader("Kernel ridge regression: the representer theorem in a picture")
    column, n, kernel, lam = regression_controls()
    x, y = common.house_prices(n)
    kp = (kernel["kernel"], kernel["gamma"], kernel["degree"], kernel["coef0"])
    ridge_section(column, x, y, kp, lam)
    st.divider()
    descent_section(x, y, kp)


def main():
    intro()
    house_price_sections()
    st.divider()
    logistic_section()


main()
