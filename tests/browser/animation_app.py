"""A decision plot whose boundary grows over 30 frames, for the chart element's Play / Step / Reset
(tests/browser/test_browser.py): boundary_frames on decision_figure, drawn by lab/live_chart.py."""

import numpy as np

from figures.boundary import boundary_frames, decision_figure
from lab import live_chart

RADII = np.linspace(0.4, 1.4, 30)
xs = ys = np.linspace(-2.0, 2.0, 80)
gx, gy = np.meshgrid(xs, ys)
grids = [gx ** 2 + gy ** 2 - r ** 2 for r in RADII]
X = np.array([[0.0, 0.0], [1.8, 1.8]])
y = np.array([-1.0, 1.0])
fig = decision_figure(xs, ys, grids[-1], X, y,
                      frames=boundary_frames(xs, ys, grids, [f"radius {r:.2f}" for r in RADII]))
live_chart.chart(fig, key="animation")
