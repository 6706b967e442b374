"""The real app in headless Debian Chromium: every page opens from the navigation, draws its figure with
no exception box, and redraws it when a slider is moved with the keyboard. Saves a screenshot per page."""

from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
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


def redraws_after_a_slider_key(page):
    """Move the page's sliders one at a time with the arrow keys until a figure redraws."""
    sliders = page.locator('[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]')
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

    assert redraws_after_a_slider_key(page), "no slider moved by the keyboard redrew a figure"
    assert page.locator('[data-testid="stException"]').count() == 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    # Streamlit scrolls inside its own container: a tall viewport shows the whole page
    height = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": 1400, "height": min(max(height, 900), 6000)})
    page.wait_for_timeout(1500)
    page.screenshot(path=str(SHOTS / f"{path}.png"))
    assert not errors, errors
    page.close()
