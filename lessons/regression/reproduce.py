"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import core_kernel_args, data, script, sklearn_imports, sklearn_kernel


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


@memo(max_entries=16)
def descent(link, x, y, spec, eta_ratio, T, stochastic, seed):
    """Lesson 6, gradient descent on β (kernel LMS), kernel_core."""
    kernel = core_kernel_args(spec)
    return script(6, "kernel LMS, gradient descent on β", link,
                   "from kernel_core.kernels import make_kernel\n"
                   "from kernel_core.descent import KernelLMS, max_stable_eta\n",
                   "# scikit-learn has no kernel LMS (gradient descent on β with this step and sample order):\n"
                   "# kernel_core runs it\n"
                   + data(x, y, "x", "y")
                   + f"eta = {eta_ratio!r} * max_stable_eta(make_kernel({kernel})(x, x), stochastic={stochastic!r})\n"
                   f"model = KernelLMS({kernel}, eta=eta, n_iter={T!r}, stochastic={stochastic!r}, "
                   f"random_state={seed!r}).fit(x, y)\n"
                   'show("η used", f"{eta:.4g}")\n'
                   "show(\"loss after T steps\", f\"{model.history_['loss'][-1]:.6g}\")\n")


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
