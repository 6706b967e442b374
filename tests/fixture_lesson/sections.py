"""The fixture lesson's live section: the line y = 2γx, its γ slider answered by the route."""

from fixture_lesson.compute import line
from lab.section import Section, no_data

LINE = Section("fixture", ("fx_gamma",), setup=lambda values: values["fx_gamma"], data=no_data,
               figures=lambda gamma, data, charts: {"fx_line": line(gamma)}, live=("fx_gamma",))
SECTIONS = (LINE,)
