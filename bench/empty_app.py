"""The reference app of the benchmarks: one slider and the text it drives, nothing else.

bench_browser.py and bench_pages.py time the Kernel Lab pages against this app run the same way,
so the ratio says what the lab adds on top of Streamlit's own round trip.
"""

import streamlit as st

value = st.slider("value", 0, 100, 50, key="value")
st.write(f"value = {value}")
