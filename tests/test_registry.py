"""The lesson registry is the one list of lessons: a new lesson is one entry plus its files, and it then appears
in the navigation, the landing page, the server's warm-up, the page tests, the benchmarks and the README's list."""

import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import pageutil
from lessons import registry, server
from lessons.registry import LESSONS, Lesson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import bench_browser  # noqa: E402

FIXTURE = Lesson(7, "fixture", "Fixture lesson", "a lesson that exists only in the tests", "tests/fixture_lesson/page.py",
                 "fixture_lesson.compute", ())


@pytest.fixture
def with_fixture(monkeypatch):
    monkeypatch.setattr(registry, "LESSONS", [*LESSONS, FIXTURE])
    return FIXTURE


def test_a_fixture_lesson_appears_everywhere(with_fixture):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    links = [link.proto.page for link in at.main.get("page_link")]
    assert FIXTURE.slug in links                                     # the landing page
    at.switch_page(FIXTURE.script)
    at.run()
    assert not at.exception, at.exception
    assert [m.value for m in at.metric] == ["2"]                       # its page runs, with its compute module
    assert at.sidebar.slider(key="n").value == 100                    # under the router, with the shared sidebar
    sys.modules.pop(FIXTURE.compute, None)
    server.tune_process.__wrapped__()
    assert FIXTURE.compute in sys.modules                             # the server's warm-up imports it
    assert FIXTURE.script in pageutil.lesson_pages()                  # the page tests take it
    assert ("page", "fixture") in bench_browser.app_pages()           # and the benchmarks
    assert "7. Fixture lesson: a lesson that exists only in the tests" in registry.readme_list()


def test_the_readme_lists_the_registry():
    assert registry.readme_list() in (ROOT / "README.md").read_text()


def test_every_lesson_has_its_page_and_compute_module():
    slugs = [lesson.slug for lesson in LESSONS]
    assert len(set(slugs)) == len(slugs)
    assert [lesson.number for lesson in LESSONS] == list(range(1, len(LESSONS) + 1))
    for lesson in LESSONS:
        assert (ROOT / lesson.script).is_file(), lesson.script
        assert all((ROOT / path).is_file() for path in lesson.math), lesson.math


def test_the_compute_layer_imports_no_streamlit():
    modules = ["lessons.memo", "lessons.points", "lessons.state", "lessons.caught", *(l.compute for l in LESSONS)]
    code = ("import sys\n" + "".join(f"import {m}\n" for m in modules)
            + "print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stdout
