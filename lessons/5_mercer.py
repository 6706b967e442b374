"""Lesson 5: Mercer's theorem. Is K a kernel? The Gram matrix, its spectrum, the closure rules,
kernels that fail, and a box for the student's own formula."""

import numpy as np
import streamlit as st

from kernel_core.formula import MAX_LENGTH
from kernel_core.mercer import CLOSURE_RULES, INVALID_KERNELS
from lessons import common
from lessons.compute_mercer import (
    BASE_KERNELS,
    CHECK_PSD_SOURCE,
    MAX_POINTS,
    WARPS,
    analyze_formula,
    analyze_invalid,
    analyze_kernel,
    analyze_rule,
    analyze_scaled,
    certificate_figure,
    decision_figure,
    fit_formula_svm,
    gram_heatmap,
    gram_points,
    rule_source,
    spectrum_figure,
)

TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", "Your formula"]
RULE_LABELS = {name: rule.formula for name, rule in CLOSURE_RULES.items()}
EXAMPLES = {
    "Gaussian": "exp(-g * norm(x - z)**2)",
    "polynomial": "(dot(x, z) + r)**d",
    "Laplacian-like": "exp(-g * norm(x - z))",
    "sigmoid": "tanh(g * dot(x, z) + r)",
    "−‖x − z‖²": "-norm(x - z)**2",
}
FORMULA_DEFAULT = EXAMPLES["Gaussian"]
CERTIFICATE_TEXT = (
    "**Reading the certificate.** c is the eigenvector of the smallest eigenvalue. If K were φ(x)·φ(z), "
    "then cᵀKc would be ‖Σᵢ cᵢ φ(xᵢ)‖², a squared length, never below 0. check_psd recomputes cᵀKc from K "
    "itself and finds it negative, so no feature map φ can produce this K: the big markers are the points "
    "that carry the contradiction."
)
R_VALUES = (-2.0, 2.0, 1.0, 0.25)  # min, max, default, step of the additive constant r


# ---------------------------------------------------------------- page

def intro():
    st.title("Mercer's theorem: is K a kernel?")
    st.markdown(
        "A function $K(x, z)$ is a kernel when some feature map gives $K(x, z) = \\phi(x)\\cdot\\phi(z)$. "
        "You rarely see $\\phi$, but you can test the consequence: for **every** finite set of points the "
        "Gram matrix is symmetric and positive semi-definite. One negative eigenvalue on one set of points is "
        "a proof that $K$ is not a kernel: its eigenvector $c$ would be a combination with negative squared length."
    )
    st.latex(r"K \text{ valid} \iff K_{ij} = K(x_i, x_j) \text{ symmetric and } "
             r"c^\top K c = \Big\|\sum_i c_i\,\phi(x_i)\Big\|^2 \ge 0 \ \ \forall c,\ \forall x_1,\dots,x_m")


def verdict(report, *, what="K"):
    """The PSD verdict with check_psd's reason and its numbers."""
    if report["is_psd"]:
        st.success(f"**{what} passes on these points.** {report['reason']}", icon=":material/check_circle:")
    else:
        st.warning(f"**{what} is not a kernel.** {report['reason']}", icon=":material/cancel:")
    with common.metric_row():
        st.metric("λ_min", f"{report['min_eigenvalue']:.6g}", width="content")
        st.metric("λ_max", f"{report['max_eigenvalue']:.6g}", width="content")
        st.metric("negative eigenvalues", report["n_negative"], width="content")
        st.metric("cᵀKc", "—" if report["quadratic_form"] is None else f"{report['quadratic_form']:.6g}",
                  help="c is the unit eigenvector of λ_min; shown only when it proves K is not PSD.", width="content")


def spectrum_and_certificate(report, Xs, ys, key):
    left, right = st.columns(2, gap="medium")
    with left:
        common.chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key=f"{key}_spectrum")
    with right:
        if report["certificate"] is not None:
            common.chart(certificate_figure(Xs, ys, report["certificate"], report["quadratic_form"]),
                            key=f"{key}_certificate")
        else:
            st.info("No certificate: no eigenvalue is below the rounding level, so no c with cᵀKc < 0 exists "
                    "for these points.", icon=":material/info:")


def gram_tab(Xs, ys, n_all):
    left, right = st.columns([1, 2], gap="large")
    with left:
        kernel = common.kernel_controls("mc")
    report = analyze_kernel(Xs, kernel["kernel"], kernel["gamma"], kernel["degree"], kernel["coef0"])
    with right:
        verdict(report)
    left, right = st.columns(2, gap="medium")
    with left:
        common.chart(gram_heatmap(report["K"], ys), key="mc_gram")
    with right:
        common.chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key="mc_spectrum")
    if report["certificate"] is not None:
        left, right = st.columns(2, gap="medium")
        common.chart(certificate_figure(Xs, ys, report["certificate"], report["quadratic_form"]),
                          key="mc_certificate", container=left)
        right.markdown(CERTIFICATE_TEXT)
    subset = "" if n_all <= MAX_POINTS else f" (a fixed random {MAX_POINTS} of your {n_all})"
    st.caption(f"{Xs.shape[0]} points{subset}. Try the sigmoid kernel: tanh(γ x·z + r) fails for most γ and r.")
    with st.expander("The numbers: every eigenvalue, and the source of check_psd"):
        common.table({"rank": np.arange(1, report["eigenvalues"].size + 1),
                      "λ (largest first)": report["eigenvalues"][::-1]}, height=220)
        st.code(CHECK_PSD_SOURCE, language="python")


def rule_controls():
    a, b = st.columns(2)
    rule = a.selectbox("Rule", list(CLOSURE_RULES), format_func=RULE_LABELS.get, key="mc_rule",
                       bind="query-params")
    k1 = b.selectbox("K₁ (a valid base kernel)", list(BASE_KERNELS), format_func=lambda k: BASE_KERNELS[k][0],
                     key="mc_k1", bind="query-params", index=2)
    params = {"rule": rule, "k1": k1, "k2": "linear", "c": 2.0, "coefs": (1.0, 1.0, 0.5), "warp": "bump"}
    if rule in ("sum", "product"):
        params["k2"] = b.selectbox("K₂ (a second valid kernel)", list(BASE_KERNELS),
                                   format_func=lambda k: BASE_KERNELS[k][0], key="mc_k2", bind="query-params")
    if rule == "scale":
        params["c"] = a.slider("c (the scale; the rule needs c > 0)", -3.0, 3.0, 2.0, 0.5, key="mc_c",
                               bind="query-params")
    if rule == "polynomial":
        cols = st.columns(3)
        params["coefs"] = tuple(
            cols[p].number_input(f"a{p} (coefficient of K^{p})", -3.0, 3.0, default, 0.5, key=f"mc_a{p}",
                                 bind="query-params")
            for p, default in enumerate((1.0, 1.0, 0.5)))
    if rule == "warp":
        params["warp"] = a.selectbox("f (any real function of x)", list(WARPS), format_func=lambda w: WARPS[w][0],
                                     key="mc_warp", bind="query-params")
    return params


def rules_tab(Xs, ys):
    st.markdown("Valid kernels combine into valid kernels. Each rule below comes with the feature map that "
                "proves it; build a kernel with one and check it on your points. The rules only ask for "
                "non-negative numbers, and the core refuses anything else with an error, as it must: see what "
                "a negative scale would do.")
    p = rule_controls()
    rule = CLOSURE_RULES[p["rule"]]
    st.markdown(f"**{rule.formula}** is a kernel because {rule.why}")
    try:
        report = analyze_rule(Xs, p["rule"], p["k1"], p["k2"], p["c"], p["coefs"], p["warp"])
    except ValueError as exc:
        common.show_error(exc, stop=False)
        if p["rule"] == "scale":
            report = analyze_scaled(Xs, p["k1"], p["c"])
            scaled = f"({p['c']:g})·K₁"
            st.markdown(f"Why the rule refuses: every eigenvalue of {scaled} is {p['c']:g} times one of K₁'s, "
                        f"so the largest turns into the most negative. check_psd on {scaled}:")
            verdict(report, what=scaled)
            spectrum_and_certificate(report, Xs, ys, "mc_scaled")
        return
    verdict(report, what=rule.formula)
    spectrum_and_certificate(report, Xs, ys, "mc_rule")
    with st.expander("The source of this rule"):
        st.code(rule_source(p["rule"]), language="python")


def request_formula(expr):
    """Fill the formula box and open its tab (a button callback)."""
    st.session_state["mc_formula"] = expr
    st.session_state["mc_tab"] = TABS[3]
    # the tabs sit outside the tab's fragment: hand over to a rerun of the whole app, which opens the new tab
    st.session_state["mc_rerun_app"] = True


def invalid_tab(Xs, ys):
    st.markdown("Some functions look like kernels and are not. Each fails Mercer's condition on a small set "
                "of points, and check_psd finds the set's certificate c.")
    name = st.selectbox("A function that is not a kernel", list(INVALID_KERNELS), key="mc_invalid",
                        bind="query-params")
    entry = INVALID_KERNELS[name]
    a, b = st.columns([3, 1], vertical_alignment="center")
    a.markdown(f"`K(x, z) = {entry.formula}` — {entry.why}")
    b.button("Try it in the formula box", on_click=request_formula, args=(entry.formula,), key="mc_try")
    report = analyze_invalid(Xs, name)
    verdict(report, what=name)
    if report["is_psd"]:
        st.info("On these points it happens to pass; Mercer's condition asks for every set of points. "
                "Change the dataset, n or the seed in the sidebar.", icon=":material/info:")
    spectrum_and_certificate(report, Xs, ys, "mc_invalid")


def formula_controls():
    cols = st.columns(len(EXAMPLES) + 1, vertical_alignment="center")
    cols[0].markdown("**Examples:**")
    for col, (label, expr) in zip(cols[1:], EXAMPLES.items()):
        col.button(label, on_click=request_formula, args=(expr,), key=f"mc_example_{label}", width="stretch")
    # once the box has a value (typed, from the URL or set by a button) the session state holds it;
    # passing a default as well would make Streamlit warn about two sources
    default = None if "mc_formula" in st.session_state else FORMULA_DEFAULT
    expr = st.text_input(
        f"K(x, z) = (at most {MAX_LENGTH} characters)", default, max_chars=MAX_LENGTH, key="mc_formula",
        bind="query-params",
        help="Use x, z, numbers, the parameters g, r, d, + − * / ** and dot, norm, exp, tanh, sqrt, abs. "
             "Nothing you type is run as Python: the formula is parsed and only these pieces are allowed.")
    a, b, c = st.columns(3)
    with a:
        g = common.log_slider("g (a scale you can use)", "mc_g", common.GAMMA_VALUES, 1.0)
    r = b.slider("r (an offset you can use)", *R_VALUES, key="mc_r", bind="query-params")
    d = c.slider("d (a power you can use)", 1, 10, 2, key="mc_d", bind="query-params")
    return expr, (("d", float(d)), ("g", g), ("r", r))


def formula_tab(X, y, Xs, ys):
    expr, params = formula_controls()
    try:
        report = analyze_formula(Xs, expr, params)
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    verdict(report, what=f"`K(x, z) = {expr}`")
    if not report["is_psd"]:
        spectrum_and_certificate(report, Xs, ys, "mc_formula")
        st.info("No SVM for this formula: with a Gram matrix that is not PSD the dual is not a concave problem, "
                "so its maximum may not exist and SMO's answer would mean nothing.", icon=":material/info:")
        return
    left, right = st.columns(2, gap="medium")
    with left:
        common.chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key="mc_formula_spectrum")
    with right:
        st.markdown("**An SVM with your kernel** (DualSVM on all the points, the parsed formula as its kernel)")
        C = common.log_slider("C (box constraint)", "mc_C", common.C_VALUES, 1.0)
        try:
            svm = fit_formula_svm(X, y, expr, params, C)
        except ValueError as exc:
            common.show_error(exc, stop=False)
            return
        for message in svm["warnings"]:
            st.warning(message, icon=":material/warning:")
        fig = decision_figure(svm["xs"], svm["ys"], svm["Z"], X, y, free_sv=svm["free_sv"],
                              bounded_sv=svm["bounded_sv"])
        common.boundary_chart(fig, key="mc_svm")
        a, b = st.columns(2)
        a.metric("support vectors", svm["n_support"])
        b.metric("training error", f"{svm['train_error']:.1%}")
        a.metric("b (intercept)", f"{svm['intercept']:.6g}")
        b.metric("dual objective Σα − ½αᵀGα", f"{svm['dual_objective']:.6g}")


@st.fragment
def tab_section(body, *args):
    """One tab's controls, figures and numbers: a control in the tab reruns only this, not the sidebar."""
    if st.session_state.pop("mc_rerun_app", False):
        st.rerun(scope="app")
    try:
        body(*args)
    except ValueError as exc:
        common.show_error(exc)


def main():
    intro()
    X, y = common.training_data()
    Xs, ys = gram_points(X, y)
    tabs = st.tabs(TABS, key="mc_tab", bind="query-params")
    bodies = [(gram_tab, Xs, ys, X.shape[0]), (rules_tab, Xs, ys), (invalid_tab, Xs, ys),
              (formula_tab, X, y, Xs, ys)]
    for tab, body in zip(tabs, bodies):
        with tab:
            # only the open tab runs (tabs bound to the URL are lazy)
            if tab.open:
                tab_section(*body)


main()
