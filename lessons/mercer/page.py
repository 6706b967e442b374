"""Lesson 5: Mercer's theorem. Is K a kernel? The Gram matrix, its spectrum, the closure rules,
kernels that fail, and a box for the student's own formula."""

import numpy as np
import streamlit as st

from kernel_core.mercer import CLOSURE_RULES
from lab import data, page, widgets
from lessons.mercer import reproduce
from lessons.mercer.compute import (CERTIFICATE_TEXT, CHECK_PSD_SOURCE, MAX_POINTS, RULES_TEXT, analyze_kernel,
                                    analyze_rule, analyze_scaled, gram_points,
                                    rule_source)
from lessons.mercer.controls import closure_rule_controls
from lessons.mercer.formula_view import FORMULA_TAB, formula_tab, invalid_tab
from lessons.mercer.presets import PRESETS
from lessons.mercer.psd_view import check, verdict
from lessons.mercer.sections import GRAM

TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", FORMULA_TAB]


def gram_tab(Xs, ys, n_all):
    left, right = st.columns([1, 2], gap="large")
    with left:
        widgets.kernel_controls("mc")
    kernel, train, _ = page.run(GRAM)
    report = analyze_kernel(Xs, kernel)
    with right:
        verdict(report)
    charts = GRAM.figures(kernel, train, None)
    left, right = st.columns(2, gap="medium")
    with left:
        page.chart(charts["mc_gram"], key="mc_gram")
    with right:
        page.chart(charts["mc_spectrum"], key="mc_spectrum")
    if "mc_certificate" in charts:
        left, right = st.columns(2, gap="medium")
        with left:
            page.chart(charts["mc_certificate"], key="mc_certificate")
        right.markdown(CERTIFICATE_TEXT)
    subset = "" if n_all <= MAX_POINTS else f" (a fixed random {MAX_POINTS} of your {n_all})"
    st.caption(f"{Xs.shape[0]} points{subset}. Try the sigmoid kernel: tanh(γ x·z + r) fails for most γ and r. "
               "Every eigenvalue, largest first:")
    page.code("mc_gram_numbers", "The numbers: every eigenvalue, and the source of check_psd", CHECK_PSD_SOURCE,
              columns={"rank": np.arange(1, report.eigenvalues.size + 1),
                       "λ (largest first)": report.eigenvalues[::-1]},
              height=220)
    page.reproduce("mc_gram_reproduce", "the Gram matrix", reproduce.mercer_gram, Xs, ys, kernel)


def rules_tab(Xs, ys):
    st.markdown(RULES_TEXT)
    rule = closure_rule_controls()
    closure = CLOSURE_RULES[rule.name]
    st.markdown(f"**{closure.formula}** is a kernel because {closure.why}")
    try:
        report = analyze_rule(Xs, rule)
    except ValueError as exc:
        page.show_error(exc)
        if rule.name == "scale":
            scaled = f"({rule.c:g})·K₁"
            st.markdown(f"Why the rule refuses: every eigenvalue of {scaled} is {rule.c:g} times one of K₁'s, "
                        f"so the largest turns into the most negative. check_psd on {scaled}:")
            check(analyze_scaled(Xs, rule.k1, rule.c), Xs, ys, "mc_scaled", scaled)
        return
    check(report, Xs, ys, "mc_rule", closure.formula)
    page.code("mc_rule_code", "The source of this rule", rule_source(rule.name))
    page.reproduce("mc_rule_reproduce", "the closure rule", reproduce.mercer_rule, Xs, ys, rule)


page.header(
    "Mercer's theorem: is K a kernel?",
    "A function $K(x, z)$ is a kernel when some feature map gives $K(x, z) = \\phi(x)\\cdot\\phi(z)$. "
    "You rarely see $\\phi$, but you can test the consequence: for **every** finite set of points the "
    "Gram matrix is symmetric and positive semi-definite. One negative eigenvalue on one set of points is "
    "a proof that $K$ is not a kernel: its eigenvector $c$ would be a combination with negative squared length.",
    r"K \text{ valid} \iff K_{ij} = K(x_i, x_j) \text{ symmetric and } "
    r"c^\top K c = \Big\|\sum_i c_i\,\phi(x_i)\Big\|^2 \ge 0 \ \ \forall c,\ \forall x_1,\dots,x_m")
page.presets_row(PRESETS)


@page.fragment
def tab_section(body, *args):
    """One tab's controls, figures and numbers: a control in the tab reruns only this, not the sidebar."""
    try:
        body(*args)
    except ValueError as exc:
        page.stop(exc)


try:
    X, y = data.training_data()
except ValueError as exc:
    page.stop(exc)
Xs, ys = gram_points(X, y)
bodies = [(gram_tab, Xs, ys, X.shape[0]), (rules_tab, Xs, ys), (invalid_tab, Xs, ys), (formula_tab, X, y, Xs, ys)]
for tab, body in zip(st.tabs(TABS, key="mc_tab", bind="query-params"), bodies):
    with tab:
        # only the open tab runs (tabs bound to the URL are lazy)
        if tab.open:
            tab_section(*body)
