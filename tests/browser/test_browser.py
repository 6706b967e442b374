"""The real app in headless Debian Chromium: every page opens from the navigation, draws its figure with
no exception box, and redraws it when a slider is moved with the keyboard. Saves a screenshot per page."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from bench_browser import app_error  # noqa: E402  (the bench's rule for which console errors are the lab's)
from datasets.upload import DECIMALS  # noqa: E402

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
PAGES = [
    ("feature-maps", "1 · Feature maps"),
    ("circle", "2 · The circle"),
    ("primal-dual", "3 · SVM: primal versus dual"),
    ("pegasos", "4 · Pegasos"),
    ("mercer", "5 · Mercer"),
    ("regression", "6 · Kernel regression"),
]
# a fingerprint of every Plotly figure on the page: it changes when any figure is redrawn with new data.
# Plotly keeps numpy arrays in el.data as {dtype, bdata} objects, so the whole of el.data is compared.
FIGURES_JS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(el => JSON.stringify(el.data || [])).join('|')"""


def wait_idle(page):
    """Wait until Streamlit has finished the current run (the status widget leaves the running state)."""
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"
        " || !document.querySelector('[data-testid=\"stStatusWidget\"]').innerText.includes('Running')",
        timeout=30_000,
    )


# a slider: Streamlit's, or a live section's (lab/live_control.py, drawn by the chart element)
SLIDERS = ':is([data-testid="stSlider"], .kl-control)'


def redraws_after_a_slider_key(page):
    """Move the page's sliders one at a time with the arrow keys until a figure redraws."""
    sliders = page.locator(f'[data-testid="stMain"] {SLIDERS} input[type="range"]')
    for i in range(min(sliders.count(), 4)):
        for key in ("ArrowRight", "ArrowLeft"):
            before = page.evaluate(FIGURES_JS)
            sliders.nth(i).focus()
            sliders.nth(i).press(key)
            try:
                page.wait_for_function(f"(before) => ({FIGURES_JS})() !== before", arg=before, timeout=15_000)
            except PlaywrightTimeout:
                continue
            wait_idle(page)
            return True
    return False


@pytest.mark.parametrize(("path", "title"), PAGES, ids=[p for p, _ in PAGES])
def test_page_opens_from_navigation_and_redraws_on_slider_key(browser, app_url, path, title):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(app_url, wait_until="domcontentloaded")
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).click()
    page.locator('[data-testid="stSidebarNav"] a[aria-current="page"]', has_text=title).wait_for(timeout=30_000)
    page.locator(".js-plotly-plot").first.wait_for(state="visible", timeout=60_000)
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    # the sidebar, drawn anew on the page switch, shows the values the server computes with (n = 100, noise 0.1)
    thumbs = page.eval_on_selector_all('[data-testid="stSidebar"] [data-testid="stSliderThumbValue"]',
                                       "els => els.map(e => e.innerText)")
    assert thumbs == ["100", "0.10"], thumbs

    assert redraws_after_a_slider_key(page), "no slider moved by the keyboard redrew a figure"
    assert page.locator('[data-testid="stException"]').count() == 0
    # every chart element drew its figure (lab/live_chart.py marks one that failed)
    assert page.evaluate("() => [...document.querySelectorAll('[data-kl-error]')].map(e => e.dataset.klError)") == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Streamlit scrolls inside its own container: a tall viewport shows the whole page
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(max(height, 900), 6000)})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(SHOTS / f"{path}.png"))
    assert not errors, errors
    page.close()


# ---------------------------------------------------------------- charts drawn in place (lab/live_chart.py)

# every Plotly div of the page by the key of its chart (Streamlit marks a keyed element with st-key-<key>)
PLOT_JS = "(key) => document.querySelector(`.st-key-${key} .js-plotly-plot`)"


def open_lesson(browser, url, prepare=None):
    """A new page at `url`, its first figure drawn and its run over; prepare(page), if given, runs before it loads
    (an init script, a route)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    if prepare is not None:
        prepare(page)
    page.goto(url, wait_until="domcontentloaded")
    page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for(state="visible", timeout=60_000)
    wait_idle(page)
    page.wait_for_timeout(500)
    return page


def plot_box(page, key):
    """The plot area of chart `key` on the screen: left, top, width, height (px)."""
    page.locator(f".st-key-{key} .js-plotly-plot").scroll_into_view_if_needed()
    return page.evaluate(f"""(key) => {{
        const gd = ({PLOT_JS})(key), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const r = gd.getBoundingClientRect();
        return [r.left + xa._offset, r.top + ya._offset, xa._length, ya._length];
    }}""", key)


def to_data(page, key, x, y):
    """The data coordinates of the screen point (x, y) on chart `key`'s axes."""
    return page.evaluate(f"""([key, x, y]) => {{
        const gd = ({PLOT_JS})(key), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const r = gd.getBoundingClientRect();
        return [xa.p2c(x - r.left - xa._offset), ya.p2c(y - r.top - ya._offset)];
    }}""", [key, x, y])


def to_screen(page, key, x, y):
    """The screen point of data coordinates (x, y) on chart `key` (scrolled into view)."""
    page.locator(f".st-key-{key} .js-plotly-plot").scroll_into_view_if_needed()
    return page.evaluate(f"""([key, x, y]) => {{
        const gd = ({PLOT_JS})(key), xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const r = gd.getBoundingClientRect();
        return [r.left + xa._offset + xa.c2p(x), r.top + ya._offset + ya.c2p(y)];
    }}""", [key, x, y])


def ranges(page, key):
    """The x and y ranges of chart `key`: [x0, x1, y0, y1]."""
    return page.evaluate(f"(key) => {{ const l = ({PLOT_JS})(key)._fullLayout; "
                         "return [...l.xaxis.range, ...l.yaxis.range]; }", key)


def slider_step(page, label, key="ArrowRight"):
    """Move the main-area slider labelled `label` one step with the keyboard; wait until every figure that
    changed is redrawn and the run is over."""
    before = page.evaluate(FIGURES_JS)
    slider = page.locator(f'[data-testid="stMain"] {SLIDERS}', has_text=label).locator('input[type="range"]').first
    slider.focus()
    slider.press(key)
    page.wait_for_function(f"(before) => ({FIGURES_JS})() !== before", arg=before, timeout=30_000)
    wait_idle(page)
    page.wait_for_timeout(800)


def points_in_url(page):
    """The student's points in the page's link: [(x1, x2, label)]."""
    from urllib.parse import parse_qs, urlparse

    raw = parse_qs(urlparse(page.url).query).get("pts", [""])[0]
    return [(float(a), float(b), int(c)) for a, b, c in (p.split("_") for p in raw.split("~") if p)]


def wait_for_points(page, changed_from, timeout=30_000):
    deadline = page.evaluate("() => performance.now()") + timeout
    while page.evaluate("() => performance.now()") < deadline:
        if points_in_url(page) != changed_from:
            wait_idle(page)
            return points_in_url(page)
        page.wait_for_timeout(100)
    return points_in_url(page)


def drag(page, x, y, dx, dy, steps=8):
    """Press at (x, y), move by (dx, dy) in `steps` even steps, release: a drag as a hand makes it."""
    page.mouse.move(x, y)
    page.mouse.down()
    for k in range(1, steps + 1):
        page.mouse.move(x + dx * k / steps, y + dy * k / steps)
    page.mouse.up()


def test_3d_camera_survives_a_slider_move_on_the_circle_lesson(browser, app_url):
    page = open_lesson(browser, f"{app_url}/circle")
    left, top, width, height = page.evaluate(
        f"(key) => {{ const r = ({PLOT_JS})(key).getBoundingClientRect(); "
        f"return [r.left, r.top, r.width, r.height]; }}",
        "cl_lift3d")
    cx, cy = left + width / 2, top + height / 2
    drag(page, cx, cy, 120, 40, steps=10)
    page.wait_for_timeout(500)
    eye = "(key) => { const c = (" + PLOT_JS + ")(key)._fullLayout.scene.camera.eye; return [c.x, c.y, c.z]; }"
    rotated = page.evaluate(eye, "cl_lift3d")
    slider_step(page, "C (box constraint")
    after = page.evaluate(eye, "cl_lift3d")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "camera-after-slider.png"))
    assert after == pytest.approx(rotated, abs=1e-6), f"camera {rotated} became {after} after the slider move"
    page.close()


DRAWS_JS = "(key) => Number(document.querySelector(`.st-key-${key} .kl-plot`).getAttribute('data-kl-draws'))"
# the chart's place: its top and bottom, and the visible part of the box the page scrolls in
PLACE_JS = """(key) => { const r = document.querySelector(`.st-key-${key} .kl-chart`).getBoundingClientRect();
    const box = document.querySelector('[data-testid="stMain"]').getBoundingClientRect();
    return [r.top, r.bottom, box.top, box.bottom]; }"""


def test_a_chart_far_below_the_window_is_redrawn_when_it_is_scrolled_near_not_on_the_move(browser, app_url):
    page = open_lesson(browser, f"{app_url}/pegasos")
    page.set_viewport_size({"width": 1400, "height": 700})
    page.wait_for_timeout(800)
    top, _, box_top, box_bottom = page.evaluate(PLACE_JS, "pg_perceptron")
    assert top > box_bottom + (box_bottom - box_top), "the perceptron's plot is within a screen of the window"
    near, far = page.evaluate(DRAWS_JS, "pg_boundary"), page.evaluate(DRAWS_JS, "pg_perceptron")
    before = page.evaluate(f"(key) => JSON.stringify(({PLOT_JS})(key).data)", "pg_perceptron")
    slider_step(page, "γ (kernel width")
    assert page.evaluate(DRAWS_JS, "pg_boundary") > near   # on the screen: redrawn with the move
    assert page.evaluate(DRAWS_JS, "pg_perceptron") == far  # two screens down: it waits
    page.locator(".st-key-pg_perceptron .kl-chart").scroll_into_view_if_needed()
    page.wait_for_function(f"(n) => ({DRAWS_JS})('pg_perceptron') > n", arg=far, timeout=10_000)
    after = page.evaluate(f"(key) => JSON.stringify(({PLOT_JS})(key).data)", "pg_perceptron")
    assert after != before, "scrolled into view, the perceptron's plot still shows the old γ"
    assert page.evaluate("() => [...document.querySelectorAll('[data-kl-error]')].length") == 0
    page.close()


def pan(page, key, dx, dy):
    left, top, width, height = plot_box(page, key)
    x, y = left + width * 0.3, top + height * 0.6
    drag(page, x, y, dx, dy)
    page.wait_for_timeout(400)


def test_a_pan_survives_a_slider_move_and_reset_view_restores_the_figure_view(browser, app_url):
    page = open_lesson(browser, f"{app_url}/primal-dual")
    original = ranges(page, "pd_boundary")
    pan(page, "pd_boundary", 80, -50)
    panned = ranges(page, "pd_boundary")
    assert panned != original, "dragging the decision plot did not pan it"
    slider_step(page, "C (box constraint")
    assert ranges(page, "pd_boundary") == pytest.approx(panned, abs=1e-9), "the pan was lost on the slider move"
    page.locator(".st-key-pd_boundary").get_by_role("button", name="Reset view:").click()
    page.wait_for_timeout(800)
    assert ranges(page, "pd_boundary") == pytest.approx(original, abs=1e-9)
    page.close()


def click_adds(page, key, dx, dy, modifiers=()):
    """Click chart `key` at (dx, dy) from its plot area's centre; returns (where in data coordinates, points)."""
    left, top, width, height = plot_box(page, key)
    x, y = left + width / 2 + dx, top + height / 2 + dy
    where = to_data(page, key, x, y)
    before = points_in_url(page)
    for key in modifiers:
        page.keyboard.down(key)
    page.mouse.click(x, y)
    for key in modifiers:
        page.keyboard.up(key)
    return where, wait_for_points(page, before)


def test_a_click_adds_a_point_where_it_lands_and_shift_click_adds_the_other_class(browser, app_url):
    page = open_lesson(browser, f"{app_url}/primal-dual")
    where, points = click_adds(page, "pd_boundary", 37, -23)
    assert len(points) == 1, points
    assert points[0][:2] == pytest.approx(where, abs=0.01) and points[0][2] == 1
    where, points = click_adds(page, "pd_boundary", -61, 44, modifiers=["Shift"])
    assert len(points) == 2, points
    assert points[1][:2] == pytest.approx(where, abs=0.01) and points[1][2] == -1
    # the whole app reran: the sidebar counts the new points
    page.locator('[data-testid="stSidebar"]', has_text="Your own points (2)").wait_for(timeout=10_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "clicked-points.png"))
    page.close()


def test_the_first_click_leaves_the_plot_where_it_was_so_the_point_can_be_dragged_at_once(browser, app_url):
    # lesson 6's logistic plot at 1400 px: a legend entry for the first point added a legend row above the plot,
    # which moved it 30 px down under the pointer, and a drag started where the point had landed panned instead
    page = open_lesson(browser, f"{app_url}/regression")
    before = plot_box(page, "rgl_boundary")
    where, points = click_adds(page, "rgl_boundary", 40, 10)
    assert len(points) == 1, points
    page.wait_for_timeout(500)
    assert plot_box(page, "rgl_boundary") == pytest.approx(before, abs=0.5)
    x, y = to_screen(page, "rgl_boundary", *points[0][:2])
    expected = to_data(page, "rgl_boundary", x + 30, y + 20)
    drag(page, x, y, 30, 20, steps=6)
    moved = wait_for_points(page, points)
    assert len(moved) == 1 and moved[0][:2] == pytest.approx(expected, abs=0.01), (moved, expected)
    page.close()


def test_the_plot_area_stays_where_it_was_as_tick_labels_get_shorter(browser, app_url):
    # lesson 3's α's are plotted up to C: from C = 0.01 up, the y axis's labels go from "0.002" to "0.02", and Plotly's
    # margin for them shrank with them, shifting the plot area left under the student's eyes (and drawing the chart a
    # second time on each such move)
    page = open_lesson(browser, f"{app_url}/primal-dual?pd_C=0.01")
    boxes = [plot_box(page, "pd_alpha")]
    for _ in range(4):
        slider_step(page, "slack penalty")
        boxes.append(plot_box(page, "pd_alpha"))
    assert "pd_C=0.1" in page.url
    assert all(box == pytest.approx(boxes[0], abs=0.5) for box in boxes), boxes
    page.close()


def test_an_own_point_is_dragged_to_where_it_is_dropped_and_removed_by_a_double_click(browser, app_url):
    first, second = (-0.75, -0.25, -1), (0.25, 0.5, 1)
    page = open_lesson(browser, f"{app_url}/primal-dual?pts=-0.75_-0.25_-1~0.25_0.50_1")
    x, y = to_screen(page, "pd_boundary", *second[:2])
    expected = to_data(page, "pd_boundary", x + 45, y + 30)
    drag(page, x, y, 45, 30)
    points = wait_for_points(page, [first, second])
    # the second point (its index travels in the trace's customdata) moved and kept its class; the first stayed
    assert len(points) == 2 and points[0] == first and points[1][2] == 1, points
    assert points[1][:2] == pytest.approx(expected, abs=0.01)
    page.wait_for_timeout(500)
    x, y = to_screen(page, "pd_boundary", *points[1][:2])
    page.mouse.dblclick(x, y)
    assert wait_for_points(page, points) == [first]
    page.close()


@pytest.fixture(scope="module")
def animation_url():
    """tests/browser/animation_app.py served (its static folder is the app's: Streamlit serves the one next to the
    main script)."""
    from conftest import ROOT, free_port, start_streamlit

    static = ROOT / "tests" / "browser" / "static"
    if not static.is_symlink() and not static.exists():
        static.symlink_to(ROOT / "static", target_is_directory=True)
    port = free_port()
    proc = start_streamlit(ROOT / "tests" / "browser" / "animation_app.py", port)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=20)


def test_play_replays_the_frames_in_the_browser_and_stops_at_the_last(browser, animation_url):
    page = open_lesson(browser, animation_url)
    # every frame the player shows, by its status line
    page.evaluate("""() => { const status = document.querySelector('.st-key-animation .kl-status');
        window.__frames = [];
        new MutationObserver(() => {
            const m = status.textContent.match(/^playing frame \\d+ of \\d+: (.*)$/);
            if (m && window.__frames[window.__frames.length - 1] !== m[1]) window.__frames.push(m[1]);
        }).observe(status, {childList: true, characterData: true, subtree: true}); }""")
    messages = page.evaluate("() => performance.getEntriesByType('resource').length")
    play = page.get_by_role("button", name="Play the training animation")
    play.focus()
    page.keyboard.press("Enter")   # a real button: the keyboard plays it
    page.wait_for_function("() => document.querySelector('.st-key-animation [data-kl-playing=\"true\"]')",
                           timeout=5_000)
    page.wait_for_function("() => document.querySelector('.st-key-animation [data-kl-playing=\"false\"]')",
                           timeout=30_000)
    frames = page.evaluate("() => window.__frames")
    names = [f"radius {r:.2f}" for r in __import__("numpy").linspace(0.4, 1.4, 30)]
    assert frames == names, frames
    state = page.locator(".st-key-animation .kl-chart")
    assert state.get_attribute("data-kl-frame") == "29"
    # the f = 0 line drawn is the last frame's: a circle of radius 1.4
    radius = page.evaluate("""() => { const gd = document.querySelector('.st-key-animation .js-plotly-plot');
        const t = gd._fullData[1]; let s = 0, n = 0;
        for (let i = 0; i < t.x.length; i++) if (isFinite(t.x[i])) { s += Math.hypot(t.x[i], t.y[i]); n++; }
        return s / n; }""")
    assert radius == pytest.approx(1.4, abs=0.03)
    page.get_by_role("button", name="Reset: back to the first frame").click()
    page.wait_for_function("() => document.querySelector('.st-key-animation [data-kl-frame=\"0\"]')", timeout=5_000)
    page.get_by_role("button", name="Step:").click()
    page.wait_for_function("() => document.querySelector('.st-key-animation [data-kl-frame=\"1\"]')", timeout=5_000)
    # no request went to the server for the frames
    assert page.evaluate("() => performance.getEntriesByType('resource').length") == messages
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "animation.png"))
    page.close()


def test_play_on_the_pegasos_decision_plot_replays_the_run_and_ends_on_the_drawn_lines(browser, app_url):
    page = open_lesson(browser, f"{app_url}/pegasos")
    chart = page.locator(".st-key-pg_boundary .kl-chart")
    lines_js = """() => { const gd = document.querySelector('.st-key-pg_boundary .js-plotly-plot');
        return JSON.stringify([1, 2, 3].map(k => [Array.from(gd._fullData[k].x), Array.from(gd._fullData[k].y)])); }"""
    drawn = page.evaluate(lines_js)
    messages = page.evaluate("() => performance.getEntriesByType('resource').length")
    play = page.locator(".st-key-pg_boundary").get_by_role("button", name="Play the training animation")
    play.scroll_into_view_if_needed()
    play.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.st-key-pg_boundary [data-kl-playing=\"true\"]')",
                           timeout=5_000)
    page.wait_for_function("() => document.querySelector('.st-key-pg_boundary [data-kl-playing=\"false\"]')",
                           timeout=30_000)
    assert chart.get_attribute("data-kl-frame") == "24"   # the last of 25 frames
    assert "t = 2000" in page.locator(".st-key-pg_boundary .kl-status").inner_text()
    # the last frame's lines are the same f as drawn before Play (traced on a coarser grid within the budget)
    last = json.loads(page.evaluate(lines_js))
    first = json.loads(drawn)
    zero_last, zero_first = (np.array(v[0], dtype=float).T for v in (last, first))
    zero_last, zero_first = (a[np.isfinite(a).all(axis=1)] for a in (zero_last, zero_first))
    gap = np.sqrt(((zero_last[:, None] - zero_first[None]) ** 2).sum(axis=2)).min(axis=1).max()
    assert gap < 0.15, gap
    # no request per frame: one, the route's figure with the frames (the first Play)
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map((e) => e.name)")[messages:]
    assert len(loaded) == 1 and "/live/pegasos?" in loaded[0] and "_frames=pg_boundary" in loaded[0], loaded
    page.close()


def test_plotly_js_comes_from_the_app_once_and_has_no_share_button(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    outside = []
    page.on("request", lambda r: outside.append(r.url) if "plotly" in r.url and "127.0.0.1" not in r.url else None)
    for _ in range(2):
        page.goto(f"{app_url}/primal-dual", wait_until="domcontentloaded")
        page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for(state="visible", timeout=60_000)
        wait_idle(page)
    entries = page.evaluate("() => performance.getEntriesByType('resource')"
                            ".filter(e => /plotly-[0-9.]+\\.min\\.js$/.test(e.name))"
                            ".map(e => [e.name, e.transferSize])")
    assert len(entries) == 1 and "/app/static/" in entries[0][0], entries
    assert entries[0][1] == 0, f"plotly.js was downloaded again on the second visit: {entries}"
    assert not outside, outside
    page.locator(".st-key-pd_boundary .js-plotly-plot").hover()
    assert page.locator('.modebar-btn[data-title^="Share"]').count() == 0
    context.close()


def test_a_click_on_a_validation_heatmap_cell_moves_c_and_gamma_and_the_link(browser, app_url):
    """Lesson 3, kernel mode, the validation heatmap on (pd_cv in the link): a click on a cell sets the C and γ
    sliders to that cell's values, and the link carries them."""
    from urllib.parse import parse_qs, urlparse

    from lab.state import C_VALUES, GAMMA_VALUES

    page = open_lesson(browser, f"{app_url}/primal-dual?pd_space=kernel&pd_cv=true")
    page.locator(".st-key-pd_cv_heatmap .js-plotly-plot").wait_for(state="visible", timeout=120_000)
    wait_idle(page)
    column, row = 17, 3                      # C = C_VALUES[17], γ = GAMMA_VALUES[3]
    x, y = to_screen(page, "pd_cv_heatmap", column, row)
    page.mouse.click(x, y)
    expected = {"pd_C": f"{C_VALUES[column]:g}", "pd_gamma": f"{GAMMA_VALUES[row]:g}"}
    deadline = page.evaluate("() => performance.now()") + 30_000
    query = {}
    while page.evaluate("() => performance.now()") < deadline:
        query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
        if all(query.get(k) == v for k, v in expected.items()):
            break
        page.wait_for_timeout(100)
    assert {k: query.get(k) for k in expected} == expected, page.url
    wait_idle(page)
    # both sliders show the cell's values, and the heatmap rings the new cell
    for label, value in (("C (box", C_VALUES[column]), ("γ (kernel", GAMMA_VALUES[row])):
        slider = page.locator(f'[data-testid="stMain"] {SLIDERS}', has_text=label).first
        assert f"{value:.3g}" in slider.inner_text()
    page.wait_for_function(f"""() => {{
        const gd = ({PLOT_JS})("pd_cv_heatmap"), t = gd.data.find(d => d.name === "current (C, γ)");
        return t && Array.from(t.x)[0] === {column} && Array.from(t.y)[0] === {row};
    }}""", timeout=15_000)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "cv-heatmap.png"), full_page=True)
    page.close()


def test_a_click_with_the_third_class_chosen_adds_a_class_2_point_to_the_one_vs_rest_plot(browser, app_url):
    """Lesson 3, kernel mode, three blobs: the sidebar's class toggle on class 2 (what a touch screen uses), a click
    on the one-vs-rest plot adds a class-2 point there (in the link), and the plot draws it."""
    page = open_lesson(browser, f"{app_url}/primal-dual?pd_space=kernel&dataset=blobs3&new_class=2")
    page.locator(".st-key-pd_ovr .js-plotly-plot").wait_for(state="visible", timeout=60_000)
    where, points = click_adds(page, "pd_ovr", 31, -17)
    assert len(points) == 1 and points[0][2] == 2, points
    assert points[0][:2] == pytest.approx(where, abs=0.01)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "one-vs-rest.png"))
    # the plot draws it: one point in the student's trace (calcdata: Plotly's decoded points)
    page.wait_for_function(f"""() => {{
        const gd = ({PLOT_JS})("pd_ovr"), t = gd._fullData.findIndex(d => d.name === "your points");
        return t >= 0 && gd.calcdata[t].length === 1;
    }}""", timeout=15_000)
    page.close()


def draws(page, keys):
    """How many times each chart in `keys` has been drawn."""
    return [page.evaluate(DRAWS_JS, key) for key in keys]


def c_asked(urls):
    """The value of C in each of lesson 3's route requests `urls`, in order."""
    from urllib.parse import parse_qs, urlparse

    return [parse_qs(urlparse(url).query)["pd_C"][0] for url in urls]


def test_a_c_move_on_lesson_3_is_drawn_from_the_live_route_and_the_rerun_draws_it_no_second_time(browser, app_url):
    page = open_lesson(browser, f"{app_url}/primal-dual")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/live/primal-dual" in request.url else None)
    charts = ["pd_boundary", "pd_alpha"]
    before = draws(page, charts)
    slider_step(page, "slack penalty")
    # the move's own value, then the next one the same way, asked ahead while the figures were drawn
    assert c_asked(asked) == ["1.78", "3.16"], asked
    # one draw each: the rerun brought the figures the route had answered, which draw nothing
    assert draws(page, charts) == [n + 1 for n in before]
    assert "pd_C=1.78" in page.url
    slider_step(page, "slack penalty")
    # the second move was answered by what was asked ahead: it asked only for the value after it
    assert c_asked(asked) == ["1.78", "3.16", "5.62"], asked
    assert draws(page, charts) == [n + 2 for n in before]
    assert "pd_C=3.16" in page.url
    page.close()


def test_with_the_validation_heatmap_shown_a_c_move_draws_its_marker_from_the_route_too(browser, app_url):
    """The heatmap and the curves mark the current (C, γ): once their grid is computed, the route answers them with
    the decision plot and the α's, each drawn once for the move."""
    page = open_lesson(browser, f"{app_url}/primal-dual?pd_space=kernel&pd_cv=true")
    page.set_viewport_size({"width": 1400, "height": 3000})           # every chart on the screen
    page.locator(".st-key-pd_cv_heatmap .js-plotly-plot").wait_for(state="visible", timeout=120_000)
    wait_idle(page)
    page.wait_for_timeout(800)
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/live/primal-dual" in request.url else None)
    charts = ["pd_boundary", "pd_alpha", "pd_cv_heatmap", "pd_cv_curves"]
    before = draws(page, charts)
    slider_step(page, "slack penalty")
    assert c_asked(asked)[0] == "1.78", asked
    assert draws(page, charts) == [n + 1 for n in before]
    answered = page.evaluate("(url) => fetch(url).then((r) => r.text())", asked[0])     # the route's answer again
    assert json.loads(answered.split("\n")[0]) == charts
    page.close()


def test_a_jump_of_the_slider_asks_nothing_ahead(browser, app_url):
    """A click on C's track (a jump of several steps) asks the route for that value only: where the student goes
    next is anyone's guess."""
    page = open_lesson(browser, f"{app_url}/primal-dual")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/live/primal-dual" in request.url else None)
    before = page.evaluate(FIGURES_JS)
    track = page.locator(".kl-control", has_text="C (box").locator('input[type="range"]')
    box = track.bounding_box()
    page.mouse.click(box["x"] + 0.8 * box["width"], box["y"] + box["height"] / 2)
    page.wait_for_function(f"(before) => ({FIGURES_JS})() !== before", arg=before, timeout=30_000)
    wait_idle(page)
    page.wait_for_timeout(800)
    value = track.evaluate("(input) => input.value")
    assert int(value) > 10, value      # a jump from position 8 of 0..20
    assert len(asked) == 1, asked
    page.close()


# the time of every message the page sends to the server, and of every draw of a chart, in window.__kl
SENDS_JS = """(() => {
  const kl = window.__kl = {sends: [], draws: []};
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { kl.sends.push(performance.now()); return send.call(this, data); };
  new MutationObserver((records) => records.forEach(() => kl.draws.push(performance.now())))
    .observe(document, {subtree: true, attributes: true, attributeFilter: ["data-kl-draws"]});
})()"""


def test_a_live_move_sends_its_rerun_once_its_figures_are_drawn(browser, app_url):
    """The slider is the chart element's own (lab/live_control.py): its value goes to the server only once the
    route's figures are drawn (the browser would render the whole page for the rerun meanwhile), so the first message
    after the key comes after both charts' draws; and nothing of the browser's or Streamlit's is patched for it."""
    page = open_lesson(browser, f"{app_url}/primal-dual", prepare=lambda page: page.add_init_script(SENDS_JS))
    # the element patched no socket: the send this test wraps (SENDS_JS) is the one the page uses
    assert page.evaluate("() => WebSocket.prototype.send.toString().includes('kl.sends.push')")
    pressed = page.evaluate("() => performance.now()")
    slider_step(page, "slack penalty")
    sends = [t for t in page.evaluate("() => window.__kl.sends") if t > pressed]
    drawn = [t for t in page.evaluate("() => window.__kl.draws") if t > pressed]
    assert len(drawn) == 2 and sends, (drawn, sends)
    assert sends[0] >= max(drawn), f"the rerun was sent {max(drawn) - sends[0]:.0f} ms before the figures were drawn"
    page.close()


def pts_asked(urls):
    """The student's points (?pts=) of each of lesson 3's route requests `urls`, in order."""
    from urllib.parse import parse_qs, urlparse

    return [parse_qs(urlparse(url).query).get("pts", [""])[0] for url in urls]


def test_a_click_a_drag_and_a_delete_are_drawn_from_the_route_before_their_event_goes(browser, app_url):
    """A click on lesson 3's decision plot asks the route for the section's figures with the new point, draws them, and
    only then sends the event: each chart is drawn once (the rerun brings the same figures), and the page's first
    message after the click comes after the draws. A drag and a double-click go the same way."""
    page = open_lesson(browser, f"{app_url}/primal-dual", prepare=lambda page: page.add_init_script(SENDS_JS))
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/live/primal-dual" in request.url else None)
    charts = ["pd_boundary", "pd_alpha"]
    before = draws(page, charts)
    pressed = page.evaluate("() => performance.now()")
    where, points = click_adds(page, "pd_boundary", 37, -23)
    assert len(points) == 1 and points[0][2] == 1, points
    wait_idle(page)
    page.wait_for_timeout(500)
    x1, x2 = (f"{v:.{DECIMALS}f}" for v in points[0][:2])
    assert pts_asked(asked) == [f"{x1}_{x2}_1"], asked
    assert draws(page, charts) == [n + 1 for n in before]   # by the route; the rerun's figures drew nothing
    sends = [t for t in page.evaluate("() => window.__kl.sends") if t > pressed]
    drawn = [t for t in page.evaluate("() => window.__kl.draws") if t > pressed]
    assert len(drawn) == 2 and sends and sends[0] >= max(drawn), (drawn, sends)

    x, y = to_screen(page, "pd_boundary", *points[0][:2])
    drag(page, x, y, -40, 25)
    moved = wait_for_points(page, points)
    assert len(moved) == 1 and moved[0][:2] != points[0][:2], moved
    wait_idle(page)
    x1, x2 = (f"{v:.{DECIMALS}f}" for v in moved[0][:2])
    assert pts_asked(asked)[1:] == [f"{x1}_{x2}_1"], asked
    page.wait_for_timeout(500)
    x, y = to_screen(page, "pd_boundary", *moved[0][:2])
    page.mouse.dblclick(x, y)
    assert wait_for_points(page, moved) == []
    wait_idle(page)
    assert pts_asked(asked)[2:] == [""], asked
    assert draws(page, charts) == [n + 3 for n in before]
    page.close()


def test_the_hard_margin_toggle_is_drawn_from_the_route_before_its_value_goes(browser, app_url):
    """Lesson 3's hard-margin switch is a live toggle (lab/live_control.py): switched on, the route is asked with
    pd_hard=true, both charts are drawn from it once, and the value goes to the server after the draws."""
    page = open_lesson(browser, f"{app_url}/primal-dual?dataset=linear",
                       prepare=lambda page: page.add_init_script(SENDS_JS))
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/live/primal-dual" in request.url else None)
    charts = ["pd_boundary", "pd_alpha"]
    before = draws(page, charts)
    pressed = page.evaluate("() => performance.now()")
    switch = page.get_by_role("switch", name="hard margin")
    switch.click()
    page.wait_for_function("() => location.search.includes('pd_hard=true')", timeout=30_000)
    wait_idle(page)
    page.wait_for_timeout(800)
    assert len(asked) == 1 and "pd_hard=true" in asked[0], asked
    assert draws(page, charts) == [n + 1 for n in before]
    sends = [t for t in page.evaluate("() => window.__kl.sends") if t > pressed]
    drawn = [t for t in page.evaluate("() => window.__kl.draws") if t > pressed]
    assert len(drawn) == 2 and sends and sends[0] >= max(drawn), (drawn, sends)
    assert switch.is_checked()
    page.close()


def test_a_route_that_does_not_answer_holds_the_rerun_only_briefly(browser, app_url):
    """A route that never answers: the rerun's message still goes (after at most the element's HOLD_MS), and the
    rerun draws the move."""
    pending = []

    def prepare(page):
        page.add_init_script(SENDS_JS)
        page.route("**/live/**", lambda route: pending.append(route))       # asked, never answered

    page = open_lesson(browser, f"{app_url}/primal-dual", prepare=prepare)
    charts = ["pd_boundary", "pd_alpha"]
    before = draws(page, charts)
    pressed = page.evaluate("() => performance.now()")
    slider_step(page, "slack penalty")
    assert len(pending) == 1
    assert draws(page, charts) == [n + 1 for n in before]
    sends = [t - pressed for t in page.evaluate("() => window.__kl.sends") if t > pressed]
    assert sends and 500 <= sends[0] < 3_000, sends   # held, then sent when HOLD_MS (600 ms) ran out
    for route in pending:
        route.abort()
    page.close()


@pytest.fixture(scope="module", params=["app.py", "serve.py under /kernel-lab"])
def served(request):
    """The lab served as it is outside `streamlit run serve.py` at the root: app.py alone (no live routes), or
    serve.py under a path prefix (as behind a shared proxy). (name, url)."""
    from conftest import ROOT, free_port, start_streamlit

    script, _, base = request.param.partition(" under /")
    port = free_port()
    proc = start_streamlit(ROOT / script, port, base)
    yield request.param, f"http://127.0.0.1:{port}" + (f"/{base}" if base else "")
    proc.terminate()
    proc.wait(timeout=20)


def test_every_move_is_drawn_with_no_console_error_wherever_the_lab_is_served(browser, served):
    """Without the routes the first move's answer (Streamlit's HTML page) turns live moves off, silently, and the
    rerun draws every move; under a prefix the routes answer there and draw each move once."""
    how, url = served
    errors, asked = [], []

    def prepare(page):
        page.on("console", lambda message: errors.append(app_error(message, url.split("/kernel-lab")[0])))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("response", lambda response: asked.append((response.url, response.status,
                                                           response.headers.get("content-type", "")))
                if "/live/" in response.url else None)

    page = open_lesson(browser, f"{url}/primal-dual", prepare=prepare)
    charts = ["pd_boundary", "pd_alpha"]
    before = draws(page, charts)
    for _ in range(3):
        slider_step(page, "slack penalty")
    assert draws(page, charts) == [n + 3 for n in before]
    assert "pd_C=5.62" in page.url
    assert [e for e in errors if e] == [], errors
    if how == "app.py":
        assert len(asked) <= 1, asked          # asked once, then left to the rerun
    else:
        assert asked and all(u.startswith(f"{url}/live/primal-dual?") and status == 200 and kind.startswith(
            "application/x-ndjson") for u, status, kind in asked), asked
    page.close()
