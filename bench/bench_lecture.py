"""A lecture: N simulated students on loopback, each in its own Streamlit session, moving sliders.

Starts `streamlit run app.py` on a free 127.0.0.1 port and speaks Streamlit's own websocket
protocol to it (`/_stcore/stream`, the BackMsg / ForwardMsg protobufs shipped in the streamlit
package), as the browser does:

- connect with subprotocol "streamlit" (no Origin header, so no XSRF token is needed);
- send BackMsg.rerun_script with page_name = the page's url_path (what a shared link carries);
  later reruns carry the page_script_hash the server announced, the query string it last set
  (page_info_changed; the browser also writes URL-bound widget values into its URL, this client
  leaves that to the WidgetStates, which carry the same values) and the hashes of the cacheable ForwardMsgs kept, aged out
  after new_session.config.max_cached_message_age runs, as the browser's message cache does;
- read ForwardMsgs until script_finished; the run's slider elements (new_element.slider, main area
  first) give the widget ids, ranges and defaults — nothing is guessed;
- a slider drawn inside an st.fragment (its delta carries the fragment_id) is moved as the browser
  moves it: rerun_script carries that fragment_id, so the server reruns only that fragment and sends
  only its elements; the other sliders stay as the last run that drew them left them.

Student i opens page i mod (number of pages); students join spread over --ramp seconds. About every
--interval seconds (jittered ×0.5..1.5) a student moves one random main-area slider (the sidebar's n
on a page without one) one step up or down, as a new rerun_script with the updated WidgetStates,
and times send → script_finished. The next move is due a think time after the last one was made; a
student waits for its rerun to finish first (such a move counts as `late`; a browser would interrupt
the running rerun instead). After --duration seconds no new moves start; in-flight ones
finish (at most --timeout s). Before the clock starts, one session per page runs it once (the
instructor opened the pages: imports and caches warm).

Columns: moves and their p50/p95/max latency; reruns/s, all reruns completed (page opens and
moves) over the run's wall time; `open p95`, the first run of each student's page.
Errors: a connection that fails or closes, a rerun slower than --timeout, an exception element,
page_not_found, a compile error. Memory: the server's VmRSS after warm-up, at the end, and VmHWM
(peak) from /proc/<pid>/status.

Runs twice by default, each on a fresh server: --runner.postScriptGC true (Streamlit's default) and false
(Streamlit runs gc.collect(2) after every rerun, holding the GIL while other sessions wait).
Budget per run: zero errors, p95 latency of slider moves <= 1000 ms.

    python bench/bench_lecture.py [--students 100] [--duration 60] [--configs gc,nogc]

Exits 1 when a run fails its budget.
"""

import argparse
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import websocket
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import Server, app_pages, machine_state, print_table_head  # noqa: E402

BUDGET_P95_MS = 1000.0
# both named on the command line: .streamlit/config.toml turns the collection off, so no flag would not
# be Streamlit's default
CONFIGS = {"gc": ("--runner.postScriptGC", "true"), "nogc": ("--runner.postScriptGC", "false")}
MAIN, SIDEBAR = 0, 1  # RootContainer: the first entry of a delta path


class StudentError(Exception):
    """What went wrong in one student's session, as a short kind for the error table."""


def percentile(values, q):
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * (len(s) - 1))))]


def read_rss_kb(pid):
    """(VmRSS, VmHWM) of a process in kB, from /proc."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":")
                out[key] = int(value.split()[0])
    return out.get("VmRSS", 0), out.get("VmHWM", 0)


class Session:
    """One browser tab's worth of protocol: a websocket session on one page of the app."""

    def __init__(self, port, url_path, timeout):
        self.url = f"ws://127.0.0.1:{port}/_stcore/stream"
        self.url_path = url_path
        self.timeout = timeout
        self.ws = None
        self.page_hash = ""
        self.query_string = ""
        self.widgets = {}  # widget id -> WidgetState the student has set
        self.sliders = {}  # widget id -> (root container, Slider proto, fragment id or "") as last drawn
        self.fragment_id = ""  # the fragment of the slider moved last: the next rerun reruns only it
        self.cache = {}  # cacheable ForwardMsg hash -> (its slider or None, run count when last used)
        self.run_count = 0
        self.max_age = 2

    def connect(self):
        try:
            self.ws = websocket.create_connection(self.url, subprotocols=["streamlit"], timeout=self.timeout)
        except (OSError, websocket.WebSocketException) as exc:
            raise StudentError(f"connect: {type(exc).__name__}") from exc

    def close(self):
        if self.ws is not None:
            try:
                self.ws.close(timeout=2)
            except (OSError, websocket.WebSocketException):
                pass

    def rerun(self, fragment_id=""):
        """Send rerun_script with the current state (of fragment_id only, if given); wait for
        script_finished. Returns seconds."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query_string
        if fragment_id:
            cs.fragment_id = fragment_id
        if self.page_hash:
            cs.page_script_hash = self.page_hash
        else:
            cs.page_name = self.url_path  # first visit: the page comes from the URL, as a link opens it
        cs.widget_states.widgets.extend(self.widgets.values())
        cs.cached_message_hashes.extend(self.cache)
        cs.context_info.timezone = "UTC"
        cs.context_info.locale = "en-US"
        t0 = time.perf_counter()
        try:
            self.ws.send_binary(msg.SerializeToString())
            self._read_run(fragment_id)
        except websocket.WebSocketTimeoutException as exc:
            raise StudentError("rerun timeout") from exc
        except (OSError, websocket.WebSocketException) as exc:
            raise StudentError(f"connection: {type(exc).__name__}") from exc
        return time.perf_counter() - t0

    def _read_run(self, fragment_id):
        sliders = {}
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StudentError("rerun timeout")
            self.ws.settimeout(left)
            fwd = ForwardMsg.FromString(self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "delta":
                slider = self._delta(fwd)
                if slider is not None:
                    sliders[slider[1].id] = slider
            elif kind == "ref_hash":  # an element we sent the hash of: the server sent only the hash
                entry = self.cache.get(fwd.ref_hash)
                if entry is None:
                    raise StudentError("ref_hash of a message not in the cache")
                self.cache[fwd.ref_hash] = (entry[0], self.run_count)
                if entry[0] is not None:
                    sliders[entry[0][1].id] = entry[0]
            elif kind == "new_session":
                self.max_age = fwd.new_session.config.max_cached_message_age or self.max_age
            elif kind == "navigation":
                self.page_hash = fwd.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query_string = fwd.page_info_changed.query_string
            elif kind == "page_not_found":
                raise StudentError("page_not_found")
            elif kind == "script_finished":
                status = fwd.script_finished
                if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                    continue  # the script called st.rerun(): the run goes on
                self._age_cache()
                if status == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise StudentError("compile error")
                if fragment_id:  # the fragment's sliders were redrawn; the rest of the page stays
                    self.sliders = {k: v for k, v in self.sliders.items() if v[2] != fragment_id}
                    self.sliders.update(sliders)
                else:
                    self.sliders = sliders
                return

    def _delta(self, fwd):
        """The (container, slider) a delta adds, if any; raises on an exception element."""
        element = fwd.delta.new_element if fwd.delta.WhichOneof("type") == "new_element" else None
        if element is None:
            return None
        etype = element.WhichOneof("type")
        slider = None
        if etype == "exception":
            raise StudentError(f"exception: {element.exception.type}: {element.exception.message[:80]}")
        if etype == "slider":
            slider = (fwd.metadata.delta_path[0], element.slider, fwd.delta.fragment_id)
        if fwd.metadata.cacheable and fwd.hash:
            self.cache[fwd.hash] = (slider, self.run_count)
        return slider

    def _age_cache(self):
        self.run_count += 1
        for h in [h for h, (_, last) in self.cache.items() if self.run_count - last > self.max_age]:
            del self.cache[h]

    def move_slider(self, rng):
        """Set one slider one step up or down in self.widgets; returns its label. self.fragment_id
        becomes the slider's fragment ("" outside any): what the browser's rerun would carry."""
        drawn = sorted(self.sliders.values(), key=lambda v: v[1].id)  # the same choice for the same seed
        movable = [(s, f) for c, s, f in drawn if c == MAIN and not s.disabled and len(s.default) == 1]
        if not movable:
            movable = [(s, f) for c, s, f in drawn if c == SIDEBAR and not s.disabled and len(s.default) == 1]
        if not movable:
            raise StudentError("no slider to move")
        s, self.fragment_id = rng.choice(movable)
        state = self.widgets.get(s.id)
        direction = rng.choice((-1, 1))
        new = self.widgets.setdefault(s.id, WidgetState())
        new.id = s.id
        shown = list(s.value) if s.set_value else list(s.default)  # what the student sees now
        if s.type == Slider.SELECT_SLIDER:
            options = list(s.options)
            current = options.index(state.string_array_value.data[0]) if state else int(shown[0])
            i = current + direction if 0 <= current + direction < len(options) else current - direction
            new.string_array_value.data[:] = [options[i]]
        else:
            current = state.double_array_value.data[0] if state else shown[0]
            v = current + direction * s.step
            if not s.min <= v <= s.max:
                v = current - direction * s.step
            new.double_array_value.data[:] = [round(v, 10)]  # 0.1 + 0.01 steps without float dust
        return s.label


class Lecture:
    """The shared record of one run: latencies, errors, counts; students append under a lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.moves = []  # (page, seconds)
        self.loads = []
        self.errors = Counter()
        self.late = 0
        self.stop = threading.Event()


def student(i, port, page, rng, args, lecture, start_at, end_at):
    stem, url_path = page
    session = Session(port, url_path, args.timeout)
    try:
        time.sleep(max(0.0, start_at - time.monotonic()))
        session.connect()
        load = session.rerun()
        with lecture.lock:
            lecture.loads.append(load)
        due = time.monotonic() + args.interval * rng.uniform(0.5, 1.5)
        while not lecture.stop.wait(max(0.0, due - time.monotonic())) and time.monotonic() < end_at:
            session.move_slider(rng)
            sent = time.monotonic()
            latency = session.rerun(session.fragment_id)
            # the next move is due a think time after this one was made; if the rerun is still
            # running then, the student waits for it (a browser would interrupt it instead)
            due = sent + args.interval * rng.uniform(0.5, 1.5)
            with lecture.lock:
                lecture.moves.append((stem, latency))
                lecture.late += time.monotonic() > due
    except StudentError as exc:
        with lecture.lock:
            lecture.errors[f"{stem}: {exc}"] += 1
    except Exception as exc:  # a bug in this script must show in the table, not vanish in a thread
        with lecture.lock:
            lecture.errors[f"{stem}: {type(exc).__name__}: {exc}"] += 1
    finally:
        session.close()


def warm_up(port, pages, timeout):
    """One session per page, one run each, before the clock starts; returns errors. The app's root
    goes first, as the instructor opens it."""
    errors = Counter()
    for stem, url_path in [("root", ""), *pages] if pages[0][1] else pages:
        s = Session(port, url_path, timeout)
        try:
            s.connect()
            s.rerun()
        except StudentError as exc:
            errors[f"{stem} (warm-up): {exc}"] += 1
        finally:
            s.close()
    return errors


def run_lecture(config, pages, args):
    with Server(args.script, *CONFIGS[config]) as server:
        pid = server.proc.pid
        warm_errors = warm_up(server.port, pages, args.timeout)
        rss_start, _ = read_rss_kb(pid)
        lecture = Lecture()
        lecture.errors.update(warm_errors)
        rng = random.Random(args.seed)
        cpu0 = time.process_time()
        t0 = time.monotonic()
        end_at = t0 + args.duration
        threads = []
        for i in range(args.students):
            start_at = t0 + args.ramp * i / max(1, args.students)
            th = threading.Thread(target=student, daemon=True,
                                  args=(i, server.port, pages[i % len(pages)], random.Random(rng.random()), args,
                                        lecture, start_at, end_at))
            th.start()
            threads.append(th)
        time.sleep(max(0.0, end_at - time.monotonic()))
        lecture.stop.set()
        for th in threads:  # in-flight reruns finish or time out within args.timeout
            th.join(timeout=max(0.1, end_at + args.timeout + 5 - time.monotonic()))
        elapsed = time.monotonic() - t0
        stuck = sum(th.is_alive() for th in threads)
        if stuck:
            lecture.errors[f"{stuck} student thread(s) still running at the end"] += 1
        rss_end, hwm = read_rss_kb(pid)
    return {"config": config, "lecture": lecture, "elapsed": elapsed, "rss_start": rss_start,
            "rss_end": rss_end, "hwm": hwm, "client_cpu": time.process_time() - cpu0}


def report(results, args):
    print_table_head(args.machine_at_start,
                     f"Lecture ({args.script}): {args.students} students on 127.0.0.1, one slider move each "
                     f"~{args.interval:g} s (×0.5..1.5), {args.duration:g} s; budget: 0 errors, p95 move latency <= "
                     f"{BUDGET_P95_MS:.0f} ms",
                     f"{'config':<26} {'moves':>6} {'reruns/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} "
                     f"{'open p95':>8} {'late':>5} {'errors':>6} {'RSS start':>9} {'RSS end':>8} {'peak RSS':>8}  ")
    failed = False
    for r in results:
        lec = r["lecture"]
        ms = [t * 1e3 for _, t in lec.moves]
        loads = [t * 1e3 for t in lec.loads]
        n_err = sum(lec.errors.values())
        p95 = percentile(ms, 95)
        ok = n_err == 0 and ms and p95 <= BUDGET_P95_MS
        failed |= not ok
        label = " ".join(CONFIGS[r["config"]])
        label = f"empty app, {r['config']}" if args.empty else label
        print(f"{label:<26} {len(ms):6d} {(len(ms) + len(loads)) / r['elapsed']:8.1f} {percentile(ms, 50):7.0f} {p95:7.0f} "
              f"{max(ms, default=float('nan')):7.0f} {percentile(loads, 95):8.0f} {lec.late:5d} {n_err:6d} "
              f"{r['rss_start'] / 1024:7.0f}MB {r['rss_end'] / 1024:6.0f}MB {r['hwm'] / 1024:6.0f}MB  "
              f"{'PASS' if ok else 'FAIL'}")
    for r in results:
        lec = r["lecture"]
        by_page = {}
        for stem, t in lec.moves:
            by_page.setdefault(stem, []).append(t * 1e3)
        print(f"\n{r['config']}: this client used {r['client_cpu']:.1f} s of CPU in {r['elapsed']:.0f} s; per page (ms) "
              + "   ".join(
            f"{stem}: n={len(v)} p50={percentile(v, 50):.0f} p95={percentile(v, 95):.0f}"
            for stem, v in sorted(by_page.items())))
        for what, count in lec.errors.most_common(10):
            print(f"  error ×{count}: {what}")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of slider moves")
    parser.add_argument("--interval", type=float, default=2.0, help="mean seconds between one student's moves")
    parser.add_argument("--ramp", type=float, default=5.0, help="students join spread over this many seconds")
    parser.add_argument("--timeout", type=float, default=30.0, help="a rerun slower than this is an error")
    parser.add_argument("--configs", default="gc,nogc", help="comma-separated: gc (Streamlit's default), nogc (the app's)")
    parser.add_argument("--pages", default="", help="comma-separated page numbers, e.g. 2,3 (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--empty", action="store_true",
                        help="drive bench/empty_app.py instead: the harness's own floor on this machine")
    args = parser.parse_args()
    args.machine_at_start = machine_state()
    args.script = "bench/empty_app.py" if args.empty else "app.py"
    configs = [c.strip() for c in args.configs.split(",") if c.strip()]
    if not 1 <= args.students <= 300 or not 1 <= args.duration <= 600 or not 0.2 <= args.interval <= 60:
        parser.error("--students must be in 1..300, --duration in 1..600 s, --interval in 0.2..60 s")
    if not 1 <= args.timeout <= 120 or not 0 <= args.ramp <= 120 or any(c not in CONFIGS for c in configs):
        parser.error(f"--timeout in 1..120 s, --ramp in 0..120 s, --configs from {', '.join(CONFIGS)}")
    pages = [("empty_app", "")] if args.empty else app_pages()
    if args.pages and not args.empty:
        wanted = {s.strip() for s in args.pages.split(",")}
        pages = [p for p in pages if p[0].split("_")[0] in wanted]
    if not pages:
        parser.error("no pages to open")
    results = [run_lecture(config, pages, args) for config in configs]
    return 1 if report(results, args) else 0


if __name__ == "__main__":
    sys.exit(main())
