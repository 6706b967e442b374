"""A live section's slider (lab/live_control.py): its positions, and what it takes from the browser."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lab.live_control import Positions
from lab.state import C_VALUES, FIELDS, encode
from lab.widgets import fmt
from pageutil import registry  # noqa: F401  (every lesson's fields registered)

DEGREE = FIELDS["pd_degree"]     # int, 1..10
COEF0 = FIELDS["pd_coef0"]       # float, -2..2
C = FIELDS["pd_C"]               # a choice


def test_a_choice_offers_its_choices_with_their_shown_and_link_texts():
    positions = Positions(C, 1)
    assert positions.count == len(C_VALUES)
    assert [positions.value(k) for k in range(positions.count)] == list(C_VALUES)
    options = positions.options(fmt)
    assert options["texts"] == [fmt(c) for c in C_VALUES]
    assert options["link"] == [encode(C, c) for c in C_VALUES]
    assert all(positions.at(c) == k for k, c in enumerate(C_VALUES))


@pytest.mark.parametrize(("field", "step", "values"), [
    (DEGREE, 1, list(range(1, 11))),
    (COEF0, 0.25, [-2.0 + 0.25 * k for k in range(17)]),
    (FIELDS["pg_T"], 100, list(range(100, 20_001, 100))),
])
def test_a_numeric_slider_offers_lo_lo_plus_step_up_to_hi(field, step, values):
    positions = Positions(field, step)
    got = [positions.value(k) for k in range(positions.count)]
    assert got == values and all(type(v) is type(values[0]) for v in got)
    assert [positions.at(v) for v in values] == list(range(len(values)))
    options = positions.options(fmt)
    # the element writes lo + k * step with `digits` decimals: the link's text of each value
    assert [str(float(f"{options['lo'] + k * options['step']:.{options['digits']}f}")).removesuffix(".0")
            for k in range(options["count"])] == [encode(field, v).removesuffix(".0") for v in values]


def test_a_toggle_offers_off_then_on_and_links_them_as_the_link_writes_a_flag():
    positions = Positions(FIELDS["pd_hard"], 1)
    assert positions.count == 2 and [positions.value(0), positions.value(1)] == [False, True]
    assert positions.at(True) == 1 and positions.options(str)["link"] == ["false", "true"]


def test_a_value_a_link_set_off_the_grid_is_placed_at_the_nearest_position():
    positions = Positions(FIELDS["pg_T"], 100)
    assert positions.at(150) in (0, 1) and positions.at(20_000) == positions.count - 1


@given(st.one_of(st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=5),
                 st.integers(min_value=-10**6, max_value=10**6), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)))
def test_the_browser_is_not_trusted_only_a_position_is_a_value(raw):
    for field, step in ((C, 1), (DEGREE, 1), (COEF0, 0.25)):
        positions = Positions(field, step)
        value = positions.value(raw)
        if type(raw) is int and 0 <= raw < positions.count:
            assert value == positions.value(raw) and value is not None
            assert (value in field.choices) if field.kind == "choice" else field.lo <= value <= field.hi
        else:
            assert value is None


def test_every_value_is_finite_and_within_its_fields_range():
    for field, step in ((DEGREE, 1), (COEF0, 0.25)):
        positions = Positions(field, step)
        assert all(math.isfinite(positions.value(k)) and field.lo <= positions.value(k) <= field.hi
                   for k in range(positions.count))
