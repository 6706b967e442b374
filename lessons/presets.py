"""One-click presets: every worked example of the lecture notes as a set of URL-schema values (lessons/state.py).

A preset names its source (lecture and section), the page it belongs to, the controls it sets and what the student
should then see. Applying one writes its values into the session state and reruns, so the controls draw them and
write them into the link; `link` gives the same view as a link. The data is part of a preset: the sidebar's dataset,
n and seed are schema values like any other, and "Use only my points" is switched off (the student's own points
stay; they are added to the example's data, as on any page).
"""

from dataclasses import dataclass
from urllib.parse import urlencode

from lessons.state import FIELDS, encode

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
    to open (its tabs are bound to the link as TAB_KEY, outside the schema); expect: what the page then shows."""

    key: str
    name: str
    source: str
    page: str
    values: tuple
    expect: str
    tab: str | None = None

    def link(self):
        """The page's path and query that reopen this view: every value that differs from its default (a default
        value is what a fresh session shows anyway, so the link leaves it out, as the controls do)."""
        fields = [(FIELDS[k], v) for k, v in self.values]
        query = {f.key: encode(f, v) for f, v in fields if encode(f, v) != encode(f, f.default)}
        if self.tab:
            query[TAB_KEY] = self.tab
        return f"/{self.page}" + (f"?{urlencode(query)}" if query else "")


PRESETS = (
    Preset("taylor", "Gaussian's Taylor map", f"{LFD}, slide 16; {PARK}, Kernel Example (3)", "feature-maps",
           (("fm_gamma", 1.0), ("fm_z", 1.0), ("fm_m", 4)),
           "e^{−(x−x′)²} = e^{−x²}e^{−x′²} Σᵢ (2xx′)ⁱ/i!: γ = 1, the exact kernel beside the sum of its first m terms."),
    Preset("cubic_notes", "cubic house prices, θ and β", CS229, "feature-maps",
           (("fm_eta", 0.5), ("fm_T", 100), ("fm_mode", "batch")),
           "φ(x) = (1, x, x², x³) and its kernel 1 + xx′ + (xx′)² + (xx′)³: gradient descent on θ and the same "
           "steps on β give one curve."),
    Preset("circle", "circle rule, w = (−1, 1, 1)", f"{LECTURE_8}, §1", "circle",
           CIRCLE_DATA + (("cl_data", "notes"), ("cl_lift", "circle"), ("cl_hard", False), ("cl_C", 100.0)),
           "φ(x) = (1, x₁², x₂²): the plane w = (−1, 1, 1) makes no training error."),
    Preset("paraboloid", "lift (x₁, x₂, x₁² + x₂²)", f"{PARK}, Feature Transformation", "circle",
           CIRCLE_DATA + (("cl_data", "notes"), ("cl_lift", "paraboloid"), ("cl_hard", False), ("cl_C", 100.0)),
           "The circle rule lifted onto a paraboloid: the plane x₁² + x₂² = 1 separates it."),
    Preset("lfd_toy", "4-point QP example", f"{LFD}, slide 9", "primal-dual",
           (("dataset", "lfd_toy"), ("only_mine", False), ("pd_space", "linear"), ("pd_offset", True),
            ("pd_hard", True)),
           "Hard margin with offset, φ(x) = x: α* = (½, ½, 1, 0), w = (1, −1), b = −1, margin 1/√2."),
    Preset("pegasos", "Algorithm 1 (kernelized SGD)", f"{LECTURE_8}, §1.4", "pegasos",
           CIRCLE_DATA + (("pg_kernel", "rbf"), ("pg_gamma", 1.0), ("pg_lam", 0.1), ("pg_T", 2000),
                          ("pg_seed", 0), ("pg_iterate", "avg"), ("pg_replay", 100)),
           "Lecture 8's Gaussian kernel with σ = 1 (γ = 1) and λ = 0.1 on its circle data: α^t = β^t/(λt), "
           "α̂ = (1/T) Σₜ α^t."),
    Preset("perceptron", "kernel perceptron: mistake counts", f"{JAAKKOLA}, Kernel perceptron", "pegasos",
           CIRCLE_DATA + (("pg_kernel", "rbf"), ("pg_gamma", 1.0), ("pg_epochs", 50)),
           "K(x, x′) = exp(−‖x − x′‖²) as on the slide: αᵢ counts the mistakes on point i until convergence."),
    Preset("mercer_lfd", "(½ + x·x′)² − ¼", f"{LFD}, slide 15", "mercer",
           (("mc_formula", "(0.5 + dot(x, z))**2 - 0.25"),),
           "The kernel of Φ(x) = (x₁, x₂, x₁², √2x₁x₂, x₂²): a Gram matrix with no negative eigenvalue and at most "
           "5 positive ones.", tab="Your formula"),
    Preset("cubic", "cubic house prices, LMS and kernel LMS", f"{CS229}; {PARK}, Kernel Linear Regression",
           "regression",
           (("rg_kernel", "poly"), ("rg_degree", 3), ("rg_gamma", 1.0), ("rg_coef0", 1.0), ("rg_eta", 0.5),
            ("rg_T", 200), ("rg_mode", "batch")),
           "A cubic kernel (1 + xx′)³, whose φ is (1, √3x, √3x², x³): LMS on θ and kernel LMS on β "
           "draw the same curve."),
)


def for_page(slug):
    """The presets of the page with URL path `slug`, in the order above."""
    return [p for p in PRESETS if p.page == slug]

