"""The server-side performance settings, applied once per server process from the first script run: one BLAS
thread, Nagle's algorithm off for the app's connections, and the import-time heap frozen out of the garbage
collector's full passes. Why each exists, what it measured and how to re-measure it after an upgrade of
Streamlit, Plotly, NumPy or uvicorn: docs/PERFORMANCE.md.

BLAS. Sessions already rerun side by side, and OpenBLAS's own threads spin and stall when the two cores are
busy: a hard-margin Laplacian fit on 500 spirals took 6.6 s with one thread and 54 s with default threading.

Nagle's algorithm.
The Streamlit server (uvicorn under asyncio) listens on a socket created with proto 0; accepted
connections inherit that, and asyncio turns TCP_NODELAY on only for sockets reporting IPPROTO_TCP
(uvicorn issue #3149). Nagle then holds each small websocket message of a rerun until the browser
acknowledges the previous one, and a delayed ACK takes 40 ms on Linux (200 ms on Windows): measured
on loopback, an empty app's rerun took 44–48 ms instead of 4–6 ms, every time.

Setting TCP_NODELAY on the listening socket fixes every later connection (Linux copies the option
to accepted sockets); the connections already open get it directly. Where /proc is missing (not
Linux) nothing happens.

The heap. Python's full garbage collection walks every container object, and the ~170 000 that
Streamlit, Plotly, NumPy, pandas and scikit-learn leave behind at import live as long as the process.
With 100 simulated students a full pass ran every 3–6 s and held the interpreter 120–230 ms, and no
rerun finished for about a second after each. gc.freeze() moves what exists after the first run's
imports (the lessons' compute modules are imported first, so theirs are in) to a generation the
collector never walks; later garbage is collected as before.
"""

import functools
import gc
import importlib
import os
import socket
import stat

from threadpoolctl import threadpool_limits

from lessons.registry import LESSONS


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


@functools.cache
def tune_process():
    """One BLAS thread, disable_nagle() and gc.freeze(), once per process; returns the number of sockets changed."""
    threadpool_limits(limits=1, user_api="blas")
    for lesson in LESSONS:
        importlib.import_module(lesson.compute)
    gc.collect()
    gc.freeze()
    return disable_nagle()
