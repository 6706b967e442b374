"""Plotly figure builders: pure functions (arrays, options) -> go.Figure; numpy and plotly only."""
