"""The lessons, in order: the one list the navigation, the landing page, the URL schema, the live routes, the server's
warm-up, the tests, the benchmarks and the README's list are made from. A lesson is one entry here and its folder:
page.py (the page), compute.py (its memoized core calls), fields.py (its controls in the URL schema), presets.py
(the notes' worked examples) and sections.py (its live sections), beside its views and Reproduce scripts."""

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from lab import state

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Lesson:
    """One lesson. slug: its URL path and the page that owns its controls in the URL schema; package: its folder as
    a Python package; math: where its mathematics lives. Making the entry adds its fields to the URL schema."""

    number: int
    slug: str
    title: str
    summary: str
    package: str
    math: tuple

    def __post_init__(self):
        state.register(self.module("fields").FIELDS)

    def module(self, name):
        """The lesson's module `name` (fields, presets, sections, compute)."""
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def script(self):
        """The page, as st.navigation runs it: its path from the app's folder."""
        origin = Path(importlib.util.find_spec(self.package).submodule_search_locations[0])
        return (origin / "page.py").relative_to(ROOT).as_posix()

    @property
    def compute(self):
        """Its compute module, imported once per server process before the heap is frozen (lab/server.py)."""
        return f"{self.package}.compute"

    @property
    def presets(self):
        return self.module("presets").PRESETS

    @property
    def sections(self):
        return self.module("sections").SECTIONS


LESSONS = [
    Lesson(1, "feature-maps", "Feature maps & the kernel trick",
           "K(x, z) = φ(x)·φ(z) checked on your points, what the trick saves, the Gaussian's infinite map",
           "lessons.feature_maps", ("kernel_core/feature_maps.py", "kernel_core/descent.py")),
    Lesson(2, "circle", "The circle, lifted to 3-D",
           "φ(x) = (1, x₁², x₂²) lifts the circle data to where the plane w = (−1, 1, 1) separates it",
           "lessons.circle", ("kernel_core/feature_maps.py", "kernel_core/primal.py")),
    Lesson(3, "primal-dual", "SVM: primal versus dual",
           "hard margin, offset and slack C solved both ways: w, b, the duality gap, KKT and the α's",
           "lessons.primal_dual", ("kernel_core/svm.py", "kernel_core/smo.py", "kernel_core/dual.py",
                                   "kernel_core/primal.py", "kernel_core/crossval.py", "kernel_core/batch.py",
                                   "kernel_core/multiclass.py")),
    Lesson(4, "pegasos", "Pegasos & the perceptron",
           "kernelized SGD exactly as Algorithm 1 of the notes, replayed step by step, and the kernel perceptron",
           "lessons.pegasos", ("kernel_core/pegasos.py", "kernel_core/perceptron.py")),
    Lesson(5, "mercer", "Mercer: is K a kernel?",
           "the Gram matrix's spectrum, a certificate when it is not PSD, the closure rules and your own formula",
           "lessons.mercer", ("kernel_core/mercer.py", "kernel_core/formula.py")),
    Lesson(6, "regression", "Kernel regression",
           "kernel ridge and the representer bumps, gradient descent on θ and on β, kernel logistic regression",
           "lessons.regression", ("kernel_core/ridge.py", "kernel_core/descent.py", "kernel_core/logistic.py",
                                  "kernel_core/representer.py")),
]


def sections():
    """Every live section of every lesson: the routes serve.py adds, the tests and the benchmarks read them here."""
    return [section for lesson in LESSONS for section in lesson.sections]


def presets():
    """Every worked example of every lesson, in lesson order."""
    return [preset for lesson in LESSONS for preset in lesson.presets]


def compute_modules():
    """Every lesson's compute module: what the server's warm-up imports (lab/server.py)."""
    return tuple(lesson.compute for lesson in LESSONS)


def nav_title(lesson):
    return f"{lesson.number} · {lesson.title}"


def readme_list():
    """The README's numbered list of lessons."""
    return "\n".join(f"{lesson.number}. {lesson.title}: {lesson.summary}" for lesson in LESSONS)

