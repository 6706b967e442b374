"""Live figures: a move of a section's slider, or a click on its decision plot, answered by a route of the server
before its rerun.

A slider move reruns its section (a Streamlit fragment), and the browser renders every element of the page again on
each commit of that rerun (docs/PERFORMANCE.md): the figures came last. So every live section (lab/section.py) also
has a route: the moment one of its sliders (lab/live_control.py, drawn by the chart element) takes a new value, the
element (lab/live_chart_web/live_chart.js) asks GET <base>/live/<section>?<the page's link, with the slider's new
value>&_charts=<the charts on the student's screen>, draws the figures it answers in place, and only then hands the
value to the server; the rerun then brings the same figures (the element draws a figure only when its JSON changed)
and everything else: numbers, tables, the link. A click, drag or delete on the section's decision plot goes the same
way, with the student's points (?pts=) as it leaves them.

The route runs the section's own declaration with the link's values, read as a shared link is read
(lab/state.py): a value the link cannot hold is refused with 400 and its reason, and the rerun alone then draws what
the page makes of it; where the page draws no such figures (a setting the core refuses, a solver that stopped short,
another branch) it answers 204. The routes honour server.baseUrlPath. Served without them (`streamlit run app.py`,
AppTest), the element gets Streamlit's HTML page instead of this route's content type and leaves every move to the
rerun.

serve.py, the app's main file, serves app.py with these routes (Streamlit's st.App), built from the registry.

No anonymous client can stall the room through them. A route computes in a thread of its own (WORKERS), never in
the pool Streamlit serves its pages and files from; it admits MAX_ADMITTED requests at once and answers the next
one 204 at once (the rerun then draws that move); a computation that has used BUDGET_S of CPU is stopped where it
is and answered 204 (a link can ask for a solve that takes seconds: many points far apart, a large C, a high
degree); a request whose client has gone is not computed; and only the page's own request is answered
(same_origin): another site's page can make a student's browser send the request, never with the page's own origin.
"""

import asyncio
import ctypes
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from streamlit import config

from lab import points
from lab.live_chart import figure_json

ROUTE = "live"
# the route's own content type: the element takes any other answer (an HTML page) for "no routes here"
CONTENT_TYPE = "application/x-ndjson"
# the query's list of the charts to answer (comma-separated keys); not a field of the link
CHARTS_PARAM = "_charts"
# the longest query a route reads: every field of the schema and MAX_USER_POINTS points fit
MAX_QUERY = 16_000
# the routes' own threads: one computation at a time holds the interpreter, however many clients ask
WORKERS = 1
# requests computing or waiting for a worker; one more is busy: 204 at once
MAX_ADMITTED = 3
# how often a waiting request looks whether its client is still there and its computation within budget
DISCONNECT_POLL_S = 0.05
# the CPU one route computation may use: a move the page draws quickly takes a small part of it
BUDGET_S = 0.5
# the share of a core the routes may use over time: the rest is the pages' (a move the route does not draw, the
# rerun draws)
SHARE = 0.25
# where a computation is stopped: the solvers loop in Python there, and hold no lock another thread waits on
LOOPING = "kernel_core"


def answer(section, params, charts=None):
    """{chart key: the figure's JSON text as the chart element gets it} for `section` at the link `params`, or None
    where the page draws no such figures; ValueError for a value the link cannot hold. charts: only these (those the
    student has on the screen)."""
    values = section.link_values(params, points.decode(params.get("pts", "")))
    try:
        setup, data, status = section.run(values)
        if status is not None:
            return None
        made = section.figures(setup, data, charts)
    except ValueError:
        return None       # the page shows the core's message
    return {key: figure_json(fig)[0] for key, fig in made.items() if charts is None or key in charts}


class OverBudget(BaseException):
    """Raised inside a route's computation that is to stop (over its budget, or its client gone). A BaseException:
    no `except Exception` of the code it stops can catch it."""


class Job:
    """fn(*args) run by a worker thread (run), which another thread can stop (stop) while the computation is in one
    of LOOPING's modules. Stopped anywhere else, the exception could land in a `finally` that wakes the other threads
    waiting for the same memoized call (lab/memo.py); in a solver it unwinds through that `finally`."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args
        self.thread = None          # the worker's id while it computes
        self.clock = None           # that thread's CPU clock
        self.start_cpu = 0.0
        self.used = 0.0             # its CPU, once it has ended
        self.cancelled = False
        self._lock = threading.Lock()

    def run(self):
        with self._lock:
            if self.cancelled:
                return None
            self.thread = threading.get_ident()
            self.clock = time.pthread_getcpuclockid(self.thread)
            self.start_cpu = time.clock_gettime(self.clock)
        try:
            return self.fn(*self.args)
        except OverBudget:
            return None
        finally:
            with self._lock:
                self.used = time.clock_gettime(self.clock) - self.start_cpu
                self.thread = None

    def cpu(self):
        """Seconds of CPU this job has used so far."""
        with self._lock:
            return self.used if self.thread is None else time.clock_gettime(self.clock) - self.start_cpu

    def stop(self):
        """Not started: it never starts. Computing in LOOPING's code: OverBudget is raised there; True. Elsewhere
        (figures, memo): False, ask again later."""
        with self._lock:
            self.cancelled = True
            if self.thread is None:
                return True
            frame = sys._current_frames().get(self.thread)
            if frame is None or not frame.f_globals.get("__name__", "").startswith(LOOPING):
                return False
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.thread), ctypes.py_object(OverBudget))
            self.thread = None      # raised once
            return True


class Limiter:
    """At most `limit` holders at once, and over time at most `share` seconds of CPU per second among them (a
    token bucket holding up to `burst` seconds); acquire() says at once whether one more may enter, release(cpu)
    gives its place back with the CPU it used."""

    def __init__(self, limit, share=SHARE, burst=2 * BUDGET_S):
        self.limit, self.share, self.burst = limit, share, burst
        self.held, self.credit, self.at = 0, burst, time.monotonic()
        self._lock = threading.Lock()

    def acquire(self):
        with self._lock:
            now = time.monotonic()
            self.credit, self.at = min(self.burst, self.credit + (now - self.at) * self.share), now
            if self.held >= self.limit or self.credit <= 0:
                return False
            self.held += 1
            return True

    def release(self, cpu=0.0):
        with self._lock:
            self.held -= 1
            self.credit -= cpu


def same_origin(headers):
    """Whether a request with these headers is the page's own. A browser says which site made it (Sec-Fetch-Site),
    and that decides; an older one sends the page's origin (Origin, Referer), which must be this host. Another site's
    page can make a student's browser send the request, but only with these headers naming it; a request with none
    of them comes from no browser, so from no student's."""
    site = headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    host = headers.get("host", "")
    return all(urlsplit(headers[name]).netloc == host for name in ("origin", "referer") if name in headers)


async def computed(request, limiter, executor, fn, *args):
    """fn(*args) in `executor` for `request`, or None: `limiter` full (or its CPU share spent), or the client gone
    before it started (a request waiting for the worker is never computed once its client leaves); a computation
    whose client leaves, or that has used BUDGET_S of CPU, is stopped (Job.stop). A computation holds its place in
    `limiter` until it ends, and pays its CPU into it then."""
    if not limiter.acquire():
        return None
    if await request.is_disconnected():
        limiter.release()
        return None
    job = Job(fn, *args)
    running = executor.submit(job.run)
    running.add_done_callback(lambda _: limiter.release(job.cpu()))
    future = asyncio.wrap_future(running)
    while True:
        done, _ = await asyncio.wait({future}, timeout=DISCONNECT_POLL_S)
        if done:
            return future.result()
        if (job.cpu() > BUDGET_S or await request.is_disconnected()) and job.stop():
            return None


def routes(sections):
    """The routes serve.py adds to Streamlit's: GET <server.baseUrlPath>/live/<name> for each of `sections`."""
    by_name = {section.name: section for section in sections}
    limiter = Limiter(MAX_ADMITTED)
    executor = ThreadPoolExecutor(WORKERS, thread_name_prefix="kernel-lab-live")

    async def endpoint(request):
        base = config.get_option("server.baseUrlPath").strip("/")
        name = request.path_params["name"]
        if request.path_params.get("base", "") != base or name not in by_name:
            return JSONResponse({"error": f"no live figures at {request.url.path}"}, status_code=404)
        if not same_origin(request.headers):
            return JSONResponse({"error": "live figures answer only the page's own requests"}, status_code=403)
        if len(request.url.query) > MAX_QUERY:
            return JSONResponse({"error": f"the query is longer than {MAX_QUERY} characters"}, status_code=400)
        params = dict(request.query_params)
        keys = params.pop(CHARTS_PARAM, None)
        try:
            made = await computed(request, limiter, executor, answer, by_name[name], params,
                                  None if keys is None else set(keys.split(",")))
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        if made is None:
            return Response(status_code=204)
        # a line with the charts' keys, then each figure's JSON text on a line of its own, as the element gets it in
        # a message: it tells the rerun's figure from this one by comparing texts (figure JSON holds no newline)
        return Response("\n".join([json.dumps(list(made)), *made.values()]), media_type=CONTENT_TYPE)

    # at the root, and under a base path (read when a request comes: the option is set after this module is loaded)
    return [Route(f"/{ROUTE}/{{name}}", endpoint, methods=["GET"]),
            Route(f"/{{base:path}}/{ROUTE}/{{name}}", endpoint, methods=["GET"])]


def route(section):
    """The path of the section's route, relative to the app's base URL: what the chart element asks (lab/live_chart.py,
    lab/live_control.py)."""
    return f"{ROUTE}/{section.name}"
