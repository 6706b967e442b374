"""Lesson 3: the SVM solved twice, as the primal in explicit features and as the dual by SMO."""

import numpy as np
import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from lab import data, page, widgets
from lessons.primal_dual import cv_view, reproduce
from lessons.primal_dual.compare_view import libsvm_section
from lessons.primal_dual.compute import DUAL_TOL, GAP_TOL, SOLVER_SOURCE, snapshot_labels, solve
from lessons.primal_dual.numbers import comparison, margin
from lessons.primal_dual.ovr_view import ovr_section
from lessons.primal_dual.presets import PRESETS
from lessons.primal_dual.sections import DUAL, one_vs_rest

SPACE_LABELS = {"linear": "φ(x) = x", "explicit": "explicit φ(x)", "kernel": "any kernel (dual only)"}
NUMBER_FORMATS = {"α": "%.6f", "y·f(x)": "%.6f", "KKT violation": "%.2e", "x₁": "%.3f", "x₂": "%.3f"}


def controls():
    c1, c2 = st.columns([4, 5], vertical_alignment="bottom")
    with c1:
        space = widgets.segmented("Feature space", "pd_space", format_func=SPACE_LABELS.get)
        widgets.toggle("with offset b", "pd_offset",
                                help="Off: the plane passes through the origin (b = 0) and the dual loses Σαᵢyᵢ = 0.")
    with c2:
        widgets.c_control("pd")
    d1, d2 = st.columns([6, 3], vertical_alignment="bottom")
    with d1:
        if space == "explicit":
            widgets.selectbox("φ (explicit feature map)", "pd_phi", format_func=widgets.map_label)
        elif space == "kernel":
            widgets.kernel_controls("pd")
    with d2:
        return widgets.checkbox("compare with scikit-learn (libsvm)", "pd_sklearn")


def unsolved(s):
    """Say plainly which solver stopped short; its iterate is not shown as the answer."""
    for name, model, unit in (("primal (interior point)", s.primal, "iterations"), ("dual (SMO)", s.dual, "steps")):
        if model is not None and not model.converged:
            st.error(f"The {name} stopped after {model.n_iter:,} {unit} without reaching its tolerance, so this "
                     "setting has no answer to show. A smaller C, a wider kernel (smaller γ) or fewer points "
                     "make the problem easier.", icon=":material/error:")
    for message in s.warnings:
        st.caption(f"The solver's own words: {message}")


page.header(
    "SVM: primal versus dual",
    "The same max-margin problem has two faces. The **primal** searches over w (and b) in the feature space; "
    "the **dual** searches over one α per training point and touches the data only through inner products "
    "K(xᵢ, xⱼ) = φ(xᵢ)·φ(xⱼ). Both are solved here independently; at the optimum their objectives meet and "
    "w = Σ αᵢyᵢφ(xᵢ).",
    # each constraint and the w it gives braced: a narrow column breaks the formula between them, never inside one
    # (lab/present.py)
    r"\text{primal: }\min_{w,b,\xi}\ \tfrac12\|w\|^2 + C\sum_i \xi_i\ \ \allowbreak\text{s.t. } "
    r"{y_i(w\cdot\phi(x_i) + b) \ge 1 - \xi_i},\ \ \allowbreak{\xi_i \ge 0}",
    r"\text{dual: }\max_{\alpha}\ \sum_i \alpha_i - \tfrac12 \sum_{i,j} \alpha_i\alpha_j y_i y_j K(x_i, x_j)"
    r"\ \ \allowbreak\text{s.t. } {0 \le \alpha_i \le C},\ \ \allowbreak{\sum_i \alpha_i y_i = 0}"
    r"\ (\text{with offset}) \quad\Rightarrow\quad {w = \sum_i \alpha_i y_i \phi(x_i)}")
page.presets_row(PRESETS)


@page.fragment
@cv_view.dropped_unless_shown()
def lesson():
    compare = controls()
    if page.values(DUAL)["pd_space"] != "kernel":
        data.third_class_notice()
    setting, train, status = page.run(DUAL)
    setup = setting.solve
    if one_vs_rest(setup, train):
        ovr_section(train, setting)
        return
    X, y = train.X, train.y
    s = solve(X, y, train.test, setup)
    p, d = s.primal, s.dual
    if status:
        unsolved(s)
        return
    page.warnings(s.warnings)
    if d.psd_violated:
        st.warning(f"K is not positive semi-definite on these points: the dual is not concave, and αᵀGα = "
                   f"{d.norm_w_squared:.4g} is no squared length ‖w‖², so there is no w and no margin; "
                   "SMO's α is a point "
                   "where the KKT conditions hold, not a maximum. Lesson 5 checks this Gram matrix.",
                   icon=":material/warning:")
    if setup.space == "explicit":
        fm = FEATURE_MAPS[setup.fmap]
        st.latex(fm.label_latex + r"\qquad " + fm.kernel_latex)
    elif setup.space == "kernel":
        st.info("Only the dual is solved here: for this kernel φ is infinite-dimensional (Gaussian, Laplacian, "
                "exponential), huge (a degree-d polynomial in many inputs has a feature per monomial), or does not "
                "exist at all (sigmoid, for some γ and r). The dual needs nothing but the n × n numbers K(xᵢ, xⱼ).",
                icon=":material/info:")

    page.table(comparison(s), width="stretch")
    page.metrics({
        "duality gap": "—" if s.gap is None else "0 within tolerance" if s.gap == 0 else f"{s.gap:.2e}",
        "margin 1/‖w‖": margin(d),
        # whole percents keep the value short enough to read on a projector
        "train / test accuracy": f"{d.accuracy:.0%} / " + (f"{d.test_accuracy:.0%}" if d.test_accuracy is not None
                                                          else "—"),
        "support vectors": f"{d.n_sv} / {y.size}",
        "E_cv ≤ #SV/N": f"{d.n_sv / y.size:.3f}",
    }, help={"duality gap": "Primal objective − dual objective: zero at the optimum (strong duality), never below "
                            f"zero (weak duality). Within {GAP_TOL:g} of the objective it is the solvers' round-off.",
             "train / test accuracy": "Test: a fresh sample from the same generator and settings (another seed), "
                                      "never seen in training. The table above gives the training accuracy to four "
                                      "decimals.",
             "E_cv ≤ #SV/N": "Learning From Data: the leave-one-out error E_cv is at most (#support vectors) / N."})

    labels = snapshot_labels(d)
    st.caption(f"▶ Play replays the dual's {d.n_iter:,} steps at {len(labels)} log-spaced snapshots in both charts, "
               "what each step moved ringed in orange (SMO's pair (i, j); one α without offset). An active-set step "
               "solves the KKT system of the support found so far: it moves many α at once.")
    charts = DUAL.figures(setting, train, {"pd_boundary", "pd_alpha"})
    left, right = st.columns([3, 2])
    with left:
        st.markdown("**Dual decision function** f(x) = Σ αᵢyᵢK(xᵢ, x) + b, margins f = ±1")
        page.boundary_chart(charts["pd_boundary"], key="pd_boundary", section=DUAL)
    with right:
        st.markdown("**α per training point** against the box 0 ≤ α ≤ C, at the decision plot's step")
        page.chart(charts["pd_alpha"], key="pd_alpha", replay_with="pd_boundary")
    if setup.space == "kernel":
        cv_view.validation_section(X, y, setup.kernel, setup.offset, setup.C)
    st.markdown("**KKT conditions, point by point**: α = 0 needs y·f ≥ 1 (non-SV), 0 < α < C needs y·f = 1 "
                "(free SV, on the margin), α = C needs y·f ≤ 1 (bounded SV, on or inside the margin).")
    page.table({"i": np.arange(y.size), "x₁": X[:, 0], "x₂": X[:, 1], "y": y.astype(int), "α": d.alpha,
                "y·f(x)": d.yf, "status": d.status, "KKT violation": d.violation}, height=250, width="stretch",
               column_config={c: st.column_config.NumberColumn(format=f) for c, f in NUMBER_FORMATS.items()})
    if compare:
        libsvm_section(X, y, setup, d)
    page.code("pd_numbers", "The numbers and the code", SOLVER_SOURCE[setup.offset], text=(
        f"Largest KKT violation of the dual: {d.max_violation:.2e} (SMO stops at {DUAL_TOL:g}).  \n"
        + (f"Total slack Σξᵢ of the primal: {p.xi.sum():.6f}.  \n" if p else "")
        + ("The dual solver: SMO with the second-order working-set rule of Fan, Chen & Lin (2005), as in LIBSVM."
           if setup.offset else
           "Without the offset the constraint Σαᵢyᵢ = 0 is gone, so one α at a time may move: coordinate descent.")))
    page.reproduce("pd_reproduce", "the primal and the dual", reproduce.primal_dual,
                   X, y, train.test, setup.space, setup.fmap, setup.kernel,
                   setup.offset, setup.C, DUAL_TOL)


lesson()
