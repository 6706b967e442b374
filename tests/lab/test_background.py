"""lab/background.py: heavy results computed in a separate process at the lowest priority, one per server
process; a session's queued job is dropped when it asks for another; an error is the page's to show; the process
does not outlive the server."""

import os
import select
import subprocess
import sys
import time

import pytest

from lab import background
from pageutil import ROOT


def wait(key, owner, fn, *args, timeout=60.0):
    deadline = time.monotonic() + timeout
    while (value := background.result(key, owner, fn, *args)) is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    return value


def test_the_work_runs_in_another_process_at_the_lowest_priority():
    owner = background.Owner({})
    assert wait(("pid",), owner, os.getpid) != os.getpid()
    assert wait(("nice",), owner, os.nice, 0) == background.NICE      # os.nice(0) is the current niceness
    assert owner.state[background.KEY] == ("nice",)
    # one process for job after job (each job's thread ends; the process does not end with it)
    assert (wait(("pid", 2), owner, os.getpid) == wait(("pid", 3), owner, os.getpid)
            == wait(("pid",), background.Owner({}), os.getpid))


def test_a_sessions_queued_job_is_dropped_when_it_asks_for_another():
    busy, owner = background.Owner({}, "busy"), background.Owner({}, "owner")
    assert background.result(("busy",), busy, os.system, "sleep 1") is None  # the one process is busy for a second
    assert background.result(("first",), owner, os.getpid) is None         # queued behind it
    first = background._jobs[("first",)]
    assert background.result(("second",), owner, os.getpid) is None        # the student moved on
    assert first.cancelled() and ("first",) not in background._jobs
    assert wait(("second",), owner, os.getpid) != os.getpid()
    assert wait(("busy",), busy, os.system, "sleep 1") == 0


def test_a_sessions_queued_job_is_dropped_when_it_no_longer_wants_it():
    busy, owner, other = (background.Owner({}, name) for name in ("busy", "owner", "other"))
    assert background.result(("busy", 2), busy, os.system, "sleep 1") is None  # the process is busy for a second
    assert background.result(("wanted",), owner, os.getpid) is None             # queued behind it
    queued = background._jobs[("wanted",)]
    background.drop(owner)                                                      # the student switched it off
    assert queued.cancelled() and ("wanted",) not in background._jobs and background.KEY not in owner.state
    background.drop(other)                                                      # nothing asked: nothing happens
    assert wait(("busy", 2), busy, os.system, "sleep 1") == 0                  # a running job is left to finish
    assert wait(("wanted",), owner, os.getpid) != os.getpid()                  # asked again, it is computed


def test_an_error_is_raised_each_time_it_is_asked_for_and_not_computed_again():
    owner = background.Owner({})
    with pytest.raises(ValueError, match="invalid literal"):
        wait(("bad",), owner, int, "not a number")
    failed = background._jobs[("bad",)]
    with pytest.raises(ValueError, match="invalid literal"):
        background.result(("bad",), owner, int, "not a number")
    assert background._jobs[("bad",)] is failed


@pytest.mark.parametrize("exit_call", ["os._exit(0)", "sys.exit(0)"], ids=["killed", "clean exit"])
def test_the_process_ends_with_the_server_without_waiting_for_its_job(exit_call):
    script = ("import os, sys, time\n"
              "from lab import background\n"
              "background.result(('pid',), background.Owner({}), os.getpid)\n"
              "time.sleep(3)\n"
              "print(background.result(('pid',), background.Owner({}), os.getpid), flush=True)\n"
              "background.result(('sleep',), background.Owner({}), time.sleep, 60)\n"
              "time.sleep(0.5)\n"
              f"{exit_call}\n")                # killed: no clean shutdown; a clean exit must not wait for the job
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert time.monotonic() - started < 30, "the exit waited for the background job"
    child = int(out.stdout.split()[-1])
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{child}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{child}"), "the background process outlived the server"


def test_a_killed_process_is_replaced_and_the_job_runs_again():
    owner = background.Owner({})
    assert background.result(("long",), owner, select.select, [], [], [], 30) is None
    deadline = time.monotonic() + 60
    while not (background._jobs[("long",)].running() and background._worker is not None):
        assert time.monotonic() < deadline       # (another test's job may be ahead of it)
        time.sleep(0.05)
    time.sleep(1.0)                              # the job has reached the process
    first = background._worker[0].pid
    os.kill(first, 9)
    while not background._jobs[("long",)].done():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    # forgotten: asked again, it runs anew
    assert background.result(("long",), owner, select.select, [], [], [], 30) is None
    assert ("long",) not in background._jobs
    assert wait(("short",), owner, os.system, "exit 3") >> 8 == 3
    assert background._worker[0].pid != first


# a server process as Streamlit leaves it: the script it ran last (app.py) installed as __main__, the way its
# ScriptRunner does, then the first background job, whose process spawn starts
UNDER_STREAMLIT = """
import os, sys, time, types
main = types.ModuleType("__main__")
main.__file__ = sys.argv[1]
sys.modules["__main__"] = main
from lab import background
while (pid := background.result(("pid",), background.Owner({}, "script"), os.getpid)) is None:
    time.sleep(0.05)
print(pid != os.getpid())
"""


def test_the_background_process_does_not_run_the_app_script_again():
    # spawn runs __main__'s file again in the new process: app.py there drew the whole app with no session, one
    # "missing ScriptRunContext" warning per Streamlit call in the server's log
    done = subprocess.run([sys.executable, "-c", UNDER_STREAMLIT, str(ROOT / "app.py")], cwd=ROOT, env=
                          {**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr[-2000:]
    assert done.stderr.count("ScriptRunContext") == 0, done.stderr[-2000:]


def test_the_queue_refuses_past_its_cap_and_one_session_holds_one_place():
    busy = background.Owner({}, "busy")
    assert background.result(("cap", "busy"), busy, os.system, "sleep 1") is None   # the process is taken
    owners = [background.Owner({}, f"student {i}") for i in range(background.MAX_QUEUED)]
    for i, owner in enumerate(owners):
        assert background.result(("cap", i), owner, os.getpid) is None
        assert background.result(("cap", i, "again"), owner, os.getpid) is None   # replaces its own: one place each
    late = background.Owner({}, "late")
    with pytest.raises(background.Busy, match="Try again in a moment"):
        background.result(("cap", "late"), late, os.getpid)
    assert background.KEY not in late.state and ("cap", "late") not in background._jobs
    assert background.result(("cap", 0, "again"), late, os.getpid) is None          # a job already queued: shared
    for i, owner in enumerate(owners):
        assert wait(("cap", i, "again"), owner, os.getpid) != os.getpid()
    assert wait(("cap", "busy"), busy, os.system, "sleep 1") == 0
    assert wait(("cap", "late"), late, os.getpid) != os.getpid()                      # later, it is queued


def test_a_queued_job_of_a_session_that_has_ended_is_dropped_unless_another_waits_for_it():
    busy = background.Owner({}, "busy")
    assert background.result(("ended", "busy"), busy, os.system, "sleep 1") is None
    connected = {"gone": True, "stays": True}
    gone, stays = (background.Owner({}, name, lambda name=name: connected[name]) for name in connected)
    assert background.result(("ended", "alone"), gone, os.getpid) is None
    assert background.result(("ended", "shared"), gone, os.getpid) is None            # replaces "alone"
    assert background.result(("ended", "shared"), stays, os.getpid) is None
    assert background.result(("ended", "mine"), background.Owner({}, "third", lambda: connected["gone"]),
                              os.getpid) is None
    mine = background._jobs[("ended", "mine")]
    connected["gone"] = False                                                          # the tab was closed
    fourth = background.Owner({}, "fourth")
    background.result(("ended", "other"), fourth, os.getpid)                           # anything that looks
    assert mine.cancelled() and ("ended", "mine") not in background._jobs
    assert wait(("ended", "shared"), stays, os.getpid) != os.getpid()                 # still wanted: it runs
    assert wait(("ended", "busy"), busy, os.system, "sleep 1") == 0
    assert wait(("ended", "other"), fourth, os.getpid) != os.getpid()
