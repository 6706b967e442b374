"""The "Reproduce in Python" scripts: for each lesson section, the code that recomputes the numbers on its page
with scikit-learn where scikit-learn has the same computation, and with kernel_core (this lab's pure-numpy package,
importable from a checkout of the lab) where it has none, which the script says in a comment. Pure Python (no
Streamlit): one template per section, fed from the inputs of the page's compute call, memoized, so an open
"Reproduce" box costs a lookup per rerun.

A script is self-contained apart from its imports: it carries the points the page trained on at full precision
(the repr of each float, which reads back to the same float) and every setting. It prints one line per number,
"label: value", with the page's own label and format where the page shows that number, so its output can be read
against the page line by line (tests/test_reproduce.py does). A student's kernel formula travels as a string that
kernel_core.formula parses; no text a student typed ever becomes Python code.
"""

from lessons.compute_mercer import BASE_KERNELS
from lessons.memo import memo

# scikit-learn's SVC has no C = ∞; this C stands in for the hard margin there (as in lesson 3's comparison)
SKLEARN_HARD_C = 1e6
HELPERS = ('def show(label, value):\n'
           '    print(f"{label}: {value}")\n\n\n'
           'def vec(v):\n'
           '    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"\n\n\n')
# the function of sklearn.metrics.pairwise each kernel is computed with
SKLEARN_FUNCTION = {"linear": "linear_kernel", "poly": "polynomial_kernel", "rbf": "rbf_kernel",
                    "laplacian": "laplacian_kernel", "exponential": "euclidean_distances", "sigmoid": "sigmoid_kernel"}
KERNEL_TEXT = {"linear": "x·z", "poly": "(γ x·z + r)^d", "rbf": "exp(−γ‖x − z‖²)",
               "laplacian": "exp(−γ‖x − z‖₁)", "exponential": "exp(−γ‖x − z‖₂)", "sigmoid": "tanh(γ x·z + r)"}
# each explicit feature map of kernel_core.feature_maps in numpy, and its kernel by formula (scikit-learn's where
# it has one)
PHI = {
    "circle": "np.column_stack([np.ones(len(X)), X[:, 0] ** 2, X[:, 1] ** 2])",
    "paraboloid": "np.column_stack([X[:, 0], X[:, 1], X[:, 0] ** 2 + X[:, 1] ** 2])",
    "poly2_homogeneous": "np.column_stack([X[:, 0] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1] ** 2])",
    "poly2_full": "np.column_stack([X, X[:, 0] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1] ** 2])",
    "cubic_1d": "np.column_stack([np.ones(len(X)), X[:, 0], X[:, 0] ** 2, X[:, 0] ** 3])",
}
MAP_KERNEL = {
    "circle": "1 + (X ** 2) @ (Z ** 2).T",
    "paraboloid": "X @ Z.T + np.outer((X ** 2).sum(axis=1), (Z ** 2).sum(axis=1))",
    "poly2_homogeneous": "polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=0.0)",
    "poly2_full": "polynomial_kernel(X, Z, degree=2, gamma=1.0, coef0=0.5) - 0.25",
    "cubic_1d": "1 + X @ Z.T + (X @ Z.T) ** 2 + (X @ Z.T) ** 3",
}
# the closure rule's warps f, as lessons/compute_mercer.py's WARPS compute them
WARP_CODE = {"bump": "np.exp(-(A ** 2).sum(axis=1))", "first": "A[:, 0]", "affine": "1 + A[:, 1]"}
CHECKED_POINTS = "# the points the page checks (at most 150 of the data, class −1 first)\n"
EIGEN = ("lam = np.linalg.eigvalsh(K)   # ascending\n"
         "# an eigenvalue below −1e-10·max|λ| is negative, not rounding (kernel_core.mercer.check_psd's rule)\n"
         "threshold = 1e-10 * np.max(np.abs(lam))\n"
         'show("λ_min", f"{lam[0]:.6g}")\n'
         'show("λ_max", f"{lam[-1]:.6g}")\n'
         'show("negative eigenvalues", np.count_nonzero(lam < -threshold))\n')


def _float(v):
    return repr(float(v))


def _C(C):
    """C as Python source: np.inf for the hard margin."""
    return "np.inf" if C == float("inf") else repr(float(C))


def _vector(values):
    return "np.array([" + ", ".join(_float(v) for v in values) + "])"


def _matrix(X):
    rows = ",\n    ".join("[" + ", ".join(_float(v) for v in row) + "]" for row in X)
    return f"np.array([\n    {rows},\n])"


def _data(X, y, x_name="X", y_name="y"):
    """Assignments of the points (full precision) and their labels or targets."""
    return f"{x_name} = {_matrix(X)}\n{y_name} = {_vector(y)}\n"


def _script(number, title, link, imports, body, stdlib=""):
    """A whole script: what it reproduces and the view's link, the imports (stdlib: of the standard library, first),
    the printing helpers, the body."""
    return (f"# Kernel Lab, lesson {number}: {title}. Recomputes the page's numbers for this view:\n"
            + (f"# {link}\n" if link else "")
            + ("# Run it from a checkout of Kernel Lab (for kernel_core, the lab's own package) with numpy and "
               "scikit-learn installed.\n" if "kernel_core" in imports else "# It needs numpy and scikit-learn.\n")
            + (stdlib + "\n" if stdlib else "") + "import numpy as np\n" + imports + "\n\n" + HELPERS + body)


def _sklearn_expr(spec):
    """Python source of the Gram matrix K(A, B) of a KernelSpec, from sklearn.metrics.pairwise."""
    g, d, r = spec.gamma, spec.degree, spec.coef0
    return {
        "linear": "linear_kernel(A, B)",
        "poly": f"polynomial_kernel(A, B, degree={d!r}, gamma={g!r}, coef0={r!r})",
        "rbf": f"rbf_kernel(A, B, gamma={g!r})",
        "laplacian": f"laplacian_kernel(A, B, gamma={g!r})",
        # scikit-learn has no exp(−γ‖x − z‖₂); it is built from its Euclidean distances
        "exponential": f"np.exp(-{g!r} * euclidean_distances(A, B))",
        "sigmoid": f"sigmoid_kernel(A, B, gamma={g!r}, coef0={r!r})",
    }[spec.name]


def _sklearn_imports(*specs):
    """The import line of the scikit-learn functions that compute these KernelSpecs."""
    return f"from sklearn.metrics.pairwise import {', '.join(sorted({SKLEARN_FUNCTION[s.name] for s in specs}))}\n"


def _sklearn_kernel(spec):
    """Source of the function kernel(A, B) -> Gram of a KernelSpec."""
    return f'def kernel(A, B):\n    """K(x, z) = {KERNEL_TEXT[spec.name]}"""\n    return {_sklearn_expr(spec)}\n'


def _core_kernel_args(spec):
    """A KernelSpec as kernel_core's keyword arguments."""
    return ", ".join(f"{k}={v!r}" for k, v in spec.params().items())


def _phi_function(name):
    return f'def phi(X):\n    """The feature map φ, one row per point."""\n    return {PHI[name]}\n'


# ---- lesson 1 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def feature_check(link, name, x, z):
    """Lesson 1, section 1: φ(x)·φ(z) against K(x, z)."""
    imports = "from sklearn.metrics.pairwise import polynomial_kernel\n" if "polynomial_kernel" in MAP_KERNEL[name] else ""
    return _script(1, "K(x, z) = φ(x)·φ(z) on two points", link, imports,
                   f"X = np.array([[{', '.join(_float(v) for v in x)}]])   # x\n"
                   f"Z = np.array([[{', '.join(_float(v) for v in z)}]])   # z\n\n\n"
                   + _phi_function(name) + "\n\n"
                   f"K = ({MAP_KERNEL[name]})[0, 0]\n"
                   "dot = float(phi(X)[0] @ phi(Z)[0])\n"
                   'show("φ(x)", phi(X)[0])\n'
                   'show("φ(z)", phi(Z)[0])\n'
                   'show("φ(x)·φ(z)", f"{dot:.17g}")\n'
                   'show("K(x, z)", f"{K:.17g}")\n'
                   'show("difference φ(x)·φ(z) − K(x, z)", f"{dot - K:.3e}")\n')


@memo(max_entries=16)
def costs(link, d, p):
    """Lesson 1, section 2: dim φ of (1 + x·z)^p in d variables and the operations per K(x, z) both ways."""
    return _script(1, "what the kernel trick saves", link,
                   "\nfrom kernel_core.feature_maps import operation_counts\n",
                   f"d, p = {d!r}, {p!r}\n"
                   "# the lab's own count of multiplications and additions (its docstring says what it counts)\n"
                   "c = operation_counts(d, p)\n"
                   'show("dim φ = C(d+p, p)", f"{comb(d + p, p):,}")\n'
                   'show("explicit / kernel", f"{c.explicit_total / c.kernel_total:,.1f}×")\n', stdlib="from math import comb\n")


@memo(max_entries=16)
def taylor(link, gamma, z, m, x_lo, x_hi, x_count):
    """Lesson 1, section 3: the m-term Taylor map of the 1-D Gaussian against scikit-learn's rbf_kernel."""
    return _script(1, "the Gaussian's truncated Taylor feature map", link,
                   "from sklearn.metrics.pairwise import rbf_kernel\n",
                   f"gamma, z, m = {gamma!r}, {z!r}, {m!r}\n"
                   f"x = np.linspace({x_lo!r}, {x_hi!r}, {x_count!r})\n\n\n"
                   "def phi(x):\n"
                   '    """φ_k(x) = exp(−γx²) √((2γ)^k / k!) x^k, k = 0..m−1"""\n'
                   "    return np.column_stack([np.exp(-gamma * x ** 2) * np.sqrt((2 * gamma) ** k / factorial(k))\n"
                   "                            * x ** k for k in range(m)])\n\n\n"
                   "exact = rbf_kernel(x[:, None], np.array([[z]]), gamma=gamma)[:, 0]\n"
                   "approx = phi(x) @ phi(np.array([z]))[0]\n"
                   'show(f"max error over x ∈ [{x[0]:g}, {x[-1]:g}] with m = {m}", '
                   'f"{np.max(np.abs(approx - exact)):.3e}")\n', stdlib="from math import factorial\n")


@memo(max_entries=16)
def cubic_fit(link, x, y, eta_ratio, T, stochastic, seed):
    """Lesson 1, section 4: LMS on θ and kernel LMS on β for the house prices."""
    run = f"eta=eta, n_iter={T!r}, stochastic={stochastic!r}, random_state={seed!r}"
    return _script(1, "gradient descent on θ and on β, cubic house prices", link,
                   "from kernel_core.grid import make_grid_1d\n"
                   "from kernel_core.regression import LMS, KernelLMS, max_stable_eta\n",
                   "# scikit-learn has no plain gradient descent on least squares with this step and sample order\n"
                   "# (SGDRegressor schedules and regularizes its steps): kernel_core's LMS and KernelLMS run it.\n"
                   + _data(x, y, "x", "y") + "\n\n"
                   "def phi(x):\n"
                   "    return np.column_stack([np.ones(len(x)), x[:, 0], x[:, 0] ** 2, x[:, 0] ** 3])\n\n\n"
                   "def kernel(A, B):\n    s = A @ B.T\n    return 1 + s + s ** 2 + s ** 3\n\n\n"
                   f"eta = {eta_ratio!r} * max_stable_eta(kernel(x, x), stochastic={stochastic!r})\n"
                   f"theta = LMS({run}).fit(phi(x), y)\n"
                   f"beta = KernelLMS(kernel, {run}).fit(x, y)\n"
                   "grid = make_grid_1d(x, n=200).points   # the plot's 200 points\n"
                   'show("max |θᵀφ(x) − Σⱼ βⱼ K(xⱼ, x)| over the plot", '
                   'f"{np.max(np.abs(theta.predict(phi(grid)) - beta.predict(grid))):.3e}")\n'
                   'show("η used", f"{eta:.4g}")\n'
                   "show(\"loss after T steps\", f\"{theta.history_['loss'][-1]:.6g}\")\n"
                   'show("θ", theta.theta_)\n')


# ---- lesson 2 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def circle_lift(link, X, y, lift, C):
    """Lesson 2: the max-margin plane in the lifted coordinates, by scikit-learn and by kernel_core's primal."""
    intercept = lift != "circle"
    sk_C = min(C, SKLEARN_HARD_C)
    hard = "" if sk_C == C else f"# scikit-learn has no C = ∞: it runs with C = {sk_C:g}\n"
    if intercept:
        imports = "from sklearn.svm import SVC\n"
        sklearn = (hard + f'svc = SVC(kernel="linear", C={sk_C!r}, tol=1e-9).fit(F, y)\n'
                   "w_sk, b_sk = svc.coef_[0], float(svc.intercept_[0])\n")
    else:
        imports = "from sklearn.svm import LinearSVC\n"
        sklearn = ("# no separate intercept: φ's constant 1 is the offset, so LinearSVC with the hinge loss and\n"
                   "# fit_intercept=False solves exactly min ½‖w‖² + CΣξᵢ\n" + hard
                   + f'svc = LinearSVC(loss="hinge", fit_intercept=False, C={sk_C!r}, tol=1e-12, '
                   "max_iter=1_000_000).fit(F, y)\n"
                   "w_sk, b_sk = svc.coef_[0], 0.0\n")
    notes_w, notes_b = {"circle": ("(-1.0, 1.0, 1.0)", "0.0"), "paraboloid": ("(0.0, 0.0, 1.0)", "-1.0")}[lift]
    return _script(2, "the circle, lifted", link, f"{imports}\nfrom kernel_core.svm import PrimalSVM\n",
                   _data(X, y) + "\n\n" + _phi_function(lift) + "\n\n"
                   "F = phi(X)\n"
                   f"C = {_C(C)}\n"
                   "# kernel_core: the primal problem itself, by an interior-point method\n"
                   f"primal = PrimalSVM(C=C, fit_intercept={intercept!r}).fit(F, y)\n"
                   "w, b = primal.coef_, float(primal.intercept_)\n"
                   "f = F @ w + b\n"
                   f"f_notes = F @ np.array({notes_w}) + {notes_b}   # the notes' plane\n"
                   "show(\"training errors, notes' plane\", f\"{np.count_nonzero(y * f_notes <= 0)} / {y.size}\")\n"
                   'show("training errors, max-margin plane", f"{np.count_nonzero(y * f <= 0)} / {y.size}")\n'
                   'show("margin 1/‖w‖ (lifted space)", f"{1 / np.linalg.norm(w):.4f}")\n'
                   'show("Σξᵢ (total slack)", f"{primal.slack_.sum():.4f}")\n'
                   'show("w", vec(w))\n'
                   'show("b", f"{b:.6f}")\n'
                   'show("primal objective ½‖w‖² + CΣξᵢ", f"{primal.primal_objective_:.6f}")\n'
                   "# the page's tolerance for \"on the margin\": y f(x) ≤ 1 + 1e-6\n"
                   'show("points on or inside the margin", np.count_nonzero(y * f <= 1 + 1e-6))\n\n'
                   + sklearn
                   + 'show("w (scikit-learn)", vec(w_sk))\n'
                   'show("b (scikit-learn)", f"{b_sk:.6f}")\n'
                   'show("margin 1/‖w‖ (scikit-learn)", f"{1 / np.linalg.norm(w_sk):.4f}")\n')


# ---- lesson 3 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def primal_dual(link, X, y, test, space, fmap, spec, offset, C, dual_tol):
    """Lesson 3: the dual by SMO (kernel_core) and by libsvm (scikit-learn), the primal on explicit features."""
    has_phi = space != "kernel"
    imports = ("" if has_phi else _sklearn_imports(spec)) + "from sklearn.svm import SVC\n\n" \
        + f"from kernel_core.svm import {'DualSVM, PrimalSVM' if has_phi else 'DualSVM'}\n"
    parts = [_data(X, y)]
    if test is not None:
        parts.append("# for the test accuracy: a fresh sample from the same generator and settings (another seed)\n"
                     + _data(test[0], test[1], "X_test", "y_test"))
    parts.append("\n\n")
    if space == "explicit":
        parts.append(_phi_function(fmap))
    elif space == "linear":
        parts.append("def phi(X):\n    return X   # φ(x) = x\n")
    else:
        parts.append(_sklearn_kernel(spec))
    F, F_test = ("phi(X)", "phi(X_test)") if has_phi else ("X", "X_test")
    kernel = 'kernel="linear"' if has_phi else _core_kernel_args(spec)
    parts.append(f"\n\nC = {_C(C)}\n"
                 f"dual = DualSVM({kernel}, C=C, fit_intercept={offset!r}, tol={dual_tol!r}).fit({F}, y)\n")
    if has_phi:
        parts.append(f"primal = PrimalSVM(C=C, fit_intercept={offset!r}).fit({F}, y)\n"
                     'show("w (primal)", vec(primal.coef_))\n'
                     'show("b (primal)", f"{primal.intercept_:.6f}")\n'
                     'show("objective (primal)", f"{primal.primal_objective_:.8f}")\n'
                     'show("w (dual)", vec(dual.coef_))\n')
    parts.append('show("α (dual)", vec(dual.alpha_))\n'
                 'show("b (dual)", f"{dual.intercept_:.6f}")\n'
                 'show("objective (dual)", f"{dual.dual_objective_:.8f}")\n'
                 'show("margin 1/‖w‖", f"{1 / dual.norm_w_:.4f}" if dual.norm_w_ > 0 else "—")\n'
                 'show("support vectors", f"{dual.support_.size} / {y.size}")\n'
                 'show("E_cv ≤ #SV/N", f"{dual.support_.size / y.size:.3f}")\n'
                 f"train = np.mean(dual.predict({F}) == y)\n")
    if test is not None:
        parts.append(f"test = np.mean(dual.predict({F_test}) == y_test)\n"
                     'show("train / test accuracy", f"{train:.0%} / {test:.0%}")\n')
    else:
        parts.append('show("train / test accuracy", f"{train:.0%} / —")\n')
    if offset:
        sk_C = min(C, SKLEARN_HARD_C)
        sk_kernel = '"linear"' if has_phi else "kernel"
        parts.append("\n# scikit-learn's libsvm on the same problem"
                     + (f" (it has no C = ∞: C = {sk_C:g} stands in)" if sk_C != C else "") + "\n"
                     f"svc = SVC(kernel={sk_kernel}, C={sk_C!r}, tol={dual_tol!r}, "
                     f"max_iter=500_000).fit({F}, y)\n"
                     "coef = svc.dual_coef_[0]   # yᵢαᵢ on the support vectors\n"
                     "b_sk = float(svc.intercept_[0])\n"
                     "# αᵀGα = Σ yᵢαᵢ (f(xᵢ) − b) over the support vectors\n"
                     f"f_sv = svc.decision_function({F}[svc.support_])\n"
                     "alpha_sk = np.zeros(len(y))\n"
                     "alpha_sk[svc.support_] = np.abs(coef)\n"
                     'show("α (scikit-learn)", vec(alpha_sk))\n'
                     'show("b (scikit-learn)", f"{b_sk:.6f}")\n'
                     "objective_sk = np.abs(coef).sum() - 0.5 * np.sum(coef * (f_sv - b_sk))\n"
                     'show("objective (scikit-learn)", f"{objective_sk:.8f}")\n')
    else:
        parts.append("# scikit-learn's SVC always fits an offset b: without it only kernel_core's solver applies\n")
    return _script(3, "SVM, primal versus dual", link, imports, "".join(parts))


# ---- lesson 4 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def pegasos(link, X, y, spec, lam, T, seed, max_epochs):
    """Lesson 4: Pegasos, the exact optimum and the kernel perceptron, all kernel_core."""
    kernel = _core_kernel_args(spec)
    return _script(4, "Pegasos and the kernel perceptron", link,
                   "from kernel_core.pegasos import KernelPegasos\n"
                   "from kernel_core.perceptron import KernelPerceptron\n"
                   "from kernel_core.svm import DualSVM\n",
                   "# scikit-learn has neither kernelized Pegasos (Algorithm 1 of the notes) nor a kernel\n"
                   "# perceptron, and its SVC always fits an offset, which Pegasos' objective has not: kernel_core\n"
                   "# runs all three.\n"
                   + _data(X, y) + "\n"
                   f"lam, T = {lam!r}, {T!r}\n"
                   f"run = KernelPegasos({kernel}, lam=lam, n_iter=T, random_state={seed!r}).fit(X, y)\n"
                   "# λ/2‖w‖² + (1/n)Σ hinge = λ(½‖w‖² + CΣξᵢ) with C = 1/(λn): the SVM through the origin\n"
                   "# (the page shows no optimum where K is not PSD on these points or the dual did not converge)\n"
                   f"svm = DualSVM({kernel}, C=1 / (lam * len(y)), fit_intercept=False).fit(X, y)\n"
                   "optimum = lam * svm.dual_objective_\n"
                   f"perceptron = KernelPerceptron({kernel}, max_epochs={max_epochs!r}).fit(X, y)\n"
                   "show(\"objective at α̂ (t = T)\", f\"{run.history_['objective_avg'][-1]:.6g}\")\n"
                   "show(\"objective at α^T\", f\"{run.history_['objective_last'][-1]:.6g}\")\n"
                   'show("exact optimum (SVM dual)", f"{optimum:.6g}")\n'
                   "show(\"α̂ above the optimum by\", f\"{run.history_['objective_avg'][-1] - optimum:.3g}\")\n"
                   'show("training error of α̂", f"{np.mean(run.predict(X) != y):.1%}")\n'
                   "show(\"total mistakes Σ αᵢ\", int(perceptron.history_['n_mistakes']))\n"
                   'show("training error", f"{np.mean(perceptron.predict(X) != y):.1%}")\n')


# ---- lesson 5 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def mercer_gram(link, Xs, ys, spec):
    """Lesson 5, Gram tab: the spectrum of a registry kernel's Gram matrix, from scikit-learn's kernels."""
    return _script(5, "the Gram matrix and its spectrum", link, _sklearn_imports(spec),
                   _sklearn_kernel(spec) + "\n\n" + CHECKED_POINTS + _data(Xs, ys) + "K = kernel(X, X)\n" + EIGEN)


@memo(max_entries=16)
def mercer_rule(link, Xs, ys, rule):
    """Lesson 5, closure rules tab: the rule (a compute_mercer.Rule) applied in numpy to scikit-learn's versions of
    the base kernels."""
    bases = {name: spec for name, (_, spec) in BASE_KERNELS.items()}
    build = {
        "sum": lambda: f"K2 = {_sklearn_expr(bases[rule.k2])}\nK = K1 + K2\n",
        "product": lambda: f"K2 = {_sklearn_expr(bases[rule.k2])}\nK = K1 * K2   # elementwise (Schur product)\n",
        "scale": lambda: f"K = {rule.c!r} * K1\n",
        "polynomial": lambda: "K = " + " + ".join(f"{a!r} * K1 ** {p}" for p, a in enumerate(rule.coefs)) + "\n",
        "exp": lambda: "K = np.exp(K1)\n",
        "warp": lambda: f"f = {WARP_CODE[rule.warp]}\nK = f[:, None] * K1 * f[None, :]\n",
    }[rule.name]
    used = [bases[rule.k1]] + ([bases[rule.k2]] if rule.name in ("sum", "product") else [])
    return _script(5, f"the closure rule '{rule.name}'", link, _sklearn_imports(*used),
                   CHECKED_POINTS + _data(Xs, ys) + "A = B = X\n"
                   f"K1 = {_sklearn_expr(bases[rule.k1])}\n" + build() + EIGEN)


@memo(max_entries=16)
def mercer_invalid(link, Xs, ys, name, formula):
    """Lesson 5, kernels that fail: the function written in kernel_core's formula language, its spectrum."""
    return _script(5, f"a function that is not a kernel: {name}", link,
                   "from kernel_core.formula import parse_kernel\n",
                   "# the function as text in kernel_core's formula language (parsed, never run as Python)\n"
                   f"kernel = parse_kernel({formula!r})\n\n"
                   + CHECKED_POINTS + _data(Xs, ys) + "K = kernel(X, X)\n" + EIGEN)


@memo(max_entries=16)
def mercer_formula(link, X, y, Xs, ys, expr, params, C):
    """Lesson 5, formula tab: the student's formula parsed by kernel_core (never run as Python), its spectrum,
    and scikit-learn's SVC with it as the kernel."""
    kwargs = ", ".join(f"{k}={v!r}" for k, v in params)
    return _script(5, "your kernel formula", link,
                   "from sklearn.svm import SVC\n\nfrom kernel_core.formula import parse_kernel\n",
                   "# your formula is text that kernel_core parses with its own small grammar; never run as Python\n"
                   f"kernel = parse_kernel({expr!r}, {kwargs})\n\n"
                   + CHECKED_POINTS + _data(Xs, ys, "Xs", "ys") + "K = kernel(Xs, Xs)\n" + EIGEN + "\n"
                   "# every point, for the SVM\n" + _data(X, y)
                   + f"svc = SVC(kernel=kernel, C={C!r}, tol=1e-9).fit(X, y)\n"
                   'show("support vectors (scikit-learn)", svc.support_.size)\n'
                   'show("training error (scikit-learn)", f"{np.mean(svc.predict(X) != y):.1%}")\n'
                   'show("b (intercept) (scikit-learn)", f"{svc.intercept_[0]:.6g}")\n')


# ---- lesson 6 ---------------------------------------------------------------------------------------------------

@memo(max_entries=16)
def ridge(link, x, y, spec, lam):
    """Lesson 6, kernel ridge: scikit-learn's KernelRidge solves the same (K + λI)β = y."""
    return _script(6, "kernel ridge regression", link,
                   "from sklearn.kernel_ridge import KernelRidge\n" + _sklearn_imports(spec),
                   _sklearn_kernel(spec) + "\n\n" + _data(x, y, "x", "y")
                   + "K = kernel(x, x)\n"
                   f'model = KernelRidge(alpha={lam!r}, kernel="precomputed").fit(K, y)   # its alpha is λ\n'
                   "beta = model.dual_coef_\n"
                   'show("training RMSE", f"{np.sqrt(np.mean((y - model.predict(K)) ** 2)):.4g}")\n'
                   'show("largest |βⱼ|", f"{np.max(np.abs(beta)):.4g}")\n'
                   'show("Σⱼ βⱼ", f"{np.sum(beta):.4g}")\n')


@memo(max_entries=16)
def descent(link, x, y, spec, eta_ratio, T, stochastic, seed):
    """Lesson 6, gradient descent on β (kernel LMS), kernel_core."""
    kernel = _core_kernel_args(spec)
    return _script(6, "kernel LMS, gradient descent on β", link,
                   "from kernel_core.kernels import make_kernel\n"
                   "from kernel_core.regression import KernelLMS, max_stable_eta\n",
                   "# scikit-learn has no kernel LMS (gradient descent on β with this step and sample order):\n"
                   "# kernel_core runs it\n"
                   + _data(x, y, "x", "y")
                   + f"eta = {eta_ratio!r} * max_stable_eta(make_kernel({kernel})(x, x), stochastic={stochastic!r})\n"
                   f"model = KernelLMS({kernel}, eta=eta, n_iter={T!r}, stochastic={stochastic!r}, "
                   f"random_state={seed!r}).fit(x, y)\n"
                   'show("η used", f"{eta:.4g}")\n'
                   "show(\"loss after T steps\", f\"{model.history_['loss'][-1]:.6g}\")\n")


@memo(max_entries=16)
def logistic(link, X, y, spec, lam, T):
    """Lesson 6, kernel logistic regression by gradient descent on β, kernel_core."""
    return _script(6, "kernel logistic regression", link,
                   "from kernel_core.regression import KernelLogisticRegression\n",
                   "# scikit-learn's LogisticRegression works on features, not on β with a Gram matrix and this\n"
                   "# step: kernel_core runs gradient descent on J(β) = Σ log(1 + exp(−yᵢf(xᵢ))) + λ/2 βᵀKβ\n"
                   + _data(X, y)
                   + f"model = KernelLogisticRegression({_core_kernel_args(spec)}, lam={lam!r}, n_iter={T!r})"
                   ".fit(X, y)\n"
                   'show("training accuracy", f"{np.mean(model.predict(X) == y):.1%}")\n'
                   "show(\"J(β) after T steps\", f\"{model.history_['objective'][-1]:.6g}\")\n")
