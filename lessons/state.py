"""The lab's URL state: every control, its type, default, allowed values and owning page, in one list, with
the serializer that writes it into a link and reads it back (TensorFlow Playground's model). Pure Python.

A link stores stable values (`pd_kernel=rbf`, `pd_C=1000`), never the labels a control shows, so a label
can be reworded without breaking a shared link. Links made before this schema stored some labels
(`pd_kernel=sigmoid  tanh(γ x·z + r)`); LEGACY maps each of those to its value, so they keep working.
"""

import math
from dataclasses import dataclass

from kernel_core.formula import MAX_LENGTH as FORMULA_MAX_LENGTH

SIDEBAR = "sidebar"
APP = "app"   # the app-wide view settings: presenter mode and the controls a shared link hides


def log_values(lo_exp, hi_exp, per_decade=4):
    """A log-spaced grid 10^lo .. 10^hi, rounded to 3 significant digits so labels stay short
    and nearby slider positions of different students hit the same cache entries."""
    return tuple(float(f"{10.0 ** (k / per_decade):.3g}") for k in range(lo_exp * per_decade, hi_exp * per_decade + 1))


C_VALUES = log_values(-2, 3)
GAMMA_VALUES = log_values(-2, 2)
LAM_VALUES = log_values(-4, 0)
# η as a multiple of the stable limit η_max (2/λ_max(K) batch, 2/max Kᵢᵢ one point per step); above 1 it may diverge
ETA_RATIOS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.95, 1.05, 1.2, 2.0, 5.0, 10.0)
KERNEL_NAMES = ("linear", "poly", "rbf", "laplacian", "exponential", "sigmoid")
N_MAX = 500
MAX_USER_POINTS = 200
HIDE_MAX_LENGTH = 1000   # every key of the schema, comma-separated, fits


@dataclass(frozen=True)
class Field:
    """One control's state. kind: "choice" (one of `choices`), "int" or "float" (within lo..hi), "bool", "text"."""

    key: str
    page: str
    kind: str
    default: object
    choices: tuple = ()
    lo: float = -math.inf
    hi: float = math.inf


def choice(key, page, choices, default):
    return Field(key, page, "choice", default, tuple(choices))


def number(key, page, lo, hi, default, kind="float"):
    return Field(key, page, kind, default, lo=lo, hi=hi)


def flag(key, page, default=False):
    return Field(key, page, "bool", default)


def kernel_fields(prefix, page, *, kernels=KERNEL_NAMES, default="rbf", gamma=1.0):
    """The four fields of a kernel chooser: the kernel, γ, the degree d and coef0 r."""
    return (choice(f"{prefix}_kernel", page, kernels, default), choice(f"{prefix}_gamma", page, GAMMA_VALUES, gamma),
            number(f"{prefix}_degree", page, 1, 10, 3, "int"), number(f"{prefix}_coef0", page, -2.0, 2.0, 1.0))


def descent_fields(prefix, page, *, T_max, T_default):
    """η / η_max, the number of steps T and batch versus stochastic steps."""
    return (choice(f"{prefix}_eta", page, ETA_RATIOS, 0.5), number(f"{prefix}_T", page, 1, T_max, T_default, "int"),
            choice(f"{prefix}_mode", page, ("batch", "stochastic"), "batch"))


def _fields():
    yield choice("dataset", SIDEBAR, ("circles", "circle_rule", "moons", "xor", "blobs", "spirals", "linear",
                                      "lfd_toy", "blobs3"), "circles")
    yield number("n", SIDEBAR, 10, N_MAX, 100, "int")
    yield number("noise", SIDEBAR, 0.0, 0.5, 0.1)
    yield number("seed", SIDEBAR, 0, 9999, 0, "int")
    yield choice("new_class", SIDEBAR, (1, -1, 2), 1)
    yield flag("only_mine", SIDEBAR)
    yield flag("present", APP)
    # the controls a shared view leaves out (their values still come from the link): keys of this schema, a comma
    # between them (hidden_keys); not a control itself
    yield Field("hide", APP, "text", "", hi=HIDE_MAX_LENGTH)
    # lesson 1
    page = "feature-maps"
    yield choice("fm_map", page, ("circle", "paraboloid", "poly2_homogeneous", "poly2_full", "cubic_1d"),
                 "poly2_homogeneous")
    yield choice("fm_source", page, ("typed", "data"), "typed")
    yield number("fm_i", page, 0, N_MAX + MAX_USER_POINTS, 0, "int")
    yield number("fm_j", page, 0, N_MAX + MAX_USER_POINTS, 1, "int")
    for key, default in (("fm_x1", 0.7), ("fm_x2", -1.3), ("fm_z1", 1.1), ("fm_z2", 0.4)):
        yield number(key, page, -10.0, 10.0, default)
    yield number("fm_d", page, 1, 50, 2, "int")
    yield number("fm_p", page, 1, 12, 3, "int")
    yield number("fm_m", page, 1, 40, 4, "int")
    yield choice("fm_gamma", page, GAMMA_VALUES, 1.0)
    yield number("fm_z", page, -2.0, 2.0, 1.0)
    yield from descent_fields("fm", page, T_max=2000, T_default=100)
    # lesson 2
    page = "circle"
    yield choice("cl_data", page, ("notes", "sidebar"), "notes")
    yield choice("cl_lift", page, ("circle", "paraboloid"), "circle")
    yield flag("cl_hard", page)
    yield choice("cl_C", page, C_VALUES, 100.0)
    # lesson 3
    page = "primal-dual"
    yield choice("pd_space", page, ("linear", "explicit", "kernel"), "explicit")
    yield flag("pd_offset", page, True)
    yield flag("pd_hard", page)
    yield choice("pd_C", page, C_VALUES, 1.0)
    yield choice("pd_phi", page, ("poly2_full", "poly2_homogeneous", "paraboloid", "circle"), "poly2_full")
    yield from kernel_fields("pd", page, kernels=KERNEL_NAMES[1:])
    yield flag("pd_sklearn", page)
    yield flag("pd_cv", page)
    # lesson 4
    page = "pegasos"
    yield from kernel_fields("pg", page)
    yield choice("pg_lam", page, LAM_VALUES, 0.01)
    yield number("pg_seed", page, 0, 9999, 0, "int")
    yield number("pg_T", page, 100, 20_000, 2_000, "int")
    yield number("pg_epochs", page, 1, 200, 50, "int")
    yield choice("pg_iterate", page, ("avg", "last"), "avg")
    yield number("pg_replay", page, 1, 100, 100, "int")
    # lesson 5
    page = "mercer"
    yield from kernel_fields("mc", page)
    yield choice("mc_rule", page, ("sum", "product", "scale", "polynomial", "exp", "warp"), "sum")
    yield choice("mc_k1", page, ("linear", "poly", "rbf", "laplacian"), "rbf")
    yield choice("mc_k2", page, ("linear", "poly", "rbf", "laplacian"), "linear")
    yield number("mc_c", page, -3.0, 3.0, 2.0)
    for p, default in enumerate((1.0, 1.0, 0.5)):
        yield number(f"mc_a{p}", page, -3.0, 3.0, default)
    yield choice("mc_warp", page, ("bump", "first", "affine"), "bump")
    yield choice("mc_invalid", page, ("negative squared distance", "distance", "flipped Gaussian", "shifted linear",
                                      "sigmoid (γ = 0.5, coef0 = 1)"), "negative squared distance")
    yield Field("mc_formula", page, "text", "exp(-g * norm(x - z)**2)", hi=FORMULA_MAX_LENGTH)
    yield choice("mc_g", page, GAMMA_VALUES, 1.0)
    yield number("mc_r", page, -2.0, 2.0, 1.0)
    yield number("mc_d", page, 1, 10, 2, "int")
    yield choice("mc_C", page, C_VALUES, 1.0)
    # lesson 6
    page = "regression"
    yield number("rg_n", page, 4, 60, 15, "int")
    yield from kernel_fields("rg", page, gamma=10.0)
    yield choice("rg_lam", page, LAM_VALUES, 0.1)
    yield from descent_fields("rg", page, T_max=5000, T_default=200)
    yield from kernel_fields("rgl", page)
    yield choice("rgl_lam", page, LAM_VALUES, 0.01)
    yield number("rgl_T", page, 1, 3000, 300, "int")


FIELDS = {f.key: f for f in _fields()}

# Links made before the schema carried the label a choice showed; each maps to its value.
_KERNEL_LABELS = {"linear  x·z": "linear", "polynomial  (γ x·z + r)^d": "poly", "Gaussian (RBF)  exp(−γ‖x−z‖²)": "rbf",
                  "Laplacian  exp(−γ‖x−z‖₁)": "laplacian", "exponential  exp(−γ‖x−z‖₂)": "exponential",
                  "sigmoid  tanh(γ x·z + r)": "sigmoid"}
_MAP_LABELS = {"φ(x) = (1, x₁², x₂²)": "circle", "φ(x) = (x₁, x₂, x₁² + x₂²)": "paraboloid",
               "φ(x) = (x₁², √2·x₁x₂, x₂²)": "poly2_homogeneous", "φ(x) = (x₁, x₂, x₁², √2·x₁x₂, x₂²)": "poly2_full",
               "φ(x) = (1, x, x², x³)": "cubic_1d"}
_BASE_LABELS = {"x·z": "linear", "(x·z + 1)²": "poly", "exp(−‖x − z‖²)": "rbf", "exp(−‖x − z‖₁)": "laplacian"}
_STEP_LABELS = {"batch (all points)": "batch", "stochastic (one point)": "stochastic"}
LEGACY = {
    **{f"{p}_kernel": _KERNEL_LABELS for p in ("pd", "pg", "mc", "rg", "rgl")},
    "dataset": {"Circles (scikit-learn)": "circles", "Circle rule sign(x₁² + x₂² − 1)": "circle_rule", "Moons": "moons",
                "XOR": "xor", "Two Gaussian blobs": "blobs", "Two spirals": "spirals",
                "Linearly separable (gap)": "linear", "Learning From Data 4-point example": "lfd_toy"},
    "new_class": {"class −1 (blue)": -1, "class +1 (red)": 1},
    "fm_map": _MAP_LABELS, "pd_phi": _MAP_LABELS,
    "fm_source": {"type x and z": "typed", "two of the current data points": "data"},
    "fm_mode": _STEP_LABELS, "rg_mode": _STEP_LABELS,
    "cl_lift": {"φ(x) = (1, x₁², x₂²)  (Lecture 8)": "circle", "φ(x) = (x₁, x₂, x₁² + x₂²)": "paraboloid"},
    "pd_space": {"φ(x) = x": "linear", "explicit φ(x)": "explicit", "any kernel (dual only)": "kernel"},
    "pg_iterate": {"average α̂_t (the output)": "avg", "last iterate α^t": "last"},
    "mc_rule": {"K1(x, z) + K2(x, z)": "sum", "K1(x, z) K2(x, z)": "product", "c K(x, z), c > 0": "scale",
                "g(K(x, z)), g with coefficients ≥ 0": "polynomial", "exp(K(x, z))": "exp",
                "f(x) K(x, z) f(z)": "warp"},
    "mc_k1": _BASE_LABELS, "mc_k2": _BASE_LABELS,
    "mc_warp": {"f(x) = exp(−‖x‖²)": "bump", "f(x) = x₁": "first", "f(x) = 1 + x₂": "affine"},
}


def encode(field, value):
    """The text a link stores for `value`."""
    if field.kind == "bool":
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)


def decode(field, text):
    """The value a link's text stands for; ValueError, saying what is allowed, when it stands for none."""
    legacy = LEGACY.get(field.key, {})
    if text in legacy and (field.kind != "choice" or legacy[text] in field.choices):
        return legacy[text]
    if field.kind == "bool":
        if text.lower() in ("true", "false"):
            return text.lower() == "true"
        raise ValueError(f"{field.key}={text!r} in the link is not true or false")
    if field.kind == "text":
        if len(text) > field.hi:
            raise ValueError(f"{field.key} in the link is longer than {field.hi:g} characters")
        return text
    if field.kind == "choice":
        for option in field.choices:
            if text == encode(field, option) or (isinstance(option, (int, float)) and _same_number(text, option)):
                return option
        raise ValueError(f"{field.key}={text!r} in the link is not one of "
                         + ", ".join(encode(field, c) for c in field.choices))
    value = _number(text, field.kind)
    if value is None or not field.lo <= value <= field.hi:
        raise ValueError(f"{field.key}={text!r} in the link is not a number from {field.lo:g} to {field.hi:g}")
    return value


def _number(text, kind):
    try:
        value = float(text) if kind == "float" else int(text)
    except (ValueError, OverflowError):
        return None
    return value if kind == "int" or math.isfinite(value) else None


def _same_number(text, option):
    value = _number(text, "float")
    return value is not None and value == float(option)



def hidden_keys(text):
    """The controls a link's ?hide= names (schema keys, a comma between them) as (keys in schema order, the names
    that are no control). `hide` itself is no control. ValueError when the text is longer than any real list."""
    if len(text) > HIDE_MAX_LENGTH:
        raise ValueError(f"hide in the link is longer than {HIDE_MAX_LENGTH} characters, so no control is hidden; "
                         "make the link again with the Share button")
    names = {name.strip() for name in text.split(",") if name.strip()}
    unknown = tuple(sorted(name for name in names if name not in FIELDS or name == "hide"))
    return tuple(key for key in FIELDS if key in names and key != "hide"), unknown
