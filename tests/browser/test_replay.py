"""Replays in the real app (headless Debian Chromium): lesson 3's one player steps its decision plot and its α bars
together (the α's on the screen belong to the boundary on the screen) at every Step, Play, Pause and Reset; and the
keyboard's focus stays on the Step or Play a student pressed while the frames load on demand, so that Enter steps
again (lessons 3 and 4)."""

import pytest

from test_browser import open_lesson

pytestmark = pytest.mark.browser

# [frame, status line] of a chart (lab/live_chart_web/live_chart.js marks its frame on .kl-chart)
FRAME_JS = """(key) => { const chart = document.querySelector(`.st-key-${key} .kl-chart`);
    return [Number(chart.getAttribute('data-kl-frame')), chart.querySelector('.kl-status').textContent]; }"""
# the accessible name of the element that has the keyboard's focus
FOCUS_JS = "() => document.activeElement && document.activeElement.getAttribute('aria-label')"


def frame(page, key):
    return page.evaluate(FRAME_JS, key)


def wait_frame(page, key, k):
    page.wait_for_function(f"(key) => ({FRAME_JS})(key)[0] === {k}", arg=key, timeout=60_000)


def in_step(page):
    """The decision plot's frame and the α bars' frame, with the snapshot each names ("frame 3 of 16: step 4 …"), read
    in one go (two reads could fall on either side of a frame of the replay)."""
    (k, boundary), (j, alpha) = page.evaluate(f"() => [({FRAME_JS})('pd_boundary'), ({FRAME_JS})('pd_alpha')]")
    assert k == j, (boundary, alpha)
    assert boundary.removeprefix("playing ").split(": ", 1)[-1] == alpha.split(": ", 1)[-1], (boundary, alpha)
    return k


def test_lesson_3s_one_player_steps_plays_pauses_and_resets_the_decision_plot_and_the_alpha_bars_together(
        browser, app_url):
    page = open_lesson(browser, f"{app_url}/primal-dual")
    alpha = page.locator(".st-key-pd_alpha .kl-bar")
    # one player for the section: the α bars have no Play, Step or Reset of their own
    assert alpha.get_by_role("button", name="Play").count() == 0
    assert alpha.get_by_role("button", name="Step").count() == 0
    player = page.locator(".st-key-pd_boundary .kl-bar")
    step = player.get_by_role("button", name="Step")
    step.click()                                    # the frames load on demand, then the first is shown
    wait_frame(page, "pd_boundary", 0)
    assert in_step(page) == 0
    step.click()
    wait_frame(page, "pd_boundary", 1)
    assert in_step(page) == 1
    play = player.get_by_role("button", name="Play the training animation")
    play.click()
    page.wait_for_function("() => document.querySelector('.st-key-pd_boundary [data-kl-playing=\"true\"]')",
                           timeout=5_000)
    seen = {in_step(page)}
    for _ in range(4):
        page.wait_for_timeout(60)
        seen.add(in_step(page))
    # Play turned into Pause: it stops the replay where it is, on both charts
    player.get_by_role("button", name="Pause the training animation").click()
    page.wait_for_function("() => document.querySelector('.st-key-pd_boundary [data-kl-playing=\"false\"]')",
                           timeout=5_000)
    paused = in_step(page)
    page.wait_for_timeout(400)
    assert in_step(page) == paused and len(seen) > 1, seen
    player.get_by_role("button", name="Reset: back to the first frame").click()
    wait_frame(page, "pd_boundary", 0)
    assert in_step(page) == 0
    # played to its end, both charts show the last snapshot: the α's of the boundary drawn
    play.click()
    page.wait_for_function("() => document.querySelector('.st-key-pd_boundary [data-kl-playing=\"false\"]')"
                           " && document.querySelector('.st-key-pd_boundary .kl-chart').getAttribute("
                           "'data-kl-frame') !== '0'", timeout=60_000)
    last, status = frame(page, "pd_boundary")
    assert in_step(page) == last and f"frame {last + 1} of {last + 1}: " in status, status
    page.close()


@pytest.mark.parametrize(("path", "key", "name"), [
    ("primal-dual", "pd_boundary", "Step: show the next frame of the animation"),
    ("primal-dual", "pd_boundary", "Play the training animation"),
    ("pegasos", "pg_boundary", "Step: show the next frame of the animation"),
    ("pegasos", "pg_perceptron", "Step: show the next frame of the animation"),
])
def test_the_focus_stays_on_the_button_pressed_while_the_frames_load_and_enter_acts_again(
        browser, app_url, path, key, name):
    page = open_lesson(browser, f"{app_url}/{path}")
    button = page.locator(f".st-key-{key} .kl-bar").get_by_role("button", name=name)
    button.scroll_into_view_if_needed()
    button.focus()
    label = page.evaluate(FOCUS_JS)
    page.keyboard.press("Enter")                   # asks the server for the frames
    page.wait_for_function(f"(key) => ({FRAME_JS})(key)[0] >= 0", arg=key, timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('.st-key-{key} [data-kl-playing=\"false\"]')",
                           timeout=60_000)
    assert page.evaluate(FOCUS_JS) == label
    before = frame(page, key)[0]
    page.keyboard.press("Enter")
    if name.startswith("Step"):
        wait_frame(page, key, before + 1)
    else:                                           # Play again, from the start: the replay had reached its end
        page.wait_for_function(f"() => document.querySelector('.st-key-{key} [data-kl-playing=\"true\"]')",
                               timeout=5_000)
    assert page.evaluate(FOCUS_JS) in (label, label.replace("Play", "Pause"))
    page.close()


@pytest.mark.parametrize(("slug", "key"), [("primal-dual", "pd_boundary"), ("pegasos", "pg_boundary")])
def test_the_first_step_of_a_decision_plots_replay_is_drawn_from_the_route_before_the_rerun(browser, app_url, slug,
                                                                                            key):
    """The frames of a decision plot's replay are made on demand: its first Step asks the section's route for the
    figure with them and shows the first frame, before the rerun; the rerun brings the same figure, drawn no second
    time."""
    page = open_lesson(browser, f"{app_url}/{slug}")
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "_frames=" in request.url else None)
    draws = "(key) => Number(document.querySelector(`.st-key-${key} .js-plotly-plot`).getAttribute('data-kl-draws'))"
    before = page.evaluate(draws, key)
    page.locator(f".st-key-{key} .kl-bar").get_by_role("button", name="Step").click()
    wait_frame(page, key, 0)
    assert len(asked) == 1 and f"_frames={key}" in asked[0], asked
    page.wait_for_timeout(1500)                     # the rerun the event started has come and gone
    assert page.evaluate("() => document.querySelector('[data-testid=\"stApp\"]')"
                         ".getAttribute('data-test-script-state')") == "notRunning"
    # the figure with its frames drawn once (from the route), then frame 0 shown (a draw of the frame)
    assert page.evaluate(draws, key) == before + 2
    assert frame(page, key)[0] == 0
    page.close()
