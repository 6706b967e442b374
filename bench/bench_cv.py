"""What lesson 3's validation heatmap costs: ms per heatmap over the C × γ slider grids (21 × 17 cells, 5 folds),
cold (every fit from α = 0) and warm (each fit along C from the previous C's α, kernel_core.crossval), per
dataset and kernel at the sidebar's defaults (n = 100, noise 0.1, seed 0), and a memo hit of the page's call.

    python bench/bench_cv.py [--repeats 3]

Prints wall and CPU ms (CPU: this process's, steadier on a busy machine) and the SMO steps of all fits.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
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
