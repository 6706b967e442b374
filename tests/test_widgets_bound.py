"""Every control of every lesson is keyed and bound to the URL, so an instructor's link reopens the view."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WIDGETS = {"slider", "select_slider", "selectbox", "toggle", "checkbox", "radio", "segmented_control",
           "number_input", "text_input", "text_area", "pills", "multiselect"}
# scratch inputs for typing a new point's coordinates: the points themselves travel in the URL (?pts=)
UNBOUND = {"new_x1", "new_x2"}
SOURCES = [ROOT / "app.py", *sorted((ROOT / "lessons").glob("*.py"))]


def widget_calls(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WIDGETS:
            yield node


def keyword(call, name):
    return next((k.value for k in call.keywords if k.arg == name), None)


@pytest.mark.parametrize("path", SOURCES, ids=[p.name for p in SOURCES])
def test_every_widget_has_a_key_and_is_bound_to_the_url(path):
    for call in widget_calls(path):
        key = keyword(call, "key")
        where = f"{path.name}:{call.lineno} {call.func.attr}"
        assert key is not None, f"{where} has no key"
        if isinstance(key, ast.Constant) and key.value in UNBOUND:
            continue
        bind = keyword(call, "bind")
        assert isinstance(bind, ast.Constant) and bind.value == "query-params", f"{where} is not bound to the URL"


def test_the_scan_sees_the_widgets():
    assert sum(1 for path in SOURCES for _ in widget_calls(path)) > 40
