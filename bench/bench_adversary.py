"""A lecture under attack: anonymous clients send the most expensive live-route requests they can build while the
students of bench_lecture.py move their controls, and a few throwaway sessions queue lesson 3's heatmap.

Two runs on fresh servers, the same students each time: `quiet` (the students alone) and `attacked` (the students
plus the attack). The attack, on loopback, every loop bounded by --duration:

- --attackers clients, each sending GET /live/primal-dual on three-class blobs, n = 500, noise 0.5, kernel mode,
  a degree-7 polynomial at γ = 1 and C = 1000, MAX_USER_POINTS points of its own anywhere in the window, and a new
  seed each time (no cache can hold it), then the next one --attack-gap seconds after the last was sent; a client
  gives up after --attack-timeout s (and closes its connection). A third of them send what another site's page
  makes a student's browser send (Sec-Fetch-Site: cross-site, an Origin of its own); a third send no such header
  and no session's token, as a script does; and a third first open lesson 3 as a browser does (a session of
  Streamlit's protocol, kept open), and send its token with each request, as the page's own requests
  (--kinds picks among them; "flood" sends the same query to /_stcore/health instead, which computes nothing: the
  cost of the requests themselves, to tell it from the routes');
- --throwaway sessions, each opening lesson 3 with the validation heatmap on at n = 300 and a new seed, leaving once
  its run ends, and opening the next one --attack-gap × 4 seconds later;
- a prober that fetches the page (index.html) and its script bundle every second: what a student opening the app
  waits for (Streamlit's own threads serve them).

It prints bench_lecture's table for both runs, then the attack's record: its requests by answer, how long an answer
took, the server CPU of the attacked run above the quiet one (what the attack cost), and the page fetches' p95 and
max. Budget: the attacked run passes bench_lecture's (zero errors, p95 move <= 1 s) and every page open (the first
run of a student's page and every prober fetch) takes <= 2 s.

    python bench/bench_adversary.py [--students 30] [--attackers 20] [--throwaway 4] [--duration 60]
                                    [--targets one,lecture]

Exits 1 when the attacked run misses its budget.
"""

import argparse
import http.client
import multiprocessing
import random
import re
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import app_pages, machine_state  # noqa: E402
from bench_lecture import (LIVE_CONTROL, Session, StudentError, passed, percentile,  # noqa: E402
                           report, run_lecture)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from datasets.upload import MAX_ABS_COORD  # noqa: E402
from lab.live import SESSION_PARAM  # noqa: E402
from lab.state import MAX_USER_POINTS  # noqa: E402

OPEN_BUDGET_S = 2.0
ATTACKERS = ("script", "cross-site", "session")
PROBE_EVERY_S = 1.0
_BUNDLE = re.compile(rb'src="\.?/?(static/js/[^"]+\.js)"')


class Record:
    """What the attack and the prober saw, appended under a lock by their threads."""

    def __init__(self):
        self.lock = threading.Lock()
        self.answers = Counter()     # (attacker kind, the route's status or "gave up") → count
        self.seconds = []            # time to each route answer the client waited for
        self.heatmaps = Counter()    # throwaway sessions: "opened" or the error
        self.fetches = []            # the prober's page + bundle fetch times
        self.client_cpu = 0.0        # CPU seconds of the attack's own process (its clients run on this machine too)

    def add(self, counter, key, seconds=None, into=None):
        with self.lock:
            getattr(self, counter)[key] += 1
            if seconds is not None:
                (self.seconds if into is None else into).append(seconds)


def expensive_query(rng):
    """The costliest query a link can make for lesson 3's route (see the module docstring)."""
    pts = "~".join(f"{rng.uniform(-MAX_ABS_COORD, MAX_ABS_COORD):.2f}_{rng.uniform(-MAX_ABS_COORD, MAX_ABS_COORD):.2f}"
                   f"_{rng.choice((-1, 1, 2))}" for _ in range(MAX_USER_POINTS))
    return urlencode({"dataset": "blobs3", "n": 500, "noise": 0.5, "pd_space": "kernel", "pd_kernel": "poly",
                      "pd_degree": 7, "pd_gamma": 1, "pd_C": 1000, "seed": rng.randrange(10_000)}) + "&pts=" + pts


def page_token(port, args):
    """An open session of lesson 3 and the token its live controls' route carries (lab/live.py), or (session, "")
    where the page could not be opened."""
    session = Session(port, "primal-dual", args.timeout)
    try:
        session.connect()
        session.rerun()
    except StudentError:
        return session, ""
    routes = [w.options["route"] for w in session.widgets.values() if w.kind == LIVE_CONTROL]
    return session, dict(parse_qsl(routes[0].partition("?")[2])).get(SESSION_PARAM, "") if routes else ""


def attacker(rng, record, args, kind):
    """kind: "cross-site" (another site's page in a student's browser), "script" (no header, no token), "session"
    (the token of a page it holds open) or "flood" (the same request to Streamlit's health check)."""
    headers = {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"} if kind == "cross-site" else {}

    def attack(port, stop):
        session, token = page_token(port, args) if kind == "session" else (None, "")
        own = f"&{SESSION_PARAM}={token}" if token else ""
        while not stop.is_set():
            sent = time.monotonic()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=args.attack_timeout)
            try:
                path = "/_stcore/health?" if kind == "flood" else "/live/primal-dual?"
                conn.request("GET", path + expensive_query(rng) + own, headers=headers)
                response = conn.getresponse()
                response.read()
                record.add("answers", (kind, response.status), time.monotonic() - sent)
            except (OSError, http.client.HTTPException):   # a timeout among them: the client leaves
                record.add("answers", (kind, "gave up"))
            finally:
                conn.close()
            stop.wait(max(0.0, sent + args.attack_gap - time.monotonic()))
        if session is not None:
            session.close()
    return attack


def throwaway(rng, record, args):
    def open_and_leave(port, stop):
        while not stop.is_set():
            session = Session(port, "primal-dual", args.timeout)
            session.query_string = urlencode({"pd_space": "kernel", "pd_cv": "true", "n": 300,
                                              "seed": rng.randrange(10_000)})
            try:
                session.connect()
                session.rerun()
                record.add("heatmaps", "opened")
            except StudentError as exc:
                record.add("heatmaps", str(exc))
            finally:
                session.close()
            stop.wait(4 * args.attack_gap)
    return open_and_leave


def prober(record, args):
    def probe(port, stop):
        while not stop.is_set():
            started = time.monotonic()
            try:
                page = Session(port, "primal-dual", args.timeout)
                status, body = page.http("GET", "/primal-dual")
                bundle = _BUNDLE.search(body)
                if status == 200 and bundle:
                    status, _ = page.http("GET", "/" + bundle[1].decode())
                record.add("heatmaps", f"page fetch {status}" if status != 200 else "page fetch ok",
                           time.monotonic() - started, record.fetches)
            except (OSError, http.client.HTTPException) as exc:
                record.add("heatmaps", f"page fetch {type(exc).__name__}", time.monotonic() - started,
                           record.fetches)
            stop.wait(max(0.0, started + PROBE_EVERY_S - time.monotonic()))
    return probe


def attack_side(port, stop, results, args, seed):
    """The attackers and the throwaway sessions, in a process of their own (started by attack): their threads
    would otherwise share the interpreter of the students' threads, and the students' times would count the
    attack's own work on the client side. Sends what they saw (answers, seconds, heatmaps) once `stop` is set."""
    record, rng = Record(), random.Random(seed)
    kinds = args.kinds.split(",")
    workers = [attacker(random.Random(rng.random()), record, args, kinds[i % len(kinds)])
               for i in range(args.attackers)]
    workers += [throwaway(random.Random(rng.random()), record, args) for _ in range(args.throwaway)]
    threads = [threading.Thread(target=w, args=(port, stop), daemon=True) for w in workers]
    for th in threads:
        th.start()
    stop.wait()
    for th in threads:
        th.join(timeout=args.attack_timeout + args.timeout + 5)
    results.put((record.answers, record.seconds, record.heatmaps, time.process_time()))


def attack(record, args, seed):
    """run_lecture's function beside the students: attack_side in a child process, its record merged when the
    moves end."""
    def run(port, stop):
        context = multiprocessing.get_context("spawn")
        done, results = context.Event(), context.Queue()
        process = context.Process(target=attack_side, args=(port, done, results, args, seed), daemon=True)
        process.start()
        stop.wait()
        done.set()
        answers, seconds, heatmaps, cpu = results.get(timeout=args.attack_timeout + args.timeout + 30)
        process.join(timeout=10)
        with record.lock:
            record.answers.update(answers)
            record.seconds += seconds
            record.heatmaps.update(heatmaps)
            record.client_cpu += cpu
    return run


def run(target, pages, args, attacked):
    record = Record()
    alongside = [prober(record, args)]
    if attacked:
        alongside.append(attack(record, args, args.seed + 1))
    result = run_lecture(target, pages, args, alongside)
    result["label"] = f"{result['label']}, {'attacked' if attacked else 'quiet'}"
    return result, record


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--attackers", type=int, default=20)
    parser.add_argument("--throwaway", type=int, default=4)
    parser.add_argument("--attack-gap", type=float, default=0.5, help="seconds from one attack request to the next")
    parser.add_argument("--attack-timeout", type=float, default=15.0, help="an attacker gives up after this")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of moves")
    parser.add_argument("--interval", type=float, default=2.0, help="mean seconds between one student's moves")
    parser.add_argument("--ramp", type=float, default=10.0, help="students join spread over this many seconds")
    parser.add_argument("--timeout", type=float, default=30.0, help="a rerun slower than this is an error")
    parser.add_argument("--targets", default="one", help="comma-separated: one, lecture")
    parser.add_argument("--workers", type=int, default=4, help="lecture.sh's WORKERS")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=",".join(ATTACKERS),
                        help=f"the attackers' kinds, in turn: {', '.join(ATTACKERS + ('flood',))}")
    parser.add_argument("--no-routes", dest="routes", action="store_false",
                        help="students do not ask the live routes before a slider's rerun (a browser does)")
    args = parser.parse_args()
    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if not 1 <= args.students <= 300 or not 0 <= args.attackers <= 100 or not 0 <= args.throwaway <= 20:
        parser.error("--students in 1..300, --attackers in 0..100, --throwaway in 0..20")
    if not 1 <= args.duration <= 600 or not 0.05 <= args.attack_gap <= 60 or not 1 <= args.attack_timeout <= 60:
        parser.error("--duration in 1..600 s, --attack-gap in 0.05..60 s, --attack-timeout in 1..60 s")
    if not set(args.kinds.split(",")) <= set(ATTACKERS + ("flood",)):
        parser.error(f"--kinds from {', '.join(ATTACKERS + ('flood',))}")
    if not set(targets) <= {"one", "lecture"} or not targets:
        parser.error("--targets from one, lecture")
    args.machine_at_start = machine_state()
    args.script, args.option = "serve.py", []
    pages = app_pages()
    failed = False
    for target in targets:
        (quiet, quiet_record), (attacked, record) = run(target, pages, args, False), run(target, pages, args, True)
        report([quiet, attacked], args)
        opens = attacked["lecture"].opens + record.fetches
        ok = passed(attacked) and max(opens, default=0.0) <= OPEN_BUDGET_S
        failed |= not ok
        total = sum(record.answers.values())
        kinds = args.kinds.replace(",", ", ")
        print(f"\nThe attack on {attacked['label']}: {args.attackers} clients ({kinds} in turn), one request each "
              f"{args.attack_gap:g} s, giving up after {args.attack_timeout:g} s; {args.throwaway} throwaway heatmap "
              "sessions")
        print(f"  route requests {total}: " + ", ".join(f"{kind} {status} ×{v}" for (kind, status), v
                                                        in sorted(record.answers.items(), key=str))
              + f"; answered in p50 {percentile(record.seconds, 50):.2f} s, max {max(record.seconds, default=0):.2f} s")
        print("  throwaway sessions and page fetches: "
              + ", ".join(f"{k} ×{v}" for k, v in sorted(record.heatmaps.items())))
        print(f"  server CPU {attacked['cpu']:.1f} s attacked vs {quiet['cpu']:.1f} s quiet: the attack cost "
              f"{attacked['cpu'] - quiet['cpu']:.1f} s of CPU in {attacked['elapsed']:.0f} s; the attacking clients' "
              f"own process used {record.client_cpu:.1f} s of this machine's CPU beside it (in a room: theirs)")
        for name, run_, fetches in (("quiet", quiet, quiet_record.fetches), ("attacked", attacked, record.fetches)):
            print(f"  {name}: page fetch (index.html + bundle) p95 {percentile(fetches, 95):.2f} s, "
                  f"max {max(fetches, default=float('nan')):.2f} s; first run of a page p95 "
                  f"{percentile(run_['lecture'].opens, 95):.2f} s, max {max(run_['lecture'].opens, default=0):.2f} s")
        print(f"  budget (0 errors, move p95 <= 1 s, every open <= {OPEN_BUDGET_S:g} s): {'PASS' if ok else 'FAIL'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
