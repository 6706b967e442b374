"""Lesson 5: Mercer's theorem. Is K a kernel? The Gram matrix, its spectrum, the closure rules,
kernels that fail, and a box for the student's own formula."""

import inspect
import warnings

import numpy as np
import streamlit as st

from figures.boundary import decision_figure
from figures.mercer import certificate_figure, gram_heatmap, spectrum_figure
from kernel_core.formula import MAX_LENGTH, parse_kernel
from kernel_core.grid import make_grid
from kernel_core.kernels import make_kernel
from kernel_core.mercer import CLOSURE_RULES, INVALID_KERNELS, check_psd
from kernel_core.svm import DualSVM
from lessons import common

# each figure is built once per distinct input (see common.cached_figure)
decision_figure, certificate_figure, gram_heatmap, spectrum_figure = map(
    common.cached_figure, (decision_figure, certificate_figure, gram_heatmap, spectrum_figure))

# the Gram matrix of at most this many points is checked and drawn (150² float32 ≈ 120 KB of heatmap)
MAX_POINTS = 150
TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", "Your formula"]
# base kernels for the closure rules: valid kernels with fixed parameters, so the rule is the only variable
BASE_KERNELS = {
    "linear": ("x·z", dict(kernel="linear")),
    "poly": ("(x·z + 1)²", dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)),
    "rbf": ("exp(−‖x − z‖²)", dict(kernel="rbf", gamma=1.0)),
    "laplacian": ("exp(−‖x − z‖₁)", dict(kernel="laplacian", gamma=1.0)),
}
RULE_LABELS = {name: rule.formula for name, rule in CLOSURE_RULES.items()}


def _f_bump(X):
    return np.exp(-np.sum(X**2, axis=1))


def _f_first(X):
    return X[:, 0]


def _f_affine(X):
    return 1.0 + X[:, 1]


WARPS = {"bump": ("f(x) = exp(−‖x‖²)", _f_bump), "first": ("f(x) = x₁", _f_first),
         "affine": ("f(x) = 1 + x₂", _f_affine)}
EXAMPLES = {
    "Gaussian": "exp(-g * norm(x - z)**2)",
    "polynomial": "(dot(x, z) + r)**d",
    "Laplacian-like": "exp(-g * norm(x - z))",
    "sigmoid": "tanh(g * dot(x, z) + r)",
    "−‖x − z‖²": "-norm(x - z)**2",
}
FORMULA_DEFAULT = EXAMPLES["Gaussian"]
CERTIFICATE_TEXT = (
    "**Reading the certificate.** c is the eigenvector of the smallest eigenvalue. If K were φ(x)·φ(z), "
    "then cᵀKc would be ‖Σᵢ cᵢ φ(xᵢ)‖², a squared length, never below 0. check_psd recomputes cᵀKc from K "
    "itself and finds it negative, so no feature map φ can produce this K: the big markers are the points "
    "that carry the contradiction."
)
R_VALUES = (-2.0, 2.0, 1.0, 0.25)  # min, max, default, step of the additive constant r


# ---------------------------------------------------------------- cached core calls

@st.cache_data(max_entries=32, show_spinner=False)
def gram_points(X, y):
    """At most MAX_POINTS of the points (a fixed random subset), class −1 first: the heatmap shows two blocks."""
    idx = np.arange(X.shape[0])
    if idx.size > MAX_POINTS:
        idx = np.sort(np.random.default_rng(0).choice(idx, MAX_POINTS, replace=False))
    idx = idx[np.argsort(y[idx], kind="stable")]
    return X[idx], y[idx]


def _report(K):
    check = check_psd(K)
    return {
        "K": K, "is_psd": check.is_psd, "is_symmetric": check.is_symmetric, "eigenvalues": check.eigenvalues,
        "min_eigenvalue": check.min_eigenvalue, "max_eigenvalue": float(check.eigenvalues[-1]),
        "threshold": check.threshold, "n_negative": check.n_negative, "certificate": check.certificate,
        "quadratic_form": check.quadratic_form, "reason": check.reason,
    }


@st.cache_data(max_entries=32, show_spinner=False)
def analyze_kernel(Xs, kernel, gamma, degree, coef0):
    """check_psd on the Gram matrix of a registry kernel."""
    return _report(make_kernel(kernel, gamma=gamma, degree=degree, coef0=coef0)(Xs))


@st.cache_data(max_entries=32, show_spinner=False)
def analyze_rule(Xs, rule, k1, k2, c, coefs, warp):
    """Build a kernel with one closure rule from the base kernels and check its Gram matrix."""
    base1, base2 = make_kernel(**BASE_KERNELS[k1][1]), make_kernel(**BASE_KERNELS[k2][1])
    arguments = {"sum": (base1, base2), "product": (base1, base2), "scale": (base1, c),
                 "polynomial": (base1, coefs), "exp": (base1,), "warp": (base1, WARPS[warp][1])}[rule]
    return _report(CLOSURE_RULES[rule].build(*arguments)(Xs))


@st.cache_data(max_entries=32, show_spinner=False)
def analyze_scaled(Xs, k1, c):
    """check_psd of c·K₁ itself, to show why the scale rule must refuse c ≤ 0."""
    return _report(c * make_kernel(**BASE_KERNELS[k1][1])(Xs))


@st.cache_data(max_entries=32, show_spinner=False)
def analyze_invalid(Xs, name):
    return _report(INVALID_KERNELS[name].kernel(Xs))


@st.cache_data(max_entries=32, show_spinner=False)
def analyze_formula(Xs, expr, params):
    """Parse the formula (never eval'd) and check its Gram matrix on the points."""
    return _report(parse_kernel(expr, **dict(params))(Xs))


@st.cache_data(max_entries=32, show_spinner=False)
def fit_formula_svm(X, y, expr, params, C):
    """DualSVM with the parsed formula as its kernel, and f on the grid."""
    k = parse_kernel(expr, **dict(params))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svm = DualSVM(k, C=C).fit(X, y)
    grid = make_grid(X, n=common.GRID_POINTS)
    Z = svm.decision_function(grid.points).reshape(grid.y.size, grid.x.size)
    status = svm.kkt_.status
    return {
        "xs": grid.x, "ys": grid.y, "Z": Z.astype(np.float32),
        "free_sv": np.flatnonzero(status == "free SV"), "bounded_sv": np.flatnonzero(status == "bounded SV"),
        "n_support": int(svm.support_.size), "intercept": float(svm.intercept_),
        "dual_objective": float(svm.dual_objective_), "train_error": float(np.mean(svm.predict(X) != y)),
        "warnings": [str(w.message) for w in caught],
    }


# ---------------------------------------------------------------- page

def intro():
    st.title("Mercer's theorem: is K a kernel?")
    st.markdown(
        "A function $K(x, z)$ is a kernel when some feature map gives $K(x, z) = \\phi(x)\\cdot\\phi(z)$. "
        "You rarely see $\\phi$, but you can test the consequence: for **every** finite set of points the "
        "Gram matrix is symmetric and positive semi-definite. One negative eigenvalue on one set of points is "
        "a proof that $K$ is not a kernel: its eigenvector $c$ would be a combination with negative squared length."
    )
    st.latex(r"K \text{ valid} \iff K_{ij} = K(x_i, x_j) \text{ symmetric and } "
             r"c^\top K c = \Big\|\sum_i c_i\,\phi(x_i)\Big\|^2 \ge 0 \ \ \forall c,\ \forall x_1,\dots,x_m")


def verdict(report, *, what="K"):
    """The PSD verdict with check_psd's reason and its numbers."""
    if report["is_psd"]:
        st.success(f"**{what} passes on these points.** {report['reason']}", icon=":material/check_circle:")
    else:
        st.warning(f"**{what} is not a kernel.** {report['reason']}", icon=":material/cancel:")
    m = st.columns(4)
    m[0].metric("λ_min", f"{report['min_eigenvalue']:.6g}")
    m[1].metric("λ_max", f"{report['max_eigenvalue']:.6g}")
    m[2].metric("negative eigenvalues", report["n_negative"])
    m[3].metric("cᵀKc", "—" if report["quadratic_form"] is None else f"{report['quadratic_form']:.6g}",
                help="c is the unit eigenvector of λ_min; shown only when it proves K is not PSD.")


def spectrum_and_certificate(report, Xs, ys, key):
    left, right = st.columns(2, gap="medium")
    with left:
        st.plotly_chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key=f"{key}_spectrum",
                        config={"displaylogo": False})
    with right:
        if report["certificate"] is not None:
            st.plotly_chart(certificate_figure(Xs, ys, report["certificate"], report["quadratic_form"]),
                            key=f"{key}_certificate", config={"displaylogo": False})
        else:
            st.info("No certificate: no eigenvalue is below the rounding level, so no c with cᵀKc < 0 exists "
                    "for these points.", icon=":material/info:")


def gram_tab(Xs, ys, n_all):
    left, right = st.columns([1, 2], gap="large")
    with left:
        kernel = common.kernel_controls("mc")
    report = analyze_kernel(Xs, kernel["kernel"], kernel["gamma"], kernel["degree"], kernel["coef0"])
    with right:
        verdict(report)
    left, right = st.columns(2, gap="medium")
    with left:
        st.plotly_chart(gram_heatmap(report["K"], ys), key="mc_gram", config={"displaylogo": False})
    with right:
        st.plotly_chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key="mc_spectrum",
                        config={"displaylogo": False})
    if report["certificate"] is not None:
        left, right = st.columns(2, gap="medium")
        left.plotly_chart(certificate_figure(Xs, ys, report["certificate"], report["quadratic_form"]),
                          key="mc_certificate", config={"displaylogo": False})
        right.markdown(CERTIFICATE_TEXT)
    subset = "" if n_all <= MAX_POINTS else f" (a fixed random {MAX_POINTS} of your {n_all})"
    st.caption(f"{Xs.shape[0]} points{subset}. Try the sigmoid kernel: tanh(γ x·z + r) fails for most γ and r.")
    with st.expander("The numbers: every eigenvalue, and the source of check_psd"):
        st.dataframe({"rank": np.arange(1, report["eigenvalues"].size + 1),
                      "λ (largest first)": report["eigenvalues"][::-1]}, height=220)
        st.code(inspect.getsource(check_psd), language="python")


def rule_controls():
    a, b = st.columns(2)
    rule = a.selectbox("Rule", list(CLOSURE_RULES), format_func=RULE_LABELS.get, key="mc_rule",
                       bind="query-params")
    k1 = b.selectbox("K₁ (a valid base kernel)", list(BASE_KERNELS), format_func=lambda k: BASE_KERNELS[k][0],
                     key="mc_k1", bind="query-params", index=2)
    params = {"rule": rule, "k1": k1, "k2": "linear", "c": 2.0, "coefs": (1.0, 1.0, 0.5), "warp": "bump"}
    if rule in ("sum", "product"):
        params["k2"] = b.selectbox("K₂ (a second valid kernel)", list(BASE_KERNELS),
                                   format_func=lambda k: BASE_KERNELS[k][0], key="mc_k2", bind="query-params")
    if rule == "scale":
        params["c"] = a.slider("c (the scale; the rule needs c > 0)", -3.0, 3.0, 2.0, 0.5, key="mc_c",
                               bind="query-params")
    if rule == "polynomial":
        cols = st.columns(3)
        params["coefs"] = tuple(
            cols[p].number_input(f"a{p} (coefficient of K^{p})", -3.0, 3.0, default, 0.5, key=f"mc_a{p}",
                                 bind="query-params")
            for p, default in enumerate((1.0, 1.0, 0.5)))
    if rule == "warp":
        params["warp"] = a.selectbox("f (any real function of x)", list(WARPS), format_func=lambda w: WARPS[w][0],
                                     key="mc_warp", bind="query-params")
    return params


def rules_tab(Xs, ys):
    st.markdown("Valid kernels combine into valid kernels. Each rule below comes with the feature map that "
                "proves it; build a kernel with one and check it on your points. The rules only ask for "
                "non-negative numbers, and the core refuses anything else with an error, as it must: see what "
                "a negative scale would do.")
    p = rule_controls()
    rule = CLOSURE_RULES[p["rule"]]
    st.markdown(f"**{rule.formula}** is a kernel because {rule.why}")
    try:
        report = analyze_rule(Xs, p["rule"], p["k1"], p["k2"], p["c"], p["coefs"], p["warp"])
    except ValueError as exc:
        common.show_error(exc, stop=False)
        if p["rule"] == "scale":
            report = analyze_scaled(Xs, p["k1"], p["c"])
            scaled = f"({p['c']:g})·K₁"
            st.markdown(f"Why the rule refuses: every eigenvalue of {scaled} is {p['c']:g} times one of K₁'s, "
                        f"so the largest turns into the most negative. check_psd on {scaled}:")
            verdict(report, what=scaled)
            spectrum_and_certificate(report, Xs, ys, "mc_scaled")
        return
    verdict(report, what=rule.formula)
    spectrum_and_certificate(report, Xs, ys, "mc_rule")
    with st.expander("The source of this rule"):
        st.code(inspect.getsource(rule.build), language="python")


def request_formula(expr):
    """Fill the formula box and open its tab (a button callback)."""
    st.session_state["mc_formula"] = expr
    st.session_state["mc_tab"] = TABS[3]


def invalid_tab(Xs, ys):
    st.markdown("Some functions look like kernels and are not. Each fails Mercer's condition on a small set "
                "of points, and check_psd finds the set's certificate c.")
    name = st.selectbox("A function that is not a kernel", list(INVALID_KERNELS), key="mc_invalid",
                        bind="query-params")
    entry = INVALID_KERNELS[name]
    a, b = st.columns([3, 1], vertical_alignment="center")
    a.markdown(f"`K(x, z) = {entry.formula}` — {entry.why}")
    b.button("Try it in the formula box", on_click=request_formula, args=(entry.formula,), key="mc_try")
    report = analyze_invalid(Xs, name)
    verdict(report, what=name)
    if report["is_psd"]:
        st.info("On these points it happens to pass; Mercer's condition asks for every set of points. "
                "Change the dataset, n or the seed in the sidebar.", icon=":material/info:")
    spectrum_and_certificate(report, Xs, ys, "mc_invalid")


def formula_controls():
    cols = st.columns(len(EXAMPLES) + 1, vertical_alignment="center")
    cols[0].markdown("**Examples:**")
    for col, (label, expr) in zip(cols[1:], EXAMPLES.items()):
        col.button(label, on_click=request_formula, args=(expr,), key=f"mc_example_{label}", width="stretch")
    # once the box has a value (typed, from the URL or set by a button) the session state holds it;
    # passing a default as well would make Streamlit warn about two sources
    default = None if "mc_formula" in st.session_state else FORMULA_DEFAULT
    expr = st.text_input(
        f"K(x, z) = (at most {MAX_LENGTH} characters)", default, max_chars=MAX_LENGTH, key="mc_formula",
        bind="query-params",
        help="Use x, z, numbers, the parameters g, r, d, + − * / ** and dot, norm, exp, tanh, sqrt, abs. "
             "Nothing you type is run as Python: the formula is parsed and only these pieces are allowed.")
    a, b, c = st.columns(3)
    with a:
        g = common.log_slider("g (a scale you can use)", "mc_g", common.GAMMA_VALUES, 1.0)
    r = b.slider("r (an offset you can use)", *R_VALUES, key="mc_r", bind="query-params")
    d = c.slider("d (a power you can use)", 1, 10, 2, key="mc_d", bind="query-params")
    return expr, (("d", float(d)), ("g", g), ("r", r))


def formula_tab(X, y, Xs, ys):
    expr, params = formula_controls()
    try:
        report = analyze_formula(Xs, expr, params)
    except ValueError as exc:
        common.show_error(exc, stop=False)
        return
    verdict(report, what=f"`K(x, z) = {expr}`")
    if not report["is_psd"]:
        spectrum_and_certificate(report, Xs, ys, "mc_formula")
        st.info("No SVM for this formula: with a Gram matrix that is not PSD the dual is not a concave problem, "
                "so its maximum may not exist and SMO's answer would mean nothing.", icon=":material/info:")
        return
    left, right = st.columns(2, gap="medium")
    with left:
        st.plotly_chart(spectrum_figure(report["eigenvalues"], report["threshold"]), key="mc_formula_spectrum",
                        config={"displaylogo": False})
    with right:
        st.markdown("**An SVM with your kernel** (DualSVM on all the points, the parsed formula as its kernel)")
        C = common.log_slider("C (box constraint)", "mc_C", common.C_VALUES, 1.0)
        try:
            svm = fit_formula_svm(X, y, expr, params, C)
        except ValueError as exc:
            common.show_error(exc, stop=False)
            return
        for message in svm["warnings"]:
            st.warning(message, icon=":material/warning:")
        fig = decision_figure(svm["xs"], svm["ys"], svm["Z"], X, y, free_sv=svm["free_sv"],
                              bounded_sv=svm["bounded_sv"])
        common.boundary_chart(fig, key="mc_svm")
        a, b = st.columns(2)
        a.metric("support vectors", svm["n_support"])
        b.metric("training error", f"{svm['train_error']:.1%}")
        a.metric("b (intercept)", f"{svm['intercept']:.6g}")
        b.metric("dual objective Σα − ½αᵀGα", f"{svm['dual_objective']:.6g}")


def main():
    intro()
    X, y = common.training_data()
    Xs, ys = gram_points(X, y)
    tabs = st.tabs(TABS, key="mc_tab", bind="query-params")
    bodies = [lambda: gram_tab(Xs, ys, X.shape[0]), lambda: rules_tab(Xs, ys), lambda: invalid_tab(Xs, ys),
              lambda: formula_tab(X, y, Xs, ys)]
    for tab, body in zip(tabs, bodies):
        with tab:
            # only the open tab runs (tabs bound to the URL are lazy)
            if tab.open:
                try:
                    body()
                except ValueError as exc:
                    common.show_error(exc)


main()
