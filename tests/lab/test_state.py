"""The URL schema (lab/state.py): every control of every page is in it, each value survives the trip through
a link, links store values rather than labels, and links made before the schema still open their view."""

import ast
import math
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from lab.section import LIVE
from lab.state import FIELDS, decode, encode
from pageutil import move

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "app.py", *sorted((ROOT / "lessons").rglob("*.py")), *sorted((ROOT / "lab").glob("*.py"))]
ST_WIDGETS = {"slider", "select_slider", "selectbox", "toggle", "checkbox", "radio", "segmented_control",
              "number_input", "text_input", "text_area", "pills", "multiselect"}
# scratch inputs for typing a new point's coordinates: the points themselves travel in the link (?pts=)
UNBOUND = {"new_x1", "new_x2",
           # the Share dialog's choice of controls to hide: it goes into the link the dialog shows (?hide=)
           "share_hide"}


def calls(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield node


def keyword(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_every_control_goes_through_the_schema(path):
    for call in calls(path):
        where = f"{path.name}:{call.lineno} {call.func.attr}"
        owner = getattr(call.func.value, "id", None)
        if call.func.attr in ST_WIDGETS and owner != "widgets" and path.name != "widgets.py":
            key = keyword(call, "key")
            assert isinstance(key, ast.Constant) and key.value in UNBOUND, f"{where} bypasses lab/widgets.py"
        if owner == "widgets" and len(call.args) >= 2:   # a control: (label, key); control groups take a prefix
            key = call.args[1]
            if isinstance(key, ast.Constant):
                assert key.value in FIELDS, f"{where}: {key.value!r} is not in lab/state.py"


def test_the_scan_sees_the_controls():
    assert sum(1 for path in SOURCES for call in calls(path) if getattr(call.func.value, "id", None) == "widgets") > 30


def values(field):
    if field.kind == "choice":
        return field.choices
    if field.kind == "bool":
        return (False, True)
    if field.kind == "text":
        return (field.default, "tanh(g * dot(x, z) + r)")
    return (field.lo, field.default, field.hi)


@pytest.mark.parametrize("key", sorted(FIELDS))
def test_every_value_survives_the_link(key):
    field = FIELDS[key]
    assert field.default in values(field) or field.kind in ("int", "float")
    for value in values(field):
        back = decode(field, encode(field, value))
        assert back == value and type(back) is type(value), (value, back)


def test_links_store_values_not_labels():
    assert encode(FIELDS["pd_kernel"], "sigmoid") == "sigmoid"
    assert encode(FIELDS["pd_C"], 1000.0) == "1000"
    assert encode(FIELDS["new_class"], -1) == "-1"


def test_old_links_with_labels_still_decode():
    assert decode(FIELDS["pd_kernel"], "sigmoid  tanh(γ x·z + r)") == "sigmoid"
    assert decode(FIELDS["dataset"], "Two spirals") == "spirals"
    assert decode(FIELDS["pd_C"], "1e+03") == 1000.0       # the old 3-significant-digit label of C = 1000
    assert decode(FIELDS["new_class"], "class −1 (blue)") == -1
    for field in FIELDS.values():
        for label, value in field.legacy:
            if value in field.choices:
                assert decode(field, label) == value
            else:   # lesson 3 never offered the linear kernel in kernel space
                with pytest.raises(ValueError):
                    decode(field, label)


@pytest.mark.parametrize("key, text", [("pd_kernel", "gaussian"), ("n", "100000"), ("n", "ten"), ("noise", "nan"),
                                       ("pd_C", "3"), ("pd_hard", "maybe"), ("seed", "1" * 400)])
def test_a_value_no_control_can_take_is_refused_with_what_is_allowed(key, text):
    with pytest.raises(ValueError, match=key):
        decode(FIELDS[key], text)


def test_the_schema_knows_every_owner():
    pages = {f.page for f in FIELDS.values()}
    from lessons.registry import LESSONS
    assert pages == {"sidebar", "app"} | {lesson.slug for lesson in LESSONS}
    assert all(f.lo <= f.default <= f.hi for f in FIELDS.values() if f.kind in ("int", "float"))
    assert not any(isinstance(f.default, float) and not math.isfinite(f.default) for f in FIELDS.values())


def open_link(page, params):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()   # the landing page: the router learns the pages (switch_page needs it) and the sidebar reads the link
    at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def value(at, key):
    """The value control `key` shows: a live slider's (lab/live_control.py) is the session's."""
    return at.session_state[key] if key in LIVE else at.get_by_key(key).value


def test_a_link_reopens_its_view_and_moves_write_values():
    at = open_link("lessons/primal_dual/page.py", {"pd_space": "kernel", "pd_kernel": "sigmoid", "pd_C": "1000",
                                                "dataset": "moons", "n": "50"})
    assert value(at, "pd_kernel") == "sigmoid" and value(at, "pd_C") == 1000.0
    assert value(at, "dataset") == "moons" and value(at, "n") == 50
    at.get_by_key("pd_kernel").set_value("laplacian").run()
    assert at.query_params["pd_kernel"] == "laplacian"
    at.get_by_key("pd_kernel").set_value("rbf").run()      # the default: the link drops it
    assert "pd_kernel" not in at.query_params
    move(at, "pd_C", 1.0)
    assert "pd_C" not in at.query_params


def test_an_old_link_with_labels_opens_its_view():
    at = open_link("lessons/primal_dual/page.py", {"pd_space": "any kernel (dual only)",
                                                "pd_kernel": "sigmoid  tanh(γ x·z + r)"})
    assert value(at, "pd_space") == "kernel" and value(at, "pd_kernel") == "sigmoid"
    assert at.query_params["pd_kernel"] == "sigmoid"      # rewritten to the value


def test_a_broken_link_says_what_it_could_not_use():
    at = open_link("lessons/primal_dual/page.py", {"pd_space": "kernel", "pd_kernel": "gaussian"})
    assert value(at, "pd_kernel") == "rbf"
    assert any(r"pd\_kernel" in t.proto.body for t in at.toast), [t.proto.body for t in at.toast]
