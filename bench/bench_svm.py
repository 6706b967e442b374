"""Fit + decision function on a 200 × 200 grid: DualSVM against scikit-learn's SVC, side by side.

make_circles(n, noise=0.1, factor=0.5, random_state=0), RBF gamma=2, C=1, tol=1e-3, n = 300 and 1000.
Each repeat times ours and sklearn's job back to back (alternating which goes first), so the noise
of a shared machine hits both; the medians are compared. Budget: ours <= 0.5 × sklearn at both sizes.
Also checks that the two agree: the fraction of grid points with the same predicted class, and the
relative gap between the dual objectives. Exits 1 when the budget or the agreement fails.

    python bench/bench_svm.py [--repeats 15]
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import make_circles
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.svm import SVC

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kernel_core.svm import DualSVM  # noqa: E402

BUDGET = 0.5
GAMMA, C, TOL, GRID, PAD = 2.0, 1.0, 1e-3, 200, 0.1


def grid_points(X):
    lo, hi = X.min(axis=0), X.max(axis=0)
    lo, hi = lo - PAD * (hi - lo), hi + PAD * (hi - lo)
    xx, yy = np.meshgrid(np.linspace(lo[0], hi[0], GRID), np.linspace(lo[1], hi[1], GRID))
    return np.column_stack([xx.ravel(), yy.ravel()])


def ours(X, y, P):
    model = DualSVM("rbf", C=C, gamma=GAMMA, tol=TOL).fit(X, y)
    return model, model.decision_function(P)


def sklearn(X, y, P):
    model = SVC(kernel="rbf", C=C, gamma=GAMMA, tol=TOL).fit(X, y)
    return model, model.decision_function(P)


def timed(job, *args):
    start = time.perf_counter()
    out = job(*args)
    return time.perf_counter() - start, out


def bench(n, repeats):
    X, y01 = make_circles(n, noise=0.1, factor=0.5, random_state=0)
    y = 2.0 * y01 - 1.0
    P = grid_points(X)
    times = {"ours": [], "sklearn": []}
    for r in range(repeats):
        jobs = [("ours", ours), ("sklearn", sklearn)]
        for name, job in jobs if r % 2 == 0 else jobs[::-1]:
            seconds, out = timed(job, X, y, P)
            times[name].append(seconds)
            if name == "ours":
                model, f_ours = out
            else:
                sk, f_sk = out
    alpha_sk = np.zeros(n)
    alpha_sk[sk.support_] = np.abs(sk.dual_coef_[0])
    ay = alpha_sk * y
    dual_sk = alpha_sk.sum() - 0.5 * ay @ rbf_kernel(X, gamma=GAMMA) @ ay
    agree = float(np.mean((f_ours >= 0) == (f_sk >= 0)))
    dual_gap = abs(model.dual_objective_ - dual_sk) / abs(dual_sk)
    t_ours, t_sk = np.median(times["ours"]), np.median(times["sklearn"])
    return {"n": n, "ours_ms": 1e3 * t_ours, "sklearn_ms": 1e3 * t_sk, "ratio": t_ours / t_sk,
            "agree": agree, "dual_rel_diff": dual_gap, "n_sv": (model.support_.size, sk.support_.size),
            "n_iter": (model.n_iter_, int(sk.n_iter_[0]))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    ok = True
    print(f"fit + decision_function on a {GRID}x{GRID} grid, RBF gamma={GAMMA}, C={C}, tol={TOL}, "
          f"median of {args.repeats}")
    for n in (300, 1000):
        r = bench(n, args.repeats)
        passed = r["ratio"] <= BUDGET and r["agree"] >= 0.999 and r["dual_rel_diff"] <= 1e-3
        ok &= passed
        print(f"n={n:5d}  ours {r['ours_ms']:7.1f} ms   sklearn {r['sklearn_ms']:7.1f} ms   "
              f"ratio {r['ratio']:.3f} (budget {BUDGET})   grid agreement {r['agree']:.5f}   "
              f"dual objective rel. diff {r['dual_rel_diff']:.1e}   SVs {r['n_sv'][0]}/{r['n_sv'][1]}   "
              f"iterations {r['n_iter'][0]}/{r['n_iter'][1]}   {'PASS' if passed else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
