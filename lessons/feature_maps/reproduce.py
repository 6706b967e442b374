"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import MAP_KERNEL, data, num, phi_function, script


@memo(max_entries=16)
def feature_check(link, name, x, z):
    """Lesson 1, section 1: φ(x)·φ(z) against K(x, z)."""
    imports = ("from sklearn.metrics.pairwise import polynomial_kernel\n"
               if "polynomial_kernel" in MAP_KERNEL[name] else "")
    return script(1, "K(x, z) = φ(x)·φ(z) on two points", link, imports,
                   f"X = np.array([[{', '.join(num(v) for v in x)}]])   # x\n"
                   f"Z = np.array([[{', '.join(num(v) for v in z)}]])   # z\n\n\n"
                   + phi_function(name) + "\n\n"
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
    return script(1, "what the kernel trick saves", link,
                   "\nfrom kernel_core.feature_maps import operation_counts\n",
                   f"d, p = {d!r}, {p!r}\n"
                   "# the lab's own count of multiplications and additions (its docstring says what it counts)\n"
                   "c = operation_counts(d, p)\n"
                   'show("dim φ = C(d+p, p)", f"{comb(d + p, p):,}")\n'
                   'show("explicit / kernel", f"{c.explicit_total / c.kernel_total:,.1f}×")\n',
                   stdlib="from math import comb\n")


@memo(max_entries=16)
def taylor(link, gamma, z, m, x_lo, x_hi, x_count):
    """Lesson 1, section 3: the m-term Taylor map of the 1-D Gaussian against scikit-learn's rbf_kernel."""
    return script(1, "the Gaussian's truncated Taylor feature map", link,
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
    return script(1, "gradient descent on θ and on β, cubic house prices", link,
                   "from kernel_core.grid import make_grid_1d\n"
                   "from kernel_core.descent import LMS, KernelLMS, max_stable_eta\n",
                   "# scikit-learn has no plain gradient descent on least squares with this step and sample order\n"
                   "# (SGDRegressor schedules and regularizes its steps): kernel_core's LMS and KernelLMS run it.\n"
                   + data(x, y, "x", "y") + "\n\n"
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
