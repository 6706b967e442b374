"""A lesson made by the tests: proves that a registry entry plus its files is all a new lesson needs."""

import streamlit as st

from fixture_lesson.compute import doubled
from lessons import page, widgets

page.header("Fixture lesson", "A lesson that exists only in the tests.", r"y = 2x")


@page.fragment
def lesson():
    gamma = widgets.log_slider("γ (a control of the schema)", "fm_gamma")
    st.metric("2γ", f"{doubled(gamma):g}")


lesson()
