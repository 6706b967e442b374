"""Lesson 3: the SVM solved twice, as the primal in explicit features and as the dual by SMO."""

import numpy as np
import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lessons import common
from lessons.compute_primal_dual import (
    DUAL_TOL,
    SKLEARN_HARD_C,
    SOLVER_SOURCE,
    alpha_bars,
    primal_dual_figure,
    sklearn_fit,
    solve,
)

SPACES = ("linear", "explicit", "kernel")
SPACE_LABELS = {"linear": "φ(x) = x", "explicit": "explicit φ(x)", "kernel": "any kernel (dual only)"}
PHI_MAPS = ("poly2_full", "poly2_homogeneous", "paraboloid", "circle")
PHI_LABELS = {name: "φ(x) = (" + ", ".join(FEATURE_MAPS[name].feature_labels) + ")" for name in PHI_MAPS}
KERNELS = ("poly", "rbf", "laplacian", "exponential", "sigmoid")
C_DEFAULT = 1.0
LFD_PRESET = {"dataset": "lfd_toy", "only_mine": False, "pd_space": "linear", "pd_offset": True, "pd_hard": True}


def load_lfd_preset():
    st.session_state.update(LFD_PRESET)
    # the preset changes the sidebar's dataset: the lesson fragment hands over to a rerun of the whole app
    st.session_state["pd_rerun_app"] = True


def controls():
    c1, c2, c3 = st.columns([4, 2, 3], vertical_alignment="bottom")
    space = c1.segmented_control("Feature space", SPACES, format_func=SPACE_LABELS.get, default="explicit",
                                 key="pd_space", bind="query-params", required=True)
    offset = c2.toggle("with offset b", value=True, key="pd_offset", bind="query-params",
                       help="Off: the plane passes through the origin (b = 0) and the dual loses Σαᵢyᵢ = 0.")
    hard = c2.toggle("hard margin (C = ∞)", key="pd_hard", bind="query-params",
                     help="Demand yᵢf(xᵢ) ≥ 1 for every point; only possible on separable data.")
    with c3:
        C = np.inf if hard else common.log_slider("C (box constraint; slack penalty)", "pd_C", common.C_VALUES,
                                                  C_DEFAULT)
    params = {"space": space, "fmap": None, "kernel": "linear", "gamma": None, "degree": 3, "coef0": 1.0,
              "offset": offset, "C": float(C)}
    d1, d2, d3 = st.columns([4, 2, 3], vertical_alignment="bottom")
    with d1:
        if space == "explicit":
            params["fmap"] = st.selectbox("φ (explicit feature map)", PHI_MAPS,
                                          format_func=PHI_LABELS.get, key="pd_phi",
                                          bind="query-params")
        elif space == "kernel":
            params.update(common.kernel_controls("pd", kernels=KERNELS, default="rbf"))
    d2.button("4-point example", on_click=load_lfd_preset, icon=":material/school:", width="stretch", key="pd_lfd",
              help="Learning From Data, Lecture 25: four points, hard margin with offset, φ(x) = x. "
                   "Expect α* = (½, ½, 1, 0), w = (1, −1), b = −1, margin 1/√2.")
    params["sklearn"] = d3.checkbox("compare with scikit-learn (libsvm)", key="pd_sklearn", bind="query-params")
    return params


def vec(v):
    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"


def comparison_table(result):
    p, d = result["primal"], result["dual"]
    rows = {
        "w": (vec(p["w"]) if p else "—", vec(d["w"]) if d["w"] is not None else "Σ αᵢyᵢφ(xᵢ), φ not built"),
        "b": (f"{p['b']:.6f}" if p else "—", f"{d['b']:.6f}"),
        "objective": (f"{p['objective']:.8f}" if p else "—", f"{d['objective']:.8f}"),
        "‖w‖": (f"{p['norm_w']:.6f}" if p else "—", f"{d['norm_w']:.6f}"),
        "training accuracy": (f"{p['accuracy']:.4f}" if p else "—", f"{d['accuracy']:.4f}"),
        "iterations": (f"{p['n_iter']} (interior point)" if p else "—", f"{d['n_iter']} (SMO)"),
    }
    return {
        "quantity": list(rows),
        "primal: min ½‖w‖² + CΣξᵢ": [v[0] for v in rows.values()],
        "dual: max Σαᵢ − ½αᵀGα": [v[1] for v in rows.values()],
    }


def kkt_table(X, y, d):
    return {"i": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int), "α": d["alpha"],
            "y·f(x)": d["margin"], "status": d["status"], "KKT violation": d["violation"]}


def boundary_fig(X, y, result):
    d = result["dual"]
    return primal_dual_figure(result["xs"], result["ys"], d["Z"], X, y,
                              Z_primal=result["primal"]["Z"] if result["primal"] else None,
                              free_sv=np.flatnonzero(d["status"] == "free SV"),
                              bounded_sv=np.flatnonzero(d["status"] == "bounded SV"))


st.title("SVM: primal versus dual")
st.markdown(
    "The same max-margin problem has two faces. The **primal** searches over w (and b) in the feature space; "
    "the **dual** searches over one α per training point and touches the data only through inner products "
    "K(xᵢ, xⱼ) = φ(xᵢ)·φ(xⱼ). Both are solved here independently; at the optimum their objectives meet and "
    "w = Σ αᵢyᵢφ(xᵢ)."
)
st.latex(r"\text{primal: }\min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i \xi_i\ \ \text{s.t. } "
         r"y_i(w\cdot\phi(x_i) + b) \ge 1 - \xi_i,\ \ \xi_i \ge 0")
st.latex(r"\text{dual: }\max_{\alpha}\ \sum_i \alpha_i - \tfrac12 \sum_{i,j} \alpha_i\alpha_j y_i y_j K(x_i, x_j)"
         r"\ \ \text{s.t. } 0 \le \alpha_i \le C,\ \ \sum_i \alpha_i y_i = 0\ (\text{with offset}) \quad"
         r"\Rightarrow\quad w = \sum_i \alpha_i y_i \phi(x_i)")


@st.fragment
def lesson():
    """Controls, figures and numbers: a slider move reruns only this, not the sidebar."""
    if st.session_state.pop("pd_rerun_app", False):
        st.rerun(scope="app")
    params = controls()
    X, y = common.training_data()
    fit_args = {k: params[k] for k in ("space", "fmap", "kernel", "gamma", "degree", "coef0", "offset", "C")}
    try:
        result = solve(X, y, common.test_data(), **fit_args)
    except ValueError as exc:
        common.show_error(exc)
    for message in result["warnings"]:
        st.warning(message, icon=":material/warning:")
    primal, dual = result["primal"], result["dual"]

    if params["space"] == "explicit":
        fm = FEATURE_MAPS[params["fmap"]]
        st.latex(fm.label_latex + r"\qquad " + fm.kernel_latex)
    elif params["space"] == "kernel":
        st.info("Only the dual is solved here: for this kernel φ is infinite-dimensional (Gaussian, Laplacian, "
                "exponential), huge (a degree-d polynomial in many inputs has a feature per monomial), or does not "
                "exist at all (sigmoid, for some γ and r). The dual needs nothing but the n × n numbers K(xᵢ, xⱼ).",
                icon=":material/info:")

    common.table(comparison_table(result), width="stretch")
    with common.metric_row():
        st.metric("duality gap", f"{primal['objective'] - dual['objective']:.2e}" if primal else "—",
                  help="Primal objective − dual objective: zero at the optimum (strong duality); what is left is the "
                       "solvers' tolerance.", width="content")
        st.metric("margin 1/‖w‖", f"{1.0 / dual['norm_w']:.4f}" if dual["norm_w"] > 0 else "∞", width="content")
        st.metric("train / test accuracy",
                  # whole percents keep the value short enough to read on a projector
                  f"{dual['accuracy']:.0%} / " + (f"{dual['test_accuracy']:.0%}" if dual["test_accuracy"] is not None
                                                  else "—"),
                  help="Test: a fresh sample from the same generator and settings (another seed), never seen in "
                       "training. The table above gives the training accuracy to four decimals.", width="content")
        st.metric("support vectors", f"{dual['n_sv']} / {y.size}", width="content")
        st.metric("E_cv ≤ #SV/N", f"{dual['n_sv'] / y.size:.3f}",
                  help="Learning From Data: the leave-one-out error E_cv is at most (#support vectors) / N.",
                  width="content")

    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Dual decision function** f(x) = Σ αᵢyᵢK(xᵢ, x) + b, margins f = ±1")
        common.boundary_chart(boundary_fig(X, y, result), key="pd_boundary")
    with right:
        st.markdown("**α per training point** against the box 0 ≤ α ≤ C")
        common.chart(alpha_bars(dual["alpha"], y, params["C"], height=460), key="pd_alpha")
    st.markdown("**KKT conditions, point by point**: α = 0 needs y·f ≥ 1 (non-SV), 0 < α < C needs y·f = 1 "
                "(free SV, on the margin), α = C needs y·f ≤ 1 (bounded SV, on or inside the margin).")
    common.table(kkt_table(X, y, dual), height=250, width="stretch",
                 column_config={"α": st.column_config.NumberColumn(format="%.6f"),
                                "y·f(x)": st.column_config.NumberColumn(format="%.6f"),
                                "KKT violation": st.column_config.NumberColumn(format="%.2e"),
                                "x₁": st.column_config.NumberColumn(format="%.3f"),
                                "x₂": st.column_config.NumberColumn(format="%.3f")})

    if params["sklearn"]:
        if not params["offset"]:
            st.info("scikit-learn's SVC always fits an offset b; switch 'with offset b' on to compare.")
        else:
            sk = sklearn_fit(X, y, **{k: v for k, v in fit_args.items() if k != "offset"})
            for message in sk["warnings"]:
                st.warning(f"scikit-learn did not converge: {message}", icon=":material/warning:")
            common.table({
                "": ["dual objective", "b", "# support vectors", "max |α − α_sklearn|"],
                "Kernel Lab (SMO)": [f"{dual['objective']:.8f}", f"{dual['b']:.6f}", str(dual["n_sv"]), ""],
                "scikit-learn (libsvm)": [f"{sk['dual_objective']:.8f}", f"{sk['b']:.6f}", str(sk["n_sv"]),
                                          f"{np.abs(dual['alpha'] - sk['alpha']).max():.2e}"],
            })
            if params["C"] == np.inf:
                st.caption(f"SVC has no C = ∞; it ran with C = {SKLEARN_HARD_C:g}.")

    with st.expander("The numbers and the code"):
        st.markdown(
            f"Largest KKT violation of the dual: {dual['max_violation']:.2e} (SMO stops at {DUAL_TOL:g}).  \n"
            + (f"Total slack Σξᵢ of the primal: {primal['slack'].sum():.6f}.  \n" if primal else "")
            + ("The dual solver: SMO with the second-order working-set rule of Fan, Chen & Lin (2005), as in LIBSVM."
               if params["offset"] else
               "Without the offset the constraint Σαᵢyᵢ = 0 is gone, so one α at a time may move: coordinate descent.")
        )
        st.code(SOLVER_SOURCE[params["offset"]], language="python")


lesson()
