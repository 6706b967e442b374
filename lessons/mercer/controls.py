"""Lesson 5's closure-rule controls: the rule, K₁, and what else the chosen rule takes."""

import streamlit as st

from kernel_core.mercer import CLOSURE_RULES
from lab import widgets
from lessons.mercer.compute import BASE_LABELS, WARPS, Rule

RULE_LABELS = {name: rule.formula for name, rule in CLOSURE_RULES.items()}


def closure_rule_controls():
    """Lesson 5's closure rule, K₁, and what else the chosen rule takes, as a compute_mercer.Rule."""
    a, b = st.columns(2)
    with a:
        name = widgets.selectbox("Rule", "mc_rule", format_func=RULE_LABELS.get)
    with b:
        k1 = widgets.selectbox("K₁ (a valid base kernel)", "mc_k1", format_func=BASE_LABELS.get)
        if name in ("sum", "product"):
            return Rule(name, k1, k2=widgets.selectbox("K₂ (a second valid kernel)", "mc_k2",
                                                       format_func=BASE_LABELS.get))
    with a:
        if name == "scale":
            return Rule(name, k1, c=widgets.slider("c (the scale; the rule needs c > 0)", "mc_c", step=0.5))
        if name == "warp":
            return Rule(name, k1, warp=widgets.selectbox("f (any real function of x)", "mc_warp",
                                                 format_func=lambda w: WARPS[w][0]))
    if name == "polynomial":
        columns = st.columns(3)
        coefs = []
        for p, column in enumerate(columns):
            with column:
                coefs.append(widgets.number_input(f"a{p} (coefficient of K^{p})", f"mc_a{p}", step=0.5))
        return Rule(name, k1, coefs=tuple(coefs))
    return Rule(name, k1)
