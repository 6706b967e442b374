"""lab/server.py: TCP_NODELAY reaches the connections a proto-0 listener accepts (as uvicorn's is),
and the import-time heap is frozen out of full garbage collections."""

import gc
import socket
import sys

import pytest

from lab import server

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")


def accepted_nodelay(listener):
    client = socket.create_connection(listener.getsockname())
    conn, _ = listener.accept()
    with client, conn:
        return conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_a_proto_0_listener_hands_out_nagle_until_disabled_then_nodelay():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)   # proto 0, as uvicorn binds it
    with listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert listener.proto == 0
        assert accepted_nodelay(listener) == 0       # what asyncio leaves: Nagle on
        assert server.disable_nagle.__wrapped__() >= 1
        assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
        assert accepted_nodelay(listener) != 0       # inherited by every later connection


def test_tune_process_freezes_the_heap_once():
    before = gc.get_freeze_count()
    try:
        sys.modules.pop("lessons.pegasos.compute", None)
        server.tune_process.__wrapped__(("lessons.pegasos.compute",))
        assert gc.get_freeze_count() > before
        assert "lessons.pegasos.compute" in sys.modules        # the modules it is given are imported before
    finally:
        gc.unfreeze()


def test_importing_serve_py_leaves_one_blas_thread_before_any_page_runs():
    import os
    import subprocess

    from pageutil import ROOT

    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    script = ("import serve\nfrom threadpoolctl import threadpool_info\n"
              "print(sorted({i['num_threads'] for i in threadpool_info() if i['user_api'] == 'blas'}))")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-1] == "[1]", out.stdout


def test_uvicorn_serves_the_app_on_uvloop_and_httptools():
    # requirements.txt installs both for their lower latency under load (docs/PERFORMANCE.md): uvicorn takes them by
    # itself ("auto") when they are importable, and the options Streamlit gives it name neither (its private helper
    # is read here so that a Streamlit that starts naming an event loop or a parser fails this test)
    import uvicorn
    import uvloop
    from streamlit.web.server.starlette.starlette_server import _get_uvicorn_config_kwargs
    from uvicorn.protocols.http.auto import AutoHTTPProtocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    options = uvicorn.Config(app=None, **_get_uvicorn_config_kwargs())
    loop = options.get_loop_factory()()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
    assert options.http == "auto" and AutoHTTPProtocol is HttpToolsProtocol
