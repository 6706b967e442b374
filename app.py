"""Kernel Lab: the router. Page config, the shared sidebar, and navigation over lessons/."""

import streamlit as st

from lessons import common
from lessons.server import tune_process

st.set_page_config(page_title="Kernel Lab", page_icon=":material/hub:", layout="wide")
tune_process()  # once per process: no 40 ms Nagle stalls, no import-time heap in full GC passes (lessons/server.py)

PAGES = [
    st.Page("lessons/1_feature_maps.py", title="1 · Feature maps & the kernel trick", url_path="feature-maps", default=True),
    st.Page("lessons/2_circle_lift.py", title="2 · The circle, lifted to 3-D", url_path="circle"),
    st.Page("lessons/3_primal_dual.py", title="3 · SVM: primal versus dual", url_path="primal-dual"),
    st.Page("lessons/4_pegasos.py", title="4 · Pegasos & the perceptron", url_path="pegasos"),
    st.Page("lessons/5_mercer.py", title="5 · Mercer: is K a kernel?", url_path="mercer"),
    st.Page("lessons/6_regression.py", title="6 · Kernel regression", url_path="regression"),
]

page = st.navigation(PAGES)
common.sidebar()
page.run()
