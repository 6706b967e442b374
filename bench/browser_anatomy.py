"""Where a slider move's time goes in headless Chromium: the main thread's work by kind, and React's renders.

bench_browser.py says how long a move takes; this says why. For each page (and the floor app) it moves the same
slider bench_browser.py picks, several times, with a Chrome trace running (V8's CPU samples), and splits every
move's window, keydown to last figure drawn, by what the sampled stack was running:

    react    Streamlit's frontend rendering (any frame of react-dom)
    plotly   plotly.js drawing (any frame of plotly.js, or of st.plotly_chart's bundle in the floor app)
    chart    the app's chart element itself (lab/live_chart_web/live_chart.js)
    js       any other script (message decoding, markdown, Streamlit's own code)
    native   the browser's own work outside scripts: style, layout, paint
    gc       garbage collection
    idle     the main thread waiting, for the server or the network

and counts the components React rendered in that window (through React's devtools hook: a component that
rendered in a commit is a new fiber object with its PerformedWork flag). The trace slows every move by a fifth
or so: read the columns as shares of a move, the latency column as traced.

    python bench/browser_anatomy.py [--moves 6] [--pages 2,5]

Prints a table; no budget (bench_browser.py holds it).
"""

import collections
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import (CHROMIUM, CHROMIUM_ARGS, LOAD_TIMEOUT_S, MOVE_TIMEOUT_S, WATCHER_JS, Server,  # noqa: E402
                           choose_slider, machine_line, page_args, step, wait_loaded)

CATEGORIES = ["devtools.timeline", "blink.user_timing", "disabled-by-default-v8.cpu_profiler"]
KINDS = ("react", "plotly", "chart", "js", "native", "gc", "idle")

# React calls a devtools hook after every commit: count the components that rendered in it. A component that did
# not render keeps its fiber object from the commit before; one that rendered is the other of its two fibers.
REACT_HOOK = """
(() => {
  const commits = window.__kl_commits = [];
  let previous = new WeakSet();
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), isDisabled: false,
    inject(renderer) { const id = this.renderers.size + 1; this.renderers.set(id, renderer); return id; },
    checkDCE() {}, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root) {
      const seen = new WeakSet();
      let rendered = 0;
      const stack = root.current.child ? [root.current.child] : [];
      while (stack.length) {
        const fiber = stack.pop();
        seen.add(fiber);
        if ((fiber.flags & 1) && !previous.has(fiber)) rendered += 1;
        if (fiber.sibling) stack.push(fiber.sibling);
        if (fiber.child) stack.push(fiber.child);
      }
      previous = seen;
      commits.push([performance.now(), rendered]);
      if (commits.length > 2000) commits.splice(0, 1000);
    },
  };
})();
document.addEventListener("keydown", () => performance.mark("kl-keydown"), true);
"""


def kind_of(urls):
    """The kind of work (KINDS) of one CPU sample, from the script URLs (or V8's names) of its stack, leaf first."""
    if any("react-dom" in u for u in urls):
        return "react"
    if any("plotly" in u.lower() for u in urls):
        return "plotly"
    if any("live_chart" in u for u in urls):
        return "chart"
    leaf = urls[0]
    return {"(program)": "native", "(garbage collector)": "gc", "(idle)": "idle"}.get(leaf, "js")


def samples(events, pid):
    """The CPU samples of process pid in the trace: [(trace time µs, [script URL or V8 name, leaf first])]."""
    frames, parents, out, clock = {}, {}, [], None
    for e in events:
        if e.get("pid") != pid:
            continue
        if e.get("name") == "Profile":
            clock = e["args"]["data"]["startTime"]
        elif e.get("name") == "ProfileChunk" and clock is not None:
            data = e["args"]["data"]
            for node in data.get("cpuProfile", {}).get("nodes", []):
                call = node["callFrame"]
                frames[node["id"]] = call.get("url") or call.get("functionName", "")
                if "parent" in node:
                    parents[node["id"]] = node["parent"]
            for node, delta in zip(data.get("cpuProfile", {}).get("samples", []), data.get("timeDeltas", [])):
                clock += delta
                stack = []
                while node is not None:
                    stack.append(frames.get(node, ""))
                    node = parents.get(node)
                out.append((clock, stack))
    out.sort(key=lambda s: s[0])
    return out


def anatomy(browser, url, moves):
    """One page: (slider label, traced latencies ms, {kind: ms per move}, React renders per move)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        context.add_init_script(REACT_HOOK)
        context.add_init_script(WATCHER_JS.replace("%MODE%", "plotly"))
        page = context.new_page()
        page.goto(url, timeout=LOAD_TIMEOUT_S * 1e3)
        wait_loaded(page, "plotly")
        slider, key, _ = choose_slider(page)
        if slider is None:
            return None, [], {}, []
        browser.start_tracing(page=page, categories=CATEGORIES)
        moves_seen = []   # (keydown on the page's clock, latency ms or None when nothing redrew), every move
        for _ in range(moves):
            (latency, _, _), key, _ = step(page, slider, key, MOVE_TIMEOUT_S)
            moves_seen.append((page.evaluate("() => window.__bench.keydown"), latency))
            if latency is None:
                key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
        events = json.loads(browser.stop_tracing())["traceEvents"]
        commits = page.evaluate("() => window.__kl_commits")
        label = slider.get_attribute("aria-label") or "?"
    finally:
        context.close()
    moved = [(kd, latency) for kd, latency in moves_seen if latency is not None]
    renders = [sum(n for t, n in commits if kd <= t <= kd + latency) for kd, latency in moved]
    # the trace's keydown marks (its clock, µs): the first one is the first move's keydown on the page's clock (ms)
    marks = sorted((e["ts"], e["pid"]) for e in events if e.get("name") == "kl-keydown")
    if not marks or not moved:
        return label, [], {}, renders
    offset, pid = marks[0][0] - moves_seen[0][0] * 1e3, marks[0][1]
    windows = [(kd * 1e3 + offset, (kd + latency) * 1e3 + offset) for kd, latency in moved]
    spent = collections.Counter()
    trace = samples(events, pid)
    for (t0, _), (t, stack) in zip(trace, trace[1:]):
        if any(a <= t < b for a, b in windows):
            spent[kind_of(stack)] += (t - t0) / 1e3
    return label, [latency for _, latency in moved], {k: spent[k] / len(moved) for k in KINDS}, renders


def main():
    args, start, pages = page_args(__doc__, 6, "slider moves per page")

    from playwright.sync_api import sync_playwright

    rows = []
    with Server("bench/one_figure_app.py") as floor_app, Server("serve.py") as app, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            rows.append(("floor: 1 slider, 1 fig", *anatomy(browser, floor_app.url, args.moves)))
            for stem, url in pages:
                rows.append((stem, *anatomy(browser, f"{app.url}/{url}", args.moves)))
        finally:
            browser.close()
    print(machine_line(start))
    print(f"Headless Chromium under a trace: a slider move's main-thread time by kind, ms per move (median latency "
          f"and React renders over {args.moves} moves)")
    head = (f"{'page':<26} {'traced ms':>9} " + " ".join(f"{k:>6}" for k in KINDS)
            + f" {'renders':>8}  slider")
    print(head)
    print("-" * len(head))
    for name, label, latencies, spent, renders in rows:
        if not latencies:
            print(f"{name:<26} {'-':>9}  no slider redrew a figure")
            continue
        print(f"{name:<26} {statistics.median(latencies):9.0f} " + " ".join(f"{spent[k]:6.1f}" for k in KINDS)
              + f" {statistics.median(renders):8.0f}  {label}")


if __name__ == "__main__":
    main()
