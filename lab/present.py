"""How the lab fits its screen: presenter mode on a projector, the Share button, and narrow screens (a phone).

The lab's stylesheet comes with a small element of its own (`view_element`, a components-v2 component without raw
HTML): it puts the class `kl-present` on the page in presenter mode, and reports whether the window is at most
NARROW_PX wide (a phone), whereupon the server draws the data controls in the main area (lab/sidebar.py), since a
phone folds the sidebar away. Presenter mode (?present=true) is that CSS, folded prose (lab/page.py) and a
look the chart element applies to the same figure JSON (lab/live_chart.py): no figure is built again for it.
"""

import streamlit as st

from lab import share, widgets
from lab.state import FIELDS
from lab.widgets import HIDDEN

NARROW_PX = 640

# Slides: in each block, a head comes first (the page's or a section's: title, its first sentence, its worked examples;
# lab/page.py's header and section), then the page's row of worked examples and a phone's data controls, then the
# sections (slides) and the other blocks that hold a chart, in their order (the charts of a row of columns stacked,
# each at full width, before the row's other columns); then the rest: controls, numbers, code. A section within a
# section keeps its place. For presenter mode, and always on a narrow screen.
SLIDES = """
{scope} .stMain [data-testid="stVerticalBlock"] > :has(.kl-chart):not([data-testid="stElementContainer"]) \
{{ order: -1; }}
{scope} .stMain [data-testid="stVerticalBlock"] > :has(> [class*="st-key-kl_slide_"]) {{ order: -1; }}
{scope} .stMain [class*="st-key-kl_slide_"] [data-testid="stVerticalBlock"] > :has(> [class*="st-key-kl_slide_"]) \
{{ order: 0; }}
{scope} .stMain [data-testid="stVerticalBlock"] > :has(> [class*="st-key-kl_head_"]) {{ order: -3; }}
{scope} .stMain [data-testid="stVerticalBlock"] > :has(> .st-key-kl_presets) {{ order: -2; }}
{scope} .stMain [data-testid="stVerticalBlock"] > :is(.st-key-data_main, :has(.st-key-data_main)) {{ order: -2; }}
{scope} .stMain [data-testid="stHorizontalBlock"]:has(.kl-chart) {{ flex-direction: column; }}
{scope} .stMain [data-testid="stHorizontalBlock"]:has(.kl-chart) > [data-testid="stColumn"] \
{{ width: 100%; flex: 1 1 auto; }}
{scope} .stMain [data-testid="stHorizontalBlock"]:has(.kl-chart) > [data-testid="stColumn"]:has(.kl-chart) \
{{ order: -1; }}
"""

# Always: a display equation wider than its column wraps after a relation or an operator (=, ⇒, +) at the outer level
# of the formula, as KaTeX breaks inline math (its last glyph's overhang kept inside by a little padding), and scrolls
# sideways only where one unbroken piece is wider still; a control's label,
# a button's text, a segmented control's options and a row of tabs wrap instead of ending in "…" or scrolling; a
# static table (page.fitted_table) wraps its cells. On a narrow screen, slides and a smaller title.
BASE_CSS = f"""
.stMain .katex-display {{ overflow-x: auto; overflow-y: hidden; padding: 0.1rem 0; }}
.stMain .katex-display > .katex, .stMain .katex-display > .katex > .katex-html {{ white-space: normal; }}
.stMain .katex-display > .katex > .katex-html {{ padding: 0 0.2em; }}
.stMain .stMarkdownEllipsis, .stMain .stMarkdownEllipsis * \
{{ white-space: normal; text-overflow: clip; overflow: visible; }}
.stMain [data-testid="stButtonGroup"] > div {{ flex-wrap: wrap; overflow-x: visible; }}
.stMain [data-testid="stButtonGroup"] button {{ flex: 0 1 auto; }}
.stMain [data-testid="stTable"] table {{ table-layout: fixed; width: 100%; }}
.stMain [data-testid="stTable"] th, .stMain [data-testid="stTable"] td \
{{ white-space: normal; overflow-wrap: anywhere; }}
.stMain [data-testid="stTable"] :is(th, td) [data-testid="stMarkdownContainer"] {{ display: block; max-width: 100%; }}
.stMain [data-testid="stTable"] :is(th, td) [data-testid="stMarkdownContainer"] * {{ overflow-wrap: anywhere; }}
.stMain [data-testid="stTabs"] [role="tablist"] {{ flex-wrap: wrap; overflow-x: visible; }}
@media (max-width: {NARROW_PX}px) {{
{SLIDES.format(scope="")}
.stMain h1 {{ font-size: 1.9rem; }}
.stMain [data-testid="stTable"] {{ font-size: 0.8rem; }}
}}
"""

# Presenter mode (the page has the class kl-present): slides, less space above the title, larger app text.
PRESENT_CSS = SLIDES.format(scope=".kl-present") + """
.kl-present .stMain .stMainBlockContainer { padding-top: 4rem; }
.kl-present .stMain h1 { font-size: 2rem; padding: 0 0 0.25rem 0; }
.kl-present .stMain [data-testid="stMarkdownContainer"] p,
.kl-present .stMain [data-testid="stWidgetLabel"] p { font-size: 1.15rem; }
.kl-present .stMain [data-testid="stMetricValue"] { font-size: 2.4rem; }
"""

_VIEW_JS = f"""
export default function ({{data, setStateValue}}) {{
  document.documentElement.classList.toggle("kl-present", Boolean(data && data.present));
  const query = window.matchMedia("(max-width: {NARROW_PX}px)");
  const report = () => {{ if (query.matches !== Boolean(data && data.narrow)) \
setStateValue("narrow", query.matches); }};
  report();
  query.addEventListener("change", report);
  return () => query.removeEventListener("change", report);
}}
"""
# isolate_styles=False: the stylesheet is for the whole page, not for a shadow root of the element's own
_view = st.components.v2.component("kernel_lab.view", css=BASE_CSS + PRESENT_CSS, js=_VIEW_JS, isolate_styles=False)


def narrow():
    """Whether the browser's window is a phone's (at most NARROW_PX wide), as its last report said."""
    return bool((st.session_state.get("lab_view") or {}).get("narrow"))


def view_element():
    """The element that carries the lab's stylesheet, marks presenter mode on the page and reports the window's
    width class (a change reruns the app)."""
    _view(key="lab_view", data={"narrow": narrow(), "present": bool(st.session_state.get("present"))},
          on_narrow_change=lambda: None)


def _show_hidden():
    del st.query_params["hide"]


def controls(path):
    """The view's controls, in the sidebar: presenter mode, Share, and what this shared view hides."""
    widgets.toggle("Presenter mode", "present",
                   help="For a projector: each section as a slide (its title, a sentence and its worked examples, "
                        "then its figures, large), text at least 18 px in full contrast, the rest of the prose folded "
                        "away. The theme (light or dark) is in the ⋮ menu, Settings.")
    share.button(path)
    hidden = st.session_state.get(HIDDEN, ())
    if hidden:
        st.caption(f"This shared view hides {len(hidden)} control{'s' if len(hidden) != 1 else ''}: "
                   + ", ".join(key for key in FIELDS if key in hidden) + ".")
        st.button("Show every control", on_click=_show_hidden, key="show_hidden", icon=":material/visibility:")
