"""Accessibility in the real app (headless Debian Chromium): every chart has its text alternative and buttons whose
names say which chart they act on; every control of a page is reached with Tab and works from the keyboard."""

import pytest

from test_browser import open_lesson, wait_idle

pytestmark = pytest.mark.browser

PATHS = ["feature-maps", "circle", "primal-dual", "pegasos", "mercer", "regression"]
# what a keyboard user can reach: every enabled control Streamlit or the chart element draws in the page's main part
SELECTOR = ('[data-testid="stMain"] :is(button, input, textarea, select, [role="slider"], a[href], '
            '[tabindex]:not([tabindex="-1"]))')
CONTROLS_JS = f"""() => [...document.querySelectorAll('{SELECTOR}')]
    .filter(e => !e.disabled && e.offsetParent !== null && e.getAttribute('tabindex') !== '-1'
                 && !e.closest('[aria-hidden="true"], details:not([open])'))"""
# each control's Tab stop, in data-kl-tab; a radio group (a segmented control) is one stop, its options are then
# chosen with the arrow keys
MARK_JS = f"""() => {{
    const groups = [];
    for (const [i, e] of ({CONTROLS_JS})().entries()) {{
        let stop = String(i);
        if (e.getAttribute('role') === 'radio') {{
            const group = e.closest('[role="radiogroup"]') || e.parentElement;
            if (!groups.includes(group)) groups.push(group);
            stop = 'radio group ' + groups.indexOf(group);
        }}
        e.dataset.klTab = stop;
    }}
    return new Set(({CONTROLS_JS})().map(e => e.dataset.klTab)).size;
}}"""


@pytest.mark.parametrize("path", PATHS)
def test_every_chart_has_a_text_alternative_and_buttons_named_for_it(browser, app_url, path):
    page = open_lesson(browser, f"{app_url}/{path}")
    charts = page.eval_on_selector_all(".kl-plot", """els => els.map(e => ({
        role: e.getAttribute('role'), label: e.getAttribute('aria-label') || '',
        traces: (e.data || []).map(t => t.name).filter(Boolean)}))""")
    assert charts
    for chart in charts:
        assert chart["role"] == "figure"
        # the label names what the plot in the browser draws
        assert all(name in chart["label"] for name in chart["traces"]), chart
    buttons = page.eval_on_selector_all(".kl-bar button", "els => els.filter(e => e.offsetParent !== null)"
                                                          ".map(e => e.getAttribute('aria-label'))")
    assert len(buttons) == len(set(buttons)), buttons
    page.close()


@pytest.mark.parametrize("path", PATHS)
def test_every_control_of_a_page_is_reached_with_tab(browser, app_url, path):
    page = open_lesson(browser, f"{app_url}/{path}")
    count = page.evaluate(MARK_JS)
    assert count > 5
    reached = set()
    page.locator('[data-testid="stMain"] h1').first.click()   # start at the top of the page
    for _ in range(count * 3 + 20):
        page.keyboard.press("Tab")
        stop = page.evaluate("() => document.activeElement && document.activeElement.dataset.klTab")
        if stop is not None:
            reached.add(stop)
        if len(reached) == count:
            break
    missed = page.evaluate(f"""(reached) => ({CONTROLS_JS})().filter(e => !reached.includes(e.dataset.klTab))
        .map(e => e.outerHTML.slice(0, 160))""", sorted(reached))
    assert missed == []
    page.close()


def test_a_preset_and_a_charts_play_button_work_from_the_keyboard(browser, app_url):
    page = open_lesson(browser, f"{app_url}/primal-dual")
    page.get_by_role("button", name="4-point QP example").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.search.includes('dataset=lfd_toy')", timeout=30_000)
    wait_idle(page)
    page.get_by_text("0.7071").first.wait_for(timeout=30_000)   # the notes' margin 1/√2
    status = page.locator(".st-key-pd_boundary .kl-status")
    before = status.inner_text()
    page.locator(".st-key-pd_boundary").get_by_role("button", name="Step").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("([el, before]) => el.innerText !== before", arg=[status.element_handle(), before],
                           timeout=10_000)
    page.close()
