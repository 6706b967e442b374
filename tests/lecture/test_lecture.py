"""scripts/lecture.sh: the app behind HAProxy with two workers, sessions pinned to a worker by cookie,
a killed worker restarted without losing new sessions, and one signal stopping everything.

The students' side is bench/bench_lecture.py's Session: Streamlit's own websocket protocol, the cookies of
the first HTTP response sent on the websocket upgrade, as a browser does."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "deploy"))   # whichever folder pytest collects first
from bench_lecture import AFFINITY_COOKIE, SIDEBAR, Balancer, Session  # noqa: E402
from test_deploy import assert_lecture_balancer_rules  # noqa: E402

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
START_TIMEOUT_S = 150
# the tests share one lecture.sh and run in file order on one xdist worker (scripts/test.sh: --dist loadgroup)
pytestmark = [
    pytest.mark.lecture,
    pytest.mark.xdist_group("lecture"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


def require_haproxy():
    if not os.access(HAPROXY, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{HAPROXY} is missing: scripts/test.sh installs Debian's haproxy; "
                        "lecture tests must run in CI")
        pytest.skip(f"{HAPROXY} is not installed (apt-get install haproxy)")


def health(port, timeout=2):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=timeout) as r:
            return r.read() == b"ok"
    except OSError:
        return False


def wait_until(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError(f"{what} within {timeout} s")


def cmdline(pid):
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


class Lecture(Balancer):
    """scripts/lecture.sh with `workers` workers on free loopback ports, started at once."""

    def __init__(self, workers):
        super().__init__(workers, start_timeout=START_TIMEOUT_S)
        self.__enter__()

    def workers_by_port(self):
        """{worker port: pid} of the Streamlit workers now running."""
        out = {}
        for pid in self.pids():
            args = cmdline(pid)
            if b"streamlit" in args and b"--server.port" in args:
                out[int(args[args.index(b"--server.port") + 1])] = pid
        return out

    def haproxy(self):
        """(pid, config path) of the script's HAProxy."""
        for pid in self.pids():
            args = cmdline(pid)
            if args and args[0].endswith(b"haproxy"):
                return pid, Path(args[args.index(b"-f") + 1].decode())
        raise AssertionError("no haproxy process under lecture.sh")

    def session(self, url_path="", record=False):
        s = Session(self.port, url_path, timeout=60, need_cookie=True, record=record)
        s.connect()
        s.rerun()
        return s

    def stop(self):
        self.__exit__()


def assert_all_gone(lecture, pids, run_dir):
    try:
        code = lecture.proc.wait(60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"lecture.sh still running 60 s after the signal:\n{lecture.output()[-2000:]}")
    assert code in (130, 143), lecture.output()[-2000:]
    wait_until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids), 10,
               f"processes {pids} still running after the signal")
    for port in [lecture.port, *lecture.worker_ports]:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        with socket.socket() as s:  # a new server can listen there (as servers do: SO_REUSEADDR, past TIME_WAIT)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
            s.listen()
    assert not run_dir.exists()


@pytest.fixture(scope="module")
def lecture():
    require_haproxy()
    lec = Lecture(workers=2)
    yield lec
    lec.stop()


def test_lecture_sh_serves_the_app_and_a_websocket_session_renders_a_page(lecture):
    s = lecture.session("circle", record=True)
    try:
        assert s.cookie_value(AFFINITY_COOKIE) in {"w0", "w1"}
        kinds = {etype for etype, _ in s.elements}
        assert "plotly_chart" in kinds or "bidi_component" in kinds, kinds
        assert any(w.kind == "slider" for w in s.widgets.values())
    finally:
        s.close()
    # new browsers are spread over both workers (fewest connections first)
    sessions = [lecture.session() for _ in range(4)]
    try:
        assert {x.cookie_value(AFFINITY_COOKIE) for x in sessions} == {"w0", "w1"}
    finally:
        for x in sessions:
            x.close()


def upload(session, csv_text, *, worker=None):
    """PUT a CSV to the session's upload URL as the browser does (its cookies + the XSRF header); `worker`
    overrides the affinity cookie. Returns (HTTP status, the FileURLs the server gave)."""
    session.http("GET", "/_stcore/health")  # the browser asks before it connects; the answer sets _streamlit_xsrf
    xsrf = session.cookie_value("_streamlit_xsrf")
    assert xsrf, session.cookie
    urls = session.upload_urls("points.csv")
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"points.csv\"\r\n"
            f"Content-Type: text/csv\r\n\r\n{csv_text}\r\n--{boundary}--\r\n").encode()
    cookie = session.cookie
    if worker is not None:
        session.cookie = "; ".join(c for c in cookie.split("; ") if not c.startswith(AFFINITY_COOKIE + "="))
        session.cookie += f"; {AFFINITY_COOKIE}={worker}"
    try:
        status, _ = session.http("PUT", urls.upload_url, body=body, headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}", "X-Xsrftoken": xsrf})
    finally:
        session.cookie = cookie
    return status, urls


def test_an_upload_through_the_balancer_reaches_the_worker_holding_the_session(lecture):
    s = lecture.session("circle", record=True)
    try:
        mine = s.cookie_value(AFFINITY_COOKIE)
        other = {"w0": "w1", "w1": "w0"}[mine]
        uploader = next(w for w in s.widgets.values() if w.kind == "file_uploader" and w.root == SIDEBAR)
        csv_text = "x1,x2,y\n0.5,0.5,1\n-0.5,-0.5,-1\n1.0,-1.0,1\n"
        # the other worker does not know this session: without affinity the upload would fail
        assert upload(s, csv_text, worker=other)[0] == 400
        status, urls = upload(s, csv_text)
        assert status == 204
        state = s.states[uploader.id] = WidgetState(id=uploader.id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.name, info.size, info.file_id = "points.csv", len(csv_text), urls.file_id
        info.file_urls.CopyFrom(urls)
        s.rerun()
        texts = [el.alert.body for etype, el in s.elements if etype == "alert"]
        assert any("Loaded 3 points" in t for t in texts), texts
    finally:
        s.close()


def test_the_balancer_keeps_the_lecture_rules(lecture):
    _, config = lecture.haproxy()
    assert_lecture_balancer_rules(config.read_text())


def test_a_browser_past_its_request_rate_gets_429_and_the_room_behind_its_address_does_not(lecture):
    _, config = lecture.haproxy()
    limit = int(re.search(r"sc_http_req_rate\(0\) gt (\d+)", config.read_text())[1])
    browser = Session(lecture.port, "", timeout=30)
    assert browser.http("GET", "/_stcore/health")[0] == 200
    client = browser.cookie_value("KLAB_CLIENT")
    assert client
    statuses = [browser.http("GET", "/_stcore/health")[0] for _ in range(limit + 10)]
    assert browser.cookie_value("KLAB_CLIENT") == client  # given once, kept
    assert statuses[:limit - 1] == [200] * (limit - 1) and statuses[-10:] == [429] * 10, statuses
    # another browser from the same address (a classmate behind the same NAT) is served
    classmate = Session(lecture.port, "", timeout=30)
    assert classmate.http("GET", "/_stcore/health")[0] == 200
    assert classmate.cookie_value("KLAB_CLIENT") not in (None, client)


def test_a_killed_worker_loses_no_new_session_and_comes_back(lecture):
    before = lecture.workers_by_port()
    assert sorted(before) == lecture.worker_ports
    port, pid = lecture.worker_ports[0], before[lecture.worker_ports[0]]
    os.kill(pid, signal.SIGKILL)
    # at once (the restart waits 1 s, then imports for seconds): a browser pinned to the dead worker is
    # sent to the living one, where it opens a new session
    s = Session(lecture.port, "", timeout=60, need_cookie=True)
    s.cookie = f"{AFFINITY_COOKIE}=w0"
    try:
        s.connect()
        s.rerun()
        assert s.cookie_value(AFFINITY_COOKIE) == "w1"
    finally:
        s.close()
    # new browsers open while the worker is down, before and after the health checks notice (HAProxy
    # retries what the dead worker refuses on the living one)
    for _ in range(3):
        lecture.session().close()
    wait_until(lambda: lecture.workers_by_port().get(port) not in (None, pid) and health(port), 90,
               f"worker on port {port} was not restarted")

    def reaches_w0():  # back in HAProxy's rotation: new browsers reach it again
        x = lecture.session()
        x.close()
        return x.cookie_value(AFFINITY_COOKIE) == "w0"
    wait_until(reaches_w0, 30, "the restarted worker got no new session")


def test_ctrl_c_stops_the_workers_and_haproxy_and_frees_the_ports(lecture):
    pids = lecture.pids()
    haproxy_pid, config = lecture.haproxy()
    assert haproxy_pid in pids and len(lecture.workers_by_port()) == 2
    os.killpg(lecture.proc.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends: the whole process group
    assert_all_gone(lecture, pids, config.parent)


def test_sigterm_to_the_script_alone_stops_everything():
    require_haproxy()
    lec = Lecture(workers=1)
    try:
        pids = lec.pids()
        _, config = lec.haproxy()
        lec.proc.send_signal(signal.SIGTERM)
        assert_all_gone(lec, pids, config.parent)
    finally:
        lec.stop()
