"""Plotly figure builders: pure functions (arrays, options) -> go.Figure; numpy and plotly only."""

import numpy as np

F32_MAX = float(np.finfo(np.float32).max)


def plot_values(a):
    """Values for the browser: float32 (half the bytes) when every finite value fits, else float64.

    Extreme settings (a degree-10 polynomial with γ = 100 on points near |x| = 10) give kernel values
    near 1e43; cast to float32 they would turn into inf and draw a wrong picture without a word.
    """
    a = np.asarray(a, dtype=np.float64)
    finite = a[np.isfinite(a)]
    return a.astype(np.float32) if finite.size == 0 or np.abs(finite).max() <= F32_MAX else a
