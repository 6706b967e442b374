"""The "Reproduce in Python" scripts: for each lesson section, the code that recomputes the numbers on its page
with scikit-learn where scikit-learn has the same computation, and with kernel_core (this lab's pure-numpy package,
importable from a checkout of the lab) where it has none, which the script says in a comment. Pure Python (no
Streamlit): one template per section, fed from the inputs of the page's compute call, memoized, so an open
"Reproduce" box costs a lookup per rerun.

A script is self-contained apart from its imports: it carries the points the page trained on at full precision
(the repr of each float, which reads back to the same float) and every setting. It prints one line per number,
"label: value", with the page's own label and format where the page shows that number, so its output can be read
against the page line by line (tests/pages/test_reproduce.py does). A student's kernel formula travels as a string that
kernel_core.formula parses; no text a student typed ever becomes Python code.
"""


from lab.state import KERNEL_LABELS

# scikit-learn's SVC has no C = ∞; this C stands in for the hard margin there (as in lesson 3's comparison)
SKLEARN_HARD_C = 1e6
HELPERS = ('def show(label, value):\n'
           '    print(f"{label}: {value}")\n\n\n'
           'def vec(v):\n'
           '    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"\n\n\n')
# the function of sklearn.metrics.pairwise each kernel is computed with
SKLEARN_FUNCTION = {"linear": "linear_kernel", "poly": "polynomial_kernel", "rbf": "rbf_kernel",
                    "laplacian": "laplacian_kernel", "exponential": "euclidean_distances", "sigmoid": "sigmoid_kernel"}
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


def num(v):
    return repr(float(v))


def c_source(C):
    """C as Python source: np.inf for the hard margin."""
    return "np.inf" if C == float("inf") else repr(float(C))


def vector(values):
    return "np.array([" + ", ".join(num(v) for v in values) + "])"


def matrix(X):
    rows = ",\n    ".join("[" + ", ".join(num(v) for v in row) + "]" for row in X)
    return f"np.array([\n    {rows},\n])"


def data(X, y, x_name="X", y_name="y"):
    """Assignments of the points (full precision) and their labels or targets."""
    return f"{x_name} = {matrix(X)}\n{y_name} = {vector(y)}\n"


# a script saved anywhere and run as `python file.py` has its own folder on sys.path, not the one it is run from:
# the checkout's root, where kernel_core is, is put there (a path the server knows would be wrong on another machine)
CHECKOUT = ("# kernel_core is Kernel Lab's own package: the folder this runs from, the checkout's root, holds it\n"
            "sys.path.insert(0, os.getcwd())\n")


def script(number, title, link, imports, body, stdlib=""):
    """A whole script: what it reproduces and the view's link, the imports (stdlib: of the standard library, first),
    the printing helpers, the body. One that uses kernel_core finds it when run from the root of a checkout."""
    core = "kernel_core" in imports
    if core:
        stdlib = "import os\nimport sys\n" + stdlib
    return (f"# Kernel Lab, lesson {number}: {title}. Recomputes the page's numbers for this view:\n"
            + (f"# {link}\n" if link else "")
            + ("# Save it and run it from the root of a Kernel Lab checkout (python reproduce.py), with numpy and "
               "scikit-learn installed.\n" if core else "# It needs numpy and scikit-learn.\n")
            + (stdlib + "\n" if stdlib else "") + (CHECKOUT + "\n" if core else "")
            + "import numpy as np\n" + imports + "\n\n" + HELPERS + body)


def sklearn_expr(spec):
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


def sklearn_imports(*specs):
    """The import line of the scikit-learn functions that compute these KernelSpecs."""
    return f"from sklearn.metrics.pairwise import {', '.join(sorted({SKLEARN_FUNCTION[s.name] for s in specs}))}\n"


def sklearn_kernel(spec):
    """Source of the function kernel(A, B) -> Gram of a KernelSpec."""
    return f'def kernel(A, B):\n    """The kernel {KERNEL_LABELS[spec.name]}"""\n    return {sklearn_expr(spec)}\n'


def core_kernel_args(spec):
    """A KernelSpec as kernel_core's keyword arguments."""
    return ", ".join(f"{k}={v!r}" for k, v in spec.params().items())


def phi_function(name):
    return f'def phi(X):\n    """The feature map φ, one row per point."""\n    return {PHI[name]}\n'
