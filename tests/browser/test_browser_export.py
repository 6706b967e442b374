"""Export in the real app (headless Chromium): each chart's PNG and SVG buttons download the plot, drawn by plotly.js
in the browser; the sidebar's CSV download holds the student's points and uploads back to the same points; the
Reproduce box shows its script with a copy button."""

from pathlib import Path

import pytest

from datasets.upload import read_points_csv
from lab import points
from test_browser import SHOTS, open_lesson, wait_idle

pytestmark = pytest.mark.browser

OWN = ((-0.75, -0.25, -1), (0.25, 0.5, 1), (1.5, -1.25, 1))


def download(page, button, folder):
    """Click `button` and return the downloaded file's suggested name and bytes."""
    with page.expect_download(timeout=30_000) as info:
        button.click()
    d = info.value
    assert d.failure() is None, d.failure()
    path = Path(folder) / d.suggested_filename
    d.save_as(path)
    return d.suggested_filename, path.read_bytes()


@pytest.mark.parametrize(("lesson", "key"), [("primal-dual", "pd_boundary"), ("circle", "cl_lift3d")])
def test_png_and_svg_buttons_download_the_plot(browser, app_url, tmp_path, lesson, key):
    page = open_lesson(browser, f"{app_url}/{lesson}")
    chart = page.locator(f".st-key-{key}")
    name, png = download(page, chart.get_by_role("button", name="PNG:"), tmp_path)
    assert name == f"kernel-lab-{key}.png" and png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5_000
    name, svg = download(page, chart.get_by_role("button", name="SVG:"), tmp_path)
    text = svg.decode()
    assert name == f"kernel-lab-{key}.svg" and text.startswith("<svg") and text.rstrip().endswith("</svg>")
    assert "class=\"main-svg\"" in text
    SHOTS.mkdir(parents=True, exist_ok=True)
    chart.screenshot(path=str(SHOTS / f"export-buttons-{key}.png"))
    page.close()


def test_points_csv_downloads_and_uploads_back_to_the_same_points(browser, app_url, tmp_path):
    page = open_lesson(browser, f"{app_url}/primal-dual?pts={points.encode(OWN)}")
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text(f"Your own points ({len(OWN)})").click()
    box = page.locator('[data-testid="stPopoverBody"]')   # the popover's panel, drawn outside the sidebar
    name, csv = download(page, box.get_by_role("button", name="Download my points (CSV)"), tmp_path)
    assert name == "kernel-lab-points.csv"
    assert read_points_csv(csv, max_rows=200, max_bytes=2**20).points == OWN
    # Clear, then upload the downloaded file: the same points come back
    box.get_by_role("button", name="Clear").click()
    sidebar.get_by_text("Your own points (0)").wait_for(timeout=10_000)
    wait_idle(page)
    box.locator('input[type="file"]').set_input_files(str(tmp_path / name))
    sidebar.get_by_text(f"Your own points ({len(OWN)})").wait_for(timeout=20_000)
    wait_idle(page)
    assert points.decode(page.evaluate("() => new URLSearchParams(location.search).get('pts')")) == OWN
    page.close()


def test_reproduce_box_shows_the_script_with_a_copy_button(browser, app_url):
    page = open_lesson(browser, f"{app_url}/circle?cl_C=1000")
    main = page.locator('[data-testid="stMain"]')
    main.get_by_text("Reproduce in Python").click()
    code = main.locator('[data-testid="stCode"]', has_text="# Kernel Lab, lesson 2")
    code.wait_for(timeout=20_000)
    assert f"{app_url}/circle?cl_C=1000" in code.inner_text()   # the view's own link heads the script
    code.scroll_into_view_if_needed()
    code.hover()
    assert code.locator("button").count() >= 1   # st.code's copy button
    page.screenshot(path=str(SHOTS / "reproduce-box.png"))
    page.close()

