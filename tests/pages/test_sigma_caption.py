"""σ beside γ: wherever a page has γ for a kernel the notes write with a width σ, a caption under the slider gives
that σ, and putting it back into the notes' own formula gives the lab's kernel value."""

import re

import numpy as np
import pytest

from pageutil import open_page

# (page, the state that shows the chooser, the kernel key, the γ key)
CHOOSERS = [
    ("lessons/primal_dual/page.py", {"pd_space": "kernel"}, "pd_kernel", "pd_gamma"),
    ("lessons/pegasos/page.py", {}, "pg_kernel", "pg_gamma"),
    ("lessons/mercer/page.py", {}, "mc_kernel", "mc_gamma"),
    # lesson 6's other chooser on the linear kernel, which has no γ: one caption to read
    ("lessons/regression/page.py", {"rgl_kernel": "linear"}, "rg_kernel", "rg_gamma"),
    ("lessons/regression/page.py", {"rg_kernel": "linear"}, "rgl_kernel", "rgl_gamma"),
]
GAMMAS = (0.316, 10.0)
DISTANCES = np.array([0.1, 0.7, 1.3, 2.0])   # ‖x − z‖
RTOL = 1.1e-2   # σ shown to 3 significant digits: σ² within about 1 %


def captions(at):
    return [c.value for c in at.caption]


def widths(text, pattern):
    return [float(v) for v in re.findall(pattern, text)]


def caption_for(at, gamma):
    found = [c for c in captions(at) if c.startswith(f"γ = {gamma:.3g} ⇔")]
    assert len(found) == 1, captions(at)
    return found[0]


@pytest.mark.parametrize("page, state, kernel_key, gamma_key", CHOOSERS)
@pytest.mark.parametrize("gamma", GAMMAS)
def test_gaussian_gamma_is_shown_as_lecture_8_sigma_and_park_sigma(page, state, kernel_key, gamma_key, gamma):
    at = open_page(page, state={**state, kernel_key: "rbf", gamma_key: gamma})
    text = caption_for(at, gamma)
    (sigma_l8,) = widths(text, r"σ = 1/γ = ([\d.e+-]+) in Lecture 8's")
    (sigma_park,) = widths(text, r", σ = ([\d.e+-]+) in Park's exp\(−‖x − z‖²/σ²\)")
    # the caption's σ, put back into each note's formula, gives the exponent of the lab's exp(−γ‖x − z‖²) (to the
    # 3 significant digits shown: σ² within ~1 %)
    exponent = gamma * DISTANCES**2
    np.testing.assert_allclose(DISTANCES**2 / sigma_l8, exponent, rtol=RTOL)
    np.testing.assert_allclose(DISTANCES**2 / sigma_park**2, exponent, rtol=RTOL)


@pytest.mark.parametrize("kernel, pattern, formula", [
    ("laplacian", r"σ = 1/γ = ([\d.e+-]+) in Park's", lambda d, s: d / s),
    ("exponential", r", σ = ([\d.e+-]+) in Park's", lambda d, s: d / s**2),
])
def test_laplacian_and_exponential_gamma_are_shown_as_parks_sigma(kernel, pattern, formula):
    gamma = GAMMAS[0]
    at = open_page("lessons/pegasos/page.py", state={"pg_kernel": kernel, "pg_gamma": gamma})
    (sigma,) = widths(caption_for(at, gamma), pattern)
    np.testing.assert_allclose(formula(DISTANCES, sigma), gamma * DISTANCES, rtol=RTOL)


def test_no_sigma_caption_for_a_kernel_without_a_width():
    at = open_page("lessons/pegasos/page.py", state={"pg_kernel": "sigmoid"})
    assert not [c for c in captions(at) if "⇔ σ" in c or "⇔ 2σ" in c]


@pytest.mark.parametrize("gamma", GAMMAS)
def test_taylor_gamma_is_shown_as_the_sigma_of_parks_taylor_example(gamma):
    at = open_page("lessons/feature_maps/page.py", state={"fm_gamma": gamma})
    text = caption_for(at, gamma)
    (sigma,) = widths(text, r", σ = ([\d.e+-]+) in Park's Taylor example")
    (sigma_l8,) = widths(text, r"σ = 1/γ = ([\d.e+-]+) in Lecture 8's")
    # Park: φ(x)·φ(z) = exp(−(x − z)²/(2σ²)); the page's e^{−γ(x − z)²}
    exponent = gamma * DISTANCES**2
    np.testing.assert_allclose(DISTANCES**2 / (2 * sigma**2), exponent, rtol=RTOL)
    np.testing.assert_allclose(DISTANCES**2 / sigma_l8, exponent, rtol=RTOL)
