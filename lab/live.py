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
degree); a request whose client has gone is not computed; and only the page's own request is answered: it names an
open session of this server (session_token: a script that never opened the page gets 403 and costs nothing), and
comes from the page's own origin (same_origin: another site's page can make a student's browser send the request,
never with the page's own origin). One session has at most PER_SESSION requests admitted at once (a move and the one
the element asks ahead), and none for COOLDOWN_S after one of its computations went over budget.
"""

import asyncio
import ctypes
import json
import secrets
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from streamlit import config
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from figures import has_deferred_frames
from lab import points
from lab.live_chart import figure_json

ROUTE = "live"
# the route's own content type: the element takes any other answer (an HTML page) for "no routes here"
CONTENT_TYPE = "application/x-ndjson"
# the query's list of the charts to answer (comma-separated keys); not a field of the link
CHARTS_PARAM = "_charts"
# the query's charts whose replay frames come with their figures (comma-separated keys); not a field of the link
FRAMES_PARAM = "_frames"
# the query's token of the session whose page asks (session_token); not a field of the link
SESSION_PARAM = "_session"
# the sessions a process keeps tokens for: past it, those of closed sessions are forgotten (then the oldest)
MAX_SESSIONS = 5_000
# the requests of one session admitted at once: the move on the screen and the one asked ahead (live_chart.js)
PER_SESSION = 2
# a session whose route computation went over BUDGET_S gets none for this long
COOLDOWN_S = 30.0
# the longest query a route reads: every field of the schema and MAX_USER_POINTS points fit
MAX_QUERY = 16_000
# the routes' own threads: one computation at a time holds the interpreter, however many clients ask
WORKERS = 1
# requests computing or waiting for a worker; one more is busy: 204 at once
MAX_ADMITTED = 3
# how often a waiting request looks whether its client is still there and its computation within budget
DISCONNECT_POLL_S = 0.05
# the CPU one route computation may use: a move the page draws quickly takes a small part of it
BUDGET_S = 0.25
# the share of a core the routes may use over time: the rest is the pages' (a move the route does not draw, the
# rerun draws)
SHARE = 0.25
# where a computation is stopped: the solvers loop in Python there, and hold no lock another thread waits on
LOOPING = "kernel_core"


def answer(section, params, charts=None, frames=()):
    """{chart key: the figure's JSON text as the chart element gets it} for `section` at the link `params`, or None
    where the page draws no such figures; ValueError for a value the link cannot hold. charts: only these (those the
    student has on the screen); frames: the charts whose replay frames made on demand come with them (the first Play
    of a replay: lab/live_chart.py)."""
    values = section.link_values(params, points.decode(params.get("pts", "")))
    try:
        setup, data, status = section.run(values)
        if status is not None:
            return None
        made = section.figures(setup, data, charts)
    except ValueError:
        return None       # the page shows the core's message
    return {key: figure_json(fig, key in frames and has_deferred_frames(fig))[0] for key, fig in made.items()
            if charts is None or key in charts}


def this_session():
    """(the session id, whether it is still connected) of the session whose script is running: Streamlit's Runtime
    is asked (is_active_session); without a server (AppTest) a session lasts as long as its test."""
    session_id = get_script_run_ctx().session_id
    if not Runtime.exists():
        return session_id, lambda: True
    runtime = Runtime.instance()
    return session_id, lambda: runtime.is_active_session(session_id)


_sessions = {}          # token → that session's alive()
_tokens = {}            # session id → its token
_sessions_lock = threading.Lock()


def open_session(session_id, alive):
    """The route token of session `session_id` (made on its first call): requests with it are answered while
    alive() holds. Tokens are random (128 bits) and never shown outside the session's own page."""
    with _sessions_lock:
        token = _tokens.get(session_id)
        if token is None:
            if len(_tokens) >= MAX_SESSIONS:
                for sid, old in list(_tokens.items()):
                    if not _sessions[old]():
                        del _tokens[sid], _sessions[old]
                while len(_tokens) >= MAX_SESSIONS:
                    del _sessions[_tokens.pop(next(iter(_tokens)))]
            token = _tokens[session_id] = secrets.token_urlsafe(16)
            _sessions[token] = alive
        return token


def session_token():
    """The token this session's page sends with its routes' requests (route)."""
    return open_session(*this_session())


def open_page(token):
    """Whether `token` is the token of a session still connected to this server."""
    with _sessions_lock:
        alive = _sessions.get(token)
    return alive is not None and alive()


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


class PerSession:
    """For each session token: at most `limit` requests admitted at once, and none for `cooldown` seconds after one
    of its computations went over BUDGET_S (its moves go the rerun's way meanwhile, as without the routes: a page
    open in a session buys at most one such computation per cooldown). acquire(token) says at once whether one more
    may enter, release(token) gives its place back, over_budget(token) starts its cooldown."""

    def __init__(self, limit=PER_SESSION, cooldown=COOLDOWN_S):
        self.limit, self.cooldown, self.held, self.cool_until = limit, cooldown, {}, {}
        self._lock = threading.Lock()

    def acquire(self, token):
        with self._lock:
            now = time.monotonic()
            if len(self.cool_until) > MAX_SESSIONS:
                self.cool_until = {t: until for t, until in self.cool_until.items() if until > now}
            if self.held.get(token, 0) >= self.limit or self.cool_until.get(token, 0.0) > now:
                return False
            self.held[token] = self.held.get(token, 0) + 1
            return True

    def release(self, token):
        with self._lock:
            self.held[token] -= 1
            if not self.held[token]:
                del self.held[token]

    def over_budget(self, token):
        with self._lock:
            self.cool_until[token] = time.monotonic() + self.cooldown


async def computed(request, limiter, executor, fn, *args, over_budget=lambda: None):
    """fn(*args) in `executor` for `request`, or None: `limiter` full (or its CPU share spent), or the client gone
    before it started (a request waiting for the worker is never computed once its client leaves); a computation
    whose client leaves, or that has used BUDGET_S of CPU, is stopped (Job.stop), and over_budget() is called for
    the latter. A computation holds its place in `limiter` until it ends, and pays its CPU into it then."""
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
        spent = job.cpu() > BUDGET_S
        if (spent or await request.is_disconnected()) and job.stop():
            if spent:
                over_budget()
            return None


def routes(sections):
    """The routes serve.py adds to Streamlit's: GET <server.baseUrlPath>/live/<name> for each of `sections`."""
    by_name = {section.name: section for section in sections}
    limiter, per_session = Limiter(MAX_ADMITTED), PerSession()
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
        keys, token = params.pop(CHARTS_PARAM, None), params.pop(SESSION_PARAM, "")
        frames = set(params.pop(FRAMES_PARAM, "").split(","))
        if not open_page(token):
            return JSONResponse({"error": "live figures answer only a page of this app that is open"},
                                status_code=403)
        if not per_session.acquire(token):
            return Response(status_code=204)
        try:
            made = await computed(request, limiter, executor, answer, by_name[name], params,
                                  None if keys is None else set(keys.split(",")), frames,
                                  over_budget=lambda: per_session.over_budget(token))
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        finally:
            per_session.release(token)
        if made is None:
            return Response(status_code=204)
        # a line with the charts' keys, then each figure's JSON text on a line of its own, as the element gets it in
        # a message: it tells the rerun's figure from this one by comparing texts (figure JSON holds no newline)
        return Response("\n".join([json.dumps(list(made)), *made.values()]), media_type=CONTENT_TYPE)

    # at the root, and under a base path (read when a request comes: the option is set after this module is loaded)
    return [Route(f"/{ROUTE}/{{name}}", endpoint, methods=["GET"]),
            Route(f"/{{base:path}}/{ROUTE}/{{name}}", endpoint, methods=["GET"])]


def route(section):
    """The section's route for this session's page, relative to the app's base URL, with the session's token: what
    the chart element asks (lab/live_chart.py, lab/live_control.py)."""
    return f"{ROUTE}/{section.name}?{SESSION_PARAM}={session_token()}"
