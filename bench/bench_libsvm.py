"""DualSVM's fit against scikit-learn's SVC (LIBSVM) on real data: CPU time of one thread each, interleaved rounds.

Data: LIBSVM's heart_scale (bench/data), scikit-learn's breast_cancer, iris (versicolor against virginica) and wine
(its first two cultivars), all standardized but heart_scale (already in [-1, 1]); digits 3 against 8 (pixels / 16);
the project's own moons and circles (datasets, n = 2000, their default noise, seed 0). Kernels linear, RBF and
poly (degree 3, coef0 1), γ = 1 / (d Var X) (scikit-learn's "scale") given to both; C = 0.1, 1, 10, 100, 1000.
Each setting at tol 1e-3 and at the app's tolerance (lesson 3's DUAL_TOL, 1e-9).

Each round times every setting once on both sides, which one goes first alternating from round to round, with one
BLAS thread; a setting's time is the median over the rounds of time.process_time. Both answers are checked by the
same independent measure: the KKT gap m(alpha) - M(alpha) recomputed from the whole Gram matrix (scikit-learn's
pairwise kernels), and the dual objective Σ alpha - ½ alphaᵀG alpha, ours against LIBSVM's. A fit counts as
converged when its recomputed gap is within tol plus what rounding alone may put in it (twice
kernel_core.dual.rounding_floor); one that is not is listed with the reason DualSVM gave. LIBSVM keeps its kernel
rows in single precision (svm.cpp: typedef float Qfloat), so its gradient is good to about 1e-7 relative: at
tol 1e-9 it stops on its own measure with a recomputed gap of 1e-8 to 1e-3, and at 1e-3 a little above tol at
times. Its "not converged" rows say that, not that it failed.

    python bench/bench_libsvm.py [--rounds 5] [--tols 1e-3,1e-9] [--checkout DIR ...] [--all] [--csv FILE]
    python bench/bench_libsvm.py --ridge [--rounds 5] [--checkout DIR]
    python bench/bench_libsvm.py --profile "heart_scale rbf 1000" [--profile ...] [--tols 1e-3] [--rounds 20]

--ridge times KernelRidge.fit against scikit-learn's KernelRidge instead (RBF γ = 0.5, λ = 0.1, n = 500 to 5 000
points of a 2-D normal, y = sin x₁ + noise), the same way.

--profile "DATA KERNEL C" runs that setting's fit (at the first of --tols) --rounds times under cProfile instead and
prints where its CPU time goes: self time per module of kernel_core (smo: the SMO steps; dual: rounds, gradients
and the polish's own loop; face: the polish's face system; kernels: kernel rows; ...) and numpy's linear algebra,
with the steps of SMO and of the polish (active-set steps) and the time each costs.

--checkout DIR times the kernel_core of another checkout (a git worktree at an older commit) with this bench;
given more than once, each checkout's fit is timed in the same rounds, next to the same SVC fit (the order of all
of them alternating from round to round), and each gets its own report. Prints, per checkout and tolerance: the
median and the worst ratio ours / SVC, the worst five settings, and every fit that did not converge; --all prints
every setting; --csv FILE writes every setting's row (both sides' median ms, the ratio, steps, recomputed KKT gaps,
converged) to FILE, one line per checkout, setting and tolerance.
"""

import argparse
import cProfile
import csv
import pstats
import statistics
import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn import datasets as sk_datasets
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.kernel_ridge import KernelRidge
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import datasets  # noqa: E402
from bench_browser import machine_state, print_table_head  # noqa: E402
from bench_dual import load, timed  # noqa: E402

CS = (0.1, 1.0, 10.0, 100.0, 1000.0)
KERNELS = ("linear", "rbf", "poly")
APP_TOL = 1e-9            # lessons/primal_dual/compute.py DUAL_TOL
DEGREE, COEF0 = 3, 1.0
FLOOR_ULPS = 64           # kernel_core.dual.FLOOR_ULPS


def read_libsvm(path, d):
    """Points and labels of a file in LIBSVM's sparse format ("label index:value ..."), dense with d features."""
    rows, labels = [], []
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields:
            continue
        x = np.zeros(d)
        for field in fields[1:]:
            index, value = field.split(":")
            x[int(index) - 1] = float(value)
        rows.append(x)
        labels.append(float(fields[0]))
    return np.array(rows), np.array(labels)


def standardized(X):
    return (X - X.mean(axis=0)) / X.std(axis=0)


def two_classes(bunch, a, b):
    keep = np.isin(bunch.target, (a, b))
    return bunch.data[keep], np.where(bunch.target[keep] == a, -1.0, 1.0)


def data_sets():
    """(name, X, y) with y in {-1, +1}."""
    cancer = sk_datasets.load_breast_cancer()
    iris = two_classes(sk_datasets.load_iris(), 1, 2)
    wine = two_classes(sk_datasets.load_wine(), 0, 1)
    digits = two_classes(sk_datasets.load_digits(), 3, 8)
    return [("heart_scale", *read_libsvm(ROOT / "bench" / "data" / "heart_scale", 13)),
            ("breast_cancer", standardized(cancer.data), 2.0 * cancer.target - 1.0),
            ("iris 1v2", standardized(iris[0]), iris[1]),
            ("wine 0v1", standardized(wine[0]), wine[1]),
            ("digits 3v8", digits[0] / 16.0, digits[1]),
            ("moons 2000", *datasets.DATASETS["moons"](2000, random_state=0)),
            ("circles 2000", *datasets.DATASETS["circles"](2000, random_state=0))]


def gram(kernel, X, gamma):
    if kernel == "linear":
        return linear_kernel(X)
    if kernel == "rbf":
        return rbf_kernel(X, gamma=gamma)
    return polynomial_kernel(X, degree=DEGREE, gamma=gamma, coef0=COEF0)


def kkt(alpha, K, y, C):
    """(recomputed KKT gap m(alpha) - M(alpha), dual objective, rounding floor) of alpha from the whole Gram matrix."""
    v = y - K @ (alpha * y)
    pos = y > 0
    up = np.where(np.where(pos, alpha < C, alpha > 0), v, -np.inf)
    low = np.where(np.where(pos, alpha > 0, alpha < C), v, np.inf)
    objective = alpha.sum() - 0.5 * (alpha * y) @ (K @ (alpha * y))
    floor = 2 * FLOOR_ULPS * np.finfo(float).eps * float((alpha @ np.abs(K)).max())
    return float(up.max() - low.min()), float(objective), floor


def ours(core, X, y, kernel, C, gamma, tol):
    def fit():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = core.svm.DualSVM(kernel, C=C, gamma=gamma, degree=DEGREE, coef0=COEF0, tol=tol).fit(X, y)
        return model.alpha_, model.n_iter_, [str(w.message) for w in caught]
    return fit


def libsvm(X, y, kernel, C, gamma, tol):
    def fit():
        model = SVC(kernel=kernel, C=C, gamma=gamma, degree=DEGREE, coef0=COEF0, tol=tol).fit(X, y)
        alpha = np.zeros(len(y))
        alpha[model.support_] = np.abs(model.dual_coef_[0])
        return alpha, int(model.n_iter_[0]), []
    return fit


def run(cores, tols, rounds):
    """[{tol: [setting dict]} per core] with each side's (that core's and SVC's) median CPU seconds, steps,
    recomputed gap and objective; every core and SVC are timed in the same rounds."""
    settings = []
    for name, X, y in data_sets():
        gamma = 1.0 / (X.shape[1] * X.var())
        for kernel in KERNELS:
            K = gram(kernel, X, gamma)
            for C in CS:
                for tol in tols:
                    settings.append({"data": name, "n": len(y), "kernel": kernel, "C": C, "tol": tol, "K": K, "y": y,
                                     "calls": [ours(core, X, y, kernel, C, gamma, tol) for core in cores]
                                     + [libsvm(X, y, kernel, C, gamma, tol)],
                                     "times": [[] for _ in range(len(cores) + 1)]})
    sides = list(range(len(cores) + 1))
    for r in range(rounds):
        for s in settings:
            for side in (sides if r % 2 == 0 else sides[::-1]):
                seconds, result = timed(s["calls"][side])
                s["times"][side].append(seconds)
                s.setdefault("results", [None] * len(sides))[side] = result
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    for s in settings:
        s["seconds"] = [statistics.median(t) for t in s["times"]]
        s["checks"] = [kkt(alpha, s["K"], s["y"], s["C"]) for alpha, _, _ in s["results"]]
        del s["K"], s["calls"]
    by_core = []
    for c in range(len(cores)):
        views = []
        for s in settings:
            view = {**s, **{key: [s[key][c], s[key][-1]] for key in ("seconds", "results", "checks")}}
            view["ratio"] = view["seconds"][0] / view["seconds"][1]
            view["converged"] = [gap <= s["tol"] + floor for gap, _, floor in view["checks"]]
            views.append(view)
        by_core.append({tol: [s for s in views if s["tol"] == tol] for tol in tols})
    return by_core


def describe(s):
    return f"{s['data']} (n={s['n']}) {s['kernel']} C={s['C']:g}"


def line(s):
    (t0, t1), (r0, r1), (c0, c1) = s["seconds"], s["results"], s["checks"]
    rel = (c0[1] - c1[1]) / max(abs(c1[1]), 1e-300)
    return (f"{describe(s):<38}{1e3 * t0:>10.1f}{1e3 * t1:>10.1f}{s['ratio']:>8.2f}{r0[1]:>9}{r1[1]:>9}"
            f"{c0[0]:>10.1e}{c1[0]:>10.1e}{rel:>+11.1e}  "
            + ("" if all(s["converged"]) else "NOT CONVERGED: " + ("ours " if not s["converged"][0] else "")
               + ("LIBSVM " if not s["converged"][1] else "") + " | ".join(r0[2])[:160]))


def report(by_tol, rounds, start, core_name, every):
    head = (f"{'setting':<38}{'ours ms':>10}{'SVC ms':>10}{'ratio':>8}{'steps':>9}{'LIBSVM':>9}{'KKT ours':>10}"
            f"{'KKT SVC':>10}{'obj. diff':>11}")
    for tol, rows in by_tol.items():
        ratios = np.array([s["ratio"] for s in rows])
        print_table_head(start, f"{core_name}: DualSVM.fit / SVC.fit, tol={tol:g}, CPU time of one thread, median of "
                         f"{rounds} interleaved rounds, {len(rows)} settings", head)
        shown = rows if every else sorted(rows, key=lambda s: -s["ratio"])[:5]
        for s in shown:
            print(line(s))
        failed = [s for s in rows if not all(s["converged"]) and s not in shown]
        for s in failed:
            print(line(s))
        real = np.array([s["ratio"] for s in rows if not s["data"].endswith("2000")])
        big = np.array([s["ratio"] for s in rows if s["data"].endswith("2000")])
        by_c = "  ".join(f"C={C:g} {np.median([s['ratio'] for s in rows if s['C'] == C]):.2f}" for C in CS)
        worst = max(rows, key=lambda s: s["ratio"])
        print(f"median {np.median(ratios):.2f}×  (real data {np.median(real):.2f}×, n=2000 {np.median(big):.2f}×; "
              f"{by_c})")
        print(f"worst {ratios.max():.2f}× ({describe(worst)}), best {ratios.min():.2f}×, at or below 1×: "
              f"{int((ratios <= 1).sum())} of {len(rows)}")
        total = [sum(s["seconds"][side] for s in rows) for side in (0, 1)]
        print(f"total CPU: ours {total[0]:.2f} s, SVC {total[1]:.2f} s")
        not_ours = sum(not s["converged"][0] for s in rows)
        not_svc = sum(not s["converged"][1] for s in rows)
        obj = max(abs(s["checks"][0][1] - s["checks"][1][1]) / max(abs(s["checks"][1][1]), 1e-300) for s in rows)
        print(f"not converged (recomputed KKT gap > tol + rounding): ours {not_ours}, SVC {not_svc}; "
              f"largest relative objective difference {obj:.1e} (positive above: ours higher, the dual is maximized)\n")


def write_csv(by_core, names, path):
    """Every setting's row, one per checkout, setting and tolerance: what --csv writes."""
    with open(path, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["checkout", "data", "n", "kernel", "C", "tol", "ours_ms", "svc_ms", "ratio", "steps",
                      "libsvm_steps", "kkt_ours", "kkt_svc", "converged_ours", "converged_svc"])
        for name, by_tol in zip(names, by_core):
            for tol, rows in by_tol.items():
                for s in rows:
                    (t0, t1), (r0, r1), (c0, c1) = s["seconds"], s["results"], s["checks"]
                    out.writerow([name, s["data"], s["n"], s["kernel"], f"{s['C']:g}", f"{tol:g}", f"{1e3 * t0:.2f}",
                                  f"{1e3 * t1:.2f}", f"{s['ratio']:.3f}", r0[1], r1[1], f"{c0[0]:.1e}",
                                  f"{c1[0]:.1e}", int(s["converged"][0]), int(s["converged"][1])])


def profile(core, settings, tol, rounds):
    """Where a fit's CPU time goes, per setting "DATA KERNEL C" (what --profile prints): the median fit, and the CPU
    time of its parts measured by wrappers around kernel_core.dual's SMO rounds (the steps with their kernel rows),
    polishes and exact gradients (the rest: validation, the first kernel rows, history, the KKT report); then, from
    `rounds` fits under cProfile (which slows Python-level calls most), the self time per module."""
    data = {name: (X, y) for name, X, y in data_sets()}
    for setting in settings:
        name, kernel, C = setting.rsplit(" ", 2)
        X, y = data[name]
        gamma = 1.0 / (X.shape[1] * X.var())
        fit = ours(core, X, y, kernel, float(C), gamma, tol)
        steps = fit()[1]
        parts = {"_round": [], "polish": [], "gradient": []}
        originals = {part: getattr(core.dual, part) for part in parts}
        for part, spent in parts.items():
            def wrapped(*args, __call=originals[part], __spent=spent, **kwargs):
                seconds, result = timed(lambda: __call(*args, **kwargs))
                __spent.append(seconds)
                return result
            setattr(core.dual, part, wrapped)
        try:
            seconds = statistics.median(timed(fit)[0] for _ in range(rounds))
        finally:
            for part, original in originals.items():
                setattr(core.dual, part, original)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(rounds):
            fit()
        profiler.disable()
        by_module, calls = {}, {}
        for (path, _, function), (_, ncalls, tottime, _, _) in pstats.Stats(profiler).stats.items():
            module = (Path(path).stem if "kernel_core" in path else "numpy.linalg" if "linalg" in path
                      else "numpy (Python level)" if "numpy" in path else "other (Python, builtins)")
            by_module[module] = by_module.get(module, 0.0) + tottime
            calls[module, function] = calls.get((module, function), 0) + ncalls / rounds
        active = sum(calls.get(key, 0) for key in (("face", "solve"), ("dual", "_solve_low_rank"), ("dual", "_solve")))
        # each part's median over the fits (every fit takes the same steps)
        smo, polished, exact = (statistics.median(sum(spent[f * len(spent) // rounds:(f + 1) * len(spent) // rounds])
                                                  for f in range(rounds)) for spent in parts.values())
        polishes = len(parts["polish"]) / rounds
        print(f"{setting}, tol {tol:g}: {1e3 * seconds:.1f} ms CPU a fit (median of {rounds}); {steps} SMO steps "
              f"{1e3 * smo:.1f} ms ({1e6 * smo / max(steps, 1):.0f} µs a step, kernel rows included); "
              f"{polishes:.0f} polishes {1e3 * polished:.1f} ms ({active:.0f} active-set steps, "
              f"{1e6 * polished / max(active, 1):.0f} µs a step); exact gradients {1e3 * exact:.1f} ms; the rest "
              f"{1e3 * (seconds - smo - polished - exact):.1f} ms")
        total = sum(by_module.values())
        print(f"  self time per module under cProfile ({1e3 * total / rounds:.1f} ms a fit there):")
        for module, t in sorted(by_module.items(), key=lambda m: -m[1]):
            print(f"  {module:<26}{1e3 * t / rounds:>8.2f} ms  {100 * t / total:>5.1f} %")
        print()


RIDGE_SIZES = (500, 1000, 2000, 5000)


def ridge(core, rounds, start):
    """KernelRidge.fit, ours / scikit-learn's, per n: CPU time of one thread, median of interleaved rounds."""
    rng = np.random.default_rng(0)
    print_table_head(start, f"KernelRidge.fit, RBF γ=0.5, λ=0.1: CPU time of one thread, median of {rounds} rounds",
                     f"{'n':>6}{'ours ms':>10}{'sklearn ms':>12}{'ratio':>8}{'max |Δβ| / max |β|':>20}")
    for n in RIDGE_SIZES:
        X = rng.normal(size=(n, 2))
        y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)
        calls = (lambda: core.ridge.KernelRidge("rbf", lam=0.1, gamma=0.5).fit(X, y).beta_,
                 lambda: KernelRidge(alpha=0.1, kernel="rbf", gamma=0.5).fit(X, y).dual_coef_)
        times, beta = ([], []), [None, None]
        for r in range(rounds):
            for side in ((0, 1) if r % 2 == 0 else (1, 0)):
                seconds, beta[side] = timed(calls[side])
                times[side].append(seconds)
        t0, t1 = (statistics.median(t) for t in times)
        print(f"{n:>6}{1e3 * t0:>10.1f}{1e3 * t1:>12.1f}{t0 / t1:>8.2f}"
              f"{np.abs(beta[0] - beta[1]).max() / np.abs(beta[1]).max():>20.1e}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tols", default=f"1e-3,{APP_TOL:g}")
    parser.add_argument("--checkout", type=Path, action="append",
                        help="a checkout whose kernel_core to time (default: this one); repeat to time several")
    parser.add_argument("--all", action="store_true", help="print every setting, not only the worst five")
    parser.add_argument("--csv", type=Path, help="write every setting's row to this CSV file")
    parser.add_argument("--profile", action="append", metavar='"DATA KERNEL C"',
                        help="profile this setting's fit instead (e.g. \"heart_scale rbf 1000\"); repeatable")
    parser.add_argument("--ridge", action="store_true", help="kernel ridge against scikit-learn's instead")
    args = parser.parse_args()
    checkouts = [c.resolve() for c in args.checkout or [ROOT]]
    cores = [load(c, f"kernel_core_measured{i}") for i, c in enumerate(checkouts)]
    tols = [float(t) for t in args.tols.split(",")]
    start = machine_state()
    with threadpool_limits(1):
        if args.ridge:
            ridge(cores[0], args.rounds, start)
            return
        if args.profile:
            profile(cores[0], args.profile, tols[0], args.rounds)
            return
        by_core = run(cores, tols, args.rounds)
    for checkout, by_tol in zip(checkouts, by_core):
        report(by_tol, args.rounds, start, f"kernel_core of {checkout}", args.all)
    if args.csv:
        write_csv(by_core, [str(c) for c in checkouts], args.csv)


if __name__ == "__main__":
    main()
