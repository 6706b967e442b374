"""The lab's controls. Each is keyed, takes its default and allowed values from the URL schema (lab/state.py)
and keeps its value in the link: read from it when the control first appears in a session, written back (only
when it differs from the default) on every run, so a link reopens the view exactly."""

import re

import numpy as np
import streamlit as st

from kernel_core.feature_maps import FEATURE_MAPS
from kernel_core.kernels import KernelSpec
from lab import live, live_control
from lab.section import LIVE
from lab.state import FIELDS, KERNEL_LABELS, STEP_MODES, decode, encode



# the notes write these kernels with a width σ where the lab has γ: (formula, p, c) with c·σ^p = 1/γ. Lecture 8:
# exp(−‖x − z‖²/σ); Park's slides: exp(−‖x − z‖²/σ²), exp(−‖x − z‖₂/σ²), exp(−|x − z|/σ) and, in the Taylor example
# of lesson 1, exp(−(x − z)²/(2σ²)). Learning From Data and the CS578 slides write γ (or no width) themselves.
SIGMA_FORMS = {
    "rbf": (("Lecture 8's exp(−‖x − z‖²/σ)", 1, 1), ("Park's exp(−‖x − z‖²/σ²)", 2, 1)),
    "exponential": (("Park's exp(−‖x − z‖₂/σ²)", 2, 1),),
    "laplacian": (("Park's exp(−|x − z|/σ)", 1, 1),),
    "taylor": (("Lecture 8's exp(−‖x − z‖²/σ)", 1, 1), ("Park's Taylor example exp(−(x − z)²/(2σ²))", 2, 2)),
}


def sigma_text(kernel, gamma):
    """γ as the width σ the notes write for this kernel, e.g. "γ = 0.5 ⇔ σ = 1/γ = 2 in Lecture 8's …"."""
    parts = []
    for formula, p, c in SIGMA_FORMS[kernel]:
        lhs = f"{c if c != 1 else ''}σ{'²' if p == 2 else ''}"
        width = f", σ = {(1.0 / (c * gamma)) ** (1.0 / p):.3g}" if lhs != "σ" else ""
        parts.append(f"{lhs} = 1/γ = {1 / gamma:.3g}{width} in {formula}")
    return f"γ = {gamma:.3g} ⇔ " + "; ".join(parts)


def map_label(name):
    """A feature map named by its coordinates, e.g. φ(x) = (x₁², √2·x₁x₂, x₂²)."""
    return "φ(x) = (" + ", ".join(FEATURE_MAPS[name].feature_labels) + ")"


_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def plain(text):
    """text shown literally by st.markdown, st.error or st.toast: every ASCII punctuation mark backslash-escaped, so
    a link's or a file's text echoed in a message cannot turn into links, images, LaTeX ($) or formatting."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def fmt(v):
    """Short label for a slider value: 3 significant digits."""
    return f"{v:.3g}"


def _seed(field):
    """The control's value before it is drawn, the first time this session meets it: the link's, else the default."""
    state = st.session_state
    if field.key in state:
        return
    value = field.default
    text = st.query_params.get(field.key)
    if text is not None:
        try:
            value = decode(field, text)
        except ValueError as exc:
            # the message quotes the link's text: shown literally, so a link cannot put a link or an image here
            st.toast(plain(f"{exc}; this view uses {encode(field, field.default)} instead."),
                     icon=":material/link_off:")
    state[field.key] = value


def _publish(field, value):
    """Write the control's value into the link; a default value leaves the link (links stay short)."""
    params = st.query_params
    text, shown = encode(field, value), params.get(field.key)   # get: `key in st.query_params` costs more
    if text == encode(field, field.default):
        if shown is not None:
            del params[field.key]
    elif shown != text:
        params[field.key] = text


HIDDEN = "_hidden_controls"   # session state: the keys a shared link hides (lab/share.py reads ?hide=)
DRAWN = "_drawn_controls"     # session state: key → label of every control drawn, the Share dialog's choices


def _control(make, label, key, default="value", **kwargs):
    """Draw the control with the session's value also as its default: the browser shows a control's default
    when it mounts it anew (the sidebar's, on every page switch), so default and value must agree.
    A control the link hides is not drawn: it keeps its value from the link, and the link keeps it."""
    field = FIELDS[key]
    _seed(field)
    current = st.session_state[key]
    if key in st.session_state.get(HIDDEN, ()):
        _publish(field, current)
        return current
    st.session_state.setdefault(DRAWN, {})[key] = label
    kwargs[default] = field.choices.index(current) if default == "index" else current
    value = make(label, key=key, **kwargs)
    _publish(field, value)
    return value


def _live(label, key, **kwargs):
    """The slider or toggle of a live section (lab/section.py LIVE): lab/live_control.py's, which the section's route
    answers."""
    route = live.route(LIVE[key])
    return _control(lambda label, key, value, **kw: live_control.control(label, key, route=route, **kw), label, key,
                    **kwargs)


def slider(label, key, *, step=None, **kwargs):
    if key in LIVE:
        return _live(label, key, step=step, **kwargs)
    field = FIELDS[key]
    return _control(st.slider, label, key, min_value=field.lo, max_value=field.hi, step=step, **kwargs)


def number_input(label, key, *, step=None, **kwargs):
    field = FIELDS[key]
    return _control(st.number_input, label, key, min_value=field.lo, max_value=field.hi, step=step, **kwargs)


def log_slider(label, key, **kwargs):
    """A slider over a log-spaced grid (C, γ, λ)."""
    if key in LIVE:
        return _live(label, key, fmt=fmt, **kwargs)
    return _control(st.select_slider, label, key, options=FIELDS[key].choices, format_func=fmt, **kwargs)


def selectbox(label, key, format_func=str, **kwargs):
    return _control(st.selectbox, label, key, "index", options=FIELDS[key].choices, format_func=format_func,
                    **kwargs)


def segmented(label, key, format_func=str, **kwargs):
    return _control(st.segmented_control, label, key, "default", options=FIELDS[key].choices,
                    format_func=format_func, required=True, **kwargs)


def toggle(label, key, **kwargs):
    if key in LIVE:
        return _live(label, key, **kwargs)
    return _control(st.toggle, label, key, **kwargs)


def checkbox(label, key, **kwargs):
    return _control(st.checkbox, label, key, **kwargs)


def text_input(label, key, **kwargs):
    return _control(st.text_input, label, key, max_chars=int(FIELDS[key].hi), **kwargs)


def kernel_controls(prefix, of=""):
    """The kernel chooser and the parameters that kernel uses, as a KernelSpec. of: what the kernel is for, added
    to every label when a page has two choosers (each control needs a label of its own)."""
    tail = f", {of}" if of else ""
    kernel = selectbox(f"Kernel{tail}", f"{prefix}_kernel", format_func=KERNEL_LABELS.get)
    gamma, degree, coef0 = None, None, None
    if kernel != "linear":
        gamma = log_slider(f"γ (kernel width; larger = more local){tail}", f"{prefix}_gamma")
        if kernel in SIGMA_FORMS:
            st.caption(sigma_text(kernel, gamma))
    if kernel == "poly":
        degree = slider(f"d (polynomial degree){tail}", f"{prefix}_degree")
    if kernel in ("poly", "sigmoid"):
        coef0 = slider(f"r (additive constant coef0){tail}", f"{prefix}_coef0", step=0.25)
    return KernelSpec(kernel, gamma, degree, coef0)


def c_control(prefix):
    """C with its hard-margin toggle beside it: C = ∞ when the toggle is on."""
    left, right = st.columns([2, 3], vertical_alignment="bottom")
    with left:
        hard = toggle("hard margin (C = ∞)", f"{prefix}_hard",
                      help="Demand yᵢf(xᵢ) ≥ 1 for every point; only possible on separable data.")
    if hard:
        return np.inf
    with right:
        return log_slider("C (box constraint; slack penalty)", f"{prefix}_C")


def descent_controls(prefix):
    """η / η_max, the number of steps T and batch vs stochastic in three columns: (ratio, T, stochastic)."""
    a, b, c = st.columns(3)
    with a:
        ratio = log_slider("η / η_max (step as a fraction of the stable limit)", f"{prefix}_eta",
                           help="η_max = 2/λ_max(K) for batch steps, 2/max Kᵢᵢ for one point per step. "
                                "Above 1 the loss can grow instead of shrink.")
    with b:
        T = slider("T (number of steps)", f"{prefix}_T")
    with c:
        mode = segmented("Update", f"{prefix}_mode", format_func=STEP_MODES.get)
    return ratio, T, mode == "stochastic"
