"""Shared page helpers: control ranges defined once, the sidebar's data controls, cached data,
the charts (drawn in place by lessons/live_chart.py; decision plots take clicks) and error display.

Every control is keyed and bound to the URL (bind="query-params"), so a link reopens the same view.
"""

import collections
import contextlib
import functools
import hashlib
import re
import threading
import types

import numpy as np
import pyarrow as pa
import streamlit as st
from threadpoolctl import threadpool_limits

import datasets
from datasets.upload import DECIMALS, MAX_ABS_COORD, read_points_csv
from figures.boundary import OWN_POINTS, own_points_trace
from kernel_core.formula import MAX_LENGTH as FORMULA_MAX_LENGTH
from kernel_core.svm import DualSVM, PrimalSVM
from kernel_core.validation import check_X_y
from lessons import live_chart

# One BLAS thread per process (this module is imported once): sessions already rerun side by side, and
# OpenBLAS's own threads spin and stall when the two cores are busy. A hard-margin Laplacian fit on
# 500 spirals took 6.6 s with one thread and 54 s with default threading under load.
threadpool_limits(limits=1, user_api="blas")


def log_values(lo_exp, hi_exp, per_decade=4):
    """A log-spaced grid 10^lo .. 10^hi, rounded to 3 significant digits so labels stay short
    and nearby slider positions of different students hit the same cache entries."""
    exps = np.arange(lo_exp * per_decade, hi_exp * per_decade + 1) / per_decade
    return [float(f"{v:.3g}") for v in 10.0**exps]


C_VALUES = log_values(-2, 3)
GAMMA_VALUES = log_values(-2, 2)
LAM_VALUES = log_values(-4, 0)
KERNEL_LABELS = {
    "linear": "linear  x·z",
    "poly": "polynomial  (γ x·z + r)^d",
    "rbf": "Gaussian (RBF)  exp(−γ‖x−z‖²)",
    "laplacian": "Laplacian  exp(−γ‖x−z‖₁)",
    "exponential": "exponential  exp(−γ‖x−z‖₂)",
    "sigmoid": "sigmoid  tanh(γ x·z + r)",
}
N_MAX = 500
MAX_USER_POINTS = 200
# 80 × 80 cells of about 5 px on a decision plot: no finer than the eye, and 64 % of 100 × 100's work (the
# model on the grid, the level lines, the payload, the browser's image)
GRID_POINTS = 80
CLASS_NAMES = {-1: "class −1 (blue)", 1: "class +1 (red)"}


def fmt(v):
    """Short label for a slider value: 3 significant digits."""
    return f"{v:.3g}"


def log_slider(label, key, values, default, *, help=None):
    """A slider over a log-spaced grid (C, γ, λ), bound to the URL."""
    return st.select_slider(label, options=values, value=default, format_func=fmt, key=key,
                            bind="query-params", help=help)


def kernel_controls(prefix, *, kernels=("linear", "poly", "rbf", "laplacian", "exponential", "sigmoid"),
                    default="rbf", gamma_default=1.0):
    """Kernel chooser and the parameters that kernel uses; returns a dict for make_kernel."""
    kernel = st.selectbox("Kernel", kernels, index=kernels.index(default), format_func=KERNEL_LABELS.get,
                          key=f"{prefix}_kernel", bind="query-params")
    params = {"kernel": kernel, "gamma": None, "degree": 3, "coef0": 1.0}
    if kernel != "linear":
        params["gamma"] = log_slider("γ (kernel width; larger = more local)", f"{prefix}_gamma", GAMMA_VALUES,
                                     gamma_default)
    if kernel == "poly":
        params["degree"] = st.slider("d (polynomial degree)", 1, 10, 3, key=f"{prefix}_degree", bind="query-params")
    if kernel in ("poly", "sigmoid"):
        params["coef0"] = st.slider("r (additive constant coef0)", -2.0, 2.0, 1.0, 0.25, key=f"{prefix}_coef0",
                                    bind="query-params")
    return params


def show_error(exc, *, stop=True):
    """Show a core ValueError as a message a student can act on, then stop the page
    (stop=False: only this section failed, the rest of the page still renders)."""
    st.error(str(exc), icon=":material/error:")
    if stop:
        st.stop()


# ---------------------------------------------------------------- gradient descent on 1-D data (lessons 1 and 6)

# η as a multiple of the stable limit η_max (2/λ_max(K) batch, 2/max Kᵢᵢ one point per step); above 1 it may diverge
ETA_RATIOS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.95, 1.05, 1.2, 2.0, 5.0, 10.0)
ETA_RATIO_DEFAULT = 0.5
STEP_MODES = {"batch": "batch (all points)", "stochastic": "stochastic (one point)"}


def descent_controls(prefix, *, T_max=2000, T_default=100):
    """η / η_max, the number of steps T and batch vs stochastic in three columns: (ratio, T, stochastic)."""
    a, b, c = st.columns(3)
    ratio = a.select_slider("η / η_max (step as a fraction of the stable limit)", ETA_RATIOS,
                            value=ETA_RATIO_DEFAULT, key=f"{prefix}_eta", bind="query-params",
                            help="η_max = 2/λ_max(K) for batch steps, 2/max Kᵢᵢ for one point per step. "
                                 "Above 1 the loss can grow instead of shrink.")
    T = b.slider("T (number of steps)", 1, T_max, T_default, key=f"{prefix}_T", bind="query-params")
    mode = c.segmented_control("Update", list(STEP_MODES), format_func=STEP_MODES.get, default="batch",
                               key=f"{prefix}_mode", bind="query-params", required=True)
    return ratio, T, mode == "stochastic"


def unstable_step_warning(ratio, eta, eta_max):
    """Warn when η / η_max > 1: the run may still finish, but its loss can grow instead of shrink."""
    if ratio > 1:
        st.warning(f"η = {eta:.4g} is above the stable limit η_max = {eta_max:.4g}: steps can overshoot and "
                   "the loss can grow. Move η / η_max below 1.", icon=":material/warning:")


def house_prices(n=None):
    """The notes' 1-D house prices (x (n, 1), y (n,)) drawn with the sidebar's seed; n and noise
    default to DATASET_INFO's."""
    return datasets.make_dataset("house_prices", n, random_state=int(st.session_state["seed"]))


# ---------------------------------------------------------------- the shared sidebar

def _classification_datasets():
    return [name for name, info in datasets.DATASET_INFO.items() if info.task == "classification"]


def sidebar():
    """Dataset, n, noise, seed and the student's own points; rendered by app.py on every page."""
    _restore_points_from_url()
    with st.sidebar:
        st.subheader("Data")
        names = _classification_datasets()
        name = st.selectbox("Dataset", names, index=names.index("circles"),
                            format_func=lambda k: datasets.DATASET_INFO[k].label, key="dataset",
                            bind="query-params")
        info = datasets.DATASET_INFO[name]
        st.slider("n (number of points)", 10, N_MAX, 100, step=10, key="n", bind="query-params",
                  disabled=not info.uses_n, help=None if info.uses_n else "This example has fixed points.")
        st.slider("noise", 0.0, 0.5, 0.1, 0.01, key="noise", bind="query-params", disabled=not info.uses_noise)
        st.number_input("seed", 0, 9999, 0, key="seed", bind="query-params")
        _user_points_controls()
        _limits()


def _user_points_controls():
    points = st.session_state.setdefault("user_points", ())
    # keyed, so it stays open when its label (the count) changes after a click or an upload
    with st.expander(f"Your own points ({len(points)})", expanded=False, key="own_points"):
        st.segmented_control("Class of the next point", [1, -1], format_func=CLASS_NAMES.get, default=1,
                             key="new_class", bind="query-params", required=True)
        st.caption("Tap or click any decision-boundary plot to drop a point of this class there (shift-click: "
                   "the other class), or type its coordinates. Drag your points (◆) to move them; double-click "
                   "one, or use the plot's Delete points mode, to remove it.")
        c1, c2 = st.columns(2)
        c1.number_input("x₁", -MAX_ABS_COORD, MAX_ABS_COORD, 0.0, 0.1, key="new_x1")
        c2.number_input("x₂", -MAX_ABS_COORD, MAX_ABS_COORD, 0.0, 0.1, key="new_x2")
        b1, b2, b3 = st.columns(3)
        b1.button("Add", on_click=_add_typed_point, width="stretch")
        b2.button("Undo", on_click=_undo_point, disabled=not points, width="stretch")
        b3.button("Clear", on_click=_set_points, args=((),), disabled=not points, width="stretch")
        st.toggle("Use only my points", key="only_mine", bind="query-params",
                  help="Off: your points are added to the dataset. On: the dataset is replaced by them.")
        _upload_control()


def upload_limit_bytes():
    """The server's upload limit (server.maxUploadSize, in MB) in bytes."""
    return int(st.get_option("server.maxUploadSize")) * 2**20


def _upload_control():
    """A CSV of points that REPLACES the student's points; its message stays until the points change."""
    # a new key after each upload empties the uploader: the points (in the URL), not the file, are the state
    key = f"upload_{st.session_state.get('upload_nonce', 0)}"
    st.file_uploader("Upload points (CSV x1,x2,y; replaces your points)", type="csv", key=key,
                     on_change=_load_upload, args=(key,),
                     help=f"One point per line: x1,x2,y with |x1|, |x2| ≤ {MAX_ABS_COORD:g} and y = −1 or +1 "
                          f"(0/1 are read as −1/+1). A first line x1,x2,y is allowed. At most {MAX_USER_POINTS} "
                          f"points; coordinates are rounded to {DECIMALS} decimals, as in the link.")
    kind, text = st.session_state.get("upload_message", (None, None))
    if kind == "error":
        st.error(plain(text), icon=":material/error:")
    elif kind == "success":
        st.success(plain(text), icon=":material/check_circle:")


_MARKDOWN_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def plain(text):
    """text shown literally by st.markdown/st.error: every ASCII punctuation mark backslash-escaped, so
    a file's name or content echoed in a message cannot turn into links, LaTeX ($) or formatting."""
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


def _load_upload(key):
    file = st.session_state.get(key)
    if file is None:
        return
    st.session_state["upload_nonce"] = st.session_state.get("upload_nonce", 0) + 1
    try:
        parsed = read_points_csv(file, max_rows=MAX_USER_POINTS, max_bytes=upload_limit_bytes())
    except ValueError as exc:
        st.session_state["upload_message"] = ("error", f"{file.name}: {exc} Your points are unchanged.")
        return
    _set_points(parsed.points)
    st.session_state["upload_message"] = (
        "success", f"Loaded {len(parsed.points)} points from {file.name}; they replaced your previous points."
        + (" Labels 0/1 were read as −1/+1 (0 → −1)." if parsed.labels_01 else ""))


def _limits():
    with st.expander("Limits", icon=":material/straighten:"):
        st.caption(
            f"- n ≤ {N_MAX} points from the dataset generator\n"
            f"- your own points: at most {MAX_USER_POINTS}; typed or uploaded ones within ±{MAX_ABS_COORD:g}\n"
            f"- CSV upload: at most {upload_limit_bytes() // 2**20} MB and {MAX_USER_POINTS} points\n"
            f"- decision plots: a {GRID_POINTS} × {GRID_POINTS} grid\n"
            f"- kernel formula: at most {FORMULA_MAX_LENGTH} characters\n"
            f"- SVM solvers stop after {DualSVM().max_iter:,} SMO steps (dual) or {PrimalSVM().max_iter} "
            "interior-point iterations (primal), and the page says so"
        )


def _points_param(points):
    return "~".join(f"{x1:.{DECIMALS}f}_{x2:.{DECIMALS}f}_{int(y)}" for x1, x2, y in points)


def _set_points(points):
    st.session_state["user_points"] = tuple(points)
    # the points changed: an earlier upload's message no longer describes them
    st.session_state.pop("upload_message", None)
    if points:
        st.query_params["pts"] = _points_param(points)
    elif "pts" in st.query_params:
        del st.query_params["pts"]


def _in_window(x1, x2):
    """True when the point is inside ±MAX_ABS_COORD (what the link and uploads allow); else says so."""
    if max(abs(x1), abs(x2)) <= MAX_ABS_COORD:
        return True
    st.toast(f"Points must lie within ±{MAX_ABS_COORD:g} on both axes; ({x1:g}, {x2:g}) does not.")
    return False


def add_point(x1, x2, label=None):
    """Append a point of class `label` (default: the sidebar's chosen class), up to MAX_USER_POINTS."""
    points = st.session_state.get("user_points", ())
    if len(points) >= MAX_USER_POINTS:
        st.toast(f"At most {MAX_USER_POINTS} points of your own; clear some first.")
        return
    x1, x2 = round(float(x1), DECIMALS) + 0.0, round(float(x2), DECIMALS) + 0.0
    if _in_window(x1, x2):
        _set_points(points + ((x1, x2, int(label or st.session_state.get("new_class") or 1)),))


def move_point(i, x1, x2):
    """Move the student's point i to (x1, x2), keeping its class."""
    points = st.session_state.get("user_points", ())
    x1, x2 = round(float(x1), DECIMALS) + 0.0, round(float(x2), DECIMALS) + 0.0
    if 0 <= i < len(points) and _in_window(x1, x2):
        _set_points(points[:i] + ((x1, x2, points[i][2]),) + points[i + 1:])


def remove_point(i):
    """Remove the student's point i."""
    points = st.session_state.get("user_points", ())
    if 0 <= i < len(points):
        _set_points(points[:i] + points[i + 1:])


def _add_typed_point():
    add_point(st.session_state["new_x1"], st.session_state["new_x2"])


def _undo_point():
    _set_points(st.session_state.get("user_points", ())[:-1])


# ASCII digits only (\d would also take "١"); fullmatch, since $ would let a trailing newline through
_POINT = re.compile(r"(-?\d{1,3}(?:\.\d{1,3})?)_(-?\d{1,3}(?:\.\d{1,3})?)_(-1|1)", re.ASCII)


def _restore_points_from_url():
    """Reload the student's points from the URL once per session (a reload or a shared link);
    parts that are not points are dropped, from the URL too."""
    if "user_points" in st.session_state:
        return
    raw = st.query_params.get("pts", "")
    parts = raw.split("~", MAX_USER_POINTS)[:MAX_USER_POINTS] if raw else []
    matches = [_POINT.fullmatch(p) for p in parts]
    points = tuple((round(float(m[1]), DECIMALS) + 0.0, round(float(m[2]), DECIMALS) + 0.0, int(m[3]))
                   for m in matches if m is not None)
    st.session_state["user_points"] = points
    if raw and raw != _points_param(points):
        _set_points(points)


def _digest(value):
    """A hashable stand-in for a memoized function's argument: arrays by shape, dtype and a BLAKE2 digest of
    their bytes; tuples, lists and mappings element by element; anything else as its type and itself."""
    if isinstance(value, np.ndarray):
        return value.shape, value.dtype.str, hashlib.blake2b(np.ascontiguousarray(value).data, digest_size=16).digest()
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_digest(v) for v in value)
    if isinstance(value, (dict, types.MappingProxyType)):
        return "dict", tuple((k, _digest(v)) for k, v in value.items())
    hash(value)  # a type this cache does not know raises here instead of colliding later
    return type(value).__name__, value  # 1, 1.0 and True are equal keys otherwise


def _freeze(value):
    """value made safe to share between sessions: numpy arrays read-only (in place: the memory owns them),
    dicts as read-only mappings, lists as tuples, recursively; anything else (a figure, a fitted model) as it is."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        return value
    if isinstance(value, dict):
        return types.MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if type(value) is tuple:
        return tuple(_freeze(v) for v in value)
    return value


def memo(max_entries=64):
    """Decorator: the function with a process-wide LRU memory of its last max_entries results, shared by
    every session (the pages' cache for core calls and figures).

    Not st.cache_data / st.cache_resource: on every call they inspect the function's signature and hash
    every argument, and st.cache_data unpickles a copy of the result on every hit: 0.29 ms per hit of
    Lesson 4's fit_pegasos-shaped call against 0.01 ms here (BLAKE2 digests of the arrays). Under a lecture's
    load that overhead is paid by every rerun, on one interpreter. Results are shared, so they are frozen
    (_freeze): a page that tried to change one would fail loudly instead of changing what every other
    student sees. An exception is raised, not remembered.
    """
    def decorate(fn):
        memory = collections.OrderedDict()
        lock = threading.Lock()

        @functools.wraps(fn)
        def call(*args, **kwargs):
            key = (_digest(args), _digest(kwargs))
            with lock:
                if key in memory:
                    memory.move_to_end(key)
                    return memory[key]
            result = _freeze(fn(*args, **kwargs))
            with lock:
                memory[key] = result
                while len(memory) > max_entries:
                    memory.popitem(last=False)
            return result

        call.memory = memory
        return call

    return decorate


@memo(max_entries=64)
def _load(name, n, noise, seed, points, only_mine):
    if only_mine:
        if not points:
            raise ValueError("'Use only my points' is on but you have not added any points yet; "
                             "click a plot or type coordinates in the sidebar.")
        X = np.array([p[:2] for p in points], dtype=np.float64)
        y = np.array([p[2] for p in points], dtype=np.float64)
    else:
        X, y = datasets.DATASETS[name](n, noise=noise, random_state=seed)
        if points:
            X = np.vstack([X, np.array([p[:2] for p in points], dtype=np.float64)])
            y = np.concatenate([y, np.array([p[2] for p in points], dtype=np.float64)])
    return check_X_y(X, y)


# held-out points come from the same generator and settings with this seed offset
TEST_SEED_OFFSET = 10_000


def test_data():
    """A fresh sample from the sidebar's generator (same n and noise, another seed) to measure test
    accuracy; None when there is nothing to draw from (a fixed example, or only the student's points)."""
    s = st.session_state
    if s.get("only_mine") or not datasets.DATASET_INFO[s["dataset"]].uses_n:
        return None
    return _load(s["dataset"], s["n"], s["noise"], s["seed"] + TEST_SEED_OFFSET, (), False)


def training_data():
    """(X, y) from the sidebar: the chosen dataset plus the student's points, labels in {−1, +1}."""
    s = st.session_state
    try:
        return _load(s["dataset"], s["n"], s["noise"], s["seed"], s.get("user_points", ()), s.get("only_mine", False))
    except ValueError as exc:
        show_error(exc)


def metric_row():
    """A row for metrics drawn with width="content": each as wide as its value, spread over the row, wrapping on
    a narrow screen. (st.columns gives each a fixed share and cuts a long value such as 3.73478e-13 to "3.7347…".)"""
    return st.container(horizontal=True, horizontal_alignment="distribute", gap="medium")


def table(columns, **kwargs):
    """st.dataframe of a dict of columns, sent as a pyarrow Table without an index column: Streamlit then
    skips pandas (measured 1–3 ms per table on every rerun). Name a column for the row number if it matters."""
    return st.dataframe(pa.table(columns), hide_index=True, **kwargs)


def chart(fig, key, *, container=None):
    """Draw a figure, updated in place on later reruns (lessons/live_chart.py); in `container` if given."""
    with container if container is not None else contextlib.nullcontext():
        live_chart.chart(fig, key=key)


def _apply_event(event):
    """A chart event applied to the student's points, then the whole app reruns: the sidebar's count and
    every page's data change, also when the chart sits in a fragment."""
    if event.op == "add":
        add_point(event.x, event.y, event.label)
    elif event.op == "move":
        move_point(event.index, event.x, event.y)
    else:
        remove_point(event.index)
    st.rerun(scope="app")


def boundary_chart(fig, key):
    """Draw a decision-boundary figure in place: a click adds a point of the sidebar's class where it lands
    (shift-click: the other class), dragging one of the student's points moves it, a double-click removes it.

    The student's points are drawn as the figure's OWN_POINTS trace; a figure built without them gets it here.
    """
    points = st.session_state.get("user_points", ())
    spec = fig.to_dict()
    if points and not any(trace.get("name") == OWN_POINTS for trace in spec["data"]):
        fig = {**spec, "data": [*spec["data"], own_points_trace(points)]}
    live_chart.boundary_chart(fig, key=key, own=points, new_class=int(st.session_state.get("new_class") or 1),
                              on_event=_apply_event)
