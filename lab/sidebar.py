"""The shared sidebar, drawn by app.py on every page: the dataset, n, noise and seed, and the student's own points
(added by a click on a decision plot, typed, or uploaded as CSV), kept in the link as `?pts=` (lab/points.py)."""

import functools

import streamlit as st

import datasets
from datasets.upload import DECIMALS, MAX_ABS_COORD, read_points_csv
from figures.boundary import GRID_POINTS
from kernel_core.svm import DualSVM, PrimalSVM
from lab import points, widgets
from kernel_core.formula import MAX_LENGTH as FORMULA_MAX_LENGTH
from lab.state import MAX_USER_POINTS, N_MAX
from lab.widgets import plain

CLASS_NAMES = {-1: "class −1 (blue)", 1: "class +1 (vermillion)", 2: "class 2 (green)"}


def sidebar(narrow=False):
    """Dataset, n, noise, seed and the student's own points. narrow (a phone, whose sidebar is folded away): the
    data controls go into an expander at the top of the main area instead."""
    _restore_points_from_url()
    with st.expander("Data: dataset, n, noise, seed", icon=":material/scatter_plot:", key="data_main") if narrow \
            else st.sidebar:
        if not narrow:
            st.subheader("Data")
        name = widgets.selectbox("Dataset", "dataset", format_func=lambda k: datasets.DATASET_INFO[k].label)
        info = datasets.DATASET_INFO[name]
        widgets.slider("n (number of points)", "n", step=10, disabled=not info.uses_n,
                       help=None if info.uses_n else "This example has fixed points.")
        widgets.slider("noise", "noise", step=0.01, disabled=not info.uses_noise)
        widgets.number_input("seed", "seed")
    with st.sidebar:
        _own_points()
        _limits()


def _own_points():
    own = user_points()
    # A popover, not an expander: the browser builds a closed popover's content only when it opens, while a closed
    # expander's ten controls are re-rendered with the whole page on every slider move of every lesson. Keyed, so it
    # stays open when its label (the count) changes after an added point or an upload.
    with st.popover(f"Your own points ({len(own)})", key="own_points", width="stretch",
                    icon=":material/add_location_alt:"):
        widgets.segmented("Class of the next point", "new_class", format_func=CLASS_NAMES.get)
        st.caption("Click or tap a decision-boundary plot to drop a point of this class there (shift-click: the "
                   "other of ±1); drag your point to move it, double-click it to remove it. Or type coordinates. "
                   "Class 2 is a third class: lesson 3's kernel mode trains on it (one-vs-rest), the other lessons "
                   "are binary and leave it out.")
        c1, c2 = st.columns(2)
        c1.number_input("new point x₁", -MAX_ABS_COORD, MAX_ABS_COORD, 0.0, 0.1, key="new_x1")
        c2.number_input("new point x₂", -MAX_ABS_COORD, MAX_ABS_COORD, 0.0, 0.1, key="new_x2")
        b1, b2, b3 = st.columns(3)
        b1.button("Add", on_click=_add_typed_point, width="stretch")
        b2.button("Undo", on_click=lambda: set_points(user_points()[:-1]), disabled=not own, width="stretch")
        b3.button("Clear", on_click=set_points, args=((),), disabled=not own, width="stretch")
        widgets.toggle("Use only my points", "only_mine",
                       help="Off: your points are added to the dataset. On: the dataset is replaced by them.")
        _upload_control()
        # built on click (a deferred download): a rerun pays nothing for it
        st.download_button("Download my points (CSV)", functools.partial(points.to_csv, own), key="download_points",
                           file_name="kernel-lab-points.csv", mime="text/csv", on_click="ignore", disabled=not own,
                           icon=":material/download:", width="stretch",
                           help="The file the upload above reads: x1,x2,y per line. "
                                "Upload it to get these points back.")


def user_points():
    return st.session_state.get("user_points", ())


def set_points(new_points):
    """Replace the student's points, in the session and in the link."""
    st.session_state["user_points"] = tuple(new_points)
    # the points changed: an earlier upload's message no longer describes them
    st.session_state.pop("upload_message", None)
    if new_points:
        st.query_params["pts"] = points.encode(new_points)
    elif st.query_params.get("pts") is not None:
        del st.query_params["pts"]


def add_point(x1, x2, label=None):
    """Append a point of class `label` (default: the class chosen in the sidebar)."""
    _edit(points.added, x1, x2, label or st.session_state.get("new_class") or 1)


def move_point(i, x1, x2):
    """Move the student's point i to (x1, x2), keeping its class."""
    _edit(points.moved, i, x1, x2)


def remove_point(i):
    """Remove the student's point i."""
    _edit(points.removed, i)


def _edit(change, *args):
    """Apply a change of lab/points.py to the student's points; a refused change is a toast, not an error."""
    try:
        set_points(change(user_points(), *args))
    except ValueError as exc:
        st.toast(str(exc))


def _add_typed_point():
    add_point(st.session_state["new_x1"], st.session_state["new_x2"])


def _restore_points_from_url():
    """Reload the student's points from the link once per session (a reload or a shared link); what is not a point
    the upload would take is dropped, from the link too, and a notice says so."""
    if "user_points" in st.session_state:
        return
    raw = st.query_params.get("pts", "")
    restored, notice = points.read(raw)
    st.session_state["user_points"] = restored
    if raw and raw != points.encode(restored):
        set_points(restored)
    if notice:
        st.toast(plain(notice), icon=":material/link_off:")


def upload_limit_bytes():
    """The server's upload limit (server.maxUploadSize, in MB) in bytes."""
    return int(st.get_option("server.maxUploadSize")) * 2**20


def _upload_control():
    """A CSV of points that REPLACES the student's points; its message stays until the points change."""
    # a new key after each upload empties the uploader: the points (in the link), not the file, are the state
    key = f"upload_{st.session_state.get('upload_nonce', 0)}"
    st.file_uploader("Upload points (CSV x1,x2,y; replaces your points)", type="csv", key=key,
                     on_change=_load_upload, args=(key,),
                     help=f"One point per line: x1,x2,y with |x1|, |x2| ≤ {MAX_ABS_COORD:g} and y = −1 or +1 "
                          f"(0/1 are read as −1/+1), or 2 for a third class (lesson 3's one-vs-rest). "
                          f"A first line x1,x2,y is allowed. At most {MAX_USER_POINTS} "
                          f"points; coordinates are rounded to {DECIMALS} decimals, as in the link.")
    kind, text = st.session_state.get("upload_message", (None, None))
    if kind == "error":
        st.error(plain(text), icon=":material/error:")
    elif kind == "success":
        st.success(plain(text), icon=":material/check_circle:")


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
    set_points(parsed.points)
    st.session_state["upload_message"] = (
        "success", f"Loaded {len(parsed.points)} points from {file.name}; they replaced your previous points."
        + (" Labels 0/1 were read as −1/+1 (0 → −1)." if parsed.labels_01 else ""))


def _limits():
    with st.popover("Limits", icon=":material/straighten:", width="stretch"):  # a popover: see _own_points
        st.caption(
            f"- n ≤ {N_MAX} points from the dataset generator\n"
            f"- your own points: at most {MAX_USER_POINTS}; typed or uploaded ones within ±{MAX_ABS_COORD:g}\n"
            f"- CSV upload: at most {upload_limit_bytes() // 2**20} MB and {MAX_USER_POINTS} points\n"
            f"- decision plots: a {GRID_POINTS} × {GRID_POINTS} grid\n"
            f"- kernel formula: at most {FORMULA_MAX_LENGTH} characters\n"
            f"- SVM solvers stop after {DualSVM().max_iter:,} SMO steps (dual) or {PrimalSVM().max_iter} "
            "interior-point iterations (primal), and the page says so"
        )
