"""The floor of a figure redraw: one slider and one small Plotly figure (ten points) it moves.

bench_browser.py times it beside the empty app, for information (no budget): what any Streamlit page
pays to redraw a Plotly figure after a slider move, before computing or drawing anything of its own.
"""

import plotly.graph_objects as go
import streamlit as st

value = st.slider("value", 0, 100, 50, key="value")
st.plotly_chart(go.Figure(go.Scatter(x=list(range(10)), y=[value * k for k in range(10)])), key="figure",
                theme=None)
