"""Lesson 3's validation section (kernel mode): k-fold cross-validated accuracy over the C × γ slider grids as a
heatmap, a click on a cell sets both sliders, and the accuracies and support vectors along C and γ through the
current point. Computed only while its toggle (pd_cv, in the link) is on; the grid is memoized without C and γ."""

import contextlib

import numpy as np
import streamlit as st

from lab import background, page, widgets
from lessons.primal_dual.validation import CV_FOLDS, CV_SOURCE, validation_figures, validation_grid
from lab.state import C_VALUES, GAMMA_VALUES


def set_cell(row, column, state=None):
    """A click on the heatmap's cell (γ row, C column): both sliders move there (and leave the hard margin).
    state: the session state (a dict in tests)."""
    (st.session_state if state is None else state).update(pd_gamma=GAMMA_VALUES[row], pd_C=C_VALUES[column],
                                                          pd_hard=False)


SHOWN = "_cv_shown"  # in the session state: whether this run of the lesson showed the heatmap


@contextlib.contextmanager
def dropped_unless_shown():
    """Around a run of lesson 3's section: a run that does not show the heatmap (its toggle off, another space, three
    classes, an unsolved dual, an error) drops the fits it queued, if they are still queued: nobody is left to see
    them."""
    st.session_state[SHOWN] = False
    try:
        yield
    finally:
        if not st.session_state.get(SHOWN):
            background.drop(page.session_owner())


@st.fragment(run_every=background.POLL_S)
def _waiting(ready, message):
    """While the heatmap is computed in the background (lab/background.py): `message`, looked at again every
    POLL_S seconds; once ready() gives the grid (or raises: the page then shows why), the whole page reruns."""
    try:
        done = ready() is not None
    except ValueError:
        done = True
    if done:
        st.rerun(scope="app")
    with st.container(key=background.WAITING):
        st.info(message, icon=":material/hourglass_top:")


def validation_section(X, y, kernel, offset, C):
    if not widgets.toggle(f"validation heatmap: {CV_FOLDS}-fold cross-validated accuracy over C × γ", "pd_cv",
                          help="Fits the SVM on every cell of the C and γ sliders' grids, once per fold: computed "
                               "when you switch this on, then kept for everyone with the same data and kernel."):
        return
    st.session_state[SHOWN] = True
    seed = int(st.session_state["seed"])
    owner = page.session_owner()

    def grid_now():
        return validation_grid(X, y, kernel, offset, seed, owner=owner)

    try:
        grid = grid_now()
    except ValueError as exc:
        page.show_error(exc)
        return
    if grid is None:
        _waiting(grid_now, f"Fitting {len(C_VALUES) * len(GAMMA_VALUES) * CV_FOLDS:,} SVMs ({len(C_VALUES)} C × "
                           f"{len(GAMMA_VALUES)} γ × {CV_FOLDS} folds) for these data and this kernel. They run beside "
                           "the lab at a lower priority than everyone's moves, so the rest of the page stays live; the "
                           "heatmap appears here when they are done.")
        return
    heatmap, curves = validation_figures(X, y, kernel, offset, seed, C)
    best = np.unravel_index(np.nanargmax(grid.validation), grid.validation.shape) \
        if np.isfinite(grid.validation).any() else None
    blank = int(np.count_nonzero(np.isnan(grid.validation)))
    st.caption(f"Folds: {grid.k}, stratified, shuffled with seed {grid.seed} (the sidebar's seed); each cell is the "
               "mean over the folds of the accuracy on the fold left out. Click a cell to set C and γ."
               + (f" Best: {grid.validation[best]:.1%} at C = {grid.Cs[best[1]]:.3g}, γ = {grid.gammas[best[0]]:.3g}."
                  if best else "")
               + (f" {blank} blank cell(s): a fold's fit did not converge there." if blank else "")
               + ("" if np.isfinite(C) else " The hard margin (C = ∞) is not on the grid."))
    left, right = st.columns([1, 1])
    with left:
        page.cell_chart(heatmap, key="pd_cv_heatmap", shape=grid.validation.shape, on_cell=set_cell)
    with right:
        page.chart(curves, key="pd_cv_curves")
    st.caption(f"{grid.fits:,} fits (warm-started along C; the folds and γ values of each C solved side by side), "
               f"{grid.steps:,} SMO steps. Train: the accuracy on the folds trained on; # SV: support vectors, mean "
               "over the folds.")
    with st.expander("The cross-validation code"):
        st.code(CV_SOURCE, language="python")
