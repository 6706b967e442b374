"""Lesson 3's numbers as the page writes them: the primal and the dual side by side, and the margin."""


def vec(v):
    """A vector to six decimals."""
    return "(" + ", ".join(f"{x:.6f}" for x in v) + ")"


def comparison(s):
    """The primal and the dual side by side, as the page's table columns."""
    p, d = s.primal, s.dual
    rows = {"w": (vec(p.w) if p else "—", vec(d.w) if d.w is not None else "Σ αᵢyᵢφ(xᵢ), φ not built"),
            "b": (f"{p.b:.6f}" if p else "—", f"{d.b:.6f}"),
            "objective": (f"{p.objective:.8f}" if p else "—", f"{d.objective:.8f}"),
            "‖w‖": (f"{p.norm_w:.6f}" if p else "—", f"{d.norm_w:.6f}" if not d.psd_violated
                    else f"none: K is not PSD (αᵀGα = {d.norm_w_squared:.4g})"),
            "training accuracy": (f"{p.accuracy:.4f}" if p else "—", f"{d.accuracy:.4f}"),
            "iterations": (f"{p.n_iter} (interior point)" if p else "—", f"{d.n_iter} (SMO)")}
    return {"quantity": list(rows), "primal: min ½‖w‖² + CΣξᵢ": [v[0] for v in rows.values()],
            "dual: max Σαᵢ − ½αᵀGα": [v[1] for v in rows.values()]}


def margin(d):
    """1/‖w‖ where the margin exists: K PSD on these points and w ≠ 0."""
    return f"{1.0 / d.norm_w:.4f}" if d.norm_w > 0 and not d.psd_violated else "—"
