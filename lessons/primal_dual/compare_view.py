"""Lesson 3's comparison with scikit-learn's SVC (libsvm): its dual objective, b and support vectors beside the
lesson's, shown when the student asks for it."""

import numpy as np
import streamlit as st

from lab import page
from lab.reproduce import SKLEARN_HARD_C
from lessons.primal_dual.libsvm import libsvm


def libsvm_section(X, y, setup, d):
    if not setup.offset:
        st.info("scikit-learn's SVC always fits an offset b; switch 'with offset b' on to compare.")
        return
    sk = libsvm(X, y, setup)
    page.warnings(sk.warnings, "scikit-learn did not converge: ")
    page.table({"": ["dual objective", "b", "# support vectors", "max |α − α_sklearn|"],
                "Kernel Lab (SMO)": [f"{d.objective:.8f}", f"{d.b:.6f}", str(d.n_sv), ""],
                "scikit-learn (libsvm)": [f"{sk.objective:.8f}", f"{sk.b:.6f}", str(sk.n_sv),
                                          f"{np.abs(d.alpha - sk.alpha).max():.2e}"]})
    if setup.C == np.inf:
        st.caption(f"SVC has no C = ∞; it ran with C = {SKLEARN_HARD_C:g}.")
