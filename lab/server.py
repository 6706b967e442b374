"""The server-side performance settings, applied once per server process from the first script run: one BLAS
thread, Nagle's algorithm off for the app's connections, and the import-time heap frozen out of the garbage
collector's full passes. The BLAS thread is also set as serve.py is imported (one_blas_thread), before the server
listens: a live route can compute before any page has run. Why each exists, what it measured and how to re-measure
it after an upgrade of Streamlit, Plotly, NumPy or uvicorn: docs/PERFORMANCE.md.

Nagle: uvicorn listens on a socket created with proto 0, so asyncio never sets TCP_NODELAY on the connections
(uvicorn issue #3149) and each small websocket message waits for a delayed ACK. Setting it on
the listener fixes every later connection (Linux copies the option to accepted sockets); the connections
already open get it directly. Where /proc is missing (not Linux) nothing happens.
"""

import functools
import gc
import importlib
import os
import socket
import stat

from threadpoolctl import threadpool_limits


def _tcp_sockets():
    """Duplicates of this process's TCP sockets (the caller closes them)."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return
    for fd in fds:
        try:
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                continue
            sock = socket.socket(fileno=os.dup(fd))  # family and type read from the descriptor
        except OSError:
            continue
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
            yield sock
        else:
            sock.close()


@functools.cache
def disable_nagle():
    """Set TCP_NODELAY on every TCP socket of this process, the listener included; returns how many."""
    count = 0
    for sock in _tcp_sockets():
        with sock:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                count += 1
            except OSError:
                pass
    return count


def one_blas_thread():
    """One thread for every BLAS library loaded so far (threadpoolctl limits those it finds loaded)."""
    threadpool_limits(limits=1, user_api="blas")


@functools.cache
def tune_process(modules=()):
    """`modules` imported (the lessons' compute modules: their import-time objects then join the frozen heap), one
    BLAS thread (for the libraries they loaded too), disable_nagle() and gc.freeze(), once per process; returns the
    number of sockets changed."""
    for name in modules:
        importlib.import_module(name)
    one_blas_thread()
    gc.collect()
    gc.freeze()
    return disable_nagle()
