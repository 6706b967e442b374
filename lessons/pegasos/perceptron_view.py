"""Lesson 4's kernel perceptron beside Pegasos: its decision plot, its mistake counts and whether it converged (and
why not)."""

import streamlit as st

from lab import page


# the section's fixed prose (lab/page.py's section)
PERCEPTRON_TEXT = (
    "The perceptron sweeps the points in order and, whenever $y_t \\sum_i \\alpha_i y_i K(x_i, x_t) \\le 0$, "
    "adds one to $\\alpha_t$: here $\\alpha_i \\in \\{0, 1, \\dots\\}$ counts **mistakes** and the label is "
    "outside, $f(x) = \\sum_i \\alpha_i y_i K(x_i, x)$, with no offset and no margin.")


def perceptron_section(perceptron, drawn):
    left, right = st.columns([1.2, 1], gap="medium")
    with left:
        st.markdown("**The perceptron's f(x); rings grow with the mistake count αᵢ**; ▶ Play: epoch by epoch")
        page.boundary_chart(drawn["pg_perceptron"], key="pg_perceptron",
                            name="Kernel perceptron: f(x) over the plane")
    with right:
        epochs = "1 epoch" if perceptron.n_epochs == 1 else f"{perceptron.n_epochs} epochs"
        if perceptron.converged:
            st.success(f"Converged: epoch {perceptron.n_epochs} made no mistake, so every training point is "
                       "classified correctly with this kernel.", icon=":material/check_circle:")
        elif perceptron.fails_mercer:
            st.warning(f"Did not converge in {epochs}, and the data is not to blame: this kernel is not positive "
                       "semi-definite on these points (lesson 5 shows its negative eigenvalues), so no feature space "
                       "makes f a plane and the perceptron's convergence theorem does not apply. Change the kernel, "
                       "not the epochs: linear, polynomial with r ≥ 0 and RBF are always valid.",
                       icon=":material/warning:")
        else:
            st.warning(f"Did not converge in {epochs}: the data is not separable through "
                       "the origin with this kernel (or it needs more epochs). A more local kernel (RBF with a "
                       "larger γ) separates more, and more epochs give it more passes.", icon=":material/warning:")
        page.metrics({"total mistakes Σ αᵢ": perceptron.n_mistakes, "training error": f"{perceptron.train_error:.1%}"})
        page.chart(drawn["pg_mistakes"], key="pg_mistakes")
