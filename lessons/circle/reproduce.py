"""The Reproduce in Python scripts of this lesson's sections (lab/reproduce.py says what they hold)."""

from lab.memo import memo
from lab.reproduce import SKLEARN_HARD_C, c_source, data, phi_function, script


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
    return script(2, "the circle, lifted", link, f"{imports}\nfrom kernel_core.svm import PrimalSVM\n",
                   data(X, y) + "\n\n" + phi_function(lift) + "\n\n"
                   "F = phi(X)\n"
                   f"C = {c_source(C)}\n"
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
