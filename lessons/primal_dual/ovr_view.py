"""Lesson 3 (kernel mode) on more than two classes, or on labels other than ±1: one-vs-rest, one binary SVM per
class with its own ±1 labels (class c against the rest), combined by the largest decision value."""

import numpy as np
import streamlit as st

from figures.boundary import CLASS_LABELS
from lab import page
from lessons.primal_dual.one_vs_rest import one_vs_rest
from lessons.primal_dual.sections import DUAL


def ovr_section(train, setting):
    """train: lab.section.Training with every class; setting: the section's (lessons/primal_dual/sections.py)."""
    X, y, test, setup = train.X, train.y, train.test, setting.solve
    st.info(f"These points have {np.unique(y).size} classes, so one SVM cannot separate them: **one-vs-rest** fits one "
            "binary SVM per class c (yᵢ = +1 for class c, −1 for every other class: the same dual as above) and "
            "predicts the class whose SVM gives the largest decision value, argmax_c f_c(x). The primal/dual "
            "comparison, the α's and the validation heatmap are for two classes (y = ±1).", icon=":material/info:")
    try:
        r = one_vs_rest(X, y, test, setup.kernel, setup.C, setup.offset)
    except ValueError as exc:
        page.stop(exc)
    page.warnings(r.warnings)
    if not all(r.converged):
        st.error("An SVM of the one-vs-rest stopped short of its tolerance; its boundary is not the optimum. "
                 "A smaller C or γ makes the problem easier.", icon=":material/error:")
    names = [CLASS_LABELS.get(int(c), f"y = {c:g}") for c in r.classes]
    for c in r.unseen:
        unseen_class(r, c, names[list(r.classes).index(c)])
    page.metrics({"classes": str(len(r.classes)),
                  "train / test accuracy": f"{r.accuracy:.0%} / " + (f"{r.test_accuracy:.0%}"
                                                                     if r.test_accuracy is not None else "—"),
                  **{f"SVs of {n} vs rest": str(k) for n, k in zip(names, r.n_sv)}})
    st.markdown("**One-vs-rest**: each SVM's boundary f_c = 0 (dashed, in its class's colour); the field is the "
                "combined decision argmax_c f_c(x)")
    page.boundary_chart(DUAL.figures(setting, train, None)["pd_ovr"], key="pd_ovr", section=DUAL)


def unseen_class(r, c, name):
    """Say why class c has no region on the plot (r: a OneVsRestResult) and what gives it one."""
    i = list(r.classes).index(c)
    why = (f"its SVM ({name} against the rest) is negative everywhere on the plot, so its line f = 0 never appears "
           "and every point goes to another class" if r.negative_everywhere(c) else
           f"wherever its SVM ({name} against the rest) is positive, another class's SVM is larger")
    st.warning(f"Class {name} has no region on the plot: {why}. {r.n_right[i]} of its {r.n_points[i]} points "
               f"{'is' if r.n_right[i] == 1 else 'are'} classified as {name}. Too few points of a class against "
               "many others are outweighed: add more points of it, or let its SVM bend around them with a larger γ "
               "(a more local kernel) or a larger C (less slack).", icon=":material/visibility_off:")
