"""Lesson 5's tabs where a student tries a kernel: well-known functions that are not kernels, and a box for their own
formula (kernel_core.formula parses it; nothing typed runs as Python), with an SVM on it when it passes."""

import streamlit as st

from kernel_core.formula import MAX_LENGTH
from kernel_core.mercer import INVALID_KERNELS
from lab import data, page, widgets
from lessons.mercer import reproduce
from lessons.mercer.compute import (EXAMPLES, FORMULA_HELP, NO_SVM_TEXT, PASSES_HERE_TEXT, analyze_formula,
                                    analyze_invalid, decision_figure, fit_formula_svm, spectrum_figure)
from lessons.mercer.psd_view import check, verdict

# the formula tab's name, opened by the buttons that fill the formula box
FORMULA_TAB = "Your formula"


def request_formula(expr):
    """Fill the formula box and open its tab (a button callback; the tabs sit outside the tab's fragment)."""
    st.session_state.update(mc_formula=expr, mc_tab=FORMULA_TAB)
    page.request_app_rerun()


def invalid_tab(Xs, ys):
    st.markdown("Some functions look like kernels and are not. Each fails Mercer's condition on a small set "
                "of points, and check_psd finds the set's certificate c.")
    name = widgets.selectbox("A function that is not a kernel", "mc_invalid")
    entry = INVALID_KERNELS[name]
    a, b = st.columns([3, 1], vertical_alignment="center")
    a.markdown(f"`K(x, z) = {entry.formula}` — {entry.why}")
    b.button("Try it in the formula box", on_click=request_formula, args=(entry.formula,), key="mc_try")
    report = analyze_invalid(Xs, name)
    check(report, Xs, ys, "mc_invalid", name, note=PASSES_HERE_TEXT if report.is_psd else None)
    page.reproduce("mc_invalid_reproduce", "the failing kernel", reproduce.mercer_invalid, Xs, ys, name, entry.formula)


def formula_controls():
    columns = st.columns(len(EXAMPLES) + 1, vertical_alignment="center")
    columns[0].markdown("**Examples:**")
    for column, (label, expr) in zip(columns[1:], EXAMPLES.items()):
        column.button(label, on_click=request_formula, args=(expr,), key=f"mc_example_{label}", width="stretch")
    expr = widgets.text_input(f"K(x, z) = (at most {MAX_LENGTH} characters)", "mc_formula", help=FORMULA_HELP)
    a, b, c = st.columns(3)
    with a:
        g = widgets.log_slider("g (a scale you can use)", "mc_g")
    with b:
        r = widgets.slider("r (an offset you can use)", "mc_r", step=0.25)
    with c:
        d = widgets.slider("d (a power you can use)", "mc_d")
    return expr, (("d", float(d)), ("g", g), ("r", r))


def formula_tab(X, y, Xs, ys):
    expr, params = formula_controls()
    try:
        report = analyze_formula(Xs, expr, params)
    except ValueError as exc:
        page.show_error(exc)
        return
    if not report.is_psd:
        check(report, Xs, ys, "mc_formula", f"`K(x, z) = {expr}`", note=NO_SVM_TEXT)
        return
    verdict(report, f"`K(x, z) = {expr}`")
    left, right = st.columns(2, gap="medium")
    with left:
        page.chart(spectrum_figure(report.eigenvalues, report.threshold), key="mc_formula_spectrum")
    with right:
        st.markdown("**An SVM with your kernel** (DualSVM on all the points, the parsed formula as its kernel)")
        C = widgets.log_slider("C (box constraint)", "mc_C")
        svm = fit_formula_svm(X, y, expr, params, C)
        page.warnings(svm.warnings)
        page.boundary_chart(decision_figure(svm.xs, svm.ys, svm.Z, X, y, free_sv=svm.free_sv,
                                            bounded_sv=svm.bounded_sv, own=data.own_points()), key="mc_svm")
        page.metrics({"support vectors": svm.n_sv, "training error": f"{svm.train_error:.1%}",
                      "b (intercept)": f"{svm.b:.6g}", "dual objective Σα − ½αᵀGα": f"{svm.objective:.6g}"})
    page.reproduce("mc_formula_reproduce", "your formula", reproduce.mercer_formula, X, y, Xs, ys, expr, params, C)
