"""Work too heavy for a rerun in a lecture, computed beside the server instead of in it.

Lesson 3's validation heatmap is 1 785 SVM fits: a third of a second on 100 points, seconds to tens of seconds on
a few hundred. Run in the script's thread it holds the worker's interpreter that long, and every student served
by that worker waits. So it runs in a separate process (one per server process, spawned on first use and ended
with the server) at the lowest CPU priority (nice 19): it gets the CPU the room's moves leave over and never
holds up one of them. The page shows that it is computing and looks again every POLL_S seconds
(lessons/primal_dual/cv_view.py, a fragment that reruns itself) until the result is there. No Streamlit here: the
compute modules that use it stay importable alone.

A session that asks for another result while its previous one is still queued cancels that one: a student who
changes the data three times waits for one heatmap, not four. So each session has at most one job queued, and all
of them together at most MAX_QUEUED: one more is refused at once with Busy (the page says to try again in a
moment) instead of waiting behind them. A queued job of a session that has ended (its tab closed) is dropped before
it runs, unless another live session waits for the same result.
"""

import collections
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import Future
from typing import Callable, MutableMapping, NamedTuple

POLL_S = 1.0
KEY = "_background_key"     # an Owner's state: the key of the last result it asked for
WAITING = "background_wait"  # the key of the box a page shows while it waits (a page is complete without one)
NICE = 19
MAX_JOBS = 64     # results not yet collected (and failures kept for their message)
MAX_QUEUED = 4    # jobs waiting for the process, every session's together: each takes seconds

_lock = threading.RLock()
_worker = None               # (process, connection), started on first use
_jobs = {}                   # key -> the Future a page polls, until its result is collected
_queue = collections.deque()  # (key, fn, args, kwargs) not yet handed to the process
_askers = {}                 # key -> {session id: its alive()} of the sessions waiting for that job
_busy = False                # the process is computing a job (it is given one at a time, so queued ones can be dropped)


def _always():
    return True


class Owner(NamedTuple):
    """A session that asks for a result. state: a dict of the session (its session state) where its last key is
    kept; id: what tells it from other sessions; alive(): whether it is still there (a page's Owner asks the server
    whether its session is still connected)."""

    state: MutableMapping
    id: object = None
    alive: Callable[[], bool] = _always


class Busy(ValueError):
    """The queue is full: the page shows this message, and asking again later queues the job."""

    def __init__(self):
        super().__init__(f"The lab is busy: {MAX_QUEUED} heavy results are already waiting to be computed. "
                         "Try again in a moment.")


class WorkerDied(RuntimeError):
    """The background process ended while it computed a job (killed, out of memory): asked again, the job runs in a
    new one."""


def _serve(connection):
    """The background process: the lowest CPU priority, a thread that ends the process as soon as the server
    process is gone (killed too: a job is not finished for nobody), then one job after another from the connection,
    each answered with (True, result) or (False, exception)."""
    os.nice(NICE)
    parent = multiprocessing.parent_process()
    threading.Thread(target=lambda: (multiprocessing.connection.wait([parent.sentinel]), os._exit(0)),
                     daemon=True).start()
    while True:
        fn, args, kwargs = connection.recv()
        try:
            answer = (True, fn(*args, **kwargs))
        except Exception as exc:   # the page shows it
            answer = (False, exc)
        connection.send(answer)


def _connection():
    """The connection to the background process, started if it is not running. Daemonic: the server's exit ends it,
    also in the middle of a job."""
    global _worker
    if _worker is None or not _worker[0].is_alive():
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.get_context("spawn").Process(target=_serve, args=(theirs,), daemon=True,
                                                               name="kernel-lab-background")
        process.start()
        theirs.close()       # the process's end is its own now: its death is then an EOF here
        _worker = process, ours
    return _worker[1]


def _run(job, fn, args, kwargs):
    """In a daemon thread of the server: send one job and wait for its answer."""
    global _busy, _worker
    try:
        with _lock:
            connection = _connection()
        connection.send((fn, args, kwargs))
        ok, value = connection.recv()
    except (EOFError, OSError) as exc:
        with _lock:
            _worker = None
        job.set_exception(WorkerDied(str(exc)))
    except Exception as exc:               # e.g. arguments that cannot be sent: the page shows it
        job.set_exception(exc)
    else:
        (job.set_result if ok else job.set_exception)(value)
    finally:
        with _lock:
            _busy = False
            _dispatch()


def _release(key, session):
    """`session` no longer waits for the job of `key`: a queued job nobody waits for any more is dropped (under
    _lock)."""
    askers = _askers.get(key)
    if askers is not None:
        askers.pop(session, None)
        if askers:
            return
        del _askers[key]
    job = _jobs.get(key)
    if job is not None and job.cancel():
        del _jobs[key]


def _prune():
    """Forget the sessions that have ended, drop the queued jobs no live session waits for, and leave the queue
    with the jobs still wanted (under _lock)."""
    for key, _, _, _ in _queue:
        for session, alive in list(_askers.get(key, {}).items()):
            if not alive():
                _release(key, session)
    wanted = [entry for entry in _queue if entry[0] in _jobs and not _jobs[entry[0]].cancelled()]
    _queue.clear()
    _queue.extend(wanted)


def _dispatch():
    """Hand the next job still wanted to the process, if it is idle (under _lock)."""
    global _busy
    if not _busy:
        _prune()
    while not _busy and _queue:
        key, fn, args, kwargs = _queue.popleft()
        _askers.pop(key, None)
        job = _jobs.get(key)
        if job is None or not job.set_running_or_notify_cancel():
            continue                            # dropped while it waited
        _busy = True
        threading.Thread(target=_run, args=(job, fn, args, kwargs), daemon=True,
                         name="kernel-lab-background-job").start()


def pending():
    """Whether any job is queued or running (or done and not yet collected by its page)."""
    with _lock:
        return any(not job.done() for job in _jobs.values()) or bool(_queue)


def drop(owner):
    """The session `owner` (an Owner) no longer wants its last result, e.g. the student switched its view off:
    dropped if it is still queued and no other session waits for it (a running job finishes, and its result waits
    for whoever asks for it)."""
    with _lock:
        key = owner.state.pop(KEY, None)
        if key is not None:
            _release(key, owner.id)


def result(key, owner, fn, *args, **kwargs):
    """fn(*args, **kwargs)'s result once the background process has computed it, else None (it is then queued or
    running). key: what identifies the result (the caller's memo key); owner: the asking session (an Owner), whose
    previous job is dropped if it is still queued. fn must be importable by name (a module-level function of
    kernel_core). An exception of fn is raised here, each time this key is asked for (it is not computed again);
    Busy when the job would have to be queued and MAX_QUEUED jobs already are."""
    with _lock:
        previous = owner.state.get(KEY)
        if previous is not None and previous != key:
            owner.state.pop(KEY)
            _release(previous, owner.id)
        _prune()
        job = _jobs.get(key)
        if job is None or job.cancelled():
            if len(_queue) >= MAX_QUEUED:
                raise Busy()
            if len(_jobs) >= MAX_JOBS:      # failed jobs kept for their message: the oldest go first
                for stale in [k for k, f in _jobs.items() if f.done()][:len(_jobs) - MAX_JOBS + 1]:
                    del _jobs[stale]
            job = _jobs[key] = Future()
            _queue.append((key, fn, args, kwargs))
        if not job.done() and key in {entry[0] for entry in _queue}:
            _askers.setdefault(key, {})[owner.id] = owner.alive
        owner.state[KEY] = key
        _dispatch()
    if not job.done():
        return None
    try:
        value = job.result()
    except WorkerDied:
        with _lock:
            _jobs.pop(key, None)
        return None                          # asked again, it is computed again by a new process
    with _lock:
        _jobs.pop(key, None)
    return value
