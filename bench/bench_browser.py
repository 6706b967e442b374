"""Slider move → redrawn figure in headless Chromium, page by page, against the floor app (one slider, one figure).

Starts Streamlit servers on free loopback ports — the real app (one server for each way it is served, below),
bench/one_figure_app.py and bench/empty_app.py (one slider, one line of text) — and drives Debian's Chromium through
Playwright. On each page it
focuses the first enabled main-area slider whose one-step move redraws a figure, presses the arrow
key towards the longer side of its range, and times from the keydown to the last figure drawn, once the rerun has
finished and nothing has changed for SETTLE_S. That one-step probe is the first move after the page
loaded and is not timed; every later move is. Figures are polled every animation frame. The app's chart
element (lab/live_chart.py) counts its finished draws in the div's data-kl-draws attribute, set when
its Plotly.react has resolved: a figure is drawn when that count goes up (a chart whose figure did not
change is not redrawn, so it does not count). Any other Plotly div (the floor app's st.plotly_chart) is
fingerprinted by its Plotly data and shapes/annotations/title (long arrays sampled), recomputed whenever
Plotly swaps the div's data or layout object. For the empty app it is the text st.write prints.

Moves keep going the same way (new values, so the page's caches miss as they do for a student).
A move that leaves every figure as it was (e.g. C past the point where no α is bounded) is counted
in `still` (its run end still counts in `run end`), has no redraw to time, and turns the direction round
if the move before it redrew; the end of the range turns it round too. The empty app
is measured before and after the pages; its median over both batches is the reference.

`run end`: median ms from the keydown to the end of the script run (the app's script state going
back to notRunning) for every timed move; what is left after it is transfer and Plotly drawing.

`new`: median count of Plotly charts mounted anew (a new chart div) by a move that redrew. Streamlit 1.67
keys a plotly_chart's React element by an id hashed from its whole spec, so a chart whose figure changed is
unmounted and drawn from scratch (Plotly.newPlot); the app's chart element keeps its div and redraws it
with Plotly.react, so on the app's pages this should be 0 (the floor app stays on st.plotly_chart: 1).

A move counts as a rerun when the server sent any message after the keydown (a run served from the
caches can finish between two frames, so the script-state attribute is not always seen to change).

Each page is timed three ways in one run (--serve): serve.py at the root and under a path prefix (as behind a
shared proxy), whose live routes answer a move before its rerun, and app.py alone, whose rerun draws every move.
Budget: served with the routes, each page's median ≤ 1 × the floor app's median; without them, every move drawn,
no console error and at most one route request per page load. The floor, bench/one_figure_app.py (one slider
moving one 10-point Plotly figure with st.plotly_chart), is the cost of any slider-to-figure redraw in
Streamlit before a page computes or draws anything of its own; the empty one-slider app is shown for
information. Both are timed in two halves, before and after the pages, so a drift of the machine's speed
during the run reaches them as it reaches the pages.

Then, on a page with a decision plot that has a route, --clicks cycles of a click that adds a point, a drag of it and
a double-click that removes it, each timed from the pointer going down to the last redraw in the same way: budget,
served with the routes, their median ≤ 2 × the floor app's median.

    python bench/bench_browser.py [--moves 7] [--clicks 3] [--pages 2,3] [--serve root,prefix,no routes]

Exits 1 when a page fails the budget, shows an exception box or dialog, or never redraws.
"""

import argparse
import math
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from lab.background import WAITING  # noqa: E402
PYTHON = sys.executable
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
BUDGET_RATIO = 1.0
POINTER_BUDGET_RATIO = 2.0   # a click, drag or double-click on a decision plot
SETTLE_S = 0.5  # script not running and nothing changed for this long: the move is done
MOVE_TIMEOUT_S = 30.0
PROBE_TIMEOUT_S = 15.0
LOAD_TIMEOUT_S = 120.0
MAX_PROBED_SLIDERS = 6

# Installed before the app's own scripts. window.__bench keeps the performance.now() of every
# observed change of the watched content (changes), of every end of a script run (finished: the
# app's data-test-script-state going back to notRunning) and of the last keydown.
WATCHER_JS = """
(() => {
  const mode = "%MODE%";
  const bench = window.__bench = {changes: [], finished: [], messages: [], mounts: [], keydown: null, fp: null};
  const keep = (list, t) => { list.push(t); if (list.length > 200) list.splice(0, 100); };
  // a key pressed or a pointer put down: the start of the move timed
  document.addEventListener("keydown", () => { bench.keydown = performance.now(); }, true);
  document.addEventListener("pointerdown", () => { bench.keydown = performance.now(); }, true);
  // every message from the server: a rerun that changes nothing on screen still sends some
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => keep(bench.messages, performance.now()));
    }
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.oldValue === "running" && r.target.getAttribute(r.attributeName) === "notRunning") {
        keep(bench.finished, performance.now());
      }
    }
  }).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                        attributeFilter: ["data-test-script-state"]});
  const sampled = (key, v) => {
    if (ArrayBuffer.isView(v) || (Array.isArray(v) && v.length > 32)) {
      const n = v.length, out = [n];
      for (let i = 0; i < 16; i++) out.push(v[Math.floor(i * (n - 1) / 15)]);
      return out;
    }
    return v;
  };
  const seen = new WeakMap();
  const plotlyPart = (gd) => {
    let s = seen.get(gd);
    if (!s && bench.fp !== null) keep(bench.mounts, performance.now());  // a new chart div: mounted anew
    const drawn = gd.getAttribute("data-kl-draws");
    if (drawn !== null) {  // the app's chart element: its count of finished Plotly.react calls
      if (!s) seen.set(gd, {});
      return "drawn " + drawn;
    }
    if (!s || s.data !== gd.data || s.layout !== gd.layout) {
      let fp;
      try {
        const lay = gd.layout || {};
        fp = JSON.stringify([gd.data, lay.shapes, lay.annotations, lay.title], sampled);
      } catch (e) { fp = "unreadable:" + performance.now(); }
      s = {data: gd.data, layout: gd.layout, fp: fp};
      seen.set(gd, s);
    }
    return s.fp;
  };
  const fingerprint = () => {
    if (mode === "text") {
      return [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMarkdown"]')]
        .map((e) => e.textContent).join("|");
    }
    return [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')].map(plotlyPart).join("|");
  };
  const poll = () => {
    const fp = fingerprint();
    if (fp !== bench.fp) { bench.fp = fp; keep(bench.changes, performance.now()); }
  };
  const frame = () => { poll(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  setInterval(poll, 10);  // in case frames are throttled
})();
"""

STATE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return {state: app ? app.getAttribute("data-test-script-state") : null,
          changes: window.__bench.changes.slice(-1), finished: window.__bench.finished.slice(-1),
          messages: window.__bench.messages.slice(-1), mounts: window.__bench.mounts.slice(),
          keydown: window.__bench.keydown,
          now: performance.now(), exceptions: document.querySelectorAll('[data-testid="stException"]').length
            + document.querySelectorAll('[role="dialog"]').length};
}"""


def machine_state():
    """What to compare the end of a run with: the time, the 1-min load average and /proc/stat's CPU jiffies."""
    try:
        with open("/proc/stat") as f:
            jiffies = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        jiffies = None
    return os.getloadavg()[0], jiffies


def machine_over(start):
    """(1-min load average at start, at end, CPU steal in % of the run or None) over a run begun at `start`
    (machine_state()). Steal is the CPU time the host took for other guests: on a shared virtual machine
    that, not the app, can double a latency."""
    load, jiffies = machine_state()
    steal = None
    if start[1] and jiffies and len(jiffies) > 7:
        delta = [b - a for a, b in zip(start[1], jiffies)]
        steal = 100 * delta[7] / max(1, sum(delta[:8]))
    return start[0], load, steal


def machine_line(start):
    """The machine over a run begun at `start` (machine_state()): load average and CPU steal."""
    load0, load1, steal = machine_over(start)
    steal = "" if steal is None else f", CPU steal {steal:.0f} % of the run"
    return (f"1-min load average: {load0:.1f} at start, {load1:.1f} at end, on {os.cpu_count()} cores{steal} "
            "(other work on the machine skews every number)")


def print_table_head(start, title, head):
    """The machine over the run (machine_line), the table's title, its column heads and a rule under them."""
    print(machine_line(start))
    print(title)
    print(head)
    print("-" * len(head))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url, proc, log_path, what, timeout):
    """Wait until `url`/_stcore/health answers "ok"; RuntimeError with the end of the log at `log_path` if
    `proc` exits first or `timeout` s pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited: {Path(log_path).read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"{what} did not answer at {url} within {timeout:.0f} s: {Path(log_path).read_text()[-2000:]}")


class Server:
    """`streamlit run script [options]` on a free loopback port, under the path `base` where one is given (as behind a
    shared proxy: server.baseUrlPath); stopped (and its log removed) on exit."""

    def __init__(self, script, *options, base=""):
        self.script = script
        self.base = base
        self.options = [*options, *(("--server.baseUrlPath", base) if base else ())]
        self.port = free_port()
        self.log = tempfile.NamedTemporaryFile(prefix="bench_browser_", suffix=".log", delete=False)
        self.proc = None

    def __enter__(self):
        cmd = [PYTHON, "-m", "streamlit", "run", self.script, "--server.port", str(self.port),
               "--server.address", "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false",
               "--server.fileWatcherType", "none", "--server.runOnSave", "false", *self.options]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        wait_healthy(self.url, self.proc, self.log.name, self.script, LOAD_TIMEOUT_S)
        return self

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}" + (f"/{self.base}" if self.base else "")

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log.close()
        os.unlink(self.log.name)


def app_page_entries():
    """(name: the lesson's number and folder, url path, script path) of the lessons app.py routes to
    (lessons/registry.py), in order."""
    from lessons.registry import LESSONS

    return [(f"{lesson.number}_{Path(lesson.script).parent.name}", lesson.slug, lesson.script) for lesson in LESSONS]


# views a page opens in from its link, benched like pages: (name, url path with its query, page file, settings)
VIEWS = [("3_primal_dual·heatmap", "primal-dual?pd_space=kernel&pd_cv=true", "lessons/primal_dual/page.py",
          {"pd_space": "kernel", "pd_cv": True}),
         ("3_primal_dual·1-vs-rest", "primal-dual?dataset=blobs3&pd_space=kernel", "lessons/primal_dual/page.py",
          {"dataset": "blobs3", "pd_space": "kernel"})]


def selected_pages(numbers=""):
    """(name, url path) of the pages and VIEWS to bench; numbers: comma-separated page numbers ("" for all)."""
    pages = app_pages() + [(name, url) for name, url, _, _ in VIEWS]
    if numbers:
        wanted = {s.strip() for s in numbers.split(",")}
        pages = [p for p in pages if p[0].split("_")[0] in wanted]
    return pages


# how the app is served: (name, main script, base path). serve.py answers a move from its live routes, at the root
# and under a path prefix; app.py alone has no routes, and the rerun draws every move
SERVED = {"root": ("serve.py", ""), "prefix": ("serve.py", "kernel-lab"), "no routes": ("app.py", "")}


def page_args(doc, moves, moves_help, serve=False):
    """The browser benches' command line, --moves (default `moves`, 1..50), --pages and, with `serve`, --serve: (its
    arguments, the machine's state at the start, the selected pages)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=moves, help=moves_help)
    parser.add_argument("--pages", default="", help="comma-separated page numbers, e.g. 2,3 (default: all)")
    if serve:
        parser.add_argument("--serve", default=",".join(SERVED),
                            help=f"comma-separated ways to serve the app, of {', '.join(SERVED)} (default: all)")
        parser.add_argument("--clicks", type=int, default=3, help="cycles of a click, a drag and a double-click "
                            "on each page's decision plot with a route (0: none)")
    args = parser.parse_args()
    if not 1 <= args.moves <= 50:
        parser.error("--moves must be in 1..50")
    if serve and not set(args.serve.split(",")) <= set(SERVED):
        parser.error(f"--serve takes {', '.join(SERVED)}")
    return args, machine_state(), selected_pages(args.pages)


def app_pages():
    """(name, url path) of the app's pages, in order."""
    return [(name, url) for name, url, _ in app_page_entries()]


def wait_loaded(page, mode):
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=LOAD_TIMEOUT_S * 1e3)
    if mode == "plotly":
        page.wait_for_selector('[data-testid="stMain"] .js-plotly-plot', timeout=LOAD_TIMEOUT_S * 1e3)
        # a view whose result is computed in the background (lab/background.py) is loaded when it is drawn
        page.wait_for_selector(f".st-key-{WAITING}", state="detached", timeout=LOAD_TIMEOUT_S * 1e3)
    settle(page, after=None, timeout=MOVE_TIMEOUT_S)


def settle(page, after, timeout):
    """Wait until a script run has finished after time `after` (page clock; None: no run needed),
    the app is not running, and the watched content has been still for SETTLE_S; or `timeout` s.
    Returns the page state at that point."""
    deadline = time.monotonic() + timeout
    while True:
        s = page.evaluate(STATE_JS)
        events = s["changes"] + s["finished"] + s["messages"]
        quiet = not events or s["now"] - max(events) > SETTLE_S * 1e3
        ran = after is None or any(t > after for t in events)
        if (s["state"] == "notRunning" and quiet and ran) or time.monotonic() > deadline:
            return s
        time.sleep(0.05)


def step(page, slider, key, timeout):
    """Press `key` on the slider (turned round at the end of its range) and wait for the rerun.
    Returns ((ms from keydown to the last redraw or None when nothing redrew, ms from keydown to the
    end of the script run or None, Plotly charts mounted anew), key used, issues)."""
    value, low, top = slider.evaluate("e => [Number(e.value), Number(e.min), Number(e.max)]")
    if (key == "ArrowRight" and value >= top) or (key == "ArrowLeft" and value <= low):
        key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
    slider.focus()
    page.keyboard.press(key)
    keydown = page.evaluate("() => window.__bench.keydown")
    s = settle(page, after=keydown, timeout=timeout)
    issues = [f"{s['exceptions']} exception box(es) or dialog(s)"] if s["exceptions"] else []
    if not any(t > keydown for t in s["finished"] + s["changes"] + s["messages"]):
        issues.append(f"no rerun within {timeout:.0f} s")
    redrawn = s["changes"] and s["changes"][-1] > keydown
    done = s["finished"][-1] - keydown if s["finished"] and s["finished"][-1] > keydown else None
    mounted = sum(t > keydown for t in s["mounts"])
    return ((s["changes"][-1] - keydown if redrawn else None), done, mounted), key, issues


def choose_slider(page):
    """The first enabled main-area slider whose one-step move redraws a figure (that move is not timed): (slider
    locator or None, the key that moved it, issues seen)."""
    # Streamlit's sliders, and the live sections' (lab/live_control.py, drawn by the chart element)
    sliders = page.locator('[data-testid="stMain"] :is([data-testid="stSlider"], .kl-control) '
                           'input[type="range"]:not([disabled])')
    key, issues = None, []
    for i in range(min(sliders.count(), MAX_PROBED_SLIDERS)):
        value, low, top = sliders.nth(i).evaluate("e => [Number(e.value), Number(e.min), Number(e.max)]")
        roomy, other = ("ArrowLeft", "ArrowRight") if value - low > top - value else ("ArrowRight", "ArrowLeft")
        # towards the longer side of the range; if nothing redrew, back and one step the other way
        for probe in (roomy, other, other):
            (latency, _, _), key, found = step(page, sliders.nth(i), probe, PROBE_TIMEOUT_S)
            issues += found
            if latency is not None:
                return sliders.nth(i), key, issues
    return None, key, issues


# the plot area of the page's first decision plot with a live route (lab/live_chart.js, mode "boundary"), scrolled
# into view: [left, top, width, height] on the screen, or null
BOUNDARY_JS = """() => {
  const chart = [...document.querySelectorAll('[data-testid="stMain"] .kl-chart')]
    .map((el) => el.parentElement.__klChart).find((c) => c && c.options.mode === "boundary" && c.options.live);
  if (!chart) return null;
  chart.root.scrollIntoView({block: "center"});
  const xa = chart.gd._fullLayout.xaxis, ya = chart.gd._fullLayout.yaxis, r = chart.gd.getBoundingClientRect();
  return [r.left + xa._offset, r.top + ya._offset, xa._length, ya._length];
}"""


def pointer_moves(page, cycles):
    """On the page's decision plot with a route, `cycles` times: a click that adds a point, a drag of that point and a
    double-click that removes it, each waited for as a slider move is. (ms from the pointer going down to the last
    redraw, for each of them that redrew; issues)."""
    times, issues = [], []

    def timed(action, what):
        action()
        pressed = page.evaluate("() => window.__bench.keydown")
        s = settle(page, after=pressed, timeout=MOVE_TIMEOUT_S)
        if s["exceptions"]:
            issues.append(f"{s['exceptions']} exception box(es) or dialog(s)")
        if s["changes"] and s["changes"][-1] > pressed:
            times.append(s["changes"][-1] - pressed)
        else:
            issues.append(f"{what} drew nothing")

    for k in range(cycles):
        box = page.evaluate(BOUNDARY_JS)
        if box is None:
            return times, issues
        page.wait_for_timeout(300)   # scrolled
        left, top, width, height = page.evaluate(BOUNDARY_JS)
        # on a ring of positions around the plot's centre, so each click is a new point
        x = left + width * (0.5 + 0.3 * math.cos(2 * math.pi * k / cycles))
        y = top + height * (0.5 + 0.3 * math.sin(2 * math.pi * k / cycles))
        timed(lambda: page.mouse.click(x, y), f"click {k + 1}")
        to = (x + 0.08 * width, y + 0.06 * height)

        def drag():
            page.mouse.move(x, y)
            page.mouse.down()
            for j in range(1, 7):
                page.mouse.move(x + (to[0] - x) * j / 6, y + (to[1] - y) * j / 6)
            page.mouse.up()
        timed(drag, f"drag {k + 1}")
        timed(lambda: page.mouse.dblclick(*to), f"double-click {k + 1}")
    return times, issues


def app_error(message, origin):
    """The text of a console error the lab made, or None for one Streamlit's own frontend makes on any app: its probe
    of the base path (a 404 for <page>/_stcore/health and host-config) and the favicon it loads from Google's fonts
    (unreachable offline)."""
    url = message.location.get("url", "")
    if message.type != "error" or "/_stcore/" in url or (url and not url.startswith(origin)):
        return None
    return message.text


# the live route requests the page made since it loaded
ROUTE_REQUESTS_JS = "() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/live/')).length"


def measure(browser, url, mode, moves, routes=True, pointer=0):
    """One page: (slider label, redraw ms, run-end ms of those moves, charts mounted anew in each of those
    moves, count of moves that redrew nothing, issues, redraw ms of each click, drag and double-click: `pointer`
    cycles of pointer_moves where the page has a decision plot with a route). Every console error is an issue;
    routes=False (a server without the live routes): so is more than one route request while the page is open."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    errors = []
    try:
        context.add_init_script(WATCHER_JS.replace("%MODE%", mode))
        page = context.new_page()
        origin = "/".join(url.split("/")[:3])
        page.on("console", lambda message: errors.append(app_error(message, origin)))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url, timeout=LOAD_TIMEOUT_S * 1e3)
        wait_loaded(page, mode)
        chosen, key, issues = choose_slider(page)
        if chosen is None:
            return None, [], [], [], 0, sorted(set(issues + ["no main-area slider redraws the page"])), []
        label = chosen.evaluate("(e) => e.getAttribute('aria-label') || (e.labels[0] || {}).textContent") or "?"
        times, dones, mounts, still, last_redrew = [], [], [], 0, True
        for _ in range(moves):
            (latency, done, mounted), key, found = step(page, chosen, key, MOVE_TIMEOUT_S)
            issues += found
            if done is not None:
                dones.append(done)
            if latency is not None:
                mounts.append(mounted)
            if latency is None:
                still += 1
                if last_redrew:  # the figure went flat this way: go back the other way (once)
                    key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
            else:
                times.append(latency)
            last_redrew = latency is not None
        clicks, found = pointer_moves(page, pointer) if pointer else ([], [])
        issues += found
        issues += [f"console error: {text.splitlines()[0][:120]}" for text in errors if text]
        asked = page.evaluate(ROUTE_REQUESTS_JS)
        if not routes and asked > 1:
            issues.append(f"{asked} route requests on a server without the routes")
        return label, times, dones, mounts, still, sorted(set(issues)), clicks
    finally:
        context.close()


def measure_pages(browser, app, pages, moves, routes, pointer):
    """(name, label, times, dones, mounts, still, issues, clicks) of each page of `app` (a running Server)."""
    # The instructor opens the app first: the server's imports are done before the clock starts.
    warm = browser.new_page()
    warm.goto(f"{app.url}/{pages[0][1]}", timeout=LOAD_TIMEOUT_S * 1e3)   # the root is the landing page
    warm.wait_for_selector('[data-testid="stMain"] .js-plotly-plot', timeout=LOAD_TIMEOUT_S * 1e3)
    warm.close()
    rows = []
    for name, url in pages:
        try:
            # with the heatmap shown a new point also restarts its grid in the background (lab/background.py): the
            # last redraw of a click there is the grid's, timed by bench_cv.py, not the route's
            cycles = 0 if "·heatmap" in name else pointer
            rows.append((name, *measure(browser, f"{app.url}/{url}", "plotly", moves, routes, cycles)))
        except Exception as exc:  # a page that cannot be driven is a failure row
            rows.append((name, None, [], [], [], 0, [f"{type(exc).__name__}: {str(exc).splitlines()[0]}"], []))
    return rows


def main():
    args, start, pages = page_args(__doc__, 7, "timed slider moves per page (median)", serve=True)
    served = args.serve.split(",")

    from playwright.sync_api import sync_playwright  # here, so bench_lecture can reuse Server without it

    with Server("bench/empty_app.py") as empty, Server("bench/one_figure_app.py") as floor_app, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            first = args.moves // 2 + 1
            _, empty_times, empty_dones, _, _, empty_err, _ = measure(browser, empty.url, "text", first)
            _, floor_times, floor_dones, floor_mounts, floor_still, floor_err, _ = measure(browser, floor_app.url,
                                                                                         "plotly", first)
            rows = {}
            for how in served:
                script, base = SERVED[how]
                with Server(script, base=base) as app:
                    rows[how] = measure_pages(browser, app, pages, args.moves, routes=script == "serve.py",
                                              pointer=args.clicks)
            _, more, more_dones, _, _, more_err, _ = measure(browser, empty.url, "text", args.moves - first + 1)
            _, floor_more, floor_more_dones, floor_more_mounts, floor_more_still, floor_more_err, _ = measure(
                browser, floor_app.url, "plotly", args.moves - first + 1)
        finally:
            browser.close()

    empty_times += more
    empty_dones += more_dones
    empty_err = sorted(set(empty_err + more_err))
    floor_times += floor_more
    floor_dones += floor_more_dones
    floor_mounts += floor_more_mounts
    floor_still += floor_more_still
    floor_err = sorted(set(floor_err + floor_more_err))
    med = lambda xs: statistics.median(xs) if xs else float("nan")  # noqa: E731
    ref = med(floor_times)
    print_table_head(start, f"Headless Chromium, slider keydown → last redraw of the page's figures; median of "
                            f"{args.moves} moves; budget, served with the live routes (at the root and under "
                            f"/{SERVED['prefix'][1]}/): median <= {BUDGET_RATIO:g} × the floor app; without them "
                            "(app.py): every move drawn, no console error, at most one route request",
                     f"{'served / page':<31} {'median ms':>9} {'min':>6} {'max':>6} {'run end':>7} {'new':>3} "
                     f"{'still':>5} {'× floor':>7}  {'':4}  slider / issues")
    print(f"{'empty one-slider app':<31} {med(empty_times):9.0f} {min(empty_times, default=float('nan')):6.0f} "
          f"{max(empty_times, default=float('nan')):6.0f} {med(empty_dones):7.0f} {'':3} {'':5} "
          f"{med(empty_times) / ref:7.2f}  info  value  {'; '.join(empty_err)}")
    print(f"{'floor: 1 slider, 1 fig':<31} {ref:9.0f} {min(floor_times, default=float('nan')):6.0f} "
          f"{max(floor_times, default=float('nan')):6.0f} {med(floor_dones):7.0f} {med(floor_mounts):3.0f} "
          f"{floor_still:5d} {1.0:7.2f}  {'':4}  value  {'; '.join(floor_err)}")
    failed = bool(floor_err) or not floor_times
    for how, page_rows in rows.items():
        for name, label, times, dones, mounts, still, issues, clicks in page_rows:
            row = f"{how} · {name}"
            if not times:
                print(f"{row:<31} {'-':>9} {'-':>6} {'-':>6} {'-':>7} {'-':>3} {still:5d} {'-':>7}  FAIL  "
                      f"{label or ''}  {'; '.join(issues)}")
                failed = True
                continue
            ok = not issues and (how == "no routes" or med(times) <= BUDGET_RATIO * ref)
            failed |= not ok
            print(f"{row:<31} {med(times):9.0f} {min(times):6.0f} {max(times):6.0f} {med(dones):7.0f} "
                  f"{med(mounts):3.0f} {still:5d} {med(times) / ref:7.2f}  {'PASS' if ok else 'FAIL'}  {label}  "
                  f"{'; '.join(issues)}")
            if clicks:
                ok = how == "no routes" or med(clicks) <= POINTER_BUDGET_RATIO * ref
                failed |= not ok
                print(f"{'  clicks, drags, deletes':<31} {med(clicks):9.0f} {min(clicks):6.0f} {max(clicks):6.0f} "
                      f"{'':7} {'':3} {'':5} {med(clicks) / ref:7.2f}  {'PASS' if ok else 'FAIL'}  "
                      f"{len(clicks)} on the decision plot")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
