"""Figures send float32 where it is exact enough and float64 where float32 would overflow to inf:
a degree-10 polynomial with γ = 100 on points near |x| = 10 gives kernel values near 1e43."""

import json

import numpy as np

from figures import plot_values
from figures.boundary import decision_figure
from figures.mercer import gram_heatmap, spectrum_figure
from figures.pegasos import objective_figure
from kernel_core.kernels import polynomial_kernel
from kernel_core.mercer import check_psd
from pageutil import decode

X = np.array([[10.0, 10.0], [-10.0, 9.5], [9.0, -10.0], [-9.5, -9.0]])
y = np.array([-1.0, 1.0, 1.0, -1.0])
K = polynomial_kernel(X, degree=10, gamma=100.0, coef0=1.0)


def arrays(fig):
    """Every array the figure sends, decoded from its JSON as the browser receives it."""
    out = []
    for trace in json.loads(fig.to_json())["data"]:
        out.extend(decode(v) for k, v in trace.items() if isinstance(v, dict) and "bdata" in v)
    return out


def test_extreme_kernel_values_are_beyond_float32():
    assert np.abs(K).max() > 1e40 and np.all(np.isfinite(K))


def test_plot_values_keeps_float32_when_it_fits_and_float64_when_it_would_overflow():
    assert plot_values([1.0, -2.5]).dtype == np.float32
    assert plot_values([1.0, 1e43]).dtype == np.float64
    assert plot_values([np.inf, 1.0]).dtype == np.float32


def test_gram_heatmap_and_spectrum_of_huge_values_arrive_finite_and_exact():
    sent = arrays(gram_heatmap(K, y))
    np.testing.assert_array_equal(sent[0].reshape(K.shape), K)
    check = check_psd(K)
    for a in arrays(spectrum_figure(check.eigenvalues, check.threshold)):
        assert np.all(np.isfinite(a))


def test_decision_and_objective_figures_of_huge_values_arrive_finite():
    xs = ys = np.linspace(-10, 10, 5)
    Z = np.outer(ys, xs) * 1e41
    contour = decode(json.loads(decision_figure(xs, ys, Z, X, y).to_json())["data"][0]["z"])
    np.testing.assert_array_equal(contour.reshape(Z.shape), Z)
    for a in arrays(objective_figure([1, 2, 3], [1e45, 1e44, 1e43], [1e44, 1e43, 1e42], 1.0)):
        assert np.all(np.isfinite(a))
