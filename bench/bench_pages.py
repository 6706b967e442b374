"""Server time per rerun and figure payload, page by page, against an empty one-slider app.

Each page runs under streamlit.testing.v1.AppTest the way the router serves it: app.py, then
switch_page to the lesson. One run warms the caches; then the script is rerun `--repeats` times at
default settings and the median wall time is the page's server time per rerun (budget: 60 ms).
bench/empty_app.py (one slider, one line of text) is timed the same way, so the `× empty` column
says what a page costs on top of Streamlit's own rerun.

One difference between AppTest and the server is removed first (see match_server): AppTest
compiles every script anew on every run, the server once per process.

Informational, not budgeted:
- `ws ms`: the same median on a real `streamlit run app.py`, through its websocket (one session,
  send rerun_script → script_finished, as bench_lecture.Session does). It also holds Streamlit's
  post-run gc.collect(2): script_finished goes out on the event-loop thread, which waits for the
  GIL the collecting script thread holds. `ws noGC`: the same with --runner.postScriptGC false.
- `move ms`: the median rerun right after one main-area slider moves one step (a value not seen
  before, so the page's caches miss) — what a student's slider move costs the server.

Payload: the message of every chart element on the page at default settings (lab/live_chart.py: a line
of options and the figure's JSON), what travels to the browser (budget: 150 KB = 150,000 bytes per figure).

    python bench/bench_pages.py [--repeats 10] [--moves 4] [--pages 2,3]

Exits 1 when a page fails a budget or raises.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import streamlit.testing.v1.app_test as app_test_module
import streamlit.testing.v1.local_script_runner as local_runner_module
from streamlit.runtime.scriptrunner.script_cache import ScriptCache
from streamlit.testing.v1 import AppTest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import VIEWS, Server, app_page_entries, app_pages, machine_state, print_table_head  # noqa: E402
from bench_lecture import Session, StudentError, warm_up  # noqa: E402
from lab import background  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BUDGET_MS = 60.0
BUDGET_BYTES = 150_000
TIMEOUT_S = 120


def match_server():
    """Make AppTest compile scripts the way a running server does: once.

    The server keeps one ScriptCache for its lifetime; AppTest makes a new one per run, so it would
    time compiling app.py and the page (with Streamlit's magic AST pass) on every rerun.
    """
    shared = ScriptCache()
    app_test_module.ScriptCache = lambda: shared
    local_runner_module.ScriptCache = lambda: shared


def websocket_times(script, pages, repeats, *options, timeout=120, pause=0.5):
    """Median ms of `repeats` reruns at default settings per (stem, url path), on a real server.

    Reruns are `pause` s apart: the server sends script_finished before its post-run
    gc.collect(2), so a rerun sent at once would also time the previous run's collection.
    """
    out = {}
    with Server(script, *options) as server:
        warm_up(server.port, pages, timeout, need_cookie=False)
        for stem, url_path in pages:
            session = Session(server.port, url_path, timeout)
            times = []
            try:
                session.connect()
                session.rerun()
                for _ in range(repeats):
                    time.sleep(pause)
                    times.append(session.rerun() * 1e3)
                out[stem] = statistics.median(times)
            except StudentError as exc:
                out[stem] = f"{exc}"
            finally:
                session.close()
    return out


def page_files():
    """The lesson pages app.py routes to, in lesson order, as paths relative to app.py."""
    return [path for _, _, path in app_page_entries()]


def timed_run(at):
    t0 = time.perf_counter()
    at.run()
    return (time.perf_counter() - t0) * 1e3


def errors_of(at):
    """Exception boxes on the page, as short strings."""
    return [e.message.splitlines()[0] if e.message else "exception" for e in at.exception]


def next_value_slider(w):
    """One step up (or down at the top) for st.slider; None for range sliders."""
    v = w.value
    if isinstance(v, (tuple, list)):
        return None
    step = w.step
    return v + step if v + step <= w.max else v - step


def next_value_select(w):
    """The neighbouring option of an st.select_slider, as a value its format_func maps back to
    the option's label (the labels are all the test tree knows); None when that cannot be done."""
    fmt = w.format_func
    v = w.value
    if isinstance(v, (tuple, list)):
        return None
    try:
        i = w.options.index(fmt(v))
    except ValueError:
        return None
    label = w.options[i + 1] if i + 1 < len(w.options) else w.options[i - 1]
    for cast in (int, float, str):
        try:
            candidate = cast(label)
        except ValueError:
            continue
        if fmt(candidate) == label:
            return candidate
    return None


def movable_sliders(at):
    """(kind, index) of the enabled main-area sliders a student could move."""
    out = []
    for i, w in enumerate(at.main.slider):
        if not w.disabled:
            out.append(("slider", i))
    for i, w in enumerate(at.main.select_slider):
        if not w.disabled:
            out.append(("select_slider", i))
    return out


def move_times(at, moves):
    """Time reruns after one-step moves of up to `moves` different main-area sliders."""
    times = []
    for kind, i in movable_sliders(at)[:moves]:
        widgets = at.main.slider if kind == "slider" else at.main.select_slider
        if i >= len(widgets):  # a previous move removed this widget
            continue
        w = widgets[i]
        new = next_value_slider(w) if kind == "slider" else next_value_select(w)
        if new is None:
            continue
        w.set_value(new)
        times.append(timed_run(at))
    return times


def bench(script, page, repeats, moves, settings=None):
    """Median warm rerun (ms), move reruns (ms), figure sizes (bytes), errors. settings: controls set (one rerun
    each) after the page opened, as a view's link sets them."""
    at = AppTest.from_file(str(ROOT / script), default_timeout=TIMEOUT_S)
    at.run()
    if page is not None:
        at.switch_page(page)
        at.run()  # first visit of the page: fills its caches
    for key, value in (settings or {}).items():
        at.get_by_key(key).set_value(value).run()
    while background.pending():     # a view computed in the background: timed once it is drawn
        time.sleep(0.1)
        at.run()
    at.run()
    errors = errors_of(at)
    warm = [timed_run(at) for _ in range(repeats)]
    errors += errors_of(at)
    sizes = [len(chart.proto.bytes) for chart in at.get("bidi_component")]
    moved = move_times(at, moves)
    errors += errors_of(at)
    return statistics.median(warm), moved, sizes, sorted(set(errors))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=10, help="timed reruns per page (median)")
    parser.add_argument("--moves", type=int, default=4, help="main-area sliders moved one step each (info)")
    parser.add_argument("--pages", default="", help="comma-separated page numbers, e.g. 2,3 (default: all)")
    parser.add_argument("--no-server", action="store_true", help="skip the websocket column")
    args = parser.parse_args()
    start = machine_state()
    if not 1 <= args.repeats <= 100 or not 0 <= args.moves <= 20:
        parser.error("--repeats must be in 1..100 and --moves in 0..20")

    pages = page_files()
    if args.pages:
        wanted = {s.strip() for s in args.pages.split(",")}
        pages = [p for p in pages if Path(p).name.split("_")[0] in wanted]

    match_server()
    results = {"empty one-slider app": bench("bench/empty_app.py", None, args.repeats, 1)}
    for page in pages:
        try:
            results[Path(page).stem] = bench("app.py", page, args.repeats, args.moves)
        except Exception as exc:  # a page that cannot even be run is a failure row, not a crash
            results[Path(page).stem] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    for name, _, page, settings in VIEWS:
        if page in pages:
            try:
                results[name] = bench("app.py", page, args.repeats, args.moves, settings)
            except Exception as exc:
                results[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    ws, ws_nogc = {}, {}
    if not args.no_server:
        routed = [(stem, url) for stem, url in app_pages() if stem in results]
        empty = [("empty one-slider app", "")]
        nogc = ("--runner.postScriptGC", "false")
        ws = {**websocket_times("app.py", routed, args.repeats),
              **websocket_times("bench/empty_app.py", empty, args.repeats)}
        ws_nogc = {**websocket_times("app.py", routed, args.repeats, *nogc),
                   **websocket_times("bench/empty_app.py", empty, args.repeats, *nogc)}

    empty_ms = results["empty one-slider app"][0]
    print_table_head(start, f"AppTest (as the server runs scripts), median of {args.repeats} reruns after one warm-up "
                            f"run; budgets: rerun <= {BUDGET_MS:.0f} ms, each figure <= {BUDGET_BYTES:,} bytes",
                     f"{'page':<22} {'rerun ms':>8} {'× empty':>7} {'ws ms':>6} {'ws noGC':>7} {'move ms':>7} "
                     f"{'figs':>4} {'max fig B':>9} {'all figs B':>10}  {'time':<4}  {'size':<4}  "
                     "figure bytes / errors")
    failed = False
    for name, r in results.items():
        if isinstance(r, str):
            print(f"{name:<22} {'-':>8} {'-':>7} {'-':>6} {'-':>7} {'-':>7} {'-':>4} {'-':>9} "
                  f"{'-':>10}  FAIL  FAIL  {r}")
            failed = True
            continue
        ms, moved, sizes, errors = r
        move = statistics.median(moved) if moved else float("nan")
        w, wn = ws.get(name, float("nan")), ws_nogc.get(name, float("nan"))
        w = f"{w:6.1f}" if isinstance(w, float) else f"{'err':>6}"
        wn = f"{wn:7.1f}" if isinstance(wn, float) else f"{'err':>7}"
        t_ok = ms <= BUDGET_MS and not errors
        s_ok = all(s <= BUDGET_BYTES for s in sizes)
        failed |= not (t_ok and s_ok)
        detail = ", ".join(f"{s / 1e3:.1f}k" for s in sizes)
        if errors:
            detail += "  ERRORS: " + "; ".join(errors)
        for d in (ws, ws_nogc):
            if name in d and not isinstance(d[name], float):
                detail += f"  websocket: {d[name]}"
        print(f"{name:<22} {ms:8.1f} {ms / empty_ms:7.2f} {w} {wn} {move:7.1f} {len(sizes):4d} "
              f"{max(sizes, default=0):9,d} {sum(sizes):10,d}  "
              f"{'PASS' if t_ok else 'FAIL':<4}  {'PASS' if s_ok else 'FAIL':<4}  {detail}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
