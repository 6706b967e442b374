"""Imports run one way: lessons → lab → kernel_core, figures, datasets; a lesson imports no other lesson; kernel_core
imports numpy and the standard library only; only pages and lab/ import streamlit."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = {"kernel_core": set(), "datasets": {"kernel_core"}, "figures": {"kernel_core", "datasets"},
          "lab": {"kernel_core", "datasets", "figures"}, "lessons": {"kernel_core", "datasets", "figures", "lab"}}


def imported(path):
    """The top-level names a module imports, with the dotted name of each project import."""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def modules(package):
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", list(LAYERS))
def test_a_package_imports_only_the_layers_below_it(package):
    allowed = LAYERS[package] | {package}
    for path in modules(package):
        for name in imported(path):
            top = name.split(".")[0]
            if top in LAYERS:
                assert top in allowed, f"{path.relative_to(ROOT)} imports {name}"


def test_a_lesson_imports_no_other_lesson():
    for path in modules("lessons"):
        folder = path.relative_to(ROOT / "lessons").parts[0]
        for name in imported(path):
            parts = name.split(".")
            if parts[0] == "lessons" and len(parts) > 1 and parts[1] != "registry":
                assert parts[1] == folder, f"{path.relative_to(ROOT)} imports {name}"


def test_kernel_core_imports_numpy_and_the_standard_library_only():
    for path in modules("kernel_core"):
        for name in imported(path):
            top = name.split(".")[0]
            assert top in ("numpy", "kernel_core") or top in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_only_pages_and_lab_import_streamlit():
    for package in ("kernel_core", "datasets", "figures"):
        for path in modules(package):
            assert "streamlit" not in {n.split(".")[0] for n in imported(path)}, path
    for path in modules("lessons"):
        if "streamlit" in {n.split(".")[0] for n in imported(path)}:
            assert (path.name == "page.py" or path.name.endswith("_view.py")
                    or path.name in ("home.py", "controls.py")), (
                f"{path.relative_to(ROOT)} imports streamlit: only a lesson's page and its views may")
