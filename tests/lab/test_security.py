"""The app is public: Streamlit's protections stay on, no code path renders raw HTML or runs text as code,
and nothing secret is in the repository."""

import ast
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
import streamlit as st

ROOT = Path(__file__).resolve().parents[2]
APP_SOURCES = [ROOT / "app.py", *(p for d in ("lessons", "lab", "figures", "kernel_core", "datasets")
                                  for p in sorted((ROOT / d).rglob("*.py")))]
# builtins that run text as code, and Streamlit calls that put raw HTML/JS on the page
CODE_RUNNERS = {"eval", "exec", "compile", "__import__"}
RAW_HTML_CALLS = {"html"}                  # st.html, components.html
# raw HTML/JS components, deserializers that run code, and shells
RISKY_IMPORTS = {"streamlit.components.v1", "pickle", "marshal", "subprocess"}
# key=value secrets, private keys and well-known token shapes; assembled so this file does not match itself
SECRET_PATTERNS = [
    re.compile(r"(?i)\b(api[_-]?key|secret[_-]?key|access[_-]?token|passw(or)?d)\s*[:=]\s*['\"][^'\"]{4,}"),
    re.compile("-----BEGIN [A-Z ]*" + "PRIVATE KEY-----"),
    re.compile("AKIA" + r"[0-9A-Z]{16}"),
    re.compile("gh" + r"[pousr]_[A-Za-z0-9]{36}"),
    re.compile(r"\bsk-" + r"[A-Za-z0-9]{32,}"),
]
SECRET_FILES = re.compile(r"(^|/)(secrets\.toml|\.env(\..*)?|id_rsa|id_ed25519|.*\.pem|.*\.key|credentials\.json)$")


def config():
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())


def repo_files():
    """Files git would commit: tracked plus untracked-but-not-ignored (new work counts too)."""
    try:
        out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: cannot tell which files are committed")
    return sorted({p for p in out.splitlines() if (ROOT / p).is_file()})


def dangerous_calls(source, name="<source>"):
    """(line, what) for every code runner, raw-HTML call, unsafe_allow_html=True or risky import."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if called in CODE_RUNNERS and isinstance(func, ast.Name):
                found.append((node.lineno, f"{called}()"))
            if called in RAW_HTML_CALLS and isinstance(func, ast.Attribute):
                found.append((node.lineno, f".{called}()"))
            for kw in node.keywords:
                if kw.arg == "unsafe_allow_html" and not (isinstance(kw.value, ast.Constant) and not kw.value.value):
                    found.append((node.lineno, "unsafe_allow_html"))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [(node.lineno, f"import {m}") for m in modules if m in RISKY_IMPORTS]
    return found


def test_config_keeps_xsrf_protection_and_cors_on():
    server = config()["server"]
    assert server["enableXsrfProtection"] is True
    assert server["enableCORS"] is True


def test_streamlit_loads_the_same_protections_it_will_serve_with():
    # read afresh: a test that ran before in this process (AppTest) may have left Streamlit's options at defaults
    st.config.get_config_options(force_reparse=True)
    assert st.get_option("server.enableXsrfProtection") is True
    assert st.get_option("server.enableCORS") is True
    assert st.get_option("server.maxUploadSize") == config()["server"]["maxUploadSize"]


def test_uploads_are_capped_small_and_users_never_see_tracebacks():
    assert 1 <= config()["server"]["maxUploadSize"] <= 5   # MB; a CSV of 200 points is a few KB
    assert config()["client"]["showErrorDetails"] == "none"


def test_the_scanner_catches_each_kind_of_danger():
    planted = ("import subprocess\nfrom streamlit.components.v1 import html\neval('1')\nexec('x=1')\n"
               "st.markdown('<b>', unsafe_allow_html=True)\nst.html('<script>')\n__import__('os')\n")
    kinds = {what for _, what in dangerous_calls(planted)}
    assert kinds == {"import subprocess", "import streamlit.components.v1", "eval()", "exec()",
                     "unsafe_allow_html", ".html()", "__import__()"}
    # the safe spellings pass
    assert dangerous_calls("st.markdown('x', unsafe_allow_html=False)\nmodel.evaluate(X)\nre.compile('a')") == []


def test_the_scan_covers_every_app_module():
    names = {p.relative_to(ROOT).as_posix() for p in APP_SOURCES}
    assert {"app.py", "lab/sidebar.py", "kernel_core/formula.py", "datasets/upload.py"} <= names
    assert len(names) >= 20


@pytest.mark.parametrize("path", APP_SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in APP_SOURCES])
def test_no_raw_html_and_nothing_runs_text_as_code(path):
    assert dangerous_calls(path.read_text(), str(path)) == []


def test_no_secret_files_are_in_the_repository():
    files = repo_files()
    assert ".streamlit/config.toml" in files
    assert not [p for p in files if SECRET_FILES.search(p)]


def test_the_secret_patterns_match_what_they_are_meant_to():
    samples = ["api_key" + " = 'abcd1234'", "PASSWORD" + ': "hunter22"', "-----BEGIN RSA " + "PRIVATE KEY-----",
               "AKIA" + "ABCDEFGHIJKLMNOP", "ghp_" + "a" * 36, "sk-" + "A1" * 16]
    assert all(any(p.search(s) for p in SECRET_PATTERNS) for s in samples)
    assert not any(p.search("password = st.text_input('Password')") for p in SECRET_PATTERNS)


def test_no_secrets_in_committed_text():
    hits = []
    for rel in repo_files():
        path = ROOT / rel
        if path.stat().st_size > 2_000_000:
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        hits += [f"{rel}: {m.group(0)[:40]}" for p in SECRET_PATTERNS for m in p.finditer(text)]
    assert not hits
