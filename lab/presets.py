"""One-click presets: every worked example of the lecture notes as a set of URL-schema values (lab/state.py).

A preset names its source (lecture and section), the page it belongs to, the controls it sets and what the student
should then see. Applying one writes its values into the session state and reruns, so the controls draw them and
write them into the link; `link` gives the same view as a link. The data is part of a preset: the sidebar's dataset,
n and seed are schema values like any other, and "Use only my points" is switched off (the student's own points
stay; they are added to the example's data, as on any page).
"""

from dataclasses import dataclass
from urllib.parse import urlencode

from lab.state import FIELDS, encode

LFD = "Learning From Data, Lecture 25"
LECTURE_8 = "Lecture 8 (SSBD ch. 16)"
JAAKKOLA = "CS578 Lecture 4 (Honorio, after Jaakkola)"
PARK = "ECE 5984 Kernel Methods (Park)"
CS229 = "Kernel Methods notes, LMS with features"
# lesson 5's tabs are bound to the link under this key (st.tabs(..., key=TAB_KEY, bind="query-params"))
TAB_KEY = "mc_tab"
# the sidebar's data for the examples drawn on the circle rule: Lecture 8's data, 100 points, seed 0
CIRCLE_DATA = (("dataset", "circle_rule"), ("n", 100), ("seed", 0), ("only_mine", False))


@dataclass(frozen=True)
class Preset:
    """A worked example. key: its id (button key, tests); values: (schema key, value) pairs; tab: lesson 5's tab
    to open (its tabs are bound to the link as TAB_KEY, outside the schema); expect: what the page then shows;
    section: the key of the page's section it belongs to (lab/page.py's `section`), where presenter mode shows it."""

    key: str
    name: str
    source: str
    page: str
    values: tuple
    expect: str
    tab: str | None = None
    section: str | None = None

    def link(self):
        """The page's path and query that reopen this view: every value that differs from its default (a default
        value is what a fresh session shows anyway, so the link leaves it out, as the controls do)."""
        fields = [(FIELDS[k], v) for k, v in self.values]
        query = {f.key: encode(f, v) for f, v in fields if encode(f, v) != encode(f, f.default)}
        if self.tab:
            query[TAB_KEY] = self.tab
        return f"/{self.page}" + (f"?{urlencode(query)}" if query else "")
