"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import data, script, sklearn_expr, sklearn_imports, sklearn_kernel
from lessons.mercer.compute import BASE_KERNELS


# the closure rule's warps f, as lessons/mercer/compute.py's WARPS compute them
WARP_CODE = {"bump": "np.exp(-(A ** 2).sum(axis=1))", "first": "A[:, 0]", "affine": "1 + A[:, 1]"}
CHECKED_POINTS = "# the points the page checks (at most 150 of the data, class −1 first)\n"
EIGEN = ("lam = np.linalg.eigvalsh(K)   # ascending\n"
         "# an eigenvalue below −1e-10·max|λ| is negative, not rounding (kernel_core.mercer.check_psd's rule). One\n"
         "# within 1e-10·max|λ| of 0 is round-off: the page's K (kernel_core) and this one can differ in the last\n"
         "# bit, so such a λ_min may differ from the page's in its digits and sign, never beyond that threshold\n"
         "threshold = 1e-10 * np.max(np.abs(lam))\n"
         'show("λ_min", f"{lam[0]:.6g}")\n'
         'show("λ_max", f"{lam[-1]:.6g}")\n'
         'show("negative eigenvalues", np.count_nonzero(lam < -threshold))\n')


@memo(max_entries=16)
def mercer_gram(link, Xs, ys, spec):
    """Lesson 5, Gram tab: the spectrum of a registry kernel's Gram matrix, from scikit-learn's kernels."""
    return script(5, "the Gram matrix and its spectrum", link, sklearn_imports(spec),
                   sklearn_kernel(spec) + "\n\n" + CHECKED_POINTS + data(Xs, ys) + "K = kernel(X, X)\n" + EIGEN)


@memo(max_entries=16)
def mercer_rule(link, Xs, ys, rule):
    """Lesson 5, closure rules tab: the rule (a compute_mercer.Rule) applied in numpy to scikit-learn's versions of
    the base kernels."""
    bases = {name: spec for name, (_, spec) in BASE_KERNELS.items()}
    build = {
        "sum": lambda: f"K2 = {sklearn_expr(bases[rule.k2])}\nK = K1 + K2\n",
        "product": lambda: f"K2 = {sklearn_expr(bases[rule.k2])}\nK = K1 * K2   # elementwise (Schur product)\n",
        "scale": lambda: f"K = {rule.c!r} * K1\n",
        "polynomial": lambda: "K = " + " + ".join(f"{a!r} * K1 ** {p}" for p, a in enumerate(rule.coefs)) + "\n",
        "exp": lambda: "K = np.exp(K1)\n",
        "warp": lambda: f"f = {WARP_CODE[rule.warp]}\nK = f[:, None] * K1 * f[None, :]\n",
    }[rule.name]
    used = [bases[rule.k1]] + ([bases[rule.k2]] if rule.name in ("sum", "product") else [])
    return script(5, f"the closure rule '{rule.name}'", link, sklearn_imports(*used),
                   CHECKED_POINTS + data(Xs, ys) + "A = B = X\n"
                   f"K1 = {sklearn_expr(bases[rule.k1])}\n" + build() + EIGEN)


@memo(max_entries=16)
def mercer_invalid(link, Xs, ys, name, formula):
    """Lesson 5, kernels that fail: the function written in kernel_core's formula language, its spectrum."""
    return script(5, f"a function that is not a kernel: {name}", link,
                   "from kernel_core.formula import parse_kernel\n",
                   "# the function as text in kernel_core's formula language (parsed, never run as Python)\n"
                   f"kernel = parse_kernel({formula!r})\n\n"
                   + CHECKED_POINTS + data(Xs, ys) + "K = kernel(X, X)\n" + EIGEN)


@memo(max_entries=16)
def mercer_formula(link, X, y, Xs, ys, expr, params, C):
    """Lesson 5, formula tab: the student's formula parsed by kernel_core (never run as Python), its spectrum,
    and scikit-learn's SVC with it as the kernel."""
    kwargs = ", ".join(f"{k}={v!r}" for k, v in params)
    return script(5, "your kernel formula", link,
                   "from sklearn.svm import SVC\n\nfrom kernel_core.formula import parse_kernel\n",
                   "# your formula is text that kernel_core parses with its own small grammar; never run as Python\n"
                   f"kernel = parse_kernel({expr!r}, {kwargs})\n\n"
                   + CHECKED_POINTS + data(Xs, ys, "Xs", "ys") + "K = kernel(Xs, Xs)\n" + EIGEN + "\n"
                   "# every point, for the SVM\n" + data(X, y)
                   + f"svc = SVC(kernel=kernel, C={C!r}, tol=1e-9).fit(X, y)\n"
                   'show("support vectors (scikit-learn)", svc.support_.size)\n'
                   'show("training error (scikit-learn)", f"{np.mean(svc.predict(X) != y):.1%}")\n'
                   'show("b (intercept) (scikit-learn)", f"{svc.intercept_[0]:.6g}")\n'
                   "# Σα − ½αᵀGα from libsvm's yᵢαᵢ: αᵀGα = Σ yᵢαᵢ (f(xᵢ) − b) over the support vectors. libsvm\n"
                   "# stops at its own tolerance, so expect the page's value to about 5 significant digits\n"
                   "coef = svc.dual_coef_[0]\n"
                   "f_sv = svc.decision_function(X[svc.support_])\n"
                   "objective = np.abs(coef).sum() - 0.5 * np.sum(coef * (f_sv - svc.intercept_[0]))\n"
                   'show("dual objective Σα − ½αᵀGα (scikit-learn)", f"{objective:.6g}")\n')
