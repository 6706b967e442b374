"""The real app in headless Debian Chromium at a projector's 1280 × 720 in presenter mode, at 1440 × 900 and at a
phone's 390 × 844: nothing is cut off, nothing but a display equation scrolls sideways (and that only on a phone), no
text of a chart runs into another or under its modebar; presenter mode and a phone show each section as a slide (its
title above its figures, its worked examples on its first screen; on the projector its first figure too), plot text
is at least 18 px on the projector; Share gives a link (and a QR code of it) that reopens the view with the chosen
controls hidden; a tap on a phone adds a point; the charts follow a dark theme. Saves a screenshot of every page at
each size (artifacts/screenshots/)."""

import io
from urllib.parse import parse_qs, urlparse

import pytest
from PIL import Image

from test_browser import FIGURES_JS, PAGES, SHOTS, plot_box, wait_for_points, wait_idle

pytestmark = pytest.mark.browser

PROJECTOR = {"width": 1280, "height": 720}
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

# Every element of the main area that is cut off or scrolls sideways. Cut off: it clips its content (overflow
# hidden or clip) and the content is wider than the element. Scrolls sideways: overflow auto or scroll with wider
# content; only display equations may (.katex-display). A control's label or a button whose text is wider than
# itself runs over its neighbours. Elements 1 px wide or less are screen-reader text (KaTeX's
# MathML, Streamlit's hidden labels); a chart's inside is Plotly's SVG, checked by PLOT_TEXT_JS instead.
OVERFLOW_JS = """() => {
    const found = [];
    for (const el of document.querySelectorAll('.stMain *')) {
        if (!(el instanceof HTMLElement) || el.clientWidth <= 1 || el.closest('.js-plotly-plot')) continue;
        if (el.scrollWidth <= el.clientWidth + 1) continue;
        const overflow = getComputedStyle(el).overflowX;
        const what = `${el.tagName}.${el.className.toString().slice(0, 50)} "${el.innerText.slice(0, 40)}"`
            + ` ${el.scrollWidth} > ${el.clientWidth}`;
        if (overflow === 'hidden' || overflow === 'clip') found.push('cut off: ' + what);
        else if (el.matches('[data-testid="stWidgetLabel"], button')) found.push('runs over its neighbours: ' + what);
        else if ((overflow === 'auto' || overflow === 'scroll') && !el.classList.contains('katex-display'))
            found.push('scrolls sideways: ' + what);
    }
    const page = document.documentElement;
    if (page.scrollWidth > window.innerWidth) found.push(`the page: ${page.scrollWidth} > ${window.innerWidth}`);
    return found;
}"""
# where the first slide starts, in px from the top of the window: the main area's first figure or section heading
FIRST_SLIDE_JS = """() => Math.min(...[...document.querySelectorAll(
        '.stMain .js-plotly-plot, .stMain [class*="st-key-kl_head_"] h3')]
    .map(el => el.getBoundingClientRect()).filter(r => r.height > 0).map(r => r.top))"""
# the smallest font size (px) of any text Plotly drew in SVG on the page, and where
PLOT_TEXT_JS = """() => {
    let least = [Infinity, ''];
    for (const t of document.querySelectorAll('.stMain .js-plotly-plot svg text')) {
        if (!t.textContent.trim() || !t.getBBox().width) continue;
        const px = parseFloat(getComputedStyle(t).fontSize);
        if (px < least[0]) least = [px, t.textContent.slice(0, 30)];
    }
    return least;
}"""

# Every text of every chart on the page that runs into another one or under the chart's modebar (shown while the
# pointer is on the chart), by their boxes: an axis title keeps 3 px from any other text, other texts may touch but
# not overlap; and every text that reaches past the chart's edge (cut off).
PLOT_OVERLAPS_JS = """() => {
    const found = [];
    for (const gd of document.querySelectorAll('.stMain .js-plotly-plot')) {
        if (!gd.offsetParent) continue;
        const key = (gd.closest('[class*="st-key-"]').className.match(/st-key-(\\S+)/) || [])[1];
        const items = [...gd.querySelectorAll('svg text')]
            .filter(t => !t.closest('.hoverlayer') && t.textContent.trim())
            .map(t => ({el: t, r: t.getBoundingClientRect(), title: Boolean(t.closest('.g-xtitle, .g-ytitle')),
                        what: JSON.stringify(t.textContent.slice(0, 30))}));
        const bar = gd.querySelector('.modebar');
        if (bar) items.push({el: bar, r: bar.getBoundingClientRect(), title: false, what: 'the modebar'});
        const drawn = items.filter(i => i.r.width > 0.5 && i.r.height > 0.5);
        const edge = gd.getBoundingClientRect();
        for (const {r, what} of drawn) {
            const out = Math.max(edge.left - r.left, r.right - edge.right, edge.top - r.top, r.bottom - edge.bottom);
            if (out > 1) found.push(`${key}: ${what} is cut off`);
        }
        for (const [k, a] of drawn.entries()) for (const b of drawn.slice(k + 1)) {
            if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
            const gap = a.title || b.title ? 3 : -1;
            const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
            const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
            if (x > -gap && y > -gap) found.push(`${key}: ${a.what} and ${b.what}`);
        }
    }
    return found;
}"""
# every display equation that is wider than its column (it scrolls sideways: a part of it is out of view)
CUT_FORMULAS_JS = """() => [...document.querySelectorAll('.stMain .katex-display')]
    .filter(e => e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1)
    .map(e => `${e.querySelector('annotation').textContent.slice(0, 60)}: ${e.scrollWidth} > ${e.clientWidth} px`)"""
# Presenter mode and a phone show each section as a slide (lab/present.py): headings and figures appear in the order
# of the document (a title above its figures); in each slide (a section, or the page and what is not in a section)
# its heading comes before its first figure and its worked examples, which are within one screen of its heading and
# above that figure; with `fits`, so is the first figure (the slide's first screen shows it whole).
SLIDES_JS = """(fits) => {
    const problems = [];
    const box = e => e.getBoundingClientRect();
    const shown = e => e.offsetParent !== null && box(e).height > 0;
    const name = e => (e.innerText || e.getAttribute('aria-label') || '').slice(0, 40);
    const screen = window.innerHeight;
    const order = [...document.querySelectorAll(
        '.stMain [class*="st-key-kl_head_"] :is(h1, h3), .stMain .kl-plot')].filter(shown);
    for (const [k, e] of order.entries()) {
        if (k && box(e).top < box(order[k - 1]).top - 1) problems.push(`${name(e)} above ${name(order[k - 1])}`);
    }
    const slides = [...document.querySelectorAll('.stMain [class*="st-key-kl_slide_"]')].filter(shown);
    const own = (slide, selector) => [...(slide || document).querySelectorAll(selector)].filter(shown)
        .filter(e => e.closest('[class*="st-key-kl_slide_"]') === slide);
    for (const slide of [null, ...slides]) {
        const heading = slide ? own(slide, '[class*="st-key-kl_head_"] h3')[0]
                              : document.querySelector('.stMain .st-key-kl_head_page h1');
        const top = box(heading).top;
        const first = own(slide, '.kl-plot').map(box).sort((a, b) => a.top - b.top)[0];
        const examples = slide ? own(slide, '[class*="st-key-kl_head_"] button')
                               : [...document.querySelectorAll('.stMain .st-key-kl_presets button')];
        if (first && first.top < box(heading).bottom) problems.push(`a figure above ${name(heading)}`);
        if (first && fits && first.bottom - top > screen) {
            problems.push(`the first figure of ${name(heading)} ends ${Math.round(first.bottom - top)} px below it`);
        }
        for (const button of examples.map(box)) {
            if (button.bottom - top > screen || (first && button.bottom > first.top)) {
                problems.push(`an example of ${name(heading)} at ${Math.round(button.top - top)} px`);
            }
        }
    }
    return problems;
}"""


def draw_every_chart(page):
    """Wait until every chart on the page is drawn (one far from the window is drawn once, then when it comes near)."""
    page.wait_for_function("""() => [...document.querySelectorAll('.stMain .kl-plot')]
        .every(e => !e.offsetParent || e.getAttribute('data-kl-draws'))""", timeout=30_000)


def unfold_the_prose(page):
    """Open the expanders presenter mode and a phone fold the prose and the formulas into."""
    for label in ("The idea and the key formulas", "The rest of the text and the formulas"):
        for summary in page.locator('[data-testid="stMain"] [data-testid="stExpander"] summary', has_text=label).all():
            summary.click()
    wait_idle(page)
    page.wait_for_timeout(500)


def open_page(browser, url, viewport, **context):
    ctx = browser.new_context(viewport=viewport, **context)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url, wait_until="domcontentloaded")
    page.locator('[data-testid="stMain"] .js-plotly-plot').first.wait_for(state="visible", timeout=60_000)
    wait_idle(page)
    page.wait_for_timeout(1500)   # the charts' last redraw (the window's width, presenter mode's layout)
    wait_idle(page)
    return ctx, page, errors


def full_page_shot(page, name, width):
    """A screenshot of the first screen as the viewer sees it, and of the whole page (Streamlit scrolls inside its
    own container: a tall window shows all of it)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(max(height, 720), 8000)})
    page.wait_for_timeout(1200)
    page.screenshot(path=str(SHOTS / f"{name}-full.png"))


@pytest.mark.parametrize("path", [p for p, _ in PAGES])
def test_presenter_mode_at_1280x720_shows_slides_cuts_nothing_and_has_18px_plot_text(browser, app_url, path):
    ctx, page, errors = open_page(browser, f"{app_url}/{path}?present=true", PROJECTOR)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate(OVERFLOW_JS) == []
    draw_every_chart(page)
    assert page.evaluate(SLIDES_JS, True) == []
    assert page.evaluate(PLOT_OVERLAPS_JS) == []
    least, text = page.evaluate(PLOT_TEXT_JS)
    assert least >= 18, f"plot text {text!r} is {least} px"
    # the prose is folded away, into the expander that holds it, the page's title and a sentence above it
    assert page.locator('[data-testid="stExpander"]', has_text="The idea and the key formulas").count() == 1
    assert page.locator(".stMain .st-key-kl_head_page p").count() == 1
    full_page_shot(page, f"present-{path}", PROJECTOR["width"])
    page.set_viewport_size(PROJECTOR)
    unfold_the_prose(page)
    assert page.evaluate(CUT_FORMULAS_JS) == []
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("path", [p for p, _ in PAGES])
def test_at_1440x900_no_formula_is_cut_and_no_chart_text_overlaps(browser, app_url, path):
    ctx, page, errors = open_page(browser, f"{app_url}/{path}", DESKTOP)
    assert page.evaluate(OVERFLOW_JS) == []
    assert page.evaluate(CUT_FORMULAS_JS) == []
    draw_every_chart(page)
    assert page.evaluate(PLOT_OVERLAPS_JS) == []
    full_page_shot(page, f"desktop-{path}", DESKTOP["width"])
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("path", [p for p, _ in PAGES])
def test_a_phone_at_390px_shows_slides_cuts_nothing_and_reaches_the_data_controls(browser, app_url, path):
    ctx, page, errors = open_page(browser, f"{app_url}/{path}", PHONE, has_touch=True, is_mobile=True)
    assert page.locator('[data-testid="stException"]').count() == 0
    top = page.evaluate(FIRST_SLIDE_JS)
    assert 0 <= top < PHONE["height"], f"the first slide starts at {top:.0f} px"
    assert page.evaluate(OVERFLOW_JS) == []
    # no modebar over the legends on a narrow chart
    assert page.locator(".stMain .modebar-container .modebar").count() == 0
    draw_every_chart(page)
    assert page.evaluate(SLIDES_JS, False) == []
    assert page.evaluate(PLOT_OVERLAPS_JS) == []
    full_page_shot(page, f"phone-{path}", PHONE["width"])
    # the data controls are in the main area, in an expander (the sidebar is folded away on a phone)
    data = page.locator('[data-testid="stMain"] [data-testid="stExpander"]', has_text="Data: dataset, n, noise, seed")
    data.locator("summary").click()
    slider = data.locator('[data-testid="stSlider"]', has_text="n (number of points)")
    slider.wait_for(state="visible", timeout=10_000)
    assert slider.locator('[data-testid="stSliderThumbValue"]').inner_text() == "100"
    assert page.evaluate(OVERFLOW_JS) == []
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize(("name", "viewport", "query"), [("present", PROJECTOR, "?present=true"), ("phone", PHONE, "")])
def test_the_landing_page_cuts_nothing_on_a_projector_or_a_phone(browser, app_url, name, viewport, query):
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.goto(f"{app_url}/{query}", wait_until="domcontentloaded")
    page.get_by_role("link", name="6 · Kernel regression").last.wait_for(timeout=60_000)
    wait_idle(page)
    page.wait_for_timeout(1000)
    assert page.evaluate(OVERFLOW_JS) == []
    full_page_shot(page, f"{name}-home", viewport["width"])
    ctx.close()


def test_the_data_controls_on_a_phone_change_the_data(browser, app_url):
    ctx, page, _ = open_page(browser, f"{app_url}/primal-dual", PHONE, has_touch=True, is_mobile=True)
    data = page.locator('[data-testid="stMain"] [data-testid="stExpander"]', has_text="Data: dataset, n, noise, seed")
    data.locator("summary").click()
    before = page.evaluate(FIGURES_JS)
    thumb = data.locator('[data-testid="stSlider"]', has_text="n (number of points)").locator('input[type="range"]')
    thumb.focus()
    thumb.press("ArrowRight")
    page.wait_for_function(f"(before) => ({FIGURES_JS})() !== before", arg=before, timeout=30_000)
    wait_idle(page)
    assert parse_qs(urlparse(page.url).query).get("n") == ["110"]
    ctx.close()


def test_a_tap_on_a_phone_adds_a_point_where_it_lands(browser, app_url):
    ctx, page, _ = open_page(browser, f"{app_url}/primal-dual", PHONE, has_touch=True, is_mobile=True)
    left, top, width, height = plot_box(page, "pd_boundary")
    x, y = left + width * 0.7, top + height * 0.3
    where = page.evaluate("""([x, y]) => {
        const gd = document.querySelector('.st-key-pd_boundary .js-plotly-plot');
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis, r = gd.getBoundingClientRect();
        return [xa.p2c(x - r.left - xa._offset), ya.p2c(y - r.top - ya._offset)]; }""", [x, y])
    page.touchscreen.tap(x, y)
    points = wait_for_points(page, [])
    assert len(points) == 1 and points[0][2] == 1, points
    assert points[0][:2] == pytest.approx(where, abs=0.02)
    ctx.close()


def control_keys(page):
    """The keys of the controls drawn on the page (Streamlit marks a keyed element with st-key-<key>; a live slider
    of lab/live_control.py names its key in data-key)."""
    return page.evaluate("""() => [...document.querySelectorAll('[class*="st-key-"]')]
        .flatMap(el => [...el.classList].filter(c => c.startsWith('st-key-')).map(c => c.slice(7)))
        .concat([...document.querySelectorAll('.kl-control[data-key]')].map(el => el.dataset.key))""")


def test_a_shared_link_with_hidden_controls_reopens_the_view_and_its_qr_code_reads_as_the_link(browser, app_url):
    import zxingcpp

    view = "pd_space=kernel&pd_kernel=poly&pd_C=10&n=60&seed=3"
    ctx, page, _ = open_page(browser, f"{app_url}/primal-dual?{view}", {"width": 1280, "height": 900})
    shown = page.evaluate(FIGURES_JS)
    assert {"pd_C", "pd_degree", "n"} <= set(control_keys(page))
    page.get_by_role("button", name="Share this view").click()
    dialog = page.locator('[role="dialog"]')
    dialog.wait_for(timeout=10_000)
    for words, key in (("slack penalty", "pd_C"), ("polynomial degree", "pd_degree"), ("number of points", "n")):
        choose = dialog.locator('[data-testid="stMultiSelect"] input')   # typed: a part of the control's label
        choose.fill(words)
        page.locator('[role="option"]').first.wait_for(timeout=10_000)   # the list filtered to that control
        choose.press("Enter")
        # chosen (the choice reads "label · key"), also when a loaded machine is slow to show it
        dialog.locator('[data-testid="stMultiSelect"]').get_by_text(f"· {key}", exact=False).first.wait_for(
            timeout=10_000)
        wait_idle(page)
    dialog.get_by_text("Scan to open this view").click()   # closes the list of choices, which covers the QR code
    wait_idle(page)
    link = dialog.locator('[data-testid="stCode"] code').inner_text().strip()
    query = parse_qs(urlparse(link).query)
    assert urlparse(link).path == "/primal-dual"
    assert query["hide"] == ["pd_C,pd_degree,n"], link   # in the dialog's order: the page's own controls first
    assert {k: v[0] for k, v in query.items() if k != "hide"} == dict(p.split("=") for p in view.split("&"))
    # the QR code, as the browser shows it, reads as the link (once the browser has drawn the last one)
    decoded = []
    for _ in range(20):
        image = Image.open(io.BytesIO(dialog.locator('[data-testid="stImage"] img').screenshot()))
        decoded = [r.text for r in zxingcpp.read_barcodes(image)]
        if decoded == [link]:
            break
        page.wait_for_timeout(250)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "share-dialog.png"))
    assert decoded == [link]
    ctx.close()

    ctx, page, errors = open_page(browser, link, {"width": 1280, "height": 900})
    keys = set(control_keys(page))
    assert not keys & {"pd_C", "pd_degree", "n"}, keys
    assert {"pd_kernel", "pd_gamma", "seed"} <= keys
    # the same view: every figure draws the same data as the view that was shared
    assert page.evaluate(FIGURES_JS) == shown
    assert parse_qs(urlparse(page.url).query)["pd_C"] == ["10"]
    page.locator('[data-testid="stSidebar"]', has_text="This shared view hides 3 controls").wait_for(timeout=10_000)
    page.screenshot(path=str(SHOTS / "shared-view-hidden-controls.png"))
    assert not errors, errors
    ctx.close()


def test_charts_follow_a_dark_theme(browser, app_url):
    ctx, page, _ = open_page(browser, f"{app_url}/primal-dual?present=true", PROJECTOR, color_scheme="dark")
    colours = page.evaluate("""() => {
        const app = getComputedStyle(document.querySelector('.stApp'));
        const full = document.querySelector('.st-key-pd_boundary .js-plotly-plot')._fullLayout;
        const probe = document.createElement('div');
        document.body.appendChild(probe);
        const rgb = (c) => { probe.style.color = c; return getComputedStyle(probe).color; };
        return [app.backgroundColor, rgb(full.paper_bgcolor), rgb(full.font.color)]; }""")
    app_bg, paper, font = colours
    channels = [float(c) for c in app_bg[app_bg.index("(") + 1:-1].split(",")[:3]]
    assert sum(channels) / 3 < 60, f"the app is not dark: {app_bg}"
    assert paper == app_bg
    assert font == "rgb(255, 255, 255)"
    least, text = page.evaluate(PLOT_TEXT_JS)
    assert least >= 18, f"plot text {text!r} is {least} px"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "present-dark-primal-dual.png"))
    ctx.close()
