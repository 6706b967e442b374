"""The lesson registry is the one list of lessons: a new lesson is one entry plus its folder, and it then appears
in the navigation, the landing page, the URL schema, the live routes, the presets, the server's warm-up, the page
tests, the benchmarks and the README's list."""

import subprocess
import sys
from pathlib import Path

import pytest
from starlette.routing import Router
from streamlit.testing.v1 import AppTest

import pageutil
from lab import live, state
from lessons import registry
from lessons.registry import LESSONS, Lesson

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import bench_browser  # noqa: E402

FIXTURE_ENTRY = (7, "fixture", "Fixture lesson", "a lesson that exists only in the tests", "fixture_lesson", ())


@pytest.fixture
def with_fixture(monkeypatch):
    """The registry with a 7th lesson, tests/fixture_lesson/, for one test: its entry, and its fields in the URL
    schema (taken back after the test, as the entry is)."""
    import fixture_lesson.fields

    for field in fixture_lesson.fields.FIELDS:
        monkeypatch.setitem(state.FIELDS, field.key, field)
    lesson = Lesson(*FIXTURE_ENTRY)
    monkeypatch.setattr(registry, "LESSONS", [*LESSONS, lesson])
    return lesson


# the route token of a session that stays open for the tests (lab/live.py)
TOKEN = live.open_session("test_registry", lambda: True)


def get(routes, path):
    """(status, content type, body) of GET `path` from a Starlette app of `routes`, called as the server calls it."""
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    path, _, query = path.partition("?")
    query = "&".join(filter(None, [query, f"{live.SESSION_PARAM}={TOKEN}"]))     # as an open page asks
    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
             "headers": [], "root_path": ""}
    pageutil.run_async(Router(routes=routes)(scope, receive, send))
    headers = dict(sent[0]["headers"])
    return sent[0]["status"], headers.get(b"content-type", b"").decode(), b"".join(m.get("body", b"") for m in sent[1:])


def test_a_fixture_lesson_appears_everywhere(with_fixture):
    fixture = with_fixture
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    links = [link.proto.page for link in at.main.get("page_link")]
    assert fixture.slug in links                                     # the landing page
    at.switch_page(fixture.script)
    at.run()
    assert not at.exception, at.exception
    assert [m.value for m in at.metric] == ["2"]                       # its page runs, with its compute module
    assert at.sidebar.slider(key="n").value == 100                    # under the router, with the shared sidebar
    assert [e.proto.id.rsplit("-", 1)[-1] for e in pageutil.chart_elements(at)] == ["fx_line"]   # its chart
    assert [b.label for b in at.button if b.key == "preset_fixture_ten"] == ["γ = 10"]   # its preset
    at.button(key="preset_fixture_ten").click().run()
    assert [m.value for m in at.metric] == ["20"] and at.query_params["fx_gamma"] == "10"
    at.session_state["fx_reproduce"] = True                            # its Reproduce box
    at.run()
    assert "gamma = 10.0" in at.code[0].value
    assert fixture.compute in registry.compute_modules()               # the server's warm-up imports it
    assert [s.name for s in registry.sections()][-1] == "fixture"      # its live route:
    status, kind, body = get(live.routes(registry.sections()), "/live/fixture?fx_gamma=10")
    assert (status, kind) == (200, live.CONTENT_TYPE)
    assert body.decode().split("\n")[0] == '["fx_line"]' and "20" in body.decode()
    assert fixture.presets[0] in registry.presets()
    assert fixture.script in pageutil.lesson_pages()                  # the page tests take it
    assert ("7_fixture_lesson", "fixture") in bench_browser.app_pages()           # and the benchmarks
    assert "7. Fixture lesson: a lesson that exists only in the tests" in registry.readme_list()


def test_the_routes_answer_under_the_base_path_and_nowhere_else(monkeypatch):
    from streamlit import config

    routes = live.routes(registry.sections())
    assert get(routes, "/live/circle")[:2] == (200, live.CONTENT_TYPE)
    assert get(routes, "/kl/live/circle")[0] == 404
    monkeypatch.setattr(config, "get_option", lambda name: "kl" if name == "server.baseUrlPath" else None)
    assert get(routes, "/kl/live/circle")[:2] == (200, live.CONTENT_TYPE)
    assert get(routes, "/live/circle")[0] == 404 and get(routes, "/other/live/circle")[0] == 404


def test_the_readme_lists_the_registry():
    assert registry.readme_list() in (ROOT / "README.md").read_text()


def test_every_lesson_has_its_page_and_compute_module():
    slugs = [lesson.slug for lesson in LESSONS]
    assert len(set(slugs)) == len(slugs)
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    for lesson in LESSONS:
        assert (ROOT / lesson.script).is_file(), lesson.script
        assert all((ROOT / path).is_file() for path in lesson.math), lesson.math
        assert lesson.presets and lesson.sections and lesson.module("fields").FIELDS


def test_the_compute_layer_imports_no_streamlit():
    modules = ["lab.memo", "lab.points", "lab.state", "lab.caught", *registry.compute_modules()]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout
