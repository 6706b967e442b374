"""Lesson 1: feature maps and the kernel trick — K(x, z) = φ(x)·φ(z), what it saves, the Gaussian's
infinite map, and the cubic house-price fit run on θ and on β."""

import numpy as np
import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lessons import common
from lessons.compute_feature_maps import (
    KLMS_SOURCE,
    M_MAX,
    P_MAX,
    TAYLOR_SOURCE,
    TAYLOR_X,
    cost_fig,
    costs,
    cubic_fit,
    fits_fig,
    kernel_check,
    loss_fig,
    map_source,
    taylor,
    taylor_error_fig,
    taylor_fig,
)

MAP_DEFAULT = "poly2_homogeneous"
# the two points of the first check; not integers, so the round-off of the two routes shows
X_DEFAULT, Z_DEFAULT = (0.7, -1.3), (1.1, 0.4)
POINT_SOURCES = {"typed": "type x and z", "data": "two of the current data points"}
INDEX_MAX = common.N_MAX + common.MAX_USER_POINTS
D_MAX, D_DEFAULT = 50, 2
P_DEFAULT = 3
M_DEFAULT = 4
Z_MIN, Z_MAX, Z_TAYLOR_DEFAULT = -2.0, 2.0, 1.0


def map_label(name):
    return "φ(x) = (" + ", ".join(FEATURE_MAPS[name].feature_labels) + ")"


# ---------------------------------------------------------------- page

def intro():
    st.title("Feature maps and the kernel trick")
    st.markdown(
        "A linear model can draw curves if we first send every input $x$ through a **feature map** "
        "$\\phi$ and fit a line in the new coordinates. Every algorithm in this lab only ever needs inner "
        "products $\\phi(x)\\cdot\\phi(z)$ — and for good maps there is a shortcut, the **kernel** $K(x, z)$, "
        "that gives the same number straight from $x$ and $z$, without ever building $\\phi$."
    )
    st.latex(r"\phi:\ \mathbb{R}^d \to \mathbb{R}^{\dim\phi}, \qquad K(x, z) = \langle \phi(x), \phi(z) \rangle "
             r"= \sum_k \phi_k(x)\,\phi_k(z)")


def point_inputs(name, source):
    """x and z typed in, or picked by index from the current data (1-D maps: the house prices)."""
    dim = FEATURE_MAPS[name].input_dim
    if source == "data":
        data = common.training_data()[0] if dim == 2 else common.house_prices()[0]
        a, b = st.columns(2)
        i = a.number_input("i (x = point number i)", 0, INDEX_MAX, 0, key="fm_i", bind="query-params")
        j = b.number_input("j (z = point number j)", 0, INDEX_MAX, 1, key="fm_j", bind="query-params")
        i, j = int(i) % len(data), int(j) % len(data)
        st.caption(f"{len(data)} points ({'sidebar data' if dim == 2 else 'house prices'}); "
                   f"indices wrap around. x = point {i}, z = point {j}.")
        return tuple(data[i]), tuple(data[j])
    if dim == 1:
        a, b = st.columns(2)
        x = a.number_input("x", -10.0, 10.0, X_DEFAULT[0], 0.1, key="fm_x1", bind="query-params")
        z = b.number_input("z", -10.0, 10.0, Z_DEFAULT[0], 0.1, key="fm_z1", bind="query-params")
        return (x,), (z,)
    cols = st.columns(4)
    x1 = cols[0].number_input("x₁", -10.0, 10.0, X_DEFAULT[0], 0.1, key="fm_x1", bind="query-params")
    x2 = cols[1].number_input("x₂", -10.0, 10.0, X_DEFAULT[1], 0.1, key="fm_x2", bind="query-params")
    z1 = cols[2].number_input("z₁", -10.0, 10.0, Z_DEFAULT[0], 0.1, key="fm_z1", bind="query-params")
    z2 = cols[3].number_input("z₂", -10.0, 10.0, Z_DEFAULT[1], 0.1, key="fm_z2", bind="query-params")
    return (x1, x2), (z1, z2)


@st.fragment
def check_section():
    st.subheader("1 · Check K(x, z) = φ(x)·φ(z) on two points")
    left, right = st.columns([1, 1.35], gap="large")
    with left:
        name = st.selectbox("Feature map φ", list(FEATURE_MAPS), index=list(FEATURE_MAPS).index(MAP_DEFAULT),
                            format_func=map_label, key="fm_map", bind="query-params")
        source = st.segmented_control("Points", list(POINT_SOURCES), format_func=POINT_SOURCES.get,
                                      default="typed", key="fm_source", bind="query-params", required=True)
        x, z = point_inputs(name, source)
    fm = FEATURE_MAPS[name]
    try:
        r = kernel_check(name, tuple(map(float, x)), tuple(map(float, z)))
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    with right:
        st.latex(fm.label_latex + r", \qquad " + fm.kernel_latex)
        common.table({
            "φₖ": list(fm.feature_labels), "φₖ(x)": r["phi_x"], "φₖ(z)": r["phi_z"],
            "φₖ(x)·φₖ(z)": r["terms"],
        }, key="fm_table")
        st.markdown(
            f"φ(x)·φ(z), the sum of the {fm.output_dim} products: `{r['dot']:.17g}`  \n"
            f"K(x, z), the kernel formula on x and z: `{r['K']:.17g}`  \n"
            f"difference φ(x)·φ(z) − K(x, z): `{r['diff']:.3e}`"
        )
    st.caption(f"Source: {fm.source}. The two routes agree up to floating-point round-off (about 1e-16 "
               "of the value); the √2 in a map is what makes its cross term count twice, as (x·z)² does.")
    with st.expander("The code of this φ and of its kernel"):
        st.code(map_source(name), language="python")


@st.fragment
def cost_section():
    st.subheader("2 · What the trick saves: explicit features versus the kernel")
    st.markdown(
        "The map behind $(1 + x\\cdot z)^p$ lists every monomial of degree up to $p$ in $d$ variables: "
        "$\\binom{d+p}{p}$ features. Building $\\phi(x)$, $\\phi(z)$ and their inner product costs a few operations "
        "per feature; the kernel needs $x\\cdot z$ ($d$ products) and a power."
    )
    left, right = st.columns([1, 2], gap="large")
    with left:
        d = st.slider("d (input dimension)", 1, D_MAX, D_DEFAULT, key="fm_d", bind="query-params")
        p = st.slider("p (polynomial degree)", 1, P_MAX, P_DEFAULT, key="fm_p", bind="query-params")
        r = costs(d)
        k = p - 1
        common.table({
            "per K(x, z)": ["multiplications", "additions", "total"],
            "explicit": [r["explicit_mults"][k], r["explicit_adds"][k], r["explicit_total"][k]],
            "kernel": [r["kernel_mults"][k], r["kernel_adds"][k], r["kernel_total"][k]],
        }, key="fm_cost_table")
        a, b = st.columns(2)
        a.metric("dim φ = C(d+p, p)", f"{r['feature_dim'][k]:,}")
        b.metric("explicit / kernel", f"{r['explicit_total'][k] / r['kernel_total'][k]:,.1f}×")
    with right:
        common.chart(cost_fig(r["p"], r["feature_dim"], r["explicit_total"], r["kernel_total"], current=p,
                                    n_features=d), key="fm_cost")


@st.fragment
def taylor_section():
    st.subheader("3 · The Gaussian kernel is an infinite feature map")
    st.markdown(
        "Expanding $e^{2\\gamma xz}$ as a power series splits the 1-D Gaussian into a product of features, one "
        "per power of $x$. No finite list of features reproduces it, but the first $m$ already come close "
        "when $\\gamma x z$ is small; a narrow Gaussian (large $\\gamma$) or far-away points need many more."
    )
    st.latex(r"e^{-\gamma(x-z)^2} = e^{-\gamma x^2} e^{-\gamma z^2} \sum_{k=0}^{\infty} \frac{(2\gamma x z)^k}{k!}"
             r" = \sum_{k=0}^{\infty} \phi_k(x)\,\phi_k(z), \qquad "
             r"\phi_k(x) = e^{-\gamma x^2} \sqrt{\frac{(2\gamma)^k}{k!}}\, x^k")
    a, b, c = st.columns(3)
    m = a.slider("m (number of Taylor terms kept)", 1, M_MAX, M_DEFAULT, key="fm_m", bind="query-params")
    with b:
        gamma = common.log_slider("γ (kernel width; larger = narrower)", "fm_gamma", common.GAMMA_VALUES, 1.0)
    z = c.slider("z (the fixed second point)", Z_MIN, Z_MAX, Z_TAYLOR_DEFAULT, 0.25, key="fm_z",
                 bind="query-params")
    result = taylor(gamma, z, m)
    left, right = st.columns(2, gap="medium")
    with left:
        common.chart(taylor_fig(TAYLOR_X, result["exact"], result["approx"], z, m), key="fm_taylor")
    with right:
        common.chart(taylor_error_fig(result["m"], result["errors"], current=m), key="fm_taylor_error")
    st.metric(f"max error over x ∈ [{TAYLOR_X[0]:g}, {TAYLOR_X[-1]:g}] with m = {m}",
              f"{result['errors'][m - 1]:.3e}")
    with st.expander("The code of the truncated Taylor features"):
        st.code(TAYLOR_SOURCE, language="python")


@st.fragment
def cubic_section():
    st.subheader("4 · Cubic house prices: gradient descent on θ, and the same run on β")
    st.markdown(
        "Fit $y \\approx \\theta^\\top\\phi(x)$ with $\\phi(x) = (1, x, x^2, x^3)$ by least squares. Starting "
        "from $\\theta = 0$, every step adds multiples of the $\\phi(x_i)$, so $\\theta = \\sum_j \\beta_j\\phi(x_j)$ "
        "throughout — and the step can be written for $\\beta$ alone, with $K$ in place of $\\phi$. "
        "x is living area (0 ↦ 2000 ft², ±1 ↦ ±1500 ft²), y the price in $100 000; the sidebar's seed draws the data."
    )
    st.latex(r"\theta \leftarrow \theta + \eta \sum_{i=1}^n \big(y_i - \theta^\top\phi(x_i)\big)\,\phi(x_i)"
             r"\quad\Longleftrightarrow\quad \beta \leftarrow \beta + \eta\,(y - K\beta), \qquad "
             r"K(x, z) = 1 + xz + (xz)^2 + (xz)^3")
    ratio, T, stochastic = common.descent_controls("fm")
    x, y = common.house_prices()
    seed = int(st.session_state["seed"])
    try:
        r = cubic_fit(x, y, ratio, T, stochastic, seed)
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    common.unstable_step_warning(ratio, r["eta"], r["eta_max"])
    left, right = st.columns([1.3, 1], gap="medium")
    with left:
        common.chart(fits_fig(x[:, 0], y, r["grid"], r["f_theta"], r["f_beta"],
                                 theta_name="θᵀφ(x) (GD on θ)", beta_name="Σⱼ βⱼ K(xⱼ, x) (GD on β)",
                                 xtitle="x (scaled living area)", ytitle="y (price, $100k)"),
                        key="fm_cubic")
    with right:
        common.chart(loss_fig(r["t"], {"loss of θ": (r["loss_theta"], None),
                                          "loss of β": (r["loss_beta"], "dash")},
                                 ytitle="½ Σᵢ (yᵢ − f(xᵢ))² (log scale)"),
                        key="fm_cubic_loss")
    a, b, c = st.columns(3)
    a.metric("max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot", f"{r['max_diff']:.3e}")
    b.metric("η used", f"{r['eta']:.4g}", help=f"η_max = {r['eta_max']:.6g}")
    c.metric("loss after T steps", f"{r['loss_theta'][-1]:.6g}")
    with st.expander("The numbers: θ, β and the code of the β update"):
        st.markdown("θ after T steps (one number per feature): "
                    + ", ".join(f"θ{'₀₁₂₃'[k]} = {v:.6g}" for k, v in enumerate(r["theta"])))
        common.table({"j": np.arange(y.size), "xⱼ": x[:, 0], "yⱼ": y, "βⱼ": r["beta"]}, height=240,
                     key="fm_beta_table")
        st.code(KLMS_SOURCE, language="python")


def main():
    intro()
    check_section()
    st.divider()
    cost_section()
    st.divider()
    taylor_section()
    st.divider()
    cubic_section()


main()
