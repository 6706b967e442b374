"""What each lesson shows is true: hypothesis draws the sidebar (dataset, n, noise, seed) and the page's own
controls from the URL schema (lab/state.py), opens the page under AppTest, and recomputes the numbers on
screen independently: Gram matrices with scikit-learn's pairwise kernels or numpy, eigenvalues with numpy's
eigvalsh, SVM duals with scikit-learn's SVC on a precomputed kernel, kernel ridge with scikit-learn's
KernelRidge, objectives with numpy from the coefficients the page lists. Where an independent solver does not
exist (a plane through the origin, the hard margin) the core's other solver (the dual, not the page's primal)
is used."""

import re
import warnings

import numpy as np
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as hs
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import (euclidean_distances, laplacian_kernel, polynomial_kernel, rbf_kernel,
                                      sigmoid_kernel)
from sklearn.svm import SVC
from streamlit.testing.v1 import AppTest

import datasets
from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.svm import DualSVM, PrimalSVM
from lessons.mercer.compute import EXAMPLES, gram_points
from lab.state import FIELDS
from pageutil import NUMBERS_OPEN, ROOT, metrics, table

# no shrinking: one page run costs up to seconds, and a failure prints its whole setting anyway
SWEEP = settings(max_examples=12, deadline=None, database=None, phases=(Phase.explicit, Phase.generate),
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# λ below −PSD_RTOL·max|λ| is a negative eigenvalue, anything smaller rounding (as kernel_core.mercer)
PSD_RTOL = 1e-10
# the widgets' steps, where a control has one (lab/sidebar.py, the lesson pages)
STEPS = {"n": 10, "noise": 0.01, "pd_coef0": 0.25, "pg_coef0": 0.25, "mc_coef0": 0.25, "rg_coef0": 0.25,
         "rgl_coef0": 0.25, "mc_c": 0.5, "mc_a0": 0.5, "mc_a1": 0.5, "mc_a2": 0.5, "mc_r": 0.25, "pg_T": 100}
SIDEBAR = ("dataset", "n", "noise", "seed")


def field(key):
    """The values a student can give control `key`, from its schema entry (and its widget's step)."""
    f = FIELDS[key]
    if f.kind == "choice":
        return hs.sampled_from(f.choices)
    if f.kind == "bool":
        return hs.booleans()
    step = STEPS.get(key, 1 if f.kind == "int" else None)
    if step is None:
        return hs.floats(f.lo, f.hi, allow_nan=False)
    count = round((f.hi - f.lo) / step)
    kind = int if f.kind == "int" else float
    return hs.integers(0, count).map(lambda k: kind(round(f.lo + k * step, 10)))


def controls(*keys, n_max=None):
    """A fixed dictionary of draws: the sidebar's four controls and `keys`; n_max caps n (and T of Pegasos)
    where a page fits an SVM per draw, so the sweep stays within minutes on a busy machine."""
    draws = {key: field(key) for key in (*SIDEBAR, *keys)}
    # the binary lessons' numbers: a three-class dataset is refused there (tests/pages/test_page_primal_dual.py checks
    # that, and lesson 3's one-vs-rest against scikit-learn)
    draws["dataset"] = hs.sampled_from([d for d in FIELDS["dataset"].choices
                                        if datasets.DATASET_INFO[d].task != "multiclass"])
    if n_max is not None:
        draws["n"] = hs.integers(1, n_max // STEPS["n"]).map(lambda k: k * STEPS["n"])
        if "pg_T" in draws:
            draws["pg_T"] = hs.integers(1, 10 * n_max // STEPS["pg_T"]).map(lambda k: k * STEPS["pg_T"])
    return hs.fixed_dictionaries(draws)


def open_at(page, values, state=None):
    """The lesson `page` opened through app.py with every control in `values` (and `state`) set beforehand."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in {**values, **(state or {})}.items():
        at.session_state[key] = value
    at.run()
    at.switch_page(f"lessons/{page}/page.py")
    at.run()
    assert not at.exception, (values, [e.value for e in at.exception])
    return at


def sidebar_data(values, name=None):
    return datasets.DATASETS[name or values["dataset"]](values["n"], noise=values["noise"],
                                                        random_state=values["seed"])


def gram(name, X, Y=None, *, gamma=None, degree=3, coef0=1.0):
    """K(X, Y) from scikit-learn's pairwise kernels (numpy for the exponential kernel)."""
    Y = X if Y is None else Y
    if name == "linear":
        return X @ Y.T
    if name == "poly":
        return polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)
    if name == "rbf":
        return rbf_kernel(X, Y, gamma=gamma)
    if name == "laplacian":
        return laplacian_kernel(X, Y, gamma=gamma)
    if name == "exponential":
        return np.exp(-gamma * euclidean_distances(X, Y))
    if name == "sigmoid":
        return sigmoid_kernel(X, Y, gamma=gamma, coef0=coef0)
    raise AssertionError(name)


def kernel_of(values, prefix):
    """(name, gamma, degree, coef0) of a kernel chooser as the page reads it (lab/widgets.kernel_controls)."""
    name = values[f"{prefix}_kernel"]
    gamma = None if name == "linear" else values[f"{prefix}_gamma"]
    degree = values[f"{prefix}_degree"] if name == "poly" else 3
    coef0 = values[f"{prefix}_coef0"] if name in ("poly", "sigmoid") else 1.0
    return dict(name=name, gamma=gamma, degree=degree, coef0=coef0)


def min_eigenvalue(K):
    """(λ_min, the rounding threshold PSD_RTOL·max|λ|) of the symmetric part of K."""
    lam = np.linalg.eigvalsh(0.5 * (K + K.T))
    return float(lam[0]), PSD_RTOL * float(np.abs(lam).max())


def messages(elements):
    return [e.value for e in elements]


# ---- lesson 3: the SVM, primal versus dual ---------------------------------------------------------------

PD_KEYS = ("pd_space", "pd_offset", "pd_hard", "pd_C", "pd_phi", "pd_kernel", "pd_gamma", "pd_degree", "pd_coef0")


def pd_problem(values):
    """(the points the dual sees: X or φ(X), its Gram matrix, the kernel name for the core, its parameters)."""
    X, y = sidebar_data(values)
    if values["pd_space"] == "kernel":
        k = kernel_of(values, "pd")
        return X, y, gram(k["name"], X, gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"]), k
    F = FEATURE_MAPS[values["pd_phi"]].phi(X) if values["pd_space"] == "explicit" else X
    return F, y, F @ F.T, dict(name="linear", gamma=None, degree=3, coef0=1.0)


def pd_dual_column(at):
    df = table(at, "quantity")
    return {row["quantity"]: row.iloc[2] for _, row in df.iterrows()}


def pd_primal_column(at):
    df = table(at, "quantity")
    return {row["quantity"]: row.iloc[1] for _, row in df.iterrows()}


def svc_dual_objective(K, y, C):
    """Σα − ½αᵀGα of scikit-learn's SVC on the precomputed K; None when libsvm did not converge."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        svc = SVC(kernel="precomputed", C=C, tol=1e-10, max_iter=5_000_000).fit(K, y)
    if caught or svc.fit_status_ != 0:
        return None
    coef, sv = svc.dual_coef_[0], svc.support_
    return float(np.abs(coef).sum() - 0.5 * coef @ K[np.ix_(sv, sv)] @ coef)


@SWEEP
# settings where the page once showed a wrong number: K called not PSD for φ(x) = x (αᵀGα = −3e-17 is rounding);
# a margin of 33554432 for w = 0; ‖w‖ and a margin for a sigmoid K with λ_min = −6e-4
@example(values={"dataset": "circles", "n": 10, "noise": 0.0, "seed": 0, "pd_space": "linear", "pd_offset": False,
                 "pd_hard": False, "pd_C": 0.01, "pd_phi": "poly2_full", "pd_kernel": "poly", "pd_gamma": 0.01,
                 "pd_degree": 1, "pd_coef0": -2.0})
@example(values={"dataset": "circles", "n": 10, "noise": 0.0, "seed": 0, "pd_space": "linear", "pd_offset": False,
                 "pd_hard": False, "pd_C": 0.562, "pd_phi": "poly2_full", "pd_kernel": "poly", "pd_gamma": 0.01,
                 "pd_degree": 1, "pd_coef0": -2.0})
@example(values={"dataset": "blobs", "n": 40, "noise": 0.03, "seed": 5, "pd_space": "kernel", "pd_offset": False,
                 "pd_hard": True, "pd_C": 1.78, "pd_phi": "paraboloid", "pd_kernel": "sigmoid", "pd_gamma": 3.16,
                 "pd_degree": 6, "pd_coef0": -0.75})
@given(values=controls(*PD_KEYS, n_max=200))
def test_primal_dual_page_shows_a_true_gap_margin_accuracy_and_dual_objective(values):
    at = open_at("primal_dual", values)
    errors = messages(at.error)
    if any("stopped after" in e for e in errors):
        assert not at.metric, f"{values}: a solver stopped, yet metrics are shown: {metrics(at)}"
        return
    if errors:      # the core refused the setting (e.g. a hard margin on data that is not separable)
        assert not at.metric, values
        return
    F, y, K, k = pd_problem(values)
    C = np.inf if values["pd_hard"] else float(values["pd_C"])
    offset = values["pd_offset"]
    shown = metrics(at)
    dual, primal = pd_dual_column(at), pd_primal_column(at)
    alpha = table(at, "KKT violation")["α"].to_numpy(dtype=float)
    Ya = alpha * y
    norm_w_squared = float(Ya @ K @ Ya)
    lam_min, threshold = min_eigenvalue(K)
    # what float64 rounding alone may leave in αᵀGα (its terms reach (Σα)²·max|K|)
    rounding = 1e-13 * alpha.sum() ** 2 * float(np.abs(K).max())

    # the duality gap: "0 within tolerance" only when it is, else a positive number, "—" without a primal
    gap = shown["duality gap"]
    if values["pd_space"] == "kernel":
        assert gap == "—", (values, gap)
    else:
        model = PrimalSVM(C=C, fit_intercept=offset).fit(F, y)
        xi = np.maximum(0.0, 1.0 - y * (F @ model.coef_ + model.intercept_))
        p_obj = 0.5 * model.coef_ @ model.coef_ + (C * xi.sum() if C < np.inf else 0.0)
        d_obj = alpha.sum() - 0.5 * norm_w_squared
        if gap == "0 within tolerance":
            assert abs(p_obj - d_obj) <= 1e-8 * max(1.0, abs(p_obj)), (values, p_obj, d_obj)
        else:
            assert float(gap) > 0, (values, gap)
            assert abs(float(gap) - (p_obj - d_obj)) <= 0.01 * abs(float(gap)) + 1e-9 * max(1.0, abs(p_obj)), \
                (values, gap, p_obj - d_obj)
        assert float(primal["objective"]) == float(f"{p_obj:.8f}") or \
            abs(float(primal["objective"]) - p_obj) <= 1e-8 * max(1.0, abs(p_obj)), (values, primal["objective"], p_obj)

    # ‖w‖ and the margin only where w exists: K PSD on the points and αᵀGα > 0
    psd = lam_min >= -threshold
    claims = [m for m in messages(at.warning) if m.startswith("K is not positive semi-definite")]
    if dual["‖w‖"].startswith("none") or claims:
        assert not psd, (f"{values}: the page says K is not PSD ({dual['‖w‖']}), but eigvalsh gives "
                         f"λ_min = {lam_min:.3g} ≥ −{threshold:.3g} (rtol·max|λ|)")
        assert shown["margin 1/‖w‖"] == "—", values
    else:
        assert psd, f"{values}: ‖w‖ = {dual['‖w‖']} shown, but K has λ_min = {lam_min:.3g} < −{threshold:.3g}"
        assert abs(float(dual["‖w‖"]) ** 2 - norm_w_squared) <= 1e-5 * max(1.0, norm_w_squared) + rounding, \
            (values, dual["‖w‖"], norm_w_squared)
        if shown["margin 1/‖w‖"] == "—":
            assert norm_w_squared <= rounding, (values, norm_w_squared)
        else:
            assert norm_w_squared > rounding, (f"{values}: margin {shown['margin 1/‖w‖']} shown, but αᵀGα = "
                                               f"{norm_w_squared:.3g} is 0 up to rounding ({rounding:.2g}): w = 0")
            assert (abs(float(shown["margin 1/‖w‖"]) - 1 / np.sqrt(norm_w_squared))
                    <= 1e-4 * max(1.0, 1 / np.sqrt(norm_w_squared))), \
                (values, shown["margin 1/‖w‖"], 1 / np.sqrt(norm_w_squared))

    # the training accuracy, from the core's own predict on the page's data
    model = DualSVM(k["name"], gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"], C=C, fit_intercept=offset,
                    tol=1e-9).fit(F, y)
    accuracy = float(np.mean(model.predict(F) == y))
    assert dual["training accuracy"] == f"{accuracy:.4f}", (values, dual["training accuracy"], accuracy)
    assert shown["train / test accuracy"].startswith(f"{accuracy:.0%} / "), (values, shown["train / test accuracy"])

    # the dual objective against libsvm, where libsvm solves the same problem (finite C, offset, K PSD)
    if C < np.inf and offset and psd:
        reference = svc_dual_objective(K, y, C)
        if reference is not None:
            assert abs(float(dual["objective"]) - reference) <= 1e-6 * max(1.0, abs(reference)), \
                (values, dual["objective"], reference)


# ---- lesson 5: Mercer ------------------------------------------------------------------------------------

MC_TABS = ["Gram matrix & spectrum", "Closure rules", "Kernels that fail", "Your formula"]
BASES = {"linear": lambda A, B: A @ B.T, "poly": lambda A, B: (A @ B.T + 1.0) ** 2,
         "rbf": lambda A, B: rbf_kernel(A, B, gamma=1.0), "laplacian": lambda A, B: laplacian_kernel(A, B, gamma=1.0)}
WARP_F = {"bump": lambda A: np.exp(-np.sum(A**2, axis=1)), "first": lambda A: A[:, 0],
          "affine": lambda A: 1.0 + A[:, 1]}
INVALID = {"negative squared distance": lambda A: -euclidean_distances(A, squared=True),
           "distance": lambda A: euclidean_distances(A),
           "flipped Gaussian": lambda A: np.exp(0.1 * euclidean_distances(A, squared=True)),
           "shifted linear": lambda A: A @ A.T - 1.0,
           "sigmoid (γ = 0.5, coef0 = 1)": lambda A: sigmoid_kernel(A, gamma=0.5, coef0=1.0)}
FORMULAS = {"exp(-g * norm(x - z)**2)": lambda A, g, r, d: rbf_kernel(A, gamma=g),
            "(dot(x, z) + r)**d": lambda A, g, r, d: (A @ A.T + r) ** d,
            "exp(-g * norm(x - z))": lambda A, g, r, d: np.exp(-g * euclidean_distances(A)),
            "tanh(g * dot(x, z) + r)": lambda A, g, r, d: np.tanh(g * (A @ A.T) + r),
            "-norm(x - z)**2": lambda A, g, r, d: -euclidean_distances(A, squared=True)}
MC_KEYS = ("mc_kernel", "mc_gamma", "mc_degree", "mc_coef0", "mc_rule", "mc_k1", "mc_k2", "mc_c", "mc_a0", "mc_a1",
           "mc_a2", "mc_warp", "mc_invalid", "mc_g", "mc_r", "mc_d")


def mercer_gram(tab, v, Xs):
    """The Gram matrix the open tab checks, built independently; None where the page must refuse the rule."""
    if tab == 0:
        k = kernel_of(v, "mc")
        return gram(k["name"], Xs, gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"])
    if tab == 1:
        K1 = BASES[v["mc_k1"]](Xs, Xs)
        rule = v["mc_rule"]
        if rule == "sum":
            return K1 + BASES[v["mc_k2"]](Xs, Xs)
        if rule == "product":
            return K1 * BASES[v["mc_k2"]](Xs, Xs)
        if rule == "scale":
            return v["mc_c"] * K1       # c ≤ 0: the page refuses the rule, then checks c·K₁ itself
        if rule == "polynomial":
            a = (v["mc_a0"], v["mc_a1"], v["mc_a2"])
            return None if min(a) < 0 else a[0] + a[1] * K1 + a[2] * K1 ** 2
        if rule == "exp":
            return np.exp(K1)
        f = WARP_F[v["mc_warp"]](Xs)
        return f[:, None] * K1 * f[None, :]
    if tab == 2:
        return INVALID[v["mc_invalid"]](Xs)
    return FORMULAS[v["mc_formula"]](Xs, v["mc_g"], v["mc_r"], float(v["mc_d"]))


@SWEEP
@given(values=controls(*MC_KEYS), tab=hs.integers(0, 3), formula=hs.sampled_from(list(EXAMPLES.values())))
def test_mercer_page_verdicts_and_eigenvalues_agree_with_eigvalsh(values, tab, formula):
    values = {**values, "mc_formula": formula}
    at = open_at("mercer", values, {"mc_tab": MC_TABS[tab]})
    X, y = sidebar_data(values)
    Xs, _ = gram_points(X, y)
    K = mercer_gram(tab, values, Xs)
    if K is None or not np.all(np.isfinite(K)):
        assert at.error, (values, tab)
        return
    passes = [s for s in messages(at.success) if "passes on these points" in s]
    fails = [s for s in messages(at.warning) if "is not a kernel" in s]
    if not passes and not fails:
        assert at.error, (values, tab, "no verdict and no message")
        return
    assert len(passes) + len(fails) == 1, (values, tab, passes, fails)
    lam = np.linalg.eigvalsh(0.5 * (K + K.T))
    lam_min, threshold = float(lam[0]), PSD_RTOL * float(np.abs(lam).max())
    # a rounding band for two eigensolvers on two roundings of K
    band = 1e-13 * float(np.abs(lam).max())
    shown = metrics(at)
    where = (values, MC_TABS[tab], lam_min, threshold)
    if passes:
        text = passes[0]
        assert shown["cᵀKc"] == "—", where
        if "positive definite" in text:
            assert lam_min > threshold - band, where
        if "0 up to rounding" in text:
            assert abs(lam_min) <= threshold + band, where
        assert lam_min >= -threshold - band or "not proof" in text, where
    else:
        q = float(shown["cᵀKc"])
        assert q < 0, (where, q)
        assert lam_min < 0, where
        vectors = np.linalg.eigh(0.5 * (K + K.T))[1]
        c = vectors[:, 0]
        assert c @ K @ c < 0, where
        assert int(shown["negative eigenvalues"]) >= 1, where
        assert abs(q - lam_min) <= 1e-5 * abs(lam_min) + band, (where, q)
    for label, mine in (("λ_min", lam_min), ("λ_max", float(lam[-1]))):
        assert abs(float(shown[label]) - mine) <= 1e-5 * abs(mine) + 1e-12 * float(np.abs(lam).max()), \
            (where, label, shown[label], mine)


# ---- lesson 2: the circle, lifted ------------------------------------------------------------------------

CL_FIT_INTERCEPT = {"circle": False, "paraboloid": True}
CL_PHI = {"circle": lambda X: np.column_stack([np.ones(len(X)), X[:, 0] ** 2, X[:, 1] ** 2]),
          "paraboloid": lambda X: np.column_stack([X, (X ** 2).sum(axis=1)])}


def count_shown(text):
    count, _, total = text.partition(" / ")
    return int(count), int(total)


@SWEEP
@given(values=controls("cl_data", "cl_lift", "cl_hard", "cl_C"))
def test_circle_page_error_counts_and_margin_match_an_independent_dual_fit(values):
    at = open_at("circle", values)
    if at.error:
        assert not at.metric, values
        return
    X, y = sidebar_data(values, "circle_rule" if values["cl_data"] == "notes" else None)
    shown = metrics(at)
    notes = y * (X[:, 0] ** 2 + X[:, 1] ** 2 - 1.0)
    assert count_shown(shown["training errors, notes' plane"]) == (int(np.count_nonzero(notes <= 0)), y.size), values

    lift = values["cl_lift"]
    F = CL_PHI[lift](X)
    C = np.inf if values["cl_hard"] else float(values["cl_C"])
    model = DualSVM("linear", C=C, fit_intercept=CL_FIT_INTERCEPT[lift], tol=1e-9).fit(F, y)
    w = (model.alpha_ * y) @ F
    margin = 1.0 / np.linalg.norm(w)
    assert abs(float(shown["margin 1/‖w‖ (lifted space)"]) - margin) <= 1e-4 * max(1.0, margin), \
        (values, shown["margin 1/‖w‖ (lifted space)"], margin)
    yf = y * (F @ w + model.intercept_)
    errors, total = count_shown(shown["training errors, max-margin plane"])
    assert total == y.size
    # a point within 1e-6 of the plane may fall on either side of two solvers' planes
    assert np.count_nonzero(yf <= -1e-6) <= errors <= np.count_nonzero(yf <= 1e-6), (values, errors)


# ---- lesson 4: Pegasos -----------------------------------------------------------------------------------

PG_KEYS = ("pg_kernel", "pg_gamma", "pg_degree", "pg_coef0", "pg_lam", "pg_seed", "pg_T", "pg_epochs", "pg_iterate",
           "pg_replay")


def pegasos_objective(K, y, lam, a):
    """λ/2 aᵀKa + (1/n) Σ max(0, 1 − yᵢ(Ka)ᵢ), Pegasos' objective for signed coefficients a."""
    f = K @ a
    return float(0.5 * lam * a @ f + np.mean(np.maximum(0.0, 1.0 - y * f)))


def close(shown, value, rtol=1e-5, atol=1e-12):
    return abs(float(shown) - value) <= rtol * abs(value) + atol


@settings(SWEEP, max_examples=10)
# the page once showed "α̂ above the optimum by −0.193": a sigmoid K that is not PSD, so the dual bounds nothing
@example(values={"dataset": "moons", "n": 80, "noise": 0.46, "seed": 150, "pg_kernel": "sigmoid", "pg_gamma": 3.16,
                 "pg_degree": 7, "pg_coef0": 2.0, "pg_lam": 0.0178, "pg_seed": 26, "pg_T": 1200, "pg_epochs": 172,
                 "pg_iterate": "last", "pg_replay": 30})
@given(values=controls(*PG_KEYS, n_max=200))
def test_pegasos_page_objectives_are_the_objective_of_its_alphas(values):
    at = open_at("pegasos", values, state=NUMBERS_OPEN)
    if at.error:
        return
    X, y = sidebar_data(values)
    k = kernel_of(values, "pg")
    K = gram(k["name"], X, gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"])
    lam = float(values["pg_lam"])
    columns = table(at, "α̂ (average)")
    shown = metrics(at)
    avg = pegasos_objective(K, y, lam, columns["α̂ (average)"].to_numpy(dtype=float))
    last = pegasos_objective(K, y, lam, columns["αᵀ (last)"].to_numpy(dtype=float))
    assert close(shown["objective at α̂ (t = T)"], avg, atol=1e-9 * max(1.0, abs(avg))), (values, shown, avg)
    assert close(shown["objective at αᵀ"], last, atol=1e-9 * max(1.0, abs(last))), (values, shown, last)

    error = float(np.mean(np.where(K @ columns["α̂ (average)"].to_numpy(dtype=float) >= 0, 1.0, -1.0) != y))
    assert shown["training error of α̂"] == f"{error:.1%}", (values, shown["training error of α̂"], error)
    # no exact optimum is shown where the dual gives none: K not PSD here (then the objective is not convex),
    # or a dual that did not converge; the page says which
    lam_min, threshold = min_eigenvalue(K)
    if shown["exact optimum (SVM dual)"] == "—":
        why = [i.value for i in at.info if i.value.startswith("No exact optimum")]
        assert why and (lam_min < -threshold or "did not converge" in why[0]), (values, why, lam_min)
        return
    assert lam_min >= -threshold, (values, shown["exact optimum (SVM dual)"], f"λ_min(K) = {lam_min:.3g}")
    # the exact optimum is λ times the dual objective of the SVM through the origin with C = 1/(λn)
    alpha = np.abs(columns["α*ᵢyᵢ (exact SVM)"].to_numpy(dtype=float))
    C = 1.0 / (lam * y.size)
    assert np.all(alpha <= C * (1 + 1e-9)), values
    Ya = alpha * y
    optimum = lam * float(alpha.sum() - 0.5 * Ya @ K @ Ya)
    assert float(shown["exact optimum (SVM dual)"]) >= 0, (values, shown)
    assert close(shown["exact optimum (SVM dual)"], optimum, atol=1e-12), (values, shown, optimum)
    # weak duality: no α, averaged or last, goes below a dual objective
    assert avg >= optimum - 1e-9, (values, avg, optimum, f"λ_min(K) = {lam_min:.3g}")
    assert last >= optimum - 1e-9, (values, last, optimum, f"λ_min(K) = {lam_min:.3g}")
    # three significant digits: off by at most half a unit of the third
    assert (abs(float(shown["α̂ above the optimum by"]) - (avg - optimum))
            <= 5e-3 * abs(avg - optimum) + 1e-5 * abs(avg)), \
        (values, shown["α̂ above the optimum by"], avg - optimum)


# ---- lesson 6: kernel regression -------------------------------------------------------------------------

RG_KEYS = ("rg_n", "rg_kernel", "rg_gamma", "rg_degree", "rg_coef0", "rg_lam", "rgl_kernel", "rgl_gamma",
           "rgl_degree", "rgl_coef0", "rgl_lam", "rgl_T")


def metric_values(at, label):
    return [m.value for m in at.metric if m.label == label]


@SWEEP
@given(values=controls(*RG_KEYS))
def test_regression_page_rmse_accuracy_and_objective_are_recomputed(values):
    at = open_at("regression", values, state=NUMBERS_OPEN)
    warned = " ".join(messages(at.warning))
    rmse = metric_values(at, "training RMSE")
    if rmse and not warned:
        x, t = datasets.make_dataset("house_prices", values["rg_n"], random_state=values["seed"])
        k = kernel_of(values, "rg")
        K = gram(k["name"], x, gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f = KernelRidge(alpha=float(values["rg_lam"]), kernel="precomputed").fit(K, t).predict(K)
        if not caught:
            mine = float(np.sqrt(np.mean((t - f) ** 2)))
            assert close(rmse[0], mine, rtol=6e-4, atol=1e-9 * max(1.0, float(np.abs(t).max()))), \
                (values, rmse[0], mine)

    accuracy = metric_values(at, "training accuracy")
    if accuracy:
        X, y = sidebar_data(values)
        k = kernel_of(values, "rgl")
        K = gram(k["name"], X, gamma=k["gamma"], degree=k["degree"], coef0=k["coef0"])
        beta = table(at, "P(y = +1 | xⱼ)")["βⱼ"].to_numpy(dtype=float)
        f = K @ beta
        mine = float(np.mean(np.where(f >= 0, 1.0, -1.0) == y))
        assert accuracy[0] == f"{mine:.1%}", (values, accuracy[0], mine)
        J = float(np.sum(np.logaddexp(0.0, -y * f)) + 0.5 * float(values["rgl_lam"]) * beta @ f)
        assert close(metric_values(at, "J(β) after T steps")[0], J, atol=1e-9 * max(1.0, abs(J))), (values, J)


# ---- lesson 1: feature maps ------------------------------------------------------------------------------

FM_KERNEL = {"circle": lambda x, z: 1.0 + polynomial_kernel(x ** 2, z ** 2, degree=1, gamma=1.0, coef0=0.0),
             "paraboloid": lambda x, z: x @ z.T + np.outer((x ** 2).sum(1), (z ** 2).sum(1)),
             "poly2_homogeneous": lambda x, z: polynomial_kernel(x, z, degree=2, gamma=1.0, coef0=0.0),
             "poly2_full": lambda x, z: polynomial_kernel(x, z, degree=2, gamma=1.0, coef0=0.5) - 0.25,
             "cubic_1d": lambda x, z: sum(polynomial_kernel(x, z, degree=p, gamma=1.0, coef0=0.0) for p in (1, 2, 3))
             + 1.0}
FM_PHI = {"circle": lambda v: [1.0, v[0] ** 2, v[1] ** 2], "paraboloid": lambda v: [v[0], v[1], v[0] ** 2 + v[1] ** 2],
          "poly2_homogeneous": lambda v: [v[0] ** 2, np.sqrt(2) * v[0] * v[1], v[1] ** 2],
          "poly2_full": lambda v: [v[0], v[1], v[0] ** 2, np.sqrt(2) * v[0] * v[1], v[1] ** 2],
          "cubic_1d": lambda v: [1.0, v[0], v[0] ** 2, v[0] ** 3]}
FM_KEYS = ("fm_map", "fm_source", "fm_i", "fm_j", "fm_x1", "fm_x2", "fm_z1", "fm_z2")


def shown_number(at, prefix):
    pattern = re.compile(re.escape(prefix) + r"`([^`]+)`")
    found = [m.group(1) for e in at.markdown for m in [pattern.search(e.value)] if m]
    assert len(found) == 1, prefix
    return float(found[0])


@SWEEP
@given(values=controls(*FM_KEYS))
def test_feature_map_page_kernel_and_inner_product_agree_with_scikit_learn(values):
    at = open_at("feature_maps", values)
    name = values["fm_map"]
    dim = FEATURE_MAPS[name].input_dim
    if values["fm_source"] == "typed":
        x = np.array([[values["fm_x1"], values["fm_x2"]][:dim]])
        z = np.array([[values["fm_z1"], values["fm_z2"]][:dim]])
    else:
        P = sidebar_data(values)[0] if dim == 2 else datasets.make_dataset("house_prices",
                                                                           random_state=values["seed"])[0]
        x, z = P[[values["fm_i"] % len(P)]], P[[values["fm_j"] % len(P)]]
    K = float(FM_KERNEL[name](x, z)[0, 0])
    phi_x, phi_z = np.array(FM_PHI[name](x[0])), np.array(FM_PHI[name](z[0]))
    dot = float(phi_x @ phi_z)
    scale = 1.0 + float(np.abs(phi_x) @ np.abs(phi_z))     # the size of the terms that are summed
    shown_K = shown_number(at, "K(x, z), the kernel formula on x and z: ")
    shown_dot = shown_number(at, f"φ(x)·φ(z), the sum of the {phi_x.size} products: ")
    assert abs(shown_K - K) <= 1e-14 * scale, (values, shown_K, K)
    assert abs(shown_dot - dot) <= 1e-14 * scale, (values, shown_dot, dot)
    terms = table(at, "φₖ(x)")
    np.testing.assert_allclose(terms["φₖ(x)"].to_numpy(dtype=float), phi_x, rtol=1e-14, atol=1e-300)
    np.testing.assert_allclose(terms["φₖ(z)"].to_numpy(dtype=float), phi_z, rtol=1e-14, atol=1e-300)
