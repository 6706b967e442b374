"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import core_kernel_args, data, script


@memo(max_entries=16)
def pegasos(link, X, y, spec, lam, T, seed, max_epochs):
    """Lesson 4: Pegasos, the exact optimum and the kernel perceptron, all kernel_core."""
    kernel = core_kernel_args(spec)
    return script(4, "Pegasos and the kernel perceptron", link,
                   "from kernel_core.pegasos import KernelPegasos\n"
                   "from kernel_core.perceptron import KernelPerceptron\n"
                   "from kernel_core.svm import DualSVM\n",
                   "# scikit-learn has neither kernelized Pegasos (Algorithm 1 of the notes) nor a kernel\n"
                   "# perceptron, and its SVC always fits an offset, which Pegasos' objective has not: kernel_core\n"
                   "# runs all three.\n"
                   + data(X, y) + "\n"
                   f"lam, T = {lam!r}, {T!r}\n"
                   f"run = KernelPegasos({kernel}, lam=lam, n_iter=T, random_state={seed!r}).fit(X, y)\n"
                   "# λ/2‖w‖² + (1/n)Σ hinge = λ(½‖w‖² + CΣξᵢ) with C = 1/(λn): the SVM through the origin\n"
                   "# (the page shows no optimum where K is not PSD on these points or the dual did not converge)\n"
                   f"svm = DualSVM({kernel}, C=1 / (lam * len(y)), fit_intercept=False).fit(X, y)\n"
                   "optimum = lam * svm.dual_objective_\n"
                   f"perceptron = KernelPerceptron({kernel}, max_epochs={max_epochs!r}).fit(X, y)\n"
                   "show(\"objective at α̂ (t = T)\", f\"{run.history_['objective_avg'][-1]:.6g}\")\n"
                   "show(\"objective at αᵀ\", f\"{run.history_['objective_last'][-1]:.6g}\")\n"
                   'show("exact optimum (SVM dual)", f"{optimum:.6g}")\n'
                   "show(\"α̂ above the optimum by\", f\"{run.history_['objective_avg'][-1] - optimum:.3g}\")\n"
                   'show("training error of α̂", f"{np.mean(run.predict(X) != y):.1%}")\n'
                   "show(\"total mistakes Σ αᵢ\", int(perceptron.history_['n_mistakes']))\n"
                   'show("training error", f"{np.mean(perceptron.predict(X) != y):.1%}")\n')
