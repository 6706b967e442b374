"""The landing page: what the lab is, and a link to each lesson (st.navigation's default page is served at "/",
so every lesson keeps its own link, /feature-maps included)."""

import streamlit as st

from lessons.registry import LESSONS, nav_title

st.title("Kernel Lab")
st.markdown(
    "Move a slider and watch the decision boundary, the margins, the support vectors, the α's and the numbers that "
    "prove the theory change under your eyes: the duality gap, K = φ·φ, the eigenvalues of the Gram matrix. "
    "Every setting is in the link, so a link reopens exactly the view you see. Pick a lesson:"
)
for lesson in LESSONS:
    st.page_link(lesson.script, label=nav_title(lesson), icon=":material/school:")
    st.caption(lesson.summary)
