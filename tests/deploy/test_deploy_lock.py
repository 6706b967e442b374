"""requirements.lock pins every package the app and the tests install, at the versions requirements.txt names, and
scripts/setup.sh installs with it on a Python it supports.

The lock is checked against the metadata of the packages installed from it (.venv, made by scripts/setup.sh with
the lock as constraints): each requirement, followed through its dependencies with their markers evaluated here
(Linux, as on Community Cloud, in the image and in CI), must land on a locked version."""

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"


def requirement_lines(path):
    """(option, value) of each line of a requirements file: ("", requirement), ("-r", file) or ("-c", file)."""
    out = []
    for raw in path.read_text().splitlines():
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith("#"):
            continue
        option, _, value = line.partition(" ")
        out.append((option, value.strip()) if option in ("-r", "-c") else ("", line))
    return out


def direct(path):
    """The requirements a file names, those of the files it includes with -r first."""
    out = []
    for option, value in requirement_lines(path):
        if option == "-r":
            out += direct(path.parent / value)
        elif not option:
            out.append(Requirement(value))
    return out


def locked():
    """Package name -> version, from requirements.lock."""
    out = {}
    for option, value in requirement_lines(LOCK):
        assert not option, f"requirements.lock includes another file: {option} {value}"
        req = Requirement(value)
        (spec,) = req.specifier
        assert spec.operator == "==", f"requirements.lock must pin {req.name} with ==, not {spec}"
        out[canonicalize_name(req.name)] = spec.version
    return out


def resolve(requirements, lock):
    """Every package that installing `requirements` brings in, as name -> version, walked through the installed
    metadata; AssertionError naming the first package the lock leaves out or pins outside a requirement."""
    environment = default_environment()
    seen = {}
    todo = [(req, "the file") for req in requirements]
    while todo:
        req, wanted_by = todo.pop()
        name = canonicalize_name(req.name)
        assert name in lock, f"{req.name} ({req}, wanted by {wanted_by}) is not in requirements.lock"
        assert req.specifier.contains(lock[name], prereleases=True), (
            f"requirements.lock pins {name}=={lock[name]}, outside {req} (wanted by {wanted_by})")
        extras = set(req.extras)
        if name in seen and extras <= seen[name]:
            continue
        seen[name] = seen.get(name, set()) | extras
        installed = importlib.metadata.version(name)
        assert installed == lock[name], (
            f"{name} {installed} is installed, requirements.lock pins {lock[name]}: run bash scripts/setup.sh "
            "requirements-test.txt")
        for line in importlib.metadata.requires(name) or []:
            dep = Requirement(line)
            if dep.marker is None or any(dep.marker.evaluate({**environment, "extra": extra})
                                         for extra in {"", *seen[name]}):
                todo.append((dep, name))
    return {name: lock[name] for name in seen}


def test_requirements_txt_pins_its_packages_and_takes_the_lock_as_constraints():
    options = requirement_lines(ROOT / "requirements.txt")
    # Community Cloud installs requirements.txt alone: the -c line makes its installer apply the lock too
    assert ("-c", "requirements.lock") in options
    names = {canonicalize_name(req.name) for req in direct(ROOT / "requirements.txt")}
    assert {"streamlit", "starlette", "uvicorn"} <= names
    for req in direct(ROOT / "requirements-test.txt"):
        assert [s.operator for s in req.specifier] == ["=="], f"{req} is not pinned with =="


def test_every_direct_requirement_is_locked_at_the_version_it_pins():
    lock = locked()
    for req in direct(ROOT / "requirements-test.txt"):
        (spec,) = req.specifier
        assert lock.get(canonicalize_name(req.name)) == spec.version, (
            f"{req} but requirements.lock has {req.name}=={lock.get(canonicalize_name(req.name))}")


def test_starlette_and_uvicorn_are_pinned_where_streamlit_puts_them():
    lock = locked()
    streamlit = {canonicalize_name(Requirement(r).name): Requirement(r)
                 for r in importlib.metadata.requires("streamlit")}
    for name in ("starlette", "uvicorn"):
        assert streamlit[name].specifier.contains(lock[name])
        assert importlib.metadata.version(name) == lock[name]


def test_resolving_requirements_txt_needs_nothing_outside_the_lock():
    app = resolve(direct(ROOT / "requirements.txt"), locked())
    assert {"streamlit", "starlette", "uvicorn", "numpy", "pyarrow"} <= set(app)
    assert "pytest" not in app


def test_the_lock_holds_exactly_what_the_tests_install():
    lock = locked()
    ci = resolve(direct(ROOT / "requirements-test.txt"), lock)
    assert set(lock) - set(ci) == set(), "requirements.lock pins packages nothing installs: run pip-compile again"


def test_a_package_missing_from_the_lock_is_caught():
    lock = locked()
    del lock["pyarrow"]
    try:
        resolve(direct(ROOT / "requirements.txt"), lock)
    except AssertionError as exc:
        assert "pyarrow" in str(exc)
    else:
        raise AssertionError("a lock without pyarrow passed")


def fake_python(path, version):
    """A python3 that says it is `version` and fails the 3.11 check, as an old interpreter does."""
    path.write_text(f'#!/bin/sh\n[ "$1" = --version ] && echo "Python {version}" && exit 0\nexit 1\n')
    path.chmod(0o755)


def setup_sandbox(tmp_path, *pythons):
    """A copy of scripts/setup.sh and the lock in tmp_path, and a PATH holding only the tools it runs plus the
    given (name, target) interpreters: a target is a version string (a fake old python) or a real executable."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts/setup.sh", tmp_path / "scripts/setup.sh")
    shutil.copy(LOCK, tmp_path / "requirements.lock")
    (tmp_path / "empty.txt").write_text("")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("basename", "dirname", "rm", "touch"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for name, target in pythons:
        if isinstance(target, str):
            fake_python(bin_dir / name, target)
        else:
            (bin_dir / name).symlink_to(target)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path)}


def run_setup(tmp_path, env):
    return subprocess.run([shutil.which("bash"), "scripts/setup.sh", "empty.txt"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def test_setup_refuses_a_python_older_than_3_11_in_one_sentence(tmp_path):
    env = setup_sandbox(tmp_path, ("python3", "3.10.12"))
    result = run_setup(tmp_path, env)
    assert result.returncode == 1
    message = result.stderr.strip()
    assert message.count("\n") == 0 and "needs Python 3.11 or newer" in message and "3.10.12" in message, message
    assert not (tmp_path / ".venv").exists()


def test_setup_takes_python3_12_when_python3_is_too_old_and_says_it_is_installing(tmp_path):
    real = Path(getattr(sys, "_base_executable", sys.executable)).resolve()
    env = setup_sandbox(tmp_path, ("python3", "3.10.12"), ("python3.12", real))
    result = run_setup(tmp_path, env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"({tmp_path / 'bin' / 'python3.12'})" in result.stdout
    assert "this takes about a minute" in result.stdout
    assert os.access(tmp_path / ".venv/bin/python", os.X_OK) and (tmp_path / ".venv/.installed-empty.txt").exists()
