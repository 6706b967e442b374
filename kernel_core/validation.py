"""Input checks shared by every public entry point of kernel_core.

Each check raises ``ValueError`` naming what it found and how to fix it, so a page
can show the message to a student as it is.
"""

import math

import numpy as np

MAX_SAMPLES = 20_000
MAX_FEATURES = 1_000
# points to evaluate a fitted model on (a decision grid of up to 500 × 500)
MAX_PREDICT_SAMPLES = 250_000
# a Gram matrix of 5e7 float64 entries is 400 MB
MAX_GRAM_ENTRIES = 50_000_000


def check_array(X, name="X", *, ndim=2, allow_empty=False, max_samples=MAX_SAMPLES):
    """Return X as a finite float64 array of the given ndim (1-D input is promoted for ndim=2)."""
    try:
        A = np.asarray(X, dtype=np.float64)
    except OverflowError:
        raise ValueError(f"{name} holds a number too large for float64 (beyond ±1.8e308); scale it down.") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; could not convert it to numbers ({exc}).") from None
    if ndim == 2 and A.ndim == 1:
        A = A.reshape(-1, 1)
    if A.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D array; got shape {A.shape}.")
    if not allow_empty and A.size == 0:
        raise ValueError(f"{name} is empty (shape {A.shape}); give at least one sample.")
    if A.ndim == 2 and (A.shape[0] > max_samples or A.shape[1] > MAX_FEATURES):
        raise ValueError(
            f"{name} has shape {A.shape}; the limit is {max_samples} samples and "
            f"{MAX_FEATURES} features. Use fewer points."
        )
    if not np.all(np.isfinite(A)):
        bad = int(np.count_nonzero(~np.isfinite(A)))
        raise ValueError(f"{name} contains {bad} NaN or infinite value(s); remove or replace them.")
    return A


def check_pair(X, Y=None):
    """Validate the two inputs of a kernel; Y=None means Y = X. The Gram matrix is n × m floats,
    so its size, not the row count, is what is bounded."""
    X = check_array(X, "X", max_samples=MAX_PREDICT_SAMPLES)
    Y = X if Y is None else check_array(Y, "Y", max_samples=MAX_PREDICT_SAMPLES)
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got {X.shape[1]} and {Y.shape[1]}."
        )
    if X.shape[0] * Y.shape[0] > MAX_GRAM_ENTRIES:
        raise ValueError(
            f"A {X.shape[0]} × {Y.shape[0]} Gram matrix is over the limit of {MAX_GRAM_ENTRIES:.0e} entries; "
            "use fewer points or evaluate in blocks."
        )
    return X, Y


def check_labels(y, n=None):
    """Return y as a float64 vector of -1/+1 labels with both classes present."""
    y = check_array(y, "y", ndim=1)
    if n is not None and y.shape[0] != n:
        raise ValueError(f"X has {n} samples but y has {y.shape[0]} labels; give one label per sample.")
    values = np.unique(y)
    if not np.all(np.isin(values, (-1.0, 1.0))):
        shown = np.array2string(values[:6], separator=" ")
        raise ValueError(
            f"y must contain only -1 and +1; got {shown}. Map 0/1 labels with y = 2*y - 1."
        )
    if values.size < 2:
        raise ValueError(
            f"y contains only the class {values[0]:+g}; a classifier needs points of both classes."
        )
    return y


def check_X_y(X, y):
    """Validate a classification training set: X (n, d) finite, y (n,) in {-1, +1}."""
    X = check_array(X, "X")
    return X, check_labels(y, X.shape[0])


def check_targets(X, y):
    """Validate a regression training set: X (n, d) and real targets y (n,)."""
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    if y.shape[0] != X.shape[0]:
        raise ValueError(f"X has {X.shape[0]} samples but y has {y.shape[0]} targets; give one per sample.")
    return X, y


def check_positive(value, name, *, allow_inf=False, allow_zero=False):
    """Return value as a float that is > 0 (or >= 0), finite unless allow_inf."""
    v = check_real(value, name, finite=False)
    if math.isnan(v) or (math.isinf(v) and not (allow_inf and v > 0)):
        extra = " (use np.inf for the hard margin)" if allow_inf else ""
        raise ValueError(f"{name} must be a finite positive number{extra}; got {value!r}.")
    if v < 0 or (v == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}; got {value!r}.")
    return v


def check_real(value, name, *, finite=True):
    """Return value as a float (finite, unless finite=False)."""
    try:
        v = float(value)
    except OverflowError:
        raise ValueError(f"{name} is too large for float64 (beyond 1.8e308); got a {len(str(value))}-digit "
                         "number. Use a smaller value.") from None
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number; got {value!r}.") from None
    if finite and not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    return v


def check_int(value, name, *, low=1, high=None):
    """Return value as an int in [low, high]."""
    try:
        whole = not isinstance(value, bool) and float(value).is_integer()
    except OverflowError:
        raise ValueError(f"{name} is too large for float64; got a {len(str(value))}-digit number. "
                         "Use a smaller value.") from None
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ValueError(f"{name} must be a whole number; got {value!r}.")
    v = int(value)
    if v < low or (high is not None and v > high):
        rng = f"between {low} and {high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {rng}; got {v}.")
    return v


def check_predict_input(model, X, fitted_attr, X_fit):
    """Validate X for predicting with a fitted model: fitted, finite, same features as the training X."""
    if not hasattr(model, fitted_attr):
        raise ValueError(f"This {type(model).__name__} is not fitted yet; call fit first.")
    X = check_array(X, max_samples=MAX_PREDICT_SAMPLES)
    if X.shape[1] != X_fit.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but the model was fitted on {X_fit.shape[1]}; "
            "pass points with the same number of columns."
        )
    return X
