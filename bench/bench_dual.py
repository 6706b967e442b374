"""The dual solver of one or more checkouts side by side: DualSVM.fit at the app's sizes and on long fits, and the
validation grid's costliest row, each checkout's kernel_core loaded into this one process and run in turn, the
order alternating from round to round (the machine's load then weighs on every version alike).

    python bench/bench_dual.py [OLD_CHECKOUT ...] [--rounds 15] [--heatmaps 3]

A checkout is a directory holding kernel_core/ (a git worktree at the old commit: git worktree add ../old <commit>);
this checkout is always the last column. Prints CPU ms (or s) per call, the median over the rounds, with one BLAS
thread as the app runs, the ratio of the last column to the first, and each version's SMO steps (for a grid, also
the folds left blank: a fit that did not converge). --heatmaps R adds lesson 3's validation heatmaps (bench_cv.py's
grids, warm-started) per data set and kernel, R rounds.
"""

import argparse
import importlib.util
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets  # noqa: E402
from bench_browser import machine_state, print_table_head  # noqa: E402

GRID_CS = [0.01, 0.1, 1.0, 10.0, 100.0, 1000.0]      # tests/core/test_crossval.py's C's
GRID_GAMMAS = [0.1, 1.0, 31.6, 100.0]                # one row of the grid each


def load(checkout, name):
    """checkout/kernel_core imported as the package `name`."""
    spec = importlib.util.spec_from_file_location(name, checkout / "kernel_core" / "__init__.py",
                                                  submodule_search_locations=[str(checkout / "kernel_core")])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def fits():
    """(label, data, DualSVM's arguments): the app's sizes, then long fits."""
    circles = datasets.DATASETS["circles"](100, noise=0.1, random_state=0)
    moons = datasets.DATASETS["moons"](200, noise=0.2, random_state=0)
    spirals = datasets.DATASETS["spirals"](300, noise=0.3, random_state=0)
    moons300 = datasets.DATASETS["moons"](300, noise=0.3, random_state=1)
    cases = []
    for data, name, kernel in ((circles, "circles n=100 RBF γ=1", dict(kernel="rbf", gamma=1.0)),
                               (moons, "moons n=200 poly d=3 γ=1", dict(kernel="poly", gamma=1.0, degree=3))):
        for C in (1.0, 100.0):
            for offset in (True, False):
                cases.append((f"{name}, C={C:g}, {'offset' if offset else 'no offset'}", data,
                              dict(C=C, fit_intercept=offset, tol=1e-9, **kernel)))
    for data, name in ((spirals, "spirals n=300"), (moons300, "moons n=300")):
        for offset in (True, False):
            cases.append((f"{name} RBF γ=1, C=1000, {'offset' if offset else 'no offset'}", data,
                          dict(kernel="rbf", gamma=1.0, C=1000.0, fit_intercept=offset, tol=1e-9)))
    return cases


def heatmap_rows(versions):
    """Lesson 3's heatmaps as bench_cv.py times them warm: C_VALUES × GAMMA_VALUES, CV_FOLDS folds, n = 100."""
    from lab.state import C_VALUES, GAMMA_VALUES
    from lessons.primal_dual.validation import CV_FOLDS

    rows = []
    for name in ("circles", "moons", "xor", "spirals"):
        X, y = datasets.DATASETS[name](100, noise=0.1, random_state=0)
        for kernel in ("rbf", "laplacian", "poly", "sigmoid"):
            rows.append((f"heatmap {name} {kernel}", [lambda m=m, X=X, y=y, kernel=kernel: m.crossval.cv_grid(
                X, y, kernel, Cs=C_VALUES, gammas=GAMMA_VALUES, k=CV_FOLDS) for m in versions]))
    return rows


def timed(call):
    start = time.process_time()
    result = call()
    return time.process_time() - start, result


def compare(rows, versions, rounds):
    """rows: (label, {version: call}); returns {label: ([seconds per version], [summary per version])}."""
    times = {label: [[] for _ in versions] for label, _ in rows}
    summary = {}
    for r in range(rounds):
        order = list(range(len(versions)))[::1 if r % 2 == 0 else -1]
        for label, calls in rows:
            for v in order:
                seconds, result = timed(calls[v])
                times[label][v].append(seconds)
                summary[label, v] = result
    return {label: ([statistics.median(t) for t in times[label]], [summary[label, v] for v in range(len(versions))])
            for label, _ in rows}


def grid_steps(grid):
    """A grid's SMO steps, and how many of its fold fits did not converge (left blank)."""
    blank = int(np.isnan(grid.fold_validation).sum())
    return f"{grid.steps}" + (f" ({blank} blank)" if blank else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("old", nargs="*", type=Path, help="checkouts to compare with this one")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--heatmaps", type=int, default=0)
    args = parser.parse_args()
    checkouts = [p.resolve() for p in args.old] + [ROOT]
    versions = [load(p, f"kernel_core_{i}") for i, p in enumerate(checkouts)]
    names = [p.name for p in checkouts]
    warnings.simplefilter("ignore")
    start = machine_state()
    with threadpool_limits(1):
        fit_rows = [(label, [lambda m=m, X=X, y=y, kw=kw: m.svm.DualSVM(**kw).fit(X, y) for m in versions])
                    for label, (X, y), kw in fits()]
        fit_results = compare(fit_rows, versions, args.rounds)
        X, y = datasets.DATASETS["moons"](90, noise=0.25, random_state=3)
        grid_rows = [(f"cv_grid moons n=90 poly d=3, 6 C's, γ={g:g}",
                      [lambda m=m, g=g: m.crossval.cv_grid(X, y, "poly", Cs=GRID_CS, gammas=[g], k=5, seed=11,
                                                           degree=3, coef0=1.0) for m in versions])
                     for g in GRID_GAMMAS]
        grid_results = compare(grid_rows, versions, max(3, args.rounds // 3))
        heatmap_results = compare(heatmap_rows(versions), versions, args.heatmaps) if args.heatmaps else {}
    width = 48
    head = f"{'':<{width}}" + "".join(f"{n[:11]:>12}" for n in names) + f"{'last/first':>11}   SMO steps"
    print_table_head(start, f"CPU time per call, median of {args.rounds} rounds (cv_grid: {max(3, args.rounds // 3)}, "
                     f"heatmaps: {args.heatmaps}), one BLAS thread", head)
    for results, unit, scale, steps in ((fit_results, "ms", 1e3, lambda m: f"{m.n_iter_}"),
                                        (grid_results, "s", 1, grid_steps), (heatmap_results, "s", 1, grid_steps)):
        for label, (seconds, last) in results.items():
            print(f"{label + ' (' + unit + ')':<{width}}" + "".join(f"{scale * s:>12.3g}" for s in seconds)
                  + f"{seconds[-1] / seconds[0]:>11.2f}   " + " / ".join(steps(r) for r in last), flush=True)


if __name__ == "__main__":
    main()
