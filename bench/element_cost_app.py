"""A page built to order from the URL, for bench/element_cost.py: what each kind of element costs a slider move.

One fragment holds `s` sliders (the first moves the figures), `c` of the app's chart elements (lab/live_chart.py,
ten points each), then `h` headings and `m` paragraphs with inline formulas, `k` metrics in a row, `e` closed lazy
expanders and `t` display formulas. `o=1` writes the headings and paragraphs after the fragment instead of in it.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from lab import live_chart

q = st.query_params
count = {key: int(q.get(key, default)) for key, default in dict(s=1, c=1, h=0, m=0, k=0, e=0, t=0).items()}
text_outside = q.get("o") == "1"
PARAGRAPH = ("A paragraph with a formula, $f(x) = \\sum_i \\alpha_i y_i K(x_i, x) + b$, and a few more words about "
             "it, as a lesson's prose has. ") * 3
FORMULA = (r"\min_{\alpha}\ \frac{\lambda}{2}\,\alpha^\top K \alpha"
           r" + \frac{1}{n}\sum_{i=1}^{n}\max\{0,\ 1 - y_i (K\alpha)_i\}")


def text():
    for i in range(count["h"]):
        st.subheader(f"Heading {i + 1}")
    for _ in range(count["m"]):
        st.markdown(PARAGRAPH)


@st.fragment
def section():
    value = [st.slider(f"value {i + 1}", 0, 100, 50, key=f"value{i}") for i in range(count["s"])][0]
    for i in range(count["c"]):
        live_chart.chart(go.Figure(go.Scatter(x=np.arange(10.0), y=value * np.arange(10.0) + i)), key=f"chart{i}")
    if not text_outside:
        text()
    with st.container(horizontal=True):
        for i in range(count["k"]):
            st.metric(f"metric {i + 1}", f"{1.2345 * value + i:.4g}", width="content")
    for i in range(count["e"]):
        with st.expander(f"expander {i + 1}", key=f"expander{i}", on_change="rerun") as box:
            if box.open:
                st.write("open")
    for _ in range(count["t"]):
        st.latex(FORMULA)


section()
if text_outside:
    text()
