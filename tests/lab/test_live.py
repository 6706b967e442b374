"""The live routes (lab/live.py): for the link a page shows, they answer exactly the figures the page draws,
byte for byte; they refuse a link the page cannot hold with its reason, and answer nothing where the page draws
no such figures."""

import json
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from concurrent.futures import ThreadPoolExecutor

import pytest

from lab import live, points
from lab.live import MAX_QUERY
from lessons import registry
from lessons.primal_dual import sections
from pageutil import ROOT, figure, live_controls, move, open_page, run_async, until_drawn

sys.path.insert(0, str(ROOT / "bench"))
from bench_lecture import LIVE_CONTROL, Session  # noqa: E402

SECTION = {section.name: section for section in registry.sections()}

PAGE = "lessons/primal_dual/page.py"
CHARTS = ("pd_boundary", "pd_alpha")
# page slug → (page script, the charts its route answers, scenes: widget values set on the page)
LIVE_PAGES = {
    "feature-maps.cost": ("lessons/feature_maps/page.py", ("fm_cost",), [{}, {"fm_d": 7, "fm_p": 9}]),
    "feature-maps.taylor": ("lessons/feature_maps/page.py", ("fm_taylor", "fm_taylor_error"), [
        {}, {"fm_m": 12, "fm_gamma": 3.16, "fm_z": -1.25}]),
    "circle": ("lessons/circle/page.py", ("cl_lift3d", "cl_back"), [
        {}, {"cl_C": 100.0}, {"cl_lift": "paraboloid", "cl_C": 0.0316}, {"cl_hard": True},
        {"cl_data": "sidebar", "cl_C": 3.16}]),
    "regression.house": ("lessons/regression/page.py", ("rg_bumps", "rg_fits", "rg_loss"), [
        {}, {"rg_n": 30, "rg_kernel": "poly", "rg_gamma": 1.0, "rg_degree": 3, "rg_lam": 0.01},
        {"rg_eta": 0.95, "rg_T": 50, "rg_mode": "stochastic"}, {"rg_kernel": "rbf", "rg_gamma": 31.6}]),
    "regression.logistic": ("lessons/regression/page.py", ("rgl_boundary", "rgl_objective"), [
        {}, {"rgl_gamma": 3.16, "rgl_lam": 0.1, "rgl_T": 40}]),
    "pegasos": ("lessons/pegasos/page.py",
                ("pg_boundary", "pg_objective", "pg_alpha", "pg_perceptron", "pg_mistakes"), [
        {}, {"pg_gamma": 3.16, "pg_lam": 0.1, "pg_T": 500, "pg_epochs": 5},
        {"pg_kernel": "poly", "pg_degree": 2, "pg_replay": 40, "pg_iterate": "last", "pg_seed": 7}]),
    "mercer": ("lessons/mercer/page.py", ("mc_gram", "mc_spectrum"), [
        {}, {"mc_gamma": 10.0}, {"mc_kernel": "poly", "mc_gamma": 0.316, "mc_degree": 4, "mc_coef0": 2.0}]),
    "mercer:sigmoid": ("lessons/mercer/page.py", ("mc_gram", "mc_spectrum", "mc_certificate"), [
        {"mc_kernel": "sigmoid", "mc_gamma": 3.16, "mc_coef0": -1.0}]),
}
SCENES = [
    {},
    {"pd_space": "linear", "pd_C": 10.0},
    {"pd_offset": False, "pd_C": 0.178},
    {"pd_space": "kernel", "pd_kernel": "rbf", "pd_gamma": 3.16, "pd_C": 0.316},
    {"pd_space": "kernel", "pd_kernel": "poly", "pd_gamma": 0.562, "pd_degree": 3, "pd_coef0": 0.5},
    {"pd_hard": True, "pd_space": "kernel", "pd_kernel": "rbf", "pd_gamma": 10.0},
]
# as the link stores them (datasets.upload.DECIMALS)
OWN = ((0.25, 0.5, 1), (-0.75, 0.1, -1), (1.5, -1.25, 2))


def link(at):
    """The page's link as the browser holds it: key → text."""
    return {key: at.query_params[key] for key in at.query_params}


def assert_same_figures(at, slug="primal-dual", charts=CHARTS):
    answered = live.answer(SECTION[slug], link(at))
    assert answered is not None
    assert list(answered) == list(charts)
    for key in charts:
        assert answered[key] == figure(at, key), key


@pytest.mark.parametrize("widgets", SCENES, ids=[",".join(s) or "defaults" for s in SCENES])
def test_the_route_answers_the_figures_the_page_draws_for_its_link(widgets):
    at = open_page(PAGE, widgets=widgets, numbers=False)
    assert_same_figures(at)


@pytest.mark.parametrize(("slug", "widgets"),
                         [(slug, w) for slug, (_, _, scenes) in LIVE_PAGES.items() for w in scenes],
                         ids=[f"{slug}:{','.join(w) or 'defaults'}" for slug, (_, _, scenes) in LIVE_PAGES.items()
                              for w in scenes])
def test_every_live_page_too(slug, widgets):
    script, charts, _ = LIVE_PAGES[slug]
    at = open_page(script, widgets=widgets, numbers=False)
    assert_same_figures(at, slug.split(":")[0], charts)


def test_the_same_with_other_sidebar_data_and_the_students_points():
    # the explicit feature space is binary: the student's class-2 point is left out of the figures
    at = open_page(PAGE, sidebar={"dataset": "moons", "n": 60, "seed": 3}, numbers=False, state={"user_points": OWN})
    at.query_params["pts"] = points.encode(OWN)
    assert_same_figures(at)
    # kernel mode trains on all three classes (one-vs-rest): its one chart
    at.get_by_key("pd_space").set_value("kernel").run()
    assert_same_figures(at, charts=("pd_ovr",))


def test_a_move_of_c_is_answered_with_the_figures_the_rerun_then_draws():
    at = open_page(PAGE, numbers=False)
    moved = {**link(at), "pd_C": "10"}
    answered = live.answer(SECTION["primal-dual"], moved)
    move(at, "pd_C", 10.0)
    for key in CHARTS:
        assert answered[key] == figure(at, key)


def test_the_validation_charts_are_answered_once_their_grid_is_computed_and_never_computed_by_the_route():
    widgets = {"pd_space": "kernel", "pd_cv": True, "pd_gamma": 3.16}
    cold = open_page(PAGE, sidebar={"seed": 11}, widgets=widgets, numbers=False)   # the grid is being computed
    assert list(live.answer(SECTION["primal-dual"], link(cold))) == list(CHARTS)
    at = until_drawn(cold, "pd_cv_heatmap")
    assert_same_figures(at, charts=CHARTS + sections.CV_KEYS)
    moved = {**link(at), "pd_C": "10"}
    answered = live.answer(SECTION["primal-dual"], moved, {"pd_cv_heatmap"})
    move(at, "pd_C", 10.0)
    assert list(answered) == ["pd_cv_heatmap"] and answered["pd_cv_heatmap"] == figure(at, "pd_cv_heatmap")
    assert "pd_cv_heatmap" not in live.answer(SECTION["primal-dual"], {**moved, "pd_cv": "false"})


def test_a_first_play_is_answered_with_the_frames_the_rerun_then_sends():
    from lab import live_chart

    at = open_page(PAGE, numbers=False)
    plain = live.answer(SECTION["primal-dual"], link(at))
    answered = live.answer(SECTION["primal-dual"], link(at), None, {"pd_boundary"})
    assert "frames" not in json.loads(plain["pd_boundary"]) and json.loads(answered["pd_boundary"])["frames"]
    assert answered["pd_alpha"] == plain["pd_alpha"]         # its frames come with every figure
    at.session_state[live_chart.frames_key("pd_boundary")] = True      # what the Play's event sets
    at.run()
    assert answered["pd_boundary"] == figure(at, "pd_boundary")


@pytest.mark.parametrize("query", [{"pd_C": "abc"}, {"pd_C": "1e999"}, {"pd_C": "<script>"}, {"n": "100000"},
                                   {"dataset": "../../etc/passwd"}, {"pd_kernel": "__import__('os')"}])
def test_a_value_no_control_can_hold_is_refused_with_its_reason(query):
    with pytest.raises(ValueError, match=next(iter(query))):
        live.answer(SECTION["primal-dual"], query)


@pytest.mark.parametrize("query", [{"only_mine": "true"}, {"dataset": "blobs3"}])
def test_where_the_page_draws_no_such_figures_nothing_is_answered(query):
    # no points of one's own to train on; three classes outside kernel mode (the page says it is binary)
    assert live.answer(SECTION["primal-dual"], query) is None


def get(url, path, params=None, method="GET", headers=None):
    """(status, body text) of a request to the app."""
    query = "?" + (params if isinstance(params, str) else urllib.parse.urlencode(params)) if params else ""
    try:
        with urllib.request.urlopen(urllib.request.Request(url + path + query, method=method, headers=headers or {}),
                                    timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


class OpenPage:
    """Lesson 3 open on the server in a session of Streamlit's own protocol (bench/bench_lecture.py's, as a browser
    holds one): `token` is the one its live controls' route carries, valid while the page stays open."""

    def __init__(self, app_url):
        self.session = Session(int(app_url.rsplit(":", 1)[1]), "primal-dual", 60)
        self.session.connect()
        self.session.rerun()
        routes = {w.options["route"] for w in self.session.widgets.values() if w.kind == LIVE_CONTROL}
        assert len(routes) == 1, routes
        path, _, query = routes.pop().partition("?")
        assert path == "live/primal-dual"
        self.token = dict(urllib.parse.parse_qsl(query))[live.SESSION_PARAM]

    def close(self):
        self.session.close()


@pytest.fixture(scope="module")
def token(app_url):
    page = OpenPage(app_url)
    yield page.token
    page.close()


def test_serve_py_answers_over_http_beside_the_pages(app_url, token):
    status, text = get(app_url, "/live/primal-dual", {"pd_C": "1.78", "_session": token})
    assert status == 200
    keys, *texts = text.split("\n")
    assert json.loads(keys) == list(CHARTS) and len(texts) == 2
    assert texts == [live.answer(SECTION["primal-dual"], {"pd_C": "1.78"})[key] for key in CHARTS]
    status, text = get(app_url, "/live/primal-dual", {"pd_C": "abc", "_session": token})
    assert status == 400 and "pd_C" in json.loads(text)["error"]
    assert get(app_url, "/live/primal-dual", {"only_mine": "true", "_session": token})[0] == 204
    assert get(app_url, "/live/no-such-page", {"_session": token})[0] == 404
    assert get(app_url, "/live/primal-dual", f"_session={token}&pts=" + "1" * (MAX_QUERY + 1))[0] == 400
    assert get(app_url, "/live/primal-dual", {"_session": token}, method="POST")[0] == 405
    assert get(app_url, "/primal-dual")[0] == 200 and get(app_url, "/_stcore/health") == (200, "ok")


def test_each_live_control_on_the_page_names_its_route_and_the_links_text_of_each_position():
    from lab.state import C_VALUES

    at = open_page(PAGE, widgets={"pd_space": "kernel", "pd_kernel": "poly"}, numbers=False)
    controls = live_controls(at)
    assert list(controls) == ["pd_offset", "pd_hard", "pd_C", "pd_gamma", "pd_degree", "pd_coef0"]
    assert [controls[key]["kind"] for key in ("pd_offset", "pd_C")] == ["toggle", "slider"]
    assert controls["pd_hard"]["link"] == ["false", "true"] and controls["pd_offset"]["value"] == 1   # on
    routes = {options["route"] for options in controls.values()}
    assert len(routes) == 1 and routes.pop().startswith(f"live/primal-dual?{live.SESSION_PARAM}=")
    assert [float(v) for v in controls["pd_C"]["link"]] == [float(c) for c in C_VALUES]
    assert controls["pd_C"]["texts"][controls["pd_C"]["value"]] == "1" == controls["pd_C"]["text"]
    # a numeric slider's positions: lo, lo + step, ..., hi
    assert {k: controls["pd_degree"][k] for k in ("lo", "step", "count", "digits")} == \
        {"lo": 1, "step": 1, "count": 10, "digits": 0}
    assert {k: controls["pd_coef0"][k] for k in ("lo", "step", "count", "digits")} == \
        {"lo": -2.0, "step": 0.25, "count": 17, "digits": 2}


def test_one_vs_rest_on_a_three_class_dataset():
    at = open_page(PAGE, sidebar={"dataset": "blobs3"}, widgets={"pd_space": "kernel", "pd_C": 3.16}, numbers=False)
    assert_same_figures(at, charts=("pd_ovr",))


def test_asked_for_some_charts_it_answers_those_alone_and_the_same_as_the_page():
    at = open_page("lessons/pegasos/page.py", widgets={"pg_gamma": 3.16}, numbers=False)
    answered = live.answer(SECTION["pegasos"], link(at), {"pg_boundary", "pg_objective"})
    assert list(answered) == ["pg_boundary", "pg_objective"]
    assert all(answered[key] == figure(at, key) for key in answered)


def test_the_charts_asked_for_over_http(app_url, token):
    status, text = get(app_url, "/live/primal-dual", {"pd_C": "1.78", "_charts": "pd_alpha", "_session": token})
    assert status == 200 and text.split("\n")[0] == '["pd_alpha"]' and len(text.split("\n")) == 2


# ---------------------------------------------------------------- no anonymous client can stall the room

# the costliest link lesson 3's route can be asked: seconds of a solver on three classes, 700 points far apart
COSTLY = {"dataset": "blobs3", "n": "500", "noise": "0.5", "pd_space": "kernel", "pd_kernel": "poly", "pd_degree": "7",
          "pd_gamma": "1", "pd_C": "1000", "seed": "4242",
          "pts": "~".join(f"{(i * 37) % 2000 / 100 - 10:.2f}_{(i * 53) % 2000 / 100 - 10:.2f}_{i % 3 - 1 or 2}"
                          for i in range(200))}


class Client:
    """What live.computed reads of a request: whether its client has gone (after `leaves_after` s)."""

    def __init__(self, leaves_after=None):
        self.leaves_at = None if leaves_after is None else time.monotonic() + leaves_after

    async def is_disconnected(self):
        return self.leaves_at is not None and time.monotonic() >= self.leaves_at


def compute(client, limiter, executor, fn, *args, **kwargs):
    started = time.monotonic()
    return run_async(live.computed(client, limiter, executor, fn, *args, **kwargs)), time.monotonic() - started


def test_a_full_limiter_answers_at_once_and_computes_nothing():
    limiter, called = live.Limiter(2), []
    assert limiter.acquire() and limiter.acquire() and not limiter.acquire()
    with ThreadPoolExecutor(1) as executor:
        made, took = compute(Client(), limiter, executor, called.append, "work")
    assert made is None and took < 0.5 and not called
    limiter.release()
    with ThreadPoolExecutor(1) as executor:
        assert compute(Client(), limiter, executor, len, "work")[0] == 4
    assert limiter.held == 1            # the place is given back when the computation ends


def test_the_routes_use_at_most_their_share_of_a_core_over_time():
    limiter = live.Limiter(10, share=0.25, burst=1.0)
    assert limiter.acquire()
    limiter.release(cpu=1.5)                    # a computation used more than the bucket holds
    assert not limiter.acquire()                # until the share has paid it back
    limiter.at -= 4                             # 4 s later: 1 s of credit again, less the 0.5 s owed
    assert limiter.acquire() and limiter.held == 1


def test_a_client_gone_is_not_computed_even_when_it_waited_for_the_worker():
    called, release = [], threading.Event()
    with ThreadPoolExecutor(1) as executor:
        executor.submit(release.wait, 10)                        # the worker is taken
        limiter = live.Limiter(3)
        assert compute(Client(leaves_after=0), limiter, executor, called.append, "gone before")[0] is None
        made, took = compute(Client(leaves_after=0.2), limiter, executor, called.append, "gone while waiting")
        assert made is None and took < 2
        release.set()
    assert not called and limiter.held == 0


@pytest.mark.parametrize("client", [Client(leaves_after=0.3), Client()], ids=["client gone", "over budget"])
def test_a_costly_computation_stops_when_its_client_leaves_or_its_budget_is_spent(client):
    limiter, spent = live.Limiter(1), []
    with ThreadPoolExecutor(1) as executor:
        made, took = compute(client, limiter, executor, live.answer, SECTION["primal-dual"], dict(COSTLY),
                             over_budget=lambda: spent.append(True))
    assert made is None and took < live.BUDGET_S + 3      # the whole solve takes several seconds
    assert spent == ([] if client.leaves_at else [True])  # only a computation over budget is told so
    assert limiter.held == 0
    with ThreadPoolExecutor(1) as executor:                # the worker thread is fine for the next request
        assert compute(Client(), limiter, executor, live.answer, SECTION["primal-dual"], {"pd_C": "1.78"})[0]


@pytest.mark.parametrize(("headers", "ok"), [
    ({}, True), ({"sec-fetch-site": "same-origin", "host": "lab:8501"}, True),
    ({"host": "lab:8501", "origin": "http://lab:8501", "referer": "http://lab:8501/primal-dual?pd_C=10"}, True),
    ({"sec-fetch-site": "cross-site", "host": "lab:8501"}, False), ({"sec-fetch-site": "same-site"}, False),
    ({"sec-fetch-site": "none"}, False), ({"host": "lab:8501", "origin": "https://evil.example"}, False),
    ({"host": "lab:8501", "referer": "https://evil.example/page"}, False),
    ({"host": "lab:8501", "origin": "null"}, False)])
def test_only_the_pages_own_request_is_answered(headers, ok):
    assert live.same_origin(headers) is ok


def test_a_cross_origin_get_does_no_work_over_http(app_url, token):
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}):
        started = time.monotonic()
        status, text = get(app_url, "/live/primal-dual", {**COSTLY, "_session": token}, headers=headers)
        assert status == 403 and time.monotonic() - started < 1.0, (status, text)
    status, _ = get(app_url, "/live/primal-dual", {"pd_C": "1.78", "_session": token},
                    headers={"Sec-Fetch-Site": "same-origin"})
    assert status == 200


def test_a_get_that_names_no_open_page_does_no_work(app_url):
    """A script that never opened the page (no token, a made-up one) and a page that was closed: 403 at once."""
    page = OpenPage(app_url)
    assert get(app_url, "/live/primal-dual", {"pd_C": "1.78", "_session": page.token})[0] == 200
    page.close()
    time.sleep(1.0)                                     # the server sees the socket close
    for query in (COSTLY, {**COSTLY, "_session": "made-up"}, {**COSTLY, "_session": page.token}):
        started = time.monotonic()
        status, text = get(app_url, "/live/primal-dual", query)
        assert status == 403 and time.monotonic() - started < 1.0, (status, text)
        assert "open" in json.loads(text)["error"]


def test_one_session_has_at_most_its_two_requests_admitted_at_once():
    per_session = live.PerSession()
    assert per_session.acquire("a") and per_session.acquire("a") and not per_session.acquire("a")
    assert per_session.acquire("b")                     # another student is not held back by the first
    per_session.release("a")
    assert per_session.acquire("a")
    for token in ("a", "a", "b"):
        per_session.release(token)
    assert per_session.held == {}


def test_a_session_whose_computation_went_over_budget_gets_none_for_its_cooldown():
    per_session = live.PerSession(cooldown=0.3)
    per_session.over_budget("a")
    assert not per_session.acquire("a") and per_session.acquire("b")
    time.sleep(0.35)
    assert per_session.acquire("a")


def test_the_tokens_of_closed_sessions_are_forgotten_when_there_are_too_many(monkeypatch):
    monkeypatch.setattr(live, "MAX_SESSIONS", 3)
    monkeypatch.setattr(live, "_sessions", {})
    monkeypatch.setattr(live, "_tokens", {})
    open_ = {"s1": True, "s2": False, "s3": True}
    tokens = {sid: live.open_session(sid, lambda sid=sid: open_[sid]) for sid in open_}
    assert live.open_session("s1", lambda: True) == tokens["s1"] and len(set(tokens.values())) == 3
    assert live.open_page(tokens["s1"]) and not live.open_page(tokens["s2"]) and not live.open_page("")
    tokens["s4"] = live.open_session("s4", lambda: True)          # s2 is closed: it goes
    assert set(live._tokens) == {"s1", "s3", "s4"}
    live.open_session("s5", lambda: True)                          # all open: the oldest goes
    assert set(live._tokens) == {"s3", "s4", "s5"} and not live.open_page(tokens["s1"])


def test_every_response_carries_the_security_headers(app_url):
    for path in ("/", "/primal-dual", "/live/primal-dual?pd_C=1.78", "/live/no-such-page", "/_stcore/health"):
        try:
            headers = urllib.request.urlopen(app_url + path, timeout=60).headers
        except urllib.error.HTTPError as error:
            headers = error.headers
        assert headers["X-Frame-Options"] == "SAMEORIGIN", path
        assert headers["Content-Security-Policy"] == "frame-ancestors 'self'", path
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert headers["Referrer-Policy"] == "same-origin", path
