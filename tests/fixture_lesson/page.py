"""A lesson made by the tests: proves that a registry entry plus its folder is all a new lesson needs."""

import streamlit as st

from fixture_lesson import reproduce
from fixture_lesson.compute import doubled
from fixture_lesson.presets import PRESETS
from fixture_lesson.sections import LINE
from lab import page, widgets

page.header("Fixture lesson", "A lesson that exists only in the tests.", r"y = 2x")
page.presets_row(PRESETS)


@page.fragment
def lesson():
    gamma = widgets.log_slider("γ (a control of the schema)", "fx_gamma")
    st.metric("2γ", f"{doubled(gamma):g}")
    setup, data, _ = page.run(LINE)
    page.chart(LINE.figures(setup, data, None)["fx_line"], key="fx_line")
    page.reproduce("fx_reproduce", "the doubling", reproduce.doubled, gamma)


lesson()
