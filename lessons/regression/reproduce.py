"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import core_kernel_args, data, script, sklearn_imports, sklearn_kernel
from lessons.regression.compute import FIT_GRID, GAP


@memo(max_entries=16)
def ridge(link, x, y, spec, lam):
    """Lesson 6, kernel ridge: scikit-learn's KernelRidge solves the same (K + λI)β = y."""
    return script(6, "kernel ridge regression", link,
                   "from sklearn.kernel_ridge import KernelRidge\n" + sklearn_imports(spec),
                   sklearn_kernel(spec) + "\n\n" + data(x, y, "x", "y")
                   + "K = kernel(x, x)\n"
                   f'model = KernelRidge(alpha={lam!r}, kernel="precomputed").fit(K, y)   # its alpha is λ\n'
                   "beta = model.dual_coef_\n"
                   'show("training RMSE", f"{np.sqrt(np.mean((y - model.predict(K)) ** 2)):.4g}")\n'
                   'show("largest |βⱼ|", f"{np.max(np.abs(beta)):.4g}")\n'
                   'show("Σⱼ βⱼ", f"{np.sum(beta):.4g}")\n')


def _phi_source(spec):
    """Source of the finite φ(Z) lessons/regression/compute.py's explicit_map gives this kernel."""
    if spec.name == "linear":
        return "polynomial_features(Z, degree=1, gamma=1.0, coef0=0.0)"
    if spec.name == "poly":
        return f"polynomial_features(Z, degree={spec.degree!r}, gamma={spec.gamma!r}, coef0={spec.coef0!r})"
    return f"gaussian_taylor_features(Z, gamma={spec.gamma!r}, n_terms=MAX_TAYLOR_TERMS)"


@memo(max_entries=16)
def descent(link, x, y, spec, eta_ratio, T, stochastic, seed, explicit):
    """Lesson 6, gradient descent on β (kernel LMS) and, where the page runs it (explicit), LMS on θ with the same
    φ, η, T and order, kernel_core."""
    kernel = core_kernel_args(spec)
    run = f"eta=eta, n_iter={T!r}, stochastic={stochastic!r}, random_state={seed!r}"
    theta = ("\n\ndef phi(Z):\n    return " + _phi_source(spec) + "\n\n\n"
             f"theta = LMS({run}).fit(phi(x), y)\n"
             f"grid = make_grid_1d(x, n={FIT_GRID!r}).points   # the plot's points\n"
             f'show("{GAP}", f"{{np.max(np.abs(theta.predict(phi(grid)) - model.predict(grid))):.3e}}")\n'
             if explicit else "")
    return script(6, "kernel LMS, gradient descent on β", link,
                   "from kernel_core.kernels import make_kernel\n"
                   + ("from kernel_core.feature_maps import MAX_TAYLOR_TERMS, gaussian_taylor_features, "
                      "polynomial_features\nfrom kernel_core.grid import make_grid_1d\n" if explicit else "")
                   + f"from kernel_core.descent import {'LMS, ' if explicit else ''}KernelLMS, max_stable_eta\n",
                   "# scikit-learn has no kernel LMS (gradient descent on β with this step and sample order):\n"
                   "# kernel_core runs it\n"
                   + data(x, y, "x", "y")
                   + f"eta = {eta_ratio!r} * max_stable_eta(make_kernel({kernel})(x, x), stochastic={stochastic!r})\n"
                   f"model = KernelLMS({kernel}, {run}).fit(x, y)\n"
                   'show("η used", f"{eta:.4g}")\n'
                   "show(\"loss after T steps\", f\"{model.history_['loss'][-1]:.6g}\")\n" + theta)


@memo(max_entries=16)
def logistic(link, X, y, spec, lam, T):
    """Lesson 6, kernel logistic regression by gradient descent on β, kernel_core."""
    return script(6, "kernel logistic regression", link,
                   "from kernel_core.logistic import KernelLogisticRegression\n",
                   "# scikit-learn's LogisticRegression works on features, not on β with a Gram matrix and this\n"
                   "# step: kernel_core runs gradient descent on J(β) = Σ log(1 + exp(−yᵢf(xᵢ))) + λ/2 βᵀKβ\n"
                   + data(X, y)
                   + f"model = KernelLogisticRegression({core_kernel_args(spec)}, lam={lam!r}, n_iter={T!r})"
                   ".fit(X, y)\n"
                   'show("training accuracy", f"{np.mean(model.predict(X) == y):.1%}")\n'
                   "show(\"J(β) after T steps\", f\"{model.history_['objective'][-1]:.6g}\")\n")
