"""What lesson 3's validation heatmap costs: ms per heatmap over the C × γ slider grids (21 × 17 cells, 5 folds),
cold (every fit from α = 0) and warm (each fit along C from the previous C's α, kernel_core.crossval), per
dataset and kernel at the sidebar's defaults (n = 100, noise 0.1, seed 0), and a memo hit of the page's call.

    python bench/bench_cv.py [--repeats 3]
    python bench/bench_cv.py --sklearn 500 [--repeats 3] [--data circles] [--kernel rbf]

Prints wall and CPU ms (CPU: this process's, steadier on a busy machine) and the SMO steps of all fits.
--sklearn N compares instead one heatmap at n = N (noise 0.1, seed 0) with scikit-learn's GridSearchCV over the same
grid and the same folds (SVC at its default tol 1e-3, one job, no refit): CPU time of one BLAS thread each, the
median of interleaved repeats, their ratio (budget 0.5), and the cells whose mean validation accuracy differs.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import datasets  # noqa: E402
from kernel_core.crossval import cv_grid  # noqa: E402
from kernel_core.kernels import KernelSpec  # noqa: E402
from lessons.primal_dual.validation import CV_FOLDS, validation_grid  # noqa: E402
from lab.state import C_VALUES, GAMMA_VALUES  # noqa: E402


def timed(fn, repeats):
    """(median wall ms, median CPU ms of this process, the last result): on a busy machine the CPU time is the
    steadier number, the wall time what a student waits."""
    wall, cpu = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        wall.append(1e3 * (time.perf_counter() - t))
        cpu.append(1e3 * (time.process_time() - c))
    return statistics.median(wall), statistics.median(cpu), result


def against_sklearn(n, data, kernel, repeats):
    """One heatmap of ours against GridSearchCV over the same C × γ grid and folds, interleaved."""
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    from threadpoolctl import threadpool_limits

    from kernel_core.crossval import fold_indices

    X, y = datasets.DATASETS[data](n, noise=0.1, random_state=0)
    folds = fold_indices(y, CV_FOLDS, 0)
    calls = {"ours": lambda: cv_grid(X, y, kernel, Cs=C_VALUES, gammas=GAMMA_VALUES, k=CV_FOLDS, seed=0),
             "sklearn": lambda: GridSearchCV(SVC(kernel=kernel, coef0=1.0), {"C": list(C_VALUES),
                                                                               "gamma": list(GAMMA_VALUES)},
                                             cv=[(tr, va) for tr, va in folds], n_jobs=1, refit=False).fit(X, y)}
    cpu, result = {name: [] for name in calls}, {}
    with threadpool_limits(1):
        for r in range(repeats):
            for name in (("ours", "sklearn") if r % 2 == 0 else ("sklearn", "ours")):
                start = time.process_time()
                result[name] = calls[name]()
                cpu[name].append(time.process_time() - start)
    ours, search = result["ours"], result["sklearn"]
    theirs = np.full(ours.validation.shape, np.nan)
    for params, score in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"]):
        theirs[list(GAMMA_VALUES).index(params["gamma"]), list(C_VALUES).index(params["C"])] = score
    differ = np.abs(ours.validation - theirs) > 1e-9
    t_ours, t_sk = statistics.median(cpu["ours"]), statistics.median(cpu["sklearn"])
    print(f"{data} n={n} {kernel}: {len(C_VALUES)} C × {len(GAMMA_VALUES)} γ × {CV_FOLDS} folds, CPU s (median of "
          f"{repeats}): ours {t_ours:.2f}, GridSearchCV {t_sk:.2f}, ratio {t_ours / t_sk:.2f} (budget 0.5); "
          f"cells that differ: {int(differ.sum())} of {differ.size} (blank, not converged: "
          f"{int(np.isnan(ours.validation).sum())}), largest difference "
          f"{np.nanmax(np.abs(ours.validation - theirs)):.3f}; SMO steps {ours.steps:,}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sklearn", type=int, metavar="N", help="one heatmap at n = N against GridSearchCV")
    parser.add_argument("--data", default="circles")
    parser.add_argument("--kernel", default="rbf")
    args = parser.parse_args()
    if args.sklearn:
        against_sklearn(args.sklearn, args.data, args.kernel, args.repeats)
        return
    print(f"{len(C_VALUES)} C × {len(GAMMA_VALUES)} γ × {CV_FOLDS} folds = "
          f"{len(C_VALUES) * len(GAMMA_VALUES) * CV_FOLDS} fits per heatmap")
    print(f"{'dataset':<10}{'kernel':<9}{'cold ms':>9}{'warm ms':>9}{'cold cpu':>9}{'warm cpu':>9}{'cold steps':>12}"
          f"{'warm steps':>12}")
    for name in ("circles", "moons", "xor", "spirals"):
        X, y = datasets.DATASETS[name](100, noise=0.1, random_state=0)
        for kernel in ("rbf", "laplacian", "poly", "sigmoid"):
            run = {warm: timed(lambda w=warm: cv_grid(X, y, kernel, Cs=C_VALUES, gammas=GAMMA_VALUES, k=CV_FOLDS,
                                                       warm_start=w), args.repeats) for warm in (False, True)}
            print(f"{name:<10}{kernel:<9}{run[False][0]:>9.0f}{run[True][0]:>9.0f}{run[False][1]:>9.0f}"
                  f"{run[True][1]:>9.0f}{run[False][2].steps:>12,}{run[True][2].steps:>12,}", flush=True)
    X, y = datasets.DATASETS["circles"](100, noise=0.1, random_state=0)
    validation_grid(X, y, KernelSpec("rbf", 1.0), True, 0)
    hit, _, _ = timed(lambda: validation_grid(X, y, KernelSpec("rbf", 3.16), True, 0), 100)
    print(f"page's call, a memo hit after a γ move: {hit:.3f} ms")


if __name__ == "__main__":
    main()
