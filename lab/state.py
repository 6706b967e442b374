"""The lab's URL state: every control, its type, default, allowed values and owning page, in one list, with
the serializer that writes it into a link and reads it back (TensorFlow Playground's model). Pure Python.

A link stores stable values (`pd_kernel=rbf`, `pd_C=1000`), never the labels a control shows, so a label
can be reworded without breaking a shared link. Links made before this schema stored some labels
(`pd_kernel=sigmoid  tanh(γ x·z + r)`); a field's `legacy` maps each of those to its value, so they keep working.
"""

import math
from dataclasses import dataclass


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
# each kernel's name and formula as the controls show them (a link made before the schema stored this text)
KERNEL_LABELS = {
    "linear": "linear  x·z",
    "poly": "polynomial  (γ x·z + r)^d",
    "rbf": "Gaussian (RBF)  exp(−γ‖x−z‖²)",
    "laplacian": "Laplacian  exp(−γ‖x−z‖₁)",
    "exponential": "exponential  exp(−γ‖x−z‖₂)",
    "sigmoid": "sigmoid  tanh(γ x·z + r)",
}
STEP_MODES = {"batch": "batch (all points)", "stochastic": "stochastic (one point)"}
# the explicit feature maps as the controls of lessons 1 and 3 once showed them: older links stored these labels
MAP_LEGACY = {"φ(x) = (1, x₁², x₂²)": "circle", "φ(x) = (x₁, x₂, x₁² + x₂²)": "paraboloid",
              "φ(x) = (x₁², √2·x₁x₂, x₂²)": "poly2_homogeneous", "φ(x) = (x₁, x₂, x₁², √2·x₁x₂, x₂²)": "poly2_full",
              "φ(x) = (1, x, x², x³)": "cubic_1d"}
DATASET_LEGACY = {"Circles (scikit-learn)": "circles", "Circle rule sign(x₁² + x₂² − 1)": "circle_rule",
                  "Moons": "moons", "XOR": "xor", "Two Gaussian blobs": "blobs", "Two spirals": "spirals",
                  "Linearly separable (gap)": "linear", "Learning From Data 4-point example": "lfd_toy"}
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
    legacy: tuple = ()   # (text, value): the label an older link stored for a value (see the module's docstring)


def choice(key, page, choices, default, legacy=None):
    return Field(key, page, "choice", default, tuple(choices), legacy=tuple((legacy or {}).items()))


def number(key, page, lo, hi, default, kind="float"):
    return Field(key, page, kind, default, lo=lo, hi=hi)


def flag(key, page, default=False):
    return Field(key, page, "bool", default)


def kernel_fields(prefix, page, *, kernels=KERNEL_NAMES, default="rbf", gamma=1.0):
    """The four fields of a kernel chooser: the kernel, γ, the degree d and coef0 r."""
    legacy = {label: name for name, label in KERNEL_LABELS.items()}
    return (choice(f"{prefix}_kernel", page, kernels, default, legacy),
            choice(f"{prefix}_gamma", page, GAMMA_VALUES, gamma),
            number(f"{prefix}_degree", page, 1, 10, 3, "int"), number(f"{prefix}_coef0", page, -2.0, 2.0, 1.0))


def descent_fields(prefix, page, *, T_max, T_default):
    """η / η_max, the number of steps T and batch versus stochastic steps."""
    return (choice(f"{prefix}_eta", page, ETA_RATIOS, 0.5), number(f"{prefix}_T", page, 1, T_max, T_default, "int"),
            choice(f"{prefix}_mode", page, tuple(STEP_MODES), "batch", {label: m for m, label in STEP_MODES.items()}))


def _base_fields():
    yield choice("dataset", SIDEBAR, ("circles", "circle_rule", "moons", "xor", "blobs", "spirals", "linear",
                                      "lfd_toy", "blobs3"), "circles", DATASET_LEGACY)
    yield number("n", SIDEBAR, 10, N_MAX, 100, "int")
    yield number("noise", SIDEBAR, 0.0, 0.5, 0.1)
    yield number("seed", SIDEBAR, 0, 9999, 0, "int")
    yield choice("new_class", SIDEBAR, (1, -1, 2), 1, {"class −1 (blue)": -1, "class +1 (red)": 1})
    yield flag("only_mine", SIDEBAR)
    yield flag("present", APP)
    # the controls a shared view leaves out (their values still come from the link): keys of this schema, a comma
    # between them (hidden_keys); not a control itself
    yield Field("hide", APP, "text", "", hi=HIDE_MAX_LENGTH)

# every control of the lab: the sidebar's and the app's here, each lesson's added by the registry (register)
FIELDS = {f.key: f for f in _base_fields()}


def register(fields):
    """Add a lesson's fields to the schema (lessons/registry.py does, for each lesson it lists). A key is one control
    of one page: a second field under a key already taken is refused."""
    for field in fields:
        if FIELDS.setdefault(field.key, field) != field:
            raise ValueError(f"two fields of the URL schema share the key {field.key!r}; give one another key")

def encode(field, value):
    """The text a link stores for `value`."""
    if field.kind == "bool":
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if math.isfinite(value) else str(value)
    return str(value)


def decode(field, text):
    """The value a link's text stands for; ValueError, saying what is allowed, when it stands for none."""
    legacy = dict(field.legacy)
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
