"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import (SKLEARN_HARD_C, c_source, core_kernel_args, data, phi_function, script, sklearn_imports,
                           sklearn_kernel)
from lessons.primal_dual.compute import GAP_TOL


@memo(max_entries=16)
def primal_dual(link, X, y, test, space, fmap, spec, offset, C, dual_tol):
    """Lesson 3: the dual by SMO (kernel_core) and by libsvm (scikit-learn), the primal on explicit features."""
    has_phi = space != "kernel"
    imports = ("" if has_phi else sklearn_imports(spec)) + "from sklearn.svm import SVC\n\n" \
        + f"from kernel_core.svm import {'DualSVM, PrimalSVM' if has_phi else 'DualSVM'}\n"
    parts = [data(X, y)]
    if test is not None:
        parts.append("# for the test accuracy: a fresh sample from the same generator and settings (another seed)\n"
                     + data(test[0], test[1], "X_test", "y_test"))
    parts.append("\n\n")
    if space == "explicit":
        parts.append(phi_function(fmap))
    elif space == "linear":
        parts.append("def phi(X):\n    return X   # φ(x) = x\n")
    else:
        parts.append(sklearn_kernel(spec))
    F, F_test = ("phi(X)", "phi(X_test)") if has_phi else ("X", "X_test")
    kernel = 'kernel="linear"' if has_phi else core_kernel_args(spec)
    parts.append(f"\n\nC = {c_source(C)}\n"
                 f"dual = DualSVM({kernel}, C=C, fit_intercept={offset!r}, tol={dual_tol!r}).fit({F}, y)\n")
    if has_phi:
        parts.append(f"primal = PrimalSVM(C=C, fit_intercept={offset!r}).fit({F}, y)\n"
                     'show("w (primal)", vec(primal.coef_))\n'
                     'show("b (primal)", f"{primal.intercept_:.6f}")\n'
                     'show("objective (primal)", f"{primal.primal_objective_:.8f}")\n'
                     'show("w (dual)", vec(dual.coef_))\n'
                 "gap = primal.primal_objective_ - dual.dual_objective_\n"
                 f"# the page's rule: within {GAP_TOL:g} of the objective the gap is the solvers' round-off\n"
                 f"tiny = abs(gap) <= {GAP_TOL!r} * max(1.0, abs(primal.primal_objective_))\n"
                 'show("duality gap", "0 within tolerance" if tiny else f"{gap:.2e}")\n'
                 'show("total slack Σξᵢ of the primal", f"{primal.slack_.sum():.6f}")\n')
    else:
        parts.append('show("duality gap", "—")   # no primal without a finite φ\n')
    parts.append('show("α (dual)", vec(dual.alpha_))\n'
                 'show("b (dual)", f"{dual.intercept_:.6f}")\n'
                 'show("objective (dual)", f"{dual.dual_objective_:.8f}")\n'
                 'show("margin 1/‖w‖", f"{1 / dual.norm_w_:.4f}" if dual.norm_w_ > 0 else "—")\n'
                 'show("support vectors", f"{dual.support_.size} / {y.size}")\n'
                 'show("E_cv ≤ #SV/N", f"{dual.support_.size / y.size:.3f}")\n'
                 'show("largest KKT violation of the dual", f"{dual.kkt_.max_violation:.2e}")\n'
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
    return script(3, "SVM, primal versus dual", link, imports, "".join(parts))
