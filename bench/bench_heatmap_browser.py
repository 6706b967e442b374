"""What a student waits for lesson 3's validation heatmap in headless Chromium: from the click on its toggle to the
heatmap drawn, at each --n, on data no one has asked for before (a new seed each round, so no cache holds the grid:
its 21 C × 17 γ × 5 folds are fitted in the background process, lab/background.py).

    python bench/bench_heatmap_browser.py [--n 100,500] [--rounds 2]

Prints each round's seconds and the median per n.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import CHROMIUM, CHROMIUM_ARGS, LOAD_TIMEOUT_S, Server, machine_line, machine_state  # noqa: E402

TOGGLE = "validation heatmap"
HEATMAP = ".st-key-pd_cv_heatmap .js-plotly-plot"


def toggle_to_heatmap(browser, url):
    """Seconds from the click on the heatmap's toggle to the heatmap on the screen."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(url, wait_until="domcontentloaded")
        page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for(state="visible",
                                                                            timeout=LOAD_TIMEOUT_S * 1e3)
        page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                               timeout=LOAD_TIMEOUT_S * 1e3)
        toggle = page.locator('[data-testid="stMain"] label', has_text=TOGGLE).first
        toggle.scroll_into_view_if_needed()
        started = time.perf_counter()
        toggle.click()
        page.locator(HEATMAP).wait_for(state="visible", timeout=LOAD_TIMEOUT_S * 1e3)
        return time.perf_counter() - started
    finally:
        page.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", default="100,500", help="comma-separated numbers of points")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    sizes = [int(n) for n in args.n.split(",")]
    if not all(10 <= n <= 500 for n in sizes) or not 1 <= args.rounds <= 10:
        parser.error("--n in 10..500, --rounds in 1..10")
    start = machine_state()
    from playwright.sync_api import sync_playwright

    with Server("serve.py") as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for n in sizes:
            times = [toggle_to_heatmap(browser, f"{server.url}/primal-dual?pd_space=kernel&n={n}&seed={900 + k}")
                     for k in range(args.rounds)]
            print(f"n = {n}: toggle → heatmap drawn " + ", ".join(f"{t:.1f}" for t in times)
                  + f" s; median {statistics.median(times):.1f} s", flush=True)
        browser.close()
    print(machine_line(start))


if __name__ == "__main__":
    main()
