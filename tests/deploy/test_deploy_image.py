"""The image's files, laid out by hand as deploy/Dockerfile lays them out, serve the app with nothing writable and
as a non-root user of no name (as Kubernetes and OpenShift run a container).

No container engine runs here, so the test does the engine's part: it copies the build context less
.dockerignore, runs the Dockerfile's RUN steps after `COPY . .` in it (with .venv's python for the image's), then
runs the Dockerfile's CMD in a mount namespace where every filesystem is read-only but /dev, /proc and /sys (a
container's /dev/shm stays writable), as uid 23456 and gid 0. The interpreter comes from .venv, whose base may sit
under a home only root may enter: the server gets CAP_DAC_READ_SEARCH (reading and entering any directory; it
cannot write through a read-only mount whatever its rights)."""

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import free_port
from test_deploy import dockerfile

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
from bench_lecture import Session, StudentError  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
UID, GID = 23456, 0
START_TIMEOUT_S = 120
# remount every filesystem read-only in this namespace (the host's mounts are untouched), then become the user
READ_ONLY_AS_USER = r"""
for m in $(awk '{print $5}' /proc/self/mountinfo | sort -u); do
  case $m in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*) continue;; esac
  mount -o remount,bind,ro "$m" || exit 97
done
exec setpriv --reuid=$UID --regid=$GID --clear-groups --inh-caps=+dac_read_search --ambient-caps=+dac_read_search "$@"
"""


def can_isolate():
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("unshare"):
        return False
    return subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def isolation():
    if not can_isolate():
        if os.environ.get("CI") == "true":
            pytest.fail("the image test needs root and unshare(1) (util-linux) to mount the files read-only")
        pytest.skip("needs root and unshare(1) to mount the files read-only")


def ignored(rel, patterns):
    """Whether .dockerignore's patterns leave out `rel` (a path or any folder above it matches)."""
    parts = rel.split("/")
    for pattern in patterns:
        for i in range(1, len(parts) + 1):
            prefix = "/".join(parts[:i])
            if fnmatch.fnmatch(prefix, pattern) or (pattern.startswith("**/") and
                                                     fnmatch.fnmatch(parts[i - 1], pattern[3:])):
                return True
    return False


def lay_out_image(app):
    """The build context less .dockerignore copied to `app`, then the Dockerfile's RUN steps after `COPY . .`
    (those before USER: they run as root at build time) run there."""
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel_dir = os.path.relpath(dirpath, ROOT)
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = [d for d in dirnames if not ignored(rel_dir + d, patterns)]
        (app / rel_dir).mkdir(exist_ok=True)
        for name in filenames:
            if not ignored(rel_dir + name, patterns):
                shutil.copy2(Path(dirpath) / name, app / rel_dir / name)
    steps = dockerfile()
    start = steps.index(("COPY", ". .")) + 1
    end = next(i for i, (key, _) in enumerate(steps) if key == "USER")
    env = dict(os.environ, PATH=f"{PYTHON.parent}:{os.environ['PATH']}", **image_env(steps))
    for key, args in steps[start:end]:
        if key == "RUN":
            subprocess.run(["sh", "-c", args], cwd=app, env=env, check=True, timeout=300)
    for path in [app, *app.rglob("*")]:  # the image's files: root's, readable by all
        path.chmod(0o755 if path.is_dir() else 0o644)


def image_env(steps):
    """The Dockerfile's ENV, as a dict."""
    out = {}
    for key, args in steps:
        if key == "ENV":
            out.update(pair.split("=", 1) for pair in args.split())
    return out


def server_command(steps, port):
    """The Dockerfile's CMD with .venv's python, on a loopback port."""
    cmd = json.loads(dict(steps)["CMD"])
    assert cmd[0] == "python"
    cmd = [str(PYTHON), *cmd[1:]]
    cmd = [f"--server.port={port}" if a.startswith("--server.port=") else
           "--server.address=127.0.0.1" if a.startswith("--server.address=") else a for a in cmd]
    return cmd


def get(port, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        return r.status, r.read()


@pytest.fixture(scope="module")
def image_server(isolation):
    base = Path(tempfile.mkdtemp(prefix="kernel-lab-image-"))
    base.chmod(0o755)
    app = base / "app"
    app.mkdir()
    log = open(base / "server.log", "w+")
    proc = None
    try:
        lay_out_image(app)
        steps = dockerfile()
        port = free_port()
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/", "UID": str(UID), "GID": str(GID),
               **image_env(steps)}
        proc = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
                                 READ_ONLY_AS_USER, "sh", *server_command(steps, port)],
                                cwd=app, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            log.seek(0)
            if proc.poll() is not None:
                pytest.fail(f"the server exited ({proc.returncode}):\n{log.read()[-3000:]}")
            try:
                if get(port, "/_stcore/health")[1] == b"ok":
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"the server did not answer within {START_TIMEOUT_S} s:\n{log.read()[-3000:]}")
            time.sleep(0.5)
        yield proc, port, app, log
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        log.close()
        shutil.rmtree(base, ignore_errors=True)


def test_the_server_runs_as_a_nameless_non_root_user(image_server):
    proc, _, _, _ = image_server
    status = Path(f"/proc/{proc.pid}/status").read_text()
    assert re.search(rf"^Uid:\s+{UID}\s+{UID}\s+{UID}\s+{UID}$", status, re.M), status
    assert re.search(rf"^Gid:\s+{GID}\s", status, re.M)


def test_a_lesson_renders_its_charts_with_nothing_writable(image_server):
    _, port, app, log = image_server
    assert get(port, "/")[0] == 200
    session = Session(port, "circle", timeout=60, record=True)
    try:
        session.connect()
        session.rerun()
    except StudentError as exc:
        log.seek(0)
        pytest.fail(f"{exc}:\n{log.read()[-3000:]}")
    finally:
        session.close()
    kinds = [etype for etype, _ in session.elements]
    assert "exception" not in kinds, [el.exception.message for etype, el in session.elements if etype == "exception"]
    assert "bidi_component" in kinds or "plotly_chart" in kinds, kinds
    log.seek(0)
    text = log.read()
    assert "Read-only file system" not in text and "Traceback" not in text, text[-3000:]


def test_plotly_js_is_served_from_what_the_build_made(image_server):
    _, port, app, _ = image_server
    scripts = sorted(p.name for p in (app / "static").glob("*.js"))
    assert any(name.startswith("plotly") for name in scripts), scripts
    for name in scripts:
        status, body = get(port, f"/app/static/{name}")
        assert status == 200 and body == (app / "static" / name).read_bytes()
