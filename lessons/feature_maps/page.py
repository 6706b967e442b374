"""Lesson 1: feature maps and the kernel trick — K(x, z) = φ(x)·φ(z), what it saves, the Gaussian's
infinite map, and the cubic house-price fit run on θ and on β."""

import numpy as np
import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lab import data, page, widgets
from lessons.feature_maps import reproduce
from lessons.feature_maps.compute import (KLMS_SOURCE, TAYLOR_SOURCE, TAYLOR_X, costs, cubic_fit, fits_fig,
                                          kernel_check, loss_fig, map_source, taylor)
from lessons.feature_maps.points_view import POINT_SOURCES, point_inputs
from lessons.feature_maps.presets import PRESETS
from lessons.feature_maps.sections import COST, TAYLOR

COST_TEXT = ("The map behind $(1 + x\\cdot z)^p$ lists every monomial of degree up to $p$ in $d$ variables: "
             "$\\binom{d+p}{p}$ features. Building $\\phi(x)$, $\\phi(z)$ and their inner product costs a few "
             "operations per feature; the kernel needs $x\\cdot z$ ($d$ products) and a power.")
TAYLOR_TEXT = ("The power series of $e^{2\\gamma xz}$ splits the 1-D Gaussian into a product of features, one per "
               "power of $x$. No finite list reproduces it, but the first $m$ already come close when $\\gamma x z$ "
               "is small; a narrow Gaussian (large $\\gamma$) or far-away points need many more.")
TAYLOR_LATEX = (r"e^{-\gamma(x-z)^2} = e^{-\gamma x^2} e^{-\gamma z^2} \sum_{k=0}^{\infty} \frac{(2\gamma x z)^k}{k!}"
                r" = \sum_{k=0}^{\infty} \phi_k(x)\,\phi_k(z), \qquad "
                r"\phi_k(x) = e^{-\gamma x^2} \sqrt{\frac{(2\gamma)^k}{k!}}\, x^k")
CUBIC_TEXT = ("Fit $y \\approx \\theta^\\top\\phi(x)$ with $\\phi(x) = (1, x, x^2, x^3)$ "
              "by least squares. Starting from "
              "$\\theta = 0$, every step adds multiples of the $\\phi(x_i)$, so $\\theta = \\sum_j \\beta_j\\phi(x_j)$ "
              "throughout — and the step can be written for $\\beta$ alone, with $K$ in place of $\\phi$. x is living "
              "area (0 ↦ 2000 ft², ±1 ↦ ±1500 ft²), y the price in $100 000; the sidebar's seed draws the data.")
# the residual, the β update and the kernel braced: a narrow column breaks the formula between them, never inside one
CUBIC_LATEX = (r"\theta \leftarrow \theta + \eta \sum_{i=1}^n {\big(y_i - \theta^\top\phi(x_i)\big)}\,\phi(x_i)"
               r"\quad\Longleftrightarrow\quad {\beta \leftarrow \beta + \eta\,(y - K\beta)}, \qquad \allowbreak"
               r"{K(x, z) = 1 + xz + (xz)^2 + (xz)^3}")

page.header(
    "Feature maps and the kernel trick",
    "A linear model can draw curves if we first send every input $x$ through a **feature map** $\\phi$ and fit a "
    "line in the new coordinates. Every algorithm in this lab only ever needs inner products "
    "$\\phi(x)\\cdot\\phi(z)$ — and for good maps there is a shortcut, the **kernel** $K(x, z)$, that gives the same "
    "number straight from $x$ and $z$, without ever building $\\phi$.",
    r"\phi:\ \mathbb{R}^d \to \mathbb{R}^{\dim\phi}, \qquad K(x, z) = \langle \phi(x), \phi(z) \rangle "
    r"= \sum_k \phi_k(x)\,\phi_k(z)")
page.presets_row(PRESETS)


@page.fragment
def check_section():
    left, right = st.columns([1, 1.35], gap="large")
    with left:
        name = widgets.selectbox("Feature map φ", "fm_map", format_func=widgets.map_label)
        x, z = point_inputs(name, widgets.segmented("Points", "fm_source", format_func=POINT_SOURCES.get))
    fm = FEATURE_MAPS[name]
    try:
        c = kernel_check(name, x, z)
    except ValueError as exc:
        page.show_error(exc)
        return
    with right:
        st.latex(fm.label_latex + r", \qquad " + fm.kernel_latex)
        page.table({"φₖ": list(fm.feature_labels), "φₖ(x)": c.phi_x, "φₖ(z)": c.phi_z, "φₖ(x)·φₖ(z)": c.terms},
                   key="fm_table")
        st.markdown(f"φ(x)·φ(z), the sum of the {fm.output_dim} products: `{c.dot:.17g}`  \n"
                    f"K(x, z), the kernel formula on x and z: `{c.K:.17g}`  \n"
                    f"difference φ(x)·φ(z) − K(x, z): `{c.diff:.3e}`")
    st.caption(f"Source: {fm.source}. The two routes agree up to floating-point round-off (about 1e-16 "
               "of the value); the √2 in a map is what makes its cross term count twice, as (x·z)² does.")
    page.code("fm_map_code", "The code of this φ and of its kernel", map_source(name))
    page.reproduce("fm_check_reproduce", "the kernel check", reproduce.feature_check, name, x, z)


@page.fragment
def cost_section():
    left, right = st.columns([1, 2], gap="large")
    with left:
        d = widgets.slider("d (input dimension)", "fm_d")
        p = widgets.slider("p (polynomial degree)", "fm_p")
        c, k = costs(d), p - 1
        page.table({"per K(x, z)": ["multiplications", "additions", "total"],
                    "explicit": [c.explicit_mults[k], c.explicit_adds[k], c.explicit_total[k]],
                    "kernel": [c.kernel_mults[k], c.kernel_adds[k], c.kernel_total[k]]}, key="fm_cost_table")
        page.metrics({"dim φ = C(d+p, p)": f"{c.feature_dim[k]:,}",
                      "explicit / kernel": f"{c.explicit_total[k] / c.kernel_total[k]:,.1f}×"})
    with right:
        setup, _, _ = page.run(COST)
        page.chart(COST.figures(setup, None, None)["fm_cost"], key="fm_cost")
    page.reproduce("fm_cost_reproduce", "the costs", reproduce.costs, d, p)


@page.fragment
def taylor_section():
    a, b, c = st.columns(3)
    with a:
        m = widgets.slider("m (number of Taylor terms kept)", "fm_m")
    with b:
        gamma = widgets.log_slider("γ (kernel width; larger = narrower)", "fm_gamma")
        st.caption(widgets.sigma_text("taylor", gamma))
    with c:
        z = widgets.slider("z (the fixed second point)", "fm_z", step=0.25)
    t = taylor(gamma, z, m)
    setup, _, _ = page.run(TAYLOR)
    charts = TAYLOR.figures(setup, None, None)
    left, right = st.columns(2, gap="medium")
    with left:
        page.chart(charts["fm_taylor"], key="fm_taylor")
    with right:
        page.chart(charts["fm_taylor_error"], key="fm_taylor_error")
    page.metrics({f"max error over x ∈ [{TAYLOR_X[0]:g}, {TAYLOR_X[-1]:g}] with m = {m}": f"{t.error:.3e}"})
    page.code("fm_taylor_code", "The code of the truncated Taylor features", TAYLOR_SOURCE)
    page.reproduce("fm_taylor_reproduce", "the Taylor map", reproduce.taylor,
                   gamma, z, m, TAYLOR_X[0], TAYLOR_X[-1], TAYLOR_X.size)


@page.fragment
def cubic_section():
    ratio, T, stochastic = widgets.descent_controls("fm")
    x, y = data.house_prices()
    try:
        r = cubic_fit(x, y, ratio, T, stochastic, int(st.session_state["seed"]))
    except ValueError as exc:
        page.show_error(exc)
        return
    page.warnings(r.warnings)
    left, right = st.columns([1.3, 1], gap="medium")
    with left:
        page.chart(fits_fig(x[:, 0], y, r.grid, r.f_theta, r.f_beta, theta_name="θᵀφ(x) (GD on θ)",
                            beta_name="Σⱼ βⱼ K(xⱼ, x) (GD on β)", xtitle="x (scaled living area)",
                            ytitle="y (price, $100k)"), key="fm_cubic")
    with right:
        page.chart(loss_fig(r.t, {"loss of θ": (r.loss_theta, None), "loss of β": (r.loss_beta, "dash")},
                            ytitle="½ Σᵢ (yᵢ − f(xᵢ))² (log scale)"), key="fm_cubic_loss")
    page.metrics({"max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot": f"{r.max_diff:.3e}", "η used": f"{r.eta:.4g}",
                  "loss after T steps": f"{r.loss_theta[-1]:.6g}"}, help={"η used": f"η_max = {r.eta_max:.6g}"})
    theta = ", ".join(f"θ{'₀₁₂₃'[k]} = {v:.6g}" for k, v in enumerate(r.theta))
    page.code("fm_cubic_numbers", "The numbers: θ, β and the code of the β update", KLMS_SOURCE,
              text=f"θ after T steps: {theta}", columns={"j": np.arange(y.size), "xⱼ": x[:, 0], "yⱼ": y, "βⱼ": r.beta},
              height=240, table_key="fm_beta_table")
    page.reproduce("fm_cubic_reproduce", "the cubic fit", reproduce.cubic_fit,
                   x, y, ratio, T, stochastic, int(st.session_state["seed"]))


with page.section("1 · Check K(x, z) = φ(x)·φ(z) on two points", key="check"):
    check_section()
with page.section("2 · What the trick saves: explicit features versus the kernel", COST_TEXT, key="cost", divider=True):
    cost_section()
with page.section("3 · The Gaussian kernel is an infinite feature map", TAYLOR_TEXT, TAYLOR_LATEX, key="taylor",
                  examples=PRESETS, divider=True):
    taylor_section()
with page.section("4 · Cubic house prices: gradient descent on θ, and the same run on β", CUBIC_TEXT, CUBIC_LATEX,
                  key="cubic", examples=PRESETS, divider=True):
    cubic_section()
