"""Lesson 3's validation heatmap: k-fold cross-validated accuracy over the C × γ grid of its sliders
(kernel_core.crossval.cv_grid), computed in the background process (lab/background.py) and memoized without the
current C and γ."""

import inspect

from figures.validation import cv_curves, cv_heatmap
from kernel_core import crossval
from lab import background
from lab.memo import memo
from lab.state import C_VALUES, GAMMA_VALUES

# k stratified folds, shuffled with the sidebar's seed, over the C and γ slider grids
CV_FOLDS = 5
CV_SOURCE = inspect.getsource(crossval.cv_grid)


def _cv_options(degree, coef0, offset, seed):
    """crossval.cv_grid's options for the lesson's grid: the sliders' C and γ values, CV_FOLDS folds."""
    return dict(Cs=C_VALUES, gammas=GAMMA_VALUES, k=CV_FOLDS, seed=seed, degree=degree, coef0=coef0,
                fit_intercept=offset)


@memo(max_entries=16)
def _cv_grid(X, y, kernel_name, degree, coef0, offset, seed):
    return crossval.cv_grid(X, y, kernel_name, **_cv_options(degree, coef0, offset, seed))


def validation_grid(X, y, kernel, offset, seed, *, owner=None):
    """k-fold cross-validated accuracy over the whole C × γ grid of the sliders (kernel_core.crossval.cv_grid),
    memoized by what it depends on: the data, the kernel without its γ, the offset and the folds' seed. The
    current C and γ are not part of the key, so moving either slider reuses the grid.

    owner: the asking session (lab/background.Owner). The grid is then computed in the background process
    (lab/background.py) unless it is remembered, and this returns None until it is there (background.Busy when
    too many grids already wait)."""
    args = (X, y, kernel.name, kernel.degree, kernel.coef0, offset, seed)
    if owner is None:
        return _cv_grid(*args)
    grid = _cv_grid.peek(*args)
    if grid is None:
        grid = background.result(_cv_grid.key(*args), owner, crossval.cv_grid, X, y, kernel.name,
                                 **_cv_options(kernel.degree, kernel.coef0, offset, seed))
        if grid is not None:
            grid = _cv_grid.remember(grid, *args)
    return grid


def remembered_grid(X, y, kernel, offset, seed):
    """The grid validation_grid gives, where it is already computed; else None (nothing is computed or queued)."""
    return _cv_grid.peek(X, y, kernel.name, kernel.degree, kernel.coef0, offset, seed)


@memo(max_entries=32)
def validation_figures(X, y, kernel, offset, seed, C):
    """(heatmap, curves) of the validation grid with the current (C, kernel.gamma) marked."""
    grid = validation_grid(X, y, kernel, offset, seed)
    return cv_heatmap(grid, C, kernel.gamma), cv_curves(grid, C, kernel.gamma)
