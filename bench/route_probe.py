"""What a slider move would cost if the browser fetched a section's figures from a route of its own instead of
rerunning the script: the design docs/PERFORMANCE.md proposes for bench_browser.py's budget.

bench/route_app.py serves the lab through Streamlit's st.App with one more route, which answers lesson 3's two
figures (decision plot and α bars) for a given C. In headless Chromium, on lesson 3's page, a probe move fetches
them for a C not asked before (so the server's caches miss, as on a real move) and draws both with Plotly.react
into the page's own two chart divs, in place; it is timed from the fetch to both draws resolved, and its parts are
shown: the fetch (the server's compute and the transfer, until the whole answer is in) and the two Plotly.react calls
(the rest is parsing the JSON). The first move
after loading is not timed. The floor app (one slider, one st.plotly_chart) and lesson 3's real C slider move are
timed as bench_browser.py times them, alternated with the probe in each round, so a drift of the machine's speed
reaches all three alike. No budget: a probe of a design, not of the product.

    python bench/route_probe.py [--moves 8] [--rounds 3]
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import (CHROMIUM, CHROMIUM_ARGS, LOAD_TIMEOUT_S, MOVE_TIMEOUT_S, WATCHER_JS, Server,  # noqa: E402
                           choose_slider, machine_line, machine_state, step, wait_loaded)

# one probe move: fetch both figures, draw each into its chart div with the width and view the element gave it
PROBE_JS = """async (C) => {
  const div = (key) => document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const t0 = performance.now();
  const response = await fetch(`bench/primal-dual?C=${C}`);
  const text = await response.text();
  const fetched = performance.now() - t0;
  const figures = JSON.parse(text);
  const t1 = performance.now();
  await Promise.all([["pd_boundary", figures.boundary], ["pd_alpha", figures.alpha]].map(([key, fig]) => {
    const gd = div(key);
    const layout = {...fig.layout, width: gd._fullLayout.width, height: gd._fullLayout.height, autosize: false,
                    uirevision: gd.layout.uirevision};
    return window.Plotly.react(gd, {data: fig.data, layout, config: gd._context});
  }));
  const t2 = performance.now();
  return [t2 - t0, fetched, t2 - t1];
}"""
READY_JS = ("() => !!window.Plotly && ['pd_boundary', 'pd_alpha']"
            ".every(k => document.querySelector(`.st-key-${k} .js-plotly-plot`))")


def slider_moves(browser, url, moves):
    """bench_browser.py's timed moves of the first slider that redraws a figure, on a freshly loaded page."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_init_script(WATCHER_JS.replace("%MODE%", "plotly"))
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT_S * 1e3)
    wait_loaded(page, "plotly")
    slider, key, _ = choose_slider(page)
    times = []
    while len(times) < moves:
        (latency, _, _), key, _ = step(page, slider, key, MOVE_TIMEOUT_S)
        if latency is None:
            key = "ArrowLeft" if key == "ArrowRight" else "ArrowRight"
        else:
            times.append(latency)
    context.close()
    return times


def probe_moves(browser, url, values):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_init_script(WATCHER_JS.replace("%MODE%", "plotly"))
    page = context.new_page()
    page.goto(url, timeout=LOAD_TIMEOUT_S * 1e3)
    wait_loaded(page, "plotly")
    page.locator(".st-key-pd_boundary").scroll_into_view_if_needed()
    page.wait_for_function(READY_JS, timeout=LOAD_TIMEOUT_S * 1e3)
    page.evaluate(PROBE_JS, values[0])  # the first move after loading is not timed
    times = [page.evaluate(PROBE_JS, C) for C in values[1:]]
    context.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=8, help="timed moves per kind and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not (1 <= args.moves <= 50 and 1 <= args.rounds <= 10):
        parser.error("--moves must be in 1..50 and --rounds in 1..10")
    from playwright.sync_api import sync_playwright

    start = machine_state()
    # C values the server has not seen: a geometric walk between the slider's grid points
    values = iter(0.013 * 1.21 ** k for k in range((args.moves + 1) * args.rounds))
    floor, page, probe, fetched, drawn = [], [], [], [], []
    with Server("bench/route_app.py") as app, Server("bench/one_figure_app.py") as one, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for _ in range(args.rounds):
            floor += slider_moves(browser, one.url, args.moves)
            page += slider_moves(browser, f"{app.url}/primal-dual", args.moves)
            timed = probe_moves(browser, f"{app.url}/primal-dual", [next(values) for _ in range(args.moves + 1)])
            probe += [t for t, _, _ in timed]
            fetched += [f for _, f, _ in timed]
            drawn += [d for _, _, d in timed]
        browser.close()
    print(machine_line(start))
    ref = statistics.median(floor)
    print(f"median ms of {args.moves} × {args.rounds} moves each")
    for name, times in (("floor: 1 slider, 1 fig", floor), ("lesson 3, C slider (rerun)", page),
                        ("lesson 3, both figures by route", probe), ("  of which the fetch", fetched),
                        ("  of which Plotly.react", drawn)):
        print(f"{name:<32} {statistics.median(times):7.0f} ms {statistics.median(times) / ref:6.2f} × floor")


if __name__ == "__main__":
    main()
