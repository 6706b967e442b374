"""What each kind of element costs a slider move in headless Chromium, and where it costs it: in the fragment the
slider reruns, or outside it.

bench/element_cost_app.py builds a page to order from its URL; each variant below is timed as bench_browser.py
times a page (keydown → last figure drawn; the first move after loading is not timed), in two halves with the floor
app (one slider, one st.plotly_chart) before and after, so a drift of the machine's speed reaches all alike.
No budget: it says which page shapes can meet bench_browser.py's (2 × the floor app).

    python bench/element_cost.py [--moves 7]
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_browser import (CHROMIUM, CHROMIUM_ARGS, ROOT, Server, machine_line, machine_state,  # noqa: E402
                           measure)

ALL = "s=10&c=2&h=6&m=15&k=6&e=5"
VARIANTS = [
    ("1 slider, 1 chart element", "s=1&c=1"),
    ("10 sliders, 1 chart", "s=10&c=1"),
    ("1 slider, 2 charts", "s=1&c=2"),
    ("+ 6 headings, 15 paragraphs", "s=1&c=1&h=6&m=15"),
    ("+ 6 metrics", "s=1&c=1&k=6"),
    ("+ 5 closed lazy expanders", "s=1&c=1&e=5"),
    ("+ 6 display formulas", "s=1&c=1&t=6"),
    ("all of them in the fragment", ALL),
    ("all, the text after it", ALL + "&o=1"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=7, help="timed slider moves per variant and half")
    args = parser.parse_args()
    if not 1 <= args.moves <= 50:
        parser.error("--moves must be between 1 and 50")
    start = machine_state()
    # Streamlit serves the static folder next to the main script; the chart element's files are in the app's
    static = ROOT / "bench" / "static"
    if not static.is_symlink() and not static.exists():
        static.symlink_to(ROOT / "static", target_is_directory=True)

    from playwright.sync_api import sync_playwright

    times = {name: [] for name, _ in VARIANTS}
    floor, issues = [], []
    with Server("bench/one_figure_app.py") as floor_app, Server("bench/element_cost_app.py") as app, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for half in range(2):
                floor += measure(browser, floor_app.url, "plotly", args.moves)[1]
                for name, query in (VARIANTS if half == 0 else VARIANTS[::-1]):
                    _, moved, _, _, _, found = measure(browser, f"{app.url}/?{query}", "plotly", args.moves)
                    times[name] += moved
                    issues += [f"{name}: {issue}" for issue in found]
            floor += measure(browser, floor_app.url, "plotly", args.moves)[1]
        finally:
            browser.close()
    ref = statistics.median(floor)
    print(machine_line(start))
    print(f"Headless Chromium, slider keydown → last figure drawn; median of {2 * args.moves} moves per variant")
    head = f"{'page':<32} {'median ms':>9} {'× floor':>7}  query"
    print(head)
    print("-" * len(head))
    print(f"{'floor: 1 slider, 1 fig':<32} {ref:9.0f} {1.0:7.2f}")
    for name, query in VARIANTS:
        med = statistics.median(times[name]) if times[name] else float("nan")
        print(f"{name:<32} {med:9.0f} {med / ref:7.2f}  {query}")
    for issue in sorted(set(issues)):
        print("issue:", issue)
    return 1 if issues else 0


if __name__ == "__main__":
    sys.exit(main())
