"""Shared fixtures: a real Kernel Lab server on a free loopback port, for the browser tests."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from hypothesis import settings

# the registry adds every lesson's controls to the URL schema (lab/state.py), as app.py and serve.py do
import lessons.registry  # noqa: F401

# CI draws the same examples every run, so a red run is reproducible and never a coin toss
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_streamlit(script, port, base=""):
    """Start `streamlit run script` headless on 127.0.0.1:port (under the path `base`, where one is given) and wait
    until it is healthy."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         *(("--server.baseUrlPath", base) if base else ())],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    health = f"http://127.0.0.1:{port}" + (f"/{base}" if base else "") + "/_stcore/health"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(health, timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError(f"streamlit did not start on port {port}: {proc.stderr.read().decode()[-2000:]}")


@pytest.fixture(scope="session")
def app_url():
    port = free_port()
    proc = start_streamlit(ROOT / "serve.py", port)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:   # a session still running a long fit holds Streamlit's shutdown back
        proc.kill()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing: scripts/test.sh installs Debian's chromium; "
                        "browser tests must run in CI")
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield b
        b.close()
