"""The lessons, in order: the one list app.py's navigation, the landing page, the tests, the benchmarks and the
README's list are made from. A new lesson is one entry here plus its page script and compute module."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    """One lesson. slug: its URL path and the page that owns its controls in the URL schema (lessons/state.py);
    script: the page, run by st.navigation; compute: the module of its memoized core calls, imported once per
    server process before the heap is frozen (lessons/server.py); math: where its mathematics lives."""

    number: int
    slug: str
    title: str
    summary: str
    script: str
    compute: str
    math: tuple


LESSONS = [
    Lesson(1, "feature-maps", "Feature maps & the kernel trick",
           "K(x, z) = φ(x)·φ(z) checked on your points, what the trick saves, the Gaussian's infinite map",
           "lessons/1_feature_maps.py", "lessons.compute_feature_maps",
           ("kernel_core/feature_maps.py", "kernel_core/regression.py")),
    Lesson(2, "circle", "The circle, lifted to 3-D",
           "φ(x) = (1, x₁², x₂²) lifts the circle data to where the plane w = (−1, 1, 1) separates it",
           "lessons/2_circle_lift.py", "lessons.compute_circle", ("kernel_core/feature_maps.py", "kernel_core/primal.py")),
    Lesson(3, "primal-dual", "SVM: primal versus dual",
           "hard margin, offset and slack C solved both ways: w, b, the duality gap, KKT and the α's",
           "lessons/3_primal_dual.py", "lessons.compute_primal_dual",
           ("kernel_core/svm.py", "kernel_core/smo.py", "kernel_core/dual.py", "kernel_core/primal.py")),
    Lesson(4, "pegasos", "Pegasos & the perceptron",
           "kernelized SGD exactly as Algorithm 1 of the notes, replayed step by step, and the kernel perceptron",
           "lessons/4_pegasos.py", "lessons.compute_pegasos", ("kernel_core/pegasos.py", "kernel_core/perceptron.py")),
    Lesson(5, "mercer", "Mercer: is K a kernel?",
           "the Gram matrix's spectrum, a certificate when it is not PSD, the closure rules and your own formula",
           "lessons/5_mercer.py", "lessons.compute_mercer", ("kernel_core/mercer.py", "kernel_core/formula.py")),
    Lesson(6, "regression", "Kernel regression",
           "kernel ridge and the representer bumps, gradient descent on θ and on β, kernel logistic regression",
           "lessons/6_regression.py", "lessons.compute_regression", ("kernel_core/regression.py",)),
]


def nav_title(lesson):
    return f"{lesson.number} · {lesson.title}"


def readme_list():
    """The README's numbered list of lessons."""
    return "\n".join(f"{lesson.number}. {lesson.title}: {lesson.summary}" for lesson in LESSONS)
